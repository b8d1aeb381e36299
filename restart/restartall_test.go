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
		view *View
		want bool
	}{
		{"pod marked with condition", &corev1.Pod{
			Spec:   corev1.PodSpec{Containers: []corev1.Container{{Name: "regular", RestartPolicy: &never}}},
			Status: corev1.PodStatus{Conditions: []corev1.PodCondition{cond}},
		}, view(Instance{Name: "regular", State: StateRunning}), true},
		{"regular container exited with matching rules", &corev1.Pod{
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "regular", RestartPolicy: &never, RestartPolicyRules: all42}}},
		}, view(Instance{Name: "regular", State: StateExited, ExitCode: 42}), true},
		{"init container exited with matching rules", &corev1.Pod{
			Spec: corev1.PodSpec{InitContainers: []corev1.Container{{Name: "init", RestartPolicy: &never, RestartPolicyRules: all42}}},
		}, view(Instance{Name: "init", State: StateExited, ExitCode: 42}), true},
		{"sidecar container exited with matching rules", &corev1.Pod{
			Spec: corev1.PodSpec{InitContainers: []corev1.Container{{Name: "init", RestartPolicy: &always, RestartPolicyRules: all42}}},
		}, view(Instance{Name: "init", State: StateExited, ExitCode: 42}), true},
		{"container exited without rules", &corev1.Pod{
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "regular"}}},
		}, view(Instance{Name: "regular", State: StateExited, ExitCode: 1}), false},
		// Beyond upstream's table.
		{"nil pod", nil, nil, false},
		{"condition False does not count", &corev1.Pod{Status: corev1.PodStatus{Conditions: []corev1.PodCondition{{Type: corev1.AllContainersRestarting, Status: corev1.ConditionFalse}}}}, nil, false},
		{"only the newest instance counts", &corev1.Pod{
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", RestartPolicy: &never, RestartPolicyRules: all42}}},
		}, view(Instance{Name: "c", State: StateRunning}, Instance{Name: "c", State: StateExited, ExitCode: 42}), false},
		{"rules match without a container policy", &corev1.Pod{
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", RestartPolicyRules: all42}}},
		}, view(Instance{Name: "c", State: StateExited, ExitCode: 42}), true},
		{"API status terminated, no runtime", &corev1.Pod{
			Spec:   corev1.PodSpec{Containers: []corev1.Container{{Name: "c", RestartPolicy: &never, RestartPolicyRules: all42}}},
			Status: corev1.PodStatus{ContainerStatuses: []corev1.ContainerStatus{terminated("c", 42)}},
		}, nil, true},
		{"API last termination is not consulted", &corev1.Pod{
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", RestartPolicy: &never, RestartPolicyRules: all42}}},
			Status: corev1.PodStatus{ContainerStatuses: []corev1.ContainerStatus{{Name: "c",
				State:                corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{}},
				LastTerminationState: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 42}}}}},
		}, nil, false},
		{"a regular status shadows an init status of the same name", &corev1.Pod{
			Spec: corev1.PodSpec{InitContainers: []corev1.Container{{Name: "c", RestartPolicy: &never, RestartPolicyRules: all42}}},
			Status: corev1.PodStatus{
				InitContainerStatuses: []corev1.ContainerStatus{terminated("c", 42)},
				ContainerStatuses:     []corev1.ContainerStatus{terminated("c", 1)},
			},
		}, nil, false},
		{"the last status of a name wins", &corev1.Pod{
			Spec:   corev1.PodSpec{Containers: []corev1.Container{{Name: "c", RestartPolicy: &never, RestartPolicyRules: all42}}},
			Status: corev1.PodStatus{ContainerStatuses: []corev1.ContainerStatus{terminated("c", 1), terminated("c", 42)}},
		}, nil, true},
		{"with a runtime, the API status is only read after a runtime exit", &corev1.Pod{
			Spec:   corev1.PodSpec{Containers: []corev1.Container{{Name: "c", RestartPolicy: &never, RestartPolicyRules: all42}}},
			Status: corev1.PodStatus{ContainerStatuses: []corev1.ContainerStatus{terminated("c", 42)}},
		}, view(Instance{Name: "c", State: StateCreated}), false},
		{"with a runtime exit that does not match, the API status is read", &corev1.Pod{
			Spec:   corev1.PodSpec{Containers: []corev1.Container{{Name: "c", RestartPolicy: &never, RestartPolicyRules: all42}}},
			Status: corev1.PodStatus{ContainerStatuses: []corev1.ContainerStatus{terminated("c", 42)}},
		}, view(Instance{Name: "c", State: StateExited, ExitCode: 1}), true},
		{"with an empty runtime, the API status is not read", &corev1.Pod{
			Spec:   corev1.PodSpec{Containers: []corev1.Container{{Name: "c", RestartPolicy: &never, RestartPolicyRules: all42}}},
			Status: corev1.PodStatus{ContainerStatuses: []corev1.ContainerStatus{terminated("c", 42)}},
		}, view(), false},
		{"ephemeral containers are skipped", &corev1.Pod{
			Spec: corev1.PodSpec{EphemeralContainers: []corev1.EphemeralContainer{{EphemeralContainerCommon: corev1.EphemeralContainerCommon{Name: "e", RestartPolicyRules: all42}}}},
		}, view(Instance{Name: "e", State: StateExited, ExitCode: 42}), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ShouldAllContainersRestart(tc.pod, tc.view); got != tc.want {
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
	running := corev1.ContainerStatus{State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}}
	crashLoop := corev1.ContainerStatus{
		State:                corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "CrashLoopBackOff"}},
		LastTerminationState: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 1}},
	}
	waiting := corev1.ContainerStatus{State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "PodInitializing"}}}
	// An ephemeral status named after the regular container: without a view, the
	// statuses yield instances by name from every list.
	ephemeralNamedApp := pod.DeepCopy()
	ephemeralNamedApp.Status.EphemeralContainerStatuses = []corev1.ContainerStatus{{Name: "app", State: running.State}}
	onlyDebug := pod.DeepCopy()
	onlyDebug.Status.EphemeralContainerStatuses = []corev1.ContainerStatus{{Name: "debug", State: running.State}}
	for _, tc := range []struct {
		name string
		pod  *corev1.Pod
		view *View
		want bool
	}{
		{"empty view", pod, view(), true},
		{"an exited instance remains", pod, view(Instance{Name: "app", State: StateExited}), false},
		{"an init instance remains", pod, view(Instance{Name: "init", State: StateUnknown}), false},
		{"an instance in any state remains", pod, view(Instance{Name: "app", State: StateNone}), false},
		{"ephemeral instances are ignored", pod, view(Instance{Name: "debug", State: StateRunning}), true},
		{"instances of other names are ignored", pod, view(Instance{Name: "gone", State: StateExited}), true},
		{"a view ignores the API status", withStatus(exited, running), view(), true},
		{"status: no statuses", pod, nil, true},
		{"status: all removed", withStatus(removed, removed), nil, true},
		{"status: one still terminated", withStatus(removed, exited), nil, false},
		{"status: one running", withStatus(running, removed), nil, false},
		{"status: waiting after a termination is an instance", withStatus(removed, crashLoop), nil, false},
		{"status: waiting without a termination is none", withStatus(waiting, waiting), nil, true},
		{"status: an ephemeral status counts by name", ephemeralNamedApp, nil, false},
		{"status: an ephemeral container's status is ignored", onlyDebug, nil, true},
		{"nil pod", nil, nil, true},
		{"nil pod with a view", nil, view(Instance{Name: "app", State: StateRunning}), true},
	} {
		if got := AllContainersRestartCleanedUp(tc.pod, tc.view); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}

// view is a runtime view holding only the given instances, newest first.
func view(insts ...Instance) *View { return &View{Instances: insts} }

func TestViewNewest(t *testing.T) {
	v := view(
		Instance{Name: "a", State: StateRunning},
		Instance{Name: "b", State: StateExited, ExitCode: 1},
		Instance{Name: "a", State: StateExited, ExitCode: 2},
		Instance{Name: "a", State: StateExited, ExitCode: 3},
		Instance{Name: "u", State: StateNone, ExitCode: 4},
		Instance{Name: "u", State: "paused", ExitCode: 5},
		Instance{Name: "u", State: StateExited, ExitCode: 6},
	)
	if i, ok := v.Newest("a"); !ok || i.State != StateRunning {
		t.Errorf("Newest(a) = %+v %v", i, ok)
	}
	if i, ok := v.NewestExited("a"); !ok || i.ExitCode != 2 {
		t.Errorf("NewestExited(a) = %+v %v", i, ok)
	}
	// Newest returns the instance as stored; its state reads as unknown.
	if i, ok := v.Newest("u"); !ok || i.ExitCode != 4 || i.State != StateNone || i.State.Kubelet() != StateUnknown {
		t.Errorf("Newest(u) = %+v %v", i, ok)
	}
	// NewestExited reads states through Kubelet: "" and "paused" are not exited.
	if i, ok := v.NewestExited("u"); !ok || i.ExitCode != 6 {
		t.Errorf("NewestExited(u) = %+v %v", i, ok)
	}
	if _, ok := v.Newest("c"); ok {
		t.Errorf("Newest(c) found")
	}
	if _, ok := v.NewestExited("c"); ok {
		t.Errorf("NewestExited(c) found")
	}
	var nilView *View
	if _, ok := nilView.Newest("a"); ok {
		t.Errorf("nil view: Newest found")
	}
	if _, ok := nilView.NewestExited("a"); ok {
		t.Errorf("nil view: NewestExited found")
	}
}

func TestStateKubelet(t *testing.T) {
	for in, want := range map[State]State{
		StateCreated: StateCreated, StateRunning: StateRunning, StateExited: StateExited,
		StateUnknown: StateUnknown, StateNone: StateUnknown, "paused": StateUnknown, "Exited": StateUnknown,
	} {
		if got := in.Kubelet(); got != want {
			t.Errorf("State(%q).Kubelet() = %q, want %q", in, got, want)
		}
	}
}

// Without a view, the restart-all functions read the newest instance of a container
// from the API statuses: init, regular, then ephemeral, the first with the name that
// yields one; a status waiting with reason RestartingAllContainers yields none.
func TestNewestFromStatus(t *testing.T) {
	s := &corev1.PodStatus{
		InitContainerStatuses: []corev1.ContainerStatus{
			{Name: "both", State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: ReasonRestartingAllContainers}},
				LastTerminationState: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 9}}},
		},
		ContainerStatuses: []corev1.ContainerStatus{
			{Name: "run", State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}},
			{Name: "done", State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 4, ContainerID: "cri://d"}}},
			{Name: "both", State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 5}}},
		},
		EphemeralContainerStatuses: []corev1.ContainerStatus{
			{Name: "run", State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 7}}},
		},
	}
	x := newNewest(nil, s)
	for _, tc := range []struct {
		name  string
		ok    bool
		state State
		code  int32
	}{
		{"run", true, StateRunning, 0},
		{"done", true, StateExited, 4},
		{"both", true, StateExited, 5}, // the removed init status yields nothing
		{"missing", false, StateNone, 0},
	} {
		inst, ok := x.get(tc.name)
		if ok != tc.ok || inst.State != tc.state || inst.ExitCode != tc.code || ok && inst.Name != tc.name {
			t.Errorf("get(%s) = %+v %v, want %v %s %d", tc.name, inst, ok, tc.ok, tc.state, tc.code)
		}
	}
	if inst, _ := x.get("done"); inst.ID != "cri://d" {
		t.Errorf("get(done) lost the container ID: %+v", inst)
	}
	empty := newNewest(nil, &corev1.PodStatus{})
	if _, ok := empty.get("x"); ok {
		t.Errorf("an empty status has an instance")
	}
	// A view wins over the statuses, even an empty one.
	v := newNewest(&View{}, s)
	if _, ok := v.get("run"); ok {
		t.Errorf("an empty view has an instance")
	}
}
