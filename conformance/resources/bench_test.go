package resources

import (
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	upstream "k8s.io/component-helpers/resource"
	"k8s.io/kubernetes/pkg/apis/core/v1/helper/qos"

	"github.com/podlife/podlife/resources"
)

func rl(kv ...string) corev1.ResourceList {
	l := corev1.ResourceList{}
	for i := 0; i < len(kv); i += 2 {
		l[corev1.ResourceName(kv[i])] = resource.MustParse(kv[i+1])
	}
	return l
}

func ctr(name string, req, lim corev1.ResourceList) corev1.Container {
	return corev1.Container{Name: name, Resources: corev1.ResourceRequirements{Requests: req, Limits: lim}}
}

func sidecar(name string, req, lim corev1.ResourceList) corev1.Container {
	c := ctr(name, req, lim)
	always := corev1.ContainerRestartPolicyAlways
	c.RestartPolicy = &always
	return c
}

// benchShape is one pod of the benchmark corpus with the options a real caller passes.
type benchShape struct {
	name string
	pod  *corev1.Pod
	opts resources.PodResourcesOptions
}

// benchCorpus holds the shapes of the spec notes' measurements plus an in-place resize
// pod read with the scheduler's options.
func benchCorpus() []benchShape {
	small := rl("cpu", "250m", "memory", "64Mi")
	one := &corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{ctr("app", small, rl("cpu", "500m", "memory", "128Mi"))}}}

	mixed := &corev1.Pod{Spec: corev1.PodSpec{
		InitContainers: []corev1.Container{
			sidecar("proxy", rl("cpu", "100m", "memory", "32Mi"), rl("cpu", "200m", "memory", "64Mi")),
			ctr("migrate", rl("cpu", "1", "memory", "256Mi"), rl("cpu", "1", "memory", "256Mi")),
		},
		Containers: []corev1.Container{ctr("app", small, rl("memory", "128Mi"))},
		Overhead:   rl("cpu", "50m", "memory", "20Mi"),
	}}

	big := &corev1.Pod{}
	for i := 0; i < 20; i++ {
		big.Spec.Containers = append(big.Spec.Containers, ctr(fmt.Sprint("app", i), rl("cpu", "100m", "memory", "100Mi", "ephemeral-storage", "1Gi"), rl("cpu", "200m", "memory", "100Mi")))
	}
	for i := 0; i < 5; i++ {
		if i%2 == 0 {
			big.Spec.InitContainers = append(big.Spec.InitContainers, sidecar(fmt.Sprint("side", i), rl("cpu", "50m", "memory", "30Mi"), nil))
		} else {
			big.Spec.InitContainers = append(big.Spec.InitContainers, ctr(fmt.Sprint("init", i), rl("cpu", "3", "memory", "1Gi"), rl("cpu", "3", "memory", "1Gi")))
		}
	}

	podLevel := one.DeepCopy()
	podLevel.Spec.Resources = &corev1.ResourceRequirements{Requests: rl("cpu", "1", "memory", "1Gi"), Limits: rl("cpu", "2", "memory", "1Gi")}

	resized := mixed.DeepCopy()
	resized.Status.ContainerStatuses = []corev1.ContainerStatus{{
		Name: "app", AllocatedResources: rl("cpu", "500m", "memory", "64Mi"),
		Resources: &corev1.ResourceRequirements{Requests: rl("cpu", "250m", "memory", "64Mi"), Limits: rl("memory", "128Mi")},
	}}
	resized.Status.InitContainerStatuses = []corev1.ContainerStatus{{
		Name: "proxy", AllocatedResources: rl("cpu", "100m", "memory", "32Mi"),
		Resources: &corev1.ResourceRequirements{Requests: rl("cpu", "100m", "memory", "32Mi"), Limits: rl("cpu", "200m", "memory", "64Mi")},
	}}
	resized.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodResizePending, Status: corev1.ConditionTrue, Reason: corev1.PodReasonDeferred}}
	scheduler := resources.PodResourcesOptions{UseStatusResources: true, InPlacePodLevelResourcesVerticalScalingEnabled: true}

	return []benchShape{
		{"1app", one, resources.PodResourcesOptions{}},
		{"sidecar+init+app+overhead", mixed, resources.PodResourcesOptions{}},
		{"20app+5init", big, resources.PodResourcesOptions{}},
		{"podlevel+1app", podLevel, resources.PodResourcesOptions{}},
		{"resize/status", resized, scheduler},
		{"resize/status+nonmissing", resized, resources.PodResourcesOptions{UseStatusResources: true, NonMissingContainerRequests: rl("cpu", "100m", "memory", "200Mi")}},
	}
}

func benchLists(b *testing.B, ours func(*corev1.Pod, resources.PodResourcesOptions) corev1.ResourceList, theirs func(*corev1.Pod, upstream.PodResourcesOptions) corev1.ResourceList) {
	corpus := benchCorpus()
	for _, s := range corpus {
		b.Run(s.name+"/podlife", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = ours(s.pod, s.opts)
			}
		})
		b.Run(s.name+"/upstream", func(b *testing.B) {
			opts := toUpstream(s.opts)
			b.ReportAllocs()
			for b.Loop() {
				_ = theirs(s.pod, opts)
			}
		})
	}
	// The whole corpus per operation: one ratio for the lot.
	b.Run("corpus/podlife", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, s := range corpus {
				_ = ours(s.pod, s.opts)
			}
		}
	})
	b.Run("corpus/upstream", func(b *testing.B) {
		opts := make([]upstream.PodResourcesOptions, len(corpus))
		for i, s := range corpus {
			opts[i] = toUpstream(s.opts)
		}
		b.ReportAllocs()
		for b.Loop() {
			for i, s := range corpus {
				_ = theirs(s.pod, opts[i])
			}
		}
	})
}

func BenchmarkPodRequests(b *testing.B) { benchLists(b, resources.PodRequests, upstream.PodRequests) }

func BenchmarkPodLimits(b *testing.B) { benchLists(b, resources.PodLimits, upstream.PodLimits) }

func BenchmarkComputePodQOS(b *testing.B) {
	corpus := benchCorpus()
	b.Run("corpus/podlife", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, s := range corpus {
				_ = resources.ComputePodQOS(s.pod)
			}
		}
	})
	b.Run("corpus/upstream", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, s := range corpus {
				_ = qos.ComputePodQOS(s.pod)
			}
		}
	})
}

// BenchmarkExplain is for information: Explain against upstream's PodRequests plus
// PodLimits, which give its results without the breakdown.
func BenchmarkExplain(b *testing.B) {
	corpus := benchCorpus()
	b.Run("corpus/podlife", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, s := range corpus {
				_ = resources.Explain(s.pod, s.opts)
			}
		}
	})
	b.Run("corpus/upstream", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, s := range corpus {
				o := toUpstream(s.opts)
				_ = upstream.PodRequests(s.pod, o)
				_ = upstream.PodLimits(s.pod, o)
			}
		}
	})
}
