// Command kubernetes prints the requests, validation errors and phase of a pod with
// k8s.io/kubernetes v1.37.2 (see package footprint).
package main

import (
	"fmt"
	_ "unsafe" // go:linkname

	corev1 "k8s.io/api/core/v1"
	resourcehelper "k8s.io/component-helpers/resource"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	podutil "k8s.io/kubernetes/pkg/api/pod"
	api "k8s.io/kubernetes/pkg/apis/core"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	"k8s.io/kubernetes/pkg/apis/core/v1/helper/qos"
	corevalidation "k8s.io/kubernetes/pkg/apis/core/validation"
	_ "k8s.io/kubernetes/pkg/kubelet"

	"github.com/podlife/podlife/conformance/footprint/internal/sample"
)

// getPhase is the kubelet's unexported phase computation.
//
//go:linkname getPhase k8s.io/kubernetes/pkg/kubelet.getPhase
func getPhase(logger klog.Logger, pod *corev1.Pod, info []corev1.ContainerStatus, podIsTerminal, podHasInitialized bool) corev1.PodPhase

func main() {
	pod := sample.Pod()
	legacyscheme.Scheme.Default(pod)
	requests := resourcehelper.PodRequests(pod, resourcehelper.PodResourcesOptions{})
	fmt.Println(requests.Cpu())
	fmt.Println(qos.ComputePodQOS(pod))
	internal := &api.Pod{}
	if err := legacyscheme.Scheme.Convert(pod, internal, nil); err != nil {
		panic(err)
	}
	opts := podutil.GetValidationOptionsFromPodSpecAndMeta(&internal.Spec, nil, &internal.ObjectMeta, nil)
	fmt.Println(len(corevalidation.ValidatePodCreate(internal, opts)))
	fmt.Println(getPhase(klog.Background(), pod, pod.Status.ContainerStatuses, false, false) == corev1.PodPending)
}
