package lifecycle_test

import (
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/podlife/podlife/lifecycle"
	"github.com/podlife/podlife/restart"
)

// myappPod is the myapp-pod of the Kubernetes "Init Containers" page.
func myappPod() *corev1.Pod {
	pod := &corev1.Pod{}
	pod.Name, pod.Namespace, pod.UID = "myapp-pod", "default", "8f1c"
	pod.Labels = map[string]string{"app.kubernetes.io/name": "MyApp"}
	pod.Spec.RestartPolicy = corev1.RestartPolicyAlways
	pod.Spec.Containers = []corev1.Container{{
		Name: "myapp-container", Image: "busybox:1.28",
		Command: []string{"sh", "-c", "echo The app is running! && sleep 3600"},
	}}
	pod.Spec.InitContainers = []corev1.Container{
		{Name: "init-myservice", Image: "busybox:1.28", Command: []string{"sh", "-c", "until nslookup myservice; do echo waiting for myservice; sleep 2; done"}},
		{Name: "init-mydb", Image: "busybox:1.28", Command: []string{"sh", "-c", "until nslookup mydb; do echo waiting for mydb; sleep 2; done"}},
	}
	return pod
}

// The kubelet's next action for myapp-pod at three moments of its start.
func ExamplePlan() {
	pod := myappPod()
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

	// A fresh pod: the node has nothing for it yet.
	fmt.Println(lifecycle.Plan(pod, &restart.View{}, now, lifecycle.Options{}))

	// init-myservice ran and succeeded in the new sandbox.
	view := restart.View{
		Sandboxes: []restart.Sandbox{{ID: "sb1", Ready: true, Network: &restart.SandboxNetwork{IP: "10.244.1.7"}}},
		Instances: []restart.Instance{
			{Name: "init-myservice", ID: "containerd://a1", State: restart.StateExited, Reason: "Completed", FinishedAt: now.Add(-time.Second)},
		},
	}
	fmt.Println(lifecycle.Plan(pod, &view, now, lifecycle.Options{}))

	// Both init containers succeeded.
	view.Instances = append([]restart.Instance{
		{Name: "init-mydb", ID: "containerd://b2", State: restart.StateExited, Reason: "Completed", FinishedAt: now},
	}, view.Instances...)
	a := lifecycle.Plan(pod, &view, now, lifecycle.Options{})
	fmt.Println(a)
	fmt.Println(a.ContainersToStart[0].Kind, a.ContainersToStart[0].Index)
	// Output:
	// create a sandbox (attempt 0) because no pod sandbox exists; start init container init-myservice
	// start init container init-mydb
	// start container myapp-container
	// Container 0
}
