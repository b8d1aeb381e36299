package lifecycle

import (
	"time"

	corev1 "k8s.io/api/core/v1"
)

// The reason and message of a pod failed for exceeding spec.activeDeadlineSeconds, as in
// k8s.io/kubernetes pkg/kubelet/active_deadline.go. The kubelet also records a Normal event
// with the same reason and message.
const (
	ReasonDeadlineExceeded  = "DeadlineExceeded"
	MessageDeadlineExceeded = "Pod was active on the node longer than the specified deadline"
)

// Eviction is the answer of one of the kubelet's pod sync handlers: whether the pod must be
// failed, and with which status reason and message.
type Eviction struct {
	Evict   bool
	Reason  string
	Message string
}

// ActiveDeadline returns the instant from which the pod is past its active deadline:
// status.startTime plus spec.activeDeadlineSeconds. ok is false when the pod has no
// deadline or no start time, in which case the kubelet never enforces one. The start time
// is the one the kubelet's status manager set on its first status for the pod (roughly when
// the kubelet first synced it), not the start of any container.
func ActiveDeadline(pod *corev1.Pod) (deadline time.Time, ok bool) {
	pod = orEmpty(pod)
	return activeDeadline(pod, &pod.Status)
}

func activeDeadline(pod *corev1.Pod, status *corev1.PodStatus) (time.Time, bool) {
	if pod.Spec.ActiveDeadlineSeconds == nil || status.StartTime.IsZero() {
		return time.Time{}, false
	}
	// The same Duration arithmetic as upstream, overflow included.
	return status.StartTime.Time.Add(time.Duration(*pod.Spec.ActiveDeadlineSeconds) * time.Second), true
}

// PastActiveDeadline reports whether at now the pod has been active at least
// spec.activeDeadlineSeconds since status.startTime. The comparison is inclusive: a pod
// with a 30-second deadline is past it exactly 30 seconds after its start.
func PastActiveDeadline(pod *corev1.Pod, now time.Time) bool {
	pod = orEmpty(pod)
	return pastActiveDeadline(pod, &pod.Status, now)
}

func pastActiveDeadline(pod *corev1.Pod, status *corev1.PodStatus, now time.Time) bool {
	if pod.Spec.ActiveDeadlineSeconds == nil || status.StartTime.IsZero() {
		return false
	}
	allowed := time.Duration(*pod.Spec.ActiveDeadlineSeconds) * time.Second
	return now.Sub(status.StartTime.Time) >= allowed
}

// DeadlineEviction is the kubelet's active-deadline sync handler (ShouldEvict): a pod past
// its active deadline at now is to be failed with reason [ReasonDeadlineExceeded] and
// message [MessageDeadlineExceeded].
func DeadlineEviction(pod *corev1.Pod, now time.Time) Eviction {
	pod = orEmpty(pod)
	return deadlineEviction(pod, &pod.Status, now)
}

func deadlineEviction(pod *corev1.Pod, status *corev1.PodStatus, now time.Time) Eviction {
	if !pastActiveDeadline(pod, status, now) {
		return Eviction{}
	}
	return Eviction{Evict: true, Reason: ReasonDeadlineExceeded, Message: MessageDeadlineExceeded}
}
