// Package lifecycle compares podlife's lifecycle package (part 1: phase, conditions, the
// kubectl columns, termination order and grace, active deadline) with upstream v1.37.2 on
// seeded random pods (PODLIFE_SEED overrides the seed), and benchmarks them side by side:
//
//   - k8s.io/kubernetes pkg/kubelet/kubelet_pods.go getPhase (reached with go:linkname);
//   - pkg/kubelet/status GeneratePodInitializedCondition, GenerateContainersReadyCondition
//     and GeneratePodReadyCondition;
//   - the API server's pod table printer (pkg/printers/internalversion, wide output) on the
//     pod converted to the internal type through pkg/api/legacyscheme;
//   - pkg/kubelet/kuberuntime setTerminationGracePeriod and newTerminationOrdering, and
//     pkg/kubelet's active-deadline handler (go:linkname).
//
// The linknamed functions are unexported upstream; their declarations here must follow
// upstream's signatures, and an empty assembly file lets the bodyless declarations compile.
package lifecycle
