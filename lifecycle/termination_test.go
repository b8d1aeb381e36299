package lifecycle_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	corev1 "k8s.io/api/core/v1"

	"github.com/podlife/podlife/lifecycle"
)

// TestGracePeriod re-expresses upstream's TestKillContainerGracePeriod.
func TestGracePeriod(t *testing.T) {
	short, medium, long := int64(10), int64(30), int64(60)
	probe := func(s *int64) *corev1.Probe { return &corev1.Probe{TerminationGracePeriodSeconds: s} }
	pod := func(tgps *int64, c corev1.Container) *corev1.Pod {
		c.Name = "foo"
		return &corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{c}, TerminationGracePeriodSeconds: tgps}}
	}
	for _, tc := range []struct {
		name   string
		pod    *corev1.Pod
		reason lifecycle.KillReason
		want   int64
	}{
		{"default termination grace period", pod(nil, corev1.Container{}), lifecycle.KillReasonUnknown, 2},
		{"use pod termination grace period", pod(&long, corev1.Container{}), lifecycle.KillReasonUnknown, long},
		{"liveness probe overrides pod termination grace period", pod(&long, corev1.Container{LivenessProbe: probe(&short)}), lifecycle.KillReasonLivenessProbe, short},
		{"startup probe overrides pod termination grace period", pod(&long, corev1.Container{StartupProbe: probe(&short)}), lifecycle.KillReasonStartupProbe, short},
		{"startup probe period > pod period", pod(&short, corev1.Container{StartupProbe: probe(&long)}), lifecycle.KillReasonStartupProbe, long},
		{"liveness probe period > pod period", pod(&short, corev1.Container{LivenessProbe: probe(&long)}), lifecycle.KillReasonLivenessProbe, long},
		{"non-liveness probe failure, use pod termination grace period", pod(&long, corev1.Container{LivenessProbe: probe(&short)}), lifecycle.KillReasonUnknown, long},
		{"non-startup probe failure, use pod termination grace period", pod(&long, corev1.Container{StartupProbe: probe(&short)}), lifecycle.KillReasonUnknown, long},
		{"all three set, use pod", pod(&long, corev1.Container{StartupProbe: probe(&short), LivenessProbe: probe(&medium)}), lifecycle.KillReasonUnknown, long},
		{"all three set, use startup", pod(&long, corev1.Container{StartupProbe: probe(&short), LivenessProbe: probe(&medium)}), lifecycle.KillReasonStartupProbe, short},
		{"all three set, use liveness", pod(&long, corev1.Container{StartupProbe: probe(&short), LivenessProbe: probe(&medium)}), lifecycle.KillReasonLivenessProbe, medium},
		// Beyond upstream's table.
		{"probe without its own grace uses the pod's", pod(&long, corev1.Container{LivenessProbe: probe(nil)}), lifecycle.KillReasonLivenessProbe, long},
		{"probe grace needs a pod grace", pod(nil, corev1.Container{LivenessProbe: probe(&short)}), lifecycle.KillReasonLivenessProbe, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, lifecycle.GracePeriod(tc.pod, "foo", tc.reason))
		})
	}

	// The deletion grace period wins over everything, probe kills included.
	p := pod(&long, corev1.Container{LivenessProbe: probe(&short)})
	p.DeletionGracePeriodSeconds = &medium
	assert.Equal(t, medium, lifecycle.GracePeriod(p, "foo", lifecycle.KillReasonLivenessProbe))
	// Init and ephemeral containers are found too.
	p = &corev1.Pod{Spec: corev1.PodSpec{
		TerminationGracePeriodSeconds: &long,
		InitContainers:                []corev1.Container{{Name: "sc", RestartPolicy: &policyAlways, StartupProbe: probe(&short)}},
		EphemeralContainers:           []corev1.EphemeralContainer{{EphemeralContainerCommon: corev1.EphemeralContainerCommon{Name: "dbg", LivenessProbe: probe(&medium)}}},
	}}
	assert.Equal(t, short, lifecycle.GracePeriod(p, "sc", lifecycle.KillReasonStartupProbe))
	assert.Equal(t, medium, lifecycle.GracePeriod(p, "dbg", lifecycle.KillReasonLivenessProbe))
	assert.Equal(t, long, lifecycle.GracePeriod(p, "missing", lifecycle.KillReasonLivenessProbe))
	assert.Equal(t, int64(2), lifecycle.GracePeriod(nil, "x", lifecycle.KillReasonUnknown))
}

func TestStopTimeout(t *testing.T) {
	thirty, zero := int64(30), int64(0)
	preStop := &corev1.Lifecycle{PreStop: &corev1.LifecycleHandler{Sleep: &corev1.SleepAction{Seconds: 5}}}
	pod := &corev1.Pod{Spec: corev1.PodSpec{
		TerminationGracePeriodSeconds: &thirty,
		Containers:                    []corev1.Container{{Name: "hook", Lifecycle: preStop}, {Name: "plain"}},
	}}
	for _, tc := range []struct {
		name      string
		container string
		opts      lifecycle.StopOptions
		want      int64
	}{
		{"pod grace", "plain", lifecycle.StopOptions{}, 30},
		{"override", "plain", lifecycle.StopOptions{GracePeriodOverride: ptr(int64(7))}, 7},
		{"RestartAllContainers reset: override 0 becomes 2", "plain", lifecycle.StopOptions{GracePeriodOverride: &zero}, 2},
		{"pod worker grace 1 becomes 2", "plain", lifecycle.StopOptions{GracePeriodOverride: ptr(int64(1))}, 2},
		{"preStop time is subtracted in whole seconds", "hook", lifecycle.StopOptions{PreStop: 5900 * time.Millisecond}, 25},
		{"preStop ignored without a hook", "plain", lifecycle.StopOptions{PreStop: 10 * time.Second}, 30},
		{"preStop longer than grace", "hook", lifecycle.StopOptions{PreStop: time.Hour}, 2},
		{"preStop not run with grace 0", "hook", lifecycle.StopOptions{GracePeriodOverride: &zero, PreStop: time.Hour}, 2},
		{"ordered wait is subtracted", "plain", lifecycle.StopOptions{Ordered: true, Wait: 12 * time.Second}, 18},
		{"wait ignored when not ordered", "plain", lifecycle.StopOptions{Wait: 12 * time.Second}, 30},
		{"preStop then wait", "hook", lifecycle.StopOptions{PreStop: 10 * time.Second, Ordered: true, Wait: 19 * time.Second}, 2},
		{"negative durations count as zero", "hook", lifecycle.StopOptions{PreStop: -time.Hour, Ordered: true, Wait: -time.Hour}, 30},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, lifecycle.StopTimeout(pod, tc.container, lifecycle.KillReasonUnknown, tc.opts))
		})
	}
}

// TestPodGracePeriod re-expresses upstream's Test_calculateEffectiveGracePeriod.
func TestPodGracePeriod(t *testing.T) {
	zero, two, five, thirty := int64(0), int64(2), int64(5), int64(30)
	for _, tc := range []struct {
		name           string
		tgps, deletion *int64
		current        int64
		override       *int64
		want           int64
	}{
		{"spec grace when no overrides", &thirty, nil, 0, nil, thirty},
		{"deletion grace when set", &thirty, &five, 0, nil, five},
		{"override when set", &thirty, &five, 0, &two, two},
		{"1 when deletion grace is zero", &thirty, &zero, 0, nil, 1},
		{"1 when override is zero", &thirty, &five, 0, &zero, 1},
		// Beyond upstream's table: the grace only goes down.
		{"a longer deletion grace does not extend", &thirty, &thirty, 5, nil, 5},
		{"a shorter deletion grace shortens", &thirty, &two, 5, nil, 2},
		{"an earlier value stays", &thirty, nil, 5, nil, 5},
		{"no grace at all", nil, nil, 0, nil, 1},
		{"a zero deletion grace lets a longer override in", &thirty, &zero, 5, &thirty, thirty},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pod := &corev1.Pod{Spec: corev1.PodSpec{TerminationGracePeriodSeconds: tc.tgps}}
			pod.DeletionGracePeriodSeconds = tc.deletion
			assert.Equal(t, tc.want, lifecycle.PodGracePeriod(pod, tc.current, tc.override))
		})
	}
}

func sidecarPod(initNames []string, sidecar []bool, mains ...string) *corev1.Pod {
	p := &corev1.Pod{Spec: corev1.PodSpec{Containers: containers(mains...)}}
	for i, n := range initNames {
		c := corev1.Container{Name: n}
		if sidecar[i] {
			c.RestartPolicy = &policyAlways
		}
		p.Spec.InitContainers = append(p.Spec.InitContainers, c)
	}
	return p
}

func allNames(p *corev1.Pod) []string {
	var names []string
	for _, c := range p.Spec.InitContainers {
		names = append(names, c.Name)
	}
	for _, c := range p.Spec.Containers {
		names = append(names, c.Name)
	}
	return names
}

func TestTerminationOrder(t *testing.T) {
	// waits names the main containers, then, when it starts with "sc", the next sidecar.
	step := func(name string, kind lifecycle.ContainerKind, stage int, waits ...string) lifecycle.TerminationStep {
		s := lifecycle.TerminationStep{Name: name, Kind: kind, Stage: stage}
		if n := len(waits); n > 0 && strings.HasPrefix(waits[n-1], "sc") {
			s.WaitsForSidecar, waits = waits[n-1], waits[:n-1]
		}
		if len(waits) > 0 {
			s.WaitsFor = waits
		}
		return s
	}
	three := sidecarPod([]string{"sc1", "sc2", "sc3"}, []bool{true, true, true}, "main")
	mixed := sidecarPod([]string{"init", "sc1", "sc2"}, []bool{false, true, true}, "a", "b")
	mixed.Spec.EphemeralContainers = []corev1.EphemeralContainer{{EphemeralContainerCommon: corev1.EphemeralContainerCommon{Name: "dbg"}}}
	for _, tc := range []struct {
		name    string
		pod     *corev1.Pod
		running []string
		want    []lifecycle.TerminationStep
	}{
		{"sidecar stops after main", sidecarPod([]string{"init"}, []bool{true}, "main"), []string{"init", "main"}, []lifecycle.TerminationStep{
			step("main", lifecycle.KindContainer, 0), step("init", lifecycle.KindSidecar, 1, "main")}},
		{"sidecars in reverse order", three, allNames(three), []lifecycle.TerminationStep{
			step("main", lifecycle.KindContainer, 0),
			step("sc3", lifecycle.KindSidecar, 1, "main"),
			step("sc2", lifecycle.KindSidecar, 2, "main", "sc3"),
			step("sc1", lifecycle.KindSidecar, 3, "main", "sc2")}},
		{"a stopped sidecar breaks the chain", three, []string{"sc1", "sc3", "main"}, []lifecycle.TerminationStep{
			step("main", lifecycle.KindContainer, 0),
			step("sc3", lifecycle.KindSidecar, 1, "main"),
			step("sc1", lifecycle.KindSidecar, 1, "main")}},
		{"no running main: sidecars chain alone", three, []string{"sc1", "sc2", "sc3"}, []lifecycle.TerminationStep{
			step("sc3", lifecycle.KindSidecar, 0),
			step("sc2", lifecycle.KindSidecar, 1, "sc3"),
			step("sc1", lifecycle.KindSidecar, 2, "sc2")}},
		{"every kind", mixed, []string{"dbg", "sc2", "sc1", "b", "a", "init", "unknown", "a"}, []lifecycle.TerminationStep{
			step("a", lifecycle.KindContainer, 0), step("b", lifecycle.KindContainer, 0),
			step("init", lifecycle.KindInitContainer, 0), step("dbg", lifecycle.KindEphemeralContainer, 0),
			step("sc2", lifecycle.KindSidecar, 1, "a", "b"),
			step("sc1", lifecycle.KindSidecar, 2, "a", "b", "sc2")}},
		{"nothing running", three, nil, []lifecycle.TerminationStep{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := tc.pod.DeepCopy()
			assert.Equal(t, tc.want, lifecycle.TerminationOrderOf(tc.pod, tc.running))
			assert.Equal(t, before, tc.pod)
		})
	}

	// TerminationOrder reads the running containers from the status.
	p := sidecarPod([]string{"sc"}, []bool{true}, "app", "done")
	p.Status.InitContainerStatuses = cstatuses(csRunning("sc"))
	p.Status.ContainerStatuses = cstatuses(csRunning("app"), csSucceeded("done"))
	assert.Equal(t, []lifecycle.TerminationStep{step("app", lifecycle.KindContainer, 0), step("sc", lifecycle.KindSidecar, 1, "app")}, lifecycle.TerminationOrder(p))
	assert.Empty(t, lifecycle.TerminationOrder(nil))
	assert.Empty(t, lifecycle.TerminationSchedule(nil, nil, nil, nil))
	assert.Equal(t, int64(1), lifecycle.PodGracePeriod(nil, 0, nil))
	assert.Equal(t, int64(2), lifecycle.StopTimeout(nil, "x", lifecycle.KillReasonUnknown, lifecycle.StopOptions{}))
}

// TestTerminationSchedule re-expresses upstream's timing tests
// TestTerminationOrderingSidecarStopAfterMain, …SidecarsInReverseOrder and …ObeysGrace:
// the delay each container waits for its turn, in whole seconds.
func TestTerminationSchedule(t *testing.T) {
	waited := func(stops []lifecycle.ScheduledStop) map[string]int64 {
		m := map[string]int64{}
		for _, s := range stops {
			m[s.Name] = int64(s.Waited.Seconds())
		}
		return m
	}
	exitAfter := func(d time.Duration, names ...string) map[string]lifecycle.StopBehavior {
		m := map[string]lifecycle.StopBehavior{}
		for _, n := range names {
			m[n] = lifecycle.StopBehavior{Exit: d}
		}
		return m
	}
	grace := func(s int64) *int64 { return &s }

	one := sidecarPod([]string{"init"}, []bool{true}, "main")
	stops := lifecycle.TerminationSchedule(one, lifecycle.TerminationOrderOf(one, allNames(one)), grace(30), exitAfter(time.Second, "main"))
	assert.Equal(t, map[string]int64{"init": 1, "main": 0}, waited(stops))

	three := sidecarPod([]string{"sc1", "sc2", "sc3"}, []bool{true, true, true}, "main")
	all := allNames(three)
	stops = lifecycle.TerminationSchedule(three, lifecycle.TerminationOrderOf(three, all), grace(30), exitAfter(1250*time.Millisecond, all...))
	assert.Equal(t, map[string]int64{"sc1": 3, "sc2": 2, "sc3": 1, "main": 0}, waited(stops))

	stops = lifecycle.TerminationSchedule(three, lifecycle.TerminationOrderOf(three, all), grace(2), exitAfter(time.Second, all...))
	assert.Equal(t, map[string]int64{"sc1": 2, "sc2": 2, "sc3": 1, "main": 0}, waited(stops))
	for _, s := range stops {
		assert.Equal(t, int64(2), s.Timeout, s.Name) // never below the 2-second window
	}

	// Full timing with preStop hooks, without an override (each container's own grace).
	hook := &corev1.Lifecycle{PreStop: &corev1.LifecycleHandler{Sleep: &corev1.SleepAction{Seconds: 3}}}
	p := sidecarPod([]string{"proxy"}, []bool{true}, "app")
	p.Spec.TerminationGracePeriodSeconds = grace(10)
	p.Spec.InitContainers[0].Lifecycle = hook
	p.Spec.Containers[0].Lifecycle = hook
	behavior := map[string]lifecycle.StopBehavior{
		"app":   {PreStop: 3 * time.Second, Exit: 20 * time.Second}, // ignores SIGTERM: killed at the timeout
		"proxy": {PreStop: 3 * time.Second, Exit: time.Second},
	}
	stops = lifecycle.TerminationSchedule(p, lifecycle.TerminationOrderOf(p, []string{"app", "proxy"}), nil, behavior)
	assert.Equal(t, []lifecycle.ScheduledStop{
		{TerminationStep: lifecycle.TerminationStep{Name: "app", Kind: lifecycle.KindContainer}, Signal: 3 * time.Second, Timeout: 7, Exit: 10 * time.Second},
		{TerminationStep: lifecycle.TerminationStep{Name: "proxy", Kind: lifecycle.KindSidecar, WaitsFor: []string{"app"}, Stage: 1},
			Waited: 7 * time.Second, Signal: 10 * time.Second, Timeout: 2, Exit: 11 * time.Second},
	}, stops)

	// Without sidecars there is no ordering at all.
	plain := &corev1.Pod{Spec: corev1.PodSpec{Containers: containers("a", "b")}}
	steps := []lifecycle.TerminationStep{{Name: "a", Kind: lifecycle.KindContainer}, {Name: "b", Kind: lifecycle.KindContainer, WaitsFor: []string{"a"}}}
	stops = lifecycle.TerminationSchedule(plain, steps, grace(30), exitAfter(5*time.Second, "a", "b"))
	assert.Equal(t, time.Duration(0), stops[1].Waited)
}

func FuzzTermination(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		in := &fuzzInput{b: data}
		pod := in.pod()
		var running []string
		for range in.n(6) {
			running = append(running, fuzzPick(in, append(fuzzNames, "ghost")...))
		}
		override := in.int64Ptr()
		current := int64(int8(in.next()))
		reason := fuzzPick(in, lifecycle.KillReasonNone, lifecycle.KillReasonStartupProbe, lifecycle.KillReasonLivenessProbe, lifecycle.KillReasonUnknown)
		behavior := map[string]lifecycle.StopBehavior{}
		for _, n := range fuzzNames {
			behavior[n] = lifecycle.StopBehavior{PreStop: time.Duration(int8(in.next())) * 100 * time.Millisecond, Exit: time.Duration(int8(in.next())) * 100 * time.Millisecond}
		}
		before := pod.DeepCopy()

		steps := lifecycle.TerminationOrderOf(pod, running)
		if !reflect.DeepEqual(steps, lifecycle.TerminationOrderOf(pod, running)) {
			t.Fatal("not deterministic")
		}
		for _, s := range lifecycle.TerminationOrder(pod) {
			if !slices.ContainsFunc(slices.Concat(pod.Status.InitContainerStatuses, pod.Status.ContainerStatuses), func(cs corev1.ContainerStatus) bool {
				return cs.Name == s.Name && cs.State.Running != nil
			}) {
				t.Fatalf("step %+v is not running", s)
			}
		}
		seen := map[string]int{}
		for i, s := range steps {
			if _, dup := seen[s.Name]; dup || !slices.Contains(running, s.Name) {
				t.Fatalf("step %+v repeated or not running", s)
			}
			seen[s.Name] = i
			if i > 0 && s.Stage < steps[i-1].Stage {
				t.Fatalf("stages out of order: %+v", steps)
			}
			if s.Kind != lifecycle.KindSidecar && (len(s.WaitsFor) > 0 || s.WaitsForSidecar != "") {
				t.Fatalf("%+v waits", s)
			}
			waits := s.WaitsFor
			if s.WaitsForSidecar != "" {
				waits = append(waits[:len(waits):len(waits)], s.WaitsForSidecar)
			}
			for _, w := range waits {
				j, ok := seen[w]
				if !ok || steps[j].Stage >= s.Stage {
					t.Fatalf("%+v waits for a later container: %+v", s, steps)
				}
			}
		}
		for _, s := range lifecycle.TerminationSchedule(pod, steps, override, behavior) {
			if s.Timeout < lifecycle.MinimumGracePeriodSeconds || s.Signal < 0 || s.Exit < s.Signal || s.Waited < 0 || s.Waited > s.Signal {
				t.Fatalf("%+v", s)
			}
			if s.Exit-s.Signal > time.Duration(s.Timeout)*time.Second {
				t.Fatalf("exits after its timeout: %+v", s)
			}
		}
		for _, c := range append(append([]corev1.Container{}, pod.Spec.InitContainers...), pod.Spec.Containers...) {
			g := lifecycle.GracePeriod(pod, c.Name, reason)
			if pod.DeletionGracePeriodSeconds != nil && g != *pod.DeletionGracePeriodSeconds {
				t.Fatalf("deletion grace %d, got %d", *pod.DeletionGracePeriodSeconds, g)
			}
			timeout := lifecycle.StopTimeout(pod, c.Name, reason, lifecycle.StopOptions{GracePeriodOverride: override, PreStop: behavior[c.Name].PreStop, Ordered: true, Wait: time.Second})
			base := g
			if override != nil {
				base = *override
			}
			if timeout < lifecycle.MinimumGracePeriodSeconds || timeout > max(base, lifecycle.MinimumGracePeriodSeconds) {
				t.Fatalf("timeout %d from grace %d", timeout, base)
			}
		}
		pg := lifecycle.PodGracePeriod(pod, current, override)
		zeroDeletion := pod.DeletionGracePeriodSeconds != nil && *pod.DeletionGracePeriodSeconds == 0
		if pg < 1 || (current >= 1 && pg > current && !(zeroDeletion && override != nil)) {
			t.Fatalf("pod grace %d from %d", pg, current)
		}
		if !reflect.DeepEqual(before, pod) {
			t.Fatal("input modified")
		}
	})
}
