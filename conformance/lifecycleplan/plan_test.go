package lifecycleplan

import (
	"fmt"
	"math/rand"
	"reflect"
	"sort"
	"testing"

	v1 "k8s.io/api/core/v1"
	kubecontainer "k8s.io/kubernetes/pkg/kubelet/container"
	"k8s.io/kubernetes/pkg/kubelet/status"

	"github.com/podlife/podlife/conformance/internal/coverage"
	"github.com/podlife/podlife/conformance/internal/gatesets"
	"github.com/podlife/podlife/conformance/internal/upstreamkubelet"
	"github.com/podlife/podlife/lifecycle"
	"github.com/podlife/podlife/restart"
)

// plan is the comparable form of both answers.
type plan struct {
	KillPod, CreateSandbox bool
	SandboxID              string
	Attempt                uint32
	SandboxChange          string
	Init, Regular, Eph     []int
	Kills                  []string
	Resets                 []string
}

func ours(a lifecycle.PodActions) plan {
	p := plan{KillPod: a.KillPod, CreateSandbox: a.CreateSandbox, SandboxID: a.SandboxID, Attempt: a.Attempt, SandboxChange: a.SandboxChange}
	for _, r := range a.InitContainersToStart {
		p.Init = append(p.Init, r.Index)
	}
	for _, r := range a.ContainersToStart {
		p.Regular = append(p.Regular, r.Index)
	}
	for _, r := range a.EphemeralContainersToStart {
		p.Eph = append(p.Eph, r.Index)
	}
	for _, k := range a.ContainersToKill {
		p.Kills = append(p.Kills, fmt.Sprintf("%s|%s|%s|%s", k.ID, k.Container.Name, k.Reason, k.Message))
	}
	sort.Strings(p.Kills)
	for _, r := range a.ContainersToReset {
		p.Resets = append(p.Resets, fmt.Sprintf("%s|%s|%t", r.ID, r.Container.Name, r.Kill))
	}
	return p
}

// theirs is upstream's answer; the sandbox change message is PodSandboxChanged's on
// the same runtime status when computePodActions creates a sandbox (computePodActions
// drops it; the kubelet logs it and SyncPod reports it).
func theirs(a upstreamkubelet.Actions, pod *v1.Pod, ps *kubecontainer.PodStatus) plan {
	p := plan{KillPod: a.KillPod, CreateSandbox: a.CreateSandbox, SandboxID: a.SandboxID, Attempt: a.Attempt,
		Init: a.InitContainersToStart, Regular: a.ContainersToStart, Eph: a.EphemeralContainersToStart}
	if a.CreateSandbox {
		_, _, _, p.SandboxChange = upstreamkubelet.SandboxChanged(pod, ps)
	}
	if len(p.Regular) == 0 {
		p.Regular = nil
	}
	for id, k := range a.ContainersToKill {
		p.Kills = append(p.Kills, fmt.Sprintf("%s|%s|%s|%s", id.String(), k.Name, k.Reason, k.Message))
	}
	sort.Strings(p.Kills)
	for _, r := range a.ContainersToReset {
		p.Resets = append(p.Resets, fmt.Sprintf("%s|%s|%t", r.ContainerID.String(), r.Container.Name, r.Kill))
	}
	return p
}

// outcomes counts what upstream's answer does: each part of the plan separately, and
// the answers that do nothing.
func outcomes(cov *coverage.Counts, a upstreamkubelet.Actions, restartAll bool) {
	any := false
	add := func(ok bool, what string) {
		if ok {
			cov.Add(what)
			any = true
		}
	}
	add(restartAll && gatesets.Enabled("RestartAllContainersOnContainerExits"), "restart all containers")
	add(len(a.ContainersToReset) > 0, "reset containers")
	add(a.CreateSandbox, "create sandbox")
	add(a.KillPod && !a.CreateSandbox, "kill pod, no new sandbox")
	add(len(a.ContainersToKill) > 0, "kill containers")
	add(len(a.InitContainersToStart) > 0, "start init containers")
	add(len(a.ContainersToStart) > 0, "start containers")
	add(len(a.EphemeralContainersToStart) > 0, "start ephemeral containers")
	if !any {
		cov.Add("nothing")
	}
}

var allOutcomes = []string{"restart all containers", "reset containers", "create sandbox", "kill pod, no new sandbox",
	"kill containers", "start init containers", "start containers", "start ephemeral containers", "nothing"}

var sandboxMessages = []string{"no pod sandbox exists", "multiple pod sandboxes are ready and need to be reconciled",
	"pod sandbox is not ready", "network namespace mode changed and sandbox needs to be recreated", "pod sandbox has no IP address"}

var killReasons = []string{"", "LivenessProbe", "StartupProbe", "Unknown"}

// TestComputePodActionsAgainstUpstream compares lifecycle.ComputePodActions with
// kuberuntime's computePodActions, the runtime status derived by kuberuntime's
// GetPodStatus from the same view loaded into the fake CRI runtime, with the view's
// liveness and startup results in the manager's caches and the containers' spec
// resources as their actuated resources (no resize is pending: podlife leaves resizes
// out, and upstream must not plan one). Every field of the answer is compared,
// SandboxChange included.
func TestComputePodActionsAgainstUpstream(t *testing.T) {
	gatesets.Run(t, gateSets, func(t *testing.T, gs gatesets.Set) {
		opts := lifecycle.Options{Features: gs.Features()}
		s := seed(t)
		g := gen{rand.New(rand.NewSource(s))}
		rt := upstreamkubelet.New(t)
		n, disagreements := count(t), 0
		var cov, changes, kills coverage.Counts
		for i := 0; i < n; i++ {
			pod := g.pod()
			v := g.view(pod)
			restartAll := g.pick(4) == 0
			ps, _ := rt.PodStatus(t, pod, &v, true)
			before, beforeView := pod.DeepCopy(), deepCopyView(v)
			up := rt.ComputePodActions(pod, ps, restartAll)
			if up.Resizes() {
				t.Fatalf("seed %d input %d: upstream plans a resize, which the generator must not provoke: %+v", s, i, up)
			}
			want := theirs(up, pod, ps)
			got := ours(lifecycle.ComputePodActions(pod, &v, restartAll, opts))
			outcomes(&cov, up, restartAll)
			if want.SandboxChange != "" {
				changes.Add(want.SandboxChange)
			}
			for _, k := range up.ContainersToKill {
				kills.Add(k.Reason)
			}
			if fmt.Sprint(want) != fmt.Sprint(got) {
				disagreements++
				if disagreements <= 3 {
					t.Errorf("seed %d input %d: restartAll=%t\npod spec: %+v\nview: %+v\nupstream: %+v\npodlife:  %+v", s, i, restartAll, pod.Spec, v, want, got)
				}
			}
			if !equalInputs(before, pod, beforeView, v) {
				t.Fatalf("seed %d input %d: an input was modified", s, i)
			}
		}
		t.Logf("computePodActions: %d inputs, %d disagreements (seed %d); outcomes %s; sandbox changes %s; kill reasons %s", n, disagreements, s, &cov, &changes, &kills)
		// Every branch of computePodActions is reached, most of them in a fair share of the
		// inputs; restart-all only when its gate is on.
		for _, o := range allOutcomes {
			min := n / 200
			if (o == "restart all containers" || o == "reset containers") && !gatesets.Enabled("RestartAllContainersOnContainerExits") {
				min = 0
			}
			cov.AtLeast(t, "computePodActions outcome", o, min)
		}
		changes.Each(t, "sandbox change", n/500, sandboxMessages...)
		kills.Each(t, "kill reason", n/500, killReasons...)
	})
}

func deepCopyView(v restart.View) restart.View {
	out := v
	out.Sandboxes = append([]restart.Sandbox(nil), v.Sandboxes...)
	for i := range out.Sandboxes {
		if nw := out.Sandboxes[i].Network; nw != nil {
			c := *nw
			c.AdditionalIPs = append([]string(nil), nw.AdditionalIPs...)
			out.Sandboxes[i].Network = &c
		}
	}
	out.Instances = append([]restart.Instance(nil), v.Instances...)
	return out
}

func equalInputs(beforePod, pod *v1.Pod, beforeView, view restart.View) bool {
	return reflect.DeepEqual(beforePod, pod) && reflect.DeepEqual(beforeView, view)
}

// TestConditionsAgainstUpstream compares the runtime conditions with
// status.GeneratePodReadyToStartContainersCondition and
// GenerateAllContainersRestartingCondition on the runtime status GetPodStatus derives.
func TestConditionsAgainstUpstream(t *testing.T) {
	gatesets.Run(t, gateSets, func(t *testing.T, gs gatesets.Set) {
		opts := lifecycle.Options{Features: gs.Features()}
		s := seed(t)
		g := gen{rand.New(rand.NewSource(s + 1))}
		rt := upstreamkubelet.New(t)
		n, disagreements := count(t), 0
		var cov coverage.Counts
		phases := []v1.PodPhase{v1.PodPending, v1.PodRunning, v1.PodSucceeded, v1.PodFailed}
		for i := 0; i < n; i++ {
			pod := g.pod()
			v := g.view(pod)
			ps, _ := rt.PodStatus(t, pod, &v, false)
			phase := phases[g.pick(4)]
			old := pod.Status.DeepCopy()

			want := status.GeneratePodReadyToStartContainersCondition(pod, old, ps)
			got := lifecycle.PodReadyToStartContainersCondition(pod, &v, opts)
			cov.Addf("PodReadyToStartContainers=%s", want.Status)
			if want != got {
				disagreements++
				t.Errorf("seed %d input %d PodReadyToStartContainers:\n%+v\nupstream %+v\npodlife  %+v", s, i, v.Sandboxes, want, got)
			}

			want = status.GenerateAllContainersRestartingCondition(pod, ps, old, phase)
			got, _ = lifecycle.AllContainersRestartingCondition(pod, &v, phase, opts)
			cov.Addf("AllContainersRestarting=%s", want.Status)
			if want != got {
				disagreements++
				t.Errorf("seed %d input %d AllContainersRestarting (%s):\n%+v\nupstream %+v\npodlife  %+v", s, i, phase, v.Instances, want, got)
			}
			if disagreements > 5 {
				t.FailNow()
			}
		}
		t.Logf("conditions: %d inputs × 2 conditions, %d disagreements (seed %d); %s", n, disagreements, s, &cov)
		cov.Each(t, "condition status", n/50, "PodReadyToStartContainers=True", "PodReadyToStartContainers=False",
			"AllContainersRestarting=True", "AllContainersRestarting=False")
	})
}

// TestRuntimeHelpersAgainstUpstream compares kubecontainer.ShouldContainerBeRestarted
// on the derived runtime status with restart.ShouldRestartInstance fed by the view's
// newest instance.
func TestRuntimeHelpersAgainstUpstream(t *testing.T) {
	gatesets.Run(t, gateSets, func(t *testing.T, gs gatesets.Set) {
		opts := lifecycle.Options{Features: gs.Features()}
		s := seed(t)
		g := gen{rand.New(rand.NewSource(s + 2))}
		rt := upstreamkubelet.New(t)
		n, disagreements := count(t), 0
		var cov coverage.Counts
		for i := 0; i < n; i++ {
			pod := g.pod()
			v := g.view(pod)
			ps, _ := rt.PodStatus(t, pod, &v, false)
			for _, c := range append(append([]v1.Container{}, pod.Spec.InitContainers...), pod.Spec.Containers...) {
				want := kubecontainer.ShouldContainerBeRestarted(klogDiscard(), &c, pod, ps)
				inst, ok := v.Newest(c.Name)
				var ip *restart.Instance
				if ok {
					ip = &inst
				}
				got := restart.ShouldRestartInstance(pod, &c, ip, opts)
				cov.Addf("%s/%t", got.Basis(), want)
				if want != got.Restart {
					disagreements++
					t.Errorf("seed %d input %d ShouldContainerBeRestarted(%s): upstream %t podlife %t\n%+v", s, i, c.Name, want, got.Restart, v.Instances)
				}
			}
			if disagreements > 5 {
				t.FailNow()
			}
		}
		t.Logf("ShouldContainerBeRestarted: %d checks over %d inputs, %d disagreements (seed %d); by basis %s", cov.Total(), n, disagreements, s, &cov)
		restarts, keeps := 0, 0
		for _, k := range cov.Keys() {
			if k[len(k)-4:] == "true" {
				restarts += cov.Get(k)
			} else {
				keeps += cov.Get(k)
			}
		}
		coverage.RequireShare(t, "containers restarted", restarts, cov.Total(), 0.1)
		coverage.RequireShare(t, "containers kept", keeps, cov.Total(), 0.1)
	})
}
