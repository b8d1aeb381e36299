package defaulting

import (
	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"

	"github.com/podlife/podlife/internal/gates"
)

// PodForUpdate returns what a v1.37.2 API server makes of an update of the stored
// pod oldPod to newPod before validating it: a deep copy of newPod with the v1 defaults
// the decoder applies (SetObjectDefaults_Pod), the generation carried over from oldPod
// (rest.BeforeUpdate), then the pod registry's PrepareForUpdate (k8s.io/kubernetes
// pkg/registry/core/pod/strategy.go): the status replaced by oldPod's, spec.resources
// kept from oldPod when the client dropped it, the fields of disabled features dropped
// unless oldPod already uses them, and the generation bumped when the spec changed.
//
// oldPod should be the stored object (for example the result of [Pod]); it is not
// modified. A nil newPod gives nil; a nil oldPod is treated as an empty pod. The
// resize and status subresources, which use other strategies, are not covered.
func PodForUpdate(newPod, oldPod *corev1.Pod, opts Options) *corev1.Pod {
	if newPod == nil {
		return nil
	}
	if oldPod == nil {
		oldPod = &corev1.Pod{}
	}
	gs := opts.Features.Resolve()
	g := &gs
	out := newPod.DeepCopy()
	defaultPodObject(out, g)
	out.Generation = oldPod.Generation
	out.Status = *oldPod.Status.DeepCopy()
	if g.PodLevelResourcesFixDefaulting && out.Spec.Resources == nil && oldPod.Spec.Resources != nil {
		// Clients unaware of pod-level resources must not drop them.
		out.Spec.Resources = oldPod.Spec.Resources.DeepCopy()
	}
	dropDisabledSpecFields(&out.Spec, &oldPod.Spec, g)
	dropInitContainerAnnotations(out.Annotations)
	dropDisabledStatusFields(&out.Status, &oldPod.Spec, g)
	if !apiequality.Semantic.DeepEqual(out.Spec, oldPod.Spec) {
		out.Generation++
	}
	return out
}

// dropDisabledStatusFields mirrors dropDisabledPodStatusFields for an update, where the
// status is the stored one: fields judged by the stored status itself are kept (they
// are in use exactly when set), so only the checks that look at the stored spec, and
// the empty-list normalisations, can change anything.
func dropDisabledStatusFields(st *corev1.PodStatus, oldSpec *corev1.PodSpec, g *gates.Set) {
	statuses := [3][]corev1.ContainerStatus{st.InitContainerStatuses, st.ContainerStatuses, st.EphemeralContainerStatuses}
	if !g.InPlacePodVerticalScaling && !resizePolicyInUse(oldSpec) {
		for _, list := range statuses {
			for i := range list {
				list[i].Resources = nil
				list[i].AllocatedResources = nil
			}
		}
	}
	if !g.DynamicResourceAllocation && len(oldSpec.ResourceClaims) == 0 {
		st.ResourceClaimStatuses = nil
	}
	if !g.RecursiveReadOnlyMounts && !anyContainer(oldSpec, recursiveReadOnlySet) {
		for _, list := range statuses {
			for i := range list {
				list[i].VolumeMounts = nil
			}
		}
	}
	if !g.SupplementalGroupsPolicy && !supplementalGroupsPolicyInUse(oldSpec) {
		for _, list := range statuses {
			for i := range list {
				list[i].User = nil
			}
		}
	}
	if !g.ResourceHealthStatus {
		inUse := false
		for _, list := range statuses {
			for i := range list {
				inUse = inUse || len(list[i].AllocatedResourcesStatus) > 0
			}
		}
		if !inUse {
			for _, list := range statuses {
				for i := range list {
					list[i].AllocatedResourcesStatus = nil
				}
			}
		}
	}
	if !g.DRANodeAllocatableResources && len(st.NodeAllocatableResourceClaimStatuses) == 0 {
		st.NodeAllocatableResourceClaimStatuses = nil
	}
	if !g.CSIVolumeHealth && len(st.VolumeHealth) == 0 {
		st.VolumeHealth = nil
	}
}
