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

// statusList is a list of container statuses looked up by name, first match winning
// (podutil.GetContainerStatus), over two slices read one after the other without building
// the combined slice, in time linear in the pod ([byname]).
type statusList struct {
	first, second byname.Index[corev1.ContainerStatus]
	firstNil      bool
}

func newStatusList(first, second []corev1.ContainerStatus) statusList {
	return statusList{first: byname.Statuses(first), second: byname.Statuses(second), firstNil: first == nil}
}

// podStatuses is the kubelet's "allContainerStatuses": init statuses, then regular ones.
func podStatuses(pod *corev1.Pod) statusList {
	return newStatusList(pod.Status.InitContainerStatuses, pod.Status.ContainerStatuses)
}

// isNil reports whether append(first, second...) would be nil, which upstream treats as
// "no statuses known".
func (l *statusList) isNil() bool { return l.firstNil && l.second.Len() == 0 }

// find returns the first status named name.
func (l *statusList) find(name string) (*corev1.ContainerStatus, bool) {
	if st := l.first.FirstEntry(name); st != nil {
		return st, true
	}
	st := l.second.FirstEntry(name)
	return st, st != nil
}

// observedGeneration is podutil.CalculatePodConditionObservedGeneration with the pod's
// own status as the old status.
func observedGeneration(pod *corev1.Pod, t corev1.PodConditionType, opts Options) int64 {
	if opts.Features.Resolve().PodObservedGenerationTracking {
		return pod.Generation
	}
	for i := range pod.Status.Conditions {
		if c := &pod.Status.Conditions[i]; c.Type == t && c.ObservedGeneration != 0 {
			return pod.Generation
		}
	}
	return 0
}

// nameList renders names as fmt's %s does for a []string: "[a b c]".
func nameList(b *strings.Builder, names []string) {
	b.WriteByte('[')
	for i, n := range names {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(n)
	}
	b.WriteByte(']')
}

// appendUpTo appends name to list; the first append allocates room for left names,
// the most the list can still receive, so that a list that grows with the pod is
// allocated once (not grown step by step) and a pod that adds nothing allocates
// nothing.
func appendUpTo(list []string, name string, left int) []string {
	if list == nil {
		list = make([]string, 0, left)
	}
	return append(list, name)
}

// unreadyMessage joins the two name lists as the kubelet does:
// "containers with unknown status: [..], containers with <second> status: [..]".
func unreadyMessage(unknown []string, second string, other []string) string {
	if len(unknown) == 0 && len(other) == 0 {
		return ""
	}
	var b strings.Builder
	size := len(", containers with  status: ") + len(second) + len("containers with unknown status: ") + 4 + len(unknown) + len(other)
	for _, n := range unknown {
		size += len(n)
	}
	for _, n := range other {
		size += len(n)
	}
	b.Grow(size)
	if len(unknown) > 0 {
		b.WriteString("containers with unknown status: ")
		nameList(&b, unknown)
	}
	if len(other) > 0 {
		if len(unknown) > 0 {
			b.WriteString(", ")
		}
		b.WriteString("containers with ")
		b.WriteString(second)
		b.WriteString(" status: ")
		nameList(&b, other)
	}
	return b.String()
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
	cond := corev1.PodCondition{
		Type:               corev1.PodInitialized,
		ObservedGeneration: observedGeneration(pod, corev1.PodInitialized, opts),
		Status:             corev1.ConditionTrue,
	}
	statuses := podStatuses(pod)
	if statuses.isNil() && len(pod.Spec.InitContainers) > 0 {
		cond.Status = corev1.ConditionFalse
		cond.Reason = ReasonUnknownContainerStatuses
		return cond
	}

	var unknown, incomplete []string
	for i := range pod.Spec.InitContainers {
		c := &pod.Spec.InitContainers[i]
		s, ok := statuses.find(c.Name)
		left := len(pod.Spec.InitContainers) - i
		switch {
		case !ok:
			unknown = appendUpTo(unknown, c.Name, left)
		case restart.IsRestartableInitContainer(c):
			if s.Started == nil || !*s.Started {
				incomplete = appendUpTo(incomplete, c.Name, left)
			}
		case !s.Ready:
			incomplete = appendUpTo(incomplete, c.Name, left)
		}
	}

	if phase == corev1.PodSucceeded && len(unknown) == 0 {
		cond.Reason = ReasonPodCompleted
		return cond
	}
	if anyRegularContainerStarted(&pod.Spec, statuses) {
		return cond
	}
	msg := unreadyMessage(unknown, "incomplete", incomplete)
	if msg == "" {
		return cond
	}
	// Once initialized, a pod is never uninitialized again (RestartAllContainers may
	// reset the init containers' statuses).
	if opts.Features.Resolve().RestartAllContainersOnContainerExits {
		for i := range pod.Status.Conditions {
			if c := &pod.Status.Conditions[i]; c.Type == corev1.PodInitialized && c.Status == corev1.ConditionTrue {
				return cond
			}
		}
	}
	cond.Status = corev1.ConditionFalse
	cond.Reason = ReasonContainersNotInitialized
	cond.Message = msg
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
	for _, list := range [2]*byname.Index[corev1.ContainerStatus]{&statuses.first, &statuses.second} {
		for i := range list.Len() {
			if s := list.At(i); (s.State.Running != nil || s.State.Terminated != nil) && regular.First(s.Name) >= 0 {
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
	return containersReady(pod, corev1.ContainersReady, phase, opts)
}

// containersReady computes ContainersReady's status, reason and message, labelled with
// type t and the observed generation for t (Ready copies them).
func containersReady(pod *corev1.Pod, t corev1.PodConditionType, phase corev1.PodPhase, opts Options) corev1.PodCondition {
	cond := corev1.PodCondition{
		Type:               t,
		ObservedGeneration: observedGeneration(pod, t, opts),
		Status:             corev1.ConditionFalse,
	}
	statuses := podStatuses(pod)
	if statuses.isNil() {
		cond.Reason = ReasonUnknownContainerStatuses
		return cond
	}
	var unknown, unready []string
	left := len(pod.Spec.InitContainers) + len(pod.Spec.Containers)
	check := func(c *corev1.Container) {
		if s, ok := statuses.find(c.Name); !ok {
			unknown = appendUpTo(unknown, c.Name, left)
		} else if !s.Ready {
			unready = appendUpTo(unready, c.Name, left)
		}
	}
	for i := range pod.Spec.InitContainers {
		if c := &pod.Spec.InitContainers[i]; restart.IsRestartableInitContainer(c) {
			check(c)
		}
		left--
	}
	for i := range pod.Spec.Containers {
		check(&pod.Spec.Containers[i])
		left--
	}

	if (phase == corev1.PodSucceeded && len(unknown) == 0) || phase == corev1.PodFailed {
		if phase == corev1.PodFailed {
			cond.Reason = ReasonPodFailed
		} else {
			cond.Reason = ReasonPodCompleted
		}
		return cond
	}
	if msg := unreadyMessage(unknown, "unready", unready); msg != "" {
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
	cond := containersReady(pod, corev1.PodReady, phase, opts)
	if cond.Status != corev1.ConditionTrue {
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
