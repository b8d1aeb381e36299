package podlife

import (
	"strings"

	corev1 "k8s.io/api/core/v1"

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
func defaultPodLevelResources(pod *corev1.Pod, g FeatureGates) {
	if !g.Enabled("PodLevelResources") || !g.Enabled("PodLevelResourcesFixDefaulting") {
		return
	}
	r := pod.Spec.Resources
	if r == nil || (len(r.Requests) == 0 && len(r.Limits) == 0) {
		return
	}
	spec := &pod.Spec

	// 1. Hugepage limits.
	limits := r.Limits
	if limits == nil {
		limits = corev1.ResourceList{}
	}
	for name, q := range aggregateContainerResources(spec, containerLimits) {
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

	// 2. Requests.
	requests := r.Requests
	if requests == nil {
		requests = corev1.ResourceList{}
	}
	for name, q := range aggregateContainerResources(spec, containerRequests) {
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
	forEachContainer(spec, func(c *corev1.Container) {
		for name := range candidates {
			if _, ok := c.Resources.Limits[name]; !ok {
				delete(candidates, name)
			}
		}
	})
	if len(candidates) == 0 {
		return
	}
	aggregate := aggregateContainerResources(spec, containerLimits)
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
	spec := &pod.Spec
	if len(r.Limits) > 0 || len(r.Requests) > 0 {
		limits := r.Limits
		if limits == nil {
			limits = corev1.ResourceList{}
		}
		for name, q := range aggregateContainerResources(spec, containerLimits) {
			if !isHugePages(name) {
				continue
			}
			if _, ok := r.Requests[name]; ok {
				continue
			}
			if _, ok := limits[name]; !ok {
				limits[name] = q.DeepCopy()
			}
		}
		if len(limits) > 0 {
			r.Limits = limits
		}
	}
	if len(r.Limits) == 0 {
		return
	}
	requests := r.Requests
	if requests == nil {
		requests = corev1.ResourceList{}
	}
	for name, q := range aggregateContainerResources(spec, containerRequests) {
		if _, ok := requests[name]; !ok && (name == corev1.ResourceCPU || name == corev1.ResourceMemory) {
			requests[name] = q.DeepCopy()
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

func containerRequests(c *corev1.Container) corev1.ResourceList { return c.Resources.Requests }
func containerLimits(c *corev1.Container) corev1.ResourceList   { return c.Resources.Limits }

// aggregateContainerResources sums the regular containers and sidecars and takes, per
// resource, the max with each init container's peak (itself plus the sidecars started
// before it), with the arithmetic of k8s.io/component-helpers resource/helpers.go
// (AggregateContainerRequests/AggregateContainerLimits with zero options) so that the
// quantities keep upstream's formatting. Ephemeral containers do not count.
func aggregateContainerResources(spec *corev1.PodSpec, get func(*corev1.Container) corev1.ResourceList) corev1.ResourceList {
	sum := corev1.ResourceList{}
	for i := range spec.Containers {
		addResources(sum, get(&spec.Containers[i]))
	}
	sidecars := corev1.ResourceList{}
	peak := corev1.ResourceList{}
	for i := range spec.InitContainers {
		c := &spec.InitContainers[i]
		use := get(c)
		if c.RestartPolicy != nil && *c.RestartPolicy == corev1.ContainerRestartPolicyAlways {
			addResources(sum, use)
			addResources(sidecars, use)
			use = sidecars
		} else {
			combined := corev1.ResourceList{}
			addResources(combined, use)
			addResources(combined, sidecars)
			use = combined
		}
		maxResources(peak, use)
	}
	maxResources(sum, peak)
	out := make(corev1.ResourceList, len(sum))
	addResources(out, sum)
	return out
}

func addResources(list, add corev1.ResourceList) {
	for name, q := range add {
		if v, ok := list[name]; !ok {
			list[name] = q.DeepCopy()
		} else {
			v.Add(q)
			list[name] = v
		}
	}
}

func maxResources(list, other corev1.ResourceList) {
	for name, q := range other {
		if v, ok := list[name]; !ok || q.Cmp(v) > 0 {
			list[name] = q.DeepCopy()
		}
	}
}

// podQOS is the class PrepareForCreate stores in status.qosClass.
func podQOS(pod *corev1.Pod, g FeatureGates) corev1.PodQOSClass {
	return resources.ComputePodQOSWithOptions(pod, resources.QOSOptions{
		DisablePodLevelResources:                   !g.Enabled("PodLevelResources"),
		DisablePodLevelResourcesFixKubeletQOSClass: !g.Enabled("PodLevelResourcesFixKubeletQOSClass"),
	})
}
