package restart

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"
	kubecontainer "k8s.io/kubernetes/pkg/kubelet/container"

	"github.com/podlife/podlife/restart"
)

type benchCase struct {
	pod  *corev1.Pod
	c    *corev1.Container
	ps   *kubecontainer.PodStatus
	name string
}

// benchCorpus is every container of about 90 generated pods, with
// the kubelet's runtime status for it built ahead of time (upstream's input).
func benchCorpus() []benchCase {
	g := newGen(defaultSeed)
	var out []benchCase
	for len(out) < 400 {
		pod := g.pod(true)
		for _, k := range kinds(pod) {
			for _, c := range k.containers {
				out = append(out, benchCase{pod: pod, c: c, ps: runtimeFromAPI(k.statuses, c.Name), name: c.Name})
			}
		}
	}
	return out
}

// BenchmarkShouldRestart runs podlife's ShouldRestart and the kubelet's
// ShouldContainerBeRestarted side by side on the same pods (default gates).
func BenchmarkShouldRestart(b *testing.B) {
	corpus := benchCorpus()
	b.Run("podlife", func(b *testing.B) {
		b.ReportAllocs()
		i, n := 0, 0
		for b.Loop() {
			bc := &corpus[i]
			if restart.ShouldRestart(bc.pod, bc.name, restart.Options{}).Restart {
				n++
			}
			if i++; i == len(corpus) {
				i = 0
			}
		}
		_ = n
	})
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		logger := klog.Background()
		i, n := 0, 0
		for b.Loop() {
			bc := &corpus[i]
			if kubecontainer.ShouldContainerBeRestarted(logger, bc.c, bc.pod, bc.ps) {
				n++
			}
			if i++; i == len(corpus) {
				i = 0
			}
		}
		_ = n
	})
}

// BenchmarkShouldRestartSideBySide alternates blocks of podlife and upstream calls on
// the same corpus inside one loop, so that the load of a busy machine falls on both
// alike, and reports each side's ns/op and their ratio.
func BenchmarkShouldRestartSideBySide(b *testing.B) {
	corpus := benchCorpus()
	logger := klog.Background()
	var ours, theirs time.Duration
	calls, n, round := 0, 0, 0
	runOurs := func() time.Duration {
		start := time.Now()
		for i := range corpus {
			if restart.ShouldRestart(corpus[i].pod, corpus[i].name, restart.Options{}).Restart {
				n++
			}
		}
		return time.Since(start)
	}
	runTheirs := func() time.Duration {
		start := time.Now()
		for i := range corpus {
			if kubecontainer.ShouldContainerBeRestarted(logger, corpus[i].c, corpus[i].pod, corpus[i].ps) {
				n--
			}
		}
		return time.Since(start)
	}
	for b.Loop() {
		// Alternate which side goes first so neither always meets a cold cache.
		if round++; round%2 == 0 {
			ours += runOurs()
			theirs += runTheirs()
		} else {
			theirs += runTheirs()
			ours += runOurs()
		}
		calls += len(corpus)
	}
	if n != 0 {
		b.Fatalf("podlife and upstream disagree on %d calls", n)
	}
	b.ReportMetric(float64(ours.Nanoseconds())/float64(calls), "podlife-ns/call")
	b.ReportMetric(float64(theirs.Nanoseconds())/float64(calls), "upstream-ns/call")
	b.ReportMetric(float64(ours)/float64(theirs), "podlife/upstream")
}
