package podlife_test

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/podlife/podlife"
)

func TestParseFeatureGates(t *testing.T) {
	for _, tc := range []struct {
		value string
		want  podlife.FeatureGates
		err   string
	}{
		{value: ""},
		{value: ",,,"},
		{value: "ContainerRestartRules=false,RestartAllContainersOnContainerExits=false", want: podlife.FeatureGates{"ContainerRestartRules": false, "RestartAllContainersOnContainerExits": false}},
		{value: " AllBeta = false ,,PodLevelResources=1", want: podlife.FeatureGates{"AllBeta": false, "PodLevelResources": true}},
		{value: "AllBeta=true,AllBeta=F", want: podlife.FeatureGates{"AllBeta": false}},
		{value: "PodLevelResources", err: "malformed pair, expect string=bool"},
		{value: "PodLevelResources=true, ", err: "malformed pair, expect string=bool"},
		{value: "PodLevelResources=maybe", err: `invalid value of PodLevelResources: maybe, err: strconv.ParseBool: parsing "maybe": invalid syntax`},
		{value: "PodLevelResources=true=false", err: `invalid value of PodLevelResources: true=false, err: strconv.ParseBool: parsing "true=false": invalid syntax`},
		{value: "NoSuchGate=true", err: "unrecognized feature gate: NoSuchGate"},
		{value: "=true", err: "unrecognized feature gate: "},
		{value: "InPlacePodVerticalScaling=false", err: "cannot set feature gate InPlacePodVerticalScaling to false, feature is locked to true"},
		{value: "ContainerRestartRules=false", err: "RestartAllContainersOnContainerExits is enabled, but depends on features that are disabled: [ContainerRestartRules]"},
	} {
		got, err := podlife.ParseFeatureGates(tc.value)
		switch {
		case tc.err != "" && (err == nil || err.Error() != tc.err):
			t.Errorf("ParseFeatureGates(%q) error = %v, want %q", tc.value, err, tc.err)
		case tc.err == "" && err != nil:
			t.Errorf("ParseFeatureGates(%q) error = %v", tc.value, err)
		case tc.err != "" && got != nil:
			t.Errorf("ParseFeatureGates(%q) = %v beside its error", tc.value, got)
		case tc.err == "" && (got == nil) != (tc.want == nil):
			t.Errorf("ParseFeatureGates(%q) = %#v, want %#v", tc.value, got, tc.want)
		case !maps.Equal(got, tc.want):
			t.Errorf("ParseFeatureGates(%q) = %v, want %v", tc.value, got, tc.want)
		}
	}
}

// FuzzParseFeatureGates: no panic, the same answer twice, an error and overrides
// never together, accepted overrides valid and read back from their own rendering,
// and nil exactly when the value holds no pair.
func FuzzParseFeatureGates(f *testing.F) {
	for _, s := range []string{"", ",", "AllBeta=true", " AllAlpha = true , AllBeta=true", "PodLevelResources=0,PodLevelResources=1",
		"x", "=", "A=B=C", "ContainerRestartRules=false", "InPlacePodVerticalScaling=false", "NoSuchGate=true", "PodLevelResources=TRUE,"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, value string) {
		g, err := podlife.ParseFeatureGates(value)
		g2, err2 := podlife.ParseFeatureGates(value)
		if (err == nil) != (err2 == nil) || err != nil && err.Error() != err2.Error() || !maps.Equal(g, g2) {
			t.Fatalf("%q: two answers: %v %v / %v %v", value, g, err, g2, err2)
		}
		if err != nil {
			if g != nil {
				t.Fatalf("%q: %v beside error %v", value, g, err)
			}
			return
		}
		if verr := g.Validate(); verr != nil {
			t.Fatalf("%q: accepted %v, which Validate refuses: %v", value, g, verr)
		}
		hasPair := strings.ContainsFunc(value, func(r rune) bool { return r != ',' })
		if (g == nil) == hasPair {
			t.Fatalf("%q: %#v; the value holds a pair: %t", value, g, hasPair)
		}
		var pairs []string
		for _, name := range slices.Sorted(maps.Keys(g)) {
			pairs = append(pairs, name+"="+strconv.FormatBool(g[name]))
		}
		back, err := podlife.ParseFeatureGates(strings.Join(pairs, ","))
		if err != nil || !maps.Equal(back, g) {
			t.Fatalf("%q: %v rendered as %q reads back as %v, %v", value, g, strings.Join(pairs, ","), back, err)
		}
	})
}
