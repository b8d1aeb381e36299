package resources

import (
	corev1 "k8s.io/api/core/v1"
)

// QOSOptions selects the feature-gate dependent behaviour of [ComputePodQOSWithOptions].
//
// The fields are named so that the zero value is a default Kubernetes v1.37.2 cluster,
// where both PodLevelResources and PodLevelResourcesFixKubeletQOSClass are on. Callers
// holding a podlife.FeatureGates fill it as
//
//	QOSOptions{
//		DisablePodLevelResources:                   !gates.Enabled("PodLevelResources"),
//		DisablePodLevelResourcesFixKubeletQOSClass: !gates.Enabled("PodLevelResourcesFixKubeletQOSClass"),
//	}
type QOSOptions struct {
	// DisablePodLevelResources models the PodLevelResources gate turned off:
	// spec.resources is then never looked at and the class comes from the containers.
	DisablePodLevelResources bool
	// DisablePodLevelResourcesFixKubeletQOSClass models the
	// PodLevelResourcesFixKubeletQOSClass gate turned off: any non-nil spec.resources,
	// even an empty one or one naming only unsupported resources, then decides the
	// class on its own. With the gate on (the default) spec.resources decides only when
	// [IsPodLevelResourcesSet] is true.
	DisablePodLevelResourcesFixKubeletQOSClass bool
}

// GetPodQOS returns status.qosClass when it is set, and otherwise [ComputePodQOS].
// A nil pod is BestEffort.
func GetPodQOS(pod *corev1.Pod) corev1.PodQOSClass {
	return GetPodQOSWithOptions(pod, QOSOptions{})
}

// GetPodQOSWithOptions is [GetPodQOS] with explicit gate choices.
func GetPodQOSWithOptions(pod *corev1.Pod, opts QOSOptions) corev1.PodQOSClass {
	if pod != nil && pod.Status.QOSClass != "" {
		return pod.Status.QOSClass
	}
	return ComputePodQOSWithOptions(pod, opts)
}

// ComputePodQOS evaluates the QoS class of a pod from its resources, as the API server
// does on create and the kubelet does on admission in a default v1.37.2 cluster:
//
//   - when spec.resources names cpu, memory or a hugepages-* resource, the pod-level
//     requirements alone decide;
//   - otherwise every init container (sidecars included) and every regular container
//     is classified on its own, and the pod is Guaranteed or BestEffort only if all of
//     them are, Burstable otherwise. Ephemeral containers are ignored.
//
// A set of requirements is BestEffort when it has no requests and no limits at all;
// otherwise only cpu and memory count: a resource whose request differs numerically from
// its limit (a missing value is zero) makes it Burstable, cpu and memory both at zero
// make it BestEffort, both non-zero and equal make it Guaranteed, and a mix is
// Burstable. Limits without requests are therefore Burstable on an object that was not
// defaulted (the API server copies limits into missing requests first).
//
// A pod without containers, and a nil pod (upstream panics), are BestEffort.
func ComputePodQOS(pod *corev1.Pod) corev1.PodQOSClass {
	return ComputePodQOSWithOptions(pod, QOSOptions{})
}

// ComputePodQOSWithOptions is [ComputePodQOS] with explicit gate choices.
func ComputePodQOSWithOptions(pod *corev1.Pod, opts QOSOptions) corev1.PodQOSClass {
	if pod == nil {
		return corev1.PodQOSBestEffort
	}
	if r := pod.Spec.Resources; !opts.DisablePodLevelResources && r != nil &&
		(opts.DisablePodLevelResourcesFixKubeletQOSClass || IsPodLevelResourcesSet(pod)) {
		return requirementsQOS(r)
	}
	var class corev1.PodQOSClass
	for _, list := range [2][]corev1.Container{pod.Spec.InitContainers, pod.Spec.Containers} {
		for i := range list {
			c := requirementsQOS(&list[i].Resources)
			switch {
			case c == corev1.PodQOSBurstable:
				return c
			case class == "":
				class = c
			case class != c:
				// One BestEffort and one Guaranteed container.
				return corev1.PodQOSBurstable
			}
		}
	}
	if class == "" {
		return corev1.PodQOSBestEffort
	}
	return class
}

// requirementsQOS classifies one set of requirements by its cpu and memory shapes.
func requirementsQOS(r *corev1.ResourceRequirements) corev1.PodQOSClass {
	if len(r.Requests) == 0 && len(r.Limits) == 0 {
		return corev1.PodQOSBestEffort
	}
	cpu := resourceQOS(r, corev1.ResourceCPU)
	if cpu == corev1.PodQOSBurstable {
		return cpu
	}
	if resourceQOS(r, corev1.ResourceMemory) != cpu {
		return corev1.PodQOSBurstable
	}
	return cpu
}

// resourceQOS is the shape of one resource: Burstable when request != limit,
// BestEffort when both are zero, Guaranteed when both are equal and non-zero.
func resourceQOS(r *corev1.ResourceRequirements, name corev1.ResourceName) corev1.PodQOSClass {
	req, lim := r.Requests[name], r.Limits[name]
	switch {
	case req.Cmp(lim) != 0:
		return corev1.PodQOSBurstable
	case req.IsZero():
		return corev1.PodQOSBestEffort
	default:
		return corev1.PodQOSGuaranteed
	}
}
