package lifecycle

import (
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podlife/podlife/restart"
)

// Script says how the containers of a simulated pod behave, by container name. A
// container without an entry runs until it is stopped, passes every probe, pulls its
// image at once and exits at once when it is stopped.
type Script map[string]ContainerScript

// ContainerScript is the behaviour of one container.
type ContainerScript struct {
	// Runs describes the successive runs (instances) of the container: the first
	// start uses Runs[0], the second Runs[1], and the last entry repeats. No runs means
	// the container runs until it is stopped and passes every probe.
	Runs []Run
	// PullErrors are the runtime's errors for the container's first image pulls, in
	// order (for example "rpc error: code = NotFound"); later pulls succeed. A pull
	// that fails gives ErrImagePull, and the image-pull back-off then holds the next
	// pulls (ImagePullBackOff).
	PullErrors []string
	// PullTime is how long a successful pull of the container's image takes; the
	// kubelet's sync waits for it. ImageSize is the size the Pulled event reports.
	PullTime  time.Duration
	ImageSize int64
	// StartErrors are reasons (and messages) of the container's first start attempts
	// after a successful pull that fail before the container runs, for example
	// {Reason: "CreateContainerConfigError", Message: `secret "db" not found`}.
	StartErrors []restart.StartFailure
	// Stop is how the container behaves when the kubelet stops it: how long its preStop
	// hook runs and how long it takes to exit after its stop signal. It exits with code
	// 143 (terminated by SIGTERM) unless the stop timeout expires first, when the runtime
	// kills it with code 137.
	Stop StopBehavior
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
	// Startup, Liveness and Readiness are the prober's results over the run: each step
	// takes effect At the given time after the start. Before the first step a probe has
	// the prober's initial result (startup Unknown, liveness Success, readiness Failure)
	// when the container has that probe, and none otherwise. A probe the container has
	// but the run gives no steps for passes: its result becomes Success once its
	// initialDelaySeconds have passed (and, for liveness and readiness, the container has
	// started). The kubelet runs liveness and readiness probes only once the container
	// has started, so their steps take effect no earlier than the startup probe's
	// success.
	//
	// A Failure step stands for failureThreshold failed probes periodSeconds apart, the
	// last one At: the simulation records an Unhealthy event for each (and, for a
	// readiness probe, one more every period while the result stays Failure).
	Startup, Liveness, Readiness []ProbeStep
}

// ProbeStep sets a probe result from a moment of a run on.
type ProbeStep struct {
	// At is the time after the start of the run from which Result holds.
	At time.Duration
	// Result is the probe's result from then on.
	Result restart.ProbeResult
	// Output is the probe's output on failure, the end of the Unhealthy event's
	// message. Empty means the usual output of the probe's handler: "HTTP probe failed
	// with statuscode: 500" for httpGet, "dial tcp <pod IP>:<port>: connect: connection
	// refused" for tcpSocket, `service unhealthy (responded with "NOT_SERVING")` for
	// grpc, nothing for exec.
	Output string
}

// Deletion is a delete request for the simulated pod.
type Deletion struct {
	// After is when the pod is deleted, counted from [SimulateOptions.Start].
	After time.Duration
	// GracePeriodSeconds is the request's grace period; nil means the pod's
	// spec.terminationGracePeriodSeconds (30 when unset), as the API server defaults it.
	// The server sets metadata.deletionTimestamp to the request's time plus the grace
	// period and metadata.deletionGracePeriodSeconds to it.
	GracePeriodSeconds *int64
}

// SimulateOptions bounds and parameterises a simulation.
type SimulateOptions struct {
	// Options selects the cluster, as for [Plan] and [NextStatus].
	Options
	// Start is the virtual time at which the kubelet first sees the pod. A pod without a
	// creation timestamp is given Start as one, as the API server stamps a pod it
	// creates.
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
	// PresentImages are the images the node holds before the pod arrives (not pulled by
	// the kubelet for it). Any other image is pulled the first time a container needs
	// it; imagePullPolicy Always pulls at every start.
	PresentImages []string
	// Delete, when set, deletes the pod during the simulation.
	Delete *Deletion
	// RecordViews makes every [Step] carry a copy of the runtime view its sync read
	// (Step.View), for callers that replay the syncs. It costs a copy per step.
	RecordViews bool
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
	// Final marks the status the kubelet writes once a terminating pod's containers have
	// all stopped (the end of SyncTerminatingPod, where stopped containers are no longer
	// restartable); Actions is then empty.
	Final bool
	// View is the runtime view the sync read, when [SimulateOptions.RecordViews] is set.
	View *restart.View
}

// Timeline is the result of [Simulate].
type Timeline struct {
	// Steps are the kubelet's syncs, in time order. Consecutive statuses, and Pod's,
	// share the parts that did not change (the kubelet's status generation copies what
	// it keeps): copy a status before modifying it.
	Steps []Step
	// Events are the events the kubelet recorded, in time order (see [RecordEvents] and
	// [DescribeEvents] for what `kubectl describe pod` shows of them).
	Events []Event
	// Pod is the pod with its last status. It shares its spec and metadata with the pod
	// given to Simulate (only the creation timestamp, the deletion fields and the status
	// are its own): copy it before modifying it.
	Pod *corev1.Pod
	// View is the runtime view at the end.
	View restart.View
	// End says why the simulation stopped: "terminal" (the pod reached Succeeded or
	// Failed, or was deleted, and every container is stopped), "steady" (nothing more
	// will happen), "max-duration" or "max-steps".
	End string
}

// Simulate runs pod through virtual time under script: the kubelet syncs the pod,
// computes its next status ([NextStatus]) and its next action ([Plan]) and carries the
// action out on a simulated runtime whose containers behave as the script says; syncs
// happen one relist period after the kubelet last changed anything and otherwise at the
// next scripted event, back-off expiry, active deadline, deletion or periodic resync.
// Each sync is a [Step] with the status and the kubectl row, and the kubelet's events
// are recorded with upstream's reasons and messages.
//
// What the kubelet does takes virtual time where upstream's sync waits for it: image
// pulls ([ContainerScript.PullTime]) and container stops (the preStop hook and the exit
// after the stop signal, bounded by the grace period; [ContainerScript.Stop]). A
// whole-pod kill stops containers in [TerminationOrder] with [TerminationSchedule]; a
// pod that is terminated (its phase is Succeeded or Failed, or it is deleted) gets a
// final step with the status written once every container has stopped. Creating a
// sandbox and starting a container take no time.
//
// The simulation is deterministic and bounded by opts.MaxDuration and opts.MaxSteps.
// Container IDs are "sim://<name>-<n>", sandboxes "sandbox-<n>" with IP 10.0.0.<n>.
// Statuses are those of [NextStatus]: the status manager's hold-back of a terminal
// phase and its TerminatePod step are not applied.
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
	sim := newSimulator(pod, script, opts)
	p, v := sim.pod, &sim.view
	// The steps are collected in room on the stack and then copied into a list of
	// their number: a Step is 800 bytes, and a list grown by doubling would allocate
	// about twice the steps it holds.
	var steps stepList
	if p.CreationTimestamp.IsZero() {
		p.CreationTimestamp = metav1.NewTime(opts.Start)
	}
	deleteAt, deleted := time.Time{}, opts.Delete == nil
	if !deleted {
		deleteAt = opts.Start.Add(max(opts.Delete.After, 0))
	}

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
		if !deleted && !now.Before(deleteAt) {
			deleted = true
			sim.delete(deleteAt, opts.Delete.GracePeriodSeconds)
		}
		sim.advance(now)

		var seen *restart.View
		if opts.RecordViews {
			seen = copyView(v)
		}
		p.Status = sim.status(now, false)
		a := plan(p, v, now, &sim.phase, opts.Options)
		if a.Terminate {
			st := steps.next()
			st.Time, st.Actions, st.Status, st.Row, st.View = now, a, p.Status, PodColumns(p, now), seen
			done := sim.terminate(now)
			sim.advance(done)
			if opts.RecordViews {
				seen = copyView(v)
			}
			p.Status = sim.status(done, true)
			st = steps.next()
			st.Time, st.Status, st.Row, st.Final, st.View = done, p.Status, PodColumns(p, done), true, seen
			tl.End = "terminal"
			break
		}
		changed, busyUntil := sim.apply(a, now)
		st := steps.next()
		st.Time, st.Actions, st.Status, st.Row, st.View = now, a, p.Status, PodColumns(p, now), seen

		next, ok := sim.nextEvent(a, busyUntil, resync)
		if changed {
			next, ok = busyUntil.Add(relist), true
		}
		if !deleted && (!ok || deleteAt.Before(next)) {
			next, ok = maxTime(deleteAt, busyUntil), true
		}
		if !ok {
			tl.End = "steady"
			break
		}
		now = next
	}
	tl.Steps = steps.list()
	tl.Pod = p
	tl.View = sim.view
	tl.Events = sim.sortedEvents()
	return tl
}

// stepList collects the steps of a simulation: the first ones in room of its own (on
// Simulate's stack), the rest in a list that grows.
type stepList struct {
	room [16]Step
	n    int
	more []Step
}

// next appends a zero step and returns it, for the caller to fill in place (a Step
// is too large to copy twice).
func (l *stepList) next() *Step {
	if l.n < len(l.room) {
		l.n++
		return &l.room[l.n-1]
	}
	if l.more == nil {
		// Room for a quarter more before the list doubles.
		l.more = make([]Step, 0, len(l.room)/4)
	}
	l.more = append(l.more, Step{})
	return &l.more[len(l.more)-1]
}

// list returns the steps in a new list of their number.
func (l *stepList) list() []Step {
	out := make([]Step, l.n+len(l.more))
	copy(out, l.room[:l.n])
	copy(out[l.n:], l.more)
	return out
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// copyView returns a deep copy of v.
func copyView(v *restart.View) *restart.View {
	c := restart.View{
		Sandboxes: append([]restart.Sandbox(nil), v.Sandboxes...),
		Instances: append([]restart.Instance(nil), v.Instances...),
		HostIPs:   append([]string(nil), v.HostIPs...),
	}
	for i := range c.Sandboxes {
		if n := c.Sandboxes[i].Network; n != nil {
			nn := *n
			nn.AdditionalIPs = append([]string(nil), n.AdditionalIPs...)
			c.Sandboxes[i].Network = &nn
		}
	}
	if v.BackOff != nil {
		c.BackOff = make(map[string]restart.BackOff, len(v.BackOff))
		for k, b := range v.BackOff {
			c.BackOff[k] = b
		}
	}
	if v.StartFailures != nil {
		c.StartFailures = make(map[string]restart.StartFailure, len(v.StartFailures))
		for k, f := range v.StartFailures {
			c.StartFailures[k] = f
		}
	}
	return &c
}
