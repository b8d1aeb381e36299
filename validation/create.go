package validation

import (
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/podlife/podlife/internal/defaulting"
)

// ValidatePodCreate returns the errors the Kubernetes v1.37.2 API server reports when
// pod is created, in upstream's order. It follows the server's create path:
//
//   - the request namespace (k8s.io/apiserver pkg/endpoints/handlers/create.go,
//     EnsureObjectNamespaceMatchesRequestNamespace): a pod without a namespace is
//     created in opts.Namespace, or in "default" when that is empty too; a pod whose
//     namespace differs from a non-empty opts.Namespace is rejected before anything
//     else is looked at, and the result is that single error (see
//     NamespaceMismatchDetail);
//   - defaulting (podlife.Default), which also drops the fields of disabled feature
//     gates, as the registry's PrepareForCreate does;
//   - name generation (k8s.io/apiserver pkg/registry/generic/registry/store.go
//     create, pkg/storage/names/generate.go): a pod with metadata.generateName and no
//     metadata.name is validated under the name the server would give it, the
//     generateName truncated to 58 bytes plus a 5-character suffix. Upstream draws
//     the suffix at random from "bcdfghjklmnpqrstvwxz2456789"; podlife always uses
//     GeneratedNameSuffix, which is drawn from that alphabet, so the answer is
//     deterministic and has the same errors. The generated name only shows as the
//     bad value of a metadata.name error, which happens only when the generateName
//     itself is invalid (and is then reported too); there the last 5 characters
//     differ from the server's, which differ from call to call;
//   - validation as the pod registry strategy does it (k8s.io/kubernetes
//     pkg/registry/core/pod/strategy.go Validate → pkg/apis/core/validation
//     ValidatePodCreate).
//
// The input is never modified. A nil pod is validated as an empty one.
func ValidatePodCreate(pod *corev1.Pod, opts Options) field.ErrorList {
	return podCreate(pod, opts, nil)
}

// podCreate is ValidatePodCreate recording the server's warnings in w (nil for none).
func podCreate(pod *corev1.Pod, opts Options, w *warningRecorder) field.ErrorList {
	if pod == nil {
		pod = &corev1.Pod{}
	}
	pod = withoutRepeatedOwners(pod, w)
	if pod.Namespace != "" && opts.Namespace != "" && pod.Namespace != opts.Namespace {
		return field.ErrorList{invalidAt(newPath("metadata").Child("namespace"), pod.Namespace, NamespaceMismatchDetail)}
	}
	// The pod as the server has it just before validation: defaulted as
	// podlife.DefaultWithOptions defaults, which also runs the registry's
	// PrepareForCreate (disabled-gate fields dropped, pod-level resources
	// defaulted); with SkipDefaulting, pod itself. The copy is a local variable:
	// nothing below keeps a pointer to it, so it stays off the heap.
	var prepared corev1.Pod
	p := pod
	if !opts.SkipDefaulting {
		p = &prepared
		defaulting.PodInto(pod, p, defaulting.Options{Features: opts.Features, ReadOnly: true})
	}
	if name, ns, ok := storedNameAndNamespace(&p.ObjectMeta, opts); ok {
		if p == pod {
			// SkipDefaulting handed back the input itself: copy the top level so
			// that setting two strings leaves the caller's pod alone.
			cp := *pod
			p = &cp
		}
		p.Name, p.Namespace = name, ns
	}
	if !opts.SkipDefaulting {
		appArmorSyncWarnings(w, pod)
	}
	o := resolveOptions(opts, p, nil)
	o.resourceIsPod = true
	return acceptedWarnings(w, p, dedupe(validatePodCreate(p, o)))
}

// withoutRepeatedOwners returns pod, or a copy of its top level without the owner
// references the server's handler drops (dedupOwnerReferences).
func withoutRepeatedOwners(pod *corev1.Pod, w *warningRecorder) *corev1.Pod {
	kept := dedupOwnerReferences(pod.OwnerReferences, w)
	if len(kept) == len(pod.OwnerReferences) {
		return pod
	}
	cp := *pod
	cp.OwnerReferences = kept
	return &cp
}

// dedupe drops every error whose text (Error()) an earlier one already has, keeping
// the order. The server's create path does this on its way out: rest.ValidateCreate
// passes the strategy's errors through declarative validation, whose
// ErrorList.Filter goes through ToAggregate, which keeps one error per message
// (k8s.io/apiserver pkg/registry/rest/validate.go, k8s.io/apimachinery
// pkg/util/validation/field/errors.go).
func dedupe(errs field.ErrorList) field.ErrorList {
	if len(errs) < 2 {
		return errs
	}
	// Error() is Field + ": " + ErrorBody(). Unless some field itself holds ": ",
	// two texts can only be equal when the fields are, so only errors that share a
	// field need their (costly: fmt and JSON) text.
	shared := sharedFields(errs)
	if shared == nil {
		return errs
	}
	seen := make(map[string]struct{}, len(errs))
	out := errs[:0]
	for i, e := range errs {
		if shared[i] {
			msg := errorText(e)
			if _, dup := seen[msg]; dup {
				continue
			}
			seen[msg] = struct{}{}
		}
		out = append(out, e)
	}
	return out
}

// errorText is e.Error(), built without fmt for the common bad values (strings,
// integers, booleans, none): the same bytes as apimachinery's Error and ErrorBody,
// which format a string with %q (strconv.Quote), the others with %v, and append
// ": " and the detail when there is one. Other values take e.Error() itself.
func errorText(e *field.Error) string {
	var value string
	switch e.Type {
	case field.ErrorTypeRequired, field.ErrorTypeForbidden, field.ErrorTypeTooLong, field.ErrorTypeTooShort, field.ErrorTypeInternal:
	case field.ErrorTypeInvalid, field.ErrorTypeTypeInvalid, field.ErrorTypeNotSupported,
		field.ErrorTypeNotFound, field.ErrorTypeDuplicate, field.ErrorTypeTooMany, field.ErrorTypeTooFew:
		switch v := e.BadValue.(type) {
		case field.OmitValueType:
		case string:
			value = ": " + strconv.Quote(v)
		case int64:
			value = ": " + strconv.FormatInt(v, 10)
		case int32:
			value = ": " + strconv.FormatInt(int64(v), 10)
		case bool:
			value = ": " + strconv.FormatBool(v)
		default:
			return e.Error()
		}
	default:
		return e.Error()
	}
	detail := ""
	if e.Detail != "" {
		detail = ": " + e.Detail
	}
	return e.Field + ": " + e.Type.String() + value + detail
}

// sharedFields marks the errors of errs that might repeat an earlier error's text:
// those whose field another error also has, or all of them when a field contains
// ": " (then a text can equal another whose field differs). It returns nil when
// none might.
func sharedFields(errs field.ErrorList) []bool {
	for _, e := range errs {
		if strings.Contains(e.Field, ": ") {
			all := make([]bool, len(errs))
			for i := range all {
				all[i] = true
			}
			return all
		}
	}
	var shared []bool
	mark := func(i, j int) {
		if shared == nil {
			shared = make([]bool, len(errs))
		}
		shared[i], shared[j] = true, true
	}
	if len(errs) <= 16 {
		for i := range errs {
			for j := i + 1; j < len(errs); j++ {
				if errs[i].Field == errs[j].Field {
					mark(i, j)
				}
			}
		}
		return shared
	}
	first := make(map[string]int, len(errs))
	for i, e := range errs {
		if j, ok := first[e.Field]; ok {
			mark(j, i)
			continue
		}
		first[e.Field] = i
	}
	return shared
}

// NamespaceMismatchDetail is upstream's message when the pod's metadata.namespace and
// the request namespace (Options.Namespace) are both set and differ
// (k8s.io/apiserver pkg/registry/rest/meta.go EnsureObjectNamespaceMatchesRequestNamespace).
// The server answers 400 Bad Request with this message as the status message, not a
// 422 Invalid with causes; ValidatePodCreate reports it as the Detail of its only
// error, a field.ErrorTypeInvalid on metadata.namespace whose BadValue is the pod's
// namespace.
const NamespaceMismatchDetail = "the namespace of the provided object does not match the namespace sent on the request"

// GeneratedNameSuffix is the suffix ValidatePodCreate appends to metadata.generateName
// to stand for the 5 random characters the server appends (k8s.io/apiserver
// pkg/storage/names/generate.go). Its characters are from upstream's alphabet, so
// validity never depends on it.
const GeneratedNameSuffix = "xxxxx"

// maxGeneratedNameLength is upstream names.MaxGeneratedNameLength: the generateName
// is cut to 58 bytes so that the generated name fits in 63.
const maxGeneratedNameLength = 63 - len(GeneratedNameSuffix)

// storedNameAndNamespace returns the name and namespace the server gives an object
// with this metadata before validation, and whether either differs from what it has.
func storedNameAndNamespace(meta *metav1.ObjectMeta, opts Options) (name, ns string, changed bool) {
	name, ns = meta.Name, meta.Namespace
	if name == "" && meta.GenerateName != "" {
		base := meta.GenerateName
		if len(base) > maxGeneratedNameLength {
			// Bytes, not runes, as upstream: a cut rune makes the name invalid.
			base = base[:maxGeneratedNameLength]
		}
		name = base + GeneratedNameSuffix
	}
	if ns == "" {
		ns = opts.Namespace
		if ns == "" {
			ns = metav1.NamespaceDefault
		}
	}
	return name, ns, name != meta.Name || ns != meta.Namespace
}

// validatePodCreate mirrors upstream ValidatePodCreate on an already prepared pod.
func validatePodCreate(pod *corev1.Pod, o podValidationOptions) field.ErrorList {
	allErrs := validatePodMetadataAndSpec(pod, o)
	specPath := newPath("spec")
	if len(pod.Spec.EphemeralContainers) > 0 {
		allErrs = append(allErrs, forbiddenAt(specPath.Child("ephemeralContainers"), "cannot be set on create"))
	}
	if pod.Spec.NodeName != "" && len(pod.Spec.SchedulingGates) != 0 {
		allErrs = append(allErrs, forbiddenAt(specPath.Child("nodeName"), "cannot be set until all schedulingGates have been cleared"))
	}
	allErrs = append(allErrs, validateSeccompAnnotationsAndFieldsL(&pod.ObjectMeta, &pod.Spec, specPath)...)
	allErrs = append(allErrs, validateAppArmorAnnotationsAndFieldsMatchOnCreateL(&pod.ObjectMeta, &pod.Spec, specPath)...)
	// The declarative rules come after every hand-written one (rest.ValidateCreate).
	return append(allErrs, validateEvictionResponderList(pod.Spec.EvictionResponders, nil, specPath)...)
}

// validatePodMetadataAndSpec mirrors upstream validatePodMetadataAndSpec: metadata,
// pod-specific annotations, the spec, and the checks that apply to pods but not to
// pod templates. Shared by create and update.
func validatePodMetadataAndSpec(pod *corev1.Pod, o podValidationOptions) field.ErrorList {
	metaPath := newPath("metadata")
	specPath := newPath("spec")

	allErrs := validateObjectMeta(&pod.ObjectMeta, true, nameIsDNSSubdomain, metaPath)
	allErrs = append(allErrs, validatePodSpecificAnnotationsL(pod.Annotations, &pod.Spec, metaPath.Child("annotations"), &o)...)
	allErrs = append(allErrs, validatePodSpecL(&pod.Spec, &pod.ObjectMeta, specPath, o)...)

	if pod.Spec.ServiceAccountName == "" {
		for vi := range pod.Spec.Volumes {
			proj := pod.Spec.Volumes[vi].Projected
			if proj == nil {
				continue
			}
			for si := range proj.Sources {
				if proj.Sources[si].ServiceAccountToken != nil {
					allErrs = append(allErrs, forbiddenAt(specPath.Child("volumes").Index(vi).Children("projected", "sources").Index(si).Child("serviceAccountToken"), "must not be specified when serviceAccountName is not set"))
				}
			}
		}
	}
	if g := pod.Spec.TerminationGracePeriodSeconds; g != nil {
		allErrs = append(allErrs, nonNegative(*g, specPath.Child("terminationGracePeriodSeconds"))...)
	}
	allErrs = append(allErrs, validateImagesOnlyForPod(pod.Spec.Containers, specPath.Child("containers"))...)
	allErrs = append(allErrs, validateImagesOnlyForPod(pod.Spec.InitContainers, specPath.Child("initContainers"))...)
	return allErrs
}

// validateImagesOnlyForPod is upstream validateContainersOnlyForPod: pods (not
// templates) may not have images with surrounding whitespace.
func validateImagesOnlyForPod(containers []corev1.Container, fldPath lpath) field.ErrorList {
	var allErrs field.ErrorList
	for i := range containers {
		allErrs = append(allErrs, validateImageWhitespace(containers[i].Image, fldPath.Index(i))...)
	}
	return allErrs
}

func validateImageWhitespace(image string, path lpath) field.ErrorList {
	if len(image) != len(strings.TrimSpace(image)) {
		return field.ErrorList{invalidAt(path.Child("image"), image, "must not have leading or trailing whitespace")}
	}
	return nil
}
