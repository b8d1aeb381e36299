package speed

import (
	"bufio"
	"debug/elf"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Modes of PODLIFE_SPEED.
const (
	modeOff          = ""
	modeTime         = "time"
	modeInstructions = "instructions"
	// modeChild is the test re-run under callgrind by an instructions run.
	modeChild = "callgrind-child"
	// repsVar passes the child the Runs of each shape's segments.
	repsVar = "PODLIFE_SPEED_CHILD_REPS"
)

// Suite is one speed test: the shapes it compares, reported together. Its mode comes
// from PODLIFE_SPEED:
//
//   - "1" or "time": interleaved rounds of thread CPU time ([Compare]);
//   - "instructions": the test re-runs itself once under valgrind's callgrind (which
//     must be installed), with the collector off, and counts the instructions each
//     side executes on each shape's corpus — a figure the machine's load cannot move.
//     Allocations are counted as in the time mode; the collector's work is not.
//
// Unset, "" or "0", the test is skipped. A test holds one Suite.
type Suite struct {
	tb     testing.TB
	title  string
	mode   string
	opts   Options
	shapes []Result
	calls  [][2]int
	reps   []int // instructions mode: Runs a segment, per shape
	child  []int // child mode: the reps the parent chose, per shape
}

// NewSuite starts the speed test tb, titled title (what is compared with what), or
// skips it when PODLIFE_SPEED does not ask for one.
func NewSuite(tb testing.TB, title string) *Suite {
	tb.Helper()
	s := &Suite{tb: tb, title: title}
	switch v := os.Getenv(EnableVar); v {
	case "", "0", "false":
		tb.Skipf("set %s=1 (time) or %s=instructions", EnableVar, EnableVar)
	case "1", "true", modeTime:
		s.mode, s.opts = modeTime, fromEnv(tb)
	case modeInstructions:
		s.mode = v
	case modeChild:
		s.mode = v
		for _, f := range strings.Split(os.Getenv(repsVar), ",") {
			n, err := strconv.Atoi(f)
			if err != nil {
				tb.Fatalf("%s=%q: %v", repsVar, os.Getenv(repsVar), err)
			}
			s.child = append(s.child, n)
		}
	default:
		tb.Fatalf("%s=%q: want 1, time or instructions", EnableVar, v)
	}
	if s.mode == modeChild {
		// Every segment on one thread, counted alone (--separate-threads), with no
		// collection.
		runtime.LockOSThread()
		old := debug.SetGCPercent(-1)
		tb.Cleanup(func() {
			debug.SetGCPercent(old)
			runtime.UnlockOSThread()
		})
	}
	return s
}

// Steady makes the time mode's comparisons run with the collector in its steady
// state ([Options.Steady]); call it before Add. The instructions mode, which counts
// with the collector off, ignores it.
func (s *Suite) Steady() { s.opts.Steady = true }

// Add compares ours with ref on the corpus named shape.
func (s *Suite) Add(shape string, ours, ref Side) {
	s.tb.Helper()
	switch s.mode {
	case modeTime:
		s.shapes = append(s.shapes, Compare(shape, ours, ref, s.opts))
	case modeInstructions:
		r := Result{Shape: shape}
		r.OursAllocs, r.OursBytes = allocs(ours)
		r.RefAllocs, r.RefBytes = allocs(ref)
		s.shapes = append(s.shapes, r)
		s.calls = append(s.calls, [2]int{ours.Calls, ref.Calls})
		// Segments long enough that the runtime's own periodic work is lost in them:
		// about 5ms of the reference, natively.
		reps := 1
		for reps < 1<<20 && timed(ref.Run, reps) < 5*time.Millisecond {
			reps *= 2
		}
		s.reps = append(s.reps, reps)
	case modeChild:
		i := len(s.shapes)
		s.shapes = append(s.shapes, Result{})
		if i >= len(s.child) {
			s.tb.Fatalf("%s names %d shapes, the test has more", repsVar, len(s.child))
		}
		// Four dumps a shape: setup, ours, setup, ref (see Report).
		for _, side := range []Side{ours, ref} {
			side.Run() // warm: lazily built state is not counted
			runtime.GC()
			Mark()
			for range s.child[i] {
				side.Run()
			}
			Mark()
		}
	}
}

// AddReference compares ours with ref on the corpus named shape, as Add does, and
// marks the result a [Result.Reference]: a yardstick for the shapes (a floor), not a
// shape of its own.
func (s *Suite) AddReference(shape string, ours, ref Side) {
	s.tb.Helper()
	s.Add(shape, ours, ref)
	s.shapes[len(s.shapes)-1].Reference = true
}

// Mark is where callgrind dumps its counts (--dump-before) in a test re-run by
// [Callgrind]: the instructions between two calls of Mark are one segment.
//
//go:noinline
func Mark() {}

// markSymbol is Mark's symbol as callgrind sees it.
var markSymbol = func() string {
	pc, _, _, _ := runtime.Caller(0)
	name := runtime.FuncForPC(pc).Name() // …/internal/speed.init.func1
	return name[:strings.LastIndex(name, "/")] + "/speed.Mark"
}()

// Report logs the comparison table. In the instructions mode it first re-runs the
// test under callgrind and reads the counts.
func (s *Suite) Report() {
	s.tb.Helper()
	switch s.mode {
	case modeChild:
		return
	case modeInstructions:
		counts, log, err := s.callgrind()
		if err != nil {
			s.tb.Fatalf("callgrind: %v", err)
		}
		if len(counts) < 4*len(s.shapes) {
			s.tb.Fatalf("callgrind gave %d segments for %d shapes:\n%s", len(counts), len(s.shapes), log)
		}
		for i := range s.shapes {
			r := &s.shapes[i]
			ours, ref := counts[4*i+1], counts[4*i+3]
			r.OursNs = float64(ours) / float64(s.reps[i]*s.calls[i][0])
			r.RefNs = float64(ref) / float64(s.reps[i]*s.calls[i][1])
			r.Median = r.OursNs / r.RefNs
			r.P90, r.Worst, r.Best, r.Rounds = r.Median, r.Median, r.Median, 1
		}
		s.tb.Logf("%s (instructions under callgrind, collector off; ns columns are instructions per call):\n%s", s.title, Table(s.shapes))
	default:
		s.tb.Logf("%s (thread CPU time, interleaved rounds):\n%s", s.title, Table(s.shapes))
	}
}

// callgrind re-runs this test alone under callgrind in the child mode and returns
// the instruction count of each segment between marks.
func (s *Suite) callgrind() (counts []int64, log []byte, err error) {
	reps := make([]string, len(s.reps))
	for i, r := range s.reps {
		reps[i] = strconv.Itoa(r)
	}
	return Callgrind(s.tb, EnableVar+"="+modeChild, repsVar+"="+strings.Join(reps, ","))
}

// ErrNoValgrind is [Callgrind]'s error when valgrind is not installed.
var ErrNoValgrind = errors.New("valgrind is not installed (callgrind counts instructions)")

// Callgrind re-runs the test tb alone (by name, once) under valgrind's callgrind,
// with env (NAME=value) added to its environment so that it knows it is the child,
// and returns the instruction count of each segment between calls of [Mark], in
// order: the first is everything before the first Mark, the last everything after
// the last. Only the thread that calls Mark is counted (--separate-threads): the
// child should lock its goroutine to its thread and turn the collector off. The
// test binary must keep its symbol table (go test -ldflags=-s=false); log is the
// child's output.
func Callgrind(tb testing.TB, env ...string) (counts []int64, log []byte, err error) {
	valgrind, err := exec.LookPath("valgrind")
	if err != nil {
		return nil, nil, ErrNoValgrind
	}
	// callgrind finds Mark by the symbol table, which go test strips unless told.
	if ok, err := hasSymbol(os.Args[0], markSymbol); err != nil || !ok {
		return nil, nil, fmt.Errorf("%s has no symbol %s (%v): run go test with -ldflags=-s=false", os.Args[0], markSymbol, err)
	}
	dir := tb.TempDir()
	out := filepath.Join(dir, "cg.out")
	cmd := exec.Command(valgrind, "--tool=callgrind", "--separate-threads=yes", "--dump-before="+markSymbol, "--callgrind-out-file="+out,
		os.Args[0], "-test.run=^"+regexp.QuoteMeta(tb.Name())+"$", "-test.count=1", "-test.v")
	// Go's asynchronous preemption signals upset callgrind; and valgrind 3.19 cannot
	// decode RDTSCP on some CPUs (AMD EPYC among them), which the runtime's cputicks
	// executes whenever CPUID offers it: the runtime is told to read the clock with
	// RDTSC instead.
	cmd.Env = append(append(os.Environ(), env...), "GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off")
	log, err = cmd.CombinedOutput()
	if err != nil {
		return nil, log, fmt.Errorf("%v\n%s", err, log)
	}
	// One dump a mark, of the marking thread only: cg.out.<part>-<thread>.
	for part := 1; ; part++ {
		files, err := filepath.Glob(out + "." + strconv.Itoa(part) + "-*")
		if err != nil {
			return nil, log, err
		}
		if len(files) == 0 {
			break
		}
		if len(files) > 1 {
			return nil, log, fmt.Errorf("dump %d names several threads: %v", part, files)
		}
		n, err := totals(files[0])
		if err != nil {
			return nil, log, err
		}
		counts = append(counts, n)
	}
	return counts, log, nil
}

// hasSymbol reports whether the executable at path has the symbol name.
func hasSymbol(path, name string) (bool, error) {
	f, err := elf.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	syms, err := f.Symbols()
	if err != nil {
		return false, err
	}
	for _, s := range syms {
		if s.Name == name {
			return true, nil
		}
	}
	return false, nil
}

// totals reads the "totals:" line of a callgrind dump.
func totals(path string) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "totals:"); ok {
			return strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		}
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	return 0, fmt.Errorf("%s: no totals line", f.Name())
}
