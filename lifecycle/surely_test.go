package lifecycle

import "testing"

// TestSurelyNotTerminalHolds checks the shortcut plan takes (surelyNotTerminal, with
// surelyPending) against the conversion it saves: at every sync of the pinned
// timelines (digestCases), with the status and the view the sync read, a pod it
// calls surely not terminal gets a phase that is not terminal from nextPhase. It
// also checks that surelyPending answers for a good share of those syncs.
func TestSurelyNotTerminalHolds(t *testing.T) {
	syncs, pending := 0, 0
	for _, dc := range digestCases(t) {
		opts := dc.opts
		opts.RecordViews = true
		tl := Simulate(dc.pod, dc.script, opts)
		for i := range tl.Steps {
			st := &tl.Steps[i]
			if st.View == nil || st.Final {
				continue
			}
			pod := *tl.Pod
			pod.Status = st.Status
			x := newLookup(st.View)
			if surelyPending(&pod, &x) {
				pending++
			}
			if !surelyNotTerminal(&pod, &x, st.Time, opts.Options) {
				continue
			}
			syncs++
			var sc scratch
			if ph, restarting := nextPhase(&pod, st.View, &x, st.Time, &sc, opts.Options); isTerminal(ph) || restarting {
				t.Errorf("%s: step %d at %s: surely not terminal, but nextPhase gives %s (restarting %v)", dc.name, i, st.Time, ph, restarting)
			}
		}
	}
	if syncs < 100 || pending < 50 {
		t.Errorf("%d syncs surely not terminal, %d surely pending: too few to check", syncs, pending)
	}
	t.Logf("%d syncs surely not terminal, %d surely pending", syncs, pending)
}
