package validation

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math/rand"
	"slices"
	"strconv"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

func TestTypeErrorField(t *testing.T) {
	for _, tc := range []struct {
		name, doc, want string
	}{
		{"env value in the third entry", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n    image: busybox\n    env:\n    - {name: A, value: a}\n    - {name: B, value: \"yes\"}\n    - name: C\n      value: yes\n",
			"spec.containers[0].env[2].value"},
		{"second container", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: a\n    image: busybox\n    env: [{name: A, value: a}]\n  - name: b\n    image: busybox\n    env: [{name: B, value: 1.10}]\n",
			"spec.containers[1].env[0].value"},
		{"labels, the first mistyped by name", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  labels:\n    zone: 1\n    app: web\n    build: 42\nspec:\n  containers: [{name: c, image: busybox}]\n",
			"metadata.labels[build]"},
		{"a list entry", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n    image: busybox\n    args: [--port, 8080]\n",
			"spec.containers[0].args[1]"},
		{"a number that is not an integer", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  replicas: 1.50\n  selector: {matchLabels: {a: b}}\n  template:\n    metadata: {labels: {a: b}}\n    spec: {containers: [{name: c, image: busybox}]}\n",
			"spec.replicas"},
		{"a string for a number", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n    image: busybox\n    ports: [{containerPort: 80}, {containerPort: \"8080\"}]\n",
			"spec.containers[0].ports[1].containerPort"},
		{"an object for a list", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: {name: c, image: busybox}\n",
			"spec.containers"},
		{"a List item", "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata: {name: p}\n  spec:\n    containers: [{name: c, image: busybox, env: [{name: A, value: true}]}]\n",
			"spec.containers[0].env[0].value"},
		{"JSON", `{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "annotations": {"b": "x", "a": false}}, "spec": {"containers": [{"name": "c", "image": "busybox"}]}}`,
			"metadata.annotations[a]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := 0
			for r := range ValidateStream(strings.NewReader(tc.doc), "f", StreamOptions{}) {
				n++
				got, ok := r.TypeErrorField()
				if !ok || got != tc.want {
					t.Errorf("TypeErrorField() = %q, %t; want %q (answer: %s %s)", got, ok, tc.want, r.Verdict, r.Message())
				}
			}
			if n != 1 {
				t.Errorf("%d results, want 1", n)
			}
		})
	}
	valid := "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: busybox}]\n"
	for r := range ValidateStream(strings.NewReader(valid), "f", StreamOptions{}) {
		if got, ok := r.TypeErrorField(); ok {
			t.Errorf("valid pod: TypeErrorField() = %q, true", got)
		}
	}
}

// TestTypeErrorFieldMatchesDecoder checks TypeErrorField against encoding/json itself
// on generated pods and deployments with values of the wrong type scattered in
// several places: the body kubectl would send (the document's JSON, keys sorted) is
// decoded into the typed object, and the value that ends at the decoder's error
// offset must be the one TypeErrorField names.
func TestTypeErrorFieldMatchesDecoder(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	var compared, yamlDocs, jsonDocs, mapEntries, listEntries int
	for i := range 600 {
		doc, obj := typeErrorDoc(rng, i)
		body, err := json.Marshal(doc) // kubectl's body: keys sorted at every level
		if err != nil {
			t.Fatal(err)
		}
		var te *json.UnmarshalTypeError
		if !errors.As(json.Unmarshal(body, obj), &te) {
			continue // this draw mistyped nothing
		}
		want, ok := valueEndingAt(body, te.Offset)
		if !ok {
			t.Fatalf("doc %d: no value ends at the decoder's offset %d: %s", i, te.Offset, body)
		}
		text, fromYAML := string(body), i%2 == 0
		if fromYAML {
			text = blockYAML(doc, "")
			yamlDocs++
		} else {
			jsonDocs++
		}
		for r := range ValidateStream(strings.NewReader(text), "f", StreamOptions{}) {
			got, ok := r.TypeErrorField()
			if !ok || got != want {
				t.Fatalf("doc %d: TypeErrorField() = %q, %t; the decoder stopped at %q (%s)\n%s", i, got, ok, want, r.Message(), text)
			}
			compared++
			switch {
			case lastKey(want) != "":
				mapEntries++
			case strings.Contains(want, "args["):
				listEntries++
			}
		}
	}
	t.Logf("%d compared (%d YAML, %d JSON), %d map entries, %d list entries", compared, yamlDocs, jsonDocs, mapEntries, listEntries)
	if compared < 300 || yamlDocs < 100 || jsonDocs < 100 || mapEntries < 20 || listEntries < 20 {
		t.Errorf("coverage: %d compared (%d YAML, %d JSON), %d map entries, %d list entries; want ≥300, ≥100, ≥100, ≥20, ≥20",
			compared, yamlDocs, jsonDocs, mapEntries, listEntries)
	}
}

// lastKey is a map key a path ends with, "" otherwise.
func lastKey(path string) string {
	if !strings.HasSuffix(path, "]") {
		return ""
	}
	inner := path[strings.LastIndexByte(path, '[')+1 : len(path)-1]
	if _, err := strconv.Atoi(inner); err == nil {
		return ""
	}
	return inner
}

// typeErrorDoc draws a Pod or a Deployment whose env values, args, labels, ports and
// replicas are sometimes of the wrong JSON type, and returns it with the typed object
// it decodes into.
func typeErrorDoc(rng *rand.Rand, i int) (map[string]any, runtime.Object) {
	scalar := func(want string) any {
		switch rng.Intn(8) {
		case 0:
			return rng.Intn(2) == 0
		case 1:
			return json.Number(strconv.Itoa(rng.Intn(100)))
		case 2:
			if want == "int" {
				return json.Number("1.5")
			}
		}
		if want == "int" {
			return json.Number(strconv.Itoa(1 + rng.Intn(9000)))
		}
		return fmt.Sprintf("v%d", rng.Intn(100))
	}
	labels := map[string]any{}
	for k := range rng.Intn(4) {
		labels[fmt.Sprintf("k%d-%c", k, 'a'+rune(rng.Intn(26)))] = scalar("string")
	}
	var containers []any
	for c := range 1 + rng.Intn(3) {
		var env, args, ports []any
		for e := range rng.Intn(4) {
			env = append(env, map[string]any{"name": fmt.Sprintf("E%d", e), "value": scalar("string")})
		}
		for range rng.Intn(3) {
			args = append(args, scalar("string"))
		}
		for range rng.Intn(3) {
			ports = append(ports, map[string]any{"containerPort": scalar("int")})
		}
		containers = append(containers, map[string]any{"name": fmt.Sprintf("c%d", c), "image": "busybox", "env": env, "args": args, "ports": ports})
	}
	spec := map[string]any{"containers": containers}
	meta := map[string]any{"name": "x", "labels": labels}
	if i%3 != 0 {
		return map[string]any{"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec}, &corev1.Pod{}
	}
	return map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "d"},
		"spec": map[string]any{"replicas": scalar("int"), "template": map[string]any{"metadata": meta, "spec": spec}}}, &appsv1.Deployment{}
}

// valueEndingAt walks a JSON text and returns the field path of the scalar value that
// ends at offset (the keys of labels and annotations as map keys).
func valueEndingAt(body []byte, offset int64) (string, bool) {
	type frame struct {
		array     bool
		index     int
		key       string
		expectKey bool
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var stack []frame
	path := func() string {
		var p *field.Path
		parent := ""
		for _, f := range stack {
			switch {
			case f.array && p != nil:
				p = p.Index(f.index)
			case !f.array && p == nil:
				p = field.NewPath(f.key)
			case !f.array && (parent == "labels" || parent == "annotations"):
				p = p.Key(f.key) // the generated maps of strings
			case !f.array:
				p = p.Child(f.key)
			}
			parent = f.key
		}
		return p.String()
	}
	done := func() {
		if n := len(stack); n > 0 && !stack[n-1].array {
			stack[n-1].expectKey = true
		}
	}
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return "", false
		} else if err != nil {
			return "", false
		}
		n := len(stack)
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			stack = stack[:n-1]
			done()
			continue
		}
		if n > 0 && stack[n-1].expectKey {
			stack[n-1].key, stack[n-1].expectKey = tok.(string), false
			continue
		}
		if n > 0 && stack[n-1].array {
			stack[n-1].index++
		}
		if d, ok := tok.(json.Delim); ok {
			stack = append(stack, frame{array: d == '[', index: -1, expectKey: d == '{'})
			continue
		}
		if dec.InputOffset() == offset {
			return path(), true
		}
		done()
	}
}

// blockYAML writes a decoded JSON value as block YAML, strings double-quoted.
func blockYAML(v any, indent string) string {
	var b strings.Builder
	switch v := v.(type) {
	case map[string]any:
		if len(v) == 0 {
			return "{}\n"
		}
		keys := slices.Sorted(maps.Keys(v))
		// Keys in reverse: the file's order must not matter.
		slices.Reverse(keys)
		for _, k := range keys {
			b.WriteString(indent + k + ":")
			writeYAMLValue(&b, v[k], indent)
		}
	case []any:
		for _, e := range v {
			b.WriteString(indent + "-")
			writeYAMLValue(&b, e, indent+"  ")
		}
	}
	return b.String()
}

func writeYAMLValue(b *strings.Builder, v any, indent string) {
	switch v := v.(type) {
	case map[string]any, []any:
		if m, ok := v.(map[string]any); ok && len(m) == 0 {
			b.WriteString(" {}\n")
			return
		}
		if l, ok := v.([]any); ok && len(l) == 0 {
			b.WriteString(" []\n")
			return
		}
		b.WriteString("\n" + blockYAML(v, indent+"  "))
	case string:
		b.WriteString(" " + strconv.Quote(v) + "\n")
	default:
		fmt.Fprintf(b, " %v\n", v)
	}
}
