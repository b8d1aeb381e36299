package validationrules

import (
	"strconv"
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/podlife/podlife/conformance/internal/upstreamcreate"
	"github.com/podlife/podlife/validation"
)

// benchPod is the pod of podlife/validation's BenchmarkValidatePodCreate: two init
// steps, a sidecar and n app containers with probes, env, mounts and resources.
func benchPod(n int) *v1.Pod {
	always := v1.ContainerRestartPolicyAlways
	probe := &v1.Probe{ProbeHandler: v1.ProbeHandler{HTTPGet: &v1.HTTPGetAction{Path: "/healthz", Port: intstr.FromString("http")}}}
	rl := func(cpu, mem string) v1.ResourceList {
		return v1.ResourceList{v1.ResourceCPU: resource.MustParse(cpu), v1.ResourceMemory: resource.MustParse(mem)}
	}
	app := func(name string) v1.Container {
		return v1.Container{
			Name: name, Image: "registry.example.com/team/app:v1.2.3",
			Ports: []v1.ContainerPort{{Name: "http", ContainerPort: 8080}},
			Env: []v1.EnvVar{
				{Name: "MODE", Value: "prod"},
				{Name: "POD_NAME", ValueFrom: &v1.EnvVarSource{FieldRef: &v1.ObjectFieldSelector{FieldPath: "metadata.name"}}},
			},
			EnvFrom:        []v1.EnvFromSource{{ConfigMapRef: &v1.ConfigMapEnvSource{LocalObjectReference: v1.LocalObjectReference{Name: "cfg"}}}},
			VolumeMounts:   []v1.VolumeMount{{Name: "data", MountPath: "/data"}},
			Resources:      v1.ResourceRequirements{Requests: rl("250m", "256Mi"), Limits: rl("1", "512Mi")},
			LivenessProbe:  probe.DeepCopy(),
			ReadinessProbe: probe.DeepCopy(),
		}
	}
	p := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web-7d9f", Namespace: "prod", Labels: map[string]string{"app": "web", "tier": "frontend"}},
		Spec: v1.PodSpec{
			Volumes: []v1.Volume{{Name: "data", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}}},
			InitContainers: []v1.Container{
				{Name: "migrate", Image: "registry.example.com/team/migrate:v1", Command: []string{"migrate", "up"}},
				{Name: "log-shipper", Image: "fluent-bit:3.0", RestartPolicy: &always, ReadinessProbe: probe.DeepCopy(),
					Ports: []v1.ContainerPort{{Name: "http", ContainerPort: 2020}}},
			},
		},
	}
	for i := 0; i < n; i++ {
		p.Spec.Containers = append(p.Spec.Containers, app("app-"+strconv.Itoa(i)))
	}
	return p
}

// BenchmarkCreate compares podlife's ValidatePodCreate (defaulting included) with
// upstream's create path on the same pod: v1 defaulting, conversion, the handler's
// and store's metadata steps and rest.BeforeCreate (PrepareForCreate, Validate,
// generic metadata, declarative validation).
func BenchmarkCreate(b *testing.B) {
	for _, n := range []int{1, 10, 100} {
		pod := benchPod(n)
		if errs := upstreamCreate(b, pod); len(errs) != 0 {
			b.Fatal(errs)
		}
		b.Run("containers="+strconv.Itoa(n)+"/podlife", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if errs := validation.ValidatePodCreate(pod, validation.Options{}); len(errs) != 0 {
					b.Fatal(errs)
				}
			}
		})
		b.Run("containers="+strconv.Itoa(n)+"/upstream", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := upstreamcreate.BeforeCreate(b, pod); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
