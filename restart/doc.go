// Package restart answers whether, why and when the kubelet of Kubernetes v1.37.2
// restarts a container: the pod's restartPolicy, the container's own restartPolicy and
// restartPolicyRules on exit codes (KEP-5307), the RestartAllContainers action
// (KEP-5532), sidecar and init-container rules, and the CrashLoopBackOff and image-pull
// back-offs (KEP-4603, KEP-5593) as pure state machines with time as a parameter.
//
// It mirrors, function by function:
//
//   - k8s.io/kubernetes pkg/api/v1/pod/util.go: [IsRestartableInitContainer],
//     [MatchingRule] (FindMatchingContainerRestartRule), [ContainerShouldRestart],
//     [IsContainerRestartable] and [AllContainersCouldRestart];
//   - k8s.io/kubernetes pkg/kubelet/container/helpers.go: [ShouldRestart]
//     (ShouldContainerBeRestarted), [ShouldAllContainersRestart] and
//     [AllContainersRestartCleanedUp] (the AllContainersRestarting condition built on
//     them is the lifecycle package's);
//   - k8s.io/kubernetes pkg/kubelet/container/runtime.go (PodStatus, Status,
//     ContainerState): the node's runtime model, [View] and [Instance], which the
//     lifecycle package reads too;
//   - k8s.io/kubernetes pkg/kubelet/kuberuntime/helpers.go and kuberuntime_container.go:
//     [IsInitContainerFailed], what the kubelet does about an init container's newest
//     instance ([InitContainerAction], from computeInitContainerActions), and
//     [BackOffKey] (GetBackoffKey);
//   - k8s.io/kubernetes pkg/kubelet/kuberuntime/kuberuntime_manager.go (doBackOff) and
//     pkg/kubelet/kubelet.go (newCrashLoopBackOff), on top of k8s.io/client-go
//     util/flowcontrol/backoff.go: [CrashLoopBackOffPolicy], [BackOffPolicy], [BackOff],
//     [BackOffPolicy.CheckStart], [CrashLoopMessage] and [CrashLoopEventMessage];
//   - k8s.io/kubernetes pkg/kubelet/images/image_manager.go: the image-pull back-off
//     ([ImagePullBackOffPolicy], [ImagePullBackOffKey], [ImagePullState], [ImagePullError]).
//
// # Runtime state
//
// [ShouldRestart] reads a container's state from pod.Status as the project's contract
// says: no status, a waiting state without a last termination, or no state at all is
// "no instance"; State.Running is running; State.Terminated is exited with its code;
// otherwise LastTerminationState.Terminated is exited with that code
// ([InstanceFromStatus]). Callers that hold the runtime's view (created and unknown
// instances, several sandboxes) use [ShouldRestartInstance] and pass a [View] to the
// restart-all functions. A [View] is the module's one model of the node's runtime:
// sandboxes, container instances newest first, probe results, the crash-loop back-off
// and the reasons of failed starts, as the kubelet holds them.
//
// Feature gates are read per call from [Options.Features]; the zero [Options] is a
// default v1.37.2 kubelet, where ContainerRestartRules, RestartAllContainersOnContainerExits
// and KubeletCrashLoopBackOffMax are on and ReduceDefaultCrashLoopBackOffDecay is off.
//
// # Cost
//
// Every function costs time linear in the size of its input. The functions that
// look at every container look each one's status or runtime instance up in lists
// that are indexed by name, once per call, when they are longer than 16 entries;
// shorter lists are scanned, so that ordinary pods cost no allocation.
// [ShouldRestart] never allocates.
//
// Every function is pure: nothing reads a clock (times are parameters), nothing is
// logged, inputs are never modified and nil inputs never panic.
package restart
