package resources_test

import (
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/podlife/podlife/resources"
)

// Cases of component-helpers TestAggregateContainerRequestsAndLimits.
func TestAggregateContainerRequestsAndLimits(t *testing.T) {
	plr := resources.PodResourcesOptions{UseStatusResources: true, InPlacePodLevelResourcesVerticalScalingEnabled: true}
	lim := func(s string) corev1.Container { return ctr("", "", s) }
	req := func(s string) corev1.Container { return ctr("", s, "") }
	for _, tc := range []struct {
		name           string
		opts           resources.PodResourcesOptions
		pod            tp
		requests, lims string
	}{
		{"one container with limits", resources.PodResourcesOptions{}, tp{ctrs: []corev1.Container{lim("cpu=9")}}, "", "cpu=9"},
		{"two containers with limits", resources.PodResourcesOptions{}, tp{ctrs: []corev1.Container{lim("cpu=9"), lim("cpu=9")}}, "", "cpu=18"},
		{"one container with requests", resources.PodResourcesOptions{}, tp{ctrs: []corev1.Container{req("cpu=9")}}, "cpu=9", ""},
		{"two containers with requests", resources.PodResourcesOptions{}, tp{ctrs: []corev1.Container{req("cpu=9"), req("cpu=9")}}, "cpu=18", ""},
		{"regular and init containers with requests", resources.PodResourcesOptions{},
			tp{ctrs: []corev1.Container{req("cpu=9")}, init: []corev1.Container{req("cpu=9")}}, "cpu=9", ""},
		{"regular, init and sidecar containers with requests", resources.PodResourcesOptions{},
			tp{ctrs: []corev1.Container{req("cpu=9")}, init: []corev1.Container{side("", "cpu=8", ""), req("cpu=6")}}, "cpu=17", ""},
		{"regular and init containers with limits", resources.PodResourcesOptions{},
			tp{ctrs: []corev1.Container{lim("cpu=9")}, init: []corev1.Container{lim("cpu=9")}}, "", "cpu=9"},
		{"regular, init and sidecar containers with limits", resources.PodResourcesOptions{},
			tp{ctrs: []corev1.Container{lim("cpu=9")}, init: []corev1.Container{side("", "", "cpu=8"), lim("cpu=6")}}, "", "cpu=17"},
		{"regularcontainers with empty requests, but status with non-empty requests", withStatus,
			tp{ctrs: []corev1.Container{ctr("container-1", "", "")}, ctrSt: []corev1.ContainerStatus{st("container-1", "", rrp("cpu=2", ""))}}, "cpu=2", ""},
		{"always-restart init containers with empty requests, but status with non-empty requests", withStatus,
			tp{init: []corev1.Container{side("container-1", "", "")}, initSt: []corev1.ContainerStatus{st("container-1", "", rrp("cpu=2", ""))}}, "cpu=2", ""},
		{"aggregate container request resolves max of sums instead of sum of maxes", withStatus,
			tp{ctrs: []corev1.Container{ctr("c1", "cpu=1", ""), ctr("c2", "cpu=2", "")}, ctrSt: []corev1.ContainerStatus{st("c1", "cpu=2", nil), st("c2", "cpu=1", nil)}}, "cpu=3", ""},
		{"aggregate container limit resolves max of sums instead of sum of maxes", withStatus,
			tp{ctrs: []corev1.Container{ctr("c1", "", "cpu=1"), ctr("c2", "", "cpu=2")}, ctrSt: []corev1.ContainerStatus{st("c1", "", rrp("", "cpu=2")), st("c2", "", rrp("", "cpu=1"))}}, "", "cpu=3"},
		{"aggregate container request/limit resolves directly from pod status when PLR vertical scaling enabled", plr,
			tp{ctrs: []corev1.Container{ctr("c1", "cpu=1", "cpu=2")}, podAlloc: "cpu=4", podRes: rrp("cpu=3", "cpu=5")}, "cpu=4", "cpu=5"},
		{"falls back to container status aggregation when PLR vertical scaling enabled but podAllocatedResources is nil", plr,
			tp{ctrs: []corev1.Container{ctr("c1", "cpu=1", "cpu=2")}, ctrSt: []corev1.ContainerStatus{st("c1", "cpu=6", rrp("cpu=5", "cpu=7"))}, podRes: rrp("cpu=3", "cpu=7")}, "cpu=6", "cpu=7"},
		{"falls back to container status aggregation when PLR vertical scaling enabled but podResources is nil", plr,
			tp{ctrs: []corev1.Container{ctr("c1", "cpu=1", "cpu=2")}, ctrSt: []corev1.ContainerStatus{st("c1", "cpu=6", rrp("cpu=5", "cpu=8"))}, podAlloc: "cpu=6"}, "cpu=6", "cpu=8"},
		// Beyond upstream's table: NonMissingContainerRequests fills every container,
		// explicit zeros included, and never reaches limits.
		{"non-missing requests fill absent entries only", resources.PodResourcesOptions{NonMissingContainerRequests: rl("cpu=100m memory=200Mi")},
			tp{ctrs: []corev1.Container{ctr("a", "cpu=0", "cpu=1"), ctr("b", "", "")}, init: []corev1.Container{side("s", "memory=1Gi", ""), ctr("i", "", "")}},
			"cpu=200m memory=1424Mi", "cpu=1"},
		{"nil pod", resources.PodResourcesOptions{}, tp{}, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pod := tc.pod.pod()
			if tc.name == "nil pod" {
				pod = nil
			}
			expect(t, "AggregateContainerRequests", resources.AggregateContainerRequests(pod, tc.opts), tc.requests)
			expect(t, "AggregateContainerLimits", resources.AggregateContainerLimits(pod, tc.opts), tc.lims)
		})
	}
}
