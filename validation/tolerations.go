package validation

import (
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/validate/content"
	unversionedvalidation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

var (
	supportedTolerationOps    = []corev1.TolerationOperator{corev1.TolerationOpEqual, corev1.TolerationOpExists}
	supportedTolerationOpsAll = []corev1.TolerationOperator{corev1.TolerationOpEqual, corev1.TolerationOpExists, corev1.TolerationOpLt, corev1.TolerationOpGt}
	supportedTaintEffects     = []corev1.TaintEffect{corev1.TaintEffectNoSchedule, corev1.TaintEffectPreferNoSchedule, corev1.TaintEffectNoExecute}
)

// validateTolerations mirrors upstream ValidateTolerations as ValidatePodSpec calls
// it (key-format errors marked as covered by declarative validation).
func validateTolerations(tolerations []corev1.Toleration, fldPath *field.Path, o *podValidationOptions) field.ErrorList {
	return validateTolerationsL(tolerations, fromPath(fldPath), o)
}

func validateTolerationsL(tolerations []corev1.Toleration, fldPath lpath, o *podValidationOptions) field.ErrorList {
	var allErrs field.ErrorList
	for i := range tolerations {
		t := &tolerations[i]
		idxPath := fldPath.Index(i)
		if t.Key != "" && len(qualifiedNameErrs(t.Key)) != 0 {
			allErrs = append(allErrs, unversionedvalidation.ValidateLabelName(t.Key, idxPath.Child("key").P()).MarkCoveredByDeclarative()...)
		}
		if t.Key == "" && t.Operator != corev1.TolerationOpExists {
			allErrs = append(allErrs, invalidAt(idxPath.Child("operator"), t.Operator,
				"operator must be Exists when `key` is empty, which means \"match all values and all keys\""))
		}
		if t.TolerationSeconds != nil && t.Effect != corev1.TaintEffectNoExecute {
			allErrs = append(allErrs, invalidAt(idxPath.Child("effect"), t.Effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"))
		}
		switch t.Operator {
		case corev1.TolerationOpEqual, "":
			if errs := validation.IsValidLabelValue(t.Value); len(errs) != 0 {
				allErrs = append(allErrs, invalidAt(idxPath.Child("operator"), t.Value, strings.Join(errs, ";")))
			}
		case corev1.TolerationOpExists:
			if t.Value != "" {
				allErrs = append(allErrs, invalidAt(idxPath.Child("operator"), t.Value, "value must be empty when `operator` is 'Exists'"))
			}
		case corev1.TolerationOpLt, corev1.TolerationOpGt:
			if !o.allowTaintTolerationComparisonOperators {
				allErrs = append(allErrs, notSupportedAt(idxPath.Child("operator"), t.Operator, supportedTolerationOpsAll))
				break
			}
			for _, msg := range content.IsDecimalInteger(t.Value) {
				allErrs = append(allErrs, invalidAt(idxPath.Child("value"), t.Value, msg))
			}
			if _, err := strconv.ParseInt(t.Value, 10, 64); err != nil {
				allErrs = append(allErrs, invalidAt(idxPath.Child("value"), t.Value, err.Error()))
			}
		default:
			allErrs = append(allErrs, notSupportedAt(idxPath.Child("operator"), t.Operator, supportedTolerationOps))
		}
		if t.Effect != "" {
			switch t.Effect {
			case corev1.TaintEffectNoSchedule, corev1.TaintEffectPreferNoSchedule, corev1.TaintEffectNoExecute:
			default:
				allErrs = append(allErrs, notSupportedAt(idxPath.Child("effect"), t.Effect, supportedTaintEffects))
			}
		}
	}
	return allErrs
}

func tolerationComparisonInUse(spec *corev1.PodSpec) bool {
	for _, t := range spec.Tolerations {
		if t.Operator == corev1.TolerationOpLt || t.Operator == corev1.TolerationOpGt {
			return true
		}
	}
	return false
}
