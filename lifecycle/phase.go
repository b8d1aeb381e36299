package lifecycle

import (
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/podlife/podlife/restart"
)

// configSourceAnnotation names the kubelet's pod source; a pod whose source is anything
// but "api" is a static pod (k8s.io/kubernetes pkg/kubelet/types/pod_update.go).
const configSourceAnnotation = "kubernetes.io/config.source"

// PhaseOptions carries, besides the cluster [Options], the inputs of the kubelet's
// getPhase and generateAPIPodStatus that do not live in the pod object.
type PhaseOptions struct {
	Options

	// PodIsTerminal is the kubelet's podIsTerminal: the pod worker has decided the pod is
	// terminal and has stopped (or is about to report stopping) its containers, so
	// stopped containers will not be restarted whatever the policies. The kubelet passes
	// false in SyncPod and in the first status of SyncTerminatingPod, true once every
	// container has been stopped and in SyncTerminatedPod. The default, false, is the
	// ordinary running pod.
	PodIsTerminal bool

	// PodHasInitialized is the kubelet's podHasInitialized: some regular container has a
	// runtime instance, in any state, in the pod's current sandbox
	// (HasAnyActiveRegularContainerStarted). It only matters while a sidecar has not
	// started, which keeps an uninitialized pod Pending. Nil derives it from pod.Status
	// as the kubelet's status manager does (hasPodInitialized): some regular container
	// status has a last termination state or a state other than Waiting.
	PodHasInitialized *bool

	// OldStatus is the status the kubelet's status manager holds for the pod, which
	// generateAPIPodStatus prefers to pod.Status as the previous status (phase, reason,
	// message, and the start time of the active deadline). Nil means pod.Status, as for a
	// kubelet that has not cached the pod yet.
	OldStatus *corev1.PodStatus
}

// Phase returns the phase the kubelet's getPhase computes for the pod from the container
// statuses in pod.Status (regular statuses are looked up before init statuses, by name, the
// first match winning).
//
// Regular init containers that have not completed keep the pod Pending, and fail it when
// they failed and will not be restarted (by the container's own restartPolicy and
// restartPolicyRules under ContainerRestartRules, by the pod's Never policy otherwise).
// Sidecars count as running containers; a sidecar that has not started keeps the pod
// Pending until it has initialized, and stopped sidecars are ignored. Regular containers
// decide the rest: Running while any runs or will be restarted, Succeeded when all exited 0,
// Failed otherwise.
//
// Phase is getPhase alone; [StatusPhase] adds what generateAPIPodStatus does with its
// answer.
func Phase(pod *corev1.Pod, opts PhaseOptions) corev1.PodPhase {
	pod = orEmpty(pod)
	ix := newStatusIndexes(&pod.Status)
	return phase(pod, ix.regularFirst(), opts)
}

// phase is Phase over the pod's statuses, indexed in getPhase's order
// (ContainerStatuses, then InitContainerStatuses).
func phase(pod *corev1.Pod, statuses statusList, opts PhaseOptions) corev1.PodPhase {
	spec := &pod.Spec
	g := opts.Features.Resolve()
	crr, rac := g.ContainerRestartRules, g.RestartAllContainersOnContainerExits
	ropts := opts.Options

	// restartable is the kubelet's check on a container that exited with exitCode and
	// reason: its policies would restart it, or RestartAllContainers stopped it.
	restartable := func(c *corev1.Container, t *corev1.ContainerStateTerminated) bool {
		if restart.ContainerShouldRestart(c, spec, t.ExitCode, ropts) {
			return true
		}
		return rac && t.Reason == restart.ReasonRestartingAllContainers
	}

	var pendingSidecars, pendingInit, failedInit, failedInitNotRestartable int
	for i := range spec.InitContainers {
		c := &spec.InitContainers[i]
		if restart.IsRestartableInitContainer(c) {
			continue
		}
		s, ok := statuses.find(c.Name)
		switch {
		case !ok, s.State.Running != nil:
			pendingInit++
		case s.State.Terminated != nil:
			if t := s.State.Terminated; t.ExitCode != 0 {
				failedInit++
				if crr && !restartable(c, t) {
					failedInitNotRestartable++
				}
			}
		case s.State.Waiting != nil:
			t := s.LastTerminationState.Terminated
			if t == nil {
				pendingInit++
			} else if t.ExitCode != 0 {
				failedInit++
				// Upstream checks restartability here whatever the gate; the count
				// is only read with ContainerRestartRules on.
				if !restartable(c, t) {
					failedInitNotRestartable++
				}
			}
		default:
			pendingInit++
		}
	}

	var unknown, running, waiting, stopped, stoppedNotRestartable, succeeded int
	for i := range spec.InitContainers {
		c := &spec.InitContainers[i]
		if !restart.IsRestartableInitContainer(c) {
			continue
		}
		s, ok := statuses.find(c.Name)
		switch {
		case !ok:
			unknown++
		case s.State.Running != nil:
			if s.Started == nil || !*s.Started {
				pendingSidecars++
			}
			running++
		case s.State.Terminated != nil:
			// A stopped sidecar does not count.
		case s.State.Waiting != nil:
			if s.LastTerminationState.Terminated == nil {
				pendingSidecars++
				waiting++
			}
		default:
			pendingSidecars++
			unknown++
		}
	}

	for i := range spec.Containers {
		c := &spec.Containers[i]
		s, ok := statuses.find(c.Name)
		switch {
		case !ok:
			unknown++
		case s.State.Running != nil:
			running++
		case s.State.Terminated != nil:
			stopped++
			t := s.State.Terminated
			if crr && !restartable(c, t) {
				stoppedNotRestartable++
			}
			if t.ExitCode == 0 {
				succeeded++
			}
		case s.State.Waiting != nil:
			if t := s.LastTerminationState.Terminated; t != nil {
				// A container waiting to restart is stopped, never succeeded.
				stopped++
				if crr && !restartable(c, t) {
					stoppedNotRestartable++
				}
			} else {
				waiting++
			}
		default:
			unknown++
		}
	}

	if crr {
		if failedInitNotRestartable > 0 {
			return corev1.PodFailed
		}
	} else if failedInit > 0 && spec.RestartPolicy == corev1.RestartPolicyNever {
		return corev1.PodFailed
	}

	switch {
	case pendingInit > 0 || (pendingSidecars > 0 && !podHasInitialized(pod, opts)):
		return corev1.PodPending
	case waiting > 0:
		return corev1.PodPending
	case running > 0 && unknown == 0:
		return corev1.PodRunning
	case running == 0 && stopped > 0 && unknown == 0:
		// A terminal pod's containers are not restarted whatever the policies; static
		// pods are exempt (upstream TODO #116484).
		if opts.PodIsTerminal && !isStaticPod(pod) {
			if stopped == succeeded {
				return corev1.PodSucceeded
			}
			return corev1.PodFailed
		}
		if crr {
			if stopped != stoppedNotRestartable {
				return corev1.PodRunning
			}
			if stopped == succeeded {
				return corev1.PodSucceeded
			}
			return corev1.PodFailed
		}
		switch {
		case spec.RestartPolicy == corev1.RestartPolicyAlways:
			return corev1.PodRunning
		case stopped == succeeded:
			return corev1.PodSucceeded
		case spec.RestartPolicy == corev1.RestartPolicyNever:
			return corev1.PodFailed
		}
		return corev1.PodRunning
	}
	return corev1.PodPending
}

// podHasInitialized returns opts.PodHasInitialized, or derives it from the regular
// container statuses as the status manager's hasPodInitialized does.
func podHasInitialized(pod *corev1.Pod, opts PhaseOptions) bool {
	if opts.PodHasInitialized != nil {
		return *opts.PodHasInitialized
	}
	for i := range pod.Status.ContainerStatuses {
		s := &pod.Status.ContainerStatuses[i]
		if s.LastTerminationState.Terminated != nil || s.State.Waiting == nil {
			return true
		}
	}
	return false
}

// isStaticPod is kubetypes.IsStaticPod: the pod came from a file or URL, not the API.
func isStaticPod(pod *corev1.Pod) bool {
	source, ok := pod.Annotations[configSourceAnnotation]
	return ok && source != "api"
}

// isTerminal reports whether phase is Succeeded or Failed.
func isTerminal(phase corev1.PodPhase) bool {
	return phase == corev1.PodSucceeded || phase == corev1.PodFailed
}

// PhaseStatus is the phase the kubelet writes into a pod's status with the reason and
// message that go with it.
type PhaseStatus struct {
	Phase   corev1.PodPhase
	Reason  string
	Message string
}

// StatusPhase returns the phase, reason and message of the kubelet's next status for the
// pod at time now: [Phase] followed by [ResolvePhase].
func StatusPhase(pod *corev1.Pod, now time.Time, opts PhaseOptions) PhaseStatus {
	return ResolvePhase(pod, Phase(pod, opts), now, opts)
}

// ResolvePhase applies to phase, the answer of getPhase, what the kubelet's
// generateAPIPodStatus does with it, in upstream's order:
//
//  1. a non-terminal phase gives way to a terminal phase of the old status
//     (opts.OldStatus, else pod.Status), then to a terminal pod.Status.Phase;
//  2. when the phase equals the old status's phase, the old reason and message are kept
//     (each falling back to pod.Status's when empty); otherwise both are cleared;
//  3. a pod past its active deadline at now becomes Failed with reason DeadlineExceeded
//     ([DeadlineEviction]);
//  4. a pod whose pod.Status.Phase is terminal keeps that phase: pods never leave
//     Succeeded or Failed.
func ResolvePhase(pod *corev1.Pod, phase corev1.PodPhase, now time.Time, opts PhaseOptions) PhaseStatus {
	pod = orEmpty(pod)
	old := opts.OldStatus
	if old == nil {
		old = &pod.Status
	}
	out := PhaseStatus{Phase: phase}
	if !isTerminal(out.Phase) {
		switch {
		case isTerminal(old.Phase):
			out.Phase = old.Phase
		case isTerminal(pod.Status.Phase):
			out.Phase = pod.Status.Phase
		}
	}
	if out.Phase == old.Phase {
		out.Reason, out.Message = old.Reason, old.Message
		if out.Reason == "" {
			out.Reason = pod.Status.Reason
		}
		if out.Message == "" {
			out.Message = pod.Status.Message
		}
	}
	if e := deadlineEviction(pod, old, now); e.Evict {
		out = PhaseStatus{Phase: corev1.PodFailed, Reason: e.Reason, Message: e.Message}
	}
	if isTerminal(pod.Status.Phase) {
		out.Phase = pod.Status.Phase
	}
	return out
}
