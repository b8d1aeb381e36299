package lifecycle

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podlife/podlife/restart"
)

var simStart = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func simPod(policy corev1.RestartPolicy, inits []corev1.Container, containers ...corev1.Container) *corev1.Pod {
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", UID: "uid1", CreationTimestamp: metav1.NewTime(simStart)}}
	pod.Spec.RestartPolicy = policy
	pod.Spec.InitContainers = inits
	pod.Spec.Containers = containers
	return pod
}

// trace renders a timeline as "seconds STATUS READY RESTARTS | actions" lines.
func trace(tl Timeline) []string {
	var out []string
	for _, s := range tl.Steps {
		out = append(out, fmt.Sprintf("%d %s %s %s | %s", int(s.Time.Sub(simStart).Seconds()), s.Row.Status, s.Row.Ready, s.Row.Restarts, s.Actions))
	}
	return out
}

func TestSimulateInitAndCrashLoop(t *testing.T) {
	pod := simPod(corev1.RestartPolicyAlways,
		[]corev1.Container{{Name: "init-a", Image: "busybox"}, {Name: "init-b", Image: "busybox"}},
		corev1.Container{Name: "app", Image: "nginx"})
	before := pod.DeepCopy()
	script := Script{
		"init-a": {Runs: []Run{{Duration: 2 * time.Second}}},
		"init-b": {Runs: []Run{{Duration: 3 * time.Second, ExitCode: 1}, {Duration: 3 * time.Second}}},
		"app":    {Runs: []Run{{Duration: 5 * time.Second, ExitCode: 1}}},
	}
	tl := Simulate(pod, script, SimulateOptions{Start: simStart, MaxDuration: 2 * time.Minute})
	assert.Equal(t, before, pod, "input untouched")
	assert.Equal(t, "max-duration", tl.End)
	want := []string{
		"0 Init:0/2 0/1 0 | create a sandbox (attempt 0) because no pod sandbox exists; start init container init-a",
		"1 Init:0/2 0/1 0 | nothing to do",
		"2 Init:1/2 0/1 0 | start init container init-b",
		"3 Init:1/2 0/1 0 | nothing to do",
		"5 Init:Error 0/1 0 | start init container init-b",
		"6 Init:1/2 0/1 1 (1s ago) | nothing to do",
		"8 PodInitializing 0/1 0 | start container app",
		"9 Running 1/1 0 | nothing to do",
		"13 Error 0/1 0 | start container app",
		"14 Running 1/1 1 (1s ago) | nothing to do",
		"18 Error 0/1 1 (5s ago) | hold back container app until 2026-01-01T00:00:28Z (back-off 10s restarting failed container=app pod=web_default(uid1))",
		"28 CrashLoopBackOff 0/1 1 (10s ago) | start container app",
		"29 Running 1/1 2 (11s ago) | nothing to do",
		"33 Error 0/1 2 (15s ago) | hold back container app until 2026-01-01T00:00:53Z (back-off 20s restarting failed container=app pod=web_default(uid1))",
		"53 CrashLoopBackOff 0/1 2 (20s ago) | start container app",
		"54 Running 1/1 3 (21s ago) | nothing to do",
		"58 Error 0/1 3 (25s ago) | hold back container app until 2026-01-01T00:01:38Z (back-off 40s restarting failed container=app pod=web_default(uid1))",
		"98 CrashLoopBackOff 0/1 3 (40s ago) | start container app",
		"99 Running 1/1 4 (41s ago) | nothing to do",
		"103 Error 0/1 4 (45s ago) | hold back container app until 2026-01-01T00:03:03Z (back-off 1m20s restarting failed container=app pod=web_default(uid1))",
	}
	assert.Equal(t, want, trace(tl))

	// The status the simulation ends with shows the crash loop as the kubelet writes it.
	last := tl.Steps[len(tl.Steps)-1].Status
	assert.Equal(t, corev1.PodRunning, last.Phase)
	require.Len(t, last.ContainerStatuses, 1)
	assert.Equal(t, int32(4), last.ContainerStatuses[0].RestartCount)

	// Deterministic.
	assert.Equal(t, tl, Simulate(pod, script, SimulateOptions{Start: simStart, MaxDuration: 2 * time.Minute}))
}

func TestSimulateNeverInitFailure(t *testing.T) {
	pod := simPod(corev1.RestartPolicyNever, []corev1.Container{{Name: "init", Image: "busybox"}}, corev1.Container{Name: "app", Image: "nginx"})
	tl := Simulate(pod, Script{"init": {Runs: []Run{{Duration: time.Second, ExitCode: 3}}}}, SimulateOptions{Start: simStart})
	assert.Equal(t, "terminal", tl.End)
	assert.Equal(t, corev1.PodFailed, tl.Pod.Status.Phase)
	last := tl.Steps[len(tl.Steps)-1]
	assert.True(t, tl.Steps[len(tl.Steps)-2].Actions.Terminate)
	assert.True(t, last.Final)
	assert.Equal(t, "Init:Error", last.Row.Status)
	assert.Equal(t, int32(3), tl.Pod.Status.InitContainerStatuses[0].State.Terminated.ExitCode)
}

func TestSimulateSidecarJobCompletes(t *testing.T) {
	// A Never pod whose main container succeeds while a sidecar runs: the kubelet
	// stops the sidecar and the pod succeeds.
	pod := simPod(corev1.RestartPolicyNever,
		[]corev1.Container{{Name: "proxy", Image: "envoy", RestartPolicy: &policyAlways}},
		corev1.Container{Name: "job", Image: "busybox"})
	tl := Simulate(pod, Script{"job": {Runs: []Run{{Duration: 10 * time.Second}}}}, SimulateOptions{Start: simStart})
	assert.Equal(t, "terminal", tl.End)
	assert.Equal(t, corev1.PodSucceeded, tl.Pod.Status.Phase)
	var lines []string
	for _, l := range trace(tl) {
		lines = append(lines, l)
	}
	assert.Contains(t, lines, "0 Init:0/1 0/2 0 | create a sandbox (attempt 0) because no pod sandbox exists; start init container proxy")
	assert.Contains(t, lines, "1 PodInitializing 1/2 0 | start container job")
	assert.Contains(t, strings.Join(lines, "\n"), "| kill the pod")
}

func TestSimulateImagePullAndLiveness(t *testing.T) {
	app := corev1.Container{Name: "app", Image: "nginx:typo", LivenessProbe: &corev1.Probe{}}
	pod := simPod(corev1.RestartPolicyAlways, nil, app)
	tl := Simulate(pod, Script{"app": {
		PullErrors: []string{"rpc error: not found", "rpc error: not found"},
		Runs: []Run{
			{Forever: true, Liveness: []ProbeStep{{At: 30 * time.Second, Result: restart.ProbeFailure}}},
			{Forever: true},
		},
	}}, SimulateOptions{Start: simStart, MaxDuration: 3 * time.Minute})
	statuses := map[string]bool{}
	var kills []string
	for _, s := range tl.Steps {
		statuses[s.Row.Status] = true
		for _, k := range s.Actions.ContainersToKill {
			kills = append(kills, k.Message)
		}
	}
	assert.True(t, statuses["ErrImagePull"], "%v", statuses)
	assert.True(t, statuses["ImagePullBackOff"], "%v", statuses)
	assert.Equal(t, []string{"Container app failed liveness probe, will be restarted"}, kills)
	assert.Equal(t, "steady", tl.End)
	assert.Equal(t, int32(1), tl.Pod.Status.ContainerStatuses[0].RestartCount)
	assert.Equal(t, "1/1", tl.Steps[len(tl.Steps)-1].Row.Ready)
}

func TestSimulateBounds(t *testing.T) {
	pod := simPod(corev1.RestartPolicyAlways, nil, corev1.Container{Name: "app", Image: "x"})
	tl := Simulate(pod, Script{"app": {Runs: []Run{{Duration: time.Second, ExitCode: 1}}}}, SimulateOptions{Start: simStart, MaxSteps: 5})
	assert.Equal(t, "max-steps", tl.End)
	assert.Len(t, tl.Steps, 5)
	assert.Equal(t, Timeline{End: "steady"}, Simulate(nil, nil, SimulateOptions{}))

	// Deadline: a running pod past activeDeadlineSeconds fails with DeadlineExceeded.
	deadline := int64(30)
	pod.Spec.ActiveDeadlineSeconds = &deadline
	tl = Simulate(pod, nil, SimulateOptions{Start: simStart})
	assert.Equal(t, "terminal", tl.End)
	assert.Equal(t, corev1.PodFailed, tl.Pod.Status.Phase)
	assert.Equal(t, "DeadlineExceeded", tl.Pod.Status.Reason)
	assert.Equal(t, simStart.Add(30*time.Second), tl.Steps[len(tl.Steps)-1].Time)
}

// fuzzSimulateInput is FuzzSimulate's simulation: the pod fuzzPodAndView makes of
// data, without status, each container running dur+i seconds and exiting with code%3,
// then running for ever when code is even.
func fuzzSimulateInput(data []byte, dur, code uint8) (*corev1.Pod, Script, SimulateOptions) {
	pod, _ := fuzzPodAndView(data)
	pod.Status = corev1.PodStatus{}
	script := Script{}
	for i, c := range append(append([]corev1.Container{}, pod.Spec.InitContainers...), pod.Spec.Containers...) {
		script[c.Name] = ContainerScript{Runs: []Run{{Duration: time.Duration(int(dur)+i) * time.Second, ExitCode: int32(code % 3)}, {Forever: code%2 == 0}}}
	}
	return pod, script, SimulateOptions{Start: fuzzT0, MaxDuration: 10 * time.Minute, MaxSteps: 200}
}

func FuzzSimulate(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, uint8(2), uint8(0))
	}
	f.Fuzz(func(t *testing.T, data []byte, dur uint8, code uint8) {
		pod, script, opts := fuzzSimulateInput(data, dur, code)
		before := pod.DeepCopy()
		tl := Simulate(pod, script, opts)
		require.Equal(t, before, pod)
		require.Equal(t, tl, Simulate(pod, script, opts), "deterministic")
		require.LessOrEqual(t, len(tl.Steps), 200)
		terminal := false
		for i, s := range tl.Steps {
			if i > 0 {
				require.False(t, s.Time.Before(tl.Steps[i-1].Time), "time moves forward")
			}
			if terminal {
				require.True(t, isTerminal(s.Status.Phase), "a pod never leaves Succeeded or Failed")
			}
			terminal = terminal || isTerminal(s.Status.Phase)
		}
	})
}
