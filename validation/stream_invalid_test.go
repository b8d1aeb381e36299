package validation

import (
	"reflect"
	"runtime"
	"strconv"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// TestNewInvalidIsApimachinerys checks that newInvalid returns the very status
// apierrors.NewInvalid returns: one error, several, repeated texts (kept once in the
// message, every one in the causes), several kinds and names.
func TestNewInvalidIsApimachinerys(t *testing.T) {
	p := field.NewPath("spec", "containers")
	dup := field.Duplicate(p.Index(1).Child("name"), "same")
	many := field.ErrorList{}
	for i := range 40 {
		many = append(many, field.Duplicate(p.Index(i%7).Child("name"), "c"+strconv.Itoa(i%5)))
	}
	for _, tc := range []struct {
		name string
		gk   schema.GroupKind
		obj  string
		errs field.ErrorList
	}{
		{"empty", schema.GroupKind{Kind: "Pod"}, "web", field.ErrorList{}},
		{"one", schema.GroupKind{Kind: "Pod"}, "web", field.ErrorList{field.Required(p, "")}},
		{"one twice", schema.GroupKind{Kind: "Pod"}, "web", field.ErrorList{dup, dup}},
		{"same text twice", schema.GroupKind{Kind: "Pod"}, "", field.ErrorList{dup, field.Duplicate(p.Index(1).Child("name"), "same")}},
		{"two", schema.GroupKind{Group: "apps", Kind: "Deployment"}, "d\"q", field.ErrorList{dup, field.Invalid(p, 3, "bad")}},
		{"repeats", schema.GroupKind{Group: "batch", Kind: "Job"}, "j", many},
		{"nil entry (both panic)", schema.GroupKind{Kind: "Pod"}, "web", field.ErrorList{dup, nil}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got, want *apierrors.StatusError
			var gotPanic, wantPanic bool
			func() {
				defer func() { wantPanic = recover() != nil }()
				want = apierrors.NewInvalid(tc.gk, tc.obj, tc.errs)
			}()
			func() {
				defer func() { gotPanic = recover() != nil }()
				got = newInvalid(tc.gk, tc.obj, tc.errs)
			}()
			if gotPanic != wantPanic || !reflect.DeepEqual(got, want) {
				t.Errorf("newInvalid:\n%#v\napierrors.NewInvalid:\n%#v", got, want)
			}
		})
	}
}

// TestNewInvalidLinear counts the bytes newInvalid allocates for 1,000 and 10,000
// distinct errors: ten times as many (apierrors.NewInvalid: about a hundred times).
func TestNewInvalidLinear(t *testing.T) {
	list := func(n int) field.ErrorList {
		errs := make(field.ErrorList, n)
		for i := range errs {
			errs[i] = field.Duplicate(field.NewPath("spec", "containers").Index(i).Child("name"), "same")
		}
		return errs
	}
	small, big := list(1000), list(10000)
	gk := schema.GroupKind{Kind: "Pod"}
	bs := allocBytes(func() { _ = newInvalid(gk, "web", small) })
	bb := allocBytes(func() { _ = newInvalid(gk, "web", big) })
	if r := float64(bb) / float64(bs); r > 12 {
		t.Errorf("newInvalid allocates %d bytes for 1,000 errors, %d for 10,000: ×%.1f, want at most ×12", bs, bb, r)
	}
}

// allocBytes returns the bytes one call of fn allocates, the least of three calls.
func allocBytes(fn func()) uint64 {
	best := ^uint64(0)
	var before, after runtime.MemStats
	for range 3 {
		runtime.ReadMemStats(&before)
		fn()
		runtime.ReadMemStats(&after)
		best = min(best, after.TotalAlloc-before.TotalAlloc)
	}
	return best
}
