package lifecycle

import (
	"math/rand/v2"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podlife/podlife/restart"
)

// Upstream's TestGeneratePodReadyToStartContainersCondition
// (k8s.io/kubernetes pkg/kubelet/status/generate_test.go), plus the hostNetwork cases.
func TestPodReadyToStartContainersCondition(t *testing.T) {
	hostNet := &corev1.Pod{Spec: corev1.PodSpec{HostNetwork: true}}
	cases := []struct {
		name            string
		pod             *corev1.Pod
		sandboxes       []restart.Sandbox
		status          corev1.ConditionStatus
		reason, message string
	}{
		{name: "Empty pod status", pod: &corev1.Pod{}, status: corev1.ConditionFalse, reason: "PodSandboxNotReady", message: "no pod sandbox exists"},
		{name: "Pod sandbox status not ready", pod: &corev1.Pod{}, sandboxes: []restart.Sandbox{{Attempt: 0}},
			status: corev1.ConditionFalse, reason: "PodSandboxNotReady", message: "pod sandbox is not ready"},
		{name: "Pod with multiple ready sandboxes", pod: &corev1.Pod{},
			sandboxes: []restart.Sandbox{{Ready: true, Attempt: 1, Network: &restart.SandboxNetwork{IP: "10.0.0.10"}}, {Ready: true, Network: &restart.SandboxNetwork{IP: "10.0.0.11"}}},
			status:    corev1.ConditionFalse, reason: "PodSandboxNotReady", message: "multiple pod sandboxes are ready and need to be reconciled"},
		{name: "Pod sandbox status ready but network namespace mode changed", pod: hostNet,
			sandboxes: []restart.Sandbox{{Ready: true, Network: &restart.SandboxNetwork{IP: "10.0.0.10"}}},
			status:    corev1.ConditionFalse, reason: "PodSandboxNotReady", message: "network namespace mode changed and sandbox needs to be recreated"},
		{name: "Pod sandbox status ready but no IP configured", pod: &corev1.Pod{},
			sandboxes: []restart.Sandbox{{Ready: true, Network: &restart.SandboxNetwork{}}},
			status:    corev1.ConditionFalse, reason: "PodSandboxNotReady", message: "pod sandbox has no IP address"},
		{name: "Pod sandbox status ready and IP configured", pod: &corev1.Pod{},
			sandboxes: []restart.Sandbox{{Ready: true, Network: &restart.SandboxNetwork{IP: "10.0.0.10"}}}, status: corev1.ConditionTrue},
		{name: "host network sandbox without IP", pod: hostNet, sandboxes: []restart.Sandbox{{Ready: true, HostNetwork: true, Network: &restart.SandboxNetwork{}}}, status: corev1.ConditionTrue},
		{name: "no network status", pod: &corev1.Pod{}, sandboxes: []restart.Sandbox{{Ready: true}}, status: corev1.ConditionTrue},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := PodReadyToStartContainersCondition(tc.pod, &restart.View{Sandboxes: tc.sandboxes}, Options{})
			assert.Equal(t, corev1.PodCondition{Type: corev1.PodReadyToStartContainers, Status: tc.status, Reason: tc.reason, Message: tc.message}, got)
		})
	}
	t.Run("observedGeneration", func(t *testing.T) {
		pod := &corev1.Pod{}
		pod.Generation = 7
		assert.Equal(t, int64(7), PodReadyToStartContainersCondition(pod, nil, Options{}).ObservedGeneration)
		assert.Equal(t, "no pod sandbox exists", PodReadyToStartContainersCondition(nil, nil, Options{}).Message)
	})
}

// Helpers with the meaning of upstream's kubelet_pods_test.go helpers.
func csRunning(name string) corev1.ContainerStatus {
	return corev1.ContainerStatus{Name: name, State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}}
}

func csTerminated(name string, code int32) corev1.ContainerStatus {
	return corev1.ContainerStatus{Name: name, State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: code}}}
}

func csWaiting(name, reason string) corev1.ContainerStatus {
	return corev1.ContainerStatus{Name: name, State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: reason}}}
}

func csLostWhileRunning(name string, restarts int32) corev1.ContainerStatus {
	s := csWaiting(name, "ContainerCreating")
	s.LastTerminationState.Terminated = &corev1.ContainerStateTerminated{Reason: "ContainerStatusUnknown",
		Message: "The container could not be located when the pod was deleted.  The container used to be Running", ExitCode: 137}
	s.RestartCount = restarts
	return s
}

func csRestartingAll(name string, restarts int32) corev1.ContainerStatus {
	const msg = "The container is removed because RestartAllContainers in place"
	s := corev1.ContainerStatus{Name: name, RestartCount: restarts}
	s.State.Waiting = &corev1.ContainerStateWaiting{Reason: "RestartingAllContainers", Message: msg}
	s.LastTerminationState.Terminated = &corev1.ContainerStateTerminated{Reason: "RestartingAllContainers", Message: msg, ExitCode: 137}
	return s
}

func withRestarts(s corev1.ContainerStatus, n int32) corev1.ContainerStatus {
	s.RestartCount = n
	return s
}

func withLast(s corev1.ContainerStatus, last corev1.ContainerState) corev1.ContainerStatus {
	s.LastTerminationState = last
	return s
}

// Upstream's TestConvertToAPIContainerStatuses (kubelet_pods_test.go), run against the
// unexported conversion with the same arguments; as upstream, container IDs and
// resources are not compared.
func TestConvertToAPIContainerStatuses(t *testing.T) {
	now := metav1.Now()
	two := corev1.PodSpec{NodeName: "machine", RestartPolicy: corev1.RestartPolicyAlways, Containers: []corev1.Container{{Name: "containerA"}, {Name: "containerB"}}}
	withInit := corev1.PodSpec{NodeName: "machine", RestartPolicy: corev1.RestartPolicyAlways, InitContainers: []corev1.Container{{Name: "init-1"}}, Containers: []corev1.Container{{Name: "containerA"}}}
	withSidecar := corev1.PodSpec{NodeName: "machine", RestartPolicy: corev1.RestartPolicyAlways, InitContainers: []corev1.Container{{Name: "sidecar-1", RestartPolicy: &policyAlways}}, Containers: []corev1.Container{{Name: "containerA"}}}
	deleted := metav1.ObjectMeta{Name: "my-pod", DeletionTimestamp: &now}
	cases := []struct {
		name       string
		pod        *corev1.Pod
		instances  []restart.Instance
		previous   []corev1.ContainerStatus
		init       bool
		restarting bool
		want       []corev1.ContainerStatus
	}{
		{
			name:     "no current status, with previous statuses and deletion",
			pod:      &corev1.Pod{ObjectMeta: deleted, Spec: two},
			previous: []corev1.ContainerStatus{csRunning("containerA"), csRunning("containerB")},
			want:     []corev1.ContainerStatus{csLostWhileRunning("containerA", 0), csLostWhileRunning("containerB", 0)},
		},
		{
			name:     "no current status, with previous statuses and no deletion",
			pod:      &corev1.Pod{Spec: two},
			previous: []corev1.ContainerStatus{csRunning("containerA"), csRunning("containerB")},
			want:     []corev1.ContainerStatus{csLostWhileRunning("containerA", 1), csLostWhileRunning("containerB", 1)},
		},
		{
			name:     "no current status, keeping previous restartCount",
			pod:      &corev1.Pod{Spec: two},
			previous: []corev1.ContainerStatus{withRestarts(csTerminated("containerA", -1), 5), withRestarts(csTerminated("containerB", -1), 5)},
			want:     []corev1.ContainerStatus{withRestarts(csTerminated("containerA", -1), 5), withRestarts(csTerminated("containerB", -1), 5)},
		},
		{
			name:      "currently running with lower restartCount; should keeping previous restartCount",
			pod:       &corev1.Pod{Spec: two},
			instances: []restart.Instance{{Name: "containerA", ID: "containerA", State: restart.StateRunning}, {Name: "containerB", ID: "containerB", State: restart.StateRunning}},
			previous:  []corev1.ContainerStatus{withRestarts(csTerminated("containerA", -1), 5), withRestarts(csTerminated("containerB", -1), 5)},
			want: []corev1.ContainerStatus{
				withRestarts(withLast(csRunning("containerA"), corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: -1}}), 6),
				withRestarts(withLast(csRunning("containerB"), corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: -1}}), 6),
			},
		},
		{
			name:       "containerB dies and triggers RestartAllContainers in place",
			pod:        &corev1.Pod{Spec: two},
			instances:  []restart.Instance{{Name: "containerA", State: restart.StateRunning}, {Name: "containerB", State: restart.StateExited, ExitCode: 42}},
			previous:   []corev1.ContainerStatus{csRunning("containerA"), csRunning("containerB")},
			restarting: true,
			want:       []corev1.ContainerStatus{csRunning("containerA"), csTerminated("containerB", 42)},
		},
		{
			name:       "containerB dies and triggers RestartAllContainers in place, containerA killed",
			pod:        &corev1.Pod{Spec: two},
			instances:  []restart.Instance{{Name: "containerA", State: restart.StateExited, ExitCode: 137}},
			previous:   []corev1.ContainerStatus{csRunning("containerA"), csTerminated("containerB", 42)},
			restarting: true,
			want:       []corev1.ContainerStatus{csTerminated("containerA", 137), csRestartingAll("containerB", 1)},
		},
		{
			name:       "containerB dies and triggers RestartAllContainers in place, containerA killed then removed",
			pod:        &corev1.Pod{Spec: two},
			previous:   []corev1.ContainerStatus{csTerminated("containerA", 137), csTerminated("containerB", 42)},
			restarting: true,
			want:       []corev1.ContainerStatus{csRestartingAll("containerA", 1), csRestartingAll("containerB", 1)},
		},
		{
			name:       "containerB dies and triggers RestartAllContainers in place, containerA killed and removed together",
			pod:        &corev1.Pod{Spec: two},
			previous:   []corev1.ContainerStatus{csRunning("containerA"), csTerminated("containerB", 42)},
			restarting: true,
			want:       []corev1.ContainerStatus{csRestartingAll("containerA", 1), csRestartingAll("containerB", 1)},
		},
		{
			name:       "containerB dies and triggers RestartAllContainers in place, containerA rerun",
			pod:        &corev1.Pod{Spec: two},
			instances:  []restart.Instance{{Name: "containerA", ID: "containerA-new", State: restart.StateRunning}},
			previous:   []corev1.ContainerStatus{csRestartingAll("containerA", 1), csTerminated("containerB", 42)},
			restarting: true,
			want: []corev1.ContainerStatus{
				withRestarts(withLast(csRunning("containerA"), corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{
					Reason: "RestartingAllContainers", Message: "The container is removed because RestartAllContainers in place", ExitCode: 137}}), 1),
				csRestartingAll("containerB", 1),
			},
		},
		{
			name:       "containerB dies and triggers RestartAllContainers in place, containerA succeeded",
			pod:        &corev1.Pod{Spec: two},
			instances:  []restart.Instance{{Name: "containerA", State: restart.StateExited}},
			previous:   []corev1.ContainerStatus{withRestarts(csRunning("containerA"), 1), csTerminated("containerB", 42)},
			restarting: true,
			want:       []corev1.ContainerStatus{withRestarts(csTerminated("containerA", 0), 1), csRestartingAll("containerB", 1)},
		},
		{
			name:       "containerB dies and triggers RestartAllContainers in place, containerA failed",
			pod:        &corev1.Pod{Spec: two},
			instances:  []restart.Instance{{Name: "containerA", State: restart.StateExited, ExitCode: 1}},
			previous:   []corev1.ContainerStatus{withRestarts(csRunning("containerA"), 1), csTerminated("containerB", 42)},
			restarting: true,
			want:       []corev1.ContainerStatus{withRestarts(csTerminated("containerA", 1), 1), csRestartingAll("containerB", 1)},
		},
		{
			name:      "Unable to get init container status from container runtime and pod has been initialized, treat it as exited normally",
			pod:       &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "my-pod"}, Spec: withInit},
			instances: []restart.Instance{{Name: "containerA", ID: "foo", StartedAt: time.Unix(1, 0).UTC(), State: restart.StateRunning}},
			init:      true,
			want: []corev1.ContainerStatus{{Name: "init-1", State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{
				Reason: "Completed", Message: "Unable to get init container status from container runtime and pod has been initialized, treat it as exited normally"}}}},
		},
		{
			name:      "Unable to get sidecar container status from container runtime and pod has been initialized, sidecar container should be waiting",
			pod:       &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "my-pod"}, Spec: withSidecar},
			instances: []restart.Instance{{Name: "containerA", ID: "foo", StartedAt: time.Unix(1, 0).UTC(), State: restart.StateRunning}},
			init:      true,
			want:      []corev1.ContainerStatus{csWaiting("sidecar-1", "PodInitializing")},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := &restart.View{Instances: tc.instances}
			x := newLookup(v)
			containers, kind := tc.pod.Spec.Containers, KindContainer
			if tc.init {
				containers, kind = tc.pod.Spec.InitContainers, KindInitContainer
			}
			got := convertStatuses(tc.pod, &x, tc.previous, containers, kind, len(tc.pod.Spec.InitContainers) > 0, tc.restarting, false, Options{})
			require.Len(t, got, len(tc.want))
			for i := range got {
				got[i].ContainerID = ""
				if got[i].State.Terminated != nil {
					got[i].State.Terminated.ContainerID = ""
				}
				assert.Equal(t, tc.want[i], got[i])
			}
		})
	}
}

// The cases of upstream's Test_generateAPIPodStatus that do not exercise pod-level
// resize status (which is not modelled), run against the unexported generator with the
// same fake prober and node IPs.
func TestGenerateAPIPodStatus(t *testing.T) {
	now := metav1.Now()
	nowNorm := now.Rfc3339Copy()
	two := corev1.PodSpec{NodeName: "machine", RestartPolicy: corev1.RestartPolicyAlways, Containers: []corev1.Container{{Name: "containerA"}, {Name: "containerB"}}}
	never := *two.DeepCopy()
	never.RestartPolicy = corev1.RestartPolicyNever
	readySandbox := []restart.Sandbox{{Ready: true}}
	hostIPs := []string{"127.0.0.1", "::1"}
	ready := func(s corev1.ContainerStatus) corev1.ContainerStatus { s.Ready = true; return s }
	withRes := func(s corev1.ContainerStatus) corev1.ContainerStatus {
		s.Resources = &corev1.ResourceRequirements{}
		return s
	}
	withID := func(s corev1.ContainerStatus, id string) corev1.ContainerStatus { s.ContainerID = id; return s }
	runningAt := func(name string, at time.Time) corev1.ContainerStatus {
		s := csRunning(name)
		s.State.Running.StartedAt = metav1.NewTime(at)
		return s
	}
	conds := func(extra ...corev1.PodCondition) []corev1.PodCondition { return extra }
	readyToStart := corev1.PodCondition{Type: corev1.PodReadyToStartContainers, Status: corev1.ConditionTrue}
	noSandbox := corev1.PodCondition{Type: corev1.PodReadyToStartContainers, Status: corev1.ConditionFalse, Reason: "PodSandboxNotReady", Message: "no pod sandbox exists"}
	running := []corev1.PodCondition{
		{Type: corev1.PodInitialized, Status: corev1.ConditionTrue},
		{Type: corev1.PodReady, Status: corev1.ConditionTrue},
		{Type: corev1.ContainersReady, Status: corev1.ConditionTrue},
		{Type: corev1.PodScheduled, Status: corev1.ConditionTrue},
	}
	completed := []corev1.PodCondition{
		{Type: corev1.PodInitialized, Status: corev1.ConditionTrue, Reason: "PodCompleted"},
		{Type: corev1.PodReady, Status: corev1.ConditionFalse, Reason: "PodCompleted"},
		{Type: corev1.ContainersReady, Status: corev1.ConditionFalse, Reason: "PodCompleted"},
		{Type: corev1.PodScheduled, Status: corev1.ConditionTrue},
	}
	disruption := corev1.PodCondition{Type: corev1.DisruptionTarget, Status: corev1.ConditionTrue, LastTransitionTime: nowNorm}
	cases := []struct {
		name     string
		pod      *corev1.Pod
		view     restart.View
		previous corev1.PodStatus
		terminal bool
		want     corev1.PodStatus
	}{
		{
			name: "pod disruption condition is copied over and the phase is set to failed when deleted",
			pod: &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "my-pod", DeletionTimestamp: &now}, Spec: two, Status: corev1.PodStatus{
				ContainerStatuses: []corev1.ContainerStatus{csRunning("containerA"), csRunning("containerB")},
				Conditions:        []corev1.PodCondition{disruption},
			}},
			view: restart.View{Sandboxes: readySandbox},
			previous: corev1.PodStatus{
				ContainerStatuses: []corev1.ContainerStatus{csRunning("containerA"), csRunning("containerB")},
				Conditions:        []corev1.PodCondition{disruption},
			},
			terminal: true,
			want: corev1.PodStatus{Phase: corev1.PodFailed, QOSClass: corev1.PodQOSBestEffort,
				Conditions: conds(disruption, readyToStart,
					corev1.PodCondition{Type: corev1.PodInitialized, Status: corev1.ConditionTrue},
					corev1.PodCondition{Type: corev1.PodReady, Status: corev1.ConditionFalse, Reason: "PodFailed"},
					corev1.PodCondition{Type: corev1.ContainersReady, Status: corev1.ConditionFalse, Reason: "PodFailed"},
					corev1.PodCondition{Type: corev1.PodScheduled, Status: corev1.ConditionTrue}),
				ContainerStatuses: []corev1.ContainerStatus{ready(csLostWhileRunning("containerA", 0)), ready(csLostWhileRunning("containerB", 0))},
			},
		},
		{
			name: "current status ready, with previous statuses and deletion",
			pod: &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "my-pod", DeletionTimestamp: &now}, Spec: two, Status: corev1.PodStatus{
				ContainerStatuses: []corev1.ContainerStatus{csRunning("containerA"), csRunning("containerB")},
			}},
			view:     restart.View{Sandboxes: readySandbox},
			previous: corev1.PodStatus{ContainerStatuses: []corev1.ContainerStatus{csRunning("containerA"), csRunning("containerB")}},
			want: corev1.PodStatus{Phase: corev1.PodRunning, QOSClass: corev1.PodQOSBestEffort, Conditions: append(conds(readyToStart), running...),
				ContainerStatuses: []corev1.ContainerStatus{ready(csLostWhileRunning("containerA", 0)), ready(csLostWhileRunning("containerB", 0))}},
		},
		{
			name: "current status ready, with previous statuses and no deletion",
			pod: &corev1.Pod{Spec: two, Status: corev1.PodStatus{
				ContainerStatuses: []corev1.ContainerStatus{csRunning("containerA"), csRunning("containerB")},
			}},
			view:     restart.View{Sandboxes: readySandbox},
			previous: corev1.PodStatus{ContainerStatuses: []corev1.ContainerStatus{csRunning("containerA"), csRunning("containerB")}},
			want: corev1.PodStatus{Phase: corev1.PodRunning, QOSClass: corev1.PodQOSBestEffort, Conditions: append(conds(readyToStart), running...),
				ContainerStatuses: []corev1.ContainerStatus{ready(csLostWhileRunning("containerA", 1)), ready(csLostWhileRunning("containerB", 1))}},
		},
		{
			name: "terminal phase cannot be changed (apiserver previous is succeeded)",
			pod: &corev1.Pod{Spec: two, Status: corev1.PodStatus{Phase: corev1.PodSucceeded,
				ContainerStatuses: []corev1.ContainerStatus{csRunning("containerA"), csRunning("containerB")},
			}},
			previous: corev1.PodStatus{ContainerStatuses: []corev1.ContainerStatus{csRunning("containerA"), csRunning("containerB")}},
			want: corev1.PodStatus{Phase: corev1.PodSucceeded, QOSClass: corev1.PodQOSBestEffort, Conditions: append(conds(noSandbox), completed...),
				ContainerStatuses: []corev1.ContainerStatus{ready(csLostWhileRunning("containerA", 1)), ready(csLostWhileRunning("containerB", 1))}},
		},
		{
			name: "terminal phase from previous status must remain terminal, restartAlways",
			pod: &corev1.Pod{Spec: two, Status: corev1.PodStatus{Phase: corev1.PodRunning,
				ContainerStatuses: []corev1.ContainerStatus{csRunning("containerA"), csRunning("containerB")},
			}},
			previous: corev1.PodStatus{Phase: corev1.PodSucceeded, Reason: "Test", Message: "test",
				ContainerStatuses: []corev1.ContainerStatus{csRunning("containerA"), csRunning("containerB")}},
			want: corev1.PodStatus{Phase: corev1.PodSucceeded, Reason: "Test", Message: "test", QOSClass: corev1.PodQOSBestEffort, Conditions: append(conds(noSandbox), completed...),
				ContainerStatuses: []corev1.ContainerStatus{ready(csLostWhileRunning("containerA", 1)), ready(csLostWhileRunning("containerB", 1))}},
		},
		{
			name: "terminal phase from previous status must remain terminal, restartNever",
			pod: &corev1.Pod{Spec: never, Status: corev1.PodStatus{Phase: corev1.PodRunning,
				ContainerStatuses: []corev1.ContainerStatus{csRunning("containerA"), csRunning("containerB")},
			}},
			previous: corev1.PodStatus{Phase: corev1.PodSucceeded, Reason: "Test", Message: "test",
				ContainerStatuses: []corev1.ContainerStatus{csTerminated("containerA", 0), csTerminated("containerB", 0)}},
			want: corev1.PodStatus{Phase: corev1.PodSucceeded, Reason: "Test", Message: "test", QOSClass: corev1.PodQOSBestEffort, Conditions: append(conds(noSandbox), completed...),
				ContainerStatuses: []corev1.ContainerStatus{ready(csTerminated("containerA", 0)), ready(csTerminated("containerB", 0))}},
		},
		{
			name: "running can revert to pending",
			pod: &corev1.Pod{Spec: two, Status: corev1.PodStatus{Phase: corev1.PodRunning,
				ContainerStatuses: []corev1.ContainerStatus{csRunning("containerA"), csRunning("containerB")},
			}},
			view:     restart.View{Sandboxes: readySandbox},
			previous: corev1.PodStatus{ContainerStatuses: []corev1.ContainerStatus{csWaiting("containerA", ""), csWaiting("containerB", "")}},
			want: corev1.PodStatus{Phase: corev1.PodPending, QOSClass: corev1.PodQOSBestEffort, Conditions: append(conds(readyToStart), running...),
				ContainerStatuses: []corev1.ContainerStatus{ready(csWaiting("containerA", "ContainerCreating")), ready(csWaiting("containerB", "ContainerCreating"))}},
		},
		{
			name: "reason and message are preserved when phase doesn't change",
			pod: &corev1.Pod{Spec: two, Status: corev1.PodStatus{Phase: corev1.PodRunning,
				ContainerStatuses: []corev1.ContainerStatus{csWaiting("containerA", ""), csWaiting("containerB", "")},
			}},
			view: restart.View{Sandboxes: readySandbox, Instances: []restart.Instance{{ID: "://foo", Name: "containerB", StartedAt: time.Unix(1, 0).UTC(), State: restart.StateRunning}}},
			previous: corev1.PodStatus{Phase: corev1.PodPending, Reason: "Test", Message: "test",
				ContainerStatuses: []corev1.ContainerStatus{csWaiting("containerA", ""), csRunning("containerB")}},
			want: corev1.PodStatus{Phase: corev1.PodPending, Reason: "Test", Message: "test", QOSClass: corev1.PodQOSBestEffort, Conditions: append(conds(readyToStart), running...),
				ContainerStatuses: []corev1.ContainerStatus{ready(csWaiting("containerA", "ContainerCreating")),
					withRes(ready(withID(runningAt("containerB", time.Unix(1, 0).UTC()), "://foo")))}},
		},
		{
			name: "reason and message are cleared when phase changes",
			pod: &corev1.Pod{Spec: two, Status: corev1.PodStatus{Phase: corev1.PodPending,
				ContainerStatuses: []corev1.ContainerStatus{csWaiting("containerA", ""), csWaiting("containerB", "")},
			}},
			view: restart.View{Sandboxes: readySandbox, Instances: []restart.Instance{
				{ID: "://c1", Name: "containerA", StartedAt: time.Unix(1, 0).UTC(), State: restart.StateRunning},
				{ID: "://c2", Name: "containerB", StartedAt: time.Unix(2, 0).UTC(), State: restart.StateRunning},
			}},
			previous: corev1.PodStatus{Phase: corev1.PodPending, Reason: "Test", Message: "test",
				ContainerStatuses: []corev1.ContainerStatus{csRunning("containerA"), csRunning("containerB")}},
			want: corev1.PodStatus{Phase: corev1.PodRunning, QOSClass: corev1.PodQOSBestEffort, Conditions: append(conds(readyToStart), running...),
				ContainerStatuses: []corev1.ContainerStatus{
					withRes(ready(withID(runningAt("containerA", time.Unix(1, 0).UTC()), "://c1"))),
					withRes(ready(withID(runningAt("containerB", time.Unix(2, 0).UTC()), "://c2")))}},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := tc.view
			v.HostIPs = hostIPs
			x := newLookup(&v)
			var got corev1.PodStatus
			generateStatus(&got, tc.pod, &tc.previous, &x, now.Time, tc.terminal, fakeAllReadyProber, Options{})
			want := tc.want
			want.HostIP, want.HostIPs = "127.0.0.1", []corev1.HostIP{{IP: "127.0.0.1"}, {IP: "::1"}}
			if !apiequality.Semantic.DeepEqual(want, got) {
				t.Errorf("unexpected status:\nwant %+v\n got %+v", want, got)
			}
		})
	}
}

func TestNextStatus(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	now := t0.Add(90*time.Second + 700*time.Millisecond)
	nowSec := metav1.NewTime(t0.Add(90 * time.Second))
	probe := &corev1.Probe{}
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "ns", UID: "u", Generation: 3}}
	pod.Spec = corev1.PodSpec{
		RestartPolicy:  corev1.RestartPolicyAlways,
		InitContainers: []corev1.Container{{Name: "setup"}, {Name: "proxy", RestartPolicy: &policyAlways, StartupProbe: probe}},
		Containers:     []corev1.Container{{Name: "b-app", ReadinessProbe: probe}, {Name: "a-worker"}},
		ReadinessGates: []corev1.PodReadinessGate{{ConditionType: "example.com/gate"}},
	}
	pod.Status = corev1.PodStatus{
		Phase:     corev1.PodPending,
		StartTime: &metav1.Time{Time: t0},
		Conditions: []corev1.PodCondition{
			{Type: "example.com/gate", Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(t0)},
			{Type: corev1.PodScheduled, Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(t0)},
			{Type: corev1.PodInitialized, Status: corev1.ConditionFalse, LastTransitionTime: metav1.NewTime(t0)},
		},
	}
	v := &restart.View{
		Sandboxes: []restart.Sandbox{{ID: "s", Ready: true, Network: &restart.SandboxNetwork{IP: "10.0.0.7"}}},
		Instances: []restart.Instance{
			{Name: "b-app", ID: "cri://b", State: restart.StateRunning, StartedAt: t0.Add(80 * time.Second)},
			{Name: "a-worker", ID: "cri://a2", State: restart.StateExited, ExitCode: 1, Reason: "Error", RestartCount: 1,
				StartedAt: t0.Add(70 * time.Second), FinishedAt: t0.Add(85*time.Second + 500*time.Millisecond), Message: strings.Repeat("x", 5000)},
			{Name: "proxy", ID: "cri://p", State: restart.StateRunning, StartedAt: t0.Add(60 * time.Second), Startup: restart.ProbeSuccess},
			{Name: "a-worker", ID: "cri://a1", State: restart.StateExited, ExitCode: 2, Reason: "Error", StartedAt: t0.Add(50 * time.Second), FinishedAt: t0.Add(55 * time.Second)},
			{Name: "setup", ID: "cri://s", State: restart.StateExited, Reason: "Completed", StartedAt: t0, FinishedAt: t0.Add(50 * time.Second)},
		},
		StartFailures: map[string]restart.StartFailure{
			"a-worker": {Reason: "CrashLoopBackOff", Message: "back-off 10s restarting failed container=a-worker pod=web_ns(u)"},
			"setup":    {Reason: "CreateContainerConfigError", Message: "ignored: setup completed"},
		},
		HostIPs: []string{"192.168.0.2"},
	}
	before := pod.DeepCopy()
	s := NextStatus(pod, v, now, Options{})
	assert.Equal(t, before, pod)

	assert.Equal(t, corev1.PodRunning, s.Phase)
	assert.Equal(t, int64(3), s.ObservedGeneration)
	assert.Equal(t, &metav1.Time{Time: t0}, s.StartTime)
	assert.Equal(t, "10.0.0.7", s.PodIP)
	assert.Equal(t, "192.168.0.2", s.HostIP)
	assert.Equal(t, corev1.PodQOSBestEffort, s.QOSClass)

	// Regular statuses are sorted by name; the crash-looping worker shows the reason
	// cache with its last termination, cut to its share of 12 KiB.
	require.Len(t, s.ContainerStatuses, 2)
	w := s.ContainerStatuses[0]
	assert.Equal(t, "a-worker", w.Name)
	assert.Equal(t, &corev1.ContainerStateWaiting{Reason: "CrashLoopBackOff", Message: "back-off 10s restarting failed container=a-worker pod=web_ns(u)"}, w.State.Waiting)
	assert.Equal(t, int32(1), w.LastTerminationState.Terminated.ExitCode)
	assert.Len(t, w.LastTerminationState.Terminated.Message, 12*1024/4)
	assert.Equal(t, metav1.NewTime(t0.Add(85*time.Second)), w.LastTerminationState.Terminated.FinishedAt, "truncated to seconds")
	assert.Equal(t, int32(1), w.RestartCount)
	assert.False(t, *w.Started)

	app := s.ContainerStatuses[1]
	assert.Equal(t, "b-app", app.Name)
	assert.True(t, *app.Started)
	assert.False(t, app.Ready, "readiness probe has no success yet")
	assert.Equal(t, &corev1.ResourceRequirements{}, app.Resources)

	require.Len(t, s.InitContainerStatuses, 2)
	assert.Equal(t, "Completed", s.InitContainerStatuses[0].State.Terminated.Reason, "a completed init container ignores the reason cache")
	assert.True(t, s.InitContainerStatuses[0].Ready)
	assert.True(t, *s.InitContainerStatuses[1].Started)
	assert.True(t, s.InitContainerStatuses[1].Ready, "a started sidecar without readiness probe is ready")

	// Conditions in the kubelet's order; transition times kept when the status did not
	// change, set to now (whole seconds) otherwise.
	want := []corev1.PodCondition{
		{Type: "example.com/gate", Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(t0)},
		{Type: corev1.PodReadyToStartContainers, Status: corev1.ConditionTrue, ObservedGeneration: 3, LastTransitionTime: nowSec},
		{Type: corev1.PodInitialized, Status: corev1.ConditionTrue, ObservedGeneration: 3, LastTransitionTime: nowSec},
		{Type: corev1.PodReady, Status: corev1.ConditionFalse, ObservedGeneration: 3, Reason: "ContainersNotReady", Message: "containers with unready status: [b-app a-worker]", LastTransitionTime: nowSec},
		{Type: corev1.ContainersReady, Status: corev1.ConditionFalse, ObservedGeneration: 3, Reason: "ContainersNotReady", Message: "containers with unready status: [b-app a-worker]", LastTransitionTime: nowSec},
		{Type: corev1.PodScheduled, Status: corev1.ConditionTrue, ObservedGeneration: 3, LastTransitionTime: metav1.NewTime(t0)},
	}
	assert.Equal(t, want, s.Conditions)

	assert.Equal(t, s, NextStatus(before.DeepCopy(), v, now, Options{}), "deterministic")

	// Readiness success makes the app ready; a second status keeps the times.
	v.Instances[0].Readiness = restart.ProbeSuccess
	pod.Status = s
	s2 := NextStatus(pod, v, now.Add(time.Minute), Options{})
	assert.True(t, s2.ContainerStatuses[1].Ready)
	assert.Equal(t, nowSec, s2.Conditions[2].LastTransitionTime)
}

func TestNextStatusEdges(t *testing.T) {
	now := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	s := NextStatus(nil, nil, now, Options{})
	assert.Equal(t, corev1.PodPending, s.Phase)
	assert.Equal(t, &metav1.Time{Time: now}, s.StartTime)
	assert.Equal(t, corev1.PodQOSBestEffort, s.QOSClass)

	// Dual-stack sandbox on an IPv6 node: the IPv6 address is primary; leading zeros
	// are accepted and rendered canonically.
	pod := &corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "a"}}}}
	v := &restart.View{Sandboxes: []restart.Sandbox{{Ready: true, Network: &restart.SandboxNetwork{IP: "10.000.0.01", AdditionalIPs: []string{"fd00:0::1"}}}}, HostIPs: []string{"fd00::100"}}
	s = NextStatus(pod, v, now, Options{})
	assert.Equal(t, []corev1.PodIP{{IP: "fd00::1"}, {IP: "10.0.0.1"}}, s.PodIPs)
	assert.Equal(t, "fd00::1", s.PodIP)
	// An unparseable IP hides them all, as upstream.
	v.Sandboxes[0].Network.AdditionalIPs = []string{"bogus"}
	assert.Empty(t, NextStatus(pod, v, now, Options{}).PodIPs)

	// A hostNetwork pod takes the node's IPs.
	pod.Spec.HostNetwork = true
	v = &restart.View{Sandboxes: []restart.Sandbox{{Ready: true, HostNetwork: true}}, HostIPs: []string{"192.168.0.1", "fd00::1"}}
	s = NextStatus(pod, v, now, Options{})
	assert.Equal(t, []corev1.PodIP{{IP: "192.168.0.1"}, {IP: "fd00::1"}}, s.PodIPs)
	assert.Equal(t, []corev1.HostIP{{IP: "192.168.0.1"}, {IP: "fd00::1"}}, s.HostIPs)

	// A container that vanished while running: lost, restart count +1.
	pod = &corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "a"}}}}
	pod.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: "a", RestartCount: 2, State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}}}
	s = NextStatus(pod, &restart.View{Sandboxes: []restart.Sandbox{{Ready: true}}, Instances: []restart.Instance{{Name: "a", State: restart.StateUnknown}}}, now, Options{})
	assert.Equal(t, &corev1.ContainerStateTerminated{Reason: "ContainerStatusUnknown", Message: "The container could not be located when the pod was terminated", ExitCode: 137}, s.ContainerStatuses[0].State.Terminated)
	assert.Equal(t, int32(3), s.ContainerStatuses[0].RestartCount)

	// A Never container that exited does not show its stale start failure.
	pod = &corev1.Pod{Spec: corev1.PodSpec{RestartPolicy: corev1.RestartPolicyNever, Containers: []corev1.Container{{Name: "a"}, {Name: "b"}}}}
	v = &restart.View{Sandboxes: []restart.Sandbox{{Ready: true}}, Instances: []restart.Instance{{Name: "a", State: restart.StateExited, ExitCode: 1}},
		StartFailures: map[string]restart.StartFailure{"a": {Reason: "CrashLoopBackOff"}, "b": {Reason: "ErrImagePull", Message: "pull failed"}}}
	s = NextStatus(pod, v, now, Options{})
	assert.NotNil(t, s.ContainerStatuses[0].State.Terminated)
	assert.Equal(t, &corev1.ContainerStateWaiting{Reason: "ErrImagePull", Message: "pull failed"}, s.ContainerStatuses[1].State.Waiting)
}

func FuzzNextStatus(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, int64(0))
	}
	f.Fuzz(func(t *testing.T, data []byte, nanos int64) {
		pod, v := fuzzPodAndView(data)
		podBefore, viewBefore := pod.DeepCopy(), cloneView(v)
		now := fuzzT0.Add(time.Duration(nanos % int64(time.Hour)))
		s := NextStatus(pod, v, now, Options{})
		require.Equal(t, podBefore, pod, "pod untouched")
		require.Equal(t, viewBefore, v, "view untouched")
		require.Equal(t, s, NextStatus(pod, v, now, Options{}), "deterministic")

		if isTerminal(pod.Status.Phase) {
			require.Equal(t, pod.Status.Phase, s.Phase, "a pod never leaves Succeeded or Failed")
		}
		require.Len(t, s.ContainerStatuses, len(pod.Spec.Containers))
		require.Len(t, s.InitContainerStatuses, len(pod.Spec.InitContainers))
		require.Len(t, s.EphemeralContainerStatuses, len(pod.Spec.EphemeralContainers))
		for i := range s.InitContainerStatuses {
			require.Equal(t, pod.Spec.InitContainers[i].Name, s.InitContainerStatuses[i].Name, "init statuses in spec order")
		}
		for i := 1; i < len(s.ContainerStatuses); i++ {
			require.LessOrEqual(t, s.ContainerStatuses[i-1].Name, s.ContainerStatuses[i].Name, "sorted by name")
		}
		require.NotNil(t, s.StartTime)
		for _, c := range s.Conditions {
			require.Zero(t, c.LastTransitionTime.Nanosecond(), "whole seconds")
		}
		for _, list := range [][]corev1.ContainerStatus{s.InitContainerStatuses, s.ContainerStatuses} {
			for _, cs := range list {
				n := 0
				for _, set := range []bool{cs.State.Waiting != nil, cs.State.Running != nil, cs.State.Terminated != nil} {
					if set {
						n++
					}
				}
				require.LessOrEqual(t, n, 1, "one state at most: %+v", cs)
			}
		}
		// The runtime conditions agree with their own functions.
		c := PodReadyToStartContainersCondition(pod, v, Options{})
		require.Contains(t, s.Conditions, withTime(c, s.Conditions))
	})
}

// withTime returns c with the transition time of the condition of its type in list.
func withTime(c corev1.PodCondition, list []corev1.PodCondition) corev1.PodCondition {
	for _, l := range list {
		if l.Type == c.Type {
			c.LastTransitionTime = l.LastTransitionTime
		}
	}
	return c
}

func FuzzRuntimeConditions(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, uint8(0))
	}
	f.Fuzz(func(t *testing.T, data []byte, phase uint8) {
		pod, v := fuzzPodAndView(data)
		podBefore, viewBefore := pod.DeepCopy(), cloneView(v)
		p := []corev1.PodPhase{corev1.PodPending, corev1.PodRunning, corev1.PodSucceeded, corev1.PodFailed, ""}[phase%5]
		c1 := PodReadyToStartContainersCondition(pod, v, Options{})
		c2, included := AllContainersRestartingCondition(pod, v, p, Options{})
		require.Equal(t, podBefore, pod)
		require.Equal(t, viewBefore, v)
		require.Equal(t, corev1.PodReadyToStartContainers, c1.Type)
		require.Equal(t, c1.Status == corev1.ConditionTrue, c1.Reason == "")
		require.Equal(t, corev1.AllContainersRestarting, c2.Type)
		require.Equal(t, restart.AllContainersCouldRestart(&pod.Spec), included)
		if p == corev1.PodSucceeded || p == corev1.PodFailed {
			require.Equal(t, corev1.ConditionFalse, c2.Status)
		}
	})
}

// BenchmarkNextStatus measures NextStatus next to a DeepCopy of the same pod.
func BenchmarkNextStatus(b *testing.B) {
	pod, v := benchPod()
	now := pod.Status.StartTime.Add(time.Hour)
	b.Run("NextStatus", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = NextStatus(pod, &v, now, Options{})
		}
	})
	b.Run("DeepCopy", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = pod.DeepCopy()
		}
	})
}

// Upstream's TestGenerateAPIPodStatusPodIPs (kubelet_pods_test.go): the sandbox's IPs,
// one per family, the node's family first.
func TestNextStatusPodIPs(t *testing.T) {
	cases := []struct {
		name   string
		nodeIP string
		cri    []string
		want   []string
	}{
		{"Simple", "", []string{"10.0.0.1"}, []string{"10.0.0.1"}},
		{"Dual-stack", "", []string{"10.0.0.1", "fd01::1234"}, []string{"10.0.0.1", "fd01::1234"}},
		{"Dual-stack with explicit node IP", "192.168.1.1", []string{"10.0.0.1", "fd01::1234"}, []string{"10.0.0.1", "fd01::1234"}},
		{"Dual-stack with CRI returning wrong family first", "", []string{"fd01::1234", "10.0.0.1"}, []string{"10.0.0.1", "fd01::1234"}},
		{"Dual-stack with explicit node IP with CRI returning wrong family first", "192.168.1.1", []string{"fd01::1234", "10.0.0.1"}, []string{"10.0.0.1", "fd01::1234"}},
		{"Dual-stack with IPv6 node IP", "fd00::5678", []string{"10.0.0.1", "fd01::1234"}, []string{"fd01::1234", "10.0.0.1"}},
		{"Dual-stack with IPv6 node IP, other CRI order", "fd00::5678", []string{"fd01::1234", "10.0.0.1"}, []string{"fd01::1234", "10.0.0.1"}},
		{"No Pod IP matching Node IP", "fd00::5678", []string{"10.0.0.1"}, []string{"10.0.0.1"}},
		{"No Pod IP matching (unspecified) Node IP", "", []string{"fd01::1234"}, []string{"fd01::1234"}},
		{"Multiple IPv4 IPs", "", []string{"10.0.0.1", "10.0.0.2", "10.0.0.3"}, []string{"10.0.0.1"}},
		{"Multiple Dual-Stack IPs", "", []string{"10.0.0.1", "10.0.0.2", "fd01::1234", "10.0.0.3", "fd01::5678"}, []string{"10.0.0.1", "fd01::1234"}},
		{"Second family after eight IPs", "", []string{"10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4", "10.0.0.5", "10.0.0.6", "10.0.0.7", "10.0.0.8", "fd01::9"}, []string{"10.0.0.1", "fd01::9"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{UID: "12345", Name: "test-pod", Namespace: "test-namespace"}}
			v := &restart.View{Sandboxes: []restart.Sandbox{{Ready: true, Network: &restart.SandboxNetwork{IP: tc.cri[0], AdditionalIPs: tc.cri[1:]}}}}
			if tc.nodeIP != "" {
				v.HostIPs = []string{tc.nodeIP}
			}
			s := NextStatus(pod, v, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), Options{})
			var got []string
			for _, ip := range s.PodIPs {
				got = append(got, ip.IP)
			}
			assert.Equal(t, tc.want, got)
			assert.Equal(t, tc.want[0], s.PodIP)
		})
	}
}

// TestRFC3339MatchesRfc3339Copy: the fast path truncates as Rfc3339Copy does, and
// drops a monotonic reading, for times around the fast path's bounds, in UTC and
// elsewhere.
func TestRFC3339MatchesRfc3339Copy(t *testing.T) {
	zone := time.FixedZone("X", 5*3600+1800)
	base := []time.Time{
		time.Now(), // with a monotonic reading
		time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC),
		time.Date(2026, 1, 1, 10, 0, 0, 999999999, time.UTC),
		time.Date(1, 1, 1, 0, 0, 0, 1, time.UTC),
		time.Date(0, 12, 31, 23, 59, 59, 500, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 999, time.UTC),
		time.Date(10000, 1, 1, 0, 0, 0, 5, time.UTC),
		time.Date(1969, 12, 31, 23, 59, 59, 123, time.UTC),
		time.Date(2026, 6, 1, 12, 0, 0, 42, zone),
	}
	for _, b := range base {
		for _, tt := range []time.Time{b, b.UTC(), b.Round(0)} {
			in := metav1.Time{Time: tt}
			got, want := rfc3339(in), in.Rfc3339Copy()
			if !got.Equal(&want) || got.Location().String() != want.Location().String() || got.String() != want.String() {
				t.Errorf("rfc3339(%v) = %v, want %v", tt, got, want)
			}
		}
	}
	if got := rfc3339(metav1.Time{}); !got.IsZero() {
		t.Errorf("zero time gave %v", got)
	}
}

// TestIsCanonicalIPv4 checks the fast path of podIPs against parsing and rendering:
// a string is canonical IPv4 exactly when it parses as IPv4 and renders as itself.
func TestIsCanonicalIPv4(t *testing.T) {
	cases := []string{"", "1.2.3.4", "10.244.1.23", "0.0.0.0", "255.255.255.255", "256.1.1.1", "01.2.3.4",
		"1.2.3", "1.2.3.4.5", "1..2.3", ".1.2.3", "1.2.3.", "::1", "::ffff:1.2.3.4", "1.2.3.04", "a.b.c.d",
		"1.2.3.4 ", "100.200.300.1", "10.0.0.10", "192.168.001.1"}
	r := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		b := make([]byte, 1+r.IntN(15))
		for i := range b {
			b[i] = "0123456789.:a"[r.IntN(13)]
		}
		cases = append(cases, string(b))
	}
	for _, s := range cases {
		ip, err := netip.ParseAddr(s)
		want := err == nil && ip.Is4() && ip.String() == s
		if got := isCanonicalIPv4(s); got != want {
			t.Errorf("isCanonicalIPv4(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestSameShort: the word comparison answers as ==.
func TestSameShort(t *testing.T) {
	words := []string{"", "T", "Tr", "Tru", "True", "Truf", "False", "Falsf", "Unknown", "Unknowm", "xnknown", "TrueTrue", "TrueTrux", "TrueTrueT", "ab", "ba"}
	for _, a := range words {
		for _, b := range words {
			if got := sameShort(a, b); got != (a == b) {
				t.Errorf("sameShort(%q, %q) = %v", a, b, got)
			}
		}
	}
}
