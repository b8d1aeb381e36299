// Package validationrules replays the hand-written ValidatePodCreate cases of
// podlife/validation (its testdata/create_cases.json) against the upstream
// Kubernetes v1.37.2 create path: v1 defaulting, conversion to the internal API, the
// pod strategy's PrepareForCreate and Validate (k8s.io/kubernetes
// pkg/registry/core/pod/strategy.go). Every expected error of the podlife tables must
// be upstream's, and podlife's bad values must match upstream's.
//
// Everything here is tests and benchmarks; this file only names the package.
package validationrules
