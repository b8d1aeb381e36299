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
	// Two floors of the deleted shape, on the same corpus and against the same
	// upstream side. A call with ShouldRestart's signature that only returns a zero
	// Decision answers nothing; it measures what the API's shape alone costs (the
	// call and a Decision returned by value) against upstream's call returning a
	// bool. A 32-byte Decision of at most four fields, the largest result the compiler
	// keeps in registers, measures what a redesign of Decision (its other fields
	// packed or read back from the pod by methods) would cost a pod being deleted.
	// Each loop names its function, so that compactShouldRestart is inlined there.
	for _, sh := range speedShapes() {
		if sh.name != "deleted" {
			continue
		}
		corpus := sh.cases
		upstreamSide := speed.Side{Calls: len(corpus), Run: func() {
			for i := range corpus {
				if kubecontainer.ShouldContainerBeRestarted(logger, corpus[i].c, corpus[i].pod, corpus[i].ps) {
					n--
				}
			}
		}}
		s.AddReference("deleted floor: zero Decision", speed.Side{Calls: len(corpus), Run: func() {
			for i := range corpus {
				if zeroDecision(corpus[i].pod, corpus[i].name, restart.Options{}).Restart {
					n++
				}
			}
		}}, upstreamSide)
		s.AddReference("deleted floor: 32-byte Decision", speed.Side{Calls: len(corpus), Run: func() {
			for i := range corpus {
				if compactShouldRestart(corpus[i].pod, corpus[i].name, restart.Options{}).Restart {
					n++
				}
			}
		}}, upstreamSide)
	}
	s.Report()
}

// compactDecision stands for a Decision redesigned to fit in registers: Restart, the
// other answers packed in bits, and the container and pod that methods would read the
// rest from. It measures a shape, not an implementation.
type compactDecision struct {
	Restart bool
	bits    uint64
	c       *corev1.Container
	pod     *corev1.Pod
}

// compactShouldRestart is ShouldRestart returning a compactDecision: a pod being
// deleted is answered inline, as ShouldRestart does, any other by a call.
func compactShouldRestart(pod *corev1.Pod, container string, opts restart.Options) compactDecision {
	if pod != nil && pod.DeletionTimestamp != nil {
		return compactDecision{bits: uint64(restart.BasisDeletion), pod: pod}
	}
	return compactFull(pod, container, opts)
}

// compactFull answers a pod not being deleted by ShouldRestart, packed.
//
//go:noinline
func compactFull(pod *corev1.Pod, container string, opts restart.Options) compactDecision {
	d := restart.ShouldRestart(pod, container, opts)
	return compactDecision{Restart: d.Restart, bits: uint64(d.Basis), pod: pod}
}

// zeroDecision has ShouldRestart's signature and returns a zero Decision: the floor
// of any function of that shape, the call and the Decision returned by value.
//
//go:noinline
func zeroDecision(*corev1.Pod, string, restart.Options) restart.Decision {
	return restart.Decision{}
}
