package podlife

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/podlife/podlife/internal/gates"
)

// FeatureGates overrides feature gates by their upstream name (for example
// "ContainerRestartRules") on top of the defaults of Kubernetes v1.37.2. A nil or
// empty FeatureGates means a default v1.37.2 cluster. Every options struct in this
// module carries one, so gates are chosen per call and never globally.
//
// Its methods:
//
//   - Enabled(name) reports whether a gate is on as a v1.37.2 component resolves it:
//     the override when there is one, otherwise AllAlpha (AllBeta) for an alpha
//     (beta) gate when set, otherwise the v1.37.2 default; an unknown name is off.
//   - Validate() returns the errors a v1.37.2 component gives for the same
//     --feature-gates (k8s.io/component-base featuregate SetFromMap): unknown names,
//     locked gates set to their non-default value, gates not available at 1.37 and
//     enabled gates whose dependencies are disabled, in upstream's words, as a
//     [GateErrors]. AllAlpha alone is refused as upstream refuses it (beta gates
//     that depend on alpha ones); {"AllAlpha": true, "AllBeta": true} is accepted.
//
// Every package of this module resolves gates the same way, through one resolver.
type FeatureGates = gates.FeatureGates

// FeatureGateSpec describes a gate as Kubernetes v1.37.2 registers it: Default,
// LockToDefault, PreRelease ("ALPHA", "BETA", "" for GA, "DEPRECATED", or
// "PRE-ALPHA" for a gate registered for a later release) and Dependencies.
type FeatureGateSpec = gates.Spec

// GateErrors is the error [FeatureGates] Validate returns: one error per refused
// override. Its Error method joins them as apimachinery's utilerrors.NewAggregate
// does ("[m1, m2]"); errors.Is and errors.As see each one through Unwrap.
type GateErrors = gates.Errors

// LookupFeatureGate returns the v1.37.2 registration of the named gate.
func LookupFeatureGate(name string) (FeatureGateSpec, bool) { return gates.Lookup(name) }

// KnownFeatureGates lists, sorted, every gate name FeatureGates.Validate accepts.
func KnownFeatureGates() []string { return gates.Known() }

// ParseFeatureGates reads the value of a --feature-gates flag ("A=true,B=false") as a
// v1.37.2 component reads its own: the pairs as k8s.io/component-base's MapStringBool
// flag reads them (empty pairs skipped, each name and value trimmed of spaces, the
// value as strconv.ParseBool reads it, a later pair for a name replacing an earlier
// one), with its messages ("malformed pair, expect string=bool", "invalid value of
// A: maybe, err: ..."), then the overrides checked by [FeatureGates] Validate, as the
// component's SetFromMap checks them. A value holding no pair gives nil: a default
// cluster.
func ParseFeatureGates(value string) (FeatureGates, error) {
	var g FeatureGates
	for pair := range strings.SplitSeq(value, ",") {
		if pair == "" {
			continue
		}
		name, v, ok := strings.Cut(pair, "=")
		if !ok {
			return nil, errors.New("malformed pair, expect string=bool")
		}
		name, v = strings.TrimSpace(name), strings.TrimSpace(v)
		on, err := strconv.ParseBool(v)
		if err != nil {
			return nil, fmt.Errorf("invalid value of %s: %s, err: %v", name, v, err)
		}
		if g == nil {
			g = FeatureGates{}
		}
		g[name] = on
	}
	if err := g.Validate(); err != nil {
		return nil, err
	}
	return g, nil
}
