package validation

import (
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/validation/field"
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
	// as the API server applies a strategic merge patch, or the server's error: a
	// *apierrors.StatusError for a patch it refuses as malformed (400, 422), any other
	// error for its 500. current is not modified; patch is left as the server's merge
	// leaves it, since the server's messages quote it afterwards.
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
// modified (see appliedConfiguration) and the live object, and the server's answer
// to that PATCH: the patch applied to the stored object, decoded with the request's
// field validation, then the update path. A patch of "{}" sends nothing: the object
// is Valid, without the server's warnings. What a valid patch leaves is kept under
// key, for the next object of the name.
func (s *streamRun) applyUpdate(r ObjectResult, modified []byte, resource schema.GroupVersionKind, k servedKind, stored runtime.Object, key createdKey) ObjectResult {
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
		w.addAll(warnings)
		addServerWarnings(&r, &w)
		return r
	}
	r.Object = patched
	r = s.update(r, warnings, resource.GroupKind(), k, stored)
	if r.Verdict == Valid {
		s.created().keepApplied(key, updatedAsStored(patched, current, s.opts.Validation))
	}
	return warnIfDeleting(r, stored)
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
// the patch read as JSON, merged into current's fields (StrategicPatcher.ApplyPatch,
// which words the handler's refusals), and the result converted to the typed
// object, with unknown fields reported under the request's field validation
// (Strict: a 422 on the field "patch", Warn: warnings). The defaults are applied
// later, by the update path.
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
		if se := (*apierrors.StatusError)(nil); errors.As(err, &se) {
			return nil, nil, nil, se
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
