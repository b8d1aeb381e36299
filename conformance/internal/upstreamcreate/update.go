package upstreamcreate

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/audit"
	"k8s.io/apiserver/pkg/endpoints/filters"
	"k8s.io/apiserver/pkg/endpoints/handlers"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/generic"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/apiserver/pkg/storage"
	"k8s.io/apiserver/pkg/storage/storagebackend"
	"k8s.io/apiserver/pkg/storage/storagebackend/factory"
	"k8s.io/client-go/tools/cache"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	core "k8s.io/kubernetes/pkg/apis/core"
	daemonsetstorage "k8s.io/kubernetes/pkg/registry/apps/daemonset/storage"
	deploymentstorage "k8s.io/kubernetes/pkg/registry/apps/deployment/storage"
	replicasetstorage "k8s.io/kubernetes/pkg/registry/apps/replicaset/storage"
	statefulsetstorage "k8s.io/kubernetes/pkg/registry/apps/statefulset/storage"
	cronjobstorage "k8s.io/kubernetes/pkg/registry/batch/cronjob/storage"
	jobstorage "k8s.io/kubernetes/pkg/registry/batch/job/storage"
	podstorage "k8s.io/kubernetes/pkg/registry/core/pod/storage"
	podtemplatestorage "k8s.io/kubernetes/pkg/registry/core/podtemplate/storage"
	rcstorage "k8s.io/kubernetes/pkg/registry/core/replicationcontroller/storage"

	"github.com/podlife/podlife/validation"
)

// UpdateAnswer is the API server's answer to a PUT of an object.
type UpdateAnswer struct {
	// Code is the HTTP status code: 200, or the error status's code (500 for a
	// request whose handling panicked).
	Code int
	// Status is the error status the server wrote (nil for 200 and for a panic,
	// which the server's panic filter answers in plain text).
	Status *metav1.Status
	// Panicked reports a request whose handling panicked: the server answers 500
	// with validation.ServerPanicDetail.
	Panicked bool
	// Errs are the field errors of a 422 Invalid, with their typed bad values, in the
	// server's order; nil otherwise.
	Errs field.ErrorList
	// Warnings are the texts of the response's Warning headers, as the server's
	// warning recorder (filters.WithWarningRecorder) writes them and client-go reads
	// them, whatever the code.
	Warnings []string
}

// Update is the API server's answer to PUT /api/v1/namespaces/NS/pods/NAME with
// newPod (as JSON) as the body, NS and NAME being the stored pod's, the server storing
// stored: the pod's Kind.UpdateStored.
func Update(t testing.TB, newPod *v1.Pod, stored *core.Pod) UpdateAnswer {
	t.Helper()
	return Kinds["*v1.Pod"].UpdateStored(t, newPod, stored)
}

// Update is the API server's answer to a PUT of newObj (a v1 object of the kind) to
// the URL of oldObj, the stored object as a client reads it (a v1 object of the kind
// with a namespace, a name and a resourceVersion): oldObj decoded as the storage
// decodes it (the v1 defaults, the conversion), then UpdateStored.
func (k *Kind) Update(t testing.TB, newObj, oldObj runtime.Object) UpdateAnswer {
	t.Helper()
	stored, errs := k.Decode(t, oldObj)
	if errs != nil {
		t.Fatalf("stored object does not decode: %v", errs)
	}
	return k.UpdateStored(t, newObj, stored)
}

// UpdateStored is the API server's answer to PUT
// /api[s]/GROUP/v1/namespaces/NS/RESOURCE/NAME with newObj (as JSON) as the body, NS
// and NAME being the stored object's, the server storing stored (an object of the
// internal API). It runs the real request path:
//   - k8s.io/apiserver pkg/endpoints/handlers/update.go UpdateResource, the handler
//     itself: decoding (v1 defaulting, conversion), the request namespace, checkName,
//     the field manager;
//   - the kind's REST storage (k8s.io/kubernetes pkg/registry/.../storage NewREST or
//     NewStorage, a k8s.io/apiserver generic registry Store with the resource prefix
//     kube-apiserver gives it), whose Update runs the uid precondition and the
//     resourceVersion check, then rest.BeforeUpdate (the strategy's
//     PrepareForUpdate, metadata carried over, rest.ValidateUpdate);
//   - over an in-memory storage.Interface that holds stored and runs etcd3's steps of
//     GuaranteedUpdate that matter here (preconditions checked with the key etcd3
//     prepares under the default --etcd-prefix, then the update function).
//
// The Status only carries the causes as text, so the strategy's validation is
// observed too: the store's update strategy is upstream's wrapped so that the objects
// rest.ValidateUpdate sees are kept; rest.ValidateUpdate run again on them gives the
// typed errors, which must render exactly the Status's causes; they are returned in
// the causes' order. A panic of the handler (the server's panic filter answers 500)
// is recovered and reported as Panicked.
func (k *Kind) UpdateStored(t testing.TB, newObj runtime.Object, stored runtime.Object) UpdateAnswer {
	t.Helper()
	body, err := json.Marshal(newObj)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	ans, _, seen := k.serveStored(t, request{method: http.MethodPut, verb: "update", contentType: "application/json", body: body}, stored)
	if ans.Code != http.StatusUnprocessableEntity || ans.Panicked {
		return ans
	}
	if seen == nil {
		t.Fatalf("422 without the strategy's validation: %s", ans.Status.Message)
	}
	ans.Errs = k.causes(t, *ans.Status, seen)
	return ans
}

// request is a request serveStored sends to the stored object's URL.
type request struct {
	method, verb, contentType string
	// query is the URL's query, without "?" ("" for none).
	query string
	body  []byte
}

// serveStored sends req to the stored object's URL through the kind's handler for
// its method (UpdateResource for PUT, PatchResource for PATCH) behind the server's
// warning recorder, the store holding stored (internal). It returns the answer (a
// panic recovered as Panicked; the Status of a refusal), the response, and what the
// strategy's ValidateUpdate was given (nil when it did not run).
func (k *Kind) serveStored(t testing.TB, req request, stored runtime.Object) (ans UpdateAnswer, rec *httptest.ResponseRecorder, seen *validated) {
	t.Helper()
	u := k.updater(t)
	u.mu.Lock()
	defer u.mu.Unlock()
	u.mem.current = stored.DeepCopyObject()
	u.strategy.seen = nil
	handler := u.handler
	if req.method == http.MethodPatch {
		handler = u.patch
	}
	sm := metaOf(t, stored)
	ns, name := sm.GetNamespace(), sm.GetName()
	path, apiPrefix := k.objectPath(ns, name)
	if req.query != "" {
		path += "?" + req.query
	}
	r := httptest.NewRequest(req.method, path, bytes.NewReader(req.body))
	r.Header.Set("Content-Type", req.contentType)
	r.Header.Set("Accept", "application/json")
	// The patch handler records the patch in the request's audit event.
	ctx := genericapirequest.WithRequestInfo(audit.WithAuditContext(r.Context()), &genericapirequest.RequestInfo{
		IsResourceRequest: true, Verb: req.verb, APIPrefix: apiPrefix,
		APIGroup: k.Group, APIVersion: k.Version, Namespace: ns, Resource: k.Resource, Name: name, Path: r.URL.Path,
	})
	r = r.WithContext(ctx)
	rec = httptest.NewRecorder()
	panicked := func() (panicked bool) {
		defer func() {
			if recover() != nil {
				panicked = true
			}
		}()
		filters.WithWarningRecorder(handler).ServeHTTP(rec, r)
		return false
	}()
	if panicked {
		return UpdateAnswer{Code: http.StatusInternalServerError, Panicked: true, Warnings: headerWarnings(rec.Header())}, rec, nil
	}
	ans = UpdateAnswer{Code: rec.Code, Warnings: headerWarnings(rec.Header())}
	if rec.Code == http.StatusOK {
		return ans, rec, nil
	}
	var st metav1.Status
	if err := json.Unmarshal(rec.Body.Bytes(), &st); err != nil || st.Kind != "Status" {
		t.Fatalf("%s answered %d with %q", req.method, rec.Code, rec.Body.String())
	}
	ans.Status = &st
	return ans, rec, u.strategy.seen
}

// causes are the typed errors of a 422 the strategy's validation gave, in the order
// of the status's causes.
func (k *Kind) causes(t testing.TB, st metav1.Status, seen *validated) field.ErrorList {
	t.Helper()
	var errs field.ErrorList
	again := rest.ValidateUpdate(seen.ctx, seen.obj.DeepCopyObject(), seen.old.DeepCopyObject(), k.strategy)
	if st.Details == nil || len(st.Details.Causes) != len(again) {
		t.Fatalf("422 causes %v, validation again %v", st.Details, again)
	}
	// Upstream ranges over maps, so the second run may order some errors differently:
	// each cause takes the first unused error that renders it, which puts the typed
	// errors in the server's order.
	used := make([]bool, len(again))
	for i, c := range st.Details.Causes {
		found := false
		for j, e := range again {
			if !used[j] && string(c.Type) == string(e.Type) && c.Field == e.Field && c.Message == e.ErrorBody() {
				used[j], found = true, true
				errs = append(errs, e)
				break
			}
		}
		if !found {
			t.Fatalf("cause %d (%s %s %q) is not among the errors of validation run again: %v", i, c.Type, c.Field, c.Message, again)
		}
	}
	return errs
}

// AsErrorList renders the answer the way podlife's ValidatePodUpdate and
// ValidateObjectUpdate report it: the field errors of a 422, nothing for a 200, and
// for a refusal (400, 409, 500) the one error podlife documents
// (validation.RefusalOf): on the field at issue (a metadata field, or the annotation
// the conversion could not read), with newObj's value of it and the status message
// as the detail; for a panic, one Internal error without a field whose detail is
// validation.ServerPanicDetail.
func (a UpdateAnswer) AsErrorList(t testing.TB, newObj runtime.Object) field.ErrorList {
	t.Helper()
	switch {
	case a.Panicked:
		return field.ErrorList{field.InternalError(nil, errors.New(validation.ServerPanicDetail))}
	case a.Code == http.StatusOK:
		return nil
	case a.Code == http.StatusUnprocessableEntity:
		return a.Errs
	}
	m := metaOf(t, newObj)
	msg := a.Status.Message
	meta := field.NewPath("metadata")
	switch {
	case a.Code == http.StatusBadRequest && msg == "the namespace of the provided object does not match the namespace sent on the request":
		return field.ErrorList{field.Invalid(meta.Child("namespace"), m.GetNamespace(), msg)}
	case a.Code == http.StatusBadRequest && (strings.HasPrefix(msg, "the name of the object (") || strings.HasPrefix(msg, "Name parameter invalid: ")):
		return field.ErrorList{field.Invalid(meta.Child("name"), m.GetName(), msg)}
	case a.Code == http.StatusBadRequest && strings.Contains(msg, ` in version "v1" cannot be handled as a `):
		key := appsv1.DeprecatedRollbackTo
		if _, ok := newObj.(*appsv1.DaemonSet); ok {
			key = appsv1.DeprecatedTemplateGeneration
		}
		return field.ErrorList{field.Invalid(meta.Child("annotations").Key(key), m.GetAnnotations()[key], msg)}
	case a.Code == http.StatusConflict && strings.Contains(msg, "Precondition failed: UID in precondition"):
		return field.ErrorList{field.Invalid(meta.Child("uid"), string(m.GetUID()), msg)}
	case a.Code == http.StatusConflict:
		return field.ErrorList{field.Invalid(meta.Child("resourceVersion"), m.GetResourceVersion(), msg)}
	case a.Code == http.StatusInternalServerError && strings.HasPrefix(msg, "strconv.ParseUint"):
		return field.ErrorList{field.InternalError(meta.Child("resourceVersion"), fmt.Errorf("%s", msg))}
	}
	t.Fatalf("PUT answered %d %s: %q, which podlife does not model", a.Code, a.Status.Reason, msg)
	return nil
}

// updater is a kind's handler and storage, built once per test binary.
type updater struct {
	mu       sync.Mutex
	handler  http.HandlerFunc
	patch    http.HandlerFunc
	mem      *memStorage
	strategy *keepingStrategy
}

var (
	updatersMu sync.Mutex
	updaters   = map[string]*updater{}
)

func (k *Kind) updater(t testing.TB) *updater {
	updatersMu.Lock()
	defer updatersMu.Unlock()
	if u, ok := updaters[k.Name]; ok {
		return u
	}
	u, err := k.newUpdater()
	if err != nil {
		t.Fatalf("building the update path of %s: %v", k.Name, err)
	}
	updaters[k.Name] = u
	return u
}

// resourcePrefixes are kube-apiserver's storage prefixes that are not the resource
// (k8s.io/kubernetes pkg/kubeapiserver SpecialDefaultResourcePrefixes).
var resourcePrefixes = map[string]string{"replicationcontrollers": "controllers"}

// newStore builds the kind's registry store over mem, as the API server builds it.
func (k *Kind) newStore(opts generic.RESTOptions) (*genericregistry.Store, error) {
	switch k.Name {
	case "Pod":
		s, err := podstorage.NewStorage(opts, nil, nil, nil, nil)
		return s.Pod.Store, err
	case "PodTemplate":
		s, err := podtemplatestorage.NewREST(opts)
		if err != nil {
			return nil, err
		}
		return s.Store, nil
	case "ReplicationController":
		s, err := rcstorage.NewStorage(opts)
		if err != nil {
			return nil, err
		}
		return s.Controller.Store, nil
	case "Deployment":
		s, err := deploymentstorage.NewStorage(opts)
		if err != nil {
			return nil, err
		}
		return s.Deployment.Store, nil
	case "ReplicaSet":
		s, err := replicasetstorage.NewStorage(opts)
		if err != nil {
			return nil, err
		}
		return s.ReplicaSet.Store, nil
	case "StatefulSet":
		s, err := statefulsetstorage.NewStorage(opts)
		if err != nil {
			return nil, err
		}
		return s.StatefulSet.Store, nil
	case "DaemonSet":
		s, _, err := daemonsetstorage.NewREST(opts)
		if err != nil {
			return nil, err
		}
		return s.Store, nil
	case "Job":
		s, err := jobstorage.NewStorage(opts)
		if err != nil {
			return nil, err
		}
		return s.Job.Store, nil
	case "CronJob":
		s, _, err := cronjobstorage.NewREST(opts)
		if err != nil {
			return nil, err
		}
		return s.Store, nil
	}
	return nil, fmt.Errorf("no storage for %s", k.Name)
}

func (k *Kind) newUpdater() (*updater, error) {
	mem := &memStorage{}
	gr := schema.GroupResource{Group: k.Group, Resource: k.Resource}
	gv := schema.GroupVersion{Group: k.Group, Version: k.Version}
	prefix := k.Resource
	if p, ok := resourcePrefixes[k.Resource]; ok {
		prefix = p
	}
	opts := generic.RESTOptions{
		StorageConfig: &storagebackend.ConfigForResource{
			GroupResource: gr,
			Config:        storagebackend.Config{Codec: legacyscheme.Codecs.LegacyCodec(gv)},
		},
		Decorator: func(*storagebackend.ConfigForResource, string, func(runtime.Object) (string, error), func() runtime.Object,
			func() runtime.Object, storage.AttrFunc, storage.IndexerFuncs, *cache.Indexers) (storage.Interface, factory.DestroyFunc, error) {
			return mem, func() {}, nil
		},
		ResourcePrefix: prefix,
	}
	store, err := k.newStore(opts)
	if err != nil {
		return nil, err
	}
	dv, ok := k.strategy.(rest.DeclarativeValidationStrategy)
	if !ok {
		return nil, fmt.Errorf("the %s strategy has no declarative validation", k.Name)
	}
	keep := &keepingStrategy{RESTUpdateStrategy: k.strategy, DeclarativeValidationStrategy: dv}
	store.UpdateStrategy = keep

	kind := gv.WithKind(k.Name)
	hub := schema.GroupVersion{Group: k.Group, Version: runtime.APIVersionInternal}
	fm, err := managedfields.NewDefaultFieldManager(managedfields.NewDeducedTypeConverter(), legacyscheme.Scheme, legacyscheme.Scheme,
		legacyscheme.Scheme, kind, hub, "", nil)
	if err != nil {
		return nil, err
	}
	scope := &handlers.RequestScope{
		Namer:            handlers.ContextBasedNaming{Namer: meta.NewAccessor(), ClusterScoped: false},
		Serializer:       legacyscheme.Codecs,
		ParameterCodec:   legacyscheme.ParameterCodec,
		Creater:          legacyscheme.Scheme,
		Convertor:        legacyscheme.Scheme,
		Defaulter:        legacyscheme.Scheme,
		Typer:            legacyscheme.Scheme,
		UnsafeConvertor:  legacyscheme.Scheme,
		FieldManager:     fm,
		Resource:         gv.WithResource(k.Resource),
		Kind:             kind,
		MetaGroupVersion: metav1.SchemeGroupVersion,
		HubGroupVersion:  hub,
		// kube-apiserver's default --max-request-body-bytes (3 MiB).
		MaxRequestBodyBytes: 3 * 1024 * 1024,
	}
	var admit admission.Interface // none: admission is not part of validation
	return &updater{
		handler:  handlers.UpdateResource(store, scope, admit),
		patch:    handlers.PatchResource(store, scope, admit, []string{string(types.JSONPatchType), string(types.MergePatchType), string(types.StrategicMergePatchType)}),
		mem:      mem,
		strategy: keep,
	}, nil
}

// keepingStrategy is a kind's strategy; it keeps what its ValidateUpdate is given.
type keepingStrategy struct {
	rest.RESTUpdateStrategy
	rest.DeclarativeValidationStrategy
	seen *validated
}

type validated struct {
	ctx      context.Context
	obj, old runtime.Object
}

func (s *keepingStrategy) ValidateUpdate(ctx context.Context, obj, old runtime.Object) field.ErrorList {
	s.seen = &validated{ctx: ctx, obj: obj.DeepCopyObject(), old: old.DeepCopyObject()}
	return s.RESTUpdateStrategy.ValidateUpdate(ctx, obj, old)
}

// memStorage holds one stored object. Only what an update uses is implemented; the
// embedded nil interface makes anything else fail loudly.
type memStorage struct {
	storage.Interface
	current runtime.Object
}

// etcdPrefix is kube-apiserver's default --etcd-prefix; etcd3 prepares every key
// under it.
const etcdPrefix = "/registry"

func (m *memStorage) Versioner() storage.Versioner { return storage.APIObjectVersioner{} }

// copyInto deep-copies the stored object into out, an object of the same type.
func (m *memStorage) copyInto(out runtime.Object) {
	reflect.ValueOf(out).Elem().Set(reflect.ValueOf(m.current.DeepCopyObject()).Elem())
}

func (m *memStorage) Get(_ context.Context, key string, _ storage.GetOptions, out runtime.Object) error {
	if m.current == nil {
		return storage.NewKeyNotFoundError(key, 0)
	}
	m.copyInto(out)
	return nil
}

// GuaranteedUpdate runs the steps of etcd3's GuaranteedUpdate on the stored object
// (k8s.io/apiserver pkg/storage/etcd3/store.go): the preconditions, checked with the
// prepared key, then the update function with the stored resourceVersion. Nothing is
// written.
func (m *memStorage) GuaranteedUpdate(_ context.Context, key string, dest runtime.Object, ignoreNotFound bool,
	pre *storage.Preconditions, tryUpdate storage.UpdateFunc, _ runtime.Object) error {
	prepared := etcdPrefix + "/" + strings.TrimPrefix(key, "/")
	if m.current == nil {
		return storage.NewKeyNotFoundError(prepared, 0)
	}
	existing := m.current.DeepCopyObject()
	if err := pre.Check(prepared, existing); err != nil {
		return err
	}
	rv, err := m.Versioner().ObjectResourceVersion(existing)
	if err != nil {
		return err
	}
	out, _, err := tryUpdate(existing, storage.ResponseMeta{ResourceVersion: rv})
	if err != nil {
		return err
	}
	reflect.ValueOf(dest).Elem().Set(reflect.ValueOf(out.DeepCopyObject()).Elem())
	return nil
}

// Delete is what an update that empties the finalizers of an object being deleted
// (with no grace period left) ends in: the stored object is deleted. Nothing is
// written.
func (m *memStorage) Delete(_ context.Context, key string, out runtime.Object, pre *storage.Preconditions, _ storage.ValidateObjectFunc, _ runtime.Object, _ storage.DeleteOptions) error {
	prepared := etcdPrefix + "/" + strings.TrimPrefix(key, "/")
	if m.current == nil {
		return storage.NewKeyNotFoundError(prepared, 0)
	}
	if err := pre.Check(prepared, m.current); err != nil {
		return err
	}
	m.copyInto(out)
	return nil
}

// objectPath is the URL path of the kind's object name in namespace ns, and its
// API prefix ("api" or "apis").
func (k *Kind) objectPath(ns, name string) (path, apiPrefix string) {
	apiPrefix, groupPath := "api", ""
	if k.Group != "" {
		apiPrefix, groupPath = "apis", "/"+k.Group
	}
	return "/" + apiPrefix + groupPath + "/" + k.Version + "/namespaces/" + url.PathEscape(ns) + "/" + k.Resource + "/" + url.PathEscape(name), apiPrefix
}
