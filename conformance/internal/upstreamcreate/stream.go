package upstreamcreate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/yaml"

	"github.com/podlife/podlife/conformance/internal/warngen"
	"github.com/podlife/podlife/validation"
)

// YAMLDocument writes a v1 object of one of Kinds as a YAML document with its
// apiVersion and kind, as kubectl get -o yaml prints an object.
func YAMLDocument(t testing.TB, obj runtime.Object) []byte {
	t.Helper()
	k := KindOf(t, obj)
	obj = obj.DeepCopyObject()
	obj.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{Group: k.Group, Version: k.Version, Kind: k.Name})
	b, err := yaml.Marshal(obj)
	if err != nil {
		t.Fatalf("yaml: %v", err)
	}
	return b
}

// StreamUpdate reads live, a YAML document, as a cluster's stored objects (a
// DecodeOnly stream into validation.StoredObjects) and answers doc, one object, with
// validation.ValidateStream given them as StreamOptions.Stored, under opts.
func StreamUpdate(t testing.TB, live, doc []byte, opts validation.Options) validation.ObjectResult {
	t.Helper()
	stored := new(validation.StoredObjects)
	for r := range validation.ValidateStream(bytes.NewReader(live), "live.yaml", validation.StreamOptions{DecodeOnly: true, Validation: opts}) {
		stored.Add(r)
	}
	var results []validation.ObjectResult
	for r := range validation.ValidateStream(bytes.NewReader(doc), streamSource, validation.StreamOptions{Stored: stored.Get, Validation: opts}) {
		results = append(results, r)
	}
	if len(results) != 1 {
		t.Fatalf("%d results for one object:\n%s", len(results), doc)
	}
	return results[0]
}

// streamSource is the file name StreamUpdate gives the changed object.
const streamSource = "new.yaml"

// errSent is what ClientRefusal's transport answers a request client-go sends.
var errSent = errors.New("sent")

// ClientRefusal is client-go's refusal to build the PUT of the object named name in
// namespace (kubectl's, "default" when the object names none) to its URL under the
// resource (k8s.io/client-go rest Request: a namespace or name that cannot be a URL
// path segment), nil when client-go sends the request. It asks client-go itself: a
// request it builds reaches a transport that answers errSent.
func ClientRefusal(t testing.TB, namespace, name, resource string) error {
	t.Helper()
	client := &http.Client{Transport: roundTripper(func(*http.Request) (*http.Response, error) { return nil, errSent })}
	req := rest.NewRequestWithClient(&url.URL{Scheme: "https", Host: "server"}, "/apis/g/v1", rest.ClientContentConfig{}, client)
	err := req.Verb(http.MethodPut).Namespace(namespace).Resource(resource).Name(name).Do(context.Background()).Error()
	if errors.Is(err, errSent) {
		return nil
	}
	if err == nil {
		t.Fatal("client-go neither sent nor refused the request")
	}
	return err
}

// roundTripper is an http.RoundTripper of a function.
type roundTripper func(*http.Request) (*http.Response, error)

// RoundTrip calls f.
func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// CompareStream compares the answer of validation.ValidateStream to an object it
// answered as an update (ObjectResult.Update) with the server's answer a to the same
// PUT of newObj: the verdict, a refusal's code, reason, message and a Conflict's
// details, and the Warning headers (node-selector warnings, which upstream sends in
// map order, sorted as podlife sends them). It returns the stream's field errors in
// the form of a.AsErrorList, to compare as the caller compares validation's (a
// refusal, compared here, as upstream's), and the differences found.
func (a UpdateAnswer) CompareStream(t testing.TB, r validation.ObjectResult, newObj runtime.Object) (ours field.ErrorList, problems []string) {
	t.Helper()
	if !r.Update {
		return nil, []string{"the stream answered the object as a create"}
	}
	k := KindOf(t, newObj)
	if err := ClientRefusal(t, r.Namespace, r.Name, k.Resource); err != nil {
		// kubectl replace sends nothing and reports client-go's error (k8s.io/kubectl
		// pkg/cmd/replace, cmd/util AddSourceToErr); the server's answer a is never
		// given, so there are no field errors of the stream's to compare with it.
		want := fmt.Sprintf("error when replacing %q: %v", streamSource, err)
		if ke := (*validation.KubectlError)(nil); !errors.As(r.Err, &ke) || ke.Message != want {
			problems = append(problems, fmt.Sprintf("client-go refuses to send (%s), the stream answers %s: %s", want, r.Verdict, r.Message()))
		}
		return a.AsErrorList(t, newObj), problems
	}
	switch {
	case a.Code == http.StatusOK:
		if r.Verdict != validation.Valid {
			problems = append(problems, fmt.Sprintf("upstream accepts the update, the stream answers %s: %s", r.Verdict, r.Message()))
		}
	case a.Code == http.StatusUnprocessableEntity:
		ours = r.Errors
		if r.Verdict != validation.Invalid {
			problems = append(problems, fmt.Sprintf("upstream answers 422, the stream %s: %s", r.Verdict, r.Message()))
		}
	default:
		ours = a.AsErrorList(t, newObj)
		problems = append(problems, a.CompareRefusal(r, schema.GroupResource{Group: k.Group, Resource: k.Resource}, http.MethodPut)...)
	}
	if got, want := ServerWarnings(r), warngen.SortNodeSelectorRuns(a.Warnings); !slices.Equal(got, want) {
		problems = append(problems, fmt.Sprintf("warnings:\n   stream:   %q\n   upstream: %q", got, want))
	}
	return ours, problems
}

// ServerWarnings are the texts of the warnings the server answered a stream's result
// with.
func ServerWarnings(r validation.ObjectResult) []string {
	var out []string
	for _, w := range r.Warnings {
		if w.Server {
			out = append(out, w.Message)
		}
	}
	return out
}

// CompareRefusal compares a refusal before validation (400, 409, 500, a panic) with
// the stream's Rejected answer to a request (PUT, PATCH) to the resource gr.
func (a UpdateAnswer) CompareRefusal(r validation.ObjectResult, gr schema.GroupResource, method string) []string {
	st := r.Status()
	if r.Verdict != validation.Rejected || st == nil {
		return []string{fmt.Sprintf("upstream refuses with %d, the stream answers %s: %s", a.Code, r.Verdict, r.Message())}
	}
	got := st.ErrStatus
	if a.Panicked {
		// The panic filter answers in plain text; client-go makes this of it.
		want := apierrors.NewGenericServerResponse(http.StatusInternalServerError, method, gr, r.Name, validation.ServerPanicDetail, 0, true).ErrStatus
		if !reflect.DeepEqual(got, want) {
			return []string{fmt.Sprintf("upstream panics:\n   stream:   %+v\n   client-go: %+v", got, want)}
		}
		return nil
	}
	want := a.Status
	if int(got.Code) != a.Code || got.Reason != want.Reason || got.Message != want.Message {
		return []string{fmt.Sprintf("refusal:\n   stream:   %d %s %q\n   upstream: %d %s %q", got.Code, got.Reason, got.Message, a.Code, want.Reason, want.Message)}
	}
	if want.Details != nil && (got.Details == nil || got.Details.Name != want.Details.Name || got.Details.Group != want.Details.Group || got.Details.Kind != want.Details.Kind) {
		return []string{fmt.Sprintf("refusal details:\n   stream:   %+v\n   upstream: %+v", got.Details, want.Details)}
	}
	return nil
}
