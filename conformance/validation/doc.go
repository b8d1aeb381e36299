// Package validation compares podlife/validation with the pod validation of an
// upstream Kubernetes v1.37.2 API server, on seeded random pods with faults injected
// in every field the package covers.
//
// Create runs the server's create path in its order: v1 defaulting and conversion
// to the internal API, the handler's namespace handling (k8s.io/apiserver
// pkg/endpoints/handlers/create.go), the store's system metadata and name
// generation (pkg/registry/generic/registry/store.go), then rest.BeforeCreate
// (pkg/registry/rest/create.go: the pod strategy's PrepareForCreate, Validate, the
// generic ObjectMeta check and declarative validation). The generated pods include
// generateName-only pods, pods without a namespace, invalid and over-long
// generateName bases and request namespaces that conflict with the pod's. Upstream's
// random name suffix is replaced by podlife's documented one in the bad value of
// metadata.name errors, after checking its form.
//
// Update runs the strategy's PrepareForUpdate and ValidateUpdate after the metadata
// rest.BeforeUpdate carries over (k8s.io/kubernetes pkg/registry/core/pod/strategy.go);
// templates run ValidatePodTemplateSpec (pkg/apis/core/validation/validation.go).
//
// Everything here is tests and benchmarks; this file only names the package.
package validation
