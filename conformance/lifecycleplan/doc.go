// Package lifecycleplan checks podlife's lifecycle planner, runtime conditions and next
// container statuses against the real upstream code of Kubernetes v1.37.2, under the
// standard gate sets (gatesets.Standard) and RestartAllContainersOnContainerExits off:
//
//   - kuberuntime's computePodActions (pkg/kubelet/kuberuntime/kuberuntime_manager.go),
//     unexported, reached through go:linkname on kuberuntime's own fake manager, against
//     lifecycle.ComputePodActions: every field, SandboxChange included (compared with
//     PodSandboxChanged's message on the same runtime status);
//   - status.GeneratePodReadyToStartContainersCondition and
//     status.GenerateAllContainersRestartingCondition (pkg/kubelet/status/generate.go);
//   - the kubelet's convertToAPIContainerStatuses (pkg/kubelet/kubelet_pods.go), reached
//     through go:linkname on a bare Kubelet whose reason cache is set by reflection,
//     followed by the prober manager's UpdatePodStatus, against the container statuses
//     of lifecycle.NextStatus, whole: started, ready, resources and allocatedResources
//     included;
//   - kubecontainer.ShouldContainerBeRestarted (pkg/kubelet/container/helpers.go)
//     against restart.ShouldRestartInstance fed by the view.
//
// The kubelet's runtime status (kubecontainer.PodStatus) is never built by hand: the
// generated restart.View is loaded into cri-api's fake runtime service and kuberuntime's
// GetPods and GetPodStatus derive it (package internal/upstreamkubelet), so the order of
// sandboxes and instances, the active-container rule, hashes and restart counts are
// upstream's. Probe results go into the kubelet's own result caches.
//
// Inputs are generated from a seeded random source (PODLIFE_SEED overrides the seed,
// PODLIFE_N the number of inputs per gate set, at least 1500); a disagreement prints the
// seed and the input. Each test asserts its coverage: every outcome of computePodActions
// (sandbox creation with each of PodSandboxChanged's five reasons, pod kill, container
// kills for each reason, restart-all resets, init, regular and ephemeral starts, and no
// action), both statuses of each condition, restarts and keeps of
// ShouldContainerBeRestarted, and the container-status shapes (started and ready both
// ways, status and allocated resources, last terminations, each waiting reason).
package lifecycleplan
