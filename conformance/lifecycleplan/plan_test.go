package lifecycleplan

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"

	"go.opentelemetry.io/otel/trace/noop"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/record"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	apitest "k8s.io/cri-api/pkg/apis/testing"
	kubecontainer "k8s.io/kubernetes/pkg/kubelet/container"
	containertest "k8s.io/kubernetes/pkg/kubelet/container/testing"
	proberesults "k8s.io/kubernetes/pkg/kubelet/prober/results"
	"k8s.io/kubernetes/pkg/kubelet/status"

	"github.com/podlife/podlife/conformance/internal/gatesets"
	"github.com/podlife/podlife/lifecycle"
	"github.com/podlife/podlife/restart"
)

const defaultSeed = 20260101

func seed(t testing.TB) int64 {
	if s := os.Getenv("PODLIFE_SEED"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t.Fatalf("PODLIFE_SEED: %v", err)
		}
		return n
	}
	return defaultSeed
}

func count() int {
	if s := os.Getenv("PODLIFE_COUNT"); s != "" {
		if n, err := strconv.Atoi(s); err == nil {
			return n
		}
	}
	return 10000
}

// gen builds random pods and runtime views.
type gen struct{ r *rand.Rand }

var (
	always    = v1.ContainerRestartPolicyAlways
	onFailure = v1.ContainerRestartPolicyOnFailure
	never     = v1.ContainerRestartPolicyNever
)

func (g gen) pick(n int) int { return g.r.Intn(n) }

func (g gen) rules() []v1.ContainerRestartRule {
	var out []v1.ContainerRestartRule
	for i := g.pick(3); i > 0; i-- {
		op := v1.ContainerRestartRuleOnExitCodesOpIn
		if g.pick(3) == 0 {
			op = v1.ContainerRestartRuleOnExitCodesOpNotIn
		}
		action := v1.ContainerRestartRuleActionRestart
		if g.pick(2) == 0 {
			action = v1.ContainerRestartRuleActionRestartAllContainers
		}
		out = append(out, v1.ContainerRestartRule{Action: action, ExitCodes: &v1.ContainerRestartRuleOnExitCodes{Operator: op, Values: []int32{int32(g.pick(3)), 42}}})
	}
	return out
}

func (g gen) containerPolicy() *v1.ContainerRestartPolicy {
	switch g.pick(5) {
	case 0:
		return &always
	case 1:
		return &onFailure
	case 2:
		return &never
	}
	return nil
}

func (g gen) pod() *v1.Pod {
	pod := &v1.Pod{}
	pod.Name, pod.Namespace, pod.UID = "p", "ns", "uid"
	pod.Generation = int64(g.pick(3))
	pod.Spec.RestartPolicy = []v1.RestartPolicy{v1.RestartPolicyAlways, v1.RestartPolicyOnFailure, v1.RestartPolicyNever, ""}[g.pick(4)]
	pod.Spec.HostNetwork = g.pick(6) == 0
	if g.pick(10) == 0 {
		pod.DeletionTimestamp = &metav1.Time{Time: time.Unix(100, 0)}
	}
	for i := g.pick(4); i > 0; i-- {
		c := v1.Container{Name: "init" + strconv.Itoa(len(pod.Spec.InitContainers)), Image: "img"}
		if g.pick(2) == 0 {
			c.RestartPolicy = &always
			if g.pick(2) == 0 {
				c.StartupProbe = &v1.Probe{}
			}
			if g.pick(2) == 0 {
				c.LivenessProbe = &v1.Probe{}
			}
		} else {
			c.RestartPolicy = g.containerPolicy()
			if c.RestartPolicy != nil && *c.RestartPolicy == always {
				c.RestartPolicy = nil
			}
		}
		if c.RestartPolicy != nil {
			c.RestartPolicyRules = g.rules()
		}
		pod.Spec.InitContainers = append(pod.Spec.InitContainers, c)
	}
	for i := 1 + g.pick(3); i > 0; i-- {
		c := v1.Container{Name: "app" + strconv.Itoa(len(pod.Spec.Containers)), Image: "img"}
		c.RestartPolicy = g.containerPolicy()
		if c.RestartPolicy != nil {
			c.RestartPolicyRules = g.rules()
		}
		pod.Spec.Containers = append(pod.Spec.Containers, c)
	}
	for i := g.pick(3) / 2; i > 0; i-- {
		pod.Spec.EphemeralContainers = append(pod.Spec.EphemeralContainers, v1.EphemeralContainer{EphemeralContainerCommon: v1.EphemeralContainerCommon{Name: "debug" + strconv.Itoa(i), Image: "img"}})
	}
	if g.pick(3) == 0 {
		st := v1.ConditionFalse
		if g.pick(2) == 0 {
			st = v1.ConditionTrue
		}
		pod.Status.Conditions = []v1.PodCondition{{Type: v1.AllContainersRestarting, Status: st}}
	}
	if g.pick(3) == 0 {
		for _, c := range pod.Spec.Containers {
			cs := v1.ContainerStatus{Name: c.Name}
			if g.pick(2) == 0 {
				cs.State.Terminated = &v1.ContainerStateTerminated{ExitCode: int32(g.pick(3)) * 21}
			} else {
				cs.State.Running = &v1.ContainerStateRunning{}
			}
			pod.Status.ContainerStatuses = append(pod.Status.ContainerStatuses, cs)
		}
	}
	return pod
}

var probeResults = []restart.ProbeResult{restart.ProbeNone, restart.ProbeSuccess, restart.ProbeFailure, restart.ProbeUnknown}

func (g gen) view(pod *v1.Pod) restart.View {
	var v restart.View
	for i := g.pick(4); i > 0; i-- {
		sb := restart.Sandbox{ID: "sb" + strconv.Itoa(len(v.Sandboxes)), Ready: g.pick(3) != 0, Attempt: uint32(g.pick(3)), HostNetwork: g.pick(5) == 0}
		switch g.pick(4) {
		case 0:
		case 1:
			sb.Network = &restart.SandboxNetwork{}
		default:
			sb.Network = &restart.SandboxNetwork{IP: "10.0.0." + strconv.Itoa(1+g.pick(9))}
		}
		if pod.Spec.HostNetwork && g.pick(3) != 0 {
			sb.HostNetwork = true
		}
		v.Sandboxes = append(v.Sandboxes, sb)
	}
	if g.pick(10) < 7 {
		// Most inputs have a healthy current sandbox, so that the container logic runs.
		good := restart.Sandbox{ID: "sb-current", Ready: true, Attempt: uint32(g.pick(3)), HostNetwork: pod.Spec.HostNetwork}
		if !pod.Spec.HostNetwork {
			good.Network = &restart.SandboxNetwork{IP: "10.0.0.100"}
		}
		for i := range v.Sandboxes {
			v.Sandboxes[i].Ready = false
		}
		v.Sandboxes = append([]restart.Sandbox{good}, v.Sandboxes...)
	}
	var names []string
	for _, c := range pod.Spec.InitContainers {
		names = append(names, c.Name)
	}
	for _, c := range pod.Spec.Containers {
		names = append(names, c.Name)
	}
	for _, c := range pod.Spec.EphemeralContainers {
		names = append(names, c.Name)
	}
	states := []restart.State{restart.StateCreated, restart.StateRunning, restart.StateExited, restart.StateExited, restart.StateUnknown}
	for i := g.pick(2 * (len(names) + 1)); i > 0; i-- {
		inst := restart.Instance{
			Name:        names[g.pick(len(names))],
			ID:          "cri://c" + strconv.Itoa(len(v.Instances)),
			State:       states[g.pick(len(states))],
			ExitCode:    []int32{0, 0, 1, 2, 42, 137}[g.pick(6)],
			SpecChanged: g.pick(8) == 0,
			Liveness:    probeResults[g.pick(4)],
			Startup:     probeResults[g.pick(4)],
		}
		if g.pick(10) == 0 {
			inst.Reason = "OOMKilled"
		}
		if len(v.Sandboxes) > 0 {
			inst.Sandbox = v.Sandboxes[g.pick(len(v.Sandboxes))].ID
			if g.pick(2) == 0 {
				inst.Sandbox = v.Sandboxes[0].ID
			}
		}
		v.Instances = append(v.Instances, inst)
	}
	return v
}

// runtimeStatus converts a view to the kubelet's kubecontainer.PodStatus, as
// kuberuntime's GetPodStatus builds it.
func runtimeStatus(pod *v1.Pod, v *restart.View) *kubecontainer.PodStatus {
	ps := &kubecontainer.PodStatus{ID: pod.UID, Name: pod.Name, Namespace: pod.Namespace}
	for _, sb := range v.Sandboxes {
		st := &runtimeapi.PodSandboxStatus{Id: sb.ID, Metadata: &runtimeapi.PodSandboxMetadata{Attempt: sb.Attempt}, State: runtimeapi.PodSandboxState_SANDBOX_NOTREADY}
		if sb.Ready {
			st.State = runtimeapi.PodSandboxState_SANDBOX_READY
		}
		if sb.HostNetwork {
			st.Linux = &runtimeapi.LinuxPodSandboxStatus{Namespaces: &runtimeapi.Namespace{Options: &runtimeapi.NamespaceOption{Network: runtimeapi.NamespaceMode_NODE}}}
		}
		if sb.Network != nil {
			st.Network = &runtimeapi.PodSandboxNetworkStatus{Ip: sb.Network.IP}
		}
		ps.SandboxStatuses = append(ps.SandboxStatuses, st)
	}
	active := ""
	if len(v.Sandboxes) > 0 && v.Sandboxes[0].Ready {
		active = v.Sandboxes[0].ID
	}
	for _, inst := range v.Instances {
		st := &kubecontainer.Status{ID: containerID(inst.ID), Name: inst.Name, ExitCode: int(inst.ExitCode), Reason: inst.Reason, FinishedAt: inst.FinishedAt}
		st.State = kubecontainer.State(inst.State)
		if c := spec(pod, inst.Name); c != nil {
			st.Hash = kubecontainer.HashContainer(c)
			if inst.SpecChanged {
				st.Hash++
			}
		}
		ps.ContainerStatuses = append(ps.ContainerStatuses, st)
		if active != "" && (inst.Sandbox == "" || inst.Sandbox == active) {
			ps.ActiveContainerStatuses = append(ps.ActiveContainerStatuses, st)
		}
	}
	return ps
}

// containerID splits "type://id" as kubecontainer.ParseContainerID does, keeping
// an ID without a type whole.
func containerID(s string) kubecontainer.ContainerID {
	if t, id, ok := strings.Cut(s, "://"); ok {
		return kubecontainer.ContainerID{Type: t, ID: id}
	}
	return kubecontainer.ContainerID{ID: s}
}

func spec(pod *v1.Pod, name string) *v1.Container {
	for i := range pod.Spec.InitContainers {
		if pod.Spec.InitContainers[i].Name == name {
			return &pod.Spec.InitContainers[i]
		}
	}
	for i := range pod.Spec.Containers {
		if pod.Spec.Containers[i].Name == name {
			return &pod.Spec.Containers[i]
		}
	}
	for i := range pod.Spec.EphemeralContainers {
		if pod.Spec.EphemeralContainers[i].Name == name {
			return (*v1.Container)(&pod.Spec.EphemeralContainers[i].EphemeralContainerCommon)
		}
	}
	return nil
}

// newManager returns a fresh fake kuberuntime manager and its probe result caches.
func newManager(t testing.TB) (unsafe.Pointer, proberesults.Manager, proberesults.Manager) {
	ctx := context.Background()
	m, err := newFakeKubeRuntimeManager(ctx, apitest.NewFakeRuntimeService(), apitest.NewFakeImageService(), nil,
		&containertest.FakeOS{}, &containertest.FakeRuntimeHelper{}, noop.NewTracerProvider().Tracer(""), &record.FakeRecorder{})
	if err != nil {
		t.Fatal(err)
	}
	prefix := (*managerPrefix)(m)
	// The result caches publish changes on a bounded channel; drain them.
	for _, rm := range []proberesults.Manager{prefix.livenessManager, prefix.startupManager} {
		go func(updates <-chan proberesults.Update) {
			for range updates {
			}
		}(rm.Updates())
	}
	return m, prefix.livenessManager, prefix.startupManager
}

// comparable forms of both answers.
type plan struct {
	KillPod, CreateSandbox bool
	SandboxID              string
	Attempt                uint32
	Init, Regular, Eph     []int
	Kills                  []string
	Resets                 []string
}

func ours(a lifecycle.PodActions) plan {
	p := plan{KillPod: a.KillPod, CreateSandbox: a.CreateSandbox, SandboxID: a.SandboxID, Attempt: a.Attempt}
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

func theirs(a upstreamActions) plan {
	p := plan{KillPod: a.KillPod, CreateSandbox: a.CreateSandbox, SandboxID: a.SandboxID, Attempt: a.Attempt,
		Init: a.InitContainersToStart, Regular: a.ContainersToStart, Eph: a.EphemeralContainersToStart}
	if len(p.Regular) == 0 {
		p.Regular = nil
	}
	for id, k := range a.ContainersToKill {
		p.Kills = append(p.Kills, fmt.Sprintf("%s|%s|%s|%s", id.String(), k.name, k.reason, k.message))
	}
	sort.Strings(p.Kills)
	for _, r := range a.ContainersToReset {
		p.Resets = append(p.Resets, fmt.Sprintf("%s|%s|%t", r.containerID.String(), r.container.Name, r.kill))
	}
	return p
}

func TestComputePodActionsAgainstUpstream(t *testing.T) {
	gatesets.Run(t, gatesets.Standard(), func(t *testing.T, gs gatesets.Set) {
		opts := lifecycle.Options{Features: gs.Features()}
		s := seed(t)
		g := gen{rand.New(rand.NewSource(s))}
		m, liveness, startup := newManager(t)
		ctx := context.Background()
		n, disagreements := count(), 0
		var cover struct{ killPod, create, inits, regular, eph, kills, resets, nothing int }
		for i := 0; i < n; i++ {
			pod := g.pod()
			v := g.view(pod)
			restartAll := g.pick(4) == 0
			ps := runtimeStatus(pod, &v)
			for _, inst := range v.Instances {
				id := containerID(inst.ID)
				for _, pr := range []struct {
					m proberesults.Manager
					r restart.ProbeResult
				}{{liveness, inst.Liveness}, {startup, inst.Startup}} {
					switch pr.r {
					case restart.ProbeSuccess:
						pr.m.Set(id, proberesults.Success, pod)
					case restart.ProbeFailure:
						pr.m.Set(id, proberesults.Failure, pod)
					case restart.ProbeUnknown:
						pr.m.Set(id, proberesults.Unknown, pod)
					}
				}
			}
			want := theirs(computePodActions(m, ctx, pod, ps, restartAll))
			got := ours(lifecycle.ComputePodActions(pod, &v, restartAll, opts))
			for _, inst := range v.Instances {
				id := containerID(inst.ID)
				liveness.Remove(id)
				startup.Remove(id)
			}
			switch {
			case want.CreateSandbox:
				cover.create++
			case want.KillPod:
				cover.killPod++
			case len(want.Resets) > 0:
				cover.resets++
			case len(want.Kills) > 0:
				cover.kills++
			case len(want.Init) > 0:
				cover.inits++
			case len(want.Regular) > 0:
				cover.regular++
			case len(want.Eph) > 0:
				cover.eph++
			default:
				cover.nothing++
			}
			if fmt.Sprint(want) != fmt.Sprint(got) {
				disagreements++
				if disagreements <= 3 {
					t.Errorf("seed %d input %d: restartAll=%t\npod spec: %+v\nview: %+v\nupstream: %+v\npodlife:  %+v", s, i, restartAll, pod.Spec, v, want, got)
				}
			}
		}
		t.Logf("computePodActions: %d inputs, %d disagreements (seed %d); outcomes %+v", n, disagreements, s, cover)
	})
}

func TestConditionsAgainstUpstream(t *testing.T) {
	gatesets.Run(t, gatesets.Standard(), func(t *testing.T, gs gatesets.Set) {
		opts := lifecycle.Options{Features: gs.Features()}
		s := seed(t)
		g := gen{rand.New(rand.NewSource(s + 1))}
		n, disagreements := count(), 0
		phases := []v1.PodPhase{v1.PodPending, v1.PodRunning, v1.PodSucceeded, v1.PodFailed}
		for i := 0; i < n; i++ {
			pod := g.pod()
			v := g.view(pod)
			ps := runtimeStatus(pod, &v)
			phase := phases[g.pick(4)]
			old := pod.Status.DeepCopy()

			want := status.GeneratePodReadyToStartContainersCondition(pod, old, ps)
			got := lifecycle.PodReadyToStartContainersCondition(pod, &v, opts)
			if want != got {
				disagreements++
				t.Errorf("seed %d input %d PodReadyToStartContainers:\n%+v\nupstream %+v\npodlife  %+v", s, i, v.Sandboxes, want, got)
			}

			want = status.GenerateAllContainersRestartingCondition(pod, ps, old, phase)
			got, _ = lifecycle.AllContainersRestartingCondition(pod, &v, phase, opts)
			if want != got {
				disagreements++
				t.Errorf("seed %d input %d AllContainersRestarting (%s):\n%+v\nupstream %+v\npodlife  %+v", s, i, phase, v.Instances, want, got)
			}
			if disagreements > 5 {
				t.FailNow()
			}
		}
		t.Logf("conditions: %d inputs × 2 conditions, %d disagreements (seed %d)", n, disagreements, s)
	})
}

func TestRuntimeHelpersAgainstUpstream(t *testing.T) {
	gatesets.Run(t, gatesets.Standard(), func(t *testing.T, gs gatesets.Set) {
		opts := lifecycle.Options{Features: gs.Features()}
		s := seed(t)
		g := gen{rand.New(rand.NewSource(s + 2))}
		n, disagreements, checks := count(), 0, 0
		for i := 0; i < n; i++ {
			pod := g.pod()
			v := g.view(pod)
			ps := runtimeStatus(pod, &v)
			// ShouldContainerBeRestarted for every container, through the plan's view of the
			// newest instance (restart.ShouldRestartInstance fed by View.Newest).
			for _, c := range append(append([]v1.Container{}, pod.Spec.InitContainers...), pod.Spec.Containers...) {
				want := kubecontainer.ShouldContainerBeRestarted(klogDiscard(), &c, pod, ps)
				inst, ok := v.Newest(c.Name)
				var ip *restart.Instance
				if ok {
					ip = &inst
				}
				got := restart.ShouldRestartInstance(pod, &c, ip, opts).Restart
				checks++
				if want != got {
					disagreements++
					t.Errorf("seed %d input %d ShouldContainerBeRestarted(%s): upstream %t podlife %t\n%+v", s, i, c.Name, want, got, v.Instances)
				}
			}
			if disagreements > 5 {
				t.FailNow()
			}
		}
		t.Logf("ShouldContainerBeRestarted: %d checks over %d inputs, %d disagreements (seed %d)", checks, n, disagreements, s)
	})
}
