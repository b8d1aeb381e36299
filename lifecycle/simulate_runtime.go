package lifecycle

import (
	"slices"
	"strconv"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podlife/podlife/internal/byname"
	"github.com/podlife/podlife/internal/podutil"
	"github.com/podlife/podlife/restart"
)

// Exit codes of containers the kubelet stops: terminated by the default stop signal
// (SIGTERM) or killed when the stop timeout expires (SIGKILL).
const (
	exitCodeStopped = 143
	exitCodeKilled  = 137
)

// syncErrorBackOff is the pod worker's requeue delay after a sync that failed for a
// reason other than the crash-loop back-off (pkg/kubelet/kubelet.go backOffPeriod,
// without its jitter).
const syncErrorBackOff = 10 * time.Second

// simContainer is the simulator's bookkeeping for one container name.
type simContainer struct {
	starts     int // successful starts so far
	pulls      int // pull attempts that reached the runtime
	startTries int // start attempts after a successful pull
	restarts   int32
	// fieldPath is the container's field path in events, once computed (path).
	fieldPath string
	hasPath   bool
	// backOffEvent is the message of the container's crash-loop BackOff event, once
	// computed (holdBack).
	backOffEvent string
	// img is the image the strings below name (start), once computed: the Pulled
	// event's message for an image already present and the BackOff event's message
	// for a pull held back.
	img, presentMsg, pullBackOffMsg string
	hasImg                          bool
}

// image returns the strings of c (below) for img, computed again when img changes.
func (c *simContainer) image(img string) *simContainer {
	if c.img != img || !c.hasImg {
		c.img, c.hasImg, c.presentMsg, c.pullBackOffMsg = img, true, "", ""
	}
	return c
}

// nodeImage is what the node knows of an image: whether it holds it, and the
// image-pull back-off of the pod's pulls of it (the pod's only key for the image,
// restart.ImagePullBackOffKey of its UID and the image).
type nodeImage struct {
	present bool
	pull    restart.ImagePullState
}

// simRun is the run an instance performs, with its probe timelines.
type simRun struct {
	run       Run
	c         *corev1.Container
	start     time.Time
	fieldPath string
	// started is when the container counts as started (its startup probe passed);
	// hasStarted is false when it never does.
	started    time.Time
	hasStarted bool
	probes     [3]probeTimeline // startup, liveness, readiness
	// eventsUntil is the time up to which the run's probe events have been recorded.
	eventsUntil time.Time
}

// probeTimeline is one probe's results over a run, with effective times.
type probeTimeline struct {
	name    string // "Startup", "Liveness", "Readiness"
	has     bool
	initial restart.ProbeResult
	steps   []effectiveStep
	period  time.Duration
	thresh  int
	delay   time.Duration
	handler string // default failure output
}

type effectiveStep struct {
	at     time.Time
	result restart.ProbeResult
	output string
}

// simulator is the virtual node of [Simulate]: the pod as the kubelet holds it, the
// runtime view it acts on, and what the script has consumed so far.
type simulator struct {
	pod    *corev1.Pod
	view   restart.View
	script Script
	opts   Options
	// runs is the script's run of each instance, by instance ID; state the script
	// position of each container, by name; images the node's images and the pod's
	// image-pull back-off, by image.
	runs         map[string]*simRun
	state        map[string]*simContainer
	images       map[string]nodeImage
	sandboxes    int
	events       []Event
	ensureSecret bool
	// phase is the room plan converts the statuses it reads the phase from into, used
	// again at every sync.
	phase scratch
}

func newSimulator(pod *corev1.Pod, script Script, opts SimulateOptions) *simulator {
	// The simulation never writes into the spec or the metadata; it replaces the status
	// and sets the creation and deletion fields of its own copy of the object.
	own := *pod
	s := &simulator{
		pod:          &own,
		script:       script,
		opts:         opts.Options,
		runs:         map[string]*simRun{},
		state:        map[string]*simContainer{},
		images:       map[string]nodeImage{},
		ensureSecret: opts.Features.Enabled("KubeletEnsureSecretPulledImages"),
		events:       make([]Event, 0, 16),
	}
	for _, img := range opts.PresentImages {
		s.images[img] = nodeImage{present: true}
	}
	return s
}

// record appends an event.
func (s *simulator) record(t time.Time, typ, reason, message, fieldPath string) {
	s.events = append(s.events, Event{Time: t, Type: typ, Reason: reason, Message: message, FieldPath: fieldPath})
}

// sortedEvents returns the events in time order (probe failures are found after the
// fact and recorded late), keeping the recording order of simultaneous ones.
func (s *simulator) sortedEvents() []Event {
	byTime := func(a, b Event) int { return a.Time.Compare(b.Time) }
	if !slices.IsSortedFunc(s.events, byTime) {
		slices.SortStableFunc(s.events, byTime)
	}
	return s.events
}

// container returns the script position of the named container.
func (s *simulator) container(name string) *simContainer {
	c := s.state[name]
	if c == nil {
		c = &simContainer{}
		s.state[name] = c
	}
	return c
}

// path returns the field path of the named container's events (containerFieldPath),
// computed once a simulation.
func (s *simulator) path(name string) string {
	c := s.container(name)
	if !c.hasPath {
		c.fieldPath, c.hasPath = containerFieldPath(s.pod, name), true
	}
	return c.fieldPath
}

// delete applies a delete request made at t, as the API server's graceful deletion does.
func (s *simulator) delete(t time.Time, grace *int64) {
	g := int64(corev1.DefaultTerminationGracePeriodSeconds)
	if s.pod.Spec.TerminationGracePeriodSeconds != nil {
		g = *s.pod.Spec.TerminationGracePeriodSeconds
	}
	if grace != nil {
		g = *grace
	}
	g = max(g, 0)
	ts := metav1.NewTime(t.Add(time.Duration(g) * time.Second))
	s.pod.DeletionTimestamp = &ts
	s.pod.DeletionGracePeriodSeconds = &g
}

// status generates and stores the kubelet's status at now (podIsTerminal as in
// SyncTerminatingPod's last status), recording the active-deadline handler's event.
func (s *simulator) status(now time.Time, podIsTerminal bool) corev1.PodStatus {
	if DeadlineEviction(s.pod, now).Evict {
		s.record(now, corev1.EventTypeNormal, EventReasonDeadlineExceeded, MessageDeadlineExceeded, "")
	}
	x := newLookup(&s.view)
	var st corev1.PodStatus
	room := generateStatus(&st, s.pod, &s.pod.Status, &x, now, podIsTerminal, kubeletProber, s.opts)
	storeStatus(s.pod, &s.pod.Status, &st, now, room, s.opts)
	return st
}

// advance ends the runs that are over at now, updates the probe results and records the
// probe failures up to now.
func (s *simulator) advance(now time.Time) {
	for i := range s.view.Instances {
		inst := &s.view.Instances[i]
		r, ok := s.runs[inst.ID]
		if !ok {
			continue
		}
		if inst.State == restart.StateRunning && !r.run.Forever && !now.Before(r.start.Add(r.run.Duration)) {
			inst.State = restart.StateExited
			inst.ExitCode = r.run.ExitCode
			inst.Reason = r.run.Reason
			if inst.Reason == "" {
				inst.Reason = "Completed"
				if inst.ExitCode != 0 {
					inst.Reason = "Error"
				}
			}
			inst.FinishedAt = r.start.Add(r.run.Duration)
		}
		until := now
		if inst.State != restart.StateRunning {
			until = minTime(until, inst.FinishedAt)
		}
		s.probeEvents(r, until)
		if inst.State == restart.StateRunning {
			inst.Startup = r.probes[0].at(now)
			inst.Liveness = r.probes[1].at(now)
			inst.Readiness = r.probes[2].at(now)
		}
	}
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// at returns the probe's result at t.
func (p *probeTimeline) at(t time.Time) restart.ProbeResult {
	if !p.has {
		return restart.ProbeNone
	}
	res := p.initial
	for _, st := range p.steps {
		if !st.at.After(t) {
			res = st.result
		}
	}
	return res
}

// probeEvents records the Unhealthy events of r's failing probes up to until.
func (s *simulator) probeEvents(r *simRun, until time.Time) {
	from := r.eventsUntil
	if !until.After(from) {
		return
	}
	r.eventsUntil = until
	for k := range r.probes {
		p := &r.probes[k]
		if !p.has {
			continue
		}
		earliest := r.start.Add(p.delay)
		for i, st := range p.steps {
			if st.result != restart.ProbeFailure {
				continue
			}
			output := st.output
			if output == "" {
				output = p.handler
			}
			msg := MessageProbeFailed(p.name, output)
			if st.at.After(from) && !st.at.After(until) {
				// The failureThreshold failed probes that made the result Failure.
				for n := p.thresh - 1; n >= 0; n-- {
					t := st.at.Add(-time.Duration(n) * p.period)
					if t.Before(earliest) || (i > 0 && !t.After(p.steps[i-1].at)) {
						continue
					}
					s.record(t, corev1.EventTypeWarning, EventReasonUnhealthy, msg, r.fieldPath)
				}
			}
			if k != 2 {
				continue // a failed liveness or startup probe is not probed again
			}
			// Readiness is probed on while it fails.
			for t := st.at.Add(p.period); !t.After(until); t = t.Add(p.period) {
				if i+1 < len(p.steps) && !t.Before(p.steps[i+1].at) {
					break
				}
				if t.After(from) {
					s.record(t, corev1.EventTypeWarning, EventReasonUnhealthy, msg, r.fieldPath)
				}
			}
		}
	}
}

// newRun builds the run an instance of c started at start performs; fieldPath is the
// container's field path.
func (s *simulator) newRun(c *corev1.Container, run Run, start time.Time, fieldPath string) *simRun {
	r := &simRun{run: run, c: c, start: start, fieldPath: fieldPath, eventsUntil: start.Add(-1)}
	podIP := ""
	if len(s.view.Sandboxes) > 0 && s.view.Sandboxes[0].Network != nil {
		podIP = s.view.Sandboxes[0].Network.IP
	}
	specs := [3]*corev1.Probe{c.StartupProbe, c.LivenessProbe, c.ReadinessProbe}
	steps := [3][]ProbeStep{run.Startup, run.Liveness, run.Readiness}
	names := [3]string{"Startup", "Liveness", "Readiness"}
	initial := [3]restart.ProbeResult{restart.ProbeUnknown, restart.ProbeSuccess, restart.ProbeFailure}
	r.started, r.hasStarted = start, true
	for k := range specs {
		pr := specs[k]
		p := &r.probes[k]
		p.name = names[k]
		if pr == nil {
			continue
		}
		p.has, p.initial = true, initial[k]
		p.period, p.thresh = 10*time.Second, 3
		if pr.PeriodSeconds > 0 {
			p.period = time.Duration(pr.PeriodSeconds) * time.Second
		}
		if pr.FailureThreshold > 0 {
			p.thresh = int(pr.FailureThreshold)
		}
		p.delay = time.Duration(max(pr.InitialDelaySeconds, 0)) * time.Second
		p.handler = defaultProbeOutput(pr, podIP)
		src := steps[k]
		if len(src) == 0 && (k != 1) {
			// A probe without steps passes once its initial delay has passed.
			src = []ProbeStep{{At: p.delay, Result: restart.ProbeSuccess}}
		}
		for _, st := range src {
			t := start.Add(max(st.At, 0))
			if k > 0 {
				// Liveness and readiness are probed only once the container has started.
				if !r.hasStarted {
					continue
				}
				t = maxTime(t, r.started)
			}
			p.steps = append(p.steps, effectiveStep{at: t, result: st.Result, output: st.Output})
		}
		slices.SortStableFunc(p.steps, func(a, b effectiveStep) int { return a.at.Compare(b.at) })
		if k == 0 {
			r.hasStarted = false
			for _, st := range p.steps {
				if st.result == restart.ProbeSuccess {
					r.started, r.hasStarted = st.at, true
					break
				}
			}
		}
	}
	return r
}

// defaultProbeOutput is the usual output of a failing probe of pr's handler.
func defaultProbeOutput(pr *corev1.Probe, podIP string) string {
	switch {
	case pr.HTTPGet != nil:
		return "HTTP probe failed with statuscode: 500"
	case pr.TCPSocket != nil:
		host := pr.TCPSocket.Host
		if host == "" {
			host = podIP
		}
		return "dial tcp " + joinHostPort(host, pr.TCPSocket.Port.String()) + ": connect: connection refused"
	case pr.GRPC != nil:
		return `service unhealthy (responded with "NOT_SERVING")`
	}
	return ""
}

func joinHostPort(host, port string) string {
	if strings.Contains(host, ":") {
		return "[" + host + "]:" + port
	}
	return host + ":" + port
}

// runningNames lists the running instances' container names, newest first.
func (s *simulator) runningNames() []string {
	var names []string
	for i := range s.view.Instances {
		if s.view.Instances[i].State == restart.StateRunning {
			names = append(names, s.view.Instances[i].Name)
		}
	}
	return names
}

// stopBehaviors are the script's stop behaviours by container name.
func (s *simulator) stopBehaviors() map[string]StopBehavior {
	m := make(map[string]StopBehavior, len(s.script))
	for name, sc := range s.script {
		m[name] = sc.Stop
	}
	return m
}

// killAll stops every running container at t as the kubelet's killPod does: in
// termination order, each with the Killing event "Stopping container <name>". It returns
// when the last one has exited.
func (s *simulator) killAll(t time.Time, override *int64) time.Time {
	running := s.runningNames()
	end := t
	if len(running) == 0 {
		return end
	}
	steps := TerminationOrderOf(s.pod, running)
	behaviors := s.stopBehaviors()
	sched := TerminationSchedule(s.pod, steps, override, behaviors)
	for _, st := range sched {
		s.record(t, corev1.EventTypeNormal, EventReasonKilling, MessageStopping(st.Name), s.path(st.Name))
	}
	for _, st := range sched {
		code := int32(exitCodeStopped)
		if max(behaviors[st.Name].Exit, 0) >= seconds(st.Timeout) {
			code = exitCodeKilled
		}
		exit := t.Add(st.Exit)
		for i := range s.view.Instances {
			inst := &s.view.Instances[i]
			if inst.Name == st.Name && inst.State == restart.StateRunning {
				s.advanceTo(inst, exit)
				s.stop(inst, exit, code)
			}
		}
		end = maxTime(end, exit)
	}
	return end
}

// advanceTo records the probe events of inst up to t before it stops.
func (s *simulator) advanceTo(inst *restart.Instance, t time.Time) {
	if r, ok := s.runs[inst.ID]; ok {
		s.probeEvents(r, t)
	}
}

// stop makes inst exit at t with code.
func (s *simulator) stop(inst *restart.Instance, t time.Time, code int32) {
	inst.State = restart.StateExited
	inst.ExitCode = code
	inst.Reason = "Error"
	inst.FinishedAt = t
	if r, ok := s.runs[inst.ID]; ok {
		// The run is over: it no longer exits by itself.
		r.run.Forever = true
	}
}

// killOne stops one instance at t as killContainer does and returns when it has exited.
func (s *simulator) killOne(inst *restart.Instance, t time.Time, reason KillReason, message string, override *int64) time.Time {
	if message == "" {
		message = MessageStopping(inst.Name)
	}
	s.record(t, corev1.EventTypeNormal, EventReasonKilling, message, s.path(inst.Name))
	if inst.State != restart.StateRunning {
		s.stop(inst, t, exitCodeKilled)
		return t
	}
	b := s.script[inst.Name].Stop
	c := containerSpec(&s.pod.Spec, inst.Name)
	grace := GracePeriod(s.pod, inst.Name, reason)
	if override != nil {
		grace = *override
	}
	var hook time.Duration
	if c != nil && c.Lifecycle != nil && c.Lifecycle.PreStop != nil && grace > 0 {
		hook = min(max(b.PreStop, 0), seconds(grace))
	}
	timeout := StopTimeout(s.pod, inst.Name, reason, StopOptions{GracePeriodOverride: override, PreStop: b.PreStop})
	code := int32(exitCodeStopped)
	exitAfter := max(b.Exit, 0)
	if exitAfter >= seconds(timeout) {
		exitAfter, code = seconds(timeout), exitCodeKilled
	}
	exit := t.Add(hook + exitAfter)
	s.advanceTo(inst, exit)
	s.stop(inst, exit, code)
	return exit
}

// terminate stops every running container of a pod the kubelet terminates, with the pod
// worker's grace period, and the sandbox; it returns when everything has stopped.
func (s *simulator) terminate(now time.Time) time.Time {
	grace := PodGracePeriod(s.pod, 0, nil)
	end := s.killAll(now, &grace)
	for i := range s.view.Instances {
		if inst := &s.view.Instances[i]; inst.State == restart.StateCreated || inst.State == restart.StateUnknown {
			s.stop(inst, end, exitCodeKilled)
		}
	}
	for i := range s.view.Sandboxes {
		s.view.Sandboxes[i].Ready = false
	}
	return end
}

// apply carries out one sync's actions on the simulated runtime, in SyncPod's order, and
// reports whether anything changed in it and when the sync ended.
func (s *simulator) apply(a PodActions, now time.Time) (bool, time.Time) {
	pod, v := s.pod, &s.view
	changed := false
	t := now
	if a.CreateSandbox && a.SandboxID != "" {
		s.record(t, corev1.EventTypeNormal, EventReasonSandboxChanged, MessageSandboxChanged, "")
	}
	if a.KillPod {
		if len(s.runningNames()) > 0 {
			changed = true
		}
		t = s.killAll(t, nil)
		for i := range v.Instances {
			if inst := &v.Instances[i]; inst.State == restart.StateCreated || inst.State == restart.StateUnknown {
				s.stop(inst, t, exitCodeKilled)
			}
		}
		for i := range v.Sandboxes {
			if v.Sandboxes[i].Ready {
				changed = true
			}
			v.Sandboxes[i].Ready = false
		}
		if a.CreateSandbox {
			// Old init containers are purged so that they run again.
			kept := v.Instances[:0:0]
			inits := byname.Containers(pod.Spec.InitContainers)
			for _, inst := range v.Instances {
				if inits.First(inst.Name) < 0 {
					kept = append(kept, inst)
				}
			}
			v.Instances = kept
		}
	} else {
		for _, k := range a.ContainersToKill {
			for i := range v.Instances {
				if v.Instances[i].ID == k.ID {
					t = s.killOne(&v.Instances[i], t, k.Reason, k.Message, nil)
					changed = true
				}
			}
		}
		if len(a.ContainersToReset) > 0 {
			var zero int64
			drop := make(map[string]bool, len(a.ContainersToReset))
			for _, r := range a.ContainersToReset {
				drop[r.ID] = true
				if !r.Kill {
					continue
				}
				for i := range v.Instances {
					if v.Instances[i].ID == r.ID {
						t = s.killOne(&v.Instances[i], t, KillReasonRestartAllContainers, MessageKillingForRestartAll, &zero)
					}
				}
			}
			kept := v.Instances[:0:0]
			for _, inst := range v.Instances {
				if !drop[inst.ID] {
					kept = append(kept, inst)
				}
			}
			v.Instances = kept
			changed = true
		}
	}
	if a.CreateSandbox {
		s.sandboxes++
		n := s.sandboxes
		sb := restart.Sandbox{ID: "sandbox-" + strconv.Itoa(n), Ready: true, Attempt: a.Attempt, HostNetwork: pod.Spec.HostNetwork}
		if !pod.Spec.HostNetwork {
			sb.Network = &restart.SandboxNetwork{IP: "10.0.0." + strconv.Itoa(n%250+1)}
		}
		v.Sandboxes = append([]restart.Sandbox{sb}, v.Sandboxes...)
		changed = true
	}
	for _, u := range a.BackOffUpdates {
		if v.BackOff == nil {
			v.BackOff = map[string]restart.BackOff{}
		}
		v.BackOff[u.Key] = u.BackOff
	}
	if len(v.Sandboxes) == 0 || !v.Sandboxes[0].Ready {
		s.holdBackAll(a, t)
		return changed, t
	}
	sandbox := v.Sandboxes[0].ID
	for _, r := range a.EphemeralContainersToStart {
		var ok bool
		ok, t = s.start(r, sandbox, t)
		changed = changed || ok
	}
	aborted := false
	var buf [8]plannedStart
	for _, r := range s.ordered(buf[:0], a.InitContainersToStart, a.BackOff, true) {
		if aborted {
			break
		}
		if r.held != nil {
			s.holdBack(*r.held, t)
			aborted = r.Kind == KindInitContainer
			continue
		}
		var ok bool
		ok, t = s.start(r.ContainerRef, sandbox, t)
		changed = changed || ok
		if !ok && r.Kind == KindInitContainer {
			aborted = true // a regular init container that cannot start aborts the sync
		}
	}
	if aborted {
		return changed, t
	}
	for _, r := range s.ordered(buf[:0], a.ContainersToStart, a.BackOff, false) {
		if r.held != nil {
			s.holdBack(*r.held, t)
			continue
		}
		var ok bool
		ok, t = s.start(r.ContainerRef, sandbox, t)
		changed = changed || ok
	}
	return changed, t
}

// plannedStart is a start the sync attempts: allowed, or held by the back-off.
type plannedStart struct {
	ContainerRef
	held *BackOffWait
}

// ordered merges the allowed starts of one list with the back-off waits of the same
// kinds, in spec order, which is the order SyncPod attempts them in, into buf's
// room (a larger list when it is too small).
func (s *simulator) ordered(buf []plannedStart, refs []ContainerRef, waits []BackOffWait, init bool) []plannedStart {
	if len(refs)+len(waits) == 0 {
		return nil
	}
	out := buf[:0]
	for _, r := range refs {
		out = append(out, plannedStart{ContainerRef: r})
	}
	for i := range waits {
		w := &waits[i]
		isInit := w.Container.Kind == KindInitContainer || w.Container.Kind == KindSidecar
		if isInit == init && w.Container.Kind != KindEphemeralContainer {
			out = append(out, plannedStart{ContainerRef: w.Container, held: w})
		}
	}
	slices.SortStableFunc(out, func(a, b plannedStart) int { return a.Index - b.Index })
	return out
}

// holdBack records a start refused by the crash-loop back-off.
func (s *simulator) holdBack(w BackOffWait, t time.Time) {
	c := s.container(w.Container.Name)
	if c.backOffEvent == "" {
		c.backOffEvent = restart.CrashLoopEventMessage(w.Container.Name, s.pod)
	}
	s.record(t, corev1.EventTypeWarning, EventReasonBackOff, c.backOffEvent, s.path(w.Container.Name))
	s.setStartFailure(w.Container.Name, restart.StartFailure{Reason: restart.ReasonCrashLoopBackOff, Message: w.Message})
}

func (s *simulator) holdBackAll(a PodActions, t time.Time) {
	for _, w := range a.BackOff {
		s.holdBack(w, t)
	}
}

// pullPolicy is the container's imagePullPolicy, defaulted as the API server does when
// empty: Always for an image without a tag or digest or with the tag "latest".
func pullPolicy(c *corev1.Container) corev1.PullPolicy {
	if c.ImagePullPolicy != "" {
		return c.ImagePullPolicy
	}
	img := c.Image
	if strings.Contains(img, "@") {
		return corev1.PullIfNotPresent
	}
	name := img[strings.LastIndex(img, "/")+1:]
	if i := strings.LastIndex(name, ":"); i < 0 || name[i+1:] == "latest" {
		return corev1.PullAlways
	}
	return corev1.PullIfNotPresent
}

// start pulls the image of the referenced container and starts it in sandbox at t, as
// the script says; it reports whether an instance now runs and when the start ended.
func (s *simulator) start(r ContainerRef, sandbox string, t time.Time) (bool, time.Time) {
	pod, v := s.pod, &s.view
	c := specOf(pod, r)
	name := c.Name
	fp := s.path(name)
	st := s.container(name)
	sc := s.script[name]
	img := c.Image
	policy := pullPolicy(c)
	node := s.images[img]
	present := node.present
	switch {
	case policy == corev1.PullNever && !present:
		msg := "Container image " + strconv.Quote(img) + " is not present with pull policy of Never"
		s.record(t, corev1.EventTypeWarning, EventReasonErrImageNeverPull, msg, fp)
		s.record(t, corev1.EventTypeWarning, EventReasonFailed, "Error: ErrImageNeverPull", fp)
		s.setStartFailure(name, restart.StartFailure{Reason: "ErrImageNeverPull", Message: msg})
		return false, t
	case present && policy != corev1.PullAlways:
		im := st.image(img)
		if im.presentMsg == "" {
			im.presentMsg = MessageImagePresent(img, s.ensureSecret)
		}
		s.record(t, corev1.EventTypeNormal, EventReasonPulled, im.presentMsg, fp)
	default:
		im := st.image(img)
		ps, held, msg := node.pull.BeforePull(img, t)
		if held {
			node.pull = ps
			s.images[img] = node
			if im.pullBackOffMsg == "" {
				im.pullBackOffMsg = "Back-off pulling image " + quote(img)
			}
			s.record(t, corev1.EventTypeNormal, EventReasonBackOff, im.pullBackOffMsg, fp)
			s.record(t, corev1.EventTypeWarning, EventReasonFailed, "Error: "+restart.ReasonImagePullBackOff, fp)
			s.setStartFailure(name, restart.StartFailure{Reason: restart.ReasonImagePullBackOff, Message: msg})
			return false, t
		}
		s.record(t, corev1.EventTypeNormal, EventReasonPulling, MessagePulling(img), fp)
		if st.pulls < len(sc.PullErrors) {
			criErr := sc.PullErrors[st.pulls]
			next, reason, message := ps.PullFailed(img, criErr, t)
			st.pulls++
			node.pull = next
			s.images[img] = node
			s.record(t, corev1.EventTypeWarning, EventReasonFailed, "Failed to pull image "+quote(img)+": "+criErr, fp)
			s.record(t, corev1.EventTypeWarning, EventReasonFailed, "Error: "+reason, fp)
			s.setStartFailure(name, restart.StartFailure{Reason: reason, Message: message})
			return false, t
		}
		st.pulls++
		pull := max(sc.PullTime, 0)
		t = t.Add(pull)
		node.pull, node.present = ps.PullSucceeded(t), true
		s.images[img] = node
		s.record(t, corev1.EventTypeNormal, EventReasonPulled, MessagePulled(img, pull, sc.ImageSize), fp)
	}
	if st.startTries < len(sc.StartErrors) {
		f := sc.StartErrors[st.startTries]
		st.startTries++
		s.record(t, corev1.EventTypeWarning, EventReasonFailed, "Error: "+f.Message, fp)
		s.setStartFailure(name, f)
		return false, t
	}
	st.startTries++
	run := Run{Forever: true}
	if len(sc.Runs) > 0 {
		run = sc.Runs[min(st.starts, len(sc.Runs)-1)]
	}
	restarts := st.restarts
	if prev := newestByName(v, name); prev != nil {
		restarts = prev.RestartCount + 1
	} else if st.starts > 0 {
		restarts = st.restarts + 1
	}
	st.restarts = restarts
	st.starts++
	id := "sim://" + name + "-" + strconv.Itoa(st.starts)
	s.record(t, corev1.EventTypeNormal, EventReasonCreated, MessageContainerCreated, fp)
	s.record(t, corev1.EventTypeNormal, EventReasonStarted, MessageContainerStarted, fp)
	inst := restart.Instance{Name: name, ID: id, Sandbox: sandbox, State: restart.StateRunning, Image: img,
		StartedAt: t, RestartCount: restarts}
	sr := s.newRun(c, run, t, fp)
	s.runs[id] = sr
	// The newest instance comes first; the view is the simulator's own, so the list
	// grows in place.
	v.Instances = append(v.Instances, restart.Instance{})
	copy(v.Instances[1:], v.Instances)
	v.Instances[0] = inst
	if v.StartFailures != nil {
		delete(v.StartFailures, name)
	}
	// The new instance's probe results at its start.
	v.Instances[0].Startup = sr.probes[0].at(t)
	v.Instances[0].Liveness = sr.probes[1].at(t)
	v.Instances[0].Readiness = sr.probes[2].at(t)
	return true, t
}

// quote is strconv.Quote(s), at the cost of one concatenation when s needs no
// escaping.
func quote(s string) string {
	if podutil.PlainQuoted(s) {
		return `"` + s + `"`
	}
	return strconv.Quote(s)
}

func newestByName(v *restart.View, name string) *restart.Instance {
	for i := range v.Instances {
		if v.Instances[i].Name == name {
			return &v.Instances[i]
		}
	}
	return nil
}

func (s *simulator) setStartFailure(name string, f restart.StartFailure) {
	if s.view.StartFailures == nil {
		s.view.StartFailures = map[string]restart.StartFailure{}
	}
	s.view.StartFailures[name] = f
}

// nextEvent returns the time of the next sync when the sync that ended at from changed
// nothing.
func (s *simulator) nextEvent(a PodActions, from time.Time, resync time.Duration) (time.Time, bool) {
	pod, v := s.pod, &s.view
	var next time.Time
	consider := func(t time.Time) {
		if t.After(from) && (next.IsZero() || t.Before(next)) {
			next = t
		}
	}
	for i := range v.Instances {
		inst := &v.Instances[i]
		if inst.State != restart.StateRunning {
			continue
		}
		r, ok := s.runs[inst.ID]
		if !ok {
			continue
		}
		if !r.run.Forever {
			consider(r.start.Add(r.run.Duration))
		}
		for k := range r.probes {
			for _, st := range r.probes[k].steps {
				consider(st.at)
			}
		}
	}
	for _, w := range a.BackOff {
		// The pod worker requeues at the back-off's expiry, at most one resync later.
		consider(w.Until)
		consider(from.Add(resync))
	}
	if d, ok := ActiveDeadline(pod); ok {
		consider(d)
	}
	// Other start failures (image pulls, configuration errors) fail the sync, which the
	// pod worker retries after its back-off period.
	if len(v.StartFailures) > 0 && len(a.BackOff) == 0 {
		consider(from.Add(syncErrorBackOff))
	}
	if next.IsZero() {
		return next, false
	}
	return next, true
}
