// Package footprint measures what a program pays to get pod answers offline: three
// small programs compute the same things for the same pod and are built from an
// empty build cache, and footprint_test.go reports, for each, the modules in its build
// graph, the cold build time and the binary size (PODLIFE_FOOTPRINT=1 runs it; the
// cold builds take minutes).
//
//   - podlife/ uses this module: resources.PodRequests and ComputePodQOS,
//     validation.ValidatePodCreate and lifecycle.Phase;
//   - kubernetes/ uses k8s.io/kubernetes v1.37.2 as a user must: component-helpers
//     for the requests, its QoS helper, the API server's defaulting, conversion and pod
//     validation,
//     and the kubelet's getPhase (unexported, reached with go:linkname);
//   - helpers/ uses k8s.io/component-helpers alone, which answers requests and limits
//     but neither the QoS class, nor validation, nor phase.
package footprint
