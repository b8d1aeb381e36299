package lifecycle

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"
	kubecontainer "k8s.io/kubernetes/pkg/kubelet/container"
	kubeletstatus "k8s.io/kubernetes/pkg/kubelet/status"

	"github.com/podlife/podlife/conformance/internal/fuzzseed"
	"github.com/podlife/podlife/conformance/internal/gatesets"
	"github.com/podlife/podlife/lifecycle"
)

// FuzzLifecycleMatchesKubelet is the differential test on pods no generator of this
// repository wrote: the fuzzer mutates the JSON of the example manifests' pods
// (several with statuses) and of generated pods, and for every pod the bytes decode
// to, under the gate set sel picks (gateSets), podlife must answer as upstream:
// Phase as the kubelet's getPhase with podIsTerminal and podHasInitialized both
// ways, the three kubelet conditions in every phase as pkg/kubelet/status generates
// them, the wide `kubectl get pods` row and its conditions as the API server's
// printer renders them, and GracePeriod as kuberuntime's setTerminationGracePeriod
// for every container and kill reason; the pod must be left as it was. The
// comparisons are those of TestPhaseDifferential, TestConditionsDifferential,
// TestColumnsDifferential and TestGracePeriodDifferential. Bytes that are not a
// pod's JSON are skipped.
func FuzzLifecycleMatchesKubelet(f *testing.F) {
	g := newGen(defaultSeed+11, time.Now())
	fuzzseed.AddPods(f, 24, func() any { return g.pod() })
	logger := klog.Background()
	f.Fuzz(func(t *testing.T, sel uint8, data []byte) {
		var pod corev1.Pod
		if json.Unmarshal(data, &pod) != nil {
			t.Skip("not a pod's JSON")
		}
		gs := gateSets[int(sel)%len(gateSets)]
		gatesets.Apply(t, gs)
		opts := lifecycle.Options{Features: gs.Features()}
		before := pod.DeepCopy()

		info := kubeletStatuses(&pod.Status)
		for _, terminal := range []bool{false, true} {
			for _, initialized := range []bool{false, true} {
				ours := lifecycle.Phase(&pod, lifecycle.PhaseOptions{Options: opts, PodIsTerminal: terminal, PodHasInitialized: &initialized})
				if up := upstreamGetPhase(logger, &pod, info, terminal, initialized); ours != up {
					t.Fatalf("gates %s, Phase terminal=%v initialized=%v: podlife %s, upstream %s\npod: %s", gs.Name, terminal, initialized, ours, up, data)
				}
			}
		}

		old := pod.Status.DeepCopy()
		statuses := allStatuses(&pod.Status)
		for _, phase := range condPhases {
			for _, c := range []struct {
				name           string
				ours, upstream corev1.PodCondition
			}{
				{"Initialized", lifecycle.InitializedCondition(&pod, phase, opts), kubeletstatus.GeneratePodInitializedCondition(&pod, old, statuses, phase)},
				{"ContainersReady", lifecycle.ContainersReadyCondition(&pod, phase, opts), kubeletstatus.GenerateContainersReadyCondition(&pod, old, statuses, phase)},
				{"Ready", lifecycle.ReadyCondition(&pod, phase, opts), kubeletstatus.GeneratePodReadyCondition(&pod, old, pod.Status.Conditions, statuses, phase)},
			} {
				if !reflect.DeepEqual(c.ours, c.upstream) {
					t.Fatalf("gates %s, phase %s, %s:\n podlife  %+v\n upstream %+v\npod: %s", gs.Name, phase, c.name, c.ours, c.upstream, data)
				}
			}
		}

		// The printer reads the clock between now and after; the row for either
		// instant is accepted (see TestColumnsDifferential).
		now := time.Now()
		up := upstreamRow(t, &pod)
		after := time.Now()
		if ours := lifecycle.PodColumns(&pod, now); !reflect.DeepEqual(cells(ours), up.Cells) &&
			!reflect.DeepEqual(cells(lifecycle.PodColumns(&pod, after)), up.Cells) {
			t.Fatalf("kubectl row:\n podlife  %q\n upstream %q\npod: %s", cells(ours), up.Cells, data)
		}
		if ours := lifecycle.RowConditions(&pod); !reflect.DeepEqual(ours, up.Conditions) {
			t.Fatalf("row conditions: podlife %+v, upstream %+v\npod: %s", ours, up.Conditions, data)
		}

		ctx := context.Background()
		for _, name := range containerNames(&pod) {
			spec := kubecontainer.GetContainerSpec(&pod, name)
			for _, reason := range killReasons {
				ours := lifecycle.GracePeriod(&pod, name, reason)
				if up := upstreamSetTerminationGracePeriod(ctx, &pod, spec, name, kubecontainer.ContainerID{}, string(reason)); ours != up {
					t.Fatalf("GracePeriod container %q reason %q: podlife %d, upstream %d\npod: %s", name, reason, ours, up, data)
				}
			}
		}
		if !reflect.DeepEqual(&pod, before) {
			t.Fatalf("podlife mutated its input\npod: %s", data)
		}
	})
}
