package examples_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestReadmeSnippet keeps README.md's "Use it" snippet equal to Example_readme, which
// compiles and checks its output: the README's block is the example file's imports
// followed by the lines between its README:begin and README:end markers.
func TestReadmeSnippet(t *testing.T) {
	src, err := os.ReadFile("readme_example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	f, err := parser.ParseFile(token.NewFileSet(), "readme_example_test.go", src, parser.ImportsOnly)
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	want.WriteString("```go\nimport (\n")
	group := func(p string) int {
		if strings.Contains(strings.SplitN(p, "/", 2)[0], ".") {
			if strings.HasPrefix(p, "github.com/podlife/") {
				return 2
			}
			return 1
		}
		return 0
	}
	last := -1
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		if g := group(p); last >= 0 && g != last {
			want.WriteString("\n")
		}
		last = group(p)
		want.WriteString("\t")
		if imp.Name != nil {
			want.WriteString(imp.Name.Name + " ")
		}
		want.WriteString(imp.Path.Value + "\n")
	}
	want.WriteString(")\n\n")
	text := string(src)
	begin := strings.Index(text, "\t// README:begin\n")
	end := strings.Index(text, "\t// README:end\n")
	if begin < 0 || end < begin {
		t.Fatal("no README markers in readme_example_test.go")
	}
	for _, l := range strings.Split(strings.TrimSuffix(text[begin+len("\t// README:begin\n"):end], "\n"), "\n") {
		want.WriteString(strings.TrimPrefix(l, "\t") + "\n")
	}
	want.WriteString("```\n")
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), want.String()) {
		t.Errorf("README.md's Use it block is not Example_readme; it should read:\n%s", want.String())
	}
}
