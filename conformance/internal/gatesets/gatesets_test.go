package gatesets

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"testing"

	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/component-base/featuregate"

	"github.com/podlife/podlife"
	"github.com/podlife/podlife/conformance/internal/runenv"
)

// TestApply: every standard set is accepted by both sides, applied upstream with the
// same resolution as podlife's, and the process-wide gate is restored afterwards.
func TestApply(t *testing.T) {
	t.Setenv(runenv.RandomGatesVar, "0") // the four sets alone, whatever the run adds
	base := utilfeature.DefaultFeatureGate
	ran := 0
	Run(t, Standard(), func(t *testing.T, s Set) {
		ran++
		if s.Name == AllOn.Name && !Enabled("ContainerStopSignals") {
			t.Error("AllAlpha did not reach the alpha gate ContainerStopSignals upstream")
		}
		if s.Name == BetaOff.Name && Enabled("ContainerRestartRules") {
			t.Error("AllBeta=false left the beta gate ContainerRestartRules on upstream")
		}
		if s.Name == LifecycleOff.Name && Enabled("RestartAllContainersOnContainerExits") {
			t.Error("the lifecycle set left RestartAllContainersOnContainerExits on")
		}
	})
	if ran != 4 {
		t.Fatalf("ran %d sets, want 4", ran)
	}
	if utilfeature.DefaultFeatureGate != base || !Enabled("ContainerRestartRules") {
		t.Fatal("the process-wide gate was not restored")
	}
}

// TestApplyBuildsOnce: a set applied twice gets the gate built the first time, and
// that gate still answers as the set says after another set was applied in between.
func TestApplyBuildsOnce(t *testing.T) {
	var first, second featuregate.FeatureGate
	t.Run("first", func(t *testing.T) { Apply(t, BetaOff); first = utilfeature.DefaultFeatureGate })
	t.Run("other", func(t *testing.T) { Apply(t, LifecycleOff) })
	t.Run("second", func(t *testing.T) {
		Apply(t, BetaOff)
		second = utilfeature.DefaultFeatureGate
		if Enabled("ReduceDefaultCrashLoopBackOffDecay") || Enabled("ContainerRestartRules") {
			t.Error("AllBeta=false applied again answers as another set")
		}
	})
	if first == nil || first != second {
		t.Error("the second Apply of a set built another gate")
	}
}

// TestApplyNested: a set applied inside another replaces it (the inner set's gate,
// as podlife resolves that set alone), and the outer set's gate is back when the
// inner test ends.
func TestApplyNested(t *testing.T) {
	Apply(t, LifecycleOff)
	outer := utilfeature.DefaultFeatureGate
	t.Run("inner", func(t *testing.T) {
		Apply(t, BetaOff)
		if Enabled("ReduceDefaultCrashLoopBackOffDecay") {
			t.Error("the inner set kept the outer set's ReduceDefaultCrashLoopBackOffDecay")
		}
		if Enabled("ContainerRestartRules") {
			t.Error("AllBeta=false applied inside another set left ContainerRestartRules on")
		}
	})
	if utilfeature.DefaultFeatureGate != outer || !Enabled("ReduceDefaultCrashLoopBackOffDecay") {
		t.Error("the outer set's gate was not restored after the inner test")
	}
}

// TestRandom: random sets, AllAlpha and AllBeta among their flips, are accepted by
// both sides (Apply fails otherwise), the same draws give the same set, and a set
// flips about the share of the settable gates it is asked to.
func TestRandom(t *testing.T) {
	settable := 0
	for _, name := range podlife.KnownFeatureGates() {
		if s, _ := podlife.LookupFeatureGate(name); !s.LockToDefault && s.PreRelease != "PRE-ALPHA" {
			settable++
		}
	}
	special := 0
	for seed := range uint64(60) {
		s := Random("random", 0.25, rand.New(rand.NewPCG(seed, 1)).Float64)
		if again := Random("random", 0.25, rand.New(rand.NewPCG(seed, 1)).Float64); !maps.Equal(s.Overrides, again.Overrides) {
			t.Fatalf("seed %d: the same draws gave two sets", seed)
		}
		if n := len(s.Overrides); n < settable/8 || n > settable/2 {
			t.Errorf("seed %d: %d of %d settable gates set, want about a quarter", seed, n, settable)
		}
		if _, ok := s.Overrides["AllAlpha"]; ok {
			special++
		} else if _, ok := s.Overrides["AllBeta"]; ok {
			special++
		}
		t.Run(fmt.Sprint(seed), func(t *testing.T) { Apply(t, s) })
	}
	if special == 0 {
		t.Error("no set flipped AllAlpha or AllBeta")
	}
}
