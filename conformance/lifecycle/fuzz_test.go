package lifecycle

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"

	"github.com/podlife/podlife/conformance/internal/fuzzseed"
	"github.com/podlife/podlife/conformance/internal/gatesets"
	"github.com/podlife/podlife/lifecycle"
)

// fuzzGateSets are the sets the fuzz targets pick from: gateSets and random ones.
var fuzzGateSets = gatesets.ForFuzzing(gateSets)

// FuzzLifecycleMatchesKubelet is the differential test on pods no generator of this
// repository wrote: the fuzzer mutates the JSON of the example manifests' pods
// (several with statuses) and of generated pods, and for every pod the bytes decode
// to, under the gate set sel picks (fuzzGateSets), podlife must answer as upstream:
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
		gs := fuzzGateSets[int(sel)%len(fuzzGateSets)]
		gatesets.Apply(t, gs)
		opts := lifecycle.Options{Features: gs.Features()}
		before := pod.DeepCopy()

		mismatches := phaseMismatches(logger, &pod, opts, nil)
		mismatches = append(mismatches, conditionMismatches(&pod, opts, nil)...)
		if _, _, m := compareRow(t, &pod, time.Now()); m != "" {
			mismatches = append(mismatches, m)
		}
		_, grace := gracePeriodMismatches(context.Background(), &pod, nil)
		if mismatches = append(mismatches, grace...); len(mismatches) > 0 {
			t.Fatalf("gates %s: %s\npod: %s", gs.Name, strings.Join(mismatches, "\n"), data)
		}
		if !reflect.DeepEqual(&pod, before) {
			t.Fatalf("podlife mutated its input\npod: %s", data)
		}
	})
}
