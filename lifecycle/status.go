package lifecycle

import (
	"net/netip"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podlife/podlife/internal/byname"
	"github.com/podlife/podlife/resources"
	"github.com/podlife/podlife/restart"
)

// Waiting and termination reasons and messages the kubelet writes into container
// statuses (k8s.io/kubernetes pkg/kubelet/kubelet_pods.go).
const (
	// ReasonContainerCreating is the default waiting reason of a pod without init
	// containers.
	ReasonContainerCreating = "ContainerCreating"
	// ReasonPodInitializing is the default waiting reason of a pod with init containers.
	ReasonPodInitializing = "PodInitializing"
	// ReasonContainerStatusUnknown is the termination reason of a container that was
	// running and can no longer be found.
	ReasonContainerStatusUnknown = "ContainerStatusUnknown"
	// ReasonPodSandboxNotReady is the PodReadyToStartContainers=False reason.
	ReasonPodSandboxNotReady = "PodSandboxNotReady"

	msgUnknownTerminated   = "The container could not be located when the pod was terminated"
	msgUnknownDeleted      = "The container could not be located when the pod was deleted.  The container used to be Running"
	msgRestartAllRemoved   = "The container is removed because RestartAllContainers in place"
	msgInitTreatedComplete = "Unable to get init container status from container runtime and pod has been initialized, treat it as exited normally"

	// maxTerminationMessageBytes is kubecontainer.MaxPodTerminationMessageLogLength.
	maxTerminationMessageBytes = 1024 * 12
)

// PodReadyToStartContainersCondition returns the PodReadyToStartContainers condition
// the kubelet generates from the view's sandboxes
// (GeneratePodReadyToStartContainersCondition): True when the newest sandbox is ready
// and needs no replacement; otherwise False with reason PodSandboxNotReady and the
// reason the sandbox must be (re)created as message ("no pod sandbox exists", "pod
// sandbox is not ready", "multiple pod sandboxes are ready and need to be reconciled",
// "network namespace mode changed and sandbox needs to be recreated", "pod sandbox has
// no IP address"). It carries observedGeneration = pod.generation; times are left to
// [NextStatus].
func PodReadyToStartContainersCondition(pod *corev1.Pod, view *restart.View, opts Options) corev1.PodCondition {
	pod = orEmpty(pod)
	cond := corev1.PodCondition{
		Type:               corev1.PodReadyToStartContainers,
		ObservedGeneration: observedGeneration(pod, corev1.PodReadyToStartContainers, opts),
		Status:             corev1.ConditionTrue,
	}
	if changed, _, _, msg := sandboxChanged(pod, orEmptyView(view)); changed {
		cond.Status = corev1.ConditionFalse
		cond.Reason = ReasonPodSandboxNotReady
		cond.Message = msg
	}
	return cond
}

// AllContainersRestartingCondition returns the AllContainersRestarting condition the
// kubelet generates for a pod in phase, with pod.Status as the previous status and the
// view as the runtime (GenerateAllContainersRestartingCondition), and whether the
// kubelet includes it in the status at all: only with the
// RestartAllContainersOnContainerExits gate on and some container having a
// RestartAllContainers rule. False with reason PodCompleted or PodFailed in a terminal
// phase; True with reason RestartAllContainersStarted and message "container exited
// with restart policy rule" while a restart of all containers is under way and some
// instance is left to remove; False otherwise. The condition has no observedGeneration.
func AllContainersRestartingCondition(pod *corev1.Pod, view *restart.View, phase corev1.PodPhase, opts Options) (corev1.PodCondition, bool) {
	pod, view = orEmpty(pod), orEmptyView(view)
	cond := corev1.PodCondition{Type: corev1.AllContainersRestarting, Status: corev1.ConditionFalse}
	included := restartAllContainersOnExits(opts) && restart.AllContainersCouldRestart(&pod.Spec)
	switch {
	case phase == corev1.PodSucceeded:
		cond.Reason = ReasonPodCompleted
	case phase == corev1.PodFailed:
		cond.Reason = ReasonPodFailed
	case !restart.ShouldAllContainersRestart(pod, view):
	case restart.AllContainersRestartCleanedUp(pod, view):
	default:
		cond.Status = corev1.ConditionTrue
		cond.Reason = ReasonRestartAllContainersStarted
		cond.Message = MessageRestartAllContainers
	}
	return cond, included
}

// NextStatus returns the status the kubelet writes next for pod, given the runtime
// view, at time now: generateAPIPodStatus (convertStatusToAPIStatus,
// convertToAPIContainerStatuses, getPhase and its post-processing, the prober's
// started/ready, the conditions) followed by what the status manager does when it
// stores it (observedGeneration, lastTransitionTime kept or set to now, startTime kept
// or set to now, timestamps truncated to seconds, long termination messages cut, the
// statuses sorted). pod.Status is the previous status.
//
// Container statuses: each container of the spec gets one. Its default is waiting with
// reason ContainerCreating (PodInitializing when the pod has init containers), keeping
// the previous restartCount and lastTerminationState, or the whole previous status when
// that was terminated. The newest two instances of a container give its state and
// lastTerminationState. A previously running container that vanished becomes terminated
// with reason ContainerStatusUnknown (unknown runtime state) or gets that last
// termination (no instance at all). A container the kubelet would restart whose last
// start failed shows the reason cache ([restart.View.StartFailures]) as its waiting state,
// for example CrashLoopBackOff. Restarting all containers in place shows
// RestartingAllContainers.
//
// The resources and allocatedResources of container statuses share their maps with
// the pod spec, as the kubelet's do: copy them before modifying them.
//
// Not modelled: the pod-level in-place resize fields (status.resources and
// status.allocatedResources, left empty; the resize conditions are carried over from
// pod.Status), runtime-reported container resources, volume mount statuses, user and
// stop-signal fields, the readiness kept across a kubelet restart, and, in the status
// manager, the merge into the API object (a terminal phase held back while containers
// may still run), the refusal of a status in which a container that cannot restart
// leaves the terminated state (checkContainerStateTransition) and the TerminatePod step
// for pods that have finished terminating. The node's IPs come from [restart.View.HostIPs],
// else from pod.Status.
//
// Besides the gates of [Phase] and the condition functions, NextStatus reads
// InPlacePodVerticalScaling (container status resources),
// ChangeContainerStatusOnKubeletRestart (whether a running container keeps its previous
// started flag), PodReadyToStartContainersCondition, PodLevelResources and
// PodLevelResourcesFixKubeletQOSClass (the QoS class).
func NextStatus(pod *corev1.Pod, view *restart.View, now time.Time, opts Options) (s corev1.PodStatus) {
	pod = orEmpty(pod)
	v := orEmptyView(view)
	x := newLookup(v)
	room := generateStatus(&s, pod, &pod.Status, &x, now, false, kubeletProber, opts)
	storeStatus(pod, &pod.Status, &s, now, room, opts)
	return s
}

// prober selects what sets started and ready on freshly converted statuses: the
// kubelet's prober manager (updateProbeStatus), or upstream's probetest.FakeManager,
// which marks every regular container ready and which upstream's generateAPIPodStatus
// table test uses. (A value rather than a function, so that the status and the lookup
// stay on the caller's stack.)
type prober uint8

const (
	kubeletProber prober = iota
	fakeAllReadyProber
)

// generateStatus is generateAPIPodStatus into s (zero), with old as the status
// manager's cached status (pod.Status is the API's). It returns room for the start
// time storeStatus sets, allocated with the IP lists.
func generateStatus(s *corev1.PodStatus, pod *corev1.Pod, old *corev1.PodStatus, x *lookup, now time.Time, podIsTerminal bool, p prober, opts Options) (startRoom *metav1.Time) {
	v := x.v
	// Conditions, in the kubelet's order, in a list of the size they need: those of
	// pod.Status the kubelet does not own, the resize conditions, DisruptionTarget (at
	// most one more), the five the kubelet generates and AllContainersRestarting.
	restartAllCond := restartAllContainersOnExits(opts) && restart.AllContainersCouldRestart(&pod.Spec)
	size, disruption := 5, conditionIndex(old.Conditions, corev1.DisruptionTarget)
	for i := range pod.Status.Conditions {
		if !conditionByKubelet(pod.Status.Conditions[i].Type, opts) {
			size++
		}
	}
	for i := range old.Conditions {
		if t := old.Conditions[i].Type; t == corev1.PodResizePending || t == corev1.PodResizeInProgress {
			size++
		}
	}
	if disruption >= 0 {
		size++
	}
	if restartAllCond {
		size++
	}
	// The short IP lists, the start time storeStatus sets, the five conditions and the
	// container statuses of a pod of up to four containers, with their states, share
	// one allocation (statusRoom).
	ex, pre := newStatusRoom(containerCount(&pod.Spec), size)
	if _, ok := activeSandbox(v); ok {
		s.PodIPs = podIPs(v.Sandboxes[0].Network, v.HostIPs, old, &ex.podIPs)
		if len(s.PodIPs) > 0 {
			s.PodIP = s.PodIPs[0].IP
		}
	}
	s.QOSClass = resources.GetPodQOSWithOptions(pod, resources.QOSOptions{
		DisablePodLevelResources:                   !opts.Features.Resolve().PodLevelResources,
		DisablePodLevelResourcesFixKubeletQOSClass: !opts.Features.Resolve().PodLevelResourcesFixKubeletQOSClass,
	})

	var chunks []stateChunk
	var sc *scratch
	if pre.fresh {
		sc = &pre
	}
	s.InitContainerStatuses, s.ContainerStatuses, s.EphemeralContainerStatuses, _, chunks = convertAll(pod, old, x, true, sc, opts)
	// The kubelet computes the phase and the conditions from a copy of the pod with
	// the old status but for the new container statuses. Here the functions that
	// compute them read the container statuses from ix, indexed once for all of them
	// (the prober changes no name), and everything else from oldPod: the pod itself
	// when old is pod.Status, as it always is here.
	ix := statusIndexesOf(s.InitContainerStatuses, s.ContainerStatuses)
	oldPod := withStatus(pod, old)
	ps := resolvedPhase(pod, oldPod, &ix, old, x, now, podIsTerminal, opts)
	s.Phase, s.Reason, s.Message = ps.Phase, ps.Reason, ps.Message

	if p == kubeletProber {
		updateProbeStatus(pod, x, s.ContainerStatuses, s.InitContainerStatuses, chunks, opts)
	} else {
		for i := range s.ContainerStatuses {
			s.ContainerStatuses[i].Ready = true
		}
	}

	if size <= len(ex.conds) {
		s.Conditions = ex.conds[:0:size]
	} else {
		s.Conditions = make([]corev1.PodCondition, 0, size)
	}
	for i := range pod.Status.Conditions {
		if c := &pod.Status.Conditions[i]; !conditionByKubelet(c.Type, opts) {
			s.Conditions = append(s.Conditions, *c)
		}
	}
	for i := range old.Conditions {
		if c := &old.Conditions[i]; c.Type == corev1.PodResizePending || c.Type == corev1.PodResizeInProgress {
			s.Conditions = append(s.Conditions, *c)
			if pod.Generation == 0 {
				s.Conditions[len(s.Conditions)-1].ObservedGeneration = 0
			}
		}
	}
	if i := disruption; i >= 0 {
		if j := conditionIndex(s.Conditions, corev1.DisruptionTarget); j >= 0 {
			s.Conditions[j] = old.Conditions[i]
		} else {
			s.Conditions = append(s.Conditions, old.Conditions[i])
		}
	}
	// The condition generators read the previous conditions from the cached status.
	s.Conditions = append(s.Conditions, PodReadyToStartContainersCondition(oldPod, v, opts))
	s.Conditions = append(s.Conditions, initializedCondition(oldPod, ix.initFirst(), s.Phase, opts))
	s.Conditions = appendReadyConditions(s.Conditions, oldPod, ix.initFirst(), s.Phase, opts)
	s.Conditions = append(s.Conditions, corev1.PodCondition{
		Type:               corev1.PodScheduled,
		ObservedGeneration: observedGeneration(oldPod, corev1.PodScheduled, opts),
		Status:             corev1.ConditionTrue,
	})
	if restartAllCond {
		cond, _ := AllContainersRestartingCondition(oldPod, x.v, s.Phase, opts)
		s.Conditions = append(s.Conditions, cond)
	}
	setHostIPs(pod, v, s, &ex.hostIPs)
	return &ex.start
}

// statusExtras is the room of a generated status's start time and of its pod and
// host IP lists (at most two each, one per family; the lists are capped at their
// length, so that appending to one never writes into the other), and of its
// conditions when there are five (the usual number).
type statusExtras struct {
	start   metav1.Time
	podIPs  [2]corev1.PodIP
	hostIPs [2]corev1.HostIP
	conds   [5]corev1.PodCondition
}

// statusRoom is the room of a generated status of a pod of N containers (1 to 4):
// its extras, its container statuses and their chunks, in one allocation.
type (
	statusRoom1 struct {
		ex     statusExtras
		all    [1]corev1.ContainerStatus
		chunks [1]stateChunk
	}
	statusRoom2 struct {
		ex     statusExtras
		all    [2]corev1.ContainerStatus
		chunks [2]stateChunk
	}
	statusRoom3 struct {
		ex     statusExtras
		all    [3]corev1.ContainerStatus
		chunks [3]stateChunk
	}
	statusRoom4 struct {
		ex     statusExtras
		all    [4]corev1.ContainerStatus
		chunks [4]stateChunk
	}
)

// newStatusRoom returns the extras of a new status with conditions conditions and,
// for a pod of 1 to 4 containers, its container statuses' room (fresh: convertAll
// takes it without clearing it), allocated together; a scratch that is not fresh
// for other pods, whose statuses convertAll allocates. The conditions' room comes with the extras only
// when it fits.
func newStatusRoom(containers, conditions int) (*statusExtras, scratch) {
	if conditions > len(statusExtras{}.conds) {
		// The conditions take a list of their own; the extras go without room for them.
		containers = 0
	}
	switch containers {
	case 1:
		r := new(statusRoom1)
		return &r.ex, scratch{all: r.all[:], chunks: r.chunks[:], fresh: true}
	case 2:
		r := new(statusRoom2)
		return &r.ex, scratch{all: r.all[:], chunks: r.chunks[:], fresh: true}
	case 3:
		r := new(statusRoom3)
		return &r.ex, scratch{all: r.all[:], chunks: r.chunks[:], fresh: true}
	case 4:
		r := new(statusRoom4)
		return &r.ex, scratch{all: r.all[:], chunks: r.chunks[:], fresh: true}
	}
	return new(statusExtras), scratch{}
}

// numTimedTypes is the number of condition types whose transition time the status
// manager sets (timedType).
const numTimedTypes = 7

// timedType numbers the condition types whose transition time the status manager
// sets, -1 for the others.
func timedType(t corev1.PodConditionType) int {
	switch t {
	case corev1.ContainersReady:
		return 0
	case corev1.PodReady:
		return 1
	case corev1.PodInitialized:
		return 2
	case corev1.PodReadyToStartContainers:
		return 3
	case corev1.PodScheduled:
		return 4
	case corev1.DisruptionTarget:
		return 5
	case corev1.AllContainersRestarting:
		return 6
	}
	return -1
}

// sameShort is a == b for a condition status ("True", "False", "Unknown"): strings of
// 4 to 8 bytes compare as two overlapping words, without a call.
func sameShort(a, b string) bool {
	n := len(a)
	if n != len(b) {
		return false
	}
	if n < 4 || n > 8 {
		return a == b
	}
	return le32(a) == le32(b) && le32(a[n-4:]) == le32(b[n-4:])
}

// le32 reads the first 4 bytes of s, little-endian (the compiler makes it one load).
func le32(s string) uint32 {
	_ = s[3]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

// withStatus returns pod with status as its status: pod itself when status is
// pod.Status, else a copy.
func withStatus(pod *corev1.Pod, status *corev1.PodStatus) *corev1.Pod {
	if status == &pod.Status {
		return pod
	}
	p := *pod
	p.Status = *status
	return &p
}

// storeStatus is what the status manager does to a generated status before it keeps
// it (SetPodStatus, updateStatusInternal, normalizeStatus), old being the status it
// held before.
func storeStatus(pod *corev1.Pod, old, s *corev1.PodStatus, now time.Time, startRoom *metav1.Time, opts Options) {
	if observedGenerationTracking(opts) {
		s.ObservedGeneration = pod.Generation
	}
	// Times are set here already cut to whole seconds, as normalizeStatus will (see
	// there), and so are the times of the other conditions.
	nowT := rfc3339(metav1.NewTime(now))
	// The first old condition of each type the status manager times, found in one
	// pass (position+1; 0 for none).
	var oldAt [numTimedTypes]int
	for j := range old.Conditions {
		if k := timedType(old.Conditions[j].Type); k >= 0 && oldAt[k] == 0 {
			oldAt[k] = j + 1
		}
	}
	var seen [numTimedTypes]bool
	for i := range s.Conditions {
		c := &s.Conditions[i]
		c.LastProbeTime = rfc3339(c.LastProbeTime)
		k := timedType(c.Type)
		if k < 0 || seen[k] {
			// The status manager updates the first of a type only.
			c.LastTransitionTime = rfc3339(c.LastTransitionTime)
			continue
		}
		seen[k] = true
		if j := oldAt[k] - 1; j >= 0 && sameShort(string(old.Conditions[j].Status), string(c.Status)) {
			c.LastTransitionTime = rfc3339(old.Conditions[j].LastTransitionTime)
		} else {
			c.LastTransitionTime = nowT
		}
	}
	// A start time already set is the status's own; a new one goes into startRoom
	// (from generateStatus) when there is one.
	var start metav1.Time
	if old.StartTime != nil && !old.StartTime.IsZero() {
		start = rfc3339(*old.StartTime)
	} else if s.StartTime.IsZero() {
		start = nowT
	} else {
		start = rfc3339(*s.StartTime)
	}
	if s.StartTime == nil {
		s.StartTime = startRoom
		if s.StartTime == nil {
			s.StartTime = new(metav1.Time)
		}
	}
	*s.StartTime = start
	if len(old.VolumeHealth) > 0 && len(s.VolumeHealth) == 0 {
		s.VolumeHealth = append([]corev1.PodVolumeHealth(nil), old.VolumeHealth...)
	}
	if old.ObservedGeneration > s.ObservedGeneration {
		s.ObservedGeneration = old.ObservedGeneration
	}
	normalizeStatus(pod, s)
}

// scratch is what a caller that plans many syncs of one pod (Simulate) keeps from one
// plan to the next: room for the container statuses plan converts only to read the
// phase from (nothing converted into it outlives the call that reads it), and the
// crash-loop back-off key of each container, which depends only on the pod's
// metadata and the container's spec, neither of which changes between the syncs.
type scratch struct {
	all    []corev1.ContainerStatus
	chunks []stateChunk
	keys   []string // by init, regular, ephemeral container; "" not yet computed
	// waits is the last crash-loop waiting message of each container (indexed as
	// keys) with the delay it names.
	waits []backOffMessage
	// fresh marks all and chunks as zero and for one conversion only (newStatusRoom):
	// take hands them out without clearing them, and they are then the conversion's.
	fresh bool
}

// containerCount is the number of init, regular and ephemeral containers of spec, the
// length of the lists scratch keeps per container.
func containerCount(spec *corev1.PodSpec) int {
	return len(spec.InitContainers) + len(spec.Containers) + len(spec.EphemeralContainers)
}

// backOffMessage is a crash-loop waiting message and the delay it names.
type backOffMessage struct {
	delay time.Duration
	msg   string
}

// index numbers the referenced container: init, then regular, then ephemeral
// containers.
func (sc *scratch) index(pod *corev1.Pod, r ContainerRef) int {
	switch r.Kind {
	case KindInitContainer, KindSidecar:
		return r.Index
	case KindEphemeralContainer:
		return r.Index + len(pod.Spec.InitContainers) + len(pod.Spec.Containers)
	}
	return r.Index + len(pod.Spec.InitContainers)
}

// crashLoopMessage returns restart.CrashLoopMessage(delay, r.Name, pod), the same
// string as the last time it was asked for the container with this delay when sc is
// not nil (the pod's name, namespace and UID do not change between the syncs).
func (sc *scratch) crashLoopMessage(pod *corev1.Pod, r ContainerRef, delay time.Duration) string {
	if sc == nil {
		return restart.CrashLoopMessage(delay, r.Name, pod)
	}
	if sc.waits == nil {
		sc.waits = make([]backOffMessage, containerCount(&pod.Spec))
	}
	w := &sc.waits[sc.index(pod, r)]
	if w.msg == "" || w.delay != delay {
		w.delay, w.msg = delay, restart.CrashLoopMessage(delay, r.Name, pod)
	}
	return w.msg
}

// backOffKey returns restart.BackOffKey(pod, c) for the referenced container c, kept
// in sc when it is not nil.
func (sc *scratch) backOffKey(pod *corev1.Pod, r ContainerRef, c *corev1.Container) string {
	if sc == nil {
		return restart.BackOffKey(pod, c)
	}
	i := sc.index(pod, r)
	if sc.keys == nil {
		sc.keys = make([]string, containerCount(&pod.Spec))
	}
	if sc.keys[i] == "" {
		sc.keys[i] = restart.BackOffKey(pod, c)
	}
	return sc.keys[i]
}

// take returns n zero statuses and a converter for n containers, from sc when it is
// not nil.
func (sc *scratch) take(n int) ([]corev1.ContainerStatus, converter) {
	if sc == nil {
		return make([]corev1.ContainerStatus, n), newConverter(n)
	}
	if sc.fresh && len(sc.all) == n {
		sc.fresh = false
		return sc.all, converter{chunks: sc.chunks, left: n}
	}
	if cap(sc.all) < n {
		sc.all, sc.chunks = make([]corev1.ContainerStatus, n), make([]stateChunk, n)
	}
	all, chunks := sc.all[:n], sc.chunks[:n]
	clear(all)
	clear(chunks)
	return all, converter{chunks: chunks, left: n}
}

// convertAll converts the statuses of every kind of container and reports whether
// the pod is restarting all its containers. The statuses are new unless sc is not
// nil, when they live in sc until its next use.
func convertAll(pod *corev1.Pod, old *corev1.PodStatus, x *lookup, withResources bool, sc *scratch, opts Options) (init, regular, eph []corev1.ContainerStatus, restarting bool, chunks []stateChunk) {
	restarting = restartingAll(pod, old, x, opts)
	hasInit := len(pod.Spec.InitContainers) > 0
	// The three lists share one allocation (each capped at its length), and so do
	// their states and resources.
	nr, ni, ne := len(pod.Spec.Containers), len(pod.Spec.InitContainers), len(pod.Spec.EphemeralContainers)
	all, cv := sc.take(nr + ni + ne)
	regular = cv.convert(all[:nr:nr], pod, x, old.ContainerStatuses, pod.Spec.Containers, KindContainer, hasInit, restarting, withResources, opts)
	init = cv.convert(all[nr:nr+ni:nr+ni], pod, x, old.InitContainerStatuses, pod.Spec.InitContainers, KindInitContainer, hasInit, restarting, withResources, opts)
	var ecs []corev1.Container
	if ne > 0 {
		ecs = make([]corev1.Container, ne)
		for i := range pod.Spec.EphemeralContainers {
			ecs[i] = corev1.Container(pod.Spec.EphemeralContainers[i].EphemeralContainerCommon)
		}
	}
	eph = cv.convert(all[nr+ni:], pod, x, old.EphemeralContainerStatuses, ecs, KindEphemeralContainer, hasInit, restarting, withResources, opts)
	return init, regular, eph, restarting, cv.chunks
}

// convertStatuses is convertToAPIContainerStatuses for one kind of container.
func convertStatuses(pod *corev1.Pod, x *lookup, previous []corev1.ContainerStatus, containers []corev1.Container, kind ContainerKind, hasInit, restarting, withResources bool, opts Options) []corev1.ContainerStatus {
	cv := newConverter(len(containers))
	return cv.convert(make([]corev1.ContainerStatus, len(containers)), pod, x, previous, containers, kind, hasInit, restarting, withResources, opts)
}

// converter converts the container statuses of a pod, kind after kind, allocating
// their states and resources together: each container has a chunk with room for one
// state of each kind and its resources, all chunks in one allocation; a second state
// of a kind (rare: the last state of a container is usually of another kind than its
// state) comes from a slab allocated for every container left (left).
type converter struct {
	chunks     []stateChunk
	cur        *stateChunk // the chunk of the container being converted
	left       int
	running    []corev1.ContainerStateRunning
	terminated []corev1.ContainerStateTerminated
	waiting    []corev1.ContainerStateWaiting
}

// stateChunk is the room one container's status has for its states and resources.
type stateChunk struct {
	running    corev1.ContainerStateRunning
	terminated corev1.ContainerStateTerminated
	waiting    corev1.ContainerStateWaiting
	resources  corev1.ResourceRequirements
	used       uint8 // chunkRunning | chunkTerminated | chunkWaiting as handed out
	// started is the started flag updateProbeStatus gives a status: the chunks are
	// numbered as convertAll converts, regular containers first, then init ones.
	started bool
}

const (
	chunkRunning uint8 = 1 << iota
	chunkTerminated
	chunkWaiting
)

func newConverter(containers int) converter {
	return converter{chunks: make([]stateChunk, containers), left: containers}
}

// next moves to the next container's chunk.
func (a *converter) next() {
	a.cur = &a.chunks[len(a.chunks)-a.left]
	a.left--
}

func (a *converter) newRunning() *corev1.ContainerStateRunning {
	if c := a.cur; c.used&chunkRunning == 0 {
		c.used |= chunkRunning
		return &c.running
	}
	return spill(&a.running, a.left+1)
}

func (a *converter) newTerminated() *corev1.ContainerStateTerminated {
	if c := a.cur; c.used&chunkTerminated == 0 {
		c.used |= chunkTerminated
		return &c.terminated
	}
	return spill(&a.terminated, a.left+1)
}

func (a *converter) newWaiting() *corev1.ContainerStateWaiting {
	if c := a.cur; c.used&chunkWaiting == 0 {
		c.used |= chunkWaiting
		return &c.waiting
	}
	return spill(&a.waiting, a.left+1)
}

// spill takes the next state from slab, refilled with n states when empty: a
// container's second state of one kind, which its chunk has no room for.
func spill[T any](slab *[]T, n int) *T {
	if len(*slab) == 0 {
		*slab = make([]T, n)
	}
	v := &(*slab)[0]
	*slab = (*slab)[1:]
	return v
}

// waitingOf returns a new waiting state for the container of chunk k, converted
// before, whose status's state is being replaced (cur is its waiting state, if any):
// the chunk's own when the status does not use it yet or cur is it.
func (a *converter) waitingOf(k int, cur *corev1.ContainerStateWaiting) *corev1.ContainerStateWaiting {
	if c := &a.chunks[k]; c.used&chunkWaiting == 0 || cur == &c.waiting {
		c.used |= chunkWaiting
		return &c.waiting
	}
	return new(corev1.ContainerStateWaiting)
}

// terminatedOf is waitingOf for a terminated state.
func (a *converter) terminatedOf(k int) *corev1.ContainerStateTerminated {
	if c := &a.chunks[k]; c.used&chunkTerminated == 0 {
		c.used |= chunkTerminated
		return &c.terminated
	}
	return new(corev1.ContainerStateTerminated)
}

// newResources is the resources of the container being converted.
func (a *converter) newResources() *corev1.ResourceRequirements { return &a.cur.resources }

// restartingAll is kubecontainer.ShouldAllContainersRestart as the kubelet asks it
// (only with the RestartAllContainersOnContainerExits gate on), with old as the API
// status. Without any RestartAllContainers rule only the condition can say so.
func restartingAll(pod *corev1.Pod, old *corev1.PodStatus, x *lookup, opts Options) bool {
	if !restartAllContainersOnExits(opts) {
		return false
	}
	if !restart.AllContainersCouldRestart(&pod.Spec) {
		for i := range old.Conditions {
			if c := &old.Conditions[i]; c.Type == corev1.AllContainersRestarting && c.Status == corev1.ConditionTrue {
				return true
			}
		}
		return false
	}
	return restart.ShouldAllContainersRestart(withStatus(pod, old), x.v)
}

// resolvedPhase is getPhase over tmp (the pod with its new container statuses)
// followed by generateAPIPodStatus's post-processing against the original pod.
func resolvedPhase(pod, oldPod *corev1.Pod, ix *statusIndexes, old *corev1.PodStatus, x *lookup, now time.Time, podIsTerminal bool, opts Options) PhaseStatus {
	initialized := anyActiveRegularContainer(pod, x)
	// getPhase reads the new container statuses (ix) and, of the rest of the pod, the
	// spec and the annotations (podHasInitialized is given).
	p := phase(oldPod, ix.regularFirst(), PhaseOptions{Options: opts, PodHasInitialized: &initialized, PodIsTerminal: podIsTerminal})
	return ResolvePhase(pod, p, now, PhaseOptions{Options: opts, OldStatus: old})
}

// surelyNotTerminal reports, without converting any container status, that the next
// phase (nextPhase) is neither Succeeded nor Failed and that the pod is not restarting
// all its containers. It is a sufficient condition, false meaning "convert and see":
// pod.Status has no terminal phase, the active deadline has not passed, the pod is
// not restarting all its containers, every regular init container's newest instance
// exited 0 (so getPhase sees no failed init container; a regular container of the
// same name, whose status getPhase would read instead, makes it false), and some
// regular container's newest instance runs with no start failure recorded (so getPhase
// sees a running container and answers Pending or Running).
func surelyNotTerminal(pod *corev1.Pod, x *lookup, now time.Time, opts Options) bool {
	st := &pod.Status
	if isTerminal(st.Phase) || deadlineEviction(pod, st, now).Evict || restartingAll(pod, st, x, opts) {
		return false
	}
	if surelyPending(pod, x) {
		return true
	}
	var regular byname.Index[corev1.Container]
	indexed := false
	for i := range pod.Spec.InitContainers {
		c := &pod.Spec.InitContainers[i]
		if restart.IsRestartableInitContainer(c) {
			continue
		}
		j := x.first(c.Name)
		if j < 0 {
			return false
		}
		if inst := &x.v.Instances[j]; inst.State.Kubelet() != restart.StateExited || inst.ExitCode != 0 {
			return false
		}
		if !indexed {
			regular, indexed = byname.Containers(pod.Spec.Containers), true
		}
		if regular.First(c.Name) >= 0 {
			return false
		}
	}
	for i := range pod.Spec.Containers {
		name := pod.Spec.Containers[i].Name
		if j := x.first(name); j >= 0 && x.v.Instances[j].State.Kubelet() == restart.StateRunning {
			if _, failed := x.v.StartFailures[name]; !failed {
				return true
			}
		}
	}
	return false
}

// surelyPending reports, without converting any container status, that getPhase
// answers Pending for the next statuses (surelyNotTerminal checks the rest of the
// phase). It is a sufficient condition, false meaning "convert and see":
//
//   - no init container can fail the pod: the pod's restartPolicy is Always or
//     OnFailure and no regular init container has a restartPolicy of its own (so
//     neither the restartPolicy Never rule nor, with ContainerRestartRules, a
//     container that will not be restarted applies);
//   - and getPhase counts a pending init container or a waiting container: a regular
//     init container whose newest instance runs with no start failure recorded
//     (status running), or one without any instance whose previous status was neither
//     running nor terminated and had no last termination while no regular container
//     was created (status waiting with no last termination; not taken for completed),
//     or a regular container without any instance with such a previous status
//     (status waiting with no last termination).
//
// The container must be the first of its name in its list (getPhase reads the first
// status of a name), and an init container must not share its name with a regular
// one (getPhase reads the regular statuses first).
func surelyPending(pod *corev1.Pod, x *lookup) bool {
	spec := &pod.Spec
	if spec.RestartPolicy != corev1.RestartPolicyAlways && spec.RestartPolicy != corev1.RestartPolicyOnFailure {
		return false
	}
	for i := range spec.InitContainers {
		if c := &spec.InitContainers[i]; c.RestartPolicy != nil && !restart.IsRestartableInitContainer(c) {
			return false
		}
	}
	// waitingBefore reports that a container without an instance whose last previous
	// status is old gets a waiting status with no last termination.
	waitingBefore := func(old *corev1.ContainerStatus) bool {
		return old == nil || old.State.Running == nil && old.State.Terminated == nil && old.LastTerminationState.Terminated == nil
	}
	regular := byname.Containers(spec.Containers)
	var prevRegular byname.Index[corev1.ContainerStatus]
	indexed := false
	for i := range spec.Containers {
		name := spec.Containers[i].Name
		if x.first(name) >= 0 || regular.First(name) != i {
			continue
		}
		if !indexed {
			prevRegular, indexed = byname.Statuses(pod.Status.ContainerStatuses), true
		}
		if waitingBefore(byname.LastStatus(&prevRegular, name)) {
			return true
		}
	}
	if len(spec.InitContainers) == 0 {
		return false
	}
	inits := byname.Containers(spec.InitContainers)
	var prevInit byname.Index[corev1.ContainerStatus]
	indexed = false
	created := -1 // anyRegularContainerCreatedL, computed once when needed
	for i := range spec.InitContainers {
		c := &spec.InitContainers[i]
		if restart.IsRestartableInitContainer(c) || inits.First(c.Name) != i || regular.First(c.Name) >= 0 {
			continue
		}
		if j := x.first(c.Name); j >= 0 {
			if x.v.Instances[j].State.Kubelet() == restart.StateRunning {
				if _, failed := x.v.StartFailures[c.Name]; !failed {
					return true
				}
			}
			continue
		}
		if created < 0 {
			created = 0
			if anyRegularContainerCreatedL(pod, x) {
				created = 1
			}
		}
		if created == 1 {
			continue
		}
		if !indexed {
			prevInit, indexed = byname.Statuses(pod.Status.InitContainerStatuses), true
		}
		if waitingBefore(byname.LastStatus(&prevInit, c.Name)) {
			return true
		}
	}
	return false
}

// nextPhase is the phase of the next status and whether the pod is restarting all
// its containers, without the rest of the status, converting the statuses it reads
// into sc (nil: new ones).
func nextPhase(pod *corev1.Pod, v *restart.View, x *lookup, now time.Time, sc *scratch, opts Options) (corev1.PodPhase, bool) {
	init, regular, _, restarting, _ := convertAll(pod, &pod.Status, x, false, sc, opts)
	ix := statusIndexesOf(init, regular)
	return resolvedPhase(pod, pod, &ix, &pod.Status, x, now, false, opts).Phase, restarting
}

// conditionByKubelet is kubetypes.PodConditionByKubelet.
func conditionByKubelet(t corev1.PodConditionType, opts Options) bool {
	switch t {
	case corev1.PodScheduled, corev1.PodReady, corev1.PodInitialized, corev1.ContainersReady,
		corev1.PodResizeInProgress, corev1.PodResizePending:
		return true
	case corev1.PodReadyToStartContainers:
		return readyToStartContainersCondition(opts)
	case corev1.AllContainersRestarting:
		return restartAllContainersOnExits(opts)
	}
	return false
}

func conditionIndex(cs []corev1.PodCondition, t corev1.PodConditionType) int {
	for i := range cs {
		if cs[i].Type == t {
			return i
		}
	}
	return -1
}

// podIPs is determinePodSandboxIPs followed by sortPodIPs: at most one IP of the node's
// family, then one of the other family, re-rendered in canonical form.
func podIPs(n *restart.SandboxNetwork, hostIPs []string, old *corev1.PodStatus, room *[2]corev1.PodIP) []corev1.PodIP {
	if n == nil {
		return nil
	}
	// One IP in canonical dotted-decimal form, the common case, is the answer
	// whatever the node's family (the loop at the end would only order it).
	if len(n.AdditionalIPs) == 0 && isCanonicalIPv4(n.IP) {
		room[0] = corev1.PodIP{IP: n.IP}
		return room[:1:1]
	}
	// An IP in canonical dotted-decimal form is taken as written without parsing;
	// others are parsed as the kubelet does.
	type parsed struct {
		v4, canonical bool
		ip            netip.Addr
		raw           string
	}
	var buf [8]parsed
	ips := buf[:0]
	add := func(s string) bool {
		if isCanonicalIPv4(s) {
			ips = append(ips, parsed{v4: true, canonical: true, raw: s})
			return true
		}
		ip, ok := parseIPSloppy(s)
		if !ok {
			return false
		}
		ips = append(ips, parsed{v4: ip.Is4(), ip: ip, raw: s})
		return true
	}
	if n.IP != "" && !add(n.IP) {
		return nil
	}
	for _, ip := range n.AdditionalIPs {
		if !add(ip) {
			return nil
		}
	}
	if len(ips) == 0 {
		return nil
	}
	primary := ""
	if len(hostIPs) > 0 {
		primary = hostIPs[0]
	} else {
		primary = old.HostIP
	}
	// The node is IPv4 unless its IP parses as IPv6, which takes a colon.
	nodeV4 := true
	if strings.IndexByte(primary, ':') >= 0 {
		if ip, ok := parseIPSloppy(primary); ok && !ip.Is4() {
			nodeV4 = false
		}
	}
	out := room[:0]
	for _, wantV4 := range [2]bool{nodeV4, !nodeV4} {
		for i := range ips {
			if ips[i].v4 == wantV4 {
				text := ips[i].raw
				if !ips[i].canonical {
					text = canonicalIP(ips[i].ip, text)
				}
				out = append(out, corev1.PodIP{IP: text})
				break
			}
		}
	}
	return out[:len(out):len(out)]
}

// isCanonicalIPv4 reports whether s is an IPv4 address in the form net.IP.String
// renders: four decimal octets of at most 255, without leading zeros.
func isCanonicalIPv4(s string) bool {
	n := len(s)
	if n < len("0.0.0.0") || n > len("255.255.255.255") {
		return false
	}
	i := 0
	for part := range 4 {
		if part > 0 {
			if i >= n || s[i] != '.' {
				return false
			}
			i++
		}
		start, v := i, 0
		for i < n && s[i]-'0' <= 9 {
			v = v*10 + int(s[i]-'0')
			i++
		}
		if d := i - start; d == 0 || d > 3 || v > 255 || d > 1 && s[start] == '0' {
			return false
		}
	}
	return i == n
}

// parseIPSloppy parses an IP as k8s.io/utils/net.ParseIPSloppy does (IPv4 octets may
// have leading zeros, read as decimal); an IPv4-mapped IPv6 address is IPv4, as for
// net.IP.
func parseIPSloppy(s string) (netip.Addr, bool) {
	if s == "" {
		return netip.Addr{}, false
	}
	ip, err := netip.ParseAddr(s)
	if err == nil {
		if ip.Zone() != "" {
			return netip.Addr{}, false // net.ParseIP refuses zones
		}
		return ip.Unmap(), true
	}
	if strings.Contains(s, ":") || !strings.Contains(s, ".") {
		return netip.Addr{}, false
	}
	parts := strings.Split(s, ".")
	if len(parts) != 4 {
		return netip.Addr{}, false
	}
	for i, p := range parts {
		t := strings.TrimLeft(p, "0")
		if t == "" && p != "" {
			t = "0"
		}
		parts[i] = t
	}
	ip, err = netip.ParseAddr(strings.Join(parts, "."))
	if err != nil {
		return netip.Addr{}, false
	}
	return ip, true
}

// ipFamily is utilnet.IPFamilyOfString: 4, 6, or 0 for an invalid IP.
func ipFamily(s string) int {
	ip, ok := parseIPSloppy(s)
	switch {
	case !ok:
		return 0
	case ip.Is4():
		return 4
	}
	return 6
}

// canonicalIP renders ip as net.IP.String does, reusing raw when it is already
// canonical.
func canonicalIP(ip netip.Addr, raw string) string {
	var buf [64]byte
	b := ip.AppendTo(buf[:0])
	if string(b) == raw {
		return raw
	}
	return string(b)
}

// setHostIPs fills hostIP(s), and the pod IPs of a hostNetwork pod, from the node.
func setHostIPs(pod *corev1.Pod, v *restart.View, s *corev1.PodStatus, room *[2]corev1.HostIP) {
	// The node's IPs: the view's, else the old status's; only the first two are read.
	var host [2]string
	nh := len(v.HostIPs)
	if nh > 0 {
		copy(host[:], v.HostIPs)
	} else {
		nh = len(pod.Status.HostIPs)
		for i := range min(nh, 2) {
			host[i] = pod.Status.HostIPs[i].IP
		}
		if nh == 0 && pod.Status.HostIP != "" {
			host[0], nh = pod.Status.HostIP, 1
		}
	}
	if nh == 0 {
		return
	}
	s.HostIP = host[0]
	room[0].IP = host[0]
	s.HostIPs = room[:1:1]
	if nh >= 2 {
		room[1].IP = host[1]
		s.HostIPs = room[:2:2]
	}
	if pod.Spec.HostNetwork {
		if s.PodIP == "" {
			s.PodIP = host[0]
			s.PodIPs = []corev1.PodIP{{IP: s.PodIP}}
		}
		if nh >= 2 && len(s.PodIPs) == 1 {
			if ipFamily(s.PodIPs[0].IP) != ipFamily(host[1]) {
				s.PodIPs = append(s.PodIPs, corev1.PodIP{IP: host[1]})
			}
		}
	}
}

// convert is convertToAPIContainerStatuses for one kind of container, into out (zero,
// one per container).
func (cv *converter) convert(out []corev1.ContainerStatus, pod *corev1.Pod, x *lookup, previous []corev1.ContainerStatus, containers []corev1.Container, kind ContainerKind, hasInit, restarting, withResources bool, opts Options) []corev1.ContainerStatus {
	if len(containers) == 0 {
		return out
	}
	// The chunk of containers[i] is chunks[base+i].
	base := len(cv.chunks) - cv.left
	g := opts.Features.Resolve()
	rac := g.RestartAllContainersOnContainerExits
	defaultReason := ReasonContainerCreating
	if hasInit {
		defaultReason = ReasonPodInitializing
	}
	// The previous status of a name is the last one with that name.
	previousByName := byname.Statuses(previous)
	oldOf := func(name string) (*corev1.ContainerStatus, bool) {
		st := byname.LastStatus(&previousByName, name)
		return st, st != nil
	}

	// The newest instance of each container, looked up once for both loops.
	var newestBuf [32]int32
	newestAt := newestBuf[:0]
	if len(containers) > len(newestBuf) {
		newestAt = make([]int32, 0, len(containers))
	}
	for i := range containers {
		c := &containers[i]
		st := &out[i]
		cv.next()
		old, found := oldOf(c.Name)
		first := x.first(c.Name)
		newestAt = append(newestAt, int32(first))
		if first < 0 {
			statusWithoutInstance(st, pod, c, old, defaultReason, rac && restarting, cv)
			continue
		}
		// The newest instance gives the status, the one before its last state.
		inst := &x.v.Instances[first]
		prev := x.next(first, c.Name)
		convertInstance(st, inst, old, restarting, rac, prev >= 0, cv)
		if !g.ChangeContainerStatusOnKubeletRestart && inst.State.Kubelet() == restart.StateRunning && found && old.Started != nil {
			// The prober replaces the flag of init and regular containers; only
			// ephemeral ones keep a copy.
			st.Started = old.Started
			if kind == KindEphemeralContainer {
				b := *old.Started
				st.Started = &b
			}
		}
		if withResources && g.InPlacePodVerticalScaling {
			st.Resources = statusResources(cv.newResources(), c, inst, st, old)
			st.AllocatedResources = c.Resources.Requests
		}
		if prev >= 0 {
			st.LastTerminationState = instanceState(&x.v.Instances[prev], old, restarting, rac, cv)
		}
	}

	// Containers whose last start failed show why, if they are to be restarted.
	ro := opts
	created := -1 // HasAnyRegularContainerCreated, computed once when needed
	regularCreated := func() bool {
		if created < 0 {
			created = 0
			if anyRegularContainerCreatedL(pod, x) {
				created = 1
			}
		}
		return created == 1
	}
	for i := range containers {
		c := &containers[i]
		st := &out[i]
		var newest *restart.Instance
		if j := newestAt[i]; j >= 0 {
			newest = &x.v.Instances[j]
		}
		if kind == KindInitContainer {
			if newest != nil && newest.State.Kubelet() == restart.StateExited && newest.ExitCode == 0 {
				continue
			}
			if newest == nil && !restart.IsRestartableInitContainer(c) && st.State.Waiting != nil && regularCreated() {
				t := cv.terminatedOf(base + i)
				*t = corev1.ContainerStateTerminated{Reason: "Completed", Message: msgInitTreatedComplete}
				st.State = corev1.ContainerState{Terminated: t}
				continue
			}
		}
		f, ok := x.v.StartFailures[c.Name]
		if !ok || !shouldRestart(pod, c, newest, ro) {
			continue
		}
		if st.State.Terminated != nil {
			st.LastTerminationState = st.State
		}
		w := cv.waitingOf(base+i, st.State.Waiting)
		*w = corev1.ContainerStateWaiting{Reason: f.Reason, Message: f.Message}
		st.State = corev1.ContainerState{Waiting: w}
	}

	if kind != KindInitContainer {
		sortByName(out)
	}
	return out
}

// statusWithoutInstance is the status of a container the runtime has no instance of:
// the default waiting state (or the previous terminated status), with the previous
// restart count and last termination; a container removed to restart all containers
// is waiting with reason RestartingAllContainers, and one that vanished while running
// gets a ContainerStatusUnknown last termination.
func statusWithoutInstance(st *corev1.ContainerStatus, pod *corev1.Pod, c *corev1.Container, old *corev1.ContainerStatus, defaultReason string, restartingAll bool, states *converter) {
	if old != nil && old.State.Terminated != nil {
		old.DeepCopyInto(st)
		if restartingAll {
			st.State = corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: restart.ReasonRestartingAllContainers, Message: msgRestartAllRemoved}}
			st.LastTerminationState.Terminated = &corev1.ContainerStateTerminated{Reason: restart.ReasonRestartingAllContainers, Message: msgRestartAllRemoved, ExitCode: 137}
			st.RestartCount = old.RestartCount + 1
		}
		return
	}
	w := states.newWaiting()
	w.Reason = defaultReason
	*st = corev1.ContainerStatus{Name: c.Name, Image: c.Image, State: corev1.ContainerState{Waiting: w}}
	if old == nil {
		return
	}
	st.RestartCount = old.RestartCount
	old.LastTerminationState.DeepCopyInto(&st.LastTerminationState)
	switch {
	case restartingAll && old.State.Waiting == nil:
		st.State = corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: restart.ReasonRestartingAllContainers, Message: msgRestartAllRemoved}}
		st.LastTerminationState.Terminated = &corev1.ContainerStateTerminated{Reason: restart.ReasonRestartingAllContainers, Message: msgRestartAllRemoved, ExitCode: 137}
		st.RestartCount = old.RestartCount + 1
	case old.State.Running != nil && st.LastTerminationState.Terminated == nil:
		st.LastTerminationState.Terminated = &corev1.ContainerStateTerminated{Reason: ReasonContainerStatusUnknown, Message: msgUnknownDeleted, ExitCode: 137}
		if pod.DeletionTimestamp == nil {
			st.RestartCount++
		}
	}
}

// convertInstance is convertContainerStatus, into st (zero). lastKnown says that the
// caller replaces the last termination state with that of an older instance (so the
// one kept from old is not copied).
func convertInstance(st *corev1.ContainerStatus, inst *restart.Instance, old *corev1.ContainerStatus, restarting, rac, lastKnown bool, states *converter) {
	st.Name = inst.Name
	st.RestartCount = inst.RestartCount
	st.Image = inst.Image
	st.ImageID = inst.ImageID
	st.ContainerID = inst.ID
	if old != nil {
		st.VolumeMounts = append([]corev1.VolumeMountStatus(nil), old.VolumeMounts...)
		if rac {
			if old.RestartCount > st.RestartCount {
				st.RestartCount = old.RestartCount
			}
			// (A copy in the converter's room: a ContainerStateTerminated holds no
			// pointer its DeepCopy would follow, so its DeepCopy is a copy.)
			var kept *corev1.ContainerStateTerminated
			if old.ContainerID != st.ContainerID && old.State.Terminated != nil {
				kept = old.State.Terminated
			} else if old.LastTerminationState.Terminated != nil {
				kept = old.LastTerminationState.Terminated
			}
			if kept != nil && !lastKnown {
				t := states.newTerminated()
				*t = *kept
				st.LastTerminationState.Terminated = t
			}
		}
	}
	st.State = instanceState(inst, old, restarting, rac, states)
	switch state := inst.State.Kubelet(); {
	case state == restart.StateRunning:
		if rac && old != nil && old.State.Terminated != nil && old.RestartCount >= inst.RestartCount {
			st.RestartCount = old.RestartCount + 1
		}
	case state != restart.StateCreated && state != restart.StateExited && old != nil && old.State.Running != nil:
		st.RestartCount = old.RestartCount + 1
	}
}

// instanceState is the state convertContainerStatus gives an instance.
func instanceState(inst *restart.Instance, old *corev1.ContainerStatus, restarting, rac bool, states *converter) corev1.ContainerState {
	switch state := inst.State.Kubelet(); {
	case state == restart.StateRunning:
		r := states.newRunning()
		r.StartedAt = metav1.NewTime(inst.StartedAt)
		return corev1.ContainerState{Running: r}
	case state == restart.StateExited:
		t := states.newTerminated()
		*t = corev1.ContainerStateTerminated{
			ExitCode:    inst.ExitCode,
			Reason:      inst.Reason,
			Message:     inst.Message,
			StartedAt:   metav1.NewTime(inst.StartedAt),
			FinishedAt:  metav1.NewTime(inst.FinishedAt),
			ContainerID: inst.ID,
		}
		return corev1.ContainerState{Terminated: t}
	case state != restart.StateCreated && old != nil && old.State.Running != nil:
		reason := ReasonContainerStatusUnknown
		if rac && restarting {
			reason = restart.ReasonRestartingAllContainers
		}
		t := states.newTerminated()
		*t = corev1.ContainerStateTerminated{Reason: reason, Message: msgUnknownTerminated, ExitCode: 137}
		return corev1.ContainerState{Terminated: t}
	}
	// Created, or unknown without a running status before.
	return corev1.ContainerState{Waiting: states.newWaiting()}
}

// statusResources is convertContainerStatusResources without runtime-reported
// resources: the allocated (spec) resources, keeping for a container still running
// under the same ID the CPU and memory values reported before. The lists share the
// spec's maps unless a kept value differs, which saves a copy of every list.
func statusResources(r *corev1.ResourceRequirements, c *corev1.Container, inst *restart.Instance, st *corev1.ContainerStatus, old *corev1.ContainerStatus) *corev1.ResourceRequirements {
	*r = corev1.ResourceRequirements{Limits: c.Resources.Limits, Requests: c.Resources.Requests, Claims: c.Resources.Claims}
	if inst.State.Kubelet() != restart.StateRunning {
		return r
	}
	if old == nil || old.State.Running == nil || st.ContainerID != old.ContainerID || old.Resources == nil {
		return r
	}
	if r.Limits != nil {
		r.Limits = keepReported(r.Limits, old.Resources.Limits)
	}
	if r.Requests != nil {
		r.Requests = keepReported(r.Requests, old.Resources.Requests)
	}
	return r
}

// keepReported returns spec with the CPU and memory values of reported, spec itself
// when that changes nothing.
func keepReported(spec, reported corev1.ResourceList) corev1.ResourceList {
	names := [2]corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory}
	same := true
	for _, n := range names {
		if q, ok := reported[n]; ok {
			if s, ok := spec[n]; !ok || !identicalQuantity(q, s) {
				same = false
			}
		}
	}
	if same {
		return spec
	}
	out := spec.DeepCopy()
	for _, n := range names {
		if q, ok := reported[n]; ok {
			out[n] = q.DeepCopy()
		}
	}
	return out
}

// identicalQuantity reports whether two quantities have the same value and the same
// rendering.
func identicalQuantity(a, b resource.Quantity) bool {
	return a.Cmp(b) == 0 && a.Format == b.Format && a.String() == b.String()
}

// updateProbeStatus is the prober manager's UpdatePodStatus: started and ready from
// the probe results of the instance a status shows. The kubelet is taken to have been
// running since before every container started.
func updateProbeStatus(pod *corev1.Pod, x *lookup, regular, init []corev1.ContainerStatus, chunks []stateChunk, opts Options) {
	keepStarted := !opts.Features.Resolve().ChangeContainerStatusOnKubeletRestart
	probes := func(st *corev1.ContainerStatus) *restart.Instance {
		if st.ContainerID == "" {
			return nil
		}
		for j := x.first(st.Name); j >= 0; j = x.next(j, st.Name) {
			if x.v.Instances[j].ID == st.ContainerID {
				return &x.v.Instances[j]
			}
		}
		return nil
	}
	started := func(st *corev1.ContainerStatus, c *corev1.Container, inst *restart.Instance) bool {
		if st.State.Running == nil {
			return false
		}
		if inst != nil && inst.Startup != restart.ProbeNone {
			return inst.Startup == restart.ProbeSuccess
		}
		if keepStarted && st.Started != nil && *st.Started {
			return true
		}
		return c == nil || c.StartupProbe == nil
	}
	ready := func(st *corev1.ContainerStatus, c *corev1.Container, inst *restart.Instance) bool {
		if st.State.Running == nil {
			return false
		}
		if inst != nil && inst.Readiness == restart.ProbeSuccess {
			return true
		}
		return c == nil || c.ReadinessProbe == nil
	}
	// Each status's started flag lives in its chunk: regular statuses take the first
	// chunks, init statuses the next.
	// Regular statuses are sorted by name; their specs are looked up by name, the
	// first match winning, in time linear in the pod.
	specs := byname.Containers(pod.Spec.Containers)
	for i := range regular {
		st := &regular[i]
		c := byname.FirstContainer(&specs, st.Name)
		inst := probes(st)
		b := &chunks[i].started
		*b = started(st, c, inst)
		st.Started = b
		if *b {
			st.Ready = ready(st, c, inst)
		}
	}
	inits := byname.Containers(pod.Spec.InitContainers)
	for i := range init {
		st := &init[i]
		// Init statuses are in spec order.
		var c *corev1.Container
		if i < len(pod.Spec.InitContainers) && pod.Spec.InitContainers[i].Name == st.Name {
			c = &pod.Spec.InitContainers[i]
		} else {
			c = byname.FirstContainer(&inits, st.Name)
		}
		inst := probes(st)
		b := &chunks[len(regular)+i].started
		*b = started(st, c, inst)
		st.Started = b
		if i >= len(pod.Spec.InitContainers) || pod.Spec.InitContainers[i].Name != st.Name {
			continue
		}
		if !restart.IsRestartableInitContainer(c) {
			if st.State.Terminated != nil && st.State.Terminated.ExitCode == 0 {
				st.Ready = true
			}
			continue
		}
		if *b {
			st.Ready = ready(st, c, inst)
		}
	}
}

// normalizeStatus is the status manager's normalizeStatus for the container statuses
// (storeStatus does the rest): timestamps to whole seconds, termination messages cut
// to their share of 12 KiB, statuses sorted.
func normalizeStatus(pod *corev1.Pod, s *corev1.PodStatus) {
	per := maxTerminationMessageBytes
	if n := len(pod.Spec.Containers) + len(pod.Spec.InitContainers) + len(pod.Spec.EphemeralContainers); n > 0 {
		per /= n
	}
	state := func(c *corev1.ContainerState) {
		if c.Running != nil {
			c.Running.StartedAt = rfc3339(c.Running.StartedAt)
		}
		if c.Terminated != nil {
			c.Terminated.StartedAt = rfc3339(c.Terminated.StartedAt)
			c.Terminated.FinishedAt = rfc3339(c.Terminated.FinishedAt)
			if len(c.Terminated.Message) > per {
				c.Terminated.Message = c.Terminated.Message[:per]
			}
		}
	}
	// The start time and the conditions' times were cut by storeStatus, its only
	// caller, as it set them.
	for _, list := range [...][]corev1.ContainerStatus{s.ContainerStatuses, s.InitContainerStatuses, s.EphemeralContainerStatuses} {
		for i := range list {
			state(&list[i].State)
			state(&list[i].LastTerminationState)
		}
	}
	sortByName(s.ContainerStatuses)
	sortByName(s.EphemeralContainerStatuses)
}

func byName(a, b corev1.ContainerStatus) int { return strings.Compare(a.Name, b.Name) }

// sortByName sorts statuses by name, stably, in one pass when they already are.
func sortByName(list []corev1.ContainerStatus) {
	for i := 1; i < len(list); i++ {
		if list[i].Name < list[i-1].Name {
			slices.SortStableFunc(list, byName)
			return
		}
	}
}

// rfc3339 is metav1.Time.Rfc3339Copy, with a fast path for UTC times from year 1
// (where truncating to the second is subtracting the nanoseconds).
func rfc3339(t metav1.Time) metav1.Time {
	if t.Time.IsZero() {
		return metav1.Time{} // inlined: no call for the many unset times
	}
	return rfc3339NonZero(t)
}

func rfc3339NonZero(t metav1.Time) metav1.Time {
	if t.Location() == time.UTC {
		if u := t.Unix(); u >= minFastRFC3339Unix && u <= maxRFC3339Unix {
			if ns := t.Nanosecond(); ns != 0 {
				t.Time = t.Add(-time.Duration(ns))
			}
			// UTC drops a monotonic reading, as Truncate does, and keeps the
			// location.
			return metav1.Time{Time: t.UTC()}
		}
	}
	return t.Rfc3339Copy()
}

// The instants of the fast path: years 0001 to 9999 (RFC 3339 renders from 0000).
var (
	minFastRFC3339Unix = time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	maxRFC3339Unix     = time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC).Unix()
)
