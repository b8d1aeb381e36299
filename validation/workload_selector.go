package validation

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// selectorKind is what k8s.io/apimachinery metav1.LabelSelectorAsSelector makes of a
// label selector, as far as the workload rules look at it.
type selectorKind uint8

const (
	// selectorNothing is a nil selector (labels.Nothing): it matches no labels and
	// is not Empty.
	selectorNothing selectorKind = iota
	// selectorEverything is a selector without terms (labels.Everything): it matches
	// every set of labels and is Empty.
	selectorEverything
	// selectorTerms is a selector with terms, all of which must hold.
	selectorTerms
	// selectorInvalid is a selector LabelSelectorAsSelector refuses (an invalid key,
	// value or operator, In/NotIn without values, Exists/DoesNotExist with values).
	selectorInvalid
)

// classifySelector mirrors metav1.LabelSelectorAsSelector without building the
// selector: which of the four outcomes ps has.
func classifySelector(ps *metav1.LabelSelector) selectorKind {
	if ps == nil {
		return selectorNothing
	}
	if len(ps.MatchLabels)+len(ps.MatchExpressions) == 0 {
		return selectorEverything
	}
	for k, v := range ps.MatchLabels {
		if qualifiedNameErrs(k) != nil || !isPlainLabelValue(v) {
			return selectorInvalid
		}
	}
	for i := range ps.MatchExpressions {
		e := &ps.MatchExpressions[i]
		switch e.Operator {
		case metav1.LabelSelectorOpIn, metav1.LabelSelectorOpNotIn:
			if len(e.Values) == 0 {
				return selectorInvalid
			}
		case metav1.LabelSelectorOpExists, metav1.LabelSelectorOpDoesNotExist:
			if len(e.Values) != 0 {
				return selectorInvalid
			}
		default:
			return selectorInvalid
		}
		if qualifiedNameErrs(e.Key) != nil {
			return selectorInvalid
		}
		for _, v := range e.Values {
			if !isPlainLabelValue(v) {
				return selectorInvalid
			}
		}
	}
	return selectorTerms
}

// selectorMatches reports whether a valid selector of kind k (see classifySelector)
// selects a pod with these labels, as labels.Selector.Matches does.
func selectorMatches(ps *metav1.LabelSelector, k selectorKind, set map[string]string) bool {
	switch k {
	case selectorNothing, selectorInvalid:
		return false
	case selectorEverything:
		return true
	}
	for key, want := range ps.MatchLabels {
		if got, ok := set[key]; !ok || got != want {
			return false
		}
	}
	for i := range ps.MatchExpressions {
		e := &ps.MatchExpressions[i]
		got, ok := set[e.Key]
		switch e.Operator {
		case metav1.LabelSelectorOpIn:
			if !ok || !contains(e.Values, got) {
				return false
			}
		case metav1.LabelSelectorOpNotIn:
			if ok && contains(e.Values, got) {
				return false
			}
		case metav1.LabelSelectorOpExists:
			if !ok {
				return false
			}
		case metav1.LabelSelectorOpDoesNotExist:
			if ok {
				return false
			}
		}
	}
	return true
}
