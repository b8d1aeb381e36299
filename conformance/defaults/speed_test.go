package defaults

import (
	"context"
	"os"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	api "k8s.io/kubernetes/pkg/apis/core"
	podstore "k8s.io/kubernetes/pkg/registry/core/pod"

	"github.com/podlife/podlife"
	"github.com/podlife/podlife/conformance/internal/podshapes"
	"github.com/podlife/podlife/validation"
)

// upstreamValidCreate is the API server's create pipeline without the request
// plumbing: v1 defaulting, conversion to internal, PrepareForCreate, Validate.
func upstreamValidCreate(t testing.TB, pod *corev1.Pod) int {
	v := pod.DeepCopy()
	legacyscheme.Scheme.Default(v)
	in := &api.Pod{}
	if err := legacyscheme.Scheme.Convert(v, in, nil); err != nil {
		t.Fatalf("convert to internal: %v", err)
	}
	ctx := genericapirequest.WithNamespace(context.Background(), in.Namespace)
	podstore.Strategy.PrepareForCreate(ctx, in)
	return len(podstore.Strategy.Validate(ctx, in))
}

// TestSpeedRatio compares, on a loaded machine, podlife.Default with upstream's
// defaulting (default, convert, PrepareForCreate, convert back) and
// validation.ValidatePodCreate with upstream's default + convert + PrepareForCreate +
// Validate: both sides run in many short alternating rounds and the fastest round of
// each is compared. Set PODLIFE_SPEED=1 to run it.
func TestSpeedRatio(t *testing.T) {
	if os.Getenv("PODLIFE_SPEED") == "" {
		t.Skip("set PODLIFE_SPEED=1")
	}
	for _, n := range []int{1, 10, 100} {
		pod := podshapes.Web(n)
		if errs := validation.ValidatePodCreate(pod, validation.Options{}); len(errs) != 0 {
			t.Fatal(errs)
		}
		if k := upstreamValidCreate(t, pod); k != 0 {
			t.Fatalf("upstream: %d errors", k)
		}
		iters := max(2000/n, 5)
		best := func(f func()) time.Duration {
			start := time.Now()
			for range iters {
				f()
			}
			return time.Since(start) / time.Duration(iters)
		}
		oursD, theirsD := time.Duration(1<<62), time.Duration(1<<62)
		oursC, theirsC := time.Duration(1<<62), time.Duration(1<<62)
		for range 60 {
			oursD = min(oursD, best(func() { podlife.Default(pod) }))
			theirsD = min(theirsD, best(func() { upstreamDefault(t, pod) }))
			oursC = min(oursC, best(func() { validation.ValidatePodCreate(pod, validation.Options{}) }))
			theirsC = min(theirsC, best(func() { upstreamValidCreate(t, pod) }))
		}
		t.Logf("containers=%d: Default %v vs upstream %v, ratio %.3f; ValidatePodCreate %v vs upstream default+convert+prepare+validate %v, ratio %.3f",
			n, oursD, theirsD, float64(oursD)/float64(theirsD), oursC, theirsC, float64(oursC)/float64(theirsC))
	}
}
