package restart

import (
	"runtime"
	"strconv"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
)

// largePod has n init containers and n regular containers, every one with a
// RestartAllContainers rule on exit code 42, and a status for each: the init
// containers completed (exit 0), the regular ones running, except the last regular
// one, which exited with trigger. With trigger 42 only that last container starts a
// restart of all containers, so every lookup before it misses.
func largePod(n int, trigger int32) *corev1.Pod {
	never := corev1.ContainerRestartPolicyNever
	rules := []corev1.ContainerRestartRule{rule(actRestartAll, opIn, 42)}
	p := &corev1.Pod{}
	p.Spec.InitContainers = make([]corev1.Container, n)
	p.Spec.Containers = make([]corev1.Container, n)
	p.Status.InitContainerStatuses = make([]corev1.ContainerStatus, n)
	p.Status.ContainerStatuses = make([]corev1.ContainerStatus, n)
	for i := range n {
		in, cn := "init-"+strconv.Itoa(i), "app-"+strconv.Itoa(i)
		p.Spec.InitContainers[i] = corev1.Container{Name: in, RestartPolicy: &never, RestartPolicyRules: rules}
		p.Spec.Containers[i] = corev1.Container{Name: cn, RestartPolicy: &never, RestartPolicyRules: rules}
		p.Status.InitContainerStatuses[i] = corev1.ContainerStatus{Name: in, State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 0}}}
		p.Status.ContainerStatuses[i] = corev1.ContainerStatus{Name: cn, State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}}
	}
	if n > 0 {
		p.Status.ContainerStatuses[n-1].State = corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: trigger}}
	}
	return p
}

// largeRuntime is the runtime view matching largePod, newest first.
func largeRuntime(p *corev1.Pod) Instances {
	var rt Instances
	for _, list := range [][]corev1.ContainerStatus{p.Status.InitContainerStatuses, p.Status.ContainerStatuses} {
		for i := range list {
			inst, _ := InstanceFromStatus(&list[i])
			rt = append(rt, inst)
		}
	}
	return rt
}

// cleanedPod is largePod in the middle of a restart of all containers, with every
// instance removed: the condition is already True and every status waits with reason
// RestartingAllContainers, so every lookup of the cleanup check misses.
func cleanedPod(n int) *corev1.Pod {
	p := largePod(n, 42)
	p.Status.Conditions = []corev1.PodCondition{{Type: corev1.AllContainersRestarting, Status: corev1.ConditionTrue}}
	for _, list := range [][]corev1.ContainerStatus{p.Status.InitContainerStatuses, p.Status.ContainerStatuses} {
		for i := range list {
			list[i].State = corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: ReasonRestartingAllContainers}}
		}
	}
	return p
}

// largeCase is one call of an exported function on large pods, with the answer it
// must give.
type largeCase struct {
	name string
	run  func(t testing.TB, n int, trig, quiet, cleaned *corev1.Pod, rt Instances)
}

var largeCases = []largeCase{
	{"ShouldAllContainersRestart", func(t testing.TB, n int, trig, quiet, _ *corev1.Pod, rt Instances) {
		if !ShouldAllContainersRestart(trig, nil, Options{}) {
			t.Errorf("n=%d: ShouldAllContainersRestart(API status) = false, want true", n)
		}
		if ShouldAllContainersRestart(quiet, nil, Options{}) {
			t.Errorf("n=%d: ShouldAllContainersRestart(API status, exit 1) = true, want false", n)
		}
		if !ShouldAllContainersRestart(trig, StatusRuntime{Status: &trig.Status}, Options{}) {
			t.Errorf("n=%d: ShouldAllContainersRestart(StatusRuntime) = false, want true", n)
		}
		if !ShouldAllContainersRestart(trig, rt, Options{}) {
			t.Errorf("n=%d: ShouldAllContainersRestart(Instances) = false, want true", n)
		}
	}},
	{"AllContainersRestartCleanedUp", func(t testing.TB, n int, trig, _, cleaned *corev1.Pod, rt Instances) {
		if !AllContainersRestartCleanedUp(cleaned, nil, Options{}) {
			t.Errorf("n=%d: AllContainersRestartCleanedUp(cleaned) = false, want true", n)
		}
		if AllContainersRestartCleanedUp(trig, rt[len(rt)-1:], Options{}) {
			t.Errorf("n=%d: AllContainersRestartCleanedUp(last instance left) = true, want false", n)
		}
	}},
	{"AllContainersRestartingCondition", func(t testing.TB, n int, trig, quiet, cleaned *corev1.Pod, rt Instances) {
		want := corev1.PodCondition{Type: corev1.AllContainersRestarting, Status: corev1.ConditionTrue, Reason: ReasonRestartAllContainersStarted, Message: MessageRestartAllContainers}
		if got, inc := AllContainersRestartingCondition(trig, nil, corev1.PodRunning, Options{}); got != want || !inc {
			t.Errorf("n=%d: condition = %+v %v, want %+v true", n, got, inc, want)
		}
		if got, _ := AllContainersRestartingCondition(trig, rt, corev1.PodRunning, Options{}); got != want {
			t.Errorf("n=%d: condition(Instances) = %+v, want %+v", n, got, want)
		}
		if got, _ := AllContainersRestartingCondition(quiet, nil, corev1.PodRunning, Options{}); got.Status != corev1.ConditionFalse || got.Reason != "" {
			t.Errorf("n=%d: condition(exit 1) = %+v, want False without reason", n, got)
		}
		if got, _ := AllContainersRestartingCondition(cleaned, nil, corev1.PodRunning, Options{}); got.Status != corev1.ConditionFalse || got.Reason != "" {
			t.Errorf("n=%d: condition(cleaned up) = %+v, want False without reason", n, got)
		}
	}},
	{"ShouldRestart", func(t testing.TB, n int, trig, _, _ *corev1.Pod, _ Instances) {
		last := trig.Spec.Containers[n-1].Name
		if d := ShouldRestart(trig, last, Options{}); !d.Restart || !d.RestartAllContainers || d.Basis != BasisRule {
			t.Errorf("n=%d: ShouldRestart(%s) = %v", n, last, d)
		}
		if d := ShouldRestart(trig, trig.Spec.InitContainers[n-1].Name, Options{}); d.Restart || d.Basis != BasisContainerPolicy {
			t.Errorf("n=%d: ShouldRestart(last init) = %v", n, d)
		}
	}},
	{"AllContainersCouldRestart", func(t testing.TB, n int, _, quiet, _ *corev1.Pod, _ Instances) {
		if !AllContainersCouldRestart(&quiet.Spec, Options{}) {
			t.Errorf("n=%d: AllContainersCouldRestart = false", n)
		}
	}},
	{"StatusRuntime", func(t testing.TB, n int, trig, _, _ *corev1.Pod, _ Instances) {
		sr := StatusRuntime{Status: &trig.Status}
		if inst, ok := sr.NewestExited(trig.Spec.Containers[n-1].Name); !ok || inst.ExitCode != 42 {
			t.Errorf("n=%d: StatusRuntime.NewestExited(last) = %+v %v", n, inst, ok)
		}
		if _, ok := sr.Newest("missing"); ok {
			t.Errorf("n=%d: StatusRuntime.Newest(missing) found", n)
		}
	}},
}

// TestLargePod runs the restart-all functions, which look at every container, and
// the per-container ones on pods with 10,000 init and 10,000 regular containers, and
// checks that the cost grows linearly: ten times the containers may not cost forty
// times as much (a quadratic lookup costs a hundred times as much).
func TestLargePod(t *testing.T) {
	type pods struct {
		n                    int
		trig, quiet, cleaned *corev1.Pod
		rt                   Instances
	}
	build := func(n int) pods {
		trig := largePod(n, 42)
		return pods{n, trig, largePod(n, 1), cleanedPod(n), largeRuntime(trig)}
	}
	// The fastest of three runs of each function, to resist a busy machine.
	measure := func(c largeCase, p pods) time.Duration {
		best := time.Duration(1<<63 - 1)
		for range 3 {
			runtime.GC()
			start := time.Now()
			c.run(t, p.n, p.trig, p.quiet, p.cleaned, p.rt)
			best = min(best, time.Since(start))
		}
		return best
	}
	small, large := build(1000), build(10000)
	before := large.trig.DeepCopy()
	for _, c := range largeCases {
		ts, tl := measure(c, small), measure(c, large)
		t.Logf("%s: 1,000 containers %v; 10,000 containers %v (×%.1f)", c.name, ts, tl, float64(tl)/float64(max(ts, 1)))
		if tl > 40*ts+20*time.Millisecond {
			t.Errorf("%s: 1,000 containers %v; 10,000 containers %v: not linear", c.name, ts, tl)
		}
	}
	unchanged(t, before, large.trig)
}

// The restart-all functions index nothing, and so allocate nothing, for a pod whose
// lists are short; ShouldRestart allocates nothing at any size.
func TestRestartAllAllocatesNothingOnSmallPods(t *testing.T) {
	for _, n := range []int{1, indexLimit / 2} {
		trig, cleaned := largePod(n, 42), cleanedPod(n)
		// Converted once: a slice in an interface is the caller's allocation.
		var rt Runtime = largeRuntime(trig)
		for name, f := range map[string]func(){
			"ShouldAllContainersRestart(nil)":           func() { _ = ShouldAllContainersRestart(trig, nil, Options{}) },
			"ShouldAllContainersRestart(Instances)":     func() { _ = ShouldAllContainersRestart(trig, rt, Options{}) },
			"ShouldAllContainersRestart(StatusRuntime)": func() { _ = ShouldAllContainersRestart(trig, StatusRuntime{Status: &trig.Status}, Options{}) },
			"AllContainersRestartCleanedUp":             func() { _ = AllContainersRestartCleanedUp(cleaned, nil, Options{}) },
			"AllContainersRestartingCondition":          func() { _, _ = AllContainersRestartingCondition(trig, nil, corev1.PodRunning, Options{}) },
		} {
			if a := testing.AllocsPerRun(50, f); a != 0 {
				t.Errorf("n=%d: %s allocates %v times", n, name, a)
			}
		}
	}
	large := largePod(10000, 42)
	last := large.Spec.Containers[len(large.Spec.Containers)-1].Name
	if a := testing.AllocsPerRun(10, func() { _ = ShouldRestart(large, last, Options{}) }); a != 0 {
		t.Errorf("ShouldRestart on 10,000 containers allocates %v times", a)
	}
}

// benchSizes are the container counts of the large-pod benchmarks (init and regular
// containers each).
var benchSizes = []int{10, 100, 1000, 10000}

func benchLarge(b *testing.B, f func(b *testing.B, trig, cleaned *corev1.Pod, rt Runtime)) {
	for _, n := range benchSizes {
		trig, cleaned := largePod(n, 42), cleanedPod(n)
		var rt Runtime = largeRuntime(trig)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			f(b, trig, cleaned, rt)
		})
	}
}

func BenchmarkShouldAllContainersRestartLarge(b *testing.B) {
	benchLarge(b, func(b *testing.B, trig, _ *corev1.Pod, _ Runtime) {
		for b.Loop() {
			if !ShouldAllContainersRestart(trig, nil, Options{}) {
				b.Fatal("no restart-all")
			}
		}
	})
}

func BenchmarkShouldAllContainersRestartInstancesLarge(b *testing.B) {
	benchLarge(b, func(b *testing.B, trig, _ *corev1.Pod, rt Runtime) {
		for b.Loop() {
			if !ShouldAllContainersRestart(trig, rt, Options{}) {
				b.Fatal("no restart-all")
			}
		}
	})
}

func BenchmarkAllContainersRestartCleanedUpLarge(b *testing.B) {
	benchLarge(b, func(b *testing.B, _, cleaned *corev1.Pod, _ Runtime) {
		for b.Loop() {
			if !AllContainersRestartCleanedUp(cleaned, nil, Options{}) {
				b.Fatal("not cleaned up")
			}
		}
	})
}

func BenchmarkAllContainersRestartingConditionLarge(b *testing.B) {
	benchLarge(b, func(b *testing.B, trig, _ *corev1.Pod, _ Runtime) {
		for b.Loop() {
			if c, _ := AllContainersRestartingCondition(trig, nil, corev1.PodRunning, Options{}); c.Status != corev1.ConditionTrue {
				b.Fatal("condition not True")
			}
		}
	})
}

func BenchmarkShouldRestartLarge(b *testing.B) {
	benchLarge(b, func(b *testing.B, trig, _ *corev1.Pod, _ Runtime) {
		last := trig.Spec.Containers[len(trig.Spec.Containers)-1].Name
		for b.Loop() {
			if !ShouldRestart(trig, last, Options{}).RestartAllContainers {
				b.Fatal("no restart-all")
			}
		}
	})
}
