package lifecycle

import (
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podlife/podlife/internal/byname"
	"github.com/podlife/podlife/restart"
)

func TestViewFromStatus(t *testing.T) {
	t0 := metav1.NewTime(time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC))
	t1 := metav1.NewTime(t0.Add(time.Minute))
	started := true
	pod := &corev1.Pod{Spec: corev1.PodSpec{
		InitContainers: []corev1.Container{{Name: "init"}, {Name: "proxy", RestartPolicy: &policyAlways, StartupProbe: &corev1.Probe{}}},
		Containers:     []corev1.Container{{Name: "app", ReadinessProbe: &corev1.Probe{}}, {Name: "worker"}},
	}}
	pod.Status = corev1.PodStatus{
		PodIP:   "10.1.2.3",
		PodIPs:  []corev1.PodIP{{IP: "10.1.2.3"}, {IP: "fd00::3"}},
		HostIP:  "192.168.0.1",
		HostIPs: []corev1.HostIP{{IP: "192.168.0.1"}},
		InitContainerStatuses: []corev1.ContainerStatus{
			{Name: "init", ContainerID: "containerd://i1", State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{Reason: "Completed", StartedAt: t0, FinishedAt: t0, ContainerID: "containerd://i1"}}},
			{Name: "proxy", ContainerID: "containerd://p1", Started: &started, Ready: true, State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: t0}}},
		},
		ContainerStatuses: []corev1.ContainerStatus{
			{Name: "app", ContainerID: "containerd://a2", Ready: true, Started: &started, RestartCount: 1,
				State:                corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: t1}},
				LastTerminationState: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 2, Reason: "Error", StartedAt: t0, FinishedAt: t1, ContainerID: "containerd://a1"}}},
			{Name: "worker", RestartCount: 3,
				State:                corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "CrashLoopBackOff", Message: "back-off 40s restarting failed container=worker pod=p_ns(u)"}},
				LastTerminationState: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 1, Reason: "Error", FinishedAt: t1, ContainerID: "containerd://w3"}}},
		},
	}
	before := pod.DeepCopy()
	v := ViewFromStatus(pod)
	assert.Equal(t, before, pod, "input untouched")

	require.Len(t, v.Sandboxes, 1)
	assert.Equal(t, restart.Sandbox{ID: "sandbox", Ready: true, Network: &restart.SandboxNetwork{IP: "10.1.2.3", AdditionalIPs: []string{"fd00::3"}}}, v.Sandboxes[0])
	assert.Equal(t, []string{"192.168.0.1"}, v.HostIPs)
	assert.Equal(t, map[string]restart.StartFailure{"worker": {Reason: "CrashLoopBackOff", Message: "back-off 40s restarting failed container=worker pod=p_ns(u)"}}, v.StartFailures)

	want := []restart.Instance{
		{Name: "init", ID: "containerd://i1", Sandbox: "sandbox", State: restart.StateExited, Reason: "Completed", StartedAt: t0.Time, FinishedAt: t0.Time},
		{Name: "proxy", ID: "containerd://p1", Sandbox: "sandbox", State: restart.StateRunning, StartedAt: t0.Time, Startup: restart.ProbeSuccess},
		{Name: "app", ID: "containerd://a2", Sandbox: "sandbox", State: restart.StateRunning, StartedAt: t1.Time, RestartCount: 1, Readiness: restart.ProbeSuccess},
		{Name: "app", ID: "containerd://a1", Sandbox: "sandbox", State: restart.StateExited, ExitCode: 2, Reason: "Error", StartedAt: t0.Time, FinishedAt: t1.Time},
		{Name: "worker", ID: "containerd://w3", Sandbox: "sandbox", State: restart.StateExited, ExitCode: 1, Reason: "Error", FinishedAt: t1.Time, RestartCount: 2},
	}
	assert.Equal(t, want, v.Instances)

	// The derived view reproduces the status the kubelet would write.
	next := NextStatus(pod, &v, t1.Add(time.Second), Options{})
	assert.Equal(t, corev1.PodRunning, next.Phase)
	assert.Equal(t, "CrashLoopBackOff", next.ContainerStatuses[1].State.Waiting.Reason)
	assert.Equal(t, int32(1), next.ContainerStatuses[1].LastTerminationState.Terminated.ExitCode)
	assert.True(t, next.ContainerStatuses[0].Ready)
	assert.True(t, *next.InitContainerStatuses[1].Started)
	assert.Equal(t, "10.1.2.3", next.PodIP)
}

func TestViewFromStatusEdges(t *testing.T) {
	assert.Equal(t, restart.View{}, ViewFromStatus(nil))
	assert.Equal(t, restart.View{}, ViewFromStatus(&corev1.Pod{}))

	// A pending pod with only default waiting states has no sandbox and no instance.
	pod := &corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "a"}}}}
	pod.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: "a", State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "ContainerCreating"}}}}
	assert.Equal(t, restart.View{}, ViewFromStatus(pod))

	// A created container (waiting with no reason and an ID) is a created instance.
	pod.Status.ContainerStatuses[0] = corev1.ContainerStatus{Name: "a", ContainerID: "cri://x", State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{}}}
	v := ViewFromStatus(pod)
	require.Len(t, v.Instances, 1)
	assert.Equal(t, restart.StateCreated, v.Instances[0].State)

	// A hostNetwork pod's sandbox reports no network of its own.
	pod.Spec.HostNetwork = true
	pod.Status.PodIP = "192.168.0.1"
	v = ViewFromStatus(pod)
	require.Len(t, v.Sandboxes, 1)
	assert.True(t, v.Sandboxes[0].HostNetwork)
	assert.Nil(t, v.Sandboxes[0].Network)
	assert.Equal(t, corev1.ConditionTrue, PodReadyToStartContainersCondition(pod, &v, Options{}).Status)
}

func TestViewRuntime(t *testing.T) {
	var nilView *restart.View
	_, ok := nilView.Newest("a")
	assert.False(t, ok)
	_, ok = nilView.NewestExited("a")
	assert.False(t, ok)
	v := &restart.View{Instances: []restart.Instance{
		{Name: "a", State: restart.StateRunning},
		{Name: "a", State: restart.StateExited, ExitCode: 3},
		{Name: "b"},
	}}
	inst, ok := v.Newest("a")
	assert.True(t, ok)
	assert.Equal(t, restart.StateRunning, inst.State)
	inst, ok = v.NewestExited("a")
	assert.True(t, ok)
	assert.Equal(t, int32(3), inst.ExitCode)
	inst, ok = v.Newest("b")
	assert.True(t, ok)
	assert.Equal(t, restart.StateNone, inst.State, "Newest returns the instance as stored")
	assert.Equal(t, restart.StateUnknown, inst.State.Kubelet(), "an empty state reads as unknown")
	_, ok = v.NewestExited("b")
	assert.False(t, ok, "an empty state is not exited")
}

// The view lookup answers as scans of the view do, on views shorter and longer than
// byname.Threshold (scanned and indexed), with repeated names, in every state.
func TestLookupMatchesScans(t *testing.T) {
	states := []restart.State{restart.StateRunning, restart.StateExited, restart.StateCreated, restart.StateUnknown, restart.StateNone, "paused"}
	for _, n := range []int{0, 1, byname.Threshold, byname.Threshold + 1, 100} {
		v := &restart.View{Sandboxes: []restart.Sandbox{{ID: "s1", Ready: true}}}
		for i := 0; i < n; i++ {
			inst := restart.Instance{Name: string(rune('a' + i%26)), ID: strconv.Itoa(i), State: states[i%len(states)]}
			if i%4 == 1 {
				inst.Sandbox = "s0" // an older sandbox
			}
			v.Instances = append(v.Instances, inst)
		}
		x := newLookup(v)
		for c := 'a'; c <= 'z'+1; c++ {
			name := string(c)
			var all []int
			var newest, exited, active *restart.Instance
			for i := range v.Instances {
				inst := &v.Instances[i]
				if inst.Name != name {
					continue
				}
				all = append(all, i)
				if newest == nil {
					newest = inst
				}
				if exited == nil && inst.State.Kubelet() == restart.StateExited {
					exited = inst
				}
				if active == nil && (inst.Sandbox == "" || inst.Sandbox == "s1") {
					active = inst
				}
			}
			var walked []int
			for i := x.first(name); i >= 0; i = x.next(i, name) {
				walked = append(walked, i)
			}
			assert.Equal(t, all, walked, "n=%d first/next(%s)", n, name)
			assert.Same(t, newest, x.newest(name), "n=%d newest(%s)", n, name)
			assert.Same(t, exited, x.newestExited(name), "n=%d newestExited(%s)", n, name)
			assert.Same(t, active, x.newestActive(name), "n=%d newestActive(%s)", n, name)
		}
	}
}

func FuzzViewFromStatus(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		pod, _ := fuzzPodAndView(data)
		before := pod.DeepCopy()
		v := ViewFromStatus(pod)
		require.Equal(t, before, pod)
		require.Equal(t, v, ViewFromStatus(pod))
		require.LessOrEqual(t, len(v.Sandboxes), 1)
		for _, inst := range v.Instances {
			require.NotEqual(t, restart.StateNone, inst.State)
		}
		// The view feeds the planner and the status without trouble.
		_ = Plan(pod, &v, fuzzT0, Options{})
		_ = NextStatus(pod, &v, fuzzT0, Options{})
	})
}
