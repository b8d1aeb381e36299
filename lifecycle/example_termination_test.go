package lifecycle_test

import (
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/podlife/podlife/lifecycle"
)

// Deleting a pod with two sidecars: the main container is signalled first, the sidecars
// wait for it and then for each other, in reverse order, within the grace period.
func ExampleTerminationSchedule() {
	always := corev1.ContainerRestartPolicyAlways
	grace := int64(30)
	pod := &corev1.Pod{Spec: corev1.PodSpec{
		TerminationGracePeriodSeconds: &grace,
		InitContainers:                []corev1.Container{{Name: "mesh", RestartPolicy: &always}, {Name: "logs", RestartPolicy: &always}},
		Containers:                    []corev1.Container{{Name: "app"}},
	}}
	steps := lifecycle.TerminationOrderOf(pod, []string{"app", "mesh", "logs"})
	effective := lifecycle.PodGracePeriod(pod, 0, nil)
	behavior := map[string]lifecycle.StopBehavior{
		"app":  {Exit: 4 * time.Second},
		"logs": {Exit: 2 * time.Second},
		"mesh": {Exit: time.Second},
	}
	for _, s := range lifecycle.TerminationSchedule(pod, steps, &effective, behavior) {
		waits := s.WaitsFor
		if s.WaitsForSidecar != "" {
			waits = append(waits[:len(waits):len(waits)], s.WaitsForSidecar)
		}
		fmt.Printf("%-4s %-9s stage %d waits for %-10s signal at %-3v timeout %2ds gone at %v\n", s.Name, s.Kind, s.Stage, fmt.Sprint(waits), s.Signal, s.Timeout, s.Exit)
	}
	// Output:
	// app  Container stage 0 waits for []         signal at 0s  timeout 30s gone at 4s
	// logs Sidecar   stage 1 waits for [app]      signal at 4s  timeout 26s gone at 6s
	// mesh Sidecar   stage 2 waits for [app logs] signal at 6s  timeout 24s gone at 7s
}

// The grace period of a liveness-probe kill uses the probe's own
// terminationGracePeriodSeconds; a deletion's grace period wins over both.
func ExampleGracePeriod() {
	pod, probe := int64(60), int64(10)
	p := &corev1.Pod{Spec: corev1.PodSpec{
		TerminationGracePeriodSeconds: &pod,
		Containers:                    []corev1.Container{{Name: "app", LivenessProbe: &corev1.Probe{TerminationGracePeriodSeconds: &probe}}},
	}}
	fmt.Println(lifecycle.GracePeriod(p, "app", lifecycle.KillReasonLivenessProbe))
	fmt.Println(lifecycle.GracePeriod(p, "app", lifecycle.KillReasonUnknown))
	deletion := int64(5)
	p.DeletionGracePeriodSeconds = &deletion
	fmt.Println(lifecycle.GracePeriod(p, "app", lifecycle.KillReasonLivenessProbe))
	// A RestartAllContainers reset kills with grace 0, raised to the 2-second minimum.
	zero := int64(0)
	fmt.Println(lifecycle.StopTimeout(p, "app", lifecycle.KillReasonRestartAllContainers, lifecycle.StopOptions{GracePeriodOverride: &zero}))
	// Output:
	// 10
	// 60
	// 5
	// 2
}
