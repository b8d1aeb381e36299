package validation

import (
	"reflect"
	"testing"

	v1 "k8s.io/api/core/v1"
	core "k8s.io/kubernetes/pkg/apis/core"
)

// TestInternalSpecMirrorsV1 checks what podlife's rendering of the spec diff relies
// on: every struct reachable from the internal core.PodSpec has the fields of its v1
// counterpart, under the same Go names, in the same order, with the same embedding.
func TestInternalSpecMirrorsV1(t *testing.T) {
	seen := map[reflect.Type]bool{}
	var walk func(a, b reflect.Type, path string)
	walk = func(a, b reflect.Type, path string) {
		for a.Kind() == reflect.Pointer || a.Kind() == reflect.Slice || a.Kind() == reflect.Map {
			if a.Kind() != b.Kind() {
				t.Errorf("%s: v1 %v, internal %v", path, a, b)
				return
			}
			a, b = a.Elem(), b.Elem()
		}
		if a.Kind() != b.Kind() {
			t.Errorf("%s: v1 %v, internal %v", path, a, b)
			return
		}
		if a.Kind() != reflect.Struct || seen[a] {
			return
		}
		seen[a] = true
		if a.PkgPath() != b.PkgPath() && a.PkgPath() != "k8s.io/api/core/v1" {
			t.Errorf("%s: v1 %v, internal %v", path, a, b)
			return
		}
		if a.PkgPath() != "k8s.io/api/core/v1" {
			return // a shared type (metav1, resource, intstr)
		}
		if a.NumField() != b.NumField() {
			t.Errorf("%s (%s): %d fields in v1, %d internal", path, a.Name(), a.NumField(), b.NumField())
			return
		}
		for i := 0; i < a.NumField(); i++ {
			fa, fb := a.Field(i), b.Field(i)
			if fa.Name != fb.Name || fa.Anonymous != fb.Anonymous {
				t.Errorf("%s (%s): field %d is %s in v1, %s internal", path, a.Name(), i, fa.Name, fb.Name)
				continue
			}
			walk(fa.Type, fb.Type, path+"."+fa.Name)
		}
	}
	walk(reflect.TypeOf(v1.PodSpec{}), reflect.TypeOf(core.PodSpec{}), "spec")
	if len(seen) < 100 {
		t.Errorf("walked only %d types", len(seen))
	}
}
