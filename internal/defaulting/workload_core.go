package defaulting

import (
	"maps"

	corev1 "k8s.io/api/core/v1"

	"github.com/podlife/podlife/internal/apidiff"
	"github.com/podlife/podlife/internal/gates"
)

// CopyPodTemplate returns a deep copy of pt (see workload.go).
func CopyPodTemplate(pt *corev1.PodTemplate, readOnly bool) *corev1.PodTemplate {
	out := &corev1.PodTemplate{TypeMeta: pt.TypeMeta}
	copyObjectMeta(&pt.ObjectMeta, &out.ObjectMeta)
	copyTemplate(&pt.Template, &out.Template, readOnly)
	return out
}

// DefaultPodTemplate mirrors SetObjectDefaults_PodTemplate.
func DefaultPodTemplate(pt *corev1.PodTemplate, g *gates.Set) {
	defaultTemplateSpec(&pt.Template, g)
}

// PreparePodTemplateForCreate mirrors podTemplateStrategy.PrepareForCreate.
func PreparePodTemplateForCreate(pt *corev1.PodTemplate, g *gates.Set) {
	pt.Generation = 1
	dropTemplateFields(&pt.Template, nil, g)
}

// PreparePodTemplateForUpdate mirrors podTemplateStrategy.PrepareForUpdate: the
// generation moves on when the template changes.
func PreparePodTemplateForUpdate(pt, old *corev1.PodTemplate, g *gates.Set) {
	dropTemplateFields(&pt.Template, &old.Template, g)
	if !apidiff.Equal(pt.Template, old.Template) {
		pt.Generation = old.Generation + 1
	}
}

// CopyReplicationController returns a deep copy of rc without its status (see
// workload.go).
func CopyReplicationController(rc *corev1.ReplicationController, readOnly bool) *corev1.ReplicationController {
	out := &corev1.ReplicationController{TypeMeta: rc.TypeMeta}
	rc.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	s, o := &rc.Spec, &out.Spec
	o.Replicas = clonePtr(s.Replicas)
	o.MinReadySeconds = s.MinReadySeconds
	o.Selector = maps.Clone(s.Selector)
	if s.Template != nil {
		o.Template = &corev1.PodTemplateSpec{}
		copyTemplate(s.Template, o.Template, readOnly)
	}
	return out
}

// DefaultReplicationController mirrors SetObjectDefaults_ReplicationController: an
// empty selector and empty labels take the template's labels (the same map, as
// upstream), replicas default to 1, and the template gets its defaults.
func DefaultReplicationController(rc *corev1.ReplicationController, g *gates.Set) {
	if t := rc.Spec.Template; t != nil && t.Labels != nil {
		if len(rc.Spec.Selector) == 0 {
			rc.Spec.Selector = t.Labels
		}
		if len(rc.Labels) == 0 {
			rc.Labels = t.Labels
		}
	}
	if rc.Spec.Replicas == nil {
		rc.Spec.Replicas = int32Ptr(1)
	}
	if rc.Spec.Template != nil {
		defaultTemplateSpec(rc.Spec.Template, g)
	}
}

// PrepareReplicationControllerForCreate mirrors rcStrategy.PrepareForCreate.
func PrepareReplicationControllerForCreate(rc *corev1.ReplicationController, g *gates.Set) {
	rc.Status = corev1.ReplicationControllerStatus{}
	rc.Generation = 1
	dropTemplateFields(rc.Spec.Template, nil, g)
}

// PrepareReplicationControllerForUpdate mirrors rcStrategy.PrepareForUpdate.
func PrepareReplicationControllerForUpdate(rc, old *corev1.ReplicationController, g *gates.Set) {
	rc.Status = *old.Status.DeepCopy()
	dropTemplateFields(rc.Spec.Template, old.Spec.Template, g)
	if !apidiff.Equal(old.Spec, rc.Spec) {
		rc.Generation = old.Generation + 1
	}
}
