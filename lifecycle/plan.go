package lifecycle

import (
	"strconv"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/podlife/podlife/restart"
)

// ContainerRef names a container of the pod spec.
type ContainerRef struct {
	// Kind is KindContainer, KindInitContainer, KindSidecar or KindEphemeralContainer.
	Kind ContainerKind
	// Index is the container's index in its spec list.
	Index int
	// Name is the container's name.
	Name string
}

// ContainerKill is a running (or unknown) container instance the kubelet kills, with
// the message of its Killing event.
type ContainerKill struct {
	// Container is the container the instance belongs to.
	Container ContainerRef
	// ID is the instance's ID, as in [restart.Instance.ID].
	ID string
	// Reason is the kill reason, which selects the grace period.
	Reason KillReason
	// Message is the message of the Killing event, for example
	// "Container app failed liveness probe, will be restarted".
	Message string
}

// ContainerReset is one instance removed from the runtime to restart all containers in
// place (the RestartAllContainers rule action).
type ContainerReset struct {
	// Container is the container the instance belongs to.
	Container ContainerRef
	// ID is the instance's ID.
	ID string
	// Kill is true for an instance that has not exited: it is killed (grace 0, raised
	// to the 2-second minimum, message "killing", reason RestartAllContainers) before
	// it is removed.
	Kill bool
	// Source is true for an exited instance whose exit code matched a
	// RestartAllContainers rule: the instances that triggered the restart are removed last.
	Source bool
}

// BackOffWait is a container start refused by the crash-loop back-off (doBackOff).
type BackOffWait struct {
	// Container is the container held back.
	Container ContainerRef
	// Delay is the back-off currently waited, for example 20s.
	Delay time.Duration
	// Until is when the container may start: the newest exited instance's finish time
	// plus Delay.
	Until time.Time
	// Message is the start error the status shows with reason CrashLoopBackOff:
	// "back-off 20s restarting failed container=app pod=web_default(uid)".
	Message string
}

// PodActions is the kubelet's next action for a pod: what one SyncPod does. Containers
// are listed in the order the kubelet starts them.
//
// It mirrors podActions of k8s.io/kubernetes pkg/kubelet/kuberuntime/kuberuntime_manager.go
// without the in-place resize fields (ContainersToUpdate, UpdatePodResources,
// UpdatePodLevelResources, VolumesToUpsize/Downsize): resize actions are out of scope,
// a container is never restarted for a resize here.
type PodActions struct {
	// Terminate is set when the kubelet does not sync the pod but terminates it: its
	// next phase is Succeeded or Failed, or it is being deleted. The pod worker then
	// stops every container (sidecars last) and the sandbox; KillPod is set too and
	// nothing is started.
	Terminate bool
	// KillPod: stop every running container and the sandbox.
	KillPod bool
	// CreateSandbox: create a new sandbox (after KillPod when there was one). All
	// init containers then run again from the first.
	CreateSandbox bool
	// SandboxID is the current sandbox's ID ("" when there is none or it is replaced
	// because its network namespace mode changed).
	SandboxID string
	// Attempt is the sandbox attempt number: the current one, or the next one when a
	// sandbox is created.
	Attempt uint32
	// SandboxChange says why a sandbox is created, as PodSandboxChanged does ("no pod
	// sandbox exists", "pod sandbox is not ready", ...); empty when none is.
	SandboxChange string
	// InitContainersToStart are started in this order, one SyncPod after another in
	// practice; a regular init container that cannot start aborts the rest of the sync.
	InitContainersToStart []ContainerRef
	// ContainersToStart are the regular containers started, in spec order.
	ContainersToStart []ContainerRef
	// EphemeralContainersToStart are started first; they are never restarted.
	EphemeralContainersToStart []ContainerRef
	// ContainersToKill are killed before anything starts (ignored when KillPod).
	ContainersToKill []ContainerKill
	// ContainersToReset are removed to restart all containers in place: other
	// containers' instances (regular, then init), then the sources (regular, then init).
	ContainersToReset []ContainerReset
	// BackOff lists the planned starts the crash-loop back-off refuses; they are not in
	// the three start lists. Only [Plan] fills it.
	BackOff []BackOffWait
	// NotAttempted lists planned starts after a regular init container that could not
	// start: the kubelet aborts the rest of the sync. Only [Plan] fills it.
	NotAttempted []ContainerRef
	// BackOffUpdates are the crash-loop back-off entries the allowed starts advance
	// (doBackOff calls Next for a container that has exited before); a caller keeping a
	// restart.View across syncs stores them in [restart.View.BackOff]. Only [Plan] fills it.
	BackOffUpdates []BackOffUpdate
}

// BackOffUpdate is the new crash-loop back-off entry of a container after its start
// was allowed.
type BackOffUpdate struct {
	// Container is the container that starts.
	Container ContainerRef
	// Key is the entry's key, [restart.BackOffKey].
	Key string
	// BackOff is the entry after the start.
	BackOff restart.BackOff
}

// Plan returns the kubelet's next action for pod at time now, given the runtime view:
// what the next sync does.
//
// A pod that is being deleted, or whose next status ([NextStatus]) has phase Succeeded
// or Failed, is not synced but terminated: Terminate and KillPod are set and nothing
// starts. Otherwise Plan is [ComputePodActions], with restartAllContainers taken from
// the next status's AllContainersRestarting condition, followed by the crash-loop
// back-off the kubelet checks before every start (doBackOff): a container that has
// exited before (an exited instance in any sandbox) starts only when its back-off entry
// ([restart.View.BackOff]) lets it; otherwise it moves to BackOff with the time it may start
// and the CrashLoopBackOff message, and when it is a regular init container the rest of
// the sync's starts move to NotAttempted.
//
// In-place resize actions are out of scope: a resize never restarts a container here.
//
// The back-off follows ReduceDefaultCrashLoopBackOffDecay, KubeletCrashLoopBackOffMax and
// [Options.MaxContainerRestartPeriod] as the kubelet's newCrashLoopBackOff does.
func Plan(pod *corev1.Pod, view *restart.View, now time.Time, opts Options) PodActions {
	return plan(pod, view, now, nil, opts)
}

// plan is Plan, converting the statuses it reads the next phase from into sc (nil:
// new ones).
func plan(pod *corev1.Pod, view *restart.View, now time.Time, sc *scratch, opts Options) PodActions {
	pod = orEmpty(pod)
	v := orEmptyView(view)
	if pod.DeletionTimestamp != nil {
		return PodActions{Terminate: true, KillPod: true}
	}
	x := newLookup(v)
	// Most syncs of a running pod are decided without converting the statuses: the
	// phase only matters when it is terminal or the pod restarts all its containers.
	var phase corev1.PodPhase
	var restarting bool
	if !surelyNotTerminal(pod, &x, now, opts) {
		phase, restarting = nextPhase(pod, v, &x, now, sc, opts)
		if isTerminal(phase) {
			return PodActions{Terminate: true, KillPod: true}
		}
	}
	restartAll := false
	if restarting {
		cond, _ := AllContainersRestartingCondition(pod, x.v, phase, opts)
		restartAll = cond.Status == corev1.ConditionTrue
	}
	a := ComputePodActions(pod, v, restartAll, opts)
	applyBackOff(pod, &x, &a, now, sc, opts)
	return a
}

// applyBackOff runs doBackOff for every planned start, in start order, taking the
// back-off keys from sc (nil: computing them).
func applyBackOff(pod *corev1.Pod, x *lookup, a *PodActions, now time.Time, sc *scratch, opts Options) {
	if len(a.EphemeralContainersToStart)+len(a.InitContainersToStart)+len(a.ContainersToStart) == 0 {
		return
	}
	policy := restart.CrashLoopBackOffPolicy(restart.Options{Features: opts.Features, MaxContainerRestartPeriod: opts.MaxContainerRestartPeriod})
	aborted := false
	gate := func(refs []ContainerRef) []ContainerRef {
		// The list is ComputePodActions's own: it is filtered in place.
		kept := refs[:0]
		for _, r := range refs {
			if aborted {
				a.NotAttempted = append(a.NotAttempted, r)
				continue
			}
			exited := x.newestExited(r.Name)
			if exited == nil {
				kept = append(kept, r)
				continue
			}
			c := specOf(pod, r)
			key := sc.backOffKey(pod, r, c)
			chk := policy.CheckStart(x.v.BackOff[key], exited.FinishedAt, true, now)
			if chk.Allowed {
				kept = append(kept, r)
				a.BackOffUpdates = append(a.BackOffUpdates, BackOffUpdate{Container: r, Key: key, BackOff: chk.BackOff})
				continue
			}
			a.BackOff = append(a.BackOff, BackOffWait{
				Container: r, Delay: chk.Delay, Until: chk.RetryAt,
				Message: sc.crashLoopMessage(pod, r, chk.Delay),
			})
			if r.Kind == KindInitContainer {
				aborted = true
			}
		}
		if len(kept) == 0 {
			return nil
		}
		return kept
	}
	a.EphemeralContainersToStart = gate(a.EphemeralContainersToStart)
	a.InitContainersToStart = gate(a.InitContainersToStart)
	a.ContainersToStart = gate(a.ContainersToStart)
}

// specOf returns the spec of a referenced container.
func specOf(pod *corev1.Pod, r ContainerRef) *corev1.Container {
	switch r.Kind {
	case KindInitContainer, KindSidecar:
		return &pod.Spec.InitContainers[r.Index]
	case KindEphemeralContainer:
		return (*corev1.Container)(&pod.Spec.EphemeralContainers[r.Index].EphemeralContainerCommon)
	}
	return &pod.Spec.Containers[r.Index]
}

// Messages of kills and sandbox changes, as the kubelet writes them.
const (
	msgNoSandbox         = "no pod sandbox exists"
	msgMultipleSandboxes = "multiple pod sandboxes are ready and need to be reconciled"
	msgSandboxNotReady   = "pod sandbox is not ready"
	msgNetworkMode       = "network namespace mode changed and sandbox needs to be recreated"
	msgNoIP              = "pod sandbox has no IP address"
)

// sandboxChanged is PodSandboxChanged (pkg/kubelet/kuberuntime/util/util.go).
func sandboxChanged(pod *corev1.Pod, v *restart.View) (changed bool, attempt uint32, id, msg string) {
	if len(v.Sandboxes) == 0 {
		return true, 0, "", msgNoSandbox
	}
	ready := 0
	for i := range v.Sandboxes {
		if v.Sandboxes[i].Ready {
			ready++
		}
	}
	sb := &v.Sandboxes[0]
	switch {
	case ready > 1:
		return true, sb.Attempt + 1, sb.ID, msgMultipleSandboxes
	case !sb.Ready:
		return true, sb.Attempt + 1, sb.ID, msgSandboxNotReady
	case sb.HostNetwork != pod.Spec.HostNetwork:
		return true, sb.Attempt + 1, "", msgNetworkMode
	case !pod.Spec.HostNetwork && sb.Network != nil && sb.Network.IP == "":
		return true, sb.Attempt + 1, sb.ID, msgNoIP
	}
	return false, sb.Attempt, sb.ID, ""
}

var emptyView = &restart.View{}

func orEmptyView(v *restart.View) *restart.View {
	if v == nil {
		return emptyView
	}
	return v
}

// ComputePodActions is the kubelet's computePodActions with its
// computeInitContainerActions: the action SyncPod takes for pod given the runtime view,
// before the crash-loop back-off is consulted. restartAllContainers is the kubelet's
// flag, true when the freshly generated status has AllContainersRestarting=True.
//
// Most callers want [Plan], which decides that flag, terminates terminal and deleted
// pods, and applies the back-off. ComputePodActions is the unit upstream's tests
// exercise; it does not look at the pod's phase.
func ComputePodActions(pod *corev1.Pod, view *restart.View, restartAllContainers bool, opts Options) PodActions {
	pod = orEmpty(pod)
	v := orEmptyView(view)
	ro := opts
	x := newLookup(v)
	changed, attempt, sandboxID, msg := sandboxChanged(pod, v)
	a := PodActions{
		KillPod:       changed,
		CreateSandbox: changed,
		SandboxID:     sandboxID,
		Attempt:       attempt,
		SandboxChange: msg,
	}

	if restartAllContainers && restartAllContainersOnExits(opts) {
		a.ContainersToReset = containersToReset(pod, v)
		return a
	}

	if changed {
		// With a pod restartPolicy of Never a dead sandbox is not replaced once a
		// container has run; only the pod-level policy counts here.
		if pod.Spec.RestartPolicy == corev1.RestartPolicyNever && attempt != 0 && len(v.Instances) != 0 {
			a.CreateSandbox = false
			a.SandboxChange = ""
			return a
		}
		// With init containers only whether some container is to start matters; the
		// list, when it is the answer, is allocated once at its largest size.
		var toStart []ContainerRef
		collect := len(pod.Spec.InitContainers) == 0
		if collect {
			toStart = make([]ContainerRef, 0, len(pod.Spec.Containers))
		}
		anyToStart := false
		crr := opts.Features.Resolve().ContainerRestartRules
		for i := range pod.Spec.Containers {
			c := &pod.Spec.Containers[i]
			runOnce := pod.Spec.RestartPolicy == corev1.RestartPolicyOnFailure
			if crr && c.RestartPolicy != nil {
				runOnce = *c.RestartPolicy == corev1.ContainerRestartPolicyOnFailure
			}
			if runOnce && containerSucceeded(&x, c.Name) {
				continue
			}
			anyToStart = true
			if collect {
				toStart = append(toStart, ContainerRef{Kind: KindContainer, Index: i, Name: c.Name})
			}
		}
		if !anyToStart {
			toStart = nil
		}
		if !anyToStart && anyRegularContainerCreatedL(pod, &x) {
			a.CreateSandbox = false
			a.SandboxChange = ""
			return a
		}
		if len(pod.Spec.InitContainers) != 0 {
			a.InitContainersToStart = []ContainerRef{initRef(pod.Spec.InitContainers, 0)}
			return a
		}
		a.ContainersToStart = toStart
		return a
	}

	for i := range pod.Spec.EphemeralContainers {
		name := pod.Spec.EphemeralContainers[i].Name
		if x.names.First(name) < 0 {
			a.EphemeralContainersToStart = append(a.EphemeralContainersToStart, ContainerRef{Kind: KindEphemeralContainer, Index: i, Name: name})
		}
	}

	initialized := computeInitContainerActions(pod, &x, &a, opts)
	if a.KillPod || !initialized {
		return a
	}

	keep := 0
	for i := range pod.Spec.Containers {
		c := &pod.Spec.Containers[i]
		ref := ContainerRef{Kind: KindContainer, Index: i, Name: c.Name}
		inst := x.newest(c.Name)
		if inst == nil || inst.State.Kubelet() != restart.StateRunning {
			if shouldRestart(pod, c, inst, ro) {
				a.ContainersToStart = append(a.ContainersToStart, ref)
				if inst != nil && inst.State.Kubelet() == restart.StateUnknown {
					a.ContainersToKill = append(a.ContainersToKill, ContainerKill{
						Container: ref, ID: inst.ID, Reason: KillReasonUnknown,
						Message: `Container is in "unknown" state, try killing it before restart`,
					})
				}
			}
			continue
		}
		restartIt := pod.Spec.RestartPolicy != corev1.RestartPolicyNever
		if opts.Features.Resolve().ContainerRestartRules && c.RestartPolicy != nil {
			// Probe kills use the container's policy only: a running container has no
			// exit code for the rules.
			restartIt = *c.RestartPolicy != corev1.ContainerRestartPolicyNever
		}
		var message string
		var reason KillReason
		switch {
		case inst.SpecChanged:
			message = "Container " + c.Name + " definition changed"
			restartIt = true
		case inst.Liveness == restart.ProbeFailure:
			message = "Container " + c.Name + " failed liveness probe"
			reason = KillReasonLivenessProbe
		case inst.Startup == restart.ProbeFailure:
			message = "Container " + c.Name + " failed startup probe"
			reason = KillReasonStartupProbe
		default:
			keep++
			continue
		}
		if restartIt {
			message += ", will be restarted"
			a.ContainersToStart = append(a.ContainersToStart, ref)
		}
		a.ContainersToKill = append(a.ContainersToKill, ContainerKill{Container: ref, ID: inst.ID, Reason: reason, Message: message})
	}

	if keep == 0 && len(a.ContainersToStart) == 0 {
		// Every regular container is done for good: stop the pod, and do not restart
		// sidecars, which would keep it alive.
		a.KillPod = true
		a.InitContainersToStart = nil
	}
	return a
}

// computeInitContainerActions walks the init containers from last to first over the
// current sandbox's instances and reports whether the pod is initialized.
func computeInitContainerActions(pod *corev1.Pod, x *lookup, a *PodActions, opts Options) bool {
	inits := pod.Spec.InitContainers
	if len(inits) == 0 {
		return true
	}
	ro := opts
	crr := opts.Features.Resolve().ContainerRestartRules
	hasInitialized := anyActiveRegularContainer(pod, x)
	previouslyInitialized := hasInitialized
	restartOnFailure := pod.Spec.RestartPolicy != corev1.RestartPolicyNever

	// Starts and kills are collected last-to-first and reversed at the end.
	var starts []ContainerRef
	var kills []ContainerKill
	ref := func(i int) ContainerRef { return initRef(inits, i) }
	kill := func(i int, inst *restart.Instance, reason KillReason, message string) {
		kills = append(kills, ContainerKill{Container: ref(i), ID: inst.ID, Reason: reason, Message: message})
	}
	fail := func() bool {
		a.KillPod = true
		a.InitContainersToStart = nil
		a.ContainersToKill = append(a.ContainersToKill, reverseKills(kills)...)
		return false
	}

	for i := len(inits) - 1; i >= 0; i-- {
		c := &inits[i]
		sidecar := restart.IsRestartableInitContainer(c)
		inst := x.newestActive(c.Name)
		if inst == nil {
			// The instance may have been garbage-collected: only a sidecar of an
			// initialized pod is started again.
			if previouslyInitialized && sidecar {
				starts = append(starts, ref(i))
			}
			continue
		}
		if previouslyInitialized && !sidecar {
			continue
		}
		switch inst.State.Kubelet() {
		case restart.StateCreated:
			starts = append(starts, ref(i))
		case restart.StateRunning:
			if !sidecar {
				break
			}
			if c.StartupProbe != nil {
				if inst.Startup == restart.ProbeNone {
					break
				}
				if inst.Startup != restart.ProbeSuccess {
					if inst.Startup == restart.ProbeFailure {
						kill(i, inst, KillReasonStartupProbe, "Init container "+c.Name+" failed startup probe")
						starts = append(starts, ref(i))
					}
					break
				}
			}
			if i == len(inits)-1 {
				hasInitialized = true
			} else if !previouslyInitialized {
				starts = append(starts, ref(i+1))
			}
			if inst.SpecChanged {
				kill(i, inst, KillReasonNone, "Init container "+c.Name+" definition changed")
				starts = append(starts, ref(i))
				break
			}
			if c.LivenessProbe != nil && inst.Liveness == restart.ProbeFailure {
				kill(i, inst, KillReasonLivenessProbe, "Init container "+c.Name+" failed liveness probe")
				starts = append(starts, ref(i))
			}
		case restart.StateExited:
			if sidecar {
				starts = append(starts, ref(i))
				break
			}
			if restart.IsInitContainerFailed(inst) {
				again := restartOnFailure
				if crr {
					again = shouldRestart(pod, c, x.newest(c.Name), ro)
				}
				if !again {
					return fail()
				}
				starts = append(starts, ref(i))
				break
			}
			if i == len(inits)-1 {
				hasInitialized = true
			} else {
				starts = append(starts, ref(i+1))
			}
		default: // unknown
			const msg = `Init container is in "unknown" state, try killing it before restart`
			if !sidecar {
				again := restartOnFailure
				if crr && c.RestartPolicy != nil {
					again = *c.RestartPolicy != corev1.ContainerRestartPolicyNever
				}
				if !again {
					return fail()
				}
			}
			kill(i, inst, KillReasonUnknown, msg)
			starts = append(starts, ref(i))
		}
		previouslyInitialized = true
	}
	if !previouslyInitialized {
		starts = append(starts, ref(0))
	}
	for l, r := 0, len(starts)-1; l < r; l, r = l+1, r-1 {
		starts[l], starts[r] = starts[r], starts[l]
	}
	if len(starts) > 0 {
		a.InitContainersToStart = append(a.InitContainersToStart, starts...)
	}
	a.ContainersToKill = append(a.ContainersToKill, reverseKills(kills)...)
	return hasInitialized
}

func reverseKills(k []ContainerKill) []ContainerKill {
	for l, r := 0, len(k)-1; l < r; l, r = l+1, r-1 {
		k[l], k[r] = k[r], k[l]
	}
	return k
}

// shouldRestart is ShouldContainerBeRestarted over the view's newest instance.
func shouldRestart(pod *corev1.Pod, c *corev1.Container, inst *restart.Instance, ro restart.Options) bool {
	if inst == nil {
		return restart.ShouldRestartInstance(pod, c, nil, ro).Restart
	}
	ri := *inst
	return restart.ShouldRestartInstance(pod, c, &ri, ro).Restart
}

// containerSucceeded: the newest instance exited with code 0.
func containerSucceeded(x *lookup, name string) bool {
	inst := x.newest(name)
	return inst != nil && inst.State.Kubelet() == restart.StateExited && inst.ExitCode == 0
}

// anyActiveRegularContainer is HasAnyActiveRegularContainerStarted: some instance in
// the current sandbox, in any state, belongs to a regular container.
func anyActiveRegularContainer(pod *corev1.Pod, x *lookup) bool {
	for i := range pod.Spec.Containers {
		if x.newestActive(pod.Spec.Containers[i].Name) != nil {
			return true
		}
	}
	return false
}

// containersToReset lists every instance of every init and regular container, targets
// first, as getContainersToReset and computePodActions order them.
func containersToReset(pod *corev1.Pod, v *restart.View) []ContainerReset {
	var out []ContainerReset
	collect := func(kind ContainerKind, cs []corev1.Container, sources bool) {
		for i := range cs {
			c := &cs[i]
			for j := range v.Instances {
				inst := &v.Instances[j]
				if inst.Name != c.Name {
					continue
				}
				ref := ContainerRef{Kind: kind, Index: i, Name: c.Name}
				if kind == KindInitContainer {
					ref = initRef(cs, i)
				}
				r := ContainerReset{Container: ref, ID: inst.ID}
				if inst.State.Kubelet() == restart.StateExited {
					rule, _, ok := restart.MatchingRule(c, inst.ExitCode)
					r.Source = ok && rule.Action == corev1.ContainerRestartRuleActionRestartAllContainers
				} else {
					r.Kill = true
				}
				if r.Source == sources {
					out = append(out, r)
				}
			}
		}
	}
	collect(KindContainer, pod.Spec.Containers, false)
	collect(KindInitContainer, pod.Spec.InitContainers, false)
	collect(KindContainer, pod.Spec.Containers, true)
	collect(KindInitContainer, pod.Spec.InitContainers, true)
	return out
}

// String renders the actions as a sentence, for example
// "create a sandbox (attempt 0); start init container init-myservice".
func (a PodActions) String() string {
	var parts []string
	if a.Terminate {
		parts = append(parts, "terminate the pod: stop every container and the sandbox")
	} else if a.KillPod && a.SandboxChange != msgNoSandbox {
		// A pod without a sandbox has nothing to kill.
		parts = append(parts, "kill the pod")
	}
	if a.CreateSandbox {
		s := "create a sandbox (attempt " + strconv.FormatUint(uint64(a.Attempt), 10) + ")"
		if a.SandboxChange != "" {
			s += " because " + a.SandboxChange
		}
		parts = append(parts, s)
	}
	if !a.KillPod {
		for _, k := range a.ContainersToKill {
			s := "kill " + kindWord(k.Container.Kind) + " " + k.Container.Name
			if k.Message != "" {
				s += " (" + k.Message + ")"
			}
			parts = append(parts, s)
		}
		for _, r := range a.ContainersToReset {
			verb := "remove "
			if r.Kill {
				verb = "kill and remove "
			}
			parts = append(parts, verb+kindWord(r.Container.Kind)+" "+r.Container.Name+" to restart all containers")
		}
	}
	parts = appendStarts(parts, a.EphemeralContainersToStart)
	parts = appendStarts(parts, a.InitContainersToStart)
	parts = appendStarts(parts, a.ContainersToStart)
	for _, w := range a.BackOff {
		parts = append(parts, "hold back "+kindWord(w.Container.Kind)+" "+w.Container.Name+" until "+w.Until.UTC().Format(time.RFC3339)+" ("+w.Message+")")
	}
	if len(a.NotAttempted) > 0 {
		names := make([]string, len(a.NotAttempted))
		for i, r := range a.NotAttempted {
			names[i] = r.Name
		}
		parts = append(parts, "leave "+strings.Join(names, ", ")+" for a later sync")
	}
	if len(parts) == 0 {
		return "nothing to do"
	}
	return strings.Join(parts, "; ")
}

func appendStarts(parts []string, refs []ContainerRef) []string {
	if len(refs) == 0 {
		return parts
	}
	kind := kindWord(refs[0].Kind)
	if len(refs) > 1 {
		kind += "s"
	}
	names := make([]string, len(refs))
	for i, r := range refs {
		names[i] = r.Name
	}
	return append(parts, "start "+kind+" "+strings.Join(names, ", "))
}

// initRef names init container i as a sidecar or a regular init container.
func initRef(inits []corev1.Container, i int) ContainerRef {
	k := KindInitContainer
	if restart.IsRestartableInitContainer(&inits[i]) {
		k = KindSidecar
	}
	return ContainerRef{Kind: k, Index: i, Name: inits[i].Name}
}

// kindWord is the word the kubelet's logs use for a kind of container.
func kindWord(k ContainerKind) string {
	switch k {
	case KindInitContainer, KindSidecar:
		return "init container"
	case KindEphemeralContainer:
		return "ephemeral container"
	}
	return "container"
}
