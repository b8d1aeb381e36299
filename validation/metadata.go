package validation

import (
	"strings"

	corev1 "k8s.io/api/core/v1"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	v1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// validateObjectMeta mirrors k8s.io/kubernetes ValidateObjectMeta (apimachinery's
// ValidateObjectMeta plus the Kubernetes finalizer-name rule). It is re-expressed
// rather than called so that labels and annotations are visited in sorted order:
// apimachinery ranges over the maps.
func validateObjectMeta(meta *metav1.ObjectMeta, requiresNamespace bool, nameFn apimachineryvalidation.ValidateNameFunc, fldPath lpath) field.ErrorList {
	allErrs := validateGenericObjectMeta(meta, requiresNamespace, nameFn, fldPath)
	for i, f := range meta.Finalizers {
		if !strings.Contains(f, "/") && !isStandardFinalizer(f) {
			allErrs = append(allErrs, invalidAt(fldPath.Child("finalizers").Index(i), f, "name is neither a standard finalizer name nor is it fully qualified"))
		}
	}
	return allErrs
}

// validateGenericObjectMeta mirrors apimachinery's ValidateObjectMeta(Accessor), with
// label and annotation keys in sorted order.
func validateGenericObjectMeta(meta *metav1.ObjectMeta, requiresNamespace bool, nameFn apimachineryvalidation.ValidateNameFunc, fldPath lpath) field.ErrorList {
	var allErrs field.ErrorList
	if meta.GenerateName != "" {
		for _, msg := range nameFn(meta.GenerateName, true) {
			allErrs = append(allErrs, invalidAt(fldPath.Child("generateName"), meta.GenerateName, msg))
		}
	}
	if meta.Name == "" {
		allErrs = append(allErrs, requiredAt(fldPath.Child("name"), "name or generateName is required"))
	} else {
		for _, msg := range nameFn(meta.Name, false) {
			allErrs = append(allErrs, invalidAt(fldPath.Child("name"), meta.Name, msg))
		}
	}
	if requiresNamespace {
		if meta.Namespace == "" {
			allErrs = append(allErrs, requiredAt(fldPath.Child("namespace"), ""))
		} else {
			for _, msg := range dns1123LabelErrs(meta.Namespace) {
				allErrs = append(allErrs, invalidAt(fldPath.Child("namespace"), meta.Namespace, msg))
			}
		}
	} else if meta.Namespace != "" {
		allErrs = append(allErrs, forbiddenAt(fldPath.Child("namespace"), "not allowed on this type"))
	}
	allErrs = append(allErrs, nonNegative(meta.Generation, fldPath.Child("generation")).MarkCoveredByDeclarative()...)
	allErrs = append(allErrs, validateLabels(meta.Labels, fldPath.Child("labels"))...)
	allErrs = append(allErrs, validateAnnotations(meta.Annotations, fldPath.Child("annotations"))...)
	if len(meta.OwnerReferences) > 0 {
		allErrs = append(allErrs, apimachineryvalidation.ValidateOwnerReferences(meta.OwnerReferences, fldPath.Child("ownerReferences").P())...)
	}
	if len(meta.Finalizers) > 0 {
		allErrs = append(allErrs, apimachineryvalidation.ValidateFinalizers(meta.Finalizers, fldPath.Child("finalizers").P())...)
	}
	if len(meta.ManagedFields) > 0 {
		allErrs = append(allErrs, v1validation.ValidateManagedFields(meta.ManagedFields, fldPath.Child("managedFields").P(), v1validation.CoveredByDeclarative)...)
	}
	return allErrs
}

// pathSegmentName is the name rule the generic registry checks every object against
// (k8s.io/apiserver pkg/registry/rest/create.go validatePathSegment, after
// k8s.io/apimachinery pkg/api/validate/content IsPathSegmentName and
// IsPathSegmentPrefix): the name must fit in a URL path segment.
func pathSegmentName(name string, prefix bool) []string {
	if !prefix && (name == "." || name == "..") {
		return []string{"may not be '" + name + "'"}
	}
	var msgs []string
	for _, s := range [...]string{"/", "%"} {
		if strings.Contains(name, s) {
			msgs = append(msgs, "may not contain '"+s+"'")
		}
	}
	return msgs
}

func isStandardFinalizer(f string) bool {
	return f == string(corev1.FinalizerKubernetes) || f == metav1.FinalizerOrphanDependents || f == metav1.FinalizerDeleteDependents
}

// validateLabels is apimachinery's ValidateLabels in sorted key order.
func validateLabels(labels map[string]string, fldPath lpath) field.ErrorList {
	if len(labels) == 0 {
		return nil
	}
	// Most label sets are valid: check them in map order, reading each key and
	// value once, without building messages, and sort only to report errors in key
	// order (a set the quick checks doubt takes the exact path).
	valid := true
	for k, v := range labels {
		if !validQualifiedName(k) || !isPlainLabelValue(v) {
			valid = false
			break
		}
	}
	if valid {
		return nil
	}
	var allErrs field.ErrorList
	var buf [8]string
	for _, k := range appendSortedKeys(buf[:0], labels) {
		if !validQualifiedName(k) {
			allErrs = append(allErrs, v1validation.ValidateLabelName(k, fldPath.P())...)
		}
		if isPlainLabelValue(labels[k]) {
			continue // valid; skip apimachinery's regular expression
		}
		for _, msg := range validation.IsValidLabelValue(labels[k]) {
			allErrs = append(allErrs, invalidAt(fldPath, labels[k], msg).WithOrigin("format=k8s-label-value"))
		}
	}
	return allErrs
}

// isPlainLabelValue reports, without a regular expression, whether v is a valid label
// value: empty, or at most 63 characters of [-A-Za-z0-9_.] that start and end with an
// alphanumeric character.
func isPlainLabelValue(v string) bool {
	if v == "" {
		return true
	}
	if len(v) > 63 || !isAlnum(v[0]) || !isAlnum(v[len(v)-1]) {
		return false
	}
	for i := 1; i < len(v)-1; i++ {
		if c := v[i]; !isAlnum(c) && c != '-' && c != '_' && c != '.' {
			return false
		}
	}
	return true
}

// validateAnnotations is apimachinery's ValidateAnnotations in sorted key order.
func validateAnnotations(annotations map[string]string, fldPath lpath) field.ErrorList {
	if len(annotations) == 0 {
		return nil
	}
	// One pass in map order checks the keys without building messages (case does
	// not matter for annotation keys) and sums the size as ValidateAnnotationsSize
	// does; the keys are sorted only when the quick check doubts a key, to report
	// errors in key order.
	valid, size := true, int64(0)
	for k, v := range annotations {
		size += int64(len(k)) + int64(len(v))
		if valid && !validQualifiedName(strings.ToLower(k)) {
			valid = false
		}
	}
	var allErrs field.ErrorList
	if !valid {
		for _, k := range sortedKeys(annotations) {
			for _, msg := range qualifiedNameErrs(strings.ToLower(k)) {
				allErrs = append(allErrs, invalidAt(fldPath, k, msg).WithOrigin("format=k8s-label-key"))
			}
		}
	}
	if size > int64(apimachineryvalidation.TotalAnnotationSizeLimitB) {
		allErrs = append(allErrs, field.TooLong(fldPath.P(), "", apimachineryvalidation.TotalAnnotationSizeLimitB))
	}
	return allErrs
}
