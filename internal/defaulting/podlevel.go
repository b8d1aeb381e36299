package defaulting

import (
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/podlife/podlife/internal/gates"
	"github.com/podlife/podlife/resources"
)

// defaultPodLevelResources fills pod-level requests and limits from the containers
// (DefaultPodLevelResources in k8s.io/kubernetes pkg/api/pod/util.go, run by
// PrepareForCreate when PodLevelResourcesFixDefaulting is on):
//  1. hugepage limits the containers declare and the pod does not, unless the pod
//     requests that hugepage size;
//  2. cpu and memory requests from the containers' aggregate requests, then a request
//     equal to the limit for every supported pod-level limit without one;
//  3. limits for requested resources without a limit, when every container (ephemeral
//     ones included) declares one: max(pod request, aggregate container limit).
func defaultPodLevelResources(pod *corev1.Pod, g *gates.Set) {
	if !g.PodLevelResources || !g.PodLevelResourcesFixDefaulting {
		return
	}
	r := pod.Spec.Resources
	if r == nil || (len(r.Requests) == 0 && len(r.Limits) == 0) {
		return
	}
	defaultHugePageLimits(r, pod)
	defaultPodRequests(r, pod)

	// 3. Limits for cpu, memory and hugepages that every container limits.
	if len(r.Requests) == 0 && len(r.Limits) == 0 {
		return
	}
	candidates := map[corev1.ResourceName]bool{}
	for name := range r.Requests {
		if _, ok := r.Limits[name]; !ok && resources.IsSupportedPodLevelResource(name) {
			candidates[name] = true
		}
	}
	forEachContainer(&pod.Spec, func(c *corev1.Container) {
		for name := range candidates {
			if _, ok := c.Resources.Limits[name]; !ok {
				delete(candidates, name)
			}
		}
	})
	if len(candidates) == 0 {
		return
	}
	aggregate := aggregateContainers(pod, true)
	for name := range candidates {
		q, ok := aggregate[name]
		if !ok {
			continue
		}
		if req := r.Requests[name]; req.Cmp(q) > 0 {
			q = req
		}
		if r.Limits == nil {
			r.Limits = corev1.ResourceList{}
		}
		r.Limits[name] = q
	}
}

// legacyDefaultPodLevelResources is the pod-level defaulting SetDefaults_Pod does when
// PodLevelResources is on and PodLevelResourcesFixDefaulting is off: hugepage limits,
// then (only when pod-level limits are set) requests. It never defaults cpu or memory
// limits.
func legacyDefaultPodLevelResources(pod *corev1.Pod) {
	r := pod.Spec.Resources
	if r == nil {
		return
	}
	if len(r.Limits) > 0 || len(r.Requests) > 0 {
		defaultHugePageLimits(r, pod)
	}
	if len(r.Limits) > 0 {
		defaultPodRequests(r, pod)
	}
}

// defaultHugePageLimits sets a pod-level limit for every hugepage size the containers
// limit (their aggregate) that the pod neither limits nor requests.
func defaultHugePageLimits(r *corev1.ResourceRequirements, pod *corev1.Pod) {
	limits := r.Limits
	if limits == nil {
		limits = corev1.ResourceList{}
	}
	for name, q := range aggregateContainers(pod, true) {
		if !isHugePages(name) {
			continue
		}
		if _, ok := r.Requests[name]; ok {
			continue
		}
		if _, ok := limits[name]; !ok {
			limits[name] = q
		}
	}
	if len(limits) > 0 {
		r.Limits = limits
	}
}

// defaultPodRequests sets the pod-level cpu and memory requests the pod lacks from the
// containers' aggregate requests, then a request equal to the limit for every
// supported pod-level limit without one.
func defaultPodRequests(r *corev1.ResourceRequirements, pod *corev1.Pod) {
	requests := r.Requests
	if requests == nil {
		requests = corev1.ResourceList{}
	}
	for name, q := range aggregateContainers(pod, false) {
		if _, ok := requests[name]; !ok && (name == corev1.ResourceCPU || name == corev1.ResourceMemory) {
			requests[name] = q
		}
	}
	for name, q := range r.Limits {
		if _, ok := requests[name]; !ok && resources.IsSupportedPodLevelResource(name) {
			requests[name] = q.DeepCopy()
		}
	}
	if len(requests) > 0 {
		r.Requests = requests
	}
}

func isHugePages(name corev1.ResourceName) bool {
	return strings.HasPrefix(string(name), corev1.ResourceHugePagesPrefix)
}

// aggregateContainers is AggregateContainerRequests (AggregateContainerLimits when
// limits) of the pod with zero options, as DefaultPodLevelResources calls them: they
// read the regular and init containers only (ephemeral containers do not count, and
// without options neither does the status). The result's quantities are copies.
// (Called directly rather than through a function value, which would make every
// defaulted pod escape to the heap.)
func aggregateContainers(pod *corev1.Pod, limits bool) corev1.ResourceList {
	var list corev1.ResourceList
	if limits {
		list = resources.AggregateContainerLimits(pod, resources.PodResourcesOptions{})
	} else {
		list = resources.AggregateContainerRequests(pod, resources.PodResourcesOptions{})
	}
	for name, q := range list {
		list[name] = q.DeepCopy()
	}
	return list
}

// podQOS is the class PrepareForCreate stores in status.qosClass.
func podQOS(pod *corev1.Pod, g *gates.Set) corev1.PodQOSClass {
	return resources.ComputePodQOSWithOptions(pod, resources.QOSOptions{
		DisablePodLevelResources:                   !g.PodLevelResources,
		DisablePodLevelResourcesFixKubeletQOSClass: !g.PodLevelResourcesFixKubeletQOSClass,
	})
}
