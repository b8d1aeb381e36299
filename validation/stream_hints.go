package validation

import (
	"maps"
	"slices"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/podlife/podlife"
	"github.com/podlife/podlife/internal/gates"
)

// GateHint names a feature gate that is off and with which some of an object's errors
// disappear.
type GateHint struct {
	// Gate is the gate to turn on.
	Gate string
	// Dependencies are the gates that must be turned on with it (upstream refuses the
	// gate alone).
	Dependencies []string
	// Fixed are the errors that disappear with the gate on.
	Fixed field.ErrorList
}

// FeatureGateHints finds the feature gates that would make some of obj's create
// errors go away: for each gate that is off under opts.Features and that a v1.37.2
// server lets one turn on (not locked, available at 1.37; with its dependencies when it
// has some), it validates obj again with the gate on and keeps the gate when errors of
// the first answer are gone. Only errors that disappear are claimed; errors the gate
// adds are not reported. Gates are returned in name order.
//
// Validation reads few of the few hundred gates, so candidates that resolve to the
// same gate values share one validation, and those that change no gate validation
// reads are not validated again: at most a few dozen validations, one per distinct
// set of gate values. It is still meant for objects already known to be invalid.
func FeatureGateHints(obj runtime.Object, opts Options) []GateHint {
	return featureGateHints(obj, opts, ValidateObjectCreate)
}

// featureGateHints is FeatureGateHints with the validation passed in, so that a test
// can count the validations.
//
// Exactness: ValidateObjectCreate reads the feature map only through
// Features.Resolve() (a gates.Set: every gate the module's packages read as a field,
// AllAlpha, AllBeta and the defaults applied) and, for the kinds a server serves,
// Features.Enabled(k.gate) (stream_served.go); len(Features) == 0 shortcuts
// (resolveOptions, restart, lifecycle) take the answer Resolve gives an empty map.
// The one other gate read by name, KubeletEnsureSecretPulledImages in
// lifecycle/simulate_runtime.go, is in a package validation does not import
// (TestNoDirectGateLookups in internal/gates fails when a new Enabled call appears).
// So two maps with the same gateKey get the same errors: a candidate whose key is the
// first answer's key fixes nothing, and candidates with equal keys fix the same errors.
func featureGateHints(obj runtime.Object, opts Options, validate func(runtime.Object, Options) field.ErrorList) []GateHint {
	before := validate(obj, opts)
	if len(before) == 0 {
		return nil
	}
	beforeText := errorTexts(before)
	base := keyOf(opts.Features)
	fixedBy := map[gateKey]field.ErrorList{}
	var hints []GateHint
	eachCandidate(opts.Features, func(gate string, features podlife.FeatureGates, deps []string) {
		key := keyOf(features)
		if key == base {
			return
		}
		fixed, done := fixedBy[key]
		if !done {
			o := opts
			o.Features = features
			fixed = vanished(before, beforeText, validate(obj, o))
			fixedBy[key] = fixed
		}
		if len(fixed) > 0 {
			// Each hint owns its list, as if validated on its own.
			hints = append(hints, GateHint{Gate: gate, Dependencies: deps, Fixed: slices.Clone(fixed)})
		}
	})
	return hints
}

// eachCandidate calls f, in KnownFeatureGates order, for every gate FeatureGateHints
// tries: a gate off in features, neither locked nor registered for a later release,
// whose map with it turned on (and deps, its dependencies that were off) a v1.37.2
// server accepts; with is that map.
func eachCandidate(features podlife.FeatureGates, f func(gate string, with podlife.FeatureGates, deps []string)) {
	for _, gate := range podlife.KnownFeatureGates() {
		spec, _ := podlife.LookupFeatureGate(gate)
		if features.Enabled(gate) || spec.LockToDefault || spec.PreRelease == "PRE-ALPHA" {
			continue
		}
		if with, deps := withGate(features, gate, spec.Dependencies); with != nil {
			f(gate, with, deps)
		}
	}
}

// gateKey is every gate value validation reads of a feature map: the resolved Set and
// the gates of the served kinds.
type gateKey struct {
	set    gates.Set
	served [len(servedGates)]bool
}

// servedGates are the distinct gates of servedKinds (zz_generated_served.go);
// TestServedGatesComplete checks the list.
var servedGates = [...]string{"ClusterTrustBundle", "PodCertificateRequest", "StorageVersionMigrator"}

// keyOf returns the gate values validation reads of features.
func keyOf(features podlife.FeatureGates) gateKey {
	k := gateKey{set: features.Resolve()}
	for i, g := range servedGates {
		k.served[i] = features.Enabled(g)
	}
	return k
}

// withGate returns features with gate turned on, and its dependencies that were off,
// or nil when a v1.37.2 server would refuse the result.
func withGate(features podlife.FeatureGates, gate string, dependencies []string) (podlife.FeatureGates, []string) {
	out := maps.Clone(features)
	if out == nil {
		out = podlife.FeatureGates{}
	}
	out[gate] = true
	var deps []string
	for _, d := range dependencies {
		if !out.Enabled(d) {
			out[d] = true
			deps = append(deps, d)
		}
	}
	if out.Validate() != nil {
		return nil, nil
	}
	return out, deps
}

// errorTexts returns the text of each error, as vanished compares them.
func errorTexts(errs field.ErrorList) []string {
	out := make([]string, len(errs))
	for i, e := range errs {
		out[i] = e.Error()
	}
	return out
}

// vanished returns the errors of before (whose texts are beforeText) that after does
// not have: an error of before is kept while after has an error of the same text not
// matched yet, in before's order.
func vanished(before field.ErrorList, beforeText []string, after field.ErrorList) field.ErrorList {
	left := make(map[string]int, len(after))
	for _, e := range after {
		left[e.Error()]++
	}
	var out field.ErrorList
	for i, e := range before {
		if left[beforeText[i]] > 0 {
			left[beforeText[i]]--
			continue
		}
		out = append(out, e)
	}
	return out
}
