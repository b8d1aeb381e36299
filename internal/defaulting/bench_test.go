package defaulting

import (
	"strconv"
	"syscall"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// benchPod is a typical web pod: an init container, a restartable sidecar and n app
// containers with requests, limits, probes, env and a volume mount.
func benchPod(n int) *corev1.Pod {
	always := corev1.ContainerRestartPolicyAlways
	probe := &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/healthz", Port: intstr.FromString("http")}}}
	rl := func(cpu, mem string) corev1.ResourceList {
		return corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(cpu), corev1.ResourceMemory: resource.MustParse(mem)}
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
	for i := range n {
		p.Spec.Containers = append(p.Spec.Containers, corev1.Container{
			Name: "app-" + strconv.Itoa(i), Image: "registry.example.com/team/app:v1.2.3",
			Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 8080}},
			Env: []corev1.EnvVar{
				{Name: "MODE", Value: "prod"},
				{Name: "POD_NAME", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.name"}}},
			},
			EnvFrom:        []corev1.EnvFromSource{{ConfigMapRef: &corev1.ConfigMapEnvSource{LocalObjectReference: corev1.LocalObjectReference{Name: "cfg"}}}},
			VolumeMounts:   []corev1.VolumeMount{{Name: "data", MountPath: "/data"}},
			Resources:      corev1.ResourceRequirements{Requests: rl("250m", "256Mi"), Limits: rl("1", "512Mi")},
			LivenessProbe:  probe.DeepCopy(),
			ReadinessProbe: probe.DeepCopy(),
		})
	}
	return p
}

// BenchmarkDefault measures Default beside a plain DeepCopy of the same pod, the floor
// of any function that returns a copy.
func BenchmarkDefault(b *testing.B) {
	for _, n := range []int{1, 10, 100} {
		pod := benchPod(n)
		b.Run("containers="+strconv.Itoa(n)+"/Default", func(b *testing.B) {
			b.ReportAllocs()
			defer reportCPU(b)()
			for b.Loop() {
				_ = defaultPod(pod)
			}
		})
		b.Run("containers="+strconv.Itoa(n)+"/DeepCopy", func(b *testing.B) {
			b.ReportAllocs()
			defer reportCPU(b)()
			for b.Loop() {
				_ = pod.DeepCopy()
			}
		})
	}
}

// reportCPU adds a cpu-ns/op metric, the process CPU time per op: on a shared
// machine wall time mostly measures the other processes.
func reportCPU(b *testing.B) func() {
	start := cpuTime()
	return func() {
		if b.N > 0 {
			b.ReportMetric(float64((cpuTime()-start).Nanoseconds())/float64(b.N), "cpu-ns/op")
		}
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
