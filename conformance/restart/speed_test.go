package restart

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"
	kubecontainer "k8s.io/kubernetes/pkg/kubelet/container"

	"github.com/podlife/podlife/internal/speed"
	"github.com/podlife/podlife/restart"
)

// TestRestartSpeedRatio compares ShouldRestart with the kubelet's
// ShouldContainerBeRestarted on each shape's corpus (speedShapes) and prints per shape
// the ratios (podlife/upstream), per-call costs and allocations (internal/speed:
// PODLIFE_SPEED=1 for interleaved rounds of thread CPU time, PODLIFE_SPEED=instructions,
// with go test -ldflags=-s=false, for instruction counts under callgrind). It asserts
// only that the answers agree.
func TestRestartSpeedRatio(t *testing.T) {
	s := speed.NewSuite(t, "ShouldRestart / ShouldContainerBeRestarted")
	logger := klog.Background()
	n := 0
	for _, sh := range speedShapes() {
		corpus := sh.cases
		for _, bc := range corpus {
			if got, want := restart.ShouldRestart(bc.pod, bc.name, restart.Options{}).Restart, kubecontainer.ShouldContainerBeRestarted(logger, bc.c, bc.pod, bc.ps); got != want {
				t.Fatalf("%s: container %q: podlife %v, upstream %v", sh.name, bc.name, got, want)
			}
		}
		s.Add(sh.name, speed.Side{Calls: len(corpus), Run: func() {
			for i := range corpus {
				if restart.ShouldRestart(corpus[i].pod, corpus[i].name, restart.Options{}).Restart {
					n++
				}
			}
		}}, speed.Side{Calls: len(corpus), Run: func() {
			for i := range corpus {
				if kubecontainer.ShouldContainerBeRestarted(logger, corpus[i].c, corpus[i].pod, corpus[i].ps) {
					n--
				}
			}
		}})
	}
	// The floor of the deleted shape, on the same corpus and against the same
	// upstream side: a call with ShouldRestart's signature that only returns a zero
	// Decision answers nothing; it measures what the API's shape alone costs, the
	// call and a Decision returned by value, against upstream's call returning a
	// bool. ShouldRestart answers a pod being deleted without a call (it is inlined).
	for _, sh := range speedShapes() {
		if sh.name != "deleted" {
			continue
		}
		corpus := sh.cases
		s.AddReference("deleted floor: a call returning a zero Decision", speed.Side{Calls: len(corpus), Run: func() {
			for i := range corpus {
				if zeroDecision(corpus[i].pod, corpus[i].name, restart.Options{}).Restart {
					n++
				}
			}
		}}, speed.Side{Calls: len(corpus), Run: func() {
			for i := range corpus {
				if kubecontainer.ShouldContainerBeRestarted(logger, corpus[i].c, corpus[i].pod, corpus[i].ps) {
					n--
				}
			}
		}})
	}
	s.Report()
}

// zeroDecision has ShouldRestart's signature and returns a zero Decision: the floor
// of any function of that shape, the call and the Decision returned by value.
//
//go:noinline
func zeroDecision(*corev1.Pod, string, restart.Options) restart.Decision {
	return restart.Decision{}
}
