// Package conformance holds differential tests and side-by-side benchmarks that compare
// podlife with upstream Kubernetes v1.37.2 (k8s.io/kubernetes and its staging modules).
//
// It is a separate module so that the main module never depends on upstream code.
package conformance
