package validation

import (
	"fmt"
	"testing"

	"github.com/podlife/podlife/conformance/internal/gatesets"
	"github.com/podlife/podlife/conformance/internal/upstreamcreate"
	"github.com/podlife/podlife/validation"
)

// TestStreamUpdatesMatchUpstream checks ValidateStream with StreamOptions.Stored on
// pods, the path of examples/validate --live: the generated stored pod written as
// YAML, as kubectl get -o yaml prints it, read by a DecodeOnly stream into
// StoredObjects; the new pod written as YAML and answered as kubectl replace -f sends
// it (with the stored resourceVersion when it has none); against the answer of the
// server's real update handler to the same PUT (upstreamcreate.Update): the verdict,
// the field errors, a refusal's status and the Warning headers.
func TestStreamUpdatesMatchUpstream(t *testing.T) {
	s := seed(t)
	n := count(t, 3000)
	var updated, created int
	gatesets.Run(t, gateSets, func(t *testing.T, gs gatesets.Set) {
		m := perSet(n, gs, 10)
		g := newGen(s + 7)
		tl := newTally()
		opts := validation.Options{Features: gs.Features()}
		for i := 0; i < m; i++ {
			p := g.updatePair(t)
			if i%3 == 0 {
				// kubectl replace sends the stored resourceVersion in its place.
				p.newPod.ResourceVersion = ""
			}
			live, doc := upstreamcreate.YAMLDocument(t, p.storedV1), upstreamcreate.YAMLDocument(t, p.newPod)
			r := upstreamcreate.StreamUpdate(t, live, doc, opts)
			if !r.Update {
				// Renamed, moved or unreadable: a create, which the other tests check.
				created++
				continue
			}
			updated++
			ans := upstreamcreate.Update(t, p.newPod, p.stored)
			ours, problems := ans.CompareStream(t, r, p.newPod)
			input := func() string { return string(live) + "---\n" + string(doc) + fmt.Sprint(p.faults) }
			if len(problems) > 0 {
				tl.disagreeing++
				tl.disagree("stream", fmt.Sprintf("%s\n%s", problems, input()))
				continue
			}
			tl.recordUpdate(t, input, ours, ans, p.newPod)
		}
		tl.report(t, "stream update/"+gs.Name, s+7, minimums{inputs: tl.inputs, invalidMin: 0.3, invalidMax: 0.9})
	})
	t.Logf("%d pods answered as updates, %d as creates", updated, created)
	if updated < 9*(created+1) {
		t.Errorf("%d updates and %d creates: want at least 90%% updates", updated, created)
	}
}
