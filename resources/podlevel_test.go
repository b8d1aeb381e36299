package resources_test

import (
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"

	"github.com/podlife/podlife/resources"
)

// Cases of component-helpers TestIsPodLevelResourcesSet and TestIsPodLevelLimitsSet,
// plus IsPodLevelRequestsSet on the same inputs.
func TestIsPodLevelSet(t *testing.T) {
	for _, tc := range []struct {
		name                  string
		res                   *corev1.ResourceRequirements
		any, requests, limits bool
	}{
		{"nil resources struct", nil, false, false, false},
		{"empty resources struct", &corev1.ResourceRequirements{}, false, false, false},
		{"only unsupported resource requests set", rrp("ephemeral-storage=1Mi", ""), false, false, false},
		{"only unsupported resource limits set", rrp("", "ephemeral-storage=1Mi"), false, false, false},
		{"unsupported and suported resources requests set", rrp("ephemeral-storage=1Mi cpu=1m", ""), true, true, false},
		{"unsupported and suported resources limits set", rrp("", "ephemeral-storage=1Mi cpu=1m"), true, false, true},
		{"only resource requests set", rrp("memory=100Mi", ""), true, true, false},
		{"hugepages prefix alone counts", rrp("", "hugepages-=1"), true, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pod := &corev1.Pod{Spec: corev1.PodSpec{Resources: tc.res}}
			if got := resources.IsPodLevelResourcesSet(pod); got != tc.any {
				t.Errorf("IsPodLevelResourcesSet = %t, want %t", got, tc.any)
			}
			if got := resources.IsPodLevelRequestsSet(pod); got != tc.requests {
				t.Errorf("IsPodLevelRequestsSet = %t, want %t", got, tc.requests)
			}
			if got := resources.IsPodLevelLimitsSet(pod); got != tc.limits {
				t.Errorf("IsPodLevelLimitsSet = %t, want %t", got, tc.limits)
			}
		})
	}
	if resources.IsPodLevelResourcesSet(nil) || resources.IsPodLevelRequestsSet(nil) || resources.IsPodLevelLimitsSet(nil) {
		t.Errorf("a nil pod has pod-level resources")
	}
}

// Cases of component-helpers TestIsSupportedPodLevelResource, and the set.
func TestIsSupportedPodLevelResource(t *testing.T) {
	for name, want := range map[corev1.ResourceName]bool{
		corev1.ResourceCPU: true, corev1.ResourceMemory: true, corev1.ResourceEphemeralStorage: false,
		"hugepages-2Mi": true, "hugepages-1Gi": true, "hugepages-": true, "example.com/gpu": false, "storage": false,
	} {
		if got := resources.IsSupportedPodLevelResource(name); got != want {
			t.Errorf("IsSupportedPodLevelResource(%s) = %t, want %t", name, got, want)
		}
	}
	set := resources.SupportedPodLevelResources()
	if got := fmt.Sprint(sets.List(set)); got != "[cpu hugepages- memory]" {
		t.Errorf("SupportedPodLevelResources() = %q", got)
	}
	set.Insert("x")
	if resources.SupportedPodLevelResources().Has("x") {
		t.Errorf("SupportedPodLevelResources returns a shared set")
	}
}

// Cases of component-helpers TestPodLevelResourceRequests.
func TestPodLevelResourceRequests(t *testing.T) {
	skip := resources.PodResourcesOptions{SkipPodLevelResources: true}
	none := resources.PodResourcesOptions{}
	for _, tc := range []struct {
		name string
		opts resources.PodResourcesOptions
		res  corev1.ResourceRequirements
		init []corev1.Container
		ctrs []corev1.Container
		want string
	}{
		{"nil", none, rr("", ""), nil, nil, ""},
		{"pod level memory resource with SkipPodLevelResources true", skip, rr("memory=2Mi", ""), nil, nil, ""},
		{"pod level memory resource with SkipPodLevelResources false", none, rr("memory=2Mi", ""), nil, nil, "memory=2Mi"},
		{"pod level memory and container level cpu resources with SkipPodLevelResources false", none, rr("memory=2Mi", ""),
			nil, []corev1.Container{ctr("", "cpu=2m", "")}, "cpu=2m memory=2Mi"},
		{"pod level unsupported resources set at both pod-level and container-level with SkipPodLevelResources false", none, rr("storage=2Mi", ""),
			nil, []corev1.Container{ctr("", "storage=3Mi", "")}, "storage=3Mi"},
		{"pod level unsupported resources set at pod-level with SkipPodLevelResources false", none, rr("storage=2Mi", ""),
			nil, []corev1.Container{ctr("", "memory=3Mi", "")}, "memory=3Mi"},
		{"only container level resources set with SkipPodLevelResources false", none, rr("", ""),
			nil, []corev1.Container{ctr("", "memory=3Mi cpu=2m", "")}, "cpu=2m memory=3Mi"},
		{"both container-level and pod-level resources set with SkipPodLevelResources false", none, rr("memory=6Mi cpu=8m", ""),
			nil, []corev1.Container{ctr("", "memory=3Mi cpu=2m", "")}, "cpu=8m memory=6Mi"},
		{"container-level resources and init container set with SkipPodLevelResources false", none, rr("", ""),
			[]corev1.Container{ctr("", "memory=5Mi cpu=4m", "")}, []corev1.Container{ctr("", "memory=3Mi cpu=2m", "")}, "cpu=4m memory=5Mi"},
		{"container-level resources and init container set with SkipPodLevelResources true", skip, rr("", ""),
			[]corev1.Container{ctr("", "memory=5Mi cpu=4m", "")}, []corev1.Container{ctr("", "memory=3Mi cpu=2m", "")}, "cpu=4m memory=5Mi"},
		{"container-level resources and sidecar container set with SkipPodLevelResources false", none, rr("", ""),
			[]corev1.Container{side("", "memory=5Mi cpu=4m", "")}, []corev1.Container{ctr("", "memory=3Mi cpu=2m", "")}, "cpu=6m memory=8Mi"},
		{"container-level resources, init and sidecar container set with SkipPodLevelResources false", none, rr("", ""),
			[]corev1.Container{side("", "memory=5Mi cpu=4m", ""), ctr("", "memory=6Mi cpu=8m", "")}, []corev1.Container{ctr("", "memory=3Mi cpu=2m", "")}, "cpu=12m memory=11Mi"},
		{"pod-level resources, container-level resources, init and sidecar container set with SkipPodLevelResources false", none, rr("memory=15Mi cpu=18m", ""),
			[]corev1.Container{side("", "memory=5Mi cpu=4m", ""), ctr("", "memory=6Mi cpu=8m", "")}, []corev1.Container{ctr("", "memory=3Mi cpu=2m", "")}, "cpu=18m memory=15Mi"},
		{"pod-level resources, hugepage request/limit single page size", none, rr("memory=10Mi hugepages-2Mi=2Mi", "hugepages-2Mi=2Mi"),
			nil, nil, "hugepages-2Mi=2Mi memory=10Mi"},
		{"pod-level resources, hugepage request/limit multiple page sizes", none, rr("cpu=1 hugepages-2Mi=2Mi hugepages-1Gi=1Gi", "hugepages-2Mi=2Mi hugepages-1Gi=1Gi"),
			nil, nil, "cpu=1 hugepages-1Gi=1Gi hugepages-2Mi=2Mi"},
		{"pod-level resources, container-level resources, hugepage request/limit single page size", none, rr("cpu=1 hugepages-2Mi=10Mi", "hugepages-2Mi=10Mi"),
			nil, []corev1.Container{ctr("", "hugepages-2Mi=6Mi", "hugepages-2Mi=6Mi")}, "cpu=1 hugepages-2Mi=10Mi"},
		{"pod-level resources, container-level resources, hugepage request/limit multiple page sizes", none,
			rr("cpu=1 hugepages-2Mi=10Mi hugepages-1Gi=2Gi", "hugepages-2Mi=10Mi hugepages-1Gi=2Gi"),
			nil, []corev1.Container{ctr("", "cpu=1 hugepages-1Gi=2Gi", "hugepages-1Gi=2Gi")}, "cpu=1 hugepages-1Gi=2Gi hugepages-2Mi=10Mi"},
		{"pod-level resources, container-level resources, hugepage request/limit multiple page sizes between pod-level and container-level", none,
			rr("cpu=1 hugepages-2Mi=10Mi", "hugepages-2Mi=10Mi"),
			nil, []corev1.Container{ctr("", "memory=4Mi hugepages-1Gi=1Gi", "hugepages-1Gi=1Gi")}, "cpu=1 hugepages-1Gi=1Gi hugepages-2Mi=10Mi memory=4Mi"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := tc.res
			pod := tp{res: &res, init: tc.init, ctrs: tc.ctrs}.pod()
			expect(t, "PodRequests", resources.PodRequests(pod, tc.opts), tc.want)
		})
	}
}

// Upstream's TestResizeConditionsAndSupportedResources: only the first
// PodResizePending condition counts, and its status does not.
func TestResizeConditions(t *testing.T) {
	cond := func(typ corev1.PodConditionType, status corev1.ConditionStatus, reason string) corev1.PodCondition {
		return corev1.PodCondition{Type: typ, Status: status, Reason: reason}
	}
	for _, tc := range []struct {
		name                 string
		conds                []corev1.PodCondition
		infeasible, deferred bool
	}{
		{"none", nil, false, false},
		{"infeasible", infeasible, true, false},
		{"deferred", deferred, false, true},
		{"status false still counts", []corev1.PodCondition{cond(corev1.PodResizePending, corev1.ConditionFalse, corev1.PodReasonInfeasible)}, true, false},
		{"first one wins", []corev1.PodCondition{cond(corev1.PodReady, corev1.ConditionTrue, corev1.PodReasonInfeasible),
			cond(corev1.PodResizePending, corev1.ConditionTrue, corev1.PodReasonDeferred), cond(corev1.PodResizePending, corev1.ConditionTrue, corev1.PodReasonInfeasible)}, false, true},
		{"other reason", []corev1.PodCondition{cond(corev1.PodResizePending, corev1.ConditionTrue, "Other"), infeasible[0]}, false, false},
		{"in progress is not pending", []corev1.PodCondition{cond(corev1.PodResizeInProgress, corev1.ConditionTrue, corev1.PodReasonInfeasible)}, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pod := &corev1.Pod{Status: corev1.PodStatus{Conditions: tc.conds}}
			if got := resources.IsPodResizeInfeasible(pod); got != tc.infeasible {
				t.Errorf("IsPodResizeInfeasible = %t, want %t", got, tc.infeasible)
			}
			if got := resources.IsPodResizeDeferred(pod); got != tc.deferred {
				t.Errorf("IsPodResizeDeferred = %t, want %t", got, tc.deferred)
			}
		})
	}
	if resources.IsPodResizeInfeasible(nil) || resources.IsPodResizeDeferred(nil) {
		t.Errorf("nil pod")
	}
}
