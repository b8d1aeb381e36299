package upstreamkubelet

import (
	"reflect"
	"testing"
	"time"
	"unsafe"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/record"
	"k8s.io/kubernetes/pkg/kubelet/prober"
	proberesults "k8s.io/kubernetes/pkg/kubelet/prober/results"
	"k8s.io/kubernetes/pkg/kubelet/status"
)

// noPodStatus is a status manager that has no status for any pod: the probe workers
// AddPod starts find nothing to probe and never write a result.
type noPodStatus struct{ status.Manager }

func (noPodStatus) GetPodStatus(types.UID) (v1.PodStatus, bool) { return v1.PodStatus{}, false }

// UpdateProbeStatus sets the started and ready flags of s's init and regular container
// statuses as the kubelet's prober manager does (UpdatePodStatus), with this runtime's
// liveness and startup caches and a readiness cache holding the view's readiness
// results (loaded by Load). The manager is fresh: AddPod registers the pod's probe
// workers, RemovePod stops them afterwards. Every probe must have a positive period, as
// every pod the kubelet sees is defaulted.
func (r *Runtime) UpdateProbeStatus(tb testing.TB, pod *v1.Pod, s *v1.PodStatus) {
	tb.Helper()
	for _, list := range [][]v1.Container{pod.Spec.InitContainers, pod.Spec.Containers} {
		for _, c := range list {
			for _, p := range []*v1.Probe{c.StartupProbe, c.ReadinessProbe, c.LivenessProbe} {
				if p != nil && p.PeriodSeconds <= 0 {
					tb.Fatalf("container %q: a probe with periodSeconds %d (the kubelet sees defaulted probes)", c.Name, p.PeriodSeconds)
				}
			}
		}
	}
	m := prober.NewManager(noPodStatus{}, r.Liveness, r.readiness, r.Startup, nil, &record.FakeRecorder{})
	// A kubelet that started before every container of the pod: no readiness is kept
	// across a restart.
	f := reflect.ValueOf(m).Elem().FieldByName("start")
	reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().Set(reflect.ValueOf(time.Time{}))
	m.AddPod(r.ctx, pod)
	m.UpdatePodStatus(r.ctx, pod, s)
	m.RemovePod(pod)
}

// newReadiness returns a readiness cache whose updates are drained.
func newReadiness() proberesults.Manager {
	m := proberesults.NewManager()
	go func() {
		for range m.Updates() {
		}
	}()
	return m
}
