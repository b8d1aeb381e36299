package decoding

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/podlife/podlife/conformance/internal/served"
)

// TestGeneratedTablesAreCurrent checks that the main module's generated tables of what
// a default server serves are what conformance/internal/genserved writes from upstream
// today.
func TestGeneratedTablesAreCurrent(t *testing.T) {
	for name, gen := range map[string]func() ([]byte, error){
		"zz_generated_served.go":  served.Generate,
		"zz_generated_openapi.go": served.GenerateOpenAPI,
	} {
		want, err := gen()
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join("..", "..", "validation", name))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("validation/%s is stale: run go run ./internal/genserved ../validation in conformance", name)
		}
	}
}
