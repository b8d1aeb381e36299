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
// Update runs the server's real update path (upstreamcreate.Update): the PUT
// handler of k8s.io/apiserver, the pod registry's REST storage with its generic store
// over an in-memory storage, rest.BeforeUpdate; refusals (400, 409, 500) are compared
// with podlife's validation.RefusalOf. Templates run ValidatePodTemplateSpec
// (pkg/apis/core/validation/validation.go).
//
// Errors are compared as (type, field, detail, bad value), as Error() text and in
// order, except those upstream places by ranging over a map, which are compared as a
// multiset. Each test asserts its coverage: the inputs, the share upstream rejects,
// every field of the pod's types set by some input (coverage_test.go), a number of
// distinct rule families and the families listed in testdata/*_families.txt.
// PODLIFE_SEED changes the inputs; PODLIFE_N may only raise their number; malformed
// values fail the test.
//
// FuzzCreateMatchesUpstream and FuzzUpdateMatchesUpstream make the same comparisons
// on pods no generator wrote: the fuzzer mutates the JSON of the main module's
// example pods (conformance/internal/fuzzseed) and, for updates, a JSON merge patch
// of the stored pod.
//
// Everything here is tests and benchmarks; this file only names the package.
package validation
