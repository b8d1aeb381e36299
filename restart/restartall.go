package restart

import (
	corev1 "k8s.io/api/core/v1"
)

// Runtime is an optional view of a pod's container instances in the container
// runtime, across all sandboxes, as the kubelet's kubecontainer.PodStatus holds them.
// Implementations must be safe for concurrent reads; nothing in this package writes
// through it. [Instances] is a ready-made implementation over a slice; a richer
// runtime view (the lifecycle package's) can implement it directly.
//
// The functions that ask about every container ([ShouldAllContainersRestart],
// [AllContainersRestartCleanedUp], [AllContainersRestartingCondition]) ask once per
// container. They index a long [Instances] or [StatusRuntime] by name first, so their
// cost stays linear in the number of containers; another implementation should
// answer in constant time for the same to hold.
type Runtime interface {
	// Newest returns the newest instance (by creation time) of the named
	// container, in any state, and whether there is one.
	Newest(name string) (Instance, bool)
	// NewestExited returns the newest instance of the named container whose state
	// is StateExited, and whether there is one.
	NewestExited(name string) (Instance, bool)
}

// Instances is a [Runtime] over a slice of instances ordered newest first, the order
// of kubecontainer.PodStatus.ContainerStatuses. Each question scans the slice.
type Instances []Instance

// Newest returns the first instance with that name.
func (s Instances) Newest(name string) (Instance, bool) {
	for i := range s {
		if s[i].Name == name {
			return s[i], true
		}
	}
	return Instance{}, false
}

// NewestExited returns the first exited instance with that name.
func (s Instances) NewestExited(name string) (Instance, bool) {
	for i := range s {
		if s[i].Name == name && s[i].State == StateExited {
			return s[i], true
		}
	}
	return Instance{}, false
}

// ReasonRestartingAllContainers is the reason the kubelet gives the status of a
// container it removed to restart all containers in place (its waiting state and
// last termination), and of an unknown one it found during that restart.
const ReasonRestartingAllContainers = "RestartingAllContainers"

// StatusRuntime is a [Runtime] derived from a pod's API status, for callers without a
// runtime view: each init, regular and ephemeral container status gives at most one
// instance, as [InstanceFromStatus] maps it, except that a status waiting with reason
// RestartingAllContainers has none: the kubelet reports that state exactly when it
// has removed every instance of the container to restart all containers.
type StatusRuntime struct {
	// Status is the pod status to read; nil has no instances.
	Status *corev1.PodStatus
}

// Newest returns the instance derived from the first status with that name that
// yields one, looking in init, regular, then ephemeral container statuses. One call
// scans the statuses; the functions of this package that ask about every container
// index them once per call instead.
func (r StatusRuntime) Newest(name string) (Instance, bool) {
	if r.Status == nil {
		return Instance{}, false
	}
	for _, list := range [...][]corev1.ContainerStatus{r.Status.InitContainerStatuses, r.Status.ContainerStatuses, r.Status.EphemeralContainerStatuses} {
		for i := range list {
			if list[i].Name != name {
				continue
			}
			if inst, ok := statusInstance(&list[i]); ok {
				return inst, true
			}
		}
	}
	return Instance{}, false
}

// statusInstance is the instance a status yields in a StatusRuntime: none while it
// waits with reason RestartingAllContainers, otherwise InstanceFromStatus.
func statusInstance(st *corev1.ContainerStatus) (Instance, bool) {
	if st.State.Waiting != nil && st.State.Waiting.Reason == ReasonRestartingAllContainers {
		return Instance{}, false
	}
	return InstanceFromStatus(st)
}

// len is the number of statuses Newest may scan.
func (r StatusRuntime) len() int {
	if r.Status == nil {
		return 0
	}
	return len(r.Status.InitContainerStatuses) + len(r.Status.ContainerStatuses) + len(r.Status.EphemeralContainerStatuses)
}

// NewestExited returns Newest when it is exited.
func (r StatusRuntime) NewestExited(name string) (Instance, bool) {
	inst, ok := r.Newest(name)
	if !ok || inst.State != StateExited {
		return Instance{}, false
	}
	return inst, true
}

// ShouldAllContainersRestart reports whether the kubelet considers the pod to be
// restarting all of its containers in place (KEP-5532), as
// kubecontainer.ShouldAllContainersRestart with pod.Status as the API status: the
// AllContainersRestarting condition is already True, or the newest runtime instance
// of an init or regular container exited with a code that matches a rule whose action
// is RestartAllContainers, or its API status is terminated with such a code
// (lastTerminationState is not consulted). As upstream, when rt is given the API
// status of a container is only read when the container's newest runtime instance
// has exited. As upstream, rules match whatever the
// container's restartPolicy. rt may be nil, in which case only the API status is
// read (as the probe worker asks). It is false when the
// RestartAllContainersOnContainerExits gate is off, since the kubelet only asks with
// the gate on, and for a nil pod.
func ShouldAllContainersRestart(pod *corev1.Pod, rt Runtime, opts Options) bool {
	if pod == nil || !opts.restartAllContainers() {
		return false
	}
	return shouldAllRestart(pod, &newest{rt: rt})
}

// shouldAllRestart is ShouldAllContainersRestart without the gate, which its callers
// check. rt.rt may be nil: then only the API status is read.
func shouldAllRestart(pod *corev1.Pod, rt *newest) bool {
	for i := range pod.Status.Conditions {
		if c := &pod.Status.Conditions[i]; c.Type == corev1.AllContainersRestarting && c.Status == corev1.ConditionTrue {
			return true
		}
	}
	api := apiStatuses{s: &pod.Status}
	return restartAllTriggered(pod.Spec.InitContainers, rt, &api) || restartAllTriggered(pod.Spec.Containers, rt, &api)
}

func restartAllTriggered(cs []corev1.Container, rt *newest, api *apiStatuses) bool {
	for i := range cs {
		c := &cs[i]
		if rt.rt != nil {
			inst, ok := rt.get(c.Name)
			if !ok || inst.State != StateExited {
				// Upstream moves on to the next container here, without looking at
				// the API status.
				continue
			}
			if isRestartAllExit(c, inst.ExitCode) {
				return true
			}
		}
		if st := api.find(c.Name); st != nil && st.State.Terminated != nil && isRestartAllExit(c, st.State.Terminated.ExitCode) {
			return true
		}
	}
	return false
}

func isRestartAllExit(c *corev1.Container, exitCode int32) bool {
	r, _, ok := MatchingRule(c, exitCode, Options{})
	return ok && r.Action == corev1.ContainerRestartRuleActionRestartAllContainers
}

// AllContainersRestartCleanedUp reports whether no instance of any init or regular
// container is left in the runtime, as kubecontainer.AllContainersRestartCleanedUp:
// the moment the kubelet ends an in-place restart of all containers and starts the
// pod again from its first init container. Ephemeral containers are ignored. With a
// nil rt the runtime is derived from pod.Status ([StatusRuntime]). A nil pod has no
// containers and gives true.
func AllContainersRestartCleanedUp(pod *corev1.Pod, rt Runtime, opts Options) bool {
	_ = opts
	if pod == nil {
		return true
	}
	if rt == nil {
		rt = StatusRuntime{Status: &pod.Status}
	}
	x := newest{rt: rt}
	return cleanedUp(pod, &x)
}

func cleanedUp(pod *corev1.Pod, rt *newest) bool {
	return noInstances(pod.Spec.Containers, rt) && noInstances(pod.Spec.InitContainers, rt)
}

func noInstances(cs []corev1.Container, rt *newest) bool {
	for i := range cs {
		if _, ok := rt.get(cs[i].Name); ok {
			return false
		}
	}
	return true
}

// The AllContainersRestarting condition's reasons and message, as the kubelet writes
// them (k8s.io/kubernetes pkg/kubelet/status/generate.go).
const (
	ReasonPodCompleted                = "PodCompleted"
	ReasonPodFailed                   = "PodFailed"
	ReasonRestartAllContainersStarted = "RestartAllContainersStarted"
	MessageRestartAllContainers       = "container exited with restart policy rule"
)

// AllContainersRestartingCondition returns the AllContainersRestarting condition the
// kubelet generates for the next status of a pod in the given phase, with pod.Status
// as the old status, and whether the kubelet includes the condition at all (the
// RestartAllContainersOnContainerExits gate is on and [AllContainersCouldRestart]).
// It mirrors GenerateAllContainersRestartingCondition: False with reason PodCompleted
// or PodFailed in a terminal phase; False while no restart-all is triggered or once
// the restart is cleaned up; otherwise True with reason RestartAllContainersStarted.
// rt is the runtime view; nil derives one from pod.Status ([StatusRuntime]) for both
// the trigger and the cleanup check, as upstream reads one runtime status for both.
func AllContainersRestartingCondition(pod *corev1.Pod, rt Runtime, phase corev1.PodPhase, opts Options) (cond corev1.PodCondition, included bool) {
	cond = corev1.PodCondition{Type: corev1.AllContainersRestarting, Status: corev1.ConditionFalse}
	if pod == nil {
		return cond, false
	}
	included = opts.restartAllContainers() && AllContainersCouldRestart(&pod.Spec, opts)
	if rt == nil {
		rt = StatusRuntime{Status: &pod.Status}
	}
	// One index serves the trigger and the cleanup check.
	x := newest{rt: rt}
	switch {
	case phase == corev1.PodSucceeded:
		cond.Reason = ReasonPodCompleted
	case phase == corev1.PodFailed:
		cond.Reason = ReasonPodFailed
	case !shouldAllRestart(pod, &x):
	case cleanedUp(pod, &x):
	default:
		cond.Status = corev1.ConditionTrue
		cond.Reason = ReasonRestartAllContainersStarted
		cond.Message = MessageRestartAllContainers
	}
	return cond, included
}
