// Package lifecycleplan checks podlife's lifecycle planner and runtime conditions
// against the real upstream code of Kubernetes v1.37.2:
//
//   - kuberuntime's computePodActions (k8s.io/kubernetes
//     pkg/kubelet/kuberuntime/kuberuntime_manager.go), unexported, reached through
//     go:linkname together with the package's own fake-manager constructor
//     (fake_kuberuntime_manager.go), against lifecycle.ComputePodActions;
//   - status.GeneratePodReadyToStartContainersCondition and
//     status.GenerateAllContainersRestartingCondition (pkg/kubelet/status/generate.go);
//   - the kubelet's convertToAPIContainerStatuses (pkg/kubelet/kubelet_pods.go), reached
//     through go:linkname on a bare Kubelet whose reason cache is set by reflection,
//     against the container statuses of lifecycle.NextStatus;
//   - kubecontainer.ShouldContainerBeRestarted (pkg/kubelet/container/helpers.go)
//     against restart.ShouldRestartInstance fed by the view.
//
// Inputs are generated from a seeded random source (PODLIFE_SEED overrides the default
// seed); a disagreement prints the seed and the input.
package lifecycleplan
