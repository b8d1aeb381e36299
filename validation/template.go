package validation

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/podlife/podlife/internal/defaulting"
	"github.com/podlife/podlife/internal/gates"
)

// ValidatePodTemplateSpec returns the errors the Kubernetes v1.37.2 API server reports
// for a pod template inside a workload being created (Deployment, StatefulSet,
// DaemonSet, ReplicaSet, Job, CronJob, PodTemplate, ...): fldPath is where the
// template sits in that object, for example field.NewPath("spec", "template").
//
// The template is first defaulted as templates are (SetObjectDefaults_PodTemplate:
// the PodSpec defaults without the Pod-only ones such as requests copied from limits),
// fields of disabled feature gates are dropped (DropDisabledTemplateFields), then it is
// validated as k8s.io/kubernetes pkg/apis/core/validation/validation.go
// ValidatePodTemplateSpec does with the options of GetValidationOptionsFromPodTemplate:
// labels, annotations, the spec, seccomp and AppArmor annotation consistency, and
// ephemeral containers are forbidden. Rules a workload adds around its template (a
// Deployment's restartPolicy Always, a Job's Never/OnFailure, selectors) are not part
// of it.
//
// The input is never modified. A nil template is validated as an empty one.
func ValidatePodTemplateSpec(template *corev1.PodTemplateSpec, fldPath *field.Path, opts Options) field.ErrorList {
	t := prepareTemplate(template, opts)
	o := resolveOptions(opts, &corev1.Pod{ObjectMeta: t.ObjectMeta, Spec: t.Spec}, nil)
	return sortMapRuns(validatePodTemplateSpec(t, fldPath, o), fldPath.Child("labels").String(), fldPath.Child("annotations").String())
}

// prepareTemplate returns a private, defaulted copy of the template with disabled
// fields dropped.
func prepareTemplate(template *corev1.PodTemplateSpec, opts Options) *corev1.PodTemplateSpec {
	if template == nil {
		template = &corev1.PodTemplateSpec{}
	}
	if opts.SkipDefaulting {
		return template.DeepCopy()
	}
	return templateDefaults(template, opts.Features)
}

// validatePodTemplateSpec mirrors upstream ValidatePodTemplateSpec on a prepared
// template.
func validatePodTemplateSpec(t *corev1.PodTemplateSpec, fldPath *field.Path, o podValidationOptions) field.ErrorList {
	return validatePodTemplateSpecL(t, fromPath(fldPath), o)
}

// validatePodTemplateSpecL is validatePodTemplateSpec on a lazy path. Labels and
// annotations come in sorted key order, where upstream ranges over the maps.
func validatePodTemplateSpecL(t *corev1.PodTemplateSpec, fldPath lpath, o podValidationOptions) field.ErrorList {
	specPath := fldPath.Child("spec")
	allErrs := validateLabels(t.Labels, fldPath.Child("labels"))
	allErrs = append(allErrs, validateAnnotations(t.Annotations, fldPath.Child("annotations"))...)
	allErrs = append(allErrs, validatePodSpecificAnnotationsL(t.Annotations, &t.Spec, fldPath.Child("annotations"), &o)...)
	allErrs = append(allErrs, validatePodSpecL(&t.Spec, nil, specPath, o)...)
	allErrs = append(allErrs, validateSeccompAnnotationsAndFieldsL(&t.ObjectMeta, &t.Spec, specPath)...)
	allErrs = append(allErrs, validateAppArmorAnnotationsAndFieldsMatchOnCreateL(&t.ObjectMeta, &t.Spec, specPath)...)
	if len(t.Spec.EphemeralContainers) > 0 {
		allErrs = append(allErrs, forbiddenAt(specPath.Child("ephemeralContainers"), "ephemeral containers not allowed in pod template"))
	}
	return allErrs
}

// templateDefaults returns a copy of t as a workload registry has it before
// validation: SetObjectDefaults_PodTemplate's defaults and DropDisabledTemplateFields.
func templateDefaults(t *corev1.PodTemplateSpec, g gates.FeatureGates) *corev1.PodTemplateSpec {
	return defaulting.Template(t, defaulting.Options{Features: g})
}
