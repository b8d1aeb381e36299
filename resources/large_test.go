package resources_test

import (
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/podlife/podlife/resources"
)

// largePod has n regular containers and n init containers (every other one a
// sidecar), each naming cpu, memory and a resource of its own, with statuses.
func largePod(n int) *corev1.Pod {
	p := &corev1.Pod{}
	for i := 0; i < n; i++ {
		own := fmt.Sprintf("example.com/r%d=1", i)
		p.Spec.Containers = append(p.Spec.Containers, ctr(fmt.Sprint("c", i), "cpu=1m memory=1Mi "+own, "cpu=2m memory=1Mi"))
		p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, st(fmt.Sprint("c", i), "cpu=1m", nil))
		if i%2 == 0 {
			p.Spec.InitContainers = append(p.Spec.InitContainers, side(fmt.Sprint("s", i), "cpu=1m memory=1Mi "+own, ""))
		} else {
			p.Spec.InitContainers = append(p.Spec.InitContainers, ctr(fmt.Sprint("i", i), "cpu=1 "+own, ""))
		}
	}
	return p
}

// TestLargePod runs every function on a pod with 10,000 containers and 10,000 init
// containers naming 10,000 distinct resources (no panic, the right totals), and checks
// that the cost grows linearly: four times the pod may not cost sixteen times as much.
func TestLargePod(t *testing.T) {
	opts := resources.PodResourcesOptions{UseStatusResources: true, NonMissingContainerRequests: rl("memory=1Mi")}
	measure := func(n int) time.Duration {
		p := largePod(n)
		start := time.Now()
		req := resources.PodRequests(p, opts)
		_ = resources.PodLimits(p, opts)
		_ = resources.Explain(p, opts)
		_ = resources.ComputePodQOS(p)
		d := time.Since(start)
		// cpu: apps n×1m + sidecars (n/2)×1m, or the last init container (1 + sidecars before it).
		if got, want := req.Cpu().MilliValue(), int64(max(3*n/2, 1000+n/2)); got != want {
			t.Errorf("n=%d cpu = %dm, want %dm", n, got, want)
		}
		return d
	}
	// The fastest of three runs, to resist a busy machine.
	best := func(n int) time.Duration {
		d := measure(n)
		for i := 0; i < 2; i++ {
			d = min(d, measure(n))
		}
		return d
	}
	t.Logf("10,000 containers: %v", measure(10000))
	small, large := best(1000), best(4000)
	if large > 16*small+50*time.Millisecond {
		t.Errorf("1,000 containers: %v; 4,000 containers: %v (not linear)", small, large)
	}
	t.Logf("1,000 containers: %v; 4,000 containers: %v", small, large)
}
