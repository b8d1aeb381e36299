package validation

import (
	"fmt"
	"reflect"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/podlife/podlife/internal/gates"
)

// ValidateObjectCreate returns the errors a Kubernetes v1.37.2 API server reports when
// obj is created, for every kind that holds a pod: v1 Pod, PodTemplate and
// ReplicationController, apps/v1 Deployment, ReplicaSet, StatefulSet and DaemonSet,
// batch/v1 Job and CronJob. It follows the server's create path for the kind:
//
//   - the request namespace (Options.Namespace), as ValidatePodCreate: an object
//     whose namespace conflicts with it gets NamespaceMismatchDetail as its only
//     error, a refusal (400 Bad Request) that RefusalOf recognises, as it does a
//     body the decoder cannot convert (below) and ServerPanicDetail;
//   - the decoder's v1 defaults for the kind (k8s.io/kubernetes
//     pkg/apis/{apps,batch,core}/v1 defaults.go and the generated defaulters, the pod
//     template's PodSpec defaults included) and the conversion to the internal type
//     (see "Conversion" in the package documentation);
//   - the store's metadata: the name generated from metadata.generateName (see
//     GeneratedNameSuffix), the namespace, and for a Job the uid (GeneratedUID),
//     from which the Job registry generates its selector and template labels;
//   - the kind's registry strategy (k8s.io/kubernetes pkg/registry/.../strategy.go):
//     PrepareForCreate (status reset, fields of disabled gates dropped, the Job
//     selector) and Validate (pkg/apis/apps/validation, pkg/apis/batch/validation,
//     pkg/apis/core/validation), with the pod validation options the strategy
//     derives from the template;
//   - rest.ValidateCreate: the generic metadata checks when the strategy found
//     nothing, then declarative validation, which keeps one error per message and,
//     for the rules it enforces (the ReplicationController's name, replicas and
//     minReadySeconds, the CronJob's schedule, while the DeclarativeValidationBeta
//     gate is on), reports its own error in place of the hand-written one, after
//     all the others.
//
// A *corev1.Pod gets exactly ValidatePodCreate. Any other type, nil included, gets one
// error: a field.ErrorTypeNotSupported at "kind" whose bad value names the type. A
// typed nil pointer of a supported kind is validated as an empty object of that kind.
// The input is never modified.
func ValidateObjectCreate(obj runtime.Object, opts Options) field.ErrorList {
	return validateObjectCreate(obj, opts, nil)
}

// validateObjectCreate is ValidateObjectCreate recording the server's warnings in w
// (nil for none).
func validateObjectCreate(obj runtime.Object, opts Options, w *warningRecorder) field.ErrorList {
	switch o := obj.(type) {
	case *corev1.Pod:
		return podCreate(o, opts, w)
	case *corev1.PodTemplate:
		return validatePodTemplateCreate(o, opts, w)
	case *corev1.ReplicationController:
		return validateReplicationControllerCreate(o, opts, w)
	case *appsv1.Deployment:
		return validateDeploymentCreate(o, opts, w)
	case *appsv1.ReplicaSet:
		return validateReplicaSetCreate(o, opts, w)
	case *appsv1.StatefulSet:
		return validateStatefulSetCreate(o, opts, w)
	case *appsv1.DaemonSet:
		return validateDaemonSetCreate(o, opts, w)
	case *batchv1.Job:
		return validateJobCreate(o, opts, w)
	case *batchv1.CronJob:
		return validateCronJobCreate(o, opts, w)
	}
	return unsupportedKind(obj)
}

// acceptedWarnings records in w the registry's warnings on obj, the prepared object,
// when errs, the answer to its create, accepts it; and returns errs.
func acceptedWarnings(w *warningRecorder, obj runtime.Object, errs field.ErrorList) field.ErrorList {
	if len(errs) == 0 {
		objectWarnings(w, obj)
	}
	return errs
}

// ValidateObjectUpdate returns the errors a Kubernetes v1.37.2 API server reports when
// a client replaces the stored oldObj by newObj (PUT, or the object a PATCH
// produces), for the kinds ValidateObjectCreate takes; both must be of the same kind.
//
// The request is the PUT to oldObj's URL (its namespace and name). As for pods (see
// ValidatePodUpdate), the server refuses it before validation when the body cannot
// be converted (a Deployment's or DaemonSet's deprecated annotation that is not an
// integer; 400 Bad Request), names another namespace or another object, or none, or
// oldObj's name cannot be a URL path segment (400), carries another uid or a stale
// resourceVersion (409 Conflict, the message naming the resource as the server
// does: "Operation cannot be fulfilled on deployments.apps \"web\": ..."), or a
// resourceVersion that is not a number (500). ValidateObjectUpdate then returns that
// refusal alone, as one error that RefusalOf recognises. A newObj without namespace
// takes oldObj's, and one without resourceVersion (or with "0") takes oldObj's:
// every kind allows unconditional updates. Where oldObj lacks a namespace, name, uid
// or resourceVersion (a stored object has them all), the check that needs it is
// skipped.
//
// Both objects get the decoder's defaults for the kind (oldObj is taken as stored, so
// nothing is dropped from it), then the update path runs on private copies: the
// metadata rest.BeforeUpdate carries over from oldObj (generation, uid,
// creationTimestamp, deletion fields; k8s.io/apiserver pkg/registry/rest/update.go),
// the strategy's PrepareForUpdate (the stored status kept, fields of disabled gates
// dropped unless oldObj uses them, the generation moved on), then rest.ValidateUpdate:
// the generic metadata checks, the strategy's ValidateUpdate (each kind's immutable
// fields among them) and declarative validation (one error per message, and the
// enforced rules as on create, skipped where the field did not change).
//
// A pair of *corev1.Pod gets exactly ValidatePodUpdate. Objects of another or of
// different types get one error, as in ValidateObjectCreate. The inputs are never
// modified.
func ValidateObjectUpdate(newObj, oldObj runtime.Object, opts Options) field.ErrorList {
	return validateObjectUpdate(newObj, oldObj, opts, nil)
}

// validateObjectUpdate is ValidateObjectUpdate recording the server's warnings in w.
func validateObjectUpdate(newObj, oldObj runtime.Object, opts Options, w *warningRecorder) field.ErrorList {
	if reflect.TypeOf(newObj) != reflect.TypeOf(oldObj) {
		return kindMismatch(newObj, oldObj)
	}
	switch o := newObj.(type) {
	case *corev1.Pod:
		return podUpdate(o, oldObj.(*corev1.Pod), opts, w)
	case *corev1.PodTemplate:
		return validatePodTemplateUpdate(o, oldObj.(*corev1.PodTemplate), opts, w)
	case *corev1.ReplicationController:
		return validateReplicationControllerUpdate(o, oldObj.(*corev1.ReplicationController), opts, w)
	case *appsv1.Deployment:
		return validateDeploymentUpdate(o, oldObj.(*appsv1.Deployment), opts, w)
	case *appsv1.ReplicaSet:
		return validateReplicaSetUpdate(o, oldObj.(*appsv1.ReplicaSet), opts, w)
	case *appsv1.StatefulSet:
		return validateStatefulSetUpdate(o, oldObj.(*appsv1.StatefulSet), opts, w)
	case *appsv1.DaemonSet:
		return validateDaemonSetUpdate(o, oldObj.(*appsv1.DaemonSet), opts, w)
	case *batchv1.Job:
		return validateJobUpdate(o, oldObj.(*batchv1.Job), opts, w)
	case *batchv1.CronJob:
		return validateCronJobUpdate(o, oldObj.(*batchv1.CronJob), opts, w)
	}
	return unsupportedKind(newObj)
}

// supportedKinds is what SupportedKinds returns.
var supportedKinds = []string{
	"v1/Pod", "v1/PodTemplate", "v1/ReplicationController",
	"apps/v1/Deployment", "apps/v1/ReplicaSet", "apps/v1/StatefulSet", "apps/v1/DaemonSet",
	"batch/v1/Job", "batch/v1/CronJob",
}

// SupportedKinds returns, as apiVersion/kind ("apps/v1/Deployment"), the kinds
// ValidateObjectCreate and ValidateObjectUpdate validate.
func SupportedKinds() []string { return append([]string(nil), supportedKinds...) }

// unsupportedKind is the one error for an object of a type podlife does not validate.
func unsupportedKind(obj runtime.Object) field.ErrorList {
	return field.ErrorList{field.NotSupported(field.NewPath("kind"), describeType(obj), supportedKinds)}
}

// kindMismatch is the one error for an update whose objects differ in type.
func kindMismatch(newObj, oldObj runtime.Object) field.ErrorList {
	return field.ErrorList{field.Invalid(field.NewPath("kind"), describeType(newObj),
		fmt.Sprintf("the new and the stored object must be of the same kind; the stored object is %s", describeType(oldObj)))}
}

// describeType names obj's kind for the unsupported-type errors: its apiVersion/kind
// when its TypeMeta has one, else its Go type.
func describeType(obj runtime.Object) string {
	if obj == nil {
		return "nil"
	}
	if v := reflect.ValueOf(obj); v.Kind() == reflect.Pointer && v.IsNil() {
		return fmt.Sprintf("%T (nil)", obj)
	}
	if gvk := obj.GetObjectKind().GroupVersionKind(); gvk.Kind != "" {
		return gvk.GroupVersion().String() + "/" + gvk.Kind
	}
	return fmt.Sprintf("%T", obj)
}

// GeneratedUID is the metadata.uid ValidateObjectCreate gives an object, standing for
// the random UUID the server assigns (k8s.io/apiserver pkg/registry/rest/meta.go
// FillObjectMetaSystemFields). It only shows in a Job: the Job registry puts the uid
// in the selector and template labels it generates, so bad values that print those
// (a selector that does not match, for example) carry GeneratedUID where the
// server's answer carries the Job's real uid.
const GeneratedUID types.UID = "00000000-0000-4000-8000-000000000000"

// namespaceMismatch is the server's answer to an object whose namespace conflicts
// with the request's (see NamespaceMismatchDetail), or nil.
func namespaceMismatch(meta *metav1.ObjectMeta, opts Options) field.ErrorList {
	if meta.Namespace != "" && opts.Namespace != "" && meta.Namespace != opts.Namespace {
		return field.ErrorList{invalidAt(rootPath("metadata").Child("namespace"), meta.Namespace, NamespaceMismatchDetail)}
	}
	return nil
}

// assignStoredMeta gives a private copy the name and namespace the store gives the
// object before validation (see storedNameAndNamespace).
func assignStoredMeta(meta *metav1.ObjectMeta, opts Options) {
	meta.Name, meta.Namespace, _ = storedNameAndNamespace(meta, opts)
}

// orEmpty is p, or a new empty T when p is nil: a nil object of a supported kind is
// validated as an empty one.
func orEmpty[T any](p *T) *T {
	if p == nil {
		return new(T)
	}
	return p
}

// createSteps runs the steps of the create path every kind shares on a private copy
// of the object, whose metadata is meta, and returns the refusal of the request, if
// any: the request namespace (namespaceMismatch), the decoder's v1 defaults
// (dflt), the name and namespace the store gives the object (assignStoredMeta), and
// the strategy's PrepareForCreate (prepare). With Options.SkipDefaulting neither
// dflt nor prepare runs.
func createSteps(meta *metav1.ObjectMeta, opts Options, w *warningRecorder, dflt, prepare func()) field.ErrorList {
	meta.OwnerReferences = dedupOwnerReferences(meta.OwnerReferences, w)
	if errs := namespaceMismatch(meta, opts); errs != nil {
		return errs
	}
	if !opts.SkipDefaulting {
		dflt()
	}
	assignStoredMeta(meta, opts)
	if !opts.SkipDefaulting {
		prepare()
	}
	return nil
}

// updateSteps runs the steps of the update path every kind shares on private copies
// of the new and the stored object, whose metadata are meta and old, and returns the
// refusal of the request, if any: the refusals of the update handler and the store
// (refuseObjectUpdate, with the kind's resource res, which drops repeated owner
// references with the handler's warning in w), the decoder's v1 defaults on
// both objects (dflt), the stored generation (rest.BeforeUpdate), the strategy's
// PrepareForUpdate (prepare; with Options.SkipDefaulting, which skips dflt and
// prepare, keepStatus only carries the stored status over, when the kind has one),
// and the metadata rest.BeforeUpdate carries over from the stored object
// (carryOverMeta).
func updateSteps(meta, old *metav1.ObjectMeta, res storedResource, opts Options, w *warningRecorder, dflt, prepare, keepStatus func()) field.ErrorList {
	if errs := refuseObjectUpdate(meta, old, res, w, opts.patch); errs != nil {
		return errs
	}
	if !opts.SkipDefaulting {
		dflt()
	}
	meta.Generation = old.Generation
	switch {
	case !opts.SkipDefaulting:
		prepare()
	case keepStatus != nil:
		keepStatus()
	}
	carryOverMeta(meta, old)
	return nil
}

// finishCreate is rest.ValidateCreate after the strategy's Validate: the generic
// metadata checks (names that fit in a URL path segment) when the strategy found
// nothing, then declarative validation (see finishDeclarative).
func finishCreate(errs field.ErrorList, meta *metav1.ObjectMeta, enforced field.ErrorList) field.ErrorList {
	if len(errs) == 0 {
		errs = validateGenericObjectMeta(meta, true, pathSegmentName, rootPath("metadata"))
	}
	return finishDeclarative(errs, enforced)
}

// finishUpdate is rest.ValidateUpdate around the strategy's ValidateUpdate: the
// generic metadata checks first, then the strategy's errors, then declarative
// validation.
func finishUpdate(errs field.ErrorList, meta, oldMeta *metav1.ObjectMeta, enforced field.ErrorList) field.ErrorList {
	metaPath := rootPath("metadata")
	common := validateGenericObjectMeta(meta, true, pathSegmentName, metaPath)
	common = append(common, apimachineryvalidation.ValidateObjectMetaUpdate(meta, oldMeta, metaPath.P())...)
	return finishDeclarative(append(common, errs...), enforced)
}

// finishDeclarative mirrors rest.ValidateDeclarativelyWithMigrationChecks (k8s.io/apiserver
// pkg/registry/rest/validate.go) for the hand-written errors errs and the declarative
// errors the server enforces: the hand-written list keeps one error per message
// (ErrorList.Filter goes through ToAggregate), loses each error marked as covered by
// declarative validation that an enforced beta error matches (same type, origin and
// field; k8s.io/apimachinery pkg/api/validate FilterCoveredHandwrittenErrors), and the
// enforced errors follow it.
func finishDeclarative(errs, enforced field.ErrorList) field.ErrorList {
	errs = dedupe(errs)
	if len(enforced) == 0 {
		return errs
	}
	out := errs[:0]
	for _, e := range errs {
		if e.CoveredByDeclarative && matchesAny(e, enforced) {
			continue
		}
		out = append(out, e)
	}
	return append(out, enforced...)
}

// matchesAny reports whether a declarative error in list matches e as the covered
// filter matches them: same type, same origin (both set when the type is Invalid)
// and same field.
func matchesAny(e *field.Error, list field.ErrorList) bool {
	for _, d := range list {
		if d.Type != e.Type || d.Field != e.Field || d.Origin != e.Origin {
			continue
		}
		if e.Type == field.ErrorTypeInvalid && e.Origin == "" {
			continue
		}
		return true
	}
	return false
}

// resolvedGates resolves the options' feature gates once per call.
func resolvedGates(opts Options) *gates.Set {
	g := opts.Features.Resolve()
	return &g
}

// templateOptions mirrors GetValidationOptionsFromPodTemplate (k8s.io/kubernetes
// pkg/api/pod/util.go): the pod validation options a workload strategy derives from
// its template, and on update from the stored template. Either may be nil (a
// ReplicationController without a template).
func templateOptions(opts Options, t, old *corev1.PodTemplateSpec) podValidationOptions {
	var newPod, oldPod *corev1.Pod
	if t != nil {
		newPod = &corev1.Pod{ObjectMeta: t.ObjectMeta, Spec: t.Spec}
	}
	if old != nil {
		oldPod = &corev1.Pod{ObjectMeta: old.ObjectMeta, Spec: old.Spec}
	}
	return resolveOptions(opts, newPod, oldPod)
}

// validateTemplate mirrors upstream ValidatePodTemplateSpec with label and annotation
// errors in sorted order (upstream ranges over the maps).
func validateTemplate(t *corev1.PodTemplateSpec, fldPath lpath, o podValidationOptions) field.ErrorList {
	// The pod validators nest deep below the template: give them every segment of
	// the lazy path, at the price of printing the template's own path once.
	fldPath = fldPath.folded()
	errs := validatePodTemplateSpecL(t, fldPath, o)
	if len(errs) == 0 {
		return nil
	}
	return sortMapRuns(errs, fldPath.Child("labels").String(), fldPath.Child("annotations").String())
}
