package apitest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// publicPackages are the packages whose exported API the fuzz targets must reach:
// the name callers use, the directory from this one, and the import path.
var publicPackages = []struct{ name, dir, path string }{
	{"podlife", "../..", "github.com/podlife/podlife"},
	{"resources", "../../resources", "github.com/podlife/podlife/resources"},
	{"validation", "../../validation", "github.com/podlife/podlife/validation"},
	{"apischeme", "../../validation/apischeme", "github.com/podlife/podlife/validation/apischeme"},
	{"apply", "../../validation/apply", "github.com/podlife/podlife/validation/apply"},
	{"restart", "../../restart", "github.com/podlife/podlife/restart"},
	{"lifecycle", "../../lifecycle", "github.com/podlife/podlife/lifecycle"},
}

// TestFuzzTargetsCoverAPI checks the README's claim that every exported function and
// method of the public packages is called by a native fuzz target. It parses the
// test files of the public packages, starts from their Fuzz functions and follows the
// calls of functions declared in the same directory's test files, and collects what
// the code reached names: a package's function by name (pkg.F, or F inside the
// package), a method by its name after a dot (x.M) in the package's own test code or
// in test code that imports the package. Methods are matched by name only, so a
// method sharing its name with another method of the same package counts as reached
// when either is called; exported functions have no such slack. The methods
// encoding/json and errors call through an interface count as reached where the
// code calls them: MarshalJSON by json.Marshal, UnmarshalJSON by json.Unmarshal,
// Unwrap by errors.Is or errors.As.
func TestFuzzTargetsCoverAPI(t *testing.T) {
	type api struct{ funcs, methods map[string]bool }
	exported := map[string]api{}
	reachedFuncs := map[string]bool{}              // "pkg.F"
	reachedMethods := map[string]map[string]bool{} // package -> method names
	for _, pkg := range publicPackages {
		reachedMethods[pkg.name] = map[string]bool{}
	}
	targets := 0
	for _, pkg := range publicPackages {
		a := api{funcs: map[string]bool{}, methods: map[string]bool{}}
		files, err := filepath.Glob(filepath.Join(pkg.dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		decls := map[string]*ast.FuncDecl{} // test-file functions by name
		var roots []*ast.FuncDecl
		imports := map[*ast.FuncDecl]map[string]string{} // local name -> public package
		for _, file := range files {
			f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasSuffix(file, "_test.go") {
				for _, d := range f.Decls {
					if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.IsExported() {
						if fd.Recv == nil {
							a.funcs[fd.Name.Name] = true
						} else if exportedReceiver(fd) {
							a.methods[fd.Name.Name] = true
						}
					}
				}
				continue
			}
			names := publicImports(f)
			if f.Name.Name == pkg.name {
				names[""] = pkg.name // unqualified calls inside the package
			}
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				imports[fd] = names
				if fd.Recv == nil {
					decls[fd.Name.Name] = fd
				}
				if fd.Recv == nil && strings.HasPrefix(fd.Name.Name, "Fuzz") {
					roots = append(roots, fd)
				}
			}
		}
		exported[pkg.name] = a
		targets += len(roots)
		seen := map[*ast.FuncDecl]bool{}
		for len(roots) > 0 {
			fd := roots[len(roots)-1]
			roots = roots[:len(roots)-1]
			if seen[fd] {
				continue
			}
			seen[fd] = true
			names := imports[fd]
			// The packages whose methods this function may call: its own and those
			// its file imports.
			var callee []string
			for _, p := range names {
				callee = append(callee, p)
			}
			callee = append(callee, pkg.name)
			method := func(name string) {
				for _, p := range callee {
					reachedMethods[p][name] = true
				}
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				switch x := n.(type) {
				case *ast.SelectorExpr:
					if id, ok := x.X.(*ast.Ident); ok {
						if p, ok := names[id.Name]; ok && id.Name != "" {
							reachedFuncs[p+"."+x.Sel.Name] = true
						}
						if via, ok := dispatched[id.Name+"."+x.Sel.Name]; ok {
							method(via)
						}
					}
					method(x.Sel.Name)
				case *ast.Ident:
					if p, ok := names[""]; ok {
						reachedFuncs[p+"."+x.Name] = true
					}
					if next, ok := decls[x.Name]; ok {
						roots = append(roots, next)
					}
				}
				return true
			})
		}
	}
	if targets < 60 {
		t.Fatalf("found %d fuzz targets in the public packages (62 when this test was written): the parse is wrong", targets)
	}
	var missing []string
	for _, pkg := range publicPackages {
		a := exported[pkg.name]
		if len(a.funcs)+len(a.methods) == 0 {
			t.Fatalf("no exported function or method found in %s", pkg.dir)
		}
		for name := range a.funcs {
			if !reachedFuncs[pkg.name+"."+name] {
				missing = append(missing, pkg.name+"."+name)
			}
		}
		for name := range a.methods {
			if !reachedMethods[pkg.name][name] {
				missing = append(missing, pkg.name+".(…)."+name)
			}
		}
	}
	slices.Sort(missing)
	if len(missing) > 0 {
		t.Errorf("exported functions and methods no fuzz target calls (%d): %v", len(missing), missing)
	}
}

// dispatched names the standard library functions that call a method of their
// argument through an interface, and the method.
var dispatched = map[string]string{
	"json.Marshal": "MarshalJSON", "json.MarshalIndent": "MarshalJSON", "json.Unmarshal": "UnmarshalJSON",
	"errors.Is": "Unwrap", "errors.As": "Unwrap",
}

// exportedReceiver reports whether a method's receiver type is exported.
func exportedReceiver(fd *ast.FuncDecl) bool {
	typ := fd.Recv.List[0].Type
	if star, ok := typ.(*ast.StarExpr); ok {
		typ = star.X
	}
	if idx, ok := typ.(*ast.IndexExpr); ok {
		typ = idx.X
	}
	id, ok := typ.(*ast.Ident)
	return ok && id.IsExported()
}

// publicImports maps the local names under which f imports the public packages to
// their names.
func publicImports(f *ast.File) map[string]string {
	names := map[string]string{}
	for _, imp := range f.Imports {
		path, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			continue
		}
		for _, pkg := range publicPackages {
			if pkg.path != path {
				continue
			}
			local := pkg.name
			if imp.Name != nil {
				local = imp.Name.Name
			}
			names[local] = pkg.name
		}
	}
	return names
}
