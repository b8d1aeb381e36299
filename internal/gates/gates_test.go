package gates

import (
	"errors"
	"reflect"
	"slices"
	"testing"
)

func TestFeatureGatesEnabled(t *testing.T) {
	cases := []struct {
		name  string
		gates FeatureGates
		gate  string
		want  bool
	}{
		{"nil map, beta gate on by default", nil, "PodLevelResources", true},
		{"nil map, alpha gate off by default", nil, "ContainerStopSignals", false},
		{"nil map, GA locked gate", nil, "InPlacePodVerticalScaling", true},
		{"override wins", FeatureGates{"PodLevelResources": false}, "PodLevelResources", false},
		{"other overrides do not matter", FeatureGates{"ContainerStopSignals": true}, "PodLevelResources", true},
		{"unknown name is off", nil, "NoSuchGate", false},
		{"unknown name as override reads back", FeatureGates{"NoSuchGate": true}, "NoSuchGate", true},
		{"AllAlpha turns alpha gates on", FeatureGates{"AllAlpha": true}, "ContainerStopSignals", true},
		{"AllAlpha leaves beta gates alone", FeatureGates{"AllAlpha": false}, "PodLevelResources", true},
		{"explicit override beats AllAlpha", FeatureGates{"AllAlpha": true, "ContainerStopSignals": false}, "ContainerStopSignals", false},
		{"AllBeta turns beta gates off", FeatureGates{"AllBeta": false}, "ContainerRestartRules", false},
		{"AllBeta leaves GA gates alone", FeatureGates{"AllBeta": false}, "ImageVolume", true},
		{"AllBeta reads back itself", FeatureGates{"AllBeta": true}, "AllBeta", true},
		{"AllAlpha is not set by AllAlpha's default", nil, "AllAlpha", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.gates.Enabled(tc.gate); got != tc.want {
				t.Errorf("Enabled(%q) = %t, want %t", tc.gate, got, tc.want)
			}
		})
	}
}

func TestFeatureGatesValidate(t *testing.T) {
	cases := []struct {
		name  string
		gates FeatureGates
		want  string // "" for no error
		n     int    // number of individual errors
	}{
		{"nil", nil, "", 0},
		{"empty", FeatureGates{}, "", 0},
		{"default values restated", FeatureGates{"PodLevelResources": true, "InPlacePodVerticalScaling": true}, "", 0},
		{"unknown", FeatureGates{"NoSuchGate": true}, "unrecognized feature gate: NoSuchGate", 1},
		{"names are case sensitive", FeatureGates{"podlevelresources": true}, "unrecognized feature gate: podlevelresources", 1},
		{"locked", FeatureGates{"InPlacePodVerticalScaling": false},
			"cannot set feature gate InPlacePodVerticalScaling to false, feature is locked to true", 1},
		{"dependency broken (upstream spec example)", FeatureGates{"ContainerRestartRules": false},
			"RestartAllContainersOnContainerExits is enabled, but depends on features that are disabled: [ContainerRestartRules]", 1},
		{"dependency turned off with its dependent", FeatureGates{"ContainerRestartRules": false, "RestartAllContainersOnContainerExits": false}, "", 0},
		{"PodLevelResources off alone breaks three dependents", FeatureGates{"PodLevelResources": false},
			"[InPlacePodLevelResourcesVerticalScaling is enabled, but depends on features that are disabled: [PodLevelResources], " +
				"PodLevelResourcesFixDefaulting is enabled, but depends on features that are disabled: [PodLevelResources], " +
				"PodLevelResourcesFixKubeletQOSClass is enabled, but depends on features that are disabled: [PodLevelResources]]", 3},
		{"PodLevelResources off with its dependents", FeatureGates{"PodLevelResources": false, "PodLevelResourcesFixDefaulting": false,
			"PodLevelResourcesFixKubeletQOSClass": false, "InPlacePodLevelResourcesVerticalScaling": false}, "", 0},
		{"alpha gate turned on with its dependencies on", FeatureGates{"ImageVolumeWithDigest": true}, "", 0},
		{"two locked gates", FeatureGates{"ImageVolume": false, "InPlacePodVerticalScaling": false},
			"[cannot set feature gate ImageVolume to false, feature is locked to true, cannot set feature gate InPlacePodVerticalScaling to false, feature is locked to true]", 2},
		{"lock errors hide dependency errors", FeatureGates{"ImageVolume": false, "ContainerRestartRules": false},
			"cannot set feature gate ImageVolume to false, feature is locked to true", 1},
		{"checking stops at the unknown name", FeatureGates{"ImageVolume": false, "NoSuchGate": true, "PodLevelResources": false},
			"[cannot set feature gate ImageVolume to false, feature is locked to true, unrecognized feature gate: NoSuchGate]", 2},
		{"AllAlpha accepted", FeatureGates{"AllAlpha": false}, "", 0},
		{"AllBeta=false breaks no dependency", FeatureGates{"AllBeta": false}, "", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := cloneGates(tc.gates)
			err := tc.gates.Validate()
			if !reflect.DeepEqual(before, tc.gates) {
				t.Error("Validate modified the map")
			}
			if tc.want == "" {
				if err != nil {
					t.Fatalf("unexpected error %q", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("no error, want %q", tc.want)
			}
			if err.Error() != tc.want {
				t.Errorf("got  %q\nwant %q", err, tc.want)
			}
			var list Errors
			if !errors.As(err, &list) || len(list) != tc.n {
				t.Errorf("got %d errors (%T), want %d", len(list), err, tc.n)
			}
		})
	}
}

func TestLookupFeatureGate(t *testing.T) {
	spec, ok := Lookup("InPlacePodLevelResourcesVerticalScaling")
	if !ok {
		t.Fatal("not found")
	}
	want := Spec{Default: true, PreRelease: "BETA",
		Dependencies: []string{"InPlacePodVerticalScaling", "NodeDeclaredFeatures", "PodLevelResources"}}
	if !reflect.DeepEqual(spec, want) {
		t.Errorf("got %+v, want %+v", spec, want)
	}
	// The returned slice is a copy.
	spec.Dependencies[0] = "X"
	if again, _ := Lookup("InPlacePodLevelResourcesVerticalScaling"); again.Dependencies[0] != "InPlacePodVerticalScaling" {
		t.Error("Lookup shares its table")
	}
	if _, ok := Lookup("NoSuchGate"); ok {
		t.Error("unknown gate found")
	}
	names := Known()
	if !slices.IsSorted(names) || !slices.Contains(names, "PodLevelResources") || !slices.Contains(names, "AllAlpha") {
		t.Errorf("Known: sorted=%t, %d names", slices.IsSorted(names), len(names))
	}
}

func cloneGates(g FeatureGates) FeatureGates {
	if g == nil {
		return nil
	}
	out := FeatureGates{}
	for k, v := range g {
		out[k] = v
	}
	return out
}

// FuzzFeatureGates checks, for any override map, that Validate and Enabled do not
// panic, do not modify the map, are deterministic, and that Validate's verdict agrees
// with the rules: an accepted map names known gates only and respects locks and
// dependencies as Enabled reports them.
func FuzzFeatureGates(f *testing.F) {
	f.Add("PodLevelResources", false, "ContainerRestartRules", true, "AllAlpha", true)
	f.Add("InPlacePodVerticalScaling", false, "NoSuchGate", true, "", false)
	f.Add("AllBeta", false, "ContainerRestartRules", true, "ImageVolumeWithDigest", true)
	names := Known()
	f.Fuzz(func(t *testing.T, a string, av bool, b string, bv bool, c string, cv bool) {
		g := FeatureGates{a: av, b: bv, c: cv}
		// Map arbitrary strings onto known names half of the time.
		for _, s := range []string{a, b, c} {
			if len(s) > 0 && s[0]%2 == 0 {
				g[names[int(s[0])*len(s)%len(names)]] = len(s)%2 == 0
			}
		}
		before := cloneGates(g)
		err1, err2 := g.Validate(), g.Validate()
		if !reflect.DeepEqual(before, g) {
			t.Fatal("Validate modified the map")
		}
		if (err1 == nil) != (err2 == nil) || (err1 != nil && err1.Error() != err2.Error()) {
			t.Fatalf("not deterministic: %v / %v", err1, err2)
		}
		if err1 != nil {
			return
		}
		for name, v := range g {
			spec, ok := Lookup(name)
			if !ok {
				t.Fatalf("accepted unknown gate %q", name)
			}
			if spec.LockToDefault && v != spec.Default {
				t.Fatalf("accepted locked gate %s=%t", name, v)
			}
			if g.Enabled(name) != v {
				t.Fatalf("Enabled(%s) != override", name)
			}
		}
		for _, name := range names {
			spec, _ := Lookup(name)
			if !g.Enabled(name) {
				continue
			}
			for _, dep := range spec.Dependencies {
				if !g.Enabled(dep) {
					t.Fatalf("accepted %s enabled with %s disabled", name, dep)
				}
			}
		}
	})
}
