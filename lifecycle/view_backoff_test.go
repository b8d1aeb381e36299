package lifecycle

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podlife/podlife/restart"
)

// TestViewFromStatusBackOff: the crash-loop back-off is rebuilt from the kubelet's
// CrashLoopBackOff message ("back-off 40s restarting failed container=...", doBackOff),
// updated when the last run started (flowcontrol.Backoff.Next runs at the start it
// allows), or from the restart count of a container that just exited.
func TestViewFromStatusBackOff(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns", UID: "u"}, Spec: corev1.PodSpec{
		Containers: []corev1.Container{{Name: "a", Image: "x"}, {Name: "b", Image: "x"}, {Name: "c", Image: "x"}, {Name: "d", Image: "x"}},
	}}
	term := func(start, end time.Duration, code int32) *corev1.ContainerStateTerminated {
		return &corev1.ContainerStateTerminated{ExitCode: code, StartedAt: metav1.NewTime(t0.Add(start)), FinishedAt: metav1.NewTime(t0.Add(end))}
	}
	pod.Status.ContainerStatuses = []corev1.ContainerStatus{
		{Name: "a", RestartCount: 3, State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "CrashLoopBackOff", Message: "back-off 40s restarting failed container=a pod=p_ns(u)"}},
			LastTerminationState: corev1.ContainerState{Terminated: term(50*time.Second, 55*time.Second, 1)}},
		{Name: "b", RestartCount: 2, State: corev1.ContainerState{Terminated: term(40*time.Second, 45*time.Second, 1)}},
		{Name: "c", State: corev1.ContainerState{Terminated: term(0, 5*time.Second, 1)}},
		{Name: "d", RestartCount: 4, State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "CrashLoopBackOff", Message: "not the kubelet's words"}},
			LastTerminationState: corev1.ContainerState{Terminated: term(0, 5*time.Second, 1)}},
	}
	v := ViewFromStatus(pod)
	key := func(i int) string { return restart.BackOffKey(pod, &pod.Spec.Containers[i]) }
	assert.Equal(t, map[string]restart.BackOff{
		key(0): {Exists: true, Delay: 40 * time.Second, LastUpdate: t0.Add(50 * time.Second)},
		key(1): {Exists: true, Delay: 20 * time.Second, LastUpdate: t0.Add(40 * time.Second)},
	}, v.BackOff)

	// Plan over the view holds a and b back until their exit plus the delay.
	a := Plan(pod, &v, t0.Add(60*time.Second), Options{})
	var until []time.Duration
	for _, w := range a.BackOff {
		until = append(until, w.Until.Sub(t0))
	}
	assert.Equal(t, []time.Duration{95 * time.Second, 65 * time.Second}, until)
	assert.Equal(t, []string{"c", "d"}, refNames(a.ContainersToStart))

	assert.Equal(t, time.Duration(0), func() time.Duration { d, _ := crashLoopDelay("back-off x restarting"); return d }())
}

func refNames(refs []ContainerRef) []string {
	var out []string
	for _, r := range refs {
		out = append(out, r.Name)
	}
	return out
}
