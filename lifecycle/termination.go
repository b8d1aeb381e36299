package lifecycle

import (
	"slices"
	"time"
	"unsafe"

	corev1 "k8s.io/api/core/v1"

	"github.com/podlife/podlife/internal/byname"
	"github.com/podlife/podlife/internal/podutil"
	"github.com/podlife/podlife/restart"
)

// KillReason is why the kubelet stops a container (kuberuntime's containerKillReason). It
// decides which grace period applies: a probe kill may use the probe's own
// terminationGracePeriodSeconds.
type KillReason string

// The kill reasons of k8s.io/kubernetes pkg/kubelet/kuberuntime/kuberuntime_manager.go.
// Kills for a changed container definition or a resize carry the empty reason.
const (
	KillReasonNone                 KillReason = ""
	KillReasonStartupProbe         KillReason = "StartupProbe"
	KillReasonLivenessProbe        KillReason = "LivenessProbe"
	KillReasonFailedPostStartHook  KillReason = "FailedPostStartHook"
	KillReasonRestartAllContainers KillReason = "RestartAllContainers"
	// KillReasonUnknown is used for a container in the "unknown" state and for every
	// container of a whole-pod kill.
	KillReasonUnknown KillReason = "Unknown"
)

// MinimumGracePeriodSeconds is the shortest stop timeout the kubelet gives a container
// ("a minimal shutdown window to avoid unnecessary SIGKILLs"), and the grace used when the
// pod sets none.
const MinimumGracePeriodSeconds int64 = 2

// ContainerKind tells the kinds of containers of a pod apart.
type ContainerKind string

// The container kinds.
const (
	// KindContainer is an entry of spec.containers.
	KindContainer ContainerKind = "Container"
	// KindInitContainer is an entry of spec.initContainers that is not a sidecar.
	KindInitContainer ContainerKind = "InitContainer"
	// KindSidecar is an entry of spec.initContainers with restartPolicy Always.
	KindSidecar ContainerKind = "Sidecar"
	// KindEphemeralContainer is an entry of spec.ephemeralContainers.
	KindEphemeralContainer ContainerKind = "EphemeralContainer"
)

// containerSpec finds the container named name as the kubelet's GetContainerSpec does:
// init containers, then containers, then ephemeral containers, the first match winning.
func containerSpec(spec *corev1.PodSpec, name string) *corev1.Container {
	for i := range spec.InitContainers {
		if c := &spec.InitContainers[i]; c.Name == name {
			return c
		}
	}
	for i := range spec.Containers {
		if c := &spec.Containers[i]; c.Name == name {
			return c
		}
	}
	for i := range spec.EphemeralContainers {
		if e := &spec.EphemeralContainers[i]; e.Name == name {
			return ephemeralAsContainer(e)
		}
	}
	return nil
}

// ephemeralAsContainer views an ephemeral container as a container, as the kubelet does.
func ephemeralAsContainer(e *corev1.EphemeralContainer) *corev1.Container {
	c := corev1.Container(e.EphemeralContainerCommon)
	return &c
}

// specLookup returns containerSpec for repeated lookups, in time linear in the spec
// ([byname]): init containers, then regular, then ephemeral ones, the first match
// winning.
func specLookup(spec *corev1.PodSpec) func(name string) *corev1.Container {
	inits, regular := byname.Containers(spec.InitContainers), byname.Containers(spec.Containers)
	eph := byname.New(spec.EphemeralContainers, func(e *corev1.EphemeralContainer) string { return e.Name })
	return func(name string) *corev1.Container {
		if c := inits.FirstEntry(name); c != nil {
			return c
		}
		if c := regular.FirstEntry(name); c != nil {
			return c
		}
		if e := eph.FirstEntry(name); e != nil {
			return ephemeralAsContainer(e)
		}
		return nil
	}
}

// GracePeriod returns the grace period, in seconds, the kubelet starts from when it stops
// the named container for reason (setTerminationGracePeriod in k8s.io/kubernetes
// pkg/kubelet/kuberuntime/kuberuntime_container.go):
//
//   - the pod's metadata.deletionGracePeriodSeconds when set, whatever the reason;
//   - else, when spec.terminationGracePeriodSeconds is set: for a startup or liveness probe
//     kill, that probe's terminationGracePeriodSeconds when set (even if longer than the
//     pod's), otherwise the pod's;
//   - else [MinimumGracePeriodSeconds].
//
// A grace period override, the preStop hook and the wait for a sidecar's turn then shorten
// it, and the kubelet never passes less than [MinimumGracePeriodSeconds] to the runtime: see
// [StopTimeout]. An unknown container name is treated as a container without probes.
func GracePeriod(pod *corev1.Pod, container string, reason KillReason) int64 {
	pod = orEmpty(pod)
	c := containerSpec(&pod.Spec, container)
	return gracePeriod(pod, c, reason)
}

// gracePeriod is setTerminationGracePeriod for the container spec c (nil when unknown).
func gracePeriod(pod *corev1.Pod, c *corev1.Container, reason KillReason) int64 {
	if pod.DeletionGracePeriodSeconds != nil {
		return *pod.DeletionGracePeriodSeconds
	}
	if pod.Spec.TerminationGracePeriodSeconds == nil {
		return MinimumGracePeriodSeconds
	}
	if c != nil {
		var probe *corev1.Probe
		switch reason {
		case KillReasonStartupProbe:
			probe = c.StartupProbe
		case KillReasonLivenessProbe:
			probe = c.LivenessProbe
		}
		if probe != nil && probe.TerminationGracePeriodSeconds != nil {
			return *probe.TerminationGracePeriodSeconds
		}
	}
	return *pod.Spec.TerminationGracePeriodSeconds
}

// StopOptions describes what happens to a container between the kubelet's decision to stop
// it and the runtime's StopContainer call.
type StopOptions struct {
	// GracePeriodOverride replaces the [GracePeriod] when set. The pod worker passes the
	// pod's effective grace ([PodGracePeriod]) when it terminates a pod; a
	// RestartAllContainers reset passes 0. Kills decided by the kubelet's sync loop
	// (probe failures, a failed init container, the end of the main containers) pass none.
	GracePeriodOverride *int64
	// PreStop is how long the container's preStop hook runs. It only counts when the
	// container has a preStop hook and the grace is positive; the kubelet waits for the
	// hook at most the grace period, and subtracts the whole seconds it waited.
	PreStop time.Duration
	// Ordered says that the kill is part of a whole-pod kill of a pod with sidecars, where
	// sidecars wait for their turn ([TerminationOrder]).
	Ordered bool
	// Wait is how long the container waits for its turn when Ordered (for a sidecar, until
	// the main containers and the next sidecar are gone). The kubelet waits at most the
	// grace left after the preStop hook and subtracts the whole seconds it waited.
	Wait time.Duration
}

// StopTimeout returns the timeout, in seconds, the kubelet passes to the runtime's
// StopContainer for the named container (killContainer in k8s.io/kubernetes
// pkg/kubelet/kuberuntime/kuberuntime_container.go): the [GracePeriod] or the override,
// minus the time the preStop hook and the wait for its turn took, raised to at least
// [MinimumGracePeriodSeconds]. The runtime sends the container's stop signal, then kills it
// when the timeout expires.
func StopTimeout(pod *corev1.Pod, container string, reason KillReason, opts StopOptions) int64 {
	pod = orEmpty(pod)
	c := containerSpec(&pod.Spec, container)
	grace := gracePeriod(pod, c, reason)
	if opts.GracePeriodOverride != nil {
		grace = *opts.GracePeriodOverride
	}
	grace = stopTimeout(grace, c != nil && c.Lifecycle != nil && c.Lifecycle.PreStop != nil, opts.PreStop, opts.Ordered, opts.Wait)
	return grace
}

// stopTimeout applies killContainer's deductions to grace and the 2-second floor.
func stopTimeout(grace int64, hasPreStop bool, preStop time.Duration, ordered bool, wait time.Duration) int64 {
	if hasPreStop && grace > 0 {
		grace -= wholeSeconds(min(max(preStop, 0), seconds(grace)))
	}
	if ordered && grace > 0 {
		grace -= wholeSeconds(min(max(wait, 0), seconds(grace)))
	}
	return max(grace, MinimumGracePeriodSeconds)
}

// seconds converts whole seconds to a Duration, saturating instead of overflowing.
func seconds(s int64) time.Duration {
	const maxSeconds = int64(1<<63-1) / int64(time.Second)
	if s > maxSeconds {
		return time.Duration(1<<63 - 1)
	}
	return time.Duration(s) * time.Second
}

// wholeSeconds truncates d to whole seconds, as int64(d.Seconds()) does upstream.
func wholeSeconds(d time.Duration) int64 { return int64(d.Seconds()) }

// PodGracePeriod returns the grace period, in seconds, the kubelet's pod worker uses to
// terminate the pod (calculateEffectiveGracePeriod in k8s.io/kubernetes
// pkg/kubelet/pod_workers.go). current is the value used by an earlier termination
// attempt (0 the first time); override is a kubelet-internal request such as an eviction's.
// metadata.deletionGracePeriodSeconds replaces current when current is 0 or it is shorter;
// the override then replaces the result when that is 0 or the override is shorter; with
// neither, a first attempt uses spec.terminationGracePeriodSeconds. The result is at least
// 1. So the grace only goes down, except as upstream: a deletion grace period of 0 resets
// the value to 0, after which any override applies.
func PodGracePeriod(pod *corev1.Pod, current int64, override *int64) int64 {
	pod = orEmpty(pod)
	grace := current
	overridden := false
	if d := pod.DeletionGracePeriodSeconds; d != nil && (grace == 0 || *d < grace) {
		grace, overridden = *d, true
	}
	if override != nil && (grace == 0 || *override < grace) {
		grace, overridden = *override, true
	}
	if !overridden && grace == 0 && pod.Spec.TerminationGracePeriodSeconds != nil {
		grace = *pod.Spec.TerminationGracePeriodSeconds
	}
	return max(grace, 1)
}

// TerminationStep is one running container of a whole-pod kill.
type TerminationStep struct {
	// Name and Kind identify the container.
	Name string
	Kind ContainerKind
	// WaitsFor lists the running containers whose exit the container waits for, after its
	// preStop hook, before it is sent its stop signal (bounded by its grace period), next
	// to WaitsForSidecar. Only sidecars wait: for every running main container, which
	// TerminationOrderOf lists here, and for the next sidecar in spec order. The sidecars
	// of one result share this list (so that a pod with many sidecars and many main
	// containers costs linear memory): treat it as read-only.
	WaitsFor []string
	// WaitsForSidecar is the next running sidecar in spec order that the container
	// waits for, "" when none.
	WaitsForSidecar string
	// Stage is the container's place in the kill order: 0 for the containers stopped at
	// once, otherwise one more than the highest stage it waits for.
	Stage int
}

// TerminationOrder returns the kill order of a whole-pod termination (the kubelet's
// KillPod, k8s.io/kubernetes pkg/kubelet/kuberuntime/kuberuntime_termination_order.go) for
// the containers pod.Status reports running: see [TerminationOrderOf].
func TerminationOrder(pod *corev1.Pod) []TerminationStep {
	pod = orEmpty(pod)
	return TerminationOrderOf(pod, runningContainers(pod))
}

// runningContainers lists the containers whose status is Running.
func runningContainers(pod *corev1.Pod) []string {
	var names []string
	for _, list := range [][]corev1.ContainerStatus{pod.Status.InitContainerStatuses, pod.Status.ContainerStatuses, pod.Status.EphemeralContainerStatuses} {
		for i := range list {
			if list[i].State.Running != nil {
				names = append(names, list[i].Name)
			}
		}
	}
	return names
}

// TerminationOrderOf returns the kill order of a whole-pod termination in which the named
// containers are running; other containers are already stopped and not part of it.
//
// The kubelet stops every running container at once, each running its preStop hook first,
// sidecars included. When the pod has sidecars, each sidecar then waits, before its stop
// signal, for every main container to exit and for the next sidecar in spec order, so that
// sidecars stop after the main containers, in reverse spec order. Regular init containers,
// main containers and ephemeral containers never wait. A sidecar waits only on containers
// that are running: when the next sidecar is not running, it does not wait for the one
// after it either.
//
// Steps come in stage order; within a stage, main containers, then regular init
// containers, then ephemeral containers, then sidecars in reverse spec order. Names that
// match no container of the spec, and repeated names, are ignored.
func TerminationOrderOf(pod *corev1.Pod, running []string) []TerminationStep {
	pod = orEmpty(pod)
	spec := &pod.Spec
	isRunning := make(map[string]bool, len(running))
	for _, n := range running {
		isRunning[n] = true
	}
	steps := make([]TerminationStep, 0, len(running))
	seen := make(map[string]bool, len(running))
	add := func(name string, kind ContainerKind) {
		if isRunning[name] && !seen[name] {
			seen[name] = true
			steps = append(steps, TerminationStep{Name: name, Kind: kind})
		}
	}
	for i := range spec.Containers {
		add(spec.Containers[i].Name, KindContainer)
	}
	for i := range spec.InitContainers {
		if c := &spec.InitContainers[i]; !restart.IsRestartableInitContainer(c) {
			add(c.Name, KindInitContainer)
		}
	}
	for i := range spec.EphemeralContainers {
		add(spec.EphemeralContainers[i].Name, KindEphemeralContainer)
	}
	firstSidecar := len(steps)

	var runningMains []string
	for i := range spec.Containers {
		if n := spec.Containers[i].Name; isRunning[n] {
			runningMains = append(runningMains, n)
		}
	}
	stage := make(map[string]int, len(spec.InitContainers))
	next := "" // the next sidecar in spec order
	for i := len(spec.InitContainers) - 1; i >= 0; i-- {
		c := &spec.InitContainers[i]
		if !restart.IsRestartableInitContainer(c) {
			continue
		}
		prev := next
		next = c.Name
		if !isRunning[c.Name] || seen[c.Name] {
			continue
		}
		seen[c.Name] = true
		step := TerminationStep{Name: c.Name, Kind: KindSidecar}
		if len(runningMains) > 0 {
			step.WaitsFor = runningMains[:len(runningMains):len(runningMains)]
			step.Stage = 1
		}
		if prev != "" && isRunning[prev] {
			step.WaitsForSidecar = prev
			step.Stage = max(step.Stage, stage[prev]+1)
		}
		stage[c.Name] = step.Stage
		steps = append(steps, step)
	}
	// Sidecars with nothing to wait for are stopped at once with the others.
	slices.SortStableFunc(steps[firstSidecar:], func(a, b TerminationStep) int { return a.Stage - b.Stage })
	return steps
}

// StopBehavior is how a container behaves when it is stopped, for [TerminationSchedule].
type StopBehavior struct {
	// PreStop is how long its preStop hook runs; it only counts when the container has one.
	PreStop time.Duration
	// Exit is how long it takes to exit after its stop signal. The runtime kills it when
	// the stop timeout expires first.
	Exit time.Duration
}

// ScheduledStop is a [TerminationStep] with its timing, as offsets from the moment the
// kubelet starts the kill.
type ScheduledStop struct {
	TerminationStep
	// Waited is how long the container waited for its turn after its preStop hook.
	Waited time.Duration
	// Signal is when the runtime is asked to stop the container (StopContainer), which
	// sends its stop signal.
	Signal time.Duration
	// Timeout is the StopContainer timeout in seconds ([StopTimeout]).
	Timeout int64
	// Exit is when the container is gone: its exit after the signal, or the timeout.
	Exit time.Duration
}

// TerminationSchedule plays a whole-pod kill of the given steps (from [TerminationOrder]
// or [TerminationOrderOf]) in time: each container runs its preStop hook, waits for its
// turn for at most the grace left, and is given a stop timeout of at least
// [MinimumGracePeriodSeconds]. gracePeriodOverride is the pod worker's grace
// ([PodGracePeriod]) when the pod is being terminated, or nil for a kill decided by the
// sync loop, where each container uses its own [GracePeriod]. behavior gives each
// container's preStop and exit durations by name; a missing name runs no hook time and
// exits at once. Waiting only happens when the pod has a sidecar, as upstream builds no
// ordering otherwise.
func TerminationSchedule(pod *corev1.Pod, steps []TerminationStep, gracePeriodOverride *int64, behavior map[string]StopBehavior) []ScheduledStop {
	pod = orEmpty(pod)
	ordered := podutil.HasSidecar(&pod.Spec)
	out := make([]ScheduledStop, len(steps))
	exits := make(map[string]time.Duration, len(steps))
	lookup := specLookup(&pod.Spec)
	// The latest exit among a WaitsFor list, remembered per list: the sidecars of one
	// TerminationOrderOf share theirs, whose containers all come before them.
	type listKey struct {
		data *string
		n    int
	}
	type latestExit struct {
		exit time.Duration
		any  bool
	}
	latest := map[listKey]latestExit{}
	for i, step := range steps {
		b := behavior[step.Name]
		c := lookup(step.Name)
		grace := gracePeriod(pod, c, KillReasonUnknown)
		if gracePeriodOverride != nil {
			grace = *gracePeriodOverride
		}
		var elapsed time.Duration
		if c != nil && c.Lifecycle != nil && c.Lifecycle.PreStop != nil && grace > 0 {
			hook := min(max(b.PreStop, 0), seconds(grace))
			elapsed = hook
			grace -= wholeSeconds(hook)
		}
		var waited time.Duration
		if ordered && grace > 0 {
			// The latest exit among the containers waited for that have one.
			var last time.Duration
			has := false
			if n := len(step.WaitsFor); n > 0 {
				key := listKey{unsafe.SliceData(step.WaitsFor), n}
				r, ok := latest[key]
				if !ok {
					found := 0
					for _, dep := range step.WaitsFor {
						if x, ok := exits[dep]; ok {
							if found == 0 || x > r.exit {
								r.exit = x
							}
							found++
						}
					}
					r.any = found > 0
					// Only remembered once every container of the list has its exit.
					if found == n {
						latest[key] = r
					}
				}
				last, has = r.exit, r.any
			}
			if x, ok := exits[step.WaitsForSidecar]; ok && step.WaitsForSidecar != "" && (!has || x > last) {
				last, has = x, true
			}
			if has && last-elapsed > waited {
				waited = last - elapsed
			}
			waited = min(waited, seconds(grace))
			grace -= wholeSeconds(waited)
		}
		grace = max(grace, MinimumGracePeriodSeconds)
		signal := elapsed + waited
		exit := signal + min(max(b.Exit, 0), seconds(grace))
		exits[step.Name] = exit
		out[i] = ScheduledStop{TerminationStep: step, Waited: waited, Signal: signal, Timeout: grace, Exit: exit}
	}
	return out
}
