package validation

import (
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	core "k8s.io/kubernetes/pkg/apis/core"

	"github.com/podlife/podlife/conformance/internal/upstreamcreate"
	"github.com/podlife/podlife/validation"
)

// validCorpus returns n generated pods that upstream accepts.
func validCorpus(b *testing.B, n int) []*v1.Pod {
	g := newGen(defaultSeed)
	var pods []*v1.Pod
	for len(pods) < n {
		p, _ := g.podWith(0)
		if len(upstreamCreate(b, p)) == 0 {
			pods = append(pods, p)
		}
	}
	return pods
}

// BenchmarkValidatePodCreate compares ValidatePodCreate with the upstream create path
// (v1 defaulting, conversion, the handler's and store's metadata steps,
// rest.BeforeCreate) on the same valid pods.
func BenchmarkValidatePodCreate(b *testing.B) {
	pods := validCorpus(b, 256)
	var sink field.ErrorList
	b.Run("podlife", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			sink = validation.ValidatePodCreate(pods[i%len(pods)], validation.Options{})
			i++
		}
	})
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			if err := upstreamcreate.BeforeCreate(b, pods[i%len(pods)]); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
	_ = sink
}

// BenchmarkValidatePodUpdate compares ValidatePodUpdate with the upstream update path
// on image-only updates of the same valid pods.
func BenchmarkValidatePodUpdate(b *testing.B) {
	pods := validCorpus(b, 256)
	type pair struct {
		stored   *core.Pod
		storedV1 *v1.Pod
		next     *v1.Pod
	}
	pairs := make([]pair, len(pods))
	for i, p := range pods {
		stored := upstreamStore(b, p)
		stored.ResourceVersion = "1"
		stored.UID = "3f1c2a8e-0000-4000-8000-000000000001"
		sv1 := toV1(b, stored)
		next := sv1.DeepCopy()
		next.Spec.Containers[0].Image = "example.com/next:v2"
		pairs[i] = pair{stored, sv1, next}
	}
	var sink field.ErrorList
	b.Run("podlife", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			p := pairs[i%len(pairs)]
			sink = validation.ValidatePodUpdate(p.next, p.storedV1, validation.Options{})
			i++
		}
	})
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			p := pairs[i%len(pairs)]
			sink = upstreamcreate.Update(b, p.next, p.stored).Errs
			i++
		}
	})
	_ = sink
}
