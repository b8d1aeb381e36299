package validation

import (
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/validate/content"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/podlife/podlife/internal/apidiff"
)

// spec.schedulingGroup (gate GenericWorkload) and spec.evictionResponders (gate
// EvictionRequestAPI). Both are dropped on create unless their gate is on, and kept
// on update when the stored pod has them (podlife.Default, as upstream
// DropDisabledPodFields).

// validateSchedulingGroup mirrors upstream validateSchedulingGroup and the
// hand-written half of the rule that evictionResponders and schedulingGroup exclude
// each other (its declarative twin is alpha, so never enforced).
func validateSchedulingGroup(spec *corev1.PodSpec, fldPath lpath) field.ErrorList {
	sg := spec.SchedulingGroup
	if sg == nil {
		return nil
	}
	p := fldPath.Child("schedulingGroup")
	var allErrs field.ErrorList
	if sg.PodGroupName == nil {
		// Upstream passes the nil pointer.
		allErrs = append(allErrs, invalidAt(p.Child("podGroupName"), sg.PodGroupName, "must specify one of: `podGroupName`"))
	} else {
		for _, msg := range nameIsDNSSubdomain(*sg.PodGroupName, false) {
			allErrs = append(allErrs, invalidAt(p.Child("podGroupName"), *sg.PodGroupName, msg))
		}
	}
	if len(spec.EvictionResponders) > 0 {
		allErrs = append(allErrs, forbiddenAt(p, "may not be set when evictionResponders is set").WithOrigin("dependentForbidden").MarkCoveredByDeclarative())
	}
	return allErrs
}

// maxEvictionResponders is upstream MaxPodEvictionResponders.
const maxEvictionResponders = 10

// validateEvictionResponders mirrors the declarative rules of spec.evictionResponders
// (k8s.io/kubernetes pkg/apis/core/v1 zz_generated.validations.go Validate_PodSpec,
// Validate_EvictionResponder and their custom functions in validation.go). They are
// standard rules, always enforced; the server appends their errors after all the
// hand-written ones (k8s.io/apiserver pkg/registry/rest/validate.go).
//
// old is the stored spec on update, nil on create. As the generated code ratchets, an
// update that leaves the spec, the list, or a responder (matched by name) unchanged
// is not validated again, and neither is an unchanged name or priority.
//
// specPath is the path of the spec ("spec" for a pod, "spec.template.spec" in a
// workload, whose declarative rules reach the template's spec the same way).
func validateEvictionResponders(spec, old *corev1.PodSpec, specPath lpath) field.ErrorList {
	rs := spec.EvictionResponders
	if len(rs) == 0 {
		return nil
	}
	var olds []corev1.EvictionResponder
	if old != nil {
		if apidiff.Equal(spec, old) || apidiff.Equal(rs, old.EvictionResponders) {
			return nil
		}
		olds = old.EvictionResponders
	}
	return validateEvictionResponderList(rs, olds, specPath)
}

// validateEvictionResponderList is validateEvictionResponders on the list rs of a
// spec whose stored list is olds (nil on create), once an unchanged spec or list has
// been ruled out. The create path calls it directly: it takes no pointer to the spec,
// so that the pod being validated can stay off the heap.
func validateEvictionResponderList(rs, olds []corev1.EvictionResponder, specPath lpath) field.ErrorList {
	if len(rs) == 0 {
		return nil
	}
	p := specPath.Child("evictionResponders")
	if len(rs) > maxEvictionResponders {
		return field.ErrorList{shortCircuit(field.TooMany(p.P(), len(rs), maxEvictionResponders).WithOrigin("maxItems"))}
	}
	var allErrs field.ErrorList
	// Each later entry with a name seen before is a duplicate; the bad value is the
	// whole (v1) entry, as the rules run on the v1 object.
	for j := 1; j < len(rs); j++ {
		for i := 0; i < j; i++ {
			if rs[i].Name == rs[j].Name {
				allErrs = append(allErrs, duplicateAt(p.Index(j), rs[j]))
				break
			}
		}
	}
	for i := range rs {
		r := &rs[i]
		var prev *corev1.EvictionResponder
		for k := range olds {
			if olds[k].Name == r.Name {
				prev = &olds[k]
				break
			}
		}
		if prev != nil && apidiff.Equal(r, prev) {
			continue
		}
		allErrs = append(allErrs, validateEvictionResponder(r, prev, p.Index(i))...)
	}
	return allErrs
}

// validateEvictionResponder mirrors Validate_EvictionResponder. prev is the stored
// responder of the same name, if any: its name is then the same and not checked.
func validateEvictionResponder(r, prev *corev1.EvictionResponder, p lpath) field.ErrorList {
	var allErrs field.ErrorList
	if prev == nil {
		np := p.Child("name")
		if r.Name == "" {
			allErrs = append(allErrs, shortCircuit(requiredAt(np, "")))
		} else {
			allErrs = append(allErrs, reservedDomainErrs(r.Name, np)...)
			for _, msg := range content.IsPrefixedLabelKey(r.Name) {
				allErrs = append(allErrs, invalidAt(np, r.Name, msg).WithOrigin("format=k8s-prefixed-label-key"))
			}
		}
	}
	if prev != nil && (r.Priority == prev.Priority || r.Priority != nil && prev.Priority != nil && *r.Priority == *prev.Priority) {
		return allErrs
	}
	pp := p.Child("priority")
	if r.Priority == nil {
		return append(allErrs, shortCircuit(requiredAt(pp, "")))
	}
	v := *r.Priority
	if v >= 0 && v < 1000 {
		allErrs = append(allErrs, invalidAt(pp, v, "priorities 0-999 are reserved for responders with *.k8s.io suffix"))
	}
	if v > 100000 {
		allErrs = append(allErrs, invalidAt(pp, v, content.MaxError(int32(100000))).WithOrigin("maximum"))
	}
	if v < 0 {
		allErrs = append(allErrs, invalidAt(pp, v, content.MinError(int32(0))).WithOrigin("minimum"))
	}
	return allErrs
}

// reservedDomainErrs mirrors upstream ValidateForbiddenReservedDomainSuffixes for the
// suffixes .k8s.io and .kubernetes.io: the domain part of the name (before any "/"),
// lower-cased, trimmed of spaces and trailing dots, may not be or end in them.
func reservedDomainErrs(name string, p lpath) field.ErrorList {
	domain, _, _ := strings.Cut(name, "/")
	domain = strings.TrimRight(strings.TrimSpace(strings.ToLower(domain)), ".")
	for _, suffix := range [...]string{".k8s.io", ".kubernetes.io"} {
		if strings.HasSuffix(domain, suffix) || domain == suffix[1:] {
			return field.ErrorList{invalidAt(p, name, "domain names *.k8s.io, *.kubernetes.io are reserved")}
		}
	}
	return nil
}

// shortCircuit marks e as a declarative rule marks an error that stops the field's
// other rules.
func shortCircuit(e *field.Error) *field.Error {
	e.ShortCircuit = true
	return e
}
