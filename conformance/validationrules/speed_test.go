package validationrules

import (
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/podlife/podlife/validation"
)

// TestSpeedRatio measures podlife against upstream on a loaded machine, where
// benchmark averages are noise: both run in many short alternating rounds and the
// fastest round of each is compared. Set PODLIFE_SPEED=1 to run it.
func TestSpeedRatio(t *testing.T) {
	if os.Getenv("PODLIFE_SPEED") == "" {
		t.Skip("set PODLIFE_SPEED=1")
	}
	for _, n := range []int{1, 10, 100} {
		pod := benchPod(n)
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
		ours, theirs := time.Duration(1<<62), time.Duration(1<<62)
		for round := 0; round < 60; round++ {
			if d := best(func() { validation.ValidatePodCreate(pod, validation.Options{}) }); d < ours {
				ours = d
			}
			if d := best(func() { upstreamCreate(t, pod) }); d < theirs {
				theirs = d
			}
		}
		t.Logf("containers=%s: podlife %v, upstream %v, ratio %.2f", strconv.Itoa(n), ours, theirs, float64(ours)/float64(theirs))
	}
}
