// Package validationrules replays the hand-written ValidatePodCreate cases of
// podlife/validation (its testdata/create_cases.json, request namespace included)
// against the upstream Kubernetes v1.37.2 create path: v1 defaulting, conversion to
// the internal API, the handler's namespace handling, the store's name generation
// and rest.BeforeCreate (the pod strategy's PrepareForCreate and Validate, then the
// generic ObjectMeta check and declarative validation; k8s.io/apiserver
// pkg/registry/rest/create.go). Every expected error of the podlife tables must be
// upstream's, and podlife's bad values must match upstream's (a generated name's
// random suffix aside, which is checked and replaced by podlife's).
//
// Everything here is tests and benchmarks; this file only names the package.
package validationrules
