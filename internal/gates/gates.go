package gates

import (
	"fmt"
	"sort"
	"strings"
)

// FeatureGates overrides feature gates by their upstream name (for example
// "ContainerRestartRules") on top of the defaults of Kubernetes v1.37.2.
//
// A nil or empty FeatureGates means a default v1.37.2 cluster. Every options struct in
// this module carries one, so gates are chosen per call and never globally.
type FeatureGates map[string]bool

// Enabled reports whether the named gate is on: the override when there is one,
// otherwise, for an alpha (beta) gate, the value of an "AllAlpha" ("AllBeta") override
// when there is one, otherwise the v1.37.2 default. An unknown name is off; call
// [FeatureGates.Validate] to catch misspellings.
//
// This is how a v1.37.2 component resolves gates after accepting the same overrides
// (--feature-gates); the answer for a map that Validate rejects is unspecified.
func (g FeatureGates) Enabled(name string) bool {
	if v, ok := g[name]; ok {
		return v
	}
	spec, ok := knownGates[name]
	if !ok {
		return false
	}
	if len(g) > 0 && name != allAlpha && name != allBeta {
		switch spec.PreRelease {
		case "ALPHA":
			if v, ok := g[allAlpha]; ok {
				return v
			}
		case "BETA":
			if v, ok := g[allBeta]; ok {
				return v
			}
		}
	}
	return spec.Default
}

// The special gates that set every alpha (beta) gate not set explicitly.
const (
	allAlpha = "AllAlpha"
	allBeta  = "AllBeta"
)

// Validate reports the overrides a v1.37.2 component would refuse, with upstream's
// wording (k8s.io/component-base featuregate/feature_gate.go SetFromMap): an
// unrecognized name, a locked gate set to its non-default value, a gate that does not
// exist yet at version 1.37, and an enabled gate whose dependencies are disabled
// ("X is enabled, but depends on features that are disabled: [A B]", dependencies in
// upstream's sorted order). Several errors are joined as upstream joins them
// ("[e1, e2]"); where upstream's order depends on map iteration, names are taken in
// sorted order so the message is deterministic. Like upstream, checking stops at the
// first unrecognized name.
//
// The special gates AllAlpha and AllBeta are supported as upstream supports them: they
// set every alpha (beta) gate that the map does not set itself.
func (g FeatureGates) Validate() error {
	var errs []error
	for _, name := range sortedKeys(g) {
		v := g[name]
		spec, ok := knownGates[name]
		if !ok {
			// Upstream stops at the first unrecognized name.
			errs = append(errs, fmt.Errorf("unrecognized feature gate: %s", name))
			return aggregate(errs)
		}
		if spec.LockToDefault && spec.Default != v {
			errs = append(errs, fmt.Errorf("cannot set feature gate %s to %t, feature is locked to %t", name, v, spec.Default))
			continue
		}
		if spec.PreRelease == "PRE-ALPHA" {
			errs = append(errs, fmt.Errorf("cannot set feature gate %s to %t, feature is PreAlpha at emulated version 1.37, min compatibility version 1.36", name, v))
		}
	}
	if len(errs) > 0 {
		return aggregate(errs)
	}
	for _, name := range sortedKeys(gateDependencies) {
		if !g.Enabled(name) {
			continue
		}
		var disabled []string
		for _, dep := range gateDependencies[name] {
			if !g.Enabled(dep) {
				disabled = append(disabled, dep)
			}
		}
		if len(disabled) > 0 {
			errs = append(errs, fmt.Errorf("%s is enabled, but depends on features that are disabled: [%s]", name, strings.Join(disabled, " ")))
		}
	}
	return aggregate(errs)
}

// Spec describes a gate as Kubernetes v1.37.2 registers it.
type Spec struct {
	// Default is the gate's value in a v1.37.2 cluster with no overrides.
	Default bool
	// LockToDefault means the gate cannot be set to anything but Default.
	LockToDefault bool
	// PreRelease is the stage at v1.37 as component-base spells it: "ALPHA", "BETA",
	// "" for GA, "DEPRECATED", or "PRE-ALPHA" for a gate registered for a later release.
	PreRelease string
	// Dependencies lists the gates that must be enabled for this one to be enabled.
	Dependencies []string
}

// Lookup returns the v1.37.2 registration of the named gate.
func Lookup(name string) (Spec, bool) {
	spec, ok := knownGates[name]
	if !ok {
		return Spec{}, false
	}
	spec.Dependencies = append([]string(nil), gateDependencies[name]...)
	return spec, true
}

// Known lists, sorted, every gate name Validate accepts.
func Known() []string { return sortedKeys(knownGates) }

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Errors is the error [FeatureGates.Validate] returns: one error per refused
// override. Error joins them as k8s.io/apimachinery's utilerrors.NewAggregate does
// (a single message alone, several as "[m1, m2]"); errors.Is and errors.As see each one
// through Unwrap.
type Errors []error

// Error renders the errors as upstream's aggregate error does.
func (e Errors) Error() string {
	switch len(e) {
	case 0:
		return ""
	case 1:
		return e[0].Error()
	}
	msgs := make([]string, len(e))
	for i, err := range e {
		msgs[i] = err.Error()
	}
	return "[" + strings.Join(msgs, ", ") + "]"
}

// Unwrap returns the individual errors.
func (e Errors) Unwrap() []error { return e }

func aggregate(errs []error) error {
	if len(errs) == 0 {
		return nil
	}
	return Errors(errs)
}
