package podlife

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podlife/podlife/internal/defaulting"
)

// DefaultTemplate returns a deep copy of a pod template as a default v1.37.2 API server
// stores it inside a workload (Deployment, ReplicaSet, StatefulSet, DaemonSet, Job,
// PodTemplate): the PodSpec defaulting every embedded template gets, then the fields of
// disabled features dropped (DropDisabledTemplateFields). Templates do not get the
// Pod-only defaults: no requests copied from limits, no enableServiceLinks, no host
// ports for host-network pods, no pod-level resources defaulting. A nil template gives
// nil.
//
// Workload-specific changes made by the workload's own strategy (for example the
// labels a Job adds to its template) are not applied.
func DefaultTemplate(template *corev1.PodTemplateSpec) *corev1.PodTemplateSpec {
	return defaulting.Template(template, defaulting.Options{})
}

// DefaultTemplateWithOptions is [DefaultTemplate] for a server with the given feature
// gates. DefaultOptions.Now is not used: nothing in a template is time-stamped.
func DefaultTemplateWithOptions(template *corev1.PodTemplateSpec, opts DefaultOptions) *corev1.PodTemplateSpec {
	return defaulting.Template(template, opts.engine())
}

// DefaultTemplateForUpdate returns a deep copy of newTemplate as a default v1.37.2 API
// server stores it when a workload's template changes from the stored oldTemplate: the
// template defaults of [DefaultTemplate], with the fields of disabled features kept
// when oldTemplate already uses them (DropDisabledTemplateFields with the old template).
// A nil newTemplate gives nil; a nil oldTemplate makes it [DefaultTemplateWithOptions].
func DefaultTemplateForUpdate(newTemplate, oldTemplate *corev1.PodTemplateSpec, opts DefaultOptions) *corev1.PodTemplateSpec {
	return defaulting.TemplateForUpdate(newTemplate, oldTemplate, opts.engine())
}

// PodFromTemplateOptions describes the controller creating a pod from a template.
type PodFromTemplateOptions struct {
	// DefaultOptions are the API server's feature gates and clock.
	DefaultOptions
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
// and the server applies [DefaultWithOptions]. Empty label, annotation and finalizer
// lists are left nil, as they arrive over the wire. A nil template gives nil.
//
// The pod's name, uid and creation timestamp are assigned by the server outside the
// steps mirrored here and stay empty. The result is a defaulted pod, ready for the
// resources package.
func PodFromTemplate(template *corev1.PodTemplateSpec, opts PodFromTemplateOptions) *corev1.Pod {
	return defaulting.PodFromTemplate(template, defaulting.PodFromTemplateOptions{
		Options:        opts.engine(),
		ControllerName: opts.ControllerName,
		ControllerRef:  opts.ControllerRef,
		Namespace:      opts.Namespace,
	})
}
