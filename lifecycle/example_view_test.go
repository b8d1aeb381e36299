package lifecycle_test

import (
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podlife/podlife/lifecycle"
)

// A caller that only has the API object derives a runtime view from its status and
// asks for the kubelet's next action.
func ExampleViewFromStatus() {
	pod := myappPod()
	finished := metav1.NewTime(time.Date(2026, 1, 1, 12, 0, 5, 0, time.UTC))
	pod.Status.PodIP = "10.244.1.7"
	pod.Status.InitContainerStatuses = []corev1.ContainerStatus{
		{Name: "init-myservice", ContainerID: "containerd://a1", State: corev1.ContainerState{
			Terminated: &corev1.ContainerStateTerminated{Reason: "Completed", FinishedAt: finished, ContainerID: "containerd://a1"}}},
		{Name: "init-mydb", State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "PodInitializing"}}},
	}
	view := lifecycle.ViewFromStatus(pod)
	fmt.Println(len(view.Sandboxes), view.Sandboxes[0].Network.IP, len(view.Instances), view.Instances[0].Name, view.Instances[0].State)
	fmt.Println(lifecycle.Plan(pod, &view, finished.Add(time.Second), lifecycle.Options{}))
	// Output:
	// 1 10.244.1.7 1 init-myservice exited
	// start init container init-mydb
}
