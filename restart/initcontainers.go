package restart

import (
	corev1 "k8s.io/api/core/v1"
)

// ReasonOOMKilled is the runtime reason of a container killed for running out of
// memory; it makes an init container failed whatever its exit code.
const ReasonOOMKilled = "OOMKilled"

// IsInitContainerFailed reports whether an init container instance counts as failed
// (kuberuntime isInitContainerFailed): its reason is OOMKilled (whatever the exit
// code), it exited with a non-zero code, or its state is unknown ([State.Kubelet]: an
// unrecognised state is unknown). nil is not failed.
func IsInitContainerFailed(inst *Instance) bool {
	if inst == nil {
		return false
	}
	state := inst.State.Kubelet()
	return inst.Reason == ReasonOOMKilled ||
		state == StateExited && inst.ExitCode != 0 ||
		state == StateUnknown
}

// InitAction is what the kubelet does next about one init container, given the
// newest instance in the current sandbox, while the pod is initializing.
type InitAction uint8

const (
	// InitNotStarted: there is no instance; the container starts when its turn
	// comes (or, for a sidecar of an initialized pod, right away).
	InitNotStarted InitAction = iota
	// InitWait: the instance is running; a regular init container is waited for, a
	// sidecar is kept running (probes, definition changes and resizes aside).
	InitWait
	// InitDone: a regular init container exited successfully; the next one starts,
	// or the pod is initialized after the last one.
	InitDone
	// InitStart: the instance is created but not running, or a sidecar exited, or a
	// failed init container is restarted: the container is started again.
	InitStart
	// InitKillAndStart: the instance is in an unknown state and is killed before the
	// restart, with message `Init container is in "unknown" state, try killing it
	// before restart`.
	InitKillAndStart
	// InitKillPod: a failed init container is not restarted: the pod is killed, no
	// init container is started, and the pod will not be initialized (its phase
	// becomes Failed).
	InitKillPod
)

var initActionNames = [...]string{
	InitNotStarted:   "NotStarted",
	InitWait:         "Wait",
	InitDone:         "Done",
	InitStart:        "Start",
	InitKillAndStart: "KillAndStart",
	InitKillPod:      "KillPod",
}

// String returns the action's name, for example "KillPod".
func (a InitAction) String() string {
	if int(a) < len(initActionNames) {
		return initActionNames[a]
	}
	return "InitAction(?)"
}

// InitContainerAction returns what the kubelet's computeInitContainerActions does
// about init container c of pod whose newest instance in the current sandbox is inst
// (nil: none), before the pod is initialized:
//
//   - a sidecar (restartPolicy Always) is restarted whenever it exits, whatever the
//     exit code and policies, and killed and restarted when unknown;
//   - a created instance is started again, without any policy check;
//   - a failed exited instance ([IsInitContainerFailed]: OOMKilled, non-zero exit) is
//     restarted when the pod's restartPolicy is not Never, or, with
//     ContainerRestartRules on, when [ShouldRestartInstance] says so (the
//     container's rules, then its own restartPolicy, then the pod's; and never once the
//     pod is being deleted). Otherwise the pod is killed. An OOMKilled instance that
//     exited 0 is therefore not restarted under OnFailure when the gate is on;
//   - an unknown instance is killed and restarted when the pod's restartPolicy is not
//     Never or, with ContainerRestartRules on, the container's own restartPolicy (when
//     set) is not Never; rules are not evaluated, there is no exit code. Otherwise the
//     pod is killed.
//
// A nil pod or container gives InitNotStarted.
func InitContainerAction(pod *corev1.Pod, c *corev1.Container, inst *Instance, opts Options) InitAction {
	if pod == nil || c == nil || inst == nil {
		return InitNotStarted
	}
	sidecar := IsRestartableInitContainer(c)
	switch inst.State {
	case StateCreated:
		return InitStart
	case StateRunning:
		return InitWait
	case StateExited:
		if sidecar {
			return InitStart
		}
		if !IsInitContainerFailed(inst) {
			return InitDone
		}
		restart := pod.Spec.RestartPolicy != corev1.RestartPolicyNever
		if opts.containerRestartRules() {
			restart = ShouldRestartInstance(pod, c, inst, opts).Restart
		}
		if !restart {
			return InitKillPod
		}
		return InitStart
	}
	// Unknown, or any state the kubelet does not name.
	if sidecar {
		return InitKillAndStart
	}
	restart := pod.Spec.RestartPolicy != corev1.RestartPolicyNever
	if opts.containerRestartRules() && c.RestartPolicy != nil {
		restart = *c.RestartPolicy != corev1.ContainerRestartPolicyNever
	}
	if !restart {
		return InitKillPod
	}
	return InitKillAndStart
}
