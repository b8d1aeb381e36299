package restart

import (
	corev1 "k8s.io/api/core/v1"
)

// ReasonRestartingAllContainers is the reason the kubelet gives the status of a
// container it removed to restart all containers in place (its waiting state and
// last termination), and of an unknown one it found during that restart. getPhase
// treats a container that terminated with it as restartable.
const ReasonRestartingAllContainers = "RestartingAllContainers"

// ShouldAllContainersRestart reports whether the kubelet considers the pod to be
// restarting all of its containers in place (KEP-5532), as
// kubecontainer.ShouldAllContainersRestart with pod.Status as the API status: the
// AllContainersRestarting condition is already True, or the newest runtime instance
// of an init or regular container exited with a code that matches a rule whose action
// is RestartAllContainers, or its API status is terminated with such a code
// (lastTerminationState is not consulted). As upstream, when a view is given the API
// status of a container is only read when the container's newest instance has
// exited, and rules match whatever the container's restartPolicy. view may be nil:
// then only the API status is read (as the probe worker asks). Like upstream it does
// not look at the RestartAllContainersOnContainerExits gate: the kubelet only asks
// with the gate on. A nil pod gives false.
func ShouldAllContainersRestart(pod *corev1.Pod, view *View) bool {
	if pod == nil {
		return false
	}
	for i := range pod.Status.Conditions {
		if c := &pod.Status.Conditions[i]; c.Type == corev1.AllContainersRestarting && c.Status == corev1.ConditionTrue {
			return true
		}
	}
	var rt *newest
	if view != nil {
		x := newNewest(view, nil)
		rt = &x
	}
	api := newAPIStatuses(&pod.Status)
	return restartAllTriggered(pod.Spec.InitContainers, rt, &api) || restartAllTriggered(pod.Spec.Containers, rt, &api)
}

// restartAllTriggered checks cs for an exit that triggers a restart of all
// containers; rt is nil when only the API status is read.
func restartAllTriggered(cs []corev1.Container, rt *newest, api *apiStatuses) bool {
	for i := range cs {
		c := &cs[i]
		if rt != nil {
			inst, ok := rt.get(c.Name)
			if !ok || inst.State.Kubelet() != StateExited {
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
	r, _, ok := MatchingRule(c, exitCode)
	return ok && r.Action == corev1.ContainerRestartRuleActionRestartAllContainers
}

// AllContainersRestartCleanedUp reports whether no instance of any init or regular
// container is left in the runtime, as kubecontainer.AllContainersRestartCleanedUp:
// the moment the kubelet ends an in-place restart of all containers and starts the
// pod again from its first init container. Ephemeral containers are ignored. With a
// nil view the instances are read from pod.Status as [ShouldRestart] reads them,
// except that a status waiting with reason RestartingAllContainers has none (the
// kubelet reports exactly that state for a container it removed). A nil pod has no
// containers and gives true.
func AllContainersRestartCleanedUp(pod *corev1.Pod, view *View) bool {
	if pod == nil {
		return true
	}
	rt := newNewest(view, &pod.Status)
	return noInstances(pod.Spec.Containers, &rt) && noInstances(pod.Spec.InitContainers, &rt)
}

func noInstances(cs []corev1.Container, rt *newest) bool {
	for i := range cs {
		if _, ok := rt.get(cs[i].Name); ok {
			return false
		}
	}
	return true
}
