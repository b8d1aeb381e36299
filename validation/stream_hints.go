package validation

import (
	"maps"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/podlife/podlife"
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
// It validates obj once per candidate gate, a few hundred times: call it for objects
// already known to be invalid.
func FeatureGateHints(obj runtime.Object, opts Options) []GateHint {
	before := ValidateObjectCreate(obj, opts)
	if len(before) == 0 {
		return nil
	}
	var hints []GateHint
	for _, gate := range podlife.KnownFeatureGates() {
		spec, _ := podlife.LookupFeatureGate(gate)
		if opts.Features.Enabled(gate) || spec.LockToDefault || spec.PreRelease == "PRE-ALPHA" {
			continue
		}
		features, deps := withGate(opts.Features, gate, spec.Dependencies)
		if features == nil {
			continue
		}
		o := opts
		o.Features = features
		after := ValidateObjectCreate(obj, o)
		if fixed := vanished(before, after); len(fixed) > 0 {
			hints = append(hints, GateHint{Gate: gate, Dependencies: deps, Fixed: fixed})
		}
	}
	return hints
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

// vanished returns the errors of before that after does not have.
func vanished(before, after field.ErrorList) field.ErrorList {
	left := make(map[string]int, len(after))
	for _, e := range after {
		left[e.Error()]++
	}
	var out field.ErrorList
	for _, e := range before {
		if left[e.Error()] > 0 {
			left[e.Error()]--
			continue
		}
		out = append(out, e)
	}
	return out
}
