// Package resources computes a pod's effective requests and limits, its QoS class, and
// a readable breakdown of both, exactly as Kubernetes v1.37.2 does.
//
// It mirrors:
//
//   - k8s.io/component-helpers resource/helpers.go (v0.37.2): [PodRequests],
//     [PodLimits], [AggregateContainerRequests], [AggregateContainerLimits],
//     [PodResourcesOptions] and the predicates ([IsPodLevelResourcesSet],
//     [IsPodLevelRequestsSet], [IsPodLevelLimitsSet], [IsSupportedPodLevelResource],
//     [SupportedPodLevelResources], [IsPodResizeInfeasible], [IsPodResizeDeferred],
//     [GetContainerDRAAllocations]). Names, fields and meanings are the same, so a
//     caller switches by changing the import path. Results are equal to upstream's
//     key by key, in value and in printed form (Quantity.String).
//   - k8s.io/kubernetes pkg/apis/core/v1/helper/qos/qos.go: [ComputePodQOS] and
//     [GetPodQOS]. The feature gates upstream reads from global state
//     (PodLevelResources, PodLevelResourcesFixKubeletQOSClass) are fields of
//     [QOSOptions] instead, for [ComputePodQOSWithOptions].
//
// [Explain] goes further: for every resource it lists the competing terms (the sum of
// the regular containers and sidecars, each init container with the sidecars running
// beside it, the status aggregates of an in-place resize, the pod-level value,
// node-allocatable claims, the overhead), says which one won, and renders them as a
// table.
//
// Differences from upstream: a nil pod is treated as an empty pod where upstream
// panics; no input is ever modified (upstream can write through a shared inf.Dec when
// a pod-level quantity is stored as a big decimal and overhead is added to it); and
// container statuses are looked up through an index on large pods, so the cost stays
// linear in the number of containers.
//
// The package depends on no other package of this module, so the root package can use
// it during defaulting.
package resources
