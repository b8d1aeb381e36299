package restart

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Upstream TestIsInitContainerFailed (k8s.io/kubernetes
// pkg/kubelet/kuberuntime/helpers_test.go).
func TestIsInitContainerFailed(t *testing.T) {
	for _, tc := range []struct {
		inst *Instance
		want bool
		desc string
	}{
		{&Instance{State: StateExited, ExitCode: 1}, true, "exited with a non-zero exit code"},
		{&Instance{State: StateUnknown}, true, "unknown state"},
		{&Instance{Reason: "OOMKilled", ExitCode: 0}, true, "reason OOMKilled"},
		{&Instance{State: StateExited, ExitCode: 0}, false, "exited with exit code 0"},
		{&Instance{State: StateRunning}, false, "running"},
		{&Instance{State: StateCreated}, false, "created"},
		{nil, false, "nil"},
	} {
		if got := IsInitContainerFailed(tc.inst); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.desc, got, tc.want)
		}
	}
}

func TestInitContainerAction(t *testing.T) {
	never, onFailure, always := corev1.ContainerRestartPolicyNever, corev1.ContainerRestartPolicyOnFailure, corev1.ContainerRestartPolicyAlways
	exited := func(code int32) *Instance { return &Instance{Name: "init", State: StateExited, ExitCode: code} }
	oom0 := &Instance{Name: "init", State: StateExited, Reason: ReasonOOMKilled}
	unknown := &Instance{Name: "init", State: StateUnknown}
	type tcase struct {
		name   string
		policy corev1.RestartPolicy
		c      corev1.Container
		inst   *Instance
		opts   Options
		want   InitAction
	}
	cases := []tcase{
		// The per-container outcomes of upstream TestComputePodActionsWithInitContainers
		// (k8s.io/kubernetes pkg/kubelet/kuberuntime/kuberuntime_manager_test.go).
		{"initialization failed; restart the last init container if RestartPolicy == Always", corev1.RestartPolicyAlways, corev1.Container{}, exited(137), Options{}, InitStart},
		{"initialization failed; restart the last init container if RestartPolicy == OnFailure", corev1.RestartPolicyOnFailure, corev1.Container{}, exited(137), Options{}, InitStart},
		{"initialization failed; kill pod if RestartPolicy == Never", corev1.RestartPolicyNever, corev1.Container{}, exited(137), Options{}, InitKillPod},
		{"init container state unknown; kill and recreate the last init container if RestartPolicy == Always", corev1.RestartPolicyAlways, corev1.Container{}, unknown, Options{}, InitKillAndStart},
		{"init container state unknown; kill and recreate the last init container if RestartPolicy == OnFailure", corev1.RestartPolicyOnFailure, corev1.Container{}, unknown, Options{}, InitKillAndStart},
		{"init container state unknown; kill pod if RestartPolicy == Never", corev1.RestartPolicyNever, corev1.Container{}, unknown, Options{}, InitKillPod},
		{"initialization in progress; do nothing", corev1.RestartPolicyAlways, corev1.Container{}, &Instance{Name: "init", State: StateRunning}, Options{}, InitWait},
		{"an init container is in the created state due to an unknown error when starting container; restart it", corev1.RestartPolicyAlways, corev1.Container{}, &Instance{Name: "init", State: StateCreated}, Options{}, InitStart},
		// More.
		{"no instance", corev1.RestartPolicyAlways, corev1.Container{}, nil, Options{}, InitNotStarted},
		{"created", corev1.RestartPolicyNever, corev1.Container{}, &Instance{State: StateCreated}, Options{}, InitStart},
		{"running", corev1.RestartPolicyNever, corev1.Container{}, &Instance{State: StateRunning}, Options{}, InitWait},
		{"succeeded", corev1.RestartPolicyAlways, corev1.Container{}, exited(0), Options{}, InitDone},
		{"failed, pod Always", corev1.RestartPolicyAlways, corev1.Container{}, exited(1), Options{}, InitStart},
		{"failed, pod OnFailure", corev1.RestartPolicyOnFailure, corev1.Container{}, exited(1), Options{}, InitStart},
		{"failed, pod Never", corev1.RestartPolicyNever, corev1.Container{}, exited(1), Options{}, InitKillPod},
		{"failed, container Never in an Always pod", corev1.RestartPolicyAlways, corev1.Container{RestartPolicy: &never}, exited(1), Options{}, InitKillPod},
		{"failed, container OnFailure in a Never pod", corev1.RestartPolicyNever, corev1.Container{RestartPolicy: &onFailure}, exited(1), Options{}, InitStart},
		{"failed, Restart rule in a Never pod", corev1.RestartPolicyNever, corev1.Container{RestartPolicy: &never, RestartPolicyRules: []corev1.ContainerRestartRule{rule(actRestart, opIn, 3)}}, exited(3), Options{}, InitStart},
		{"failed, container Never, gate off", corev1.RestartPolicyAlways, corev1.Container{RestartPolicy: &never}, exited(1), crrOff, InitStart},
		{"OOMKilled exit 0, pod OnFailure, gate on", corev1.RestartPolicyOnFailure, corev1.Container{}, oom0, Options{}, InitKillPod},
		{"OOMKilled exit 0, pod OnFailure, gate off", corev1.RestartPolicyOnFailure, corev1.Container{}, oom0, crrOff, InitStart},
		{"OOMKilled exit 0, pod Always", corev1.RestartPolicyAlways, corev1.Container{}, oom0, Options{}, InitStart},
		{"unknown, pod Always", corev1.RestartPolicyAlways, corev1.Container{}, unknown, Options{}, InitKillAndStart},
		{"unknown, pod Never", corev1.RestartPolicyNever, corev1.Container{}, unknown, Options{}, InitKillPod},
		{"unknown, container OnFailure in a Never pod", corev1.RestartPolicyNever, corev1.Container{RestartPolicy: &onFailure}, unknown, Options{}, InitKillAndStart},
		{"unknown, container Never in an Always pod", corev1.RestartPolicyAlways, corev1.Container{RestartPolicy: &never}, unknown, Options{}, InitKillPod},
		{"unknown, container Never, gate off", corev1.RestartPolicyAlways, corev1.Container{RestartPolicy: &never}, unknown, crrOff, InitKillAndStart},
		{"unknown, rules are not evaluated", corev1.RestartPolicyNever, corev1.Container{RestartPolicy: &never, RestartPolicyRules: []corev1.ContainerRestartRule{rule(actRestart, opNotIn)}}, unknown, Options{}, InitKillPod},
		{"sidecar exited 0 in a Never pod", corev1.RestartPolicyNever, corev1.Container{RestartPolicy: &always}, exited(0), Options{}, InitStart},
		{"sidecar exited 1 in a Never pod", corev1.RestartPolicyNever, corev1.Container{RestartPolicy: &always}, exited(1), crrOff, InitStart},
		{"sidecar unknown in a Never pod", corev1.RestartPolicyNever, corev1.Container{RestartPolicy: &always}, unknown, Options{}, InitKillAndStart},
		{"sidecar running", corev1.RestartPolicyNever, corev1.Container{RestartPolicy: &always}, &Instance{State: StateRunning}, Options{}, InitWait},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.c.Name = "init"
			pod := &corev1.Pod{Spec: corev1.PodSpec{RestartPolicy: tc.policy, InitContainers: []corev1.Container{tc.c}}}
			if got := InitContainerAction(pod, &pod.Spec.InitContainers[0], tc.inst, tc.opts); got != tc.want {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
	// With the gate on, a failed init container of a pod being deleted is not
	// restarted (ShouldContainerBeRestarted checks the deletion first).
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{DeletionTimestamp: &metav1.Time{}}, Spec: corev1.PodSpec{RestartPolicy: corev1.RestartPolicyAlways, InitContainers: []corev1.Container{{Name: "init"}}}}
	if got := InitContainerAction(pod, &pod.Spec.InitContainers[0], exited(1), Options{}); got != InitKillPod {
		t.Errorf("deleted pod: got %v, want KillPod", got)
	}
	if got := InitContainerAction(pod, &pod.Spec.InitContainers[0], exited(1), crrOff); got != InitStart {
		t.Errorf("deleted pod, gate off: got %v, want Start", got)
	}
	if InitContainerAction(nil, nil, exited(1), Options{}) != InitNotStarted {
		t.Errorf("nil pod")
	}
	if InitKillPod.String() != "KillPod" || InitAction(99).String() != "InitAction(?)" {
		t.Errorf("InitAction strings")
	}
}
