package defaulting

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/podlife/podlife/internal/gates"
)

// The workload functions (workload_apps.go, workload_batch.go, workload_core.go) work
// in place on a private copy, in the order the API server runs the steps, so that
// callers can put their own steps in between (the create path assigns the name, the
// namespace and the uid after the decoder's defaults and before PrepareForCreate):
//
//   - CopyK returns a deep copy of a K, its status left out (PrepareForCreate resets
//     it, PrepareForUpdate replaces it); the pod template is copied as copyPodSpec
//     copies pods, and with readOnly the caller promises to change nothing the
//     defaulting does not change, as Options.ReadOnly does for pods;
//   - DefaultK applies the v1 defaults the decoder applies (the generated
//     SetObjectDefaults_K of k8s.io/kubernetes pkg/apis/{apps,batch,core}/v1 with the
//     kind's SetDefaults_K and the PodSpec defaults of its template);
//   - PrepareKForCreate and PrepareKForUpdate are the kind's registry strategy
//     (k8s.io/kubernetes pkg/registry/{apps,batch,core}/K/strategy.go).

// copyTemplate deep-copies a pod template into out. The copy's quantities must be
// rounded by defaultTemplateSpec before anyone reads them (see copyPodSpec).
func copyTemplate(in, out *corev1.PodTemplateSpec, readOnly bool) {
	copyObjectMeta(&in.ObjectMeta, &out.ObjectMeta)
	copyPodSpec(&in.Spec, &out.Spec, true, readOnly)
}

// defaultTemplateSpec applies the defaults every embedded pod template gets from the
// generated defaulters (SetDefaults_PodSpec, the volume and container defaults).
func defaultTemplateSpec(t *corev1.PodTemplateSpec, g *gates.Set) {
	defaultPodSpec(&t.Spec, g)
}

// dropTemplateFields mirrors pod.DropDisabledTemplateFields (k8s.io/kubernetes
// pkg/api/pod/util.go), which every workload's PrepareForCreate (old nil) and
// PrepareForUpdate run on the template.
func dropTemplateFields(t, old *corev1.PodTemplateSpec, g *gates.Set) {
	if t == nil {
		return
	}
	var oldSpec *corev1.PodSpec
	if old != nil {
		oldSpec = &old.Spec
	}
	dropDisabledSpecFields(&t.Spec, oldSpec, g)
	dropInitContainerAnnotations(t.Annotations)
}

// DefaultTemplateInPlace applies to t the defaults of a template inside a workload
// (SetObjectDefaults_PodTemplate), without dropping anything.
func DefaultTemplateInPlace(t *corev1.PodTemplateSpec, g *gates.Set) {
	if t != nil {
		defaultTemplateSpec(t, g)
	}
}

// DropTemplateFields is pod.DropDisabledTemplateFields on t, old being the stored
// template on update and nil on create.
func DropTemplateFields(t, old *corev1.PodTemplateSpec, g *gates.Set) {
	dropTemplateFields(t, old, g)
}

// clonePtr returns a new pointer to a copy of *p, or nil.
func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}
