// Package restart compares github.com/podlife/podlife/restart with the upstream
// v1.37.2 kubelet and pod helpers on generated pods, under the standard gate sets and
// restart-all and container restart rules turned off (10,000 pods per set; PODLIFE_N
// overrides it, at least 2,000; PODLIFE_SEED the seed).
//
// A runtime view is never turned into the kubelet's runtime status by hand: it is loaded
// into cri-api's fake runtime and kuberuntime's GetPodStatus derives it
// (internal/upstreamkubelet). The one mapping written here, from an API status to a
// runtime status (runtimeFromAPI, statusDerivedRuntime), is ShouldRestart's documented
// contract for callers without a view, not the kubelet's.
//
// The crash-loop back-off comes from the kubelet's own path: a v1beta1
// KubeletConfiguration defaulted by the kubelet's scheme, converted, validated by
// ValidateKubeletConfiguration and passed to newCrashLoopBackOff (pkg/kubelet/kubelet.go,
// reached with a linkname directive), for every gate set and maximum restart period;
// starts are checked with kuberuntime's own doBackOff.
//
// FuzzShouldRestartMatchesKubelet makes the ShouldRestart comparison on pods no
// generator wrote: the fuzzer mutates the JSON of the main module's example pods
// (conformance/internal/fuzzseed).
package restart

import (
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"
	podutil "k8s.io/kubernetes/pkg/api/v1/pod"
	kubecontainer "k8s.io/kubernetes/pkg/kubelet/container"
	"k8s.io/kubernetes/pkg/kubelet/kuberuntime"
	kubeletstatus "k8s.io/kubernetes/pkg/kubelet/status"
	"sigs.k8s.io/yaml"

	"github.com/podlife/podlife/conformance/internal/coverage"
	"github.com/podlife/podlife/conformance/internal/gatesets"
	"github.com/podlife/podlife/conformance/internal/upstreamkubelet"
	"github.com/podlife/podlife/lifecycle"
	"github.com/podlife/podlife/restart"
)

// gateSet is one feature-gate configuration, applied to upstream by gatesets and
// passed per call to podlife, with a fake runtime for deriving the kubelet's runtime
// status from a view.
type gateSet struct {
	gatesets.Set
	opts restart.Options
	rt   *upstreamkubelet.Runtime
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
		f(t, gateSet{Set: s, opts: restart.Options{Features: s.Features()}, rt: upstreamkubelet.New(t)})
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
	d.t.Helper()
	d.t.Logf("%s: %d pods, %d comparisons, %d disagreements", what, pods, d.total, d.n)
	if d.n > 0 {
		d.t.Errorf("%s: %d disagreements", what, d.n)
	}
	// Every pod gives at least one comparison.
	coverage.Require(d.t, what+": comparisons", d.total, pods)
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
// ShouldRestartInstance on generated runtime views with every runtime state, the
// kubelet's runtime status derived from the view by kuberuntime's GetPodStatus.
func TestShouldRestartMatchesKubelet(t *testing.T) {
	s := seed(t)
	n := podCount(t)
	logger := klog.Background()
	withGates(t, func(t *testing.T, gs gateSet) {
		g := newGen(s)
		d := &disagreements{t: t}
		di := &disagreements{t: t}
		var bases, instanceBases coverage.Counts
		for range n {
			pod := g.pod(true)
			before := pod.DeepCopy()
			compareShouldRestart(logger, pod, gs, d, &bases)
			view := g.view(pod)
			ps, _ := gs.rt.PodStatus(t, pod, &view, false)
			for _, k := range kinds(pod) {
				for _, c := range k.containers {
					want := kubecontainer.ShouldContainerBeRestarted(logger, c, pod, ps)
					var newest *restart.Instance
					if in, ok := view.Newest(c.Name); ok {
						newest = &in
					}
					got := restart.ShouldRestartInstance(pod, c, newest, gs.opts)
					instanceBases.Addf("%v/%v", got.Basis(), got.Restart)
					di.check(got.Restart == want, "ShouldRestartInstance", pod, "container %q runtime %s: podlife %v (%s), upstream %v", c.Name, dump(view.Instances), got.Restart, got.Explain(), want)
				}
			}
			if !reflect.DeepEqual(pod, before) {
				t.Fatalf("input pod was modified")
			}
		}
		d.report("ShouldRestart vs ShouldContainerBeRestarted", n)
		di.report("ShouldRestartInstance vs ShouldContainerBeRestarted", n)
		t.Logf("decisions by basis: %s; with a runtime view: %s", &bases, &instanceBases)
		// Every basis the kubelet's decision can rest on, both ways where it has two (an API
		// status maps to no created or unknown instance).
		want := []string{"Deletion/false", "NoInstance/true", "Running/false"}
		if gs.Features().Enabled("ContainerRestartRules") {
			want = append(want, "Rule/true", "ContainerPolicy/true", "ContainerPolicy/false", "PodPolicy/true", "PodPolicy/false")
		} else {
			want = append(want, "PodPolicyRulesOff/true", "PodPolicyRulesOff/false")
		}
		bases.Each(t, "ShouldRestart basis", n/200, want...)
		instanceBases.Each(t, "ShouldRestartInstance basis", n/200, append(want, "CreatedOrUnknown/true")...)
	})
}

// compareShouldRestart compares ShouldRestart with kubecontainer.ShouldContainerBeRestarted
// for every container of pod, the runtime status built from the v1 status as
// ShouldRestart's godoc maps it, and counts the decisions by basis.
func compareShouldRestart(logger klog.Logger, pod *corev1.Pod, gs gateSet, d *disagreements, bases *coverage.Counts) {
	for _, k := range kinds(pod) {
		for _, c := range k.containers {
			want := kubecontainer.ShouldContainerBeRestarted(logger, c, pod, runtimeFromAPI(k.statuses, c.Name))
			got := restart.ShouldRestart(pod, c.Name, gs.opts)
			bases.Addf("%v/%v", got.Basis(), got.Restart)
			d.check(got.Restart == want, "ShouldRestart", pod, "container %q: podlife %v (%s), upstream %v", c.Name, got.Restart, got.Explain(), want)
		}
	}
}

// TestShouldRestartLargePodsMatchKubelet is TestShouldRestartMatchesKubelet's first
// half on pods with dozens of containers of each kind and statuses (g.largePod, unique
// names), whose lists ShouldRestart first skips four names a step: every container of
// every pod, against kubecontainer.ShouldContainerBeRestarted. A tenth as many pods as
// the other comparisons, each with about twenty times the containers.
func TestShouldRestartLargePodsMatchKubelet(t *testing.T) {
	s := seed(t)
	n := max(podCount(t)/10, 1)
	logger := klog.Background()
	withGates(t, func(t *testing.T, gs gateSet) {
		g := newGen(s + 7)
		d := &disagreements{t: t}
		var bases coverage.Counts
		long := 0
		for range n {
			pod := g.largePod(true)
			before := pod.DeepCopy()
			if len(pod.Spec.Containers) >= 8 && len(pod.Spec.InitContainers) >= 8 {
				long++
			}
			compareShouldRestart(logger, pod, gs, d, &bases)
			if !reflect.DeepEqual(pod, before) {
				t.Fatalf("input pod was modified")
			}
		}
		d.report("ShouldRestart vs ShouldContainerBeRestarted on large pods", n)
		t.Logf("decisions by basis: %s", &bases)
		coverage.RequireShare(t, "large pods with 8 or more regular and init containers", long, n, 0.5)
	})
}

// TestPodHelpersMatchUpstream compares the pure helpers with pkg/api/v1/pod.
func TestPodHelpersMatchUpstream(t *testing.T) {
	s := seed(t)
	n := podCount(t)
	withGates(t, func(t *testing.T, gs gateSet) {
		g := newGen(s + 1)
		d := &disagreements{t: t}
		var cov coverage.Counts
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
						if wantOK {
							cov.Add("rule matched " + string(wantRule.Action))
						} else {
							cov.Add("no rule matched")
						}
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
						cov.Addf("ContainerShouldRestart=%t", want)
						d.check(got == want, "ContainerShouldRestart", pod, "container %q exit %d: podlife %v, upstream %v", c.Name, code, got, want)
					}
				}
			}
			if !reflect.DeepEqual(pod, before) {
				t.Fatalf("input pod was modified")
			}
		}
		d.report("pod helpers vs pkg/api/v1/pod", n)
		t.Logf("%s", &cov)
		cov.Each(t, "pod helpers", n/100, "rule matched Restart", "rule matched RestartAllContainers", "no rule matched",
			"ContainerShouldRestart=true", "ContainerShouldRestart=false")
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
		compareRestartAll(t, gs, g, n, false, func() *corev1.Pod { return g.pod(g.pct(50)) })
	})
}

// TestRestartAllLargePodsMatchKubelet is TestRestartAllMatchesKubelet on pods with
// dozens of containers, whose status lists and runtime views the package indexes by
// name rather than scans. A quarter as many pods as the other comparisons under the
// default gates and a tenth under the other sets, each with about twenty times the
// containers, keep the run short.
func TestRestartAllLargePodsMatchKubelet(t *testing.T) {
	s := seed(t)
	n := podCount(t)
	withGates(t, func(t *testing.T, gs gateSet) {
		m := max(n/10, 1)
		if gs.Name == gatesets.Defaults.Name {
			m = max(n/4, 1)
		}
		g := newGen(s + 5)
		long := compareRestartAll(t, gs, g, m, true, func() *corev1.Pod { return g.largePod(g.pct(50)) })
		coverage.RequireShare(t, "large pods with lists longer than the package scans", long, m, 0.3)
	})
}

// compareRestartAll compares the restart-all functions with the kubelet's on n pods
// from next, under the gate set gs (already applied to upstream).
func compareRestartAll(t *testing.T, gs gateSet, g *gen, n int, large bool, next func() *corev1.Pod) (long int) {
	t.Helper()
	rac := gatesets.Enabled("RestartAllContainersOnContainerExits")
	d := &disagreements{t: t}
	// How many pods have more than 16 init and regular statuses, or runtime
	// instances (the lists restart indexes), and how many trigger a restart-all.
	triggered := 0
	var outcomes, conds coverage.Counts
	for range n {
		pod := next()
		before := pod.DeepCopy()
		v := g.view(pod)
		ps, _ := gs.rt.PodStatus(t, pod, &v, false)
		view := &v
		insts := v.Instances
		api := pod.Status.DeepCopy()
		if len(pod.Status.InitContainerStatuses)+len(pod.Status.ContainerStatuses) > 16 && len(insts) > 16 {
			long++
		}

		// Without a runtime view: the runtime the kubelet would hold after the status it
		// last wrote.
		sr := statusDerivedRuntime(pod)
		// The kubelet asks ShouldAllContainersRestart only with the gate on; the
		// function, as upstream's, does not look at it.
		want := kubecontainer.ShouldAllContainersRestart(pod, ps, api)
		if want && rac {
			triggered++
		}
		outcomes.Addf("ShouldAllContainersRestart=%t", want)
		outcomes.Addf("AllContainersRestartCleanedUp=%t", kubecontainer.AllContainersRestartCleanedUp(pod, ps))
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
			conds.Addf("%s/%s", wantCond.Status, wantCond.Reason)
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
	t.Logf("%d pods with long lists, %d triggering a restart-all; %s; condition status/reason %s", long, triggered, &outcomes, &conds)
	d.report("restart-all vs kubecontainer", n)
	outcomes.Each(t, "restart-all helpers", n/100, "ShouldAllContainersRestart=true", "ShouldAllContainersRestart=false",
		"AllContainersRestartCleanedUp=false")
	if !large {
		// A large pod is hardly ever cleaned up: none of its dozens of containers may
		// have an instance left.
		outcomes.AtLeast(t, "restart-all helpers", "AllContainersRestartCleanedUp=true", n/100)
	}
	if rac {
		coverage.Require(t, "pods triggering a restart-all", triggered, n/100)
	}
	if conds.Total() == 0 || len(conds.Keys()) < 2 {
		t.Errorf("AllContainersRestarting condition: only %s", &conds)
	}
	return long
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

// TestBackoffKeyMatchesKubelet compares BackoffKey with kuberuntime.GetBackoffKey
// (which reads no feature gate; it runs under every set all the same, on a tenth of
// the pods outside the defaults).
func TestBackoffKeyMatchesKubelet(t *testing.T) {
	s := seed(t)
	n := podCount(t)
	withGates(t, func(t *testing.T, gs gateSet) {
		m := n
		if gs.Name != gatesets.Defaults.Name {
			m = max(n/10, minPods/10)
		}
		g := newGen(s + 3)
		d := &disagreements{t: t}
		keys := map[string]bool{}
		for range m {
			pod := g.pod(true)
			before := pod.DeepCopy()
			for _, k := range kinds(pod) {
				for _, c := range k.containers {
					want := kuberuntime.GetBackoffKey(pod, c)
					got := restart.BackOffKey(pod, c)
					keys[want] = true
					d.check(got == want, "BackoffKey", pod, "container %q: podlife %s, upstream %s", c.Name, got, want)
				}
			}
			if !reflect.DeepEqual(pod, before) {
				t.Fatalf("input pod was modified")
			}
		}
		d.report("BackoffKey vs GetBackoffKey", m)
		// Keys differ with the pod, the container, its image and its resources.
		coverage.RequireShare(t, "distinct back-off keys", len(keys), d.total, 0.25)
	})
}
