package validation

import (
	"math/rand"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"

	"github.com/podlife/podlife/conformance/internal/podshapes"
	"github.com/podlife/podlife/conformance/internal/upstreamcreate"
	"github.com/podlife/podlife/internal/speed"
	"github.com/podlife/podlife/validation"
)

// speedCorpusSize is the number of pods of each generated speed corpus.
const speedCorpusSize = 256

// validateSpeedShapes returns the corpora of TestValidateSpeedRatio by name: the
// smallest pod, the web pod with 1, 10 and 100 app containers, generated pods that
// the server accepts (every PodSpec field the generator fills), generated pods it
// rejects (one error or several each) and pods with long mount, device, volume and
// projection lists (mostly rejected).
func validateSpeedShapes(t testing.TB) []struct {
	name string
	pods []*v1.Pod
} {
	valid, invalid := []*v1.Pod{}, []*v1.Pod{}
	g := newGen(defaultSeed + 3)
	for len(valid) < speedCorpusSize || len(invalid) < speedCorpusSize {
		p, _ := g.pod()
		if len(upstreamCreate(t, p)) == 0 {
			if len(valid) < speedCorpusSize {
				valid = append(valid, p)
			}
		} else if len(invalid) < speedCorpusSize {
			invalid = append(invalid, p)
		}
	}
	r := rand.New(rand.NewSource(defaultSeed + 4))
	var long []*v1.Pod
	for range 64 {
		long = append(long, longListsPod(r))
	}
	return []struct {
		name string
		pods []*v1.Pod
	}{
		{"minimal (1 container)", []*v1.Pod{podshapes.Minimal()}},
		{"web, 1 app container", []*v1.Pod{podshapes.Web(1)}},
		{"web, 10 app containers", []*v1.Pod{podshapes.Web(10)}},
		{"web, 100 app containers", []*v1.Pod{podshapes.Web(100)}},
		{"generated, accepted", valid},
		{"generated, rejected", invalid},
		{"long lists", long},
	}
}

// TestValidateSpeedRatio compares ValidatePodCreate with the API server's create path
// (v1 defaulting, conversion, the handler's and store's metadata steps and
// rest.BeforeCreate: PrepareForCreate, Validate, the generic ObjectMeta check and, for
// a rejected pod, the Invalid status the server answers with) on each corpus of
// validateSpeedShapes, and prints per shape the ratio (podlife/upstream), per-call
// costs and allocations (internal/speed: PODLIFE_SPEED=1 for interleaved rounds of
// thread CPU time with the collector in its steady state, PODLIFE_SPEED=instructions
// for instruction counts). It asserts only that both sides accept or reject the same
// pods with as many errors.
func TestValidateSpeedRatio(t *testing.T) {
	s := speed.NewSuite(t, "ValidatePodCreate / the server's create path")
	// The server's path allocates 8 to 600 times the bytes: both sides are timed with
	// the collector in its steady state, so each pays for the collections its own
	// garbage causes.
	s.Steady()
	for _, sh := range validateSpeedShapes(t) {
		pods := sh.pods
		for i, p := range pods {
			if got, want := len(validation.ValidatePodCreate(p, validation.Options{})), len(upstreamCreate(t, p)); got != want {
				t.Fatalf("%s: pod %d: podlife %d errors, upstream %d", sh.name, i, got, want)
			}
		}
		n := 0
		s.Add(sh.name, speed.Side{Calls: len(pods), Run: func() {
			for _, p := range pods {
				n += len(validation.ValidatePodCreate(p, validation.Options{}))
			}
		}}, speed.Side{Calls: len(pods), Run: func() {
			for _, p := range pods {
				if upstreamcreate.BeforeCreate(t, p) != nil {
					n--
				}
			}
		}})
	}
	s.Report()
}

// BenchmarkValidateShapes runs ValidatePodCreate alone over each corpus of
// TestValidateSpeedRatio, for profiles (go test -bench ValidateShapes -cpuprofile).
func BenchmarkValidateShapes(b *testing.B) {
	for _, sh := range validateSpeedShapes(b) {
		b.Run(strings.ReplaceAll(sh.name, " ", "_"), func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				validation.ValidatePodCreate(sh.pods[i%len(sh.pods)], validation.Options{})
				i++
			}
		})
	}
}
