package lifecycle

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podlife/podlife/restart"
)

// benchPod is a realistic running pod: two init containers (one a sidecar with
// probes), two app containers with resources and probes, full statuses.
func benchPod() (*corev1.Pod, View) {
	t0 := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	res := corev1.ResourceRequirements{
		Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("128Mi")},
		Limits:   corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("256Mi")},
	}
	probe := &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/healthz"}}}
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web-7d4b9c", Namespace: "prod", UID: "0b6f4a2e", Generation: 1,
		Labels: map[string]string{"app": "web", "tier": "frontend"}, CreationTimestamp: metav1.NewTime(t0)}}
	pod.Spec = corev1.PodSpec{
		RestartPolicy: corev1.RestartPolicyAlways,
		InitContainers: []corev1.Container{
			{Name: "migrate", Image: "registry.example/migrate:1.2", Resources: res},
			{Name: "proxy", Image: "registry.example/proxy:3", RestartPolicy: &policyAlways, Resources: res, StartupProbe: probe, ReadinessProbe: probe},
		},
		Containers: []corev1.Container{
			{Name: "app", Image: "registry.example/app:5", Resources: res, LivenessProbe: probe, ReadinessProbe: probe,
				Env: []corev1.EnvVar{{Name: "MODE", Value: "prod"}}, Ports: []corev1.ContainerPort{{ContainerPort: 8080}}},
			{Name: "worker", Image: "registry.example/worker:5", Resources: res},
		},
	}
	started := true
	run := func(name, id string, at time.Time) corev1.ContainerStatus {
		return corev1.ContainerStatus{Name: name, ContainerID: id, Ready: true, Started: &started, Image: "img", ImageID: "sha",
			State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: metav1.NewTime(at)}}}
	}
	pod.Status = corev1.PodStatus{
		Phase: corev1.PodRunning, PodIP: "10.1.2.3", PodIPs: []corev1.PodIP{{IP: "10.1.2.3"}}, HostIP: "192.168.1.1",
		StartTime: &metav1.Time{Time: t0}, QOSClass: corev1.PodQOSBurstable,
		Conditions: []corev1.PodCondition{
			{Type: corev1.PodReadyToStartContainers, Status: corev1.ConditionTrue},
			{Type: corev1.PodInitialized, Status: corev1.ConditionTrue},
			{Type: corev1.PodReady, Status: corev1.ConditionTrue},
			{Type: corev1.ContainersReady, Status: corev1.ConditionTrue},
			{Type: corev1.PodScheduled, Status: corev1.ConditionTrue},
		},
		InitContainerStatuses: []corev1.ContainerStatus{
			{Name: "migrate", ContainerID: "containerd://m1", Ready: true, State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{Reason: "Completed", ContainerID: "containerd://m1"}}},
			run("proxy", "containerd://p1", t0.Add(5*time.Second)),
		},
		ContainerStatuses: []corev1.ContainerStatus{run("app", "containerd://a1", t0.Add(6*time.Second)), run("worker", "containerd://w1", t0.Add(6*time.Second))},
	}
	v := View{
		Sandboxes: []Sandbox{{ID: "s1", Ready: true, Network: &SandboxNetwork{IP: "10.1.2.3"}}},
		Instances: []Instance{
			{Name: "worker", ID: "containerd://w1", State: restart.StateRunning, StartedAt: t0.Add(6 * time.Second)},
			{Name: "app", ID: "containerd://a1", State: restart.StateRunning, StartedAt: t0.Add(6 * time.Second), Liveness: ProbeSuccess, Readiness: ProbeSuccess},
			{Name: "proxy", ID: "containerd://p1", State: restart.StateRunning, StartedAt: t0.Add(5 * time.Second), Startup: ProbeSuccess, Readiness: ProbeSuccess},
			{Name: "migrate", ID: "containerd://m1", State: restart.StateExited, Reason: "Completed", FinishedAt: t0.Add(4 * time.Second)},
		},
		HostIPs: []string{"192.168.1.1"},
	}
	return pod, v
}

// BenchmarkPlan measures Plan next to a DeepCopy of the same pod; the ratio of the
// two ns/op is the cost of Plan in pod copies.
func BenchmarkPlan(b *testing.B) {
	pod, v := benchPod()
	now := pod.Status.StartTime.Add(time.Hour)
	b.Run("Plan", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = Plan(pod, &v, now, Options{})
		}
	})
	b.Run("DeepCopy", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = pod.DeepCopy()
		}
	})
}

// BenchmarkNextStatus measures NextStatus next to a DeepCopy of the same pod.
func BenchmarkNextStatus(b *testing.B) {
	pod, v := benchPod()
	now := pod.Status.StartTime.Add(time.Hour)
	b.Run("NextStatus", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = NextStatus(pod, &v, now, Options{})
		}
	})
	b.Run("DeepCopy", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = pod.DeepCopy()
		}
	})
}
