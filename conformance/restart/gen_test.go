package restart

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	kubecontainer "k8s.io/kubernetes/pkg/kubelet/container"

	"github.com/podlife/podlife/conformance/internal/podshapes"
	"github.com/podlife/podlife/conformance/internal/runenv"
	"github.com/podlife/podlife/conformance/internal/upstreamkubelet"
	"github.com/podlife/podlife/restart"
)

// defaultSeed makes runs reproducible; PODLIFE_SEED overrides it.
const defaultSeed = 20260501

// numPods is the number of generated pods per differential test and gate set;
// PODLIFE_N overrides it, down to minPods, the fewest with which every asserted branch is
// still reached.
const (
	numPods = 10000
	minPods = 2000
)

func seed(t testing.TB) uint64 {
	s := runenv.Seed(t, defaultSeed)
	t.Logf("seed %d (set PODLIFE_SEED to change)", s)
	return s
}

func podCount(t testing.TB) int { return runenv.Count(t, numPods, minPods) }

type gen struct{ r *rand.Rand }

func newGen(seed uint64) *gen { return &gen{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))} }

func (g *gen) pct(p int) bool { return g.r.IntN(100) < p }

func pick[T any](g *gen, xs ...T) T { return xs[g.r.IntN(len(xs))] }

var exitCodes = []int32{0, 1, 2, 42, 137, 255, -1}

func (g *gen) exitCode() int32 {
	if g.pct(10) {
		return g.r.Int32() - 1<<30
	}
	return exitCodes[g.r.IntN(len(exitCodes))]
}

func (g *gen) containerPolicy() *corev1.ContainerRestartPolicy {
	if g.pct(40) {
		return nil
	}
	p := pick(g, corev1.ContainerRestartPolicyAlways, corev1.ContainerRestartPolicyOnFailure, corev1.ContainerRestartPolicyNever, "Bogus", "")
	return &p
}

func (g *gen) rules() []corev1.ContainerRestartRule {
	if g.pct(35) {
		return nil
	}
	n := g.r.IntN(4)
	rules := make([]corev1.ContainerRestartRule, n)
	for i := range rules {
		rules[i].Action = pick(g, corev1.ContainerRestartRuleActionRestart, corev1.ContainerRestartRuleActionRestartAllContainers,
			corev1.ContainerRestartRuleActionRestart, corev1.ContainerRestartRuleActionRestartAllContainers, "Bogus", "")
		if g.pct(10) {
			continue
		}
		on := &corev1.ContainerRestartRuleOnExitCodes{Operator: pick(g, corev1.ContainerRestartRuleOnExitCodesOpIn, corev1.ContainerRestartRuleOnExitCodesOpNotIn,
			corev1.ContainerRestartRuleOnExitCodesOpIn, corev1.ContainerRestartRuleOnExitCodesOpNotIn, "Bogus")}
		for range g.r.IntN(4) {
			on.Values = append(on.Values, g.exitCode())
		}
		rules[i].ExitCodes = on
	}
	return rules
}

var quantities = []string{"100m", "1", "0.5", "128Mi", "1Gi", "250m", "2", "1e3", "0"}

func (g *gen) resources() corev1.ResourceRequirements {
	var rr corev1.ResourceRequirements
	if g.pct(50) {
		return rr
	}
	list := func() corev1.ResourceList {
		if g.pct(30) {
			return nil
		}
		l := corev1.ResourceList{}
		for range g.r.IntN(3) {
			name := pick(g, corev1.ResourceCPU, corev1.ResourceMemory, corev1.ResourceEphemeralStorage, "example.com/gpu")
			if g.pct(20) {
				l[name] = *resource.NewMilliQuantity(g.r.Int64N(5000), resource.DecimalSI)
			} else {
				l[name] = resource.MustParse(pick(g, quantities...))
			}
		}
		return l
	}
	rr.Requests, rr.Limits = list(), list()
	if g.pct(10) {
		rr.Claims = []corev1.ResourceClaim{{Name: "gpu", Request: pick(g, "", "r")}}
	}
	return rr
}

func (g *gen) container(name string) corev1.Container {
	return corev1.Container{
		Name:               name,
		Image:              pick(g, "busybox", "nginx:1.27", "registry.k8s.io/pause:3.10", ""),
		RestartPolicy:      g.containerPolicy(),
		RestartPolicyRules: g.rules(),
		Resources:          g.resources(),
	}
}

// pod generates a pod of every container kind. With unique set, names are unique
// across kinds; otherwise they come from a small pool so kinds and statuses collide.
func (g *gen) pod(unique bool) *corev1.Pod { return g.podSized(unique, 4, 5, 3) }

// largePod generates a pod with up to 60 init, 60 regular and 10 ephemeral
// containers, so that its status lists and runtime view are longer than the lists
// the package scans (it indexes longer ones). The restart rules of a random share of
// the containers (none, 5%, 30% or all) are kept, so that restart-all is not always
// triggered.
func (g *gen) largePod(unique bool) *corev1.Pod {
	pod := g.podSized(unique, 60, 60, 10)
	keep := pick(g, 0, 5, 30, 100)
	for _, cs := range [][]corev1.Container{pod.Spec.InitContainers, pod.Spec.Containers} {
		for i := range cs {
			if !g.pct(keep) {
				cs[i].RestartPolicyRules = nil
			}
		}
	}
	return pod
}

// podSized is pod with fewer than maxInit init, maxRegular regular and maxEph
// ephemeral containers.
func (g *gen) podSized(unique bool, maxInit, maxRegular, maxEph int) *corev1.Pod {
	name := func(kind string, i int) string {
		if unique {
			return kind + strconv.Itoa(i)
		}
		return pick(g, "a", "b", "c", "d")
	}
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Name:      pick(g, "web", "job-x", "p"),
			Namespace: pick(g, "default", "kube-system", ""),
			UID:       types.UID(pick(g, "uid-1", "6a1c1f0e-8f1d-4bb1-9c62-0d1f7d2f6b5e", "")),
		},
		Spec: corev1.PodSpec{RestartPolicy: pick(g, corev1.RestartPolicyAlways, corev1.RestartPolicyOnFailure, corev1.RestartPolicyNever, corev1.RestartPolicyAlways, "", "Bogus")},
	}
	if g.pct(15) {
		pod.DeletionTimestamp = &metav1.Time{Time: time.Unix(1700000000, 0)}
	}
	for i := range g.r.IntN(maxInit) {
		pod.Spec.InitContainers = append(pod.Spec.InitContainers, g.container(name("i", i)))
	}
	for i := range g.r.IntN(maxRegular) {
		pod.Spec.Containers = append(pod.Spec.Containers, g.container(name("c", i)))
	}
	for i := range g.r.IntN(maxEph) {
		c := g.container(name("e", i))
		pod.Spec.EphemeralContainers = append(pod.Spec.EphemeralContainers, corev1.EphemeralContainer{EphemeralContainerCommon: corev1.EphemeralContainerCommon(c)})
	}
	statuses := func(names []string) []corev1.ContainerStatus {
		var out []corev1.ContainerStatus
		for _, n := range names {
			for range pick(g, 0, 1, 1, 1, 1, 2) {
				out = append(out, g.status(n))
			}
		}
		if g.pct(10) {
			out = append(out, g.status(pick(g, "a", "b", "i0", "c0", "zz")))
		}
		g.r.Shuffle(len(out), func(i, j int) {
			if g.pct(30) {
				out[i], out[j] = out[j], out[i]
			}
		})
		return out
	}
	var initNames, names, ephNames []string
	for _, c := range pod.Spec.InitContainers {
		initNames = append(initNames, c.Name)
	}
	for _, c := range pod.Spec.Containers {
		names = append(names, c.Name)
	}
	for _, c := range pod.Spec.EphemeralContainers {
		ephNames = append(ephNames, c.Name)
	}
	pod.Status.InitContainerStatuses = statuses(initNames)
	pod.Status.ContainerStatuses = statuses(names)
	pod.Status.EphemeralContainerStatuses = statuses(ephNames)
	for range g.r.IntN(3) {
		pod.Status.Conditions = append(pod.Status.Conditions, corev1.PodCondition{
			Type:   pick(g, corev1.AllContainersRestarting, corev1.AllContainersRestarting, corev1.PodReady),
			Status: pick(g, corev1.ConditionTrue, corev1.ConditionFalse, corev1.ConditionUnknown),
		})
	}
	pod.Status.Phase = pick(g, corev1.PodPending, corev1.PodRunning, corev1.PodSucceeded, corev1.PodFailed, "")
	return pod
}

func (g *gen) terminated() *corev1.ContainerStateTerminated {
	return &corev1.ContainerStateTerminated{
		ExitCode:   g.exitCode(),
		Reason:     pick(g, "", "Error", "Completed", "OOMKilled", restart.ReasonRestartingAllContainers, "ContainerStatusUnknown"),
		FinishedAt: metav1.Time{Time: time.Unix(1700000000+g.r.Int64N(5000), 0)},
	}
}

func (g *gen) status(name string) corev1.ContainerStatus {
	st := corev1.ContainerStatus{Name: name}
	waiting := func() *corev1.ContainerStateWaiting {
		return &corev1.ContainerStateWaiting{Reason: pick(g, "ContainerCreating", "CrashLoopBackOff", "PodInitializing", restart.ReasonRestartingAllContainers, "")}
	}
	switch g.r.IntN(9) {
	case 0:
	case 1:
		st.State.Waiting = waiting()
	case 2:
		st.State.Waiting = waiting()
		st.LastTerminationState.Terminated = g.terminated()
	case 3:
		st.State.Running = &corev1.ContainerStateRunning{}
	case 4:
		st.State.Running = &corev1.ContainerStateRunning{}
		st.LastTerminationState.Terminated = g.terminated()
	case 5:
		st.State.Terminated = g.terminated()
	case 6:
		st.State.Terminated = g.terminated()
		st.LastTerminationState.Terminated = g.terminated()
	case 7:
		st.State.Running = &corev1.ContainerStateRunning{}
		st.State.Terminated = g.terminated()
	case 8:
		st.LastTerminationState.Terminated = g.terminated()
	}
	return st
}

// view generates a runtime view over the pod's container names and a stray one: its
// instances, newest first, with IDs of the fake runtime; a ready sandbox holding them
// in most views, none in the rest (a pod whose sandbox is gone).
func (g *gen) view(pod *corev1.Pod) restart.View {
	names := podshapes.ContainerNames(pod)
	names = append(names, "stray")
	var v restart.View
	if g.pct(85) {
		v.Sandboxes = []restart.Sandbox{{ID: "sandbox", Ready: true, Network: &restart.SandboxNetwork{IP: "10.0.0.1"}}}
	}
	var out []restart.Instance
	for _, n := range names {
		if g.pct(30) {
			continue
		}
		for range 1 + g.r.IntN(3) {
			out = append(out, restart.Instance{
				Name:       n,
				State:      pick(g, restart.StateCreated, restart.StateRunning, restart.StateExited, restart.StateExited, restart.StateUnknown),
				ExitCode:   g.exitCode(),
				Reason:     pick(g, "", "Error", "OOMKilled"),
				FinishedAt: time.Unix(1700000000+g.r.Int64N(5000), 0),
			})
		}
	}
	g.r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	for i := range out {
		out[i].ID = upstreamkubelet.InstanceID(i)
	}
	v.Instances = out
	return v
}

// runtimeFromAPI maps the first status with the container's name in its kind's
// status list to a kubelet runtime status, as the restart package documents for ShouldRestart (restart.InstanceFromStatus):
// Running → running; Terminated → exited with its code; otherwise
// LastTerminationState.Terminated → exited with that code; otherwise no instance.
// The mapping is written independently of the package under test.
func runtimeFromAPI(statuses []corev1.ContainerStatus, name string) *kubecontainer.PodStatus {
	ps := &kubecontainer.PodStatus{}
	for i := range statuses {
		st := &statuses[i]
		if st.Name != name {
			continue
		}
		var s *kubecontainer.Status
		switch {
		case st.State.Running != nil:
			s = &kubecontainer.Status{Name: name, State: kubecontainer.ContainerStateRunning}
		case st.State.Terminated != nil:
			s = &kubecontainer.Status{Name: name, State: kubecontainer.ContainerStateExited, ExitCode: int(st.State.Terminated.ExitCode)}
		case st.LastTerminationState.Terminated != nil:
			s = &kubecontainer.Status{Name: name, State: kubecontainer.ContainerStateExited, ExitCode: int(st.LastTerminationState.Terminated.ExitCode)}
		}
		if s != nil {
			ps.ContainerStatuses = append(ps.ContainerStatuses, s)
		}
		break
	}
	return ps
}

// dump renders v with %+v when formatted with %s, only then: the comparisons pass
// it for every check, and rendering a large runtime view costs more than the check.
func dump(v any) fmt.Stringer { return dumper{v} }

type dumper struct{ v any }

func (d dumper) String() string { return fmt.Sprintf("%+v", d.v) }
