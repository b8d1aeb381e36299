package restart

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podlife/podlife/internal/gates"
)

// Upstream TestShouldContainerBeRestarted (k8s.io/kubernetes
// pkg/kubelet/container/helpers_test.go): five containers × three pod policies, then
// the same with a deletionTimestamp. The runtime holds two instances of "alive" and
// "failed"; the newest decides.
func TestShouldRestartInstanceUpstreamTable(t *testing.T) {
	rt := &View{Instances: []Instance{
		{Name: "alive", State: StateRunning},
		{Name: "succeed", State: StateExited, ExitCode: 0},
		{Name: "failed", State: StateExited, ExitCode: 1},
		{Name: "alive", State: StateExited, ExitCode: 2},
		{Name: "unknown", State: StateUnknown},
		{Name: "failed", State: StateExited, ExitCode: 3},
	}}
	policies := []corev1.RestartPolicy{corev1.RestartPolicyNever, corev1.RestartPolicyOnFailure, corev1.RestartPolicyAlways}
	want := map[string][3]bool{
		"no-history": {true, true, true},
		"alive":      {false, false, false},
		"succeed":    {false, false, true},
		"failed":     {false, true, true},
		"unknown":    {true, true, true},
	}
	for _, deleted := range []bool{false, true} {
		for _, opts := range []Options{{}, crrOff} {
			for name, exp := range want {
				for i, policy := range policies {
					pod := &corev1.Pod{
						ObjectMeta: metav1.ObjectMeta{UID: "12345678", Name: "foo", Namespace: "new"},
						Spec:       corev1.PodSpec{RestartPolicy: policy, Containers: []corev1.Container{{Name: name}}},
					}
					e := exp[i]
					if deleted {
						pod.DeletionTimestamp = &metav1.Time{Time: time.Unix(1, 0)}
						e = false
					}
					var newest *Instance
					if inst, ok := rt.Newest(name); ok {
						newest = &inst
					}
					if got := ShouldRestartInstance(pod, &pod.Spec.Containers[0], newest, opts).Restart; got != e {
						t.Errorf("container %q policy %q deleted=%v gates=%v: got %v, want %v", name, policy, deleted, opts.Features, got, e)
					}
				}
			}
		}
	}
}

func TestShouldRestart(t *testing.T) {
	never, onFailure, always := corev1.ContainerRestartPolicyNever, corev1.ContainerRestartPolicyOnFailure, corev1.ContainerRestartPolicyAlways
	terminated := func(code int32) corev1.ContainerState {
		return corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: code}}
	}
	running := corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}
	waiting := corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "CrashLoopBackOff"}}
	type tcase struct {
		name       string
		pod        *corev1.Pod
		container  string
		opts       Options
		want       bool
		wantAll    bool
		wantIndex  int
		wantBasis  Basis
		wantReason string
	}
	pod := func(policy corev1.RestartPolicy, c corev1.Container, st *corev1.ContainerStatus) *corev1.Pod {
		p := &corev1.Pod{Spec: corev1.PodSpec{RestartPolicy: policy, Containers: []corev1.Container{c}}}
		if st != nil {
			st.Name = c.Name
			p.Status.ContainerStatuses = []corev1.ContainerStatus{*st}
		}
		return p
	}
	deleted := pod(corev1.RestartPolicyAlways, corev1.Container{Name: "app"}, nil)
	deleted.DeletionTimestamp = &metav1.Time{}
	initPod := &corev1.Pod{Spec: corev1.PodSpec{
		RestartPolicy:  corev1.RestartPolicyNever,
		InitContainers: []corev1.Container{{Name: "init", RestartPolicy: &onFailure}},
		Containers:     []corev1.Container{{Name: "app"}},
	}, Status: corev1.PodStatus{
		InitContainerStatuses: []corev1.ContainerStatus{{Name: "init", State: terminated(3)}},
		// A status of the wrong kind is not read.
		ContainerStatuses: []corev1.ContainerStatus{{Name: "init", State: running}},
	}}
	ephPod := &corev1.Pod{Spec: corev1.PodSpec{
		RestartPolicy:       corev1.RestartPolicyAlways,
		EphemeralContainers: []corev1.EphemeralContainer{{EphemeralContainerCommon: corev1.EphemeralContainerCommon{Name: "debug"}}},
	}, Status: corev1.PodStatus{EphemeralContainerStatuses: []corev1.ContainerStatus{{Name: "debug", State: terminated(0)}}}}

	for _, tc := range []tcase{
		{"nil pod", nil, "app", Options{}, false, false, -1, BasisNoPod, "no pod → no restart"},
		{"unknown container", pod(corev1.RestartPolicyAlways, corev1.Container{Name: "app"}, nil), "web", Options{}, false, false, -1, BasisContainerNotFound, "container is not in the pod spec → no restart"},
		{"deleted pod", deleted, "app", Options{}, false, false, -1, BasisDeletion, "pod is being deleted → no restart"},
		// Deletion is tested first, as the kubelet does, before any lookup.
		{"deleted pod, unknown name", deleted, "web", Options{}, false, false, -1, BasisDeletion, "pod is being deleted → no restart"},
		{"no status", pod(corev1.RestartPolicyNever, corev1.Container{Name: "app"}, nil), "app", Options{}, true, false, -1, BasisNoInstance, "container has no instance yet → Restart"},
		{"waiting without termination", pod(corev1.RestartPolicyNever, corev1.Container{Name: "app"}, &corev1.ContainerStatus{State: waiting}), "app", Options{}, true, false, -1, BasisNoInstance, "container has no instance yet → Restart"},
		{"empty state", pod(corev1.RestartPolicyNever, corev1.Container{Name: "app"}, &corev1.ContainerStatus{}), "app", Options{}, true, false, -1, BasisNoInstance, "container has no instance yet → Restart"},
		{"running", pod(corev1.RestartPolicyAlways, corev1.Container{Name: "app"}, &corev1.ContainerStatus{State: running}), "app", Options{}, false, false, -1, BasisRunning, "container is running → no restart"},
		{"running wins over terminated", pod(corev1.RestartPolicyAlways, corev1.Container{Name: "app"}, &corev1.ContainerStatus{State: corev1.ContainerState{Running: running.Running, Terminated: terminated(1).Terminated}}), "app", Options{}, false, false, -1, BasisRunning, "container is running → no restart"},
		{"rule In matches", pod(corev1.RestartPolicyNever, corev1.Container{Name: "app", RestartPolicy: &never, RestartPolicyRules: []corev1.ContainerRestartRule{rule(actRestart, opIn, 7), rule(actRestart, opIn, 42)}}, &corev1.ContainerStatus{State: terminated(42)}), "app", Options{}, true, false, 1, BasisRule, "exit code 42 matched rule 1 (In [42]) → Restart"},
		{"waiting after a termination reads the last termination", pod(corev1.RestartPolicyNever, corev1.Container{Name: "app", RestartPolicy: &never, RestartPolicyRules: []corev1.ContainerRestartRule{rule(actRestart, opNotIn, 0, 1)}}, &corev1.ContainerStatus{State: waiting, LastTerminationState: terminated(137)}), "app", Options{}, true, false, 0, BasisRule, "exit code 137 matched rule 0 (NotIn [0 1]) → Restart"},
		{"restart all", pod(corev1.RestartPolicyNever, corev1.Container{Name: "app", RestartPolicy: &never, RestartPolicyRules: []corev1.ContainerRestartRule{rule(actRestartAll, opIn, 42)}}, &corev1.ContainerStatus{State: terminated(42)}), "app", Options{}, true, true, 0, BasisRule, "exit code 42 matched rule 0 (In [42]) → RestartAllContainers"},
		{"restart all with the gate off", pod(corev1.RestartPolicyAlways, corev1.Container{Name: "app", RestartPolicy: &never, RestartPolicyRules: []corev1.ContainerRestartRule{rule(actRestartAll, opIn, 42)}}, &corev1.ContainerStatus{State: terminated(42)}), "app", racOff, false, false, 0, BasisContainerPolicy, "exit code 42 matched rule 0 (In [42]) with action RestartAllContainers but RestartAllContainersOnContainerExits is off; container restartPolicy Never → no restart"},
		{"unknown action", pod(corev1.RestartPolicyAlways, corev1.Container{Name: "app", RestartPolicy: &onFailure, RestartPolicyRules: []corev1.ContainerRestartRule{rule("Skip", opIn, 3)}}, &corev1.ContainerStatus{State: terminated(3)}), "app", Options{}, true, false, 0, BasisContainerPolicy, "exit code 3 matched rule 0 (In [3]) with action Skip which is not recognised; container restartPolicy OnFailure → Restart"},
		{"no rule matched, container policy", pod(corev1.RestartPolicyAlways, corev1.Container{Name: "app", RestartPolicy: &onFailure, RestartPolicyRules: []corev1.ContainerRestartRule{rule(actRestart, opIn, 42)}}, &corev1.ContainerStatus{State: terminated(0)}), "app", Options{}, false, false, -1, BasisContainerPolicy, "exit code 0 matched no rule; container restartPolicy OnFailure → no restart"},
		{"container policy Always", pod(corev1.RestartPolicyNever, corev1.Container{Name: "app", RestartPolicy: &always}, &corev1.ContainerStatus{State: terminated(0)}), "app", Options{}, true, false, -1, BasisContainerPolicy, "exit code 0 matched no rule; container restartPolicy Always → Restart"},
		{"pod policy", pod(corev1.RestartPolicyOnFailure, corev1.Container{Name: "app"}, &corev1.ContainerStatus{State: terminated(0)}), "app", Options{}, false, false, -1, BasisPodPolicy, "exit code 0; pod restartPolicy OnFailure → no restart"},
		{"empty pod policy", pod("", corev1.Container{Name: "app"}, &corev1.ContainerStatus{State: terminated(0)}), "app", Options{}, true, false, -1, BasisPodPolicy, `exit code 0; pod restartPolicy "" (treated as Always) → Restart`},
		{"unknown container policy", pod(corev1.RestartPolicyNever, corev1.Container{Name: "app", RestartPolicy: cpol("Maybe")}, &corev1.ContainerStatus{State: terminated(2)}), "app", Options{}, false, false, -1, BasisPodPolicy, `exit code 2 matched no rule; container restartPolicy "Maybe" is not recognised; pod restartPolicy Never → no restart`},
		{"rules gate off ignores the container policy", pod(corev1.RestartPolicyOnFailure, corev1.Container{Name: "app", RestartPolicy: &never}, &corev1.ContainerStatus{State: terminated(1)}), "app", crrOff, true, false, -1, BasisPodPolicyRulesOff, "exit code 1; pod restartPolicy OnFailure (ContainerRestartRules is off) → Restart"},
		{"init container reads init statuses", initPod, "init", Options{}, true, false, -1, BasisContainerPolicy, "exit code 3 matched no rule; container restartPolicy OnFailure → Restart"},
		{"completed init container under pod Always", &corev1.Pod{Spec: corev1.PodSpec{InitContainers: []corev1.Container{{Name: "init"}}}, Status: corev1.PodStatus{InitContainerStatuses: []corev1.ContainerStatus{{Name: "init", State: terminated(0)}}}}, "init", Options{}, true, false, -1, BasisPodPolicy, `exit code 0; pod restartPolicy "" (treated as Always) → Restart`},
		{"ephemeral container", ephPod, "debug", Options{}, true, false, -1, BasisPodPolicy, "exit code 0; pod restartPolicy Always → Restart"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := ShouldRestart(tc.pod, tc.container, tc.opts)
			if d.Restart != tc.want || d.RestartAllContainers() != tc.wantAll || d.RuleIndex() != tc.wantIndex || d.Basis() != tc.wantBasis {
				t.Errorf("got Restart=%v All=%v RuleIndex=%d Basis=%v; want %v %v %d %v", d.Restart, d.RestartAllContainers(), d.RuleIndex(), d.Basis(), tc.want, tc.wantAll, tc.wantIndex, tc.wantBasis)
			}
			if (d.Rule() == nil) != (d.RuleIndex() < 0) {
				t.Errorf("Rule %v inconsistent with RuleIndex %d", d.Rule(), d.RuleIndex())
			}
			if got := d.Explain(); got != tc.wantReason {
				t.Errorf("Explain() = %q\nwant         %q", got, tc.wantReason)
			}
			if d.String() != d.Explain() {
				t.Errorf("String() != Explain()")
			}
		})
	}
}

func TestShouldRestartInstanceStates(t *testing.T) {
	pod := &corev1.Pod{Spec: corev1.PodSpec{RestartPolicy: corev1.RestartPolicyNever, Containers: []corev1.Container{{Name: "app"}}}}
	c := &pod.Spec.Containers[0]
	for _, tc := range []struct {
		inst   *Instance
		want   bool
		reason string
	}{
		{nil, true, "container has no instance yet → Restart"},
		{&Instance{State: StateCreated}, true, "container is in state created → Restart"},
		{&Instance{State: StateUnknown}, true, "container is in state unknown → Restart"},
		{&Instance{State: StateRunning}, false, "container is running → no restart"},
		{&Instance{State: StateExited, ExitCode: 1}, false, "exit code 1; pod restartPolicy Never → no restart"},
		// A state the kubelet does not name is unknown (State.Kubelet), as
		// toKubeContainerState maps it, and an unknown instance is restarted.
		{&Instance{State: "paused", ExitCode: 1}, true, "container is in state unknown → Restart"},
		{&Instance{State: StateNone, ExitCode: 1}, true, "container is in state unknown → Restart"},
	} {
		d := ShouldRestartInstance(pod, c, tc.inst, Options{})
		if d.Restart != tc.want || d.Explain() != tc.reason {
			t.Errorf("%+v: got %v %q, want %v %q", tc.inst, d.Restart, d.Explain(), tc.want, tc.reason)
		}
	}
	if d := ShouldRestartInstance(nil, c, nil, Options{}); d.Restart || d.Basis() != BasisNoPod {
		t.Errorf("nil pod: %+v", d)
	}
	if d := ShouldRestartInstance(pod, nil, nil, Options{}); d.Restart || d.Basis() != BasisContainerNotFound {
		t.Errorf("nil container: %+v", d)
	}
}

func TestInstanceFromStatus(t *testing.T) {
	at := metav1.NewTime(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	for _, tc := range []struct {
		name string
		st   *corev1.ContainerStatus
		want Instance
		ok   bool
	}{
		{"nil", nil, Instance{}, false},
		{"waiting", &corev1.ContainerStatus{Name: "a", State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{}}}, Instance{}, false},
		{"running", &corev1.ContainerStatus{Name: "a", State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}}, Instance{Name: "a", State: StateRunning}, true},
		{"terminated", &corev1.ContainerStatus{Name: "a", State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 137, Reason: "OOMKilled", FinishedAt: at}}}, Instance{Name: "a", State: StateExited, ExitCode: 137, Reason: "OOMKilled", FinishedAt: at.Time}, true},
		{"waiting after termination", &corev1.ContainerStatus{Name: "a", State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{}}, LastTerminationState: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 2, FinishedAt: at}}}, Instance{Name: "a", State: StateExited, ExitCode: 2, FinishedAt: at.Time}, true},
		{"terminated, whole record", &corev1.ContainerStatus{Name: "a", ContainerID: "cri://status", Image: "img", RestartCount: 3,
			State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ContainerID: "cri://t", ExitCode: 1, Reason: "Error", Message: "boom", StartedAt: at, FinishedAt: metav1.NewTime(at.Add(time.Minute))}}},
			Instance{Name: "a", ID: "cri://t", State: StateExited, ExitCode: 1, Reason: "Error", Message: "boom", StartedAt: at.Time, FinishedAt: at.Add(time.Minute)}, true},
		{"last termination, whole record", &corev1.ContainerStatus{Name: "a", State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "CrashLoopBackOff"}},
			LastTerminationState: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ContainerID: "cri://l", ExitCode: 137, Reason: "OOMKilled", Message: "oom", StartedAt: at, FinishedAt: at}}},
			Instance{Name: "a", ID: "cri://l", State: StateExited, ExitCode: 137, Reason: "OOMKilled", Message: "oom", StartedAt: at.Time, FinishedAt: at.Time}, true},
	} {
		got, ok := InstanceFromStatus(tc.st)
		if ok != tc.ok || got != tc.want {
			t.Errorf("%s: got %+v %v, want %+v %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}

func TestExitedInstance(t *testing.T) {
	at := metav1.NewTime(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	if got, want := ExitedInstance("a", nil), (Instance{Name: "a", State: StateExited}); got != want {
		t.Errorf("nil record: got %+v, want %+v", got, want)
	}
	term := &corev1.ContainerStateTerminated{ContainerID: "cri://x", ExitCode: 2, Signal: 9, Reason: "Error", Message: "m", StartedAt: at, FinishedAt: metav1.NewTime(at.Add(time.Second))}
	want := Instance{Name: "a", ID: "cri://x", State: StateExited, ExitCode: 2, Reason: "Error", Message: "m", StartedAt: at.Time, FinishedAt: at.Add(time.Second)}
	if got := ExitedInstance("a", term); got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
	// The same record read by InstanceFromStatus gives the same instance.
	if got, _ := InstanceFromStatus(&corev1.ContainerStatus{Name: "a", State: corev1.ContainerState{Terminated: term}}); got != want {
		t.Errorf("InstanceFromStatus disagrees: %+v", got)
	}
}

func TestBasisString(t *testing.T) {
	if BasisRule.String() != "Rule" || BasisPodPolicyRulesOff.String() != "PodPolicyRulesOff" || Basis(200).String() != "Basis(200)" {
		t.Errorf("Basis strings: %v %v %v", BasisRule, BasisPodPolicyRulesOff, Basis(200))
	}
}

// ShouldRestart must not allocate for a pod with a status (the performance promise;
// the benchmark measures time).
func TestShouldRestartAllocatesNothing(t *testing.T) {
	never := corev1.ContainerRestartPolicyNever
	pod := &corev1.Pod{
		Spec: corev1.PodSpec{
			InitContainers: []corev1.Container{{Name: "init"}},
			Containers:     []corev1.Container{{Name: "sidecar-like"}, {Name: "app", RestartPolicy: &never, RestartPolicyRules: []corev1.ContainerRestartRule{rule(actRestart, opIn, 1, 2), rule(actRestartAll, opIn, 42)}}},
		},
		Status: corev1.PodStatus{ContainerStatuses: []corev1.ContainerStatus{
			{Name: "sidecar-like", State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}},
			{Name: "app", State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{}}, LastTerminationState: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 42}}},
		}},
	}
	for _, opts := range []Options{{}, racOff, crrOff} {
		if n := testing.AllocsPerRun(100, func() { _ = ShouldRestart(pod, "app", opts) }); n != 0 {
			t.Errorf("ShouldRestart allocates %v times with %v", n, opts.Features)
		}
	}
}

// TestShouldRestartResolvesSpecialGates pins issue 8's wrong answer: AllBeta=false
// turns the beta ContainerRestartRules gate off, so a container's own restartPolicy
// Always is ignored and the pod's Never decides, exactly as with the two gates off by
// name. Before the one resolver, restart read the override map by itself and
// restarted the container.
func TestShouldRestartResolvesSpecialGates(t *testing.T) {
	always := corev1.ContainerRestartPolicyAlways
	pod := &corev1.Pod{
		Spec: corev1.PodSpec{RestartPolicy: corev1.RestartPolicyNever, Containers: []corev1.Container{{Name: "app", RestartPolicy: &always}}},
		Status: corev1.PodStatus{ContainerStatuses: []corev1.ContainerStatus{{
			Name: "app", State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 1}},
		}}},
	}
	cases := []struct {
		gates gates.FeatureGates
		want  bool
		text  string
	}{
		{nil, true, "exit code 1 matched no rule; container restartPolicy Always → Restart"},
		{gates.FeatureGates{"AllBeta": false}, false, "exit code 1; pod restartPolicy Never (ContainerRestartRules is off) → no restart"},
		{gates.FeatureGates{"ContainerRestartRules": false, "RestartAllContainersOnContainerExits": false}, false, "exit code 1; pod restartPolicy Never (ContainerRestartRules is off) → no restart"},
		// An explicit override beats AllBeta, as upstream's Enabled does.
		{gates.FeatureGates{"AllBeta": false, "ContainerRestartRules": true}, true, "exit code 1 matched no rule; container restartPolicy Always → Restart"},
		{gates.FeatureGates{"AllAlpha": true, "AllBeta": true}, true, "exit code 1 matched no rule; container restartPolicy Always → Restart"},
	}
	for _, tc := range cases {
		d := ShouldRestart(pod, "app", Options{Features: tc.gates})
		if d.Restart != tc.want || d.Explain() != tc.text {
			t.Errorf("%v: Restart=%t %q, want %t %q", tc.gates, d.Restart, d.Explain(), tc.want, tc.text)
		}
	}
}

// TestShouldRestartWholeDecision pins every field of the decisions ShouldRestart
// settles before any lookup (no pod, a pod being deleted) and of one it settles
// after them.
func TestShouldRestartWholeDecision(t *testing.T) {
	deleted := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{DeletionTimestamp: &metav1.Time{}},
		Spec:       corev1.PodSpec{RestartPolicy: corev1.RestartPolicyOnFailure, Containers: []corev1.Container{{Name: "app"}}},
		Status:     corev1.PodStatus{ContainerStatuses: []corev1.ContainerStatus{{Name: "app", State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}}}},
	}
	live := deleted.DeepCopy()
	live.DeletionTimestamp = nil
	for _, tc := range []struct {
		name      string
		pod       *corev1.Pod
		container string
		want      decisionFields
	}{
		{"nil pod", nil, "app", decisionFields{RuleIndex: -1, Basis: BasisNoPod}},
		{"deleted pod", deleted, "app", decisionFields{RuleIndex: -1, PodPolicy: corev1.RestartPolicyOnFailure, Basis: BasisDeletion}},
		{"deleted pod, unknown name", deleted, "web", decisionFields{RuleIndex: -1, PodPolicy: corev1.RestartPolicyOnFailure, Basis: BasisDeletion}},
		{"running", live, "app", decisionFields{RuleIndex: -1, Container: "app", PodPolicy: corev1.RestartPolicyOnFailure, Basis: BasisRunning, State: StateRunning}},
		{"unknown name", live, "web", decisionFields{RuleIndex: -1, PodPolicy: corev1.RestartPolicyOnFailure, Basis: BasisContainerNotFound}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := fieldsOf(ShouldRestart(tc.pod, tc.container, Options{})); got != tc.want {
				t.Errorf("ShouldRestart = %+v\nwant            %+v", got, tc.want)
			}
		})
	}
}

// decisionFields is every answer of a Decision, as one comparable value.
type decisionFields struct {
	Restart, RestartAllContainers bool
	Rule                          *corev1.ContainerRestartRule
	RuleIndex                     int
	Basis                         Basis
	Container                     string
	State                         State
	ExitCode                      int32
	ContainerPolicy               corev1.ContainerRestartPolicy
	PodPolicy                     corev1.RestartPolicy
}

// fieldsOf reads every answer of d through its methods.
func fieldsOf(d Decision) decisionFields {
	return decisionFields{
		Restart: d.Restart, RestartAllContainers: d.RestartAllContainers(),
		Rule: d.Rule(), RuleIndex: d.RuleIndex(), Basis: d.Basis(), Container: d.Container(),
		State: d.State(), ExitCode: d.ExitCode(), ContainerPolicy: d.ContainerPolicy(), PodPolicy: d.PodPolicy(),
	}
}
