package validation

import (
	"bytes"
	"strings"
	"testing"
)

const locateDoc = `# comment
apiVersion: v1
kind: Pod
metadata:
  name: web
  labels:
    app.kubernetes.io/name: web
spec:
  containers:
  - name: app
    image: nginx
    ports:
    - containerPort: 80
  -
    name: sidecar
    args: [a, b]
  volumes:
  - name: data
    emptyDir: {}
  "quoted": x
`

const locateJSONDoc = `{
  "metadata": {"name": "web"},
  "spec": {
    "containers": [
      {"name": "app"},
      {
        "name": "sidecar",
        "args": ["a"]
      }
    ]
  }
}`

func TestLocate(t *testing.T) {
	for _, tc := range []struct {
		path string
		json bool
		want int // 0-based line
	}{
		{"", false, 1},
		{"metadata.name", false, 4},
		{"metadata.labels[app.kubernetes.io/name]", false, 6},
		{"metadata.labels[missing]", false, 5},
		{"spec.containers[0].image", false, 10},
		{"spec.containers[0].ports[0].containerPort", false, 12},
		{"spec.containers[1].name", false, 14},
		{"spec.containers[1].args", false, 15},
		{"spec.containers[1].args[1]", false, 15},
		{"spec.containers[2].image", false, 8},
		{"spec.containers.args", false, 15},
		{"spec.volumes[0].emptyDir.medium", false, 18},
		{"spec.quoted", false, 19},
		{"status.phase", false, 1},
		{"", true, 0},
		{"metadata.name", true, 1},
		{"spec.containers[1].args[0]", true, 7},
		{"spec.containers[1]", true, 5},
		{"spec.containers[0].image", true, 4},
		{"spec.containers[5]", true, 3},
	} {
		text := locateDoc
		if tc.json {
			text = locateJSONDoc
		}
		if got := locate([]byte(text), !tc.json, parseFieldPath(tc.path)); got != tc.want {
			t.Errorf("locate(%q, json %t) = %d, want %d", tc.path, tc.json, got, tc.want)
		}
	}
}

// FuzzLocate checks that locate never panics and answers a line of the text.
func FuzzLocate(f *testing.F) {
	f.Add(locateDoc, "spec.containers[1].args[1]", true)
	f.Add(locateJSONDoc, "spec.containers[1].args[0]", false)
	f.Add("- a\n- - b: c\n", "[1][0].b", true)
	f.Fuzz(func(t *testing.T, text, path string, fromYAML bool) {
		got := locate([]byte(text), fromYAML, parseFieldPath(path))
		if lines := strings.Count(text, "\n") + 1; got < 0 || got >= lines && !(got == 0 && lines == 1) {
			t.Errorf("locate(%q, %q) = %d, outside the %d lines", text, path, got, lines)
		}
	})
}

// FuzzValidateStream checks the whole stream path: no panic, the same answer twice,
// and every line it reports within the input.
func FuzzValidateStream(f *testing.F) {
	for _, s := range append(append([]string{}, docReaderSeeds...), fastPathSeeds...) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		first := renderStream(data)
		if second := renderStream(data); first != second {
			t.Fatalf("two runs differ:\n%s\n%s", first, second)
		}
		var transcoded bytes.Buffer
		_, _ = transcoded.ReadFrom(newTranscoder(bytes.NewReader(data)))
		lines := bytes.Count(transcoded.Bytes(), []byte("\n")) + 1
		for r := range ValidateStream(bytes.NewReader(data), "f", StreamOptions{}) {
			check := func(what string, l int) {
				if l < 1 || l > lines {
					t.Errorf("%s line %d outside 1..%d for %q", what, l, lines, data)
				}
			}
			check("object", r.Line)
			for _, e := range r.Errors {
				check(e.Field, r.FieldLine(e.Field))
			}
			for _, w := range r.Warnings {
				check("warning", w.Line)
			}
		}
	})
}

func renderStream(data []byte) string {
	var b strings.Builder
	for r := range ValidateStream(bytes.NewReader(data), "f", StreamOptions{}) {
		b.WriteString(render(r) + "\n")
	}
	return b.String()
}
