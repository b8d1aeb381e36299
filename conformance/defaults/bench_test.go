package defaults

import (
	"syscall"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/podlife/podlife"
)

// BenchmarkDefault compares podlife.Default with the upstream create path (scheme
// defaulting, conversion to internal, PrepareForCreate, conversion back) on the same
// generated corpus; one op is one pod.
func BenchmarkDefault(b *testing.B) {
	g := newGen(seed(b))
	corpus := make([]*corev1.Pod, 1000)
	for i := range corpus {
		corpus[i] = g.pod()
	}
	b.Run("podlife", func(b *testing.B) {
		b.ReportAllocs()
		defer reportCPU(b)()
		i := 0
		for b.Loop() {
			_ = podlife.Default(corpus[i%len(corpus)])
			i++
		}
	})
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		defer reportCPU(b)()
		i := 0
		for b.Loop() {
			_ = upstreamDefault(b, corpus[i%len(corpus)])
			i++
		}
	})
}

// BenchmarkDefaultTemplate does the same for a workload's stored template.
func BenchmarkDefaultTemplate(b *testing.B) {
	g := newGen(seed(b))
	corpus := make([]*corev1.PodTemplateSpec, 1000)
	for i := range corpus {
		corpus[i] = g.template()
	}
	b.Run("podlife", func(b *testing.B) {
		b.ReportAllocs()
		defer reportCPU(b)()
		i := 0
		for b.Loop() {
			_ = podlife.DefaultTemplate(corpus[i%len(corpus)])
			i++
		}
	})
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		defer reportCPU(b)()
		i := 0
		for b.Loop() {
			_ = upstreamTemplateViaPodTemplate(b, corpus[i%len(corpus)])
			i++
		}
	})
}

// reportCPU adds a cpu-ns/op metric: the process CPU time per op. On a shared machine
// wall time (ns/op) mostly measures the other processes; CPU time does not.
func reportCPU(b *testing.B) func() {
	start := cpuTime()
	return func() {
		if b.N > 0 {
			b.ReportMetric(float64((cpuTime()-start).Nanoseconds())/float64(b.N), "cpu-ns/op")
		}
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
