package validationrules

import (
	"context"
	"strconv"
	"testing"
	"time"

	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	podstore "k8s.io/kubernetes/pkg/registry/core/pod"

	"github.com/podlife/podlife"
	"github.com/podlife/podlife/conformance/internal/podshapes"
	"github.com/podlife/podlife/conformance/internal/upstreamcreate"
	"github.com/podlife/podlife/validation"
)

// TestSpeedRatio measures podlife against upstream on a loaded machine, where
// benchmark averages are noise: both run in many short alternating rounds and the
// fastest round of each is compared. Set PODLIFE_SPEED=1 to run it.
func TestSpeedRatio(t *testing.T) {
	if !upstreamcreate.Flag(t, "PODLIFE_SPEED") {
		t.Skip("set PODLIFE_SPEED=1")
	}
	for _, n := range []int{1, 10, 100} {
		pod := podshapes.Web(n)
		iters := 2000 / n
		if iters < 5 {
			iters = 5
		}
		best := func(f func()) time.Duration {
			start := time.Now()
			for i := 0; i < iters; i++ {
				f()
			}
			return time.Since(start) / time.Duration(iters)
		}
		// The validation step alone, on the prepared object of each side.
		prepared := podlife.DefaultWithOptions(pod, podlife.DefaultOptions{})
		in := upstreamPrepared(t, pod)
		ctx := genericapirequest.WithNamespace(context.Background(), in.Namespace)
		ours, theirs := time.Duration(1<<62), time.Duration(1<<62)
		oursV, theirsV, oursD := time.Duration(1<<62), time.Duration(1<<62), time.Duration(1<<62)
		for round := 0; round < 60; round++ {
			ours = min(ours, best(func() { validation.ValidatePodCreate(pod, validation.Options{}) }))
			theirs = min(theirs, best(func() { _ = upstreamcreate.BeforeCreate(t, pod) }))
			oursV = min(oursV, best(func() { validation.ValidatePodCreate(prepared, validation.Options{SkipDefaulting: true}) }))
			theirsV = min(theirsV, best(func() { podstore.Strategy.Validate(ctx, in) }))
			oursD = min(oursD, best(func() { podlife.DefaultWithOptions(pod, podlife.DefaultOptions{}) }))
		}
		t.Logf("containers=%s: create podlife %v, upstream %v, ratio %.2f; validation step alone podlife %v, upstream %v, ratio %.2f; podlife.Default alone %v",
			strconv.Itoa(n), ours, theirs, float64(ours)/float64(theirs), oursV, theirsV, float64(oursV)/float64(theirsV), oursD)
	}
}
