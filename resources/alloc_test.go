package resources_test

import (
	"fmt"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/podlife/podlife/resources"
)

// copyList builds a new list with the entries of src, as a caller building the
// result by hand would; it is not inlined, so its list is allocated as a returned
// result is.
//
//go:noinline
func copyList(src corev1.ResourceList) corev1.ResourceList {
	out := make(corev1.ResourceList, len(src))
	for k, v := range src {
		out[k] = v
	}
	return out
}

// manyNames returns "cpu=1 memory=1Gi" and n-2 more resources.
func manyNames(n int) string {
	parts := []string{"cpu=1", "memory=1Gi", "ephemeral-storage=1Gi", "hugepages-2Mi=2Mi", "hugepages-1Gi=1Gi"}
	for i := len(parts); i < n; i++ {
		parts = append(parts, fmt.Sprintf("example.com/r%d=1", i))
	}
	return strings.Join(parts[:n], " ")
}

// TestAllocationsOnlyTheResult checks that PodRequests and PodLimits allocate nothing
// but their result, for pods naming up to 16 resources (8 for pods with init
// containers): as many allocations as building a list of the same entries, and none
// at all with a Reuse list that has room (intermediate sums live on the stack).
func TestAllocationsOnlyTheResult(t *testing.T) {
	status := resources.PodResourcesOptions{UseStatusResources: true, InPlacePodLevelResourcesVerticalScalingEnabled: true}
	cases := []struct {
		name string
		pod  *corev1.Pod
		opts resources.PodResourcesOptions
	}{
		{"no resources", tp{ctrs: []corev1.Container{ctr("a", "", "")}}.pod(), resources.PodResourcesOptions{}},
		{"one container", tp{ctrs: []corev1.Container{ctr("a", "cpu=250m memory=64Mi", "cpu=500m memory=128Mi")}}.pod(), resources.PodResourcesOptions{}},
		{"sidecars, init containers, overhead", tp{
			init:     []corev1.Container{side("s1", "cpu=100m memory=32Mi", "cpu=200m"), ctr("i1", "cpu=1 memory=1Gi", "memory=1Gi"), side("s2", "cpu=50m", "")},
			ctrs:     []corev1.Container{ctr("a", "cpu=250m memory=64Mi", "memory=128Mi"), ctr("b", "cpu=1", "cpu=2")},
			overhead: "cpu=10m memory=10Mi",
		}.pod(), resources.PodResourcesOptions{}},
		{"pod-level", tp{
			ctrs: []corev1.Container{ctr("a", "cpu=250m", ""), ctr("b", "", "")},
			res:  rrp("cpu=1 memory=1Gi hugepages-2Mi=2Mi", "cpu=2 memory=1Gi"),
		}.pod(), resources.PodResourcesOptions{}},
		{"status resources, resize deferred", tp{
			init:   []corev1.Container{side("s", "cpu=100m memory=32Mi", "memory=64Mi")},
			ctrs:   []corev1.Container{ctr("a", "cpu=1 memory=1Gi", "cpu=2 memory=1Gi")},
			initSt: []corev1.ContainerStatus{st("s", "cpu=100m memory=32Mi", rrp("cpu=100m memory=32Mi", "memory=64Mi"))},
			ctrSt:  []corev1.ContainerStatus{st("a", "cpu=2 memory=1Gi", rrp("cpu=1500m memory=1Gi", "cpu=2 memory=1Gi"))},
			cond:   deferred,
			res:    rrp("cpu=2 memory=2Gi", "cpu=3"),
		}.pod(), status},
		{"NonMissingContainerRequests", tp{
			ctrs: []corev1.Container{ctr("a", "cpu=250m", ""), ctr("b", "", ""), ctr("c", "memory=1Gi", "")},
		}.pod(), resources.PodResourcesOptions{NonMissingContainerRequests: rl("cpu=100m memory=200Mi")}},
		{"16 resources", tp{
			ctrs: []corev1.Container{ctr("a", manyNames(16), manyNames(16)), ctr("b", manyNames(9), manyNames(12))},
		}.pod(), resources.PodResourcesOptions{}},
		{"8 resources with init containers", tp{
			init: []corev1.Container{ctr("i", manyNames(8), manyNames(5)), side("s", manyNames(4), manyNames(8))},
			ctrs: []corev1.Container{ctr("a", manyNames(8), manyNames(8)), ctr("b", manyNames(3), "")},
		}.pod(), resources.PodResourcesOptions{}},
	}
	fns := []struct {
		name string
		fn   func(*corev1.Pod, resources.PodResourcesOptions) corev1.ResourceList
	}{{"PodRequests", resources.PodRequests}, {"PodLimits", resources.PodLimits}}
	for _, c := range cases {
		for _, f := range fns {
			result := f.fn(c.pod, c.opts)
			want := testing.AllocsPerRun(20, func() { _ = copyList(result) })
			if got := testing.AllocsPerRun(20, func() { _ = f.fn(c.pod, c.opts) }); got != want {
				t.Errorf("%s %s: %v allocations, building the %d-entry result alone takes %v", c.name, f.name, got, len(result), want)
			}
			opts := c.opts
			opts.Reuse = make(corev1.ResourceList, 32)
			if got := testing.AllocsPerRun(20, func() { _ = f.fn(c.pod, opts) }); got != 0 {
				t.Errorf("%s %s with Reuse: %v allocations, want 0", c.name, f.name, got)
			}
		}
	}
}
