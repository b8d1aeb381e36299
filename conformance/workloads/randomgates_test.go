package workloads

import (
	"strings"
	"testing"

	"github.com/podlife/podlife/conformance/internal/gatesets"
	"github.com/podlife/podlife/validation"
)

// TestRandomGateSetsMatchUpstream is TestDifferential under random cluster
// configurations (gatesets.RandomSets: every gate the server lets an operator set, a
// quarter of them flipped at a time, dependencies mended), a smaller draw of every
// kind per set: combinations of gates no named set holds, and gates podlife does
// not read, compared on every kind that holds a pod. It asserts the inputs drawn and
// the share invalid per kind over the run.
func TestRandomGateSetsMatchUpstream(t *testing.T) {
	s := seed(t)
	k := scale(t)
	sets := gatesets.RandomSets(24, uint64(s+91))
	totals := map[string]*tally{}
	for _, kind := range kinds {
		totals[kind] = newTally()
	}
	const creates, updates = 80, 40
	for i, gs := range sets {
		t.Run(gs.Name, func(t *testing.T) {
			gatesets.Apply(t, gs)
			opts := validation.Options{Features: gs.Features()}
			note := "\n" + gs.Flag()
			for ki, kind := range kinds {
				create, update := compareKind(t, newGen(s+int64(5000+100*i+ki)), kind, opts, creates*k, updates*k, note)
				for _, tl := range []*tally{create, update} {
					if tl.disagreeing > 0 {
						t.Errorf("%s: %d of %d inputs disagree; first ones:\n%s", kind, tl.disagreeing, tl.inputs, strings.Join(tl.examples, "\n\n"))
					}
					totals[kind].inputs += tl.inputs
					totals[kind].invalid += tl.invalid
				}
			}
		})
	}
	for _, kind := range kinds {
		tl := totals[kind]
		t.Logf("%s: %d inputs under %d random gate sets, %d invalid upstream", kind, tl.inputs, len(sets), tl.invalid)
		if want := len(sets) * (creates + updates) * k; tl.inputs != want {
			t.Errorf("%s: %d inputs, want %d", kind, tl.inputs, want)
		}
		if share := float64(tl.invalid) / float64(max(tl.inputs, 1)); share < 0.2 || share > 0.9 {
			t.Errorf("%s: %.0f%% of the inputs are invalid upstream, want 20%% to 90%%", kind, 100*share)
		}
	}
}
