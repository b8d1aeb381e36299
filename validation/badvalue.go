package validation

import (
	"reflect"

	"github.com/podlife/podlife/internal/apidiff"
)

// InternalForm is the bad value of an error whose upstream bad value is a struct (or a
// list of structs) of the internal API, k8s.io/kubernetes pkg/apis/core, apps or
// batch: Value holds the same value in its v1 type (for example
// *corev1.SecurityContext, []corev1.ContainerResizePolicy, corev1.NodeSelectorTerm,
// *appsv1.DeploymentStrategy, batchv1.SuccessPolicy, corev1.PodTemplateSpec,
// []corev1.PersistentVolumeClaim).
//
// field.Error prints a bad value of a type it does not know as its JSON. The internal
// types carry no JSON tags, so upstream's text shows every field under its Go name
// ({"Capabilities":null,"Privileged":true,...}), where the v1 type would print
// {"privileged":true}. InternalForm marshals Value the way upstream marshals the
// internal value, so that Error() is upstream's text to the byte.
type InternalForm struct{ Value any }

// MarshalJSON renders Value as encoding/json renders the internal type it stands for.
func (f InternalForm) MarshalJSON() ([]byte, error) { return apidiff.InternalJSON(f.Value) }

// internalForm returns v as the bad value of an error whose upstream bad value is v's
// internal counterpart: in InternalForm when its type holds a struct of the API
// (see InternalForm), as it is otherwise.
func internalForm(v any) any {
	if apidiff.HoldsInternal(reflect.TypeOf(v)) {
		return InternalForm{v}
	}
	return v
}
