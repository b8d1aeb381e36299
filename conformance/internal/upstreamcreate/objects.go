package upstreamcreate

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/apiserver/pkg/storage/names"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/apis/apps"
	_ "k8s.io/kubernetes/pkg/apis/apps/install"
	"k8s.io/kubernetes/pkg/apis/batch"
	_ "k8s.io/kubernetes/pkg/apis/batch/install"
	core "k8s.io/kubernetes/pkg/apis/core"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	"k8s.io/kubernetes/pkg/registry/apps/daemonset"
	"k8s.io/kubernetes/pkg/registry/apps/deployment"
	"k8s.io/kubernetes/pkg/registry/apps/replicaset"
	"k8s.io/kubernetes/pkg/registry/apps/statefulset"
	"k8s.io/kubernetes/pkg/registry/batch/cronjob"
	"k8s.io/kubernetes/pkg/registry/batch/job"
	podstore "k8s.io/kubernetes/pkg/registry/core/pod"
	"k8s.io/kubernetes/pkg/registry/core/podtemplate"
	"k8s.io/kubernetes/pkg/registry/core/replicationcontroller"

	"github.com/podlife/podlife/validation"
)

// strategy is what the create and update paths need of a registry strategy.
type strategy interface {
	rest.RESTCreateStrategy
	rest.RESTUpdateStrategy
}

// Kind is how the API server serves one kind that holds a pod: its group, version
// and resource, its internal type and its registry strategy.
type Kind struct {
	Name, Group, Version, Resource string
	newInternal                    func() runtime.Object
	strategy                       strategy
}

// Kinds are the kinds validation.ValidateObjectCreate takes, by Go type of the v1
// object.
var Kinds = map[string]*Kind{
	"*v1.Pod":                   {"Pod", "", "v1", "pods", func() runtime.Object { return &core.Pod{} }, podstore.Strategy},
	"*v1.PodTemplate":           {"PodTemplate", "", "v1", "podtemplates", func() runtime.Object { return &core.PodTemplate{} }, podtemplate.Strategy},
	"*v1.ReplicationController": {"ReplicationController", "", "v1", "replicationcontrollers", func() runtime.Object { return &core.ReplicationController{} }, replicationcontroller.Strategy},
	"*v1.Deployment":            {"Deployment", "apps", "v1", "deployments", func() runtime.Object { return &apps.Deployment{} }, deployment.Strategy},
	"*v1.ReplicaSet":            {"ReplicaSet", "apps", "v1", "replicasets", func() runtime.Object { return &apps.ReplicaSet{} }, replicaset.Strategy},
	"*v1.StatefulSet":           {"StatefulSet", "apps", "v1", "statefulsets", func() runtime.Object { return &apps.StatefulSet{} }, statefulset.Strategy},
	"*v1.DaemonSet":             {"DaemonSet", "apps", "v1", "daemonsets", func() runtime.Object { return &apps.DaemonSet{} }, daemonset.Strategy},
	"*v1.Job":                   {"Job", "batch", "v1", "jobs", func() runtime.Object { return &batch.Job{} }, job.Strategy},
	"*v1.CronJob":               {"CronJob", "batch", "v1", "cronjobs", func() runtime.Object { return &batch.CronJob{} }, cronjob.Strategy},
}

// KindOf returns the Kind of a v1 object, failing the test for any other type.
func KindOf(t testing.TB, obj runtime.Object) *Kind {
	t.Helper()
	k, ok := Kinds[fmt.Sprintf("%T", obj)]
	if !ok {
		t.Fatalf("no upstream kind for %T", obj)
	}
	switch obj.(type) {
	case *v1.Pod, *v1.PodTemplate, *v1.ReplicationController, *appsv1.Deployment, *appsv1.ReplicaSet,
		*appsv1.StatefulSet, *appsv1.DaemonSet, *batchv1.Job, *batchv1.CronJob:
	default:
		t.Fatalf("%T is not a v1 type", obj)
	}
	return k
}

func (k *Kind) ctx(ns, verb, name string) context.Context {
	prefix := "apis"
	if k.Group == "" {
		prefix = "api"
	}
	ctx := genericapirequest.WithNamespace(context.Background(), ns)
	return genericapirequest.WithRequestInfo(ctx, &genericapirequest.RequestInfo{
		IsResourceRequest: true, Verb: verb, APIPrefix: prefix, APIGroup: k.Group, APIVersion: k.Version,
		Namespace: ns, Resource: k.Resource, Name: name,
	})
}

// Decode is what the server's decoder makes of obj, a v1 object: the v1 defaults and
// the conversion to the internal type. A conversion error comes back as the server
// reports it (the handler's transformDecodeError: a Bad Request), as the one
// error podlife gives, an Invalid on the annotation the conversion reads.
func (k *Kind) Decode(t testing.TB, obj runtime.Object) (runtime.Object, field.ErrorList) {
	t.Helper()
	p := obj.DeepCopyObject()
	legacyscheme.Scheme.Default(p)
	in := k.newInternal()
	if err := legacyscheme.Scheme.Convert(p, in, nil); err != nil {
		msg := apierrors.NewBadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: %v", k.Name, k.Version, k.Name, err)).Error()
		acc, _ := meta.Accessor(obj)
		key := appsv1.DeprecatedRollbackTo
		if k.Name == "DaemonSet" {
			key = appsv1.DeprecatedTemplateGeneration
		}
		return nil, field.ErrorList{field.Invalid(field.NewPath("metadata", "annotations").Key(key), acc.GetAnnotations()[key], msg)}
	}
	return in, nil
}

// ObjectCreateIn is the API server's answer to creating obj, any v1 object of Kinds,
// in the namespace RequestNamespace gives (podlife's Options.Namespace is
// optNamespace), following CreateIn's steps with the kind's strategy. The store's
// random uid is drawn as validation.GeneratedUID and a generated name as
// podlife's, after checking that upstream's generator gives the same base and 5
// characters of its alphabet: both are draws the server can make.
func ObjectCreateIn(t testing.TB, obj runtime.Object, optNamespace string) (errs field.ErrorList) {
	t.Helper()
	return objectCreateIn(t, obj, optNamespace, context.Background())
}

// ObjectCreateWarned is ObjectCreateIn with the warnings of the server's response:
// those the create handler and the registry record (the handler's duplicate owner
// references, a pod's PrepareForCreate, the strategy's WarningsOnCreate), as the
// server's warning recorder writes them (filters.WithWarningRecorder) and client-go
// reads them.
func ObjectCreateWarned(t testing.TB, obj runtime.Object, optNamespace string) (errs field.ErrorList, warnings []string) {
	t.Helper()
	warnings = Recorded(func(ctx context.Context) { errs = objectCreateIn(t, obj, optNamespace, ctx) })
	return errs, warnings
}

// ObjectCreateInContext is ObjectCreateIn recording the server's warnings in the
// warning recorder of wctx (see Recorded), after those the request recorded before.
func ObjectCreateInContext(t testing.TB, wctx context.Context, obj runtime.Object, optNamespace string) field.ErrorList {
	t.Helper()
	return objectCreateIn(t, obj, optNamespace, wctx)
}

// objectCreateIn is ObjectCreateIn recording the server's warnings in the warning
// recorder of wctx, when it has one.
func objectCreateIn(t testing.TB, obj runtime.Object, optNamespace string, wctx context.Context) (errs field.ErrorList) {
	t.Helper()
	defer recoverServerPanic(&errs)
	if pod, ok := obj.(*v1.Pod); ok {
		return createIn(t, pod, optNamespace, wctx)
	}
	k := KindOf(t, obj)
	in, decodeErrs := k.Decode(t, obj)
	if decodeErrs != nil {
		return decodeErrs
	}
	dedupOwnerReferencesAndAddWarning(in, wctx, false)
	m, err := meta.Accessor(in)
	if err != nil {
		t.Fatal(err)
	}
	objNS := ""
	if acc, err := meta.Accessor(obj); err == nil {
		objNS = acc.GetNamespace()
	}
	ns := requestNamespace(objNS, optNamespace)
	rest.WipeObjectMetaSystemFields(m)
	if err := rest.EnsureObjectNamespaceMatchesRequestNamespace(ns, m); err != nil {
		if !apierrors.IsBadRequest(err) {
			t.Fatalf("namespace check: unexpected %T %v", err, err)
		}
		return field.ErrorList{field.Invalid(field.NewPath("metadata", "namespace"), objNS, err.Error())}
	}
	rest.FillObjectMetaSystemFields(m)
	m.SetUID(validation.GeneratedUID)
	if m.GetGenerateName() != "" && m.GetName() == "" {
		m.SetName(generatedName(t, k.strategy, m.GetGenerateName()))
	}
	ctx := k.ctx(ns, "create", m.GetName())
	// BeforeCreate gets an object decoded on its own: a deep copy would not share
	// the maps the decoder's defaults share (a Job's labels are its template's).
	again, _ := k.Decode(t, obj)
	dedupOwnerReferencesAndAddWarning(again, context.Background(), false)
	am, _ := meta.Accessor(again)
	rest.WipeObjectMetaSystemFields(am)
	am.SetNamespace(m.GetNamespace())
	rest.FillObjectMetaSystemFields(am)
	am.SetUID(m.GetUID())
	am.SetName(m.GetName())
	k.strategy.PrepareForCreate(ctx, in)
	errs = rest.ValidateCreate(ctx, in, k.strategy)
	checkBeforeCreate(t, rest.BeforeCreate(k.strategy, withRecorderOf(ctx, wctx), again), errs)
	return errs
}

// generatedName returns the name podlife stands for the server's generated one,
// after checking that the strategy's generator makes base plus 5 characters of its
// alphabet.
func generatedName(t testing.TB, s strategy, generateName string) string {
	t.Helper()
	base := generateName
	if len(base) > names.MaxGeneratedNameLength {
		base = base[:names.MaxGeneratedNameLength]
	}
	generated := s.GenerateName(generateName)
	suffix, ok := strings.CutPrefix(generated, base)
	if !ok || len(suffix) != 5 || strings.Trim(suffix, upstreamAlphabet) != "" {
		t.Fatalf("upstream generated %q from %q: not the base plus 5 characters of the documented alphabet", generated, generateName)
	}
	if len(validation.GeneratedNameSuffix) != 5 || strings.Trim(validation.GeneratedNameSuffix, upstreamAlphabet) != "" {
		t.Fatalf("GeneratedNameSuffix %q: not 5 characters of upstream's alphabet", validation.GeneratedNameSuffix)
	}
	return base + validation.GeneratedNameSuffix
}

func requestNamespace(objNS, optNamespace string) string {
	switch {
	case optNamespace != "":
		return optNamespace
	case objNS != "":
		return objNS
	}
	return "default"
}

// ObjectBeforeCreate runs the create path of ObjectCreateIn once, as the server does,
// for benchmarks: decoding, the namespace step, the store's metadata and name, then
// rest.BeforeCreate, whose error (nil for a valid object) it returns.
func ObjectBeforeCreate(t testing.TB, k *Kind, obj runtime.Object) error {
	p := obj.DeepCopyObject()
	legacyscheme.Scheme.Default(p)
	in := k.newInternal()
	if err := legacyscheme.Scheme.Convert(p, in, nil); err != nil {
		return err
	}
	m, _ := meta.Accessor(in)
	ns := requestNamespace(m.GetNamespace(), "")
	rest.WipeObjectMetaSystemFields(m)
	if err := rest.EnsureObjectNamespaceMatchesRequestNamespace(ns, m); err != nil {
		return err
	}
	rest.FillObjectMetaSystemFields(m)
	if m.GetGenerateName() != "" && m.GetName() == "" {
		m.SetName(k.strategy.GenerateName(m.GetGenerateName()))
	}
	return rest.BeforeCreate(k.strategy, k.ctx(ns, "create", m.GetName()), in)
}

// Stored is what the server stores when it creates obj (ObjectCreateIn's steps and
// PrepareForCreate, a resourceVersion), read back as a v1 object: the old object of
// update tests. It is nil when obj does not decode.
func Stored(t testing.TB, obj runtime.Object) runtime.Object {
	t.Helper()
	k := KindOf(t, obj)
	in, errs := k.Decode(t, obj)
	if errs != nil {
		return nil
	}
	m, _ := meta.Accessor(in)
	ns := requestNamespace(m.GetNamespace(), "")
	rest.WipeObjectMetaSystemFields(m)
	if err := rest.EnsureObjectNamespaceMatchesRequestNamespace(ns, m); err != nil {
		t.Fatal(err)
	}
	rest.FillObjectMetaSystemFields(m)
	m.SetUID(validation.GeneratedUID)
	m.SetCreationTimestamp(metav1.Unix(1_700_000_000, 0))
	m.SetResourceVersion("1")
	if m.GetGenerateName() != "" && m.GetName() == "" {
		m.SetName(generatedName(t, k.strategy, m.GetGenerateName()))
	}
	k.strategy.PrepareForCreate(k.ctx(ns, "create", m.GetName()), in)
	out := obj.DeepCopyObject()
	if err := legacyscheme.Scheme.Convert(in, out, nil); err != nil {
		t.Fatalf("convert back: %v", err)
	}
	out.GetObjectKind().SetGroupVersionKind(obj.GetObjectKind().GroupVersionKind())
	return out
}

// IsServerPanic reports whether errs is the answer recoverServerPanic gives a create
// whose handling panicked.
func IsServerPanic(errs field.ErrorList) bool {
	return len(errs) == 1 && errs[0].Type == field.ErrorTypeInternal && errs[0].Field == "<nil>" && errs[0].Detail == validation.ServerPanicDetail
}

// recoverServerPanic turns a panic of upstream's request handling into the answer the
// server gives (its panic-recovery filter answers 500 with a fixed message), as
// podlife reports it: one Internal error without a field.
func recoverServerPanic(errs *field.ErrorList) {
	if r := recover(); r != nil {
		*errs = field.ErrorList{field.InternalError(nil, errors.New(validation.ServerPanicDetail))}
	}
}

func metaOf(t testing.TB, obj runtime.Object) metav1.Object {
	m, err := meta.Accessor(obj)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
