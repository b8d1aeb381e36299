// Package podshapes builds the pods the speed tests of several conformance packages
// share, so that a figure quoted for "the web pod" means the same pod everywhere,
// and reads pods as several packages' generators do (ContainerNames).
package podshapes

import (
	"strconv"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// Web is a typical web pod, valid as written: an init container that migrates, a
// restartable log-shipping sidecar and n app containers, each with requests and
// limits, liveness and readiness probes, env (one from the downward API), an envFrom
// config map and a mount of the pod's one emptyDir volume. It is the pod of the main
// module's BenchmarkValidatePodCreate.
func Web(n int) *v1.Pod {
	always := v1.ContainerRestartPolicyAlways
	probe := func() *v1.Probe {
		return &v1.Probe{ProbeHandler: v1.ProbeHandler{HTTPGet: &v1.HTTPGetAction{Path: "/healthz", Port: intstr.FromString("http")}}}
	}
	resources := func(cpu, mem string) v1.ResourceList {
		return v1.ResourceList{v1.ResourceCPU: resource.MustParse(cpu), v1.ResourceMemory: resource.MustParse(mem)}
	}
	p := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web-7d9f", Namespace: "prod", Labels: map[string]string{"app": "web", "tier": "frontend"}},
		Spec: v1.PodSpec{
			Volumes: []v1.Volume{{Name: "data", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}}},
			InitContainers: []v1.Container{
				{Name: "migrate", Image: "registry.example.com/team/migrate:v1", Command: []string{"migrate", "up"}},
				{Name: "log-shipper", Image: "fluent-bit:3.0", RestartPolicy: &always, ReadinessProbe: probe(),
					Ports: []v1.ContainerPort{{Name: "http", ContainerPort: 2020}}},
			},
		},
	}
	for i := range n {
		p.Spec.Containers = append(p.Spec.Containers, v1.Container{
			Name: "app-" + strconv.Itoa(i), Image: "registry.example.com/team/app:v1.2.3",
			Ports: []v1.ContainerPort{{Name: "http", ContainerPort: 8080}},
			Env: []v1.EnvVar{
				{Name: "MODE", Value: "prod"},
				{Name: "POD_NAME", ValueFrom: &v1.EnvVarSource{FieldRef: &v1.ObjectFieldSelector{FieldPath: "metadata.name"}}},
			},
			EnvFrom:        []v1.EnvFromSource{{ConfigMapRef: &v1.ConfigMapEnvSource{LocalObjectReference: v1.LocalObjectReference{Name: "cfg"}}}},
			VolumeMounts:   []v1.VolumeMount{{Name: "data", MountPath: "/data"}},
			Resources:      v1.ResourceRequirements{Requests: resources("250m", "256Mi"), Limits: resources("1", "512Mi")},
			LivenessProbe:  probe(),
			ReadinessProbe: probe(),
		})
	}
	return p
}

// Minimal is the smallest pod the server accepts: a name and one container with an
// image.
func Minimal() *v1.Pod {
	return &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "hello", Namespace: "default"},
		Spec:       v1.PodSpec{Containers: []v1.Container{{Name: "hello", Image: "busybox:1.36"}}},
	}
}

// ContainerNames lists the names of pod's init, regular and ephemeral containers, in
// that order.
func ContainerNames(pod *v1.Pod) []string {
	names := make([]string, 0, len(pod.Spec.InitContainers)+len(pod.Spec.Containers)+len(pod.Spec.EphemeralContainers))
	for _, c := range pod.Spec.InitContainers {
		names = append(names, c.Name)
	}
	for _, c := range pod.Spec.Containers {
		names = append(names, c.Name)
	}
	for _, c := range pod.Spec.EphemeralContainers {
		names = append(names, c.Name)
	}
	return names
}
