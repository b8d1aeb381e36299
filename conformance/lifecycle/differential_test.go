package lifecycle

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
	_ "unsafe" // go:linkname

	"github.com/podlife/podlife/conformance/internal/podshapes"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	api "k8s.io/kubernetes/pkg/apis/core"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	kubecontainer "k8s.io/kubernetes/pkg/kubelet/container"
	_ "k8s.io/kubernetes/pkg/kubelet/kuberuntime"
	kubeletstatus "k8s.io/kubernetes/pkg/kubelet/status"
	"k8s.io/kubernetes/pkg/printers"
	printersinternal "k8s.io/kubernetes/pkg/printers/internalversion"

	"github.com/podlife/podlife/conformance/internal/coverage"
	"github.com/podlife/podlife/conformance/internal/gatesets"
	"github.com/podlife/podlife/lifecycle"
)

// upstreamSetTerminationGracePeriod is kuberuntime's unexported setTerminationGracePeriod;
// its containerKillReason parameter is a string type.
//
//go:linkname upstreamSetTerminationGracePeriod k8s.io/kubernetes/pkg/kubelet/kuberuntime.setTerminationGracePeriod
func upstreamSetTerminationGracePeriod(ctx context.Context, pod *corev1.Pod, containerSpec *corev1.Container, containerName string, containerID kubecontainer.ContainerID, reason string) int64

// gateSets are the clusters the kubelet-side functions are compared on: the standard
// sets (gatesets.Standard) and the beta gates this area reads turned off one by one.
// (PodObservedGenerationTracking is locked on upstream.)
var gateSets = gatesets.Standard(
	gatesets.Set{Name: "RestartAllContainers off", Overrides: map[string]bool{"RestartAllContainersOnContainerExits": false}},
	gatesets.Set{Name: "ContainerRestartRules and RestartAllContainers off", Overrides: map[string]bool{"ContainerRestartRules": false, "RestartAllContainersOnContainerExits": false}},
)

// allStatuses is the kubelet's append(InitContainerStatuses, ContainerStatuses...) without
// writing into the pod's backing array.
func allStatuses(st *corev1.PodStatus) []corev1.ContainerStatus {
	if st.InitContainerStatuses == nil && len(st.ContainerStatuses) == 0 {
		return nil
	}
	out := make([]corev1.ContainerStatus, 0, len(st.InitContainerStatuses)+len(st.ContainerStatuses))
	out = append(out, st.InitContainerStatuses...)
	return append(out, st.ContainerStatuses...)
}

var condPhases = []corev1.PodPhase{corev1.PodPending, corev1.PodRunning, corev1.PodSucceeded, corev1.PodFailed, corev1.PodUnknown}

func dump(p *corev1.Pod) string { return fmt.Sprintf("%+v", p) }

// conditionMismatches compares the three kubelet conditions on pod in every phase of
// condPhases with pkg/kubelet/status's generators; it hands each upstream condition to
// seen when seen is not nil and returns one line per disagreement.
func conditionMismatches(pod *corev1.Pod, opts lifecycle.Options, seen func(name string, up corev1.PodCondition)) []string {
	var out []string
	old := pod.Status.DeepCopy()
	statuses := allStatuses(&pod.Status)
	for _, phase := range condPhases {
		for _, c := range []struct {
			name           string
			ours, upstream corev1.PodCondition
		}{
			{"Initialized", lifecycle.InitializedCondition(pod, phase, opts), kubeletstatus.GeneratePodInitializedCondition(pod, old, statuses, phase)},
			{"ContainersReady", lifecycle.ContainersReadyCondition(pod, phase, opts), kubeletstatus.GenerateContainersReadyCondition(pod, old, statuses, phase)},
			{"Ready", lifecycle.ReadyCondition(pod, phase, opts), kubeletstatus.GeneratePodReadyCondition(pod, old, pod.Status.Conditions, statuses, phase)},
		} {
			if seen != nil {
				seen(c.name, c.upstream)
			}
			if !reflect.DeepEqual(c.ours, c.upstream) {
				out = append(out, fmt.Sprintf("phase %s %s:\n ours     %+v\n upstream %+v", phase, c.name, c.ours, c.upstream))
			}
		}
	}
	return out
}

// TestConditionsDifferential compares the three kubelet conditions on every pod, every
// phase and every gate set.
func TestConditionsDifferential(t *testing.T) {
	s := seed(t)
	gatesets.Run(t, gateSets, func(t *testing.T, gs gatesets.Set) {
		opts := lifecycle.Options{Features: gs.Features()}
		g := newGen(s, time.Now())
		n := podCount(t)
		compared, disagreements := 0, 0
		var cov coverage.Counts
		for i := range n {
			pod := g.pod()
			before := pod.DeepCopy()
			compared += len(condPhases) * 3
			for _, m := range conditionMismatches(pod, opts, func(name string, up corev1.PodCondition) {
				cov.Addf("%s=%s %s", name, up.Status, up.Reason)
			}) {
				disagreements++
				if disagreements <= 5 {
					t.Errorf("seed %d pod %d %s\n pod %s", s, i, m, dump(pod))
				}
			}
			if !reflectEqual(before, pod) {
				t.Fatalf("seed %d pod %d: input modified", s, i)
			}
		}
		t.Logf("seed %d, gates %q: %d pods x %d phases x 3 conditions = %d comparisons, %d disagreements; %s", s, gs.Name, n, len(condPhases), compared, disagreements, &cov)
		// Every status and reason the three generators give.
		cov.Each(t, "condition", n/200, "Initialized=True ", "Initialized=False ContainersNotInitialized", "Initialized=False UnknownContainerStatuses",
			"Initialized=True PodCompleted", "ContainersReady=True ", "ContainersReady=False ContainersNotReady",
			"ContainersReady=False PodCompleted", "Ready=True ", "Ready=False ContainersNotReady", "Ready=False ReadinessGatesNotReady",
			"Ready=False PodCompleted")
		cov.Each(t, "condition", n/2000, "ContainersReady=False UnknownContainerStatuses", "Ready=False UnknownContainerStatuses")
	})
}

var tableGenerator = printers.NewTableGenerator().With(printersinternal.AddHandlers)

// upstreamRow renders the pod as the API server does for `kubectl get pods -o wide`.
func upstreamRow(t testing.TB, pod *corev1.Pod) metav1.TableRow {
	internal := &api.Pod{}
	if err := legacyscheme.Scheme.Convert(pod, internal, nil); err != nil {
		t.Fatalf("convert: %v", err)
	}
	table, err := tableGenerator.GenerateTable(internal, printers.GenerateOptions{Wide: true})
	if err != nil || len(table.Rows) != 1 {
		t.Fatalf("GenerateTable: %v, %d rows", err, len(table.Rows))
	}
	return table.Rows[0]
}

func cells(c lifecycle.Columns) []interface{} {
	return []interface{}{c.Name, c.Ready, c.Status, c.Restarts, c.Age, c.IP, c.Node, c.NominatedNode, c.ReadinessGates}
}

// compareRow compares the wide row PodColumns gives at now, and RowConditions, with
// the row the printer renders for pod, which must run after now was read. The
// printer reads the clock somewhere between now and the moment it returns, so the
// row for the clock read after it is accepted too (late is then true). It returns the
// printer's STATUS cell and a description of the disagreement, "" when there is none.
func compareRow(t testing.TB, pod *corev1.Pod, now time.Time) (status string, late bool, mismatch string) {
	up := upstreamRow(t, pod)
	after := time.Now()
	ours := lifecycle.PodColumns(pod, now)
	match := reflect.DeepEqual(cells(ours), up.Cells)
	if !match && reflect.DeepEqual(cells(lifecycle.PodColumns(pod, after)), up.Cells) {
		match, late = true, true
	}
	status, _ = up.Cells[2].(string)
	if conds := lifecycle.RowConditions(pod); !match || !reflect.DeepEqual(conds, up.Conditions) {
		mismatch = fmt.Sprintf("kubectl row:\n ours     %q %+v\n upstream %q %+v", cells(ours), conds, up.Cells, up.Conditions)
	}
	return status, late, mismatch
}

// TestColumnsDifferential compares every cell of the wide row and the row conditions,
// under every gate set (the printer reads none; the sets cost little).
//
// The printer reads the wall clock. Each pod is generated with timestamps relative to a
// `now` taken just before the printer runs, offset by whole seconds plus 500ms, and ours
// is called with that same now. The printer reads the clock somewhere between now and
// the moment it returns; HumanDuration only grows with time, so on a machine slow
// enough to cross a rounding boundary in between, the row ours gives for the later
// instant is accepted too. No timing decides the verdict.
func TestColumnsDifferential(t *testing.T) {
	s := seed(t)
	gatesets.Run(t, gateSets, func(t *testing.T, gs gatesets.Set) {
		g := newGen(s, time.Now())
		n := podCount(t)
		disagreements, late := 0, 0
		var cov coverage.Counts
		for i := range n {
			g.now = time.Now()
			pod := g.pod()
			before := pod.DeepCopy()
			status, wasLate, mismatch := compareRow(t, pod, g.now)
			cov.Add(statusShape(status))
			if wasLate {
				late++
			}
			if mismatch != "" {
				disagreements++
				if disagreements <= 5 {
					t.Errorf("seed %d pod %d: %s\n pod %s", s, i, mismatch, dump(pod))
				}
			}
			if !reflectEqual(before, pod) {
				t.Fatalf("seed %d pod %d: input modified", s, i)
			}
		}
		t.Logf("seed %d: %d pods, 9 cells + row conditions each, %d disagreements (%d rows matched at the printer's later clock reading); STATUS shapes %s", s, n, disagreements, late, &cov)
		cov.Each(t, "STATUS", n/500, "Init:N/M", "Init:<reason>", "PodInitializing", "Running", "Completed", "Error", "NotReady",
			"Terminating", "CrashLoopBackOff", "Pending", "Failed", "Unknown", "<reason>")
	})
}

// statusShape is the STATUS cell with counts and reasons generalised.
func statusShape(s string) string {
	switch {
	case strings.HasPrefix(s, "Init:") && strings.Contains(s, "/"):
		return "Init:N/M"
	case strings.HasPrefix(s, "Init:"):
		return "Init:<reason>"
	}
	switch s {
	case "PodInitializing", "Running", "Completed", "Error", "NotReady", "Terminating", "CrashLoopBackOff", "Pending", "Failed",
		"Succeeded", "Unknown", "podPhase", "":
		return s
	}
	return "<reason>"
}

var killReasons = []lifecycle.KillReason{
	lifecycle.KillReasonNone, lifecycle.KillReasonStartupProbe, lifecycle.KillReasonLivenessProbe,
	lifecycle.KillReasonFailedPostStartHook, lifecycle.KillReasonRestartAllContainers, lifecycle.KillReasonUnknown,
}

// TestGracePeriodDifferential compares GracePeriod with kuberuntime's
// setTerminationGracePeriod for every container of every pod and every kill reason,
// under every gate set.
func TestGracePeriodDifferential(t *testing.T) {
	s := seed(t)
	gatesets.Run(t, gateSets, func(t *testing.T, gs gatesets.Set) {
		g := newGen(s, time.Now())
		n := podCount(t)
		ctx := context.Background()
		compared, disagreements := 0, 0
		var cov coverage.Counts
		for i := range n {
			pod := g.pod()
			c, mismatches := gracePeriodMismatches(ctx, pod, func(spec *corev1.Container, reason lifecycle.KillReason, up int64) {
				cov.Add(graceSource(pod, spec, reason, up))
			})
			compared += c
			for _, m := range mismatches {
				disagreements++
				if disagreements <= 5 {
					t.Errorf("seed %d pod %d %s\n pod %s", s, i, m, dump(pod))
				}
			}
		}
		t.Logf("seed %d: %d (pod, container, reason) triples over %d pods, %d disagreements; %s", s, compared, n, disagreements, &cov)
		cov.Each(t, "grace period", n/100, "pod deletion grace", "pod termination grace", "probe grace", "minimum 2s")
	})
}

// gracePeriodMismatches compares GracePeriod with kuberuntime's
// setTerminationGracePeriod for every container of pod and every kill reason; it
// hands each upstream answer to seen when seen is not nil and returns the number of
// comparisons and one line per disagreement.
func gracePeriodMismatches(ctx context.Context, pod *corev1.Pod, seen func(spec *corev1.Container, reason lifecycle.KillReason, up int64)) (int, []string) {
	compared := 0
	var out []string
	for _, name := range podshapes.ContainerNames(pod) {
		spec := kubecontainer.GetContainerSpec(pod, name)
		for _, reason := range killReasons {
			compared++
			ours := lifecycle.GracePeriod(pod, name, reason)
			up := upstreamSetTerminationGracePeriod(ctx, pod, spec, name, kubecontainer.ContainerID{}, string(reason))
			if seen != nil {
				seen(spec, reason, up)
			}
			if ours != up {
				out = append(out, fmt.Sprintf("container %q reason %q: ours %d, upstream %d", name, reason, ours, up))
			}
		}
	}
	return compared, out
}

// graceSource names where the grace period upstream chose comes from, as far as the
// inputs tell.
func graceSource(pod *corev1.Pod, c *corev1.Container, reason lifecycle.KillReason, up int64) string {
	probe := func(p *corev1.Probe) bool {
		return p != nil && p.TerminationGracePeriodSeconds != nil && *p.TerminationGracePeriodSeconds == up
	}
	switch {
	case up == 2:
		return "minimum 2s"
	case c != nil && (reason == lifecycle.KillReasonStartupProbe && probe(c.StartupProbe) || reason == lifecycle.KillReasonLivenessProbe && probe(c.LivenessProbe)):
		return "probe grace"
	case pod.DeletionGracePeriodSeconds != nil && *pod.DeletionGracePeriodSeconds == up:
		return "pod deletion grace"
	case pod.Spec.TerminationGracePeriodSeconds != nil && *pod.Spec.TerminationGracePeriodSeconds == up:
		return "pod termination grace"
	}
	return "other"
}

func reflectEqual(a, b any) bool { return reflect.DeepEqual(a, b) }
