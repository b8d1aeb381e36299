package podlife

import (
	"reflect"
	"testing"
)

// TestResolveGates checks that each field of gates answers the gate of its own name,
// with and without overrides, and that the shared defaults are the v1.37.2 ones.
func TestResolveGates(t *testing.T) {
	typ := reflect.TypeFor[gates]()
	if typ.NumField() == 0 {
		t.Fatal("no gates")
	}
	for i := range typ.NumField() {
		name := typ.Field(i).Name
		if _, ok := knownGates[name]; !ok {
			t.Errorf("field %s is not a known gate", name)
			continue
		}
		def := FeatureGates(nil).Enabled(name)
		if got := reflect.ValueOf(*resolveGates(nil)).Field(i).Bool(); got != def {
			t.Errorf("%s: default %v, want %v", name, got, def)
		}
		if got := reflect.ValueOf(*resolveGates(FeatureGates{})).Field(i).Bool(); got != def {
			t.Errorf("%s: empty overrides give %v, want %v", name, got, def)
		}
		flipped := resolveGates(FeatureGates{name: !def})
		v := reflect.ValueOf(*flipped)
		for j := range typ.NumField() {
			other := typ.Field(j).Name
			want := FeatureGates{name: !def}.Enabled(other)
			if got := v.Field(j).Bool(); got != want {
				t.Errorf("with %s=%v: %s is %v, want %v", name, !def, other, got, want)
			}
		}
	}
	if resolveGates(FeatureGates{"AllAlpha": true}).AtomicWriteVolumeUserFields != true {
		t.Error("AllAlpha does not reach an alpha gate")
	}
	if *resolveGates(nil) != resolveGatesSlow(nil) {
		t.Error("shared defaults changed")
	}
}
