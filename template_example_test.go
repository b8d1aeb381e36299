package podlife_test

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podlife/podlife"
)

func exampleTemplate() *corev1.PodTemplateSpec {
	return &corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{
			Name:  "web",
			Image: "nginx:1.27",
			Resources: corev1.ResourceRequirements{Limits: corev1.ResourceList{
				corev1.ResourceCPU:    resource.MustParse("250m"),
				corev1.ResourceMemory: resource.MustParse("256Mi"),
			}},
		}}},
	}
}

// A Deployment's template as the API server stores it: PodSpec defaults, but limits
// are not copied into requests (that happens only when a pod is created).
func ExampleDefaultTemplate() {
	stored := podlife.DefaultTemplate(exampleTemplate())
	c := stored.Spec.Containers[0]
	fmt.Println("requests:", c.Resources.Requests == nil)
	fmt.Println("imagePullPolicy:", c.ImagePullPolicy)
	fmt.Println("restartPolicy:", stored.Spec.RestartPolicy)
	// Output:
	// requests: true
	// imagePullPolicy: IfNotPresent
	// restartPolicy: Always
}

// The pod a ReplicaSet controller gets stored for the same template.
func ExamplePodFromTemplate() {
	pod := podlife.PodFromTemplate(exampleTemplate(), podlife.PodFromTemplateOptions{
		ControllerName: "web-7d9f8c",
		Namespace:      "default",
	})
	c := pod.Spec.Containers[0]
	fmt.Println("generateName:", pod.GenerateName)
	fmt.Println("requests:", c.Resources.Requests.Cpu(), c.Resources.Requests.Memory())
	fmt.Println("qosClass:", pod.Status.QOSClass)
	// Output:
	// generateName: web-7d9f8c-
	// requests: 250m 256Mi
	// qosClass: Guaranteed
}
