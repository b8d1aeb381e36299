// Package lifecycle compares podlife's lifecycle package (part 1: phase, conditions, the
// kubectl columns, termination grace, active deadline) with upstream v1.37.2 on seeded
// random pods: k8s.io/kubernetes pkg/kubelet/status (GeneratePodInitializedCondition,
// GenerateContainersReadyCondition, GeneratePodReadyCondition), the API server's pod table
// printer (pkg/printers/internalversion, wide output, on the pod converted to the internal
// type through pkg/api/legacyscheme) and kuberuntime's setTerminationGracePeriod; and
// benchmarks them side by side.
package lifecycle
