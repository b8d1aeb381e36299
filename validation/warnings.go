package validation

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/podlife/podlife/internal/defaulting"
)

// CreateWarnings returns the warnings a Kubernetes v1.37.2 API server sends with its
// answer to a create of obj, for the kinds ValidateObjectCreate takes, in the order
// the server sends them; kubectl prints each after "Warning: ". They come from:
//
//   - the create handler (k8s.io/apiserver pkg/endpoints/handlers/create.go): owner
//     references listed twice, which the server drops before validating;
//   - a Pod's PrepareForCreate (pkg/registry/core/pod/strategy.go
//     applyAppArmorVersionSkew): deprecated AppArmor annotations;
//   - for an object the server accepts, the registry strategy's WarningsOnCreate:
//     names that are not DNS labels, and for the pod or template
//     (pkg/api/pod/warnings.go) deprecated node labels, annotations and volume
//     plugins, fractional byte quantities, duplicate environment variables, ports,
//     port names, host aliases and image pull secrets, overlapping volume paths,
//     null label selectors, a negative grace period and non-standard IP addresses.
//
// An object the server refuses gets only the warnings sent before it is validated;
// CreateWarnings validates obj to know (ValidateStream gives both answers at once).
// The list is what the response carries: the server's warning recorder sends each text
// once and keeps the response small (past 4 Ki characters in all, each warning is cut
// to 256 and the rest left out). Where upstream ranges over a map (deprecated node
// selector keys), the order is the map's keys sorted. Other types get no warnings.
// The input is never modified.
func CreateWarnings(obj runtime.Object, opts Options) []string {
	var w warningRecorder
	validateObjectCreate(obj, opts, &w)
	return w.out
}

// UpdateWarnings returns the warnings a Kubernetes v1.37.2 API server sends with its
// answer to an update of the stored oldObj to newObj (a PUT, or the object a PATCH
// produces), for the kinds ValidateObjectUpdate takes, in the order the server sends
// them. They come from:
//
//   - the update handler (k8s.io/apiserver pkg/endpoints/handlers/update.go): owner
//     references listed twice, dropped before the store is asked, so sent even when
//     the store then refuses the request (a stale resourceVersion, another uid) but
//     not when the handler does (another namespace or name);
//   - for an update the server accepts, the registry strategy's WarningsOnUpdate:
//     the pod template's warnings (see [CreateWarnings]; the job's for a Job or
//     CronJob) only when the update moves the object's generation on, that is when
//     the strategy's PrepareForUpdate finds the spec changed (for a DaemonSet, when
//     it moves spec.templateGeneration on, the template changed); a StatefulSet's
//     fractional claim sizes and negative revisionHistoryLimit, and a CronJob's
//     schedule holding "TZ" (which validation lets an update keep), on every update.
//
// Upstream quirks are kept: a ReplicationController's update warns about the stored
// template, not the new one (its strategy passes the two the other way round), a
// StatefulSet's claims are named "spec.volumeClaimTemplates[i].Spec" and the CronJob
// warning names the field "spec.spec.schedule". Pods get no warning beyond the
// handler's: the pod strategy skips them on updates. Names are not checked on update.
// Options.SkipDefaulting skips PrepareForUpdate, so the generation stays the stored
// one and no template warning is sent (a DaemonSet's templateGeneration is taken as
// given).
//
// As for CreateWarnings, UpdateWarnings validates the update to know whether the
// server accepts it, the recorder's limits apply and the inputs are never modified.
func UpdateWarnings(newObj, oldObj runtime.Object, opts Options) []string {
	var w warningRecorder
	validateObjectUpdate(newObj, oldObj, opts, &w)
	return w.out
}

// warningRecorder collects the warnings of one request as the server's warning
// recorder writes them into the response (k8s.io/apiserver pkg/endpoints/filters/
// warning.go): each text once and none empty; a text that is not valid UTF-8 or holds
// a control character has no Warning header and is left out. Once the warnings would
// pass 4 Ki runes in all, every warning is cut to 256 runes and those past 4 Ki of cut
// ones are left out. A nil recorder records nothing.
type warningRecorder struct {
	out []string
	// fields are, beside out, the field each warning is about when its text does
	// not start with it ("" otherwise), for ValidateStream to find its line.
	fields     []string
	ordered    []string
	orderedAt  []string
	seen       map[string]bool
	written    int
	truncating bool
	// compared counts the pairs of ports or volume paths compared, for the tests
	// that hold the work linear.
	compared int
}

// The warning recorder's limits (k8s.io/apiserver pkg/endpoints/filters/warning.go).
const (
	warningsTruncateAtTotalRunes = 4 * 1024
	warningsTruncateItemRunes    = 256
)

// full reports whether the recorder takes no more warnings: a caller may stop
// looking for them.
func (r *warningRecorder) full() bool {
	return r == nil || r.truncating && r.written >= warningsTruncateAtTotalRunes
}

// add records one warning.
func (r *warningRecorder) add(text string) { r.addAt("", text) }

// addAll records warnings in order (those the decoder found, say).
func (r *warningRecorder) addAll(texts []string) {
	for _, text := range texts {
		r.add(text)
	}
}

// addAt records one warning about field, whose path its text does not start with.
func (r *warningRecorder) addAt(field, text string) {
	if text == "" || r.full() || r.seen[text] {
		return
	}
	if r.seen == nil {
		r.seen = map[string]bool{}
	}
	r.seen[text] = true
	r.ordered, r.orderedAt = append(r.ordered, text), append(r.orderedAt, field)
	n := utf8.RuneCountInString(text)
	if r.truncating {
		text, n = cutWarning(text, n)
	}
	if !writableWarning(text) {
		return
	}
	if r.written+n <= warningsTruncateAtTotalRunes || r.truncating {
		r.written += n
		r.out, r.fields = append(r.out, text), append(r.fields, field)
		return
	}
	// Past the limit: start again with every warning so far cut.
	r.truncating, r.written, r.out, r.fields = true, 0, r.out[:0], r.fields[:0]
	for i, t := range r.ordered {
		t, n := cutWarning(t, utf8.RuneCountInString(t))
		if writableWarning(t) {
			r.written += n
			r.out, r.fields = append(r.out, t), append(r.fields, r.orderedAt[i])
		}
	}
}

// addf records a formatted warning, formatting it only when it can still be taken.
func (r *warningRecorder) addf(format string, args ...any) {
	if !r.full() {
		r.add(fmt.Sprintf(format, args...))
	}
}

// addfAt is addf for a warning about the field at (see addAt).
func (r *warningRecorder) addfAt(at lpath, format string, args ...any) {
	if !r.full() {
		r.addAt(at.String(), fmt.Sprintf(format, args...))
	}
}

// cutWarning cuts a warning of n runes to the recorder's 256.
func cutWarning(text string, n int) (string, int) {
	if n <= warningsTruncateItemRunes {
		return text, n
	}
	return string([]rune(text)[:warningsTruncateItemRunes]), warningsTruncateItemRunes
}

// writableWarning reports whether a Warning header can carry text
// (apimachinery util/net NewWarningHeader).
func writableWarning(text string) bool {
	return utf8.ValidString(text) && !strings.ContainsFunc(text, unicode.IsControl)
}

// recordWarnings returns the warnings a response carries when a request records texts
// in this order (warningRecorder).
func recordWarnings(texts []string) []string {
	var r warningRecorder
	for _, t := range texts {
		r.add(t)
	}
	return r.out
}

// ---- the create handler ----

// dedupOwnerReferences returns refs without the owner references that repeat an
// earlier one (the same UID and the same fields), as the create and update handlers
// drop them before anything else reads the object (handlers/rest.go
// dedupOwnerReferencesAndAddWarning), and records the server's warning naming their
// UIDs. It returns refs itself when none repeats.
func dedupOwnerReferences(refs []metav1.OwnerReference, w *warningRecorder) []metav1.OwnerReference {
	if len(refs) < 2 {
		return refs
	}
	var kept []metav1.OwnerReference
	var dups []string
	byUID := make(map[types.UID][]int, len(refs))
	for i := range refs {
		repeated := false
		for _, j := range byUID[refs[i].UID] {
			if sameOwnerReference(&refs[i], &kept[j]) {
				repeated = true
				break
			}
		}
		if repeated {
			dups = append(dups, string(refs[i].UID))
			continue
		}
		byUID[refs[i].UID] = append(byUID[refs[i].UID], len(kept))
		kept = append(kept, refs[i])
	}
	if len(dups) == 0 {
		return refs
	}
	w.addfAt(rootPath("metadata").Child("ownerReferences"), ".metadata.ownerReferences contains duplicate entries; API server dedups owner references in 1.20+, and may reject such requests as early as 1.24; please fix your requests; duplicate UID(s) observed: %v", strings.Join(dups, ", "))
	return kept
}

// sameOwnerReference is apiequality.Semantic.DeepEqual for owner references.
func sameOwnerReference(a, b *metav1.OwnerReference) bool {
	return a.APIVersion == b.APIVersion && a.Kind == b.Kind && a.Name == b.Name && a.UID == b.UID &&
		sameBoolPtr(a.Controller, b.Controller) && sameBoolPtr(a.BlockOwnerDeletion, b.BlockOwnerDeletion)
}

func sameBoolPtr(a, b *bool) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// ---- the registries' WarningsOnCreate ----

// dnsLabelNameWarning records the workload registries' warning on a name that is not a
// DNS label; what names the pod is the hostname of a Pod, and the pods of a workload.
func dnsLabelNameWarning(w *warningRecorder, name, usedIn string) {
	if w.full() {
		return
	}
	if validDNS1123Label(name) {
		return
	}
	if msgs := validation.IsDNS1123Label(name); len(msgs) != 0 {
		w.addf("metadata.name: this is used in %s, which can result in surprising behavior; a DNS label is recommended: %v", usedIn, msgs)
	}
}

const workloadNameUse = "Pod names and hostnames"

// objectWarnings records the registry's WarningsOnCreate for a prepared object the
// server accepts.
func objectWarnings(w *warningRecorder, obj runtime.Object) {
	if w.full() {
		return
	}
	spec := rootPath("spec")
	switch o := obj.(type) {
	case *corev1.Pod:
		dnsLabelNameWarning(w, o.Name, "the Pod's hostname")
		podSpecWarnings(w, lpath{}, false, &o.Spec, &o.ObjectMeta)
	case *corev1.PodTemplate:
		templateWarnings(w, rootPath("template"), &o.Template)
	case *corev1.ReplicationController:
		dnsLabelNameWarning(w, o.Name, workloadNameUse)
		templateWarnings(w, spec.Child("template"), o.Spec.Template)
	case *appsv1.Deployment:
		dnsLabelNameWarning(w, o.Name, workloadNameUse)
		templateWarnings(w, spec.Child("template"), &o.Spec.Template)
	case *appsv1.ReplicaSet:
		dnsLabelNameWarning(w, o.Name, workloadNameUse)
		templateWarnings(w, spec.Child("template"), &o.Spec.Template)
	case *appsv1.DaemonSet:
		templateWarnings(w, spec.Child("template"), &o.Spec.Template)
	case *appsv1.StatefulSet:
		templateWarnings(w, spec.Child("template"), &o.Spec.Template)
		statefulSetWarnings(w, &o.Spec, "")
	case *batchv1.Job:
		dnsLabelNameWarning(w, o.Name, workloadNameUse)
		jobSpecWarnings(w, spec, &o.Spec)
	case *batchv1.CronJob:
		dnsLabelNameWarning(w, o.Name, workloadNameUse)
		jobSpecWarnings(w, spec.Children("jobTemplate", "spec"), &o.Spec.JobTemplate.Spec)
	}
}

// updateWarnings records the registry's WarningsOnUpdate for the prepared objects obj
// and old of an update the server accepts. The template's warnings are sent only when
// templateChanged: the strategy's PrepareForUpdate moved the generation on (for a
// DaemonSet, spec.templateGeneration). The pod strategy sends none on updates.
func updateWarnings(w *warningRecorder, obj, old runtime.Object, templateChanged bool) {
	if w.full() {
		return
	}
	tmpl := func(p lpath, t *corev1.PodTemplateSpec) {
		if templateChanged {
			templateWarnings(w, p, t)
		}
	}
	spec := rootPath("spec")
	switch o := obj.(type) {
	case *corev1.PodTemplate:
		tmpl(rootPath("template"), &o.Template)
	case *corev1.ReplicationController:
		// Upstream hands GetWarningsForPodTemplate the stored template in place of
		// the new one (pkg/registry/core/replicationcontroller/strategy.go), so the
		// warnings are those of the template being replaced.
		tmpl(spec.Child("template"), old.(*corev1.ReplicationController).Spec.Template)
	case *appsv1.Deployment:
		tmpl(spec.Child("template"), &o.Spec.Template)
	case *appsv1.ReplicaSet:
		tmpl(spec.Child("template"), &o.Spec.Template)
	case *appsv1.DaemonSet:
		tmpl(spec.Child("template"), &o.Spec.Template)
	case *appsv1.StatefulSet:
		tmpl(spec.Child("template"), &o.Spec.Template)
		// The claims and the history limit warn on every update; upstream names a
		// claim's spec "spec.volumeClaimTemplates[0].Spec" there.
		statefulSetWarnings(w, &o.Spec, "Spec")
	case *batchv1.Job:
		if templateChanged {
			jobSpecWarnings(w, spec, &o.Spec)
		}
	case *batchv1.CronJob:
		if templateChanged {
			jobSpecWarnings(w, spec.Children("jobTemplate", "spec"), &o.Spec.JobTemplate.Spec)
		}
		// Validation lets a schedule keep the TZ it was stored with; the warning
		// names the field as upstream spells it, "spec.spec.schedule".
		if strings.Contains(o.Spec.Schedule, "TZ") {
			w.addAt("spec.schedule", "cannot use TZ or CRON_TZ in spec.spec.schedule, use timeZone instead, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details")
		}
	}
}

// statefulSetWarnings records a StatefulSet's warnings beside its template's: claim
// storage that is not whole bytes, at spec.volumeClaimTemplates[i] (then its child
// claimSpec, when not empty), and a negative revisionHistoryLimit.
func statefulSetWarnings(w *warningRecorder, spec *appsv1.StatefulSetSpec, claimSpec string) {
	for i := range spec.VolumeClaimTemplates {
		p := rootPath("spec").Child("volumeClaimTemplates").Index(i)
		if claimSpec != "" {
			p = p.Child(claimSpec)
		}
		claimStorageWarnings(w, p, &spec.VolumeClaimTemplates[i].Spec)
	}
	if spec.RevisionHistoryLimit != nil && *spec.RevisionHistoryLimit < 0 {
		w.add("spec.revisionHistoryLimit: a negative value retains all historical revisions; a value >= 0 is recommended")
	}
}

// acceptedUpdateWarnings records in w the registry's warnings on the update of old to
// obj (see updateWarnings) when errs, the answer to it, accepts it; and returns errs.
func acceptedUpdateWarnings(w *warningRecorder, obj, old runtime.Object, templateChanged bool, errs field.ErrorList) field.ErrorList {
	if len(errs) == 0 {
		updateWarnings(w, obj, old, templateChanged)
	}
	return errs
}

// templateWarnings records GetWarningsForPodTemplate's warnings on t, at p; none for
// a nil template.
func templateWarnings(w *warningRecorder, p lpath, t *corev1.PodTemplateSpec) {
	if t != nil {
		podSpecWarnings(w, p, true, &t.Spec, &t.ObjectMeta)
	}
}

// jobSpecWarnings mirrors pkg/api/job/warnings.go WarningsForJobSpec.
func jobSpecWarnings(w *warningRecorder, p lpath, spec *batchv1.JobSpec) {
	if spec.CompletionMode != nil && *spec.CompletionMode == batchv1.IndexedCompletion &&
		derefInt32(spec.Completions) > 100_000 && derefInt32(spec.Parallelism) > 10_000 {
		w.addf("%s: In Indexed Jobs with a number of completions higher than 10^5 and a parallelism higher than 10^4, Kubernetes might not be able to track completedIndexes when a big number of indexes fail", p)
	}
	podSpecWarnings(w, p.Child("template"), true, &spec.Template.Spec, &spec.Template.ObjectMeta)
}

// claimStorageWarnings mirrors pkg/api/persistentvolumeclaim GetWarningsForPersistentVolumeClaimSpec:
// a storage request or limit that is not a whole number of bytes.
func claimStorageWarnings(w *warningRecorder, p lpath, spec *corev1.PersistentVolumeClaimSpec) {
	fractionalBytesWarning(w, spec.Resources.Requests[corev1.ResourceStorage], corev1.ResourceStorage, p, "resources", "requests")
	fractionalBytesWarning(w, spec.Resources.Limits[corev1.ResourceStorage], corev1.ResourceStorage, p, "resources", "limits")
}

// fractionalBytesWarning records the warning on the byte quantity q, entry name of the
// resource list at parent's child list (its path built only for a warning), when it
// is not whole.
func fractionalBytesWarning(w *warningRecorder, q resource.Quantity, name corev1.ResourceName, parent lpath, list ...string) {
	if q.MilliValue()%1000 != 0 {
		w.addf("%s: fractional byte value %q is invalid, must be an integer", parent.Children(list...).Key(string(name)), q.String())
	}
}

// fractionalListWarning is fractionalBytesWarning for a resource list's entry, when
// the list has it.
func fractionalListWarning(w *warningRecorder, l corev1.ResourceList, name corev1.ResourceName, parent lpath, list ...string) {
	if q, ok := l[name]; ok {
		fractionalBytesWarning(w, q, name, parent, list...)
	}
}

// deprecatedNodeLabels mirrors pkg/api/node/util.go: node labels that are deprecated,
// and what to say of them.
var deprecatedNodeLabels = map[string]string{
	`beta.kubernetes.io/arch`:                       `deprecated since v1.14; use "kubernetes.io/arch" instead`,
	`beta.kubernetes.io/os`:                         `deprecated since v1.14; use "kubernetes.io/os" instead`,
	`failure-domain.beta.kubernetes.io/region`:      `deprecated since v1.17; use "topology.kubernetes.io/region" instead`,
	`failure-domain.beta.kubernetes.io/zone`:        `deprecated since v1.17; use "topology.kubernetes.io/zone" instead`,
	`beta.kubernetes.io/instance-type`:              `deprecated since v1.17; use "node.kubernetes.io/instance-type" instead`,
	`app.kubernetes.io/created-by`:                  `deprecated since v1.9`,
	`scheduler.alpha.kubernetes.io/preferAvoidPods`: `deprecated since v1.22; use Taints and Tolerations instead`,
	`node-role.kubernetes.io/master`:                `use "node-role.kubernetes.io/control-plane" instead`,
}

// deprecatedPodAnnotations are the pod annotations pkg/api/pod/warnings.go warns
// about, in its order.
var deprecatedPodAnnotations = [...]struct{ key, message string }{
	{`scheduler.alpha.kubernetes.io/critical-pod`, `non-functional in v1.16+; use the "priorityClassName" field instead`},
	{`security.alpha.kubernetes.io/sysctls`, `non-functional in v1.11+; use the "sysctls" field instead`},
	{`security.alpha.kubernetes.io/unsafe-sysctls`, `non-functional in v1.11+; use the "sysctls" field instead`},
}

// nodeSelectorTermWarnings mirrors GetWarningsForNodeSelectorTerm (pkg/api/node):
// deprecated keys, and for a preferred term values that are not label values.
func nodeSelectorTermWarnings(w *warningRecorder, term *corev1.NodeSelectorTerm, checkValues bool, p lpath) {
	for i := range term.MatchExpressions {
		if w.full() {
			return
		}
		e := &term.MatchExpressions[i]
		if msg, ok := deprecatedNodeLabels[e.Key]; ok {
			w.addf("%s: %s is %s", p.Child("matchExpressions").Index(i).Child("key"), e.Key, msg)
		}
		if !checkValues {
			continue
		}
		for j, v := range e.Values {
			for _, msg := range validation.IsValidLabelValue(v) {
				w.addf("%s: %s is invalid, %s", p.Child("matchExpressions").Index(i).Child("values").Index(j), v, msg)
			}
			if w.full() {
				return
			}
		}
	}
}

// podSpecWarnings mirrors warningsForPodSpecAndMeta (pkg/api/pod/warnings.go) for a
// pod (base the zero path) or a pod template at base.
func podSpecWarnings(w *warningRecorder, base lpath, template bool, spec *corev1.PodSpec, meta *metav1.ObjectMeta) {
	if w.full() {
		return
	}
	// Room for a list and an index, so that the containers' and volumes' paths fold
	// nothing until a warning prints one.
	sp := base.Child("spec").room(2)
	annotations := base.Children("metadata", "annotations")

	// Deprecated node labels in the node selector (upstream ranges over the map: its
	// keys sorted here), node affinity and topology spread constraints.
	var keys []string
	for k := range spec.NodeSelector {
		if _, ok := deprecatedNodeLabels[k]; ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		w.addf("%s: %s", sp.Child("nodeSelector").Key(k), deprecatedNodeLabels[k])
	}
	if a := spec.Affinity; a != nil && a.NodeAffinity != nil {
		if req := a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution; req != nil {
			p := sp.Children("affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms")
			for i := range req.NodeSelectorTerms {
				nodeSelectorTermWarnings(w, &req.NodeSelectorTerms[i], false, p.Index(i))
			}
		}
		p := sp.Children("affinity", "nodeAffinity", "preferredDuringSchedulingIgnoredDuringExecution")
		for i := range a.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution {
			nodeSelectorTermWarnings(w, &a.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution[i].Preference, true, p.Index(i).Child("preference"))
		}
	}
	for i := range spec.TopologySpreadConstraints {
		if w.full() {
			return
		}
		c := &spec.TopologySpreadConstraints[i]
		p := sp.Child("topologySpreadConstraints").Index(i)
		if msg, ok := deprecatedNodeLabels[c.TopologyKey]; ok {
			w.addf("%s: %s is %s", p.Child("topologyKey"), c.TopologyKey, msg)
		}
		if c.LabelSelector == nil {
			w.addf("%s: a null labelSelector results in matching no pod", p.Child("labelSelector"))
		}
	}

	for _, d := range deprecatedPodAnnotations {
		if _, ok := meta.Annotations[d.key]; ok {
			w.addf("%s: %s", annotations.Key(d.key), d.message)
		}
	}

	volumeWarnings(w, sp, spec.Volumes)
	for i := range spec.Volumes {
		if w.full() {
			return
		}
		overlappingPathWarnings(w, &spec.Volumes[i], sp.Child("volumes").Index(i))
	}

	// Repeated host alias IPs and image pull secrets, and pull secrets without a name.
	repeats(len(spec.HostAliases), func(i int) string { return spec.HostAliases[i].IP }, func(i int, ip string) {
		w.addf("%s: duplicate ip %q", sp.Child("hostAliases").Index(i).Child("ip"), ip)
	})
	repeats(len(spec.ImagePullSecrets), func(i int) string { return spec.ImagePullSecrets[i].Name }, func(i int, name string) {
		w.addf("%s: duplicate name %q", sp.Child("imagePullSecrets").Index(i).Child("name"), name)
	})
	for i, s := range spec.ImagePullSecrets {
		if s.Name == "" {
			w.addf("%s: invalid empty name %q", sp.Child("imagePullSecrets").Index(i).Child("name"), s.Name)
		}
	}

	fractionalListWarning(w, spec.Overhead, corev1.ResourceMemory, sp, "overhead")
	fractionalListWarning(w, spec.Overhead, corev1.ResourceEphemeralStorage, sp, "overhead")

	if spec.SecurityContext == nil || spec.SecurityContext.SeccompProfile == nil {
		if _, ok := meta.Annotations[corev1.SeccompPodAnnotationKey]; ok {
			w.addf(`%s: non-functional in v1.27+; use the "seccompProfile" field instead`, annotations.Key(corev1.SeccompPodAnnotationKey))
		}
	}
	var podAppArmor *corev1.AppArmorProfile
	if spec.SecurityContext != nil {
		podAppArmor = spec.SecurityContext.AppArmorProfile
	}
	visitContainersWithPath(spec, sp, func(c *corev1.Container, cp lpath) {
		if w.full() {
			return
		}
		if len(meta.Annotations) > 0 && (c.SecurityContext == nil || c.SecurityContext.SeccompProfile == nil) {
			key := corev1.SeccompContainerAnnotationKeyPrefix + c.Name
			if _, ok := meta.Annotations[key]; ok {
				w.addf(`%s: non-functional in v1.27+; use the "seccompProfile" field instead`, annotations.Key(key))
			}
		}
		// A pod's AppArmor annotations are warned about by PrepareForCreate
		// (appArmorSyncWarnings); a template's here.
		if template && len(meta.Annotations) > 0 && (c.SecurityContext == nil || c.SecurityContext.AppArmorProfile == nil) {
			// ApparmorFieldForAnnotation, unvalidated.
			key := corev1.DeprecatedAppArmorBetaContainerAnnotationKeyPrefix + c.Name
			if v, ok := meta.Annotations[key]; ok && (podAppArmor == nil || !defaulting.SameAppArmorProfile(podAppArmor, defaulting.AppArmorAnnotationProfile(v, false))) {
				w.addf(`%s: deprecated since v1.30; use the "appArmorProfile" field instead`, annotations.Key(key))
			}
		}
		fractionalListWarning(w, c.Resources.Limits, corev1.ResourceMemory, cp, "resources", "limits")
		fractionalListWarning(w, c.Resources.Requests, corev1.ResourceMemory, cp, "resources", "requests")
		fractionalListWarning(w, c.Resources.Limits, corev1.ResourceEphemeralStorage, cp, "resources", "limits")
		fractionalListWarning(w, c.Resources.Requests, corev1.ResourceEphemeralStorage, cp, "resources", "requests")
		envWarnings(w, cp, c.Env)
	})
	portWarnings(w, spec, sp)
	portNameWarnings(w, spec, sp)

	if g := spec.TerminationGracePeriodSeconds; g != nil && *g < 0 {
		w.addf("%s: must be >= 0; negative values are invalid and will be treated as 1", sp.Child("terminationGracePeriodSeconds"))
	}
	if a := spec.Affinity; a != nil {
		if pa := a.PodAffinity; pa != nil {
			affinityTermWarnings(w, sp.Children("affinity", "podAffinity"), pa.RequiredDuringSchedulingIgnoredDuringExecution, pa.PreferredDuringSchedulingIgnoredDuringExecution)
		}
		if pa := a.PodAntiAffinity; pa != nil {
			affinityTermWarnings(w, sp.Children("affinity", "podAntiAffinity"), pa.RequiredDuringSchedulingIgnoredDuringExecution, pa.PreferredDuringSchedulingIgnoredDuringExecution)
		}
	}
	if spec.DNSConfig != nil {
		for i, ns := range spec.DNSConfig.Nameservers {
			ipWarning(w, sp.Children("dnsConfig", "nameservers").Index(i), ns)
		}
	}
	for i, a := range spec.HostAliases {
		ipWarning(w, sp.Child("hostAliases").Index(i).Child("ip"), a.IP)
	}
}

// repeats calls warn for each of n items whose key an earlier item has.
func repeats(n int, key func(int) string, warn func(i int, key string)) {
	if n < 2 {
		return
	}
	seen := make(map[string]bool, n)
	for i := range n {
		k := key(i)
		if seen[k] {
			warn(i, k)
		}
		seen[k] = true
	}
}

// ipWarning records apimachinery's warnings on an IP address written in a
// non-standard form; the value passed legacy IP validation.
func ipWarning(w *warningRecorder, p lpath, ip string) {
	if w.full() || validation.IsValidIPForLegacyField(nil, ip, false, nil) != nil {
		return
	}
	for _, msg := range validation.GetWarningsForIP(p.P(), ip) {
		w.add(msg)
	}
}

// affinityTermWarnings records the warnings on pod (anti-)affinity terms without a
// label selector.
func affinityTermWarnings(w *warningRecorder, p lpath, required []corev1.PodAffinityTerm, preferred []corev1.WeightedPodAffinityTerm) {
	rp := p.Child("requiredDuringSchedulingIgnoredDuringExecution")
	for i := range required {
		if required[i].LabelSelector == nil {
			w.addf("%s: a null labelSelector results in matching no pod", rp.Index(i).Child("labelSelector"))
		}
	}
	pp := p.Child("preferredDuringSchedulingIgnoredDuringExecution")
	for i := range preferred {
		if preferred[i].PodAffinityTerm.LabelSelector == nil {
			w.addf("%s: a null labelSelector results in matching no pod", pp.Index(i).Children("podAffinityTerm", "labelSelector"))
		}
	}
}

// volumeWarnings records the warnings on deprecated and removed volume plugins and on
// ephemeral volumes' claims.
func volumeWarnings(w *warningRecorder, sp lpath, volumes []corev1.Volume) {
	for i := range volumes {
		if w.full() {
			return
		}
		v := &volumes[i]
		vp := sp.Child("volumes").Index(i)
		plugin := func(set bool, name, note string) {
			if set {
				w.addf("%s: %s", vp.Child(name), note)
			}
		}
		plugin(v.PhotonPersistentDisk != nil, "photonPersistentDisk", "deprecated in v1.11, non-functional in v1.16+")
		// GitRepoVolumeDriver is locked off in v1.37.
		plugin(v.GitRepo != nil, "gitRepo", "deprecated in v1.11, and disabled by default in v1.33+") //nolint:staticcheck // deprecated: what this warns about
		plugin(v.ScaleIO != nil, "scaleIO", "deprecated in v1.16, non-functional in v1.22+")
		plugin(v.Flocker != nil, "flocker", "deprecated in v1.22, non-functional in v1.25+")
		plugin(v.StorageOS != nil, "storageOS", "deprecated in v1.22, non-functional in v1.25+")
		plugin(v.Quobyte != nil, "quobyte", "deprecated in v1.22, non-functional in v1.25+")
		plugin(v.Glusterfs != nil, "glusterfs", "deprecated in v1.25, non-functional in v1.26+")
		if v.Ephemeral != nil && v.Ephemeral.VolumeClaimTemplate != nil {
			claimStorageWarnings(w, vp.Children("ephemeral", "volumeClaimTemplate", "spec"), &v.Ephemeral.VolumeClaimTemplate.Spec)
		}
		plugin(v.CephFS != nil, "cephfs", "deprecated in v1.28, non-functional in v1.31+")
		plugin(v.RBD != nil, "rbd", "deprecated in v1.28, non-functional in v1.31+")
	}
}

// envWarnings records the warning on an environment variable that repeats an earlier
// one's name, unless its value refers to the earlier one ("$(X)123"), in the
// container at cp.
func envWarnings(w *warningRecorder, cp lpath, env []corev1.EnvVar) {
	if len(env) < 2 {
		return
	}
	// A short list is searched; a long one indexed.
	var seen map[string]bool
	if len(env) > 16 {
		seen = make(map[string]bool, len(env))
	}
	for i := range env {
		e := &env[i]
		if seen != nil && !seen[e.Name] {
			seen[e.Name] = true
			continue
		}
		if seen == nil && !slices.ContainsFunc(env[:i], func(o corev1.EnvVar) bool { return o.Name == e.Name }) {
			continue
		}
		ref := "$(" + e.Name + ")"
		if e.ValueFrom != nil || e.Value == ref || !strings.Contains(e.Value, ref) {
			w.addf("%s: hides previous definition of %q, which may be dropped when using apply", cp.Child("env").Index(i), e.Name)
			if w.full() {
				return
			}
		}
	}
}
