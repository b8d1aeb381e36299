package lifecycleplan

import (
	"math/rand"
	"strconv"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podlife/podlife/conformance/internal/gatesets"
	"github.com/podlife/podlife/conformance/internal/podshapes"
	"github.com/podlife/podlife/conformance/internal/runenv"
	"github.com/podlife/podlife/conformance/internal/upstreamkubelet"
	"github.com/podlife/podlife/restart"
)

const defaultSeed = 20260101

// inputsPerSet is the number of generated inputs each differential test compares per
// gate set (PODLIFE_N overrides it); minInputs is the fewest with which every asserted
// branch is still reached.
const (
	inputsPerSet = 6000
	minInputs    = 1500
)

func seed(t testing.TB) int64 { return int64(runenv.Seed(t, defaultSeed)) }

func count(t testing.TB) int { return runenv.Count(t, inputsPerSet, minInputs) }

// gateSets are the standard sets and restart-all turned off alone.
var gateSets = gatesets.Standard(
	gatesets.Set{Name: "RestartAllContainersOnContainerExits=false", Overrides: map[string]bool{"RestartAllContainersOnContainerExits": false}},
)

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

// probe returns nil or a defaulted-looking probe (the kubelet sees defaulted pods).
func (g gen) probe(chance int) *v1.Probe {
	if g.pick(chance) != 0 {
		return nil
	}
	return &v1.Probe{ProbeHandler: v1.ProbeHandler{Exec: &v1.ExecAction{Command: []string{"true"}}},
		TimeoutSeconds: 1, PeriodSeconds: int32(1 + g.pick(10)), SuccessThreshold: 1, FailureThreshold: 3}
}

var quantities = []string{"1m", "2m", "10m", "100m", "250m", "1", "1500m", "4Mi", "64Mi", "128Mi", "1Gi", "0"}

func (g gen) list(names ...v1.ResourceName) v1.ResourceList {
	if g.pick(4) == 0 {
		return nil
	}
	l := v1.ResourceList{}
	for _, n := range names {
		if g.pick(3) != 0 {
			l[n] = resource.MustParse(quantities[g.pick(len(quantities))])
		}
	}
	return l
}

// resources gives a container nothing, requests, limits or both, cpu and memory mostly,
// sometimes other resources; limits equal to requests a third of the time.
func (g gen) resources() v1.ResourceRequirements {
	var r v1.ResourceRequirements
	if g.pick(4) == 0 {
		return r
	}
	names := []v1.ResourceName{v1.ResourceCPU, v1.ResourceMemory}
	if g.pick(5) == 0 {
		names = append(names, v1.ResourceEphemeralStorage, "example.com/gpu")
	}
	r.Requests = g.list(names...)
	switch g.pick(3) {
	case 0:
		r.Limits = r.Requests.DeepCopy()
	case 1:
		r.Limits = g.list(names...)
	}
	return r
}

func (g gen) resizePolicy() []v1.ContainerResizePolicy {
	if g.pick(5) != 0 {
		return nil
	}
	return []v1.ContainerResizePolicy{{ResourceName: v1.ResourceCPU, RestartPolicy: v1.NotRequired},
		{ResourceName: v1.ResourceMemory, RestartPolicy: []v1.ResourceResizeRestartPolicy{v1.NotRequired, v1.RestartContainer}[g.pick(2)]}}
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
			c.StartupProbe, c.LivenessProbe, c.ReadinessProbe = g.probe(2), g.probe(2), g.probe(2)
		} else {
			c.RestartPolicy = g.containerPolicy()
			if c.RestartPolicy != nil && *c.RestartPolicy == always {
				c.RestartPolicy = nil
			}
		}
		if c.RestartPolicy != nil {
			c.RestartPolicyRules = g.rules()
		}
		c.Resources, c.ResizePolicy = g.resources(), g.resizePolicy()
		pod.Spec.InitContainers = append(pod.Spec.InitContainers, c)
	}
	for i := 1 + g.pick(3); i > 0; i-- {
		c := v1.Container{Name: "app" + strconv.Itoa(len(pod.Spec.Containers)), Image: "img"}
		c.RestartPolicy = g.containerPolicy()
		if c.RestartPolicy != nil {
			c.RestartPolicyRules = g.rules()
		}
		c.StartupProbe, c.LivenessProbe, c.ReadinessProbe = g.probe(3), g.probe(3), g.probe(2)
		c.Resources, c.ResizePolicy = g.resources(), g.resizePolicy()
		pod.Spec.Containers = append(pod.Spec.Containers, c)
	}
	for i := g.pick(5) / 2; i > 0; i-- {
		pod.Spec.EphemeralContainers = append(pod.Spec.EphemeralContainers, v1.EphemeralContainer{EphemeralContainerCommon: v1.EphemeralContainerCommon{Name: "debug" + strconv.Itoa(i), Image: "img"}})
	}
	if g.pick(6) == 0 {
		pod.Spec.Resources = &v1.ResourceRequirements{Requests: g.list(v1.ResourceCPU, v1.ResourceMemory), Limits: g.list(v1.ResourceCPU, v1.ResourceMemory)}
	}
	if g.pick(3) == 0 {
		st := v1.ConditionFalse
		if g.pick(2) == 0 {
			st = v1.ConditionTrue
		}
		pod.Status.Conditions = []v1.PodCondition{{Type: v1.AllContainersRestarting, Status: st}}
	}
	if g.pick(4) == 0 {
		pod.Status.Conditions = append(pod.Status.Conditions, v1.PodCondition{Type: v1.PodReady, Status: []v1.ConditionStatus{v1.ConditionTrue, v1.ConditionFalse}[g.pick(2)]})
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

// view returns a runtime view in the runtime's order: sandboxes by attempt, newest
// first, and instances newest first, with IDs of the fake runtime.
func (g gen) view(pod *v1.Pod) restart.View {
	var v restart.View
	n := g.pick(4)
	attempt := uint32(g.pick(4) + n)
	for i := 0; i < n; i++ {
		sb := restart.Sandbox{ID: "sb" + strconv.Itoa(len(v.Sandboxes)), Ready: g.pick(3) != 0, Attempt: attempt, HostNetwork: g.pick(5) == 0}
		if g.pick(3) != 0 && attempt > 0 {
			attempt--
		}
		switch g.pick(4) {
		case 0:
		case 1:
			sb.Network = &restart.SandboxNetwork{}
		default:
			sb.Network = &restart.SandboxNetwork{IP: "10.0.0." + strconv.Itoa(1+g.pick(9))}
			if g.pick(4) == 0 {
				sb.Network.AdditionalIPs = []string{"fd00::" + strconv.Itoa(1+g.pick(9))}
			}
		}
		if pod.Spec.HostNetwork && g.pick(3) != 0 {
			sb.HostNetwork = true
		}
		v.Sandboxes = append(v.Sandboxes, sb)
	}
	if g.pick(10) < 7 {
		// Most inputs have a healthy current sandbox, so that the container logic runs.
		good := restart.Sandbox{ID: "sb-current", Ready: true, HostNetwork: pod.Spec.HostNetwork}
		if len(v.Sandboxes) > 0 {
			good.Attempt = v.Sandboxes[0].Attempt + uint32(g.pick(2))
		}
		if !pod.Spec.HostNetwork {
			good.Network = &restart.SandboxNetwork{IP: "10.0.0.100"}
		}
		for i := range v.Sandboxes {
			v.Sandboxes[i].Ready = false
		}
		v.Sandboxes = append([]restart.Sandbox{good}, v.Sandboxes...)
	}
	names := podshapes.ContainerNames(pod)
	if g.pick(20) == 0 {
		names = append(names, "stray")
	}
	states := []restart.State{restart.StateCreated, restart.StateRunning, restart.StateRunning, restart.StateExited, restart.StateExited, restart.StateUnknown}
	t0 := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	for i := g.pick(2 * (len(names) + 1)); i > 0; i-- {
		inst := restart.Instance{
			Name:        names[g.pick(len(names))],
			ID:          upstreamkubelet.InstanceID(len(v.Instances)),
			State:       states[g.pick(len(states))],
			ExitCode:    []int32{0, 0, 1, 2, 42, 137}[g.pick(6)],
			SpecChanged: g.pick(8) == 0,
			Liveness:    probeResults[g.pick(4)],
			Startup:     probeResults[g.pick(4)],
			Readiness:   probeResults[g.pick(4)],
		}
		if g.pick(10) == 0 {
			inst.Reason = "OOMKilled"
		}
		if g.pick(30) == 0 {
			inst.State = "bogus" // read as unknown
		}
		if len(v.Sandboxes) > 0 {
			inst.Sandbox = v.Sandboxes[g.pick(len(v.Sandboxes))].ID
			if g.pick(2) == 0 {
				inst.Sandbox = v.Sandboxes[0].ID
			}
			if g.pick(4) == 0 {
				inst.Sandbox = ""
			}
		}
		inst.StartedAt = t0.Add(-time.Duration(len(v.Instances)*100+g.pick(100)) * time.Second)
		inst.FinishedAt = inst.StartedAt.Add(time.Duration(g.pick(100)) * time.Second)
		v.Instances = append(v.Instances, inst)
	}
	return v
}
