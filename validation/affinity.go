package validation

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Affinity and topology spread: upstream validateAffinity and
// validateTopologySpreadConstraints (k8s.io/kubernetes pkg/apis/core/validation).

func validateLabelName(name string, fldPath lpath) field.ErrorList {
	var allErrs field.ErrorList
	for _, msg := range qualifiedNameErrs(name) {
		allErrs = append(allErrs, invalidAt(fldPath, name, msg).WithOrigin("format=k8s-label-key"))
	}
	return allErrs
}

// validateLabelSelector is apimachinery's ValidateLabelSelector with matchLabels in
// sorted order.
func validateLabelSelector(ps *metav1.LabelSelector, allowInvalidValues bool, fldPath lpath) field.ErrorList {
	if ps == nil {
		return nil
	}
	allErrs := validateLabels(ps.MatchLabels, fldPath.Child("matchLabels"))
	for i, sr := range ps.MatchExpressions {
		p := fldPath.Child("matchExpressions").Index(i)
		switch sr.Operator {
		case metav1.LabelSelectorOpIn, metav1.LabelSelectorOpNotIn:
			if len(sr.Values) == 0 {
				allErrs = append(allErrs, requiredAt(p.Child("values"), "must be specified when `operator` is 'In' or 'NotIn'"))
			}
		case metav1.LabelSelectorOpExists, metav1.LabelSelectorOpDoesNotExist:
			if len(sr.Values) > 0 {
				allErrs = append(allErrs, forbiddenAt(p.Child("values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
			}
		default:
			allErrs = append(allErrs, invalidAt(p.Child("operator"), sr.Operator, "not a valid selector operator"))
		}
		allErrs = append(allErrs, validateLabelName(sr.Key, p.Child("key"))...)
		if !allowInvalidValues {
			for j, v := range sr.Values {
				for _, msg := range validation.IsValidLabelValue(v) {
					allErrs = append(allErrs, invalidAt(p.Child("values").Index(j), v, msg))
				}
			}
		}
	}
	return allErrs
}

func validateAffinity(a *corev1.Affinity, o *podValidationOptions, fldPath lpath) field.ErrorList {
	if a == nil {
		return nil
	}
	var allErrs field.ErrorList
	if na := a.NodeAffinity; na != nil {
		p := fldPath.Child("nodeAffinity")
		if ns := na.RequiredDuringSchedulingIgnoredDuringExecution; ns != nil {
			allErrs = append(allErrs, validateNodeSelector(ns, o.allowInvalidLabelValueInRequiredNodeAffinity, p.Child("requiredDuringSchedulingIgnoredDuringExecution"))...)
		}
		for i, term := range na.PreferredDuringSchedulingIgnoredDuringExecution {
			tp := p.Child("preferredDuringSchedulingIgnoredDuringExecution").Index(i)
			if term.Weight <= 0 || term.Weight > 100 {
				allErrs = append(allErrs, invalidAt(tp.Child("weight"), term.Weight, "must be in the range 1-100"))
			}
			// Invalid label values are always allowed in preferred terms.
			allErrs = append(allErrs, validateNodeSelectorTerm(&term.Preference, true, tp.Child("preference"))...)
		}
	}
	if pa := a.PodAffinity; pa != nil {
		allErrs = append(allErrs, validatePodAffinityTerms(pa.RequiredDuringSchedulingIgnoredDuringExecution, pa.PreferredDuringSchedulingIgnoredDuringExecution, o, fldPath.Child("podAffinity"))...)
	}
	if pa := a.PodAntiAffinity; pa != nil {
		allErrs = append(allErrs, validatePodAffinityTerms(pa.RequiredDuringSchedulingIgnoredDuringExecution, pa.PreferredDuringSchedulingIgnoredDuringExecution, o, fldPath.Child("podAntiAffinity"))...)
	}
	return allErrs
}

func validateNodeSelector(ns *corev1.NodeSelector, allowInvalidValues bool, fldPath lpath) field.ErrorList {
	tp := fldPath.Child("nodeSelectorTerms")
	if len(ns.NodeSelectorTerms) == 0 {
		return field.ErrorList{requiredAt(tp, "must have at least one node selector term")}
	}
	var allErrs field.ErrorList
	for i := range ns.NodeSelectorTerms {
		allErrs = append(allErrs, validateNodeSelectorTerm(&ns.NodeSelectorTerms[i], allowInvalidValues, tp.Index(i))...)
	}
	return allErrs
}

func validateNodeSelectorTerm(term *corev1.NodeSelectorTerm, allowInvalidValues bool, fldPath lpath) field.ErrorList {
	var allErrs field.ErrorList
	for j, rq := range term.MatchExpressions {
		p := fldPath.Child("matchExpressions").Index(j)
		switch rq.Operator {
		case corev1.NodeSelectorOpIn, corev1.NodeSelectorOpNotIn:
			if len(rq.Values) == 0 {
				allErrs = append(allErrs, requiredAt(p.Child("values"), "must be specified when `operator` is 'In' or 'NotIn'"))
			}
		case corev1.NodeSelectorOpExists, corev1.NodeSelectorOpDoesNotExist:
			if len(rq.Values) > 0 {
				allErrs = append(allErrs, forbiddenAt(p.Child("values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
			}
		case corev1.NodeSelectorOpGt, corev1.NodeSelectorOpLt:
			if len(rq.Values) != 1 {
				allErrs = append(allErrs, requiredAt(p.Child("values"), "must be specified single value when `operator` is 'Lt' or 'Gt'"))
			}
		default:
			allErrs = append(allErrs, invalidAt(p.Child("operator"), rq.Operator, "not a valid selector operator"))
		}
		allErrs = append(allErrs, validateLabelName(rq.Key, p.Child("key"))...)
		if !allowInvalidValues {
			for k, v := range rq.Values {
				for _, msg := range validation.IsValidLabelValue(v) {
					allErrs = append(allErrs, invalidAt(p.Child("values").Index(k), v, msg).WithOrigin("format=k8s-label-value"))
				}
			}
		}
	}
	for j, rq := range term.MatchFields {
		p := fldPath.Child("matchFields").Index(j)
		switch rq.Operator {
		case corev1.NodeSelectorOpIn, corev1.NodeSelectorOpNotIn:
			if len(rq.Values) != 1 {
				allErrs = append(allErrs, requiredAt(p.Child("values"), "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"))
			}
		default:
			allErrs = append(allErrs, invalidAt(p.Child("operator"), rq.Operator, "not a valid selector operator"))
		}
		if rq.Key != metav1.ObjectNameField {
			allErrs = append(allErrs, invalidAt(p.Child("key"), rq.Key, "not a valid field selector key"))
		} else {
			for k, v := range rq.Values {
				for _, msg := range nameIsDNSSubdomain(v, false) {
					allErrs = append(allErrs, invalidAt(p.Child("values").Index(k), v, msg))
				}
			}
		}
	}
	return allErrs
}

func validatePodAffinityTerms(required []corev1.PodAffinityTerm, preferred []corev1.WeightedPodAffinityTerm, o *podValidationOptions, fldPath lpath) field.ErrorList {
	var allErrs field.ErrorList
	for i := range required {
		allErrs = append(allErrs, validatePodAffinityTerm(&required[i], o.allowInvalidLabelValueInSelector, fldPath.Child("requiredDuringSchedulingIgnoredDuringExecution").Index(i))...)
	}
	for i := range preferred {
		p := fldPath.Child("preferredDuringSchedulingIgnoredDuringExecution").Index(i)
		if w := preferred[i].Weight; w <= 0 || w > 100 {
			allErrs = append(allErrs, invalidAt(p.Child("weight"), w, "must be in the range 1-100"))
		}
		allErrs = append(allErrs, validatePodAffinityTerm(&preferred[i].PodAffinityTerm, o.allowInvalidLabelValueInSelector, p.Child("podAffinityTerm"))...)
	}
	return allErrs
}

func validatePodAffinityTermSelector(term *corev1.PodAffinityTerm, allowInvalidValues bool, fldPath lpath) field.ErrorList {
	allErrs := validateLabelSelector(term.LabelSelector, allowInvalidValues, fldPath.Child("labelSelector"))
	return append(allErrs, validateLabelSelector(term.NamespaceSelector, allowInvalidValues, fldPath.Child("namespaceSelector"))...)
}

func validatePodAffinityTerm(term *corev1.PodAffinityTerm, allowInvalidValues bool, fldPath lpath) field.ErrorList {
	allErrs := validatePodAffinityTermSelector(term, allowInvalidValues, fldPath)
	for _, ns := range term.Namespaces {
		for _, msg := range dns1123LabelErrs(ns) {
			allErrs = append(allErrs, invalidAt(fldPath.Child("namespace"), ns, msg))
		}
	}
	allErrs = append(allErrs, validateMatchLabelKeysAndMismatchLabelKeys(fldPath, term.MatchLabelKeys, term.MismatchLabelKeys, term.LabelSelector)...)
	if term.TopologyKey == "" {
		allErrs = append(allErrs, requiredAt(fldPath.Child("topologyKey"), "can not be empty"))
	}
	return append(allErrs, validateLabelName(term.TopologyKey, fldPath.Child("topologyKey"))...)
}

// validateMatchLabelKeysAndMismatchLabelKeys mirrors upstream's function of the same
// name, including its index-on-the-term path for a key also in the selector.
func validateMatchLabelKeysAndMismatchLabelKeys(fldPath lpath, matchKeys, mismatchKeys []string, sel *metav1.LabelSelector) field.ErrorList {
	var allErrs field.ErrorList
	allErrs = append(allErrs, validateLabelKeys(fldPath.Child("matchLabelKeys"), matchKeys, sel)...)
	allErrs = append(allErrs, validateLabelKeys(fldPath.Child("mismatchLabelKeys"), mismatchKeys, sel)...)
	if sel != nil && len(matchKeys) > 0 {
		seen := make(map[string]bool, len(sel.MatchLabels)+len(sel.MatchExpressions))
		for k := range sel.MatchLabels {
			seen[k] = true
		}
		for _, e := range sel.MatchExpressions {
			// The last index of the key in matchLabelKeys, as upstream's map keeps it.
			idx := -1
			for i, k := range matchKeys {
				if k == e.Key {
					idx = i
				}
			}
			if idx >= 0 && seen[e.Key] {
				allErrs = append(allErrs, invalidAt(fldPath.Index(idx), e.Key, "exists in both matchLabelKeys and labelSelector").WithOrigin("duplicatedLabelKeys"))
			}
			seen[e.Key] = true
		}
	}
	for i, k := range matchKeys {
		if contains(mismatchKeys, k) {
			allErrs = append(allErrs, invalidAt(fldPath.Child("matchLabelKeys").Index(i), k, "exists in both matchLabelKeys and mismatchLabelKeys").WithOrigin("duplicatedMismatchLabelKeys"))
		}
	}
	return allErrs
}

func validateLabelKeys(fldPath lpath, keys []string, sel *metav1.LabelSelector) field.ErrorList {
	if len(keys) == 0 {
		return nil
	}
	if sel == nil {
		return field.ErrorList{forbiddenAt(fldPath, "must not be specified when labelSelector is not set")}
	}
	var allErrs field.ErrorList
	for i, k := range keys {
		allErrs = append(allErrs, validateLabelName(k, fldPath.Index(i))...)
	}
	return allErrs
}

// validateMatchLabelKeysInTopologySpread mirrors upstream's legacy check.
func validateMatchLabelKeysInTopologySpread(fldPath lpath, keys []string, sel *metav1.LabelSelector) field.ErrorList {
	if len(keys) == 0 {
		return nil
	}
	var allErrs field.ErrorList
	if sel == nil {
		allErrs = append(allErrs, forbiddenAt(fldPath, "must not be specified when labelSelector is not set"))
	}
	for i, k := range keys {
		allErrs = append(allErrs, validateLabelName(k, fldPath.Index(i))...)
		inSelector := false
		if sel != nil {
			_, inSelector = sel.MatchLabels[k]
			for _, e := range sel.MatchExpressions {
				inSelector = inSelector || e.Key == k
			}
		}
		if inSelector {
			allErrs = append(allErrs, invalidAt(fldPath.Index(i), k, "exists in both matchLabelKeys and labelSelector").WithOrigin("duplicatedLabelKeys"))
		}
	}
	return allErrs
}

var (
	supportedScheduleActions  = []corev1.UnsatisfiableConstraintAction{corev1.DoNotSchedule, corev1.ScheduleAnyway}
	supportedInclusionPolices = []corev1.NodeInclusionPolicy{corev1.NodeInclusionPolicyHonor, corev1.NodeInclusionPolicyIgnore}
)

// validateTopologySpreadConstraints mirrors upstream validateTopologySpreadConstraints.
func validateTopologySpreadConstraints(constraints []corev1.TopologySpreadConstraint, fldPath lpath, o *podValidationOptions) field.ErrorList {
	var allErrs field.ErrorList
	for i := range constraints {
		c := &constraints[i]
		p := fldPath.Index(i)
		if c.MaxSkew <= 0 {
			allErrs = append(allErrs, invalidAt(p.Child("maxSkew"), int64(c.MaxSkew), "must be greater than zero").WithOrigin("minimum"))
		}
		if c.TopologyKey == "" {
			allErrs = append(allErrs, requiredAt(p.Child("topologyKey"), "can not be empty"))
		}
		if c.WhenUnsatisfiable != corev1.DoNotSchedule && c.WhenUnsatisfiable != corev1.ScheduleAnyway {
			allErrs = append(allErrs, notSupportedAt(p.Child("whenUnsatisfiable"), c.WhenUnsatisfiable, supportedScheduleActions))
		}
		for _, rest := range constraints[i+1:] {
			if c.TopologyKey == rest.TopologyKey && c.WhenUnsatisfiable == rest.WhenUnsatisfiable {
				allErrs = append(allErrs, duplicateAt(p.Child("{topologyKey, whenUnsatisfiable}"), "{"+c.TopologyKey+", "+string(c.WhenUnsatisfiable)+"}"))
				break
			}
		}
		if c.MinDomains != nil {
			if *c.MinDomains <= 0 {
				allErrs = append(allErrs, invalidAt(p.Child("minDomains"), int64(*c.MinDomains), "must be greater than zero").WithOrigin("minimum"))
			}
			if c.WhenUnsatisfiable != corev1.DoNotSchedule {
				allErrs = append(allErrs, invalidAt(p.Child("minDomains"), c.MinDomains,
					"can only use minDomains if whenUnsatisfiable=DoNotSchedule, not "+string(c.WhenUnsatisfiable)).WithOrigin("dependsOn"))
			}
		}
		for _, np := range []struct {
			name   string
			policy *corev1.NodeInclusionPolicy
		}{{"nodeAffinityPolicy", c.NodeAffinityPolicy}, {"nodeTaintsPolicy", c.NodeTaintsPolicy}} {
			if np.policy != nil && *np.policy != corev1.NodeInclusionPolicyHonor && *np.policy != corev1.NodeInclusionPolicyIgnore {
				allErrs = append(allErrs, notSupportedAt(p.Child(np.name), np.policy, supportedInclusionPolices))
			}
		}
		// Which matchLabelKeys check applies depends on the gates and on whether the
		// old object passes the newer check (upstream keeps old objects updatable).
		if o.allowMatchLabelKeysInPodTopologySpread && o.allowMatchLabelKeysInPodTopologySpreadSelectorMerge != o.oldPodViolatesMatchLabelKeysCheck(o.allowMatchLabelKeysInPodTopologySpreadSelectorMerge) {
			allErrs = append(allErrs, validateMatchLabelKeysAndMismatchLabelKeys(p, c.MatchLabelKeys, nil, c.LabelSelector)...)
		} else {
			allErrs = append(allErrs, validateMatchLabelKeysInTopologySpread(p.Child("matchLabelKeys"), c.MatchLabelKeys, c.LabelSelector)...)
		}
		if !o.allowInvalidTopologySpreadConstraintLabelSelector {
			allErrs = append(allErrs, validateLabelSelector(c.LabelSelector, false, p.Child("labelSelector"))...)
		}
	}
	return allErrs
}

// oldPodViolatesMatchLabelKeysCheck returns the "old pod violates" flag of the check
// selected by merge: the preferred one when merge is on, the legacy one otherwise.
func (o *podValidationOptions) oldPodViolatesMatchLabelKeysCheck(merge bool) bool {
	if merge {
		return o.oldPodViolatesMatchLabelKeysValidation
	}
	return o.oldPodViolatesLegacyMatchLabelKeysValidation
}
