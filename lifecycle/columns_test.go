package lifecycle_test

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podlife/podlife/lifecycle"
)

// colNow is the printer's clock in these tests.
var colNow = time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)

func ago(d time.Duration) metav1.Time { return metav1.NewTime(colNow.Add(-d)) }

func lastTerminated(finished metav1.Time) corev1.ContainerState {
	return corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{FinishedAt: finished}}
}

var (
	stRunning = corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}
	stWaiting = corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{}}
)

func stWaitingReason(r string) corev1.ContainerState {
	return corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: r}}
}

func stTerminated(reason string, exitCode, signal int32) corev1.ContainerState {
	return corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{Reason: reason, ExitCode: exitCode, Signal: signal}}
}

// row is the first five columns.
type row struct{ name, ready, status, restarts, age string }

func short(c lifecycle.Columns) row { return row{c.Name, c.Ready, c.Status, c.Restarts, c.Age} }

func succeededRow() []metav1.TableRowCondition {
	return []metav1.TableRowCondition{{Type: metav1.RowCompleted, Status: metav1.ConditionTrue, Reason: "Succeeded", Message: "The pod has completed successfully."}}
}

func failedRow() []metav1.TableRowCondition {
	return []metav1.TableRowCondition{{Type: metav1.RowCompleted, Status: metav1.ConditionTrue, Reason: "Failed", Message: "The pod failed."}}
}

type columnsCase struct {
	pod   corev1.Pod
	want  row
	conds []metav1.TableRowCondition
}

func runColumnsCases(t *testing.T, cases []columnsCase) {
	t.Helper()
	for i, tc := range cases {
		before := tc.pod.DeepCopy()
		got := lifecycle.PodColumns(&tc.pod, colNow)
		assert.Equal(t, tc.want, short(got), "case %d (%s)", i, tc.pod.Name)
		assert.Equal(t, tc.conds, lifecycle.RowConditions(&tc.pod), "case %d (%s) row conditions", i, tc.pod.Name)
		assert.Equal(t, before, &tc.pod, "case %d: input modified", i)
	}
}

func named(n string) metav1.ObjectMeta { return metav1.ObjectMeta{Name: n} }

// TestPodColumns re-expresses upstream's TestPrintPod, with the printer's clock as colNow.
func TestPodColumns(t *testing.T) {
	two := corev1.PodSpec{Containers: make([]corev1.Container, 2)}
	one := corev1.PodSpec{Containers: make([]corev1.Container, 1)}
	three := corev1.PodSpec{Containers: make([]corev1.Container, 3)}
	initN := func(n int) corev1.PodSpec {
		return corev1.PodSpec{InitContainers: make([]corev1.Container, n), Containers: make([]corev1.Container, 1)}
	}
	deleted := ago(10 * time.Second)
	deleting := func(n string) metav1.ObjectMeta { return metav1.ObjectMeta{Name: n, DeletionTimestamp: &deleted} }
	runColumnsCases(t, []columnsCase{
		{pod: corev1.Pod{ObjectMeta: named("test1"), Spec: two, Status: corev1.PodStatus{Phase: "podPhase", ContainerStatuses: []corev1.ContainerStatus{
			{Ready: true, RestartCount: 3, State: stRunning}, {RestartCount: 3}}}},
			want: row{"test1", "1/2", "podPhase", "6", "<unknown>"}},
		{pod: corev1.Pod{ObjectMeta: named("test2"), Spec: two, Status: corev1.PodStatus{Phase: "podPhase", ContainerStatuses: []corev1.ContainerStatus{
			{Ready: true, RestartCount: 3, State: stRunning}, {State: stWaitingReason("ContainerWaitingReason"), RestartCount: 3}}}},
			want: row{"test2", "1/2", "ContainerWaitingReason", "6", "<unknown>"}},
		{pod: corev1.Pod{ObjectMeta: named("test3"), Spec: two, Status: corev1.PodStatus{Phase: "podPhase", ContainerStatuses: []corev1.ContainerStatus{
			{State: stWaitingReason("ContainerWaitingReason"), RestartCount: 3}, {State: stTerminated("ContainerTerminatedReason", 0, 0), RestartCount: 3}}}},
			want: row{"test3", "0/2", "ContainerWaitingReason", "6", "<unknown>"}},
		{pod: corev1.Pod{ObjectMeta: named("test4"), Spec: two, Status: corev1.PodStatus{Phase: "podPhase", ContainerStatuses: []corev1.ContainerStatus{
			{Ready: true, RestartCount: 3, State: stRunning}, {Ready: true, RestartCount: 3}}}},
			want: row{"test4", "1/2", "podPhase", "6", "<unknown>"}},
		{pod: corev1.Pod{ObjectMeta: named("test5"), Spec: two, Status: corev1.PodStatus{Reason: "podReason", Phase: "podPhase", ContainerStatuses: []corev1.ContainerStatus{
			{Ready: true, RestartCount: 3, State: stRunning}, {Ready: true, RestartCount: 3}}}},
			want: row{"test5", "1/2", "podReason", "6", "<unknown>"}},
		{pod: corev1.Pod{ObjectMeta: named("test6"), Spec: two, Status: corev1.PodStatus{Phase: "Running", ContainerStatuses: []corev1.ContainerStatus{
			{Ready: true, RestartCount: 3, State: stTerminated("Completed", 0, 0)}, {Ready: true, RestartCount: 3, State: stRunning}}}},
			want: row{"test6", "1/2", "NotReady", "6", "<unknown>"}},
		{pod: corev1.Pod{ObjectMeta: named("test6"), Spec: two, Status: corev1.PodStatus{Phase: "Running", ContainerStatuses: []corev1.ContainerStatus{
			{Ready: true, RestartCount: 3, State: stTerminated("Completed", 0, 0)}, {Ready: true, RestartCount: 3, State: stRunning}},
			Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastProbeTime: metav1.NewTime(colNow)}}}},
			want: row{"test6", "1/2", "Running", "6", "<unknown>"}},
		{pod: corev1.Pod{ObjectMeta: named("test7"), Spec: initN(1), Status: corev1.PodStatus{Phase: "podPhase",
			InitContainerStatuses: []corev1.ContainerStatus{{RestartCount: 3, State: stRunning, LastTerminationState: lastTerminated(ago(10 * time.Second))}},
			ContainerStatuses:     []corev1.ContainerStatus{{State: stWaiting}}}},
			want: row{"test7", "0/1", "Init:0/1", "3 (10s ago)", "<unknown>"}},
		{pod: corev1.Pod{ObjectMeta: named("test8"), Spec: initN(2), Status: corev1.PodStatus{Phase: "podPhase",
			InitContainerStatuses: []corev1.ContainerStatus{{RestartCount: 3, State: stRunning, LastTerminationState: lastTerminated(ago(10 * time.Second))}, {State: stWaiting}},
			ContainerStatuses:     []corev1.ContainerStatus{{State: stWaiting}}}},
			want: row{"test8", "0/1", "Init:0/2", "3 (10s ago)", "<unknown>"}},
		{pod: corev1.Pod{ObjectMeta: named("test9"), Spec: initN(2), Status: corev1.PodStatus{Phase: "podPhase",
			InitContainerStatuses: []corev1.ContainerStatus{{State: stTerminated("", 0, 0)}, {RestartCount: 3, State: stRunning, LastTerminationState: lastTerminated(ago(10 * time.Second))}},
			ContainerStatuses:     []corev1.ContainerStatus{{State: stWaiting}}}},
			want: row{"test9", "0/1", "Init:1/2", "3 (10s ago)", "<unknown>"}},
		{pod: corev1.Pod{ObjectMeta: named("test10"), Spec: initN(2), Status: corev1.PodStatus{Phase: "podPhase",
			InitContainerStatuses: []corev1.ContainerStatus{
				{RestartCount: 2, State: stTerminated("", 0, 0), LastTerminationState: lastTerminated(ago(2 * time.Minute))},
				{RestartCount: 3, State: stRunning, LastTerminationState: lastTerminated(ago(10 * time.Second))}},
			ContainerStatuses: []corev1.ContainerStatus{{State: stWaiting}}}},
			want: row{"test10", "0/1", "Init:1/2", "5 (10s ago)", "<unknown>"}},
		{pod: corev1.Pod{ObjectMeta: named("test11"), Spec: initN(1), Status: corev1.PodStatus{Phase: "Running",
			InitContainerStatuses: []corev1.ContainerStatus{{RestartCount: 2, State: stTerminated("", 0, 0), LastTerminationState: lastTerminated(ago(2 * time.Minute))}},
			ContainerStatuses:     []corev1.ContainerStatus{{RestartCount: 4, State: stRunning, LastTerminationState: lastTerminated(ago(20 * time.Second))}}}},
			want: row{"test11", "0/1", "Running", "4 (20s ago)", "<unknown>"}},
		{pod: corev1.Pod{ObjectMeta: named("test12"), Spec: one, Status: corev1.PodStatus{Phase: "Running",
			ContainerStatuses: []corev1.ContainerStatus{{Ready: true, RestartCount: 3, State: stRunning, LastTerminationState: lastTerminated(ago(5 * 24 * time.Hour))}}}},
			want: row{"test12", "1/1", "Running", "3 (5d ago)", "<unknown>"}},
		{pod: corev1.Pod{ObjectMeta: named("test13"), Spec: two, Status: corev1.PodStatus{Phase: "Running", ContainerStatuses: []corev1.ContainerStatus{
			{Ready: true, State: stRunning},
			{Ready: true, RestartCount: 3, State: stRunning, LastTerminationState: lastTerminated(ago(10 * 24 * time.Hour))}}}},
			want: row{"test13", "2/2", "Running", "3 (10d ago)", "<unknown>"}},
		{pod: corev1.Pod{ObjectMeta: named("test14"), Spec: two, Status: corev1.PodStatus{Phase: "Running", ContainerStatuses: []corev1.ContainerStatus{
			{Ready: true, RestartCount: 6, State: stRunning, LastTerminationState: lastTerminated(ago(5 * 24 * time.Hour))},
			{Ready: true, RestartCount: 3, State: stRunning, LastTerminationState: lastTerminated(ago(20 * 24 * time.Hour))}}}},
			want: row{"test14", "2/2", "Running", "9 (5d ago)", "<unknown>"}},
		{pod: corev1.Pod{ObjectMeta: named("test15"), Spec: two, Status: corev1.PodStatus{Phase: "podPhase",
			Conditions: []corev1.PodCondition{{Type: corev1.PodScheduled, Status: corev1.ConditionFalse, Reason: "SchedulingGated"}}}},
			want: row{"test15", "0/2", "SchedulingGated", "0", "<unknown>"}},
		{pod: corev1.Pod{ObjectMeta: named("test16"), Spec: one, Status: corev1.PodStatus{Phase: corev1.PodSucceeded,
			ContainerStatuses: []corev1.ContainerStatus{{State: stTerminated("Completed", 0, 0)}}}},
			want: row{"test16", "0/1", "Completed", "0", "<unknown>"}, conds: succeededRow()},
		{pod: corev1.Pod{ObjectMeta: named("test17"), Spec: one, Status: corev1.PodStatus{Phase: corev1.PodFailed,
			ContainerStatuses: []corev1.ContainerStatus{{State: stTerminated("Error", 1, 0)}}}},
			want: row{"test17", "0/1", "Error", "0", "<unknown>"}, conds: failedRow()},
		{pod: corev1.Pod{ObjectMeta: deleting("test18"), Spec: one, Status: corev1.PodStatus{Phase: corev1.PodSucceeded,
			ContainerStatuses: []corev1.ContainerStatus{{State: stTerminated("Completed", 0, 0)}}}},
			want: row{"test18", "0/1", "Completed", "0", "<unknown>"}, conds: succeededRow()},
		{pod: corev1.Pod{ObjectMeta: deleting("test19"), Spec: one, Status: corev1.PodStatus{Phase: corev1.PodRunning,
			ContainerStatuses: []corev1.ContainerStatus{{State: stRunning}}}},
			want: row{"test19", "0/1", "Terminating", "0", "<unknown>"}},
		{pod: corev1.Pod{ObjectMeta: deleting("test20"), Spec: one, Status: corev1.PodStatus{Phase: corev1.PodPending}},
			want: row{"test20", "0/1", "Terminating", "0", "<unknown>"}},
		{pod: corev1.Pod{ObjectMeta: named("test21"), Spec: two, Status: corev1.PodStatus{Phase: corev1.PodFailed, ContainerStatuses: []corev1.ContainerStatus{
			{State: stTerminated("podCrash", 1, 0)}, {Ready: true, State: stRunning}}}},
			want: row{"test21", "1/2", "podCrash", "0", "<unknown>"}, conds: failedRow()},
		{pod: corev1.Pod{ObjectMeta: named("test22"), Spec: two, Status: corev1.PodStatus{Phase: corev1.PodFailed, ContainerStatuses: []corev1.ContainerStatus{
			{Ready: true, State: stRunning}, {State: stTerminated("podCrash", 1, 0)}}}},
			want: row{"test22", "1/2", "podCrash", "0", "<unknown>"}, conds: failedRow()},
		{pod: corev1.Pod{ObjectMeta: named("test23"), Spec: three, Status: corev1.PodStatus{Phase: "Failed", ContainerStatuses: []corev1.ContainerStatus{
			{Ready: true, State: stRunning}, {Ready: true, State: stTerminated("podCrash", 1, 0)}, {Ready: true, State: stTerminated("", 0, 0)}}}},
			want: row{"test23", "1/3", "podCrash", "0", "<unknown>"}, conds: failedRow()},
		{pod: corev1.Pod{ObjectMeta: named("test24"), Spec: three, Status: corev1.PodStatus{Phase: "Failed", ContainerStatuses: []corev1.ContainerStatus{
			{State: stRunning}, {State: stTerminated("podCrash", 1, 0)}, {State: stTerminated("", 0, 0)}}}},
			want: row{"test24", "0/3", "podCrash", "0", "<unknown>"}, conds: failedRow()},
	})
}

// TestPodColumnsSidecars re-expresses upstream's TestPrintPodWithRestartableInitContainer.
func TestPodColumnsSidecars(t *testing.T) {
	spec := corev1.PodSpec{InitContainers: sidecars("restartable-init-1", "restartable-init-2"), Containers: make([]corev1.Container, 1)}
	initCond := func(s corev1.ConditionStatus) []corev1.PodCondition {
		return []corev1.PodCondition{{Type: corev1.PodInitialized, Status: s}}
	}
	sc1 := func(state corev1.ContainerState, started bool) corev1.ContainerStatus {
		return corev1.ContainerStatus{Name: "restartable-init-1", RestartCount: 3, State: state, Started: ptr(started), LastTerminationState: lastTerminated(ago(10 * time.Second))}
	}
	sc2 := func(state corev1.ContainerState, started bool) corev1.ContainerStatus {
		return corev1.ContainerStatus{Name: "restartable-init-2", State: state, Started: ptr(started)}
	}
	runColumnsCases(t, []columnsCase{
		{pod: corev1.Pod{ObjectMeta: named("test1"), Spec: spec, Status: corev1.PodStatus{Phase: "Pending",
			InitContainerStatuses: []corev1.ContainerStatus{sc1(stRunning, false), sc2(stWaiting, false)},
			ContainerStatuses:     []corev1.ContainerStatus{{State: stWaiting}}, Conditions: initCond(corev1.ConditionFalse)}},
			want: row{"test1", "0/3", "Init:0/2", "3 (10s ago)", "<unknown>"}},
		{pod: corev1.Pod{ObjectMeta: named("test1"), Spec: spec, Status: corev1.PodStatus{Phase: "Pending",
			InitContainerStatuses: []corev1.ContainerStatus{sc1(stRunning, true), sc2(stRunning, false)},
			ContainerStatuses:     []corev1.ContainerStatus{{State: stWaiting}}, Conditions: initCond(corev1.ConditionFalse)}},
			want: row{"test1", "0/3", "Init:1/2", "3 (10s ago)", "<unknown>"}},
		{pod: corev1.Pod{ObjectMeta: named("test2"), Spec: spec, Status: corev1.PodStatus{Phase: "Running",
			InitContainerStatuses: []corev1.ContainerStatus{sc1(stRunning, true), sc2(stRunning, true)},
			ContainerStatuses:     []corev1.ContainerStatus{{Ready: true, RestartCount: 4, State: stRunning, LastTerminationState: lastTerminated(ago(20 * time.Second))}},
			Conditions:            initCond(corev1.ConditionTrue)}},
			want: row{"test2", "1/3", "Running", "7 (10s ago)", "<unknown>"}},
		{pod: corev1.Pod{ObjectMeta: named("test3"), Spec: spec, Status: corev1.PodStatus{Phase: "Succeeded",
			InitContainerStatuses: []corev1.ContainerStatus{sc1(stTerminated("Error", 137, 0), false), sc2(stTerminated("Error", 137, 0), false)},
			ContainerStatuses:     []corev1.ContainerStatus{{RestartCount: 4, State: stTerminated("Completed", 0, 0), LastTerminationState: lastTerminated(ago(20 * time.Second))}},
			Conditions:            initCond(corev1.ConditionTrue)}},
			want: row{"test3", "0/3", "Completed", "7 (10s ago)", "<unknown>"}, conds: succeededRow()},
		{pod: corev1.Pod{ObjectMeta: named("test4"), Spec: corev1.PodSpec{
			InitContainers: []corev1.Container{{Name: "init1", Image: "initimage"}, {Name: "sidecar1", Image: "sidecarimage", RestartPolicy: &policyAlways}},
			Containers:     []corev1.Container{{Name: "container1", Image: "containerimage"}}},
			Status: corev1.PodStatus{Phase: "Running",
				InitContainerStatuses: []corev1.ContainerStatus{{Name: "initinvalid"}, {Name: "init1"}, {Name: "sidecar1"}},
				ContainerStatuses:     []corev1.ContainerStatus{{Name: "containerinvalid"}, {Name: "container1"}}}},
			want: row{"test4", "0/2", "Init:0/2", "0", "<unknown>"}},
	})
}

// TestPodColumnsWide re-expresses upstream's TestPrintPodwide.
func TestPodColumnsWide(t *testing.T) {
	statuses := []corev1.ContainerStatus{{Ready: true, RestartCount: 3, State: stRunning}, {RestartCount: 3}}
	withGates := corev1.PodSpec{Containers: make([]corev1.Container, 2), NodeName: "test1", ReadinessGates: gates("condition1", "condition2", "condition3")}
	gateConds := []corev1.PodCondition{{Type: "condition1", Status: corev1.ConditionFalse}, {Type: "condition2", Status: corev1.ConditionTrue}}
	for i, tc := range []struct {
		pod  corev1.Pod
		want lifecycle.Columns
	}{
		{corev1.Pod{ObjectMeta: named("test1"), Spec: withGates, Status: corev1.PodStatus{Conditions: gateConds, Phase: "podPhase",
			PodIPs: []corev1.PodIP{{IP: "1.1.1.1"}}, ContainerStatuses: statuses, NominatedNodeName: "node1"}},
			lifecycle.Columns{"test1", "1/2", "podPhase", "6", "<unknown>", "1.1.1.1", "test1", "node1", "1/3"}},
		{corev1.Pod{ObjectMeta: named("test1"), Spec: withGates, Status: corev1.PodStatus{Conditions: gateConds, Phase: "podPhase",
			PodIPs: []corev1.PodIP{{IP: "1.1.1.1"}, {IP: "2001:db8::"}}, ContainerStatuses: statuses, NominatedNodeName: "node1"}},
			lifecycle.Columns{"test1", "1/2", "podPhase", "6", "<unknown>", "1.1.1.1", "test1", "node1", "1/3"}},
		{corev1.Pod{ObjectMeta: named("test2"), Spec: corev1.PodSpec{Containers: make([]corev1.Container, 2)}, Status: corev1.PodStatus{Phase: "podPhase",
			ContainerStatuses: []corev1.ContainerStatus{{Ready: true, RestartCount: 3, State: stRunning}, {State: stWaitingReason("ContainerWaitingReason"), RestartCount: 3}}}},
			lifecycle.Columns{"test2", "1/2", "ContainerWaitingReason", "6", "<unknown>", "<none>", "<none>", "<none>", "<none>"}},
		// status.podIP alone is not read: the printer uses podIPs.
		{corev1.Pod{ObjectMeta: named("test3"), Status: corev1.PodStatus{Phase: "Running", PodIP: "10.0.0.1"}},
			lifecycle.Columns{"test3", "0/0", "Running", "0", "<unknown>", "<none>", "<none>", "<none>", "<none>"}},
	} {
		assert.Equal(t, tc.want, lifecycle.PodColumns(&tc.pod, colNow), "case %d", i)
	}
}

// TestPodColumnsConditions re-expresses TestPrintPodConditions, TestPrintPodList and
// TestPrintNonTerminatedPod.
func TestPodColumnsConditions(t *testing.T) {
	two := corev1.PodSpec{Containers: make([]corev1.Container, 2)}
	st := func(phase corev1.PodPhase) corev1.PodStatus {
		return corev1.PodStatus{Phase: phase, ContainerStatuses: []corev1.ContainerStatus{{Ready: true, RestartCount: 3, State: stRunning}, {RestartCount: 3}}}
	}
	runColumnsCases(t, []columnsCase{
		{pod: corev1.Pod{ObjectMeta: named("test1"), Spec: two, Status: st("Running")}, want: row{"test1", "1/2", "Running", "6", "<unknown>"}},
		{pod: corev1.Pod{ObjectMeta: named("test1"), Spec: two, Status: st("Succeeded")}, want: row{"test1", "1/2", "Succeeded", "6", "<unknown>"}, conds: succeededRow()},
		{pod: corev1.Pod{ObjectMeta: named("test2"), Spec: two, Status: st("Failed")}, want: row{"test2", "1/2", "Failed", "6", "<unknown>"}, conds: failedRow()},
		{pod: corev1.Pod{ObjectMeta: named("test2"), Spec: two, Status: st("Pending")}, want: row{"test2", "1/2", "Pending", "6", "<unknown>"}},
		{pod: corev1.Pod{ObjectMeta: named("test3"), Spec: two, Status: st("Unknown")}, want: row{"test3", "1/2", "Unknown", "6", "<unknown>"}},
		{pod: corev1.Pod{ObjectMeta: named("test1"), Spec: two, Status: corev1.PodStatus{Phase: "podPhase", ContainerStatuses: []corev1.ContainerStatus{
			{Ready: true, RestartCount: 3, State: stRunning}, {Ready: true, RestartCount: 3, State: stRunning}}}},
			want: row{"test1", "2/2", "podPhase", "6", "<unknown>"}},
		{pod: corev1.Pod{ObjectMeta: named("test2"), Spec: corev1.PodSpec{Containers: make([]corev1.Container, 1)}, Status: corev1.PodStatus{Phase: "podPhase",
			ContainerStatuses: []corev1.ContainerStatus{{Ready: true, RestartCount: 1, State: stRunning}}}},
			want: row{"test2", "1/1", "podPhase", "1", "<unknown>"}},
	})
}

// TestPodColumnsStatusWords covers the STATUS words of the spec notes (§7), checked
// against the printer.
func TestPodColumnsStatusWords(t *testing.T) {
	initSpec := corev1.PodSpec{InitContainers: containers("i1", "i2"), Containers: containers("a")}
	second := func(s corev1.ContainerStatus) corev1.Pod {
		s.Name = "i2"
		return corev1.Pod{ObjectMeta: named("p"), Spec: initSpec, Status: corev1.PodStatus{Phase: "Pending",
			InitContainerStatuses: []corev1.ContainerStatus{{Name: "i1", State: stTerminated("Completed", 0, 0)}, s}}}
	}
	deleted := ago(time.Second)
	for i, tc := range []struct {
		pod  corev1.Pod
		want string
	}{
		{second(corev1.ContainerStatus{State: stRunning}), "Init:1/2"},
		{second(corev1.ContainerStatus{State: stWaitingReason("CrashLoopBackOff")}), "Init:CrashLoopBackOff"},
		{second(corev1.ContainerStatus{State: stTerminated("", 3, 0)}), "Init:ExitCode:3"},
		{second(corev1.ContainerStatus{State: stTerminated("", 137, 9)}), "Init:Signal:9"},
		{second(corev1.ContainerStatus{State: stTerminated("Error", 1, 0)}), "Init:Error"},
		{second(corev1.ContainerStatus{State: stWaitingReason("PodInitializing")}), "Init:1/2"},
		{second(corev1.ContainerStatus{State: stWaiting}), "Init:1/2"},
		{second(corev1.ContainerStatus{}), "Init:1/2"},
		{corev1.Pod{Spec: initSpec, Status: corev1.PodStatus{Phase: "Pending"}}, "Pending"},
		{corev1.Pod{Spec: containers2("a", "b"), Status: corev1.PodStatus{Phase: "Running", ContainerStatuses: []corev1.ContainerStatus{
			{Name: "a", State: stTerminated("Completed", 0, 0)}, {Name: "b", State: stRunning}}}}, "Completed"},
		{corev1.Pod{Spec: containers2("a"), Status: corev1.PodStatus{Phase: "Running", ContainerStatuses: []corev1.ContainerStatus{
			{Name: "a", State: stTerminated("", 2, 0)}}}}, "ExitCode:2"},
		{corev1.Pod{Spec: containers2("a"), Status: corev1.PodStatus{Phase: "Running", ContainerStatuses: []corev1.ContainerStatus{
			{Name: "a", State: stTerminated("", 143, 15)}}}}, "Signal:15"},
		{corev1.Pod{Spec: containers2("a"), Status: corev1.PodStatus{Phase: "Failed", Reason: "DeadlineExceeded", ContainerStatuses: []corev1.ContainerStatus{
			{Name: "a", State: stTerminated("Error", 1, 0)}}}}, "Error"},
		{corev1.Pod{Spec: containers2("a"), Status: corev1.PodStatus{Phase: "Failed", Reason: "DeadlineExceeded"}}, "DeadlineExceeded"},
		{corev1.Pod{ObjectMeta: metav1.ObjectMeta{DeletionTimestamp: &deleted}, Spec: containers2("a"), Status: corev1.PodStatus{Phase: "Running", Reason: "NodeLost"}}, "Unknown"},
		{corev1.Pod{ObjectMeta: metav1.ObjectMeta{DeletionTimestamp: &deleted}, Spec: containers2("a"), Status: corev1.PodStatus{Phase: "Failed", Reason: "NodeLost"}}, "Unknown"},
		{corev1.Pod{ObjectMeta: metav1.ObjectMeta{DeletionTimestamp: &deleted}, Spec: containers2("a"), Status: corev1.PodStatus{Phase: "Failed"}}, "Failed"},
	} {
		assert.Equal(t, tc.want, lifecycle.PodColumns(&tc.pod, colNow).Status, "case %d", i)
	}
}

func containers2(names ...string) corev1.PodSpec {
	return corev1.PodSpec{Containers: containers(names...)}
}

// TestPodColumnsSidecarQuirk: a running pod whose first sidecar restarts shows Init:0/3
// even though it is initialized, and the scan stops there (spec notes §7).
func TestPodColumnsSidecarQuirk(t *testing.T) {
	pod := corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web", CreationTimestamp: ago(42 * time.Minute)},
		Spec:       corev1.PodSpec{InitContainers: sidecars("s1", "s2", "s3"), Containers: containers("app")},
		Status: corev1.PodStatus{
			Phase:      corev1.PodRunning,
			Conditions: []corev1.PodCondition{{Type: corev1.PodInitialized, Status: corev1.ConditionTrue}},
			InitContainerStatuses: []corev1.ContainerStatus{
				{Name: "s1", State: stRunning, Started: ptr(false), RestartCount: 2, LastTerminationState: lastTerminated(ago(90 * time.Second))},
				{Name: "s2", State: stRunning, Started: ptr(true), Ready: true},
				{Name: "s3", State: stRunning, Started: ptr(true), Ready: true, RestartCount: 7, LastTerminationState: lastTerminated(ago(time.Second))},
			},
			ContainerStatuses: []corev1.ContainerStatus{{Name: "app", State: stRunning, Ready: true, RestartCount: 3}},
		},
	}
	assert.Equal(t, row{"web", "1/4", "Init:0/3", "5 (90s ago)", "42m"}, short(lifecycle.PodColumns(&pod, colNow)))
	pod.Status.InitContainerStatuses[0].State = stWaitingReason("CrashLoopBackOff")
	assert.Equal(t, "Init:CrashLoopBackOff", lifecycle.PodColumns(&pod, colNow).Status)
}

// TestTranslateTimestampSince re-expresses upstream's TestTranslateTimestampSince (AGE).
func TestAgeColumn(t *testing.T) {
	for _, tc := range []struct {
		created metav1.Time
		want    string
	}{
		{metav1.NewTime(colNow.Add(2100 * time.Millisecond)), "<invalid>"},
		{metav1.NewTime(colNow.Add(1900 * time.Millisecond)), "0s"},
		{metav1.NewTime(colNow), "0s"},
		{metav1.Time{}, "<unknown>"},
		{ago(30 * time.Second), "30s"},
		{ago(5 * time.Minute), "5m"},
		{ago(100 * time.Minute), "100m"},
		{metav1.NewTime(colNow.AddDate(0, 0, -2)), "2d"},
		{metav1.NewTime(colNow.AddDate(0, 0, -90)), "90d"},
		{ago(10 * 365 * 24 * time.Hour), "10y"},
	} {
		pod := corev1.Pod{ObjectMeta: metav1.ObjectMeta{CreationTimestamp: tc.created}}
		assert.Equal(t, tc.want, lifecycle.PodColumns(&pod, colNow).Age)
	}
}

// TestHumanDuration re-expresses k8s.io/apimachinery's TestHumanDuration and
// TestHumanDurationBoundaries.
func TestHumanDuration(t *testing.T) {
	const day, year = 24 * time.Hour, 365 * 24 * time.Hour
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{time.Second, "1s"}, {70 * time.Second, "70s"}, {190 * time.Second, "3m10s"}, {70 * time.Minute, "70m"},
		{47 * time.Hour, "47h"}, {49 * time.Hour, "2d1h"}, {(8*24 + 2) * time.Hour, "8d"}, {367 * day, "367d"},
		{2*year + 25*time.Hour, "2y1d"}, {8*year + 2*time.Hour, "8y"},
		{-2 * time.Second, "<invalid>"}, {-2*time.Second + 1, "0s"}, {0, "0s"}, {time.Second - time.Millisecond, "0s"},
		{2*time.Minute - time.Millisecond, "119s"}, {2 * time.Minute, "2m"}, {2*time.Minute + time.Second, "2m1s"},
		{10*time.Minute - time.Millisecond, "9m59s"}, {10 * time.Minute, "10m"}, {10*time.Minute + time.Second, "10m"},
		{3*time.Hour - time.Millisecond, "179m"}, {3 * time.Hour, "3h"}, {3*time.Hour + time.Minute, "3h1m"},
		{8*time.Hour - time.Millisecond, "7h59m"}, {8 * time.Hour, "8h"}, {8*time.Hour + 59*time.Minute, "8h"},
		{2*day - time.Millisecond, "47h"}, {2 * day, "2d"}, {2*day + time.Hour, "2d1h"},
		{8*day - time.Millisecond, "7d23h"}, {8 * day, "8d"}, {8*day + 23*time.Hour, "8d"},
		{2*year - time.Millisecond, "729d"}, {2 * year, "2y"}, {2*year + 23*time.Hour, "2y"},
		{2*year + 23*time.Hour + 59*time.Minute, "2y"}, {2*year + day - time.Millisecond, "2y"}, {2*year + day, "2y1d"},
		{3 * year, "3y"}, {4 * year, "4y"}, {5 * year, "5y"}, {6 * year, "6y"}, {7 * year, "7y"},
		{8*year - time.Millisecond, "7y364d"}, {8 * year, "8y"}, {8*year + 364*day, "8y"}, {9 * year, "9y"},
		{time.Duration(1<<63 - 1), "292y"}, {time.Duration(-1 << 63), "<invalid>"},
	} {
		assert.Equal(t, tc.want, lifecycle.HumanDuration(tc.d), tc.d.String())
	}
}

func TestPodColumnsNil(t *testing.T) {
	assert.Equal(t, lifecycle.Columns{Ready: "0/0", Restarts: "0", Age: "<unknown>", IP: "<none>", Node: "<none>", NominatedNode: "<none>", ReadinessGates: "<none>"},
		lifecycle.PodColumns(nil, colNow))
	assert.Nil(t, lifecycle.RowConditions(nil))
}

func FuzzPodColumns(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		in := &fuzzInput{b: data}
		pod := in.pod()
		now := fuzzBase.Add(time.Duration(int16(in.next())<<8|int16(in.next())) * time.Minute)
		before := pod.DeepCopy()
		c := lifecycle.PodColumns(pod, now)
		if !reflect.DeepEqual(before, pod) {
			t.Fatal("input modified")
		}
		if again := lifecycle.PodColumns(pod, now); again != c {
			t.Fatalf("not deterministic: %+v then %+v", c, again)
		}
		// READY is ready/total, total = regular containers + sidecars of the spec.
		total := len(pod.Spec.Containers)
		for i := range pod.Spec.InitContainers {
			if r := pod.Spec.InitContainers[i].RestartPolicy; r != nil && *r == corev1.ContainerRestartPolicyAlways {
				total++
			}
		}
		var ready, den int
		if n, err := fmt.Sscanf(c.Ready, "%d/%d", &ready, &den); n != 2 || err != nil || den != total || ready < 0 {
			t.Fatalf("READY %q, want denominator %d", c.Ready, total)
		}
		if ready > len(pod.Status.InitContainerStatuses)+len(pod.Status.ContainerStatuses) {
			t.Fatalf("READY %q with %d statuses", c.Ready, len(pod.Status.InitContainerStatuses)+len(pod.Status.ContainerStatuses))
		}
		if c.Name != pod.Name || c.Restarts == "" || c.Age == "" || c.Status == "" && pod.Status.Phase != "" {
			t.Fatalf("%+v", c)
		}
		if (pod.Spec.NodeName == "") != (c.Node == "<none>") || (len(pod.Spec.ReadinessGates) == 0) != (c.ReadinessGates == "<none>") {
			t.Fatalf("%+v", c)
		}
		if pod.DeletionTimestamp != nil && pod.Status.Reason != "NodeLost" && !validTerminal(pod.Status.Phase) && c.Status != "Terminating" {
			t.Fatalf("deleting pod shows %q", c.Status)
		}
		if conds := lifecycle.RowConditions(pod); (len(conds) == 1) != validTerminal(pod.Status.Phase) {
			t.Fatalf("row conditions %+v for phase %q", conds, pod.Status.Phase)
		}
	})
}

func validTerminal(p corev1.PodPhase) bool { return p == corev1.PodSucceeded || p == corev1.PodFailed }

func FuzzHumanDuration(f *testing.F) {
	for _, d := range []int64{0, 1, -1, int64(time.Second), int64(-2 * time.Second), int64(90 * time.Minute), 1<<63 - 1, -1 << 63} {
		f.Add(d)
	}
	f.Fuzz(func(t *testing.T, n int64) {
		d := time.Duration(n)
		s := lifecycle.HumanDuration(d)
		if s == "" || s != lifecycle.HumanDuration(d) {
			t.Fatalf("%v: %q", d, s)
		}
		if (s == "<invalid>") != (d <= -2*time.Second) {
			t.Fatalf("%v: %q", d, s)
		}
	})
}

// BenchmarkPodColumns sets PodColumns beside one DeepCopy of the same pod.
func BenchmarkPodColumns(b *testing.B) {
	pod := benchPod()
	b.Run("podlife", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = lifecycle.PodColumns(pod, fuzzBase)
		}
	})
	b.Run("deepcopy", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = pod.DeepCopy()
		}
	})
}
