// Package defaulting is the engine behind podlife.Default and its family: what a
// Kubernetes v1.37.2 API server makes of a pod or pod template before it validates and
// stores it.
//
// It mirrors, on the v1 types:
//   - the generated defaulters (k8s.io/kubernetes pkg/apis/core/v1/zz_generated.defaults.go
//     SetObjectDefaults_Pod and SetObjectDefaults_PodTemplate, with
//     pkg/apis/core/v1/defaults.go), image pull policies by the reference grammar of
//     github.com/distribution/reference as pkg/util/parsers reads it;
//   - the pod registry's PrepareForCreate and PrepareForUpdate
//     (pkg/registry/core/pod/strategy.go) with DropDisabledPodFields,
//     DropDisabledTemplateFields and the pod-level resources defaulting of
//     pkg/api/pod/util.go;
//   - the controller's pod from a template (pkg/controller/controller_utils.go
//     GetPodFromTemplate).
//
// The copy it works on is made by hand (copy.go) from slabs, so a create allocates a
// fraction of what DeepCopy does; Options.ReadOnly lets read-only callers inside the
// module (validation) copy on write instead (share.go): the result shares with the
// input every object of the spec the defaulting leaves alone. It is
// internal so that such speed-only switches stay out of the public API.
package defaulting
