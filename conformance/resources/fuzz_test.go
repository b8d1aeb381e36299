package resources

import (
	"encoding/json"
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/kubernetes/pkg/apis/core/v1/helper/qos"

	"github.com/podlife/podlife/conformance/internal/fuzzseed"
	"github.com/podlife/podlife/resources"
)

// FuzzResourcesMatchUpstream is the differential test on pods no generator of this
// repository wrote: the fuzzer mutates the JSON of the example manifests' pods and
// of generated pods, and for every pod the bytes decode to, the four list functions
// under the option set sel picks (optionSets), Explain's results and the QoS class
// must equal component-helpers' and the kubelet helper's answers, as
// TestDifferentialResourceLists and TestDifferentialQOS compare them, and the pod
// must be left as it was. Bytes that are not a pod's JSON are skipped.
func FuzzResourcesMatchUpstream(f *testing.F) {
	g := newGen(defaultSeed + 11)
	fuzzseed.AddPods(f, 24, func() any { return g.pod() })
	f.Fuzz(func(t *testing.T, sel uint8, data []byte) {
		var pod corev1.Pod
		if json.Unmarshal(data, &pod) != nil {
			t.Skip("not a pod's JSON")
		}
		before := pod.DeepCopy()
		os := optionSets[int(sel)%len(optionSets)]
		for _, fn := range listFns {
			if d := compareList(&pod, os, fn); d != "" {
				t.Fatalf("%s [%s]: %s\npod: %s", fn.name, os.name, d, data)
			}
		}
		if _, d := compareExplain(&pod, os); d != "" {
			t.Fatalf("Explain [%s]: %s\npod: %s", os.name, d, data)
		}
		if got, want := resources.ComputePodQOS(&pod), qos.ComputePodQOS(pod.DeepCopy()); got != want {
			t.Fatalf("ComputePodQOS: podlife %s, upstream %s\npod: %s", got, want, data)
		}
		if got, want := resources.GetPodQOS(&pod), qos.GetPodQOS(pod.DeepCopy()); got != want {
			t.Fatalf("GetPodQOS: podlife %s, upstream %s\npod: %s", got, want, data)
		}
		if !reflect.DeepEqual(&pod, before) {
			t.Fatalf("podlife mutated its input\npod: %s", data)
		}
	})
}
