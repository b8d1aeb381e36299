package apitest

import (
	"cmp"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
)

// work is what one call costs: bytes and allocations (deterministic), CPU time (the
// process's, garbage collection included) and wall-clock time.
type work struct {
	bytes, allocs uint64
	cpu, ns       float64
}

// best keeps, of several measurements, the least CPU time and the least wall time.
func (w *work) best(cpu, ns float64) {
	if w.cpu < 0 || cpu < w.cpu {
		w.cpu = cpu
	}
	if w.ns < 0 || ns < w.ns {
		w.ns = ns
	}
}

// countWork returns the bytes and allocations of one call of fn, the smallest of a
// few calls (a call's first run may fill a cache, e.g. a quantity's text).
func countWork(fn func()) (bytes, allocs uint64) {
	var before, after runtime.MemStats
	bytes, allocs = ^uint64(0), ^uint64(0)
	for range 2 {
		runtime.ReadMemStats(&before)
		fn()
		runtime.ReadMemStats(&after)
		bytes = min(bytes, after.TotalAlloc-before.TotalAlloc)
		allocs = min(allocs, after.Mallocs-before.Mallocs)
	}
	return bytes, allocs
}

// calibrate returns how many calls of fn last about batch.
func calibrate(fn func(), batch time.Duration) int {
	iters := 1
	for {
		start := time.Now()
		for range iters {
			fn()
		}
		if d := time.Since(start); d >= batch/4 || iters >= 1<<20 {
			return max(1, int(float64(iters)*float64(batch)/float64(max(d, time.Microsecond))))
		}
		iters *= 4
	}
}

// timePerCall returns the CPU and wall time per call of fn over iters calls.
func timePerCall(fn func(), iters int) (cpu, ns float64) {
	c0, start := cpuNanos(), time.Now()
	for range iters {
		fn()
	}
	return float64(cpuNanos()-c0) / float64(iters), float64(time.Since(start).Nanoseconds()) / float64(iters)
}

// baselines are what any function that reads the whole pod costs, measured beside the
// functions so that their time growth can be compared with the machine's: a scan
// that reads the name of every container and status (touching each once, allocating
// nothing) and a deep copy of the pod (reading and writing every field). When the pod
// outgrows the CPU caches (a container is about 1 KB; L2 and L3 are small and
// shared), the time per container of the bare scan grows too, so a linear function's
// time can grow more than tenfold from 1,000 to 10,000 elements.
var baselines = []call{
	{"baseline.scan", func(f *fixtures) any {
		n := 0
		for _, list := range [][]corev1.Container{f.running.Spec.InitContainers, f.running.Spec.Containers} {
			for i := range list {
				if list[i].Name == "absent" {
					n++
				}
			}
		}
		for _, list := range [][]corev1.ContainerStatus{f.running.Status.InitContainerStatuses, f.running.Status.ContainerStatuses} {
			for i := range list {
				if list[i].Name == "absent" {
					n++
				}
			}
		}
		return n
	}},
	{"baseline.DeepCopy", func(f *fixtures) any { return f.running.DeepCopy() }},
}

// coldCall returns the time of one call of fn made after reading evict (larger than
// the CPU caches), so that the call finds the pod in memory, not in a cache, whatever
// its size.
func coldCall(fn func(), evict []byte) (cpu, ns float64) {
	sum := byte(0)
	for i := 0; i < len(evict); i += 64 {
		sum += evict[i]
		evict[i] = sum
	}
	c0, start := cpuNanos(), time.Now()
	fn()
	return float64(cpuNanos() - c0), float64(time.Since(start).Nanoseconds())
}

// spreadFixtures returns the fixtures of shape at size n: one set, or with bytes > 0
// as many sets, each built anew (no string shared), as hold at least bytes of heap
// (at most 1,000 sets).
func spreadFixtures(shape string, n, bytes int) []*fixtures {
	if bytes <= 0 {
		return []*fixtures{hostileFixtures(shape, n)}
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	out := []*fixtures{hostileFixtures(shape, n)}
	runtime.GC()
	runtime.ReadMemStats(&after)
	// What the set keeps; what building it allocated if the collector freed
	// more than that meanwhile (an overestimate: fewer sets, never too many).
	each := int(after.HeapAlloc) - int(before.HeapAlloc)
	if each <= 0 {
		each = int(after.TotalAlloc - before.TotalAlloc)
	}
	for len(out)*max(each, 1) < bytes && len(out) < 1000 {
		out = append(out, hostileFixtures(shape, n))
	}
	return out
}

// cycle returns a function that calls c on the next of sets at each call.
func cycle(c call, sets []*fixtures) func() {
	next := 0
	return func() {
		_ = c.fn(sets[next])
		next++
		if next == len(sets) {
			next = 0
		}
	}
}

// growthRow is one function on one shape at 1,000 and 10,000 elements.
type growthRow struct {
	name, shape string
	small, big  work
}

func ratio(big, small float64) float64 { return big / max(small, 1) }

func (r growthRow) times() (cpu, wall, b, a float64) {
	return ratio(r.big.cpu, r.small.cpu), ratio(r.big.ns, r.small.ns), ratio(float64(r.big.bytes), float64(r.small.bytes)),
		ratio(float64(r.big.allocs), float64(r.small.allocs))
}

// selected returns the baselines and the calls that PODLIFE_GROWTH (sel) names: all
// for "1", else those whose name contains one of its comma-separated words.
func selected(sel string) []call {
	var out []call
	for _, c := range append(baselines, calls...) {
		if sel != "1" && !strings.HasPrefix(c.name, "baseline.") && !slices.ContainsFunc(strings.Split(sel, ","), func(w string) bool { return strings.Contains(c.name, w) }) {
			continue
		}
		out = append(out, c)
	}
	return out
}

// TestHostileGrowth prints, for every exported function and every hostile shape, how
// much the cost grows from 1,000 to 10,000 elements: time (the best of several
// batches, interleaved 1k/10k; the process's CPU time, which a busy machine does not
// inflate as it does the wall-clock time also shown), bytes and allocations (counted
// with runtime.MemStats on one call; deterministic). It is a measurement, not a
// check, and runs only when PODLIFE_GROWTH is set:
//
//	PODLIFE_GROWTH=1 go test ./internal/apitest -run HostileGrowth -v -timeout 1h
//
// PODLIFE_GROWTH=CALL,CALL (substrings of the call names, e.g. lifecycle.Plan) limits
// the calls, PODLIFE_GROWTH_SHAPES=names,quantities the shapes,
// PODLIFE_GROWTH_SIZES=3000,30000 the two sizes, PODLIFE_GROWTH_ROUNDS the time rounds
// (7, or 2 for a call slower than 3s a round; 0 measures bytes and allocations only,
// in about ten minutes) and PODLIFE_GROWTH_BATCH one round's length (20ms; 200ms
// gives steadier figures: a round then includes its share of garbage collection).
// PODLIFE_GROWTH_COLD=1 times single calls (the best of at least 15) each made after
// evicting the CPU caches, so that both sizes read the pod from memory: the growth of
// the work, without the step a pod that outgrows the caches takes. The table lists
// the worst growth first; linear growth is the ratio of the sizes (10).
// PODLIFE_GROWTH_SPREAD=256 times batches as the default mode does, but each call
// reads the next of several copies of the fixtures, built anew (strings included)
// until the copies of each size hold at least that many megabytes (or 1,000 copies):
// every call then finds its pod out of the caches at both sizes, while the code and
// the allocator stay warm.
// PODLIFE_GROWTH_GC=off pauses the garbage collector during each timed round and
// collects between rounds: the time is then the calls' own work, and the collector's
// share, which grows with the bytes allocated (shown linear), is left out.
// PODLIFE_GROWTH_INSTRUCTIONS=1 counts instructions under callgrind instead (see
// instructionGrowth).
func TestHostileGrowth(t *testing.T) {
	sel := os.Getenv("PODLIFE_GROWTH")
	if sel == "" {
		t.Skip("set PODLIFE_GROWTH=1 (or a call name) to measure the growth table")
	}
	rounds, batch, budget := 7, 20*time.Millisecond, 3*time.Second
	if v, err := strconv.Atoi(os.Getenv("PODLIFE_GROWTH_ROUNDS")); err == nil && v >= 0 {
		rounds = v
	}
	if v, err := time.ParseDuration(os.Getenv("PODLIFE_GROWTH_BATCH")); err == nil && v > 0 {
		batch = v
	}
	sizes := [2]int{1000, 10000}
	if v := strings.Split(os.Getenv("PODLIFE_GROWTH_SIZES"), ","); len(v) == 2 {
		a, errA := strconv.Atoi(v[0])
		b, errB := strconv.Atoi(v[1])
		if errA != nil || errB != nil || a <= 0 || b <= a {
			t.Fatalf("PODLIFE_GROWTH_SIZES=%s: want two sizes, the smaller first", os.Getenv("PODLIFE_GROWTH_SIZES"))
		}
		sizes = [2]int{a, b}
	}
	wanted := shapes
	if v := os.Getenv("PODLIFE_GROWTH_SHAPES"); v != "" {
		wanted = strings.Split(v, ",")
	}
	if mode := os.Getenv(instructionsVar); mode != "" && mode != "0" {
		instructionGrowth(t, mode, selected(sel), wanted, sizes)
		return
	}
	var cold []byte
	if os.Getenv("PODLIFE_GROWTH_COLD") != "" {
		cold = make([]byte, 128<<20)
		rounds = max(rounds, 15)
	}
	spread := 0
	if v := os.Getenv("PODLIFE_GROWTH_SPREAD"); v != "" {
		mb, err := strconv.Atoi(v)
		if err != nil || mb <= 0 {
			t.Fatalf("PODLIFE_GROWTH_SPREAD=%s: want a number of megabytes", v)
		}
		spread = mb << 20
	}
	var rows []growthRow
	gcOff := os.Getenv("PODLIFE_GROWTH_GC") == "off"
	timed := func(fn func(), iters int) (cpu, ns float64) {
		if !gcOff {
			return timePerCall(fn, iters)
		}
		runtime.GC()
		defer debug.SetGCPercent(debug.SetGCPercent(-1))
		return timePerCall(fn, iters)
	}
	for _, shape := range wanted {
		small, big := spreadFixtures(shape, sizes[0], spread), spreadFixtures(shape, sizes[1], spread)
		if spread > 0 {
			t.Logf("%s: %d sets of fixtures at %d, %d at %d", shape, len(small), sizes[0], len(big), sizes[1])
		}
		for _, c := range selected(sel) {
			r := growthRow{name: c.name, shape: shape}
			fs, fb := cycle(c, small), cycle(c, big)
			r.small.bytes, r.small.allocs = countWork(fs)
			r.big.bytes, r.big.allocs = countWork(fb)
			// Interleave the sizes so that a burst of load elsewhere hits both.
			r.small.cpu, r.small.ns, r.big.cpu, r.big.ns = -1, -1, -1, -1
			if rounds > 0 && cold != nil {
				start := time.Now()
				for k := 0; k < rounds && (k < 2 || time.Since(start) < budget); k++ {
					r.small.best(coldCall(fs, cold))
					r.big.best(coldCall(fb, cold))
				}
			} else if rounds > 0 {
				// Slow calls stop after two rounds once the budget is spent.
				start := time.Now()
				is, ib := calibrate(fs, batch), calibrate(fb, batch)
				for k := 0; k < rounds && (k < 2 || time.Since(start) < budget); k++ {
					r.small.best(timed(fs, is))
					r.big.best(timed(fb, ib))
				}
			}
			cx, wx, bx, ax := r.times()
			t.Logf("%s %s: cpu ×%.1f, wall ×%.1f, bytes ×%.1f, allocs ×%.1f", r.name, shape, cx, wx, bx, ax)
			rows = append(rows, r)
		}
	}
	worst := func(r growthRow) float64 { c, _, b, a := r.times(); return max(c, b, a) }
	slices.SortStableFunc(rows, func(a, b growthRow) int { return cmp.Compare(worst(b), worst(a)) })
	var sb strings.Builder
	if cold != nil {
		fmt.Fprintf(&sb, "growth from %d to %d elements (time: best of up to %d single calls, caches evicted before each)\n", sizes[0], sizes[1], rounds)
	} else {
		fmt.Fprintf(&sb, "growth from %d to %d elements (time: best of up to %d rounds of %v", sizes[0], sizes[1], rounds, batch)
		if spread > 0 {
			fmt.Fprintf(&sb, ", each call on the next of the sets of fixtures holding %d MB", spread>>20)
		}
		if gcOff {
			sb.WriteString(", collector paused")
		}
		sb.WriteString(")\n")
	}
	fmt.Fprintf(&sb, "%-45s %-11s %6s %6s %7s %7s %13s %12s %10s\n", "function", "shape", "cpu×", "wall×", "bytes×", "allocs×", "cpu ns@big", "B@big", "allocs@big")
	for _, r := range rows {
		cx, wx, bx, ax := r.times()
		fmt.Fprintf(&sb, "%-45s %-11s %6.1f %6.1f %7.1f %7.1f %13.0f %12d %10d\n", r.name, r.shape, cx, wx, bx, ax, r.big.cpu, r.big.bytes, r.big.allocs)
	}
	t.Log("\n" + sb.String())
}
