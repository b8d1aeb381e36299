package validation

import (
	"strconv"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/podlife/podlife/internal/defaulting"
)

// benchPod is a typical production pod: two init steps, a sidecar and n app
// containers with probes, env, mounts and resources.
func benchPod(n int) *corev1.Pod {
	always := corev1.ContainerRestartPolicyAlways
	probe := &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/healthz", Port: intstr.FromString("http")}}}
	app := func(name string) corev1.Container {
		return corev1.Container{
			Name: name, Image: "registry.example.com/team/app:v1.2.3",
			Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 8080}},
			Env: []corev1.EnvVar{
				{Name: "MODE", Value: "prod"},
				{Name: "POD_NAME", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.name"}}},
			},
			EnvFrom:        []corev1.EnvFromSource{{ConfigMapRef: &corev1.ConfigMapEnvSource{LocalObjectReference: corev1.LocalObjectReference{Name: "cfg"}}}},
			VolumeMounts:   []corev1.VolumeMount{{Name: "data", MountPath: "/data"}},
			Resources:      corev1.ResourceRequirements{Requests: rl("cpu", "250m", "memory", "256Mi"), Limits: rl("cpu", "1", "memory", "512Mi")},
			LivenessProbe:  probe.DeepCopy(),
			ReadinessProbe: probe.DeepCopy(),
		}
	}
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web-7d9f", Namespace: "prod", Labels: map[string]string{"app": "web", "tier": "frontend"}},
		Spec: corev1.PodSpec{
			Volumes: []corev1.Volume{{Name: "data", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}},
			InitContainers: []corev1.Container{
				{Name: "migrate", Image: "registry.example.com/team/migrate:v1", Command: []string{"migrate", "up"}},
				{Name: "log-shipper", Image: "fluent-bit:3.0", RestartPolicy: &always, ReadinessProbe: probe.DeepCopy(),
					Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 2020}}},
			},
		},
	}
	for i := 0; i < n; i++ {
		p.Spec.Containers = append(p.Spec.Containers, app("app-"+strconv.Itoa(i)))
	}
	return p
}

func BenchmarkValidatePodCreate(b *testing.B) {
	for _, n := range []int{1, 10, 100} {
		pod := benchPod(n)
		b.Run("containers="+strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if errs := ValidatePodCreate(pod, Options{}); len(errs) != 0 {
					b.Fatal(errs)
				}
			}
		})
	}
}

// BenchmarkValidatePreparedPod measures validation alone, on a pod already defaulted.
func BenchmarkValidatePreparedPod(b *testing.B) {
	for _, n := range []int{1, 10, 100} {
		pod := defaulting.Pod(benchPod(n), defaulting.Options{ReadOnly: true})
		b.Run("containers="+strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if errs := ValidatePodCreate(pod, Options{SkipDefaulting: true}); len(errs) != 0 {
					b.Fatal(errs)
				}
			}
		})
	}
}
