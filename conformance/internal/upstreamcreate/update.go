package upstreamcreate

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/endpoints/handlers"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/generic"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/apiserver/pkg/storage"
	"k8s.io/apiserver/pkg/storage/storagebackend"
	"k8s.io/apiserver/pkg/storage/storagebackend/factory"
	"k8s.io/client-go/tools/cache"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	core "k8s.io/kubernetes/pkg/apis/core"
	podstore "k8s.io/kubernetes/pkg/registry/core/pod"
	podstorage "k8s.io/kubernetes/pkg/registry/core/pod/storage"
)

// UpdateAnswer is the API server's answer to a PUT of a pod.
type UpdateAnswer struct {
	// Code is the HTTP status code: 200, or the error status's code.
	Code int
	// Status is the error status the server wrote (nil for 200).
	Status *metav1.Status
	// Errs are the field errors of a 422 Invalid, with their typed bad values, in the
	// server's order; nil otherwise.
	Errs field.ErrorList
}

// Update is the API server's answer to PUT /api/v1/namespaces/NS/pods/NAME with
// newPod (as JSON) as the body, NS and NAME being the stored pod's, the server storing
// stored. It runs the real request path:
//   - k8s.io/apiserver pkg/endpoints/handlers/update.go UpdateResource, the handler
//     itself: decoding (v1 defaulting, conversion), the request namespace, checkName,
//     the field manager;
//   - the pod registry's REST storage (k8s.io/kubernetes pkg/registry/core/pod/storage
//     NewStorage, a k8s.io/apiserver generic registry Store), whose Update runs the
//     uid precondition and the resourceVersion check, then rest.BeforeUpdate (the
//     strategy's PrepareForUpdate, metadata carried over, rest.ValidateUpdate);
//   - over an in-memory storage.Interface that holds stored and runs etcd3's steps of
//     GuaranteedUpdate that matter here (preconditions checked with the key etcd3
//     prepares under the default --etcd-prefix, then the update function).
//
// The Status only carries the causes as text, so the strategy's validation is
// observed too: the store's update strategy is upstream's wrapped so that the objects
// rest.ValidateUpdate sees are kept; rest.ValidateUpdate run again on them gives the
// typed errors, which must render exactly the Status's causes; they are returned in
// the causes' order.
func Update(t testing.TB, newPod *v1.Pod, stored *core.Pod) UpdateAnswer {
	t.Helper()
	u := theUpdater(t)
	u.mu.Lock()
	defer u.mu.Unlock()
	u.mem.current = stored.DeepCopy()
	u.strategy.seen = nil

	body, err := json.Marshal(newPod)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	ns, name := stored.Namespace, stored.Name
	req := httptest.NewRequest(http.MethodPut, "/api/v1/namespaces/"+ns+"/pods/"+name, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	ctx := genericapirequest.WithRequestInfo(req.Context(), &genericapirequest.RequestInfo{
		IsResourceRequest: true, Verb: "update", APIPrefix: "api", APIVersion: "v1",
		Namespace: ns, Resource: "pods", Name: name, Path: req.URL.Path,
	})
	req = req.WithContext(ctx)
	rec := httptest.NewRecorder()
	u.handler(rec, req)

	ans := UpdateAnswer{Code: rec.Code}
	if rec.Code == http.StatusOK {
		return ans
	}
	var st metav1.Status
	if err := json.Unmarshal(rec.Body.Bytes(), &st); err != nil || st.Kind != "Status" {
		t.Fatalf("PUT answered %d with %q", rec.Code, rec.Body.String())
	}
	ans.Status = &st
	if rec.Code != http.StatusUnprocessableEntity {
		return ans
	}
	seen := u.strategy.seen
	if seen == nil {
		t.Fatalf("422 without the strategy's validation: %s", st.Message)
	}
	again := rest.ValidateUpdate(seen.ctx, seen.obj.DeepCopy(), seen.old.DeepCopy(), podstore.Strategy)
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
				ans.Errs = append(ans.Errs, e)
				break
			}
		}
		if !found {
			t.Fatalf("cause %d (%s %s %q) is not among the errors of validation run again: %v", i, c.Type, c.Field, c.Message, again)
		}
	}
	return ans
}

// AsErrorList renders the answer the way podlife's ValidatePodUpdate reports it: the
// field errors of a 422, nothing for a 200, and for a refusal (400, 409, 500) the one
// error podlife documents (validation.RefusalOf): on the metadata field at issue,
// with newPod's value of it and the status message as the detail.
func (a UpdateAnswer) AsErrorList(t testing.TB, newPod *v1.Pod) field.ErrorList {
	t.Helper()
	switch a.Code {
	case http.StatusOK:
		return nil
	case http.StatusUnprocessableEntity:
		return a.Errs
	}
	msg := a.Status.Message
	meta := field.NewPath("metadata")
	switch {
	case a.Code == http.StatusBadRequest && msg == "the namespace of the provided object does not match the namespace sent on the request":
		return field.ErrorList{field.Invalid(meta.Child("namespace"), newPod.Namespace, msg)}
	case a.Code == http.StatusBadRequest && (strings.HasPrefix(msg, "the name of the object (") || strings.HasPrefix(msg, "Name parameter invalid: ")):
		return field.ErrorList{field.Invalid(meta.Child("name"), newPod.Name, msg)}
	case a.Code == http.StatusConflict && strings.Contains(msg, "Precondition failed: UID in precondition"):
		return field.ErrorList{field.Invalid(meta.Child("uid"), string(newPod.UID), msg)}
	case a.Code == http.StatusConflict:
		return field.ErrorList{field.Invalid(meta.Child("resourceVersion"), newPod.ResourceVersion, msg)}
	case a.Code == http.StatusInternalServerError && strings.HasPrefix(msg, "strconv.ParseUint"):
		return field.ErrorList{field.InternalError(meta.Child("resourceVersion"), fmt.Errorf("%s", msg))}
	}
	t.Fatalf("PUT answered %d %s: %q, which podlife does not model", a.Code, a.Status.Reason, msg)
	return nil
}

// updater is the handler and storage, built once per test binary.
type updater struct {
	mu       sync.Mutex
	handler  http.HandlerFunc
	mem      *memStorage
	strategy *keepingStrategy
}

var (
	updaterOnce sync.Once
	theUpd      *updater
	updErr      error
)

func theUpdater(t testing.TB) *updater {
	updaterOnce.Do(func() { theUpd, updErr = newUpdater() })
	if updErr != nil {
		t.Fatalf("building the update path: %v", updErr)
	}
	return theUpd
}

func newUpdater() (*updater, error) {
	mem := &memStorage{}
	gr := schema.GroupResource{Resource: "pods"}
	opts := generic.RESTOptions{
		StorageConfig: &storagebackend.ConfigForResource{
			GroupResource: gr,
			Config:        storagebackend.Config{Codec: legacyscheme.Codecs.LegacyCodec(v1.SchemeGroupVersion)},
		},
		Decorator: func(*storagebackend.ConfigForResource, string, func(runtime.Object) (string, error), func() runtime.Object,
			func() runtime.Object, storage.AttrFunc, storage.IndexerFuncs, *cache.Indexers) (storage.Interface, factory.DestroyFunc, error) {
			return mem, func() {}, nil
		},
		ResourcePrefix: "pods",
	}
	ps, err := podstorage.NewStorage(opts, nil, nil, nil, nil)
	if err != nil {
		return nil, err
	}
	keep := &keepingStrategy{RESTUpdateStrategy: podstore.Strategy, DeclarativeValidationStrategy: podstore.Strategy}
	ps.Pod.Store.UpdateStrategy = keep

	kind := v1.SchemeGroupVersion.WithKind("Pod")
	hub := schema.GroupVersion{Version: runtime.APIVersionInternal}
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
		Resource:         v1.SchemeGroupVersion.WithResource("pods"),
		Kind:             kind,
		MetaGroupVersion: metav1.SchemeGroupVersion,
		HubGroupVersion:  hub,
		// kube-apiserver's default --max-request-body-bytes (3 MiB).
		MaxRequestBodyBytes: 3 * 1024 * 1024,
	}
	var admit admission.Interface // none: admission is not part of validation
	return &updater{
		handler:  handlers.UpdateResource(ps.Pod, scope, admit),
		mem:      mem,
		strategy: keep,
	}, nil
}

// keepingStrategy is the pod strategy; it keeps what its ValidateUpdate is given.
type keepingStrategy struct {
	rest.RESTUpdateStrategy
	rest.DeclarativeValidationStrategy
	seen *validated
}

type validated struct {
	ctx      context.Context
	obj, old *core.Pod
}

func (s *keepingStrategy) ValidateUpdate(ctx context.Context, obj, old runtime.Object) field.ErrorList {
	s.seen = &validated{ctx: ctx, obj: obj.(*core.Pod).DeepCopy(), old: old.(*core.Pod).DeepCopy()}
	return s.RESTUpdateStrategy.ValidateUpdate(ctx, obj, old)
}

// memStorage holds one stored pod. Only what an update uses is implemented; the
// embedded nil interface makes anything else fail loudly.
type memStorage struct {
	storage.Interface
	current *core.Pod
}

// etcdPrefix is kube-apiserver's default --etcd-prefix; etcd3 prepares every key
// under it.
const etcdPrefix = "/registry"

func (m *memStorage) Versioner() storage.Versioner { return storage.APIObjectVersioner{} }

func (m *memStorage) Get(_ context.Context, key string, _ storage.GetOptions, out runtime.Object) error {
	if m.current == nil {
		return storage.NewKeyNotFoundError(key, 0)
	}
	m.current.DeepCopyInto(out.(*core.Pod))
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
	existing := m.current.DeepCopy()
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
	out.(*core.Pod).DeepCopyInto(dest.(*core.Pod))
	return nil
}

// Delete is what an update that empties the finalizers of a pod being deleted (with
// no grace period left) ends in: the stored pod is deleted. Nothing is written.
func (m *memStorage) Delete(_ context.Context, key string, out runtime.Object, pre *storage.Preconditions, _ storage.ValidateObjectFunc, _ runtime.Object, _ storage.DeleteOptions) error {
	prepared := etcdPrefix + "/" + strings.TrimPrefix(key, "/")
	if m.current == nil {
		return storage.NewKeyNotFoundError(prepared, 0)
	}
	if err := pre.Check(prepared, m.current); err != nil {
		return err
	}
	m.current.DeepCopyInto(out.(*core.Pod))
	return nil
}
