package lifecycle_test

import (
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podlife/podlife/lifecycle"
)

// shipperPod is a batch pod with a log-shipping sidecar: restartPolicy Never, one init
// step, the sidecar, and the job.
func shipperPod() *corev1.Pod {
	always := corev1.ContainerRestartPolicyAlways
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "report-7f9c", Namespace: "batch"},
		Spec: corev1.PodSpec{
			RestartPolicy: corev1.RestartPolicyNever,
			InitContainers: []corev1.Container{
				{Name: "fetch", Image: "busybox"},
				{Name: "shipper", Image: "fluent-bit", RestartPolicy: &always},
			},
			Containers: []corev1.Container{{Name: "report", Image: "report:1.4"}},
		},
	}
}

func running(name string, started, ready bool) corev1.ContainerStatus {
	return corev1.ContainerStatus{Name: name, Started: &started, Ready: ready,
		State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}}
}

func exited(name string, code int32, reason string) corev1.ContainerStatus {
	return corev1.ContainerStatus{Name: name,
		State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: code, Reason: reason}}}
}

func waiting(name, reason string) corev1.ContainerStatus {
	return corev1.ContainerStatus{Name: name, State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: reason}}}
}

// The phase of a Never pod with a sidecar as it goes: the sidecar keeps the pod Running
// after the job has succeeded, until the kubelet stops it; its exit code does not count.
func ExamplePhase() {
	pod := shipperPod()
	show := func(what string, init, regular []corev1.ContainerStatus) {
		pod.Status.InitContainerStatuses, pod.Status.ContainerStatuses = init, regular
		fmt.Printf("%-34s %s\n", what, lifecycle.Phase(pod, lifecycle.PhaseOptions{}))
	}
	show("fetching", []corev1.ContainerStatus{running("fetch", true, false), waiting("shipper", "PodInitializing")},
		[]corev1.ContainerStatus{waiting("report", "PodInitializing")})
	show("shipper started, report running", []corev1.ContainerStatus{exited("fetch", 0, "Completed"), running("shipper", true, true)},
		[]corev1.ContainerStatus{running("report", true, true)})
	show("report done, shipper still up", []corev1.ContainerStatus{exited("fetch", 0, "Completed"), running("shipper", true, true)},
		[]corev1.ContainerStatus{exited("report", 0, "Completed")})
	show("shipper stopped (exit 143)", []corev1.ContainerStatus{exited("fetch", 0, "Completed"), exited("shipper", 143, "Error")},
		[]corev1.ContainerStatus{exited("report", 0, "Completed")})
	show("fetch failed", []corev1.ContainerStatus{exited("fetch", 1, "Error"), waiting("shipper", "PodInitializing")},
		[]corev1.ContainerStatus{waiting("report", "PodInitializing")})
	// Output:
	// fetching                           Pending
	// shipper started, report running    Running
	// report done, shipper still up      Running
	// shipper stopped (exit 143)         Succeeded
	// fetch failed                       Failed
}

// What the kubelet writes as the phase: a pod past its activeDeadlineSeconds is failed,
// and a pod never leaves Succeeded or Failed.
func ExampleStatusPhase() {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	pod := shipperPod()
	deadline := int64(600)
	pod.Spec.ActiveDeadlineSeconds = &deadline
	pod.Status.StartTime = &metav1.Time{Time: now.Add(-10 * time.Minute)}
	pod.Status.Phase = corev1.PodRunning
	pod.Status.InitContainerStatuses = []corev1.ContainerStatus{exited("fetch", 0, "Completed"), running("shipper", true, true)}
	pod.Status.ContainerStatuses = []corev1.ContainerStatus{running("report", true, true)}

	fmt.Printf("%+v\n", lifecycle.StatusPhase(pod, now.Add(-time.Second), lifecycle.PhaseOptions{}))
	fmt.Printf("%+v\n", lifecycle.StatusPhase(pod, now, lifecycle.PhaseOptions{}))

	pod.Status.Phase = corev1.PodSucceeded
	fmt.Printf("%+v\n", lifecycle.ResolvePhase(pod, corev1.PodRunning, now.Add(-time.Hour), lifecycle.PhaseOptions{}))
	// Output:
	// {Phase:Running Reason: Message:}
	// {Phase:Failed Reason:DeadlineExceeded Message:Pod was active on the node longer than the specified deadline}
	// {Phase:Succeeded Reason: Message:}
}

// The kubelet's three readiness conditions for a pod whose sidecar has started but is not
// ready, and which has a readiness gate.
func ExampleReadyCondition() {
	pod := shipperPod()
	pod.Generation = 2
	pod.Spec.ReadinessGates = []corev1.PodReadinessGate{{ConditionType: "example.com/lb-registered"}}
	pod.Status.InitContainerStatuses = []corev1.ContainerStatus{
		{Name: "fetch", Ready: true, State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{Reason: "Completed"}}},
		running("shipper", true, false),
	}
	pod.Status.ContainerStatuses = []corev1.ContainerStatus{running("report", true, true)}
	show := func(c corev1.PodCondition) {
		fmt.Printf("%s=%s reason=%q message=%q observedGeneration=%d\n", c.Type, c.Status, c.Reason, c.Message, c.ObservedGeneration)
	}
	show(lifecycle.InitializedCondition(pod, corev1.PodRunning, lifecycle.Options{}))
	show(lifecycle.ContainersReadyCondition(pod, corev1.PodRunning, lifecycle.Options{}))
	show(lifecycle.ReadyCondition(pod, corev1.PodRunning, lifecycle.Options{}))

	pod.Status.InitContainerStatuses[1].Ready = true
	show(lifecycle.ReadyCondition(pod, corev1.PodRunning, lifecycle.Options{}))
	// Output:
	// Initialized=True reason="" message="" observedGeneration=2
	// ContainersReady=False reason="ContainersNotReady" message="containers with unready status: [shipper]" observedGeneration=2
	// Ready=False reason="ContainersNotReady" message="containers with unready status: [shipper]" observedGeneration=2
	// Ready=False reason="ReadinessGatesNotReady" message="corresponding condition of pod readiness gate \"example.com/lb-registered\" does not exist." observedGeneration=2
}
