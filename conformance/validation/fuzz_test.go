package validation

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/podlife/podlife/conformance/internal/fuzzseed"
	"github.com/podlife/podlife/conformance/internal/gatesets"
	"github.com/podlife/podlife/conformance/internal/upstreamcreate"
	"github.com/podlife/podlife/conformance/internal/warngen"
	"github.com/podlife/podlife/validation"
)

// fuzzGateSets are the sets the fuzz targets pick from: gateSets and random ones.
var fuzzGateSets = gatesets.ForFuzzing(gateSets)

// FuzzCreateMatchesUpstream is the differential test on pods no generator of this
// repository wrote: the fuzzer mutates the JSON of the example manifests' pods and
// of generated pods, and every pod the bytes decode to is validated by podlife and
// by upstream, under the gate set sel picks (fuzzGateSets), either as a pod created on
// its own (ValidatePodCreate against the server's create path) or, when sel is odd,
// as a workload's template (ValidatePodTemplateSpec against the registries'
// template validation). The answers must agree as TestCreateMatchesUpstream
// compares them: as multisets of errors and of Error() texts, and in order where
// upstream fixes the order. Bytes that are not a pod's JSON are skipped.
//
// CI replays the seeds and testdata/fuzz; `go test -fuzz FuzzCreateMatchesUpstream
// ./validation/` (in this module) searches.
func FuzzCreateMatchesUpstream(f *testing.F) {
	g := newGen(defaultSeed + 11)
	fuzzseed.AddPods(f, 24, func() any { pod, _ := g.pod(); return pod })
	// Pods the server warns about (TestCreateWarningsMatchUpstream's changes).
	wg := warngen.New(defaultSeed + 12)
	fuzzseed.AddPods(f, 12, func() any {
		pod, _ := g.podWith(0.1)
		wg.Pod(&pod.Spec, &pod.ObjectMeta)
		wg.Owners(&pod.ObjectMeta)
		return pod
	})
	f.Fuzz(func(t *testing.T, sel uint8, data []byte) {
		var pod v1.Pod
		if json.Unmarshal(data, &pod) != nil {
			t.Skip("not a pod's JSON")
		}
		gs := fuzzGateSets[int(sel/2)%len(fuzzGateSets)]
		gatesets.Apply(t, gs)
		opts := validation.Options{Features: gs.Features()}
		var ours, theirs field.ErrorList
		var what string
		if sel%2 == 0 {
			what = "create/" + gs.Name
			cp := pod.DeepCopy()
			ours = checkOurs(t, what, func() field.ErrorList { return validation.ValidatePodCreate(&pod, opts) }, []any{&pod}, []any{cp})
			theirs = upstreamcreate.CreateIn(t, &pod, "")
			checkWarnings(t, what, &pod, opts, string(data))
		} else {
			what = "template/" + gs.Name
			tmpl := &v1.PodTemplateSpec{ObjectMeta: pod.ObjectMeta, Spec: pod.Spec}
			tmpl.Name, tmpl.Namespace = "", ""
			path := field.NewPath("spec", "template")
			cp := tmpl.DeepCopy()
			ours = checkOurs(t, what, func() field.ErrorList { return validation.ValidatePodTemplateSpec(tmpl, path, opts) }, []any{tmpl}, []any{cp})
			theirs = upstreamTemplate(t, tmpl, path)
		}
		tl := newTally()
		tl.record(func() string { return string(data) }, ours, theirs)
		tl.failOnDisagreement(t, what)
	})
}

// FuzzUpdateMatchesUpstream is the update half of FuzzCreateMatchesUpstream: the
// bytes pod are created through upstream's create path and stored (with the name,
// namespace, uid and resourceVersion a stored pod has), and the new object is that
// stored pod as a client reads it with patch applied as a JSON merge patch (RFC
// 7386), the way `kubectl patch --type merge` builds one. The fuzzer mutates both
// the pod and the patch. ValidatePodUpdate must answer as the API server's PUT
// (upstreamcreate.Update, the real handler and registry), refusals included, and
// UpdateWarnings as its Warning headers, under the gate set sel picks. Bytes that are not a pod's JSON or a patch that is not a
// JSON object are skipped.
func FuzzUpdateMatchesUpstream(f *testing.F) {
	patches := []string{
		`{"metadata":{"labels":{"tier":"web"}}}`,
		`{"metadata":{"annotations":{"example.com/x":"1"},"resourceVersion":null}}`,
		`{"spec":{"activeDeadlineSeconds":30}}`,
		`{"spec":{"containers":[{"name":"app","image":"nginx:1.27"}]}}`,
		`{"spec":{"schedulingGates":null,"nodeSelector":{"zone":"b"}}}`,
		`{"spec":{"tolerations":[{"key":"k","operator":"Exists","effect":"NoExecute","tolerationSeconds":5}]}}`,
		`{"metadata":{"name":"other"}}`,
		`{"metadata":{"uid":"0000"}}`,
		`{"spec":{"terminationGracePeriodSeconds":-1}}`,
		`{"status":{"phase":"Running"}}`,
	}
	for i, pod := range fuzzseed.Pods(f) {
		f.Add(uint8(i), pod, []byte(patches[i%len(patches)]))
	}
	f.Fuzz(func(t *testing.T, sel uint8, data, patch []byte) {
		var pod v1.Pod
		if json.Unmarshal(data, &pod) != nil {
			t.Skip("not a pod's JSON")
		}
		if _, ok := fuzzseed.MergePatch([]byte("{}"), patch); !ok {
			t.Skip("not a JSON object")
		}
		gs := fuzzGateSets[int(sel)%len(fuzzGateSets)]
		gatesets.Apply(t, gs)
		stored := upstreamStoreAs(t, &pod, "stored")
		storedV1 := jsonRoundTrip(t, toV1(t, stored))
		stored = fromV1(t, storedV1)
		newPod := mergePatch(t, storedV1, patch)
		if newPod == nil {
			t.Skip("the patched object is not a pod's JSON")
		}

		opts := validation.Options{Features: gs.Features()}
		what := "update/" + gs.Name
		np, op := newPod.DeepCopy(), storedV1.DeepCopy()
		ours := checkOurs(t, what, func() field.ErrorList { return validation.ValidatePodUpdate(newPod, storedV1, opts) },
			[]any{newPod, storedV1}, []any{np, op})
		tl := newTally()
		ans := upstreamcreate.Update(t, newPod, stored)
		tl.recordUpdate(t, func() string { return fmt.Sprintf("pod: %s\npatch: %s", data, patch) }, ours, ans, newPod)
		tl.failOnDisagreement(t, what)
		if warnings := validation.UpdateWarnings(newPod, storedV1, opts); !slices.Equal(warnings, ans.Warnings) {
			t.Fatalf("%s: warnings disagree:\nupstream %q\npodlife  %q\npod: %s\npatch: %s", what, ans.Warnings, warnings, data, patch)
		}
	})
}

// mergePatch applies patch to p as a JSON merge patch (fuzzseed.Patched) and
// decodes the result as a client's object reaches the server; nil when the result
// is not a pod's JSON.
func mergePatch(t *testing.T, p *v1.Pod, patch []byte) *v1.Pod {
	var out v1.Pod
	if !fuzzseed.Patched(t, p, patch, &out) {
		return nil
	}
	return jsonRoundTrip(t, &out)
}

// checkWarnings fails unless CreateWarnings answers as the server's create path
// (upstreamcreate.ObjectCreateWarned) for obj, node selector warnings in any order.
func checkWarnings(t *testing.T, what string, obj runtime.Object, opts validation.Options, input string) {
	t.Helper()
	ours := validation.CreateWarnings(obj, opts)
	_, theirs := upstreamcreate.ObjectCreateWarned(t, obj, "")
	if !slices.Equal(warngen.SortNodeSelectorRuns(ours), warngen.SortNodeSelectorRuns(theirs)) {
		t.Fatalf("%s: warnings disagree\n upstream %q\n podlife  %q\n%s", what, theirs, ours, input)
	}
}
