// Package scenarios replays the built-in scenarios of examples/lifecycle (its
// scenarios/*.yaml files: a pod or workload and a script) against the upstream code of
// Kubernetes v1.37.2. Each scenario is simulated with lifecycle.Simulate, recording the
// runtime view of every sync, and every sync is checked against:
//
//   - kuberuntime's computePodActions (pkg/kubelet/kuberuntime/kuberuntime_manager.go,
//     unexported, reached with go:linkname on the package's fake manager) against
//     lifecycle.ComputePodActions on the step's pod and view, and the step's own actions
//     (Plan) against it: what Plan starts plus what the back-off holds is what
//     computePodActions starts;
//   - the kubelet's getPhase (pkg/kubelet/kubelet_pods.go, go:linkname) on the step's
//     container statuses against lifecycle.Phase and the step's phase;
//   - status.GeneratePodInitializedCondition, GenerateContainersReadyCondition and
//     GeneratePodReadyCondition (pkg/kubelet/status/generate.go) against the step's
//     conditions;
//   - the API server's table printer (pkg/printers/internalversion, wide) against the
//     step's row, on the pod shifted in time so that the step is now;
//   - and, for the whole timeline, client-go's EventCorrelator (tools/record, with a
//     fake clock) against lifecycle.RecordEvents.
//
// describe_test.go compares lifecycle.DescribeEvents and FormatEventTable with
// kubectl's own DescribeEvents (k8s.io/kubectl pkg/describe) on generated event
// records.
//
// The linknamed declarations follow upstream's signatures; an empty assembly file lets
// them compile without bodies.
package scenarios
