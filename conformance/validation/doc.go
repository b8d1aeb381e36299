// Package validation compares podlife/validation with the pod validation of an
// upstream Kubernetes v1.37.2 API server: the v1 defaulting, the conversion to the
// internal API, the pod registry strategy (k8s.io/kubernetes pkg/registry/core/pod
// strategy.go: PrepareForCreate, Validate, PrepareForUpdate, ValidateUpdate) and
// ValidatePodTemplateSpec (k8s.io/kubernetes pkg/apis/core/validation/validation.go),
// on seeded random pods with faults injected in every field the package covers.
//
// Everything here is tests and benchmarks; this file only names the package.
package validation
