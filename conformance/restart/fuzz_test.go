package restart

import (
	"encoding/json"
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"

	"github.com/podlife/podlife/conformance/internal/coverage"
	"github.com/podlife/podlife/conformance/internal/fuzzseed"
	"github.com/podlife/podlife/conformance/internal/gatesets"
	"github.com/podlife/podlife/restart"
)

// fuzzGateSets are the sets the fuzz targets pick from: gateSets and random ones.
var fuzzGateSets = gatesets.ForFuzzing(gateSets)

// FuzzShouldRestartMatchesKubelet is the differential test on pods no generator of
// this repository wrote: the fuzzer mutates the JSON of the example manifests' pods
// (several with statuses) and of generated pods, and for every pod the bytes decode
// to, ShouldRestart must answer as kubecontainer.ShouldContainerBeRestarted for
// every container, under the gate set sel picks (fuzzGateSets), the runtime status
// built from the API status as TestShouldRestartMatchesKubelet builds it; the pod
// must be left as it was. ShouldRestart finds a container by name, so pods whose
// containers share a name (which the API server refuses) are skipped, as are bytes
// that are not a pod's JSON.
func FuzzShouldRestartMatchesKubelet(f *testing.F) {
	g := newGen(defaultSeed + 11)
	fuzzseed.AddPods(f, 24, func() any { return g.pod(true) })
	logger := klog.Background()
	f.Fuzz(func(t *testing.T, sel uint8, data []byte) {
		var pod corev1.Pod
		if json.Unmarshal(data, &pod) != nil {
			t.Skip("not a pod's JSON")
		}
		names := map[string]bool{}
		for _, k := range kinds(&pod) {
			for _, c := range k.containers {
				if names[c.Name] {
					t.Skip("containers share a name")
				}
				names[c.Name] = true
			}
		}
		gs := fuzzGateSets[int(sel)%len(fuzzGateSets)]
		gatesets.Apply(t, gs)
		before := pod.DeepCopy()
		d := &disagreements{t: t}
		var bases coverage.Counts
		compareShouldRestart(logger, &pod, gateSet{Set: gs, opts: restart.Options{Features: gs.Features()}}, d, &bases)
		if d.n > 0 {
			t.FailNow()
		}
		if !reflect.DeepEqual(&pod, before) {
			t.Fatalf("podlife mutated its input\npod: %s", data)
		}
	})
}
