package defaulting

import (
	"maps"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The defaulting functions return a deep copy, and on a typical pod the copy costs
// more than the defaulting itself: the generated DeepCopy allocates every probe,
// HTTP action, env source and field selector of every container on its own, and
// rebuilds each resource list entry by entry. copyPodSpec makes the same deep copy
// with one allocation per kind of object for all containers together, and clones
// resource lists whole. Whatever it does not take out by hand it leaves to the
// generated DeepCopyInto, so fields added to k8s.io/api later are still copied.

// copyObjectMeta deep-copies in into out, cloning labels and annotations whole.
func copyObjectMeta(in, out *metav1.ObjectMeta) {
	rest := *in
	rest.Labels, rest.Annotations = nil, nil
	rest.DeepCopyInto(out)
	out.Labels = maps.Clone(in.Labels)
	out.Annotations = maps.Clone(in.Annotations)
}

// copyPodSpec deep-copies in into out. With roundedLater, the caller promises to
// round every resource quantity of the init and regular containers before anyone
// else sees out (defaultPodSpec does): rounding replaces each big decimal with a new
// one, so those lists are cloned without copying their big decimals first. With
// shareUnchanged, the caller promises to modify neither out nor in afterwards except
// through the pod defaulting (DefaultOptions.ReadOnly): container resource lists that
// the defaulting leaves as they are (see changedByPodDefaulting) are shared, not cloned.
func copyPodSpec(in, out *corev1.PodSpec, roundedLater, shareUnchanged bool) {
	rest := *in
	rest.InitContainers, rest.Containers = nil, nil
	rest.DeepCopyInto(out)
	var n slabCounts
	n.add(in.InitContainers)
	n.add(in.Containers)
	s := newContainerSlabs(n)
	s.shareDecimals = roundedLater
	s.shareUnchanged = shareUnchanged
	out.InitContainers = s.copyContainers(in.InitContainers)
	out.Containers = s.copyContainers(in.Containers)
}

// slabCounts are the numbers of objects of each kind the containers hold.
type slabCounts struct {
	ports, mounts, env, envSources, fieldRefs, probes, httpGets int
	envFrom, configMapRefs, secretRefs                          int
}

func (n *slabCounts) add(containers []corev1.Container) {
	for i := range containers {
		n.addContainer(&containers[i])
	}
}

func (n *slabCounts) addContainer(c *corev1.Container) {
	n.ports += len(c.Ports)
	n.mounts += len(c.VolumeMounts)
	n.env += len(c.Env)
	n.envFrom += len(c.EnvFrom)
	for j := range c.EnvFrom {
		if c.EnvFrom[j].ConfigMapRef != nil {
			n.configMapRefs++
		}
		if c.EnvFrom[j].SecretRef != nil {
			n.secretRefs++
		}
	}
	for j := range c.Env {
		if src := c.Env[j].ValueFrom; src != nil {
			n.envSources++
			if src.FieldRef != nil {
				n.fieldRefs++
			}
		}
	}
	for _, p := range [...]*corev1.Probe{c.LivenessProbe, c.ReadinessProbe, c.StartupProbe} {
		if p != nil {
			n.probes++
			if p.HTTPGet != nil {
				n.httpGets++
			}
		}
	}
}

// containerSlabs hands out the memory of the copies, one backing array per kind.
type containerSlabs struct {
	ports      []corev1.ContainerPort
	mounts     []corev1.VolumeMount
	env        []corev1.EnvVar
	envSources []corev1.EnvVarSource
	fieldRefs  []corev1.ObjectFieldSelector
	probes     []corev1.Probe
	httpGets   []corev1.HTTPGetAction
	envFrom    []corev1.EnvFromSource
	cmRefs     []corev1.ConfigMapEnvSource
	secretRefs []corev1.SecretEnvSource

	// shareDecimals: resource lists may keep the input's big decimals (see copyPodSpec).
	shareDecimals bool
	// shareUnchanged: resource lists the pod defaulting leaves alone are shared.
	shareUnchanged bool
}

func newContainerSlabs(n slabCounts) *containerSlabs {
	return &containerSlabs{
		ports:      makeSlab[corev1.ContainerPort](n.ports),
		mounts:     makeSlab[corev1.VolumeMount](n.mounts),
		env:        makeSlab[corev1.EnvVar](n.env),
		envSources: makeSlab[corev1.EnvVarSource](n.envSources),
		fieldRefs:  makeSlab[corev1.ObjectFieldSelector](n.fieldRefs),
		probes:     makeSlab[corev1.Probe](n.probes),
		httpGets:   makeSlab[corev1.HTTPGetAction](n.httpGets),
		envFrom:    makeSlab[corev1.EnvFromSource](n.envFrom),
		cmRefs:     makeSlab[corev1.ConfigMapEnvSource](n.configMapRefs),
		secretRefs: makeSlab[corev1.SecretEnvSource](n.secretRefs),
	}
}

func makeSlab[T any](n int) []T {
	if n == 0 {
		return nil
	}
	return make([]T, n)
}

// take returns the next n elements of a slab, capped so that appending to one copy
// never writes into another. A non-nil empty input gives a non-nil empty slice, as
// the generated DeepCopy does.
func take[T any](slab *[]T, n int) []T {
	if n == 0 {
		return []T{}
	}
	s := (*slab)[:n:n]
	*slab = (*slab)[n:]
	return s
}

// next returns a pointer to the next element of a slab.
func next[T any](slab *[]T) *T {
	p := &(*slab)[0]
	*slab = (*slab)[1:]
	return p
}

func (s *containerSlabs) copyContainers(in []corev1.Container) []corev1.Container {
	if in == nil {
		return nil
	}
	out := make([]corev1.Container, len(in))
	for i := range in {
		s.copyContainer(&in[i], &out[i])
	}
	return out
}

func (s *containerSlabs) copyContainer(in, out *corev1.Container) {
	rest := *in
	rest.Ports, rest.VolumeMounts, rest.Env, rest.EnvFrom = nil, nil, nil, nil
	rest.Resources.Limits, rest.Resources.Requests = nil, nil
	rest.LivenessProbe, rest.ReadinessProbe, rest.StartupProbe = nil, nil, nil
	rest.DeepCopyInto(out)

	if in.Ports != nil {
		out.Ports = take(&s.ports, len(in.Ports))
		for j := range in.Ports {
			in.Ports[j].DeepCopyInto(&out.Ports[j])
		}
	}
	if in.VolumeMounts != nil {
		out.VolumeMounts = take(&s.mounts, len(in.VolumeMounts))
		for j := range in.VolumeMounts {
			in.VolumeMounts[j].DeepCopyInto(&out.VolumeMounts[j])
		}
	}
	if in.Env != nil {
		out.Env = take(&s.env, len(in.Env))
		for j := range in.Env {
			out.Env[j] = in.Env[j]
			if src := in.Env[j].ValueFrom; src != nil {
				out.Env[j].ValueFrom = s.copyEnvSource(src)
			}
		}
	}
	if in.EnvFrom != nil {
		out.EnvFrom = take(&s.envFrom, len(in.EnvFrom))
		for j := range in.EnvFrom {
			e := in.EnvFrom[j]
			e.ConfigMapRef, e.SecretRef = nil, nil
			e.DeepCopyInto(&out.EnvFrom[j])
			if ref := in.EnvFrom[j].ConfigMapRef; ref != nil {
				out.EnvFrom[j].ConfigMapRef = next(&s.cmRefs)
				ref.DeepCopyInto(out.EnvFrom[j].ConfigMapRef)
			}
			if ref := in.EnvFrom[j].SecretRef; ref != nil {
				out.EnvFrom[j].SecretRef = next(&s.secretRefs)
				ref.DeepCopyInto(out.EnvFrom[j].SecretRef)
			}
		}
	}
	if s.shareUnchanged && !changedByPodDefaulting(&in.Resources) {
		out.Resources.Limits, out.Resources.Requests = in.Resources.Limits, in.Resources.Requests
	} else {
		out.Resources.Limits = cloneResourceList(in.Resources.Limits, s.shareDecimals)
		out.Resources.Requests = cloneResourceList(in.Resources.Requests, s.shareDecimals)
	}
	out.LivenessProbe = s.copyProbe(in.LivenessProbe)
	out.ReadinessProbe = s.copyProbe(in.ReadinessProbe)
	out.StartupProbe = s.copyProbe(in.StartupProbe)
}

func (s *containerSlabs) copyEnvSource(in *corev1.EnvVarSource) *corev1.EnvVarSource {
	out := next(&s.envSources)
	rest := *in
	rest.FieldRef = nil
	rest.DeepCopyInto(out)
	if in.FieldRef != nil {
		out.FieldRef = next(&s.fieldRefs)
		in.FieldRef.DeepCopyInto(out.FieldRef)
	}
	return out
}

func (s *containerSlabs) copyProbe(in *corev1.Probe) *corev1.Probe {
	if in == nil {
		return nil
	}
	out := next(&s.probes)
	rest := *in
	rest.HTTPGet = nil
	rest.DeepCopyInto(out)
	if in.HTTPGet != nil {
		out.HTTPGet = next(&s.httpGets)
		in.HTTPGet.DeepCopyInto(out.HTTPGet)
	}
	return out
}

// changedByPodDefaulting reports whether the pod defaulting writes into r's maps:
// a limit without a request is copied into an existing requests map
// (defaultRequestsFromLimits; a nil requests map is replaced, not written), and a
// quantity finer than milli, or held as a big decimal, is rounded and stored back
// (roundResourceList).
// The limits are read in one pass for both.
func changedByPodDefaulting(r *corev1.ResourceRequirements) bool {
	for name, q := range r.Limits {
		if r.Requests != nil {
			if _, ok := r.Requests[name]; !ok {
				return true
			}
		}
		if roundChanges(q) {
			return true
		}
	}
	return roundingChanges(r.Requests)
}

// roundingChanges reports whether roundResourceList would store a new quantity.
func roundingChanges(list corev1.ResourceList) bool {
	for _, q := range list {
		if roundChanges(q) {
			return true
		}
	}
	return false
}

// roundChanges reports whether rounding q up to milli precision gives another value
// (or the same value held otherwise).
func roundChanges(q resource.Quantity) bool {
	r := q
	r.RoundUp(-3)
	return r != q
}

// cloneResourceList copies a resource list: maps.Clone copies the map's memory
// without rehashing, and only quantities that hold a big decimal need their own copy
// (unless shareDecimals).
func cloneResourceList(in corev1.ResourceList, shareDecimals bool) corev1.ResourceList {
	if in == nil {
		return nil
	}
	out := maps.Clone(in)
	if shareDecimals {
		return out
	}
	for name, q := range in {
		if c := q.DeepCopy(); c != q {
			out[name] = c
		}
	}
	return out
}
