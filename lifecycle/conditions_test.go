package lifecycle_test

import (
	"reflect"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	corev1 "k8s.io/api/core/v1"

	"github.com/podlife/podlife"
	"github.com/podlife/podlife/lifecycle"
)

func csReady(name string) corev1.ContainerStatus {
	return corev1.ContainerStatus{Name: name, Ready: true}
}
func csNotReady(name string) corev1.ContainerStatus { return corev1.ContainerStatus{Name: name} }
func csStartedOnly(name string, started bool) corev1.ContainerStatus {
	return corev1.ContainerStatus{Name: name, Started: &started}
}

func cond(t corev1.PodConditionType, status corev1.ConditionStatus, reason, message string) corev1.PodCondition {
	return corev1.PodCondition{Type: t, Status: status, Reason: reason, Message: message}
}

// podWithStatuses puts the kubelet's combined status list into pod.Status: the functions
// see init statuses followed by regular ones, so one list in InitContainerStatuses is the
// same input, nil-ness included.
func podWithStatuses(spec corev1.PodSpec, statuses []corev1.ContainerStatus, conds ...corev1.PodCondition) *corev1.Pod {
	return &corev1.Pod{Spec: spec, Status: corev1.PodStatus{InitContainerStatuses: statuses, Conditions: conds}}
}

func containers(names ...string) []corev1.Container {
	out := make([]corev1.Container, len(names))
	for i, n := range names {
		out[i] = corev1.Container{Name: n}
	}
	return out
}

func sidecars(names ...string) []corev1.Container {
	out := containers(names...)
	for i := range out {
		out[i].RestartPolicy = &policyAlways
	}
	return out
}

func gates(types ...string) []corev1.PodReadinessGate {
	out := make([]corev1.PodReadinessGate, len(types))
	for i, t := range types {
		out[i].ConditionType = corev1.PodConditionType(t)
	}
	return out
}

// TestContainersReadyCondition re-expresses upstream's TestGenerateContainersReadyCondition.
func TestContainersReadyCondition(t *testing.T) {
	sc := corev1.PodSpec{InitContainers: sidecars("restartable-init-1"), Containers: containers("regular-1")}
	sc2 := corev1.PodSpec{InitContainers: sidecars("restartable-init-1", "restartable-init-2"), Containers: containers("regular-1")}
	two := corev1.PodSpec{Containers: containers("1234", "5678")}
	const notReady = lifecycle.ReasonContainersNotReady
	for i, tc := range []struct {
		spec     corev1.PodSpec
		statuses []corev1.ContainerStatus
		phase    corev1.PodPhase
		want     corev1.PodCondition
	}{
		{corev1.PodSpec{}, nil, corev1.PodRunning, cond(corev1.ContainersReady, corev1.ConditionFalse, "UnknownContainerStatuses", "")},
		{corev1.PodSpec{}, cstatuses(), corev1.PodRunning, cond(corev1.ContainersReady, corev1.ConditionTrue, "", "")},
		{corev1.PodSpec{Containers: containers("1234")}, cstatuses(), corev1.PodRunning, cond(corev1.ContainersReady, corev1.ConditionFalse, notReady, "containers with unknown status: [1234]")},
		{two, cstatuses(csReady("1234"), csReady("5678")), corev1.PodRunning, cond(corev1.ContainersReady, corev1.ConditionTrue, "", "")},
		{two, cstatuses(csReady("1234")), corev1.PodRunning, cond(corev1.ContainersReady, corev1.ConditionFalse, notReady, "containers with unknown status: [5678]")},
		{two, cstatuses(csReady("1234"), csNotReady("5678")), corev1.PodRunning, cond(corev1.ContainersReady, corev1.ConditionFalse, notReady, "containers with unready status: [5678]")},
		{corev1.PodSpec{Containers: containers("1234")}, cstatuses(csNotReady("1234")), corev1.PodSucceeded, cond(corev1.ContainersReady, corev1.ConditionFalse, "PodCompleted", "")},
		{sc, cstatuses(csReady("regular-1")), corev1.PodRunning, cond(corev1.ContainersReady, corev1.ConditionFalse, notReady, "containers with unknown status: [restartable-init-1]")},
		{sc2, cstatuses(csReady("restartable-init-1"), csReady("restartable-init-2"), csReady("regular-1")), corev1.PodRunning, cond(corev1.ContainersReady, corev1.ConditionTrue, "", "")},
		{sc2, cstatuses(csReady("restartable-init-1"), csReady("regular-1")), corev1.PodRunning, cond(corev1.ContainersReady, corev1.ConditionFalse, notReady, "containers with unknown status: [restartable-init-2]")},
		{sc2, cstatuses(csReady("restartable-init-1"), csNotReady("restartable-init-2"), csReady("regular-1")), corev1.PodRunning, cond(corev1.ContainersReady, corev1.ConditionFalse, notReady, "containers with unready status: [restartable-init-2]")},
		// Beyond upstream's table: both lists, sidecars first; Failed; Succeeded with unknowns.
		{corev1.PodSpec{InitContainers: append(containers("init"), sidecars("sc")...), Containers: containers("a", "b", "c")}, cstatuses(csNotReady("init"), csNotReady("sc"), csNotReady("a")), corev1.PodRunning,
			cond(corev1.ContainersReady, corev1.ConditionFalse, notReady, "containers with unknown status: [b c], containers with unready status: [sc a]")},
		{two, cstatuses(csReady("1234")), corev1.PodFailed, cond(corev1.ContainersReady, corev1.ConditionFalse, "PodFailed", "")},
		{two, cstatuses(csReady("1234")), corev1.PodSucceeded, cond(corev1.ContainersReady, corev1.ConditionFalse, notReady, "containers with unknown status: [5678]")},
	} {
		pod := podWithStatuses(tc.spec, tc.statuses)
		before := pod.DeepCopy()
		assert.Equal(t, tc.want, lifecycle.ContainersReadyCondition(pod, tc.phase, lifecycle.Options{}), "case %d", i)
		assert.Equal(t, before, pod, "case %d: input modified", i)
	}
}

// TestReadyCondition re-expresses upstream's TestGeneratePodReadyCondition.
func TestReadyCondition(t *testing.T) {
	two := corev1.PodSpec{Containers: containers("1234", "5678")}
	const notReady, gatesNotReady = lifecycle.ReasonContainersNotReady, lifecycle.ReasonReadinessGatesNotReady
	c := func(s corev1.ConditionStatus, reason, msg string) corev1.PodCondition {
		return cond(corev1.PodReady, s, reason, msg)
	}
	gate := func(name string, s corev1.ConditionStatus) corev1.PodCondition {
		return cond(corev1.PodConditionType(name), s, "", "")
	}
	for i, tc := range []struct {
		spec     corev1.PodSpec
		conds    []corev1.PodCondition
		statuses []corev1.ContainerStatus
		phase    corev1.PodPhase
		want     corev1.PodCondition
	}{
		{corev1.PodSpec{}, nil, nil, corev1.PodRunning, c(corev1.ConditionFalse, "UnknownContainerStatuses", "")},
		{corev1.PodSpec{}, nil, cstatuses(), corev1.PodRunning, c(corev1.ConditionTrue, "", "")},
		{corev1.PodSpec{Containers: containers("1234")}, nil, cstatuses(), corev1.PodRunning, c(corev1.ConditionFalse, notReady, "containers with unknown status: [1234]")},
		{two, nil, cstatuses(csReady("1234"), csReady("5678")), corev1.PodRunning, c(corev1.ConditionTrue, "", "")},
		{two, nil, cstatuses(csReady("1234")), corev1.PodRunning, c(corev1.ConditionFalse, notReady, "containers with unknown status: [5678]")},
		{two, nil, cstatuses(csReady("1234"), csNotReady("5678")), corev1.PodRunning, c(corev1.ConditionFalse, notReady, "containers with unready status: [5678]")},
		{corev1.PodSpec{Containers: containers("1234")}, nil, cstatuses(csNotReady("1234")), corev1.PodSucceeded, c(corev1.ConditionFalse, "PodCompleted", "")},
		{corev1.PodSpec{ReadinessGates: gates("gate1")}, nil, cstatuses(), corev1.PodRunning, c(corev1.ConditionFalse, gatesNotReady, `corresponding condition of pod readiness gate "gate1" does not exist.`)},
		{corev1.PodSpec{ReadinessGates: gates("gate1")}, []corev1.PodCondition{gate("gate1", corev1.ConditionFalse)}, cstatuses(), corev1.PodRunning, c(corev1.ConditionFalse, gatesNotReady, `the status of pod readiness gate "gate1" is not "True", but False`)},
		{corev1.PodSpec{ReadinessGates: gates("gate1")}, []corev1.PodCondition{gate("gate1", corev1.ConditionTrue)}, cstatuses(), corev1.PodRunning, c(corev1.ConditionTrue, "", "")},
		{corev1.PodSpec{ReadinessGates: gates("gate1", "gate2")}, []corev1.PodCondition{gate("gate1", corev1.ConditionTrue)}, cstatuses(), corev1.PodRunning, c(corev1.ConditionFalse, gatesNotReady, `corresponding condition of pod readiness gate "gate2" does not exist.`)},
		{corev1.PodSpec{ReadinessGates: gates("gate1", "gate2")}, []corev1.PodCondition{gate("gate1", corev1.ConditionTrue), gate("gate2", corev1.ConditionFalse)}, cstatuses(), corev1.PodRunning, c(corev1.ConditionFalse, gatesNotReady, `the status of pod readiness gate "gate2" is not "True", but False`)},
		{corev1.PodSpec{ReadinessGates: gates("gate1", "gate2")}, []corev1.PodCondition{gate("gate1", corev1.ConditionTrue), gate("gate2", corev1.ConditionTrue)}, cstatuses(), corev1.PodRunning, c(corev1.ConditionTrue, "", "")},
		{corev1.PodSpec{Containers: containers("1234"), ReadinessGates: gates("gate1")}, []corev1.PodCondition{gate("gate1", corev1.ConditionTrue)}, cstatuses(csNotReady("1234")), corev1.PodRunning, c(corev1.ConditionFalse, notReady, "containers with unready status: [1234]")},
		// Beyond upstream's table: two failing gates, joined; a Failed pod.
		{corev1.PodSpec{ReadinessGates: gates("x/gate1", "x/gate2")}, []corev1.PodCondition{gate("x/gate2", corev1.ConditionUnknown)}, cstatuses(), corev1.PodRunning,
			c(corev1.ConditionFalse, gatesNotReady, `corresponding condition of pod readiness gate "x/gate1" does not exist., the status of pod readiness gate "x/gate2" is not "True", but Unknown`)},
		{corev1.PodSpec{Containers: containers("1234"), ReadinessGates: gates("g")}, nil, cstatuses(csReady("1234")), corev1.PodFailed, c(corev1.ConditionFalse, "PodFailed", "")},
	} {
		pod := podWithStatuses(tc.spec, tc.statuses, tc.conds...)
		before := pod.DeepCopy()
		assert.Equal(t, tc.want, lifecycle.ReadyCondition(pod, tc.phase, lifecycle.Options{}), "case %d", i)
		// ReadyConditionWith on the same list answers the same.
		assert.Equal(t, tc.want, lifecycle.ReadyConditionWith(podWithStatuses(tc.spec, tc.statuses), tc.conds, tc.phase, lifecycle.Options{}), "case %d (With)", i)
		assert.Equal(t, before, pod, "case %d: input modified", i)
	}
}

// TestInitializedCondition re-expresses upstream's TestGeneratePodInitializedCondition.
func TestInitializedCondition(t *testing.T) {
	none := corev1.PodSpec{}
	one := corev1.PodSpec{InitContainers: containers("1234"), Containers: containers("regular")}
	two := corev1.PodSpec{InitContainers: containers("1234", "5678"), Containers: containers("regular")}
	oneSidecar := corev1.PodSpec{InitContainers: sidecars("1234"), Containers: containers("regular")}
	const notInit = lifecycle.ReasonContainersNotInitialized
	c := func(s corev1.ConditionStatus, reason, msg string) corev1.PodCondition {
		return cond(corev1.PodInitialized, s, reason, msg)
	}
	for i, tc := range []struct {
		spec     corev1.PodSpec
		statuses []corev1.ContainerStatus
		phase    corev1.PodPhase
		want     corev1.PodCondition
	}{
		{two, nil, corev1.PodRunning, c(corev1.ConditionFalse, "UnknownContainerStatuses", "")},
		{none, cstatuses(), corev1.PodRunning, c(corev1.ConditionTrue, "", "")},
		{one, cstatuses(), corev1.PodRunning, c(corev1.ConditionFalse, notInit, "containers with unknown status: [1234]")},
		{two, cstatuses(csReady("1234"), csReady("5678")), corev1.PodRunning, c(corev1.ConditionTrue, "", "")},
		{two, cstatuses(csReady("1234")), corev1.PodRunning, c(corev1.ConditionFalse, notInit, "containers with unknown status: [5678]")},
		{two, cstatuses(csReady("1234"), csNotReady("5678")), corev1.PodRunning, c(corev1.ConditionFalse, notInit, "containers with incomplete status: [5678]")},
		{one, cstatuses(csReady("1234")), corev1.PodSucceeded, c(corev1.ConditionTrue, "PodCompleted", "")},
		{oneSidecar, cstatuses(csStartedOnly("1234", false)), corev1.PodPending, c(corev1.ConditionFalse, notInit, "containers with incomplete status: [1234]")},
		{oneSidecar, cstatuses(csStartedOnly("1234", true)), corev1.PodRunning, c(corev1.ConditionTrue, "", "")},
		{oneSidecar, cstatuses(csStartedOnly("1234", false), csRunning("regular")), corev1.PodRunning, c(corev1.ConditionTrue, "", "")},
		{one, cstatuses(csWaiting("1234"), csSucceeded("regular")), corev1.PodRunning, c(corev1.ConditionTrue, "", "")},
		// Beyond upstream's table: both lists in one message; no statuses without init containers.
		{corev1.PodSpec{InitContainers: append(containers("a", "b"), sidecars("c")...)}, cstatuses(csNotReady("a"), csStartedOnly("c", false)), corev1.PodPending,
			c(corev1.ConditionFalse, notInit, "containers with unknown status: [b], containers with incomplete status: [a c]")},
		{none, nil, corev1.PodRunning, c(corev1.ConditionTrue, "", "")},
	} {
		pod := podWithStatuses(tc.spec, tc.statuses)
		before := pod.DeepCopy()
		assert.Equal(t, tc.want, lifecycle.InitializedCondition(pod, tc.phase, lifecycle.Options{}), "case %d", i)
		assert.Equal(t, before, pod, "case %d: input modified", i)
	}
}

// TestInitializedStaysTrue covers the RestartAllContainersOnContainerExits rule: once the
// previous status says Initialized=True, the pod stays initialized.
func TestInitializedStaysTrue(t *testing.T) {
	spec := corev1.PodSpec{InitContainers: containers("init"), Containers: containers("app")}
	pod := podWithStatuses(spec, cstatuses(csWaitingReason("init", "RestartingAllContainers"), csWaitingReason("app", "PodInitializing")),
		cond(corev1.PodInitialized, corev1.ConditionTrue, "", ""))
	pod.Generation = 7
	want := corev1.PodCondition{Type: corev1.PodInitialized, Status: corev1.ConditionTrue, ObservedGeneration: 7}
	assert.Equal(t, want, lifecycle.InitializedCondition(pod, corev1.PodPending, lifecycle.Options{}))

	off := lifecycle.Options{Features: podlife.FeatureGates{"RestartAllContainersOnContainerExits": false}}
	want = corev1.PodCondition{Type: corev1.PodInitialized, Status: corev1.ConditionFalse, ObservedGeneration: 7,
		Reason: "ContainersNotInitialized", Message: "containers with incomplete status: [init]"}
	assert.Equal(t, want, lifecycle.InitializedCondition(pod, corev1.PodPending, off))

	pod.Status.Conditions[0].Status = corev1.ConditionFalse
	assert.Equal(t, want, lifecycle.InitializedCondition(pod, corev1.PodPending, lifecycle.Options{}))
}

func TestConditionsObservedGeneration(t *testing.T) {
	pod := podWithStatuses(corev1.PodSpec{Containers: containers("a")}, cstatuses(csReady("a")))
	pod.Generation = 3
	for _, f := range []func(*corev1.Pod, corev1.PodPhase, lifecycle.Options) corev1.PodCondition{
		lifecycle.InitializedCondition, lifecycle.ContainersReadyCondition, lifecycle.ReadyCondition,
	} {
		assert.Equal(t, int64(3), f(pod, corev1.PodRunning, lifecycle.Options{}).ObservedGeneration)
		// With the (locked) gate forced off, only a condition that already tracked a
		// generation keeps tracking it.
		off := lifecycle.Options{Features: podlife.FeatureGates{"PodObservedGenerationTracking": false}}
		assert.Equal(t, int64(0), f(pod, corev1.PodRunning, off).ObservedGeneration)
		c := f(pod, corev1.PodRunning, off)
		tracked := pod.DeepCopy()
		tracked.Status.Conditions = []corev1.PodCondition{{Type: c.Type, ObservedGeneration: 1}}
		assert.Equal(t, int64(3), f(tracked, corev1.PodRunning, off).ObservedGeneration)
		assert.True(t, c.LastTransitionTime.IsZero() && c.LastProbeTime.IsZero())
	}
}

func TestConditionsNilPod(t *testing.T) {
	assert.Equal(t, cond(corev1.PodInitialized, corev1.ConditionTrue, "", ""), lifecycle.InitializedCondition(nil, corev1.PodPending, lifecycle.Options{}))
	assert.Equal(t, cond(corev1.ContainersReady, corev1.ConditionFalse, "UnknownContainerStatuses", ""), lifecycle.ContainersReadyCondition(nil, corev1.PodPending, lifecycle.Options{}))
	assert.Equal(t, cond(corev1.PodReady, corev1.ConditionFalse, "UnknownContainerStatuses", ""), lifecycle.ReadyCondition(nil, corev1.PodPending, lifecycle.Options{}))
	assert.Equal(t, cond(corev1.PodReady, corev1.ConditionFalse, "UnknownContainerStatuses", ""), lifecycle.ReadyConditionWith(nil, nil, corev1.PodPending, lifecycle.Options{}))
}

func FuzzConditions(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		in := &fuzzInput{b: data}
		pod := in.pod()
		phase := fuzzPick(in, corev1.PodPending, corev1.PodRunning, corev1.PodSucceeded, corev1.PodFailed, corev1.PodUnknown)
		opts := lifecycle.Options{Features: fuzzPick(in, podlife.FeatureGates(nil), podlife.FeatureGates{"RestartAllContainersOnContainerExits": false})}
		before := pod.DeepCopy()
		init := lifecycle.InitializedCondition(pod, phase, opts)
		cr := lifecycle.ContainersReadyCondition(pod, phase, opts)
		ready := lifecycle.ReadyCondition(pod, phase, opts)
		if !reflect.DeepEqual(before, pod) {
			t.Fatal("input modified")
		}
		for _, c := range []struct {
			got     corev1.PodCondition
			typ     corev1.PodConditionType
			reasons []string
			again   func() corev1.PodCondition
		}{
			{init, corev1.PodInitialized, []string{"", "PodCompleted", "UnknownContainerStatuses", "ContainersNotInitialized"}, func() corev1.PodCondition { return lifecycle.InitializedCondition(pod, phase, opts) }},
			{cr, corev1.ContainersReady, []string{"", "PodCompleted", "PodFailed", "UnknownContainerStatuses", "ContainersNotReady"}, func() corev1.PodCondition { return lifecycle.ContainersReadyCondition(pod, phase, opts) }},
			{ready, corev1.PodReady, []string{"", "PodCompleted", "PodFailed", "UnknownContainerStatuses", "ContainersNotReady", "ReadinessGatesNotReady"}, func() corev1.PodCondition { return lifecycle.ReadyCondition(pod, phase, opts) }},
		} {
			if c.got.Type != c.typ || c.got.ObservedGeneration != pod.Generation || !c.got.LastTransitionTime.IsZero() || !c.got.LastProbeTime.IsZero() {
				t.Fatalf("%+v", c.got)
			}
			if !slices.Contains(c.reasons, c.got.Reason) {
				t.Fatalf("unexpected reason %+v", c.got)
			}
			switch c.got.Status {
			case corev1.ConditionTrue:
				if c.got.Message != "" || (c.got.Reason != "" && c.got.Reason != "PodCompleted") {
					t.Fatalf("true with %+v", c.got)
				}
			case corev1.ConditionFalse:
				if c.got.Reason == "" {
					t.Fatalf("false without a reason: %+v", c.got)
				}
			default:
				t.Fatalf("status %+v", c.got)
			}
			if again := c.again(); !reflect.DeepEqual(again, c.got) {
				t.Fatalf("not deterministic: %+v then %+v", c.got, again)
			}
		}
		// Ready is never True while ContainersReady is not; a terminal pod is never ready.
		if ready.Status == corev1.ConditionTrue && cr.Status != corev1.ConditionTrue {
			t.Fatalf("ready %+v, containers ready %+v", ready, cr)
		}
		if phase == corev1.PodFailed && (ready.Status == corev1.ConditionTrue || cr.Status == corev1.ConditionTrue) {
			t.Fatalf("failed pod ready: %+v %+v", ready, cr)
		}
		if with := lifecycle.ReadyConditionWith(pod, pod.Status.Conditions, phase, opts); !reflect.DeepEqual(with, ready) {
			t.Fatalf("ReadyConditionWith %+v, ReadyCondition %+v", with, ready)
		}
		// Without readiness gates Ready mirrors ContainersReady.
		if len(pod.Spec.ReadinessGates) == 0 && (ready.Status != cr.Status || ready.Reason != cr.Reason || ready.Message != cr.Message) {
			t.Fatalf("ready %+v, containers ready %+v", ready, cr)
		}
	})
}
