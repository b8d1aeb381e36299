package examples_test

import (
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podlife/podlife"
	"github.com/podlife/podlife/lifecycle"
	"github.com/podlife/podlife/resources"
	"github.com/podlife/podlife/restart"
	"github.com/podlife/podlife/validation"
)

// Example_readme is the "Use it" snippet of README.md, which TestReadmeSnippet keeps
// equal to the lines between the markers.
func Example_readme() {
	// README:begin
	// The Init Containers page's myapp-pod, each container with limits only.
	limits := corev1.ResourceRequirements{Limits: corev1.ResourceList{
		corev1.ResourceCPU: resource.MustParse("500m"), corev1.ResourceMemory: resource.MustParse("128Mi")}}
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "myapp-pod", Namespace: "default", UID: "8f1c"},
		Spec: corev1.PodSpec{
			InitContainers: []corev1.Container{
				{Name: "init-myservice", Image: "busybox:1.28", Resources: limits},
				{Name: "init-mydb", Image: "busybox:1.28", Resources: limits},
			},
			Containers: []corev1.Container{{Name: "myapp-container", Image: "busybox:1.28", Resources: limits}},
		},
	}
	errs := validation.ValidatePodCreate(pod, validation.Options{}) // the server's field.ErrorList
	fmt.Println("valid:", len(errs) == 0)

	// resources reads the pod as the API server stores it: Default first. Raw, a
	// limits-only container has no requests (map[]) and the pod is Burstable.
	fmt.Println(resources.PodRequests(pod, resources.PodResourcesOptions{}), resources.ComputePodQOS(pod))
	pod = podlife.Default(pod) // what the server stores on create: requests = limits
	requests := resources.PodRequests(pod, resources.PodResourcesOptions{})
	fmt.Println(requests.Cpu(), requests.Memory(), resources.ComputePodQOS(pod))
	// A workload's pod: podlife.PodFromTemplate(&deployment.Spec.Template, ...) builds it.

	// The kubelet's next action for a pod the node has not started yet.
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	view := lifecycle.ViewFromStatus(pod) // the node's runtime, derived from the status
	fmt.Println(lifecycle.Plan(pod, &view, now, lifecycle.Options{}))

	// Its whole life in virtual time: init-myservice waits 20s for its service, init-mydb 15s.
	tl := lifecycle.Simulate(pod, lifecycle.Script{
		"init-myservice": {Runs: []lifecycle.Run{{Duration: 20 * time.Second}}},
		"init-mydb":      {Runs: []lifecycle.Run{{Duration: 15 * time.Second}}},
	}, lifecycle.SimulateOptions{Start: now})
	for _, s := range tl.Steps {
		cols := s.Row // kubectl get pods -o wide, cell by cell
		fmt.Println(cols.Age, cols.Ready, cols.Status)
	}

	// Ask the live pod (as `kubectl get pod -o yaml` shows it) why, 10s into its life.
	live := tl.Pod.DeepCopy()
	live.Status = tl.Steps[1].Status
	e := lifecycle.Explain(live, now.Add(10*time.Second), lifecycle.Options{})
	fmt.Println(e.Conditions[0].Blocking, e.Actions) // what keeps it from Initialized; the next action

	d := restart.ShouldRestart(pod, "myapp-container", restart.Options{})
	fmt.Println(d.Restart, d.Explain())
	// README:end

	// Output:
	// valid: true
	// map[] Burstable
	// 500m 128Mi Guaranteed
	// create a sandbox (attempt 0) because no pod sandbox exists; start init container init-myservice
	// 0s 0/1 Init:0/2
	// 1s 0/1 Init:0/2
	// 20s 0/1 Init:1/2
	// 21s 0/1 Init:1/2
	// 35s 0/1 PodInitializing
	// 36s 1/1 Running
	// [init-myservice init-mydb] nothing to do
	// true container has no instance yet → Restart
}
