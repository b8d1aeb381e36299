package workloads

import (
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/podlife/podlife/conformance/internal/upstreamcreate"
	"github.com/podlife/podlife/validation"
)

// validObjects returns n generated objects of kind that upstream accepts.
func validObjects(b *testing.B, kind string, n int) []runtime.Object {
	b.Helper()
	g := newGen(defaultSeed)
	var objs []runtime.Object
	for tries := 0; len(objs) < n; tries++ {
		if tries > 100*n {
			b.Fatalf("%s: only %d valid objects in %d draws", kind, len(objs), tries)
		}
		obj := g.object(kind)
		if len(upstreamcreate.ObjectCreateIn(b, obj, "")) == 0 {
			objs = append(objs, obj)
		}
	}
	return objs
}

// BenchmarkValidateObjectCreate compares ValidateObjectCreate with the upstream create
// path of each kind (v1 defaulting, conversion, the namespace and metadata steps,
// rest.BeforeCreate with the kind's strategy) on the same valid objects.
func BenchmarkValidateObjectCreate(b *testing.B) {
	for _, kind := range kinds {
		objs := validObjects(b, kind, 64)
		k := upstreamcreate.KindOf(b, objs[0])
		var sink field.ErrorList
		b.Run(kind+"/podlife", func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				sink = validation.ValidateObjectCreate(objs[i%len(objs)], validation.Options{})
				i++
			}
		})
		b.Run(kind+"/upstream", func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if err := upstreamcreate.ObjectBeforeCreate(b, k, objs[i%len(objs)]); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
		_ = sink
	}
}
