package lifecycle_test

import (
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podlife/podlife/lifecycle"
)

// activeDeadlineSeconds counts from status.startTime, inclusively.
func ExampleDeadlineEviction() {
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	deadline := int64(300)
	pod := &corev1.Pod{
		Spec:   corev1.PodSpec{ActiveDeadlineSeconds: &deadline},
		Status: corev1.PodStatus{StartTime: &metav1.Time{Time: start}},
	}
	at, _ := lifecycle.ActiveDeadline(pod)
	fmt.Println(at.Format(time.RFC3339))
	fmt.Printf("%+v\n", lifecycle.DeadlineEviction(pod, at.Add(-time.Nanosecond)))
	fmt.Printf("%+v\n", lifecycle.DeadlineEviction(pod, at))
	// Output:
	// 2026-01-01T12:05:00Z
	// {Evict:false Reason: Message:}
	// {Evict:true Reason:DeadlineExceeded Message:Pod was active on the node longer than the specified deadline}
}
