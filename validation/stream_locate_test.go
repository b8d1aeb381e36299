package validation

import (
	"bytes"
	"net/http"
	"regexp"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/podlife/podlife/validation/apischeme"
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
// every line it reports within the input, and the server's status where the server
// answered (checkStatus); and, with StreamOptions.Scheme, the same answers but that
// objects holding no pod may be refused by the server's decoding (400 or 413).
func FuzzValidateStream(f *testing.F) {
	for _, s := range append(append([]string{}, docReaderSeeds...), fastPathSeeds...) {
		f.Add([]byte(s))
	}
	// Objects of one name twice, and a create-only kind (nothing stored).
	f.Add([]byte("apiVersion: authentication.k8s.io/v1\nkind: TokenReview\nmetadata: {name: a}\nspec: {token: x}\n---\n" +
		"apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c, image: x}]}\n---\n" +
		"apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c, image: x}]}\n"))
	// Unknown and duplicate fields, which --validate=warn turns into warnings.
	f.Add([]byte("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  replica: 2\n  selector: {matchLabels: {a: b}}\n" +
		"  template:\n    metadata: {labels: {a: b}}\n    spec: {containers: [{name: c, image: x, imagePullPolice: Always}]}\n"))
	// Quantities that do not parse, in a pod and, decoded with a scheme, a quota.
	f.Add([]byte("apiVersion: v1\nkind: Pod\nmetadata: {name: q}\nspec:\n  containers: [{name: c, image: x, resources: {limits: {memory: 1Gb, cpu: \"\"}}}]\n---\n" +
		"apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: q}\nspec: {hard: {pods: \"10\", requests.cpu: 64iK}}\n"))
	// A kind served without create, twice (405, nothing stored).
	f.Add([]byte("apiVersion: v1\nkind: ComponentStatus\nmetadata: {name: etcd-0}\n---\n" +
		"apiVersion: v1\nkind: ComponentStatus\nmetadata: {name: etcd-0}\nconditions: [{type: Healthy, status: \"True\"}]\n"))
	scheme := apischeme.New()
	f.Fuzz(func(t *testing.T, data []byte) {
		first := renderStream(data, StreamOptions{})
		if second := renderStream(data, StreamOptions{}); first != second {
			t.Fatalf("two runs differ:\n%s\n%s", first, second)
		}
		withScheme := StreamOptions{Scheme: scheme}
		if a, b := renderStream(data, withScheme), renderStream(data, withScheme); a != b {
			t.Fatalf("two runs with a scheme differ:\n%s\n%s", a, b)
		}
		var transcoded bytes.Buffer
		_, _ = transcoded.ReadFrom(newTranscoder(bytes.NewReader(data)))
		lines := bytes.Count(transcoded.Bytes(), []byte("\n")) + 1
		// The plain read stores into created, which a second read below reuses.
		created := new(CreatedObjects)
		var plain, schemed []ObjectResult
		warn := StreamOptions{Scheme: scheme, FieldValidation: metav1.FieldValidationWarn}
		ignore := StreamOptions{Scheme: scheme, FieldValidation: metav1.FieldValidationIgnore}
		for _, opts := range []StreamOptions{{Created: created}, withScheme, warn, ignore} {
			for r := range ValidateStream(bytes.NewReader(data), "f", opts) {
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
					if w.Server && (opts.FieldValidation != metav1.FieldValidationWarn || r.Verdict == Rejected && r.Status() != nil && r.Status().ErrStatus.Code == http.StatusBadRequest) {
						t.Fatalf("server warning %q with --validate=%q on a %v object (%v)", w.Message, opts.FieldValidation, r.Verdict, r.Err)
					}
				}
				checkStatus(t, &r)
				checkSourceLines(t, &r, transcoded.Bytes())
				checkSuggestions(t, &r)
				checkTypeErrorField(t, &r, lines)
				switch {
				case opts.FieldValidation != "":
				case opts.Scheme == nil:
					plain = append(plain, r)
				default:
					schemed = append(schemed, r)
				}
			}
		}
		checkSchemeAnswers(t, plain, schemed)
		var twice []ObjectResult
		for r := range ValidateStream(bytes.NewReader(data), "f", StreamOptions{Created: created}) {
			twice = append(twice, r)
		}
		checkCreatedTwice(t, created, plain, twice)
		checkSelfUpdates(t, data, plain)
		checkCustomResources(t, data, plain)
	})
}

// checkCustomResources reads a stream with the kinds of the CustomResourceDefinitions
// it holds served (cert-manager's when it holds none): the same answers twice; every
// object answered as without them, but those kubectl could not map, which may now be
// sent, and are then never validated (they hold no pod).
func checkCustomResources(t *testing.T, data []byte, plain []ObjectResult) {
	t.Helper()
	custom, _ := ReadCustomResources(bytes.NewReader(data))
	if len(custom) == 0 {
		var err error
		if custom, err = ReadCustomResources(strings.NewReader(certManagerCRDs)); err != nil {
			t.Fatal(err)
		}
	}
	opts := StreamOptions{CustomResources: custom}
	if a, b := renderStream(data, opts), renderStream(data, opts); a != b {
		t.Fatalf("two reads with custom resources differ:\n%s\n%s", a, b)
	}
	type at struct{ doc, item int }
	before := map[at]ObjectResult{}
	for _, r := range plain {
		before[at{r.Document, r.Item}] = r
	}
	for r := range ValidateStream(bytes.NewReader(data), "f", opts) {
		checkStatus(t, &r)
		p, ok := before[at{r.Document, r.Item}]
		if ok && !unmapped(p) && (p.Verdict != r.Verdict || p.Message() != r.Message()) {
			t.Fatalf("document %d item %d: %s %q with custom resources, %s %q without", r.Document, r.Item, r.Verdict, r.Message(), p.Verdict, p.Message())
		}
		kindRefused := r.Verdict == Invalid && len(r.Errors) == 1 && r.Errors[0].Field == "kind"
		if (!ok || unmapped(p)) && (r.Verdict == Valid || r.Verdict == Invalid && !kindRefused) {
			t.Fatalf("document %d item %d, which kubectl could not map without custom resources, is %s: %q", r.Document, r.Item, r.Verdict, r.Message())
		}
	}
}

// unmapped reports whether a result is kubectl's refusal of an object it cannot map
// to a served kind, or of a List it cannot map (whose items it then never reads).
func unmapped(r ObjectResult) bool {
	m := r.Message()
	return r.Verdict == Rejected && (strings.Contains(m, "resource mapping not found") || strings.HasPrefix(m, "unable to recognize"))
}

// checkSelfUpdates reads a stream as the objects a cluster holds (DecodeOnly,
// StoredObjects) and then as updates of them (StreamOptions.Stored): the same answers
// twice; an update exactly of a stored object that reached the server, never
// created; an object written as it
// is stored (a stored object without a resourceVersion gets one, which an update
// without one takes) whose create is valid is a valid update, but for a Job, whose
// create generates a selector the stored manifest lacks; every other object is
// answered as before.
func checkSelfUpdates(t *testing.T, data []byte, plain []ObjectResult) {
	t.Helper()
	stored := new(StoredObjects)
	for r := range ValidateStream(bytes.NewReader(data), "f", StreamOptions{DecodeOnly: true}) {
		stored.Add(r)
	}
	created := new(CreatedObjects)
	var got []ObjectResult
	for r := range ValidateStream(bytes.NewReader(data), "f", StreamOptions{Stored: stored.Get, Created: created}) {
		checkStatus(t, &r)
		got = append(got, r)
	}
	if a, b := renderStream(data, StreamOptions{Stored: stored.Get}), renderStream(data, StreamOptions{Stored: stored.Get}); a != b {
		t.Fatalf("two reads with Stored differ:\n%s\n%s", a, b)
	}
	if len(got) != len(plain) {
		t.Fatalf("%d results with Stored, %d without", len(got), len(plain))
	}
	kept := 0
	for i, r := range got {
		reached := r.Verdict == Valid || r.Verdict == Invalid || r.Status() != nil
		if gv, err := schema.ParseGroupVersion(r.APIVersion); reached && err == nil && r.Name != "" && !r.Update &&
			stored.Get(schema.GroupKind{Group: gv.Group, Kind: r.Kind}, r.Namespace, r.Name) != nil {
			t.Fatalf("result %d, %s %s %s/%s, is stored and was sent, but not as an update: %s %q", i, r.APIVersion, r.Kind, r.Namespace, r.Name, r.Verdict, r.Message())
		}
		if !r.Update {
			if a := plain[i]; a.Verdict != r.Verdict || a.Message() != r.Message() {
				t.Fatalf("result %d, not an update: %s %q, %s %q without Stored", i, r.Verdict, r.Message(), a.Verdict, a.Message())
			}
			if keptByServer(r) {
				kept++
			}
			continue
		}
		gv, err := schema.ParseGroupVersion(r.APIVersion)
		if err != nil || stored.Get(schema.GroupKind{Group: gv.Group, Kind: r.Kind}, r.Namespace, r.Name) == nil {
			t.Fatalf("result %d is an update of %s %s %s/%s, which is not stored", i, r.APIVersion, r.Kind, r.Namespace, r.Name)
		}
		if plain[i].Verdict == Valid && r.Kind != "Job" && r.Verdict != Valid {
			t.Fatalf("result %d: a valid %s updated with itself: %s %q", i, r.Kind, r.Verdict, r.Message())
		}
	}
	if created.Len() > kept {
		t.Fatalf("Created.Len() = %d, more than the %d objects created", created.Len(), kept)
	}
}

// keptByServer reports whether the server keeps an object it was answered for: a
// named one, valid or not checked, of a kind the server stores.
func keptByServer(r ObjectResult) bool {
	return (r.Verdict == Valid || r.Verdict == NotChecked) && r.Name != "" && !createOnly(r)
}

// createOnly reports whether a result's kind is served without PATCH (TokenReview,
// Binding, ...): the server keeps nothing it creates.
func createOnly(r ObjectResult) bool {
	gv, err := schema.ParseGroupVersion(r.APIVersion)
	if err != nil {
		return false
	}
	for _, k := range servedKinds {
		if k.group == gv.Group && strings.EqualFold(k.kind, r.Kind) {
			return !k.patch
		}
	}
	return false
}

// checkCreatedTwice holds the answers to a stream read a second time into the same
// CreatedObjects to the first: the first read created as many objects as it stored,
// each is refused with 409 AlreadyExists the second time, every other answer is the
// same.
func checkCreatedTwice(t *testing.T, created *CreatedObjects, first, second []ObjectResult) {
	t.Helper()
	kept := 0
	for _, r := range first {
		if keptByServer(r) {
			kept++
		}
	}
	if created.Len() != kept {
		t.Fatalf("Created.Len() = %d, want the %d objects the first read stored", created.Len(), kept)
	}
	if len(first) != len(second) {
		t.Fatalf("%d results, then %d", len(first), len(second))
	}
	for i, a := range first {
		b := second[i]
		if keptByServer(a) {
			if st := b.Status(); b.Verdict != Rejected || st == nil || st.ErrStatus.Code != http.StatusConflict || st.ErrStatus.Reason != metav1.StatusReasonAlreadyExists {
				t.Fatalf("result %d: %s the first time, %s %q the second, want 409 AlreadyExists", i, a.Verdict, b.Verdict, b.Message())
			}
			continue
		}
		if a.Verdict != b.Verdict || a.Message() != b.Message() {
			t.Fatalf("result %d: %s %q the first time, %s %q the second", i, a.Verdict, a.Message(), b.Verdict, b.Message())
		}
	}
}

// checkTypeErrorField asks TypeErrorField twice for the same answer; a path it gives
// is about a refusal naming a JSON type error, and lies within the value's field as
// the error names it, or about a quantity that does not parse or outlasts the
// server's timeout, and has a line within the input.
func checkTypeErrorField(t *testing.T, r *ObjectResult, lines int) {
	t.Helper()
	p, ok := r.TypeErrorField()
	if again, okAgain := r.TypeErrorField(); again != p || okAgain != ok {
		t.Fatalf("TypeErrorField() = %q, %t then %q, %t", p, ok, again, okAgain)
	}
	if !ok {
		if p != "" {
			t.Fatalf("TypeErrorField() = %q beside ok false", p)
		}
		return
	}
	_, named, found := parseTypeError(r.Message())
	st := r.Status()
	quantity := !found && (isQuantityError(r.Message()) || st != nil && st.ErrStatus.Code == http.StatusGatewayTimeout)
	if r.Verdict != Rejected || !found && !quantity || p == "" {
		t.Fatalf("TypeErrorField() = %q for a %s answer %q", p, r.Verdict, r.Message())
	}
	if found && !strings.HasPrefix(stripBrackets(p), named) {
		t.Fatalf("TypeErrorField() = %q is not under %q", p, named)
	}
	if l := r.FieldLine(p); l < 1 || l > lines {
		t.Fatalf("TypeErrorField() = %q at line %d, outside 1..%d", p, l, lines)
	}
}

// stripBrackets drops the bracketed parts of a field path.
func stripBrackets(p string) string {
	var b strings.Builder
	depth := 0
	for _, c := range p {
		switch {
		case c == '[':
			depth++
		case c == ']':
			depth--
		case depth == 0:
			b.WriteRune(c)
		}
	}
	return b.String()
}

// checkSchemeAnswers holds the answers with a scheme to those without: the same
// objects, and the same answers but for objects that hold no pod, which are either
// still not checked or refused by the server's decoding.
func checkSchemeAnswers(t *testing.T, plain, schemed []ObjectResult) {
	t.Helper()
	if len(plain) != len(schemed) {
		t.Fatalf("%d results without a scheme, %d with", len(plain), len(schemed))
	}
	for i, p := range plain {
		s := schemed[i]
		if p.Kind != s.Kind || p.Name != s.Name || p.Line != s.Line || p.Namespace != s.Namespace {
			t.Fatalf("result %d: %s/%s line %d without a scheme, %s/%s line %d with", i, p.Kind, p.Name, p.Line, s.Kind, s.Name, s.Line)
		}
		if p.Verdict != NotChecked {
			if s.Verdict != p.Verdict || s.Message() != p.Message() {
				t.Fatalf("result %d: %s %q without a scheme, %s %q with", i, p.Verdict, p.Message(), s.Verdict, s.Message())
			}
			continue
		}
		switch st := s.Status(); {
		case s.Verdict == NotChecked && s.Err == nil:
		case s.Verdict == Rejected && st != nil && (st.ErrStatus.Code == http.StatusBadRequest || st.ErrStatus.Code == http.StatusRequestEntityTooLarge):
		default:
			t.Fatalf("result %d: not checked without a scheme, %s %q with", i, s.Verdict, s.Message())
		}
	}
}

// unknownField finds the fields the server's strict decoding refuses.
var unknownField = regexp.MustCompile(`unknown field "([^"]*)"`)

// checkSuggestions asks SuggestField about every field the server names unknown, and
// about the object's first error: the same answer twice, and never the name asked
// about.
func checkSuggestions(t *testing.T, r *ObjectResult) {
	t.Helper()
	var paths []string
	if r.Status() != nil {
		for _, m := range unknownField.FindAllStringSubmatch(r.Message(), -1) {
			paths = append(paths, m[1])
		}
	}
	if len(r.Errors) > 0 {
		paths = append(paths, r.Errors[0].Field)
	}
	for _, p := range paths {
		got, ok := r.SuggestField(p)
		again, okAgain := r.SuggestField(p)
		if got != again || ok != okAgain || ok && (got == "" || strings.HasSuffix(p, "."+got) || p == got) || !ok && got != "" {
			t.Fatalf("SuggestField(%q) = %q, %t then %q, %t", p, got, ok, again, okAgain)
		}
	}
}

// checkSourceLines holds SourceLine to the stream as read: every line it returns is
// part of that line of the transcoded input, without a line break; a decoded object's
// first line and the lines of its errors are there.
func checkSourceLines(t *testing.T, r *ObjectResult, transcoded []byte) {
	t.Helper()
	lines := strings.Split(string(transcoded), "\n")
	for n := -1; n <= len(lines)+1; n++ {
		line, ok := r.SourceLine(n)
		if !ok {
			if line != "" {
				t.Fatalf("line %d: %q beside ok false", n, line)
			}
			continue
		}
		if n < 1 || n > len(lines) || !strings.Contains(lines[n-1], line) || strings.Contains(line, "\n") {
			t.Fatalf("line %d: %q is not part of the input's line %d of %d", n, line, n, len(lines))
		}
	}
	if r.Verdict != Valid && r.Verdict != Invalid {
		return
	}
	if _, ok := r.SourceLine(r.Line); !ok {
		t.Fatalf("%s object at line %d: no source line", r.Verdict, r.Line)
	}
	for _, e := range r.Errors {
		if _, ok := r.SourceLine(r.FieldLine(e.Field)); !ok {
			t.Fatalf("error %s at line %d: no source line", e.Field, r.FieldLine(e.Field))
		}
	}
}

// checkStatus holds a result's Status to its verdict: a 422 Invalid status with a
// cause per error for an Invalid object, none for a Valid or NotChecked one, one of
// the server's refusals (400, 404, 413; 409 AlreadyExists for a named object) or none
// (kubectl's refusals, reader errors) for a Rejected one; and Message is the status's
// message when there is one.
func checkStatus(t *testing.T, r *ObjectResult) {
	t.Helper()
	s := r.Status()
	switch {
	case r.Verdict == Invalid:
		if s == nil || s.ErrStatus.Code != http.StatusUnprocessableEntity || s.ErrStatus.Reason != metav1.StatusReasonInvalid {
			t.Fatalf("invalid object at line %d: status %v", r.Line, s)
		}
		if s.ErrStatus.Details == nil || len(s.ErrStatus.Details.Causes) != len(r.Errors) {
			t.Fatalf("invalid object at line %d: %d errors, status %+v", r.Line, len(r.Errors), s.ErrStatus.Details)
		}
	case r.Verdict == Valid || r.Verdict == NotChecked:
		if s != nil || r.Err != nil {
			t.Fatalf("%v object at line %d: status %v, error %v", r.Verdict, r.Line, s, r.Err)
		}
	case r.Verdict == Rejected && s != nil:
		switch s.ErrStatus.Code {
		case http.StatusBadRequest, http.StatusNotFound, http.StatusRequestEntityTooLarge:
		case http.StatusMethodNotAllowed:
			if s.ErrStatus.Reason != metav1.StatusReasonMethodNotAllowed || r.Kind != "ComponentStatus" {
				t.Fatalf("rejected object at line %d: 405 %s for a %s", r.Line, s.ErrStatus.Reason, r.Kind)
			}
		case http.StatusConflict:
			if s.ErrStatus.Reason != metav1.StatusReasonAlreadyExists || r.Name == "" {
				t.Fatalf("rejected object at line %d: 409 %s for %q", r.Line, s.ErrStatus.Reason, r.Name)
			}
		default:
			t.Fatalf("rejected object at line %d: status code %d", r.Line, s.ErrStatus.Code)
		}
	}
	if s != nil && r.Message() != s.ErrStatus.Message {
		t.Fatalf("message %q, status message %q", r.Message(), s.ErrStatus.Message)
	}
}

// renderStream renders a stream's results a line each, an update marked.
func renderStream(data []byte, opts StreamOptions) string {
	var b strings.Builder
	for r := range ValidateStream(bytes.NewReader(data), "f", opts) {
		if r.Update {
			b.WriteString("update ")
		}
		b.WriteString(render(r) + "\n")
	}
	return b.String()
}
