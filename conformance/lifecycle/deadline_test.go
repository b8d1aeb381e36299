package lifecycle

import (
	"testing"
	"time"
	"unsafe"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/record"
	kubeletlifecycle "k8s.io/kubernetes/pkg/kubelet/lifecycle"
	kubeletstatus "k8s.io/kubernetes/pkg/kubelet/status"
	"k8s.io/utils/clock"
	testingclock "k8s.io/utils/clock/testing"

	"github.com/podlife/podlife/conformance/internal/coverage"
	"github.com/podlife/podlife/conformance/internal/gatesets"
	"github.com/podlife/podlife/lifecycle"
)

// The kubelet's unexported active-deadline handler (pkg/kubelet/active_deadline.go); the
// handler pointer is opaque here.
//
//go:linkname upstreamNewActiveDeadlineHandler k8s.io/kubernetes/pkg/kubelet.newActiveDeadlineHandler
func upstreamNewActiveDeadlineHandler(podStatusProvider kubeletstatus.PodStatusProvider, recorder record.EventRecorder, clock clock.Clock) (unsafe.Pointer, error)

//go:linkname upstreamShouldEvict k8s.io/kubernetes/pkg/kubelet.(*activeDeadlineHandler).ShouldEvict
func upstreamShouldEvict(h unsafe.Pointer, pod *corev1.Pod) kubeletlifecycle.ShouldEvictResponse

// noCachedStatus makes the handler fall back to pod.Status, as for a pod the status
// manager has not cached.
type noCachedStatus struct{}

func (noCachedStatus) GetPodStatus(types.UID) (corev1.PodStatus, bool) {
	return corev1.PodStatus{}, false
}

// TestDeadlineDifferential compares DeadlineEviction with the kubelet's handler, on the
// generated pods at instants around their deadline.
//
// The handler reads no feature gate; the test runs under every gate set all the same.
func TestDeadlineDifferential(t *testing.T) {
	s := seed(t)
	gatesets.Run(t, gateSets, func(t *testing.T, _ gatesets.Set) { deadline(t, s) })
}

func deadline(t *testing.T, s uint64) {
	g := newGen(s, time.Now())
	n := podCount(t)
	fakeClock := testingclock.NewFakeClock(g.now)
	recorder := record.NewFakeRecorder(1 << 20)
	h, err := upstreamNewActiveDeadlineHandler(noCachedStatus{}, recorder, fakeClock)
	if err != nil {
		t.Fatal(err)
	}
	compared, disagreements, evicted := 0, 0, 0
	for i := range n {
		pod := g.pod()
		instants := []time.Time{g.now}
		if at, ok := lifecycle.ActiveDeadline(pod); ok {
			instants = append(instants, at, at.Add(-time.Nanosecond), at.Add(-time.Second), at.Add(time.Hour))
		}
		for _, now := range instants {
			fakeClock.SetTime(now)
			up := upstreamShouldEvict(h, pod)
			ours := lifecycle.DeadlineEviction(pod, now)
			compared++
			if up.Evict {
				evicted++
				<-recorder.Events
			}
			if ours.Evict != up.Evict || ours.Reason != up.Reason || ours.Message != up.Message {
				disagreements++
				if disagreements <= 5 {
					t.Errorf("seed %d pod %d at %v: ours %+v, upstream %+v\n pod %s", s, i, now, ours, up, dump(pod))
				}
			}
		}
	}
	t.Logf("seed %d: %d (pod, instant) pairs over %d pods (%d evicted), %d disagreements", s, compared, n, evicted, disagreements)
	coverage.RequireShare(t, "instants evicted", evicted, compared, 0.05)
	coverage.RequireShare(t, "instants not evicted", compared-evicted, compared, 0.05)
}
