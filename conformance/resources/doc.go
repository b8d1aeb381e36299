// Package resources compares podlife's resources package with upstream v1.37.2:
// k8s.io/component-helpers resource (PodRequests, PodLimits, the aggregates and the
// pod-level predicates) and k8s.io/kubernetes pkg/apis/core/v1/helper/qos
// (ComputePodQOS, GetPodQOS), on seeded random pods, and benchmarks both side by side.
//
// The list functions and predicates take options, not gates: they run under the standard
// gate sets all the same, 6,000 pods under the defaults and a tenth under the others
// (PODLIFE_N overrides the 6,000, at least 1,500). QoS runs under the standard sets and
// PodLevelResources / PodLevelResourcesFixKubeletQOSClass off, 6,000 pods each. Each test
// asserts its coverage: every call made, every kind of Explain term winning, each
// predicate both ways, each QoS class in at least 2% of the pods.
//
// The speed corpora (speedShapes: tiny pods, several containers, init containers and
// sidecars, pod-level resources, in-place resize status, many resource names,
// overhead, no resources, NonMissingContainerRequests, a mixed corpus) are compared
// on every run (TestResourcesSpeedShapesAgree); PODLIFE_SPEED=1 times PodRequests plus
// PodLimits on them against component-helpers (TestResourcesSpeedRatio, see its
// comment for the method).
//
// FuzzResourcesMatchUpstream makes the list, Explain and QoS comparisons on pods no
// generator wrote: the fuzzer mutates the JSON of the main module's example pods
// (conformance/internal/fuzzseed).
package resources
