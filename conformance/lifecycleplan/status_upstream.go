package lifecycleplan

import (
	"context"
	_ "unsafe" // go:linkname

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/kubernetes/pkg/kubelet"
	kubecontainer "k8s.io/kubernetes/pkg/kubelet/container"
)

//go:linkname convertToAPIContainerStatuses k8s.io/kubernetes/pkg/kubelet.(*Kubelet).convertToAPIContainerStatuses
func convertToAPIContainerStatuses(kl *kubelet.Kubelet, ctx context.Context, pod *v1.Pod, podStatus *kubecontainer.PodStatus, previousStatus []v1.ContainerStatus, containers []v1.Container, imageVolumeNames sets.Set[string], hasInitContainers, isInitContainer bool, podRestarting bool) []v1.ContainerStatus
