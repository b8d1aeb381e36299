package lifecycleplan

import (
	"math/rand"
	"testing"

	v1 "k8s.io/api/core/v1"
	kubecontainer "k8s.io/kubernetes/pkg/kubelet/container"

	"github.com/podlife/podlife/conformance/internal/upstreamkubelet"
	"github.com/podlife/podlife/lifecycle"
	"github.com/podlife/podlife/restart"
)

type benchInput struct {
	pod  *v1.Pod
	view restart.View
	ps   *kubecontainer.PodStatus
}

func corpus(b *testing.B, rt *upstreamkubelet.Runtime, n int) []benchInput {
	g := gen{rand.New(rand.NewSource(defaultSeed))}
	out := make([]benchInput, n)
	for i := range out {
		pod := g.pod()
		pod.DeletionTimestamp = nil
		v := g.view(pod)
		ps, _ := rt.PodStatus(b, pod, &v, true)
		out[i] = benchInput{pod: pod, view: v, ps: ps}
	}
	return out
}

// BenchmarkComputePodActions runs podlife's ComputePodActions and upstream's
// computePodActions (through the fake manager) on the same generated corpus, each
// upstream runtime status derived once beforehand by GetPodStatus.
func BenchmarkComputePodActions(b *testing.B) {
	rt := upstreamkubelet.New(b)
	in := corpus(b, rt, 256)
	b.Run("podlife", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			c := &in[i%len(in)]
			_ = lifecycle.ComputePodActions(c.pod, &c.view, false, lifecycle.Options{})
			i++
		}
	})
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			c := &in[i%len(in)]
			_ = rt.ComputePodActions(c.pod, c.ps, false)
			i++
		}
	})
}
