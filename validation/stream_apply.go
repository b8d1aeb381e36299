package validation

import (
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strconv"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/mergepatch"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/podlife/podlife/internal/defaulting"
)

// This file answers a stream as kubectl apply (client-side apply, k8s.io/kubectl
// pkg/cmd/apply, v0.37.2) sends it (StreamOptions.Apply): an object the cluster
// does not hold is created with the last-applied-configuration annotation; one it
// holds is sent as the strategic merge patch kubectl computes, which the server
// applies to the stored object (k8s.io/apiserver pkg/endpoints/handlers/patch.go)
// before validating the result as an update.

// StrategicPatcher computes and applies strategic merge patches for
// StreamOptions.Apply. Package github.com/podlife/podlife/validation/apply provides
// kubectl's and the API server's (k8s.io/apimachinery pkg/util/strategicpatch),
// kept out of this package because it brings k8s.io/kube-openapi and its
// dependencies into a program's build.
type StrategicPatcher interface {
	// CreateThreeWayPatch returns the patch kubectl apply sends, given the JSON of
	// the configuration it last applied (nil when the stored object has none), of the
	// object as it applies it now (modified) and of the stored object (current);
	// schema is a zero object of the kind's Go type, whose fields' patch strategies
	// decide how lists merge.
	CreateThreeWayPatch(original, modified, current []byte, schema runtime.Object) ([]byte, error)
	// ApplyPatch returns the fields of current, the stored object, with patch applied
	// as the API server applies a strategic merge patch; errors of package
	// k8s.io/apimachinery/pkg/util/mergepatch are returned as they are. current is not
	// modified; patch is left as the server's merge leaves it, since the server's
	// messages quote it afterwards.
	ApplyPatch(current, patch map[string]any, schema runtime.Object) (map[string]any, error)
}

// unchangedPatch is the patch of an object kubectl apply finds as it would leave it:
// kubectl sends nothing and prints "unchanged".
const unchangedPatch = "{}"

// appliedConfiguration sets the last-applied-configuration annotation of u, an
// object as kubectl apply read it, to u's own JSON without that annotation, and
// returns u's JSON with the annotation (kubectl's "modified" configuration):
// k8s.io/kubectl pkg/util GetModifiedConfiguration, then CreateApplyAnnotation. An
// object without annotations gets "annotations":{} in both, as kubectl writes it.
func appliedConfiguration(u *unstructured.Unstructured) (modified []byte, err error) {
	annotations := u.GetAnnotations()
	if annotations == nil {
		annotations = map[string]string{}
	}
	delete(annotations, corev1.LastAppliedConfigAnnotation)
	u.SetAnnotations(annotations)
	config, err := runtime.Encode(unstructured.UnstructuredJSONScheme, u)
	if err != nil {
		return nil, err
	}
	annotations[corev1.LastAppliedConfigAnnotation] = string(config)
	u.SetAnnotations(annotations)
	return runtime.Encode(unstructured.UnstructuredJSONScheme, u)
}

// pruneNulls deletes the null values of a JSON object, at every depth (kubectl
// apply's pruneNullsFromMap, before it creates an object).
func pruneNulls(v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if e == nil {
				delete(v, k)
			} else {
				pruneNulls(e)
			}
		}
	case []any:
		for _, e := range v {
			pruneNulls(e)
		}
	}
}

// applyGetError is kubectl apply's answer when the GET of the object's current
// configuration cannot be sent (client-go refuses its URL): it names the mapping.
func (s *streamRun) applyGetError(resource schema.GroupVersionResource, gvk schema.GroupVersionKind, namespace, name string, err error) *KubectlError {
	return &KubectlError{Message: fmt.Sprintf("error when retrieving current configuration of:\n%s\nfrom server for: %q: %v",
		infoString(resource, gvk, namespace, name), s.source, err)}
}

// infoString is cli-runtime's Info.String for a mapped object.
func infoString(resource schema.GroupVersionResource, gvk schema.GroupVersionKind, namespace, name string) string {
	return fmt.Sprintf("Resource: %q, GroupVersionKind: %q\nName: %q, Namespace: %q", resource.String(), gvk.String(), name, namespace)
}

// applyNameError is kubectl apply's refusal of an object it cannot GET by name: one
// named only by generateName, or one without any name (client-go's "resource name
// may not be empty").
func (s *streamRun) applyNameError(u *unstructured.Unstructured, resource schema.GroupVersionResource, gvk schema.GroupVersionKind, namespace string) *KubectlError {
	if g := u.GetGenerateName(); g != "" {
		return &KubectlError{Message: fmt.Sprintf("from %s: cannot use generate name with apply", g)}
	}
	return s.applyGetError(resource, gvk, namespace, "", fmt.Errorf("resource name may not be empty"))
}

// storedAsServed returns the object the server holds for stored, a v1 object as a
// client reads it: a copy with the defaults the storage's decoder applies (the
// stored object of a cluster has them already; a manifest standing for it gets
// them), and its status, as read back from storage (asReadFromStorage).
func storedAsServed(stored runtime.Object, opts Options) runtime.Object {
	out := storedDefaulted(stored, opts)
	asReadFromStorage(out)
	asServedView(out, 0)
	return out
}

// storedDefaulted is storedAsServed without asServedView.
func storedDefaulted(stored runtime.Object, opts Options) runtime.Object {
	g := resolvedGates(opts)
	switch o := stored.(type) {
	case *corev1.Pod:
		p := defaulting.PodForUpdate(o, o, defaulting.Options{Features: opts.Features})
		p.Generation = o.Generation
		return p
	case *corev1.PodTemplate:
		c := defaulting.CopyPodTemplate(o, false)
		defaulting.DefaultPodTemplate(c, g)
		return c
	case *corev1.ReplicationController:
		c := defaulting.CopyReplicationController(o, false)
		defaulting.DefaultReplicationController(c, g)
		o.Status.DeepCopyInto(&c.Status)
		return c
	case *appsv1.Deployment:
		c := defaulting.CopyDeployment(o, false)
		defaulting.DefaultDeployment(c, g)
		o.Status.DeepCopyInto(&c.Status)
		return c
	case *appsv1.ReplicaSet:
		c := defaulting.CopyReplicaSet(o, false)
		defaulting.DefaultReplicaSet(c, g)
		o.Status.DeepCopyInto(&c.Status)
		return c
	case *appsv1.StatefulSet:
		c := defaulting.CopyStatefulSet(o, false)
		defaulting.DefaultStatefulSet(c, g)
		o.Status.DeepCopyInto(&c.Status)
		return c
	case *appsv1.DaemonSet:
		c := defaulting.CopyDaemonSet(o, false)
		defaulting.DefaultDaemonSet(c, g)
		o.Status.DeepCopyInto(&c.Status)
		return c
	case *batchv1.Job:
		c := defaulting.CopyJob(o, false)
		defaulting.DefaultJob(c, g)
		o.Status.DeepCopyInto(&c.Status)
		return c
	case *batchv1.CronJob:
		c := defaulting.CopyCronJob(o, false)
		defaulting.DefaultCronJob(c, g)
		o.Status.DeepCopyInto(&c.Status)
		return c
	}
	return stored.DeepCopyObject()
}

// newOfType returns a new zero object of obj's Go type.
func newOfType(obj runtime.Object) runtime.Object {
	return reflect.New(reflect.TypeOf(obj).Elem()).Interface().(runtime.Object)
}

// missingLastAppliedWarning is kubectl apply's warning about a live object without
// the last-applied-configuration annotation (k8s.io/kubectl pkg/cmd/apply
// warningNoLastAppliedConfigAnnotation, without its "Warning: " and line break).
func missingLastAppliedWarning(resource, name string) string {
	return fmt.Sprintf("resource %s/%s is missing the %s annotation which is required by kubectl apply. kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. The missing annotation will be patched automatically.",
		resource, name, corev1.LastAppliedConfigAnnotation)
}

// applyUpdate answers for an object kubectl apply finds live (stored): kubectl's
// three-way strategic merge patch of the live object's last-applied configuration,
// modified (see appliedConfiguration) and the live object, and the server's answer to that PATCH: the patch applied to the stored object,
// decoded with the request's field validation, then the update path. A patch of
// "{}" sends nothing: the object is Valid with no warnings.
func (s *streamRun) applyUpdate(r ObjectResult, modified []byte, resource schema.GroupVersionKind, k servedKind, stored runtime.Object) ObjectResult {
	r.Update = true
	gvr := schema.GroupVersionResource{Group: k.group, Version: resource.Version, Resource: k.resource}
	current := storedAsServed(stored, s.opts.Validation)
	current.GetObjectKind().SetGroupVersionKind(resource)
	// kubectl reads the object it GETs as unstructured and writes it again.
	currentMap, err := runtime.DefaultUnstructuredConverter.ToUnstructured(current)
	var currentJSON []byte
	if err == nil {
		currentJSON, err = runtime.Encode(unstructured.UnstructuredJSONScheme, &unstructured.Unstructured{Object: currentMap})
	}
	if err != nil {
		r.Verdict, r.Err = Rejected, &KubectlError{Message: err.Error()}
		return r
	}
	var original []byte
	if m, err := meta.Accessor(stored); err == nil {
		if a, ok := m.GetAnnotations()[corev1.LastAppliedConfigAnnotation]; ok {
			original = []byte(a)
		} else {
			r.Warnings = append(r.Warnings, Warning{Line: r.Line, Message: missingLastAppliedWarning(k.resource, r.Name)})
		}
	}
	schemaObj := newOfType(stored)
	patch, err := s.opts.Apply.CreateThreeWayPatch(original, modified, currentJSON, schemaObj)
	if err != nil {
		inner := fmt.Sprintf("creating patch with:\noriginal:\n%s\nmodified:\n%s\ncurrent:\n%s\nfor: %v", original, modified, currentJSON, err)
		r.Verdict, r.Err = Rejected, &KubectlError{Message: fmt.Sprintf("error when applying patch:\n\nto:\n%s\nfor: %q: error when patching %q: %s",
			infoString(gvr, resource, r.Namespace, r.Name), s.source, s.source, inner)}
		return r
	}
	r.Patch = patch
	if string(patch) == unchangedPatch {
		r.Verdict, r.Object = Valid, current
		return warnIfDeleting(r, stored)
	}
	if len(patch) > maxRequestBodyBytes {
		r.Verdict, r.Err = Rejected, apierrors.NewRequestEntityTooLargeError(fmt.Sprintf("limit is %d", maxRequestBodyBytes))
		return r
	}
	patched, warnings, errs, err := s.patchedObject(current, patch, schemaObj)
	switch {
	case errs != nil:
		r.Verdict, r.Errors, r.Err = Invalid, errs, err
		return r
	case err != nil:
		r.Verdict, r.Err = Rejected, err
		return r
	}
	if errs := conversionErrors(patched); len(errs) > 0 {
		// The handler converts the patched object to the internal version itself,
		// and answers the conversion's error as it is: a 500 (with the warnings
		// recorded so far).
		_, raw, _ := strings.Cut(errs[0].Detail, "cannot be handled as a "+resource.Kind+": ")
		r.Verdict, r.Err = Rejected, unknownError(errors.New(raw))
		var w warningRecorder
		for _, text := range warnings {
			w.add(text)
		}
		addServerWarnings(&r, &w)
		return r
	}
	r.Object = patched
	return warnIfDeleting(s.update(r, warnings, resource.GroupKind(), k, stored), stored)
}

// warnIfDeleting adds kubectl apply's warning about an object it patched (or found
// unchanged) while it is being deleted (k8s.io/kubectl pkg/cmd/apply WarnIfDeleting,
// without its "Warning: " and line break): the object it gets back keeps the
// stored deletionTimestamp.
func warnIfDeleting(r ObjectResult, stored runtime.Object) ObjectResult {
	if m, err := meta.Accessor(stored); err == nil && m.GetDeletionTimestamp() != nil && r.Verdict == Valid {
		r.Warnings = append(r.Warnings, Warning{Line: r.Line, Message: fmt.Sprintf("Detected changes to resource %s which is currently being deleted.", m.GetName())})
	}
	return r
}

// patchedObject is the server's strategic merge patch of current, the stored object
// in the patch's version (k8s.io/apiserver pkg/endpoints/handlers/patch.go
// smpPatcher.applyPatchToCurrentObject, strategicPatchObject, applyPatchToObject):
// the patch read as JSON, merged into current's fields (StrategicPatcher.ApplyPatch),
// its errors answered as the handler answers them, and the result converted to the typed object, with unknown fields
// reported under the request's field validation (Strict: a 422 on the field
// "patch", Warn: warnings). The defaults are applied later, by the update path.
func (s *streamRun) patchedObject(current runtime.Object, patch []byte, schemaObj runtime.Object) (runtime.Object, []string, field.ErrorList, error) {
	currentMap, err := runtime.DefaultUnstructuredConverter.ToUnstructured(current)
	if err != nil {
		return nil, nil, nil, unknownError(err)
	}
	patchMap := map[string]any{}
	if err := utiljson.Unmarshal(patch, &patchMap); err != nil {
		return nil, nil, nil, apierrors.NewBadRequest(err.Error())
	}
	merged, err := s.opts.Apply.ApplyPatch(currentMap, patchMap, schemaObj)
	if err != nil {
		switch err {
		case mergepatch.ErrBadJSONDoc, mergepatch.ErrBadPatchFormatForPrimitiveList, mergepatch.ErrBadPatchFormatForRetainKeys,
			mergepatch.ErrBadPatchFormatForSetElementOrderList, mergepatch.ErrUnsupportedStrategicMergePatchFormat:
			return nil, nil, nil, apierrors.NewBadRequest(err.Error())
		case mergepatch.ErrNoListOfLists, mergepatch.ErrPatchContentNotMatchRetainKeys:
			return nil, nil, nil, apierrors.NewGenericServerResponse(http.StatusUnprocessableEntity, "", schema.GroupResource{}, "", err.Error(), 0, false)
		}
		return nil, nil, nil, unknownError(err)
	}
	out := newOfType(schemaObj)
	strict := s.directive != metav1.FieldValidationIgnore
	if err := runtime.DefaultUnstructuredConverter.FromUnstructuredWithValidation(merged, out, strict); err != nil {
		strictErr, isStrict := runtime.AsStrictDecodingError(err)
		switch {
		case !isStrict:
			return patchInvalid(patchMap, err.Error())
		case s.directive == metav1.FieldValidationWarn:
			return out, strictDecodingWarnings(strictErr.Errors()), nil, nil
		default:
			return patchInvalid(patchMap, runtime.NewStrictDecodingError(strictErr.Errors()).Error())
		}
	}
	return out, nil, nil, nil
}

// patchInvalid is the 422 the patch handler answers for a patched object it cannot
// decode: one error on the field "patch" whose value is the patch as Go prints the
// map, for no kind and no name.
func patchInvalid(patchMap map[string]any, detail string) (runtime.Object, []string, field.ErrorList, error) {
	errs := field.ErrorList{field.Invalid(field.NewPath("patch"), fmt.Sprintf("%+v", patchMap), detail)}
	return nil, nil, errs, apierrors.NewInvalid(schema.GroupKind{}, "", errs)
}

// unknownError is the status the server answers for an error that is not a status
// (k8s.io/apimachinery pkg/api/errors ErrorToAPIStatus): 500 without a reason, the
// error's text as the message.
func unknownError(err error) *apierrors.StatusError {
	return &apierrors.StatusError{ErrStatus: metav1.Status{Status: metav1.StatusFailure, Code: http.StatusInternalServerError, Message: err.Error()}}
}

// createdAsStored returns the object the server stores when it creates obj, a v1
// object of a kind that holds a pod that the create path accepted, as kubectl reads
// it back: a copy with the decoder's defaults, the uid the store assigns
// (GeneratedUID), a resourceVersion and a creation time, and the strategy's
// PrepareForCreate (a Job's generated selector, a generation of 1, the status
// reset), as read back from storage (asReadFromStorage) in the served view
// (asServedView).
func createdAsStored(obj runtime.Object, opts Options) runtime.Object {
	out := createdPrepared(obj, opts)
	asReadFromStorage(out)
	asServedView(out, 1)
	return out
}

// createdPrepared is createdAsStored without asServedView.
func createdPrepared(obj runtime.Object, opts Options) runtime.Object {
	g := resolvedGates(opts)
	stamp := func(m *metav1.ObjectMeta) {
		m.UID, m.ResourceVersion = GeneratedUID, unwrittenResourceVersion
		// Some creation time: the patch only ever names it to delete it (a
		// manifest's "creationTimestamp: null"), which rest.BeforeUpdate undoes.
		m.CreationTimestamp = metav1.Unix(1_700_000_000, 0)
	}
	switch o := obj.(type) {
	case *corev1.Pod:
		c := o.DeepCopy()
		stamp(&c.ObjectMeta)
		return defaulting.Pod(c, defaulting.Options{Features: opts.Features})
	case *corev1.PodTemplate:
		c := defaulting.CopyPodTemplate(o, false)
		stamp(&c.ObjectMeta)
		defaulting.DefaultPodTemplate(c, g)
		defaulting.PreparePodTemplateForCreate(c, g)
		return c
	case *corev1.ReplicationController:
		c := defaulting.CopyReplicationController(o, false)
		stamp(&c.ObjectMeta)
		defaulting.DefaultReplicationController(c, g)
		defaulting.PrepareReplicationControllerForCreate(c, g)
		return c
	case *appsv1.Deployment:
		c := defaulting.CopyDeployment(o, false)
		stamp(&c.ObjectMeta)
		defaulting.DefaultDeployment(c, g)
		defaulting.PrepareDeploymentForCreate(c, g)
		return c
	case *appsv1.ReplicaSet:
		c := defaulting.CopyReplicaSet(o, false)
		stamp(&c.ObjectMeta)
		defaulting.DefaultReplicaSet(c, g)
		defaulting.PrepareReplicaSetForCreate(c, g)
		return c
	case *appsv1.StatefulSet:
		c := defaulting.CopyStatefulSet(o, false)
		stamp(&c.ObjectMeta)
		defaulting.DefaultStatefulSet(c, g)
		defaulting.PrepareStatefulSetForCreate(c, g)
		return c
	case *appsv1.DaemonSet:
		c := defaulting.CopyDaemonSet(o, false)
		stamp(&c.ObjectMeta)
		defaulting.DefaultDaemonSet(c, g)
		defaulting.PrepareDaemonSetForCreate(c, g)
		return c
	case *batchv1.Job:
		c := defaulting.CopyJob(o, false)
		stamp(&c.ObjectMeta)
		defaulting.DefaultJob(c, g)
		defaulting.PrepareJobForCreate(c, g)
		return c
	case *batchv1.CronJob:
		c := defaulting.CopyCronJob(o, false)
		stamp(&c.ObjectMeta)
		defaulting.DefaultCronJob(c, g)
		defaulting.PrepareCronJobForCreate(c, g)
		return c
	}
	return obj.DeepCopyObject()
}

// asServedView rewrites what a workload's conversion keeps in its internal spec
// as the server writes it back when it encodes the stored object (k8s.io/kubernetes
// pkg/apis/apps/v1 conversion.go): a Deployment's rollback revision annotation in
// its decimal form, none when empty; a DaemonSet's template generation annotation
// always, at least minGeneration (1 once created: PrepareForCreate); a
// StatefulSet's claim templates with apiVersion v1 and kind PersistentVolumeClaim.
func asServedView(obj runtime.Object, minGeneration int64) {
	switch o := obj.(type) {
	case *appsv1.Deployment:
		if n, _ := rollbackToOf(o.Annotations); n != nil {
			o.Annotations[appsv1.DeprecatedRollbackTo] = strconv.FormatInt(*n, 10)
		} else {
			delete(o.Annotations, appsv1.DeprecatedRollbackTo)
		}
	case *appsv1.DaemonSet:
		n, _ := templateGenerationOf(o.Annotations)
		if o.Annotations == nil {
			o.Annotations = map[string]string{}
		}
		o.Annotations[appsv1.DeprecatedTemplateGeneration] = strconv.FormatInt(max(n, minGeneration), 10)
	case *appsv1.StatefulSet:
		for i := range o.Spec.VolumeClaimTemplates {
			o.Spec.VolumeClaimTemplates[i].APIVersion, o.Spec.VolumeClaimTemplates[i].Kind = "v1", "PersistentVolumeClaim"
		}
	}
}

// updatedAsStored returns the object the server stores after a patch of stored gave
// merged (a v1 object of the same kind, as the patch handler decoded it): merged with
// the decoder's defaults, the stored generation, the strategy's PrepareForUpdate (the
// stored status, disabled fields dropped unless in use, the generation moved on, a
// DaemonSet's template generation), the metadata rest.BeforeUpdate carries over, as
// read back from storage (asReadFromStorage) in the served view (asServedView), with
// the next resourceVersion.
func updatedAsStored(merged, stored runtime.Object, opts Options) runtime.Object {
	g := resolvedGates(opts)
	old := storedAsServed(stored, opts)
	var out runtime.Object
	generation := func(m, o *metav1.ObjectMeta) { m.Generation = o.Generation }
	tg := int64(-1) // a DaemonSet's template generation once updated
	switch n := merged.(type) {
	case *corev1.Pod:
		out = defaulting.PodForUpdate(n, old.(*corev1.Pod), defaulting.Options{Features: opts.Features})
	case *corev1.PodTemplate:
		o := old.(*corev1.PodTemplate)
		c := defaulting.CopyPodTemplate(n, false)
		defaulting.DefaultPodTemplate(c, g)
		generation(&c.ObjectMeta, &o.ObjectMeta)
		defaulting.PreparePodTemplateForUpdate(c, o, g)
		out = c
	case *corev1.ReplicationController:
		o := old.(*corev1.ReplicationController)
		c := defaulting.CopyReplicationController(n, false)
		defaulting.DefaultReplicationController(c, g)
		generation(&c.ObjectMeta, &o.ObjectMeta)
		defaulting.PrepareReplicationControllerForUpdate(c, o, g)
		out = c
	case *appsv1.Deployment:
		o := old.(*appsv1.Deployment)
		c := defaulting.CopyDeployment(n, false)
		defaulting.DefaultDeployment(c, g)
		generation(&c.ObjectMeta, &o.ObjectMeta)
		defaulting.PrepareDeploymentForUpdate(c, o, g)
		out = c
	case *appsv1.ReplicaSet:
		o := old.(*appsv1.ReplicaSet)
		c := defaulting.CopyReplicaSet(n, false)
		defaulting.DefaultReplicaSet(c, g)
		generation(&c.ObjectMeta, &o.ObjectMeta)
		defaulting.PrepareReplicaSetForUpdate(c, o, g)
		out = c
	case *appsv1.StatefulSet:
		o := old.(*appsv1.StatefulSet)
		c := defaulting.CopyStatefulSet(n, false)
		defaulting.DefaultStatefulSet(c, g)
		generation(&c.ObjectMeta, &o.ObjectMeta)
		defaulting.PrepareStatefulSetForUpdate(c, o, g)
		out = c
	case *appsv1.DaemonSet:
		o := old.(*appsv1.DaemonSet)
		c := defaulting.CopyDaemonSet(n, false)
		defaulting.DefaultDaemonSet(c, g)
		generation(&c.ObjectMeta, &o.ObjectMeta)
		tg, _ = templateGenerationOf(o.Annotations)
		if defaulting.PrepareDaemonSetForUpdate(c, o, g) {
			tg++
		}
		out = c
	case *batchv1.Job:
		o := old.(*batchv1.Job)
		c := defaulting.CopyJob(n, false)
		defaulting.DefaultJob(c, g)
		generation(&c.ObjectMeta, &o.ObjectMeta)
		defaulting.PrepareJobForUpdate(c, o, g)
		out = c
	case *batchv1.CronJob:
		o := old.(*batchv1.CronJob)
		c := defaulting.CopyCronJob(n, false)
		defaulting.DefaultCronJob(c, g)
		generation(&c.ObjectMeta, &o.ObjectMeta)
		defaulting.PrepareCronJobForUpdate(c, o, g)
		out = c
	default:
		return merged.DeepCopyObject()
	}
	m, err1 := meta.Accessor(out)
	o, err2 := meta.Accessor(old)
	if err1 != nil || err2 != nil {
		return out
	}
	if mm, ok := m.(*metav1.ObjectMeta); ok {
		if om, ok := o.(*metav1.ObjectMeta); ok {
			carryOverMeta(mm, om)
		}
	}
	if rv, err := strconv.ParseUint(o.GetResourceVersion(), 10, 64); err == nil {
		m.SetResourceVersion(strconv.FormatUint(rv+1, 10))
	}
	asReadFromStorage(out)
	asServedView(out, 0)
	if ds, ok := out.(*appsv1.DaemonSet); ok && tg >= 0 {
		ds.Annotations[appsv1.DeprecatedTemplateGeneration] = strconv.FormatInt(tg, 10)
	}
	return out
}

// asReadFromStorage clears the empty lists and maps of obj, at every depth: the
// server stores the built-in kinds as protobuf, which keeps no difference between
// an empty list or map and none, so what it reads back has none (a manifest's
// "sources: []", which has no omitempty, reads back as null).
func asReadFromStorage(obj runtime.Object) {
	clearEmpty(reflect.ValueOf(obj))
}

// clearEmpty is asReadFromStorage on a value.
func clearEmpty(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			clearEmpty(v.Elem())
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Field(i); f.CanSet() {
				clearEmpty(f)
			}
		}
	case reflect.Slice:
		if v.Len() == 0 {
			if !v.IsNil() && v.CanSet() {
				v.Set(reflect.Zero(v.Type()))
			}
			return
		}
		for i := range v.Len() {
			clearEmpty(v.Index(i))
		}
	case reflect.Map:
		if v.Len() == 0 {
			if !v.IsNil() && v.CanSet() {
				v.Set(reflect.Zero(v.Type()))
			}
			return
		}
		for _, k := range v.MapKeys() {
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(v.MapIndex(k))
			clearEmpty(e)
			v.SetMapIndex(k, e)
		}
	}
}
