package scenarios

import (
	"context"
	"unsafe"

	"go.opentelemetry.io/otel/trace"
	v1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/record"
	internalapi "k8s.io/cri-api/pkg/apis"
	"k8s.io/klog/v2"
	_ "k8s.io/kubernetes/pkg/kubelet" // linked for getPhase
	kubecontainer "k8s.io/kubernetes/pkg/kubelet/container"
	_ "k8s.io/kubernetes/pkg/kubelet/kuberuntime" // linked for computePodActions
	proberesults "k8s.io/kubernetes/pkg/kubelet/prober/results"
)

// upstreamActions has the memory layout of kuberuntime's unexported podActions.
type upstreamActions struct {
	KillPod                    bool
	CreateSandbox              bool
	SandboxID                  string
	Attempt                    uint32
	InitContainersToStart      []int
	ContainersToStart          []int
	ContainersToKill           map[kubecontainer.ContainerID]upstreamKill
	EphemeralContainersToStart []int
	ContainersToUpdate         unsafe.Pointer
	VolumesToUpsize            []v1.Volume
	VolumesToDownsize          []v1.Volume
	UpdatePodResources         bool
	ContainersToReset          []upstreamReset
	UpdatePodLevelResources    bool
}

// upstreamKill has the layout of containerToKillInfo.
type upstreamKill struct {
	container *v1.Container
	name      string
	message   string
	reason    string
}

// upstreamReset has the layout of containerToRemoveInfo.
type upstreamReset struct {
	containerID kubecontainer.ContainerID
	container   *v1.Container
	kill        bool
}

// managerPrefix has the layout of the first fields of kubeGenericRuntimeManager, up to
// the probe result managers.
type managerPrefix struct {
	runtimeName      string
	recorder         record.EventRecorderLogger
	osInterface      kubecontainer.OSInterface
	machineInfo      unsafe.Pointer
	containerGC      unsafe.Pointer
	runner           kubecontainer.HandlerRunner
	runtimeHelper    kubecontainer.RuntimeHelper
	livenessManager  proberesults.Manager
	readinessManager proberesults.Manager
	startupManager   proberesults.Manager
}

//go:linkname newFakeKubeRuntimeManager k8s.io/kubernetes/pkg/kubelet/kuberuntime.newFakeKubeRuntimeManager
func newFakeKubeRuntimeManager(ctx context.Context, runtimeService internalapi.RuntimeService, imageService internalapi.ImageManagerService, machineInfo unsafe.Pointer, osInterface kubecontainer.OSInterface, runtimeHelper kubecontainer.RuntimeHelper, tracer trace.Tracer, recorder *record.FakeRecorder) (unsafe.Pointer, error)

//go:linkname computePodActions k8s.io/kubernetes/pkg/kubelet/kuberuntime.(*kubeGenericRuntimeManager).computePodActions
func computePodActions(m unsafe.Pointer, ctx context.Context, pod *v1.Pod, podStatus *kubecontainer.PodStatus, restartAllContainers bool) upstreamActions

//go:linkname getPhase k8s.io/kubernetes/pkg/kubelet.getPhase
func getPhase(logger klog.Logger, pod *v1.Pod, info []v1.ContainerStatus, podIsTerminal, podHasInitialized bool) v1.PodPhase
