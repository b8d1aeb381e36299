package restart

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// Upstream TestShouldAllContainersRestart (k8s.io/kubernetes
// pkg/kubelet/container/helpers_test.go) and more.
func TestShouldAllContainersRestart(t *testing.T) {
	never, always := corev1.ContainerRestartPolicyNever, corev1.ContainerRestartPolicyAlways
	all42 := []corev1.ContainerRestartRule{rule(actRestartAll, opIn, 42)}
	cond := corev1.PodCondition{Type: corev1.AllContainersRestarting, Status: corev1.ConditionTrue}
	terminated := func(name string, code int32) corev1.ContainerStatus {
		return corev1.ContainerStatus{Name: name, State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: code}}}
	}
	for _, tc := range []struct {
		name string
		pod  *corev1.Pod
		rt   Runtime
		opts Options
		want bool
	}{
		{"pod marked with condition", &corev1.Pod{
			Spec:   corev1.PodSpec{Containers: []corev1.Container{{Name: "regular", RestartPolicy: &never}}},
			Status: corev1.PodStatus{Conditions: []corev1.PodCondition{cond}},
		}, Instances{{Name: "regular", State: StateRunning}}, Options{}, true},
		{"regular container exited with matching rules", &corev1.Pod{
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "regular", RestartPolicy: &never, RestartPolicyRules: all42}}},
		}, Instances{{Name: "regular", State: StateExited, ExitCode: 42}}, Options{}, true},
		{"init container exited with matching rules", &corev1.Pod{
			Spec: corev1.PodSpec{InitContainers: []corev1.Container{{Name: "init", RestartPolicy: &never, RestartPolicyRules: all42}}},
		}, Instances{{Name: "init", State: StateExited, ExitCode: 42}}, Options{}, true},
		{"sidecar container exited with matching rules", &corev1.Pod{
			Spec: corev1.PodSpec{InitContainers: []corev1.Container{{Name: "init", RestartPolicy: &always, RestartPolicyRules: all42}}},
		}, Instances{{Name: "init", State: StateExited, ExitCode: 42}}, Options{}, true},
		{"container exited without rules", &corev1.Pod{
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "regular"}}},
		}, Instances{{Name: "regular", State: StateExited, ExitCode: 1}}, Options{}, false},
		// Beyond upstream's table.
		{"gate off", &corev1.Pod{
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "regular", RestartPolicy: &never, RestartPolicyRules: all42}}},
		}, Instances{{Name: "regular", State: StateExited, ExitCode: 42}}, racOff, false},
		{"nil pod", nil, nil, Options{}, false},
		{"condition False does not count", &corev1.Pod{Status: corev1.PodStatus{Conditions: []corev1.PodCondition{{Type: corev1.AllContainersRestarting, Status: corev1.ConditionFalse}}}}, nil, Options{}, false},
		{"only the newest instance counts", &corev1.Pod{
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", RestartPolicy: &never, RestartPolicyRules: all42}}},
		}, Instances{{Name: "c", State: StateRunning}, {Name: "c", State: StateExited, ExitCode: 42}}, Options{}, false},
		{"rules match without a container policy", &corev1.Pod{
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", RestartPolicyRules: all42}}},
		}, Instances{{Name: "c", State: StateExited, ExitCode: 42}}, Options{}, true},
		{"API status terminated, no runtime", &corev1.Pod{
			Spec:   corev1.PodSpec{Containers: []corev1.Container{{Name: "c", RestartPolicy: &never, RestartPolicyRules: all42}}},
			Status: corev1.PodStatus{ContainerStatuses: []corev1.ContainerStatus{terminated("c", 42)}},
		}, nil, Options{}, true},
		{"API last termination is not consulted", &corev1.Pod{
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", RestartPolicy: &never, RestartPolicyRules: all42}}},
			Status: corev1.PodStatus{ContainerStatuses: []corev1.ContainerStatus{{Name: "c",
				State:                corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{}},
				LastTerminationState: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 42}}}}},
		}, nil, Options{}, false},
		{"a regular status shadows an init status of the same name", &corev1.Pod{
			Spec: corev1.PodSpec{InitContainers: []corev1.Container{{Name: "c", RestartPolicy: &never, RestartPolicyRules: all42}}},
			Status: corev1.PodStatus{
				InitContainerStatuses: []corev1.ContainerStatus{terminated("c", 42)},
				ContainerStatuses:     []corev1.ContainerStatus{terminated("c", 1)},
			},
		}, nil, Options{}, false},
		{"the last status of a name wins", &corev1.Pod{
			Spec:   corev1.PodSpec{Containers: []corev1.Container{{Name: "c", RestartPolicy: &never, RestartPolicyRules: all42}}},
			Status: corev1.PodStatus{ContainerStatuses: []corev1.ContainerStatus{terminated("c", 1), terminated("c", 42)}},
		}, nil, Options{}, true},
		{"with a runtime, the API status is only read after a runtime exit", &corev1.Pod{
			Spec:   corev1.PodSpec{Containers: []corev1.Container{{Name: "c", RestartPolicy: &never, RestartPolicyRules: all42}}},
			Status: corev1.PodStatus{ContainerStatuses: []corev1.ContainerStatus{terminated("c", 42)}},
		}, Instances{{Name: "c", State: StateCreated}}, Options{}, false},
		{"with a runtime exit that does not match, the API status is read", &corev1.Pod{
			Spec:   corev1.PodSpec{Containers: []corev1.Container{{Name: "c", RestartPolicy: &never, RestartPolicyRules: all42}}},
			Status: corev1.PodStatus{ContainerStatuses: []corev1.ContainerStatus{terminated("c", 42)}},
		}, Instances{{Name: "c", State: StateExited, ExitCode: 1}}, Options{}, true},
		{"with an empty runtime, the API status is not read", &corev1.Pod{
			Spec:   corev1.PodSpec{Containers: []corev1.Container{{Name: "c", RestartPolicy: &never, RestartPolicyRules: all42}}},
			Status: corev1.PodStatus{ContainerStatuses: []corev1.ContainerStatus{terminated("c", 42)}},
		}, Instances{}, Options{}, false},
		{"ephemeral containers are skipped", &corev1.Pod{
			Spec: corev1.PodSpec{EphemeralContainers: []corev1.EphemeralContainer{{EphemeralContainerCommon: corev1.EphemeralContainerCommon{Name: "e", RestartPolicyRules: all42}}}},
		}, Instances{{Name: "e", State: StateExited, ExitCode: 42}}, Options{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ShouldAllContainersRestart(tc.pod, tc.rt, tc.opts); got != tc.want {
				t.Errorf("ShouldAllContainersRestart = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestAllContainersRestartCleanedUp(t *testing.T) {
	pod := &corev1.Pod{Spec: corev1.PodSpec{
		InitContainers:      []corev1.Container{{Name: "init"}},
		Containers:          []corev1.Container{{Name: "app"}},
		EphemeralContainers: []corev1.EphemeralContainer{{EphemeralContainerCommon: corev1.EphemeralContainerCommon{Name: "debug"}}},
	}}
	removed := corev1.ContainerStatus{
		State:                corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: ReasonRestartingAllContainers}},
		LastTerminationState: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{Reason: ReasonRestartingAllContainers, ExitCode: 137}},
	}
	withStatus := func(init, app corev1.ContainerStatus) *corev1.Pod {
		p := pod.DeepCopy()
		init.Name, app.Name = "init", "app"
		p.Status.InitContainerStatuses = []corev1.ContainerStatus{init}
		p.Status.ContainerStatuses = []corev1.ContainerStatus{app}
		return p
	}
	exited := corev1.ContainerStatus{State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 42}}}
	for _, tc := range []struct {
		name string
		pod  *corev1.Pod
		rt   Runtime
		want bool
	}{
		{"empty runtime", pod, Instances{}, true},
		{"an exited instance remains", pod, Instances{{Name: "app", State: StateExited}}, false},
		{"an init instance remains", pod, Instances{{Name: "init", State: StateUnknown}}, false},
		{"ephemeral instances are ignored", pod, Instances{{Name: "debug", State: StateRunning}}, true},
		{"status: no statuses", pod, nil, true},
		{"status: all removed", withStatus(removed, removed), nil, true},
		{"status: one still terminated", withStatus(removed, exited), nil, false},
		{"nil pod", nil, nil, true},
	} {
		if got := AllContainersRestartCleanedUp(tc.pod, tc.rt, Options{}); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}

// Upstream TestGenerateAllContainersRestartingCondition (k8s.io/kubernetes
// pkg/kubelet/status/generate_test.go).
func TestAllContainersRestartingCondition(t *testing.T) {
	never := corev1.ContainerRestartPolicyNever
	spec := corev1.PodSpec{Containers: []corev1.Container{
		{Name: "container1"},
		{Name: "trigger", RestartPolicy: &never, RestartPolicyRules: []corev1.ContainerRestartRule{rule(actRestartAll, opIn, 42)}},
	}}
	trueCond := []corev1.PodCondition{{Type: corev1.AllContainersRestarting, Status: corev1.ConditionTrue}}
	started := corev1.PodCondition{Type: corev1.AllContainersRestarting, Status: corev1.ConditionTrue, Reason: "RestartAllContainersStarted", Message: "container exited with restart policy rule"}
	falseCond := corev1.PodCondition{Type: corev1.AllContainersRestarting, Status: corev1.ConditionFalse}
	for _, tc := range []struct {
		name  string
		rt    Instances
		conds []corev1.PodCondition
		phase corev1.PodPhase
		want  corev1.PodCondition
	}{
		{"pod pending", nil, nil, corev1.PodPending, falseCond},
		{"pod failed", nil, nil, corev1.PodFailed, corev1.PodCondition{Type: corev1.AllContainersRestarting, Status: corev1.ConditionFalse, Reason: "PodFailed"}},
		{"pod succeeded", nil, nil, corev1.PodSucceeded, corev1.PodCondition{Type: corev1.AllContainersRestarting, Status: corev1.ConditionFalse, Reason: "PodCompleted"}},
		{"container triggers RestartAllContainers rule", Instances{{Name: "container", State: StateRunning}, {Name: "trigger", State: StateExited, ExitCode: 42}}, nil, corev1.PodRunning, started},
		{"container triggers RestartAllContainers rule, cleaning up", Instances{{Name: "container", State: StateExited}, {Name: "trigger", State: StateExited, ExitCode: 42}}, trueCond, corev1.PodRunning, started},
		{"container triggers RestartAllContainers rule, cleaned up", nil, trueCond, corev1.PodPending, falseCond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pod := &corev1.Pod{Spec: spec, Status: corev1.PodStatus{Conditions: tc.conds}}
			rt := tc.rt
			if rt == nil {
				rt = Instances{}
			}
			got, included := AllContainersRestartingCondition(pod, rt, tc.phase, Options{})
			if got != tc.want || !included {
				t.Errorf("got %+v included=%v, want %+v included", got, included, tc.want)
			}
			if _, included := AllContainersRestartingCondition(pod, rt, tc.phase, racOff); included {
				t.Errorf("included with the gate off")
			}
		})
	}
	if _, included := AllContainersRestartingCondition(&corev1.Pod{}, nil, corev1.PodRunning, Options{}); included {
		t.Errorf("included for a pod without RestartAllContainers rules")
	}
	if c, included := AllContainersRestartingCondition(nil, nil, corev1.PodRunning, Options{}); included || c != falseCond {
		t.Errorf("nil pod: %+v %v", c, included)
	}
}

func TestInstances(t *testing.T) {
	rt := Instances{{Name: "a", State: StateRunning}, {Name: "b", State: StateExited, ExitCode: 1}, {Name: "a", State: StateExited, ExitCode: 2}, {Name: "a", State: StateExited, ExitCode: 3}}
	if i, ok := rt.Newest("a"); !ok || i.State != StateRunning {
		t.Errorf("Newest(a) = %+v %v", i, ok)
	}
	if i, ok := rt.NewestExited("a"); !ok || i.ExitCode != 2 {
		t.Errorf("NewestExited(a) = %+v %v", i, ok)
	}
	if _, ok := rt.Newest("c"); ok {
		t.Errorf("Newest(c) found")
	}
	if _, ok := rt.NewestExited("c"); ok {
		t.Errorf("NewestExited(c) found")
	}
	sr := StatusRuntime{Status: &corev1.PodStatus{ContainerStatuses: []corev1.ContainerStatus{
		{Name: "run", State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}},
		{Name: "done", State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 4}}},
	}}}
	if _, ok := sr.NewestExited("run"); ok {
		t.Errorf("StatusRuntime.NewestExited(run) found")
	}
	if i, ok := sr.NewestExited("done"); !ok || i.ExitCode != 4 {
		t.Errorf("StatusRuntime.NewestExited(done) = %+v %v", i, ok)
	}
	if _, ok := (StatusRuntime{}).Newest("x"); ok {
		t.Errorf("empty StatusRuntime found an instance")
	}
}
