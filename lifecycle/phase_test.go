package lifecycle_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podlife/podlife"
	"github.com/podlife/podlife/lifecycle"
)

// Container status builders, after the state helpers of upstream's kubelet_pods_test.go.

func csWaiting(name string) corev1.ContainerStatus { return csWaitingReason(name, "") }

func csWaitingReason(name, reason string) corev1.ContainerStatus {
	return corev1.ContainerStatus{Name: name, State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: reason}}}
}

// csWaitingAfter is waiting to restart after a termination with exitCode.
func csWaitingAfter(name string, exitCode int32) corev1.ContainerStatus {
	s := csWaiting(name)
	s.LastTerminationState.Terminated = &corev1.ContainerStateTerminated{ExitCode: exitCode}
	return s
}

// csWaitingRAC is a container removed by a RestartAllContainers action.
func csWaitingRAC(name string) corev1.ContainerStatus {
	const msg = "The container is removed because RestartAllContainers in place"
	return corev1.ContainerStatus{
		Name:                 name,
		State:                corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "RestartingAllContainers", Message: msg}},
		LastTerminationState: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{Reason: "RestartingAllContainers", Message: msg, ExitCode: 137}},
	}
}

func csRunning(name string) corev1.ContainerStatus {
	return corev1.ContainerStatus{Name: name, State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}}
}

func csStarted(name string) corev1.ContainerStatus {
	s := csRunning(name)
	s.Started = ptr(true)
	return s
}

func csExited(name string, exitCode int32) corev1.ContainerStatus {
	return corev1.ContainerStatus{Name: name, State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: exitCode}}}
}

func csSucceeded(name string) corev1.ContainerStatus { return csExited(name, 0) }
func csFailed(name string) corev1.ContainerStatus    { return csExited(name, -1) }

func ptr[T any](v T) *T { return &v }

// cstatuses lists statuses; with none it is an empty, non-nil list.
func cstatuses(s ...corev1.ContainerStatus) []corev1.ContainerStatus {
	if s == nil {
		return []corev1.ContainerStatus{}
	}
	return s
}

var (
	policyAlways    = corev1.ContainerRestartPolicyAlways
	policyOnFailure = corev1.ContainerRestartPolicyOnFailure
	policyNever     = corev1.ContainerRestartPolicyNever
)

// specAB is two regular containers A and B; with x (regular init) or a sidecar X in front.
func specAB(policy corev1.RestartPolicy) corev1.PodSpec {
	return corev1.PodSpec{NodeName: "machine", RestartPolicy: policy, Containers: []corev1.Container{{Name: "containerA"}, {Name: "containerB"}}}
}

func specXAB(policy corev1.RestartPolicy, sidecar bool) corev1.PodSpec {
	s := specAB(policy)
	x := corev1.Container{Name: "containerX"}
	if sidecar {
		x.RestartPolicy = &policyAlways
	}
	s.InitContainers = []corev1.Container{x}
	return s
}

type phaseCase struct {
	name        string
	spec        corev1.PodSpec
	init, regs  []corev1.ContainerStatus
	terminal    bool
	initialized bool
	want        corev1.PodPhase
}

func runPhaseCases(t *testing.T, cases []phaseCase, gates podlife.FeatureGates) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pod := &corev1.Pod{Spec: tc.spec, Status: corev1.PodStatus{InitContainerStatuses: tc.init, ContainerStatuses: tc.regs}}
			before := pod.DeepCopy()
			got := lifecycle.Phase(pod, lifecycle.PhaseOptions{
				Options:           lifecycle.Options{Features: gates},
				PodIsTerminal:     tc.terminal,
				PodHasInitialized: ptr(tc.initialized),
			})
			assert.Equal(t, tc.want, got)
			assert.Equal(t, before, pod, "input modified")
		})
	}
}

// TestPhaseRestartAlways re-expresses upstream's TestPodPhaseWithRestartAlways.
func TestPhaseRestartAlways(t *testing.T) {
	s := specAB(corev1.RestartPolicyAlways)
	runPhaseCases(t, []phaseCase{
		{name: "waiting", spec: s, want: corev1.PodPending},
		{name: "all running", spec: s, regs: cstatuses(csRunning("containerA"), csRunning("containerB")), want: corev1.PodRunning},
		{name: "all stopped with restart always", spec: s, regs: cstatuses(csSucceeded("containerA"), csSucceeded("containerB")), want: corev1.PodRunning},
		{name: "all succeeded, pod terminal", spec: s, terminal: true, regs: cstatuses(csSucceeded("containerA"), csSucceeded("containerB")), want: corev1.PodSucceeded},
		{name: "all stopped, pod terminal", spec: s, terminal: true, regs: cstatuses(csSucceeded("containerA"), csFailed("containerB")), want: corev1.PodFailed},
		{name: "mixed #1", spec: s, regs: cstatuses(csRunning("containerA"), csSucceeded("containerB")), want: corev1.PodRunning},
		{name: "mixed #2", spec: s, regs: cstatuses(csRunning("containerA")), want: corev1.PodPending},
		{name: "mixed #3", spec: s, regs: cstatuses(csRunning("containerA"), csWaiting("containerB")), want: corev1.PodPending},
		{name: "backoff crashloop", spec: s, regs: cstatuses(csRunning("containerA"), csWaitingAfter("containerB", 0)), want: corev1.PodRunning},
	}, nil)
}

// TestPhaseRestartAlwaysInitContainers re-expresses TestPodPhaseWithRestartAlwaysInitContainers.
func TestPhaseRestartAlwaysInitContainers(t *testing.T) {
	s := specXAB(corev1.RestartPolicyAlways, false)
	runPhaseCases(t, []phaseCase{
		{name: "empty, waiting", spec: s, want: corev1.PodPending},
		{name: "init running", spec: s, init: cstatuses(csRunning("containerX")), want: corev1.PodPending},
		{name: "init terminated non-zero", spec: s, init: cstatuses(csFailed("containerX")), want: corev1.PodPending},
		{name: "init waiting, terminated zero", spec: s, init: cstatuses(csWaitingAfter("containerX", 0)), want: corev1.PodPending},
		{name: "init waiting, terminated non-zero", spec: s, init: cstatuses(csWaitingAfter("containerX", -1)), want: corev1.PodPending},
		{name: "init waiting, not terminated", spec: s, init: cstatuses(csWaiting("containerX")), want: corev1.PodPending},
		{name: "init succeeded", spec: s, init: cstatuses(csSucceeded("containerX")), regs: cstatuses(csRunning("containerA"), csRunning("containerB")), want: corev1.PodRunning},
	}, nil)
}

// TestPhaseRestartAlwaysSidecars re-expresses TestPodPhaseWithRestartAlwaysRestartableInitContainers.
func TestPhaseRestartAlwaysSidecars(t *testing.T) {
	s := specXAB(corev1.RestartPolicyAlways, true)
	ab := func(a, b corev1.ContainerStatus) []corev1.ContainerStatus { return cstatuses(a, b) }
	runPhaseCases(t, []phaseCase{
		{name: "empty, waiting", spec: s, want: corev1.PodPending},
		{name: "sidecar running", spec: s, init: cstatuses(csRunning("containerX")), want: corev1.PodPending},
		{name: "sidecar stopped", spec: s, init: cstatuses(csSucceeded("containerX")), want: corev1.PodPending},
		{name: "sidecar waiting, terminated zero", spec: s, init: cstatuses(csWaitingAfter("containerX", 0)), want: corev1.PodPending},
		{name: "sidecar waiting, terminated non-zero", spec: s, init: cstatuses(csWaitingAfter("containerX", -1)), want: corev1.PodPending},
		{name: "sidecar waiting, not terminated", spec: s, init: cstatuses(csWaiting("containerX")), want: corev1.PodPending},
		{name: "sidecar started, 1/2 running", spec: s, initialized: true, init: cstatuses(csStarted("containerX")), regs: cstatuses(csRunning("containerA")), want: corev1.PodPending},
		{name: "sidecar started, all running", spec: s, initialized: true, init: cstatuses(csStarted("containerX")), regs: ab(csRunning("containerA"), csRunning("containerB")), want: corev1.PodRunning},
		{name: "sidecar running, all running", spec: s, initialized: true, init: cstatuses(csRunning("containerX")), regs: ab(csRunning("containerA"), csRunning("containerB")), want: corev1.PodRunning},
		{name: "sidecar stopped, all running", spec: s, initialized: true, init: cstatuses(csSucceeded("containerX")), regs: ab(csRunning("containerA"), csRunning("containerB")), want: corev1.PodRunning},
		{name: "sidecar crashloop, all running", spec: s, initialized: true, init: cstatuses(csWaitingAfter("containerX", 0)), regs: ab(csRunning("containerA"), csRunning("containerB")), want: corev1.PodRunning},
		{name: "all succeeded, sidecar failed, terminal", spec: s, terminal: true, initialized: true, init: cstatuses(csFailed("containerX")), regs: ab(csSucceeded("containerA"), csSucceeded("containerB")), want: corev1.PodSucceeded},
		{name: "all succeeded, sidecar succeeded, terminal", spec: s, terminal: true, initialized: true, init: cstatuses(csSucceeded("containerX")), regs: ab(csSucceeded("containerA"), csSucceeded("containerB")), want: corev1.PodSucceeded},
		{name: "re-initializing after the sandbox is recreated", spec: s, init: cstatuses(csRunning("containerX")), regs: ab(csRunning("containerA"), csRunning("containerB")), want: corev1.PodPending},
	}, nil)
}

// TestPhaseRestartAlwaysAndPodHasRun re-expresses TestPodPhaseWithRestartAlwaysAndPodHasRun.
func TestPhaseRestartAlwaysAndPodHasRun(t *testing.T) {
	s := corev1.PodSpec{
		NodeName:       "machine",
		RestartPolicy:  corev1.RestartPolicyAlways,
		InitContainers: []corev1.Container{{Name: "containerX"}, {Name: "containerY", RestartPolicy: &policyAlways}},
		Containers:     []corev1.Container{{Name: "containerA"}},
	}
	runPhaseCases(t, []phaseCase{
		{name: "all running", spec: s, init: cstatuses(csRunning("containerX"), csRunning("containerY")), regs: cstatuses(csRunning("containerA")), want: corev1.PodPending},
		{name: "regular stopped, inits running", spec: s, init: cstatuses(csRunning("containerX"), csRunning("containerY")), regs: cstatuses(csSucceeded("containerA")), want: corev1.PodPending},
		{name: "re-created sandbox", spec: s, init: cstatuses(csSucceeded("containerX"), csRunning("containerY")), regs: cstatuses(csSucceeded("containerA")), want: corev1.PodPending},
		{name: "init succeeded, sidecar running, regular stopped", spec: s, initialized: true, init: cstatuses(csSucceeded("containerX"), csRunning("containerY")), regs: cstatuses(csSucceeded("containerA")), want: corev1.PodRunning},
		{name: "init succeeded, sidecar and regular running", spec: s, initialized: true, init: cstatuses(csSucceeded("containerX"), csRunning("containerY")), regs: cstatuses(csRunning("containerA")), want: corev1.PodRunning},
	}, nil)
}

// TestPhaseRestartNever re-expresses TestPodPhaseWithRestartNever.
func TestPhaseRestartNever(t *testing.T) {
	s := specAB(corev1.RestartPolicyNever)
	runPhaseCases(t, []phaseCase{
		{name: "all running", spec: s, regs: cstatuses(csRunning("containerA"), csRunning("containerB")), want: corev1.PodRunning},
		{name: "all succeeded", spec: s, regs: cstatuses(csSucceeded("containerA"), csSucceeded("containerB")), want: corev1.PodSucceeded},
		{name: "all failed", spec: s, regs: cstatuses(csFailed("containerA"), csFailed("containerB")), want: corev1.PodFailed},
		{name: "mixed #1", spec: s, regs: cstatuses(csRunning("containerA"), csSucceeded("containerB")), want: corev1.PodRunning},
		{name: "mixed #2", spec: s, regs: cstatuses(csRunning("containerA")), want: corev1.PodPending},
		{name: "mixed #3", spec: s, regs: cstatuses(csRunning("containerA"), csWaiting("containerB")), want: corev1.PodPending},
	}, nil)
}

// TestPhaseRestartNeverInitContainers re-expresses TestPodPhaseWithRestartNeverInitContainers.
func TestPhaseRestartNeverInitContainers(t *testing.T) {
	s := specXAB(corev1.RestartPolicyNever, false)
	runPhaseCases(t, []phaseCase{
		{name: "empty, waiting", spec: s, want: corev1.PodPending},
		{name: "init running", spec: s, init: cstatuses(csRunning("containerX")), want: corev1.PodPending},
		{name: "init terminated non-zero", spec: s, init: cstatuses(csFailed("containerX")), want: corev1.PodFailed},
		{name: "init waiting, terminated zero", spec: s, init: cstatuses(csWaitingAfter("containerX", 0)), want: corev1.PodPending},
		{name: "init waiting, terminated non-zero", spec: s, init: cstatuses(csWaitingAfter("containerX", -1)), want: corev1.PodFailed},
		{name: "init waiting, not terminated", spec: s, init: cstatuses(csWaiting("containerX")), want: corev1.PodPending},
		{name: "init succeeded", spec: s, init: cstatuses(csSucceeded("containerX")), regs: cstatuses(csRunning("containerA"), csRunning("containerB")), want: corev1.PodRunning},
	}, nil)
}

// TestPhaseRestartNeverSidecars re-expresses TestPodPhaseWithRestartNeverRestartableInitContainers.
func TestPhaseRestartNeverSidecars(t *testing.T) {
	s := specXAB(corev1.RestartPolicyNever, true)
	ok := cstatuses(csSucceeded("containerA"), csSucceeded("containerB"))
	runPhaseCases(t, []phaseCase{
		{name: "empty, waiting", spec: s, want: corev1.PodPending},
		{name: "sidecar running", spec: s, init: cstatuses(csRunning("containerX")), want: corev1.PodPending},
		{name: "sidecar stopped", spec: s, init: cstatuses(csSucceeded("containerX")), want: corev1.PodPending},
		{name: "sidecar waiting, terminated zero", spec: s, init: cstatuses(csWaitingAfter("containerX", 0)), want: corev1.PodPending},
		{name: "sidecar waiting, terminated non-zero", spec: s, init: cstatuses(csWaitingAfter("containerX", -1)), want: corev1.PodPending},
		{name: "sidecar waiting, not terminated", spec: s, init: cstatuses(csWaiting("containerX")), want: corev1.PodPending},
		{name: "sidecar started, one main running", spec: s, initialized: true, init: cstatuses(csStarted("containerX")), regs: cstatuses(csRunning("containerA")), want: corev1.PodPending},
		{name: "sidecar started, mains succeeded", spec: s, initialized: true, init: cstatuses(csStarted("containerX")), regs: ok, want: corev1.PodRunning},
		{name: "sidecar re-running, mains succeeded", spec: s, initialized: true, init: cstatuses(csRunning("containerX")), regs: ok, want: corev1.PodRunning},
		{name: "all succeeded", spec: s, initialized: true, init: cstatuses(csSucceeded("containerX")), regs: ok, want: corev1.PodSucceeded},
		{name: "sidecar terminated non-zero, mains succeeded", spec: s, initialized: true, init: cstatuses(csFailed("containerX")), regs: ok, want: corev1.PodSucceeded},
		{name: "sidecar crashloop, mains succeeded", spec: s, initialized: true, init: cstatuses(csWaitingAfter("containerX", 0)), regs: ok, want: corev1.PodSucceeded},
		{name: "sidecar crashloop non-zero, mains succeeded", spec: s, initialized: true, init: cstatuses(csWaitingAfter("containerX", -1)), regs: ok, want: corev1.PodSucceeded},
	}, nil)
}

// TestPhaseRestartOnFailure re-expresses TestPodPhaseWithRestartOnFailure.
func TestPhaseRestartOnFailure(t *testing.T) {
	s := specAB(corev1.RestartPolicyOnFailure)
	runPhaseCases(t, []phaseCase{
		{name: "all running", spec: s, regs: cstatuses(csRunning("containerA"), csRunning("containerB")), want: corev1.PodRunning},
		{name: "all succeeded", spec: s, regs: cstatuses(csSucceeded("containerA"), csSucceeded("containerB")), want: corev1.PodSucceeded},
		{name: "all failed", spec: s, regs: cstatuses(csFailed("containerA"), csFailed("containerB")), want: corev1.PodRunning},
		{name: "mixed #1", spec: s, regs: cstatuses(csRunning("containerA"), csSucceeded("containerB")), want: corev1.PodRunning},
		{name: "mixed #2", spec: s, regs: cstatuses(csRunning("containerA")), want: corev1.PodPending},
		{name: "mixed #3", spec: s, regs: cstatuses(csRunning("containerA"), csWaiting("containerB")), want: corev1.PodPending},
		{name: "backoff crashloop", spec: s, regs: cstatuses(csRunning("containerA"), csWaitingAfter("containerB", 0)), want: corev1.PodRunning},
	}, nil)
}

// TestPhaseContainerRestartPolicy re-expresses TestPodPhaseWithContainerRestartPolicy and
// …InitContainers (ContainerRestartRules on; all statuses in one list, pod initialized).
func TestPhaseContainerRestartPolicy(t *testing.T) {
	one := func(policy *corev1.ContainerRestartPolicy, podPolicy corev1.RestartPolicy) corev1.PodSpec {
		return corev1.PodSpec{RestartPolicy: podPolicy, Containers: []corev1.Container{{Name: "failed-container", RestartPolicy: policy}}}
	}
	oneInit := func(policy *corev1.ContainerRestartPolicy, podPolicy corev1.RestartPolicy) corev1.PodSpec {
		return corev1.PodSpec{
			RestartPolicy:  podPolicy,
			InitContainers: []corev1.Container{{Name: "failed-container", RestartPolicy: policy}},
			Containers:     []corev1.Container{{Name: "container"}},
		}
	}
	two := func(a, b *corev1.ContainerRestartPolicy, podPolicy corev1.RestartPolicy) corev1.PodSpec {
		return corev1.PodSpec{RestartPolicy: podPolicy, Containers: []corev1.Container{{Name: "containerA", RestartPolicy: a}, {Name: "containerB", RestartPolicy: b}}}
	}
	cases := []phaseCase{
		{name: "Never failed", spec: one(&policyNever, corev1.RestartPolicyAlways), regs: cstatuses(csFailed("failed-container")), want: corev1.PodFailed},
		{name: "OnFailure failed", spec: one(&policyOnFailure, corev1.RestartPolicyAlways), regs: cstatuses(csFailed("failed-container")), want: corev1.PodRunning},
		{name: "Always failed", spec: one(&policyAlways, corev1.RestartPolicyAlways), regs: cstatuses(csFailed("failed-container")), want: corev1.PodRunning},
		{name: "one restartable container failed", spec: two(&policyAlways, nil, corev1.RestartPolicyNever), regs: cstatuses(csSucceeded("containerA"), csFailed("containerB")), want: corev1.PodRunning},
		{name: "none restartable failed", spec: two(&policyNever, &policyOnFailure, corev1.RestartPolicyAlways), regs: cstatuses(csFailed("containerA"), csSucceeded("containerB")), want: corev1.PodFailed},
		{name: "all succeeded", spec: two(&policyNever, &policyOnFailure, corev1.RestartPolicyAlways), regs: cstatuses(csSucceeded("containerA"), csSucceeded("containerB")), want: corev1.PodSucceeded},
		{name: "init Never failed", spec: oneInit(&policyNever, corev1.RestartPolicyAlways), regs: cstatuses(csFailed("failed-container")), want: corev1.PodFailed},
		{name: "init OnFailure failed", spec: oneInit(&policyOnFailure, corev1.RestartPolicyNever), regs: cstatuses(csFailed("failed-container")), want: corev1.PodPending},
		{name: "init Always failed", spec: oneInit(&policyAlways, corev1.RestartPolicyNever), regs: cstatuses(csFailed("failed-container")), want: corev1.PodPending},
	}
	for i := range cases {
		cases[i].initialized = true
	}
	runPhaseCases(t, cases, podlife.FeatureGates{"ContainerRestartRules": true})
}

// TestPhaseRestartAllContainers re-expresses TestPodPhaseWithRestartAllContainers.
func TestPhaseRestartAllContainers(t *testing.T) {
	rule := []corev1.ContainerRestartRule{{
		Action:    corev1.ContainerRestartRuleActionRestartAllContainers,
		ExitCodes: &corev1.ContainerRestartRuleOnExitCodes{Operator: corev1.ContainerRestartRuleOnExitCodesOpIn, Values: []int32{42}},
	}}
	withRule := corev1.Container{Name: "container", RestartPolicy: &policyNever, RestartPolicyRules: rule}
	sidecarWithRule := corev1.Container{Name: "container", RestartPolicy: &policyAlways, RestartPolicyRules: rule}
	regular := corev1.Container{Name: "regular"}
	initC := corev1.Container{Name: "init"}
	spec := func(inits, mains []corev1.Container) corev1.PodSpec {
		return corev1.PodSpec{RestartPolicy: corev1.RestartPolicyNever, InitContainers: inits, Containers: mains}
	}
	cs := func(c ...corev1.Container) []corev1.Container { return c }
	cases := []phaseCase{
		{name: "regular triggers", spec: spec(nil, cs(withRule)), regs: cstatuses(csExited("container", 42)), want: corev1.PodRunning},
		{name: "init triggers", spec: spec(cs(withRule), nil), regs: cstatuses(csExited("container", 42), csWaiting("regular")), want: corev1.PodPending},
		{name: "sidecar triggers", spec: spec(cs(sidecarWithRule), cs(regular)), regs: cstatuses(csExited("container", 42), csWaiting("regular")), want: corev1.PodPending},
		{name: "sidecar triggers, kills init", spec: spec(cs(sidecarWithRule, initC), cs(regular)), regs: cstatuses(csExited("container", 42), csWaiting("init"), csWaiting("regular")), want: corev1.PodPending},
		{name: "regular triggers, cleaned up", spec: spec(nil, cs(withRule)), regs: cstatuses(csWaitingRAC("container")), want: corev1.PodRunning},
		{name: "init triggers, cleaned up", spec: spec(cs(withRule), nil), regs: cstatuses(csWaitingRAC("container"), csWaiting("regular")), want: corev1.PodPending},
		{name: "sidecar triggers, cleaned up", spec: spec(cs(sidecarWithRule), cs(regular)), regs: cstatuses(csWaitingRAC("container"), csWaiting("regular")), want: corev1.PodPending},
		{name: "sidecar triggers, kills init, cleaned up", spec: spec(cs(sidecarWithRule, initC), cs(regular)), regs: cstatuses(csWaitingRAC("container"), csWaitingRAC("container"), csWaiting("regular")), want: corev1.PodPending},
		{name: "regular triggered; init succeeded", spec: spec(cs(initC), cs(withRule)), regs: cstatuses(csSucceeded("init"), csWaitingRAC("container")), want: corev1.PodRunning},
		{name: "regular triggered; init failed", spec: spec(cs(initC), cs(withRule)), regs: cstatuses(csFailed("init"), csWaitingRAC("container")), want: corev1.PodFailed},
		{name: "init triggered", spec: spec(cs(withRule), cs(regular)), regs: cstatuses(csExited("container", 42), csWaiting("regular")), want: corev1.PodPending},
		{name: "init triggered; init succeeds", spec: spec(cs(withRule), cs(regular)), regs: cstatuses(csSucceeded("container"), csWaiting("regular")), want: corev1.PodPending},
		{name: "sidecar triggered, kills regular", spec: spec(cs(sidecarWithRule), cs(regular)), regs: cstatuses(csWaitingRAC("container"), csWaitingRAC("regular")), want: corev1.PodRunning},
		{name: "sidecar triggered, kills regular; sidecar running", spec: spec(cs(sidecarWithRule), cs(regular)), regs: cstatuses(csRunning("container"), csWaitingRAC("regular")), want: corev1.PodRunning},
		{name: "sidecar triggered, kills init; sidecar running", spec: spec(cs(sidecarWithRule, initC), cs(regular)), regs: cstatuses(csRunning("container"), csWaitingRAC("container"), csWaiting("regular")), want: corev1.PodPending},
	}
	for i := range cases {
		cases[i].initialized = true
	}
	runPhaseCases(t, cases, podlife.FeatureGates{"ContainerRestartRules": true, "RestartAllContainersOnContainerExits": true})
}

// TestPhaseGatesOff covers the legacy decisions with ContainerRestartRules off.
func TestPhaseGatesOff(t *testing.T) {
	off := podlife.FeatureGates{"ContainerRestartRules": false, "RestartAllContainersOnContainerExits": false}
	never := corev1.PodSpec{RestartPolicy: corev1.RestartPolicyNever, Containers: []corev1.Container{{Name: "a", RestartPolicy: &policyAlways}}}
	always := corev1.PodSpec{RestartPolicy: corev1.RestartPolicyAlways, Containers: []corev1.Container{{Name: "a", RestartPolicy: &policyNever}}}
	initNever := corev1.PodSpec{RestartPolicy: corev1.RestartPolicyAlways, InitContainers: []corev1.Container{{Name: "i", RestartPolicy: &policyNever}}, Containers: []corev1.Container{{Name: "a"}}}
	runPhaseCases(t, []phaseCase{
		{name: "container policy ignored: Never pod fails", spec: never, regs: cstatuses(csFailed("a")), want: corev1.PodFailed},
		{name: "container policy ignored: Always pod runs", spec: always, regs: cstatuses(csFailed("a")), want: corev1.PodRunning},
		{name: "init container policy ignored", spec: initNever, init: cstatuses(csFailed("i")), want: corev1.PodPending},
	}, off)
	runPhaseCases(t, []phaseCase{
		{name: "gates on: Never container in Always pod fails", spec: always, regs: cstatuses(csFailed("a")), want: corev1.PodFailed},
		{name: "gates on: Always container in Never pod runs", spec: never, regs: cstatuses(csFailed("a")), want: corev1.PodRunning},
		{name: "gates on: Never init container fails the pod", spec: initNever, init: cstatuses(csFailed("i")), want: corev1.PodFailed},
	}, nil)
}

func TestPhaseStaticPodNotTerminal(t *testing.T) {
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{"kubernetes.io/config.source": "file"}},
		Spec:       specAB(corev1.RestartPolicyAlways),
		Status:     corev1.PodStatus{ContainerStatuses: cstatuses(csSucceeded("containerA"), csSucceeded("containerB"))},
	}
	assert.Equal(t, corev1.PodRunning, lifecycle.Phase(pod, lifecycle.PhaseOptions{PodIsTerminal: true}))
	pod.Annotations["kubernetes.io/config.source"] = "api"
	assert.Equal(t, corev1.PodSucceeded, lifecycle.Phase(pod, lifecycle.PhaseOptions{PodIsTerminal: true}))
}

func TestPhaseDerivedInitialized(t *testing.T) {
	s := specXAB(corev1.RestartPolicyAlways, true)
	pod := func(regs ...corev1.ContainerStatus) *corev1.Pod {
		return &corev1.Pod{Spec: s, Status: corev1.PodStatus{InitContainerStatuses: cstatuses(csWaiting("containerX")), ContainerStatuses: regs}}
	}
	// A sidecar waiting with no last termination is also counted as waiting: Pending anyway.
	assert.Equal(t, corev1.PodPending, lifecycle.Phase(pod(csRunning("containerA"), csRunning("containerB")), lifecycle.PhaseOptions{}))

	restarting := func(regs ...corev1.ContainerStatus) *corev1.Pod {
		p := pod(regs...)
		p.Status.InitContainerStatuses = cstatuses(csRunning("containerX")) // not started yet
		return p
	}
	for _, tc := range []struct {
		name string
		pod  *corev1.Pod
		want corev1.PodPhase
	}{
		{"regular containers running", restarting(csRunning("containerA"), csRunning("containerB")), corev1.PodRunning},
		{"regular container crash-looping", restarting(csRunning("containerA"), csWaitingAfter("containerB", 1)), corev1.PodRunning},
		{"regular containers never ran", restarting(csWaitingReason("containerA", "PodInitializing"), csWaitingReason("containerB", "PodInitializing")), corev1.PodPending},
	} {
		assert.Equal(t, tc.want, lifecycle.Phase(tc.pod, lifecycle.PhaseOptions{}), tc.name)
	}
}

func TestResolvePhase(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	start := metav1.NewTime(now.Add(-time.Minute))
	base := func(phase corev1.PodPhase, reason, message string) *corev1.Pod {
		return &corev1.Pod{Status: corev1.PodStatus{Phase: phase, Reason: reason, Message: message, StartTime: &start}}
	}
	withDeadline := func(p *corev1.Pod, secs int64) *corev1.Pod { p.Spec.ActiveDeadlineSeconds = &secs; return p }
	for _, tc := range []struct {
		name     string
		pod      *corev1.Pod
		old      *corev1.PodStatus
		computed corev1.PodPhase
		want     lifecycle.PhaseStatus
	}{
		{"same phase keeps reason and message", base(corev1.PodRunning, "R", "M"), nil, corev1.PodRunning, lifecycle.PhaseStatus{Phase: corev1.PodRunning, Reason: "R", Message: "M"}},
		{"phase change clears reason", base(corev1.PodPending, "R", "M"), nil, corev1.PodRunning, lifecycle.PhaseStatus{Phase: corev1.PodRunning}},
		{"API terminal phase is kept", base(corev1.PodSucceeded, "", ""), nil, corev1.PodRunning, lifecycle.PhaseStatus{Phase: corev1.PodSucceeded}},
		{"API terminal phase wins over computed terminal", base(corev1.PodSucceeded, "", ""), nil, corev1.PodFailed, lifecycle.PhaseStatus{Phase: corev1.PodSucceeded}},
		{"cached terminal phase is kept", base(corev1.PodRunning, "api", "apimsg"), &corev1.PodStatus{Phase: corev1.PodFailed, Reason: "Evicted"}, corev1.PodRunning, lifecycle.PhaseStatus{Phase: corev1.PodFailed, Reason: "Evicted", Message: "apimsg"}},
		{"cached reason falls back to API reason", base(corev1.PodRunning, "api", "apimsg"), &corev1.PodStatus{Phase: corev1.PodRunning}, corev1.PodRunning, lifecycle.PhaseStatus{Phase: corev1.PodRunning, Reason: "api", Message: "apimsg"}},
		{"cached phase differs: reason cleared", base(corev1.PodRunning, "api", "apimsg"), &corev1.PodStatus{Phase: corev1.PodPending, Reason: "x"}, corev1.PodRunning, lifecycle.PhaseStatus{Phase: corev1.PodRunning}},
		{"deadline exceeded", withDeadline(base(corev1.PodRunning, "", ""), 30), nil, corev1.PodRunning, lifecycle.PhaseStatus{Phase: corev1.PodFailed, Reason: "DeadlineExceeded", Message: "Pod was active on the node longer than the specified deadline"}},
		{"deadline exactly reached", withDeadline(base(corev1.PodRunning, "", ""), 60), nil, corev1.PodRunning, lifecycle.PhaseStatus{Phase: corev1.PodFailed, Reason: "DeadlineExceeded", Message: "Pod was active on the node longer than the specified deadline"}},
		{"deadline not reached", withDeadline(base(corev1.PodRunning, "", ""), 61), nil, corev1.PodRunning, lifecycle.PhaseStatus{Phase: corev1.PodRunning}},
		{"deadline on a succeeded pod keeps the phase", withDeadline(base(corev1.PodSucceeded, "", ""), 30), nil, corev1.PodSucceeded, lifecycle.PhaseStatus{Phase: corev1.PodSucceeded, Reason: "DeadlineExceeded", Message: "Pod was active on the node longer than the specified deadline"}},
		{"deadline start time from the cached status", withDeadline(base(corev1.PodRunning, "", ""), 30), &corev1.PodStatus{Phase: corev1.PodRunning}, corev1.PodRunning, lifecycle.PhaseStatus{Phase: corev1.PodRunning}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := tc.pod.DeepCopy()
			got := lifecycle.ResolvePhase(tc.pod, tc.computed, now, lifecycle.PhaseOptions{OldStatus: tc.old})
			assert.Equal(t, tc.want, got)
			require.Equal(t, before, tc.pod)
		})
	}
}

func TestStatusPhase(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	pod := &corev1.Pod{
		Spec:   specAB(corev1.RestartPolicyNever),
		Status: corev1.PodStatus{Phase: corev1.PodRunning, ContainerStatuses: cstatuses(csSucceeded("containerA"), csFailed("containerB"))},
	}
	assert.Equal(t, lifecycle.PhaseStatus{Phase: corev1.PodFailed}, lifecycle.StatusPhase(pod, now, lifecycle.PhaseOptions{}))
	assert.Equal(t, corev1.PodPending, lifecycle.Phase(nil, lifecycle.PhaseOptions{}))
	assert.Equal(t, lifecycle.PhaseStatus{Phase: corev1.PodPending}, lifecycle.StatusPhase(nil, now, lifecycle.PhaseOptions{}))
}

// fuzzInput turns fuzz bytes into choices; once exhausted every choice is 0.
type fuzzInput struct{ b []byte }

func (f *fuzzInput) next() byte {
	if len(f.b) == 0 {
		return 0
	}
	c := f.b[0]
	f.b = f.b[1:]
	return c
}

func (f *fuzzInput) n(k int) int { return int(f.next()) % k }

func fuzzPick[T any](f *fuzzInput, xs ...T) T { return xs[f.n(len(xs))] }

// fuzzBase is the instant fuzz timestamps are relative to.
var fuzzBase = time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)

func (f *fuzzInput) time() metav1.Time {
	if f.n(8) == 0 {
		return metav1.Time{}
	}
	return metav1.NewTime(fuzzBase.Add(time.Duration(int8(f.next())) * time.Duration(1+f.n(4)*3600) * time.Second))
}

func (f *fuzzInput) int64Ptr() *int64 {
	if f.n(2) == 0 {
		return nil
	}
	v := int64(int8(f.next()))
	return &v
}

var fuzzNames = []string{"a", "b", "c", "sc", ""}

func (f *fuzzInput) container() corev1.Container {
	c := corev1.Container{Name: fuzzPick(f, fuzzNames...)}
	switch f.n(5) {
	case 0:
		c.RestartPolicy = &policyAlways
	case 1:
		c.RestartPolicy = &policyOnFailure
	case 2:
		c.RestartPolicy = &policyNever
	}
	if f.n(3) == 0 {
		c.RestartPolicyRules = []corev1.ContainerRestartRule{{
			Action:    fuzzPick(f, corev1.ContainerRestartRuleActionRestart, corev1.ContainerRestartRuleActionRestartAllContainers),
			ExitCodes: &corev1.ContainerRestartRuleOnExitCodes{Operator: fuzzPick(f, corev1.ContainerRestartRuleOnExitCodesOpIn, corev1.ContainerRestartRuleOnExitCodesOpNotIn), Values: []int32{int32(int8(f.next()))}},
		}}
	}
	if f.n(3) == 0 {
		c.StartupProbe = &corev1.Probe{TerminationGracePeriodSeconds: f.int64Ptr()}
	}
	if f.n(3) == 0 {
		c.LivenessProbe = &corev1.Probe{TerminationGracePeriodSeconds: f.int64Ptr()}
	}
	if f.n(3) == 0 {
		c.Lifecycle = &corev1.Lifecycle{PreStop: &corev1.LifecycleHandler{}}
	}
	return c
}

func (f *fuzzInput) state() corev1.ContainerState {
	switch f.n(4) {
	case 1:
		return corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: fuzzPick(f, "", "PodInitializing", "CrashLoopBackOff")}}
	case 2:
		return corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}
	case 3:
		return corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{
			ExitCode: int32(int8(f.next())), Signal: int32(f.n(3) * 9), FinishedAt: f.time(),
			Reason: fuzzPick(f, "", "Completed", "Error", "RestartingAllContainers"),
		}}
	}
	return corev1.ContainerState{}
}

func (f *fuzzInput) statuses() []corev1.ContainerStatus {
	if f.n(6) == 0 {
		return nil
	}
	out := []corev1.ContainerStatus{}
	for range f.n(5) {
		s := corev1.ContainerStatus{Name: fuzzPick(f, fuzzNames...), State: f.state(), LastTerminationState: f.state()}
		s.Ready = f.n(2) == 0
		if k := f.n(3); k > 0 {
			s.Started = ptr(k == 1)
		}
		s.RestartCount = int32(f.next())
		out = append(out, s)
	}
	return out
}

// pod builds a pod of every shape from the remaining bytes.
func (f *fuzzInput) pod() *corev1.Pod {
	p := &corev1.Pod{}
	p.Name = fuzzPick(f, "p", "")
	p.Generation = int64(f.next())
	p.CreationTimestamp = f.time()
	if f.n(4) == 0 {
		t := f.time()
		p.DeletionTimestamp = &t
		p.DeletionGracePeriodSeconds = f.int64Ptr()
	}
	if f.n(8) == 0 {
		p.Annotations = map[string]string{"kubernetes.io/config.source": fuzzPick(f, "file", "api")}
	}
	p.Spec.RestartPolicy = fuzzPick(f, corev1.RestartPolicyAlways, corev1.RestartPolicyOnFailure, corev1.RestartPolicyNever, "")
	for range f.n(4) {
		p.Spec.InitContainers = append(p.Spec.InitContainers, f.container())
	}
	for range f.n(4) {
		p.Spec.Containers = append(p.Spec.Containers, f.container())
	}
	if f.n(6) == 0 {
		p.Spec.EphemeralContainers = []corev1.EphemeralContainer{{EphemeralContainerCommon: corev1.EphemeralContainerCommon{Name: fuzzPick(f, fuzzNames...)}}}
	}
	for range f.n(3) {
		p.Spec.ReadinessGates = append(p.Spec.ReadinessGates, corev1.PodReadinessGate{ConditionType: fuzzPick[corev1.PodConditionType](f, "g1", "g2", corev1.PodInitialized)})
	}
	p.Spec.TerminationGracePeriodSeconds = f.int64Ptr()
	p.Spec.ActiveDeadlineSeconds = f.int64Ptr()
	p.Spec.NodeName = fuzzPick(f, "", "n1")
	st := &p.Status
	st.Phase = fuzzPick(f, corev1.PodPending, corev1.PodRunning, corev1.PodSucceeded, corev1.PodFailed, corev1.PodUnknown, "")
	st.Reason = fuzzPick(f, "", "NodeLost", "Evicted")
	st.InitContainerStatuses = f.statuses()
	st.ContainerStatuses = f.statuses()
	for range f.n(4) {
		st.Conditions = append(st.Conditions, corev1.PodCondition{
			Type:   fuzzPick[corev1.PodConditionType](f, corev1.PodInitialized, corev1.PodReady, corev1.PodScheduled, "g1", "g2"),
			Status: fuzzPick(f, corev1.ConditionTrue, corev1.ConditionFalse, corev1.ConditionUnknown),
			Reason: fuzzPick(f, "", "SchedulingGated"), ObservedGeneration: int64(f.n(3)),
		})
	}
	if f.n(2) == 0 {
		t := f.time()
		st.StartTime = &t
	}
	if f.n(2) == 0 {
		st.PodIPs = []corev1.PodIP{{IP: fuzzPick(f, "", "10.0.0.1")}}
	}
	return p
}

// fuzzSeeds are starting inputs shared by the fuzz targets.
var fuzzSeeds = [][]byte{
	nil,
	{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16},
	[]byte("a pod with sidecars and restart rules, statuses of every shape"),
	{255, 254, 253, 0, 1, 0, 2, 3, 3, 3, 2, 2, 1, 1, 0, 0, 4, 4, 4, 200, 100, 50, 25, 12, 6, 3},
}

func addSeeds(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
}

var validPhases = map[corev1.PodPhase]bool{corev1.PodPending: true, corev1.PodRunning: true, corev1.PodSucceeded: true, corev1.PodFailed: true}

func FuzzPhase(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		in := &fuzzInput{b: data}
		pod := in.pod()
		terminal := in.n(2) == 0
		gates := fuzzPick(in, podlife.FeatureGates(nil), podlife.FeatureGates{"ContainerRestartRules": false, "RestartAllContainersOnContainerExits": false})
		now := fuzzBase.Add(time.Duration(int8(in.next())) * time.Minute)
		before := pod.DeepCopy()
		opts := lifecycle.PhaseOptions{Options: lifecycle.Options{Features: gates}, PodIsTerminal: terminal}
		got := lifecycle.Phase(pod, opts)
		if !validPhases[got] {
			t.Fatalf("phase %q", got)
		}
		if again := lifecycle.Phase(pod, opts); again != got {
			t.Fatalf("not deterministic: %q then %q", got, again)
		}
		// Knowing that the pod has initialized can only take it out of Pending.
		opts.PodHasInitialized = ptr(false)
		notInit := lifecycle.Phase(pod, opts)
		opts.PodHasInitialized = ptr(true)
		if initialized := lifecycle.Phase(pod, opts); notInit != initialized && notInit != corev1.PodPending {
			t.Fatalf("uninitialized %q, initialized %q", notInit, initialized)
		}
		// A pod never leaves Succeeded or Failed.
		res := lifecycle.StatusPhase(pod, now, opts)
		if (pod.Status.Phase == corev1.PodSucceeded || pod.Status.Phase == corev1.PodFailed) && res.Phase != pod.Status.Phase {
			t.Fatalf("left terminal phase %q for %q", pod.Status.Phase, res.Phase)
		}
		if !validPhases[res.Phase] {
			t.Fatalf("resolved phase %q", res.Phase)
		}
		if lifecycle.PastActiveDeadline(pod, now) && (res.Reason != lifecycle.ReasonDeadlineExceeded || (res.Phase != corev1.PodFailed && res.Phase != pod.Status.Phase)) {
			t.Fatalf("past deadline but %+v", res)
		}
		for _, p := range []corev1.PodPhase{got, corev1.PodRunning, corev1.PodPending} {
			r := lifecycle.ResolvePhase(pod, p, now, opts)
			if r2 := lifecycle.ResolvePhase(pod, p, now, opts); r != r2 {
				t.Fatalf("ResolvePhase not deterministic")
			}
		}
		if !reflect.DeepEqual(before, pod) {
			t.Fatalf("input modified")
		}
	})
}

// benchPod is a running pod with an init container, a sidecar and two containers.
func benchPod() *corev1.Pod {
	p := shipperPod()
	p.Spec.Containers = append(p.Spec.Containers, corev1.Container{Name: "metrics"})
	p.CreationTimestamp = metav1.NewTime(fuzzBase.Add(-time.Hour))
	p.Status.Phase = corev1.PodRunning
	p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodInitialized, Status: corev1.ConditionTrue}, {Type: corev1.PodReady, Status: corev1.ConditionTrue}}
	p.Status.InitContainerStatuses = []corev1.ContainerStatus{exited("fetch", 0, "Completed"), running("shipper", true, true)}
	p.Status.ContainerStatuses = []corev1.ContainerStatus{running("metrics", true, true), running("report", true, true)}
	p.Status.ContainerStatuses[1].RestartCount = 2
	p.Status.ContainerStatuses[1].LastTerminationState.Terminated = &corev1.ContainerStateTerminated{ExitCode: 1, FinishedAt: metav1.NewTime(fuzzBase.Add(-5 * time.Minute))}
	p.Status.PodIPs = []corev1.PodIP{{IP: "10.0.0.9"}}
	return p
}

// BenchmarkPhase sets Phase beside one DeepCopy of the same pod.
func BenchmarkPhase(b *testing.B) {
	pod := benchPod()
	b.Run("podlife", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = lifecycle.Phase(pod, lifecycle.PhaseOptions{})
		}
	})
	b.Run("deepcopy", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = pod.DeepCopy()
		}
	})
}
