package lifecycle

import (
	"runtime"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/podlife/podlife/internal/speed"
	"github.com/podlife/podlife/restart"
)

// simCase is one pod of the benchmark corpus with its script.
type simCase struct {
	name   string
	pod    *corev1.Pod
	script Script
	opts   SimulateOptions
}

// seedCase is the Init Containers page's myapp-pod through its whole start, as the
// README's main command runs it: two init containers, the app, ending steady (Running).
func seedCase() simCase {
	return simCase{name: "myapp", pod: seedPod(), script: Script{
		"init-myservice": {PullTime: 2 * time.Second, ImageSize: 1146369, Runs: []Run{{Duration: 18 * time.Second}}},
		"init-mydb":      {Runs: []Run{{Duration: 15 * time.Second}}},
	}, opts: SimulateOptions{Start: simStart}}
}

// simCorpus is a corpus of full lifecycles: the seed, a crash loop, a sidecar with
// probes, a Job that completes, a liveness kill, an image pull error, a deletion.
func simCorpus() []simCase {
	always := corev1.ContainerRestartPolicyAlways
	out := []simCase{seedCase()}
	out = append(out, simCase{name: "crashloop", pod: seedPod(), script: Script{
		"init-myservice": {Runs: []Run{{Duration: 2 * time.Second, ExitCode: 1}}},
	}, opts: SimulateOptions{Start: simStart, MaxDuration: 5 * time.Minute}})
	out = append(out, simCase{name: "sidecar", pod: simPod(corev1.RestartPolicyAlways,
		[]corev1.Container{{Name: "proxy", Image: "envoy:1", RestartPolicy: &always, StartupProbe: &corev1.Probe{}}},
		corev1.Container{Name: "app", Image: "nginx:1", ReadinessProbe: &corev1.Probe{InitialDelaySeconds: 3}, LivenessProbe: &corev1.Probe{}}),
		script: Script{"proxy": {Runs: []Run{{Forever: true, Startup: []ProbeStep{{At: 12 * time.Second, Result: restart.ProbeSuccess}}}}}},
		opts:   SimulateOptions{Start: simStart}})
	out = append(out, simCase{name: "job", pod: simPod(corev1.RestartPolicyNever,
		[]corev1.Container{{Name: "logs", Image: "fluent:1", RestartPolicy: &always}}, corev1.Container{Name: "job", Image: "busybox:1"}),
		script: Script{"job": {Runs: []Run{{Duration: 10 * time.Second}}}}, opts: SimulateOptions{Start: simStart}})
	out = append(out, simCase{name: "liveness", pod: simPod(corev1.RestartPolicyAlways, nil, corev1.Container{Name: "api", Image: "nginx:1", LivenessProbe: &corev1.Probe{}}),
		script: Script{"api": {Runs: []Run{{Forever: true, Liveness: []ProbeStep{{At: 40 * time.Second, Result: restart.ProbeFailure}}}, {Forever: true}}}},
		opts:   SimulateOptions{Start: simStart}})
	out = append(out, simCase{name: "pull", pod: simPod(corev1.RestartPolicyAlways, nil, corev1.Container{Name: "web", Image: "nginx:typo"}),
		script: Script{"web": {PullErrors: []string{"not found", "not found", "not found"}}}, opts: SimulateOptions{Start: simStart, MaxDuration: 3 * time.Minute}})
	out = append(out, simCase{name: "delete", pod: simPod(corev1.RestartPolicyAlways,
		[]corev1.Container{{Name: "mesh", Image: "envoy:1", RestartPolicy: &always}}, corev1.Container{Name: "shop", Image: "nginx:1"}),
		script: Script{"shop": {Stop: StopBehavior{Exit: 2 * time.Second}}},
		opts:   SimulateOptions{Start: simStart, Delete: &Deletion{After: 30 * time.Second}}})
	return out
}

// BenchmarkSimulate runs whole lifecycles: the seed's myapp-pod (the README's main
// command, 6 syncs to Running) and the corpus in turn. It reports lifecycles per
// core-second (one goroutine: 1e9 / ns per lifecycle) and the cost of a sync.
func BenchmarkSimulate(b *testing.B) {
	for _, set := range []struct {
		name  string
		cases []simCase
	}{{"myapp", []simCase{seedCase()}}, {"corpus", simCorpus()}} {
		b.Run(set.name, func(b *testing.B) {
			b.ReportAllocs()
			steps, i := 0, 0
			for b.Loop() {
				c := &set.cases[i%len(set.cases)]
				tl := Simulate(c.pod, c.script, c.opts)
				steps += len(tl.Steps)
				i++
			}
			perOp := float64(b.Elapsed().Nanoseconds()) / float64(i)
			b.ReportMetric(1e9/perOp, "lifecycles/core-s")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(steps), "ns/step")
			b.ReportMetric(float64(steps)/float64(i), "steps/lifecycle")
		})
	}
}

// BenchmarkSimulateVsDeepCopy times, in alternating turns on the same corpus, one
// lifecycle and pod.DeepCopy() once per sync of that lifecycle, and reports the ratio:
// what one simulated sync (status, plan, row, events) costs in deep copies of the pod.
// Both sides run in the same steady state of the heap and the collector (no forced
// collection; each pays the collections its allocations bring, as in a program that
// simulates pods one after another). The ratio is of thread CPU time, the goroutine
// locked to its thread, so that a loaded machine's other processes count little;
// wall-ratio is the same of the wall clock.
func BenchmarkSimulateVsDeepCopy(b *testing.B) {
	for _, set := range []struct {
		name  string
		cases []simCase
	}{{"myapp", []simCase{seedCase()}}, {"corpus", simCorpus()}} {
		b.Run(set.name, func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var simT, copyT, simW, copyW time.Duration
			i := 0
			var sink *corev1.Pod
			for b.Loop() {
				c := &set.cases[i%len(set.cases)]
				w0, c0 := time.Now(), speed.ThreadCPU()
				tl := Simulate(c.pod, c.script, c.opts)
				w1, c1 := time.Now(), speed.ThreadCPU()
				for range tl.Steps {
					sink = c.pod.DeepCopy()
				}
				w2, c2 := time.Now(), speed.ThreadCPU()
				simT, copyT = simT+c1-c0, copyT+c2-c1
				simW, copyW = simW+w1.Sub(w0), copyW+w2.Sub(w1)
				i++
			}
			_ = sink
			b.ReportMetric(float64(simT)/float64(copyT), "ratio-to-DeepCopy/step")
			b.ReportMetric(float64(simW)/float64(copyW), "wall-ratio/step")
		})
	}
}
