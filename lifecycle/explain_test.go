package lifecycle

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"

	"github.com/podlife/podlife/restart"
)

// liveAt returns the pod of step i of a timeline as `kubectl get pod -o yaml` shows it:
// the spec and metadata with the status the kubelet wrote at that step.
func liveAt(tl Timeline, i int) *corev1.Pod {
	if i < 0 {
		i += len(tl.Steps)
	}
	p := tl.Pod.DeepCopy()
	p.Status = *tl.Steps[i].Status.DeepCopy()
	return p
}

// stepWhere returns the index of the first step whose row status is status, after
// from.
func stepWhere(t *testing.T, tl Timeline, status string, from time.Duration) int {
	for i, s := range tl.Steps {
		if s.Row.Status == status && s.Time.Sub(simStart) >= from {
			return i
		}
	}
	t.Fatalf("no step with status %s after %v", status, from)
	return -1
}

func conditionOf(e Explanation, ct corev1.PodConditionType) ConditionExplanation {
	for _, c := range e.Conditions {
		if c.Type == ct {
			return c
		}
	}
	return ConditionExplanation{}
}

func checkExplain(t *testing.T, pod *corev1.Pod, at time.Time) Explanation {
	t.Helper()
	before := pod.DeepCopy()
	e := Explain(pod, at, Options{})
	require.Equal(t, before, pod, "input untouched")
	require.Equal(t, e, Explain(pod, at, Options{}), "deterministic")
	return e
}

// Waiting for an init container: init-myservice runs, so the pod is Pending with
// Initialized False ("containers with incomplete status", GeneratePodInitializedCondition)
// and the kubelet has nothing to do (computeInitContainerActions waits for a running
// regular init container).
func TestExplainWaitingForInitContainer(t *testing.T) {
	tl := Simulate(seedPod(), Script{"init-myservice": {Runs: []Run{{Duration: 20 * time.Second}}}}, SimulateOptions{Start: simStart})
	pod := liveAt(tl, 1) // at 1s
	e := checkExplain(t, pod, simStart.Add(5*time.Second))
	assert.Equal(t, corev1.PodPending, e.Phase)
	ini := conditionOf(e, corev1.PodInitialized)
	assert.Equal(t, corev1.ConditionFalse, ini.Status)
	assert.Equal(t, []string{"init-myservice", "init-mydb"}, ini.Blocking)
	assert.Equal(t, []string{"myapp-container"}, conditionOf(e, corev1.PodReady).Blocking)
	assert.Equal(t, "nothing to do", e.Actions.String())
	assert.Equal(t, "running", e.Containers[0].State)
	assert.Equal(t, `Pod default/web at 2026-01-01T00:00:05Z
Phase: Pending: it is initializing: Initialized is False (ContainersNotInitialized: containers with incomplete status: [init-myservice init-mydb]); init container init-myservice: it is running since 2026-01-01T00:00:00Z
Initialized: False (ContainersNotInitialized: containers with incomplete status: [init-myservice init-mydb])
  blocked by init container init-myservice: it is running since 2026-01-01T00:00:00Z
  blocked by init container init-mydb: it is waiting (PodInitializing)
ContainersReady: False (ContainersNotReady: containers with unready status: [myapp-container])
  blocked by container myapp-container: it is waiting (PodInitializing)
Ready: False (ContainersNotReady: containers with unready status: [myapp-container])
  blocked by container myapp-container: it is waiting (PodInitializing)
Next: nothing to do
  because: nothing to do now; the kubelet waits for init container init-myservice to complete
`, e.String())
}

// Init crash-looping: init-myservice exits 1 every time; after its third failure the
// kubelet holds it back for 40s (doBackOff with the 10s-doubling back-off), so the
// next start is the exit time plus 40s; the restart decision is the pod's
// restartPolicy Always (ShouldContainerBeRestarted).
func TestExplainInitCrashLoop(t *testing.T) {
	tl := Simulate(seedPod(), Script{"init-myservice": {Runs: []Run{{Duration: 2 * time.Second, ExitCode: 1}}}}, SimulateOptions{Start: simStart, MaxDuration: 3 * time.Minute})
	i := stepWhere(t, tl, "Init:Error", 30*time.Second) // the exit at 38s, before the 40s hold
	pod := liveAt(tl, i)
	exit := tl.Steps[i].Time
	e := checkExplain(t, pod, exit.Add(5*time.Second))
	assert.Equal(t, corev1.PodPending, e.Phase)
	c := e.Containers[0]
	require.NotNil(t, c.Restart)
	assert.True(t, c.Restart.Restart)
	assert.Equal(t, 40*time.Second, c.BackOff)
	assert.Equal(t, exit.Add(40*time.Second), c.NextStart)
	// The simulation's own hold agrees.
	require.Len(t, tl.Steps[i].Actions.BackOff, 1)
	assert.Equal(t, tl.Steps[i].Actions.BackOff[0].Until, c.NextStart)
	require.Len(t, e.Actions.BackOff, 1)
	assert.Contains(t, e.String(), "Next start of init-myservice: 2026-01-01T00:01:18Z (in 35s, back-off 40s)")

	// Later the status shows CrashLoopBackOff with the delay in its message.
	j := stepWhere(t, tl, "Init:CrashLoopBackOff", 2*time.Minute)
	pod = liveAt(tl, j)
	e = checkExplain(t, pod, tl.Steps[j].Time.Add(time.Second))
	assert.Equal(t, "waiting", e.Containers[0].State)
	assert.Equal(t, restart.ReasonCrashLoopBackOff, e.Containers[0].Reason)
	require.Len(t, tl.Steps[j].Actions.BackOff, 1, "still held at the resync")
	assert.Equal(t, tl.Steps[j].Actions.BackOff[0].Until, e.Containers[0].NextStart)
}

// Sidecar not started: a sidecar counts as initialized only once its startup probe
// succeeded (started: true), so Initialized names it and the kubelet starts nothing after
// it (computeInitContainerActions).
func TestExplainSidecarNotStarted(t *testing.T) {
	always := corev1.ContainerRestartPolicyAlways
	pod := simPod(corev1.RestartPolicyAlways, []corev1.Container{{Name: "proxy", Image: "envoy", RestartPolicy: &always, StartupProbe: &corev1.Probe{}}},
		corev1.Container{Name: "app", Image: "nginx"})
	tl := Simulate(pod, Script{"proxy": {Runs: []Run{{Forever: true, Startup: []ProbeStep{{At: 15 * time.Second, Result: restart.ProbeSuccess}}}}}}, SimulateOptions{Start: simStart})
	live := liveAt(tl, 1)
	e := checkExplain(t, live, simStart.Add(5*time.Second))
	assert.Equal(t, []string{"proxy"}, conditionOf(e, corev1.PodInitialized).Blocking)
	assert.Equal(t, KindSidecar, e.Containers[0].Container.Kind)
	assert.False(t, e.Containers[0].Started)
	assert.Equal(t, "it is running since 2026-01-01T00:00:00Z but its startup probe has not succeeded yet (started: false)", e.Containers[0].Why)
	assert.Equal(t, "nothing to do", e.Actions.String())
	assert.Equal(t, []string{"nothing to do now; the kubelet waits for sidecar proxy (it is running since 2026-01-01T00:00:00Z but its startup probe has not succeeded yet (started: false))"}, e.ActionsWhy)
}

// App crash-looping with its next start time: the status shows CrashLoopBackOff with
// "back-off 1m20s restarting failed container=..." (the kubelet's message); the next
// start is the last exit plus that delay.
func TestExplainAppCrashLoop(t *testing.T) {
	pod := simPod(corev1.RestartPolicyAlways, nil, corev1.Container{Name: "app", Image: "x:1"})
	tl := Simulate(pod, Script{"app": {Runs: []Run{{Duration: 5 * time.Second, ExitCode: 1}}}}, SimulateOptions{Start: simStart, MaxDuration: 5 * time.Minute, PresentImages: []string{"x:1"}})
	j := stepWhere(t, tl, "CrashLoopBackOff", 2*time.Minute) // a resync during the 80s hold
	require.NotEmpty(t, tl.Steps[j].Actions.BackOff)
	live := liveAt(tl, j)
	st := live.Status.ContainerStatuses[0]
	require.NotNil(t, st.State.Waiting)
	assert.Contains(t, st.State.Waiting.Message, "back-off 1m20s restarting failed container=app pod=web_default(uid1)")
	e := checkExplain(t, live, tl.Steps[j].Time.Add(2*time.Second))
	assert.Equal(t, corev1.PodRunning, e.Phase)
	c := e.Containers[0]
	assert.Equal(t, 80*time.Second, c.BackOff)
	assert.Equal(t, st.LastTerminationState.Terminated.FinishedAt.Add(80*time.Second), c.NextStart)
	assert.Equal(t, tl.Steps[j].Actions.BackOff[0].Until, c.NextStart)
	assert.Equal(t, "exit code 1; pod restartPolicy Always → Restart", c.Restart.Explain())
	assert.Contains(t, e.PhaseWhy, "exited and to be restarted: app")

	// Once the back-off has expired the kubelet starts it.
	e = checkExplain(t, live, c.NextStart)
	assert.Equal(t, "start container app", e.Actions.String())
}

// Image pull back-off: the status shows ImagePullBackOff; the kubelet tries to start the
// container at each sync and the image-pull back-off, which the status does not carry,
// decides whether it pulls.
func TestExplainImagePullBackOff(t *testing.T) {
	pod := simPod(corev1.RestartPolicyAlways, nil, corev1.Container{Name: "app", Image: "nginx:typo"})
	tl := Simulate(pod, Script{"app": {PullErrors: []string{"e1", "e2", "e3"}}}, SimulateOptions{Start: simStart, MaxDuration: time.Minute})
	j := stepWhere(t, tl, "ImagePullBackOff", 0)
	e := checkExplain(t, liveAt(tl, j), tl.Steps[j].Time.Add(time.Second))
	assert.Equal(t, corev1.PodPending, e.Phase)
	assert.Equal(t, restart.ReasonImagePullBackOff, e.Containers[0].Reason)
	assert.Equal(t, "start container app", e.Actions.String())
	assert.Contains(t, e.PhaseWhy, "its containers have not started: container app: it is waiting (ImagePullBackOff: Back-off pulling image \"nginx:typo\": ErrImagePull: e1)")
	assert.Contains(t, e.ActionsWhy[0], "the image-pull back-off decides when the pull is tried again")
}

// Succeeded: every container exited 0 under restartPolicy Never (getPhase), the
// conditions say PodCompleted, and the kubelet only makes sure nothing runs.
func TestExplainSucceeded(t *testing.T) {
	pod := simPod(corev1.RestartPolicyNever, nil, corev1.Container{Name: "job", Image: "x:1"})
	tl := Simulate(pod, Script{"job": {Runs: []Run{{Duration: 5 * time.Second}}}}, SimulateOptions{Start: simStart, PresentImages: []string{"x:1"}})
	e := checkExplain(t, liveAt(tl, -1), simStart.Add(time.Minute))
	assert.Equal(t, corev1.PodSucceeded, e.Phase)
	assert.Equal(t, "its containers completed: job exited with code 0 at 2026-01-01T00:00:05Z", e.Ended)
	assert.Equal(t, ReasonPodCompleted, conditionOf(e, corev1.PodReady).Reason)
	assert.True(t, e.Actions.Terminate)
	assert.False(t, e.Containers[0].Restart.Restart)
}

// Failed by deadline: the active-deadline handler failed the pod with reason
// DeadlineExceeded 30s after its start (pkg/kubelet/active_deadline.go).
func TestExplainFailedByDeadline(t *testing.T) {
	pod := simPod(corev1.RestartPolicyAlways, nil, corev1.Container{Name: "app", Image: "x:1"})
	d := int64(30)
	pod.Spec.ActiveDeadlineSeconds = &d
	tl := Simulate(pod, nil, SimulateOptions{Start: simStart, PresentImages: []string{"x:1"}})
	e := checkExplain(t, liveAt(tl, -1), simStart.Add(time.Minute))
	assert.Equal(t, corev1.PodFailed, e.Phase)
	assert.Equal(t, "the kubelet failed it: DeadlineExceeded: Pod was active on the node longer than the specified deadline", e.PhaseWhy)
	assert.Equal(t, "it was active on the node longer than spec.activeDeadlineSeconds (30s): it started at 2026-01-01T00:00:00Z and its deadline passed at 2026-01-01T00:00:30Z; the kubelet stopped its containers and failed it (DeadlineExceeded)", e.Ended)
	assert.Equal(t, ReasonPodFailed, conditionOf(e, corev1.ContainersReady).Reason)
}

// A pod that is not scheduled yet, a nil pod, and readiness gates.
func TestExplainEdges(t *testing.T) {
	assert.Equal(t, Explanation{}, Explain(nil, simStart, Options{}))
	assert.Equal(t, "no pod\n", Explanation{}.String())
	pod := simPod(corev1.RestartPolicyAlways, nil, corev1.Container{Name: "app", Image: "x"})
	pod.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodScheduled, Status: corev1.ConditionFalse, Reason: "Unschedulable", Message: "0/3 nodes are available: 3 Insufficient cpu."}}
	e := Explain(pod, simStart, Options{})
	assert.Equal(t, "it is not scheduled to a node (Unschedulable: 0/3 nodes are available: 3 Insufficient cpu.)", e.PhaseWhy)

	tl := Simulate(simPod(corev1.RestartPolicyAlways, nil, corev1.Container{Name: "app", Image: "x"}), nil, SimulateOptions{Start: simStart})
	live := liveAt(tl, -1)
	live.Spec.ReadinessGates = []corev1.PodReadinessGate{{ConditionType: "example.com/lb"}}
	e = Explain(live, simStart.Add(time.Minute), Options{})
	assert.Equal(t, []string{"example.com/lb"}, conditionOf(e, corev1.PodReady).Gates)
	assert.Contains(t, e.String(), `blocked by readiness gate "example.com/lb"`)
}

func TestNamesInMessage(t *testing.T) {
	assert.Equal(t, []string{"a", "b", "c"}, namesInMessage("containers with unknown status: [a], containers with unready status: [b c]"))
	assert.Nil(t, namesInMessage(""))
	assert.Nil(t, namesInMessage("containers with unready status: [a"))
}

func FuzzExplain(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, uint16(30))
	}
	f.Fuzz(func(t *testing.T, data []byte, after uint16) {
		pod, _ := fuzzPodAndView(data)
		before := pod.DeepCopy()
		at := fuzzT0.Add(time.Duration(after) * time.Second)
		e := Explain(pod, at, Options{})
		require.Equal(t, before, pod, "input untouched")
		require.Equal(t, e, Explain(pod, at, Options{}), "deterministic")
		require.Len(t, e.Conditions, 3)
		require.Len(t, e.Containers, len(pod.Spec.InitContainers)+len(pod.Spec.Containers))
		_ = e.String()
	})
}
