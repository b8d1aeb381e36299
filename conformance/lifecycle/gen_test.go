package lifecycle

import (
	"math/rand/v2"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podlife/podlife/conformance/internal/runenv"
)

// defaultSeed is the seed of a normal run; PODLIFE_SEED overrides it.
const defaultSeed = 20260237

func seed(t testing.TB) uint64 { return runenv.Seed(t, defaultSeed) }

// numPods is the number of generated pods each differential test compares per gate set
// (PODLIFE_N overrides it, down to minPods, the fewest with which every asserted branch
// is still reached).
const (
	numPods = 10000
	minPods = 2000
)

func podCount(t testing.TB) int { return runenv.Count(t, numPods, minPods) }

type gen struct {
	r *rand.Rand
	// now is the instant timestamps are made relative to.
	now time.Time
	// finished makes coherent statuses those of a pod whose containers have all exited.
	finished bool
}

func newGen(s uint64, now time.Time) *gen {
	return &gen{r: rand.New(rand.NewPCG(s, s^0x9e3779b97f4a7c15)), now: now}
}

func (g *gen) pick(n int) int    { return g.r.IntN(n) }
func (g *gen) chance(n int) bool { return g.r.IntN(n) == 0 }

func pickOf[T any](g *gen, xs ...T) T { return xs[g.r.IntN(len(xs))] }

// Name pools are small so that statuses, duplicates and unknown names collide often.
var (
	initNames    = []string{"init-a", "init-b", "side-1", "side-2", "setup", "proxy"}
	mainNames    = []string{"app", "web", "worker", "side-1", "db", ""}
	gateTypes    = []corev1.PodConditionType{"example.com/gate1", "example.com/gate2", "gate3", corev1.PodInitialized, corev1.DisruptionTarget}
	waitReasons  = []string{"", "", "PodInitializing", "ContainerCreating", "CrashLoopBackOff", "ImagePullBackOff", "ErrImagePull", "RestartingAllContainers", "CreateContainerConfigError"}
	termReasons  = []string{"", "", "Completed", "Error", "OOMKilled", "RestartingAllContainers", "ContainerStatusUnknown", "Signal"}
	exitCodes    = []int32{0, 0, 0, 1, 2, 42, 137, 143, -1}
	podReasons   = []string{"", "", "", "NodeLost", "DeadlineExceeded", "Evicted", "UnexpectedAdmissionError"}
	phases       = []corev1.PodPhase{corev1.PodPending, corev1.PodRunning, corev1.PodSucceeded, corev1.PodFailed, corev1.PodUnknown, "", "podPhase"}
	condStatuses = []corev1.ConditionStatus{corev1.ConditionTrue, corev1.ConditionTrue, corev1.ConditionFalse, corev1.ConditionUnknown, ""}
)

// offset returns a duration to subtract from now for a timestamp: whole seconds plus
// 500ms so that a printer reading its own clock a little later rounds the same way. Some
// are in the future (negative), most in the past, over every unit HumanDuration uses.
func (g *gen) offset() time.Duration {
	var s int64
	switch g.pick(8) {
	case 0:
		s = -g.r.Int64N(5) // future: "0s" or "<invalid>"
	case 1:
		s = g.r.Int64N(130)
	case 2:
		s = g.r.Int64N(11 * 60)
	case 3:
		s = g.r.Int64N(4 * 3600)
	case 4:
		s = g.r.Int64N(9 * 86400)
	case 5:
		s = g.r.Int64N(3 * 365 * 86400)
	case 6:
		s = g.r.Int64N(10 * 365 * 86400)
	default:
		s = pickOf(g, int64(120), 600, 3*3600, 8*3600, 48*3600, 8*86400, 2*365*86400, 8*365*86400)
	}
	return time.Duration(s)*time.Second - 500*time.Millisecond
}

func (g *gen) time() metav1.Time {
	if g.chance(10) {
		return metav1.Time{}
	}
	return metav1.NewTime(g.now.Add(-g.offset()))
}

func (g *gen) restartPolicy(sidecarLikely bool) *corev1.ContainerRestartPolicy {
	n := 6
	if sidecarLikely {
		n = 3
	}
	switch g.pick(n) {
	case 0:
		p := corev1.ContainerRestartPolicyAlways
		return &p
	case 1:
		p := pickOf(g, corev1.ContainerRestartPolicyOnFailure, corev1.ContainerRestartPolicyNever, "Bogus")
		return &p
	}
	return nil
}

func (g *gen) rules() []corev1.ContainerRestartRule {
	if !g.chance(3) {
		return nil
	}
	var rules []corev1.ContainerRestartRule
	for range g.pick(3) + 1 {
		r := corev1.ContainerRestartRule{Action: pickOf(g, corev1.ContainerRestartRuleActionRestart, corev1.ContainerRestartRuleActionRestartAllContainers, "Other")}
		if !g.chance(6) {
			r.ExitCodes = &corev1.ContainerRestartRuleOnExitCodes{
				Operator: pickOf(g, corev1.ContainerRestartRuleOnExitCodesOpIn, corev1.ContainerRestartRuleOnExitCodesOpNotIn, "Bad"),
			}
			for range g.pick(3) {
				r.ExitCodes.Values = append(r.ExitCodes.Values, pickOf(g, exitCodes...))
			}
		}
		rules = append(rules, r)
	}
	return rules
}

func (g *gen) probe() *corev1.Probe {
	if !g.chance(3) {
		return nil
	}
	p := &corev1.Probe{}
	if g.chance(2) {
		s := pickOf(g, int64(0), 1, 5, 10, 60)
		p.TerminationGracePeriodSeconds = &s
	}
	return p
}

var quantities = []string{"1m", "100m", "250m", "1", "2", "64Mi", "128Mi", "1Gi", "0"}

// resources returns nothing, requests, limits or both over cpu, memory and sometimes
// other resources.
func (g *gen) resources() corev1.ResourceRequirements {
	list := func() corev1.ResourceList {
		if g.chance(3) {
			return nil
		}
		l := corev1.ResourceList{}
		for _, n := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory, corev1.ResourceEphemeralStorage, "example.com/gpu"} {
			if g.chance(2) {
				l[n] = resource.MustParse(pickOf(g, quantities...))
			}
		}
		return l
	}
	var r corev1.ResourceRequirements
	switch g.pick(4) {
	case 0:
	case 1:
		r.Requests = list()
	case 2:
		r.Limits = list()
	default:
		r.Requests = list()
		r.Limits = r.Requests.DeepCopy()
	}
	return r
}

func (g *gen) container(name string, init bool) corev1.Container {
	c := corev1.Container{Name: name, Image: "img", Resources: g.resources()}
	c.RestartPolicy = g.restartPolicy(init)
	if c.RestartPolicy != nil {
		c.RestartPolicyRules = g.rules()
	}
	c.StartupProbe = g.probe()
	c.LivenessProbe = g.probe()
	if g.chance(4) {
		c.Lifecycle = &corev1.Lifecycle{PreStop: &corev1.LifecycleHandler{Sleep: &corev1.SleepAction{Seconds: 1}}}
	}
	return c
}

func (g *gen) state(allowEmpty bool) corev1.ContainerState {
	switch g.pick(5) {
	case 0:
		if allowEmpty {
			return corev1.ContainerState{}
		}
		fallthrough
	case 1:
		return corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: pickOf(g, waitReasons...)}}
	case 2:
		return corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: g.time()}}
	}
	t := &corev1.ContainerStateTerminated{ExitCode: pickOf(g, exitCodes...), Reason: pickOf(g, termReasons...), FinishedAt: g.time()}
	if g.chance(4) {
		t.Signal = pickOf(g, int32(9), 15)
	}
	return corev1.ContainerState{Terminated: t}
}

func (g *gen) status(name string) corev1.ContainerStatus {
	s := corev1.ContainerStatus{Name: name, Image: "img", State: g.state(true)}
	if g.chance(2) {
		s.LastTerminationState = corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{
			ExitCode: pickOf(g, exitCodes...), Reason: pickOf(g, termReasons...), FinishedAt: g.time(),
		}}
	}
	s.Ready = g.chance(2)
	switch g.pick(3) {
	case 0:
		v := true
		s.Started = &v
	case 1:
		v := false
		s.Started = &v
	}
	if !g.chance(3) {
		s.RestartCount = int32(g.pick(8))
	}
	if g.chance(3) {
		r := g.resources()
		s.Resources = &r
		s.AllocatedResources = r.Requests
	}
	if g.chance(50) {
		s.RestartCount = int32(g.r.Int32())
	}
	return s
}

// statuses gives most containers a status, some none, some extra or duplicated ones, in
// spec order or shuffled; the list is nil, empty or filled.
func (g *gen) statuses(cs []corev1.Container, extra []string, coherent, isInit bool) []corev1.ContainerStatus {
	if coherent {
		// One status per container, in spec order, shaped like a kubelet's: init
		// containers mostly done, sidecars mostly started.
		out := make([]corev1.ContainerStatus, 0, len(cs))
		for _, c := range cs {
			s := g.status(c.Name)
			sidecar := c.RestartPolicy != nil && *c.RestartPolicy == corev1.ContainerRestartPolicyAlways
			switch {
			case g.finished && (!isInit || sidecar):
				// The pod's work is over: containers and sidecars have exited.
				s.State = corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: pickOf(g, int32(0), 0, 0, 1, 137), FinishedAt: g.time()}}
			case isInit && !sidecar && !g.chance(4):
				s.State = corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{Reason: "Completed", FinishedAt: g.time()}}
			case !isInit && g.chance(6):
				// One container done, the others running: kubectl's NotReady and Running.
				s.State = corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{Reason: "Completed", FinishedAt: g.time()}}
			case !g.chance(3):
				s.State = corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: g.time()}}
			}
			s.Ready = (s.State.Running != nil && !g.chance(4)) || (isInit && !sidecar && s.State.Terminated != nil && s.State.Terminated.ExitCode == 0)
			if s.State.Running != nil {
				started := s.Ready || !g.chance(3)
				s.Started = &started
			}
			out = append(out, s)
		}
		return out
	}
	switch g.pick(12) {
	case 0:
		return nil
	case 1:
		return []corev1.ContainerStatus{}
	}
	var out []corev1.ContainerStatus
	for _, c := range cs {
		if g.chance(6) {
			continue
		}
		out = append(out, g.status(c.Name))
		if g.chance(15) {
			out = append(out, g.status(c.Name))
		}
	}
	if g.chance(8) {
		out = append(out, g.status(pickOf(g, extra...)))
	}
	if g.chance(4) {
		g.r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	}
	return out
}

// pod returns a random pod: every container kind, statuses of every shape (missing,
// duplicated, unknown names, shuffled), restart policies and rules, readiness gates,
// conditions old and new, deletion, and timestamps relative to g.now.
func (g *gen) pod() *corev1.Pod {
	p := &corev1.Pod{}
	p.Name = pickOf(g, "web-0", "job-x", "", "pod")
	p.Namespace = "ns"
	p.Generation = g.r.Int64N(5)
	p.CreationTimestamp = g.time()
	if g.chance(4) {
		t := g.time()
		if t.IsZero() {
			t = metav1.NewTime(g.now)
		}
		p.DeletionTimestamp = &t
		if g.chance(2) {
			s := pickOf(g, int64(0), 1, 30)
			p.DeletionGracePeriodSeconds = &s
		}
	}
	if g.chance(10) {
		p.Annotations = map[string]string{"kubernetes.io/config.source": pickOf(g, "file", "api", "http")}
	}

	spec := &p.Spec
	spec.RestartPolicy = pickOf(g, corev1.RestartPolicyAlways, corev1.RestartPolicyOnFailure, corev1.RestartPolicyNever, "")
	for range g.pick(5) {
		spec.InitContainers = append(spec.InitContainers, g.container(pickOf(g, initNames...), true))
	}
	for range g.pick(5) {
		spec.Containers = append(spec.Containers, g.container(pickOf(g, mainNames...), false))
	}
	for range g.pick(4) {
		spec.ReadinessGates = append(spec.ReadinessGates, corev1.PodReadinessGate{ConditionType: pickOf(g, gateTypes...)})
	}
	if g.chance(3) {
		spec.NodeName = pickOf(g, "node-1", "node-2")
	}
	if g.chance(2) {
		s := pickOf(g, int64(0), 1, 30, 600)
		spec.TerminationGracePeriodSeconds = &s
	}
	if g.chance(3) {
		s := pickOf(g, int64(0), 1, 30, 3600)
		spec.ActiveDeadlineSeconds = &s
	}
	if g.chance(10) {
		spec.EphemeralContainers = []corev1.EphemeralContainer{{EphemeralContainerCommon: corev1.EphemeralContainerCommon{Name: "debug"}}}
	}

	st := &p.Status
	st.Phase = pickOf(g, phases...)
	st.Reason = pickOf(g, podReasons...)
	st.Message = pickOf(g, "", "msg")
	extraNames := append(append([]string{"ghost"}, initNames...), mainNames...)
	coherent := g.chance(2)
	g.finished = coherent && g.chance(4)
	st.InitContainerStatuses = g.statuses(spec.InitContainers, extraNames, coherent, true)
	st.ContainerStatuses = g.statuses(spec.Containers, extraNames, coherent, false)
	if g.chance(6) {
		st.EphemeralContainerStatuses = []corev1.ContainerStatus{g.status("debug")}
	}
	for range g.pick(6) {
		c := corev1.PodCondition{
			Type:   pickOf(g, append([]corev1.PodConditionType{corev1.PodScheduled, corev1.PodReady, corev1.ContainersReady, corev1.PodInitialized, corev1.PodInitialized}, gateTypes...)...),
			Status: pickOf(g, condStatuses...),
		}
		if c.Type == corev1.PodScheduled && g.chance(2) {
			c.Reason = corev1.PodReasonSchedulingGated
		}
		if g.chance(3) {
			c.ObservedGeneration = g.r.Int64N(4)
		}
		st.Conditions = append(st.Conditions, c)
	}
	if g.chance(2) {
		st.PodIPs = []corev1.PodIP{{IP: pickOf(g, "10.0.0.1", "", "fd00::1")}}
		if g.chance(3) {
			st.PodIPs = append(st.PodIPs, corev1.PodIP{IP: "fd00::2"})
		}
		st.PodIP = st.PodIPs[0].IP
	}
	if g.chance(4) {
		st.NominatedNodeName = "node-3"
	}
	if g.chance(2) {
		t := g.time()
		st.StartTime = &t
	}
	return p
}
