package speed

import (
	"os"
	"path/filepath"
	"testing"
)

func TestQuantile(t *testing.T) {
	for _, tc := range []struct {
		xs   []float64
		q    float64
		want float64
	}{
		{[]float64{3, 1, 2}, 0.5, 2},
		{[]float64{4, 1, 3, 2}, 0.5, 2.5},
		{[]float64{5, 1, 4, 2, 3, 6, 7, 8, 9, 10}, 0.9, 10},
		{[]float64{1}, 0.9, 1},
	} {
		if got := quantile(tc.xs, tc.q); got != tc.want {
			t.Errorf("quantile(%v, %v) = %v, want %v", tc.xs, tc.q, got, tc.want)
		}
	}
}

func TestTable(t *testing.T) {
	got := Table([]Result{
		{Shape: "a", Median: 0.4, P90: 0.5, Worst: 0.9, Best: 0.2, OursNs: 10, RefNs: 25, OursAllocs: 1, RefAllocs: 4, OursBytes: 64, RefBytes: 512},
		{Shape: "b", Median: 0.6, P90: 0.7, Worst: 1.2, Best: 0.3, OursNs: 12, RefNs: 20},
		{Shape: "b floor", Median: 0.9, P90: 0.9, Worst: 0.9, Best: 0.9, OursNs: 18, RefNs: 20, Reference: true},
	})
	// The reference row is printed but is not a shape: the worst shape is b.
	want := `shape                            median    p90  worst   best   ours-ns    ref-ns ours-al  ref-al   ours-B    ref-B
a                                 0.400  0.500  0.900  0.200      10.0      25.0    1.00    4.00       64      512
b                                 0.600  0.700  1.200  0.300      12.0      20.0    0.00    0.00        0        0
b floor                           0.900  0.900  0.900  0.900      18.0      20.0    0.00    0.00        0        0
worst shape by median: b (median 0.600, worst round 1.200)
`
	if got != want {
		t.Errorf("Table:\n%s\nwant:\n%s", got, want)
	}
}

func TestTotals(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cg.out.2-01")
	if err := os.WriteFile(path, []byte("version: 1\nevents: Ir\nsummary: 1234\ntotals: 1234\nfl=x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if n, err := totals(path); err != nil || n != 1234 {
		t.Errorf("totals = %d, %v; want 1234", n, err)
	}
	if err := os.WriteFile(path, []byte("events: Ir\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := totals(path); err == nil {
		t.Error("no error for a dump without totals")
	}
}

// TestCompareCountsRounds runs a tiny comparison: every round gives a ratio, and
// the allocations are counted per call.
func TestCompareCountsRounds(t *testing.T) {
	var sink []byte
	r := Compare("x", Side{Calls: 2, Run: func() { sink = make([]byte, 64); sink = make([]byte, 64) }},
		Side{Calls: 1, Run: func() { sink = make([]byte, 64) }}, Options{Rounds: 5, RoundAt: 10000})
	_ = sink
	if r.Shape != "x" || r.Rounds == 0 || r.Rounds > 5 || r.Median <= 0 {
		t.Errorf("Compare = %+v", r)
	}
	if r.OursAllocs != 1 || r.RefAllocs != 1 {
		t.Errorf("allocations per call %v and %v, want 1 and 1", r.OursAllocs, r.RefAllocs)
	}
}

// TestCompareSteady runs a tiny steady comparison: rounds of at least SteadyRoundAt
// of the reference, each giving a ratio.
func TestCompareSteady(t *testing.T) {
	var sink []byte
	r := Compare("x", Side{Calls: 1, Run: func() { sink = make([]byte, 1024) }},
		Side{Calls: 1, Run: func() { sink = make([]byte, 64) }}, Options{Rounds: 3, Steady: true})
	_ = sink
	if r.Shape != "x" || r.Rounds == 0 || r.Rounds > 3 || r.Median <= 0 {
		t.Errorf("Compare = %+v", r)
	}
	if r.OursBytes != 1024 || r.RefBytes != 64 {
		t.Errorf("bytes per call %v and %v, want 1024 and 64", r.OursBytes, r.RefBytes)
	}
}
