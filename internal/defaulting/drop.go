package defaulting

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/podlife/podlife/internal/gates"
	"github.com/podlife/podlife/internal/podutil"
)

// dropDisabledSpecFields clears the spec fields of features that are off, as
// DropDisabledPodFields and DropDisabledTemplateFields (k8s.io/kubernetes
// pkg/api/pod/util.go) do: a field survives when its gate is on or when old, the
// stored spec of an update (nil on create), already uses it.
func dropDisabledSpecFields(spec, old *corev1.PodSpec, g *gates.Set) {
	if !g.UserNamespacesSupport && !(old != nil && old.HostUsers != nil) {
		spec.HostUsers = nil
	}
	if !g.SupplementalGroupsPolicy && !supplementalGroupsPolicyInUse(old) && spec.SecurityContext != nil {
		dropPtr(&spec.SecurityContext.SupplementalGroupsPolicy)
	}
	if !g.PodLevelResources && !podLevelResourcesInUse(old) {
		spec.Resources = nil
	}
	if !g.ProcMountType && !procMountInUse(old) {
		forEachContainer(spec, func(c *corev1.Container) {
			// Forced to the default, not cleared: old clients always sent the field.
			if c.SecurityContext != nil && c.SecurityContext.ProcMount != nil {
				m := corev1.DefaultProcMount
				c.SecurityContext.ProcMount = &m
			}
		})
	}
	if !g.NodeInclusionPolicyInPodTopologySpread {
		taints, affinity := topologySpreadPoliciesInUse(old)
		for i := range spec.TopologySpreadConstraints {
			c := &spec.TopologySpreadConstraints[i]
			if !taints {
				dropPtr(&c.NodeTaintsPolicy)
			}
			if !affinity {
				dropPtr(&c.NodeAffinityPolicy)
			}
		}
	}
	if !g.MatchLabelKeysInPodTopologySpread && !topologySpreadLabelKeysInUse(old) {
		for i := range spec.TopologySpreadConstraints {
			if spec.TopologySpreadConstraints[i].MatchLabelKeys != nil {
				spec.TopologySpreadConstraints[i].MatchLabelKeys = nil
			}
		}
	}
	if !g.MatchLabelKeysInPodAffinity && spec.Affinity != nil && !affinityLabelKeysInUse(old) {
		dropAffinityLabelKeys(spec.Affinity.PodAffinity)
		dropAffinityLabelKeys((*corev1.PodAffinity)(spec.Affinity.PodAntiAffinity))
	}
	if !g.DynamicResourceAllocation && !(old != nil && len(old.ResourceClaims) > 0) {
		forEachContainer(spec, func(c *corev1.Container) { c.Resources.Claims = nil })
		spec.ResourceClaims = nil
	}
	if !g.ClusterTrustBundleProjection && !projectionInUse(old, func(s *corev1.VolumeProjection) bool { return s.ClusterTrustBundle != nil }) {
		forEachProjection(spec, func(s *corev1.VolumeProjection) { dropPtr(&s.ClusterTrustBundle) })
	}
	if !g.PodCertificateRequest && !projectionInUse(old, func(s *corev1.VolumeProjection) bool { return s.PodCertificate != nil }) {
		forEachProjection(spec, func(s *corev1.VolumeProjection) { dropPtr(&s.PodCertificate) })
	}
	if !g.AtomicWriteVolumeUserFields && !volumeUserFieldsInUse(old) {
		dropVolumeUserFields(spec)
	}
	if !g.GenericWorkload && !(old != nil && old.SchedulingGroup != nil) {
		spec.SchedulingGroup = nil
	}
	if !g.GRPCContainerProbeTLS && !anyContainer(old, grpcProbeModeSet) {
		forEachContainer(spec, func(c *corev1.Container) {
			for _, p := range []*corev1.Probe{c.LivenessProbe, c.ReadinessProbe, c.StartupProbe} {
				if p != nil && p.GRPC != nil {
					dropPtr(&p.GRPC.Mode)
				}
			}
		})
	}
	if !g.EvictionRequestAPI && !(old != nil && len(old.EvictionResponders) > 0) {
		spec.EvictionResponders = nil
	}
	if !g.InPlacePodVerticalScaling && !resizePolicyInUse(old) {
		forEachContainer(spec, func(c *corev1.Container) { c.ResizePolicy = nil })
	}
	if !g.ContainerRestartRules && !podutil.RestartRulesInUse(old) {
		for i := range spec.InitContainers {
			c := &spec.InitContainers[i]
			if c.RestartPolicy != nil && *c.RestartPolicy != corev1.ContainerRestartPolicyAlways {
				c.RestartPolicy = nil
			}
			c.RestartPolicyRules = nil
		}
		for i := range spec.Containers {
			spec.Containers[i].RestartPolicy = nil
			spec.Containers[i].RestartPolicyRules = nil
		}
		for i := range spec.EphemeralContainers {
			spec.EphemeralContainers[i].RestartPolicy = nil
			spec.EphemeralContainers[i].RestartPolicyRules = nil
		}
	}
	if !g.RecursiveReadOnlyMounts && !anyContainer(old, recursiveReadOnlySet) {
		forEachContainer(spec, func(c *corev1.Container) {
			for j := range c.VolumeMounts {
				dropPtr(&c.VolumeMounts[j].RecursiveReadOnly)
			}
		})
	}
	if !g.EmptyDirVolumeMode && !emptyDirModeInUse(old) {
		for i := range spec.Volumes {
			if d := spec.Volumes[i].EmptyDir; d != nil {
				dropPtr(&d.Mode)
			}
		}
	}
	if !g.VolumeBindMountOptions && !anyContainer(old, bindMountOptionsSet) {
		forEachContainer(spec, func(c *corev1.Container) {
			for j := range c.VolumeMounts {
				if c.VolumeMounts[j].BindMountOptions != nil {
					c.VolumeMounts[j].BindMountOptions = nil
				}
			}
		})
	}
	if !g.HostnameOverride && !(old != nil && old.HostnameOverride != nil) {
		spec.HostnameOverride = nil
	}
	if !g.EnvFiles && !anyContainer(old, fileKeyRefSet) {
		forEachContainer(spec, func(c *corev1.Container) {
			for j := range c.Env {
				if src := c.Env[j].ValueFrom; src != nil {
					dropPtr(&src.FileKeyRef)
				}
			}
		})
	}
	if !g.ImageVolume && !imageVolumesInUse(old) {
		dropImageVolumes(spec)
	}
	if !g.SELinuxChangePolicy && !(old != nil && old.SecurityContext != nil && old.SecurityContext.SELinuxChangePolicy != nil) &&
		spec.SecurityContext != nil {
		dropPtr(&spec.SecurityContext.SELinuxChangePolicy)
	}
	if !g.ContainerStopSignals && !anyContainer(old, stopSignalSet) {
		forEachContainer(spec, func(c *corev1.Container) {
			if c.Lifecycle != nil && c.Lifecycle.StopSignal != nil {
				c.Lifecycle.StopSignal = nil
				if c.Lifecycle.PostStart == nil && c.Lifecycle.PreStop == nil {
					c.Lifecycle = nil
				}
			}
		})
	}
	if !g.H2CContainerProbe && !anyContainer(old, httpProtocolSet) {
		forEachContainer(spec, func(c *corev1.Container) {
			for _, p := range []*corev1.Probe{c.LivenessProbe, c.ReadinessProbe, c.StartupProbe} {
				if p != nil && p.HTTPGet != nil {
					dropPtr(&p.HTTPGet.Protocol)
				}
			}
			if c.Lifecycle != nil {
				for _, h := range []*corev1.LifecycleHandler{c.Lifecycle.PostStart, c.Lifecycle.PreStop} {
					if h != nil && h.HTTPGet != nil {
						dropPtr(&h.HTTPGet.Protocol)
					}
				}
			}
		})
	}
}

// forEachContainer visits init, regular and ephemeral containers.
func forEachContainer(spec *corev1.PodSpec, fn func(*corev1.Container)) {
	for i := range spec.InitContainers {
		fn(&spec.InitContainers[i])
	}
	for i := range spec.Containers {
		fn(&spec.Containers[i])
	}
	for i := range spec.EphemeralContainers {
		fn((*corev1.Container)(&spec.EphemeralContainers[i].EphemeralContainerCommon))
	}
}

func forEachProjection(spec *corev1.PodSpec, fn func(*corev1.VolumeProjection)) {
	for i := range spec.Volumes {
		if p := spec.Volumes[i].Projected; p != nil {
			for j := range p.Sources {
				fn(&p.Sources[j])
			}
		}
	}
}

func dropAffinityLabelKeys(a *corev1.PodAffinity) {
	if a == nil {
		return
	}
	for i := range a.RequiredDuringSchedulingIgnoredDuringExecution {
		dropTermLabelKeys(&a.RequiredDuringSchedulingIgnoredDuringExecution[i])
	}
	for i := range a.PreferredDuringSchedulingIgnoredDuringExecution {
		dropTermLabelKeys(&a.PreferredDuringSchedulingIgnoredDuringExecution[i].PodAffinityTerm)
	}
}

// dropTermLabelKeys clears the label keys of a term, writing only what is set (the
// read-only path shares terms without label keys with the input; see share.go).
func dropTermLabelKeys(t *corev1.PodAffinityTerm) {
	if t.MatchLabelKeys != nil {
		t.MatchLabelKeys = nil
	}
	if t.MismatchLabelKeys != nil {
		t.MismatchLabelKeys = nil
	}
}

// dropVolumeUserFields clears the file-owner fields of atomic-writer volumes. Like
// upstream it looks at one source per volume (and per projection), the first set of
// secret, configMap, downwardAPI, projected.
func dropVolumeUserFields(spec *corev1.PodSpec) {
	for i := range spec.Volumes {
		v := &spec.Volumes[i].VolumeSource
		switch {
		case v.Secret != nil:
			dropPtr(&v.Secret.DefaultUser)
			dropKeyToPathUsers(v.Secret.Items)
		case v.ConfigMap != nil:
			dropPtr(&v.ConfigMap.DefaultUser)
			dropKeyToPathUsers(v.ConfigMap.Items)
		case v.DownwardAPI != nil:
			dropPtr(&v.DownwardAPI.DefaultUser)
			dropDownwardAPIUsers(v.DownwardAPI.Items)
		case v.Projected != nil:
			dropPtr(&v.Projected.DefaultUser)
			for j := range v.Projected.Sources {
				s := &v.Projected.Sources[j]
				switch {
				case s.Secret != nil:
					dropKeyToPathUsers(s.Secret.Items)
				case s.DownwardAPI != nil:
					dropDownwardAPIUsers(s.DownwardAPI.Items)
				case s.ConfigMap != nil:
					dropKeyToPathUsers(s.ConfigMap.Items)
				case s.ServiceAccountToken != nil:
					dropPtr(&s.ServiceAccountToken.User)
				case s.ClusterTrustBundle != nil:
					dropPtr(&s.ClusterTrustBundle.User)
				case s.PodCertificate != nil:
					dropPtr(&s.PodCertificate.User)
				}
			}
		}
	}
}

// dropPtr clears a pointer field, writing only when it is set: the read-only path
// shares with the input what the drops have nothing to clear in (see share.go).
func dropPtr[T any](p **T) {
	if *p != nil {
		*p = nil
	}
}

func dropKeyToPathUsers(items []corev1.KeyToPath) {
	for j := range items {
		dropPtr(&items[j].User)
	}
}

func dropDownwardAPIUsers(items []corev1.DownwardAPIVolumeFile) {
	for j := range items {
		dropPtr(&items[j].User)
	}
}

// dropImageVolumes removes image volumes and the mounts that use them. Like upstream
// it rebuilds the lists, so an empty list becomes nil.
func dropImageVolumes(spec *corev1.PodSpec) {
	dropped := map[string]bool{}
	var kept []corev1.Volume
	for _, v := range spec.Volumes {
		if v.Image != nil {
			dropped[v.Name] = true
			continue
		}
		kept = append(kept, v)
	}
	spec.Volumes = kept
	forEachContainer(spec, func(c *corev1.Container) {
		var mounts []corev1.VolumeMount
		for _, m := range c.VolumeMounts {
			if !dropped[m.Name] {
				mounts = append(mounts, m)
			}
		}
		c.VolumeMounts = mounts
	})
}
