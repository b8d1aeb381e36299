package workloads

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/podlife/podlife/conformance/internal/fuzzseed"
	"github.com/podlife/podlife/conformance/internal/gatesets"
	"github.com/podlife/podlife/conformance/internal/upstreamcreate"
	"github.com/podlife/podlife/validation"
)

// FuzzWorkloadsMatchUpstream is TestDifferential's create half on objects no
// generator of this repository wrote: the fuzzer mutates the JSON of the example
// manifests' workloads (every kind, old apiVersions included) and of generated
// ones; the bytes are decoded as the kind sel picks (kinds) and
// ValidateObjectCreate must answer as the API server's create path for that kind
// (upstreamcreate.ObjectCreateIn), error by error (diff), under the gate set sel
// picks (gateSets), leaving the object as it was. Bytes that are not the kind's
// JSON are skipped.
func FuzzWorkloadsMatchUpstream(f *testing.F) {
	for ki, docs := range fuzzseed.OfKind(f, 1, kinds...) {
		for j, doc := range docs {
			f.Add(uint8(ki+len(kinds)*j), doc)
		}
	}
	g := newGen(defaultSeed + 11)
	for i := range 3 * len(kinds) {
		ki := i % len(kinds)
		b, err := json.Marshal(g.object(kinds[ki]))
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
		gs := gateSets[int(sel)/len(kinds)%len(gateSets)]
		gatesets.Apply(t, gs)
		before := obj.DeepCopyObject()
		ours := validation.ValidateObjectCreate(obj, validation.Options{Features: gs.Features()})
		if !reflect.DeepEqual(obj, before) {
			t.Fatalf("ValidateObjectCreate modified its input\n%s", data)
		}
		theirs := upstreamcreate.ObjectCreateIn(t, obj, "")
		if problems := diff(ours, theirs); len(problems) > 0 {
			t.Fatalf("%s, gates %s: podlife and upstream disagree:\n%s\n%s", kind, gs.Name, strings.Join(problems, "\n"), data)
		}
	})
}
