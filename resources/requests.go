package resources

import (
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// ContainerType signifies container type (component-helpers' bit flags; no function of
// this package takes one).
type ContainerType int

const (
	// Containers is for normal containers.
	Containers ContainerType = 1 << iota
	// InitContainers is for init containers.
	InitContainers
)

// PodResourcesOptions controls the behavior of [PodRequests] and [PodLimits]. It has
// the fields and meaning of k8s.io/component-helpers/resource PodResourcesOptions
// (v0.37.2), so a caller switches by changing the import. The zero value computes from
// the spec alone, with pod-level resources and overhead.
type PodResourcesOptions struct {
	// Reuse, if provided, is emptied at the start of the call, used to accumulate the
	// result and returned by PodRequests (unless SkipContainerLevelResources is set),
	// PodLimits, AggregateContainerRequests and AggregateContainerLimits. All existing
	// values in Reuse are lost.
	Reuse corev1.ResourceList
	// UseStatusResources makes the computation take the larger of the spec and the
	// resources the status reports as allocated and actuated (in-place resize): per
	// resource, max(spec, actuated, allocated) of the container aggregates. When the
	// first PodResizePending condition has reason Infeasible the spec is left out and a
	// container without the status field contributes nothing. Upstream requires it to
	// be false when InPlacePodVerticalScaling is off (that gate is locked on in v1.37).
	UseStatusResources bool
	// InPlacePodLevelResourcesVerticalScalingEnabled, together with
	// UseStatusResources, makes the pod-level status (status.allocatedResources and
	// status.resources) stand for the container aggregates when populated, and the
	// pod-level values take the larger of spec.resources and that status. It must be
	// false if the InPlacePodLevelResourcesVerticalScaling gate is off.
	InPlacePodLevelResourcesVerticalScalingEnabled bool
	// ExcludeOverhead leaves spec.overhead out. By default it is added to every request
	// and to every limit that is present and non-zero.
	ExcludeOverhead bool
	// NonMissingContainerRequests, if provided, gives every container (regular, init
	// and sidecar) that lacks a request for one of its resources that value. Requests
	// set explicitly, even to zero, are kept. It never affects limits.
	NonMissingContainerRequests corev1.ResourceList
	// SkipPodLevelResources leaves spec.resources out. Pod-level resources are also
	// left out when they name no supported resource (see IsPodLevelRequestsSet and
	// IsPodLevelResourcesSet).
	SkipPodLevelResources bool
	// SkipContainerLevelResources makes PodRequests start from an empty list instead of
	// the container aggregate. PodLimits ignores it, as upstream does.
	SkipContainerLevelResources bool
	// UseDRANodeAllocatableResourceClaimStatus adds the node-allocatable resources of
	// status.nodeAllocatableResourceClaimStatuses (DRANodeAllocatableResources, alpha).
	UseDRANodeAllocatableResourceClaimStatus bool
}

// emptyPod stands for a nil pod. It is never written to.
var emptyPod corev1.Pod

func orEmpty(pod *corev1.Pod) *corev1.Pod {
	if pod == nil {
		return &emptyPod
	}
	return pod
}

// PodRequests computes the effective requests of a pod per the options, as the
// scheduler, the resource quota and the kubelet do (component-helpers
// resource.PodRequests, v0.37.2):
//
//  1. the container aggregate (see [AggregateContainerRequests]), unless
//     SkipContainerLevelResources;
//  2. pod-level requests (spec.resources.requests) replace it for the supported
//     resources they name (cpu, memory, hugepages-*), unless SkipPodLevelResources;
//  3. spec.overhead is added, unless ExcludeOverhead.
//
// The computation is part of the Kubernetes API. A nil pod is treated as an empty pod
// (upstream panics).
func PodRequests(pod *corev1.Pod, opts PodResourcesOptions) corev1.ResourceList {
	pod = orEmpty(pod)
	var t table
	var out corev1.ResourceList
	if !opts.SkipContainerLevelResources {
		clear(opts.Reuse)
		out = opts.Reuse
	}
	podRequests(pod, &opts, &t, nil)
	return t.output(out)
}

// podRequests fills the empty table t with the pod's requests.
func podRequests(pod *corev1.Pod, opts *PodResourcesOptions, t *table, rec *recorder) {
	if !opts.SkipContainerLevelResources {
		aggregateRequests(pod, opts, t, rec)
	}
	if rec != nil {
		rec.aggregate(t)
	}
	if !opts.SkipPodLevelResources && pod.Spec.Resources != nil {
		spec := pod.Spec.Resources.Requests
		if opts.InPlacePodLevelResourcesVerticalScalingEnabled && opts.UseStatusResources && pod.Status.Resources != nil {
			if IsPodLevelRequestsSet(pod) {
				applyEffectivePodLevel(t, pod, rec, spec, pod.Status.Resources.Requests, pod.Status.AllocatedResources)
			}
		} else {
			// Applying the spec's supported resources is a no-op exactly when
			// IsPodLevelRequestsSet is false, so the test is left out.
			applyPodLevel(t, spec, rec)
		}
	}
	if !opts.ExcludeOverhead {
		if rec != nil {
			rec.overhead(t, pod.Spec.Overhead, false)
		}
		t.addList(pod.Spec.Overhead)
	}
}

// applyPodLevel replaces the supported resources of t with the pod-level values.
func applyPodLevel(t *table, list corev1.ResourceList, rec *recorder) {
	eachEntry(list, func(name corev1.ResourceName, q resource.Quantity) {
		if IsSupportedPodLevelResource(name) {
			if rec != nil {
				rec.podLevel(name, q, false)
			}
			t.set(name, q)
		}
	})
}

// applyEffectivePodLevel applies, as applyPodLevel does, the per-resource max of the
// pod-level spec and status lists; the spec is left out when the resize is
// infeasible.
func applyEffectivePodLevel(t *table, pod *corev1.Pod, rec *recorder, spec corev1.ResourceList, status ...corev1.ResourceList) {
	var e table
	if !IsPodResizeInfeasible(pod) {
		e.maxList(spec)
	}
	for _, l := range status {
		e.maxList(l)
	}
	for i := 0; i < e.n; i++ {
		if s := e.slot(i); IsSupportedPodLevelResource(s.name) {
			if rec != nil {
				rec.podLevel(s.name, s.sum, true)
			}
			t.set(s.name, s.sum)
		}
	}
}

// aggregateRequests fills the empty table t with the container part of the requests.
func aggregateRequests(pod *corev1.Pod, opts *PodResourcesOptions, t *table, rec *recorder) {
	a := aggregation{pod: pod, src: specRequests, rec: rec}
	if len(opts.NonMissingContainerRequests) > 0 {
		var buf [2]namedQuantity
		a.nonMissing = nonMissingValues(opts.NonMissingContainerRequests, buf[:0])
	}
	if !opts.UseStatusResources {
		a.run(t)
		addDRA(t, pod, opts)
		return
	}
	if rec != nil {
		explainStatusRequests(&a, pod, opts, t, rec)
		return
	}
	statusRequests(&a, pod, opts, t)
}

// statusRequests is aggregateRequests with UseStatusResources, into the empty table
// t. Upstream starts from a copy of the spec aggregate (left out when the resize is
// infeasible), then takes the strictly larger actuated values, then the strictly
// larger allocated ones; the first aggregate is computed in t itself and the others
// in turn in one more table. It is a function of its own so that the common path
// does not reserve stack for that table.
func statusRequests(a *aggregation, pod *corev1.Pod, opts *PodResourcesOptions, t *table) {
	infeasible := IsPodResizeInfeasible(pod)
	st := &pod.Status
	// The pod-level status, when populated, already sums the containers (and DRA).
	fromPod := opts.InPlacePodLevelResourcesVerticalScalingEnabled && st.AllocatedResources != nil && st.Resources != nil && st.Resources.Requests != nil
	var tmp table
	act := &tmp
	if infeasible {
		act = t
	} else {
		a.run(t)
		addDRA(t, pod, opts)
	}
	a.infeasible = infeasible
	if fromPod {
		act.addList(st.Resources.Requests)
	} else {
		a.src = actuatedRequests
		a.run(act)
	}
	if act == &tmp {
		t.maxTable(&tmp)
		tmp = table{}
	}
	if fromPod {
		tmp.addList(st.AllocatedResources)
	} else {
		a.src = allocatedRequests
		a.run(&tmp)
		addDRA(&tmp, pod, opts)
	}
	t.maxTable(&tmp)
}

// explainStatusRequests is statusRequests for Explain, which records the spec, the
// allocated and the actuated aggregates each in a table of its own.
func explainStatusRequests(a *aggregation, pod *corev1.Pod, opts *PodResourcesOptions, t *table, rec *recorder) {
	infeasible := IsPodResizeInfeasible(pod)
	var spec, alloc, act table
	a.run(&spec)
	addDRA(&spec, pod, opts)
	a.rec = nil
	a.infeasible = infeasible
	st := &pod.Status
	if opts.InPlacePodLevelResourcesVerticalScalingEnabled && st.AllocatedResources != nil && st.Resources != nil && st.Resources.Requests != nil {
		alloc.addList(st.AllocatedResources)
		act.addList(st.Resources.Requests)
		rec.statusSource = statusFromPod
	} else {
		a.src = allocatedRequests
		a.run(&alloc)
		addDRA(&alloc, pod, opts)
		a.src = actuatedRequests
		a.run(&act)
	}
	rec.status(&spec, &alloc, &act, infeasible)
	if !infeasible {
		t.maxTable(&spec)
	}
	t.maxTable(&act)
	t.maxTable(&alloc)
}

// AggregateContainerRequests computes the requests of a pod's containers, without
// pod-level resources and overhead, following the sidecar KEP's formula (KEP 753):
//
//	max( Σ regular containers + Σ sidecars, max over init containers i of InitUse(i) )
//
// where InitUse(i) is the sum of the sidecars declared before init container i plus
// container i itself. With UseStatusResources the result is the per-resource max of
// this aggregate over the spec, the allocated and the actuated resources (see
// [PodResourcesOptions]). A nil pod is treated as an empty pod (upstream panics).
func AggregateContainerRequests(pod *corev1.Pod, opts PodResourcesOptions) corev1.ResourceList {
	pod = orEmpty(pod)
	clear(opts.Reuse)
	var t table
	aggregateRequests(pod, &opts, &t, nil)
	return t.output(opts.Reuse)
}

// PodLimits computes the effective limits of a pod per the options
// (component-helpers resource.PodLimits, v0.37.2):
//
//  1. the container aggregate (see [AggregateContainerLimits]); a container without a
//     limit for a resource contributes nothing to it, so a missing entry means that no
//     container limits the resource (there is no "unlimited" marker);
//  2. pod-level limits replace it for the supported resources they name, unless
//     SkipPodLevelResources (pod-level applies as soon as spec.resources names a
//     supported resource in requests or limits);
//  3. spec.overhead is added to every limit that is present and non-zero, unless
//     ExcludeOverhead.
//
// SkipContainerLevelResources and NonMissingContainerRequests are ignored. A nil pod is
// treated as an empty pod (upstream panics).
func PodLimits(pod *corev1.Pod, opts PodResourcesOptions) corev1.ResourceList {
	pod = orEmpty(pod)
	clear(opts.Reuse)
	var t table
	podLimits(pod, &opts, &t, nil)
	return t.output(opts.Reuse)
}

// podLimits fills the empty table t with the pod's limits.
func podLimits(pod *corev1.Pod, opts *PodResourcesOptions, t *table, rec *recorder) {
	aggregateLimits(pod, opts, t, rec)
	if rec != nil {
		rec.aggregate(t)
	}
	if !opts.SkipPodLevelResources && pod.Spec.Resources != nil {
		spec := pod.Spec.Resources.Limits
		if opts.InPlacePodLevelResourcesVerticalScalingEnabled && opts.UseStatusResources && pod.Status.Resources != nil {
			if IsPodLevelResourcesSet(pod) {
				applyEffectivePodLevel(t, pod, rec, spec, pod.Status.Resources.Limits)
			}
		} else {
			// Upstream applies the limits when requests or limits name a supported
			// resource; when only the requests do, applying the limits' supported
			// resources is a no-op, so the test is left out.
			applyPodLevel(t, spec, rec)
		}
	}
	if !opts.ExcludeOverhead {
		if rec != nil {
			rec.overhead(t, pod.Spec.Overhead, true)
		}
		addLimitOverhead(t, pod.Spec.Overhead)
	}
}

// addLimitOverhead adds overhead to the limits that are present and non-zero.
func addLimitOverhead(t *table, overhead corev1.ResourceList) {
	eachEntry(overhead, func(name corev1.ResourceName, q resource.Quantity) {
		if v, ok := t.get(name); ok && !v.IsZero() {
			v.Add(q)
		}
	})
}

// AggregateContainerLimits computes the limits of a pod's containers, without
// pod-level resources and overhead, with the formula of [AggregateContainerRequests].
// With UseStatusResources it is the per-resource max of the spec and the actuated
// limits (the actuated ones alone when the resize is infeasible).
// NonMissingContainerRequests is ignored. A nil pod is treated as an empty pod.
func AggregateContainerLimits(pod *corev1.Pod, opts PodResourcesOptions) corev1.ResourceList {
	pod = orEmpty(pod)
	clear(opts.Reuse)
	var t table
	aggregateLimits(pod, &opts, &t, nil)
	return t.output(opts.Reuse)
}

// aggregateLimits fills the empty table t with the container part of the limits.
func aggregateLimits(pod *corev1.Pod, opts *PodResourcesOptions, t *table, rec *recorder) {
	a := aggregation{pod: pod, src: specLimits, rec: rec}
	if !opts.UseStatusResources {
		a.run(t)
		addDRALimits(t, pod, opts)
		return
	}
	if rec != nil {
		explainStatusLimits(&a, pod, opts, t, rec)
		return
	}
	statusLimits(&a, pod, opts, t)
}

// statusLimits is aggregateLimits with UseStatusResources, into the empty table t:
// the spec aggregate (left out when the resize is infeasible), then the strictly
// larger actuated values, as statusRequests does.
func statusLimits(a *aggregation, pod *corev1.Pod, opts *PodResourcesOptions, t *table) {
	infeasible := IsPodResizeInfeasible(pod)
	st := &pod.Status
	fromPod := opts.InPlacePodLevelResourcesVerticalScalingEnabled && st.Resources != nil && st.Resources.Limits != nil
	var tmp table
	act := &tmp
	if infeasible {
		act = t
	} else {
		a.run(t)
		addDRALimits(t, pod, opts)
	}
	if fromPod {
		act.addList(st.Resources.Limits)
	} else {
		a.src = actuatedLimits
		a.infeasible = infeasible
		a.run(act)
	}
	if act == &tmp {
		t.maxTable(&tmp)
	}
}

// explainStatusLimits is statusLimits for Explain, with a table per aggregate.
func explainStatusLimits(a *aggregation, pod *corev1.Pod, opts *PodResourcesOptions, t *table, rec *recorder) {
	infeasible := IsPodResizeInfeasible(pod)
	var spec, act table
	a.run(&spec)
	addDRALimits(&spec, pod, opts)
	st := &pod.Status
	if opts.InPlacePodLevelResourcesVerticalScalingEnabled && st.Resources != nil && st.Resources.Limits != nil {
		act.addList(st.Resources.Limits)
		rec.statusSource = statusFromPod
	} else {
		a.rec = nil
		a.src = actuatedLimits
		a.infeasible = infeasible
		a.run(&act)
	}
	rec.status(&spec, nil, &act, infeasible)
	if !infeasible {
		t.maxTable(&spec)
	}
	t.maxTable(&act)
}

// addDRA adds the node-allocatable resources of the pod's resource claims to t when
// the option asks for them. Every claim counts, whichever containers reference it.
func addDRA(t *table, pod *corev1.Pod, opts *PodResourcesOptions) {
	if !opts.UseDRANodeAllocatableResourceClaimStatus {
		return
	}
	for i := range pod.Status.NodeAllocatableResourceClaimStatuses {
		cs := &pod.Status.NodeAllocatableResourceClaimStatuses[i]
		for _, m := range cs.Mapping {
			if m.Quantity != nil {
				t.addRaw(m.Name, *m.Quantity)
			}
		}
		for _, o := range cs.Overhead {
			t.addRaw(o.Name, claimOverhead(o, len(cs.Containers), true))
		}
	}
}

// claimOverhead is the amount one overhead entry of a claim adds: perPod, plus
// perContainer once per container (perContainerTimes) or once.
func claimOverhead(o corev1.NodeAllocatableOverheadResources, containers int, perContainerTimes bool) resource.Quantity {
	var q resource.Quantity
	if o.PerPod != nil {
		q.Add(*o.PerPod)
	}
	if o.PerContainer != nil {
		if !perContainerTimes {
			q.Add(*o.PerContainer)
		} else if containers > 0 {
			v := o.PerContainer.DeepCopy()
			v.Mul(int64(containers))
			q.Add(v)
		}
	}
	return q
}

// addDRALimits adds the claims' node-allocatable resources to the limits already
// declared, and to hugepages-* in any case (hugepages cannot be overcommitted).
func addDRALimits(t *table, pod *corev1.Pod, opts *PodResourcesOptions) {
	if !opts.UseDRANodeAllocatableResourceClaimStatus || len(pod.Status.NodeAllocatableResourceClaimStatuses) == 0 {
		return
	}
	var dra table
	addDRA(&dra, pod, opts)
	for i := 0; i < dra.n; i++ {
		d := dra.slot(i)
		if v, ok := t.get(d.name); ok {
			v.Add(d.sum)
		} else if strings.HasPrefix(string(d.name), corev1.ResourceHugePagesPrefix) {
			t.addRaw(d.name, d.sum)
		}
	}
}

// GetContainerDRAAllocations returns the node-allocatable resources of the resource
// claims that name the container: mapped quantities plus, per overhead entry, perPod
// and perContainer once. A nil pod has none.
func GetContainerDRAAllocations(pod *corev1.Pod, containerName string) corev1.ResourceList {
	out := make(corev1.ResourceList)
	if pod == nil {
		return out
	}
	for i := range pod.Status.NodeAllocatableResourceClaimStatuses {
		cs := &pod.Status.NodeAllocatableResourceClaimStatuses[i]
		if !slices.Contains(cs.Containers, containerName) {
			continue
		}
		for _, m := range cs.Mapping {
			if m.Quantity != nil {
				q := out[m.Name]
				q.Add(*m.Quantity)
				out[m.Name] = q
			}
		}
		for _, o := range cs.Overhead {
			q := out[o.Name]
			q.Add(claimOverhead(o, 0, false))
			out[o.Name] = q
		}
	}
	return out
}
