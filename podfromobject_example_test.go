package podlife_test

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podlife/podlife"
)

// The pod a StatefulSet runs first: its identity, the volume of its claim template,
// and the server's defaults (requests copied from limits, the QoS class).
func ExamplePodFromObject() {
	set := &appsv1.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop", UID: "b3f1"},
		Spec: appsv1.StatefulSetSpec{
			ServiceName: "nginx",
			Selector:    &metav1.LabelSelector{MatchLabels: map[string]string{"app": "nginx"}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "nginx"}},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{
					Name:         "nginx",
					Image:        "registry.k8s.io/nginx-slim:0.21",
					VolumeMounts: []corev1.VolumeMount{{Name: "www", MountPath: "/usr/share/nginx/html"}},
					Resources: corev1.ResourceRequirements{Limits: corev1.ResourceList{
						corev1.ResourceCPU: resource.MustParse("250m"), corev1.ResourceMemory: resource.MustParse("64Mi"),
					}},
				}}},
			},
			VolumeClaimTemplates: []corev1.PersistentVolumeClaim{{ObjectMeta: metav1.ObjectMeta{Name: "www"}}},
		},
	}
	pod, err := podlife.PodFromObject(set, podlife.PodFromTemplateOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(pod.Namespace+"/"+pod.Name, "hostname", pod.Spec.Hostname+"."+pod.Spec.Subdomain)
	fmt.Println("owner:", pod.OwnerReferences[0].Kind, pod.OwnerReferences[0].Name)
	fmt.Println("volume www claims", pod.Spec.Volumes[0].PersistentVolumeClaim.ClaimName)
	c := pod.Spec.Containers[0]
	fmt.Println("requests:", c.Resources.Requests.Cpu(), c.Resources.Requests.Memory(), "qos:", pod.Status.QOSClass)
	// Output:
	// shop/web-0 hostname web-0.nginx
	// owner: StatefulSet web
	// volume www claims www-web-0
	// requests: 250m 64Mi qos: Guaranteed
}
