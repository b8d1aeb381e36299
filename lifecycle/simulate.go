package lifecycle

import (
	"strconv"
	"time"

	corev1 "k8s.io/api/core/v1"

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
	StartErrors []StartFailure
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
	Result ProbeResult
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
	View View
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
	p := pod.DeepCopy()
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
	var v View
	runs := map[string]simRun{}         // by instance ID
	state := map[string]*simContainer{} // by container name
	pulls := map[string]restart.ImagePullState{}
	cs := func(name string) *simContainer {
		c := state[name]
		if c == nil {
			c = &simContainer{}
			state[name] = c
		}
		return c
	}
	sandboxes := 0

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
		advanceRuntime(p, &v, runs, now)

		status := NextStatus(p, &v, now, opts.Options)
		p.Status = status
		a := Plan(p, &v, now, opts.Options)
		changed := applyActions(p, &v, a, now, script, runs, cs, pulls, &sandboxes, opts.Options)
		if a.Terminate {
			// Stop everything, then report the terminal status.
			for i := range v.Instances {
				stopInstance(&v.Instances[i], now)
			}
			for i := range v.Sandboxes {
				v.Sandboxes[i].Ready = false
			}
			p.Status = NextStatus(p, &v, now, opts.Options)
		}
		tl.Steps = append(tl.Steps, Step{Time: now, Actions: a, Status: *p.Status.DeepCopy(), Row: PodColumns(p, now)})
		if a.Terminate && !anyRunning(&v) && isTerminal(p.Status.Phase) {
			tl.End = "terminal"
			break
		}
		if a.Terminate && p.DeletionTimestamp != nil && !anyRunning(&v) {
			tl.End = "terminal"
			break
		}

		next, ok := nextEvent(p, &v, a, runs, now, resync)
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
	tl.View = v
	return tl
}

// advanceRuntime ends the runs that are over and updates the probe results.
func advanceRuntime(pod *corev1.Pod, v *View, runs map[string]simRun, now time.Time) {
	for i := range v.Instances {
		inst := &v.Instances[i]
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
		c := specByName(pod, inst.Name)
		elapsed := now.Sub(inst.StartedAt)
		inst.Startup = probeAt(r.run.Startup, elapsed, c != nil && c.StartupProbe != nil, ProbeUnknown)
		inst.Liveness = probeAt(r.run.Liveness, elapsed, c != nil && c.LivenessProbe != nil, ProbeSuccess)
		inst.Readiness = probeAt(r.run.Readiness, elapsed, c != nil && c.ReadinessProbe != nil, ProbeFailure)
	}
}

func probeAt(steps []ProbeStep, elapsed time.Duration, has bool, initial ProbeResult) ProbeResult {
	res := ProbeNone
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

func specByName(pod *corev1.Pod, name string) *corev1.Container {
	if c := findIn(pod.Spec.InitContainers, name); c != nil {
		return c
	}
	if c := findIn(pod.Spec.Containers, name); c != nil {
		return c
	}
	return findEphemeral(&pod.Spec, name)
}

func stopInstance(inst *Instance, now time.Time) {
	if inst.State == restart.StateRunning || inst.State == restart.StateCreated || inst.State == restart.StateUnknown {
		inst.State = restart.StateExited
		inst.ExitCode = 137
		inst.Reason = "Error"
		inst.FinishedAt = now
	}
}

func anyRunning(v *View) bool {
	for i := range v.Instances {
		if v.Instances[i].State == restart.StateRunning {
			return true
		}
	}
	return false
}

// applyActions carries out one sync's actions on the simulated runtime and reports
// whether anything changed in it.
func applyActions(pod *corev1.Pod, v *View, a PodActions, now time.Time, script Script, runs map[string]simRun,
	cs func(string) *simContainer, pulls map[string]restart.ImagePullState, sandboxes *int, opts Options) bool {
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
			for _, inst := range v.Instances {
				if findIn(pod.Spec.InitContainers, inst.Name) == nil {
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
		*sandboxes++
		n := *sandboxes
		sb := Sandbox{ID: "sandbox-" + strconv.Itoa(n), Ready: true, Attempt: a.Attempt, HostNetwork: pod.Spec.HostNetwork}
		if !pod.Spec.HostNetwork {
			sb.Network = &SandboxNetwork{IP: "10.0.0." + strconv.Itoa(n%250+1)}
		}
		v.Sandboxes = append([]Sandbox{sb}, v.Sandboxes...)
		changed = true
	}
	for _, u := range a.BackOffUpdates {
		if v.BackOff == nil {
			v.BackOff = map[string]restart.Backoff{}
		}
		v.BackOff[u.Key] = u.Backoff
	}
	for _, w := range a.BackOff {
		setStartFailure(v, w.Container.Name, StartFailure{Reason: ReasonCrashLoopBackOff, Message: w.Message})
	}
	if len(v.Sandboxes) == 0 || !v.Sandboxes[0].Ready {
		return changed
	}
	sandbox := v.Sandboxes[0].ID
	start := func(r ContainerRef) bool {
		c := specOf(pod, r)
		name := c.Name
		st := cs(name)
		sc := script[name]
		pullKey := restart.ImagePullBackoffKey(string(pod.UID), c.Image)
		ps, held, msg := pulls[pullKey].BeforePull(c.Image, now)
		if held {
			pulls[pullKey] = ps
			setStartFailure(v, name, StartFailure{Reason: "ImagePullBackOff", Message: msg})
			return false
		}
		if st.pulls < len(sc.PullErrors) {
			next, reason, message := ps.PullFailed(c.Image, sc.PullErrors[st.pulls], now)
			st.pulls++
			pulls[pullKey] = next
			setStartFailure(v, name, StartFailure{Reason: reason, Message: message})
			return false
		}
		st.pulls++
		pulls[pullKey] = ps.PullSucceeded(now)
		if st.startTries < len(sc.StartErrors) {
			f := sc.StartErrors[st.startTries]
			st.startTries++
			setStartFailure(v, name, f)
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
		inst := Instance{Name: name, ID: id, Sandbox: sandbox, State: restart.StateRunning, Image: c.Image,
			StartedAt: now, RestartCount: restarts}
		runs[id] = simRun{run: run}
		v.Instances = append([]Instance{inst}, v.Instances...)
		advanceRuntime(pod, &View{Instances: v.Instances[:1]}, runs, now)
		if v.StartFailures != nil {
			delete(v.StartFailures, name)
		}
		return true
	}
	for _, r := range a.EphemeralContainersToStart {
		changed = start(r) || changed
	}
	for _, r := range a.InitContainersToStart {
		if start(r) {
			changed = true
			continue
		}
		if r.Kind == KindInitContainer {
			return changed // a regular init container that cannot start aborts the sync
		}
	}
	for _, r := range a.ContainersToStart {
		changed = start(r) || changed
	}
	_ = opts
	return changed
}

func newestByName(v *View, name string) *Instance {
	for i := range v.Instances {
		if v.Instances[i].Name == name {
			return &v.Instances[i]
		}
	}
	return nil
}

func setStartFailure(v *View, name string, f StartFailure) {
	if v.StartFailures == nil {
		v.StartFailures = map[string]StartFailure{}
	}
	v.StartFailures[name] = f
}

// nextEvent returns the time of the next sync when nothing changed now.
func nextEvent(pod *corev1.Pod, v *View, a PodActions, runs map[string]simRun, now time.Time, resync time.Duration) (time.Time, bool) {
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
			if f.Reason == "ImagePullBackOff" || f.Reason == "ErrImagePull" {
				consider(now.Add(restart.ImagePullPolicy().Initial))
			}
		}
	}
	if next.IsZero() {
		return next, false
	}
	return next, true
}
