// Package gatesets runs a differential test under several feature-gate
// configurations, the same way in every conformance package: upstream's process-wide
// gate is replaced, for the duration of a subtest, by a fresh copy of the v1.37.2 gate
// configured with SetFromMap exactly as a component started with --feature-gates is
// (so AllAlpha and AllBeta only set the gates a map leaves unset, and upstream refuses
// what a component refuses), and podlife gets the same map as its FeatureGates.
package gatesets

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/go-logr/logr"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/component-base/featuregate"
	_ "k8s.io/kubernetes/pkg/features" // registers the kube gates

	"github.com/podlife/podlife"
	"github.com/podlife/podlife/conformance/internal/runenv"
)

// Set is one cluster configuration: the overrides of its --feature-gates.
type Set struct {
	Name      string
	Overrides map[string]bool
}

// Features returns the overrides as podlife takes them.
func (s Set) Features() podlife.FeatureGates { return podlife.FeatureGates(s.Overrides) }

// Flag renders the overrides as the component's flag, in name order:
// --feature-gates=A=true,B=false.
func (s Set) Flag() string {
	var b strings.Builder
	b.WriteString("--feature-gates=")
	for i, name := range slices.Sorted(maps.Keys(s.Overrides)) {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%s=%t", name, s.Overrides[name])
	}
	return b.String()
}

// The gate sets every differential test runs under (issue 8): the defaults, every
// alpha and beta gate on (AllAlpha alone is refused upstream: beta gates on by
// default depend on alpha ones), every beta gate off, and the kubelet-side gates the
// lifecycle and restart packages read flipped away from their defaults.
var (
	Defaults = Set{Name: "defaults"}
	AllOn    = Set{Name: "AllAlpha+AllBeta", Overrides: map[string]bool{"AllAlpha": true, "AllBeta": true}}
	BetaOff  = Set{Name: "AllBeta=false", Overrides: map[string]bool{"AllBeta": false}}
	// LifecycleOff turns off the kubelet gates that are on by default and can be
	// turned off, and turns on the two that change the kubelet's answers when on.
	LifecycleOff = Set{Name: "lifecycle gates flipped", Overrides: map[string]bool{
		"ContainerRestartRules":                 false,
		"RestartAllContainersOnContainerExits":  false,
		"KubeletCrashLoopBackOffMax":            false,
		"ReduceDefaultCrashLoopBackOffDecay":    true,
		"ChangeContainerStatusOnKubeletRestart": true,
	}}
)

// Standard returns the four sets every differential test runs under, followed by
// extra, the package's own.
func Standard(extra ...Set) []Set {
	return append([]Set{Defaults, AllOn, BetaOff, LifecycleOff}, extra...)
}

// Apply makes upstream's process-wide gate a copy of the v1.37.2 gate with
// s.Overrides set by SetFromMap, until tb ends. It fails tb when upstream refuses the
// overrides, when podlife's FeatureGates.Validate disagrees about that, or when
// podlife's resolver answers any gate of its table differently from upstream's
// Enabled. Tests that call Apply must not run in parallel. An Apply inside another
// (a subtest of a test that applied a set) replaces the outer set rather than adding
// to it: the gate is always s over the v1.37.2 defaults, as podlife resolves s.
//
// Each set is built and checked once: later calls install the gate built the first
// time (nothing sets a gate after Apply, so it is still that copy). The fuzz targets
// apply a set per input, and building and checking a gate was three quarters of an
// input's time on the cheaper targets.
func Apply(tb testing.TB, s Set) {
	tb.Helper()
	base := utilfeature.DefaultMutableFeatureGate
	gate := buildOnce(tb, s)
	utilfeature.DefaultMutableFeatureGate, utilfeature.DefaultFeatureGate = gate, gate
	tb.Cleanup(func() {
		utilfeature.DefaultMutableFeatureGate, utilfeature.DefaultFeatureGate = base, base
	})
}

var (
	// processGate is upstream's process-wide gate as the process started.
	processGate = utilfeature.DefaultMutableFeatureGate
	builtMu     sync.Mutex
	// built holds the gate Apply built over processGate for each set, by name and
	// overrides.
	built = map[string]featuregate.MutableVersionedFeatureGate{}
)

// buildOnce returns the gate built over processGate for s, building it at the first call.
func buildOnce(tb testing.TB, s Set) featuregate.MutableVersionedFeatureGate {
	tb.Helper()
	key := s.Name + "\x00" + fmt.Sprint(s.Overrides) // fmt prints a map's keys sorted
	builtMu.Lock()
	defer builtMu.Unlock() // build may end tb's goroutine
	if gate := built[key]; gate != nil {
		return gate
	}
	gate := build(tb, processGate, s)
	built[key] = gate
	return gate
}

// build returns a copy of base with s.Overrides set, checked against podlife as
// Apply says.
func build(tb testing.TB, base featuregate.MutableVersionedFeatureGate, s Set) featuregate.MutableVersionedFeatureGate {
	tb.Helper()
	gate := base.DeepCopy()
	err := gate.(interface {
		SetFromMapWithLogger(logr.Logger, map[string]bool) error
	}).SetFromMapWithLogger(logr.Discard(), s.Overrides)
	if err != nil {
		tb.Fatalf("gate set %s: upstream refuses it: %v", s.Name, err)
	}
	if err := s.Features().Validate(); err != nil {
		tb.Fatalf("gate set %s: upstream accepts it, podlife refuses it: %v", s.Name, err)
	}
	// A test binary may register gates beyond those of an API server (component-base
	// metrics, controller-manager); podlife's table holds the server's, and those are
	// compared.
	all := gate.GetAll()
	for _, name := range podlife.KnownFeatureGates() {
		if _, ok := all[featuregate.Feature(name)]; !ok {
			continue
		}
		if got, want := s.Features().Enabled(name), gate.Enabled(featuregate.Feature(name)); got != want {
			tb.Fatalf("gate set %s: %s is %t for podlife, %t upstream", s.Name, name, got, want)
		}
	}
	return gate
}

// Run runs f in one subtest per set, in order and never in parallel, with the set
// applied upstream (Apply), and then under as many random sets (Random, a quarter of
// the gates flipped, drawn from the run's seed) as PODLIFE_RANDOM_GATES asks for.
func Run(t *testing.T, sets []Set, f func(t *testing.T, s Set)) {
	t.Helper()
	if n := runenv.RandomGates(t); n > 0 {
		sets = append(slices.Clone(sets), RandomSets(n, runenv.Seed(t, 0))...)
	}
	for _, s := range sets {
		t.Run(s.Name, func(t *testing.T) {
			Apply(t, s)
			f(t, s)
		})
	}
}

// RandomSets returns n random sets (Random, a quarter of the gates flipped) named
// "random 0", "random 1", …, the same for the same seed.
func RandomSets(n int, seed uint64) []Set {
	r := rand.New(rand.NewPCG(seed, 0x67617465))
	sets := make([]Set, n)
	for i := range sets {
		sets[i] = Random(fmt.Sprintf("random %d", i), 0.25, r.Float64)
	}
	return sets
}

// ForFuzzing returns the sets a fuzz target picks from: sets, then 16 random ones
// (RandomSets, a fixed seed, so that a kept input replays under the set it was
// found with).
func ForFuzzing(sets []Set) []Set {
	return append(slices.Clone(sets), RandomSets(16, 1937)...)
}

// Enabled reports whether upstream's current process-wide gate has the named gate on.
func Enabled(name string) bool {
	return utilfeature.DefaultFeatureGate.Enabled(featuregate.Feature(name))
}

// Random returns a random cluster configuration named name: each gate a server
// lets its --feature-gates change (not locked to its default, not pre-alpha; AllAlpha
// and AllBeta among them) flipped away from its default with probability flip, then
// dependencies mended as an operator would to have the server start: a gate on whose
// dependency is off turns the dependency on, or, when that dependency cannot be on,
// is turned off itself for good. draw returns uniform numbers in [0, 1), as
// rand.Float64 does.
func Random(name string, flip float64, draw func() float64) Set {
	names := podlife.KnownFeatureGates()
	spec := func(name string) podlife.FeatureGateSpec {
		s, _ := podlife.LookupFeatureGate(name)
		return s
	}
	settable := func(name string) bool {
		s := spec(name)
		return !s.LockToDefault && s.PreRelease != "PRE-ALPHA"
	}
	over := map[string]bool{}
	for _, name := range names {
		if settable(name) && draw() < flip {
			over[name] = !spec(name).Default
		}
	}
	// A gate set by name wins; AllAlpha and AllBeta set the gates of their stage
	// that are not; the rest keep their defaults.
	enabled := func(name string) bool {
		if v, ok := over[name]; ok {
			return v
		}
		stage := map[string]string{"ALPHA": "AllAlpha", "BETA": "AllBeta"}[spec(name).PreRelease]
		if v, ok := over[stage]; ok && stage != "" {
			return v
		}
		return spec(name).Default
	}
	// A gate turned off because a dependency cannot be on stays off, so that mending
	// ends: each gate is turned on at most once before it is blocked, if ever.
	blocked := map[string]bool{}
	for mended := true; mended; {
		mended = false
		for _, name := range names {
			if !enabled(name) {
				continue
			}
			for _, dep := range spec(name).Dependencies {
				if enabled(dep) {
					continue
				}
				if settable(dep) && !blocked[dep] {
					over[dep] = true
				} else {
					over[name], blocked[name] = false, true
				}
				mended = true
				break
			}
		}
	}
	return Set{Name: name, Overrides: over}
}
