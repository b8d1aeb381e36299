package upstreamcreate

import (
	"bytes"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/cli-runtime/pkg/resource"
	"k8s.io/client-go/rest"
	"k8s.io/kubectl/pkg/cmd/apply"
	kubectlutil "k8s.io/kubectl/pkg/util"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"sigs.k8s.io/yaml"

	"github.com/podlife/podlife/validation"
)

// ApplyAnswer is kubectl apply's outcome for one object the cluster holds (the
// patch path of k8s.io/kubectl pkg/cmd/apply applyOneObject), against the real
// patch handler.
type ApplyAnswer struct {
	// Patch is the patch kubectl computed ("{}": nothing sent), nil when it could not.
	Patch []byte
	// Err is the error Patcher.Patch returned (kubectl then wraps it once more with
	// the patch and the object), nil on success.
	Err error
	// Server is the handler's answer to the last PATCH sent (Code 0 when none was).
	Server UpdateAnswer
	// Object is the object kubectl got back: the server's answer to the PATCH (as
	// the server stored it), or the object it read when it sent nothing.
	Object runtime.Object
	// Requests counts the PATCH requests kubectl sent (it retries on a conflict).
	Requests int
	// Stderr is what kubectl printed on its error output: its warning when it
	// could not compute the patch from the OpenAPI document and fell back to the Go
	// types, and its warning about an object being deleted (WarnIfDeleting).
	Stderr string
}

// noSleep is the back-off clock of kubectl's patcher, which retries a conflict at
// once here.
type noSleep struct{ clockwork.Clock }

func (noSleep) Sleep(time.Duration) {}

// KubectlApplyConfig is what kubectl apply makes of a manifest object (YAML): the
// object read as kubectl reads it (unstructured), in namespace ns when it names
// none, and its "modified" configuration (k8s.io/kubectl pkg/util
// GetModifiedConfiguration with the annotation).
func KubectlApplyConfig(t testing.TB, doc []byte, ns string) (*unstructured.Unstructured, []byte) {
	t.Helper()
	j, err := yaml.YAMLToJSON(doc)
	if err != nil {
		t.Fatal(err)
	}
	obj, _, err := unstructured.UnstructuredJSONScheme.Decode(j, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	u := obj.(*unstructured.Unstructured)
	if u.GetNamespace() == "" {
		u.SetNamespace(ns)
	}
	modified, err := kubectlutil.GetModifiedConfiguration(u, true, unstructured.UnstructuredJSONScheme)
	if err != nil {
		t.Fatal(err)
	}
	return u, modified
}

// LastAppliedOf is the annotation kubectl apply would have stored for a manifest
// object (YAML) it created: its JSON without the annotation (CreateApplyAnnotation).
func LastAppliedOf(t testing.TB, doc []byte, ns string) string {
	t.Helper()
	u, _ := KubectlApplyConfig(t, doc, ns)
	if err := kubectlutil.CreateApplyAnnotation(u, unstructured.UnstructuredJSONScheme); err != nil {
		t.Fatal(err)
	}
	return u.GetAnnotations()["kubectl.kubernetes.io/last-applied-configuration"]
}

// Apply runs kubectl apply's Patcher (k8s.io/kubectl pkg/cmd/apply Patcher.Patch,
// with --overwrite and the server's OpenAPI v3 documents, ServedOpenAPI)
// for modified against the stored object (internal, as the storage holds it): the
// current object it reads is the stored one as the server encodes it in the kind's
// version, and each PATCH it sends goes to the real patch handler (PatchStored)
// with fieldValidation=directive.
func (k *Kind) Apply(t testing.TB, modified []byte, stored runtime.Object, directive, source string) ApplyAnswer {
	t.Helper()
	gv := schema.GroupVersion{Group: k.Group, Version: k.Version}
	stored = k.FromStorage(t, stored)
	currentJSON, err := runtime.Encode(legacyscheme.Codecs.LegacyCodec(gv), stored)
	if err != nil {
		t.Fatal(err)
	}
	current, _, err := unstructured.UnstructuredJSONScheme.Decode(currentJSON, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var ans ApplyAnswer
	client := &http.Client{Transport: roundTripper(func(r *http.Request) (*http.Response, error) {
		switch r.Method {
		case http.MethodGet:
			return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}}, Body: io.NopCloser(bytes.NewReader(currentJSON)), Request: r}, nil
		case http.MethodPatch:
			body, _ := io.ReadAll(r.Body)
			ans.Requests++
			var code int
			var out []byte
			ans.Server, code, out = k.patchStored(t, body, r.URL.Query().Get("fieldValidation"), stored)
			h := http.Header{"Content-Type": {"application/json"}}
			return &http.Response{StatusCode: code, Header: h, Body: io.NopCloser(bytes.NewReader(out)), Request: r}, nil
		}
		t.Fatalf("kubectl sent %s %s", r.Method, r.URL)
		return nil, nil
	})}
	cfg := &rest.Config{Host: "https://server", ContentConfig: resource.UnstructuredPlusDefaultContentConfig()}
	cfg.GroupVersion = &gv
	cfg.APIPath = "/apis"
	if k.Group == "" {
		cfg.APIPath = "/api"
	}
	rc, err := rest.RESTClientForConfigAndClient(cfg, client)
	if err != nil {
		t.Fatal(err)
	}
	mapping := &meta.RESTMapping{Resource: gv.WithResource(k.Resource), GroupVersionKind: gv.WithKind(k.Name), Scope: meta.RESTScopeNamespace}
	helper := resource.NewHelper(rc, mapping).WithFieldValidation(directive)
	p := &apply.Patcher{Mapping: mapping, Helper: helper, Overwrite: true, BackOff: noSleep{}, Retries: 5}
	// kubectl computes the patch from the server's OpenAPI v3 when it has it, as
	// against a v1.37.2 server.
	root, err := ServedOpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	p.OpenAPIV3Root = root
	var errOut strings.Builder
	m, _ := meta.Accessor(stored)
	var patched runtime.Object
	ans.Patch, patched, ans.Err = p.Patch(current, modified, source, m.GetNamespace(), m.GetName(), &errOut)
	ans.Object = patched
	if ans.Err == nil {
		// applyOneObject's warning about the object it got back.
		apply.WarnIfDeleting(patched, &errOut)
	}
	ans.Stderr = errOut.String()
	return ans
}

// patchStored is the API server's answer to PATCH (a strategic merge patch) of the
// stored object's URL, as UpdateStored answers a PUT, and the response's code and
// body. A 422 the strategy gave carries its typed errors; one the patch handler
// builds itself (an object the patched fields do not decode to) carries its causes.
func (k *Kind) patchStored(t testing.TB, patch []byte, directive string, stored runtime.Object) (UpdateAnswer, int, []byte) {
	t.Helper()
	req := request{method: http.MethodPatch, verb: "patch", contentType: "application/strategic-merge-patch+json", body: patch}
	if directive != "" {
		req.query = "fieldValidation=" + url.QueryEscape(directive)
	}
	ans, rec, seen := k.serveStored(t, req, stored)
	if ans.Panicked {
		// The server's panic filter answers in plain text.
		return ans, http.StatusInternalServerError, []byte(validation.ServerPanicDetail)
	}
	if ans.Code == http.StatusUnprocessableEntity && ans.Status.Details != nil {
		if seen != nil {
			ans.Errs = k.causes(t, *ans.Status, seen)
		} else {
			for _, c := range ans.Status.Details.Causes {
				ans.Errs = append(ans.Errs, &field.Error{Type: field.ErrorType(c.Type), Field: c.Field, Detail: c.Message})
			}
		}
	}
	return ans, rec.Code, rec.Body.Bytes()
}

// FromStorage is the stored object (internal) as the server reads it back from etcd:
// kube-apiserver stores the built-in kinds as protobuf of their version, which
// keeps no difference between an empty list or map and none.
func (k *Kind) FromStorage(t testing.TB, stored runtime.Object) runtime.Object {
	t.Helper()
	gv := schema.GroupVersion{Group: k.Group, Version: k.Version}
	hub := schema.GroupVersion{Group: k.Group, Version: runtime.APIVersionInternal}
	pb := protobuf.NewSerializer(legacyscheme.Scheme, legacyscheme.Scheme)
	codec := legacyscheme.Codecs.CodecForVersions(pb, pb, gv, hub)
	data, err := runtime.Encode(codec, stored)
	if err != nil {
		t.Fatalf("protobuf: %v", err)
	}
	out, err := runtime.Decode(codec, data)
	if err != nil {
		t.Fatalf("protobuf: %v", err)
	}
	return out
}

// PruneNulls deletes null values at every depth, as kubectl apply does before it
// creates an object (k8s.io/kubectl pkg/cmd/apply pruneNullsFromMap, unexported).
func PruneNulls(v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if e == nil {
				delete(v, k)
			} else {
				PruneNulls(e)
			}
		}
	case []any:
		for _, e := range v {
			PruneNulls(e)
		}
	}
}
