package defaulting

import (
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/podlife/podlife/internal/gates"
)

// TestDefaultPodLevelResources re-expresses upstream's pod-level defaulting cases
// (k8s.io/kubernetes pkg/registry/core/pod/strategy_test.go TestApplyPodLevelResourceDefaults
// and pkg/apis/core/v1/defaults_test.go TestPodResourcesDefaults) through the whole
// create path, so container requests are first defaulted from limits.
func TestDefaultPodLevelResources(t *testing.T) {
	c := func(name string, req, lim []string, mods ...func(*corev1.Container)) corev1.Container {
		return ctr(name, append([]func(*corev1.Container){requests(req...), limits(lim...)}, mods...)...)
	}
	none := []string{}
	fixOff := gates.FeatureGates{"PodLevelResourcesFixDefaulting": false}
	plrOff := gates.FeatureGates{"PodLevelResources": false, "PodLevelResourcesFixDefaulting": false,
		"PodLevelResourcesFixKubeletQOSClass": false, "InPlacePodLevelResourcesVerticalScaling": false}
	cases := []struct {
		name   string
		gates  gates.FeatureGates
		init   []corev1.Container
		ctrs   []corev1.Container
		podReq []string
		podLim []string
		nilPLR bool
		want   string
		qos    corev1.PodQOSClass
	}{
		{name: "nil pod resources", nilPLR: true, ctrs: []corev1.Container{c("c1", []string{"cpu", "1"}, none)},
			want: "null", qos: corev1.PodQOSBurstable},
		{name: "empty pod resources stay empty", ctrs: []corev1.Container{c("c1", []string{"cpu", "1"}, none)},
			want: "{}", qos: corev1.PodQOSBurstable},
		{name: "memory request set, container limits set for CPU",
			ctrs:   []corev1.Container{c("c1", []string{"cpu", "100m", "memory", "128Mi"}, []string{"cpu", "100m"}), c("c2", []string{"cpu", "200m", "memory", "128Mi"}, []string{"cpu", "200m"})},
			podReq: []string{"memory", "256Mi"},
			want:   `{"limits":{"cpu":"300m"},"requests":{"cpu":"300m","memory":"256Mi"}}`, qos: corev1.PodQOSBurstable},
		{name: "memory request set, container limits set for memory",
			ctrs:   []corev1.Container{c("c1", []string{"memory", "128Mi"}, []string{"memory", "128Mi"}), c("c2", []string{"memory", "128Mi"}, []string{"memory", "128Mi"})},
			podReq: []string{"memory", "256Mi"},
			want:   `{"limits":{"memory":"256Mi"},"requests":{"memory":"256Mi"}}`, qos: corev1.PodQOSBurstable},
		{name: "containers with cpu requests 5m, 6m and limits 9m, 10m",
			ctrs:   []corev1.Container{c("c1", []string{"cpu", "5m"}, []string{"cpu", "9m"}), c("c2", []string{"cpu", "6m"}, []string{"cpu", "10m"})},
			podReq: []string{"memory", "256Mi"},
			want:   `{"limits":{"cpu":"19m"},"requests":{"cpu":"11m","memory":"256Mi"}}`, qos: corev1.PodQOSBurstable},
		{name: "pod cpu request, containers with memory requests and limits",
			ctrs:   []corev1.Container{c("c1", []string{"memory", "128Mi"}, []string{"memory", "256Mi"}), c("c2", []string{"memory", "128Mi"}, []string{"memory", "256Mi"})},
			podReq: []string{"cpu", "200m"},
			want:   `{"limits":{"memory":"512Mi"},"requests":{"cpu":"200m","memory":"256Mi"}}`, qos: corev1.PodQOSBurstable},
		{name: "limits-only containers give pod limits equal to the requests",
			ctrs:   []corev1.Container{c("c1", none, []string{"cpu", "100m", "memory", "128Mi"}), c("c2", none, []string{"cpu", "100m", "memory", "128Mi"})},
			podReq: []string{"cpu", "200m", "memory", "256Mi"},
			want:   `{"limits":{"cpu":"200m","memory":"256Mi"},"requests":{"cpu":"200m","memory":"256Mi"}}`, qos: corev1.PodQOSGuaranteed},
		{name: "a container without limits blocks limit defaulting",
			ctrs:   []corev1.Container{c("c1", none, []string{"cpu", "100m", "memory", "128Mi"}), c("c2", []string{"cpu", "100m"}, none)},
			podReq: []string{"cpu", "200m", "memory", "256Mi"},
			want:   `{"requests":{"cpu":"200m","memory":"256Mi"}}`, qos: corev1.PodQOSBurstable},
		{name: "init container without limits blocks limit defaulting",
			init:   []corev1.Container{c("init1", []string{"cpu", "200m", "memory", "256Mi"}, none)},
			ctrs:   []corev1.Container{c("c1", []string{"cpu", "100m", "memory", "128Mi"}, []string{"cpu", "100m", "memory", "128Mi"})},
			podReq: []string{"cpu", "200m", "memory", "256Mi"},
			want:   `{"requests":{"cpu":"200m","memory":"256Mi"}}`, qos: corev1.PodQOSBurstable},
		{name: "sidecar limits are added to the aggregate",
			init:   []corev1.Container{c("sidecar", []string{"cpu", "50m", "memory", "64Mi"}, []string{"cpu", "50m", "memory", "64Mi"}, sidecar)},
			ctrs:   []corev1.Container{c("c1", []string{"cpu", "100m", "memory", "128Mi"}, []string{"cpu", "100m", "memory", "128Mi"})},
			podReq: []string{"cpu", "150m", "memory", "192Mi"},
			want:   `{"limits":{"cpu":"150m","memory":"192Mi"},"requests":{"cpu":"150m","memory":"192Mi"}}`, qos: corev1.PodQOSGuaranteed},
		{name: "limit raised to the pod request when the aggregate limit is lower",
			ctrs:   []corev1.Container{c("c1", []string{"cpu", "100m", "memory", "128Mi"}, []string{"cpu", "100m", "memory", "128Mi"})},
			podReq: []string{"cpu", "500m", "memory", "512Mi"},
			want:   `{"limits":{"cpu":"500m","memory":"512Mi"},"requests":{"cpu":"500m","memory":"512Mi"}}`, qos: corev1.PodQOSGuaranteed},
		{name: "pod requests from container requests when pod limits are set",
			ctrs:   []corev1.Container{c("c1", []string{"cpu", "100m", "memory", "128Mi"}, []string{"cpu", "200m", "memory", "256Mi"})},
			podLim: []string{"cpu", "500m", "memory", "512Mi"},
			want:   `{"limits":{"cpu":"500m","memory":"512Mi"},"requests":{"cpu":"100m","memory":"128Mi"}}`, qos: corev1.PodQOSBurstable},
		{name: "unsupported resources are not defaulted",
			ctrs:   []corev1.Container{c("c1", []string{"example.com/gpu", "1"}, []string{"example.com/gpu", "1"})},
			podReq: []string{"example.com/gpu", "1"},
			want:   `{"requests":{"example.com/gpu":"1"}}`, qos: corev1.PodQOSBestEffort},
		{name: "pod limits, container request (spec oracle)",
			ctrs:   []corev1.Container{c("c1", []string{"cpu", "500m"}, none)},
			podLim: []string{"cpu", "2", "memory", "2Gi"},
			want:   `{"limits":{"cpu":"2","memory":"2Gi"},"requests":{"cpu":"500m","memory":"2Gi"}}`, qos: corev1.PodQOSBurstable},
		{name: "hugepage limits and requests from containers",
			ctrs:   []corev1.Container{c("c1", none, []string{"hugepages-2Mi", "4Mi", "memory", "100Mi"})},
			podReq: []string{"memory", "1Gi"},
			want:   `{"limits":{"hugepages-2Mi":"4Mi","memory":"1Gi"},"requests":{"hugepages-2Mi":"4Mi","memory":"1Gi"}}`, qos: corev1.PodQOSBurstable},
		{name: "a pod hugepage request stops the hugepage limit",
			ctrs:   []corev1.Container{c("c1", none, []string{"hugepages-2Mi", "4Mi"})},
			podReq: []string{"hugepages-2Mi", "2Mi", "cpu", "1"},
			want:   `{"limits":{"hugepages-2Mi":"4Mi"},"requests":{"cpu":"1","hugepages-2Mi":"2Mi"}}`, qos: corev1.PodQOSBurstable},
		{name: "ephemeral containers block limit defaulting",
			ctrs:   []corev1.Container{c("c1", none, []string{"cpu", "1"})},
			podReq: []string{"cpu", "1"},
			want:   `{"requests":{"cpu":"1"}}`, qos: corev1.PodQOSBurstable},
		{name: "legacy path: no limit defaulting, requests only with pod limits", gates: fixOff,
			ctrs:   []corev1.Container{c("c1", none, []string{"cpu", "100m", "memory", "128Mi"})},
			podReq: []string{"cpu", "200m"},
			want:   `{"requests":{"cpu":"200m"}}`, qos: corev1.PodQOSBurstable},
		{name: "legacy path: hugepage limits and requests from pod limits", gates: fixOff,
			ctrs:   []corev1.Container{c("c1", []string{"cpu", "1"}, []string{"hugepages-2Mi", "4Mi"})},
			podLim: []string{"memory", "1Gi"},
			want:   `{"limits":{"hugepages-2Mi":"4Mi","memory":"1Gi"},"requests":{"cpu":"1","hugepages-2Mi":"4Mi","memory":"1Gi"}}`, qos: corev1.PodQOSBurstable},
		{name: "PodLevelResources off drops spec.resources", gates: plrOff,
			ctrs:   []corev1.Container{c("c1", none, []string{"cpu", "1", "memory", "1Gi"})},
			podReq: []string{"cpu", "2"},
			want:   "null", qos: corev1.PodQOSGuaranteed},
		{name: "FixKubeletQOSClass off: empty pod resources decide the class", gates: gates.FeatureGates{"PodLevelResourcesFixKubeletQOSClass": false},
			ctrs: []corev1.Container{c("c1", none, []string{"cpu", "1", "memory", "1Gi"})},
			want: "{}", qos: corev1.PodQOSBestEffort},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pod := &corev1.Pod{Spec: corev1.PodSpec{InitContainers: tc.init, Containers: tc.ctrs}}
			if !tc.nilPLR {
				pod.Spec.Resources = &corev1.ResourceRequirements{}
				if len(tc.podReq) > 0 {
					pod.Spec.Resources.Requests = rl(tc.podReq...)
				}
				if len(tc.podLim) > 0 {
					pod.Spec.Resources.Limits = rl(tc.podLim...)
				}
			}
			if tc.name == "ephemeral containers block limit defaulting" {
				pod.Spec.EphemeralContainers = []corev1.EphemeralContainer{{EphemeralContainerCommon: corev1.EphemeralContainerCommon{Name: "debug"}}}
			}
			out := Pod(pod, Options{Features: tc.gates})
			if got := js(out.Spec.Resources); got != tc.want {
				t.Errorf("spec.resources\ngot  %s\nwant %s", got, tc.want)
			}
			if out.Status.QOSClass != tc.qos {
				t.Errorf("qosClass %s, want %s", out.Status.QOSClass, tc.qos)
			}
		})
	}
}
