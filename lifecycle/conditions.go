package lifecycle

import (
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/podlife/podlife/internal/byname"
	"github.com/podlife/podlife/restart"
)

// Condition reasons the kubelet writes, as in k8s.io/kubernetes pkg/kubelet/status/generate.go.
const (
	// ReasonUnknownContainerStatuses: the pod has no container statuses at all.
	ReasonUnknownContainerStatuses = "UnknownContainerStatuses"
	// ReasonPodCompleted: the pod succeeded.
	ReasonPodCompleted = "PodCompleted"
	// ReasonPodFailed: the pod failed.
	ReasonPodFailed = "PodFailed"
	// ReasonRestartAllContainersStarted: the AllContainersRestarting condition is True
	// while the kubelet removes every container to restart them all in place, with
	// message MessageRestartAllContainers.
	ReasonRestartAllContainersStarted = "RestartAllContainersStarted"
	MessageRestartAllContainers       = "container exited with restart policy rule"
	// ReasonContainersNotReady: a container or sidecar is not ready or has no status.
	ReasonContainersNotReady = "ContainersNotReady"
	// ReasonContainersNotInitialized: an init container has not completed (or a sidecar
	// has not started).
	ReasonContainersNotInitialized = "ContainersNotInitialized"
	// ReasonReadinessGatesNotReady: a readiness gate's condition is missing or not True.
	ReasonReadinessGatesNotReady = "ReadinessGatesNotReady"
)

// emptyPod stands in for a nil pod so that every function answers as for a pod with
// nothing set. It is never modified.
var emptyPod = &corev1.Pod{}

func orEmpty(pod *corev1.Pod) *corev1.Pod {
	if pod == nil {
		return emptyPod
	}
	return pod
}

// statusIndexes index a pod status's init and regular container statuses by name
// ([byname]), once for every function one call asks: an index is built on its first
// long-list lookup and kept.
type statusIndexes struct {
	init, regular       byname.Index[corev1.ContainerStatus]
	initNil, regularNil bool
}

func newStatusIndexes(st *corev1.PodStatus) statusIndexes {
	return statusIndexesOf(st.InitContainerStatuses, st.ContainerStatuses)
}

func statusIndexesOf(init, regular []corev1.ContainerStatus) statusIndexes {
	return statusIndexes{
		init: byname.Statuses(init), regular: byname.Statuses(regular),
		initNil: init == nil, regularNil: regular == nil,
	}
}

// initFirst is the kubelet's "allContainerStatuses": init statuses, then regular ones.
func (ix *statusIndexes) initFirst() statusList {
	return statusList{first: &ix.init, second: &ix.regular, firstNil: ix.initNil}
}

// regularFirst is getPhase's order: regular statuses, then init ones.
func (ix *statusIndexes) regularFirst() statusList {
	return statusList{first: &ix.regular, second: &ix.init, firstNil: ix.regularNil}
}

// statusList is a list of container statuses looked up by name, first match winning
// (podutil.GetContainerStatus), over two slices read one after the other without building
// the combined slice, in time linear in the pod ([byname]).
type statusList struct {
	first, second *byname.Index[corev1.ContainerStatus]
	firstNil      bool
}

// isNil reports whether append(first, second...) would be nil, which upstream treats as
// "no statuses known".
func (l statusList) isNil() bool { return l.firstNil && l.second.Len() == 0 }

// find returns the first status named name.
func (l statusList) find(name string) (*corev1.ContainerStatus, bool) {
	if st := byname.FirstStatus(l.first, name); st != nil {
		return st, true
	}
	st := byname.FirstStatus(l.second, name)
	return st, st != nil
}

// observedGeneration is podutil.CalculatePodConditionObservedGeneration with the pod's
// own status as the old status.
func observedGeneration(pod *corev1.Pod, t corev1.PodConditionType, opts Options) int64 {
	if observedGenerationTracking(opts) {
		return pod.Generation
	}
	for i := range pod.Status.Conditions {
		if c := &pod.Status.Conditions[i]; c.Type == t && c.ObservedGeneration != 0 {
			return pod.Generation
		}
	}
	return 0
}

// Classes of a container in a condition's message.
const (
	classNone    uint8 = iota // not named
	classUnknown              // "containers with unknown status"
	classOther                // "containers with <incomplete|unready> status"
)

// classes records, for the init containers followed by the regular ones, which list
// of a condition's message each container goes to, without allocating for an ordinary
// pod.
type classes struct {
	small          [32]uint8
	big            []uint8 // instead of small past 32 containers
	n              int
	unknown, other int
}

func (c *classes) reset(n int) {
	*c = classes{n: n}
	if n > len(c.small) {
		c.big = make([]uint8, n)
	}
}

// of is the class of each container. (A slice of small is never stored in c, which
// keeps c on its caller's stack.)
func (c *classes) of() []uint8 {
	if c.big != nil {
		return c.big
	}
	return c.small[:c.n]
}

func (c *classes) set(i int, class uint8) {
	c.of()[i] = class
	switch class {
	case classUnknown:
		c.unknown++
	case classOther:
		c.other++
	}
}

// message joins the two name lists as the kubelet does, "containers with unknown
// status: [a b], containers with <second> status: [c]" (each list rendered as fmt's %s
// renders a []string), in one allocation; "" when both are empty. It returns prev
// itself, without allocating, when the message is prev (the message of the previous
// condition of its type, which is usually the same).
func (c *classes) message(init, regular []corev1.Container, second, prev string) string {
	if c.unknown == 0 && c.other == 0 {
		return ""
	}
	const unknownPrefix, otherPrefix = "containers with unknown status: ", "containers with "
	name := func(i int) string {
		if i < len(init) {
			return init[i].Name
		}
		return regular[i-len(init)].Name
	}
	of := c.of()
	size := 0
	for i, k := range of {
		if k != classNone {
			size += len(name(i)) + 1 // the name and a space or the closing bracket
		}
	}
	if c.unknown > 0 {
		size += len(unknownPrefix) + 1
	}
	if c.other > 0 {
		size += len(otherPrefix) + len(second) + len(" status: ") + 1
		if c.unknown > 0 {
			size += len(", ")
		}
	}
	// The usual case, the message of the previous condition, is found by comparing
	// it piece by piece, without writing anything.
	if len(prev) == size && c.sameMessage(of, name, second, prev) {
		return prev
	}
	// The message is written into room on the stack when it fits (a longer one is
	// written into a list of its size, then copied).
	var room [256]byte
	var buf []byte
	if size <= len(room) {
		buf = room[:size]
	} else {
		buf = make([]byte, size)
	}
	n := 0
	list := func(buf []byte, n int, class uint8) int {
		n += copy(buf[n:], "[")
		first := true
		for i, k := range of {
			if k != class {
				continue
			}
			if !first {
				n += copy(buf[n:], " ")
			}
			first = false
			n += copy(buf[n:], name(i))
		}
		return n + copy(buf[n:], "]")
	}
	if c.unknown > 0 {
		n += copy(buf[n:], unknownPrefix)
		n = list(buf, n, classUnknown)
	}
	if c.other > 0 {
		if c.unknown > 0 {
			n += copy(buf[n:], ", ")
		}
		n += copy(buf[n:], otherPrefix)
		n += copy(buf[n:], second)
		n += copy(buf[n:], " status: ")
		n = list(buf, n, classOther)
	}
	return string(buf[:n])
}

// sameMessage reports whether prev, of the message's size, is the message that
// message would write.
func (c *classes) sameMessage(of []uint8, name func(int) string, second, prev string) bool {
	const unknownPrefix, otherPrefix = "containers with unknown status: ", "containers with "
	n := 0
	// eat consumes s from prev at n; the size check keeps it within prev.
	eat := func(s string) bool {
		if prev[n:n+len(s)] != s {
			return false
		}
		n += len(s)
		return true
	}
	list := func(class uint8) bool {
		if !eat("[") {
			return false
		}
		first := true
		for i, k := range of {
			if k != class {
				continue
			}
			if !first && !eat(" ") {
				return false
			}
			first = false
			if !eat(name(i)) {
				return false
			}
		}
		return eat("]")
	}
	if c.unknown > 0 && !(eat(unknownPrefix) && list(classUnknown)) {
		return false
	}
	if c.other > 0 {
		if c.unknown > 0 && !eat(", ") {
			return false
		}
		if !(eat(otherPrefix) && eat(second) && eat(" status: ") && list(classOther)) {
			return false
		}
	}
	return n == len(prev)
}

// conditionMessage is the message of pod's first condition of type t, "" when it
// has none.
func conditionMessage(pod *corev1.Pod, t corev1.PodConditionType) string {
	for i := range pod.Status.Conditions {
		if c := &pod.Status.Conditions[i]; c.Type == t {
			return c.Message
		}
	}
	return ""
}

// InitializedCondition returns the pod's Initialized condition as the kubelet generates it
// (GeneratePodInitializedCondition), reading the init and regular container statuses and the
// previous conditions from pod.Status.
//
// A regular init container is complete when its status is ready (the kubelet sets ready
// exactly when it terminated with exit code 0), a sidecar when it has started. A pod whose
// regular containers have run, or that succeeded, is initialized whatever its init
// containers say. With RestartAllContainersOnContainerExits on (the default), a pod whose
// previous Initialized condition is True stays initialized.
//
// The condition carries observedGeneration = pod.generation (PodObservedGenerationTracking)
// and, like the kubelet's generator, no lastProbeTime or lastTransitionTime: the kubelet's
// status manager sets the transition time (keeping the previous one when the status does not
// change) when it stores the status.
func InitializedCondition(pod *corev1.Pod, phase corev1.PodPhase, opts Options) corev1.PodCondition {
	pod = orEmpty(pod)
	ix := newStatusIndexes(&pod.Status)
	return initializedCondition(pod, ix.initFirst(), phase, opts)
}

// initializedCondition is InitializedCondition over the pod's statuses, indexed.
func initializedCondition(pod *corev1.Pod, statuses statusList, phase corev1.PodPhase, opts Options) corev1.PodCondition {
	cond := corev1.PodCondition{
		Type:               corev1.PodInitialized,
		ObservedGeneration: observedGeneration(pod, corev1.PodInitialized, opts),
		Status:             corev1.ConditionTrue,
	}
	if statuses.isNil() && len(pod.Spec.InitContainers) > 0 {
		cond.Status = corev1.ConditionFalse
		cond.Reason = ReasonUnknownContainerStatuses
		return cond
	}

	var cls classes
	cls.reset(len(pod.Spec.InitContainers))
	for i := range pod.Spec.InitContainers {
		c := &pod.Spec.InitContainers[i]
		s, ok := statuses.find(c.Name)
		switch {
		case !ok:
			cls.set(i, classUnknown)
		case restart.IsRestartableInitContainer(c):
			if s.Started == nil || !*s.Started {
				cls.set(i, classOther)
			}
		case !s.Ready:
			cls.set(i, classOther)
		}
	}

	if phase == corev1.PodSucceeded && cls.unknown == 0 {
		cond.Reason = ReasonPodCompleted
		return cond
	}
	if cls.unknown == 0 && cls.other == 0 || anyRegularContainerStarted(&pod.Spec, statuses) {
		return cond
	}
	// Once initialized, a pod is never uninitialized again (RestartAllContainers may
	// reset the init containers' statuses).
	if restartAllContainersOnExits(opts) {
		for i := range pod.Status.Conditions {
			if c := &pod.Status.Conditions[i]; c.Type == corev1.PodInitialized && c.Status == corev1.ConditionTrue {
				return cond
			}
		}
	}
	cond.Status = corev1.ConditionFalse
	cond.Reason = ReasonContainersNotInitialized
	cond.Message = cls.message(pod.Spec.InitContainers, nil, "incomplete", conditionMessage(pod, corev1.PodInitialized))
	return cond
}

// anyRegularContainerStarted is kubecontainer.HasAnyRegularContainerStarted over the
// kubelet's combined status list: a status named after a regular container is running or
// terminated.
func anyRegularContainerStarted(spec *corev1.PodSpec, statuses statusList) bool {
	if len(spec.Containers) == 0 {
		return false
	}
	regular := byname.Containers(spec.Containers)
	for _, list := range [2]*byname.Index[corev1.ContainerStatus]{statuses.first, statuses.second} {
		for i := range list.Len() {
			if s := list.At(i); (s.State.Running != nil || s.State.Terminated != nil) && byname.FirstContainer(&regular, s.Name) != nil {
				return true
			}
		}
	}
	return false
}

// ContainersReadyCondition returns the pod's ContainersReady condition as the kubelet
// generates it (GenerateContainersReadyCondition), reading the container statuses from
// pod.Status.
//
// Sidecars (in init order) and regular containers count; regular init containers do not.
// A Succeeded pod whose containers all have a status, and any Failed pod, get False with
// reason PodCompleted or PodFailed. Times are left unset as in [InitializedCondition].
func ContainersReadyCondition(pod *corev1.Pod, phase corev1.PodPhase, opts Options) corev1.PodCondition {
	pod = orEmpty(pod)
	ix := newStatusIndexes(&pod.Status)
	return containersReady(pod, ix.initFirst(), corev1.ContainersReady, phase, opts)
}

// containersReady computes ContainersReady's status, reason and message over the
// pod's statuses, indexed, labelled with type t and the observed generation for t
// (Ready copies them).
func containersReady(pod *corev1.Pod, statuses statusList, t corev1.PodConditionType, phase corev1.PodPhase, opts Options) corev1.PodCondition {
	cond := corev1.PodCondition{
		Type:               t,
		ObservedGeneration: observedGeneration(pod, t, opts),
		Status:             corev1.ConditionFalse,
	}
	if statuses.isNil() {
		cond.Reason = ReasonUnknownContainerStatuses
		return cond
	}
	if phase == corev1.PodFailed {
		cond.Reason = ReasonPodFailed
		return cond
	}
	inits := len(pod.Spec.InitContainers)
	var cls classes
	cls.reset(inits + len(pod.Spec.Containers))
	check := func(i int, c *corev1.Container) {
		if s, ok := statuses.find(c.Name); !ok {
			cls.set(i, classUnknown)
		} else if !s.Ready {
			cls.set(i, classOther)
		}
	}
	for i := range pod.Spec.InitContainers {
		if c := &pod.Spec.InitContainers[i]; restart.IsRestartableInitContainer(c) {
			check(i, c)
		}
	}
	for i := range pod.Spec.Containers {
		check(inits+i, &pod.Spec.Containers[i])
	}

	if phase == corev1.PodSucceeded && cls.unknown == 0 {
		cond.Reason = ReasonPodCompleted
		return cond
	}
	if msg := cls.message(pod.Spec.InitContainers, pod.Spec.Containers, "unready", conditionMessage(pod, t)); msg != "" {
		cond.Reason = ReasonContainersNotReady
		cond.Message = msg
		return cond
	}
	cond.Status = corev1.ConditionTrue
	return cond
}

// ReadyCondition returns the pod's Ready condition as the kubelet generates it
// (GeneratePodReadyCondition), reading the container statuses from pod.Status and
// evaluating the readiness gates against pod.Status.Conditions.
//
// When ContainersReady would not be True, Ready copies its status, reason and message.
// Otherwise every spec.readinessGates entry needs a condition of that type with status True.
// Use [ReadyConditionWith] to evaluate the gates against another condition list, as the
// kubelet does with the list it is assembling. Times are left unset as in
// [InitializedCondition].
func ReadyCondition(pod *corev1.Pod, phase corev1.PodPhase, opts Options) corev1.PodCondition {
	pod = orEmpty(pod)
	return ReadyConditionWith(pod, pod.Status.Conditions, phase, opts)
}

// ReadyConditionWith is [ReadyCondition] with the readiness gates evaluated against
// conditions instead of pod.Status.Conditions. The kubelet passes the conditions it has
// assembled so far: those from pod.Status it does not own, the resize and DisruptionTarget
// conditions, PodReadyToStartContainers and the new Initialized condition.
func ReadyConditionWith(pod *corev1.Pod, conditions []corev1.PodCondition, phase corev1.PodPhase, opts Options) corev1.PodCondition {
	pod = orEmpty(pod)
	ix := newStatusIndexes(&pod.Status)
	return readyFrom(pod, containersReady(pod, ix.initFirst(), corev1.PodReady, phase, opts), conditions)
}

// appendReadyConditions appends to conditions the Ready condition ReadyConditionWith
// computes from them and the ContainersReady condition ContainersReadyCondition
// computes, looking the containers up once for both and building both in place.
func appendReadyConditions(conditions []corev1.PodCondition, pod *corev1.Pod, statuses statusList, phase corev1.PodPhase, opts Options) []corev1.PodCondition {
	n := len(conditions)
	conditions = append(conditions, corev1.PodCondition{}, corev1.PodCondition{})
	ready, containers := &conditions[n], &conditions[n+1]
	*containers = containersReady(pod, statuses, corev1.ContainersReady, phase, opts)
	*ready = *containers
	ready.Type = corev1.PodReady
	ready.ObservedGeneration = observedGeneration(pod, corev1.PodReady, opts)
	if ready.Status == corev1.ConditionTrue && len(pod.Spec.ReadinessGates) > 0 {
		*ready = readyFrom(pod, *ready, conditions[:n])
	}
	return conditions
}

// readyFrom is the Ready condition given cond, the ContainersReady condition labelled
// Ready: when it is True, the readiness gates are evaluated against conditions.
func readyFrom(pod *corev1.Pod, cond corev1.PodCondition, conditions []corev1.PodCondition) corev1.PodCondition {
	if cond.Status != corev1.ConditionTrue || len(pod.Spec.ReadinessGates) == 0 {
		return cond
	}
	var b strings.Builder
	for _, rg := range pod.Spec.ReadinessGates {
		var found *corev1.PodCondition
		for i := range conditions {
			if conditions[i].Type == rg.ConditionType {
				found = &conditions[i]
				break
			}
		}
		if found != nil && found.Status == corev1.ConditionTrue {
			continue
		}
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		if found == nil {
			b.WriteString("corresponding condition of pod readiness gate ")
			b.WriteString(strconv.Quote(string(rg.ConditionType)))
			b.WriteString(" does not exist.")
		} else {
			b.WriteString("the status of pod readiness gate ")
			b.WriteString(strconv.Quote(string(rg.ConditionType)))
			b.WriteString(` is not "True", but `)
			b.WriteString(string(found.Status))
		}
	}
	if b.Len() > 0 {
		cond.Status = corev1.ConditionFalse
		cond.Reason = ReasonReadinessGatesNotReady
		cond.Message = b.String()
	}
	return cond
}
