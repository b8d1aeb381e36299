// Package lifecycle compares podlife's lifecycle package (part 1: phase, conditions, the
// kubectl columns, termination order and grace, active deadline) with upstream v1.37.2 on
// seeded random pods, and benchmarks them side by side:
//
//   - k8s.io/kubernetes pkg/kubelet/kubelet_pods.go getPhase (reached with go:linkname);
//   - pkg/kubelet/status GeneratePodInitializedCondition, GenerateContainersReadyCondition
//     and GeneratePodReadyCondition;
//   - the API server's pod table printer (pkg/printers/internalversion, wide output) on the
//     pod converted to the internal type through pkg/api/legacyscheme;
//   - pkg/kubelet/kuberuntime setTerminationGracePeriod and newTerminationOrdering, and
//     pkg/kubelet's active-deadline handler (go:linkname).
//
// Every test runs under the standard gate sets (gatesets.Standard) and the package's two
// own (restart-all off; container restart rules and restart-all off), 10,000 pods per set
// (PODLIFE_N overrides it, at least 2,000; PODLIFE_SEED the seed). The printer, the grace
// period, the termination order and the deadline handler read no gate; they run under
// every set all the same. Each test asserts its coverage: every phase getPhase returns in
// at least 2% of the answers, every status and reason of the three conditions, the
// STATUS column's shapes (Init:N/M, Init:<reason>, PodInitializing, Running, Completed,
// Error, NotReady, Terminating, CrashLoopBackOff, Pending, Failed, Unknown, other
// reasons), every source of a grace period (deletion, spec, probe, the 2s minimum),
// containers that wait and do not wait in the termination order, and evicted and kept
// instants around the deadline.
//
// The linknamed functions are unexported upstream; their declarations here must follow
// upstream's signatures, and an empty assembly file lets the bodyless declarations compile.
//
// FuzzLifecycleMatchesKubelet makes the phase, condition, printer and grace-period
// comparisons on pods no generator wrote: the fuzzer mutates the JSON of the main
// module's example pods (conformance/internal/fuzzseed).
package lifecycle
