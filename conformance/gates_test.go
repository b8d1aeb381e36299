package conformance

import (
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/go-logr/logr"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	cliflag "k8s.io/component-base/cli/flag"
	"k8s.io/component-base/featuregate"
	_ "k8s.io/kubernetes/pkg/features"

	"github.com/podlife/podlife"
	"github.com/podlife/podlife/conformance/internal/coverage"
	"github.com/podlife/podlife/conformance/internal/runenv"
)

func upstreamGates() featuregate.MutableVersionedFeatureGate {
	return utilfeature.DefaultFeatureGate.(featuregate.MutableVersionedFeatureGate)
}

// TestKnownGatesMatchUpstream checks the generated gate table against the gates a
// v1.37.2 server registers: every gate, its default, lock and stage, and its
// dependencies in upstream's order.
func TestKnownGatesMatchUpstream(t *testing.T) {
	gate := upstreamGates()
	all := gate.GetAll()
	versioned := gate.GetAllVersioned()
	for name := range versioned {
		ours, ok := podlife.LookupFeatureGate(string(name))
		if !ok {
			t.Errorf("%s: missing from podlife's table", name)
			continue
		}
		spec, atEmulation := all[name]
		if !atEmulation {
			if ours.PreRelease != "PRE-ALPHA" || ours.Default || ours.LockToDefault {
				t.Errorf("%s: not available at the emulated version, podlife has %+v", name, ours)
			}
			continue
		}
		if ours.Default != spec.Default || ours.LockToDefault != spec.LockToDefault || ours.PreRelease != string(spec.PreRelease) {
			t.Errorf("%s: podlife %+v, upstream %+v", name, ours, spec)
		}
	}
	if got, want := len(podlife.KnownFeatureGates()), len(versioned); got != want {
		t.Errorf("podlife knows %d gates, upstream registers %d", got, want)
	}
	deps := gate.Dependencies()
	for _, name := range podlife.KnownFeatureGates() {
		ours, _ := podlife.LookupFeatureGate(name)
		var want []string
		for _, d := range deps[featuregate.Feature(name)] {
			want = append(want, string(d))
		}
		if !reflect.DeepEqual(ours.Dependencies, want) {
			t.Errorf("%s: dependencies %q, upstream %q (in upstream's order)", name, ours.Dependencies, want)
		}
	}
}

// gateSeed returns PODLIFE_SEED or a fixed default; a malformed value fails t.
func gateSeed(t testing.TB) uint64 { return runenv.Seed(t, 1937) }

// overrideMaps generates override maps that reach every rule: random gates with random
// values, locked gates, gates not available yet, dependency breaks, AllAlpha/AllBeta,
// and unknown names.
func overrideMaps(n int, seed uint64) []map[string]bool {
	r := rand.New(rand.NewPCG(seed, 7))
	names := podlife.KnownFeatureGates()
	var locked, withDeps, depTargets, prealpha []string
	for _, name := range names {
		spec, _ := podlife.LookupFeatureGate(name)
		if spec.LockToDefault {
			locked = append(locked, name)
		}
		if spec.PreRelease == "PRE-ALPHA" {
			prealpha = append(prealpha, name)
		}
		if len(spec.Dependencies) > 0 {
			withDeps = append(withDeps, name)
			depTargets = append(depTargets, spec.Dependencies...)
		}
	}
	pickOf := func(xs []string) string { return xs[r.IntN(len(xs))] }
	unknown := []string{"NoSuchGate", "podlevelresources", "", "PodLevelResources ", "AllGA"}
	out := make([]map[string]bool, 0, n)
	for len(out) < n {
		m := map[string]bool{}
		for k := r.IntN(4); k > 0; k-- {
			m[pickOf(names)] = r.IntN(2) == 0
		}
		if r.IntN(4) == 0 && len(locked) > 0 {
			m[pickOf(locked)] = r.IntN(2) == 0
		}
		if r.IntN(3) == 0 {
			// Break a dependency: turn a dependency off, maybe turn its dependent on.
			m[pickOf(depTargets)] = false
			if r.IntN(2) == 0 {
				m[pickOf(withDeps)] = true
			}
		}
		if r.IntN(6) == 0 {
			m[pickOf([]string{"AllAlpha", "AllBeta"})] = r.IntN(2) == 0
		}
		if r.IntN(15) == 0 && len(prealpha) > 0 {
			m[pickOf(prealpha)] = r.IntN(2) == 0
		}
		if r.IntN(12) == 0 {
			m[pickOf(unknown)] = r.IntN(2) == 0
		}
		out = append(out, m)
	}
	// Fixed cases that must be in every run.
	out = append(out,
		nil,
		map[string]bool{},
		map[string]bool{"ContainerRestartRules": false},
		map[string]bool{"ContainerRestartRules": false, "RestartAllContainersOnContainerExits": false},
		map[string]bool{"PodLevelResources": false},
		map[string]bool{"InPlacePodVerticalScaling": false},
		map[string]bool{"AllAlpha": true},
		map[string]bool{"AllBeta": false},
		map[string]bool{"AllAlpha": true, "AllBeta": true},
		map[string]bool{"AllBeta": false, "ContainerRestartRules": true},
	)
	return out
}

func messages(err error) []string {
	var list []error
	var agg utilerrors.Aggregate
	switch {
	case errors.As(err, &agg):
		list = agg.Errors()
	default:
		if u, ok := err.(interface{ Unwrap() []error }); ok {
			list = u.Unwrap()
		} else {
			list = []error{err}
		}
	}
	var msgs []string
	for _, e := range list {
		msgs = append(msgs, e.Error())
	}
	sort.Strings(msgs)
	return msgs
}

func hasUnknown(m map[string]bool) bool {
	for name := range m {
		if _, ok := podlife.LookupFeatureGate(name); !ok {
			return true
		}
	}
	return false
}

// TestValidateAndEnabledMatchUpstream compares FeatureGates.Validate with SetFromMap on
// a fresh copy of the server's gate, and, when the map is accepted, Enabled for every
// gate.
//
// Coverage: at least a tenth of the maps accepted and a tenth refused, refusals of
// every kind (one message, several, unknown names) in at least 1% of the maps.
func TestValidateAndEnabledMatchUpstream(t *testing.T) {
	n := runenv.Count(t, 3000, 500)
	s := gateSeed(t)
	t.Logf("seed %d (override with PODLIFE_SEED)", s)
	var names []string // gates available at the emulated version (upstream's Enabled panics on others)
	for _, name := range podlife.KnownFeatureGates() {
		if _, ok := upstreamGates().GetAll()[featuregate.Feature(name)]; ok {
			names = append(names, name)
		}
	}
	var accepted, refused, exact, asSet, unknown int
	for i, m := range overrideMaps(n, s) {
		gate := upstreamGates().DeepCopy()
		upErr := gate.(interface {
			SetFromMapWithLogger(logr.Logger, map[string]bool) error
		}).SetFromMapWithLogger(logr.Discard(), m)
		ourErr := podlife.FeatureGates(m).Validate()
		desc := fmt.Sprintf("map %d %v", i, m)
		if (upErr == nil) != (ourErr == nil) {
			t.Errorf("%s: upstream error %v, podlife error %v", desc, upErr, ourErr)
			continue
		}
		if upErr == nil {
			accepted++
			for _, name := range names {
				if got, want := podlife.FeatureGates(m).Enabled(name), gate.Enabled(featuregate.Feature(name)); got != want {
					t.Errorf("%s: Enabled(%s) = %t, upstream %t", desc, name, got, want)
				}
			}
			continue
		}
		refused++
		switch compareRefusal(t, desc, m, upErr, ourErr) {
		case refusalUnknown:
			unknown++
		case refusalExact:
			exact++
		default:
			asSet++
		}
	}
	t.Logf("%d maps: %d accepted (Enabled compared for %d gates each), %d refused (%d exact message, %d as a set, %d with unknown names)",
		accepted+refused, accepted, len(names), refused, exact, asSet, unknown)
	coverage.Require(t, "maps compared", accepted+refused, n)
	coverage.RequireShare(t, "maps accepted", accepted, n, 0.1)
	coverage.RequireShare(t, "maps refused", refused, n, 0.1)
	coverage.RequireShare(t, "maps refused with one message", exact, n, 0.01)
	coverage.RequireShare(t, "maps refused with several messages", asSet, n, 0.01)
	coverage.RequireShare(t, "maps refused for an unknown name", unknown, n, 0.01)
}

// The ways compareRefusal compares a refusal.
const (
	refusalUnknown = iota // an unknown name: upstream names the first it meets in map order
	refusalExact          // one message: compared exactly
	refusalSet            // several messages: compared as a set, rendered as an aggregate
)

// compareRefusal fails t when podlife's refusal ourErr of the overrides m does not
// match upstream's SetFromMap refusal upErr, and says how they were compared.
func compareRefusal(t *testing.T, desc string, m map[string]bool, upErr, ourErr error) int {
	t.Helper()
	switch um := messages(upErr); {
	case hasUnknown(m):
		if !strings.Contains(ourErr.Error(), "unrecognized feature gate: ") {
			t.Errorf("%s: podlife %q names no unknown gate (upstream %q)", desc, ourErr, upErr)
		}
		return refusalUnknown
	case len(um) == 1:
		if ourErr.Error() != upErr.Error() {
			t.Errorf("%s:\npodlife  %q\nupstream %q", desc, ourErr, upErr)
		}
		return refusalExact
	default:
		if om := messages(ourErr); !reflect.DeepEqual(om, um) {
			t.Errorf("%s:\npodlife  %q\nupstream %q", desc, om, um)
		}
		if !strings.HasPrefix(ourErr.Error(), "[") || !strings.HasSuffix(ourErr.Error(), "]") {
			t.Errorf("%s: %q is not rendered as an aggregate", desc, ourErr)
		}
		return refusalSet
	}
}

// flagValue renders overrides as a --feature-gates value in a random order, with the
// spellings and spaces strconv.ParseBool and MapStringBool accept, and now and then
// a fault: a pair without "=", a value that is not a boolean, a pair of spaces.
func flagValue(r *rand.Rand, m map[string]bool) string {
	spell := map[bool][]string{true: {"true", "1", "t", "T", "TRUE", "True"}, false: {"false", "0", "f", "F", "FALSE", "False"}}
	pad := func() string { return []string{"", "", " ", "  "}[r.IntN(4)] }
	var pairs []string
	for name, v := range m {
		opts := spell[v]
		pairs = append(pairs, pad()+name+pad()+"="+pad()+opts[r.IntN(len(opts))]+pad())
	}
	if r.IntN(5) == 0 {
		pairs = append(pairs, "")
	}
	switch r.IntN(8) {
	case 0:
		pairs = append(pairs, []string{"PodLevelResources", " ", "a b"}[r.IntN(3)])
	case 1:
		pairs = append(pairs, "PodLevelResources="+[]string{"yes", "on", "", "true=false", "2"}[r.IntN(5)])
	}
	r.Shuffle(len(pairs), func(i, j int) { pairs[i], pairs[j] = pairs[j], pairs[i] })
	return strings.Join(pairs, ",")
}

// TestParseFeatureGatesMatchesUpstream compares ParseFeatureGates with what a
// component does with the same --feature-gates value: component-base's MapStringBool
// flag parses it (its error compared exactly), then SetFromMap on a fresh copy of the
// server's gate checks it (compared as TestValidateAndEnabledMatchUpstream compares).
// The accepted overrides must be the flag's map.
func TestParseFeatureGatesMatchesUpstream(t *testing.T) {
	n := runenv.Count(t, 3000, 500)
	s := gateSeed(t)
	r := rand.New(rand.NewPCG(s, 11))
	var parseErrors, accepted, refused int
	all := overrideMaps(n, s)
	for i, m := range all {
		value := flagValue(r, m)
		desc := fmt.Sprintf("value %d %q", i, value)
		ours, ourErr := podlife.ParseFeatureGates(value)
		parsed := map[string]bool{}
		if err := cliflag.NewMapStringBool(&parsed).Set(value); err != nil {
			parseErrors++
			if ourErr == nil || ourErr.Error() != err.Error() {
				t.Errorf("%s: upstream %q, podlife %v", desc, err, ourErr)
			}
			continue
		}
		upErr := upstreamGates().DeepCopy().(interface {
			SetFromMapWithLogger(logr.Logger, map[string]bool) error
		}).SetFromMapWithLogger(logr.Discard(), parsed)
		switch {
		case (upErr == nil) != (ourErr == nil):
			t.Errorf("%s: upstream error %v, podlife error %v", desc, upErr, ourErr)
		case upErr == nil:
			accepted++
			if !maps.Equal(ours, parsed) || (ours == nil) != (len(parsed) == 0) {
				t.Errorf("%s: podlife %#v, upstream's flag %#v", desc, ours, parsed)
			}
		default:
			refused++
			compareRefusal(t, desc, parsed, upErr, ourErr)
		}
	}
	t.Logf("%d values: %d refused by the flag, %d accepted, %d refused by SetFromMap", len(all), parseErrors, accepted, refused)
	coverage.Require(t, "values compared", parseErrors+accepted+refused, n)
	coverage.RequireShare(t, "values refused by the flag", parseErrors, n, 0.1)
	coverage.RequireShare(t, "values accepted", accepted, n, 0.1)
	coverage.RequireShare(t, "values refused by SetFromMap", refused, n, 0.1)
}
