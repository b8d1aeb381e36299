package validation

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// TEMPORARY: this file stands in for the workload validation of issue 9 part 1, which
// defines ValidateObjectCreate for every kind that holds a pod. Delete it when that
// work is merged; nothing else refers to this file.

// ValidateObjectCreate returns the errors the API server reports when obj is created.
// This temporary version handles a *corev1.Pod (ValidatePodCreate) and returns one
// error for any other type.
func ValidateObjectCreate(obj runtime.Object, opts Options) field.ErrorList {
	if pod, ok := obj.(*corev1.Pod); ok {
		return ValidatePodCreate(pod, opts)
	}
	return field.ErrorList{field.InternalError(nil, fmt.Errorf("ValidateObjectCreate: %T is not supported yet", obj))}
}
