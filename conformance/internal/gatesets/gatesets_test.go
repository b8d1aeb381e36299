package gatesets

import (
	"testing"

	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/component-base/featuregate"
)

// TestApply: every standard set is accepted by both sides, applied upstream with the
// same resolution as podlife's, and the process-wide gate is restored afterwards.
func TestApply(t *testing.T) {
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
