package lifecycle

import (
	"strconv"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/podlife/podlife/internal/byname"
	"github.com/podlife/podlife/restart"
)

// Script says how the containers of a simulated pod behave, by container name. A
// container without an entry runs forever, passes every probe and pulls its image.
type Script map[string]ContainerScript

// ContainerScript is the behaviour of one container.
type ContainerScript struct {
	// Runs describes the successive runs (instances) of the container: the first
	// start uses Runs[0], the second Runs[1], and the last entry repeats. No runs means
	// the container runs until it is stopped.
	Runs []Run
	// PullErrors are the runtime's errors for the container's first image pulls, in
	// order (for example "rpc error: code = NotFound"); later pulls succeed. A pull
	// that fails gives ErrImagePull, and the image-pull back-off then holds the next
	// pulls (ImagePullBackOff).
	PullErrors []string
	// StartErrors are reasons (and messages) of the container's first start attempts
	// after a successful pull that fail before the container runs, for example
	// {Reason: "CreateContainerConfigError", Message: `secret "db" not found`}.
	StartErrors []restart.StartFailure
}

// Run is one run of a container.
type Run struct {
	// Forever means the run does not end by itself; Duration and ExitCode are
	// ignored.
	Forever bool
	// Duration is how long the run lasts before the process exits with ExitCode.
	Duration time.Duration
	// ExitCode is the exit code; Reason the runtime's reason, "Completed" for 0 and
	// "Error" otherwise when empty (for example "OOMKilled").
	ExitCode int32
	Reason   string
	// Startup, Liveness and Readiness are the probe results over the run: each step
	// takes effect At the given time after the start. Before the first step a probe
	// has the prober's initial result (startup Unknown, liveness Success, readiness
	// Failure) when the container has that probe, and none otherwise.
	Startup, Liveness, Readiness []ProbeStep
}

// ProbeStep sets a probe result from a moment of a run on.
type ProbeStep struct {
	// At is the time after the start of the run from which Result holds.
	At time.Duration
	// Result is the probe's result from then on.
	Result restart.ProbeResult
}

// SimulateOptions bounds and parameterises a simulation.
type SimulateOptions struct {
	// Options selects the cluster, as for [Plan] and [NextStatus].
	Options
	// Start is the virtual time at which the kubelet first sees the pod.
	Start time.Time
	// MaxDuration bounds the simulated time; zero means one hour.
	MaxDuration time.Duration
	// MaxSteps bounds the number of kubelet syncs; zero means 1000.
	MaxSteps int
	// RelistPeriod is the delay after which the kubelet notices what it started or
	// killed (the PLEG relist); zero means one second.
	RelistPeriod time.Duration
	// ResyncPeriod is the kubelet's periodic sync of a pod nothing happens to; zero
	// means one minute.
	ResyncPeriod time.Duration
}

// Step is one kubelet sync of the simulation.
type Step struct {
	// Time is the sync's virtual time.
	Time time.Time
	// Actions is what the kubelet did ([Plan]).
	Actions PodActions
	// Status is the pod status after the sync ([NextStatus], before the actions).
	Status corev1.PodStatus
	// Row is the `kubectl get pods -o wide` row at Time.
	Row Columns
}

// Timeline is the result of [Simulate].
type Timeline struct {
	// Steps are the kubelet's syncs, in time order.
	Steps []Step
	// Pod is the pod with its last status.
	Pod *corev1.Pod
	// View is the runtime view at the end.
	View restart.View
	// End says why the simulation stopped: "terminal" (the pod reached Succeeded or
	// Failed and every container is stopped), "steady" (nothing more will happen),
	// "max-duration" or "max-steps".
	End string
}

// simContainer is the simulator's bookkeeping for one container name.
type simContainer struct {
	starts     int // successful starts so far
	pulls      int // pull attempts that reached the runtime
	startTries int // start attempts after a successful pull
	restarts   int32
}

// simRun is the run an instance performs.
type simRun struct {
	run Run
}

// Simulate runs pod through virtual time under script: the kubelet syncs the pod,
// computes its next status ([NextStatus]) and its next action ([Plan]) and carries the
// action out on a simulated runtime whose containers behave as the script says; syncs
// happen one relist period after anything changed and otherwise at the next scripted
// event, back-off expiry, active deadline or periodic resync. Each sync is a [Step]
// with the status and the kubectl row.
//
// The simulation is deterministic and bounded by opts.MaxDuration and opts.MaxSteps.
// Container IDs are "sim://<name>-<n>", sandboxes "sandbox-<n>" with IP 10.0.0.<n>.
// Containers the kubelet kills exit with code 137 and reason "Error". Grace periods,
// hooks and image pull times take no virtual time. Statuses are those of [NextStatus]:
// the status manager's hold-back of a terminal phase and its TerminatePod step are not
// applied, so a deleted pod ends with the status of its stopped containers.
func Simulate(pod *corev1.Pod, script Script, opts SimulateOptions) Timeline {
	tl := Timeline{}
	if pod == nil {
		tl.End = "steady"
		return tl
	}
	maxDur, maxSteps, relist, resync := opts.MaxDuration, opts.MaxSteps, opts.RelistPeriod, opts.ResyncPeriod
	if maxDur <= 0 {
		maxDur = time.Hour
	}
	if maxSteps <= 0 {
		maxSteps = 1000
	}
	if relist <= 0 {
		relist = time.Second
	}
	if resync <= 0 {
		resync = time.Minute
	}
	end := opts.Start.Add(maxDur)
	sim := simulator{
		pod:    pod.DeepCopy(),
		script: script,
		runs:   map[string]simRun{},
		state:  map[string]*simContainer{},
		pulls:  map[string]restart.ImagePullState{},
	}
	p, v := sim.pod, &sim.view

	now := opts.Start
	for step := 0; ; step++ {
		if step >= maxSteps {
			tl.End = "max-steps"
			break
		}
		if now.After(end) {
			tl.End = "max-duration"
			break
		}
		sim.advance(now)

		p.Status = NextStatus(p, v, now, opts.Options)
		a := Plan(p, v, now, opts.Options)
		changed := sim.apply(a, now)
		if a.Terminate {
			// Stop everything, then report the terminal status.
			for i := range v.Instances {
				stopInstance(&v.Instances[i], now)
			}
			for i := range v.Sandboxes {
				v.Sandboxes[i].Ready = false
			}
			p.Status = NextStatus(p, v, now, opts.Options)
		}
		tl.Steps = append(tl.Steps, Step{Time: now, Actions: a, Status: *p.Status.DeepCopy(), Row: PodColumns(p, now)})
		if a.Terminate && !anyRunning(v) && isTerminal(p.Status.Phase) {
			tl.End = "terminal"
			break
		}
		if a.Terminate && p.DeletionTimestamp != nil && !anyRunning(v) {
			tl.End = "terminal"
			break
		}

		next, ok := sim.nextEvent(a, now, resync)
		if changed {
			next, ok = now.Add(relist), true
		}
		if !ok {
			tl.End = "steady"
			break
		}
		now = next
	}
	tl.Pod = p
	tl.View = sim.view
	return tl
}

// simulator is the virtual node of [Simulate]: the pod as the kubelet holds it, the
// runtime view it acts on, and what the script has consumed so far.
type simulator struct {
	pod    *corev1.Pod
	view   restart.View
	script Script
	// runs is the script's run of each instance, by instance ID; state the script
	// position of each container, by name; pulls the image-pull back-off by key.
	runs      map[string]simRun
	state     map[string]*simContainer
	pulls     map[string]restart.ImagePullState
	sandboxes int // sandboxes created so far
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

// advance ends the runs that are over at now and updates the probe results.
func (s *simulator) advance(now time.Time) {
	advanceRuntime(specLookup(&s.pod.Spec), s.view.Instances, s.runs, now)
}

// advanceRuntime ends the runs of instances that are over and updates the probe
// results.
func advanceRuntime(spec func(name string) *corev1.Container, instances []restart.Instance, runs map[string]simRun, now time.Time) {
	for i := range instances {
		inst := &instances[i]
		if inst.State != restart.StateRunning {
			continue
		}
		r, ok := runs[inst.ID]
		if !ok {
			continue
		}
		if !r.run.Forever && !now.Before(inst.StartedAt.Add(r.run.Duration)) {
			inst.State = restart.StateExited
			inst.ExitCode = r.run.ExitCode
			inst.Reason = r.run.Reason
			if inst.Reason == "" {
				inst.Reason = "Completed"
				if inst.ExitCode != 0 {
					inst.Reason = "Error"
				}
			}
			inst.FinishedAt = inst.StartedAt.Add(r.run.Duration)
			continue
		}
		c := spec(inst.Name)
		elapsed := now.Sub(inst.StartedAt)
		inst.Startup = probeAt(r.run.Startup, elapsed, c != nil && c.StartupProbe != nil, restart.ProbeUnknown)
		inst.Liveness = probeAt(r.run.Liveness, elapsed, c != nil && c.LivenessProbe != nil, restart.ProbeSuccess)
		inst.Readiness = probeAt(r.run.Readiness, elapsed, c != nil && c.ReadinessProbe != nil, restart.ProbeFailure)
	}
}

func probeAt(steps []ProbeStep, elapsed time.Duration, has bool, initial restart.ProbeResult) restart.ProbeResult {
	res := restart.ProbeNone
	if has {
		res = initial
	}
	for _, s := range steps {
		if s.At <= elapsed {
			res = s.Result
		}
	}
	return res
}

func stopInstance(inst *restart.Instance, now time.Time) {
	if inst.State == restart.StateRunning || inst.State == restart.StateCreated || inst.State == restart.StateUnknown {
		inst.State = restart.StateExited
		inst.ExitCode = 137
		inst.Reason = "Error"
		inst.FinishedAt = now
	}
}

func anyRunning(v *restart.View) bool {
	for i := range v.Instances {
		if v.Instances[i].State == restart.StateRunning {
			return true
		}
	}
	return false
}

// apply carries out one sync's actions on the simulated runtime and reports whether
// anything changed in it.
func (s *simulator) apply(a PodActions, now time.Time) bool {
	pod, v := s.pod, &s.view
	changed := false
	if a.Terminate {
		return anyRunning(v)
	}
	if a.KillPod {
		for i := range v.Instances {
			if v.Instances[i].State == restart.StateRunning {
				changed = true
			}
			stopInstance(&v.Instances[i], now)
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
					stopInstance(&v.Instances[i], now)
					changed = true
				}
			}
		}
		if len(a.ContainersToReset) > 0 {
			drop := map[string]bool{}
			for _, r := range a.ContainersToReset {
				drop[r.ID] = true
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
	for _, w := range a.BackOff {
		s.setStartFailure(w.Container.Name, restart.StartFailure{Reason: restart.ReasonCrashLoopBackOff, Message: w.Message})
	}
	if len(v.Sandboxes) == 0 || !v.Sandboxes[0].Ready {
		return changed
	}
	sandbox := v.Sandboxes[0].ID
	for _, r := range a.EphemeralContainersToStart {
		changed = s.start(r, sandbox, now) || changed
	}
	for _, r := range a.InitContainersToStart {
		if s.start(r, sandbox, now) {
			changed = true
			continue
		}
		if r.Kind == KindInitContainer {
			return changed // a regular init container that cannot start aborts the sync
		}
	}
	for _, r := range a.ContainersToStart {
		changed = s.start(r, sandbox, now) || changed
	}
	return changed
}

// start pulls the image of the referenced container and starts it in sandbox at now,
// as the script says, and reports whether an instance now runs.
func (s *simulator) start(r ContainerRef, sandbox string, now time.Time) bool {
	pod, v := s.pod, &s.view
	c := specOf(pod, r)
	name := c.Name
	st := s.container(name)
	sc := s.script[name]
	pullKey := restart.ImagePullBackOffKey(string(pod.UID), c.Image)
	ps, held, msg := s.pulls[pullKey].BeforePull(c.Image, now)
	if held {
		s.pulls[pullKey] = ps
		s.setStartFailure(name, restart.StartFailure{Reason: restart.ReasonImagePullBackOff, Message: msg})
		return false
	}
	if st.pulls < len(sc.PullErrors) {
		next, reason, message := ps.PullFailed(c.Image, sc.PullErrors[st.pulls], now)
		st.pulls++
		s.pulls[pullKey] = next
		s.setStartFailure(name, restart.StartFailure{Reason: reason, Message: message})
		return false
	}
	st.pulls++
	s.pulls[pullKey] = ps.PullSucceeded(now)
	if st.startTries < len(sc.StartErrors) {
		f := sc.StartErrors[st.startTries]
		st.startTries++
		s.setStartFailure(name, f)
		return false
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
	inst := restart.Instance{Name: name, ID: id, Sandbox: sandbox, State: restart.StateRunning, Image: c.Image,
		StartedAt: now, RestartCount: restarts}
	s.runs[id] = simRun{run: run}
	v.Instances = append([]restart.Instance{inst}, v.Instances...)
	advanceRuntime(specLookup(&pod.Spec), v.Instances[:1], s.runs, now)
	if v.StartFailures != nil {
		delete(v.StartFailures, name)
	}
	return true
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

// nextEvent returns the time of the next sync when nothing changed now.
func (s *simulator) nextEvent(a PodActions, now time.Time, resync time.Duration) (time.Time, bool) {
	pod, v, runs := s.pod, &s.view, s.runs
	var next time.Time
	consider := func(t time.Time) {
		if t.After(now) && (next.IsZero() || t.Before(next)) {
			next = t
		}
	}
	for i := range v.Instances {
		inst := &v.Instances[i]
		if inst.State != restart.StateRunning {
			continue
		}
		r, ok := runs[inst.ID]
		if !ok {
			continue
		}
		if !r.run.Forever {
			consider(inst.StartedAt.Add(r.run.Duration))
		}
		for _, steps := range [...][]ProbeStep{r.run.Startup, r.run.Liveness, r.run.Readiness} {
			for _, s := range steps {
				consider(inst.StartedAt.Add(s.At))
			}
		}
	}
	for _, w := range a.BackOff {
		// The pod worker requeues at the back-off's expiry, at most one resync later.
		consider(w.Until)
		consider(now.Add(resync))
	}
	if d, ok := ActiveDeadline(pod); ok {
		consider(d)
	}
	// Start failures (image pulls, configuration errors) are retried at the periodic
	// resync, or earlier when the image back-off expires.
	if len(v.StartFailures) > 0 && len(a.BackOff) == 0 {
		consider(now.Add(resync))
		for _, f := range v.StartFailures {
			if f.Reason == restart.ReasonImagePullBackOff || f.Reason == restart.ReasonErrImagePull {
				consider(now.Add(restart.ImagePullBackOffPolicy().Initial))
			}
		}
	}
	if next.IsZero() {
		return next, false
	}
	return next, true
}
