// Package resources compares podlife's resources package with upstream v1.37.2:
// k8s.io/component-helpers resource (PodRequests, PodLimits, the aggregates and the
// pod-level predicates) and k8s.io/kubernetes pkg/apis/core/v1/helper/qos
// (ComputePodQOS), on seeded random pods, and benchmarks both side by side.
package resources
