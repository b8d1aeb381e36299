package podlife

// gates are the feature gates the defaulting functions read, each resolved once per
// call: a gate lookup is a map access, and a create reads some thirty of them. The
// field names are the upstream gate names.
type gates struct {
	AtomicWriteVolumeUserFields                    bool
	CSIVolumeHealth                                bool
	ClusterTrustBundleProjection                   bool
	ContainerRestartRules                          bool
	ContainerStopSignals                           bool
	DRANodeAllocatableResources                    bool
	DynamicResourceAllocation                      bool
	EmptyDirVolumeMode                             bool
	EnvFiles                                       bool
	EvictionRequestAPI                             bool
	GRPCContainerProbeTLS                          bool
	GenericWorkload                                bool
	H2CContainerProbe                              bool
	HostnameOverride                               bool
	ImageVolume                                    bool
	InPlacePodVerticalScaling                      bool
	MatchLabelKeysInPodAffinity                    bool
	MatchLabelKeysInPodTopologySpread              bool
	MatchLabelKeysInPodTopologySpreadSelectorMerge bool
	NodeInclusionPolicyInPodTopologySpread         bool
	PodCertificateRequest                          bool
	PodLevelResources                              bool
	PodLevelResourcesFixDefaulting                 bool
	PodLevelResourcesFixKubeletQOSClass            bool
	ProcMountType                                  bool
	RecursiveReadOnlyMounts                        bool
	ResourceHealthStatus                           bool
	SELinuxChangePolicy                            bool
	SupplementalGroupsPolicy                       bool
	UserNamespacesSupport                          bool
	VolumeBindMountOptions                         bool
}

// v1372Gates are the gates of a default v1.37.2 server, resolved once. It is never
// written to.
var v1372Gates = resolveGatesSlow(nil)

// resolveGates returns the gates g sets; with no overrides it returns the shared
// defaults, which callers must only read.
func resolveGates(g FeatureGates) *gates {
	if len(g) == 0 {
		return &v1372Gates
	}
	r := resolveGatesSlow(g)
	return &r
}

func resolveGatesSlow(g FeatureGates) gates {
	return gates{
		AtomicWriteVolumeUserFields:                    g.Enabled("AtomicWriteVolumeUserFields"),
		CSIVolumeHealth:                                g.Enabled("CSIVolumeHealth"),
		ClusterTrustBundleProjection:                   g.Enabled("ClusterTrustBundleProjection"),
		ContainerRestartRules:                          g.Enabled("ContainerRestartRules"),
		ContainerStopSignals:                           g.Enabled("ContainerStopSignals"),
		DRANodeAllocatableResources:                    g.Enabled("DRANodeAllocatableResources"),
		DynamicResourceAllocation:                      g.Enabled("DynamicResourceAllocation"),
		EmptyDirVolumeMode:                             g.Enabled("EmptyDirVolumeMode"),
		EnvFiles:                                       g.Enabled("EnvFiles"),
		EvictionRequestAPI:                             g.Enabled("EvictionRequestAPI"),
		GRPCContainerProbeTLS:                          g.Enabled("GRPCContainerProbeTLS"),
		GenericWorkload:                                g.Enabled("GenericWorkload"),
		H2CContainerProbe:                              g.Enabled("H2CContainerProbe"),
		HostnameOverride:                               g.Enabled("HostnameOverride"),
		ImageVolume:                                    g.Enabled("ImageVolume"),
		InPlacePodVerticalScaling:                      g.Enabled("InPlacePodVerticalScaling"),
		MatchLabelKeysInPodAffinity:                    g.Enabled("MatchLabelKeysInPodAffinity"),
		MatchLabelKeysInPodTopologySpread:              g.Enabled("MatchLabelKeysInPodTopologySpread"),
		MatchLabelKeysInPodTopologySpreadSelectorMerge: g.Enabled("MatchLabelKeysInPodTopologySpreadSelectorMerge"),
		NodeInclusionPolicyInPodTopologySpread:         g.Enabled("NodeInclusionPolicyInPodTopologySpread"),
		PodCertificateRequest:                          g.Enabled("PodCertificateRequest"),
		PodLevelResources:                              g.Enabled("PodLevelResources"),
		PodLevelResourcesFixDefaulting:                 g.Enabled("PodLevelResourcesFixDefaulting"),
		PodLevelResourcesFixKubeletQOSClass:            g.Enabled("PodLevelResourcesFixKubeletQOSClass"),
		ProcMountType:                                  g.Enabled("ProcMountType"),
		RecursiveReadOnlyMounts:                        g.Enabled("RecursiveReadOnlyMounts"),
		ResourceHealthStatus:                           g.Enabled("ResourceHealthStatus"),
		SELinuxChangePolicy:                            g.Enabled("SELinuxChangePolicy"),
		SupplementalGroupsPolicy:                       g.Enabled("SupplementalGroupsPolicy"),
		UserNamespacesSupport:                          g.Enabled("UserNamespacesSupport"),
		VolumeBindMountOptions:                         g.Enabled("VolumeBindMountOptions"),
	}
}
