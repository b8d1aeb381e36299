package defaults

import (
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/podlife/podlife"
)

// BenchmarkDefault compares podlife.Default with the upstream create path (scheme
// defaulting, conversion to internal, PrepareForCreate, conversion back) on the same
// generated corpus; one op is one pod.
func BenchmarkDefault(b *testing.B) {
	g := newGen(seed())
	corpus := make([]*corev1.Pod, 1000)
	for i := range corpus {
		corpus[i] = g.pod()
	}
	b.Run("podlife", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			_ = podlife.Default(corpus[i%len(corpus)])
			i++
		}
	})
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			_ = upstreamDefault(b, corpus[i%len(corpus)])
			i++
		}
	})
}

// BenchmarkDefaultTemplate does the same for a workload's stored template.
func BenchmarkDefaultTemplate(b *testing.B) {
	g := newGen(seed())
	corpus := make([]*corev1.PodTemplateSpec, 1000)
	for i := range corpus {
		corpus[i] = g.template()
	}
	b.Run("podlife", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			_ = podlife.DefaultTemplate(corpus[i%len(corpus)])
			i++
		}
	})
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			_ = upstreamTemplateViaPodTemplate(b, corpus[i%len(corpus)])
			i++
		}
	})
}
