package workloads

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/podlife/podlife/conformance/internal/fuzzseed"
	"github.com/podlife/podlife/conformance/internal/gatesets"
	"github.com/podlife/podlife/conformance/internal/upstreamcreate"
	"github.com/podlife/podlife/conformance/internal/warngen"
	"github.com/podlife/podlife/validation"
)

// fuzzGateSets are the sets the fuzz targets pick from: gateSets and random ones.
var fuzzGateSets = gatesets.ForFuzzing(gateSets)

// FuzzWorkloadsMatchUpstream is TestDifferential's create half on objects no
// generator of this repository wrote: the fuzzer mutates the JSON of the example
// manifests' workloads (every kind, old apiVersions included) and of generated
// ones; the bytes are decoded as the kind sel picks (kinds) and
// ValidateObjectCreate must answer as the API server's create path for that kind
// (upstreamcreate.ObjectCreateIn), error by error (diff), under the gate set sel
// picks (fuzzGateSets), leaving the object as it was. Bytes that are not the kind's
// JSON are skipped.
func FuzzWorkloadsMatchUpstream(f *testing.F) {
	for ki, docs := range fuzzseed.OfKind(f, 1, kinds...) {
		for j, doc := range docs {
			f.Add(uint8(ki+len(kinds)*j), doc)
		}
	}
	g := newGen(defaultSeed + 11)
	wg := warngen.New(defaultSeed + 12)
	for i := range 3 * len(kinds) {
		ki := i % len(kinds)
		obj := g.object(kinds[ki])
		if tmpl := templateOf(obj); tmpl != nil && i >= len(kinds) {
			// Templates the server warns about (TestCreateWarningsMatchUpstream).
			wg.Pod(&tmpl.Spec, &tmpl.ObjectMeta)
		}
		b, err := json.Marshal(obj)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(uint8(ki+len(kinds)*(i/len(kinds))), b)
	}
	f.Fuzz(func(t *testing.T, sel uint8, data []byte) {
		kind := kinds[int(sel)%len(kinds)]
		obj := newObject(t, kind)
		if json.Unmarshal(data, obj) != nil {
			t.Skip("not the kind's JSON")
		}
		gs := fuzzGateSets[int(sel)/len(kinds)%len(fuzzGateSets)]
		gatesets.Apply(t, gs)
		before := obj.DeepCopyObject()
		ours := validation.ValidateObjectCreate(obj, validation.Options{Features: gs.Features()})
		if !reflect.DeepEqual(obj, before) {
			t.Fatalf("ValidateObjectCreate modified its input\n%s", data)
		}
		theirs, warnings := upstreamcreate.ObjectCreateWarned(t, obj, "")
		if problems := diff(ours, theirs); len(problems) > 0 {
			t.Fatalf("%s, gates %s: podlife and upstream disagree:\n%s\n%s", kind, gs.Name, strings.Join(problems, "\n"), data)
		}
		if ws := validation.CreateWarnings(obj, validation.Options{Features: gs.Features()}); !slices.Equal(warngen.SortNodeSelectorRuns(ws), warngen.SortNodeSelectorRuns(warnings)) {
			t.Fatalf("%s, gates %s: warnings disagree\n upstream %q\n podlife  %q\n%s", kind, gs.Name, warnings, ws, data)
		}
	})
}

// FuzzWorkloadUpdatesMatchUpstream is TestDifferential's update half on objects no
// generator wrote: the bytes data, decoded as the kind sel picks, are stored as the
// server stores them when it creates them (upstreamcreate.Stored, named "stored"
// when they have no name), and the new object is the stored one as a client reads
// it with patch applied as a JSON merge patch (fuzzseed.Patched).
// ValidateObjectUpdate must answer as the server's PUT through the kind's real
// handler and registry (refusals compared with RefusalOf, field errors with diff),
// under the gate set sel picks, leaving both objects as they were, and
// UpdateWarnings as the server's response's Warning headers. Objects the
// server could not store, bytes that are not the kind's JSON and patches that are
// not a JSON object are skipped.
func FuzzWorkloadUpdatesMatchUpstream(f *testing.F) {
	patches := []string{
		`{"metadata":{"labels":{"tier":"web"}}}`,
		`{"spec":{"replicas":5}}`,
		`{"spec":{"template":{"spec":{"containers":[{"name":"app","image":"nginx:1.27"}]}}}}`,
		`{"spec":{"selector":{"matchLabels":{"app":"other"}}}}`,
		`{"metadata":{"name":"other"}}`,
		`{"metadata":{"resourceVersion":"7"}}`,
		`{"spec":{"template":{"metadata":{"labels":null}}}}`,
		`{"spec":{"suspend":true,"schedule":"*/5 * * * *"}}`,
	}
	for ki, docs := range fuzzseed.OfKind(f, 1, kinds...) {
		for j, doc := range docs {
			f.Add(uint8(ki+len(kinds)*j), doc, []byte(patches[(ki+j)%len(patches)]))
		}
	}
	f.Fuzz(func(t *testing.T, sel uint8, data, patch []byte) {
		kind := kinds[int(sel)%len(kinds)]
		obj := newObject(t, kind)
		if json.Unmarshal(data, obj) != nil {
			t.Skip("not the kind's JSON")
		}
		if _, ok := fuzzseed.MergePatch([]byte("{}"), patch); !ok {
			t.Skip("not a JSON object")
		}
		// The Go type is the kind: podlife reads no TypeMeta of a typed object, and a
		// PUT whose body names another apiVersion is refused before anything podlife
		// answers for (the old-apiVersion seeds carry one). Both objects go as the
		// kind's v1.
		obj.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{})
		gs := fuzzGateSets[int(sel)/len(kinds)%len(fuzzGateSets)]
		gatesets.Apply(t, gs)
		old := upstreamcreate.Stored(t, obj)
		if old == nil {
			t.Skip("the server could not store it")
		}
		if m := metaOf(old); m.Name == "" {
			m.Name = "stored"
		}
		n := newObject(t, kind)
		if !fuzzseed.Patched(t, old, patch, n) {
			t.Skip("the patched object is not the kind's JSON")
		}
		n.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{})
		nb, ob := n.DeepCopyObject(), old.DeepCopyObject()
		ours := validation.ValidateObjectUpdate(n, old, validation.Options{Features: gs.Features()})
		if !reflect.DeepEqual(n, nb) || !reflect.DeepEqual(old, ob) {
			t.Fatalf("ValidateObjectUpdate modified its input\n%s\npatch: %s", data, patch)
		}
		ans := upstreamcreate.KindOf(t, n).Update(t, n, old)
		problems := append(compareRefusal(ans, ours), diff(ours, ans.AsErrorList(t, n))...)
		if len(problems) > 0 {
			t.Fatalf("%s update, gates %s: podlife and upstream disagree:\n%s\n%s\npatch: %s", kind, gs.Name, strings.Join(problems, "\n"), data, patch)
		}
		warnings := validation.UpdateWarnings(n, old, validation.Options{Features: gs.Features()})
		if !slices.Equal(warngen.SortNodeSelectorRuns(warnings), warngen.SortNodeSelectorRuns(ans.Warnings)) {
			t.Fatalf("%s update, gates %s: warnings disagree:\nupstream %q\npodlife  %q\n%s\npatch: %s", kind, gs.Name, ans.Warnings, warnings, data, patch)
		}
	})
}
