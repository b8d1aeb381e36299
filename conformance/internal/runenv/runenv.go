// Package runenv reads the environment variables that size and seed the differential
// tests, the same way in every conformance package, and refuses what it cannot use:
//
//   - PODLIFE_SEED, the generator seed: an unsigned decimal integer;
//   - PODLIFE_N, the number of generated inputs each differential test compares per
//     gate set, in place of the test's own default: a decimal integer no smaller than
//     the minimum the test needs to reach its coverage requirements;
//   - PODLIFE_RANDOM_GATES, the number of random feature-gate configurations every
//     differential test run through gatesets.Run compares under, after its own: a
//     decimal integer, 0 by default.
//
// A malformed value, or a count that would shrink a run below its minimum (zero
// included), fails the test instead of being ignored. Variables that earlier versions
// read (PODLIFE_PODS, PODLIFE_COUNT) fail the test too, so that a stale setting never
// silently runs the default.
package runenv

import (
	"os"
	"strconv"
	"testing"
)

// Names of the variables.
const (
	SeedVar        = "PODLIFE_SEED"
	CountVar       = "PODLIFE_N"
	RandomGatesVar = "PODLIFE_RANDOM_GATES"
)

// retired are variables an earlier version read; setting one is an error.
var retired = []string{"PODLIFE_PODS", "PODLIFE_COUNT"}

// Seed returns PODLIFE_SEED, or def when it is unset. A value that is not an unsigned
// decimal integer fails tb.
func Seed(tb testing.TB, def uint64) uint64 {
	tb.Helper()
	s, ok := os.LookupEnv(SeedVar)
	if !ok {
		return def
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		tb.Fatalf("%s=%q: not an unsigned decimal integer: %v", SeedVar, s, err)
	}
	return v
}

// SeedChosen reports whether SeedVar chooses the seed of the run.
func SeedChosen() bool {
	_, ok := os.LookupEnv(SeedVar)
	return ok
}

// Least is a coverage minimum calibrated on the default seeds: n, or, under a seed
// SeedVar chooses, whose draws the minimum was not set for, 1 (what is counted must
// still be reached).
func Least(n int) int {
	if SeedChosen() && n > 1 {
		return 1
	}
	return n
}

// Count returns PODLIFE_N, or def when it is unset: the number of inputs a
// differential test compares per gate set. A malformed value, or one below min (the
// fewest inputs with which the test still reaches every branch it asserts), fails tb;
// so does any retired variable. def below min is a programming error and fails too.
func Count(tb testing.TB, def, min int) int {
	tb.Helper()
	for _, name := range retired {
		if v, ok := os.LookupEnv(name); ok {
			tb.Fatalf("%s=%q is no longer read; set %s instead", name, v, CountVar)
		}
	}
	if min < 1 {
		min = 1
	}
	if def < min {
		tb.Fatalf("test default count %d is below its own minimum %d", def, min)
	}
	s, ok := os.LookupEnv(CountVar)
	if !ok {
		return def
	}
	v, err := strconv.Atoi(s)
	if err != nil {
		tb.Fatalf("%s=%q: not a decimal integer: %v", CountVar, s, err)
	}
	if v < min {
		tb.Fatalf("%s=%d: this test needs at least %d inputs to reach the branches it asserts", CountVar, v, min)
	}
	return v
}

// Scale returns n scaled by the ratio of the run's count to the default: for a test
// whose secondary loops are sized relative to its main count. It never returns less
// than min.
func Scale(count, def, n, min int) int {
	v := int(int64(n) * int64(count) / int64(def))
	if v < min {
		return min
	}
	return v
}

// RandomGates returns PODLIFE_RANDOM_GATES, or 0 when it is unset. A value that is
// not a decimal integer, or is negative, fails tb.
func RandomGates(tb testing.TB) int {
	tb.Helper()
	s, ok := os.LookupEnv(RandomGatesVar)
	if !ok {
		return 0
	}
	v, err := strconv.Atoi(s)
	if err != nil || v < 0 {
		tb.Fatalf("%s=%q: not a non-negative decimal integer", RandomGatesVar, s)
	}
	return v
}
