package lifecycle

import (
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/podlife/podlife/restart"
)

// eventLines renders events as "seconds Type Reason fieldPath: message".
func eventLines(events []Event) []string {
	var out []string
	for _, e := range events {
		out = append(out, fmt.Sprintf("%g %s %s %s: %s", e.Time.Sub(simStart).Seconds(), e.Type, e.Reason, e.FieldPath, e.Message))
	}
	return out
}

func seedPod() *corev1.Pod {
	return simPod(corev1.RestartPolicyAlways,
		[]corev1.Container{{Name: "init-myservice", Image: "busybox:1.28"}, {Name: "init-mydb", Image: "busybox:1.28"}},
		corev1.Container{Name: "myapp-container", Image: "busybox:1.28"})
}

// TestSimulateSeedTimeline runs the Init Containers page's myapp-pod: the services it
// waits for appear 20s and 35s after it starts. Expected rows: the printer's
// "Init:<completed>/<count>" while init containers run, PodInitializing once they are
// done and the app's status is still the default waiting reason, then Running
// (pkg/printers/internalversion/printers.go printPod); events: the image manager's
// Pulling/Pulled texts (pkg/kubelet/images/image_manager.go) and startContainer's
// Created/Started (pkg/kubelet/kuberuntime/kuberuntime_container.go), each on its
// container's fieldPath (pkg/kubelet/container/ref.go).
func TestSimulateSeedTimeline(t *testing.T) {
	pod := seedPod()
	pod.CreationTimestamp = metav1.Time{}
	script := Script{
		"init-myservice": {PullTime: 2 * time.Second, ImageSize: 1146369, Runs: []Run{{Duration: 18 * time.Second}}},
		"init-mydb":      {Runs: []Run{{Duration: 15 * time.Second}}},
	}
	tl := Simulate(pod, script, SimulateOptions{Start: simStart})
	assert.Equal(t, "steady", tl.End)
	assert.Equal(t, []string{
		"0 Init:0/2 0/1 0 | create a sandbox (attempt 0) because no pod sandbox exists; start init container init-myservice",
		"3 Init:0/2 0/1 0 | nothing to do",
		"20 Init:1/2 0/1 0 | start init container init-mydb",
		"21 Init:1/2 0/1 0 | nothing to do",
		"35 PodInitializing 0/1 0 | start container myapp-container",
		"36 Running 1/1 0 | nothing to do",
	}, trace(tl))
	// The API server's creation timestamp: AGE counts from it.
	assert.Equal(t, simStart, tl.Pod.CreationTimestamp.Time)
	assert.Equal(t, "0s", tl.Steps[0].Row.Age)
	assert.Equal(t, "36s", tl.Steps[len(tl.Steps)-1].Row.Age)
	assert.Equal(t, []string{
		`0 Normal Pulling spec.initContainers{init-myservice}: Pulling image "busybox:1.28"`,
		`2 Normal Pulled spec.initContainers{init-myservice}: Successfully pulled image "busybox:1.28" in 2s (2s including waiting). Image size: 1146369 bytes.`,
		`2 Normal Created spec.initContainers{init-myservice}: Container created`,
		`2 Normal Started spec.initContainers{init-myservice}: Container started`,
		`20 Normal Pulled spec.initContainers{init-mydb}: Container image "busybox:1.28" already present on machine and can be accessed by the pod`,
		`20 Normal Created spec.initContainers{init-mydb}: Container created`,
		`20 Normal Started spec.initContainers{init-mydb}: Container started`,
		`35 Normal Pulled spec.containers{myapp-container}: Container image "busybox:1.28" already present on machine and can be accessed by the pod`,
		`35 Normal Created spec.containers{myapp-container}: Container created`,
		`35 Normal Started spec.containers{myapp-container}: Container started`,
	}, eventLines(tl.Events))

	// With KubeletEnsureSecretPulledImages off the kubelet does not check the pod's access.
	off := Simulate(pod, script, SimulateOptions{Start: simStart, Options: Options{Features: map[string]bool{"KubeletEnsureSecretPulledImages": false}}})
	assert.Equal(t, `Container image "busybox:1.28" already present on machine`, off.Events[4].Message)
}

// TestSimulateUnscriptedProbesPass: a container without a script entry passes every
// probe (Script's promise). Before the fix a readiness probe kept it 0/1 for ever and a
// startup probe left started false. The kubelet runs readiness and liveness probes only
// once the startup probe succeeded (pkg/kubelet/prober/worker.go doProbe) and not before
// initialDelaySeconds.
func TestSimulateUnscriptedProbesPass(t *testing.T) {
	app := corev1.Container{Name: "app", Image: "nginx:1.27",
		StartupProbe:   &corev1.Probe{InitialDelaySeconds: 4},
		ReadinessProbe: &corev1.Probe{InitialDelaySeconds: 2},
		LivenessProbe:  &corev1.Probe{},
	}
	pod := simPod(corev1.RestartPolicyAlways, nil, app)
	tl := Simulate(pod, nil, SimulateOptions{Start: simStart, PresentImages: []string{"nginx:1.27"}})
	assert.Equal(t, "steady", tl.End)
	assert.Equal(t, []string{
		"0 ContainerCreating 0/1 0 | create a sandbox (attempt 0) because no pod sandbox exists; start container app",
		"1 Running 0/1 0 | nothing to do",
		"4 Running 1/1 0 | nothing to do",
	}, trace(tl))
	last := tl.Pod.Status.ContainerStatuses[0]
	assert.True(t, *last.Started)
	assert.True(t, last.Ready)
	assert.Empty(t, eventsOf(tl.Events, EventReasonUnhealthy), "a passing probe records nothing")

	// A sidecar with a startup probe and no script lets the app start.
	always := corev1.ContainerRestartPolicyAlways
	pod = simPod(corev1.RestartPolicyAlways, []corev1.Container{{Name: "proxy", Image: "envoy", RestartPolicy: &always, StartupProbe: &corev1.Probe{}, ReadinessProbe: &corev1.Probe{}}},
		corev1.Container{Name: "app", Image: "nginx:1.27"})
	tl = Simulate(pod, nil, SimulateOptions{Start: simStart, PresentImages: []string{"envoy", "nginx:1.27"}})
	assert.Equal(t, "Running", tl.Steps[len(tl.Steps)-1].Row.Status)
	assert.Equal(t, "2/2", tl.Steps[len(tl.Steps)-1].Row.Ready)

	// A scripted run without probe steps passes too; one with steps follows them.
	pod = simPod(corev1.RestartPolicyAlways, nil, corev1.Container{Name: "app", Image: "nginx:1.27", ReadinessProbe: &corev1.Probe{}})
	tl = Simulate(pod, Script{"app": {Runs: []Run{{Forever: true}}}}, SimulateOptions{Start: simStart, PresentImages: []string{"nginx:1.27"}})
	assert.Equal(t, "1/1", tl.Steps[len(tl.Steps)-1].Row.Ready)
	tl = Simulate(pod, Script{"app": {Runs: []Run{{Forever: true, Readiness: []ProbeStep{{At: 30 * time.Second, Result: restart.ProbeSuccess}}}}}},
		SimulateOptions{Start: simStart, PresentImages: []string{"nginx:1.27"}})
	assert.Equal(t, []string{
		"0 ContainerCreating 0/1 0 | create a sandbox (attempt 0) because no pod sandbox exists; start container app",
		"1 Running 0/1 0 | nothing to do",
		"30 Running 1/1 0 | nothing to do",
	}, trace(tl))
}

func eventsOf(events []Event, reason string) []Event {
	var out []Event
	for _, e := range events {
		if e.Reason == reason {
			out = append(out, e)
		}
	}
	return out
}

// TestSimulateLivenessKill: a liveness Failure at 40s stands for failureThreshold (3)
// failed probes periodSeconds (10) apart, each an Unhealthy event "Liveness probe
// failed: <output>" (pkg/kubelet/prober/prober.go; the HTTP prober's output,
// pkg/probe/http/http.go); the kubelet then kills the container with "Container api
// failed liveness probe, will be restarted" (computePodActions) and starts it again.
func TestSimulateLivenessKill(t *testing.T) {
	api := corev1.Container{Name: "api", Image: "nginx:1.27", LivenessProbe: &corev1.Probe{
		ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/healthz", Port: intstr.FromInt32(80)}}, PeriodSeconds: 10, FailureThreshold: 3}}
	pod := simPod(corev1.RestartPolicyAlways, nil, api)
	tl := Simulate(pod, Script{"api": {Runs: []Run{{Forever: true, Liveness: []ProbeStep{{At: 40 * time.Second, Result: restart.ProbeFailure}}}, {Forever: true}}}},
		SimulateOptions{Start: simStart, PresentImages: []string{"nginx:1.27"}})
	assert.Equal(t, []string{
		`20 Warning Unhealthy spec.containers{api}: Liveness probe failed: HTTP probe failed with statuscode: 500`,
		`30 Warning Unhealthy spec.containers{api}: Liveness probe failed: HTTP probe failed with statuscode: 500`,
		`40 Warning Unhealthy spec.containers{api}: Liveness probe failed: HTTP probe failed with statuscode: 500`,
	}, eventLines(eventsOf(tl.Events, EventReasonUnhealthy)))
	assert.Equal(t, []string{`40 Normal Killing spec.containers{api}: Container api failed liveness probe, will be restarted`},
		eventLines(eventsOf(tl.Events, EventReasonKilling)))
	// The killed instance exits on SIGTERM (143); the new one runs.
	st := tl.Pod.Status.ContainerStatuses[0]
	assert.Equal(t, int32(1), st.RestartCount)
	assert.Equal(t, int32(143), st.LastTerminationState.Terminated.ExitCode)
	assert.NotNil(t, st.State.Running)

	// A readiness probe that keeps failing is probed on: one event a period.
	web := corev1.Container{Name: "web", Image: "nginx:1.27", ReadinessProbe: &corev1.Probe{ProbeHandler: corev1.ProbeHandler{Exec: &corev1.ExecAction{}}, PeriodSeconds: 5, FailureThreshold: 2}}
	pod = simPod(corev1.RestartPolicyAlways, nil, web)
	tl = Simulate(pod, Script{"web": {Runs: []Run{{Forever: true, Readiness: []ProbeStep{{At: 0, Result: restart.ProbeSuccess}, {At: 20 * time.Second, Result: restart.ProbeFailure, Output: "not ready"}}}}}},
		SimulateOptions{Start: simStart, MaxDuration: 32 * time.Second, PresentImages: []string{"nginx:1.27"}})
	assert.Equal(t, []string{
		`15 Warning Unhealthy spec.containers{web}: Readiness probe failed: not ready`,
		`20 Warning Unhealthy spec.containers{web}: Readiness probe failed: not ready`,
	}, eventLines(eventsOf(tl.Events, EventReasonUnhealthy)), "repeats are recorded up to the last sync (20s: nothing happens after)")
}

// TestSimulateDeletionOrder: deleting a pod with two sidecars. The API server sets
// deletionTimestamp to the request's time plus the grace period (pkg/registry/rest
// delete.go) and the kubelet kills every container with the pod's grace (the Killing
// event "Stopping container <name>", killContainer), sidecars waiting for the main
// containers and for the sidecars after them (kuberuntime_termination_order.go).
func TestSimulateDeletionOrder(t *testing.T) {
	always := corev1.ContainerRestartPolicyAlways
	hook := &corev1.Lifecycle{PreStop: &corev1.LifecycleHandler{Exec: &corev1.ExecAction{Command: []string{"sleep", "5"}}}}
	pod := simPod(corev1.RestartPolicyAlways,
		[]corev1.Container{{Name: "mesh", Image: "envoy", RestartPolicy: &always}, {Name: "logs", Image: "fluent", RestartPolicy: &always}},
		corev1.Container{Name: "shop", Image: "nginx", Lifecycle: hook})
	script := Script{
		"shop": {Stop: StopBehavior{PreStop: 5 * time.Second, Exit: 2 * time.Second}},
		"logs": {Stop: StopBehavior{Exit: time.Second}},
		"mesh": {Stop: StopBehavior{Exit: time.Second}},
	}
	tl := Simulate(pod, script, SimulateOptions{Start: simStart, PresentImages: []string{"envoy", "fluent", "nginx"}, Delete: &Deletion{After: 30 * time.Second}})
	require.Equal(t, "terminal", tl.End)
	assert.Equal(t, simStart.Add(60*time.Second), tl.Pod.DeletionTimestamp.Time)
	assert.Equal(t, int64(30), *tl.Pod.DeletionGracePeriodSeconds)
	n := len(tl.Steps)
	assert.Equal(t, "30 Terminating 3/3 0 | terminate the pod: stop every container and the sandbox", trace(tl)[n-2])
	assert.True(t, tl.Steps[n-1].Final)
	assert.Equal(t, simStart.Add(39*time.Second), tl.Steps[n-1].Time, "the last sidecar exits 9s after the kill")
	assert.Equal(t, []string{
		`30 Normal Killing spec.containers{shop}: Stopping container shop`,
		`30 Normal Killing spec.initContainers{logs}: Stopping container logs`,
		`30 Normal Killing spec.initContainers{mesh}: Stopping container mesh`,
	}, eventLines(eventsOf(tl.Events, EventReasonKilling)))
	finished := map[string]string{}
	for _, st := range append(append([]corev1.ContainerStatus{}, tl.Pod.Status.InitContainerStatuses...), tl.Pod.Status.ContainerStatuses...) {
		finished[st.Name] = fmt.Sprintf("%g/%d", st.State.Terminated.FinishedAt.Sub(simStart).Seconds(), st.State.Terminated.ExitCode)
	}
	assert.Equal(t, map[string]string{"shop": "37/143", "logs": "38/143", "mesh": "39/143"}, finished)

	// A container that ignores SIGTERM is killed when the stop timeout expires: 137.
	pod = simPod(corev1.RestartPolicyAlways, nil, corev1.Container{Name: "app", Image: "nginx"})
	grace := int64(10)
	tl = Simulate(pod, Script{"app": {Stop: StopBehavior{Exit: time.Hour}}}, SimulateOptions{Start: simStart, PresentImages: []string{"nginx"}, Delete: &Deletion{After: 5 * time.Second, GracePeriodSeconds: &grace}})
	st := tl.Pod.Status.ContainerStatuses[0].State.Terminated
	assert.Equal(t, int32(137), st.ExitCode)
	assert.Equal(t, simStart.Add(15*time.Second), st.FinishedAt.Time)
}

// TestSimulateImagePullEvents: a failed pull records Pulling, the runtime's error
// ("Failed to pull image ...") and startContainer's "Error: ErrImagePull"; while the
// image-pull back-off holds the next pull, "Back-off pulling image" (Normal BackOff)
// and "Error: ImagePullBackOff" (pkg/kubelet/images/image_manager.go pullImage,
// kuberuntime_container.go startContainer).
func TestSimulateImagePullEvents(t *testing.T) {
	pod := simPod(corev1.RestartPolicyAlways, nil, corev1.Container{Name: "app", Image: "nginx:typo"})
	tl := Simulate(pod, Script{"app": {PullErrors: []string{"rpc error: code = NotFound desc = not found"}}}, SimulateOptions{Start: simStart, MaxDuration: 30 * time.Second})
	assert.Equal(t, []string{
		`0 Normal Pulling spec.containers{app}: Pulling image "nginx:typo"`,
		`0 Warning Failed spec.containers{app}: Failed to pull image "nginx:typo": rpc error: code = NotFound desc = not found`,
		`0 Warning Failed spec.containers{app}: Error: ErrImagePull`,
		`1 Normal BackOff spec.containers{app}: Back-off pulling image "nginx:typo"`,
		`1 Warning Failed spec.containers{app}: Error: ImagePullBackOff`,
		`11 Normal Pulling spec.containers{app}: Pulling image "nginx:typo"`,
		`11 Normal Pulled spec.containers{app}: Successfully pulled image "nginx:typo" in 0s (0s including waiting). Image size: 0 bytes.`,
		`11 Normal Created spec.containers{app}: Container created`,
		`11 Normal Started spec.containers{app}: Container started`,
	}, eventLines(tl.Events))
	var statuses []string
	for _, s := range tl.Steps {
		statuses = append(statuses, s.Row.Status)
	}
	assert.Equal(t, []string{"ContainerCreating", "ErrImagePull", "ImagePullBackOff", "Running"}, statuses)
	assert.Equal(t, `Back-off pulling image "nginx:typo": ErrImagePull: rpc error: code = NotFound desc = not found`,
		tl.Steps[2].Status.ContainerStatuses[0].State.Waiting.Message)

	// imagePullPolicy Never with a missing image.
	pod.Spec.Containers[0].ImagePullPolicy = corev1.PullNever
	tl = Simulate(pod, nil, SimulateOptions{Start: simStart, MaxDuration: 5 * time.Second})
	assert.Equal(t, []string{
		`0 Warning ErrImageNeverPull spec.containers{app}: Container image "nginx:typo" is not present with pull policy of Never`,
		`0 Warning Failed spec.containers{app}: Error: ErrImageNeverPull`,
		`1 Warning ErrImageNeverPull spec.containers{app}: Container image "nginx:typo" is not present with pull policy of Never`,
		`1 Warning Failed spec.containers{app}: Error: ErrImageNeverPull`,
	}, eventLines(tl.Events), "the sync one relist after the sandbox's creation tries again; the next retry is after the pod worker's 10s back-off")
	assert.Equal(t, "ErrImageNeverPull", tl.Steps[1].Row.Status)
}

// TestSimulateCrashLoopEvents: each start the crash-loop back-off refuses is a Warning
// BackOff event "Back-off restarting failed container <name> in pod <pod>"
// (kuberuntime_manager.go doBackOff).
func TestSimulateCrashLoopEvents(t *testing.T) {
	pod := simPod(corev1.RestartPolicyAlways, nil, corev1.Container{Name: "app", Image: "x:1"})
	tl := Simulate(pod, Script{"app": {Runs: []Run{{Duration: 5 * time.Second, ExitCode: 1}}}}, SimulateOptions{Start: simStart, MaxDuration: 60 * time.Second, PresentImages: []string{"x:1"}})
	assert.Equal(t, []string{
		`10 Warning BackOff spec.containers{app}: Back-off restarting failed container app in pod web_default(uid1)`,
		`25 Warning BackOff spec.containers{app}: Back-off restarting failed container app in pod web_default(uid1)`,
		`50 Warning BackOff spec.containers{app}: Back-off restarting failed container app in pod web_default(uid1)`,
	}, eventLines(eventsOf(tl.Events, EventReasonBackOff)))
}

// TestSimulateReplaysItsFunctions checks that every step is exactly what the library's
// functions say for the step's input: Plan gives the step's actions, NextStatus (from
// the previous status) the step's status, PodColumns its row.
func TestSimulateReplaysItsFunctions(t *testing.T) {
	always := corev1.ContainerRestartPolicyAlways
	pods := map[string]struct {
		pod    *corev1.Pod
		script Script
	}{
		"seed": {seedPod(), Script{"init-myservice": {Runs: []Run{{Duration: 3 * time.Second}}}}},
		"crash": {simPod(corev1.RestartPolicyAlways, []corev1.Container{{Name: "i", Image: "x"}}, corev1.Container{Name: "app", Image: "x"}),
			Script{"i": {Runs: []Run{{Duration: time.Second, ExitCode: 2}, {Duration: time.Second}}}, "app": {Runs: []Run{{Duration: 4 * time.Second, ExitCode: 1}}}}},
		"sidecar": {simPod(corev1.RestartPolicyNever, []corev1.Container{{Name: "s", Image: "x", RestartPolicy: &always, StartupProbe: &corev1.Probe{}}}, corev1.Container{Name: "job", Image: "x"}),
			Script{"s": {Runs: []Run{{Forever: true, Startup: []ProbeStep{{At: 3 * time.Second, Result: restart.ProbeSuccess}}}}}, "job": {Runs: []Run{{Duration: 5 * time.Second}}}}},
	}
	for name, tc := range pods {
		t.Run(name, func(t *testing.T) {
			tl := Simulate(tc.pod, tc.script, SimulateOptions{Start: simStart, MaxDuration: 2 * time.Minute, RecordViews: true})
			prev := tc.pod.Status
			for i, s := range tl.Steps {
				require.NotNil(t, s.View, "step %d", i)
				p := tl.Pod.DeepCopy()
				p.Status = prev
				if !s.Final {
					assert.Equal(t, s.Status, NextStatus(p, s.View, s.Time, Options{}), "step %d status", i)
					p.Status = s.Status
					assert.Equal(t, s.Actions, Plan(p, s.View, s.Time, Options{}), "step %d actions", i)
				}
				p.Status = s.Status
				assert.Equal(t, s.Row, PodColumns(p, s.Time), "step %d row", i)
				prev = s.Status
			}
		})
	}
}

// fuzzScriptsInput is FuzzSimulateScripts's simulation: the pod fuzzPodAndView makes
// of data, without status or deletion, and a script, options and deletion read from
// knobs.
func fuzzScriptsInput(data, knobs []byte) (*corev1.Pod, Script, SimulateOptions) {
	pod, _ := fuzzPodAndView(data)
	pod.Status = corev1.PodStatus{}
	pod.DeletionTimestamp = nil
	k := &fuzzReader{b: knobs}
	results := []restart.ProbeResult{restart.ProbeSuccess, restart.ProbeFailure, restart.ProbeUnknown}
	steps := func() []ProbeStep {
		var out []ProbeStep
		for i := k.pick(3); i > 0; i-- {
			out = append(out, ProbeStep{At: time.Duration(k.pick(60)) * time.Second, Result: results[k.pick(3)]})
		}
		return out
	}
	script := Script{}
	for _, c := range append(append([]corev1.Container{}, pod.Spec.InitContainers...), pod.Spec.Containers...) {
		if k.pick(4) == 0 {
			continue // unscripted: runs for ever, passes every probe
		}
		cs := ContainerScript{PullTime: time.Duration(k.pick(3)) * time.Second,
			Stop: StopBehavior{PreStop: time.Duration(k.pick(5)) * time.Second, Exit: time.Duration(k.pick(40)) * time.Second}}
		for i := k.pick(3); i > 0; i-- {
			cs.PullErrors = append(cs.PullErrors, "pull error "+strconv.Itoa(i))
		}
		if k.pick(4) == 0 {
			cs.StartErrors = []restart.StartFailure{{Reason: "CreateContainerConfigError", Message: "missing"}}
		}
		for i := 1 + k.pick(3); i > 0; i-- {
			cs.Runs = append(cs.Runs, Run{Forever: k.pick(3) == 0, Duration: time.Duration(1+k.pick(30)) * time.Second, ExitCode: int32(k.pick(3)),
				Startup: steps(), Liveness: steps(), Readiness: steps()})
		}
		script[c.Name] = cs
	}
	opts := SimulateOptions{Start: fuzzT0, MaxDuration: 5 * time.Minute, MaxSteps: 150, RecordViews: true}
	if k.pick(2) == 0 {
		opts.PresentImages = []string{"img"}
	}
	if k.pick(3) == 0 {
		g := int64(k.pick(20))
		opts.Delete = &Deletion{After: time.Duration(k.pick(90)) * time.Second, GracePeriodSeconds: &g}
	}
	return pod, script, opts
}

// FuzzSimulateScripts drives the simulation's newer paths from fuzz bytes: probe steps,
// pull and start errors, pull times, stop behaviours, deletion and present images. No
// panic, the input untouched, deterministic, time and events in order, and every step
// replayable by the library's functions.
func FuzzSimulateScripts(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, []byte{1, 2, 3, 4, 5, 6, 7, 8})
	}
	f.Add([]byte("sidecars"), []byte("probes and deletion"))
	f.Fuzz(func(t *testing.T, data, knobs []byte) {
		pod, script, opts := fuzzScriptsInput(data, knobs)
		before := pod.DeepCopy()
		tl := Simulate(pod, script, opts)
		require.Equal(t, before, pod, "input untouched")
		require.Equal(t, tl, Simulate(pod, script, opts), "deterministic")
		for i := 1; i < len(tl.Steps); i++ {
			require.False(t, tl.Steps[i].Time.Before(tl.Steps[i-1].Time), "time moves forward")
		}
		for i := 1; i < len(tl.Events); i++ {
			require.False(t, tl.Events[i].Time.Before(tl.Events[i-1].Time), "events in time order")
		}
		prev := corev1.PodStatus{}
		for i, s := range tl.Steps {
			p := tl.Pod.DeepCopy()
			if opts.Delete == nil || s.Time.Before(fuzzT0.Add(opts.Delete.After)) {
				p.DeletionTimestamp, p.DeletionGracePeriodSeconds = nil, nil
			}
			p.Status = prev
			if !s.Final {
				require.Equal(t, s.Status, NextStatus(p, s.View, s.Time, Options{}), "step %d status", i)
				p.Status = s.Status
				require.Equal(t, s.Actions, Plan(p, s.View, s.Time, Options{}), "step %d actions", i)
				checkSurelyNotTerminal(t, p, s.View, s.Time)
			}
			prev = s.Status
		}
		_ = RecordEvents(tl.Events)
	})
}
