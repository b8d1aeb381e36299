package upstreamkubelet

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/go-logr/logr"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/record"
	"k8s.io/client-go/util/flowcontrol"
	internalapi "k8s.io/cri-api/pkg/apis"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	apitest "k8s.io/cri-api/pkg/apis/testing"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/kubelet/allocation/state"
	kubecontainer "k8s.io/kubernetes/pkg/kubelet/container"
	containertest "k8s.io/kubernetes/pkg/kubelet/container/testing"
	"k8s.io/kubernetes/pkg/kubelet/kuberuntime"
	runtimeutil "k8s.io/kubernetes/pkg/kubelet/kuberuntime/util"
	proberesults "k8s.io/kubernetes/pkg/kubelet/prober/results"

	"github.com/podlife/podlife/restart"
)

// RuntimeName is the runtime name of the fake runtime service: the type of every
// container ID the kubelet reports for it ("fakeRuntime://c1").
var RuntimeName = apitest.FakeRuntimeName

// Epoch is the creation time of the newest sandbox and the newest instance of a loaded
// view; older ones were created a second apart before it.
var Epoch = time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)

//go:linkname newFakeKubeRuntimeManager k8s.io/kubernetes/pkg/kubelet/kuberuntime.newFakeKubeRuntimeManager
func newFakeKubeRuntimeManager(ctx context.Context, runtimeService internalapi.RuntimeService, imageService internalapi.ImageManagerService, machineInfo unsafe.Pointer, osInterface kubecontainer.OSInterface, runtimeHelper kubecontainer.RuntimeHelper, tracer trace.Tracer, recorder *record.FakeRecorder) (unsafe.Pointer, error)

//go:linkname computePodActions k8s.io/kubernetes/pkg/kubelet/kuberuntime.(*kubeGenericRuntimeManager).computePodActions
func computePodActions(m unsafe.Pointer, ctx context.Context, pod *v1.Pod, podStatus *kubecontainer.PodStatus, restartAllContainers bool) Actions

//go:linkname getPods k8s.io/kubernetes/pkg/kubelet/kuberuntime.(*kubeGenericRuntimeManager).GetPods
func getPods(m unsafe.Pointer, ctx context.Context, all bool) ([]*kubecontainer.Pod, error)

//go:linkname getPodStatus k8s.io/kubernetes/pkg/kubelet/kuberuntime.(*kubeGenericRuntimeManager).GetPodStatus
func getPodStatus(m unsafe.Pointer, ctx context.Context, pod *kubecontainer.Pod) (*kubecontainer.PodStatus, error)

//go:linkname doBackOff k8s.io/kubernetes/pkg/kubelet/kuberuntime.(*kubeGenericRuntimeManager).doBackOff
func doBackOff(m unsafe.Pointer, ctx context.Context, pod *v1.Pod, container *v1.Container, podStatus *kubecontainer.PodStatus, backOff *flowcontrol.Backoff) (bool, string, error)

//go:linkname newContainerLabels k8s.io/kubernetes/pkg/kubelet/kuberuntime.newContainerLabels
func newContainerLabels(container *v1.Container, pod *v1.Pod) map[string]string

//go:linkname newContainerAnnotations k8s.io/kubernetes/pkg/kubelet/kuberuntime.newContainerAnnotations
func newContainerAnnotations(ctx context.Context, container *v1.Container, pod *v1.Pod, restartCount int, opts *kubecontainer.RunContainerOptions) map[string]string

// keep kuberuntime linked even if a future edit drops the last exported use.
var _ = kuberuntime.GetBackoffKey

// Actions has the memory layout of kuberuntime's unexported podActions.
type Actions struct {
	KillPod                    bool
	CreateSandbox              bool
	SandboxID                  string
	Attempt                    uint32
	InitContainersToStart      []int
	ContainersToStart          []int
	ContainersToKill           map[kubecontainer.ContainerID]Kill
	EphemeralContainersToStart []int
	ContainersToUpdate         map[v1.ResourceName][]update
	VolumesToUpsize            []v1.Volume
	VolumesToDownsize          []v1.Volume
	UpdatePodResources         bool
	ContainersToReset          []Reset
	UpdatePodLevelResources    bool
}

// Resizes reports whether the actions include any in-place resize step (podlife's
// PodActions leave resizes out).
func (a *Actions) Resizes() bool {
	return len(a.ContainersToUpdate) > 0 || len(a.VolumesToUpsize) > 0 || len(a.VolumesToDownsize) > 0 ||
		a.UpdatePodResources || a.UpdatePodLevelResources
}

// Kill has the layout of containerToKillInfo.
type Kill struct {
	Container *v1.Container
	Name      string
	Message   string
	Reason    string
}

// Reset has the layout of containerToRemoveInfo.
type Reset struct {
	ContainerID kubecontainer.ContainerID
	Container   *v1.Container
	Kill        bool
}

// update has the layout of containerToUpdateInfo.
type update struct {
	container *v1.Container
	id        kubecontainer.ContainerID
	desired   [4]int64
	current   *[4]int64
}

// managerPrefix has the layout of kubeGenericRuntimeManager up to actuatedState.
type managerPrefix struct {
	runtimeName          string
	recorder             record.EventRecorderLogger
	osInterface          kubecontainer.OSInterface
	machineInfo          unsafe.Pointer
	containerGC          unsafe.Pointer
	runner               kubecontainer.HandlerRunner
	runtimeHelper        kubecontainer.RuntimeHelper
	livenessManager      proberesults.Manager
	readinessManager     proberesults.Manager
	startupManager       proberesults.Manager
	singleProcessOOMKill *bool
	cpuCFSQuota          bool
	cpuCFSQuotaPeriod    metav1.Duration
	defaultPodSysctls    map[string]string
	imagePuller          any
	runtimeService       internalapi.RuntimeService
	imageService         internalapi.ImageManagerService
	versionCache         unsafe.Pointer
	seccompProfileRoot   string
	containerManager     any
	internalLifecycle    any
	logManager           any
	runtimeClassManager  unsafe.Pointer
	actuatedState        state.State
}

// Runtime is a fake CRI runtime with kuberuntime's fake manager on top. It is not safe
// for concurrent use.
type Runtime struct {
	fake     *apitest.FakeRuntimeService
	m        unsafe.Pointer
	prefix   *managerPrefix
	ctx      context.Context
	logger   klog.Logger
	Liveness proberesults.Manager
	Startup  proberesults.Manager
	// readiness is the prober's readiness cache (the runtime manager has none).
	readiness proberesults.Manager
	// set are the container IDs whose probe results were set for the last view.
	set []kubecontainer.ContainerID
	// recorder receives the manager's events.
	recorder *record.FakeRecorder
}

// New returns a Runtime with no sandbox and no container.
func New(tb testing.TB) *Runtime {
	tb.Helper()
	logger := logr.Discard()
	ctx := klog.NewContext(context.Background(), logger)
	fake := apitest.NewFakeRuntimeService()
	images := apitest.NewFakeImageService()
	recorder := record.NewFakeRecorder(64)
	m, err := newFakeKubeRuntimeManager(ctx, fake, images, nil, &containertest.FakeOS{}, &containertest.FakeRuntimeHelper{},
		noop.NewTracerProvider().Tracer(""), recorder)
	if err != nil {
		tb.Fatalf("kuberuntime's fake manager: %v", err)
	}
	p := (*managerPrefix)(m)
	// The mirrored layout must hold what the constructor stored.
	if p.runtimeName != RuntimeName || p.runtimeService != internalapi.RuntimeService(fake) ||
		p.imageService != internalapi.ImageManagerService(images) || p.actuatedState == nil ||
		fmt.Sprintf("%T", p.actuatedState) != "*state.stateMemory" || p.livenessManager == nil || p.startupManager == nil {
		tb.Fatalf("kubeGenericRuntimeManager's layout changed: %q %T %T", p.runtimeName, p.runtimeService, p.actuatedState)
	}
	// The result caches publish changes on a bounded channel; drain them.
	for _, rm := range []proberesults.Manager{p.livenessManager, p.startupManager} {
		go func(updates <-chan proberesults.Update) {
			for range updates {
			}
		}(rm.Updates())
	}
	return &Runtime{fake: fake, m: m, prefix: p, ctx: ctx, logger: logger, Liveness: p.livenessManager, Startup: p.startupManager,
		readiness: newReadiness(), recorder: recorder}
}

// Context returns the context (with a discarding logger) the upstream calls run with.
func (r *Runtime) Context() context.Context { return r.ctx }

// SplitID splits a view's container ID into the fake runtime's container ID, failing tb
// when its type is not the fake runtime's name.
func SplitID(tb testing.TB, id string) string {
	tb.Helper()
	typ, cid, ok := strings.Cut(id, "://")
	if !ok || typ != RuntimeName || cid == "" {
		tb.Fatalf("instance ID %q: the fake runtime reports IDs as %s://ID", id, RuntimeName)
	}
	return cid
}

func nanos(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

// Load replaces the runtime's sandboxes and containers with those of the view, and the
// liveness and startup result caches with the view's probe results; the actuated
// resources of every init and regular container are its spec's (a kubelet that started
// them and has no resize pending) when actuated is true, and none otherwise.
func (r *Runtime) Load(tb testing.TB, pod *v1.Pod, view *restart.View, actuated bool) {
	tb.Helper()
	var sandboxes []*apitest.FakePodSandbox
	for i, sb := range view.Sandboxes {
		if i > 0 && sb.Attempt > view.Sandboxes[i-1].Attempt {
			tb.Fatalf("view sandboxes %q (attempt %d) before %q (attempt %d): the runtime orders sandboxes by attempt, newest first",
				view.Sandboxes[i-1].ID, view.Sandboxes[i-1].Attempt, sb.ID, sb.Attempt)
		}
		fs := &apitest.FakePodSandbox{}
		st := &fs.PodSandboxStatus
		*st = runtimeapi.PodSandboxStatus{
			Id:        sb.ID,
			Metadata:  &runtimeapi.PodSandboxMetadata{Name: pod.Name, Uid: string(pod.UID), Namespace: pod.Namespace, Attempt: sb.Attempt},
			State:     runtimeapi.PodSandboxState_SANDBOX_NOTREADY,
			CreatedAt: Epoch.Add(-time.Duration(i) * time.Second).UnixNano(),
			Linux: &runtimeapi.LinuxPodSandboxStatus{Namespaces: &runtimeapi.Namespace{Options: &runtimeapi.NamespaceOption{
				Network: runtimeapi.NamespaceMode_POD}}},
		}
		if sb.Ready {
			st.State = runtimeapi.PodSandboxState_SANDBOX_READY
		}
		if sb.HostNetwork {
			st.Linux.Namespaces.Options.Network = runtimeapi.NamespaceMode_NODE
		}
		if sb.Network != nil {
			st.Network = &runtimeapi.PodSandboxNetworkStatus{Ip: sb.Network.IP}
			for _, ip := range sb.Network.AdditionalIPs {
				st.Network.AdditionalIps = append(st.Network.AdditionalIps, &runtimeapi.PodIP{Ip: ip})
			}
		}
		sandboxes = append(sandboxes, fs)
	}
	newest := "removed-sandbox"
	if len(view.Sandboxes) > 0 {
		newest = view.Sandboxes[0].ID
	}
	var containers []*apitest.FakeContainer
	seen := map[string]bool{}
	// Labels and annotations depend on the spec, the hash variant and the restart
	// count only; hashing a spec is the costly part, so each is made once per Load.
	type metaKey struct {
		name    string
		changed bool
		restart int32
	}
	type meta struct{ labels, annotations map[string]string }
	metas := map[metaKey]meta{}
	for i, inst := range view.Instances {
		id := SplitID(tb, inst.ID)
		if seen[id] {
			tb.Fatalf("two instances with ID %q", inst.ID)
		}
		seen[id] = true
		key := metaKey{inst.Name, inst.SpecChanged, inst.RestartCount}
		md, ok := metas[key]
		if !ok {
			spec := containerSpec(pod, inst.Name)
			if inst.SpecChanged {
				spec.Image += "-previous"
			}
			md = meta{newContainerLabels(&spec, pod), newContainerAnnotations(r.ctx, &spec, pod, int(inst.RestartCount), &kubecontainer.RunContainerOptions{})}
			metas[key] = md
		}
		sandbox := inst.Sandbox
		if sandbox == "" {
			sandbox = newest
		}
		fc := &apitest.FakeContainer{SandboxID: sandbox}
		fc.ContainerStatus = runtimeapi.ContainerStatus{
			Id:          id,
			Metadata:    &runtimeapi.ContainerMetadata{Name: inst.Name, Attempt: uint32(max(inst.RestartCount, 0))},
			State:       criState(inst.State),
			CreatedAt:   Epoch.Add(-time.Duration(i) * time.Second).UnixNano(),
			StartedAt:   nanos(inst.StartedAt),
			FinishedAt:  nanos(inst.FinishedAt),
			ExitCode:    inst.ExitCode,
			Image:       &runtimeapi.ImageSpec{Image: inst.Image},
			ImageRef:    inst.ImageID,
			Reason:      inst.Reason,
			Message:     inst.Message,
			Labels:      md.labels,
			Annotations: md.annotations,
		}
		containers = append(containers, fc)
	}
	r.TakeEvents()
	r.fake.SetFakeSandboxes(sandboxes)
	r.fake.SetFakeContainers(containers)

	for _, id := range r.set {
		r.Liveness.Remove(id)
		r.Startup.Remove(id)
		r.readiness.Remove(id)
	}
	r.set = r.set[:0]
	for _, inst := range view.Instances {
		id := kubecontainer.ContainerID{Type: RuntimeName, ID: SplitID(tb, inst.ID)}
		setResult(r.Liveness, id, inst.Liveness, pod)
		setResult(r.Startup, id, inst.Startup, pod)
		setResult(r.readiness, id, inst.Readiness, pod)
		r.set = append(r.set, id)
	}

	as := r.prefix.actuatedState
	if err := as.RemovePod(r.logger, pod.UID); err != nil {
		tb.Fatalf("actuated state: %v", err)
	}
	if actuated {
		for _, list := range [][]v1.Container{pod.Spec.InitContainers, pod.Spec.Containers} {
			for i := range list {
				if err := as.SetContainerResources(r.logger, pod.UID, list[i].Name, list[i].Resources); err != nil {
					tb.Fatalf("actuated state: %v", err)
				}
			}
		}
		if pod.Spec.Resources != nil {
			if err := as.SetPodLevelResources(r.logger, pod.UID, pod.Spec.Resources); err != nil {
				tb.Fatalf("actuated state: %v", err)
			}
		}
	}
}

// setResult stores a view's probe result in a result cache (none: no entry).
func setResult(m proberesults.Manager, id kubecontainer.ContainerID, r restart.ProbeResult, pod *v1.Pod) {
	switch r {
	case restart.ProbeSuccess:
		m.Set(id, proberesults.Success, pod)
	case restart.ProbeFailure:
		m.Set(id, proberesults.Failure, pod)
	case restart.ProbeUnknown:
		m.Set(id, proberesults.Unknown, pod)
	}
}

// criState is the CRI state a runtime reports for a view's state.
func criState(s restart.State) runtimeapi.ContainerState {
	switch s {
	case restart.StateCreated:
		return runtimeapi.ContainerState_CONTAINER_CREATED
	case restart.StateRunning:
		return runtimeapi.ContainerState_CONTAINER_RUNNING
	case restart.StateExited:
		return runtimeapi.ContainerState_CONTAINER_EXITED
	}
	return runtimeapi.ContainerState_CONTAINER_UNKNOWN
}

// containerSpec returns a copy of the first container of that name (init, regular,
// ephemeral), or a container with only the name: the kubelet writes the labels and
// annotations of an instance from the spec it was created from.
func containerSpec(pod *v1.Pod, name string) v1.Container {
	if c := kubecontainer.GetContainerSpec(pod, name); c != nil {
		return *c.DeepCopy()
	}
	return v1.Container{Name: name}
}

// PodStatus loads the view and returns the kubelet's runtime status of the pod:
// kuberuntime's GetPods (every pod, as the PLEG lists them) and GetPodStatus. It fails tb
// when the runtime orders the view's sandboxes or instances differently from the view
// (a view is newest first in the runtime's order).
//
// The kubelet may see less than the runtime holds: with EventedPLEG on, GetPodStatus
// lists no container of a pod that has no sandbox. The view is then cut to what the
// kubelet sees (*view is replaced by a copy without the unseen instances), so that
// podlife is given the kubelet's knowledge; cut reports whether that happened.
func (r *Runtime) PodStatus(tb testing.TB, pod *v1.Pod, view *restart.View, actuated bool) (ps *kubecontainer.PodStatus, cut bool) {
	tb.Helper()
	r.Load(tb, pod, view, actuated)
	pods, err := getPods(r.m, r.ctx, true)
	if err != nil {
		tb.Fatalf("GetPods: %v", err)
	}
	runtimePod := &kubecontainer.Pod{ID: pod.UID, Name: pod.Name, Namespace: pod.Namespace}
	for _, p := range pods {
		if p.ID == pod.UID {
			runtimePod = p
		}
	}
	ps, err = getPodStatus(r.m, r.ctx, runtimePod)
	if err != nil {
		tb.Fatalf("GetPodStatus: %v", err)
	}
	// The kubelet's cache keys the status by the pod it asked about.
	ps.ID, ps.Name, ps.Namespace = pod.UID, pod.Name, pod.Namespace
	if len(ps.SandboxStatuses) != len(view.Sandboxes) {
		tb.Fatalf("the runtime reports %d sandboxes for a view of %d", len(ps.SandboxStatuses), len(view.Sandboxes))
	}
	for i, sb := range ps.SandboxStatuses {
		if sb.Id != view.Sandboxes[i].ID {
			tb.Fatalf("the runtime orders sandbox %q at %d, the view %q", sb.Id, i, view.Sandboxes[i].ID)
		}
	}
	if len(ps.ContainerStatuses) != len(view.Instances) {
		if len(ps.ContainerStatuses) != 0 || len(view.Sandboxes) != 0 {
			tb.Fatalf("the runtime reports %d containers for a view of %d", len(ps.ContainerStatuses), len(view.Instances))
		}
		cutView := *view
		cutView.Instances = nil
		*view = cutView
		cut = true
	}
	for i, cs := range ps.ContainerStatuses {
		if want := SplitID(tb, view.Instances[i].ID); cs.ID.ID != want {
			tb.Fatalf("the runtime orders container %q at %d, the view %q", cs.ID.ID, i, want)
		}
	}
	return ps, cut
}

// ComputePodActions is kuberuntime's computePodActions on this runtime's manager, with
// the liveness and startup results Load stored.
func (r *Runtime) ComputePodActions(pod *v1.Pod, ps *kubecontainer.PodStatus, restartAll bool) Actions {
	return computePodActions(r.m, r.ctx, pod, ps, restartAll)
}

// DoBackOff is kuberuntime's doBackOff on this runtime's manager: whether the
// crash-loop back-off holds the container's start, the message and the BackoffError. The
// event it records is returned by TakeEvents.
func (r *Runtime) DoBackOff(pod *v1.Pod, c *v1.Container, ps *kubecontainer.PodStatus, b *flowcontrol.Backoff) (bool, string, error) {
	return doBackOff(r.m, r.ctx, pod, c, ps, b)
}

// TakeEvents returns the events the manager recorded since the last call (or Load), as
// client-go's FakeRecorder renders them ("Warning BackOff Back-off restarting ...").
func (r *Runtime) TakeEvents() []string {
	var out []string
	for {
		select {
		case e := <-r.recorder.Events:
			out = append(out, e)
		default:
			return out
		}
	}
}

// SandboxChanged is kuberuntime/util's PodSandboxChanged on a runtime status.
func SandboxChanged(pod *v1.Pod, ps *kubecontainer.PodStatus) (changed bool, attempt uint32, id, message string) {
	return runtimeutil.PodSandboxChanged(pod, ps)
}

// IDString is the container ID as the API status writes it.
func IDString(id string) string { return RuntimeName + "://" + id }

// InstanceID is the view ID of the i-th generated instance.
func InstanceID(i int) string { return IDString("c" + strconv.Itoa(i)) }
