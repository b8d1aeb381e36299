package decoding

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hostileFile is a manifest written by hand: YAML features people use (anchors,
// merge keys, block scalars, YAML 1.1 octals and booleans) and inputs built to hurt a
// reader (alias bombs, nesting past the parsers' limits, huge values, many
// documents). want is a part of kubectl's outcome the file was written to reach
// ("nothing": no object sent and no error), so that a change upstream or here cannot
// turn the case into another one unnoticed.
type hostileFile struct {
	name, text, want string
}

const podHead = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n"

func hostileFiles() []hostileFile {
	pod := func(spec string) string { return podHead + "spec:\n" + spec }
	container := "  containers:\n  - name: c\n    image: busybox\n"
	nine := func(prev string) string { return strings.TrimSuffix(strings.Repeat("*"+prev+",", 9), ",") }
	var bomb strings.Builder
	bomb.WriteString(podHead + "  annotations:\n    a: &a [\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\"]\n")
	for i, l := range "bcdefghi" {
		fmt.Fprintf(&bomb, "    %c: &%c [%s]\n", l, l, nine(string("abcdefgh"[i])))
	}
	bomb.WriteString("spec:\n" + container)
	return []hostileFile{
		{"anchors and aliases", pod("  containers:\n  - name: a\n    image: busybox\n    resources: &res\n      requests: {cpu: 100m}\n  - name: b\n    image: busybox\n    resources: *res\n"), "server 201"},
		{"merge key", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, labels: &labels {app: web}}\nspec:\n  selector: {matchLabels: *labels}\n  template:\n    metadata: {labels: *labels}\n    spec:\n      containers:\n      - &base {name: web, image: nginx}\n      - <<: *base\n        name: sidecar\n", "server 201"},
		{"merge key list", "base: &b {image: nginx}\n---\n" + pod("  containers:\n  - <<: [*b]\n    name: c\n"), "error"},
		{"anchor redefined", pod("  containers:\n  - name: &n a\n    image: &n busybox\n    command: [*n]\n"), "server 201"},
		{"unknown anchor", pod("  containers:\n  - name: c\n    image: *img\n"), "error parsing"},
		{"alias bomb", bomb.String(), "excessive aliasing"},
		{"flow nesting past the YAML limit", podHead + "  labels: " + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + "\n", "max depth"},
		{"map nesting past the JSON limit", podHead + "  labels: " + strings.Repeat("{a: ", 10001) + "1" + strings.Repeat("}", 10001) + "\n", "max depth"},
		{"JSON nesting past the limit", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","labels":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + "}}", "max depth"},
		{"deep unknown field", pod(container) + "x: " + strings.Repeat("[", 2000) + strings.Repeat("]", 2000) + "\n", "unknown field"},
		{"deep value of the wrong type", podHead + "  labels: " + strings.Repeat("{a: ", 500) + "1" + strings.Repeat("}", 500) + "\n" + "spec:\n" + container, "unable to decode"},
		{"YAML 1.1 octal mode", pod(container + "  volumes:\n  - name: v\n    configMap: {name: cm, defaultMode: 0644}\n"), "server 201"},
		{"YAML 1.2 octal mode", pod(container + "  volumes:\n  - name: v\n    configMap: {name: cm, defaultMode: 0o644}\n"), "server 201"},
		{"hex number", pod(container + "  terminationGracePeriodSeconds: 0x1E\n"), "server 201"},
		{"YAML 1.1 booleans", pod(container + "  hostNetwork: yes\n  enableServiceLinks: off\n"), "server 201"},
		{"Norway", pod(container + "    env:\n    - name: COUNTRY\n      value: no\n"), "server 400"},
		{"quoted Norway", pod(container + "    env:\n    - name: COUNTRY\n      value: \"no\"\n"), "server 201"},
		{"number for a string", pod(container + "    env:\n    - name: VERSION\n      value: 1.10\n"), "server 400"},
		{"timestamp for a string", podHead + "  annotations: {built: 2001-12-14}\nspec:\n" + container, "server 201"},
		{"explicit string tag", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  replicas: !!str 3\n  selector: {matchLabels: {a: b}}\n  template:\n    metadata: {labels: {a: b}}\n    spec:\n      containers: [{name: c, image: busybox}]\n", "server 400"},
		{"explicit int tag", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  replicas: !!int \"3\"\n  selector: {matchLabels: {a: b}}\n  template:\n    metadata: {labels: {a: b}}\n    spec:\n      containers: [{name: c, image: busybox}]\n", "server 201"},
		{"binary tag", pod("  containers:\n  - name: c\n    image: !!binary YnVzeWJveA==\n"), "server 201"},
		{"custom tag", pod("  containers:\n  - name: c\n    image: !local busybox\n"), "server 201"},
		{"infinity", pod(container + "  activeDeadlineSeconds: .inf\n"), "unsupported value: +Inf"},
		{"not a number", pod(container + "  activeDeadlineSeconds: .nan\n"), "unsupported value: NaN"},
		{"exponent past float64", pod(container + "  activeDeadlineSeconds: 1e400\n"), "cannot unmarshal string into Go struct field PodSpec.spec.activeDeadlineSeconds"},
		{"integer and boolean keys", podHead + "  labels: {1: a, true: b}\nspec:\n" + container, "server 201"},
		{"null key", podHead + "  labels: {1: a, null: c}\nspec:\n" + container, "unsupported map key"},
		{"sequence as a key", podHead + "  labels: {? [a, b] : c}\nspec:\n" + container, "error parsing"},
		{"null document", "--- null\n---\n" + pod(container), "invalid Yaml document separator: null"},
		{"tilde document", "--- ~\n---\n" + pod(container), "invalid Yaml document separator: ~"},
		{"scalar document", "--- hello\n---\n" + pod(container), "error"},
		{"sequence document", "- a\n- b\n---\n" + pod(container), "error"},
		{"document end marker", pod(container) + "...\n---\n" + strings.Replace(pod(container), "name: p", "name: q", 1) + "...\n", "server 201"},
		{"block scalars", pod("  containers:\n  - name: c\n    image: busybox\n    command:\n    - sh\n    - -c\n    - |\n      echo one\n      echo two\n    args:\n    - >-\n      folded\n      line\n"), "server 201"},
		{"NUL and escapes in a name", pod("  containers:\n  - name: \"c\\0\\u00e9\\x41\"\n    image: busybox\n"), "server 201"},
		{"quoted keys", "\"apiVersion\": v1\n'kind': Pod\nmetadata: {\"name\": p}\nspec: {\"containers\": [{'name': c, \"image\": busybox}]}\n", "server 201"},
		{"one MiB annotation", podHead + "  annotations:\n    big: " + strings.Repeat("x", 1<<20) + "\nspec:\n" + container, "server 201"},
		{"four MiB body", podHead + "  annotations:\n    big: " + strings.Repeat("x", 4<<20) + "\nspec:\n" + container, "server 413"},
		{"many empty documents", strings.Repeat("---\n", 20000) + pod(container), "server 201"},
		{"many comment documents", strings.Repeat("# c\n---\n", 20000) + pod(container), "server 201"},
		{"two thousand objects", strings.Repeat("---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\n", 2000), "server 201"},
		{"only comments", "# nothing\n---\n# here\n", "nothing"},
		{"empty file", "", "nothing"},
		{"whitespace", "\n \n\t\n", "cannot start any token"},
		{"JSON with a comment", "{\"apiVersion\": \"v1\", // a comment\n\"kind\": \"Pod\"}\n", "error"},
		{"JSON with a trailing comma", `{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": {"containers": [{"name": "c", "image": "busybox"},]}}`, "server 201"},
		{"JSON then garbage", `{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": {"containers": [{"name": "c", "image": "busybox"}]}} }`, "server 201"},
		{"long key", podHead + "  labels:\n    " + strings.Repeat("k", 1<<16) + ": v\nspec:\n" + container, "mapping values are not allowed"},
		{"implicit key past 1024 characters", podHead + "  labels: {" + strings.Repeat("k", 2000) + ": v}\nspec:\n" + container, "did not find expected ','"},
	}
}

// TestHostileFilesMatchKubectl compares, file by file, what ValidateStream answers on
// hand-written hostile and unusual manifests with what kubectl create -f and the
// server's decoding answer, and checks that each file reaches the outcome it was
// written for.
func TestHostileFilesMatchKubectl(t *testing.T) {
	u := getUpstream(t)
	dir := t.TempDir()
	for i, f := range hostileFiles() {
		t.Run(f.name, func(t *testing.T) {
			path := filepath.Join(dir, fmt.Sprintf("h%02d.yaml", i))
			if err := os.WriteFile(path, []byte(f.text), 0o600); err != nil {
				t.Fatal(err)
			}
			want := u.createFile(path)
			got, _, err := ours(path)
			if err != nil {
				t.Fatal(err)
			}
			if diff := compare(want, got); diff != "" {
				t.Errorf("disagrees: %s", shorten(diff))
			}
			outcome := describe(want)
			if f.want == "nothing" && outcome != "" || f.want != "nothing" && !strings.Contains(outcome, f.want) {
				t.Errorf("kubectl's outcome does not contain %q:\n%s", f.want, shorten(outcome))
			}
			t.Logf("%s", shorten(outcome))
		})
	}
}

// describe renders an outcome as one line per object sent and per error.
func describe(o kubectlOutcome) string {
	var b strings.Builder
	for _, s := range o.sent {
		fmt.Fprintf(&b, "server %d %s/%s %s\n", s.status, s.kind, s.name, s.message)
	}
	for _, e := range o.errors {
		fmt.Fprintf(&b, "error %s\n", e)
	}
	return b.String()
}

// shorten cuts a text to its first and last 600 bytes.
func shorten(s string) string {
	if len(s) <= 1500 {
		return s
	}
	return s[:600] + fmt.Sprintf("…(%d bytes)…", len(s)-1200) + s[len(s)-600:]
}
