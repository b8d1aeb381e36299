package defaulting

import (
	"slices"

	corev1 "k8s.io/api/core/v1"

	"github.com/podlife/podlife/internal/gates"
)

// The read-only pod path (Options.ReadOnly) copies on write: sharePodSpec gives the
// result a spec whose every object the pod defaulting and PrepareForCreate write into
// is its own, and shares the rest with the input. It decides before any default is
// applied, by what the input holds, so each predicate below names the writes it
// stands for (spec.go, pod.go, drop.go, strategy.go, podlevel.go); a predicate may
// copy more than is written, never less. The writes that clear a field write only
// when the field is set, so that no write, not even of an equal value, reaches shared
// memory (concurrent callers share the input). The rare writes into container
// security contexts (the AppArmor annotations) copy at the write site instead.

// sharePodSpec makes out a copy of in for the read-only pod path under the gates g,
// and returns the containers whose resource lists the pod defaulting leaves as they
// are (see settledResources).
func sharePodSpec(in, out *corev1.PodSpec, g *gates.Set) (settled settledResources) {
	*out = *in
	var n slabCounts
	n.add(in.InitContainers)
	n.add(in.Containers)
	for i := range in.EphemeralContainers {
		n.addContainer((*corev1.Container)(&in.EphemeralContainers[i].EphemeralContainerCommon))
	}
	sh := &sharer{hostNetwork: in.HostNetwork, h2c: g.H2CContainerProbe, n: n}
	out.InitContainers = sh.containers(in.InitContainers, &settled.init)
	out.Containers = sh.containers(in.Containers, &settled.regular)
	if in.EphemeralContainers != nil {
		out.EphemeralContainers = slices.Clone(in.EphemeralContainers)
		for i := range out.EphemeralContainers {
			sh.container((*corev1.Container)(&out.EphemeralContainers[i].EphemeralContainerCommon))
		}
	}
	out.Volumes = shareVolumes(in.Volumes)
	// dropDisabledSpecFields clears two fields of the pod security context.
	if sc := in.SecurityContext; sc != nil && (sc.SupplementalGroupsPolicy != nil || sc.SELinuxChangePolicy != nil) {
		c := *sc
		out.SecurityContext = &c
	}
	// The pod-level resources defaulting writes into both lists and the struct.
	if in.Resources != nil {
		out.Resources = in.Resources.DeepCopy()
	}
	if roundingChanges(in.Overhead) {
		out.Overhead = cloneResourceList(in.Overhead, true)
	}
	// The drops clear three fields of each constraint; the label-key merge appends
	// to the selector of a constraint with matchLabelKeys.
	if slices.ContainsFunc(in.TopologySpreadConstraints, func(c corev1.TopologySpreadConstraint) bool {
		return c.NodeTaintsPolicy != nil || c.NodeAffinityPolicy != nil || c.MatchLabelKeys != nil
	}) {
		out.TopologySpreadConstraints = make([]corev1.TopologySpreadConstraint, len(in.TopologySpreadConstraints))
		for i := range in.TopologySpreadConstraints {
			in.TopologySpreadConstraints[i].DeepCopyInto(&out.TopologySpreadConstraints[i])
		}
	}
	// The drop clears and the merge reads matchLabelKeys and mismatchLabelKeys of
	// pod (anti-)affinity terms, the merge appending to their selectors.
	if a := in.Affinity; a != nil && (affinityHasLabelKeys(a.PodAffinity) || affinityHasLabelKeys((*corev1.PodAffinity)(a.PodAntiAffinity))) {
		out.Affinity = a.DeepCopy()
	}
	return settled
}

// settledResources marks, by index, the init and regular containers whose resource
// lists the pod defaulting leaves as they are: every limit already has a request in
// a requests map (or there are no limits) and no quantity changes when rounded to
// milli precision. The read-only path finds them while deciding what to copy
// (sharer.container reads the lists for that anyway), and the defaulting then
// skips their lists (defaultRequestsFromLimits, the rounding) instead of reading
// them again. Only the first 64 containers of a list can be marked; the zero value
// marks none.
type settledResources struct{ init, regular uint64 }

// settledAt reports whether bit i of mask is set.
func settledAt(mask uint64, i int) bool { return i < 64 && mask&(1<<uint(i)) != 0 }

func affinityHasLabelKeys(a *corev1.PodAffinity) bool {
	if a == nil {
		return false
	}
	for i := range a.RequiredDuringSchedulingIgnoredDuringExecution {
		if t := &a.RequiredDuringSchedulingIgnoredDuringExecution[i]; t.MatchLabelKeys != nil || t.MismatchLabelKeys != nil {
			return true
		}
	}
	for i := range a.PreferredDuringSchedulingIgnoredDuringExecution {
		if t := &a.PreferredDuringSchedulingIgnoredDuringExecution[i].PodAffinityTerm; t.MatchLabelKeys != nil || t.MismatchLabelKeys != nil {
			return true
		}
	}
	return false
}

// sharer copies what the defaulting writes into the containers of one pod. The
// copies come from slabs, each allocated at its first use with room for every
// object of its kind the pod holds (n), so a pod pays one allocation per kind
// however many containers it has, and none for a kind nothing writes into.
type sharer struct {
	hostNetwork, h2c bool
	n                slabCounts

	ports      lazySlab[corev1.ContainerPort]
	env        lazySlab[corev1.EnvVar]
	envSources lazySlab[corev1.EnvVarSource]
	fieldRefs  lazySlab[corev1.ObjectFieldSelector]
	probes     lazySlab[corev1.Probe]
	httpGets   lazySlab[corev1.HTTPGetAction]
}

// lazySlab is a slab allocated when first taken from.
type lazySlab[T any] struct{ buf []T }

// take returns k elements of the slab, which is allocated with n elements at the
// first call (n bounds what all calls take together).
func (l *lazySlab[T]) take(k, n int) []T {
	if l.buf == nil {
		l.buf = make([]T, n)
	}
	s := l.buf[:k:k]
	l.buf = l.buf[k:]
	return s
}

// one returns a pointer to a fresh element holding v.
func (l *lazySlab[T]) one(v T, n int) *T {
	p := &l.take(1, n)[0]
	*p = v
	return p
}

// containers copies the container list (the defaulting sets scalars of every
// container) and, in each container, what the defaulting writes into; it sets bit i
// of *settledMask for each container i < 64 whose resources the defaulting leaves as
// they are.
func (sh *sharer) containers(in []corev1.Container, settledMask *uint64) []corev1.Container {
	if in == nil {
		return nil
	}
	out := slices.Clone(in)
	for i := range out {
		if sh.container(&out[i]) && i < 64 {
			*settledMask |= 1 << uint(i)
		}
	}
	return out
}

// container replaces, in c (a shallow copy of an input container), the objects the
// defaulting writes into with copies, and reports whether the pod defaulting leaves
// c's resource lists as they are (see settledResources).
func (sh *sharer) container(c *corev1.Container) (resourcesSettled bool) {
	// Ports: the protocol default, and the host port of a host-network pod.
	if slices.ContainsFunc(c.Ports, func(p corev1.ContainerPort) bool {
		return p.Protocol == "" || (sh.hostNetwork && p.HostPort == 0)
	}) {
		ports := sh.portsTake(len(c.Ports))
		copy(ports, c.Ports)
		c.Ports = ports
	}
	// Mounts: the drops of recursiveReadOnly and bindMountOptions.
	if slices.ContainsFunc(c.VolumeMounts, func(m corev1.VolumeMount) bool {
		return m.RecursiveReadOnly != nil || m.BindMountOptions != nil
	}) {
		c.VolumeMounts = slices.Clone(c.VolumeMounts)
	}
	// Env: the field selector's apiVersion, fileKeyRef's optional and its drop.
	if slices.ContainsFunc(c.Env, envWritten) {
		env := sh.env.take(len(c.Env), sh.n.env)
		copy(env, c.Env)
		for j := range env {
			if e := &env[j]; envWritten(*e) {
				src := sh.envSources.one(*e.ValueFrom, sh.n.envSources)
				if src.FieldRef != nil {
					src.FieldRef = sh.fieldRefs.one(*src.FieldRef, sh.n.fieldRefs)
				}
				if src.FileKeyRef != nil {
					f := *src.FileKeyRef
					src.FileKeyRef = &f
				}
				e.ValueFrom = src
			}
		}
		c.Env = env
	}
	// Resources: requests from limits and milli rounding write into the maps; a
	// nil requests map is replaced when there are limits.
	if changedByPodDefaulting(&c.Resources) {
		c.Resources.Limits = cloneResourceList(c.Resources.Limits, true)
		c.Resources.Requests = cloneResourceList(c.Resources.Requests, true)
	} else {
		resourcesSettled = c.Resources.Requests != nil || c.Resources.Limits == nil
	}
	c.LivenessProbe = sh.probe(c.LivenessProbe)
	c.ReadinessProbe = sh.probe(c.ReadinessProbe)
	c.StartupProbe = sh.probe(c.StartupProbe)
	// Lifecycle: the stopSignal drop, and the HTTP hooks' defaults and protocol.
	if l := c.Lifecycle; l != nil && (l.StopSignal != nil || sh.handlerWritten(l.PostStart) || sh.handlerWritten(l.PreStop)) {
		cp := *l
		cp.PostStart, cp.PreStop = sh.handler(l.PostStart), sh.handler(l.PreStop)
		c.Lifecycle = &cp
	}
	// Security context: the procMount drop (AppArmor copies at its write).
	if sc := c.SecurityContext; sc != nil && sc.ProcMount != nil {
		cp := *sc
		c.SecurityContext = &cp
	}
	return resourcesSettled
}

func (sh *sharer) portsTake(k int) []corev1.ContainerPort { return sh.ports.take(k, sh.n.ports) }

func envWritten(e corev1.EnvVar) bool {
	src := e.ValueFrom
	return src != nil && ((src.FieldRef != nil && src.FieldRef.APIVersion == "") || src.FileKeyRef != nil)
}

// httpGetWritten reports whether the defaulting writes into an HTTP action: its path
// and scheme defaults, and its protocol, defaulted under H2CContainerProbe and
// dropped without it.
func (sh *sharer) httpGetWritten(a *corev1.HTTPGetAction) bool {
	return a != nil && (a.Path == "" || a.Scheme == "" || (a.Protocol == nil) == sh.h2c)
}

func (sh *sharer) handlerWritten(h *corev1.LifecycleHandler) bool {
	return h != nil && sh.httpGetWritten(h.HTTPGet)
}

func (sh *sharer) handler(h *corev1.LifecycleHandler) *corev1.LifecycleHandler {
	if !sh.handlerWritten(h) {
		return h
	}
	cp := *h
	a := *h.HTTPGet
	cp.HTTPGet = &a
	return &cp
}

// probe copies a probe the defaulting writes into: its thresholds, the HTTP action
// (see httpGetWritten), the gRPC service default and mode drop.
func (sh *sharer) probe(p *corev1.Probe) *corev1.Probe {
	if p == nil {
		return nil
	}
	http := sh.httpGetWritten(p.HTTPGet)
	grpc := p.GRPC != nil && (p.GRPC.Service == nil || p.GRPC.Mode != nil)
	if p.TimeoutSeconds != 0 && p.PeriodSeconds != 0 && p.SuccessThreshold != 0 && p.FailureThreshold != 0 && !http && !grpc {
		return p
	}
	cp := sh.probes.one(*p, sh.n.probes)
	if http {
		cp.HTTPGet = sh.httpGets.one(*p.HTTPGet, sh.n.httpGets)
	}
	if grpc {
		g := *p.GRPC
		cp.GRPC = &g
	}
	return cp
}

// shareVolumes returns in itself when the defaulting and the drops write into none
// of its volumes, or else a copy of the list (an empty source becomes emptyDir)
// holding copies of the sources they write into.
func shareVolumes(in []corev1.Volume) []corev1.Volume {
	var out []corev1.Volume
	for i := range in {
		src := in[i].VolumeSource
		if shareVolumeSource(&src) || src == (corev1.VolumeSource{}) {
			if out == nil {
				out = slices.Clone(in)
			}
			out[i].VolumeSource = src
		}
	}
	if out == nil {
		return in
	}
	return out
}

// shareVolumeSource replaces, in s (a shallow copy of an input source), the objects
// the defaulting and the drops write into with copies, and reports whether it
// replaced any.
func shareVolumeSource(s *corev1.VolumeSource) bool {
	changed := false
	if s.EmptyDir != nil && s.EmptyDir.Mode != nil {
		changed = true
		cp := *s.EmptyDir
		s.EmptyDir = &cp
	}
	if s.Image != nil && s.Image.PullPolicy == "" {
		changed = true
		cp := *s.Image
		s.Image = &cp
	}
	if s.HostPath != nil && s.HostPath.Type == nil {
		changed = true
		cp := *s.HostPath
		s.HostPath = &cp
	}
	if s.Secret != nil && (s.Secret.DefaultMode == nil || s.Secret.DefaultUser != nil || itemsHaveUser(s.Secret.Items)) {
		changed = true
		cp := *s.Secret
		cp.Items = cloneItemsWithUser(cp.Items)
		s.Secret = &cp
	}
	if s.ConfigMap != nil && (s.ConfigMap.DefaultMode == nil || s.ConfigMap.DefaultUser != nil || itemsHaveUser(s.ConfigMap.Items)) {
		changed = true
		cp := *s.ConfigMap
		cp.Items = cloneItemsWithUser(cp.Items)
		s.ConfigMap = &cp
	}
	if s.ISCSI != nil && s.ISCSI.ISCSIInterface == "" {
		changed = true
		cp := *s.ISCSI
		s.ISCSI = &cp
	}
	if s.RBD != nil && (s.RBD.RBDPool == "" || s.RBD.RadosUser == "" || s.RBD.Keyring == "") {
		changed = true
		cp := *s.RBD
		s.RBD = &cp
	}
	if s.DownwardAPI != nil && (s.DownwardAPI.DefaultMode == nil || s.DownwardAPI.DefaultUser != nil || downwardAPIWritten(s.DownwardAPI.Items)) {
		changed = true
		s.DownwardAPI = s.DownwardAPI.DeepCopy()
	}
	if s.AzureDisk != nil && (s.AzureDisk.CachingMode == nil || s.AzureDisk.FSType == nil || s.AzureDisk.ReadOnly == nil || s.AzureDisk.Kind == nil) {
		changed = true
		cp := *s.AzureDisk
		s.AzureDisk = &cp
	}
	if s.Projected != nil && projectedWritten(s.Projected) {
		changed = true
		s.Projected = shareProjected(s.Projected)
	}
	if s.ScaleIO != nil && (s.ScaleIO.StorageMode == "" || s.ScaleIO.FSType == "") {
		changed = true
		cp := *s.ScaleIO
		s.ScaleIO = &cp
	}
	if s.Ephemeral != nil && ephemeralWritten(s.Ephemeral) {
		changed = true
		s.Ephemeral = s.Ephemeral.DeepCopy()
	}
	return changed
}

// ephemeralWritten reports whether the defaulting writes into an ephemeral volume's
// claim template: its volume mode, and the milli rounding of its resources.
func ephemeralWritten(e *corev1.EphemeralVolumeSource) bool {
	t := e.VolumeClaimTemplate
	if t == nil {
		return false
	}
	r := &t.Spec.Resources
	return t.Spec.VolumeMode == nil || roundingChanges(r.Limits) || roundingChanges(r.Requests)
}

func itemsHaveUser(items []corev1.KeyToPath) bool {
	return slices.ContainsFunc(items, func(k corev1.KeyToPath) bool { return k.User != nil })
}

// cloneItemsWithUser copies items when the user drop would write into them.
func cloneItemsWithUser(items []corev1.KeyToPath) []corev1.KeyToPath {
	if itemsHaveUser(items) {
		return slices.Clone(items)
	}
	return items
}

// projectedWritten reports whether the defaulting or the drops write into a
// projected source: the default mode and user, and per source the downward API
// files, the token's expiration and user, the drops of clusterTrustBundle and
// podCertificate and their users, and the users of secret and configMap items.
func projectedWritten(v *corev1.ProjectedVolumeSource) bool {
	return v.DefaultMode == nil || v.DefaultUser != nil || slices.ContainsFunc(v.Sources, projectionWritten)
}

// shareProjected copies a projected source the defaulting writes into, and of its
// sources those it writes into (see projectedWritten).
func shareProjected(v *corev1.ProjectedVolumeSource) *corev1.ProjectedVolumeSource {
	cp := *v
	if slices.ContainsFunc(v.Sources, projectionWritten) {
		cp.Sources = slices.Clone(v.Sources)
		for j := range cp.Sources {
			s := &cp.Sources[j]
			if d := s.DownwardAPI; d != nil && downwardAPIWritten(d.Items) {
				s.DownwardAPI = d.DeepCopy()
			}
			if t := s.ServiceAccountToken; t != nil && (t.ExpirationSeconds == nil || t.User != nil) {
				c := *t
				s.ServiceAccountToken = &c
			}
			if b := s.ClusterTrustBundle; b != nil && b.User != nil {
				c := *b
				s.ClusterTrustBundle = &c
			}
			if b := s.PodCertificate; b != nil && b.User != nil {
				c := *b
				s.PodCertificate = &c
			}
			if p := s.Secret; p != nil && itemsHaveUser(p.Items) {
				c := *p
				c.Items = slices.Clone(p.Items)
				s.Secret = &c
			}
			if p := s.ConfigMap; p != nil && itemsHaveUser(p.Items) {
				c := *p
				c.Items = slices.Clone(p.Items)
				s.ConfigMap = &c
			}
		}
	}
	return &cp
}

func projectionWritten(s corev1.VolumeProjection) bool {
	t := s.ServiceAccountToken
	return (s.DownwardAPI != nil && downwardAPIWritten(s.DownwardAPI.Items)) ||
		(t != nil && (t.ExpirationSeconds == nil || t.User != nil)) ||
		s.ClusterTrustBundle != nil || s.PodCertificate != nil ||
		(s.Secret != nil && itemsHaveUser(s.Secret.Items)) || (s.ConfigMap != nil && itemsHaveUser(s.ConfigMap.Items))
}

// downwardAPIWritten reports whether the defaulting (a field selector's apiVersion)
// or the user drop writes into downward API files.
func downwardAPIWritten(items []corev1.DownwardAPIVolumeFile) bool {
	return slices.ContainsFunc(items, func(f corev1.DownwardAPIVolumeFile) bool {
		return (f.FieldRef != nil && f.FieldRef.APIVersion == "") || f.User != nil
	})
}
