// Command helpers prints the requests and limits of a pod with
// k8s.io/component-helpers, which can neither validate it, nor give its QoS class
// (that lives in k8s.io/kubernetes), nor compute its phase (see package footprint).
package main

import (
	"fmt"

	resourcehelper "k8s.io/component-helpers/resource"

	"github.com/podlife/podlife/conformance/footprint/internal/sample"
)

func main() {
	pod := sample.Pod()
	requests := resourcehelper.PodRequests(pod, resourcehelper.PodResourcesOptions{})
	fmt.Println(requests.Cpu())
	limits := resourcehelper.PodLimits(pod, resourcehelper.PodResourcesOptions{})
	fmt.Println(limits.Cpu())
}
