package validationrules

import (
	"strconv"
	"testing"

	"github.com/podlife/podlife/conformance/internal/podshapes"
	"github.com/podlife/podlife/conformance/internal/upstreamcreate"
	"github.com/podlife/podlife/validation"
)

// BenchmarkCreate compares podlife's ValidatePodCreate (defaulting included) with
// upstream's create path on the same pod: v1 defaulting, conversion, the handler's
// and store's metadata steps and rest.BeforeCreate (PrepareForCreate, Validate,
// generic metadata, declarative validation).
func BenchmarkCreate(b *testing.B) {
	for _, n := range []int{1, 10, 100} {
		pod := podshapes.Web(n)
		if errs := upstreamCreate(b, pod); len(errs) != 0 {
			b.Fatal(errs)
		}
		b.Run("containers="+strconv.Itoa(n)+"/podlife", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if errs := validation.ValidatePodCreate(pod, validation.Options{}); len(errs) != 0 {
					b.Fatal(errs)
				}
			}
		})
		b.Run("containers="+strconv.Itoa(n)+"/upstream", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := upstreamcreate.BeforeCreate(b, pod); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
