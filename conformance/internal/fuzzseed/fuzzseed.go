// Package fuzzseed gives the conformance module's differential fuzz targets their
// seeds: the documents of the main module's example manifests (the realistic
// corpus modelled on public documentation: pods with status where the examples
// show one, and every workload kind), as JSON. The fuzzer mutates their bytes, so
// the objects it compares are objects no generator of this repository wrote.
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
// cannot be read or hold fewer than 10 pods, so that a moved corpus cannot leave a
// fuzz target without its seeds.
func Pods(tb testing.TB) [][]byte {
	tb.Helper()
	return OfKind(tb, 10, "Pod")[0]
}

// OfKind returns, for each of kinds, the JSON of every document of that kind in
// the YAML files under the main module's examples directory (Lists are not
// opened), in file order. It fails tb when the files cannot be read or a kind has
// fewer than least documents.
func OfKind(tb testing.TB, least int, kinds ...string) [][][]byte {
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
	index := map[string]int{}
	for i, k := range kinds {
		index[k] = i
	}
	out := make([][][]byte, len(kinds))
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
			if json.Unmarshal(j, &head) != nil {
				continue
			}
			if i, ok := index[head.Kind]; ok {
				out[i] = append(out[i], j)
			}
		}
	}
	for i, k := range kinds {
		if len(out[i]) < least {
			tb.Fatalf("fuzz seeds: %d documents of kind %s under %s/examples, want at least %d", len(out[i]), k, root, least)
		}
	}
	return out
}

// MergePatch applies patch to the JSON document doc as a JSON merge patch (RFC
// 7386: an object merges key by key, null removes a key, anything else replaces),
// the way `kubectl patch --type merge` changes an object. Numbers are kept as
// written. ok is false when patch is not a JSON object or doc is not JSON.
func MergePatch(doc, patch []byte) (merged []byte, ok bool) {
	d, dok := decodeObject(doc)
	p, pok := decodeObject(patch)
	if !dok || !pok {
		return nil, false
	}
	merged, err := json.Marshal(mergeValue(d, p))
	return merged, err == nil
}

// Patched marshals obj, applies patch to its JSON as MergePatch does, and decodes
// the result into out, a pointer: the object a client sends after `kubectl patch
// --type merge`. It fails tb when obj does not marshal or patch is not a JSON object
// (check patches with MergePatch first), and returns false when the result does
// not decode into out.
func Patched(tb testing.TB, obj any, patch []byte, out any) bool {
	tb.Helper()
	b, err := json.Marshal(obj)
	if err != nil {
		tb.Fatalf("marshal: %v", err)
	}
	merged, ok := MergePatch(b, patch)
	if !ok {
		tb.Fatalf("merge patch of %T's JSON failed", obj)
	}
	return json.Unmarshal(merged, out) == nil
}

// decodeObject decodes a JSON object with its numbers as written (json.Number).
func decodeObject(b []byte) (map[string]any, bool) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var m map[string]any
	if dec.Decode(&m) != nil || m == nil || dec.More() {
		return nil, false
	}
	return m, true
}

// mergeValue is RFC 7386's MergePatch(target, patch).
func mergeValue(target, patch any) any {
	pm, ok := patch.(map[string]any)
	if !ok {
		return patch
	}
	tm, ok := target.(map[string]any)
	if !ok {
		tm = map[string]any{}
	}
	for k, v := range pm {
		if v == nil {
			delete(tm, k)
			continue
		}
		tm[k] = mergeValue(tm[k], v)
	}
	return tm
}

// AddPods adds the example pods (Pods) and n objects generated draws, as JSON,
// to f's seed corpus, each with its index as the selector byte of targets whose
// arguments are (sel uint8, data []byte).
func AddPods(f *testing.F, n int, generated func() any) {
	f.Helper()
	for i, pod := range Pods(f) {
		f.Add(uint8(i), pod)
	}
	for i := range n {
		b, err := json.Marshal(generated())
		if err != nil {
			f.Fatal(err)
		}
		f.Add(uint8(i), b)
	}
}
