// Package speed compares the cost of podlife's code with a reference (upstream's, or
// pod.DeepCopy()) on a loaded machine, where a benchmark's average is noise. A test
// builds a [Suite], adds one comparison per shape of input and reports them; the mode
// comes from PODLIFE_SPEED (see [NewSuite]):
//
//   - time: both sides run the same corpus in many short rounds, alternating which
//     goes first, each side's turn timed by the thread's CPU clock (so that time the
//     scheduler gives to other processes is not counted) after a collection (so that
//     no side pays for garbage the other left); the ratio of each round is kept, and
//     the median is the figure, the 90th percentile and the worst round bound it. The
//     collector's background work is not counted, its assists are. A suite whose
//     sides allocate very different amounts runs Steady instead: long rounds, no
//     forced collection, each side paying the collections of its turns (see
//     [Options.Steady]).
//   - instructions: the test re-runs itself under valgrind's callgrind with the
//     collector off and counts the instructions each side executes, a figure the
//     machine's load cannot move (memory stalls are not in it).
//
// Allocations and bytes per call are reported beside either. Nothing here asserts a
// time: the callers print the ratios. Only tests import this package (this module's,
// and the conformance module's, whose import path lies under this module's), and
// only behind PODLIFE_SPEED.
package speed

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Side is one side of a comparison: Run does the side's work over the whole corpus
// once, Calls is the number of calls one Run makes.
type Side struct {
	Run   func()
	Calls int
}

// Result is one shape's comparison.
type Result struct {
	// Shape names the corpus.
	Shape string
	// Median, P90 and Worst are the median, the 90th percentile and the largest of
	// the per-round ratios of our time to the reference's; Best the smallest.
	Median, P90, Worst, Best float64
	// OursNs and RefNs are the median per-call times, in nanoseconds of thread CPU
	// time.
	OursNs, RefNs float64
	// OursAllocs and RefAllocs are the allocations per call, OursBytes and RefBytes
	// the bytes allocated per call.
	OursAllocs, RefAllocs, OursBytes, RefBytes float64
	// Rounds is the number of rounds.
	Rounds int
	// Reference marks a comparison that is not a corpus shape but a yardstick for
	// one (a floor: the least any implementation of the API's shape costs on the
	// corpus); Table leaves it out of the worst shape.
	Reference bool
}

// Options sizes a comparison. The zero value runs 201 rounds of at least 500µs of the
// reference each.
type Options struct {
	Rounds  int
	RoundAt time.Duration
	// Steady times both sides with the collector in its steady state, for sides that
	// allocate very different amounts: no collection is forced before a turn, and a
	// round lasts at least SteadyRoundAt of the reference (RoundAt when larger), so
	// that every turn spans several collection cycles and each side pays the
	// collector about in proportion to what it allocates. Without it, a turn starts
	// on a freshly collected heap, and a side whose turn allocates less than the
	// collector's headroom (a few MB) never meets a collection nor sweeps a span,
	// which makes a small allocating reference look several times cheaper than it is
	// in any program that calls it repeatedly.
	Steady bool
}

// SteadyRoundAt is the shortest round of the reference with [Options.Steady], and
// SteadyRounds its default number of rounds.
const (
	SteadyRoundAt = 20 * time.Millisecond
	SteadyRounds  = 31
)

// Compare measures ours against ref in interleaved rounds. Each round runs each side
// Run reps times (reps chosen once so that the reference takes about RoundAt) and
// measures both with the thread's CPU clock, the goroutine locked to its thread; each
// turn follows a forced collection unless o.Steady.
func Compare(shape string, ours, ref Side, o Options) Result {
	if o.Rounds <= 0 {
		o.Rounds = 201
		if o.Steady {
			o.Rounds = SteadyRounds
		}
	}
	if o.RoundAt <= 0 {
		o.RoundAt = 500 * time.Microsecond
	}
	if o.Steady {
		o.RoundAt = max(o.RoundAt, SteadyRoundAt)
	}
	turn := timed
	if o.Steady {
		turn = timedSteady
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	// Warm up both and size the rounds on the reference.
	ours.Run()
	ref.Run()
	reps := 1
	for {
		if d := turn(ref.Run, reps); d >= o.RoundAt || reps >= 1<<20 {
			break
		}
		reps *= 2
	}
	ratios := make([]float64, 0, o.Rounds)
	oursNs := make([]float64, 0, o.Rounds)
	refNs := make([]float64, 0, o.Rounds)
	for round := range o.Rounds {
		var a, b time.Duration
		if round%2 == 0 {
			a = turn(ours.Run, reps)
			b = turn(ref.Run, reps)
		} else {
			b = turn(ref.Run, reps)
			a = turn(ours.Run, reps)
		}
		if a <= 0 || b <= 0 {
			continue // no reading, or the clock did not advance: no information
		}
		ratios = append(ratios, float64(a)/float64(b))
		oursNs = append(oursNs, float64(a)/float64(reps*ours.Calls))
		refNs = append(refNs, float64(b)/float64(reps*ref.Calls))
	}
	r := Result{Shape: shape, Rounds: len(ratios)}
	if len(ratios) == 0 {
		return r
	}
	r.Median, r.P90, r.Best, r.Worst = quantile(ratios, 0.5), quantile(ratios, 0.9), slices.Min(ratios), slices.Max(ratios)
	r.OursNs, r.RefNs = quantile(oursNs, 0.5), quantile(refNs, 0.5)
	r.OursAllocs, r.OursBytes = allocs(ours)
	r.RefAllocs, r.RefBytes = allocs(ref)
	return r
}

// allocs returns the allocations and bytes per call of s.
func allocs(s Side) (n, bytes float64) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	const runs = 3
	for range runs {
		s.Run()
	}
	runtime.ReadMemStats(&after)
	calls := float64(runs * s.Calls)
	return float64(after.Mallocs-before.Mallocs) / calls, float64(after.TotalAlloc-before.TotalAlloc) / calls
}

// timed runs f reps times after a collection and returns the thread CPU time it took.
func timed(f func(), reps int) time.Duration {
	runtime.GC()
	start := cpuTime()
	for range reps {
		f()
	}
	return cpuTime() - start
}

// timedSteady runs f reps times and returns the thread CPU time it took, with the
// collector wherever the previous turn left it.
func timedSteady(f func(), reps int) time.Duration {
	start := cpuTime()
	for range reps {
		f()
	}
	return cpuTime() - start
}

// ThreadCPU is the calling thread's CPU time (the wall clock where the system has no
// thread clock): benchmarks that time parts of an iteration read it with their
// goroutine locked to its thread (runtime.LockOSThread), so that what the scheduler
// gives other processes of a loaded machine is not counted.
func ThreadCPU() time.Duration { return cpuTime() }

// quantile is the q-quantile of xs (nearest rank, the middle two averaged for the
// median of an even count).
func quantile(xs []float64, q float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if q == 0.5 && n%2 == 0 {
		return (s[n/2-1] + s[n/2]) / 2
	}
	return s[min(n-1, int(q*float64(n)))]
}

// Table renders results as aligned text, one shape a line, and the worst shape (the
// largest median of the results that are not a Reference) last.
func Table(rs []Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-32s %6s %6s %6s %6s %9s %9s %7s %7s %8s %8s\n", "shape", "median", "p90", "worst", "best", "ours-ns", "ref-ns", "ours-al", "ref-al", "ours-B", "ref-B")
	worst := -1
	for i, r := range rs {
		fmt.Fprintf(&b, "%-32s %6.3f %6.3f %6.3f %6.3f %9.1f %9.1f %7.2f %7.2f %8.0f %8.0f\n", r.Shape, r.Median, r.P90, r.Worst, r.Best, r.OursNs, r.RefNs, r.OursAllocs, r.RefAllocs, r.OursBytes, r.RefBytes)
		if !r.Reference && (worst < 0 || r.Median > rs[worst].Median) {
			worst = i
		}
	}
	if worst >= 0 {
		fmt.Fprintf(&b, "worst shape by median: %s (median %.3f, worst round %.3f)\n", rs[worst].Shape, rs[worst].Median, rs[worst].Worst)
	}
	return b.String()
}

// Names of the environment variables the speed tests read.
const (
	// EnableVar turns the speed tests on: "1" (or "time") for interleaved rounds of
	// thread CPU time, "instructions" for instruction counts under callgrind.
	EnableVar = "PODLIFE_SPEED"
	// RoundsVar sets the rounds of each comparison in the time mode (default 201).
	RoundsVar = "PODLIFE_SPEED_ROUNDS"
	// RoundAtVar sets how long the reference side of one round runs in the time
	// mode, as a Go duration (default 500µs). Short rounds start each side with the
	// caches a collection left; long ones measure a side in its steady state.
	RoundAtVar = "PODLIFE_SPEED_ROUNDAT"
)

// fromEnv returns the Options PODLIFE_SPEED_ROUNDS and PODLIFE_SPEED_ROUNDAT set: the
// zero Options when both are unset; a value that is not a positive decimal integer
// (rounds) or a positive duration (round length) fails tb.
func fromEnv(tb testing.TB) Options {
	tb.Helper()
	var o Options
	if s, ok := os.LookupEnv(RoundsVar); ok {
		v, err := strconv.Atoi(s)
		if err != nil || v < 1 {
			tb.Fatalf("%s=%q: want a positive decimal integer", RoundsVar, s)
		}
		o.Rounds = v
	}
	if s, ok := os.LookupEnv(RoundAtVar); ok {
		d, err := time.ParseDuration(s)
		if err != nil || d <= 0 {
			tb.Fatalf("%s=%q: want a positive duration such as 5ms", RoundAtVar, s)
		}
		o.RoundAt = d
	}
	return o
}
