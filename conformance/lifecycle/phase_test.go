package lifecycle

import (
	"fmt"
	"testing"
	"time"
	_ "unsafe" // go:linkname

	corev1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"
	_ "k8s.io/kubernetes/pkg/kubelet"

	"github.com/podlife/podlife/conformance/internal/coverage"
	"github.com/podlife/podlife/conformance/internal/gatesets"
	"github.com/podlife/podlife/lifecycle"
)

// upstreamGetPhase is the kubelet's unexported getPhase (pkg/kubelet/kubelet_pods.go).
//
//go:linkname upstreamGetPhase k8s.io/kubernetes/pkg/kubelet.getPhase
func upstreamGetPhase(logger klog.Logger, pod *corev1.Pod, info []corev1.ContainerStatus, podIsTerminal, podHasInitialized bool) corev1.PodPhase

// kubeletStatuses is generateAPIPodStatus's allStatus: regular statuses, then init ones.
func kubeletStatuses(st *corev1.PodStatus) []corev1.ContainerStatus {
	out := make([]corev1.ContainerStatus, 0, len(st.InitContainerStatuses)+len(st.ContainerStatuses))
	out = append(out, st.ContainerStatuses...)
	return append(out, st.InitContainerStatuses...)
}

// phaseMismatches compares Phase with the kubelet's getPhase on pod, with
// podIsTerminal and podHasInitialized both ways (four comparisons); it hands each
// upstream answer to seen when seen is not nil and returns one line per disagreement.
func phaseMismatches(logger klog.Logger, pod *corev1.Pod, opts lifecycle.Options, seen func(corev1.PodPhase)) []string {
	var out []string
	info := kubeletStatuses(&pod.Status)
	for _, terminal := range []bool{false, true} {
		for _, initialized := range []bool{false, true} {
			ours := lifecycle.Phase(pod, lifecycle.PhaseOptions{Options: opts, PodIsTerminal: terminal, PodHasInitialized: &initialized})
			up := upstreamGetPhase(logger, pod, info, terminal, initialized)
			if seen != nil {
				seen(up)
			}
			if ours != up {
				out = append(out, fmt.Sprintf("Phase terminal=%v initialized=%v: ours %s, upstream %s", terminal, initialized, ours, up))
			}
		}
	}
	return out
}

// TestPhaseDifferential compares Phase with the kubelet's getPhase on every pod, with
// podIsTerminal and podHasInitialized both ways, on every gate set.
func TestPhaseDifferential(t *testing.T) {
	s := seed(t)
	logger := klog.Background()
	gatesets.Run(t, gateSets, func(t *testing.T, gs gatesets.Set) {
		g := newGen(s, time.Now())
		n := podCount(t)
		compared, disagreements := 0, 0
		var counts coverage.Counts
		for i := range n {
			pod := g.pod()
			before := pod.DeepCopy()
			compared += 4
			for _, m := range phaseMismatches(logger, pod, lifecycle.Options{Features: gs.Features()}, func(up corev1.PodPhase) { counts.Add(string(up)) }) {
				disagreements++
				if disagreements <= 5 {
					t.Errorf("seed %d pod %d %s\n pod %s", s, i, m, dump(pod))
				}
			}
			if !reflectEqual(before, pod) {
				t.Fatalf("seed %d pod %d: input modified", s, i)
			}
		}
		t.Logf("seed %d, gates %q: %d pods x 4 (terminal, initialized) = %d comparisons, %d disagreements; upstream phases %s", s, gs.Name, n, compared, disagreements, &counts)
		// Every phase getPhase returns (it never returns Unknown), each in a fair share of
		// the answers.
		for _, p := range []corev1.PodPhase{corev1.PodPending, corev1.PodRunning, corev1.PodSucceeded, corev1.PodFailed} {
			counts.Share(t, "phase", string(p), 0.02)
		}
	})
}
