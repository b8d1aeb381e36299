package validation

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/podlife/podlife"
)

// ValidatePodUpdate returns the errors the Kubernetes v1.37.2 API server reports when
// a client replaces the stored oldPod by newPod (PUT, or the object a PATCH produces).
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
// As upstream, the new object must carry metadata.resourceVersion. The detail of the
// generic Forbidden error at "spec" ("pod updates may not change fields other than
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
	pod, old := prepareForUpdate(newPod, oldPod, opts)
	o := resolveOptions(opts, pod, old)
	o.resourceIsPod = true
	// rest.ValidateUpdate checks the metadata every object has before the strategy
	// runs (validateCommonFields); what both report is kept once, in the first place.
	metaPath := newPath("metadata")
	errs := validateGenericObjectMeta(&pod.ObjectMeta, true, pathSegmentName, metaPath)
	errs = append(errs, apimachineryvalidation.ValidateObjectMetaUpdate(&pod.ObjectMeta, &old.ObjectMeta, metaPath.P())...)
	errs = append(errs, sortMapRuns(validatePodUpdate(pod, old, o), "metadata.labels", "metadata.annotations")...)
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
		if opts.Features.Enabled("PodLevelResourcesFixDefaulting") && pod.Spec.Resources == nil && old.Spec.Resources != nil {
			pod.Spec.Resources = old.Spec.Resources.DeepCopy()
		}
		if !semanticEqual(&pod.Spec, &old.Spec) {
			pod.Generation++
		}
	} else {
		d := podlife.DefaultOptions{Features: opts.Features}
		// The stored object gets only the decoder's defaults: updating it to itself
		// drops nothing (whatever it has is in use) and keeps its status.
		old = podlife.DefaultForUpdate(oldPod, oldPod, d)
		old.Generation = oldPod.Generation
		// The decoder's defaults, rest.BeforeUpdate's generation, PrepareForUpdate.
		pod = podlife.DefaultForUpdate(newPod, old, d)
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

	if semanticEqual(&pod.Spec, &old.Spec) {
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
		if !semanticEqual(munged.NodeSelector, old.Spec.NodeSelector) {
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
		if !semanticEqual(oldNA, newNA) {
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

	if !semanticEqual(&munged, &old.Spec) {
		allErrs = append(allErrs, field.Forbidden(specPath, "pod updates may not change fields other than "+updatableFields+"\n"+specDiff(&old.Spec, &munged)))
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
		return field.ErrorList{field.Invalid(termsPath, terms, "no additions/deletions to non-empty NodeSelectorTerms list are allowed")}
	}
	var allErrs field.ErrorList
	for i := range oldTerms {
		if !termHasOnlyAdditions(terms[i], oldTerms[i]) {
			allErrs = append(allErrs, field.Invalid(termsPath.Index(i), terms[i], "only additions are allowed (no mutations or deletions)"))
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
		if len(term.MatchExpressions) < l || !semanticEqual(term.MatchExpressions[:l], old.MatchExpressions) {
			return false
		}
	}
	if l := len(old.MatchFields); l > 0 {
		if len(term.MatchFields) < l || !semanticEqual(term.MatchFields[:l], old.MatchFields) {
			return false
		}
	}
	return true
}

// semanticEqual is k8s.io/apimachinery's equality.Semantic.DeepEqual for API values:
// quantities compare by value, times by instant, and a nil slice or map equals an
// empty one. It avoids the per-field allocations of the generic version.
func semanticEqual(a, b any) bool {
	return semanticValues(reflect.ValueOf(a), reflect.ValueOf(b))
}

var (
	quantityType = reflect.TypeOf(resource.Quantity{})
	timeType     = reflect.TypeOf(metav1.Time{})
)

func semanticValues(a, b reflect.Value) bool {
	if !a.IsValid() || !b.IsValid() {
		return a.IsValid() == b.IsValid()
	}
	if a.Type() != b.Type() {
		return false
	}
	switch a.Type() {
	case quantityType:
		qa, qb := a.Interface().(resource.Quantity), b.Interface().(resource.Quantity)
		return qa.Cmp(qb) == 0
	case timeType:
		return a.Interface().(metav1.Time).UTC() == b.Interface().(metav1.Time).UTC()
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		if a.Kind() == reflect.Pointer && a.UnsafePointer() == b.UnsafePointer() {
			return true
		}
		return semanticValues(a.Elem(), b.Elem())
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if !semanticValues(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Slice, reflect.Array:
		if a.Len() != b.Len() {
			return false
		}
		for i := 0; i < a.Len(); i++ {
			if !semanticValues(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.Len() != b.Len() {
			return false
		}
		it := a.MapRange()
		for it.Next() {
			bv := b.MapIndex(it.Key())
			if !bv.IsValid() || !semanticValues(it.Value(), bv) {
				return false
			}
		}
		return true
	case reflect.String:
		return a.String() == b.String()
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return a.Uint() == b.Uint()
	case reflect.Float32, reflect.Float64:
		return a.Float() == b.Float()
	}
	// Kinds API types do not use (chan, func, complex): fall back to reflection.
	return reflect.DeepEqual(a.Interface(), b.Interface())
}

// specDiff renders the difference between two specs as k8s.io/apimachinery
// pkg/util/diff.Diff does for upstream's internal PodSpec: a unified diff (three lines of
// context, no file header) of their JSON indented by one space. The internal types
// carry no JSON tags, so every field is printed under its Go name; in v1.37.2 they
// have the v1 types' fields in the v1 order, which lets the v1 spec stand in for them.
func specDiff(a, b *corev1.PodSpec) string {
	aj, errA := internalJSON(reflect.ValueOf(a).Elem())
	bj, errB := internalJSON(reflect.ValueOf(b).Elem())
	if errA != nil || errB != nil {
		return ""
	}
	return unifiedDiff(splitLines(aj), splitLines(bj), 3)
}

// coreV1 is the package whose types stand in for upstream's tagless internal types.
var coreV1 = reflect.TypeOf(corev1.Pod{}).PkgPath()

// internalJSON renders v as encoding/json.MarshalIndent(v, "", " ") renders the
// internal type v stands for.
func internalJSON(v reflect.Value) (string, error) {
	var compact bytes.Buffer
	if err := writeInternal(&compact, v); err != nil {
		return "", err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, compact.Bytes(), "", " "); err != nil {
		return "", err
	}
	return out.String(), nil
}

// writeInternal writes v as compact JSON: structs of package core/v1 with every field
// under its Go name (embedded structs promoted), everything else as encoding/json
// writes it.
func writeInternal(buf *bytes.Buffer, v reflect.Value) error {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			buf.WriteString("null")
			return nil
		}
		return writeInternal(buf, v.Elem())
	case reflect.Struct:
		if v.Type().PkgPath() != coreV1 {
			return writeJSON(buf, v)
		}
		buf.WriteByte('{')
		first := true
		if err := writeFields(buf, v, &first); err != nil {
			return err
		}
		buf.WriteByte('}')
		return nil
	case reflect.Slice:
		if v.IsNil() {
			buf.WriteString("null")
			return nil
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return writeJSON(buf, v)
		}
		buf.WriteByte('[')
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := writeInternal(buf, v.Index(i)); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
		return nil
	case reflect.Map:
		if v.IsNil() {
			buf.WriteString("null")
			return nil
		}
		keys := v.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
		buf.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := writeJSON(buf, reflect.ValueOf(k.String())); err != nil {
				return err
			}
			buf.WriteByte(':')
			if err := writeInternal(buf, v.MapIndex(k)); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
		return nil
	}
	return writeJSON(buf, v)
}

// writeFields writes the fields of a core/v1 struct, promoting embedded structs as
// encoding/json does for untagged embedded fields.
func writeFields(buf *bytes.Buffer, v reflect.Value, first *bool) error {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		fv := v.Field(i)
		if f.Anonymous {
			if fv.Kind() == reflect.Pointer {
				if fv.IsNil() {
					continue
				}
				fv = fv.Elem()
			}
			if fv.Kind() == reflect.Struct {
				if err := writeFields(buf, fv, first); err != nil {
					return err
				}
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if !*first {
			buf.WriteByte(',')
		}
		*first = false
		buf.WriteString(strconv.Quote(f.Name))
		buf.WriteByte(':')
		if err := writeInternal(buf, fv); err != nil {
			return err
		}
	}
	return nil
}

func writeJSON(buf *bytes.Buffer, v reflect.Value) error {
	b, err := json.Marshal(v.Interface())
	if err != nil {
		return err
	}
	buf.Write(b)
	return nil
}

// splitLines splits s after each newline and terminates the last line, as difflib does.
func splitLines(s string) []string {
	lines := strings.SplitAfter(s, "\n")
	lines[len(lines)-1] += "\n"
	return lines
}

// opcode is a difflib opcode: lines a[i1:i2] become b[j1:j2].
type opcode struct {
	tag            byte // 'e'qual, 'r'eplace, 'd'elete, 'i'nsert
	i1, i2, j1, j2 int
}

// maxDiffLines bounds the line matching, which is quadratic at worst; past it the
// differing part is shown as one replacement of everything between the common prefix
// and suffix.
const maxDiffLines = 20000

// matcher finds matching blocks the way difflib's SequenceMatcher does (without a junk
// function, with its "popular line" heuristic): the longest matching block first, then
// recursively on either side.
type matcher struct {
	a, b []string
	b2j  map[string][]int
}

func newMatcher(a, b []string) *matcher {
	m := &matcher{a: a, b: b, b2j: make(map[string][]int)}
	for j, l := range b {
		m.b2j[l] = append(m.b2j[l], j)
	}
	if n := len(b); n >= 200 {
		// Lines more common than 1% of b are not used to anchor a match.
		limit := n/100 + 1
		for l, idx := range m.b2j {
			if len(idx) > limit {
				delete(m.b2j, l)
			}
		}
	}
	return m
}

// longest returns the longest matching block in a[alo:ahi], b[blo:bhi], earliest in a
// then in b, extended over lines the heuristic ignored.
func (m *matcher) longest(alo, ahi, blo, bhi int) (int, int, int) {
	besti, bestj, best := alo, blo, 0
	j2len := map[int]int{}
	for i := alo; i < ahi; i++ {
		next := map[int]int{}
		for _, j := range m.b2j[m.a[i]] {
			if j < blo {
				continue
			}
			if j >= bhi {
				break
			}
			k := j2len[j-1] + 1
			next[j] = k
			if k > best {
				besti, bestj, best = i-k+1, j-k+1, k
			}
		}
		j2len = next
	}
	for besti > alo && bestj > blo && m.a[besti-1] == m.b[bestj-1] {
		besti, bestj, best = besti-1, bestj-1, best+1
	}
	for besti+best < ahi && bestj+best < bhi && m.a[besti+best] == m.b[bestj+best] {
		best++
	}
	return besti, bestj, best
}

// blocks appends the matching blocks of a[alo:ahi], b[blo:bhi] in order.
func (m *matcher) blocks(alo, ahi, blo, bhi int, out [][3]int) [][3]int {
	i, j, k := m.longest(alo, ahi, blo, bhi)
	if k == 0 {
		return out
	}
	if alo < i && blo < j {
		out = m.blocks(alo, i, blo, j, out)
	}
	out = append(out, [3]int{i, j, k})
	if i+k < ahi && j+k < bhi {
		out = m.blocks(i+k, ahi, j+k, bhi, out)
	}
	return out
}

// opcodes returns difflib's opcodes turning a into b.
func opcodes(a, b []string) []opcode {
	var matched [][3]int
	if len(a)+len(b) <= maxDiffLines {
		matched = newMatcher(a, b).blocks(0, len(a), 0, len(b), nil)
	} else {
		matched = prefixSuffixBlocks(a, b)
	}
	// Merge adjacent blocks, then add the sentinel.
	var merged [][3]int
	for _, blk := range matched {
		if n := len(merged); n > 0 && merged[n-1][0]+merged[n-1][2] == blk[0] && merged[n-1][1]+merged[n-1][2] == blk[1] {
			merged[n-1][2] += blk[2]
			continue
		}
		merged = append(merged, blk)
	}
	merged = append(merged, [3]int{len(a), len(b), 0})
	var codes []opcode
	i, j := 0, 0
	for _, blk := range merged {
		ai, bj, size := blk[0], blk[1], blk[2]
		switch {
		case i < ai && j < bj:
			codes = append(codes, opcode{'r', i, ai, j, bj})
		case i < ai:
			codes = append(codes, opcode{'d', i, ai, j, bj})
		case j < bj:
			codes = append(codes, opcode{'i', i, ai, j, bj})
		}
		i, j = ai+size, bj+size
		if size > 0 {
			codes = append(codes, opcode{'e', ai, i, bj, j})
		}
	}
	return codes
}

// prefixSuffixBlocks matches only the common prefix and suffix, in linear time.
func prefixSuffixBlocks(a, b []string) [][3]int {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var out [][3]int
	if pre > 0 {
		out = append(out, [3]int{0, 0, pre})
	}
	if suf > 0 {
		out = append(out, [3]int{len(a) - suf, len(b) - suf, suf})
	}
	return out
}

// unifiedDiff formats the hunks of a and b with n lines of context, as difflib's
// WriteUnifiedDiff does without file names.
func unifiedDiff(a, b []string, n int) string {
	codes := opcodes(a, b)
	if len(codes) == 0 {
		codes = []opcode{{'e', 0, 1, 0, 1}}
	}
	if c := &codes[0]; c.tag == 'e' {
		c.i1, c.j1 = max(c.i1, c.i2-n), max(c.j1, c.j2-n)
	}
	if c := &codes[len(codes)-1]; c.tag == 'e' {
		c.i2, c.j2 = min(c.i2, c.i1+n), min(c.j2, c.j1+n)
	}
	var groups [][]opcode
	var group []opcode
	for _, c := range codes {
		if c.tag == 'e' && c.i2-c.i1 > 2*n {
			group = append(group, opcode{'e', c.i1, min(c.i2, c.i1+n), c.j1, min(c.j2, c.j1+n)})
			groups = append(groups, group)
			group = nil
			c.i1, c.j1 = max(c.i1, c.i2-n), max(c.j1, c.j2-n)
		}
		group = append(group, c)
	}
	if len(group) > 0 && !(len(group) == 1 && group[0].tag == 'e') {
		groups = append(groups, group)
	}
	var sb strings.Builder
	for _, g := range groups {
		first, last := g[0], g[len(g)-1]
		fmt.Fprintf(&sb, "@@ -%s +%s @@\n", unifiedRange(first.i1, last.i2), unifiedRange(first.j1, last.j2))
		for _, c := range g {
			if c.tag == 'e' {
				for _, l := range a[c.i1:c.i2] {
					sb.WriteString(" " + l)
				}
				continue
			}
			for _, l := range a[c.i1:c.i2] {
				sb.WriteString("-" + l)
			}
			for _, l := range b[c.j1:c.j2] {
				sb.WriteString("+" + l)
			}
		}
	}
	return sb.String()
}

func unifiedRange(start, stop int) string {
	begin, length := start+1, stop-start
	if length == 1 {
		return fmt.Sprintf("%d", begin)
	}
	if length == 0 {
		begin--
	}
	return fmt.Sprintf("%d,%d", begin, length)
}
