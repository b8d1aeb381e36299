package resources

import (
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"
)

// SupportedPodLevelResources returns a new set of the resource names pod-level resources
// (spec.resources) accept: cpu, memory and the literal prefix "hugepages-" (the set is
// what upstream prints in validation messages; use [IsSupportedPodLevelResource] to test
// a name).
func SupportedPodLevelResources() sets.Set[corev1.ResourceName] {
	return sets.New(corev1.ResourceCPU, corev1.ResourceMemory, corev1.ResourceHugePagesPrefix)
}

// IsSupportedPodLevelResource reports whether name may be set at pod level: cpu, memory
// or any name starting with "hugepages-".
func IsSupportedPodLevelResource(name corev1.ResourceName) bool {
	return name == corev1.ResourceCPU || name == corev1.ResourceMemory ||
		strings.HasPrefix(string(name), corev1.ResourceHugePagesPrefix)
}

// IsPodLevelResourcesSet reports whether spec.resources requests or limits name at
// least one supported pod-level resource. A nil pod has none.
func IsPodLevelResourcesSet(pod *corev1.Pod) bool {
	if pod == nil || pod.Spec.Resources == nil {
		return false
	}
	return hasSupported(pod.Spec.Resources.Requests) || hasSupported(pod.Spec.Resources.Limits)
}

// IsPodLevelRequestsSet reports whether spec.resources.requests names at least one
// supported pod-level resource. A nil pod has none.
func IsPodLevelRequestsSet(pod *corev1.Pod) bool {
	if pod == nil || pod.Spec.Resources == nil {
		return false
	}
	return hasSupported(pod.Spec.Resources.Requests)
}

// IsPodLevelLimitsSet reports whether spec.resources.limits names at least one
// supported pod-level resource. A nil pod has none.
func IsPodLevelLimitsSet(pod *corev1.Pod) bool {
	if pod == nil || pod.Spec.Resources == nil {
		return false
	}
	return hasSupported(pod.Spec.Resources.Limits)
}

func hasSupported(list corev1.ResourceList) bool {
	if len(list) == 0 {
		return false
	}
	// cpu and memory are looked up: nearly every pod-level list names one of them.
	if _, ok := list[corev1.ResourceCPU]; ok {
		return true
	}
	if _, ok := list[corev1.ResourceMemory]; ok {
		return true
	}
	for name := range list {
		if IsSupportedPodLevelResource(name) {
			return true
		}
	}
	return false
}

// IsPodResizeInfeasible reports whether the first PodResizePending condition of the pod
// has reason Infeasible (its status is not looked at). A nil pod is not.
func IsPodResizeInfeasible(pod *corev1.Pod) bool {
	return resizePendingReason(pod) == corev1.PodReasonInfeasible
}

// IsPodResizeDeferred reports whether the first PodResizePending condition of the pod
// has reason Deferred (its status is not looked at). A nil pod is not.
func IsPodResizeDeferred(pod *corev1.Pod) bool {
	return resizePendingReason(pod) == corev1.PodReasonDeferred
}

// resizePendingReason returns the reason of the first PodResizePending condition, or
// a value that matches no reason when there is none.
func resizePendingReason(pod *corev1.Pod) string {
	if pod == nil {
		return "\x00"
	}
	for i := range pod.Status.Conditions {
		if pod.Status.Conditions[i].Type == corev1.PodResizePending {
			return pod.Status.Conditions[i].Reason
		}
	}
	return "\x00"
}
