package defaulting

import (
	"maps"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podlife/podlife/internal/gates"
)

// Options tunes the defaulting functions. The zero value is a default v1.37.2 API
// server at the zero time.
type Options struct {
	// Features overrides feature gates; nil means the v1.37.2 defaults.
	Features gates.FeatureGates
	// Now is the time the server stamps on conditions it adds at creation (the
	// PodScheduled=False "SchedulingGated" condition of a pod with scheduling gates).
	Now time.Time
	// ReadOnly promises that the caller will not modify the returned pod. The result
	// may then share with the input the metadata but for the annotations and every
	// object of the spec that defaulting leaves as it is (copy on write, share.go),
	// which saves most of the copy's work (validation uses it). The input is never
	// modified either way.
	ReadOnly bool
}

// Pod returns a deep copy of pod as a v1.37.2 API server stores it when the pod is
// created: the v1 defaulting (SetObjectDefaults_Pod) followed by the pod registry's
// PrepareForCreate. A nil pod gives nil. podlife.Default documents the contract.
func Pod(pod *corev1.Pod, opts Options) *corev1.Pod {
	if pod == nil {
		return nil
	}
	out := &corev1.Pod{}
	PodInto(pod, out, opts)
	return out
}

// PodInto is Pod writing the copy into out, whose previous content is discarded (a
// caller that keeps the copy in a local variable saves the allocation). pod must not
// be nil.
func PodInto(pod, out *corev1.Pod, opts Options) {
	// The status is not copied: PrepareForCreate replaces it.
	*out = corev1.Pod{TypeMeta: pod.TypeMeta}
	if opts.ReadOnly {
		// The pod path writes only scalars of the metadata, and deletes the
		// init-container annotations when there are any: the rest is shared.
		out.ObjectMeta = pod.ObjectMeta
		if hasInitContainerAnnotations(pod.Annotations) {
			out.Annotations = maps.Clone(pod.Annotations)
		}
	} else {
		copyObjectMeta(&pod.ObjectMeta, &out.ObjectMeta)
	}
	g := opts.Features.Resolve()
	var settled settledResources
	if opts.ReadOnly {
		settled = sharePodSpec(&pod.Spec, &out.Spec, &g)
	} else {
		copyPodSpec(&pod.Spec, &out.Spec, true, false)
	}
	defaultPodObjectSettled(out, &g, settled)
	prepareForCreate(out, &g, opts.Now)
}

// defaultPodObject mirrors the generated SetObjectDefaults_Pod of k8s.io/kubernetes
// pkg/apis/core/v1/zz_generated.defaults.go, status lists excluded: PrepareForCreate
// replaces the whole status right after.
func defaultPodObject(pod *corev1.Pod, g *gates.Set) {
	defaultPodObjectSettled(pod, g, settledResources{})
}

// defaultPodObjectSettled is defaultPodObject skipping the resource lists of the
// containers settled marks (which it leaves as they are anyway).
func defaultPodObjectSettled(pod *corev1.Pod, g *gates.Set, settled settledResources) {
	defaultPodOnly(pod, g, settled)
	defaultPodSpecSettled(&pod.Spec, g, settled)
}

// defaultPodOnly mirrors SetDefaults_Pod: the defaults a Pod gets and a pod template
// does not.
func defaultPodOnly(pod *corev1.Pod, g *gates.Set, settled settledResources) {
	spec := &pod.Spec
	if spec.TerminationGracePeriodSeconds != nil && *spec.TerminationGracePeriodSeconds < 0 {
		one := int64(1)
		spec.TerminationGracePeriodSeconds = &one
	}
	for i := range spec.Containers {
		if !settledAt(settled.regular, i) {
			defaultRequestsFromLimits(&spec.Containers[i].Resources)
		}
	}
	for i := range spec.InitContainers {
		if !settledAt(settled.init, i) {
			defaultRequestsFromLimits(&spec.InitContainers[i].Resources)
		}
	}
	if g.PodLevelResources && !g.PodLevelResourcesFixDefaulting {
		legacyDefaultPodLevelResources(pod)
	}
	if spec.EnableServiceLinks == nil {
		on := corev1.DefaultEnableServiceLinks
		spec.EnableServiceLinks = &on
	}
	if spec.HostNetwork {
		defaultHostNetworkPorts(spec.Containers)
		defaultHostNetworkPorts(spec.InitContainers)
	}
	if g.H2CContainerProbe {
		for i := range spec.Containers {
			defaultHTTPProtocols(&spec.Containers[i])
		}
		for i := range spec.InitContainers {
			defaultHTTPProtocols(&spec.InitContainers[i])
		}
		for i := range spec.EphemeralContainers {
			defaultHTTPProtocols((*corev1.Container)(&spec.EphemeralContainers[i].EphemeralContainerCommon))
		}
	}
}

// defaultRequestsFromLimits copies each limit without a request into the requests; a
// non-nil limits map always leaves a non-nil requests map.
func defaultRequestsFromLimits(r *corev1.ResourceRequirements) {
	if r.Limits == nil {
		return
	}
	if r.Requests == nil {
		r.Requests = make(corev1.ResourceList, len(r.Limits))
	}
	for name, q := range r.Limits {
		if _, ok := r.Requests[name]; !ok {
			r.Requests[name] = q.DeepCopy()
		}
	}
}

func defaultHostNetworkPorts(containers []corev1.Container) {
	for i := range containers {
		for j := range containers[i].Ports {
			if p := &containers[i].Ports[j]; p.HostPort == 0 {
				p.HostPort = p.ContainerPort
			}
		}
	}
}

func defaultHTTPProtocols(c *corev1.Container) {
	for _, p := range []*corev1.Probe{c.LivenessProbe, c.ReadinessProbe, c.StartupProbe} {
		if p != nil {
			defaultHTTPProtocol(p.HTTPGet)
		}
	}
	if c.Lifecycle != nil {
		for _, h := range []*corev1.LifecycleHandler{c.Lifecycle.PostStart, c.Lifecycle.PreStop} {
			if h != nil {
				defaultHTTPProtocol(h.HTTPGet)
			}
		}
	}
}

func defaultHTTPProtocol(a *corev1.HTTPGetAction) {
	if a != nil && a.Protocol == nil {
		p := corev1.HTTPProtocolHTTP1
		a.Protocol = &p
	}
}

// prepareForCreate mirrors podStrategy.PrepareForCreate of k8s.io/kubernetes
// pkg/registry/core/pod/strategy.go.
func prepareForCreate(pod *corev1.Pod, g *gates.Set, now time.Time) {
	pod.Generation = 1
	pod.Status = corev1.PodStatus{Phase: corev1.PodPending}
	dropDisabledSpecFields(&pod.Spec, nil, g)
	dropInitContainerAnnotations(pod.Annotations)
	if len(pod.Spec.SchedulingGates) > 0 {
		// The status was just reset, so there is no PodScheduled condition to keep.
		pod.Status.Conditions = append(pod.Status.Conditions, corev1.PodCondition{
			Type:               corev1.PodScheduled,
			Status:             corev1.ConditionFalse,
			Reason:             corev1.PodReasonSchedulingGated,
			Message:            "Scheduling is blocked due to non-empty scheduling gates",
			LastTransitionTime: metav1.NewTime(now),
		})
	}
	mergeAffinityLabelKeys(pod, g)
	mergeTopologySpreadLabelKeys(pod, g)
	syncAppArmorAnnotations(pod)
	defaultPodLevelResources(pod, g)
	pod.Status.QOSClass = podQOS(pod, g)
}

// initContainerAnnotations returns the init-container annotations of Kubernetes
// 1.5-1.7, which the server deletes on every write.
func initContainerAnnotations() [4]string {
	return [4]string{
		"pod.beta.kubernetes.io/init-containers",
		"pod.alpha.kubernetes.io/init-containers",
		"pod.beta.kubernetes.io/init-container-statuses",
		"pod.alpha.kubernetes.io/init-container-statuses",
	}
}

// dropInitContainerAnnotations removes the init-container annotations. It deletes
// only keys that are present, so that a map without them is only read (the
// read-only path shares such a map with the input).
func dropInitContainerAnnotations(annotations map[string]string) {
	for _, k := range initContainerAnnotations() {
		if _, ok := annotations[k]; ok {
			delete(annotations, k)
		}
	}
}

// hasInitContainerAnnotations reports whether dropInitContainerAnnotations would
// delete any key of annotations.
func hasInitContainerAnnotations(annotations map[string]string) bool {
	for _, k := range initContainerAnnotations() {
		if _, ok := annotations[k]; ok {
			return true
		}
	}
	return false
}
