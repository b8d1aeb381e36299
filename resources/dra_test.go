package resources_test

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/podlife/podlife/resources"
)

func qp(s string) *resource.Quantity {
	if s == "" {
		return nil
	}
	q := resource.MustParse(s)
	return &q
}

// claim is a node-allocatable claim status naming ctrs, with mappings "name=qty ..."
// (in that order) and overhead entries.
func claim(ctrs []string, mapping string, ovh ...corev1.NodeAllocatableOverheadResources) corev1.NodeAllocatableResourceClaimStatus {
	c := corev1.NodeAllocatableResourceClaimStatus{ResourceClaimName: "claim", Containers: ctrs, Overhead: ovh}
	for _, kv := range strings.Fields(mapping) {
		k, v, _ := strings.Cut(kv, "=")
		c.Mapping = append(c.Mapping, corev1.NodeAllocatableMappedResources{Name: corev1.ResourceName(k), Quantity: qp(v)})
	}
	return c
}

func ovh(name, perPod, perContainer string) corev1.NodeAllocatableOverheadResources {
	return corev1.NodeAllocatableOverheadResources{Name: corev1.ResourceName(name), PerPod: qp(perPod), PerContainer: qp(perContainer)}
}

func claims(c ...corev1.NodeAllocatableResourceClaimStatus) []corev1.NodeAllocatableResourceClaimStatus {
	return c
}

// unchecked marks an expectation upstream's table leaves out.
const unchecked = "?"

// Cases of component-helpers TestPodRequestsAndLimitsWithDRA.
func TestPodRequestsAndLimitsWithDRA(t *testing.T) {
	dra := resources.PodResourcesOptions{UseDRANodeAllocatableResourceClaimStatus: true}
	draPLR := resources.PodResourcesOptions{UseDRANodeAllocatableResourceClaimStatus: true, UseStatusResources: true, InPlacePodLevelResourcesVerticalScalingEnabled: true}
	draStatus := resources.PodResourcesOptions{UseDRANodeAllocatableResourceClaimStatus: true, UseStatusResources: true}
	c1c2 := []string{"c1", "c2"}
	memCtrs := func(req bool) []corev1.Container {
		if req {
			return []corev1.Container{ctr("c1", "memory=1Gi", ""), ctr("c2", "memory=2Gi", "")}
		}
		return []corev1.Container{ctr("c1", "", "memory=1Gi"), ctr("c2", "", "memory=2Gi")}
	}
	for _, tc := range []struct {
		name           string
		opts           resources.PodResourcesOptions
		pod            tp
		requests, lims string
	}{
		{"No claims", dra, tp{ctrs: []corev1.Container{ctr("c1", "cpu=100m memory=1Gi", "cpu=100m memory=1Gi")}}, "cpu=100m memory=1Gi", "cpu=100m memory=1Gi"},
		{"Single claim on one container", dra, tp{
			ctrs:   []corev1.Container{ctr("c1", "cpu=100m memory=1Gi hugepages-1Gi=2", "cpu=100m memory=1Gi hugepages-1Gi=2")},
			claims: claims(claim([]string{"c1"}, "cpu=50m hugepages-1Gi=1"))},
			"cpu=150m hugepages-1Gi=3 memory=1Gi", "cpu=150m hugepages-1Gi=3 memory=1Gi"},
		{"Multiple claims on one container", dra, tp{
			ctrs:   []corev1.Container{ctr("c1", "cpu=100m memory=1Gi", "")},
			claims: claims(claim([]string{"c1"}, "cpu=50m"), claim([]string{"c1"}, "cpu=25m memory=512Mi"))},
			"cpu=175m memory=1536Mi", unchecked},
		{"Same claim referenced in multiple containers", dra, tp{
			ctrs:   []corev1.Container{ctr("c1", "cpu=100m", "cpu=100m"), ctr("c2", "cpu=200m", "cpu=200m")},
			claims: claims(claim(c1c2, "cpu=50m"))},
			"cpu=350m", "cpu=350m"},
		{"Different claims on multiple containers", dra, tp{
			ctrs:   []corev1.Container{ctr("c1", "cpu=100m hugepages-1Gi=1", ""), ctr("c2", "cpu=200m memory=1Gi hugepages-1Gi=2", "")},
			claims: claims(claim([]string{"c1"}, "cpu=50m hugepages-1Gi=1"), claim([]string{"c2"}, "cpu=25m memory=512Mi hugepages-1Gi=2"))},
			"cpu=375m hugepages-1Gi=6 memory=1536Mi", unchecked},
		{"Claim on init container", dra, tp{
			init: []corev1.Container{ctr("ic1", "cpu=100m", "")}, ctrs: []corev1.Container{ctr("c1", "cpu=50m", "")},
			claims: claims(claim([]string{"ic1"}, "cpu=25m"))},
			"cpu=125m", unchecked},
		{"UseDRANodeAllocatableResourceClaimStatus flag disabled", resources.PodResourcesOptions{}, tp{
			ctrs: []corev1.Container{ctr("c1", "cpu=100m", "cpu=100m")}, claims: claims(claim([]string{"c1"}, "cpu=50m"))},
			"cpu=100m", "cpu=100m"},
		{"Pod Level Resources overrides the claim request/limit", dra, tp{
			res:  rrp("cpu=2", "cpu=2"),
			ctrs: []corev1.Container{ctr("c1", "cpu=1 memory=1Gi", "cpu=1 memory=1Gi")}, claims: claims(claim([]string{"c1"}, "cpu=3"))},
			"cpu=2 memory=1Gi", "cpu=2 memory=1Gi"},
		{"Pod with DRA claim specifying Overhead mapping", dra, tp{
			ctrs:   []corev1.Container{ctr("c1", "cpu=100m memory=1Gi", "memory=1Gi"), ctr("c2", "cpu=100m memory=1Gi", "memory=1Gi")},
			claims: claims(claim(c1c2, "", ovh("memory", "1Gi", "500Mi")))},
			"cpu=200m memory=4072Mi", "memory=4072Mi"},
		{"Pod with DRA claim specifying both Mapping and Overhead mapping", dra, tp{
			ctrs:   []corev1.Container{ctr("c1", "memory=1Gi", "memory=1Gi"), ctr("c2", "memory=1Gi", "memory=1Gi")},
			claims: claims(claim(c1c2, "memory=2Gi", ovh("memory", "1Gi", "500Mi")))},
			"memory=6120Mi", "memory=6120Mi"},
		{"Pod with DRA claim specifying Overhead mapping, PerPod only", dra, tp{
			ctrs: []corev1.Container{ctr("c1", "memory=1Gi", "memory=1Gi")}, claims: claims(claim([]string{"c1"}, "", ovh("memory", "1Gi", "")))},
			"memory=2Gi", "memory=2Gi"},
		{"Pod with DRA claim specifying Overhead mapping, PerContainer only", dra, tp{
			ctrs: []corev1.Container{ctr("c1", "memory=1Gi", "memory=1Gi")}, claims: claims(claim([]string{"c1"}, "", ovh("memory", "", "500Mi")))},
			"memory=1524Mi", "memory=1524Mi"},
		{"Pod with unreferenced DRA claim specifying Mapping", dra, tp{
			ctrs: []corev1.Container{ctr("c1", "memory=1Gi", "memory=1Gi")}, claims: claims(claim([]string{}, "memory=2Gi"))},
			"memory=3Gi", "memory=3Gi"},
		{"Pod with unreferenced DRA claim specifying Overhead mapping", dra, tp{
			ctrs: []corev1.Container{ctr("c1", "memory=1Gi", "memory=1Gi")}, claims: claims(claim([]string{}, "", ovh("memory", "1Gi", "500Mi")))},
			"memory=2Gi", "memory=2Gi"},
		{"Pod with unreferenced DRA claim specifying Overhead mapping, PerContainer only", dra, tp{
			ctrs: []corev1.Container{ctr("c1", "memory=1Gi", "memory=1Gi")}, claims: claims(claim([]string{}, "", ovh("memory", "", "500Mi")))},
			"memory=1Gi", "memory=1Gi"},
		{"shared DRA claim + memory resize (spec != status) + UseStatusResources", draPLR, tp{
			ctrs:   memCtrs(true),
			ctrSt:  []corev1.ContainerStatus{st("c1", "memory=1Gi", rrp("memory=2Gi", "")), st("c2", "memory=2Gi", rrp("memory=2Gi", ""))},
			podRes: rrp("memory=6Gi", ""), podAlloc: "memory=5Gi",
			claims: claims(claim(c1c2, "", ovh("memory", "", "1Gi")))},
			"memory=6Gi", unchecked},
		{"Pod Level Resources for CPU + shared DRA claims + UseStatusResources", draPLR, tp{
			res: rrp("cpu=3", ""), ctrs: memCtrs(true),
			ctrSt:  []corev1.ContainerStatus{st("c1", "memory=1Gi", rrp("memory=1Gi", "")), st("c2", "memory=2Gi", rrp("memory=2Gi", ""))},
			podRes: rrp("cpu=3 memory=5Gi", ""), podAlloc: "cpu=3 memory=5Gi",
			claims: claims(claim(c1c2, "cpu=1"), claim(c1c2, "", ovh("memory", "", "1Gi")))},
			"cpu=3 memory=5Gi", unchecked},
		{"Pod Level Resources + shared DRA claim during resize (spec != status) + UseStatusResources", draPLR, tp{
			res: rrp("cpu=4", ""), ctrs: memCtrs(true),
			ctrSt:  []corev1.ContainerStatus{st("c1", "memory=1Gi", rrp("memory=1Gi", "")), st("c2", "memory=2Gi", rrp("memory=2Gi", ""))},
			podRes: rrp("cpu=3 memory=5Gi", ""), podAlloc: "cpu=3 memory=5Gi",
			claims: claims(claim(c1c2, "cpu=1"), claim(c1c2, "", ovh("memory", "", "1Gi")))},
			"cpu=4 memory=5Gi", unchecked},
		{"Pod Level Resources (CPU limits only) with shared DRA claim and UseStatusResources", draPLR, tp{
			res: rrp("", "cpu=3"), ctrs: memCtrs(false),
			ctrSt:  []corev1.ContainerStatus{st("c1", "", rrp("", "memory=1Gi")), st("c2", "", rrp("", "memory=2Gi"))},
			podRes: rrp("", "cpu=3 memory=5Gi"),
			claims: claims(claim(c1c2, "cpu=1"), claim(c1c2, "", ovh("memory", "", "1Gi")))},
			unchecked, "cpu=3 memory=5Gi"},
		{"Pod Level Resources (CPU limits only) with shared DRA claim during resize and UseStatusResources", draPLR, tp{
			res: rrp("", "cpu=4"), ctrs: memCtrs(false),
			ctrSt:  []corev1.ContainerStatus{st("c1", "", rrp("", "memory=1Gi")), st("c2", "", rrp("", "memory=2Gi"))},
			podRes: rrp("", "cpu=3 memory=5Gi"),
			claims: claims(claim(c1c2, "cpu=1"), claim(c1c2, "", ovh("memory", "", "1Gi")))},
			unchecked, "cpu=4 memory=5Gi"},
		{"Container Level Resources with shared DRA claim during memory limit resize and UseStatusResources", draStatus, tp{
			ctrs:   []corev1.Container{ctr("c1", "", "memory=4Gi"), ctr("c2", "", "memory=2Gi")},
			ctrSt:  []corev1.ContainerStatus{st("c1", "", rrp("", "memory=2Gi")), st("c2", "", rrp("", "memory=2Gi"))},
			claims: claims(claim(c1c2, "", ovh("memory", "", "1Gi")))},
			unchecked, "memory=8Gi"},
		{"Container Level Resources + shared DRA claim during memory resize + UseStatusResources", draStatus, tp{
			ctrs:   []corev1.Container{ctr("c1", "memory=4Gi", ""), ctr("c2", "memory=2Gi", "")},
			ctrSt:  []corev1.ContainerStatus{st("c1", "memory=4Gi", rrp("memory=2Gi", "")), st("c2", "memory=2Gi", rrp("memory=2Gi", ""))},
			claims: claims(claim(c1c2, "", ovh("memory", "", "1Gi")))},
			"memory=8Gi", unchecked},
		{"DRA cpu/memory not added to limits when container limits are omitted", dra, tp{
			ctrs: []corev1.Container{ctr("c1", "cpu=100m memory=1Gi", "")}, claims: claims(claim([]string{"c1"}, "cpu=50m memory=512Mi"))},
			"cpu=150m memory=1536Mi", ""},
		{"DRA hugepages added to limits even when container limits are omitted", dra, tp{
			ctrs: []corev1.Container{ctr("c1", "cpu=100m", "")}, claims: claims(claim([]string{"c1"}, "hugepages-1Gi=1"))},
			"cpu=100m hugepages-1Gi=1", "hugepages-1Gi=1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.requests != unchecked {
				expect(t, "PodRequests", resources.PodRequests(tc.pod.pod(), tc.opts), tc.requests)
			}
			if tc.lims != unchecked {
				expect(t, "PodLimits", resources.PodLimits(tc.pod.pod(), tc.opts), tc.lims)
			}
		})
	}
}

// Upstream TestPodResourceLimitsWithSharedDRAClaims and
// TestPodResourceRequestsWithSharedDRAClaims: a claim shared by two containers counts
// once per pod (perContainer times the number of containers), and the pod-level status
// (which already includes it) competes with spec + DRA.
func TestSharedDRAClaims(t *testing.T) {
	shared := claims(claim([]string{"c1", "c2"}, "", ovh("memory", "", "3Gi")))
	noStatus := resources.PodResourcesOptions{UseDRANodeAllocatableResourceClaimStatus: true}
	plr := resources.PodResourcesOptions{UseDRANodeAllocatableResourceClaimStatus: true, UseStatusResources: true, InPlacePodLevelResourcesVerticalScalingEnabled: true}

	limitsPod := func(c1 string, status *corev1.ResourceRequirements) *corev1.Pod {
		return tp{ctrs: []corev1.Container{ctr("c1", "", "memory="+c1), ctr("c2", "", "memory=2Gi")},
			ctrSt:  []corev1.ContainerStatus{st("c1", "", rrp("", "memory=5Gi")), st("c2", "", rrp("", "memory=5Gi"))},
			claims: shared, podRes: status}.pod()
	}
	expect(t, "limits without status", resources.PodLimits(limitsPod("2Gi", nil), noStatus), "memory=10Gi")
	expect(t, "limits with status", resources.PodLimits(limitsPod("2Gi", rrp("", "memory=10Gi")), plr), "memory=10Gi")
	expect(t, "limits during resize", resources.PodLimits(limitsPod("3Gi", rrp("", "memory=10Gi")), plr), "memory=11Gi")

	requestsPod := func(c1 string, status *corev1.ResourceRequirements, alloc string) *corev1.Pod {
		return tp{ctrs: []corev1.Container{ctr("c1", "memory="+c1, ""), ctr("c2", "memory=2Gi", "")},
			claims: shared, podRes: status, podAlloc: alloc}.pod()
	}
	expect(t, "requests without status", resources.PodRequests(requestsPod("2Gi", nil, ""), noStatus), "memory=10Gi")
	expect(t, "requests with status", resources.PodRequests(requestsPod("2Gi", rrp("memory=10Gi", ""), "memory=10Gi"), plr), "memory=10Gi")
	expect(t, "requests during resize", resources.PodRequests(requestsPod("3Gi", rrp("memory=10Gi", ""), "memory=10Gi"), plr), "memory=11Gi")
}

// Cases of component-helpers TestGetContainerDRAAllocations.
func TestGetContainerDRAAllocations(t *testing.T) {
	c1 := []string{"c1"}
	for _, tc := range []struct {
		name   string
		claims []corev1.NodeAllocatableResourceClaimStatus
		want   string
	}{
		{"no claims", nil, ""},
		{"unreferenced claims", claims(claim([]string{"c2"}, "cpu=2")), ""},
		{"referenced direct claims", claims(claim(c1, "cpu=2")), "cpu=2"},
		{"referenced overhead claim PerPod only", claims(claim(c1, "", ovh("memory", "3Gi", ""))), "memory=3Gi"},
		{"referenced overhead claim PerContainer only", claims(claim(c1, "", ovh("memory", "", "1Gi"))), "memory=1Gi"},
		{"referenced overhead claim both PerPod and PerContainer", claims(claim(c1, "", ovh("memory", "3Gi", "1Gi"))), "memory=4Gi"},
		{"referenced claim with both mapping and overhead", claims(claim(c1, "cpu=2", ovh("cpu", "1", "500m"))), "cpu=3500m"},
		{"multiple claims referenced by same container", claims(claim(c1, "cpu=1"), claim(c1, "", ovh("memory", "2Gi", ""))), "cpu=1 memory=2Gi"},
		{"multiple claims aggregating same resource type", claims(claim(c1, "cpu=1"), claim(c1, "cpu=2")), "cpu=3"},
		{"perContainer counted once, whatever the number of containers", claims(claim([]string{"c0", "c1", "c2"}, "", ovh("memory", "", "1Gi"))), "memory=1Gi"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := resources.GetContainerDRAAllocations(tp{claims: tc.claims}.pod(), "c1")
			if got == nil {
				t.Fatalf("nil list")
			}
			expect(t, "GetContainerDRAAllocations", got, tc.want)
		})
	}
	if got := resources.GetContainerDRAAllocations(nil, "c1"); got == nil || len(got) != 0 {
		t.Errorf("nil pod: %v", got)
	}
}
