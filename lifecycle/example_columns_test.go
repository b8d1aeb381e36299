package lifecycle_test

import (
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podlife/podlife/lifecycle"
)

// `kubectl get pods -o wide` for the sidecar pod at three moments, with the printer's clock
// as a parameter.
func ExamplePodColumns() {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	pod := shipperPod()
	pod.CreationTimestamp = metav1.NewTime(now.Add(-3*time.Minute - 20*time.Second))
	pod.Spec.NodeName = "node-a"
	pod.Status.PodIPs = []corev1.PodIP{{IP: "10.244.1.7"}}
	row := func() {
		c := lifecycle.PodColumns(pod, now)
		fmt.Printf("%-12s %-5s %-22s %-12s %-6s %-10s %-6s %-6s %s\n", c.Name, c.Ready, c.Status, c.Restarts, c.Age, c.IP, c.Node, c.NominatedNode, c.ReadinessGates)
	}

	pod.Status.Phase = corev1.PodPending
	pod.Status.InitContainerStatuses = []corev1.ContainerStatus{exited("fetch", 0, "Completed"), waiting("shipper", "CrashLoopBackOff")}
	pod.Status.InitContainerStatuses[1].RestartCount = 2
	pod.Status.InitContainerStatuses[1].LastTerminationState.Terminated = &corev1.ContainerStateTerminated{ExitCode: 1, FinishedAt: metav1.NewTime(now.Add(-15 * time.Second))}
	pod.Status.ContainerStatuses = []corev1.ContainerStatus{waiting("report", "PodInitializing")}
	row()

	pod.Status.Phase = corev1.PodRunning
	pod.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodInitialized, Status: corev1.ConditionTrue}, {Type: corev1.PodReady, Status: corev1.ConditionTrue}}
	pod.Status.InitContainerStatuses[1] = running("shipper", true, true)
	pod.Status.ContainerStatuses = []corev1.ContainerStatus{running("report", true, true)}
	row()

	pod.Status.Phase = corev1.PodSucceeded
	pod.Status.InitContainerStatuses[1] = exited("shipper", 143, "Error")
	pod.Status.ContainerStatuses = []corev1.ContainerStatus{exited("report", 0, "Completed")}
	row()
	// Output:
	// report-7f9c  0/2   Init:CrashLoopBackOff  2 (15s ago)  3m20s  10.244.1.7 node-a <none> <none>
	// report-7f9c  2/2   Running                0            3m20s  10.244.1.7 node-a <none> <none>
	// report-7f9c  0/2   Completed              0            3m20s  10.244.1.7 node-a <none> <none>
}

func ExampleHumanDuration() {
	for _, d := range []time.Duration{90 * time.Second, 190 * time.Second, 70 * time.Minute, 5 * time.Hour, 49 * time.Hour, 400 * 24 * time.Hour, 3 * 365 * 24 * time.Hour} {
		fmt.Print(lifecycle.HumanDuration(d), " ")
	}
	fmt.Println()
	// Output: 90s 3m10s 70m 5h 2d1h 400d 3y
}
