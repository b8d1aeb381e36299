package lifecycle

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"

	"github.com/podlife/podlife"
	"github.com/podlife/podlife/internal/byname"
	"github.com/podlife/podlife/restart"
)

// racOff turns the RestartAllContainersOnContainerExits gate off. The condition is
// computed all the same (upstream's generator does not look at the gate); only
// whether the kubelet includes it changes.
var racOff = Options{Features: podlife.FeatureGates{"RestartAllContainersOnContainerExits": false}}

// Upstream's TestGenerateAllContainersRestartingCondition
// (k8s.io/kubernetes pkg/kubelet/status/generate_test.go), with the gate on and off,
// plus more cases.
func TestAllContainersRestartingCondition(t *testing.T) {
	allRule := []corev1.ContainerRestartRule{{
		Action:    corev1.ContainerRestartRuleActionRestartAllContainers,
		ExitCodes: &corev1.ContainerRestartRuleOnExitCodes{Operator: corev1.ContainerRestartRuleOnExitCodesOpIn, Values: []int32{42}},
	}}
	pod := &corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{
		{Name: "container1"},
		{Name: "trigger", RestartPolicy: &policyNever, RestartPolicyRules: allRule},
	}}}
	withInit := pod.DeepCopy()
	withInit.Spec.InitContainers = []corev1.Container{{Name: "init", RestartPolicy: &policyNever, RestartPolicyRules: allRule}}
	restarting := []corev1.PodCondition{{Type: corev1.AllContainersRestarting, Status: corev1.ConditionTrue}}
	started := corev1.PodCondition{Type: corev1.AllContainersRestarting, Status: corev1.ConditionTrue, Reason: "RestartAllContainersStarted", Message: "container exited with restart policy rule"}
	falseCond := corev1.PodCondition{Type: corev1.AllContainersRestarting, Status: corev1.ConditionFalse}
	terminated42 := []corev1.ContainerStatus{{Name: "trigger", State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 42}}}}
	cases := []struct {
		name      string
		pod       *corev1.Pod // nil: pod
		instances []restart.Instance
		nilView   bool
		old       []corev1.PodCondition
		statuses  []corev1.ContainerStatus
		phase     corev1.PodPhase
		want      corev1.PodCondition
	}{
		// Upstream's table.
		{name: "pod pending", phase: corev1.PodPending, want: falseCond},
		{name: "pod failed", phase: corev1.PodFailed, want: corev1.PodCondition{Type: corev1.AllContainersRestarting, Status: corev1.ConditionFalse, Reason: "PodFailed"}},
		{name: "pod succeeded", phase: corev1.PodSucceeded, want: corev1.PodCondition{Type: corev1.AllContainersRestarting, Status: corev1.ConditionFalse, Reason: "PodCompleted"}},
		{
			name:      "container triggers RestartAllContainers rule",
			instances: []restart.Instance{{Name: "container", State: restart.StateRunning}, {Name: "trigger", State: restart.StateExited, ExitCode: 42}},
			phase:     corev1.PodRunning, want: started,
		},
		{
			name:      "container triggres RestartAllContainers rule, cleaning up",
			instances: []restart.Instance{{Name: "container", State: restart.StateExited}, {Name: "trigger", State: restart.StateExited, ExitCode: 42}},
			old:       restarting, phase: corev1.PodRunning, want: started,
		},
		{
			name: "container triggres RestartAllContainers rule, cleaned up",
			old:  restarting, phase: corev1.PodPending,
			want: falseCond,
		},
		// Beyond upstream's table.
		{
			name:      "a terminal phase wins over a trigger",
			instances: []restart.Instance{{Name: "trigger", State: restart.StateExited, ExitCode: 42}},
			old:       restarting, phase: corev1.PodFailed,
			want: corev1.PodCondition{Type: corev1.AllContainersRestarting, Status: corev1.ConditionFalse, Reason: "PodFailed"},
		},
		{
			name:      "an exit code without a rule",
			instances: []restart.Instance{{Name: "trigger", State: restart.StateExited, ExitCode: 1}},
			phase:     corev1.PodRunning, want: falseCond,
		},
		{
			name:      "only the newest instance counts",
			instances: []restart.Instance{{Name: "trigger", State: restart.StateRunning}, {Name: "trigger", State: restart.StateExited, ExitCode: 42}},
			phase:     corev1.PodRunning, want: falseCond,
		},
		{
			name:      "an init container triggers",
			pod:       withInit,
			instances: []restart.Instance{{Name: "init", State: restart.StateExited, ExitCode: 42}},
			phase:     corev1.PodPending, want: started,
		},
		{
			name:      "the old API status triggers after an exit of the newest instance",
			instances: []restart.Instance{{Name: "trigger", State: restart.StateExited, ExitCode: 1}},
			statuses:  terminated42,
			phase:     corev1.PodRunning, want: started,
		},
		{
			name:      "the old API status is not read while the newest instance runs",
			instances: []restart.Instance{{Name: "trigger", State: restart.StateRunning}},
			statuses:  terminated42,
			phase:     corev1.PodRunning, want: falseCond,
		},
		{
			name:     "a nil view is an empty one: the old API status alone does not trigger",
			nilView:  true,
			statuses: terminated42,
			phase:    corev1.PodRunning, want: falseCond,
		},
		{
			name:    "a nil view is an empty one: everything is cleaned up",
			nilView: true,
			old:     restarting, phase: corev1.PodRunning, want: falseCond,
		},
		{
			name:      "an ephemeral instance is not left to clean up",
			instances: []restart.Instance{{Name: "debug", State: restart.StateRunning}},
			old:       restarting, phase: corev1.PodRunning, want: falseCond,
		},
		{
			name:      "an instance in any state is left to clean up",
			instances: []restart.Instance{{Name: "container1", State: restart.StateNone}},
			old:       restarting, phase: corev1.PodRunning, want: started,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := pod.DeepCopy()
			if tc.pod != nil {
				p = tc.pod.DeepCopy()
			}
			p.Status.Conditions = tc.old
			p.Status.ContainerStatuses = tc.statuses
			var v *restart.View
			if !tc.nilView {
				v = &restart.View{Instances: tc.instances}
			}
			got, included := AllContainersRestartingCondition(p, v, tc.phase, Options{})
			assert.True(t, included)
			assert.Equal(t, tc.want, got)
			got, included = AllContainersRestartingCondition(p, v, tc.phase, racOff)
			assert.False(t, included, "included with the gate off")
			assert.Equal(t, tc.want, got, "the condition does not depend on the gate")
		})
	}
	c, included := AllContainersRestartingCondition(&corev1.Pod{}, nil, corev1.PodRunning, Options{})
	assert.False(t, included, "a pod without RestartAllContainers rules has no such condition")
	assert.Equal(t, falseCond, c)
	c, included = AllContainersRestartingCondition(nil, nil, corev1.PodRunning, Options{})
	assert.False(t, included, "nil pod")
	assert.Equal(t, falseCond, c, "nil pod")
}

func FuzzAllContainersRestartingCondition(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, uint8(0))
	}
	f.Fuzz(func(t *testing.T, data []byte, phase uint8) {
		pod, v := fuzzPodAndView(data)
		podBefore, viewBefore := pod.DeepCopy(), cloneView(v)
		p := []corev1.PodPhase{corev1.PodPending, corev1.PodRunning, corev1.PodSucceeded, corev1.PodFailed, ""}[phase%5]
		cond, included := AllContainersRestartingCondition(pod, v, p, Options{})
		require.Equal(t, podBefore, pod)
		require.Equal(t, viewBefore, v)
		require.Equal(t, corev1.AllContainersRestarting, cond.Type)
		require.Equal(t, restart.AllContainersCouldRestart(&pod.Spec), included)
		require.Zero(t, cond.ObservedGeneration)

		// Only included depends on the gate.
		offCond, offIncluded := AllContainersRestartingCondition(pod, v, p, racOff)
		require.False(t, offIncluded)
		require.Equal(t, cond, offCond)

		// Upstream's generator, step by step.
		switch {
		case p == corev1.PodSucceeded:
			require.Equal(t, corev1.PodCondition{Type: corev1.AllContainersRestarting, Status: corev1.ConditionFalse, Reason: "PodCompleted"}, cond)
		case p == corev1.PodFailed:
			require.Equal(t, corev1.PodCondition{Type: corev1.AllContainersRestarting, Status: corev1.ConditionFalse, Reason: "PodFailed"}, cond)
		case restart.ShouldAllContainersRestart(pod, v) && !restart.AllContainersRestartCleanedUp(pod, v):
			require.Equal(t, corev1.PodCondition{Type: corev1.AllContainersRestarting, Status: corev1.ConditionTrue, Reason: "RestartAllContainersStarted", Message: "container exited with restart policy rule"}, cond)
		default:
			require.Equal(t, corev1.PodCondition{Type: corev1.AllContainersRestarting, Status: corev1.ConditionFalse}, cond)
		}

		// A nil view is an empty one.
		nilCond, _ := AllContainersRestartingCondition(pod, nil, p, Options{})
		emptyCond, _ := AllContainersRestartingCondition(pod, &restart.View{}, p, Options{})
		require.Equal(t, emptyCond, nilCond)

		// Lists long enough to be indexed give the same answer.
		long, longView := padRestartAll(pod, v)
		longCond, longIncluded := AllContainersRestartingCondition(long, longView, p, Options{})
		require.Equal(t, cond, longCond)
		require.Equal(t, included, longIncluded)
	})
}

// padRestartAll returns copies of pod and v whose status lists and instances are
// lengthened past byname.Threshold with entries named after no container.
func padRestartAll(pod *corev1.Pod, v *restart.View) (*corev1.Pod, *restart.View) {
	p, lv := pod.DeepCopy(), cloneView(v)
	for i := range byname.Threshold + 1 {
		name := "padding-" + strconv.Itoa(i)
		term := corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 42}}
		p.Status.InitContainerStatuses = append(p.Status.InitContainerStatuses, corev1.ContainerStatus{Name: name, State: term})
		p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, corev1.ContainerStatus{Name: name, State: term})
		lv.Instances = append(lv.Instances, restart.Instance{Name: name, State: restart.StateExited, ExitCode: 42})
	}
	return p, lv
}

// restartAllPod has n init containers and n regular containers, every one with a
// RestartAllContainers rule on exit code 42, and a status for each: the init
// containers completed, the regular ones running, except the last regular one, which
// exited with trigger. With trigger 42 only that last container starts a restart of
// all containers, so every lookup before it misses. The view holds one instance per
// status.
func restartAllPod(n int, trigger int32) (*corev1.Pod, *restart.View) {
	rules := []corev1.ContainerRestartRule{{
		Action:    corev1.ContainerRestartRuleActionRestartAllContainers,
		ExitCodes: &corev1.ContainerRestartRuleOnExitCodes{Operator: corev1.ContainerRestartRuleOnExitCodesOpIn, Values: []int32{42}},
	}}
	p := &corev1.Pod{}
	p.Spec.InitContainers = make([]corev1.Container, n)
	p.Spec.Containers = make([]corev1.Container, n)
	p.Status.InitContainerStatuses = make([]corev1.ContainerStatus, n)
	p.Status.ContainerStatuses = make([]corev1.ContainerStatus, n)
	for i := range n {
		in, cn := "init-"+strconv.Itoa(i), "app-"+strconv.Itoa(i)
		p.Spec.InitContainers[i] = corev1.Container{Name: in, RestartPolicy: &policyNever, RestartPolicyRules: rules}
		p.Spec.Containers[i] = corev1.Container{Name: cn, RestartPolicy: &policyNever, RestartPolicyRules: rules}
		p.Status.InitContainerStatuses[i] = corev1.ContainerStatus{Name: in, State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 0}}}
		p.Status.ContainerStatuses[i] = corev1.ContainerStatus{Name: cn, State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}}
	}
	if n > 0 {
		p.Status.ContainerStatuses[n-1].State = corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: trigger}}
	}
	v := &restart.View{}
	for _, list := range [][]corev1.ContainerStatus{p.Status.InitContainerStatuses, p.Status.ContainerStatuses} {
		for i := range list {
			if inst, ok := restart.InstanceFromStatus(&list[i]); ok {
				v.Instances = append(v.Instances, inst)
			}
		}
	}
	return p, v
}

// TestAllContainersRestartingConditionLarge checks the condition on pods with 1,000
// and 10,000 init and regular containers. It checks answers only, not time: the
// lookups are linear by construction (internal/byname counts the work), and
// BenchmarkAllContainersRestartingConditionLarge shows the growth.
func TestAllContainersRestartingConditionLarge(t *testing.T) {
	started := corev1.PodCondition{Type: corev1.AllContainersRestarting, Status: corev1.ConditionTrue, Reason: ReasonRestartAllContainersStarted, Message: MessageRestartAllContainers}
	falseCond := corev1.PodCondition{Type: corev1.AllContainersRestarting, Status: corev1.ConditionFalse}
	for _, n := range []int{1000, 10000} {
		trig, view := restartAllPod(n, 42)
		quiet, quietView := restartAllPod(n, 1)
		before, viewBefore := trig.DeepCopy(), cloneView(view)

		got, included := AllContainersRestartingCondition(trig, view, corev1.PodRunning, Options{})
		assert.Equal(t, started, got, "n=%d: the last container triggers", n)
		assert.True(t, included, "n=%d", n)
		got, _ = AllContainersRestartingCondition(quiet, quietView, corev1.PodRunning, Options{})
		assert.Equal(t, falseCond, got, "n=%d: exit 1 triggers nothing", n)

		// Every instance removed: the condition is already True, the view is empty and
		// every status waits with reason RestartingAllContainers.
		cleaned := trig.DeepCopy()
		cleaned.Status.Conditions = []corev1.PodCondition{{Type: corev1.AllContainersRestarting, Status: corev1.ConditionTrue}}
		for _, list := range [][]corev1.ContainerStatus{cleaned.Status.InitContainerStatuses, cleaned.Status.ContainerStatuses} {
			for i := range list {
				list[i].State = corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: restart.ReasonRestartingAllContainers}}
			}
		}
		got, _ = AllContainersRestartingCondition(cleaned, &restart.View{}, corev1.PodRunning, Options{})
		assert.Equal(t, falseCond, got, "n=%d: cleaned up", n)
		// The last instance left: still restarting.
		last := &restart.View{Instances: view.Instances[len(view.Instances)-1:]}
		got, _ = AllContainersRestartingCondition(cleaned, last, corev1.PodRunning, Options{})
		assert.Equal(t, started, got, "n=%d: one instance left", n)

		assert.Equal(t, before, trig, "input untouched")
		assert.Equal(t, viewBefore, view, "view untouched")
	}
}

// The condition indexes nothing, and so allocates nothing, for a pod whose lists are
// short.
func TestAllContainersRestartingConditionAllocatesNothingOnSmallPods(t *testing.T) {
	for _, n := range []int{1, byname.Threshold / 2} {
		trig, view := restartAllPod(n, 42)
		require.LessOrEqual(t, len(view.Instances), byname.Threshold)
		for name, f := range map[string]func(){
			"view":     func() { _, _ = AllContainersRestartingCondition(trig, view, corev1.PodRunning, Options{}) },
			"nil view": func() { _, _ = AllContainersRestartingCondition(trig, nil, corev1.PodRunning, Options{}) },
			"gate off": func() { _, _ = AllContainersRestartingCondition(trig, view, corev1.PodRunning, racOff) },
		} {
			if a := testing.AllocsPerRun(50, f); a != 0 {
				t.Errorf("n=%d: %s: AllContainersRestartingCondition allocates %v times", n, name, a)
			}
		}
	}
}

func BenchmarkAllContainersRestartingConditionLarge(b *testing.B) {
	for _, n := range []int{10, 100, 1000, 10000} {
		trig, view := restartAllPod(n, 42)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if c, _ := AllContainersRestartingCondition(trig, view, corev1.PodRunning, Options{}); c.Status != corev1.ConditionTrue {
					b.Fatal("condition not True")
				}
			}
		})
	}
}
