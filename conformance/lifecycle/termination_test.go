package lifecycle

import (
	"reflect"
	"strconv"
	"sync"
	"testing"
	"time"
	_ "unsafe" // go:linkname

	corev1 "k8s.io/api/core/v1"

	"github.com/podlife/podlife/conformance/internal/coverage"
	"github.com/podlife/podlife/conformance/internal/gatesets"
	"github.com/podlife/podlife/lifecycle"
)

// upstreamOrdering has the layout of kuberuntime's unexported terminationOrdering.
type upstreamOrdering struct {
	terminated map[string]chan struct{}
	prereqs    map[string][]chan struct{}
	lock       sync.Mutex
}

// upstreamNewTerminationOrdering is kuberuntime's unexported newTerminationOrdering.
//
//go:linkname upstreamNewTerminationOrdering k8s.io/kubernetes/pkg/kubelet/kuberuntime.newTerminationOrdering
func upstreamNewTerminationOrdering(pod *corev1.Pod, runningContainerNames []string) *upstreamOrdering

func closed(c chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// uniqueNames reports whether init and regular containers all have distinct names, which
// validation requires; with duplicates upstream's channels cannot be told apart by name.
func uniqueNames(p *corev1.Pod) bool {
	seen := map[string]bool{}
	for _, cs := range [][]corev1.Container{p.Spec.InitContainers, p.Spec.Containers} {
		for _, c := range cs {
			if seen[c.Name] {
				return false
			}
			seen[c.Name] = true
		}
	}
	return true
}

// TestTerminationOrderDifferential compares, for every container of a whole-pod kill,
// what it waits for: our TerminationOrderOf's WaitsFor against the open channels among
// upstream's prerequisites.
//
// newTerminationOrdering reads no feature gate; the test runs under every gate set all
// the same.
func TestTerminationOrderDifferential(t *testing.T) {
	s := seed(t)
	gatesets.Run(t, gateSets, func(t *testing.T, _ gatesets.Set) { terminationOrder(t, s) })
}

func terminationOrder(t *testing.T, s uint64) {
	g := newGen(s, time.Now())
	n := podCount(t)
	compared, disagreements, skipped, waiting := 0, 0, 0, 0
	for i := range n {
		pod := g.pod()
		if !uniqueNames(pod) {
			// Make the names distinct, as validation requires, rather than drop the pod.
			for j := range pod.Spec.InitContainers {
				pod.Spec.InitContainers[j].Name += "-i" + strconv.Itoa(j)
			}
			for j := range pod.Spec.Containers {
				pod.Spec.Containers[j].Name += "-c" + strconv.Itoa(j)
			}
		}
		if !uniqueNames(pod) {
			skipped++
			continue
		}
		var running []string
		for _, cs := range [][]corev1.Container{pod.Spec.InitContainers, pod.Spec.Containers} {
			for _, c := range cs {
				if !g.chance(4) {
					running = append(running, c.Name)
				}
			}
		}
		if g.chance(10) {
			running = append(running, "ghost")
		}
		ours := lifecycle.TerminationOrderOf(pod, running)
		up := upstreamNewTerminationOrdering(pod, running)
		names := map[chan struct{}]string{}
		for n, c := range up.terminated {
			names[c] = n
		}
		got := map[string][]string{}
		for _, st := range ours {
			waits := st.WaitsFor
			if st.WaitsForSidecar != "" {
				waits = append(waits[:len(waits):len(waits)], st.WaitsForSidecar)
			}
			got[st.Name] = waits
		}
		for _, name := range running {
			if _, known := up.terminated[name]; !known {
				continue
			}
			var want []string
			for _, c := range up.prereqs[name] {
				if !closed(c) {
					want = append(want, names[c])
				}
			}
			compared++
			if len(want) > 0 {
				waiting++
			}
			if !reflect.DeepEqual(want, got[name]) {
				disagreements++
				if disagreements <= 5 {
					t.Errorf("seed %d pod %d container %q running %v: ours waits for %v, upstream %v\n pod %s", s, i, name, running, got[name], want, dump(pod))
				}
			}
		}
	}
	t.Logf("seed %d: %d running containers of %d pods (%d waiting), %d disagreements; %d pods with duplicate names skipped", s, compared, n-skipped, waiting, disagreements, skipped)
	coverage.Require(t, "running containers compared", compared, n)
	coverage.RequireShare(t, "containers waiting for others", waiting, compared, 0.05)
	coverage.RequireShare(t, "containers waiting for none", compared-waiting, compared, 0.05)
}
