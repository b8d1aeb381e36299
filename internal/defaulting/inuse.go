package defaulting

import (
	corev1 "k8s.io/api/core/v1"
)

// The "in use" tests of k8s.io/kubernetes pkg/api/pod/util.go: on update, a field of a
// disabled feature is kept when the stored spec already uses the feature. Each takes
// the stored spec, nil on create.

// anyContainer reports whether fn holds for an init, regular or ephemeral container.
func anyContainer(spec *corev1.PodSpec, fn func(*corev1.Container) bool) bool {
	if spec == nil {
		return false
	}
	found := false
	forEachContainer(spec, func(c *corev1.Container) {
		found = found || fn(c)
	})
	return found
}

func supplementalGroupsPolicyInUse(s *corev1.PodSpec) bool {
	return s != nil && s.SecurityContext != nil && s.SecurityContext.SupplementalGroupsPolicy != nil
}

func podLevelResourcesInUse(s *corev1.PodSpec) bool {
	return s != nil && s.Resources != nil && (len(s.Resources.Requests) > 0 || len(s.Resources.Limits) > 0)
}

// procMountInUse: only a non-default proc mount counts.
func procMountInUse(s *corev1.PodSpec) bool {
	return anyContainer(s, func(c *corev1.Container) bool {
		return c.SecurityContext != nil && c.SecurityContext.ProcMount != nil && *c.SecurityContext.ProcMount != corev1.DefaultProcMount
	})
}

func topologySpreadPoliciesInUse(s *corev1.PodSpec) (taints, affinity bool) {
	if s == nil {
		return false, false
	}
	for _, c := range s.TopologySpreadConstraints {
		taints = taints || c.NodeTaintsPolicy != nil
		affinity = affinity || c.NodeAffinityPolicy != nil
	}
	return taints, affinity
}

func topologySpreadLabelKeysInUse(s *corev1.PodSpec) bool {
	if s == nil {
		return false
	}
	for _, c := range s.TopologySpreadConstraints {
		if len(c.MatchLabelKeys) > 0 {
			return true
		}
	}
	return false
}

func affinityLabelKeysInUse(s *corev1.PodSpec) bool {
	if s == nil || s.Affinity == nil {
		return false
	}
	for _, a := range []*corev1.PodAffinity{s.Affinity.PodAffinity, (*corev1.PodAffinity)(s.Affinity.PodAntiAffinity)} {
		if a == nil {
			continue
		}
		for _, t := range a.RequiredDuringSchedulingIgnoredDuringExecution {
			if len(t.MatchLabelKeys) > 0 || len(t.MismatchLabelKeys) > 0 {
				return true
			}
		}
		for _, t := range a.PreferredDuringSchedulingIgnoredDuringExecution {
			if len(t.PodAffinityTerm.MatchLabelKeys) > 0 || len(t.PodAffinityTerm.MismatchLabelKeys) > 0 {
				return true
			}
		}
	}
	return false
}

func projectionInUse(s *corev1.PodSpec, fn func(*corev1.VolumeProjection) bool) bool {
	if s == nil {
		return false
	}
	for i := range s.Volumes {
		if p := s.Volumes[i].Projected; p != nil {
			for j := range p.Sources {
				if fn(&p.Sources[j]) {
					return true
				}
			}
		}
	}
	return false
}

// volumeUserFieldsInUse looks, like upstream, at the first of secret, configMap,
// downwardAPI and projected set on each volume (and on each projection).
func volumeUserFieldsInUse(s *corev1.PodSpec) bool {
	if s == nil {
		return false
	}
	keyUsers := func(items []corev1.KeyToPath) bool {
		for _, it := range items {
			if it.User != nil {
				return true
			}
		}
		return false
	}
	fileUsers := func(items []corev1.DownwardAPIVolumeFile) bool {
		for _, it := range items {
			if it.User != nil {
				return true
			}
		}
		return false
	}
	for i := range s.Volumes {
		v := &s.Volumes[i].VolumeSource
		switch {
		case v.Secret != nil:
			if v.Secret.DefaultUser != nil || keyUsers(v.Secret.Items) {
				return true
			}
		case v.ConfigMap != nil:
			if v.ConfigMap.DefaultUser != nil || keyUsers(v.ConfigMap.Items) {
				return true
			}
		case v.DownwardAPI != nil:
			if v.DownwardAPI.DefaultUser != nil || fileUsers(v.DownwardAPI.Items) {
				return true
			}
		case v.Projected != nil:
			if v.Projected.DefaultUser != nil {
				return true
			}
			for _, src := range v.Projected.Sources {
				var used bool
				switch {
				case src.Secret != nil:
					used = keyUsers(src.Secret.Items)
				case src.DownwardAPI != nil:
					used = fileUsers(src.DownwardAPI.Items)
				case src.ConfigMap != nil:
					used = keyUsers(src.ConfigMap.Items)
				case src.ServiceAccountToken != nil:
					used = src.ServiceAccountToken.User != nil
				case src.ClusterTrustBundle != nil:
					used = src.ClusterTrustBundle.User != nil
				case src.PodCertificate != nil:
					used = src.PodCertificate.User != nil
				}
				if used {
					return true
				}
			}
		}
	}
	return false
}

func grpcProbeModeSet(c *corev1.Container) bool {
	for _, p := range []*corev1.Probe{c.LivenessProbe, c.ReadinessProbe, c.StartupProbe} {
		if p != nil && p.GRPC != nil && p.GRPC.Mode != nil {
			return true
		}
	}
	return false
}

// resizePolicyInUse looks at init and regular containers only.
func resizePolicyInUse(s *corev1.PodSpec) bool {
	if s == nil {
		return false
	}
	for _, list := range [2][]corev1.Container{s.InitContainers, s.Containers} {
		for i := range list {
			if len(list[i].ResizePolicy) > 0 {
				return true
			}
		}
	}
	return false
}

func recursiveReadOnlySet(c *corev1.Container) bool {
	for _, m := range c.VolumeMounts {
		if m.RecursiveReadOnly != nil {
			return true
		}
	}
	return false
}

func bindMountOptionsSet(c *corev1.Container) bool {
	for _, m := range c.VolumeMounts {
		if len(m.BindMountOptions) > 0 {
			return true
		}
	}
	return false
}

func emptyDirModeInUse(s *corev1.PodSpec) bool {
	if s == nil {
		return false
	}
	for _, v := range s.Volumes {
		if v.EmptyDir != nil && v.EmptyDir.Mode != nil {
			return true
		}
	}
	return false
}

func fileKeyRefSet(c *corev1.Container) bool {
	for _, e := range c.Env {
		if e.ValueFrom != nil && e.ValueFrom.FileKeyRef != nil {
			return true
		}
	}
	return false
}

func imageVolumesInUse(s *corev1.PodSpec) bool {
	if s == nil {
		return false
	}
	for _, v := range s.Volumes {
		if v.Image != nil {
			return true
		}
	}
	return false
}

func stopSignalSet(c *corev1.Container) bool {
	return c.Lifecycle != nil && c.Lifecycle.StopSignal != nil
}

func httpProtocolSet(c *corev1.Container) bool {
	for _, p := range []*corev1.Probe{c.LivenessProbe, c.ReadinessProbe, c.StartupProbe} {
		if p != nil && p.HTTPGet != nil && p.HTTPGet.Protocol != nil {
			return true
		}
	}
	if c.Lifecycle != nil {
		for _, h := range []*corev1.LifecycleHandler{c.Lifecycle.PostStart, c.Lifecycle.PreStop} {
			if h != nil && h.HTTPGet != nil && h.HTTPGet.Protocol != nil {
				return true
			}
		}
	}
	return false
}
