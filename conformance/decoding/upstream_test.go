package decoding

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	_ "unsafe" // go:linkname

	openapi_v2 "github.com/google/gnostic-models/openapiv2"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
	"k8s.io/apimachinery/pkg/util/validation/field"
	_ "k8s.io/apiserver/pkg/endpoints/handlers" // transformDecodeError, reached with go:linkname
	"k8s.io/cli-runtime/pkg/resource"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	"k8s.io/client-go/rest/fake"
	"k8s.io/client-go/restmapper"
	cmdutil "k8s.io/kubectl/pkg/cmd/util"
	kubectlutil "k8s.io/kubectl/pkg/util"
	"k8s.io/kubectl/pkg/util/openapi"
	kubectlvalidation "k8s.io/kubectl/pkg/validation"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	_ "k8s.io/kubernetes/pkg/apis/admissionregistration/install"
	_ "k8s.io/kubernetes/pkg/apis/apps/install"
	_ "k8s.io/kubernetes/pkg/apis/authentication/install"
	_ "k8s.io/kubernetes/pkg/apis/authorization/install"
	_ "k8s.io/kubernetes/pkg/apis/autoscaling/install"
	_ "k8s.io/kubernetes/pkg/apis/batch/install"
	_ "k8s.io/kubernetes/pkg/apis/certificates/install"
	_ "k8s.io/kubernetes/pkg/apis/coordination/install"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	_ "k8s.io/kubernetes/pkg/apis/discovery/install"
	_ "k8s.io/kubernetes/pkg/apis/events/install"
	_ "k8s.io/kubernetes/pkg/apis/flowcontrol/install"
	_ "k8s.io/kubernetes/pkg/apis/networking/install"
	_ "k8s.io/kubernetes/pkg/apis/node/install"
	_ "k8s.io/kubernetes/pkg/apis/policy/install"
	_ "k8s.io/kubernetes/pkg/apis/rbac/install"
	_ "k8s.io/kubernetes/pkg/apis/resource/install"
	_ "k8s.io/kubernetes/pkg/apis/scheduling/install"
	_ "k8s.io/kubernetes/pkg/apis/storage/install"
	_ "k8s.io/kubernetes/pkg/apis/storagemigration/install"

	"github.com/podlife/podlife/conformance/internal/served"
	"github.com/podlife/podlife/conformance/internal/upstreamcreate"

	"github.com/podlife/podlife/validation"
)

// transformDecodeError is the create handler's wording of a decoding error
// (k8s.io/apiserver pkg/endpoints/handlers/rest.go).
//
//go:linkname transformDecodeError k8s.io/apiserver/pkg/endpoints/handlers.transformDecodeError
func transformDecodeError(typer runtime.ObjectTyper, baseErr error, into runtime.Object, gvk *schema.GroupVersionKind, body []byte) error

// addStrictDecodingWarnings is the create handler's warning for each strict field
// error of a body decoded with fieldValidation=Warn (k8s.io/apiserver
// pkg/endpoints/handlers/rest.go).
//
//go:linkname addStrictDecodingWarnings k8s.io/apiserver/pkg/endpoints/handlers.addStrictDecodingWarnings
func addStrictDecodingWarnings(ctx context.Context, errs []error)

// dedupOwnerReferencesAndAddWarning is the create handler's first step on a decoded
// object (k8s.io/apiserver pkg/endpoints/handlers/rest.go).
//
//go:linkname dedupOwnerReferencesAndAddWarning k8s.io/apiserver/pkg/endpoints/handlers.dedupOwnerReferencesAndAddWarning
func dedupOwnerReferencesAndAddWarning(obj runtime.Object, requestContext context.Context, afterMutatingAdmission bool)

// recordedWarnings runs addStrictDecodingWarnings under the server's warning recorder
// (upstreamcreate.Recorded) and returns the warnings the response carries.
func recordedWarnings(errs []error) []string {
	return upstreamcreate.Recorded(func(ctx context.Context) { addStrictDecodingWarnings(ctx, errs) })
}

// maxRequestBodyBytes is kube-apiserver's default limit (k8s.io/apiserver
// pkg/server/config.go).
const maxRequestBodyBytes = 3 * 1024 * 1024

// kubectlOutcome is what `kubectl create -f FILE` does with a file: for each object it
// sends, the server's answer, in order; and kubectl's own errors, in order.
type kubectlOutcome struct {
	sent   []sentObject
	errors []string
	// causes are, beside sent, the validation errors of each object the server
	// refused with 422 Invalid (nil for the others); only a validating server fills
	// them. pending holds the last refusal's until its object is recorded.
	causes  []field.ErrorList
	pending field.ErrorList
	// warnings are, beside sent, the warnings the server sent with each answer (those
	// of fieldValidation=Warn); pendingWarnings holds the last answer's.
	warnings        [][]string
	pendingWarnings []string
	// stored are the objects a validating server created, by resource, namespace
	// and name.
	stored map[string]bool
}

// sentObject is an object kubectl sent and the server's answer.
type sentObject struct {
	kind, namespace, name string
	status                int    // the server's HTTP status
	message               string // its status message on failure
}

// upstream holds what kubectl and the fake server need, built once.
type upstream struct {
	mapper meta.RESTMapper
	// schemas are kubectl's validators by --validate directive (the factory's
	// Validator: NullSchema for Ignore).
	schemas map[string]kubectlvalidation.Schema
	podKind map[schema.GroupVersionResource]schema.GroupVersionKind // resources of the kinds that hold a pod
	kinds   map[schema.GroupVersionResource]schema.GroupVersionKind
	// stores are the resources the server stores (those taking PATCH; the
	// create-only reviews and bindings are not kept).
	stores map[schema.GroupVersionResource]bool
	// creates are the resources served with create (POST); the router answers a
	// POST to the others (ComponentStatus) with 405.
	creates map[schema.GroupVersionResource]bool
	// schemeName is the legacy scheme's name in a release build.
	schemeName string
	// custom are the resources CustomResourceDefinitions serve (newUpstreamWith).
	custom map[schema.GroupVersionResource]customServed
}

// podGroupKinds are the kinds that hold a pod.
var podGroupKinds = map[schema.GroupKind]bool{{Kind: "Pod"}: true, {Kind: "PodTemplate"}: true, {Kind: "ReplicationController"}: true,
	{Group: "apps", Kind: "Deployment"}: true, {Group: "apps", Kind: "ReplicaSet"}: true, {Group: "apps", Kind: "StatefulSet"}: true,
	{Group: "apps", Kind: "DaemonSet"}: true, {Group: "batch", Kind: "Job"}: true, {Group: "batch", Kind: "CronJob"}: true}

// holdsPod reports whether a kind of podGroupKinds is named kind.
func holdsPod(kind string) bool {
	for gk := range podGroupKinds {
		if gk.Kind == kind {
			return true
		}
	}
	return false
}

var (
	upstreamOnce sync.Once
	upstreamVal  *upstream
	upstreamErr  error
)

// getUpstream builds kubectl's REST mapper and validator for a default v1.37.2 server.
func getUpstream(t testing.TB) *upstream {
	t.Helper()
	upstreamOnce.Do(func() { upstreamVal, upstreamErr = newUpstream() })
	if upstreamErr != nil {
		t.Fatal(upstreamErr)
	}
	return upstreamVal
}

func newUpstream() (*upstream, error) {
	return newUpstreamWith(nil, nil, nil)
}

// newUpstreamWith is newUpstream for a server that serves the resources a gate holds
// back only when enabled says that gate is on (nil: the default gates), that also
// serves the groups of custom resources extra and holds the
// CustomResourceDefinitions crds, which kubectl's parameter verifier lists.
func newUpstreamWith(enabled func(gate string) bool, extra []*restmapper.APIGroupResources, crds []runtime.Object) (*upstream, error) {
	groups, err := served.GroupResources(enabled)
	if err != nil {
		return nil, err
	}
	groups = append(groups, extra...)
	name, err := releaseSchemeName()
	if err != nil {
		return nil, err
	}
	u := &upstream{
		schemeName: name,
		mapper:     restmapper.NewDiscoveryRESTMapper(groups),
		podKind:    map[schema.GroupVersionResource]schema.GroupVersionKind{},
		kinds:      map[schema.GroupVersionResource]schema.GroupVersionKind{},
		stores:     map[schema.GroupVersionResource]bool{},
		creates:    map[schema.GroupVersionResource]bool{},
	}
	for _, g := range groups {
		for v, rs := range g.VersionedResources {
			for _, r := range rs {
				gvr := schema.GroupVersionResource{Group: g.Group.Name, Version: v, Resource: r.Name}
				gvk := schema.GroupVersionKind{Group: g.Group.Name, Version: v, Kind: r.Kind}
				u.kinds[gvr] = gvk
				u.stores[gvr] = slices.Contains(r.Verbs, "patch")
				u.creates[gvr] = slices.Contains(r.Verbs, "create")
				if podGroupKinds[gvk.GroupKind()] {
					u.podKind[gvr] = gvk
				}
			}
		}
	}
	doc, err := served.ServedDocument(enabled)
	if err != nil {
		return nil, err
	}
	resources, err := openapi.NewOpenAPIData(doc)
	if err != nil {
		return nil, err
	}
	crdResource := schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}
	dyn := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(), map[schema.GroupVersionResource]string{crdResource: "CustomResourceDefinitionList"}, crds...)
	verifier := resource.NewQueryParamVerifier(dyn, openAPIDocument{doc}, resource.QueryParamFieldValidation)
	u.schemas = map[string]kubectlvalidation.Schema{metav1.FieldValidationIgnore: kubectlvalidation.NullSchema{}}
	for _, directive := range []string{metav1.FieldValidationStrict, metav1.FieldValidationWarn} {
		u.schemas[directive] = kubectlvalidation.NewParamVerifyingSchema(
			kubectlvalidation.ConjunctiveSchema{kubectlvalidation.NewSchemaValidation(openAPIResources{resources}), kubectlvalidation.NoDoubleKeySchema{}},
			verifier, directive)
	}
	return u, nil
}

// openAPIDocument serves the OpenAPI v2 document to kubectl's parameter verifier.
type openAPIDocument struct{ doc *openapi_v2.Document }

func (o openAPIDocument) OpenAPISchema() (*openapi_v2.Document, error) { return o.doc, nil }

// openAPIResources serves the parsed models to kubectl's schema validation.
type openAPIResources struct{ r openapi.Resources }

func (o openAPIResources) OpenAPISchema() (openapi.Resources, error) { return o.r, nil }

// createFile runs what `kubectl create -f path` runs (cmd/create RunCreate: the
// unstructured builder with the strict validator, continuing on errors, default
// namespace, flattened lists; each object created with fieldValidation=Strict)
// against a fake server that decodes the kinds holding a pod as kube-apiserver's
// create handler does and accepts everything else.
func (u *upstream) createFile(path string) kubectlOutcome {
	return u.create(path, "", metav1.FieldValidationStrict, nil)
}

// createFileValidated is createFile against a server that, once an object of a kind
// holding a pod decodes, also defaults, validates and stores it as kube-apiserver's
// create handler does (see validate), with kubectl's --namespace set to namespace
// (none when empty) and its --validate to directive (Strict, Warn or Ignore); t
// fails on an upstream surprise.
func (u *upstream) createFileValidated(t testing.TB, path, namespace, directive string) kubectlOutcome {
	return u.create(path, namespace, directive, t)
}

// create runs kubectl create -f path, with --namespace namespace unless it is empty
// (then the kubeconfig's namespace, default, and objects may name another: kubectl
// enforces only a namespace given on the command line) and the --validate directive;
// the server validates when full is not nil.
func (u *upstream) create(path, namespace, directive string, full testing.TB) kubectlOutcome {
	return u.run(path, namespace, directive, full, false)
}

// applyFileValidated is createFileValidated for kubectl apply -f: each object kubectl
// reads goes through what applyOneObject does with an object the cluster does not
// hold (k8s.io/kubectl pkg/cmd/apply: the generateName refusal,
// util.GetModifiedConfiguration, the GET of the object, util.CreateApplyAnnotation,
// the nulls pruned, the create). An object the server answers the GET for (one the
// file created before) would be patched: it is recorded with status patchedStatus
// and not sent (the workloads tests compare patches).
func (u *upstream) applyFileValidated(t testing.TB, path, namespace, directive string) kubectlOutcome {
	return u.run(path, namespace, directive, t, true)
}

// patchedStatus marks an object kubectl apply would patch.
const patchedStatus = -1

// run is create, or apply (see applyFileValidated).
func (u *upstream) run(path, namespace, directive string, full testing.TB, apply bool) kubectlOutcome {
	enforce := namespace != ""
	if !enforce {
		namespace = "default"
	}
	var out kubectlOutcome
	clientFn := func(gv schema.GroupVersion) (resource.RESTClient, error) {
		prefix := "/apis/" + gv.Group + "/" + gv.Version
		if gv.Group == "" {
			prefix = "/api/" + gv.Version
		}
		return &fake.RESTClient{
			NegotiatedSerializer: resource.UnstructuredPlusDefaultContentConfig().NegotiatedSerializer,
			GroupVersion:         gv,
			VersionedAPIPath:     prefix,
			Client: fake.CreateHTTPClient(func(req *http.Request) (*http.Response, error) {
				return u.serve(req, full, &out)
			}),
		}, nil
	}
	r := resource.NewFakeBuilder(clientFn, func() (meta.RESTMapper, error) { return u.mapper, nil }, nil).
		Unstructured().
		Schema(u.schemas[directive]).
		ContinueOnError().
		NamespaceParam(namespace).DefaultNamespace().
		FilenameParam(enforce, &resource.FilenameOptions{Filenames: []string{path}}).
		Flatten().
		Do()
	if err := r.Err(); err != nil {
		out.errors = append(out.errors, err.Error())
		return out
	}
	err := r.Visit(func(info *resource.Info, err error) error {
		if err != nil {
			return err
		}
		sent := sentObject{kind: info.Object.GetObjectKind().GroupVersionKind().Kind, namespace: info.Namespace, name: info.Name, status: http.StatusCreated}
		helper := resource.NewHelper(info.Client, info.Mapping).WithFieldValidation(directive)
		if apply {
			if info.Name == "" {
				if g := info.Object.(metav1.Object).GetGenerateName(); g != "" {
					return fmt.Errorf("from %s: cannot use generate name with apply", g)
				}
			}
			if _, err := kubectlutil.GetModifiedConfiguration(info.Object, true, unstructured.UnstructuredJSONScheme); err != nil {
				return err
			}
			if _, err := helper.Get(info.Namespace, info.Name); err == nil {
				sent.status = patchedStatus
				out.sent = append(out.sent, sent)
				out.causes = append(out.causes, nil)
				out.warnings = append(out.warnings, nil)
				return nil
			} else if !apierrors.IsNotFound(err) {
				return cmdutil.AddSourceToErr(fmt.Sprintf("retrieving current configuration of:\n%s\nfrom server for:", info.String()), info.Source, err)
			}
			if err := kubectlutil.CreateApplyAnnotation(info.Object, unstructured.UnstructuredJSONScheme); err != nil {
				return err
			}
			upstreamcreate.PruneNulls(info.Object.(*unstructured.Unstructured).Object)
		}
		_, err = helper.Create(info.Namespace, true, info.Object)
		var status apierrors.APIStatus
		switch {
		case errors.As(err, &status):
			sent.status, sent.message = int(status.Status().Code), status.Status().Message
		case err != nil:
			// client-go refused to build the request (or it failed before any
			// response): kubectl create reports the error with the file's name and
			// goes on (k8s.io/kubectl pkg/cmd/create RunCreate, cmd/util
			// AddSourceToErr for an error that is not a status).
			return fmt.Errorf("error when creating %q: %v", info.Source, err)
		}
		out.sent = append(out.sent, sent)
		out.causes, out.pending = append(out.causes, out.pending), nil
		out.warnings, out.pendingWarnings = append(out.warnings, out.pendingWarnings), nil
		return nil
	})
	var agg utilerrors.Aggregate
	if errors.As(err, &agg) {
		for _, e := range utilerrors.Flatten(agg).Errors() {
			out.errors = append(out.errors, e.Error())
		}
	} else if err != nil {
		out.errors = append(out.errors, err.Error())
	}
	return out
}

// serve answers a create as kube-apiserver's create handler does up to and including
// decoding (k8s.io/apiserver pkg/endpoints/handlers/create.go), for the kinds that
// hold a pod; other kinds are accepted unread. With full set it also decodes every
// kind the legacy scheme holds, and goes on with the registry's create for the kinds
// that hold a pod (see validate), recording the validation errors in out.
func (u *upstream) serve(req *http.Request, full testing.TB, out *kubectlOutcome) (*http.Response, error) {
	if req.Method == http.MethodGet {
		return u.get(req, out), nil
	}
	gvr, err := resourceOf(req.URL.Path)
	if _, served := u.kinds[gvr]; err != nil || !served {
		// The server's mux answers paths it does not serve with Go's http.NotFound.
		return &http.Response{StatusCode: http.StatusNotFound, Header: http.Header{"Content-Type": []string{"text/plain; charset=utf-8"}},
			Body: io.NopCloser(strings.NewReader("404 page not found\n"))}, nil
	}
	if !u.creates[gvr] {
		// go-restful finds the path served for GET only and fails the route with
		// 405, which the server writes as its generic response (k8s.io/apiserver
		// pkg/server/handler.go serviceErrorHandler).
		return status(apierrors.NewGenericServerResponse(http.StatusMethodNotAllowed, "", schema.GroupResource{}, "", "405: Method Not Allowed", 0, false)), nil
	}
	body, err := io.ReadAll(req.Body)
	if err != nil {
		return nil, err
	}
	kind, isPod := u.podKind[gvr]
	if !isPod {
		// A validating server (full) decodes every kind whose types the legacy
		// scheme holds, as kube-apiserver does; the kinds other servers of the
		// chain serve (CustomResourceDefinition, APIService) are accepted unread.
		kind = u.kinds[gvr]
		if full == nil {
			return created(kind), nil
		}
		if c, ok := u.custom[gvr]; ok {
			return u.customResource(out, req.URL.Path, gvr, body, kind, c), nil
		}
		if !legacyscheme.Scheme.Recognizes(kind.GroupKind().WithVersion(runtime.APIVersionInternal)) {
			return u.store(out, req.URL.Path, gvr, body, kind), nil
		}
	}
	if len(body) > maxRequestBodyBytes {
		return status(apierrors.NewRequestEntityTooLargeError(fmt.Sprintf("limit is %d", maxRequestBodyBytes))), nil
	}
	directive := req.URL.Query().Get("fieldValidation")
	switch directive {
	case metav1.FieldValidationStrict, metav1.FieldValidationWarn, metav1.FieldValidationIgnore:
	default:
		return nil, fmt.Errorf("fieldValidation=%q", directive)
	}
	info, ok := runtime.SerializerInfoForMediaType(legacyscheme.Codecs.SupportedMediaTypes(), runtime.ContentTypeJSON)
	if !ok {
		return nil, errors.New("no JSON serializer")
	}
	hub := schema.GroupVersion{Group: kind.Group, Version: runtime.APIVersionInternal}
	original, err := legacyscheme.Scheme.New(kind.GroupKind().WithVersion(runtime.APIVersionInternal))
	if err != nil {
		return nil, err
	}
	// The create handler's choice of serializer and its answer to strict errors
	// (handlers/create.go createHandler).
	serializer := info.Serializer
	if directive != metav1.FieldValidationIgnore {
		serializer = info.StrictSerializer
	}
	decoder := legacyscheme.Codecs.DecoderToVersion(serializer, hub)
	obj, gvk, err := decoder.Decode(body, &kind, original)
	var strictErrs []error
	if strictErr, isStrict := runtime.AsStrictDecodingError(err); isStrict && obj != nil && directive == metav1.FieldValidationWarn {
		strictErrs = strictErr.Errors()
		out.pendingWarnings = recordedWarnings(strictErrs)
		err = nil
	}
	if err != nil {
		err = transformDecodeError(legacyscheme.Scheme, err, original, gvk, body)
		// The scheme's name is the line that created it, as a release build (-trimpath)
		// prints it; built from the module cache here, it would name another file.
		return status(renameScheme(err, legacyscheme.Scheme.Name(), u.schemeName)), nil
	}
	if gvk.GroupVersion() != kind.GroupVersion() {
		return status(apierrors.NewBadRequest(fmt.Sprintf("the API version in the data (%s) does not match the expected API version (%v)", gvk.GroupVersion(), kind.GroupVersion()))), nil
	}
	switch {
	case full != nil && isPod:
		return u.validate(full, req, body, kind, strictErrs, out), nil
	case full != nil:
		// The handler's first step on every decoded object (handlers/create.go).
		out.pendingWarnings = upstreamcreate.Recorded(func(ctx context.Context) {
			addStrictDecodingWarnings(ctx, strictErrs)
			dedupOwnerReferencesAndAddWarning(obj, ctx, false)
		})
		return u.store(out, req.URL.Path, gvr, body, kind), nil
	}
	return created(kind), nil
}

// created is a 201 answer holding a stored object of the kind (its content does not
// matter to kubectl create, which only prints its name).
func created(gvk schema.GroupVersionKind) *http.Response {
	return respond(http.StatusCreated, fmt.Appendf(nil, `{"apiVersion": %q, "kind": %q, "metadata": {"name": "created"}}`, gvk.GroupVersion().String(), gvk.Kind))
}

// renameScheme replaces a scheme's name in a status message.
func renameScheme(err error, from, to string) error {
	var s apierrors.APIStatus
	if !errors.As(err, &s) {
		return err
	}
	st := s.Status()
	st.Message = strings.ReplaceAll(st.Message, fmt.Sprintf("scheme %q", from), fmt.Sprintf("scheme %q", to))
	return &apierrors.StatusError{ErrStatus: st}
}

// releaseSchemeName is the name a release kube-apiserver (built with -trimpath) gives
// the legacy scheme: apimachinery's naming.GetNameFromCallsite on
// "k8s.io/kubernetes/pkg/api/legacyscheme/scheme.go" and the line of its
// runtime.NewScheme(), read from the source.
func releaseSchemeName() (string, error) {
	dir, err := served.KubernetesDir()
	if err != nil {
		return "", err
	}
	src, err := os.ReadFile(filepath.Join(dir, "pkg", "api", "legacyscheme", "scheme.go"))
	if err != nil {
		return "", err
	}
	for i, line := range strings.Split(string(src), "\n") {
		if strings.Contains(line, "runtime.NewScheme()") {
			return fmt.Sprintf("pkg/api/legacyscheme/scheme.go:%d", i+1), nil
		}
	}
	return "", errors.New("legacyscheme: no runtime.NewScheme() line")
}

// resourceOf reads the group, version and resource of a create URL
// (/api/v1/namespaces/NS/pods, /apis/apps/v1/namespaces/NS/deployments, /api/v1/nodes).
func resourceOf(path string) (schema.GroupVersionResource, error) {
	parts := strings.Split(strings.Trim(path, "/"), "/")
	var gvr schema.GroupVersionResource
	switch {
	case len(parts) >= 2 && parts[0] == "api":
		gvr.Version, parts = parts[1], parts[2:]
	case len(parts) >= 3 && parts[0] == "apis":
		gvr.Group, gvr.Version, parts = parts[1], parts[2], parts[3:]
	default:
		return gvr, fmt.Errorf("unexpected path %q", path)
	}
	if len(parts) >= 3 && parts[0] == "namespaces" {
		parts = parts[2:]
	}
	if len(parts) != 1 {
		return gvr, fmt.Errorf("unexpected path %q", path)
	}
	gvr.Resource = parts[0]
	return gvr, nil
}

// respond is an HTTP response with a JSON body.
func respond(code int, body []byte) *http.Response {
	return &http.Response{StatusCode: code, Header: http.Header{"Content-Type": []string{"application/json"}}, Body: io.NopCloser(bytes.NewReader(body))}
}

// panicked is the response of a request whose handling panicked: the panic filter's
// http.Error, a plain-text 500. A real server panics again after writing it and
// resets the connection (see validation.ServerPanicDetail); podlife answers with what
// was written.
func panicked() *http.Response {
	return &http.Response{StatusCode: http.StatusInternalServerError,
		Header: http.Header{"Content-Type": []string{"text/plain; charset=utf-8"}, "X-Content-Type-Options": []string{"nosniff"}},
		Body:   io.NopCloser(strings.NewReader(validation.ServerPanicDetail + "\n"))}
}

// status is the response of an API error, as the server writes it.
func status(err error) *http.Response {
	var s apierrors.APIStatus
	if !errors.As(err, &s) {
		s = apierrors.NewInternalError(err)
	}
	st := s.Status()
	st.Kind, st.APIVersion = "Status", "v1"
	data, _ := runtime.Encode(legacyscheme.Codecs.LegacyCodec(metav1.SchemeGroupVersion), &st)
	return respond(int(st.Code), data)
}

// get answers kubectl apply's GET of an object: 200 for one the run created before
// (its content does not matter here), the store's 404 for another of a served
// resource, the mux's plain 404 for a path the server does not serve.
func (u *upstream) get(req *http.Request, out *kubectlOutcome) *http.Response {
	dir, name := path.Split(strings.TrimSuffix(req.URL.Path, "/"))
	gvr, err := resourceOf(dir)
	if _, served := u.kinds[gvr]; err != nil || !served {
		return &http.Response{StatusCode: http.StatusNotFound, Header: http.Header{"Content-Type": []string{"text/plain; charset=utf-8"}},
			Body: io.NopCloser(strings.NewReader("404 page not found\n"))}
	}
	if out.stored[gvr.GroupResource().String()+"/"+namespaceOf(dir)+"/"+name] {
		return created(u.kinds[gvr])
	}
	return status(apierrors.NewNotFound(gvr.GroupResource(), name))
}
