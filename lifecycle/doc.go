// Package lifecycle answers what the kubelet and the API server say about a pod over its
// life, as Kubernetes v1.37.2 does: its phase, its conditions, the `kubectl get pods -o
// wide` row, the order and grace with which its containers are stopped, its active
// deadline, the kubelet's next action and next status, and a simulation of the whole
// lifecycle in virtual time.
//
// It mirrors:
//
//   - k8s.io/kubernetes pkg/kubelet/kubelet_pods.go: [Phase] (getPhase) and [ResolvePhase]
//     (the phase post-processing of generateAPIPodStatus: a terminal phase is kept, the
//     phase reason and message are preserved, a pod past its deadline is failed);
//   - k8s.io/kubernetes pkg/kubelet/status/generate.go: [InitializedCondition]
//     (GeneratePodInitializedCondition), [ContainersReadyCondition]
//     (GenerateContainersReadyCondition) and [ReadyCondition] (GeneratePodReadyCondition);
//   - k8s.io/kubernetes pkg/printers/internalversion/printers.go (printPod,
//     translateTimestampSince) and k8s.io/apimachinery pkg/util/duration/duration.go
//     (HumanDuration): [PodColumns], [RowConditions] and [HumanDuration];
//   - k8s.io/kubernetes pkg/kubelet/kuberuntime/kuberuntime_termination_order.go and
//     kuberuntime_container.go (killContainer, setTerminationGracePeriod):
//     [TerminationOrder], [TerminationSchedule], [GracePeriod] and [StopTimeout]; and
//     pkg/kubelet/pod_workers.go (calculateEffectiveGracePeriod): [PodGracePeriod];
//   - k8s.io/kubernetes pkg/kubelet/active_deadline.go: [PastActiveDeadline],
//     [ActiveDeadline] and [DeadlineEviction];
//   - k8s.io/kubernetes pkg/kubelet/kuberuntime/kuberuntime_manager.go (computePodActions,
//     computeInitContainerActions, doBackOff): [Plan] and [ComputePodActions], over a
//     [restart.View] of the node's runtime ([ViewFromStatus] derives one from pod.Status);
//   - k8s.io/kubernetes pkg/kubelet/kubelet_pods.go (generateAPIPodStatus,
//     convertToAPIContainerStatuses) and pkg/kubelet/status/generate.go: [NextStatus],
//     [PodReadyToStartContainersCondition] and [AllContainersRestartingCondition];
//   - [Simulate], which runs a pod through virtual time under a [Script] of container
//     behaviours and records the kubelet's events with upstream's texts
//     (pkg/kubelet/events/event.go and the places the kubelet records them);
//   - k8s.io/client-go tools/record (EventCorrelator) and k8s.io/kubectl pkg/describe
//     (DescribeEvents): [RecordEvents], [DescribeEvents] and [FormatEventTable], the
//     Events table of `kubectl describe pod`;
//   - and [Explain], which says why a live pod (as `kubectl get pod -o yaml` prints it) is
//     in its phase, what blocks it, what the kubelet does next and when a backed-off
//     container starts again, from the functions above.
//
// The condition functions read what the kubelet reads: the init and regular container
// statuses and, as the previous status, the conditions in pod.Status. They return what the
// kubelet's generators return, with observedGeneration set and no lastProbeTime or
// lastTransitionTime: the kubelet's status manager stamps the transition time when it
// stores a status (keeping the previous one when the condition's status is unchanged).
//
// [Options] are the restart package's options (restart.Options: feature gates and the
// kubelet's crash-loop setting), so a lifecycle answer and the restart decisions inside
// it always see the same cluster; the zero [Options] is a default v1.37.2 cluster. The
// node's runtime is the restart package's model, restart.View, for every function here. Every function is pure: time is a parameter, nothing is logged, inputs
// are never modified and nil inputs never panic.
package lifecycle
