// Package fuzzseed gives the conformance module's differential fuzz targets their
// seed pods: every Pod document of the main module's example manifests (the
// realistic corpus modelled on public documentation, with status where the
// examples show one), as JSON. The fuzzer mutates their bytes, so the pods it
// compares are pods no generator of this repository wrote.
package fuzzseed

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"sigs.k8s.io/yaml"
)

// root is the main module's directory, seen from a conformance package's directory.
const root = "../.."

// Pods returns the JSON of every document of kind Pod in the YAML files under the
// main module's examples directory, in file order. It fails tb when the files
// cannot be read or hold no pod, so that a moved corpus cannot leave a fuzz
// target without its seeds.
func Pods(tb testing.TB) [][]byte {
	tb.Helper()
	var files []string
	err := filepath.WalkDir(filepath.Join(root, "examples"), func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Ext(path) == ".yaml" {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		tb.Fatalf("fuzz seeds: %v", err)
	}
	sort.Strings(files)
	var pods [][]byte
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			tb.Fatalf("fuzz seeds: %v", err)
		}
		for _, doc := range bytes.Split(src, []byte("\n---")) {
			j, err := yaml.YAMLToJSON(doc)
			if err != nil {
				continue // the corpus keeps broken documents on purpose
			}
			var head struct{ Kind string }
			if json.Unmarshal(j, &head) == nil && head.Kind == "Pod" {
				pods = append(pods, j)
			}
		}
	}
	if len(pods) < 10 {
		tb.Fatalf("fuzz seeds: %d pods under %s/examples, want at least 10", len(pods), root)
	}
	return pods
}
