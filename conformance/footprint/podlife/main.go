// Command podlife prints the requests, validation errors and phase of a pod with
// podlife (see package footprint).
package main

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"

	"github.com/podlife/podlife"
	"github.com/podlife/podlife/conformance/footprint/internal/sample"
	"github.com/podlife/podlife/lifecycle"
	"github.com/podlife/podlife/resources"
	"github.com/podlife/podlife/validation"
)

func main() {
	pod := sample.Pod()
	stored := podlife.Default(pod)
	requests := resources.PodRequests(stored, resources.PodResourcesOptions{})
	fmt.Println(requests.Cpu())
	fmt.Println(resources.ComputePodQOS(stored))
	fmt.Println(len(validation.ValidatePodCreate(pod, validation.Options{})))
	fmt.Println(lifecycle.Phase(stored, lifecycle.PhaseOptions{}) == corev1.PodPending)
}
