// Package restart compares github.com/podlife/podlife/restart with the upstream
// v1.37.2 kubelet and pod helpers on generated pods.
package restart

import (
	"fmt"
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"
	podutil "k8s.io/kubernetes/pkg/api/v1/pod"
	kubecontainer "k8s.io/kubernetes/pkg/kubelet/container"
	"k8s.io/kubernetes/pkg/kubelet/kuberuntime"
	kubeletstatus "k8s.io/kubernetes/pkg/kubelet/status"
	"sigs.k8s.io/yaml"

	"github.com/podlife/podlife/conformance/internal/gatesets"
	"github.com/podlife/podlife/lifecycle"
	"github.com/podlife/podlife/restart"
)

// gateSet is one feature-gate configuration, applied to upstream by gatesets and
// passed per call to podlife.
type gateSet struct {
	gatesets.Set
	opts restart.Options
}

// gateSets are the standard sets and two of this package's own.
var gateSets = gatesets.Standard(
	gatesets.Set{Name: "RestartAllContainersOnContainerExits=false", Overrides: map[string]bool{"RestartAllContainersOnContainerExits": false}},
	gatesets.Set{Name: "ContainerRestartRules=false", Overrides: map[string]bool{"ContainerRestartRules": false, "RestartAllContainersOnContainerExits": false}},
)

// withGates runs f under each gate set, in non-parallel subtests since upstream's
// gates are global.
func withGates(t *testing.T, f func(t *testing.T, gs gateSet)) {
	gatesets.Run(t, gateSets, func(t *testing.T, s gatesets.Set) {
		f(t, gateSet{Set: s, opts: restart.Options{Features: s.Features()}})
	})
}

// disagreements collects mismatches and reports the first few with their input.
type disagreements struct {
	t     *testing.T
	n     int
	total int
}

func (d *disagreements) check(ok bool, what string, pod *corev1.Pod, format string, args ...any) {
	d.total++
	if ok {
		return
	}
	d.n++
	if d.n <= 5 {
		y, _ := yaml.Marshal(pod)
		d.t.Errorf("%s: "+format+"\npod:\n%s", append(append([]any{what}, args...), y)...)
	}
}

func (d *disagreements) report(what string, pods int) {
	d.t.Logf("%s: %d pods, %d comparisons, %d disagreements", what, pods, d.total, d.n)
	if d.n > 0 {
		d.t.Errorf("%s: %d disagreements", what, d.n)
	}
}

type kind struct {
	containers []*corev1.Container
	statuses   []corev1.ContainerStatus
}

func kinds(pod *corev1.Pod) []kind {
	var init, regular, eph kind
	for i := range pod.Spec.InitContainers {
		init.containers = append(init.containers, &pod.Spec.InitContainers[i])
	}
	for i := range pod.Spec.Containers {
		regular.containers = append(regular.containers, &pod.Spec.Containers[i])
	}
	for i := range pod.Spec.EphemeralContainers {
		eph.containers = append(eph.containers, (*corev1.Container)(&pod.Spec.EphemeralContainers[i].EphemeralContainerCommon))
	}
	init.statuses, regular.statuses, eph.statuses = pod.Status.InitContainerStatuses, pod.Status.ContainerStatuses, pod.Status.EphemeralContainerStatuses
	return []kind{regular, init, eph}
}

// TestShouldRestartMatchesKubelet compares ShouldRestart with
// kubecontainer.ShouldContainerBeRestarted for every container of every generated
// pod, the runtime status built from the v1 status as ShouldRestart's godoc maps it; and
// ShouldRestartInstance on generated runtime views with every runtime state.
func TestShouldRestartMatchesKubelet(t *testing.T) {
	s := seed(t)
	n := podCount(t)
	logger := klog.Background()
	withGates(t, func(t *testing.T, gs gateSet) {
		g := newGen(s)
		d := &disagreements{t: t}
		di := &disagreements{t: t}
		bases := map[string]int{}
		for range n {
			pod := g.pod(true)
			before := pod.DeepCopy()
			for _, k := range kinds(pod) {
				for _, c := range k.containers {
					want := kubecontainer.ShouldContainerBeRestarted(logger, c, pod, runtimeFromAPI(k.statuses, c.Name))
					got := restart.ShouldRestart(pod, c.Name, gs.opts)
					bases[fmt.Sprintf("%v/%v/all=%v", got.Basis, got.Restart, got.RestartAllContainers)]++
					d.check(got.Restart == want, "ShouldRestart", pod, "container %q: podlife %v (%s), upstream %v", c.Name, got.Restart, got.Explain(), want)
				}
			}
			insts := g.instances(pod)
			view := &restart.View{Instances: insts}
			ps := toRuntime(pod, insts)
			for _, k := range kinds(pod) {
				for _, c := range k.containers {
					want := kubecontainer.ShouldContainerBeRestarted(logger, c, pod, ps)
					var newest *restart.Instance
					if in, ok := view.Newest(c.Name); ok {
						newest = &in
					}
					got := restart.ShouldRestartInstance(pod, c, newest, gs.opts)
					di.check(got.Restart == want, "ShouldRestartInstance", pod, "container %q runtime %s: podlife %v (%s), upstream %v", c.Name, dump(insts), got.Restart, got.Explain(), want)
				}
			}
			if !reflect.DeepEqual(pod, before) {
				t.Fatalf("input pod was modified")
			}
		}
		d.report("ShouldRestart vs ShouldContainerBeRestarted", n)
		t.Logf("decisions by basis: %v", bases)
		for _, b := range []restart.Basis{restart.BasisDeletion, restart.BasisNoInstance, restart.BasisRunning} {
			if bases[fmt.Sprintf("%v/%v/all=false", b, b == restart.BasisNoInstance)] == 0 {
				t.Errorf("the generator never produced basis %v", b)
			}
		}
		di.report("ShouldRestartInstance vs ShouldContainerBeRestarted", n)
	})
}

// TestPodHelpersMatchUpstream compares the pure helpers with pkg/api/v1/pod.
func TestPodHelpersMatchUpstream(t *testing.T) {
	s := seed(t)
	n := podCount(t)
	withGates(t, func(t *testing.T, gs gateSet) {
		g := newGen(s + 1)
		d := &disagreements{t: t}
		for range n {
			pod := g.pod(g.pct(50))
			before := pod.DeepCopy()
			d.check(restart.AllContainersCouldRestart(&pod.Spec) == podutil.AllContainersCouldRestart(&pod.Spec), "AllContainersCouldRestart", pod, "")
			for _, k := range kinds(pod) {
				for _, c := range k.containers {
					d.check(restart.IsRestartableInitContainer(c) == podutil.IsRestartableInitContainer(c), "IsRestartableInitContainer", pod, "container %q", c.Name)
					d.check(restart.IsContainerRestartable(&pod.Spec, c) == podutil.IsContainerRestartable(pod.Spec, *c), "IsContainerRestartable", pod, "container %q", c.Name)
					codes := append([]int32{g.exitCode(), g.exitCode()}, exitCodes...)
					for _, r := range c.RestartPolicyRules {
						if r.ExitCodes != nil {
							codes = append(codes, r.ExitCodes.Values...)
						}
					}
					for _, code := range codes {
						wantRule, wantOK := podutil.FindMatchingContainerRestartRule(*c, code)
						rule, idx, ok := restart.MatchingRule(c, code)
						same := ok == wantOK && reflect.DeepEqual(rule, wantRule)
						if ok {
							same = same && idx >= 0 && idx < len(c.RestartPolicyRules) && reflect.DeepEqual(c.RestartPolicyRules[idx], rule) && firstMatch(c, code) == idx
						} else {
							same = same && idx == -1
						}
						d.check(same, "MatchingRule", pod, "container %q exit %d: podlife %+v %d %v, upstream %+v %v", c.Name, code, rule, idx, ok, wantRule, wantOK)
						want := podutil.ContainerShouldRestart(*c, pod.Spec, code)
						got := restart.ContainerShouldRestart(c, &pod.Spec, code, gs.opts)
						d.check(got == want, "ContainerShouldRestart", pod, "container %q exit %d: podlife %v, upstream %v", c.Name, code, got, want)
					}
				}
			}
			if !reflect.DeepEqual(pod, before) {
				t.Fatalf("input pod was modified")
			}
		}
		d.report("pod helpers vs pkg/api/v1/pod", n)
	})
}

// firstMatch finds the index of upstream's matching rule by asking upstream about
// each prefix of the rule list.
func firstMatch(c *corev1.Container, code int32) int {
	for i := range c.RestartPolicyRules {
		one := corev1.Container{RestartPolicyRules: c.RestartPolicyRules[i : i+1]}
		if _, ok := podutil.FindMatchingContainerRestartRule(one, code); ok {
			return i
		}
	}
	return -1
}

// TestRestartAllMatchesKubelet compares ShouldAllContainersRestart,
// AllContainersRestartCleanedUp and AllContainersRestartingCondition with the
// kubelet's helpers, with and without a runtime view; names collide across kinds in
// half of the pods.
func TestRestartAllMatchesKubelet(t *testing.T) {
	s := seed(t)
	n := podCount(t)
	withGates(t, func(t *testing.T, gs gateSet) {
		g := newGen(s + 2)
		compareRestartAll(t, gs, g, n, func() *corev1.Pod { return g.pod(g.pct(50)) })
	})
}

// TestRestartAllLargePodsMatchKubelet is TestRestartAllMatchesKubelet on pods with
// dozens of containers, whose status lists and runtime views the package indexes by
// name rather than scans. A quarter as many pods as the other comparisons, each
// with about twenty times the containers, keep the run short.
func TestRestartAllLargePodsMatchKubelet(t *testing.T) {
	s := seed(t)
	n := max(podCount(t)/4, 1)
	withGates(t, func(t *testing.T, gs gateSet) {
		g := newGen(s + 5)
		compareRestartAll(t, gs, g, n, func() *corev1.Pod { return g.largePod(g.pct(50)) })
	})
}

// compareRestartAll compares the restart-all functions with the kubelet's on n pods
// from next, under the gate set gs (already applied to upstream).
func compareRestartAll(t *testing.T, gs gateSet, g *gen, n int, next func() *corev1.Pod) {
	t.Helper()
	rac := gatesets.Enabled("RestartAllContainersOnContainerExits")
	d := &disagreements{t: t}
	// How many pods have more than 16 init and regular statuses, or runtime
	// instances (the lists restart indexes), and how many trigger a restart-all.
	long, triggered := 0, 0
	for range n {
		pod := next()
		before := pod.DeepCopy()
		insts := g.instances(pod)
		ps := toRuntime(pod, insts)
		api := pod.Status.DeepCopy()
		if len(pod.Status.InitContainerStatuses)+len(pod.Status.ContainerStatuses) > 16 && len(insts) > 16 {
			long++
		}

		view := &restart.View{Instances: insts}
		// Without a runtime view: the runtime the kubelet would hold after the status it
		// last wrote.
		sr := statusDerivedRuntime(pod)
		// The kubelet asks ShouldAllContainersRestart only with the gate on; the
		// function, as upstream's, does not look at it.
		want := kubecontainer.ShouldAllContainersRestart(pod, ps, api)
		if want && rac {
			triggered++
		}
		d.check(restart.ShouldAllContainersRestart(pod, view) == want, "ShouldAllContainersRestart", pod, "runtime %s: upstream %v", dump(insts), want)
		want = kubecontainer.ShouldAllContainersRestart(pod, nil, api)
		d.check(restart.ShouldAllContainersRestart(pod, nil) == want, "ShouldAllContainersRestart(no runtime)", pod, "upstream %v", want)

		want = kubecontainer.AllContainersRestartCleanedUp(pod, ps)
		d.check(restart.AllContainersRestartCleanedUp(pod, view) == want, "AllContainersRestartCleanedUp", pod, "runtime %s: upstream %v", dump(insts), want)
		want = kubecontainer.AllContainersRestartCleanedUp(pod, sr)
		d.check(restart.AllContainersRestartCleanedUp(pod, nil) == want, "AllContainersRestartCleanedUp(status)", pod, "upstream %v", want)

		// The condition, which lives in the lifecycle package and reads the same view.
		for _, phase := range []corev1.PodPhase{corev1.PodPending, corev1.PodRunning, corev1.PodSucceeded, corev1.PodFailed} {
			wantIncluded := rac && podutil.AllContainersCouldRestart(&pod.Spec)
			wantCond := kubeletstatus.GenerateAllContainersRestartingCondition(pod, ps, api, phase)
			cond, included := lifecycle.AllContainersRestartingCondition(pod, view, phase, gs.opts)
			d.check(included == wantIncluded && reflect.DeepEqual(cond, wantCond), "AllContainersRestartingCondition", pod,
				"phase %s runtime %s: podlife %+v %v, upstream %+v %v", phase, dump(insts), cond, included, wantCond, wantIncluded)
		}
		// A nil view is a node that has no instance of the pod.
		for _, phase := range []corev1.PodPhase{corev1.PodPending, corev1.PodRunning} {
			wantCond := kubeletstatus.GenerateAllContainersRestartingCondition(pod, &kubecontainer.PodStatus{}, api, phase)
			cond, _ := lifecycle.AllContainersRestartingCondition(pod, nil, phase, gs.opts)
			d.check(reflect.DeepEqual(cond, wantCond), "AllContainersRestartingCondition(no instances)", pod, "phase %s: podlife %+v, upstream %+v", phase, cond, wantCond)
		}
		if !reflect.DeepEqual(pod, before) {
			t.Fatalf("input pod was modified")
		}
	}
	t.Logf("%d pods with long lists, %d triggering a restart-all", long, triggered)
	d.report("restart-all vs kubecontainer", n)
}

// statusDerivedRuntime is the runtime the kubelet would hold for a pod whose status
// it last wrote: one instance per status, mapped as for ShouldRestart, except the
// containers it removed for a restart-all (waiting with reason
// RestartingAllContainers); init, then regular, then ephemeral statuses. Written
// independently of the package under test.
func statusDerivedRuntime(pod *corev1.Pod) *kubecontainer.PodStatus {
	ps := &kubecontainer.PodStatus{}
	for _, list := range [][]corev1.ContainerStatus{pod.Status.InitContainerStatuses, pod.Status.ContainerStatuses, pod.Status.EphemeralContainerStatuses} {
		for _, st := range list {
			if st.State.Waiting != nil && st.State.Waiting.Reason == "RestartingAllContainers" {
				continue
			}
			switch {
			case st.State.Running != nil:
				ps.ContainerStatuses = append(ps.ContainerStatuses, &kubecontainer.Status{Name: st.Name, State: kubecontainer.ContainerStateRunning})
			case st.State.Terminated != nil:
				ps.ContainerStatuses = append(ps.ContainerStatuses, &kubecontainer.Status{Name: st.Name, State: kubecontainer.ContainerStateExited, ExitCode: int(st.State.Terminated.ExitCode)})
			case st.LastTerminationState.Terminated != nil:
				ps.ContainerStatuses = append(ps.ContainerStatuses, &kubecontainer.Status{Name: st.Name, State: kubecontainer.ContainerStateExited, ExitCode: int(st.LastTerminationState.Terminated.ExitCode)})
			}
		}
	}
	return ps
}

// TestBackoffKeyMatchesKubelet compares BackoffKey with kuberuntime.GetBackoffKey.
func TestBackoffKeyMatchesKubelet(t *testing.T) {
	s := seed(t)
	n := podCount(t)
	g := newGen(s + 3)
	d := &disagreements{t: t}
	for range n {
		pod := g.pod(true)
		before := pod.DeepCopy()
		for _, k := range kinds(pod) {
			for _, c := range k.containers {
				want := kuberuntime.GetBackoffKey(pod, c)
				got := restart.BackOffKey(pod, c)
				d.check(got == want, "BackoffKey", pod, "container %q: podlife %s, upstream %s", c.Name, got, want)
			}
		}
		if !reflect.DeepEqual(pod, before) {
			t.Fatalf("input pod was modified")
		}
	}
	d.report("BackoffKey vs GetBackoffKey", n)
}
