package gates

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// checkSet compares every field of s with g.Enabled of the field's name.
func checkSet(t *testing.T, g FeatureGates, s Set) {
	t.Helper()
	v := reflect.ValueOf(s)
	for i := range v.NumField() {
		name := v.Type().Field(i).Name
		if got, want := v.Field(i).Bool(), g.Enabled(name); got != want {
			t.Errorf("%v: %s = %t, Enabled says %t", g, name, got, want)
		}
	}
}

// TestSetFields checks that Set's fields are known gates, that setFields lists them in
// order, and that set reaches each field (a missing case would leave it at false).
func TestSetFields(t *testing.T) {
	typ := reflect.TypeFor[Set]()
	if typ.NumField() != len(setFields) {
		t.Fatalf("Set has %d fields, setFields %d names", typ.NumField(), len(setFields))
	}
	for i := range typ.NumField() {
		name := typ.Field(i).Name
		if setFields[i] != name {
			t.Errorf("setFields[%d] = %s, field %s", i, setFields[i], name)
		}
		if _, ok := knownGates[name]; !ok {
			t.Errorf("field %s is not a v1.37.2 gate", name)
		}
		var s Set
		s.set(name, true)
		if !reflect.ValueOf(s).Field(i).Bool() {
			t.Errorf("set(%q) does not reach its field", name)
		}
	}
}

// TestResolve checks Resolve against Enabled: defaults, each gate flipped alone, the
// special gates, and random maps.
func TestResolve(t *testing.T) {
	checkSet(t, nil, FeatureGates(nil).Resolve())
	checkSet(t, FeatureGates{}, FeatureGates{}.Resolve())
	for _, name := range setFields {
		g := FeatureGates{name: !FeatureGates(nil).Enabled(name)}
		checkSet(t, g, g.Resolve())
	}
	for _, g := range []FeatureGates{
		{"AllAlpha": true},
		{"AllBeta": false},
		{"AllAlpha": true, "AllBeta": true},
		{"AllAlpha": false, "AllBeta": false},
		{"AllBeta": false, "ContainerRestartRules": true},
		{"AllAlpha": true, "ContainerStopSignals": false, "NoSuchGate": true},
	} {
		checkSet(t, g, g.Resolve())
	}
	r := rand.New(rand.NewPCG(1, 2))
	names := append(Known(), "NoSuchGate")
	for range 2000 {
		g := FeatureGates{}
		for range r.IntN(6) {
			g[names[r.IntN(len(names))]] = r.IntN(2) == 1
		}
		checkSet(t, g, g.Resolve())
	}
	if got := (FeatureGates{"AllBeta": false}).Resolve(); got.ContainerRestartRules || got.RestartAllContainersOnContainerExits {
		t.Error("AllBeta=false leaves the restart gates on")
	}
}

// TestResolveAllocatesNothing: the hot paths resolve gates on every call.
func TestResolveAllocatesNothing(t *testing.T) {
	g := FeatureGates{"ContainerRestartRules": false, "RestartAllContainersOnContainerExits": false}
	if n := testing.AllocsPerRun(100, func() { _ = g.Resolve() }); n != 0 {
		t.Errorf("Resolve allocates %v times", n)
	}
}

// TestNoDirectGateLookups walks the module's non-test source and fails on any index
// expression on a field named Features (opts.Features["X"]): gates are read through
// Resolve or Enabled, which apply AllAlpha, AllBeta and the defaults. It also fails on
// a gate read by name (an Enabled call) outside this package and the files listed in
// byName: validation.FeatureGateHints takes the resolved Set and the gates read by
// name as everything validation reads (validation/stream_hints.go), so a new read by
// name must be checked against it.
func TestNoDirectGateLookups(t *testing.T) {
	byName := map[string]bool{
		"lifecycle/simulate_runtime.go": true, // KubeletEnsureSecretPulledImages: validation does not import lifecycle
		"validation/stream_served.go":   true, // the served kinds' gates, part of FeatureGateHints's key
		"validation/stream_hints.go":    true, // the candidates themselves
		"examples/resources/main.go":    true, // resources' options set from gates, as the scheduler and kubelet set them
	}
	seen := map[string]bool{}
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "conformance" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		files++
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		ast.Inspect(f, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok && !strings.HasPrefix(rel, "internal/gates/") {
				if sel, ok := c.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Enabled" {
					seen[rel] = true
					if !byName[rel] {
						t.Errorf("%s: a gate read by name; check that FeatureGateHints's key covers it", fset.Position(c.Pos()))
					}
				}
			}
			ix, ok := n.(*ast.IndexExpr)
			if !ok {
				return true
			}
			if sel, ok := ix.X.(*ast.SelectorExpr); ok && sel.Sel.Name == "Features" {
				t.Errorf("%s: direct feature-gate lookup; use Resolve or Enabled", fset.Position(ix.Pos()))
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for file := range byName {
		if !seen[file] {
			t.Errorf("%s: no Enabled call found; update byName", file)
		}
	}
	if files < 50 {
		t.Fatalf("walked only %d files; is the module root where the test expects it?", files)
	}
}
