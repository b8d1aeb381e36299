// Package upstreamkubelet runs the kubelet's own v1.37.2 code on a podlife runtime view
// (restart.View), so that differential tests compare podlife with what the kubelet
// derives rather than with a hand-built copy of it.
//
// The runtime status (kubecontainer.PodStatus) is derived by kuberuntime itself: the
// view's sandboxes and container instances are loaded into cri-api's fake runtime
// service (k8s.io/cri-api/pkg/apis/testing) as a CRI runtime would report them —
// sandboxes with their metadata (pod UID, attempt), state, network and namespace mode;
// containers with the labels and annotations the kubelet writes when it creates them
// (kuberuntime's newContainerLabels and newContainerAnnotations: pod UID, container name,
// container hash, restart count), their sandbox, state, exit code, reason, message,
// image and timestamps — and kuberuntime's fake manager (fake_kuberuntime_manager.go)
// answers GetPods and GetPodStatus on it. So the kubelet's own code decides the order of
// sandboxes (attempt, then creation time, newest first) and instances (creation time,
// newest first), which instances are active (those of the newest sandbox when it is
// ready), the container hashes, restart counts and state conversion. This is the
// cheapest faithful path: the fake runtime service is upstream's test double of a CRI
// runtime, and nothing of the kubelet is rebuilt here but the load step, which writes a
// view's fields into CRI fields one to one.
//
// A view maps onto a runtime as follows: sandbox i (newest first) is created i seconds
// before sandbox 0, instance i i seconds before instance 0; an instance with no sandbox
// belongs to the newest one, or to a removed sandbox when there is none; SpecChanged
// stores the hash of the container with another image; the instance ID's type must be
// the fake runtime's name ("fakeRuntime://c1"), as the kubelet prefixes IDs with its
// runtime's name. Load refuses (fails the test) views no runtime can report: an ID of
// another runtime, two instances with one ID, or sandboxes out of the runtime's order.
//
// The prober's started and ready flags come from the prober manager's UpdatePodStatus
// (pkg/kubelet/prober) with its real AddPod, result caches holding the view's probe
// results, and a status provider that knows no pod, so that the probe workers AddPod
// starts never probe; the manager's start time is set before every container start, as
// for a kubelet that has not restarted during the pod's life (podlife does not model the
// readiness kept across a kubelet restart).
//
// The unexported upstream functions are reached with go:linkname; their declarations
// here must follow upstream's signatures, and layouts mirrored here are checked against
// known values when a Runtime is made.
package upstreamkubelet
