package apitest

import (
	"cmp"
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/podlife/podlife/internal/speed"
)

// instructionsVar selects the instruction-count mode of TestHostileGrowth; its child
// value marks the test re-run under callgrind.
const (
	instructionsVar   = "PODLIFE_GROWTH_INSTRUCTIONS"
	instructionsChild = "callgrind-child"
)

// countedCold are calls counted without the uncounted call before: a call of
// validation.FeatureGateHints validates the object once for the first answer and
// once per distinct set of gate values (up to 36 times with the fixtures' gates), and
// takes 10–20 s natively on 10,000 resource names or repeated names, so a warm-up
// call would double an hour under callgrind; its first validation fills whatever a
// first call fills (a quantity's cached text) for the others.
var countedCold = []string{"validation.FeatureGateHints"}

// instructionRow is one call on one shape: the instructions of one call at each size.
type instructionRow struct {
	name, shape string
	small, big  int64
}

// instructionGrowth is TestHostileGrowth's instruction-count mode
// (PODLIFE_GROWTH_INSTRUCTIONS=1): the test re-runs itself once under valgrind's
// callgrind, with the collector off and its goroutine on one thread, and counts the
// instructions of one call of each selected function on each selected shape at both
// sizes (each counted call but those of countedCold follows one uncounted call on the
// same pod, which fills any lazily built state, as countWork keeps the second call). Instructions are the
// work itself: caches, the machine's load and the collector do not move them, so
// their growth is linear (the ratio of the sizes) unless the work is not. The
// collector's own work is left out. Everything runs about 50 times slower than
// natively: select a few calls and shapes (PODLIFE_GROWTH, PODLIFE_GROWTH_SHAPES).
// The test binary must keep its symbols and the timeout must be long:
//
//	PODLIFE_GROWTH=lifecycle.Plan PODLIFE_GROWTH_SHAPES=containers PODLIFE_GROWTH_INSTRUCTIONS=1 \
//	  go test ./internal/apitest -run HostileGrowth -v -ldflags=-s=false -timeout 2h
//
// Without valgrind the test is skipped.
func instructionGrowth(t *testing.T, mode string, sel []call, shapes []string, sizes [2]int) {
	if mode == instructionsChild {
		// Every counted call on this thread, with no collection during it.
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		defer debug.SetGCPercent(debug.SetGCPercent(-1))
		for _, shape := range shapes {
			small, big := hostileFixtures(shape, sizes[0]), hostileFixtures(shape, sizes[1])
			for _, c := range sel {
				// Four segments an entry: setup, small call, setup, big call.
				for _, f := range []*fixtures{small, big} {
					if !slices.Contains(countedCold, c.name) {
						_ = c.fn(f)
					}
					runtime.GC()
					speed.Mark()
					_ = c.fn(f)
					speed.Mark()
				}
				t.Logf("counted %s %s", c.name, shape)
			}
		}
		return
	}
	var rows []instructionRow
	for _, shape := range shapes {
		for _, c := range sel {
			rows = append(rows, instructionRow{name: c.name, shape: shape})
		}
	}
	counts, log, err := speed.Callgrind(t, instructionsVar+"="+instructionsChild)
	if errors.Is(err, speed.ErrNoValgrind) {
		t.Skipf("%s: %v", instructionsVar, err)
	}
	if err != nil {
		t.Fatalf("callgrind: %v", err)
	}
	if len(counts) < 4*len(rows) {
		t.Fatalf("callgrind gave %d segments for %d entries:\n%s", len(counts), len(rows), log)
	}
	for i := range rows {
		rows[i].small, rows[i].big = counts[4*i+1], counts[4*i+3]
	}
	growth := func(r instructionRow) float64 { return ratio(float64(r.big), float64(r.small)) }
	slices.SortStableFunc(rows, func(a, b instructionRow) int { return cmp.Compare(growth(b), growth(a)) })
	var sb strings.Builder
	fmt.Fprintf(&sb, "instructions of one call from %d to %d elements (callgrind, collector off)\n", sizes[0], sizes[1])
	fmt.Fprintf(&sb, "%-45s %-11s %7s %15s %15s\n", "function", "shape", "instr×", "instr@small", "instr@big")
	for _, r := range rows {
		fmt.Fprintf(&sb, "%-45s %-11s %7.2f %15d %15d\n", r.name, r.shape, growth(r), r.small, r.big)
	}
	t.Log("\n" + sb.String())
}
