package restart

import (
	"strconv"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/podlife/podlife/internal/byname"
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

// largeView is the runtime view matching a pod's statuses: one instance per status,
// as InstanceFromStatus maps it.
func largeView(p *corev1.Pod) *View {
	v := &View{}
	for _, list := range [][]corev1.ContainerStatus{p.Status.InitContainerStatuses, p.Status.ContainerStatuses} {
		for i := range list {
			if inst, ok := InstanceFromStatus(&list[i]); ok {
				v.Instances = append(v.Instances, inst)
			}
		}
	}
	return v
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

// largePods are the inputs of one size.
type largePods struct {
	n                    int
	trig, quiet, cleaned *corev1.Pod
	view, quietView      *View
}

func buildLarge(n int) largePods {
	trig, quiet := largePod(n, 42), largePod(n, 1)
	return largePods{n, trig, quiet, cleanedPod(n), largeView(trig), largeView(quiet)}
}

// largeCase is one call of an exported function on large pods, with the answer it
// must give.
type largeCase struct {
	name string
	run  func(t testing.TB, p largePods)
}

var largeCases = []largeCase{
	{"ShouldAllContainersRestart", func(t testing.TB, p largePods) {
		if !ShouldAllContainersRestart(p.trig, nil) {
			t.Errorf("n=%d: ShouldAllContainersRestart(API status) = false, want true", p.n)
		}
		if ShouldAllContainersRestart(p.quiet, nil) {
			t.Errorf("n=%d: ShouldAllContainersRestart(API status, exit 1) = true, want false", p.n)
		}
		if !ShouldAllContainersRestart(p.trig, p.view) {
			t.Errorf("n=%d: ShouldAllContainersRestart(view) = false, want true", p.n)
		}
		if ShouldAllContainersRestart(p.quiet, p.quietView) {
			t.Errorf("n=%d: ShouldAllContainersRestart(view, exit 1) = true, want false", p.n)
		}
		// An empty view: the API statuses are never read, and only the condition counts.
		if ShouldAllContainersRestart(p.trig, &View{}) {
			t.Errorf("n=%d: ShouldAllContainersRestart(empty view) = true, want false", p.n)
		}
		if !ShouldAllContainersRestart(p.cleaned, &View{}) {
			t.Errorf("n=%d: ShouldAllContainersRestart(condition True) = false, want true", p.n)
		}
	}},
	{"AllContainersRestartCleanedUp", func(t testing.TB, p largePods) {
		if !AllContainersRestartCleanedUp(p.cleaned, nil) {
			t.Errorf("n=%d: AllContainersRestartCleanedUp(cleaned) = false, want true", p.n)
		}
		if !AllContainersRestartCleanedUp(p.trig, &View{}) {
			t.Errorf("n=%d: AllContainersRestartCleanedUp(empty view) = false, want true", p.n)
		}
		last := &View{Instances: p.view.Instances[len(p.view.Instances)-1:]}
		if AllContainersRestartCleanedUp(p.trig, last) {
			t.Errorf("n=%d: AllContainersRestartCleanedUp(last instance left) = true, want false", p.n)
		}
		// Without a view, the last regular container's status is the one instance left.
		left := p.cleaned.DeepCopy()
		left.Status.ContainerStatuses[p.n-1] = p.trig.Status.ContainerStatuses[p.n-1]
		if AllContainersRestartCleanedUp(left, nil) {
			t.Errorf("n=%d: AllContainersRestartCleanedUp(last status left) = true, want false", p.n)
		}
	}},
	{"ShouldRestart", func(t testing.TB, p largePods) {
		last := p.trig.Spec.Containers[p.n-1].Name
		if d := ShouldRestart(p.trig, last, Options{}); !d.Restart || !d.RestartAllContainers() || d.Basis() != BasisRule {
			t.Errorf("n=%d: ShouldRestart(%s) = %v", p.n, last, d)
		}
		if d := ShouldRestart(p.trig, p.trig.Spec.InitContainers[p.n-1].Name, Options{}); d.Restart || d.Basis() != BasisContainerPolicy {
			t.Errorf("n=%d: ShouldRestart(last init) = %v", p.n, d)
		}
	}},
	{"AllContainersCouldRestart", func(t testing.TB, p largePods) {
		if !AllContainersCouldRestart(&p.quiet.Spec) {
			t.Errorf("n=%d: AllContainersCouldRestart = false", p.n)
		}
	}},
	{"View", func(t testing.TB, p largePods) {
		last := p.trig.Spec.Containers[p.n-1].Name
		if inst, ok := p.view.NewestExited(last); !ok || inst.ExitCode != 42 {
			t.Errorf("n=%d: View.NewestExited(last) = %+v %v", p.n, inst, ok)
		}
		if _, ok := p.view.Newest("missing"); ok {
			t.Errorf("n=%d: View.Newest(missing) found", p.n)
		}
	}},
}

// TestLargePod runs the restart-all functions, which look at every container, and
// the per-container ones on pods with 10,000 init and 10,000 regular containers (and
// a smaller size), and checks their answers. It does not time them: the lookups are
// linear by construction (internal/byname, whose TestIndexWorkIsLinear counts the
// work), and the Benchmark…Large benchmarks show the growth.
func TestLargePod(t *testing.T) {
	for _, n := range []int{1000, 10000} {
		p := buildLarge(n)
		before, beforeView := p.trig.DeepCopy(), cloneInstances(p.view)
		for _, c := range largeCases {
			t.Run(c.name+"/"+strconv.Itoa(n), func(t *testing.T) { c.run(t, p) })
		}
		unchanged(t, before, p.trig)
		viewUnchanged(t, beforeView, p.view)
	}
}

// The restart-all functions index nothing, and so allocate nothing, for a pod whose
// lists are short; ShouldRestart allocates nothing at any size.
func TestRestartAllAllocatesNothingOnSmallPods(t *testing.T) {
	for _, n := range []int{1, byname.Threshold / 2} {
		p := buildLarge(n)
		if len(p.view.Instances) > byname.Threshold {
			t.Fatalf("n=%d: the view has %d instances, more than the threshold", n, len(p.view.Instances))
		}
		empty := &View{}
		for name, f := range map[string]func(){
			"ShouldAllContainersRestart(nil)":        func() { _ = ShouldAllContainersRestart(p.trig, nil) },
			"ShouldAllContainersRestart(view)":       func() { _ = ShouldAllContainersRestart(p.trig, p.view) },
			"AllContainersRestartCleanedUp(nil)":     func() { _ = AllContainersRestartCleanedUp(p.cleaned, nil) },
			"AllContainersRestartCleanedUp(view)":    func() { _ = AllContainersRestartCleanedUp(p.trig, p.view) },
			"AllContainersRestartCleanedUp(empty)":   func() { _ = AllContainersRestartCleanedUp(p.trig, empty) },
			"ShouldAllContainersRestart(empty view)": func() { _ = ShouldAllContainersRestart(p.trig, empty) },
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

func benchLarge(b *testing.B, f func(b *testing.B, p largePods)) {
	for _, n := range benchSizes {
		p := buildLarge(n)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			f(b, p)
		})
	}
}

func BenchmarkShouldAllContainersRestartLarge(b *testing.B) {
	benchLarge(b, func(b *testing.B, p largePods) {
		for b.Loop() {
			if !ShouldAllContainersRestart(p.trig, nil) {
				b.Fatal("no restart-all")
			}
		}
	})
}

func BenchmarkShouldAllContainersRestartViewLarge(b *testing.B) {
	benchLarge(b, func(b *testing.B, p largePods) {
		for b.Loop() {
			if !ShouldAllContainersRestart(p.trig, p.view) {
				b.Fatal("no restart-all")
			}
		}
	})
}

func BenchmarkAllContainersRestartCleanedUpLarge(b *testing.B) {
	benchLarge(b, func(b *testing.B, p largePods) {
		for b.Loop() {
			if !AllContainersRestartCleanedUp(p.cleaned, nil) {
				b.Fatal("not cleaned up")
			}
		}
	})
}

func BenchmarkShouldRestartLarge(b *testing.B) {
	benchLarge(b, func(b *testing.B, p largePods) {
		last := p.trig.Spec.Containers[len(p.trig.Spec.Containers)-1].Name
		for b.Loop() {
			if !ShouldRestart(p.trig, last, Options{}).RestartAllContainers() {
				b.Fatal("no restart-all")
			}
		}
	})
}
