package lifecycle_test

import (
	"fmt"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/podlife/podlife/lifecycle"
	"github.com/podlife/podlife/restart"
)

// The status the kubelet writes for myapp-pod while its second init container runs.
func ExampleNextStatus() {
	pod := myappPod()
	now := time.Date(2026, 1, 1, 12, 0, 30, 0, time.UTC)
	view := restart.View{
		Sandboxes: []restart.Sandbox{{ID: "sb1", Ready: true, Network: &restart.SandboxNetwork{IP: "10.244.1.7"}}},
		Instances: []restart.Instance{
			{Name: "init-mydb", ID: "containerd://b2", State: restart.StateRunning, StartedAt: now.Add(-10 * time.Second)},
			{Name: "init-myservice", ID: "containerd://a1", State: restart.StateExited, Reason: "Completed",
				StartedAt: now.Add(-30 * time.Second), FinishedAt: now.Add(-11 * time.Second)},
		},
	}
	s := lifecycle.NextStatus(pod, &view, now, lifecycle.Options{})
	fmt.Println(s.Phase, s.PodIP, s.QOSClass)
	for _, c := range s.Conditions {
		fmt.Println(strings.TrimSpace(fmt.Sprint(c.Type, " ", c.Status, " ", c.Reason, " ", c.Message)))
	}
	for _, cs := range append(s.InitContainerStatuses, s.ContainerStatuses...) {
		switch {
		case cs.State.Running != nil:
			fmt.Println(cs.Name, "running")
		case cs.State.Terminated != nil:
			fmt.Println(cs.Name, "terminated", cs.State.Terminated.Reason)
		case cs.State.Waiting != nil:
			fmt.Println(cs.Name, "waiting", cs.State.Waiting.Reason)
		}
	}
	pod.Status = s
	fmt.Println(lifecycle.PodColumns(pod, now).Status)
	// Output:
	// Pending 10.244.1.7 BestEffort
	// PodReadyToStartContainers True
	// Initialized False ContainersNotInitialized containers with incomplete status: [init-mydb]
	// Ready False ContainersNotReady containers with unready status: [myapp-container]
	// ContainersReady False ContainersNotReady containers with unready status: [myapp-container]
	// PodScheduled True
	// init-myservice terminated Completed
	// init-mydb running
	// myapp-container waiting PodInitializing
	// Init:1/2
}

// The runtime conditions of a pod whose sandbox died.
func ExamplePodReadyToStartContainersCondition() {
	pod := &corev1.Pod{}
	view := restart.View{Sandboxes: []restart.Sandbox{{ID: "sb1", Ready: false, Attempt: 0}}}
	c := lifecycle.PodReadyToStartContainersCondition(pod, &view, lifecycle.Options{})
	fmt.Println(c.Status, c.Reason, c.Message)
	fmt.Println(lifecycle.ComputePodActions(pod, &view, false, lifecycle.Options{}))
	// Output:
	// False PodSandboxNotReady pod sandbox is not ready
	// kill the pod; create a sandbox (attempt 1) because pod sandbox is not ready
}
