package lifecycle

import (
	"fmt"
	"strconv"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	api "k8s.io/kubernetes/pkg/apis/core"
	kubeletstatus "k8s.io/kubernetes/pkg/kubelet/status"
	"k8s.io/kubernetes/pkg/printers"

	"github.com/podlife/podlife/lifecycle"
)

const corpusSize = 256

func corpus(b *testing.B) ([]*corev1.Pod, time.Time) {
	now := time.Now()
	g := newGen(defaultSeed, now)
	pods := make([]*corev1.Pod, corpusSize)
	for i := range pods {
		pods[i] = g.pod()
	}
	return pods, now
}

// BenchmarkPodColumns: ours, the API server's printer (conversion to the internal type
// included, as the server converts before printing), the printer alone on an
// already-converted pod, and one DeepCopy of the same pod.
func BenchmarkPodColumns(b *testing.B) {
	pods, now := corpus(b)
	internal := make([]*api.Pod, len(pods))
	for i, p := range pods {
		internal[i] = &api.Pod{}
		if err := legacyscheme.Scheme.Convert(p, internal[i], nil); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("podlife", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			_ = lifecycle.PodColumns(pods[i%len(pods)], now)
			i++
		}
	})
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			_ = upstreamRow(b, pods[i%len(pods)])
			i++
		}
	})
	b.Run("upstream-printer-only", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			if _, err := tableGenerator.GenerateTable(internal[i%len(internal)], printers.GenerateOptions{Wide: true}); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
	b.Run("deepcopy", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			_ = pods[i%len(pods)].DeepCopy()
			i++
		}
	})
}

// BenchmarkPhase compares Phase with the kubelet's getPhase (given the statuses list the
// kubelet builds, as generateAPIPodStatus does) and with one DeepCopy of the same pod.
func BenchmarkPhase(b *testing.B) {
	pods, _ := corpus(b)
	b.Run("podlife", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			_ = lifecycle.Phase(pods[i%len(pods)], lifecycle.PhaseOptions{})
			i++
		}
	})
	logger := klog.Background()
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			p := pods[i%len(pods)]
			_ = upstreamGetPhase(logger, p, kubeletStatuses(&p.Status), false, false)
			i++
		}
	})
	b.Run("deepcopy", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			_ = pods[i%len(pods)].DeepCopy()
			i++
		}
	})
}

// BenchmarkConditions computes the three conditions, ours and upstream's.
func BenchmarkConditions(b *testing.B) {
	pods, _ := corpus(b)
	b.Run("podlife", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			p := pods[i%len(pods)]
			_ = lifecycle.InitializedCondition(p, corev1.PodRunning, lifecycle.Options{})
			_ = lifecycle.ContainersReadyCondition(p, corev1.PodRunning, lifecycle.Options{})
			_ = lifecycle.ReadyCondition(p, corev1.PodRunning, lifecycle.Options{})
			i++
		}
	})
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			p := pods[i%len(pods)]
			all := allStatuses(&p.Status)
			_ = kubeletstatus.GeneratePodInitializedCondition(p, &p.Status, all, corev1.PodRunning)
			_ = kubeletstatus.GenerateContainersReadyCondition(p, &p.Status, all, corev1.PodRunning)
			_ = kubeletstatus.GeneratePodReadyCondition(p, &p.Status, p.Status.Conditions, all, corev1.PodRunning)
			i++
		}
	})
}

// bigPod has n regular containers, n sidecars and a status for each.
func bigPod(n int) *corev1.Pod {
	always := corev1.ContainerRestartPolicyAlways
	started := true
	p := &corev1.Pod{}
	p.Name = "big"
	for i := range n {
		name := "c" + strconv.Itoa(i)
		p.Spec.Containers = append(p.Spec.Containers, corev1.Container{Name: name})
		p.Spec.InitContainers = append(p.Spec.InitContainers, corev1.Container{Name: "s" + name, RestartPolicy: &always})
		p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, corev1.ContainerStatus{Name: name, Ready: true, State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}})
		p.Status.InitContainerStatuses = append(p.Status.InitContainerStatuses, corev1.ContainerStatus{Name: "s" + name, Ready: true, Started: &started, State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}})
	}
	p.Status.Phase = corev1.PodRunning
	return p
}

// BenchmarkBigPod shows the cost growing linearly with the number of containers (upstream's
// getPhase and condition generators scan the status list for every container).
func BenchmarkBigPod(b *testing.B) {
	now := time.Now()
	for _, n := range []int{10, 100, 1000, 10000} {
		p := bigPod(n)
		b.Run(fmt.Sprintf("n=%d/Phase", n), func(b *testing.B) {
			for b.Loop() {
				_ = lifecycle.Phase(p, lifecycle.PhaseOptions{})
			}
		})
		b.Run(fmt.Sprintf("n=%d/Ready", n), func(b *testing.B) {
			for b.Loop() {
				_ = lifecycle.ReadyCondition(p, corev1.PodRunning, lifecycle.Options{})
			}
		})
		b.Run(fmt.Sprintf("n=%d/PodColumns", n), func(b *testing.B) {
			for b.Loop() {
				_ = lifecycle.PodColumns(p, now)
			}
		})
		b.Run(fmt.Sprintf("n=%d/DeepCopy", n), func(b *testing.B) {
			for b.Loop() {
				_ = p.DeepCopy()
			}
		})
	}
}
