package defaulting

import (
	"time"

	corev1 "k8s.io/api/core/v1"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Template returns a deep copy of a pod template as a v1.37.2 API server stores it
// inside a workload: the PodSpec defaults (SetObjectDefaults_PodTemplate, without the
// Pod-only ones), then DropDisabledTemplateFields. A nil template gives nil.
// Options.Now and ReadOnly are not used.
func Template(template *corev1.PodTemplateSpec, opts Options) *corev1.PodTemplateSpec {
	if template == nil {
		return nil
	}
	out := &corev1.PodTemplateSpec{}
	copyObjectMeta(&template.ObjectMeta, &out.ObjectMeta)
	copyPodSpec(&template.Spec, &out.Spec, true, false)
	g := opts.Features.Resolve()
	defaultPodSpec(&out.Spec, &g)
	dropDisabledSpecFields(&out.Spec, nil, &g)
	dropInitContainerAnnotations(out.Annotations)
	return out
}

// PodFromTemplateOptions describes the controller creating a pod from a template.
type PodFromTemplateOptions struct {
	// Options are the API server's feature gates and clock.
	Options
	// ControllerName is the name of the owning workload; the pod's generateName is
	// "<ControllerName>-", or ControllerName itself when that is not a valid name prefix.
	ControllerName string
	// ControllerRef, when set, becomes the pod's only owner reference.
	ControllerRef *metav1.OwnerReference
	// Namespace is the namespace the pod is created in.
	Namespace string
}

// PodFromTemplate returns the pod a default v1.37.2 API server stores when a workload
// controller creates a pod from template: the controller copies the template's labels,
// annotations, finalizers and spec (GetPodFromTemplate in k8s.io/kubernetes
// pkg/controller/controller_utils.go), sets generateName and the controller reference,
// and the server applies [Pod]. Empty label, annotation and finalizer
// lists are left nil, as they arrive over the wire. A nil template gives nil.
//
// The pod's name, uid and creation timestamp are assigned by the server outside the
// steps mirrored here and stay empty.
func PodFromTemplate(template *corev1.PodTemplateSpec, opts PodFromTemplateOptions) *corev1.Pod {
	return podFromTemplate(template, opts, nil)
}

// podFromTemplate is PodFromTemplate with the controller's own changes (mutate, when
// not nil) made to the pod before the server defaults it.
func podFromTemplate(template *corev1.PodTemplateSpec, opts PodFromTemplateOptions, mutate func(*corev1.Pod)) *corev1.Pod {
	if template == nil {
		return nil
	}
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{
		Namespace:    opts.Namespace,
		GenerateName: podNamePrefix(opts.ControllerName),
		Labels:       copyStringMap(template.Labels),
		Annotations:  copyStringMap(template.Annotations),
	}}
	if len(template.Finalizers) > 0 {
		pod.Finalizers = append([]string(nil), template.Finalizers...)
	}
	if opts.ControllerRef != nil {
		pod.OwnerReferences = []metav1.OwnerReference{*opts.ControllerRef.DeepCopy()}
	}
	copyPodSpec(&template.Spec, &pod.Spec, true, false)
	if mutate != nil {
		mutate(pod)
	}
	// The controller sends the pod over JSON.
	wireTimes(&pod.Spec)
	g := opts.Features.Resolve()
	defaultPodObject(pod, &g)
	prepareForCreate(pod, &g, opts.Now)
	return pod
}

// wireTimes leaves the timestamps of the ephemeral volume claim templates (the only
// times a pod spec holds) as they arrive over the wire: JSON carries whole seconds, and
// a pointer to the zero time is written as null and read back as nil.
func wireTimes(spec *corev1.PodSpec) {
	wire := func(t *metav1.Time) *metav1.Time {
		if t == nil || t.IsZero() {
			return nil
		}
		t.Time = t.Time.Truncate(time.Second)
		return t
	}
	for i := range spec.Volumes {
		e := spec.Volumes[i].Ephemeral
		if e == nil || e.VolumeClaimTemplate == nil {
			continue
		}
		m := &e.VolumeClaimTemplate.ObjectMeta
		m.CreationTimestamp.Time = m.CreationTimestamp.Time.Truncate(time.Second)
		m.DeletionTimestamp = wire(m.DeletionTimestamp)
		for j := range m.ManagedFields {
			m.ManagedFields[j].Time = wire(m.ManagedFields[j].Time)
		}
	}
}

// podNamePrefix mirrors the controller's choice of generateName: "<name>-" unless that
// fails pod-name prefix validation.
func podNamePrefix(controllerName string) string {
	prefix := controllerName + "-"
	if len(apivalidation.NameIsDNSSubdomain(prefix, true)) != 0 {
		return controllerName
	}
	return prefix
}

func copyStringMap(m map[string]string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// TemplateForUpdate returns a deep copy of newTemplate as a v1.37.2 API server stores
// it when a workload's template changes from the stored oldTemplate: the template
// defaults, with the fields of disabled features kept when oldTemplate already uses
// them. A nil newTemplate gives nil; a nil oldTemplate makes it [Template].
func TemplateForUpdate(newTemplate, oldTemplate *corev1.PodTemplateSpec, opts Options) *corev1.PodTemplateSpec {
	if newTemplate == nil {
		return nil
	}
	var old *corev1.PodSpec
	if oldTemplate != nil {
		old = &oldTemplate.Spec
	}
	out := newTemplate.DeepCopy()
	g := opts.Features.Resolve()
	defaultPodSpec(&out.Spec, &g)
	dropDisabledSpecFields(&out.Spec, old, &g)
	dropInitContainerAnnotations(out.Annotations)
	return out
}
