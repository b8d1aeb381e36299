package validation

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"testing/iotest"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// render prints a result on one line: position, identity, verdict, message, warnings.
func render(r ObjectResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d.%d@%d %s %s %s/%s %s", r.Document, r.Item, r.Line, r.APIVersion, r.Kind, r.Namespace, r.Name, r.Verdict)
	if m := r.Message(); m != "" {
		b.WriteString(": " + m)
	}
	for _, w := range r.Warnings {
		fmt.Fprintf(&b, " [%d: %s]", w.Line, w.Message)
	}
	return b.String()
}

func renderAll(in string, opts StreamOptions) []string {
	var out []string
	for r := range ValidateStream(strings.NewReader(in), "f.yaml", opts) {
		out = append(out, render(r))
	}
	return out
}

const validPod = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n  - name: app\n    image: nginx\n"

func TestValidateStream(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		opts StreamOptions
		want []string
	}{
		{
			name: "valid pod, default namespace",
			in:   validPod,
			want: []string{"1.0@1 v1 Pod default/web valid"},
		},
		{
			name: "unknown fields are the server's strict decoding error",
			in:   "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n  - name: app\n    image: nginx\n    imagePullPolice: Always\n    resource: {}\n",
			want: []string{`1.0@1 v1 Pod default/web rejected: Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.containers[0].imagePullPolice", unknown field "spec.containers[0].resource"`},
		},
		{
			name: "a value of the wrong type",
			in:   "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers: {}\n",
			want: []string{`1.0@1 v1 Pod default/web rejected: Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal object into Go struct field PodSpec.spec.containers of type []v1.Container`},
		},
		{
			name: "duplicate keys: kubectl keeps the last one",
			in:   "apiVersion: v1\nkind: Pod\nmetadata:\n  name: first\n  name: web\nspec:\n  containers:\n  - name: app\n    image: nginx\n",
			want: []string{`1.0@1 v1 Pod default/web valid [5: duplicate key "name": kubectl keeps only the last value and the API server never sees the others]`},
		},
		{
			name: "invalid pod: 422 with the server's message",
			in:   "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  namespace: prod\nspec:\n  containers:\n  - name: app\n",
			want: []string{`1.0@1 v1 Pod prod/web invalid: Pod "web" is invalid: spec.containers[0].image: Required value`},
		},
		{
			name: "generated name in the message",
			in:   "apiVersion: v1\nkind: Pod\nmetadata:\n  generateName: web-\nspec:\n  containers:\n  - name: app\n",
			want: []string{`1.0@1 v1 Pod default/ invalid: Pod "web-xxxxx" is invalid: spec.containers[0].image: Required value`},
		},
		{
			name: "apiVersion of another group",
			in:   "apiVersion: apps/v1\nkind: Pod\nmetadata:\n  name: web\n",
			want: []string{"1.0@1 apps/v1 Pod /web rejected: resource mapping not found for name: \"web\" namespace: \"\" from \"f.yaml\": no matches for kind \"Pod\" in version \"apps/v1\"\nensure CRDs are installed first"},
		},
		{
			name: "version no longer served",
			in:   "apiVersion: batch/v1beta1\nkind: CronJob\nmetadata:\n  name: hello\n  namespace: jobs\n",
			want: []string{"1.0@1 batch/v1beta1 CronJob jobs/hello rejected: resource mapping not found for name: \"hello\" namespace: \"jobs\" from \"f.yaml\": no matches for kind \"CronJob\" in version \"batch/v1beta1\"\nensure CRDs are installed first"},
		},
		{
			name: "missing apiVersion and kind",
			in:   "metadata:\n  name: web\n---\nkind: Pod\n",
			want: []string{
				`1.0@1   / rejected: error validating "f.yaml": error validating data: [apiVersion not set, kind not set]; if you choose to ignore these errors, turn validation off with --validate=false`,
				`2.0@4  Pod / rejected: error validating "f.yaml": error validating data: apiVersion not set; if you choose to ignore these errors, turn validation off with --validate=false`,
			},
		},
		{
			name: "not a map",
			in:   "- a\n- b\n",
			want: []string{`1.0@1   / rejected: error validating "f.yaml": error validating data: invalid object to validate; if you choose to ignore these errors, turn validation off with --validate=false`},
		},
		{
			name: "served kinds that hold no pod are not checked; cluster-scoped ones have no namespace",
			in:   "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: prod\n  namespace: x\n",
			want: []string{"1.0@1 v1 Service default/web not checked", "2.0@6 v1 Namespace /prod not checked"},
		},
		{
			name: "a List is expanded, item by item",
			in: "apiVersion: v1\nkind: List\nitems:\n- " + strings.TrimSuffix(strings.ReplaceAll(validPod, "\n", "\n  "), "  ") +
				"- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: cm\n- apiVersion: extensions/v1beta1\n  kind: Deployment\n  metadata:\n    name: old\n",
			want: []string{
				"1.1@4 v1 Pod default/web valid",
				"1.2@12 v1 ConfigMap default/cm not checked",
				`1.3@16 extensions/v1beta1 Deployment /old rejected: unable to recognize no matches for kind "Deployment" in version "extensions/v1beta1"`,
			},
		},
		{
			name: "a PodList gives its kind to items without one",
			in:   "apiVersion: v1\nkind: PodList\nitems:\n- metadata:\n    name: a\n  spec:\n    containers:\n    - name: app\n",
			want: []string{`1.1@4 v1 Pod default/a invalid: Pod "a" is invalid: spec.containers[0].image: Required value`},
		},
		{
			name: "lower-case kind: kubectl maps it, the server has no such kind",
			in:   "apiVersion: v1\nkind: pod\nmetadata:\n  name: web\n",
			want: []string{`1.0@1 v1 pod default/web rejected: pod in version "v1" cannot be handled as a Pod: no kind "pod" is registered for version "v1" in scheme "pkg/api/legacyscheme/scheme.go:30"`},
		},
		{
			name: "a syntax error does not stop the stream; its line is the file's",
			in:   validPod + "---\napiVersion: v1\nkind: Pod\nmetadata: {name: bad: x}\n---\n" + strings.Replace(validPod, "name: web", "name: web-2", 1),
			want: []string{
				"1.0@1 v1 Pod default/web valid",
				"2.0@12   / rejected: error parsing f.yaml: error converting YAML to JSON: yaml: line 2: did not find expected ',' or '}'",
				"3.0@14 v1 Pod default/web-2 valid",
			},
		},
		{
			// go-yaml counts the lone CRs as line breaks: its line 6 is the file's 4.
			name: "a syntax error after lone CRs: its line is the file's",
			in:   "apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\r  labels: {a: b\rspec: {}\n# one\n# two\n",
			want: []string{"1.0@4   / rejected: error parsing f.yaml: error converting YAML to JSON: yaml: line 5: did not find expected ',' or '}'"},
		},
		{
			name: "kubectl's namespace: objects without one get it, others are refused",
			in:   validPod + "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: other\n  namespace: prod\n",
			opts: StreamOptions{Namespace: "dev"},
			want: []string{
				"1.0@1 v1 Pod dev/web valid",
				"2.0@10 v1 Pod prod/other rejected: the namespace from the provided object \"prod\" does not match the namespace \"dev\". You must pass '--namespace=prod' to perform this operation.",
			},
		},
		{
			name: "JSON stream",
			in:   `{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "a", "name": "b"}, "spec": {"containers": [{"name": "c", "image": "i"}]}}` + "\n" + `{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "c"}, "spec": {"containers": [{"name": "c", "image": "i", "x": 1}]}}`,
			want: []string{
				`1.0@1 v1 Pod default/b valid [1: duplicate key "name": kubectl keeps only the last value and the API server never sees the others]`,
				`2.0@2 v1 Pod default/c rejected: Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.containers[0].x"`,
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := renderAll(tc.in, tc.opts)
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

func TestValidateStreamErrors(t *testing.T) {
	var last ObjectResult
	for r := range ValidateStream(iotest.ErrReader(errors.New("disk on fire")), "f.yaml", StreamOptions{}) {
		last = r
	}
	var readErr *ReadError
	if !errors.As(last.Err, &readErr) || last.Err.Error() != "disk on fire" || last.Verdict != Rejected {
		t.Errorf("read error: got %v (%T), verdict %v", last.Err, last.Err, last.Verdict)
	}

	for r := range ValidateStream(strings.NewReader(validPod+"---\n"+validPod), "f.yaml", StreamOptions{MaxDocumentBytes: 20}) {
		if !errors.Is(r.Err, ErrDocumentTooLarge) {
			t.Errorf("document %d: got %v, want ErrDocumentTooLarge", r.Document, r.Err)
		}
	}

	n := 0
	for range ValidateStream(strings.NewReader(validPod+"---\n"+validPod), "f.yaml", StreamOptions{}) {
		n++
		break
	}
	if n != 1 {
		t.Errorf("stopping early: %d results", n)
	}
}

func TestValidateStreamResult(t *testing.T) {
	in := "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n  - name: app\n    image: nginx\n  - name: sidecar\n"
	for r := range ValidateStream(strings.NewReader(in), "f.yaml", StreamOptions{}) {
		if _, ok := r.Object.(*corev1.Pod); !ok {
			t.Errorf("object %T, want *v1.Pod", r.Object)
		}
		want := field.ErrorList{field.Required(field.NewPath("spec", "containers").Index(1).Child("image"), "")}
		if r.Errors.ToAggregate().Error() != want.ToAggregate().Error() {
			t.Errorf("errors %v, want %v", r.Errors, want)
		}
		s := r.Status()
		if s == nil || !apierrors.IsInvalid(s) || len(s.ErrStatus.Details.Causes) != 1 || s.ErrStatus.Details.Causes[0].Field != "spec.containers[1].image" {
			t.Errorf("status %#v", s)
		}
		for path, line := range map[string]int{"": 1, "spec.containers[1].image": 9, "spec.containers[0].image": 8, "metadata.labels[app]": 3} {
			if got := r.FieldLine(path); got != line {
				t.Errorf("FieldLine(%q) = %d, want %d", path, got, line)
			}
		}
	}
}

// TestValidateStreamBodyLimit checks the server's 3 MiB limit on a request body: the
// body is the object as kubectl encodes it.
func TestValidateStreamBodyLimit(t *testing.T) {
	big := strings.Repeat("x", maxRequestBodyBytes)
	in := "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  annotations:\n    blob: " + big + "\nspec:\n  containers:\n  - name: app\n    image: nginx\n"
	var got []string
	for r := range ValidateStream(strings.NewReader(in), "f.yaml", StreamOptions{}) {
		got = append(got, render(r))
	}
	want := "1.0@1 v1 Pod default/web rejected: Request entity too large: limit is 3145728"
	if len(got) != 1 || got[0] != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestSourceLine reads lines back from the documents of a YAML stream, a JSON stream
// and a CRLF file: only the lines of the object's own document.
func TestSourceLine(t *testing.T) {
	type want struct {
		n    int
		line string // "" with ok false
	}
	for _, tc := range []struct {
		in    string
		lines [][]want // per result
	}{
		{
			in: "# c\n---\n" + validPod + "---\napiVersion: v1\nkind: Pod\nmetadata: {name: x}\nspec: {containers: [{name: a}]}\n",
			lines: [][]want{
				{{1, ""}, {2, ""}, {3, "apiVersion: v1"}, {10, "    image: nginx"}, {11, ""}},
				{{10, ""}, {11, ""}, {12, "apiVersion: v1"}, {15, "spec: {containers: [{name: a}]}"}, {16, ""}},
			},
		},
		{
			in: "{\"apiVersion\": \"v1\",\n \"kind\": \"Pod\", \"metadata\": {\"name\": \"a\"}} {\"apiVersion\": \"v1\", \"kind\": \"Service\"}\n",
			lines: [][]want{
				{{1, `{"apiVersion": "v1",`}, {2, ` "kind": "Pod", "metadata": {"name": "a"}}`}, {3, ""}},
				{{1, ""}, {2, `{"apiVersion": "v1", "kind": "Service"}`}, {3, ""}},
			},
		},
		{
			in:    "apiVersion: v1\r\nkind: Pod\r\nmetadata:\r\n  name: web\r\n",
			lines: [][]want{{{0, ""}, {1, "apiVersion: v1"}, {4, "  name: web"}, {5, ""}}},
		},
	} {
		i := 0
		for r := range ValidateStream(strings.NewReader(tc.in), "f.yaml", StreamOptions{DecodeOnly: true}) {
			if i >= len(tc.lines) {
				t.Fatalf("%q: more results than %d", tc.in, len(tc.lines))
			}
			for _, w := range tc.lines[i] {
				line, ok := r.SourceLine(w.n)
				if line != w.line || ok != (w.line != "") {
					t.Errorf("%q result %d: SourceLine(%d) = %q, %t; want %q", tc.in, i, w.n, line, ok, w.line)
				}
			}
			i++
		}
		if i != len(tc.lines) {
			t.Errorf("%q: %d results, want %d", tc.in, i, len(tc.lines))
		}
	}
}
