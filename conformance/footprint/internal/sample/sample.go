// Package sample is the pod the footprint programs answer for.
package sample

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Pod returns the Init Containers page's myapp-pod with resources.
func Pod() *corev1.Pod {
	res := corev1.ResourceRequirements{Limits: corev1.ResourceList{
		corev1.ResourceCPU: resource.MustParse("500m"), corev1.ResourceMemory: resource.MustParse("128Mi")}}
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "myapp-pod", Namespace: "default"},
		Spec: corev1.PodSpec{
			InitContainers: []corev1.Container{{Name: "init-myservice", Image: "busybox:1.28", Resources: res}},
			Containers:     []corev1.Container{{Name: "myapp-container", Image: "busybox:1.28", Resources: res}},
		},
	}
}
