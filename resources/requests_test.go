package resources_test

import (
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/podlife/podlife/resources"
)

// onePod is upstream's getPod helper: one container and one init container sharing
// the same requirements, and an overhead.
func onePod(req, lim, overhead string) *corev1.Pod {
	r := rr(req, lim)
	if r.Requests == nil {
		r.Requests = corev1.ResourceList{}
	}
	if r.Limits == nil {
		r.Limits = corev1.ResourceList{}
	}
	if overhead == "" {
		overhead = "{}"
	}
	return tp{
		ctrs:     []corev1.Container{{Name: "foo", Resources: r}},
		init:     []corev1.Container{{Name: "init-foo", Resources: r}},
		overhead: overhead,
	}.pod()
}

// Cases of component-helpers TestPodRequestsAndLimits.
func TestPodRequestsAndLimits(t *testing.T) {
	for _, tc := range []struct {
		name           string
		pod            *corev1.Pod
		requests, lims string
	}{
		{"just-limit-no-overhead", onePod("", "cpu=9", ""), "", "cpu=9"},
		{"just-overhead", onePod("", "", "cpu=5 memory=5"), "cpu=5 memory=5", ""},
		{"req-and-overhead", onePod("cpu=1 memory=10", "", "cpu=5 memory=5"), "cpu=6 memory=15", ""},
		{"all-req-lim-and-overhead", onePod("cpu=1 memory=10", "cpu=2 memory=12", "cpu=5 memory=5"), "cpu=6 memory=15", "cpu=7 memory=17"},
		{"req-some-lim-and-overhead", onePod("cpu=1 memory=10", "cpu=2", "cpu=5 memory=5"), "cpu=6 memory=15", "cpu=7"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			expect(t, "PodRequests", resources.PodRequests(tc.pod, resources.PodResourcesOptions{}), tc.requests)
			expect(t, "PodLimits", resources.PodLimits(tc.pod, resources.PodResourcesOptions{}), tc.lims)
		})
	}
}

// Cases of component-helpers TestPodRequestsAndLimitsWithoutOverhead.
func TestPodRequestsAndLimitsWithoutOverhead(t *testing.T) {
	two := []corev1.Container{ctr("foobar", "cpu=1 memory=5", "cpu=2 memory=10"), ctr("foobar2", "cpu=4 memory=12", "cpu=8 memory=24")}
	for _, tc := range []struct {
		name           string
		pod            tp
		requests, lims string
	}{
		{"two container no overhead - should just be sum of containers", tp{ctrs: two}, "cpu=5 memory=17", "cpu=10 memory=34"},
		{"two container with overhead - shouldn't consider overhead", tp{ctrs: two, overhead: "cpu=3 memory=8"}, "cpu=5 memory=17", "cpu=10 memory=34"},
		{"two container with overhead, massive init - should just be the largest init", tp{ctrs: two, overhead: "cpu=3 memory=8",
			init: []corev1.Container{ctr("small-init", "cpu=1 memory=5", "cpu=1 memory=5"), ctr("big-init", "cpu=40 memory=120", "cpu=80 memory=240")}},
			"cpu=40 memory=120", "cpu=80 memory=240"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := resources.PodResourcesOptions{ExcludeOverhead: true}
			expect(t, "PodRequests", resources.PodRequests(tc.pod.pod(), opts), tc.requests)
			expect(t, "PodLimits", resources.PodLimits(tc.pod.pod(), opts), tc.lims)
		})
	}
}

var withStatus = resources.PodResourcesOptions{UseStatusResources: true}

// Cases of component-helpers TestPodResourceRequests (the pod-level status is filled
// with the container sums as upstream's helper does; these options do not read it).
func TestPodResourceRequests(t *testing.T) {
	restartable1 := func(req string) []corev1.Container { return []corev1.Container{side("restartable-init-1", req, "")} }
	for _, tc := range []struct {
		name string
		opts resources.PodResourcesOptions
		pod  tp
		want string
	}{
		{"nil options, larger init container", resources.PodResourcesOptions{},
			tp{init: []corev1.Container{ctr("", "cpu=4", "")}, ctrs: []corev1.Container{ctr("", "cpu=1", "")}}, "cpu=4"},
		{"nil options, larger containers", resources.PodResourcesOptions{},
			tp{init: []corev1.Container{ctr("", "cpu=2", "")}, ctrs: []corev1.Container{ctr("", "cpu=2", ""), ctr("", "cpu=3", "")}}, "cpu=5"},
		{"pod overhead excluded", resources.PodResourcesOptions{ExcludeOverhead: true},
			tp{overhead: "cpu=1", init: []corev1.Container{ctr("", "cpu=2", "")}, ctrs: []corev1.Container{ctr("", "cpu=2", ""), ctr("", "cpu=3", "")}}, "cpu=5"},
		{"pod overhead included", resources.PodResourcesOptions{},
			tp{overhead: "cpu=1 memory=1Gi", init: []corev1.Container{ctr("", "cpu=2", "cpu=2")}, ctrs: []corev1.Container{ctr("", "cpu=2", ""), ctr("", "cpu=3", "")}}, "cpu=6 memory=1Gi"},
		{"resized, infeasible", withStatus,
			tp{cond: infeasible, ctrs: []corev1.Container{ctr("container-1", "cpu=4", "")}, ctrSt: []corev1.ContainerStatus{st("container-1", "", rrp("cpu=2", ""))}}, "cpu=2"},
		{"resized, infeasible & in-progress", withStatus,
			tp{cond: infeasible, ctrs: []corev1.Container{ctr("container-1", "cpu=6", "")}, ctrSt: []corev1.ContainerStatus{st("container-1", "cpu=4", rrp("cpu=2", ""))}}, "cpu=4"},
		{"resized, no resize status", withStatus,
			tp{ctrs: []corev1.Container{ctr("container-1", "cpu=4", "")}, ctrSt: []corev1.ContainerStatus{st("container-1", "", rrp("cpu=2", ""))}}, "cpu=4"},
		{"resized: per-resource 3-way maximum", withStatus,
			tp{ctrs: []corev1.Container{ctr("container-1", "cpu=30m memory=20M ephemeral-storage=10G", "")},
				ctrSt: []corev1.ContainerStatus{st("container-1", "cpu=20m memory=10M ephemeral-storage=30G", rrp("cpu=10m memory=30M ephemeral-storage=20G", ""))}},
			"cpu=30m ephemeral-storage=30G memory=30M"},
		{"resized, infeasible, but don't use status", resources.PodResourcesOptions{},
			tp{cond: infeasible, ctrs: []corev1.Container{ctr("container-1", "cpu=4", "")}, ctrSt: []corev1.ContainerStatus{st("container-1", "", rrp("cpu=2", ""))}}, "cpu=4"},
		{"resized, restartable init container, infeasible", withStatus,
			tp{cond: infeasible, init: restartable1("cpu=4"), initSt: []corev1.ContainerStatus{st("restartable-init-1", "", rrp("cpu=2", ""))}}, "cpu=2"},
		{"resized, restartable init container, no resize status", withStatus,
			tp{init: restartable1("cpu=4"), initSt: []corev1.ContainerStatus{st("restartable-init-1", "", rrp("cpu=2", ""))}}, "cpu=4"},
		{"resized, restartable init container, infeasible, but don't use status", resources.PodResourcesOptions{},
			tp{cond: infeasible, init: restartable1("cpu=4"), initSt: []corev1.ContainerStatus{st("restartable-init-1", "", rrp("cpu=2", ""))}}, "cpu=4"},
		{"restartable init container", resources.PodResourcesOptions{},
			tp{init: restartable1("cpu=1"), ctrs: []corev1.Container{ctr("container-1", "cpu=1", "")}}, "cpu=2"},
		{"multiple restartable init containers", resources.PodResourcesOptions{},
			tp{init: []corev1.Container{ctr("init-1", "cpu=5", ""), side("restartable-init-1", "cpu=1", ""), side("restartable-init-2", "cpu=2", ""), side("restartable-init-3", "cpu=3", "")},
				ctrs: []corev1.Container{ctr("container-1", "cpu=1", "")}}, "cpu=7"},
		{"multiple restartable and regular init containers", resources.PodResourcesOptions{},
			tp{init: []corev1.Container{ctr("init-1", "cpu=5", ""), side("restartable-init-1", "cpu=1", ""), side("restartable-init-2", "cpu=2", ""), ctr("init-2", "cpu=5", ""), side("restartable-init-3", "cpu=3", "")},
				ctrs: []corev1.Container{ctr("container-1", "cpu=1", "")}}, "cpu=8"},
		{"restartable-init, init and regular", resources.PodResourcesOptions{},
			tp{init: []corev1.Container{side("restartable-init-1", "cpu=10", ""), ctr("init-1", "cpu=200", "")}, ctrs: []corev1.Container{ctr("container-1", "cpu=100", "")}}, "cpu=210"},
		{"aggregate request resolves max of sums instead of sum of maxes", withStatus,
			tp{ctrs: []corev1.Container{ctr("c1", "cpu=1", ""), ctr("c2", "cpu=2", "")}, ctrSt: []corev1.ContainerStatus{st("c1", "cpu=2", nil), st("c2", "cpu=1", nil)}}, "cpu=3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.pod.sumStatus = true
			expect(t, "PodRequests", resources.PodRequests(tc.pod.pod(), tc.opts), tc.want)
		})
	}
}

// Upstream TestPodResourceRequestsReuse, plus the identity of the returned map.
func TestPodResourceRequestsReuse(t *testing.T) {
	pod := tp{ctrs: []corev1.Container{ctr("", "cpu=1", "")}}.pod()
	reuse := rl("cpu=25 memory=1")
	got := resources.PodRequests(pod, resources.PodResourcesOptions{Reuse: reuse})
	expect(t, "PodRequests", got, "cpu=1")
	expect(t, "Reuse", reuse, "cpu=1")
	got["x"] = got["cpu"]
	if _, ok := reuse["x"]; !ok {
		t.Errorf("PodRequests did not return the Reuse map")
	}

	// SkipContainerLevelResources: a new map, Reuse untouched (as upstream).
	reuse = rl("cpu=25")
	got = resources.PodRequests(pod, resources.PodResourcesOptions{Reuse: reuse, SkipContainerLevelResources: true})
	expect(t, "PodRequests(SkipContainerLevelResources)", got, "")
	expect(t, "Reuse", reuse, "cpu=25")

	// PodLimits always reuses.
	reuse = rl("cpu=25")
	got = resources.PodLimits(pod, resources.PodResourcesOptions{Reuse: reuse, SkipContainerLevelResources: true})
	expect(t, "PodLimits", got, "")
	expect(t, "Reuse", reuse, "")
}

// Cases of component-helpers TestPodResourceLimits.
func TestPodResourceLimits(t *testing.T) {
	limSide := func(name, lim string) corev1.Container { return side(name, "", lim) }
	limCtr := func(name, lim string) corev1.Container { return ctr(name, "", lim) }
	for _, tc := range []struct {
		name string
		opts resources.PodResourcesOptions
		pod  tp
		want string
	}{
		{"nil options, larger init container", resources.PodResourcesOptions{},
			tp{init: []corev1.Container{limCtr("", "cpu=4")}, ctrs: []corev1.Container{limCtr("", "cpu=1")}}, "cpu=4"},
		{"nil options, larger containers", resources.PodResourcesOptions{},
			tp{init: []corev1.Container{limCtr("", "cpu=2")}, ctrs: []corev1.Container{limCtr("", "cpu=2"), limCtr("", "cpu=3")}}, "cpu=5"},
		{"pod overhead excluded", resources.PodResourcesOptions{ExcludeOverhead: true},
			tp{overhead: "cpu=1", init: []corev1.Container{limCtr("", "cpu=2")}, ctrs: []corev1.Container{limCtr("", "cpu=2"), limCtr("", "cpu=3")}}, "cpu=5"},
		{"pod overhead included", resources.PodResourcesOptions{},
			tp{overhead: "cpu=1 memory=1Gi", init: []corev1.Container{limCtr("", "cpu=2")}, ctrs: []corev1.Container{limCtr("", "cpu=2"), limCtr("", "cpu=3")}}, "cpu=6"},
		{"no limited containers should result in no limits for the pod", resources.PodResourcesOptions{},
			tp{init: []corev1.Container{}, ctrs: []corev1.Container{{}}}, ""},
		{"one limited and one unlimited container should result in the limited container's limits for the pod", resources.PodResourcesOptions{},
			tp{init: []corev1.Container{}, ctrs: []corev1.Container{limCtr("", "cpu=2 memory=2Gi"), {}}}, "cpu=2 memory=2Gi"},
		{"one limited and one unlimited init container should result in the limited init container's limits for the pod", resources.PodResourcesOptions{},
			tp{init: []corev1.Container{limCtr("", "cpu=2 memory=2Gi"), {}}, ctrs: []corev1.Container{limCtr("", "cpu=1 memory=1Gi")}}, "cpu=2 memory=2Gi"},
		{"restartable init container", resources.PodResourcesOptions{},
			tp{init: []corev1.Container{limSide("restartable-init-1", "cpu=1")}, ctrs: []corev1.Container{limCtr("container-1", "cpu=1")}}, "cpu=2"},
		{"multiple restartable init containers", resources.PodResourcesOptions{},
			tp{init: []corev1.Container{limCtr("init-1", "cpu=5"), limSide("restartable-init-1", "cpu=1"), limSide("restartable-init-2", "cpu=2"), limSide("restartable-init-3", "cpu=3")},
				ctrs: []corev1.Container{limCtr("container-1", "cpu=1")}}, "cpu=7"},
		{"multiple restartable and regular init containers", resources.PodResourcesOptions{},
			tp{init: []corev1.Container{limCtr("init-1", "cpu=5"), limSide("restartable-init-1", "cpu=1"), limSide("restartable-init-2", "cpu=2"), limCtr("init-2", "cpu=5"), limSide("restartable-init-3", "cpu=3")},
				ctrs: []corev1.Container{limCtr("container-1", "cpu=1")}}, "cpu=8"},
		{"restartable-init, init and regular", resources.PodResourcesOptions{},
			tp{init: []corev1.Container{limSide("restartable-init-1", "cpu=10"), limCtr("init-1", "cpu=200")}, ctrs: []corev1.Container{limCtr("container-1", "cpu=100")}}, "cpu=210"},
		{"pod scaled up", withStatus,
			tp{ctrs: []corev1.Container{limCtr("container-1", "memory=2Gi")}, ctrSt: []corev1.ContainerStatus{st("container-1", "", rrp("", "memory=1Gi"))}}, "memory=2Gi"},
		{"pod scaled down", withStatus,
			tp{ctrs: []corev1.Container{limCtr("container-1", "memory=1Gi")}, ctrSt: []corev1.ContainerStatus{st("container-1", "", rrp("", "memory=2Gi"))}}, "memory=2Gi"},
		{"pod scaled down, don't use status", resources.PodResourcesOptions{},
			tp{ctrs: []corev1.Container{limCtr("container-1", "memory=1Gi")}, ctrSt: []corev1.ContainerStatus{st("container-1", "", rrp("", "memory=2Gi"))}}, "memory=1Gi"},
		{"pod scaled up with restartable init containers", withStatus,
			tp{init: []corev1.Container{limSide("restartable-init-1", "memory=2Gi")}, initSt: []corev1.ContainerStatus{st("restartable-init-1", "", rrp("", "memory=1Gi"))}}, "memory=2Gi"},
		{"pod scaled down with restartable init containers", withStatus,
			tp{init: []corev1.Container{limSide("restartable-init-1", "memory=1Gi")}, initSt: []corev1.ContainerStatus{st("restartable-init-1", "", rrp("", "memory=2Gi"))}}, "memory=2Gi"},
		{"pod scaled down with restartable init containers, don't use status", resources.PodResourcesOptions{},
			tp{init: []corev1.Container{limSide("restartable-init-1", "memory=1Gi")}, initSt: []corev1.ContainerStatus{st("restartable-init-1", "", rrp("", "memory=2Gi"))}}, "memory=1Gi"},
		{"aggregate limit resolves max of sums instead of sum of maxes", withStatus,
			tp{ctrs: []corev1.Container{limCtr("c1", "cpu=1"), limCtr("c2", "cpu=2")}, ctrSt: []corev1.ContainerStatus{st("c1", "", rrp("", "cpu=2")), st("c2", "", rrp("", "cpu=1"))}}, "cpu=3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.pod.sumStatus = true
			expect(t, "PodLimits", resources.PodLimits(tc.pod.pod(), tc.opts), tc.want)
		})
	}
}

// Cases of component-helpers TestPodRequestsAndLimitsVerticalScalingWrappers, plus the
// spec notes' oracles for pod-level status.
func TestPodRequestsAndLimitsVerticalScaling(t *testing.T) {
	plr := resources.PodResourcesOptions{UseStatusResources: true, InPlacePodLevelResourcesVerticalScalingEnabled: true}
	nonMissing := resources.PodResourcesOptions{NonMissingContainerRequests: rl("memory=100Mi")}
	for _, tc := range []struct {
		name           string
		opts           resources.PodResourcesOptions
		pod            tp
		requests, lims string
	}{
		{"pod level requests/limits with PLR vertical scaling enabled and status populated", plr, tp{
			res: rrp("cpu=2", "cpu=4"), ctrs: []corev1.Container{ctr("c1", "cpu=1", "cpu=2")},
			podAlloc: "cpu=3", podRes: rrp("cpu=3.5", "cpu=5")}, "cpu=3500m", "cpu=5"},
		{"pod level requests/limits with PLR vertical scaling enabled and infeasible resize", plr, tp{
			res: rrp("cpu=10", "cpu=20"), ctrs: []corev1.Container{ctr("c1", "cpu=1", "cpu=2")}, cond: infeasible,
			podAlloc: "cpu=3", podRes: rrp("cpu=4", "cpu=8")}, "cpu=4", "cpu=8"},
		{"container limits aggregation with infeasible resize", withStatus, tp{
			ctrs: []corev1.Container{ctr("c1", "", "cpu=10")}, cond: infeasible, ctrSt: []corev1.ContainerStatus{st("c1", "", rrp("", "cpu=6"))}}, "", "cpu=6"},
		{"non missing container requests applied to init container", nonMissing, tp{init: []corev1.Container{ctr("i1", "cpu=1", "")}}, "cpu=1 memory=100Mi", ""},
		{"non missing container requests applied to regular container", nonMissing, tp{ctrs: []corev1.Container{ctr("c1", "cpu=1", "")}}, "cpu=1 memory=100Mi", ""},
		{"pod-level requests only, status limit wins for limits", plr, tp{
			res: rrp("cpu=2", ""), ctrs: []corev1.Container{ctr("c1", "", "")}, podRes: rrp("", "cpu=3")}, "cpu=2", "cpu=3"},
		{"pod-level infeasible: spec dropped", plr, tp{
			res: rrp("cpu=4", "cpu=4"), ctrs: []corev1.Container{ctr("c1", "", "")}, cond: infeasible, podAlloc: "cpu=2", podRes: rrp("cpu=1", "cpu=1")}, "cpu=2", "cpu=1"},
		{"deferred resize keeps the spec", plr, tp{
			res: rrp("cpu=4", "cpu=4"), ctrs: []corev1.Container{ctr("c1", "", "")}, cond: deferred, podAlloc: "cpu=2", podRes: rrp("cpu=1", "cpu=1")}, "cpu=4", "cpu=4"},
		{"infeasible: a container without status contributes nothing", withStatus, tp{
			ctrs: []corev1.Container{ctr("c1", "cpu=1", "cpu=1"), ctr("c2", "cpu=5", "cpu=5")}, cond: infeasible,
			ctrSt: []corev1.ContainerStatus{st("c1", "cpu=1", rrp("cpu=1", "cpu=1"))}}, "cpu=1", "cpu=1"},
		{"limits overhead only on present non-zero limits", resources.PodResourcesOptions{}, tp{
			ctrs: []corev1.Container{ctr("c1", "", "cpu=0 memory=1Gi")}, overhead: "cpu=100m memory=10Mi ephemeral-storage=1Gi"},
			"cpu=100m ephemeral-storage=1Gi memory=10Mi", "cpu=0 memory=1034Mi"},
		{"sum keeps the first format", resources.PodResourcesOptions{}, tp{
			ctrs: []corev1.Container{ctr("c1", "cpu=500m memory=1Gi", ""), ctr("c2", "cpu=1 memory=1000M", "")}}, "cpu=1500m memory=2073741824", unchecked},
	} {
		t.Run(tc.name, func(t *testing.T) {
			expect(t, "PodRequests", resources.PodRequests(tc.pod.pod(), tc.opts), tc.requests)
			if tc.lims != unchecked {
				expect(t, "PodLimits", resources.PodLimits(tc.pod.pod(), tc.opts), tc.lims)
			}
		})
	}
}
