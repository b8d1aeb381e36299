package resources_test

import (
	"reflect"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/podlife/podlife/resources"
)

// FuzzAggregates checks the container aggregates against the pod totals: without
// pod-level resources and overhead, PodRequests and PodLimits are exactly
// AggregateContainerRequests and AggregateContainerLimits; neither mutates its input
// and both are deterministic.
func FuzzAggregates(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		reqs := checkList(t, "AggregateContainerRequests", resources.AggregateContainerRequests, data)
		lims := checkList(t, "AggregateContainerLimits", resources.AggregateContainerLimits, data)
		p, opts := (&fuzzReader{data: data}).pod()
		opts.Reuse = nil
		if opts.SkipContainerLevelResources {
			return
		}
		opts.SkipPodLevelResources, opts.ExcludeOverhead = true, true
		if got, want := render(resources.PodRequests(p, opts)), render(reqs); got != want {
			t.Fatalf("PodRequests %q, AggregateContainerRequests %q", got, want)
		}
		if got, want := render(resources.PodLimits(p, opts)), render(lims); got != want {
			t.Fatalf("PodLimits %q, AggregateContainerLimits %q", got, want)
		}
	})
}

// FuzzPodPredicates checks the predicates and lookups against each other and against
// their definitions: pod-level requests or limits set is pod-level resources set, a
// resize is never both deferred and infeasible, a supported pod-level name is one of
// SupportedPodLevelResources or a hugepages-* name, the QoS variants agree with
// ComputePodQOS under their documented conditions, and a container's DRA allocations
// name only resources its claims map.
func FuzzPodPredicates(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, "hugepages-1Gi")
	}
	f.Add([]byte{2, 2, 2}, "cpu")
	f.Add([]byte{1}, "hugepages-")
	f.Fuzz(func(t *testing.T, data []byte, name string) {
		p, _ := (&fuzzReader{data: data}).pod()
		before := p.DeepCopy()
		if resources.IsPodLevelResourcesSet(p) != (resources.IsPodLevelRequestsSet(p) || resources.IsPodLevelLimitsSet(p)) {
			t.Fatal("IsPodLevelResourcesSet differs from requests-or-limits set")
		}
		if resources.IsPodResizeDeferred(p) && resources.IsPodResizeInfeasible(p) {
			t.Fatal("resize both deferred and infeasible")
		}
		supported := resources.SupportedPodLevelResources()
		rn := corev1.ResourceName(name)
		if want := supported.Has(rn) || strings.HasPrefix(name, corev1.ResourceHugePagesPrefix); resources.IsSupportedPodLevelResource(rn) != want {
			t.Fatalf("IsSupportedPodLevelResource(%q) = %t", name, !want)
		}
		supported.Insert("changed")
		if resources.SupportedPodLevelResources().Has("changed") {
			t.Fatal("SupportedPodLevelResources shares its set")
		}

		class := resources.ComputePodQOS(p)
		if got := resources.ComputePodQOSWithOptions(p, resources.QOSOptions{}); got != class {
			t.Fatalf("ComputePodQOSWithOptions with zero options %s, ComputePodQOS %s", got, class)
		}
		noPodLevel := p.DeepCopy()
		noPodLevel.Spec.Resources = nil
		if got, want := resources.ComputePodQOSWithOptions(p, resources.QOSOptions{DisablePodLevelResources: true}), resources.ComputePodQOS(noPodLevel); got != want {
			t.Fatalf("DisablePodLevelResources gives %s, the pod without spec.resources %s", got, want)
		}
		opts := resources.QOSOptions{DisablePodLevelResourcesFixKubeletQOSClass: len(data)%2 == 0}
		computed := resources.ComputePodQOSWithOptions(p, opts)
		if resources.IsPodLevelResourcesSet(p) || p.Spec.Resources == nil {
			if unfixed := resources.ComputePodQOSWithOptions(p, resources.QOSOptions{DisablePodLevelResourcesFixKubeletQOSClass: true}); unfixed != class {
				t.Fatalf("the kubelet QoS fix matters without a partial spec.resources: %s vs %s", unfixed, class)
			}
		}
		p.Status.QOSClass = ""
		if got := resources.GetPodQOSWithOptions(p, opts); got != computed {
			t.Fatalf("GetPodQOSWithOptions without a status class %s, ComputePodQOSWithOptions %s", got, computed)
		}
		p.Status.QOSClass = "Recorded"
		if got := resources.GetPodQOSWithOptions(p, opts); got != "Recorded" {
			t.Fatalf("GetPodQOSWithOptions ignored status.qosClass: %s", got)
		}
		p.Status.QOSClass = before.Status.QOSClass

		mapped := map[corev1.ResourceName]bool{}
		for _, c := range p.Status.NodeAllocatableResourceClaimStatuses {
			for _, m := range c.Mapping {
				mapped[m.Name] = true
			}
			for _, o := range c.Overhead {
				mapped[o.Name] = true
			}
		}
		for _, c := range append(append([]corev1.Container(nil), p.Spec.InitContainers...), p.Spec.Containers...) {
			got := resources.GetContainerDRAAllocations(p, c.Name)
			if !reflect.DeepEqual(got, resources.GetContainerDRAAllocations(p, c.Name)) {
				t.Fatal("GetContainerDRAAllocations not deterministic")
			}
			for n := range got {
				if !mapped[n] {
					t.Fatalf("container %s allocated %s, which no claim maps", c.Name, n)
				}
			}
		}
		if len(resources.GetContainerDRAAllocations(nil, name)) != 0 || len(resources.GetContainerDRAAllocations(p, "\x00"+name)) != 0 {
			t.Fatal("allocations for a nil pod or an unknown container")
		}
		if !reflect.DeepEqual(p, before) {
			t.Fatal("a predicate mutated its input")
		}
	})
}
