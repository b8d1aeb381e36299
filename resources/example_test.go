package resources_test

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/podlife/podlife/resources"
)

// examplePod is the Init Containers page's myapp-pod with resources, plus a sidecar
// started between the two init containers.
func examplePod() *corev1.Pod {
	req := func(cpu, mem string) corev1.ResourceRequirements {
		l := corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(cpu), corev1.ResourceMemory: resource.MustParse(mem)}
		return corev1.ResourceRequirements{Requests: l, Limits: l.DeepCopy()}
	}
	always := corev1.ContainerRestartPolicyAlways
	return &corev1.Pod{Spec: corev1.PodSpec{
		InitContainers: []corev1.Container{
			{Name: "init-myservice", Resources: req("100m", "32Mi")},
			{Name: "log-shipper", RestartPolicy: &always, Resources: req("50m", "16Mi")},
			{Name: "init-mydb", Resources: req("500m", "64Mi")},
		},
		Containers: []corev1.Container{{Name: "myapp-container", Resources: req("250m", "128Mi")}},
	}}
}

func ExamplePodRequests() {
	pod := examplePod()
	// What the scheduler reserves: init-mydb runs beside the sidecar (500m + 50m of
	// cpu), more than the app and the sidecar together (250m + 50m).
	requests := resources.PodRequests(pod, resources.PodResourcesOptions{})
	fmt.Println("cpu:", requests.Cpu(), "memory:", requests.Memory())
	// Output: cpu: 550m memory: 144Mi
}

func ExamplePodLimits() {
	pod := examplePod()
	pod.Spec.Overhead = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("10m")}
	limits := resources.PodLimits(pod, resources.PodResourcesOptions{})
	fmt.Println("cpu:", limits.Cpu(), "memory:", limits.Memory())
	// Output: cpu: 560m memory: 144Mi
}

func ExampleComputePodQOS() {
	pod := examplePod()
	fmt.Println(resources.ComputePodQOS(pod))
	delete(pod.Spec.InitContainers[0].Resources.Limits, corev1.ResourceMemory)
	fmt.Println(resources.ComputePodQOS(pod))
	// Output:
	// Guaranteed
	// Burstable
}

func ExampleExplain() {
	fmt.Print(resources.Explain(examplePod(), resources.PodResourcesOptions{}))
	// Output:
	// REQUESTS  RESULT  OP   TERM                 VALUE     DETAIL
	//   cpu     550m    max  containers           300m      (myapp-container 250m + log-shipper 50m)
	//                   max  init init-myservice  100m      (no sidecar running)
	//                   max  sidecar log-shipper  50m       (first sidecar)
	//                   max  init init-mydb       550m   *  (with sidecars log-shipper)
	//   memory  144Mi   max  containers           144Mi  *  (myapp-container 128Mi + log-shipper 16Mi)
	//                   max  init init-myservice  32Mi      (no sidecar running)
	//                   max  sidecar log-shipper  16Mi      (first sidecar)
	//                   max  init init-mydb       80Mi      (with sidecars log-shipper)
	// LIMITS    RESULT  OP   TERM                 VALUE     DETAIL
	//   cpu     550m    max  containers           300m      (myapp-container 250m + log-shipper 50m)
	//                   max  init init-myservice  100m      (no sidecar running)
	//                   max  sidecar log-shipper  50m       (first sidecar)
	//                   max  init init-mydb       550m   *  (with sidecars log-shipper)
	//   memory  144Mi   max  containers           144Mi  *  (myapp-container 128Mi + log-shipper 16Mi)
	//                   max  init init-myservice  32Mi      (no sidecar running)
	//                   max  sidecar log-shipper  16Mi      (first sidecar)
	//                   max  init init-mydb       80Mi      (with sidecars log-shipper)
}
