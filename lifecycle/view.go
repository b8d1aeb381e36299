package lifecycle

import (
	"iter"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/podlife/podlife/restart"
)

// View is what the kubelet knows about a pod that the API object does not carry: the
// container runtime's sandboxes and container instances (kubecontainer.PodStatus), the
// prober's results, the crash-loop back-off and the reasons of the last failed starts
// (the kubelet's "reason cache"). [Plan], [NextStatus] and the two runtime conditions
// read it next to the pod.
//
// Callers that hold only the API object can derive a plausible view with
// [ViewFromStatus]. The zero View is a pod the node has never seen: no sandbox, no
// container, no probe result, no back-off.
//
// A View is read, never modified, by this package; it is safe to share between
// goroutines as long as nobody writes to it.
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
	// ([restart.BackoffKey] of the pod and container, which changes with the image or
	// the resources). A missing key has no entry. [Plan] reports the entries its starts
	// advance in [PodActions.BackOffUpdates].
	BackOff map[string]restart.Backoff

	// StartFailures is the kubelet's reason cache: for a container name, why its last
	// start attempt failed (for example CrashLoopBackOff, ErrImagePull or
	// CreateContainerConfigError). A successful start removes the entry. Only
	// containers the kubelet would restart show it (see [NextStatus]).
	StartFailures map[string]StartFailure

	// HostIPs are the node's IP addresses, primary first. They fill status.hostIP(s)
	// and are the pod IPs of a hostNetwork pod. Empty keeps those of pod.Status.
	HostIPs []string
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
// with the prober's results for it.
type Instance struct {
	// Name is the container's name in the pod spec.
	Name string
	// ID is the container ID as the API status shows it, for example
	// "containerd://4fe1…". It is copied to containerID as written.
	ID string
	// Sandbox is the ID of the sandbox the instance belongs to. Empty means the newest
	// sandbox: the common case needs no bookkeeping.
	Sandbox string
	// State is the runtime state: restart.StateCreated, StateRunning, StateExited or
	// StateUnknown (the empty StateNone is read as unknown).
	State restart.State
	// ExitCode, Reason and Message describe an exited instance (Reason as the
	// runtime reports it, for example "Completed", "Error" or "OOMKilled").
	ExitCode int32
	Reason   string
	Message  string
	// Image and ImageID are the image the instance runs, as the runtime reports them.
	Image   string
	ImageID string
	// StartedAt and FinishedAt are the instance's start and finish times.
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

// activeSandbox returns the ID of the current sandbox and whether there is one: the
// newest sandbox when it is ready (kuberuntime GetPodStatus).
func (v *View) activeSandbox() (string, bool) {
	if len(v.Sandboxes) == 0 || !v.Sandboxes[0].Ready {
		return "", false
	}
	return v.Sandboxes[0].ID, true
}

// isActive reports whether inst belongs to the current sandbox.
func (v *View) isActive(inst *Instance, activeID string, ok bool) bool {
	if !ok {
		return false
	}
	return inst.Sandbox == "" || inst.Sandbox == activeID
}

// Newest returns the newest instance of the named container as [restart.Instance], so
// that a View is a [restart.Runtime].
func (v *View) Newest(name string) (restart.Instance, bool) {
	if v == nil {
		return restart.Instance{}, false
	}
	for i := range v.Instances {
		if v.Instances[i].Name == name {
			return v.Instances[i].restartInstance(), true
		}
	}
	return restart.Instance{}, false
}

// NewestExited returns the newest exited instance of the named container, as
// [restart.Runtime] asks.
func (v *View) NewestExited(name string) (restart.Instance, bool) {
	if v == nil {
		return restart.Instance{}, false
	}
	for i := range v.Instances {
		if v.Instances[i].Name == name && v.Instances[i].kubeletState() == restart.StateExited {
			return v.Instances[i].restartInstance(), true
		}
	}
	return restart.Instance{}, false
}

func (inst *Instance) restartInstance() restart.Instance {
	return restart.Instance{Name: inst.Name, State: inst.kubeletState(), ExitCode: inst.ExitCode, Reason: inst.Reason, FinishedAt: inst.FinishedAt}
}

// kubeletState maps the empty state to unknown, as the runtime conversion does for
// any state it does not recognise.
func (inst *Instance) kubeletState() restart.State {
	switch inst.State {
	case restart.StateCreated, restart.StateRunning, restart.StateExited:
		return inst.State
	}
	return restart.StateUnknown
}

// ViewFromStatus derives a plausible runtime view from the pod's API status alone, for
// callers that hold only the API object. It is a best effort: the API status shows at
// most two instances per container and no probe results, so:
//
//   - a pod with a sandbox (status.podIP set, or any container status that is running or
//     terminated, or a PodReadyToStartContainers=True condition) gets one ready sandbox
//     "sandbox" (attempt 0) with the pod's IPs; a pod with none gets no sandbox;
//   - each container status gives its current instance (state.running → running,
//     state.terminated → exited, waiting with an empty reason → created; other waiting
//     states → none), preceded in age by the instance of lastTerminationState.terminated
//     when there is one; instance IDs come from containerID (the "type://" prefix kept);
//   - probe results are derived from started and ready: a running container whose
//     status says started=true has Startup Success when it has a startup probe, and one
//     that is ready has Readiness Success when it has a readiness probe. Nothing is
//     failing;
//   - a waiting reason other than ContainerCreating, PodInitializing and
//     RestartingAllContainers becomes a StartFailure (the reason cache);
//   - the back-off is empty.
//
// The result is deterministic and shares no memory with the pod.
func ViewFromStatus(pod *corev1.Pod) View {
	var v View
	if pod == nil {
		return v
	}
	st := &pod.Status
	n := len(st.InitContainerStatuses) + len(st.ContainerStatuses) + len(st.EphemeralContainerStatuses)
	hasSandbox := st.PodIP != ""
	for i := range st.Conditions {
		if st.Conditions[i].Type == corev1.PodReadyToStartContainers && st.Conditions[i].Status == corev1.ConditionTrue {
			hasSandbox = true
		}
	}
	// Instances are collected current-first per container; the runtime's newest-first
	// order across containers is approximated by putting every current instance before
	// every previous one.
	current := make([]Instance, 0, n)
	var previous []Instance
	add := func(list []corev1.ContainerStatus, spec func(string) *corev1.Container) {
		for i := range list {
			cs := &list[i]
			c := spec(cs.Name)
			if inst, ok := currentInstance(cs, c); ok {
				current = append(current, inst)
				if inst.State == restart.StateRunning || inst.State == restart.StateExited {
					hasSandbox = true
				}
			}
			if t := cs.LastTerminationState.Terminated; t != nil && t.Reason != restart.ReasonRestartingAllContainers {
				previous = append(previous, Instance{
					Name: cs.Name, ID: t.ContainerID, State: restart.StateExited,
					ExitCode: t.ExitCode, Reason: t.Reason, Message: t.Message,
					Image: cs.Image, ImageID: cs.ImageID,
					StartedAt: t.StartedAt.Time, FinishedAt: t.FinishedAt.Time,
					RestartCount: max(cs.RestartCount-1, 0),
				})
			}
			if w := cs.State.Waiting; w != nil && w.Reason != "" && w.Reason != ReasonContainerCreating && w.Reason != ReasonPodInitializing && w.Reason != restart.ReasonRestartingAllContainers {
				if v.StartFailures == nil {
					v.StartFailures = make(map[string]StartFailure)
				}
				v.StartFailures[cs.Name] = StartFailure{Reason: w.Reason, Message: w.Message}
			}
		}
	}
	add(st.InitContainerStatuses, func(name string) *corev1.Container { return findIn(pod.Spec.InitContainers, name) })
	add(st.ContainerStatuses, func(name string) *corev1.Container { return findIn(pod.Spec.Containers, name) })
	add(st.EphemeralContainerStatuses, func(name string) *corev1.Container { return findEphemeral(&pod.Spec, name) })
	if len(current)+len(previous) > 0 {
		v.Instances = append(current, previous...)
	}
	if hasSandbox {
		sb := Sandbox{ID: "sandbox", Ready: true, HostNetwork: pod.Spec.HostNetwork}
		if !pod.Spec.HostNetwork || st.PodIP != "" {
			sb.Network = &SandboxNetwork{IP: st.PodIP}
			for i := 1; i < len(st.PodIPs); i++ {
				sb.Network.AdditionalIPs = append(sb.Network.AdditionalIPs, st.PodIPs[i].IP)
			}
		}
		if pod.Spec.HostNetwork {
			sb.Network = nil
		}
		v.Sandboxes = []Sandbox{sb}
		for i := range v.Instances {
			v.Instances[i].Sandbox = sb.ID
		}
	}
	for i := range st.HostIPs {
		v.HostIPs = append(v.HostIPs, st.HostIPs[i].IP)
	}
	if len(v.HostIPs) == 0 && st.HostIP != "" {
		v.HostIPs = []string{st.HostIP}
	}
	return v
}

// currentInstance maps a container status's current state to an instance.
func currentInstance(cs *corev1.ContainerStatus, c *corev1.Container) (Instance, bool) {
	inst := Instance{Name: cs.Name, ID: cs.ContainerID, Image: cs.Image, ImageID: cs.ImageID, RestartCount: cs.RestartCount}
	switch {
	case cs.State.Running != nil:
		inst.State = restart.StateRunning
		inst.StartedAt = cs.State.Running.StartedAt.Time
		started := cs.Started != nil && *cs.Started
		if c != nil && c.StartupProbe != nil && started {
			inst.Startup = ProbeSuccess
		}
		if c != nil && c.ReadinessProbe != nil && cs.Ready {
			inst.Readiness = ProbeSuccess
		}
	case cs.State.Terminated != nil:
		t := cs.State.Terminated
		inst.State = restart.StateExited
		inst.ExitCode, inst.Reason, inst.Message = t.ExitCode, t.Reason, t.Message
		inst.StartedAt, inst.FinishedAt = t.StartedAt.Time, t.FinishedAt.Time
		if t.ContainerID != "" {
			inst.ID = t.ContainerID
		}
	case cs.State.Waiting != nil && cs.State.Waiting.Reason == "" && cs.ContainerID != "":
		inst.State = restart.StateCreated
	default:
		return Instance{}, false
	}
	return inst, true
}

func findIn(cs []corev1.Container, name string) *corev1.Container {
	for i := range cs {
		if cs[i].Name == name {
			return &cs[i]
		}
	}
	return nil
}

func findEphemeral(spec *corev1.PodSpec, name string) *corev1.Container {
	for i := range spec.EphemeralContainers {
		if spec.EphemeralContainers[i].Name == name {
			return (*corev1.Container)(&spec.EphemeralContainers[i].EphemeralContainerCommon)
		}
	}
	return nil
}

// lookup finds a view's instances by container name. Small views are scanned; large
// ones are indexed once, so that every function stays linear in the pod's size.
type lookup struct {
	v      *View
	byName map[string][]int
}

const indexThreshold = 24

func newLookup(v *View) lookup {
	x := lookup{v: v}
	if len(v.Instances) > indexThreshold {
		x.byName = make(map[string][]int)
		for i := range v.Instances {
			n := v.Instances[i].Name
			x.byName[n] = append(x.byName[n], i)
		}
	}
	return x
}

// all yields the indexes of the instances named name, newest first.
func (x *lookup) all(name string) iter.Seq[int] {
	return func(yield func(int) bool) {
		if x.byName != nil {
			for _, i := range x.byName[name] {
				if !yield(i) {
					return
				}
			}
			return
		}
		for i := range x.v.Instances {
			if x.v.Instances[i].Name == name && !yield(i) {
				return
			}
		}
	}
}

// first returns the index of the newest instance named name, or -1.
func (x *lookup) first(name string) int {
	for i := range x.all(name) {
		return i
	}
	return -1
}

// newest returns the newest instance named name, or nil.
func (x *lookup) newest(name string) *Instance {
	if i := x.first(name); i >= 0 {
		return &x.v.Instances[i]
	}
	return nil
}

// newestExited returns the newest exited instance named name, or nil.
func (x *lookup) newestExited(name string) *Instance {
	for i := range x.all(name) {
		if x.v.Instances[i].State == restart.StateExited {
			return &x.v.Instances[i]
		}
	}
	return nil
}

// newestActive returns the newest instance named name in the current sandbox, or nil.
func (x *lookup) newestActive(name string) *Instance {
	id, ok := x.v.activeSandbox()
	if !ok {
		return nil
	}
	for i := range x.all(name) {
		if inst := &x.v.Instances[i]; x.v.isActive(inst, id, ok) {
			return inst
		}
	}
	return nil
}

// runtime returns the lookup as a [restart.Runtime].
func (x *lookup) runtime() restart.Runtime { return lookupRuntime{x} }

// lookupRuntime answers restart's questions through a lookup, in constant time per
// name for large views.
type lookupRuntime struct{ x *lookup }

func (r lookupRuntime) Newest(name string) (restart.Instance, bool) {
	if inst := r.x.newest(name); inst != nil {
		return inst.restartInstance(), true
	}
	return restart.Instance{}, false
}

func (r lookupRuntime) NewestExited(name string) (restart.Instance, bool) {
	for i := range r.x.all(name) {
		if inst := &r.x.v.Instances[i]; inst.kubeletState() == restart.StateExited {
			return inst.restartInstance(), true
		}
	}
	return restart.Instance{}, false
}

// anyRegularContainerCreatedL is HasAnyRegularContainerCreated: some regular
// container's newest instance (any sandbox) is created, running or exited.
func anyRegularContainerCreatedL(pod *corev1.Pod, x *lookup) bool {
	for i := range pod.Spec.Containers {
		if inst := x.newest(pod.Spec.Containers[i].Name); inst != nil && inst.kubeletState() != restart.StateUnknown {
			return true
		}
	}
	return false
}
