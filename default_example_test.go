package podlife_test

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/podlife/podlife"
)

// A container with limits only gets equal requests, so the pod is Guaranteed; an
// untagged image is pulled Always.
func ExampleDefault() {
	pod := &corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{{
		Name:  "app",
		Image: "nginx",
		Resources: corev1.ResourceRequirements{Limits: corev1.ResourceList{
			corev1.ResourceCPU:    resource.MustParse("500m"),
			corev1.ResourceMemory: resource.MustParse("0.5Gi"),
		}},
	}}}}
	out := podlife.Default(pod)
	c := out.Spec.Containers[0]
	fmt.Println("requests:", c.Resources.Requests.Cpu(), c.Resources.Requests.Memory())
	fmt.Println("imagePullPolicy:", c.ImagePullPolicy)
	fmt.Println("qosClass:", out.Status.QOSClass)
	fmt.Println("phase:", out.Status.Phase)
	fmt.Println("restartPolicy:", out.Spec.RestartPolicy, "dnsPolicy:", out.Spec.DNSPolicy)
	// Output:
	// requests: 500m 512Mi
	// imagePullPolicy: Always
	// qosClass: Guaranteed
	// phase: Pending
	// restartPolicy: Always dnsPolicy: ClusterFirst
}

// An update is defaulted against the stored pod: the stored status stays, and the
// generation moves only when the spec changes.
func ExampleDefaultForUpdate() {
	stored := podlife.Default(&corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "nginx:1.27"}}}})

	relabelled := stored.DeepCopy()
	relabelled.Labels = map[string]string{"tier": "web"}
	fmt.Println(podlife.DefaultForUpdate(relabelled, stored, podlife.DefaultOptions{}).Generation)

	newImage := stored.DeepCopy()
	newImage.Spec.Containers[0].Image = "nginx:1.28"
	out := podlife.DefaultForUpdate(newImage, stored, podlife.DefaultOptions{})
	fmt.Println(out.Generation, out.Status.Phase, out.Status.QOSClass)
	// Output:
	// 1
	// 2 Pending BestEffort
}
