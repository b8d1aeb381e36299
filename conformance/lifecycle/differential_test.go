package lifecycle

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"
	_ "unsafe" // go:linkname

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/component-base/featuregate"
	featuregatetesting "k8s.io/component-base/featuregate/testing"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	api "k8s.io/kubernetes/pkg/apis/core"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	"k8s.io/kubernetes/pkg/features"
	kubecontainer "k8s.io/kubernetes/pkg/kubelet/container"
	_ "k8s.io/kubernetes/pkg/kubelet/kuberuntime"
	kubeletstatus "k8s.io/kubernetes/pkg/kubelet/status"
	"k8s.io/kubernetes/pkg/printers"
	printersinternal "k8s.io/kubernetes/pkg/printers/internalversion"

	"github.com/podlife/podlife"
	"github.com/podlife/podlife/lifecycle"
)

// upstreamSetTerminationGracePeriod is kuberuntime's unexported setTerminationGracePeriod;
// its containerKillReason parameter is a string type.
//
//go:linkname upstreamSetTerminationGracePeriod k8s.io/kubernetes/pkg/kubelet/kuberuntime.setTerminationGracePeriod
func upstreamSetTerminationGracePeriod(ctx context.Context, pod *corev1.Pod, containerSpec *corev1.Container, containerName string, containerID kubecontainer.ContainerID, reason string) int64

const numPods = 10000

// gateSets are the clusters the kubelet-side functions are compared on: the v1.37.2
// defaults, and the beta gates this area reads turned off. (PodObservedGenerationTracking
// is locked on upstream.)
var gateSets = []struct {
	name  string
	gates map[featuregate.Feature]bool
}{
	{"defaults", nil},
	{"RestartAllContainers off", map[featuregate.Feature]bool{features.RestartAllContainersOnContainerExits: false}},
	{"ContainerRestartRules and RestartAllContainers off", map[featuregate.Feature]bool{
		features.ContainerRestartRules: false, features.RestartAllContainersOnContainerExits: false,
	}},
}

func podlifeGates(m map[featuregate.Feature]bool) podlife.FeatureGates {
	if m == nil {
		return nil
	}
	out := podlife.FeatureGates{}
	for k, v := range m {
		out[string(k)] = v
	}
	return out
}

func setUpstreamGates(t *testing.T, m map[featuregate.Feature]bool) {
	if len(m) > 0 {
		featuregatetesting.SetFeatureGatesDuringTest(t, utilfeature.DefaultFeatureGate, featuregatetesting.FeatureOverrides(m))
	}
}

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

// TestConditionsDifferential compares the three kubelet conditions on every pod, every
// phase and every gate set.
func TestConditionsDifferential(t *testing.T) {
	s := seed(t)
	for _, gs := range gateSets {
		t.Run(gs.name, func(t *testing.T) {
			setUpstreamGates(t, gs.gates)
			opts := lifecycle.Options{Features: podlifeGates(gs.gates)}
			g := newGen(s, time.Now())
			compared, disagreements := 0, 0
			for i := range numPods {
				pod := g.pod()
				before := pod.DeepCopy()
				old := pod.Status.DeepCopy()
				statuses := allStatuses(&pod.Status)
				for _, phase := range condPhases {
					type pair struct {
						name           string
						ours, upstream corev1.PodCondition
					}
					for _, c := range []pair{
						{"Initialized", lifecycle.InitializedCondition(pod, phase, opts), kubeletstatus.GeneratePodInitializedCondition(pod, old, statuses, phase)},
						{"ContainersReady", lifecycle.ContainersReadyCondition(pod, phase, opts), kubeletstatus.GenerateContainersReadyCondition(pod, old, statuses, phase)},
						{"Ready", lifecycle.ReadyCondition(pod, phase, opts), kubeletstatus.GeneratePodReadyCondition(pod, old, pod.Status.Conditions, statuses, phase)},
					} {
						compared++
						if !reflect.DeepEqual(c.ours, c.upstream) {
							disagreements++
							if disagreements <= 5 {
								t.Errorf("seed %d pod %d phase %s %s:\n ours     %+v\n upstream %+v\n pod %s", s, i, phase, c.name, c.ours, c.upstream, dump(pod))
							}
						}
					}
				}
				if !reflectEqual(before, pod) {
					t.Fatalf("seed %d pod %d: input modified", s, i)
				}
			}
			t.Logf("seed %d, gates %q: %d pods x %d phases x 3 conditions = %d comparisons, %d disagreements", s, gs.name, numPods, len(condPhases), compared, disagreements)
		})
	}
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

// TestColumnsDifferential compares every cell of the wide row and the row conditions.
//
// The printer reads the wall clock. Each pod is generated with timestamps relative to a
// `now` taken just before the printer runs, offset by whole seconds plus 500ms, and ours
// is called with that same now: as long as the printer's own reading is less than 500ms
// later, every rounding boundary of HumanDuration (whole seconds and above) falls the
// same way.
func TestColumnsDifferential(t *testing.T) {
	s := seed(t)
	g := newGen(s, time.Now())
	disagreements := 0
	for i := range numPods {
		g.now = time.Now()
		pod := g.pod()
		before := pod.DeepCopy()
		up := upstreamRow(t, pod)
		ours := lifecycle.PodColumns(pod, g.now)
		if time.Since(g.now) >= 400*time.Millisecond {
			t.Logf("pod %d: slow call, timestamps may round differently", i)
		}
		if !reflect.DeepEqual(cells(ours), up.Cells) || !reflect.DeepEqual(lifecycle.RowConditions(pod), up.Conditions) {
			disagreements++
			if disagreements <= 5 {
				t.Errorf("seed %d pod %d:\n ours     %q %+v\n upstream %q %+v\n pod %s", s, i, cells(ours), lifecycle.RowConditions(pod), up.Cells, up.Conditions, dump(pod))
			}
		}
		if !reflectEqual(before, pod) {
			t.Fatalf("seed %d pod %d: input modified", s, i)
		}
	}
	t.Logf("seed %d: %d pods, 9 cells + row conditions each, %d disagreements", s, numPods, disagreements)
}

var killReasons = []lifecycle.KillReason{
	lifecycle.KillReasonNone, lifecycle.KillReasonStartupProbe, lifecycle.KillReasonLivenessProbe,
	lifecycle.KillReasonFailedPostStartHook, lifecycle.KillReasonRestartAllContainers, lifecycle.KillReasonUnknown,
}

// TestGracePeriodDifferential compares GracePeriod with kuberuntime's
// setTerminationGracePeriod for every container of every pod and every kill reason.
func TestGracePeriodDifferential(t *testing.T) {
	s := seed(t)
	g := newGen(s, time.Now())
	ctx := context.Background()
	compared, disagreements := 0, 0
	for i := range numPods {
		pod := g.pod()
		var names []string
		for _, c := range pod.Spec.InitContainers {
			names = append(names, c.Name)
		}
		for _, c := range pod.Spec.Containers {
			names = append(names, c.Name)
		}
		for _, c := range pod.Spec.EphemeralContainers {
			names = append(names, c.Name)
		}
		for _, name := range names {
			spec := kubecontainer.GetContainerSpec(pod, name)
			for _, reason := range killReasons {
				compared++
				ours := lifecycle.GracePeriod(pod, name, reason)
				up := upstreamSetTerminationGracePeriod(ctx, pod, spec, name, kubecontainer.ContainerID{}, string(reason))
				if ours != up {
					disagreements++
					if disagreements <= 5 {
						t.Errorf("seed %d pod %d container %q reason %q: ours %d, upstream %d\n pod %s", s, i, name, reason, ours, up, dump(pod))
					}
				}
			}
		}
	}
	t.Logf("seed %d: %d (pod, container, reason) triples over %d pods, %d disagreements", s, compared, numPods, disagreements)
}

func reflectEqual(a, b any) bool { return reflect.DeepEqual(a, b) }
