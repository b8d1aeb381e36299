package validation

import (
	"fmt"
	"math"
	"reflect"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/podlife/podlife/internal/apidiff"
	"github.com/podlife/podlife/internal/defaulting"
)

// ValidatePodUpdate returns the errors the Kubernetes v1.37.2 API server reports when
// a client replaces the stored oldPod by newPod (PUT, or the object a PATCH produces).
//
// The request is PUT /api/v1/namespaces/NS/pods/NAME, NS and NAME being oldPod's. The
// server refuses it before validation when newPod names another namespace or another
// pod (400 Bad Request), carries another uid or a stale resourceVersion (409
// Conflict), or a resourceVersion that is not a number (500); ValidatePodUpdate then
// returns that refusal alone, as one error that RefusalOf recognises (see Refusal).
// A newPod without namespace takes oldPod's, and one without resourceVersion (or with
// "0") takes oldPod's, as pods allow unconditional updates. A stored pod always has a
// name, namespace, uid and resourceVersion; where oldPod lacks one, the check that
// needs it is skipped.
//
// Both objects are first defaulted as the server's decoder does (the v1 object
// defaults; oldPod is taken as stored, so nothing is dropped from it), then the pod
// registry's update path runs on private copies (podlife.DefaultForUpdate): the
// metadata rest.BeforeUpdate carries over (generation, uid, creationTimestamp,
// deletion fields; k8s.io/apiserver pkg/registry/rest/update.go), PrepareForUpdate
// (status kept from oldPod, pod-level resources restored when the client dropped them,
// fields of disabled feature gates dropped unless oldPod uses them, generation bumped
// when the spec changes; k8s.io/kubernetes pkg/registry/core/pod/strategy.go), and
// ValidatePodUpdate (k8s.io/kubernetes pkg/apis/core/validation/validation.go) with
// options derived from both objects. With Options.SkipDefaulting the objects are
// validated as given, after the same metadata and status carry-over.
//
// As rest.ValidateUpdate (k8s.io/apiserver pkg/registry/rest/update.go), the
// metadata checks every object gets come first (apimachinery's ObjectMeta rules with
// names that must fit in a URL path segment, then its ObjectMetaUpdate rules), and
// the result keeps one error per message, as declarative validation's filter does.
//
// The detail of the generic Forbidden error at "spec" ("pod updates may not change fields other than
// ...") ends, as upstream's, in a unified diff of the JSON of the old and new specs as
// the internal API types print (Go field names, every field).
//
// The stored object is taken as the server reads it back, with the decoder's defaults:
// a negative terminationGracePeriodSeconds in oldPod therefore reads as 1, and the
// upstream allowance for setting it to 1 from a negative value only shows with
// Options.SkipDefaulting.
//
// The inputs are never modified. A nil pod is treated as an empty one.
func ValidatePodUpdate(newPod, oldPod *corev1.Pod, opts Options) field.ErrorList {
	return podUpdate(newPod, oldPod, opts, nil)
}

// podUpdate is ValidatePodUpdate recording the server's warnings in w.
func podUpdate(newPod, oldPod *corev1.Pod, opts Options, w *warningRecorder) field.ErrorList {
	if newPod == nil {
		newPod = &corev1.Pod{}
	}
	if oldPod == nil {
		oldPod = &corev1.Pod{}
	}
	refs := newPod.OwnerReferences
	refused, ns, rv := refuseUpdate(&newPod.ObjectMeta, &oldPod.ObjectMeta, podsResource, &refs, w, opts.patch)
	if refused != nil {
		return refused
	}
	if ns != newPod.Namespace || rv != newPod.ResourceVersion || len(refs) != len(newPod.OwnerReferences) {
		cp := *newPod
		cp.Namespace, cp.ResourceVersion, cp.OwnerReferences = ns, rv, refs
		newPod = &cp
	}
	pod, old := prepareForUpdate(newPod, oldPod, opts)
	o := resolveOptions(opts, pod, old)
	o.resourceIsPod = true
	// rest.ValidateUpdate checks the metadata every object has before the strategy
	// runs (validateCommonFields); what both report is kept once, in the first place.
	metaPath := newPath("metadata")
	errs := validateGenericObjectMeta(&pod.ObjectMeta, true, pathSegmentName, metaPath)
	errs = append(errs, apimachineryvalidation.ValidateObjectMetaUpdate(&pod.ObjectMeta, &old.ObjectMeta, metaPath.P())...)
	errs = append(errs, sortMapRuns(validatePodUpdate(pod, old, o), "metadata.labels", "metadata.annotations")...)
	errs = append(errs, validateEvictionResponders(&pod.Spec, &old.Spec, newPath("spec"))...)
	return dedupe(errs)
}

// sortMapRuns puts each run of consecutive errors at one of the given fields in a
// fixed order. apimachinery's label and annotation validation ranges over the maps,
// so upstream reports those errors in random order; podlife reports them sorted by
// type, bad value and detail.
func sortMapRuns(errs field.ErrorList, fields ...string) field.ErrorList {
	in := func(e *field.Error) bool {
		for _, f := range fields {
			if e.Field == f {
				return true
			}
		}
		return false
	}
	for i := 0; i < len(errs); {
		if !in(errs[i]) {
			i++
			continue
		}
		j := i + 1
		for j < len(errs) && errs[j].Field == errs[i].Field {
			j++
		}
		run := errs[i:j]
		sort.SliceStable(run, func(a, b int) bool {
			ea, eb := run[a], run[b]
			if ea.Type != eb.Type {
				return ea.Type < eb.Type
			}
			if va, vb := fmt.Sprint(ea.BadValue), fmt.Sprint(eb.BadValue); va != vb {
				return va < vb
			}
			return ea.Detail < eb.Detail
		})
		i = j
	}
	return errs
}

// prepareForUpdate returns private copies of the new and old pods as the server holds
// them just before ValidateUpdate.
func prepareForUpdate(newPod, oldPod *corev1.Pod, opts Options) (pod, old *corev1.Pod) {
	if newPod == nil {
		newPod = &corev1.Pod{}
	}
	if oldPod == nil {
		oldPod = &corev1.Pod{}
	}
	if opts.SkipDefaulting {
		pod, old = newPod.DeepCopy(), oldPod.DeepCopy()
		// rest.BeforeUpdate then PrepareForUpdate, without defaulting or dropping.
		pod.Generation = old.Generation
		pod.Status = *old.Status.DeepCopy()
		if opts.Features.Resolve().PodLevelResourcesFixDefaulting && pod.Spec.Resources == nil && old.Spec.Resources != nil {
			pod.Spec.Resources = old.Spec.Resources.DeepCopy()
		}
		if !apidiff.Equal(&pod.Spec, &old.Spec) {
			pod.Generation++
		}
	} else {
		d := defaulting.Options{Features: opts.Features}
		// The stored object gets only the decoder's defaults: updating it to itself
		// drops nothing (whatever it has is in use) and keeps its status.
		old = defaulting.PodForUpdate(oldPod, oldPod, d)
		old.Generation = oldPod.Generation
		// The decoder's defaults, rest.BeforeUpdate's generation, PrepareForUpdate.
		pod = defaulting.PodForUpdate(newPod, old, d)
	}

	// rest.BeforeUpdate, after the strategy.
	if pod.UID == "" {
		pod.UID = old.UID
	}
	if !old.CreationTimestamp.IsZero() {
		pod.CreationTimestamp = old.CreationTimestamp
	}
	if !old.DeletionTimestamp.IsZero() {
		pod.DeletionTimestamp = old.DeletionTimestamp.DeepCopy()
	}
	if old.DeletionGracePeriodSeconds != nil && pod.DeletionGracePeriodSeconds == nil {
		s := *old.DeletionGracePeriodSeconds
		pod.DeletionGracePeriodSeconds = &s
	}
	return pod, old
}

// updatableFields lists, in upstream's order, what a pod update may change.
var updatableFields = strings.Join([]string{
	"`spec.containers[*].image`",
	"`spec.initContainers[*].image`",
	"`spec.activeDeadlineSeconds`",
	"`spec.tolerations` (only additions to existing tolerations)",
	"`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)",
}, ",")

// validatePodUpdate mirrors upstream ValidatePodUpdate on prepared objects.
func validatePodUpdate(pod, old *corev1.Pod, o podValidationOptions) field.ErrorList {
	metaPath := field.NewPath("metadata")
	allErrs := validateObjectMetaUpdate(&pod.ObjectMeta, &old.ObjectMeta, metaPath)
	allErrs = append(allErrs, validatePodMetadataAndSpec(pod, o)...)
	allErrs = append(allErrs, validatePodSpecificAnnotationUpdates(pod, old, metaPath.Child("annotations"), o)...)
	specPath := field.NewPath("spec")

	errs, stop := validateContainerUpdates(pod.Spec.Containers, old.Spec.Containers, specPath.Child("containers"))
	allErrs = append(allErrs, errs...)
	if stop {
		return allErrs
	}
	errs, stop = validateContainerUpdates(pod.Spec.InitContainers, old.Spec.InitContainers, specPath.Child("initContainers"))
	allErrs = append(allErrs, errs...)
	if stop {
		return allErrs
	}

	// Only nil → value and value → smaller non-negative value.
	adsPath := specPath.Child("activeDeadlineSeconds")
	if ads := pod.Spec.ActiveDeadlineSeconds; ads != nil {
		if *ads < 0 || *ads > math.MaxInt32 {
			return append(allErrs, field.Invalid(adsPath, *ads, fmt.Sprintf("must be between %d and %d, inclusive", 0, math.MaxInt32)))
		}
		if prev := old.Spec.ActiveDeadlineSeconds; prev != nil && *prev < *ads {
			return append(allErrs, field.Invalid(adsPath, *ads, "must be less than or equal to previous value"))
		}
	} else if old.Spec.ActiveDeadlineSeconds != nil {
		allErrs = append(allErrs, field.Invalid(adsPath, pod.Spec.ActiveDeadlineSeconds, "must not update from a positive integer to nil value"))
	}

	allErrs = append(allErrs, validateOnlyAddedTolerations(pod.Spec.Tolerations, old.Spec.Tolerations, specPath.Child("tolerations"), &o)...)
	allErrs = append(allErrs, validateOnlyDeletedSchedulingGates(pod.Spec.SchedulingGates, old.Spec.SchedulingGates, specPath.Child("schedulingGates"))...)

	if apidiff.Equal(&pod.Spec, &old.Spec) {
		return allErrs
	}

	// Copy the updatable fields from the old spec; whatever still differs is forbidden.
	munged := *pod.Spec.DeepCopy()
	for i := range munged.Containers {
		munged.Containers[i].Image = old.Spec.Containers[i].Image
	}
	for i := range munged.InitContainers {
		munged.InitContainers[i].Image = old.Spec.InitContainers[i].Image
	}
	munged.ActiveDeadlineSeconds = nil
	if old.Spec.ActiveDeadlineSeconds != nil {
		v := *old.Spec.ActiveDeadlineSeconds
		munged.ActiveDeadlineSeconds = &v
	}
	munged.SchedulingGates = old.Spec.SchedulingGates
	munged.Tolerations = old.Spec.Tolerations
	if g := old.Spec.TerminationGracePeriodSeconds; g != nil && *g < 0 &&
		munged.TerminationGracePeriodSeconds != nil && *munged.TerminationGracePeriodSeconds == 1 {
		munged.TerminationGracePeriodSeconds = g
	}

	// Gated pods may gain node selectors and node affinity requirements.
	if len(old.Spec.SchedulingGates) > 0 {
		if !apidiff.Equal(munged.NodeSelector, old.Spec.NodeSelector) {
			allErrs = append(allErrs, validateNodeSelectorMutation(specPath.Child("nodeSelector"), munged.NodeSelector, old.Spec.NodeSelector)...)
			munged.NodeSelector = old.Spec.NodeSelector
		}
		var oldNA, newNA *corev1.NodeAffinity
		if old.Spec.Affinity != nil {
			oldNA = old.Spec.Affinity.NodeAffinity
		}
		if munged.Affinity != nil {
			newNA = munged.Affinity.NodeAffinity
		}
		if !apidiff.Equal(oldNA, newNA) {
			allErrs = append(allErrs, validateNodeAffinityMutation(specPath.Child("affinity", "nodeAffinity"), newNA, oldNA)...)
			switch {
			case munged.Affinity == nil && oldNA == nil:
			case munged.Affinity == nil:
				munged.Affinity = &corev1.Affinity{NodeAffinity: oldNA}
			case old.Spec.Affinity == nil && munged.Affinity.PodAntiAffinity == nil && munged.Affinity.PodAffinity == nil:
				munged.Affinity = nil
			default:
				munged.Affinity.NodeAffinity = oldNA
			}
		}
	}

	if !apidiff.Equal(&munged, &old.Spec) {
		allErrs = append(allErrs, field.Forbidden(specPath, "pod updates may not change fields other than "+updatableFields+"\n"+apidiff.PodSpec(&old.Spec, &munged)))
	}
	return allErrs
}

// validateObjectMetaUpdate mirrors k8s.io/kubernetes ValidateObjectMetaUpdate:
// apimachinery's update rules plus the Kubernetes finalizer-name rule.
func validateObjectMetaUpdate(newMeta, oldMeta *metav1.ObjectMeta, fldPath *field.Path) field.ErrorList {
	allErrs := apimachineryvalidation.ValidateObjectMetaUpdate(newMeta, oldMeta, fldPath)
	for i, f := range newMeta.Finalizers {
		if !strings.Contains(f, "/") && !isStandardFinalizer(f) {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("finalizers").Index(i), f, "name is neither a standard finalizer name nor is it fully qualified"))
		}
	}
	return allErrs
}

const (
	mirrorPodAnnotation     = "kubernetes.io/config.mirror"
	appArmorAnnotationStart = "container.apparmor.security.beta.kubernetes.io/"
)

// validatePodSpecificAnnotationUpdates mirrors upstream
// ValidatePodSpecificAnnotationUpdates: AppArmor and mirror-pod annotations are
// immutable, then the pod-specific annotation rules apply to the new set. Keys are
// visited in sorted order (upstream ranges over maps).
func validatePodSpecificAnnotationUpdates(pod, old *corev1.Pod, fldPath *field.Path, o podValidationOptions) field.ErrorList {
	var allErrs field.ErrorList
	for _, k := range sortedKeys(old.Annotations) {
		if v, ok := pod.Annotations[k]; ok && v == old.Annotations[k] {
			continue
		}
		if strings.HasPrefix(k, appArmorAnnotationStart) {
			allErrs = append(allErrs, field.Forbidden(fldPath.Key(k), "may not remove or update AppArmor annotations"))
		}
		if k == mirrorPodAnnotation {
			allErrs = append(allErrs, field.Forbidden(fldPath.Key(k), "may not remove or update mirror pod annotation"))
		}
	}
	for _, k := range sortedKeys(pod.Annotations) {
		if _, ok := old.Annotations[k]; ok {
			continue
		}
		if strings.HasPrefix(k, appArmorAnnotationStart) {
			allErrs = append(allErrs, field.Forbidden(fldPath.Key(k), "may not add AppArmor annotations"))
		}
		if k == mirrorPodAnnotation {
			allErrs = append(allErrs, field.Forbidden(fldPath.Key(k), "may not add mirror pod annotation"))
		}
	}
	return append(allErrs, validatePodSpecificAnnotations(pod.Annotations, &pod.Spec, fldPath, &o)...)
}

// validateContainerUpdates mirrors upstream ValidateContainerUpdates: the container
// count is fixed (stop reports that validation ends there), and images are re-checked.
func validateContainerUpdates(containers, old []corev1.Container, fldPath *field.Path) (allErrs field.ErrorList, stop bool) {
	if len(containers) != len(old) {
		return field.ErrorList{field.Forbidden(fldPath, "pod updates may not add or remove containers")}, true
	}
	for i := range containers {
		img := containers[i].Image
		if img == "" {
			allErrs = append(allErrs, field.Required(fldPath.Index(i).Child("image"), ""))
		}
		if len(strings.TrimSpace(img)) != len(img) {
			allErrs = append(allErrs, field.Invalid(fldPath.Index(i).Child("image"), img, "must not have leading or trailing whitespace"))
		}
	}
	return allErrs, false
}

// validateOnlyAddedTolerations mirrors upstream validateOnlyAddedTolerations: every
// old toleration must still be there (its tolerationSeconds may change), then the new
// list is validated again.
func validateOnlyAddedTolerations(tolerations, old []corev1.Toleration, fldPath *field.Path, o *podValidationOptions) field.ErrorList {
	for _, ot := range old {
		found := false
		for _, nt := range tolerations {
			clone := *ot.DeepCopy()
			clone.TolerationSeconds = nt.TolerationSeconds
			if reflect.DeepEqual(clone, nt) {
				found = true
				break
			}
		}
		if !found {
			return field.ErrorList{field.Forbidden(fldPath, "existing toleration can not be modified except its tolerationSeconds")}
		}
	}
	return validateTolerations(tolerations, fldPath, o)
}

// validateOnlyDeletedSchedulingGates mirrors upstream
// validateOnlyDeletedSchedulingGates: a gate name the old pod lacks is forbidden,
// reported once at its last index. Upstream's order is a map's; ours is by index.
func validateOnlyDeletedSchedulingGates(gates, old []corev1.PodSchedulingGate, fldPath *field.Path) field.ErrorList {
	if len(gates) == 0 {
		return nil
	}
	last := make(map[string]int, len(gates))
	for i, g := range gates {
		last[g.Name] = i
	}
	for _, g := range old {
		delete(last, g.Name)
	}
	added := make([]int, 0, len(last))
	for _, i := range last {
		added = append(added, i)
	}
	sort.Ints(added)
	var allErrs field.ErrorList
	for _, i := range added {
		allErrs = append(allErrs, field.Forbidden(fldPath.Index(i).Child("name"), fmt.Sprintf("only deletion is allowed, but found new scheduling gate '%s'", gates[i].Name)))
	}
	return allErrs
}

// validateNodeSelectorMutation mirrors upstream: a gated pod's node selector may only
// gain entries.
func validateNodeSelectorMutation(fldPath *field.Path, selector, old map[string]string) field.ErrorList {
	for k, v := range old {
		if nv, ok := selector[k]; !ok || nv != v {
			return field.ErrorList{field.Invalid(fldPath, selector, "only additions to spec.nodeSelector are allowed (no mutations or deletions)")}
		}
	}
	return nil
}

// validateNodeAffinityMutation mirrors upstream: a gated pod's required node
// affinity terms may only gain requirements.
func validateNodeAffinityMutation(path *field.Path, na, old *corev1.NodeAffinity) field.ErrorList {
	if old == nil || old.RequiredDuringSchedulingIgnoredDuringExecution == nil {
		return nil
	}
	oldTerms := old.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms
	var terms []corev1.NodeSelectorTerm
	if na != nil && na.RequiredDuringSchedulingIgnoredDuringExecution != nil {
		terms = na.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms
	}
	termsPath := path.Child("requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms")
	if len(oldTerms) > 0 && len(oldTerms) != len(terms) {
		return field.ErrorList{field.Invalid(termsPath, InternalForm{terms}, "no additions/deletions to non-empty NodeSelectorTerms list are allowed")}
	}
	var allErrs field.ErrorList
	for i := range oldTerms {
		if !termHasOnlyAdditions(terms[i], oldTerms[i]) {
			allErrs = append(allErrs, field.Invalid(termsPath.Index(i), InternalForm{terms[i]}, "only additions are allowed (no mutations or deletions)"))
		}
	}
	return allErrs
}

func termHasOnlyAdditions(term, old corev1.NodeSelectorTerm) bool {
	if len(old.MatchExpressions) == 0 && len(old.MatchFields) == 0 &&
		(len(term.MatchExpressions) > 0 || len(term.MatchFields) > 0) {
		return false
	}
	if l := len(old.MatchExpressions); l > 0 {
		if len(term.MatchExpressions) < l || !apidiff.Equal(term.MatchExpressions[:l], old.MatchExpressions) {
			return false
		}
	}
	if l := len(old.MatchFields); l > 0 {
		if len(term.MatchFields) < l || !apidiff.Equal(term.MatchFields[:l], old.MatchFields) {
			return false
		}
	}
	return true
}
