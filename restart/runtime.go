package restart

import "time"

// State is the runtime state of a container instance as the kubelet holds it
// (k8s.io/kubernetes pkg/kubelet/container/runtime.go ContainerState).
type State string

// The runtime states of a container instance. StateNone is not a runtime state: it
// stands for "no instance", a container that never ran or whose instances were all
// garbage-collected.
const (
	StateNone    State = ""
	StateCreated State = "created"
	StateRunning State = "running"
	StateExited  State = "exited"
	StateUnknown State = "unknown"
)

// Kubelet returns the state as the kubelet's conversion of runtime states leaves it
// (kuberuntime toKubeContainerState): created, running and exited as they are, any
// other value, the empty one included, unknown. Every function of this module reads
// an [Instance]'s state through it.
func (s State) Kubelet() State {
	switch s {
	case StateCreated, StateRunning, StateExited:
		return s
	}
	return StateUnknown
}

// View is what the kubelet knows about a pod that the API object does not carry: the
// container runtime's sandboxes and container instances (kubecontainer.PodStatus), the
// prober's results, the crash-loop back-off and the reasons of the last failed starts
// (the kubelet's "reason cache"). It is the one model of the node's runtime in this
// module: the restart-all functions here and the lifecycle package's Plan, NextStatus
// and runtime conditions read it next to the pod.
//
// Callers that hold only the API object can derive a plausible view with
// [ViewFromStatus]. The zero View is a pod the node has never seen: no sandbox, no
// container, no probe result, no back-off. A View is only read, never modified, by
// this module; it is safe to share between goroutines as long as nobody writes to it.
type View struct {
	// Sandboxes lists the pod's sandboxes, newest first (the runtime orders them by
	// creation time). Only the first one can be current.
	Sandboxes []Sandbox

	// Instances lists every container instance of the pod (init, regular and
	// ephemeral, of every sandbox), newest first by creation time, as
	// kubecontainer.PodStatus.ContainerStatuses does. The order matters: the kubelet
	// reads "the" instance of a container as the first one with that name.
	Instances []Instance

	// BackOff is the kubelet's crash-loop back-off: one entry per back-off key
	// ([BackOffKey] of the pod and container, which changes with the image or the
	// resources). A missing key has no entry.
	BackOff map[string]BackOff

	// StartFailures is the kubelet's reason cache: for a container name, why its last
	// start attempt failed (for example CrashLoopBackOff, ErrImagePull or
	// CreateContainerConfigError). A successful start removes the entry.
	StartFailures map[string]StartFailure

	// HostIPs are the node's IP addresses, primary first. They fill status.hostIP(s)
	// and are the pod IPs of a hostNetwork pod. Empty keeps those of pod.Status.
	HostIPs []string
}

// Newest returns the newest instance (the first in Instances) of the named
// container, in any state, and whether there is one. A nil view has none. It scans;
// the functions of this module that ask about every container index the instances
// once per call instead.
func (v *View) Newest(name string) (Instance, bool) {
	if v == nil {
		return Instance{}, false
	}
	for i := range v.Instances {
		if v.Instances[i].Name == name {
			return v.Instances[i], true
		}
	}
	return Instance{}, false
}

// NewestExited returns the newest instance of the named container whose state is
// exited ([State.Kubelet]), and whether there is one.
func (v *View) NewestExited(name string) (Instance, bool) {
	if v == nil {
		return Instance{}, false
	}
	for i := range v.Instances {
		if v.Instances[i].Name == name && v.Instances[i].State.Kubelet() == StateExited {
			return v.Instances[i], true
		}
	}
	return Instance{}, false
}

// Sandbox is one pod sandbox as the runtime reports it (runtimeapi.PodSandboxStatus).
type Sandbox struct {
	// ID is the runtime's sandbox ID. Instances name their sandbox by it.
	ID string
	// Ready is the sandbox state: SANDBOX_READY when true, SANDBOX_NOTREADY otherwise.
	Ready bool
	// Attempt is the sandbox's creation attempt number (metadata.attempt).
	Attempt uint32
	// HostNetwork is true when the sandbox's network namespace mode is NODE; false is
	// POD. The kubelet recreates a sandbox whose mode differs from the pod's
	// spec.hostNetwork.
	HostNetwork bool
	// Network is the sandbox's network status; nil when the runtime reported none.
	Network *SandboxNetwork
}

// SandboxNetwork is the network status of a sandbox.
type SandboxNetwork struct {
	// IP is the primary IP; empty means the sandbox has no IP address, which makes
	// the kubelet recreate the sandbox of a pod that is not hostNetwork.
	IP string
	// AdditionalIPs are further IPs (for example the second family of a dual-stack pod).
	AdditionalIPs []string
}

// ProbeResult is the prober's cached result for one probe of one container instance.
type ProbeResult string

// Probe results. ProbeNone is not a result: the probe has not produced one yet (or the
// container has no such probe); the kubelet treats it differently from all three.
const (
	ProbeNone    ProbeResult = ""
	ProbeSuccess ProbeResult = "Success"
	ProbeFailure ProbeResult = "Failure"
	ProbeUnknown ProbeResult = "Unknown"
)

// Instance is one container instance as the runtime reports it (kubecontainer.Status),
// with the prober's results for it. Restart decisions read its State, ExitCode,
// Reason and FinishedAt; the lifecycle package reads the rest.
type Instance struct {
	// Name is the container's name in the pod spec.
	Name string
	// ID is the container ID as the API status shows it, for example
	// "containerd://4fe1…". It is copied to containerID as written.
	ID string
	// Sandbox is the ID of the sandbox the instance belongs to. Empty means the newest
	// sandbox: the common case needs no bookkeeping.
	Sandbox string
	// State is the runtime state: StateCreated, StateRunning, StateExited or
	// StateUnknown; any other value is read as unknown ([State.Kubelet]).
	State State
	// ExitCode, Reason and Message describe an exited instance (Reason as the
	// runtime reports it, for example "Completed", "Error" or "OOMKilled").
	ExitCode int32
	Reason   string
	Message  string
	// Image and ImageID are the image the instance runs, as the runtime reports them.
	Image   string
	ImageID string
	// StartedAt and FinishedAt are the instance's start and finish times; the
	// crash-loop back-off is measured from FinishedAt.
	StartedAt  time.Time
	FinishedAt time.Time
	// RestartCount is the restart count the kubelet recorded on the instance when it
	// created it (one more than the previous instance's).
	RestartCount int32
	// SpecChanged stands for the kubelet's container-hash comparison: the hash it
	// stored on the instance (kubecontainer.HashContainer, which covers only the
	// container's name and image) differs from the hash of the current spec. A running
	// regular container or sidecar whose spec changed is killed and restarted.
	SpecChanged bool
	// Liveness, Startup and Readiness are the prober's results for this instance.
	Liveness  ProbeResult
	Startup   ProbeResult
	Readiness ProbeResult
}

// StartFailure is the reason-cache entry of a container whose last start failed: the
// waiting reason and message the status shows, for example "CrashLoopBackOff" with
// "back-off 10s restarting failed container=app pod=web_default(uid)".
type StartFailure struct {
	// Reason is the waiting reason, for example "ErrImagePull".
	Reason string
	// Message is the waiting message.
	Message string
}
