package lifecycle

import (
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/podlife/podlife/internal/byname"
	"github.com/podlife/podlife/restart"
)

// activeSandbox returns the ID of the current sandbox and whether there is one: the
// newest sandbox when it is ready (kuberuntime GetPodStatus).
func activeSandbox(v *restart.View) (string, bool) {
	if len(v.Sandboxes) == 0 || !v.Sandboxes[0].Ready {
		return "", false
	}
	return v.Sandboxes[0].ID, true
}

// isActive reports whether inst belongs to the current sandbox.
func isActive(inst *restart.Instance, activeID string, ok bool) bool {
	if !ok {
		return false
	}
	return inst.Sandbox == "" || inst.Sandbox == activeID
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
//     RestartingAllContainers becomes a restart.StartFailure (the reason cache);
//   - the crash-loop back-off of a container is rebuilt from what the kubelet wrote:
//     for a container waiting in CrashLoopBackOff, the delay of its message ("back-off
//     40s restarting failed container=…") with, as the entry's last update, the start
//     of the run in lastTerminationState (the kubelet advances the entry when it allows
//     a start); for a container whose state is terminated after restarts, the delay
//     the default back-off reaches after that many restarts in a row (10s doubling to
//     5m), updated at the start of that run. Other containers have no entry.
//
// The result is deterministic and shares no memory with the pod.
func ViewFromStatus(pod *corev1.Pod) restart.View {
	var v restart.View
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
	current := make([]restart.Instance, 0, n)
	var previous []restart.Instance
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
				prev := restart.ExitedInstance(cs.Name, t)
				prev.Image, prev.ImageID, prev.RestartCount = cs.Image, cs.ImageID, max(cs.RestartCount-1, 0)
				previous = append(previous, prev)
			}
			if w := cs.State.Waiting; w != nil && w.Reason != "" && w.Reason != ReasonContainerCreating && w.Reason != ReasonPodInitializing && w.Reason != restart.ReasonRestartingAllContainers {
				if v.StartFailures == nil {
					v.StartFailures = make(map[string]restart.StartFailure)
				}
				v.StartFailures[cs.Name] = restart.StartFailure{Reason: w.Reason, Message: w.Message}
			}
			if c != nil {
				if b, ok := backOffFromStatus(cs); ok {
					if v.BackOff == nil {
						v.BackOff = make(map[string]restart.BackOff)
					}
					v.BackOff[restart.BackOffKey(pod, c)] = b
				}
			}
		}
	}
	inits, regular := byname.Containers(pod.Spec.InitContainers), byname.Containers(pod.Spec.Containers)
	eph := byname.New(pod.Spec.EphemeralContainers, func(e *corev1.EphemeralContainer) string { return e.Name })
	add(st.InitContainerStatuses, inits.FirstEntry)
	add(st.ContainerStatuses, regular.FirstEntry)
	add(st.EphemeralContainerStatuses, func(name string) *corev1.Container {
		if e := eph.FirstEntry(name); e != nil {
			return (*corev1.Container)(&e.EphemeralContainerCommon)
		}
		return nil
	})
	if len(current)+len(previous) > 0 {
		v.Instances = append(current, previous...)
	}
	if hasSandbox {
		sb := restart.Sandbox{ID: "sandbox", Ready: true, HostNetwork: pod.Spec.HostNetwork}
		if !pod.Spec.HostNetwork || st.PodIP != "" {
			sb.Network = &restart.SandboxNetwork{IP: st.PodIP}
			for i := 1; i < len(st.PodIPs); i++ {
				sb.Network.AdditionalIPs = append(sb.Network.AdditionalIPs, st.PodIPs[i].IP)
			}
		}
		if pod.Spec.HostNetwork {
			sb.Network = nil
		}
		v.Sandboxes = []restart.Sandbox{sb}
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

// backOffFromStatus rebuilds a container's crash-loop back-off entry from its status
// (see ViewFromStatus).
func backOffFromStatus(cs *corev1.ContainerStatus) (restart.BackOff, bool) {
	if w := cs.State.Waiting; w != nil && w.Reason == restart.ReasonCrashLoopBackOff {
		last := cs.LastTerminationState.Terminated
		d, ok := crashLoopDelay(w.Message)
		if !ok || last == nil {
			return restart.BackOff{}, false
		}
		// A record without a start time is taken as a run that ended at once.
		update := last.StartedAt.Time
		if update.IsZero() {
			update = last.FinishedAt.Time
		}
		return restart.BackOff{Exists: true, Delay: d, LastUpdate: update}, true
	}
	if t := cs.State.Terminated; t != nil && cs.RestartCount > 0 {
		sched := restart.CrashLoopBackOffPolicy(restart.Options{}).Schedule(int(min(cs.RestartCount, 64)) + 1)
		update := t.StartedAt.Time
		if update.IsZero() {
			update = t.FinishedAt.Time
		}
		return restart.BackOff{Exists: true, Delay: sched[len(sched)-1], LastUpdate: update}, true
	}
	return restart.BackOff{}, false
}

// crashLoopDelay reads the delay of a CrashLoopBackOff message, "back-off <delay>
// restarting failed container=<name> pod=<pod>".
func crashLoopDelay(msg string) (time.Duration, bool) {
	rest, ok := strings.CutPrefix(msg, "back-off ")
	if !ok {
		return 0, false
	}
	word, _, ok := strings.Cut(rest, " ")
	if !ok {
		return 0, false
	}
	d, err := time.ParseDuration(word)
	if err != nil || d <= 0 {
		return 0, false
	}
	return d, true
}

// currentInstance maps a container status's current state to an instance.
func currentInstance(cs *corev1.ContainerStatus, c *corev1.Container) (restart.Instance, bool) {
	inst := restart.Instance{Name: cs.Name, ID: cs.ContainerID, Image: cs.Image, ImageID: cs.ImageID, RestartCount: cs.RestartCount}
	switch {
	case cs.State.Running != nil:
		inst.State = restart.StateRunning
		inst.StartedAt = cs.State.Running.StartedAt.Time
		started := cs.Started != nil && *cs.Started
		if c != nil && c.StartupProbe != nil && started {
			inst.Startup = restart.ProbeSuccess
		}
		if c != nil && c.ReadinessProbe != nil && cs.Ready {
			inst.Readiness = restart.ProbeSuccess
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
		return restart.Instance{}, false
	}
	return inst, true
}

// lookup finds a view's instances by container name, in time linear in the view
// ([byname]).
type lookup struct {
	v     *restart.View
	names byname.Index[restart.Instance]
}

func newLookup(v *restart.View) lookup {
	return lookup{v: v, names: byname.NewScanned(v.Instances, instanceName, scanInstances, scanInstancesBack)}
}

func instanceName(i *restart.Instance) string { return i.Name }

// scanInstances and scanInstancesBack find a name in a short list of instances,
// lengths first (see byname.NewScanned).
func scanInstances(is []restart.Instance, from int, name string) int {
	for i := from; i < len(is); i++ {
		if byname.Same(is[i].Name, name) {
			return i
		}
	}
	return -1
}

func scanInstancesBack(is []restart.Instance, before int, name string) int {
	for i := before - 1; i >= 0; i-- {
		if byname.Same(is[i].Name, name) {
			return i
		}
	}
	return -1
}

// first and next walk the indexes of the instances named name, newest first:
// for i := x.first(name); i >= 0; i = x.next(i, name). A short list is scanned in
// place.
func (x *lookup) first(name string) int {
	if x.names.Short() {
		return scanInstances(x.v.Instances, 0, name)
	}
	return x.names.First(name)
}

func (x *lookup) next(i int, name string) int {
	if x.names.Short() {
		return scanInstances(x.v.Instances, i+1, name)
	}
	return x.names.Next(i, name)
}

// newest returns the newest instance named name, or nil.
func (x *lookup) newest(name string) *restart.Instance {
	if i := x.first(name); i >= 0 {
		return &x.v.Instances[i]
	}
	return nil
}

// newestExited returns the newest exited instance named name, or nil.
func (x *lookup) newestExited(name string) *restart.Instance {
	for i := x.first(name); i >= 0; i = x.next(i, name) {
		if x.v.Instances[i].State.Kubelet() == restart.StateExited {
			return &x.v.Instances[i]
		}
	}
	return nil
}

// newestActive returns the newest instance named name in the current sandbox, or nil.
func (x *lookup) newestActive(name string) *restart.Instance {
	id, ok := activeSandbox(x.v)
	if !ok {
		return nil
	}
	for i := x.first(name); i >= 0; i = x.next(i, name) {
		if inst := &x.v.Instances[i]; isActive(inst, id, ok) {
			return inst
		}
	}
	return nil
}

// anyRegularContainerCreatedL is HasAnyRegularContainerCreated: some regular
// container's newest instance (any sandbox) is created, running or exited.
func anyRegularContainerCreatedL(pod *corev1.Pod, x *lookup) bool {
	for i := range pod.Spec.Containers {
		if inst := x.newest(pod.Spec.Containers[i].Name); inst != nil && inst.State.Kubelet() != restart.StateUnknown {
			return true
		}
	}
	return false
}
