// Package apply provides the strategic merge patches of kubectl apply and of the API
// server for validation.StreamOptions.Apply: Patcher computes the three-way patch as
// kubectl v1.37.2 computes it from a kind's Go type (k8s.io/kubectl pkg/cmd/apply
// Patcher.buildStrategicMergeFromBuiltins, with --overwrite) and applies a patch to
// a stored object's fields as kube-apiserver v1.37.2 does (k8s.io/apiserver
// pkg/endpoints/handlers/patch.go applyPatchToObject), both with
// k8s.io/apimachinery's strategicpatch package. It lives apart from package
// validation because strategicpatch brings k8s.io/kube-openapi and its dependencies
// into a program's build.
package apply
