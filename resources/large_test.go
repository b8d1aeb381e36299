package resources_test

import (
	"fmt"
	"testing"

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
// containers naming 10,000 distinct resources: no panic and the right totals. The
// cost's growth is shown by BenchmarkLargePod (1,000 to 10,000 containers), not timed
// here: a timing ratio fails on a loaded machine.
func TestLargePod(t *testing.T) {
	opts := resources.PodResourcesOptions{UseStatusResources: true, NonMissingContainerRequests: rl("memory=1Mi")}
	for _, n := range []int{1000, 10000} {
		p := largePod(n)
		req := resources.PodRequests(p, opts)
		lim := resources.PodLimits(p, opts)
		ex := resources.Explain(p, opts)
		// cpu: apps n×1m + sidecars (n/2)×1m, or the last init container (1 + sidecars before it).
		if got, want := req.Cpu().MilliValue(), int64(max(3*n/2, 1000+n/2)); got != want {
			t.Errorf("n=%d cpu = %dm, want %dm", n, got, want)
		}
		if got, want := lim.Cpu().MilliValue(), int64(2*n); got != want {
			t.Errorf("n=%d cpu limit = %dm, want %dm", n, got, want)
		}
		if got := len(req); got != n+2 {
			t.Errorf("n=%d: %d requested resources, want %d", n, got, n+2)
		}
		if ex.Requests == nil || resources.ComputePodQOS(p) != corev1.PodQOSBurstable {
			t.Errorf("n=%d: Explain or QoS wrong", n)
		}
	}
}

// BenchmarkLargePod shows the growth of every function from 1,000 to 10,000
// containers (linear: about ten times).
func BenchmarkLargePod(b *testing.B) {
	opts := resources.PodResourcesOptions{UseStatusResources: true, NonMissingContainerRequests: rl("memory=1Mi")}
	for _, n := range []int{1000, 10000} {
		p := largePod(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = resources.PodRequests(p, opts)
				_ = resources.PodLimits(p, opts)
				_ = resources.Explain(p, opts)
				_ = resources.ComputePodQOS(p)
			}
		})
	}
}
