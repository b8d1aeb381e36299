package validation

import (
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/podlife/podlife"
)

// ValidatePodCreate returns the errors the Kubernetes v1.37.2 API server reports when
// pod is created, in upstream's order: the pod is first defaulted (podlife.Default),
// fields of disabled feature gates are dropped, and the result is validated as the
// pod registry strategy does (k8s.io/kubernetes pkg/registry/core/pod/strategy.go
// Validate → pkg/apis/core/validation ValidatePodCreate).
//
// The input is never modified. A nil pod is validated as an empty one.
func ValidatePodCreate(pod *corev1.Pod, opts Options) field.ErrorList {
	p := prepareForCreate(pod, opts)
	o := resolveOptions(opts, p, nil)
	o.resourceIsPod = true
	return validatePodCreate(p, o)
}

// prepareForCreate returns a private copy of pod as the server has it just before
// validation: defaulted by podlife.DefaultWithOptions, which also runs the registry's
// PrepareForCreate (disabled-gate fields dropped, pod-level resources defaulted).
func prepareForCreate(pod *corev1.Pod, opts Options) *corev1.Pod {
	if pod == nil {
		pod = &corev1.Pod{}
	}
	if opts.SkipDefaulting {
		return pod
	}
	return podlife.DefaultWithOptions(pod, podlife.DefaultOptions{Features: opts.Features})
}

// validatePodCreate mirrors upstream ValidatePodCreate on an already prepared pod.
func validatePodCreate(pod *corev1.Pod, o podValidationOptions) field.ErrorList {
	allErrs := validatePodMetadataAndSpec(pod, o)
	specPath := newPath("spec")
	if len(pod.Spec.EphemeralContainers) > 0 {
		allErrs = append(allErrs, field.Forbidden(specPath.Child("ephemeralContainers").P(), "cannot be set on create"))
	}
	if pod.Spec.NodeName != "" && len(pod.Spec.SchedulingGates) != 0 {
		allErrs = append(allErrs, field.Forbidden(specPath.Child("nodeName").P(), "cannot be set until all schedulingGates have been cleared"))
	}
	allErrs = append(allErrs, validateSeccompAnnotationsAndFieldsL(&pod.ObjectMeta, &pod.Spec, specPath)...)
	allErrs = append(allErrs, validateAppArmorAnnotationsAndFieldsMatchOnCreateL(&pod.ObjectMeta, &pod.Spec, specPath)...)
	return allErrs
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
					allErrs = append(allErrs, field.Forbidden(specPath.Child("volumes").Index(vi).Child("projected", "sources").Index(si).Child("serviceAccountToken").P(), "must not be specified when serviceAccountName is not set"))
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
		return field.ErrorList{field.Invalid(path.Child("image").P(), image, "must not have leading or trailing whitespace")}
	}
	return nil
}
