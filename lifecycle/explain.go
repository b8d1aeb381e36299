package lifecycle

import (
	"strconv"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/podlife/podlife/internal/byname"
	"github.com/podlife/podlife/restart"
)

// Explanation answers, for a pod as the API shows it (`kubectl get pod -o yaml`, status
// included), why it is in its phase, what keeps it from being initialized and ready, what
// the kubelet does next and, for a container held back by the crash-loop back-off, when
// it may start again. [Explain] builds it; String renders it in sentences.
//
// Every statement comes from this module's functions that reproduce the kubelet:
// [Phase] and [StatusPhase] for the phase, [InitializedCondition],
// [ContainersReadyCondition] and [ReadyCondition] for what blocks the pod (the blocking
// containers are those the conditions' messages name), [restart.ShouldRestart] for
// restart decisions, and [Plan] over [ViewFromStatus] for the next action and the
// back-off. The rest describes the status fields the statements rest on.
type Explanation struct {
	// Pod is "<namespace>/<name>"; At the time the explanation holds for.
	Pod string
	At  time.Time
	// Phase is the phase the status shows (Pending when empty); PhaseWhy says why.
	Phase    corev1.PodPhase
	PhaseWhy string
	// NextPhase is the phase, reason and message the kubelet's next status would
	// carry given the container statuses ([StatusPhase] at At).
	NextPhase PhaseStatus
	// Conditions are Initialized, ContainersReady and Ready as the kubelet generates
	// them from the container statuses, with the containers that block them.
	Conditions []ConditionExplanation
	// Containers describes the init containers (in spec order), then the containers.
	Containers []ContainerExplanation
	// Actions is the kubelet's next action ([Plan] over [ViewFromStatus] at At) and
	// ActionsWhy the reasons for it, one sentence per part.
	Actions    PodActions
	ActionsWhy []string
	// Ended says, for a pod that has succeeded or failed, why it ended.
	Ended string
}

// ConditionExplanation is one condition the kubelet generates, with what blocks it.
type ConditionExplanation struct {
	corev1.PodCondition
	// Blocking names the containers that keep the condition from True, in the order its
	// message lists them; Gates the readiness gates that do.
	Blocking []string
	Gates    []string
}

// ContainerExplanation describes one container of the pod.
type ContainerExplanation struct {
	Container ContainerRef
	// State is "waiting", "running", "terminated", or "unknown" when the status has no
	// entry for the container; Reason, Message and ExitCode come from that state.
	State           string
	Reason, Message string
	ExitCode        int32
	Started, Ready  bool
	RestartCount    int32
	// Restart is the kubelet's decision about restarting the container
	// ([restart.ShouldRestart]) when its newest run has exited (for a regular init
	// container, only when that run failed); nil otherwise. Its methods read the pod
	// given to Explain.
	Restart *restart.Decision
	// NextStart is when the crash-loop back-off lets the kubelet start the container
	// again and BackOff the delay it waits (from [Plan]); zero when it is not held back.
	NextStart time.Time
	BackOff   time.Duration
	// Why says, in a sentence, where the container is.
	Why string
}

// Explain explains pod at time now as the kubelet of a cluster configured by opts sees it
// (see [Explanation]). The pod is read as `kubectl get pod -o yaml` prints it; its
// runtime is derived with [ViewFromStatus], so what the API status cannot show (probe
// results, the image-pull back-off, several sandboxes) is what ViewFromStatus assumes. A
// nil pod gives the zero Explanation. The pod is not modified.
func Explain(pod *corev1.Pod, now time.Time, opts Options) Explanation {
	if pod == nil {
		return Explanation{}
	}
	e := Explanation{Pod: pod.Namespace + "/" + pod.Name, At: now, Phase: pod.Status.Phase}
	if e.Phase == "" {
		e.Phase = corev1.PodPending
	}
	e.NextPhase = StatusPhase(pod, now, PhaseOptions{Options: opts})
	view := ViewFromStatus(pod)
	e.Actions = Plan(pod, &view, now, opts)

	for _, c := range []corev1.PodCondition{
		InitializedCondition(pod, e.Phase, opts),
		ContainersReadyCondition(pod, e.Phase, opts),
		ReadyCondition(pod, e.Phase, opts),
	} {
		ce := ConditionExplanation{PodCondition: c}
		if c.Status != corev1.ConditionTrue {
			ce.Blocking = namesInMessage(c.Message)
			ce.Gates = gatesInMessage(c.Message)
		}
		e.Conditions = append(e.Conditions, ce)
	}

	x := newExplainIndex(pod, &e.Actions)
	e.Containers = make([]ContainerExplanation, 0, len(pod.Spec.InitContainers)+len(pod.Spec.Containers))
	for i := range pod.Spec.InitContainers {
		e.Containers = append(e.Containers, explainContainer(pod, initRef(pod.Spec.InitContainers, i), &x.initStatuses, &x, opts))
	}
	for i := range pod.Spec.Containers {
		ref := ContainerRef{Kind: KindContainer, Index: i, Name: pod.Spec.Containers[i].Name}
		e.Containers = append(e.Containers, explainContainer(pod, ref, &x.statuses, &x, opts))
	}
	if len(e.Containers) == 0 {
		e.Containers = nil
	}
	containers := e.byName()
	e.PhaseWhy = e.phaseWhy(pod, &containers)
	e.ActionsWhy = e.actionsWhy(pod, &containers)
	if isTerminal(e.Phase) {
		e.Ended = e.ended(&x)
	}
	return e
}

// explainIndex finds what Explain looks up by name for each container, so that a pod
// with many containers costs time linear in their number: the containers and statuses
// by name (the first of a name, as a scan finds it) and the last back-off wait of each
// name in the planned actions.
type explainIndex struct {
	pod                                 *corev1.Pod
	regular, inits                      byname.Index[corev1.Container]
	ephemeral                           byname.Index[corev1.EphemeralContainer]
	statuses, initStatuses, ephStatuses byname.Index[corev1.ContainerStatus]
	backOff                             byname.Index[BackOffWait]
}

func newExplainIndex(pod *corev1.Pod, a *PodActions) explainIndex {
	return explainIndex{
		pod:          pod,
		regular:      byname.Containers(pod.Spec.Containers),
		inits:        byname.Containers(pod.Spec.InitContainers),
		ephemeral:    byname.New(pod.Spec.EphemeralContainers, func(e *corev1.EphemeralContainer) string { return e.Name }),
		statuses:     byname.Statuses(pod.Status.ContainerStatuses),
		initStatuses: byname.Statuses(pod.Status.InitContainerStatuses),
		ephStatuses:  byname.Statuses(pod.Status.EphemeralContainerStatuses),
		backOff:      byname.New(a.BackOff, func(w *BackOffWait) string { return w.Container.Name }),
	}
}

// shouldRestart is restart.ShouldRestart(pod, name, opts) with the lookups indexed:
// the first regular, else init, else ephemeral container of the name, and the newest
// instance its kind's first status of the name shows.
func (x *explainIndex) shouldRestart(name string, opts Options) restart.Decision {
	var c *corev1.Container
	var statuses *byname.Index[corev1.ContainerStatus]
	switch {
	case x.regular.First(name) >= 0:
		c, statuses = x.regular.FirstEntry(name), &x.statuses
	case x.inits.First(name) >= 0:
		c, statuses = x.inits.FirstEntry(name), &x.initStatuses
	case x.ephemeral.First(name) >= 0:
		c, statuses = (*corev1.Container)(&x.ephemeral.FirstEntry(name).EphemeralContainerCommon), &x.ephStatuses
	default:
		return restart.ShouldRestart(x.pod, name, opts)
	}
	if inst, ok := restart.InstanceFromStatus(statuses.FirstEntry(name)); ok {
		return restart.ShouldRestartInstance(x.pod, c, &inst, opts)
	}
	return restart.ShouldRestartInstance(x.pod, c, nil, opts)
}

// explainContainer describes one container from its status (the first status of its
// name in list).
func explainContainer(pod *corev1.Pod, ref ContainerRef, list *byname.Index[corev1.ContainerStatus], x *explainIndex, opts Options) ContainerExplanation {
	ce := ContainerExplanation{Container: ref, State: "unknown"}
	c := specOf(pod, ref)
	st := list.FirstEntry(ref.Name)
	if i := x.backOff.Last(ref.Name); i >= 0 {
		w := x.backOff.At(i)
		ce.NextStart, ce.BackOff = w.Until, w.Delay
	}
	if st == nil {
		ce.Why = "the kubelet has not reported a status for it yet"
		return ce
	}
	ce.RestartCount, ce.Ready = st.RestartCount, st.Ready
	ce.Started = st.Started != nil && *st.Started
	var exited *corev1.ContainerStateTerminated
	switch {
	case st.State.Running != nil:
		ce.State = "running"
	case st.State.Terminated != nil:
		t := st.State.Terminated
		ce.State, ce.Reason, ce.Message, ce.ExitCode = "terminated", t.Reason, t.Message, t.ExitCode
		exited = t
	case st.State.Waiting != nil:
		w := st.State.Waiting
		ce.State, ce.Reason, ce.Message = "waiting", w.Reason, w.Message
		exited = st.LastTerminationState.Terminated
	}
	if exited != nil {
		failed := exited.ExitCode != 0 || exited.Reason == restart.ReasonOOMKilled
		if ref.Kind != KindInitContainer || failed {
			d := x.shouldRestart(ref.Name, opts)
			ce.Restart = &d
		}
	}
	ce.Why = containerWhy(&ce, c, st, exited)
	return ce
}

// containerWhy describes the container's status in a sentence.
func containerWhy(ce *ContainerExplanation, c *corev1.Container, st *corev1.ContainerStatus, exited *corev1.ContainerStateTerminated) string {
	var b strings.Builder
	switch ce.State {
	case "running":
		b.WriteString("it is running since " + stamp(st.State.Running.StartedAt.Time))
		switch {
		case !ce.Started && c != nil && c.StartupProbe != nil:
			b.WriteString(" but its startup probe has not succeeded yet (started: false)")
		case !ce.Started:
			b.WriteString(" but has not started (started: false)")
		case ce.Container.Kind == KindInitContainer:
		case !ce.Ready && c != nil && c.ReadinessProbe != nil:
			b.WriteString(" but its readiness probe does not pass (ready: false)")
		case !ce.Ready:
			b.WriteString(" but is not ready")
		default:
			b.WriteString(" and is ready")
		}
	case "terminated":
		b.WriteString("it exited with code " + strconv.Itoa(int(ce.ExitCode)))
		if ce.Reason != "" {
			b.WriteString(" (" + ce.Reason + ")")
		}
		b.WriteString(" at " + stamp(st.State.Terminated.FinishedAt.Time))
	case "waiting":
		b.WriteString("it is waiting")
		if ce.Reason != "" {
			b.WriteString(" (" + ce.Reason)
			if ce.Message != "" {
				b.WriteString(": " + ce.Message)
			}
			b.WriteString(")")
		}
		if exited != nil {
			b.WriteString("; its last run exited with code " + strconv.Itoa(int(exited.ExitCode)))
			if exited.Reason != "" {
				b.WriteString(" (" + exited.Reason + ")")
			}
			b.WriteString(" at " + stamp(exited.FinishedAt.Time))
		}
		switch ce.Reason {
		case restart.ReasonImagePullBackOff, restart.ReasonErrImagePull:
			b.WriteString("; the kubelet pulls again when the image-pull back-off (10s doubling to 5m) lets it, which the status does not show")
		}
	}
	if ce.Restart != nil {
		b.WriteString("; restart decision: " + ce.Restart.Explain())
	}
	if !ce.NextStart.IsZero() {
		b.WriteString("; the crash-loop back-off (" + ce.BackOff.String() + ") lets the kubelet start it again at " + stamp(ce.NextStart))
	}
	return b.String()
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return "an unknown time"
	}
	return t.UTC().Format(time.RFC3339)
}

// namesInMessage returns the container names a condition message lists
// ("containers with unready status: [a b]", several such parts joined by ", ").
func namesInMessage(msg string) []string {
	var names []string
	for {
		i := strings.Index(msg, " status: [")
		if i < 0 || !strings.Contains(msg[:i], "containers with ") {
			return names
		}
		msg = msg[i+len(" status: ["):]
		j := strings.IndexByte(msg, ']')
		if j < 0 {
			return names
		}
		names = append(names, strings.Fields(msg[:j])...)
		msg = msg[j+1:]
	}
}

// gatesInMessage returns the readiness gates a ReadinessGatesNotReady message names.
func gatesInMessage(msg string) []string {
	var gates []string
	for _, part := range strings.Split(msg, ", ") {
		_, rest, ok := strings.Cut(part, "pod readiness gate ")
		if !ok {
			continue
		}
		if q, err := strconv.QuotedPrefix(rest); err == nil {
			if g, err := strconv.Unquote(q); err == nil {
				gates = append(gates, g)
			}
		}
	}
	return gates
}

// byName finds the explanation's containers by name (the first of a name), a long
// list through an index built once, so that naming every container costs linear time.
func (e *Explanation) byName() byname.Index[ContainerExplanation] {
	return byname.New(e.Containers, func(ce *ContainerExplanation) string { return ce.Container.Name })
}

func (e *Explanation) condition(t corev1.PodConditionType) *ConditionExplanation {
	for i := range e.Conditions {
		if e.Conditions[i].Type == t {
			return &e.Conditions[i]
		}
	}
	return nil
}

// blockers renders "name: why" for the named containers.
func (e *Explanation) blockers(containers *byname.Index[ContainerExplanation], names []string) string {
	var parts []string
	for _, n := range names {
		if ce := containers.FirstEntry(n); ce != nil {
			parts = append(parts, kindName(ce.Container.Kind)+" "+n+": "+ce.Why)
		}
	}
	return strings.Join(parts, "; ")
}

// phaseWhy says why the pod is in its phase.
func (e *Explanation) phaseWhy(pod *corev1.Pod, containers *byname.Index[ContainerExplanation]) string {
	switch e.Phase {
	case corev1.PodPending:
		if len(pod.Status.InitContainerStatuses)+len(pod.Status.ContainerStatuses) == 0 {
			for _, c := range pod.Status.Conditions {
				if c.Type == corev1.PodScheduled && c.Status == corev1.ConditionFalse {
					return "it is not scheduled to a node (" + c.Reason + ": " + c.Message + ")"
				}
			}
			if pod.Spec.NodeName == "" {
				return "it is not scheduled to a node yet (spec.nodeName is empty)"
			}
			return "the kubelet of node " + pod.Spec.NodeName + " has not reported any container yet"
		}
		if ini := e.condition(corev1.PodInitialized); ini != nil && ini.Status != corev1.ConditionTrue {
			s := "it is initializing: Initialized is False (" + ini.Reason
			if ini.Message != "" {
				s += ": " + ini.Message
			}
			s += ")"
			if len(ini.Blocking) > 0 {
				s += "; " + e.blockers(containers, ini.Blocking[:1])
			}
			return s
		}
		var waiting []string
		for _, ce := range e.Containers {
			if ce.Container.Kind == KindContainer && ce.State != "running" && ce.State != "terminated" {
				waiting = append(waiting, ce.Container.Name)
			}
		}
		if len(waiting) > 0 {
			return "its containers have not started: " + e.blockers(containers, waiting)
		}
		return "the kubelet's last status says so"
	case corev1.PodRunning:
		var running, restarting []string
		for _, ce := range e.Containers {
			if ce.Container.Kind == KindInitContainer {
				continue
			}
			switch {
			case ce.State == "running":
				running = append(running, ce.Container.Name)
			case ce.Restart != nil && ce.Restart.Restart:
				restarting = append(restarting, ce.Container.Name)
			}
		}
		s := "its containers have started"
		if len(running) > 0 {
			s += "; running: " + strings.Join(running, ", ")
		}
		if len(restarting) > 0 {
			s += "; exited and to be restarted: " + strings.Join(restarting, ", ")
		}
		return s
	case corev1.PodSucceeded:
		return "every container exited with code 0 and none is restarted"
	case corev1.PodFailed:
		if pod.Status.Reason != "" {
			return "the kubelet failed it: " + pod.Status.Reason + ": " + pod.Status.Message
		}
		var failed []string
		for _, ce := range e.Containers {
			if ce.Restart != nil && !ce.Restart.Restart && (ce.ExitCode != 0 || ce.State == "waiting") {
				failed = append(failed, ce.Container.Name)
			}
		}
		if len(failed) > 0 {
			return "a container failed and is not restarted: " + e.blockers(containers, failed)
		}
		return "its containers stopped and are not restarted, not all with exit code 0"
	}
	return "the node's state is not known (phase " + string(e.Phase) + ")"
}

// actionsWhy gives the reasons of the planned actions.
func (e *Explanation) actionsWhy(pod *corev1.Pod, containers *byname.Index[ContainerExplanation]) []string {
	a := &e.Actions
	var out []string
	if a.Terminate {
		if pod.DeletionTimestamp != nil {
			out = append(out, "the pod is being deleted: the kubelet stops every container (sidecars last) with the grace period of "+strconv.FormatInt(PodGracePeriod(pod, 0, nil), 10)+"s and does not start anything")
		} else {
			out = append(out, "the pod's phase is "+string(e.NextPhase.Phase)+": the kubelet stops whatever still runs and starts nothing again")
		}
		return out
	}
	if a.CreateSandbox {
		out = append(out, "create a sandbox because "+a.SandboxChange)
	}
	for _, k := range a.ContainersToKill {
		out = append(out, "kill "+kindName(k.Container.Kind)+" "+k.Container.Name+": "+k.Message)
	}
	starts := append(append(append([]ContainerRef(nil), a.EphemeralContainersToStart...), a.InitContainersToStart...), a.ContainersToStart...)
	for _, r := range starts {
		s := "start " + kindName(r.Kind) + " " + r.Name + ": "
		ce := containers.FirstEntry(r.Name)
		switch {
		case ce != nil && ce.Restart != nil:
			s += ce.Restart.Explain()
		case ce != nil && (ce.Reason == restart.ReasonImagePullBackOff || ce.Reason == restart.ReasonErrImagePull):
			s += "its image could not be pulled yet (" + ce.Reason + "); the image-pull back-off decides when the pull is tried again"
		case ce != nil && ce.Reason != "" && ce.Reason != ReasonPodInitializing && ce.Reason != ReasonContainerCreating:
			s += "its last start failed (" + ce.Reason + ")"
		case r.Kind == KindInitContainer && r.Index > 0:
			s += "init container " + pod.Spec.InitContainers[r.Index-1].Name + " has completed"
		default:
			s += "it has not run in the pod's sandbox yet"
		}
		out = append(out, s)
	}
	for _, w := range a.BackOff {
		out = append(out, "hold back "+kindName(w.Container.Kind)+" "+w.Container.Name+" until "+stamp(w.Until)+": CrashLoopBackOff, "+w.Message)
	}
	if len(a.NotAttempted) > 0 {
		names := make([]string, len(a.NotAttempted))
		for i, r := range a.NotAttempted {
			names[i] = r.Name
		}
		out = append(out, "leave "+strings.Join(names, ", ")+" for a later sync: a regular init container before them is held back")
	}
	if a.KillPod && !a.CreateSandbox {
		out = append(out, "kill the pod: no container runs or is to be restarted")
	}
	if len(out) == 0 {
		s := "nothing to do now"
		var waits []string
		for _, ce := range e.Containers {
			if ce.State == "running" && (!ce.Started || (!ce.Ready && ce.Container.Kind != KindInitContainer)) {
				waits = append(waits, kindName(ce.Container.Kind)+" "+ce.Container.Name+" ("+ce.Why+")")
			}
			if ce.State == "running" && ce.Container.Kind == KindInitContainer {
				waits = append(waits, "init container "+ce.Container.Name+" to complete")
			}
		}
		if len(waits) > 0 {
			s += "; the kubelet waits for " + strings.Join(waits, "; ")
		}
		out = append(out, s)
	}
	return out
}

// ended says why a terminal pod ended.
func (e *Explanation) ended(x *explainIndex) string {
	pod := x.pod
	if pod.Status.Reason == ReasonDeadlineExceeded {
		s := "it was active on the node longer than spec.activeDeadlineSeconds"
		if pod.Spec.ActiveDeadlineSeconds != nil {
			s += " (" + strconv.FormatInt(*pod.Spec.ActiveDeadlineSeconds, 10) + "s)"
		}
		if d, ok := ActiveDeadline(pod); ok {
			s += ": it started at " + stamp(pod.Status.StartTime.Time) + " and its deadline passed at " + stamp(d)
		}
		return s + "; the kubelet stopped its containers and failed it (" + ReasonDeadlineExceeded + ")"
	}
	if e.Phase == corev1.PodSucceeded {
		var parts []string
		for _, ce := range e.Containers {
			if ce.Container.Kind == KindContainer && ce.State == "terminated" {
				parts = append(parts, ce.Container.Name+" exited with code 0 at "+stamp(x.statuses.FirstEntry(ce.Container.Name).State.Terminated.FinishedAt.Time))
			}
		}
		s := "its containers completed"
		if len(parts) > 0 {
			s += ": " + strings.Join(parts, "; ")
		}
		return s
	}
	return e.PhaseWhy
}

// String renders the explanation in sentences, one statement a line.
func (e Explanation) String() string {
	if e.Pod == "" {
		return "no pod\n"
	}
	var b strings.Builder
	containers := e.byName()
	b.WriteString("Pod " + e.Pod + " at " + stamp(e.At) + "\n")
	b.WriteString("Phase: " + string(e.Phase) + ": " + e.PhaseWhy + "\n")
	if e.NextPhase.Phase != e.Phase {
		b.WriteString("The kubelet's next status changes the phase to " + string(e.NextPhase.Phase))
		if e.NextPhase.Reason != "" {
			b.WriteString(" (" + e.NextPhase.Reason + ")")
		}
		b.WriteString("\n")
	}
	if e.Ended != "" {
		b.WriteString("Ended: " + e.Ended + "\n")
	}
	for _, c := range e.Conditions {
		b.WriteString(string(c.Type) + ": " + string(c.Status))
		if c.Reason != "" {
			b.WriteString(" (" + c.Reason)
			if c.Message != "" {
				b.WriteString(": " + c.Message)
			}
			b.WriteString(")")
		}
		b.WriteString("\n")
		for _, n := range c.Blocking {
			if ce := containers.FirstEntry(n); ce != nil {
				b.WriteString("  blocked by " + kindName(ce.Container.Kind) + " " + n + ": " + ce.Why + "\n")
			} else {
				b.WriteString("  blocked by " + n + ": it has no status\n")
			}
		}
		for _, g := range c.Gates {
			b.WriteString("  blocked by readiness gate " + strconv.Quote(g) + "\n")
		}
	}
	b.WriteString("Next: " + e.Actions.String() + "\n")
	for _, w := range e.ActionsWhy {
		b.WriteString("  because: " + w + "\n")
	}
	for _, ce := range e.Containers {
		if !ce.NextStart.IsZero() {
			b.WriteString("Next start of " + ce.Container.Name + ": " + stamp(ce.NextStart) + " (in " + HumanDuration(ce.NextStart.Sub(e.At)) + ", back-off " + ce.BackOff.String() + ")\n")
		}
	}
	return b.String()
}

// kindName names a kind of container in sentences.
func kindName(k ContainerKind) string {
	if k == KindSidecar {
		return "sidecar"
	}
	return kindWord(k)
}
