package validation

import (
	"fmt"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// hostileYAMLHead is a pod's first lines, up to metadata.name.
const hostileYAMLHead = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n"

// aliasBomb returns a pod whose annotations expand nine aliases nine times over,
// eight levels deep (9⁹ strings once expanded).
func aliasBomb() string {
	var b strings.Builder
	b.WriteString(hostileYAMLHead + "  annotations:\n    a: &a [x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i < 9; i++ {
		prev, cur := string(rune('a'+i-1)), string(rune('a'+i))
		fmt.Fprintf(&b, "    %s: &%s [%s]\n", cur, cur, strings.TrimSuffix(strings.Repeat("*"+prev+", ", 9), ", "))
	}
	return b.String() + validPod[len(hostileYAMLHead):]
}

// TestValidateStreamHostileYAML holds ValidateStream to kubectl's and the server's
// answers (conformance/decoding compares the same files with them) on YAML built to
// hurt a reader and on YAML features people rely on.
func TestValidateStreamHostileYAML(t *testing.T) {
	spec := validPod[len(hostileYAMLHead):]
	for _, tc := range []struct {
		name, in string
		want     []string
	}{
		{
			name: "an alias bomb is refused before it expands",
			in:   aliasBomb(),
			want: []string{"1.0@1   / rejected: error parsing f.yaml: error converting YAML to JSON: yaml: document contains excessive aliasing"},
		},
		{
			name: "nesting past the YAML parser's limit",
			in:   hostileYAMLHead + "  labels: " + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + "\n" + spec,
			want: []string{"1.0@5   / rejected: error parsing f.yaml: error converting YAML to JSON: yaml: line 5: exceeded max depth of 10000"},
		},
		{
			name: "nesting past the JSON decoder's limit",
			in:   `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web","labels":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + "}}",
			want: []string{"1.0@1   / rejected: error parsing f.yaml: json: offset 10065: invalid character '[' exceeded max depth"},
		},
		{
			name: "an unknown anchor",
			in:   hostileYAMLHead + "spec:\n  containers:\n  - name: app\n    image: *img\n",
			want: []string{"1.0@1   / rejected: error parsing f.yaml: error converting YAML to JSON: yaml: unknown anchor 'img' referenced"},
		},
		{
			name: "anchors, aliases and merge keys are expanded",
			in:   "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, labels: &labels {app: web}}\nspec:\n  selector: {matchLabels: *labels}\n  template:\n    metadata: {labels: *labels}\n    spec:\n      containers:\n      - &base {name: web, image: nginx}\n      - <<: *base\n        name: sidecar\n",
			want: []string{"1.0@1 apps/v1 Deployment default/web valid"},
		},
		{
			// kubectl stops reading the file at the first (KubectlError.Stops); the
			// stream goes on.
			name: "a document separator followed by a value",
			in:   "--- null\n---\n" + validPod,
			want: []string{"1.0@1   / rejected: error parsing f.yaml: invalid Yaml document separator: null", "2.0@3 v1 Pod default/web valid"},
		},
		{
			name: "an unquoted no is a boolean",
			in:   validPod + "    env:\n    - name: COUNTRY\n      value: no\n",
			want: []string{`1.0@1 v1 Pod default/web rejected: Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal bool into Go struct field EnvVar.spec.containers.env.value of type string`},
		},
		{
			name: "YAML 1.1 and 1.2 octals are numbers",
			in:   validPod + "  volumes:\n  - name: a\n    configMap: {name: a, defaultMode: 0644}\n  - name: b\n    configMap: {name: b, defaultMode: 0o644}\n",
			want: []string{"1.0@1 v1 Pod default/web valid"},
		},
		{
			name: "infinity has no JSON form",
			in:   validPod + "  activeDeadlineSeconds: .inf\n",
			want: []string{"1.0@1   / rejected: error parsing f.yaml: error converting YAML to JSON: json: unsupported value: +Inf"},
		},
		{
			name: "a null key has no JSON form",
			in:   hostileYAMLHead + "  labels: {1: a, null: c}\n" + spec,
			want: []string{`1.0@1   / rejected: error parsing f.yaml: error converting YAML to JSON: unsupported map key of type: %!s(<nil>), key: <nil>, value: "c"`},
		},
		{
			name: "a simple key longer than 1024 characters",
			in:   hostileYAMLHead + "  labels:\n    " + strings.Repeat("k", 1025) + ": v\n" + spec,
			want: []string{"1.0@6   / rejected: error parsing f.yaml: error converting YAML to JSON: yaml: line 6: mapping values are not allowed in this context"},
		},
		{
			name: "twenty thousand empty documents before a pod",
			in:   strings.Repeat("---\n", 20000) + validPod,
			want: []string{"1.0@20001 v1 Pod default/web valid"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := renderAll(tc.in, StreamOptions{})
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestValidateStreamYAMLIntegers checks that the integer forms YAML allows reach the
// object as kubectl's conversion reads them: a file mode written 0644, 0o644 or 0x1A4
// is 420.
func TestValidateStreamYAMLIntegers(t *testing.T) {
	in := validPod + "  volumes:\n  - {name: a, configMap: {name: a, defaultMode: 0644}}\n  - {name: b, configMap: {name: b, defaultMode: 0o644}}\n  - {name: c, configMap: {name: c, defaultMode: 0x1A4}}\n"
	n := 0
	for r := range ValidateStream(strings.NewReader(in), "f.yaml", StreamOptions{DecodeOnly: true}) {
		n++
		pod, ok := r.Object.(*corev1.Pod)
		if !ok {
			t.Fatalf("object %T (%v), want a pod", r.Object, r.Err)
		}
		if len(pod.Spec.Volumes) != 3 {
			t.Fatalf("%d volumes, want 3", len(pod.Spec.Volumes))
		}
		for _, v := range pod.Spec.Volumes {
			if m := v.ConfigMap.DefaultMode; m == nil || *m != 0o644 {
				t.Errorf("volume %s: defaultMode %v, want 420", v.Name, m)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d results, want 1", n)
	}
}

// BenchmarkValidateStreamHostile reads streams that are large without holding many
// objects, at two sizes ten times apart: time and memory should grow tenfold.
//
//	go test -run '^$' -bench ValidateStreamHostile -benchmem ./validation/
func BenchmarkValidateStreamHostile(b *testing.B) {
	for _, n := range []int{20000, 200000} {
		for _, s := range []struct{ name, in string }{
			{"empty-documents", strings.Repeat("---\n", n) + validPod},
			{"comment-documents", strings.Repeat("# c\n---\n", n) + validPod},
			{"long-argument", validPod + "    args: [" + strings.Repeat("x", n*10) + "]\n"},
			{"spaces-before-JSON", strings.Repeat(" ", n) + `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web"},"spec":{"containers":[{"name":"app","image":"nginx"}]}}`},
		} {
			b.Run(fmt.Sprintf("%s/%d", s.name, n), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(s.in)))
				for b.Loop() {
					for r := range ValidateStream(strings.NewReader(s.in), "f.yaml", StreamOptions{}) {
						if r.Verdict != Valid {
							b.Fatalf("%v: %v", r.Verdict, r.Err)
						}
					}
				}
			})
		}
	}
}
