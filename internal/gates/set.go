package gates

// Set is every feature gate this module reads, resolved from a [FeatureGates] map as
// a v1.37.2 component resolves it ([FeatureGates.Enabled]). Packages read gates
// through a Set, never from the map: a field name cannot be misspelt, and AllAlpha,
// AllBeta and the v1.37.2 defaults are applied in one place. Each field is named after
// its upstream gate; set_test.go checks every field against Enabled.
type Set struct {
	AtomicWriteVolumeUserFields                    bool
	CSIVolumeHealth                                bool
	ChangeContainerStatusOnKubeletRestart          bool
	ClusterTrustBundleProjection                   bool
	ContainerRestartRules                          bool
	ContainerStopSignals                           bool
	DRANodeAllocatableResources                    bool
	DeclarativeValidationBeta                      bool
	DynamicResourceAllocation                      bool
	EmptyDirVolumeMode                             bool
	EnvFiles                                       bool
	EvictionRequestAPI                             bool
	GRPCContainerProbeTLS                          bool
	GenericWorkload                                bool
	H2CContainerProbe                              bool
	HostnameOverride                               bool
	ImageVolume                                    bool
	InPlacePodLevelResourcesVerticalScaling        bool
	InPlacePodVerticalScaling                      bool
	InPlacePodVerticalScalingMemoryBackedVolumes   bool
	JobManagedBy                                   bool
	KubeletCrashLoopBackOffMax                     bool
	MatchLabelKeysInPodAffinity                    bool
	MatchLabelKeysInPodTopologySpread              bool
	MatchLabelKeysInPodTopologySpreadSelectorMerge bool
	MaxUnavailableStatefulSet                      bool
	MutablePodResourcesForSuspendedJobs            bool
	MutableSchedulingDirectivesForSuspendedJobs    bool
	NodeInclusionPolicyInPodTopologySpread         bool
	PodCertificateRequest                          bool
	PodDeletionCost                                bool
	PodLevelResources                              bool
	PodLevelResourcesFixDefaulting                 bool
	PodLevelResourcesFixKubeletQOSClass            bool
	PodObservedGenerationTracking                  bool
	PodReadyToStartContainersCondition             bool
	ProcMountType                                  bool
	RecursiveReadOnlyMounts                        bool
	ReduceDefaultCrashLoopBackOffDecay             bool
	RelaxedEnvironmentVariableValidation           bool
	ResourceHealthStatus                           bool
	RestartAllContainersOnContainerExits           bool
	SELinuxChangePolicy                            bool
	SELinuxMount                                   bool
	StatefulSetRecreateStrategy                    bool
	StrictIPCIDRValidation                         bool
	SupplementalGroupsPolicy                       bool
	TaintTolerationComparisonOperators             bool
	UserNamespacesHostNetworkSupport               bool
	UserNamespacesSupport                          bool
	VolumeAttributesClass                          bool
	VolumeBindMountOptions                         bool
	WorkloadWithJob                                bool
}

// defaults is the Set of a default v1.37.2 cluster, resolved once and only read.
var defaults = resolveEach(nil)

// Defaults returns the Set of a default v1.37.2 cluster, the one Resolve returns for
// no overrides, without copying it: a hot path that finds no overrides reads a gate
// in one load. The Set is shared; callers only read it.
func Defaults() *Set { return &defaults }

// Resolve returns the gates g sets. It costs one step per override: the v1.37.2
// defaults are resolved once, and a map without AllAlpha or AllBeta only changes the
// gates it names. A map with either resolves every gate.
func (g FeatureGates) Resolve() Set {
	if len(g) == 0 {
		// The common case, on every hot path: small enough to be inlined, no call
		// and no iterator.
		return defaults
	}
	return g.resolveOverrides()
}

// resolveOverrides is Resolve for a non-empty g.
func (g FeatureGates) resolveOverrides() Set {
	s := defaults
	for name, v := range g {
		if name == allAlpha || name == allBeta {
			return resolveEach(g)
		}
		s.set(name, v)
	}
	return s
}

// set applies one override; a gate this module does not read is ignored.
func (s *Set) set(name string, v bool) {
	switch name {
	case "AtomicWriteVolumeUserFields":
		s.AtomicWriteVolumeUserFields = v
	case "CSIVolumeHealth":
		s.CSIVolumeHealth = v
	case "ChangeContainerStatusOnKubeletRestart":
		s.ChangeContainerStatusOnKubeletRestart = v
	case "ClusterTrustBundleProjection":
		s.ClusterTrustBundleProjection = v
	case "ContainerRestartRules":
		s.ContainerRestartRules = v
	case "ContainerStopSignals":
		s.ContainerStopSignals = v
	case "DRANodeAllocatableResources":
		s.DRANodeAllocatableResources = v
	case "DeclarativeValidationBeta":
		s.DeclarativeValidationBeta = v
	case "DynamicResourceAllocation":
		s.DynamicResourceAllocation = v
	case "EmptyDirVolumeMode":
		s.EmptyDirVolumeMode = v
	case "EnvFiles":
		s.EnvFiles = v
	case "EvictionRequestAPI":
		s.EvictionRequestAPI = v
	case "GRPCContainerProbeTLS":
		s.GRPCContainerProbeTLS = v
	case "GenericWorkload":
		s.GenericWorkload = v
	case "H2CContainerProbe":
		s.H2CContainerProbe = v
	case "HostnameOverride":
		s.HostnameOverride = v
	case "ImageVolume":
		s.ImageVolume = v
	case "InPlacePodLevelResourcesVerticalScaling":
		s.InPlacePodLevelResourcesVerticalScaling = v
	case "InPlacePodVerticalScaling":
		s.InPlacePodVerticalScaling = v
	case "InPlacePodVerticalScalingMemoryBackedVolumes":
		s.InPlacePodVerticalScalingMemoryBackedVolumes = v
	case "JobManagedBy":
		s.JobManagedBy = v
	case "KubeletCrashLoopBackOffMax":
		s.KubeletCrashLoopBackOffMax = v
	case "MatchLabelKeysInPodAffinity":
		s.MatchLabelKeysInPodAffinity = v
	case "MatchLabelKeysInPodTopologySpread":
		s.MatchLabelKeysInPodTopologySpread = v
	case "MatchLabelKeysInPodTopologySpreadSelectorMerge":
		s.MatchLabelKeysInPodTopologySpreadSelectorMerge = v
	case "MaxUnavailableStatefulSet":
		s.MaxUnavailableStatefulSet = v
	case "MutablePodResourcesForSuspendedJobs":
		s.MutablePodResourcesForSuspendedJobs = v
	case "MutableSchedulingDirectivesForSuspendedJobs":
		s.MutableSchedulingDirectivesForSuspendedJobs = v
	case "NodeInclusionPolicyInPodTopologySpread":
		s.NodeInclusionPolicyInPodTopologySpread = v
	case "PodCertificateRequest":
		s.PodCertificateRequest = v
	case "PodDeletionCost":
		s.PodDeletionCost = v
	case "PodLevelResources":
		s.PodLevelResources = v
	case "PodLevelResourcesFixDefaulting":
		s.PodLevelResourcesFixDefaulting = v
	case "PodLevelResourcesFixKubeletQOSClass":
		s.PodLevelResourcesFixKubeletQOSClass = v
	case "PodObservedGenerationTracking":
		s.PodObservedGenerationTracking = v
	case "PodReadyToStartContainersCondition":
		s.PodReadyToStartContainersCondition = v
	case "ProcMountType":
		s.ProcMountType = v
	case "RecursiveReadOnlyMounts":
		s.RecursiveReadOnlyMounts = v
	case "ReduceDefaultCrashLoopBackOffDecay":
		s.ReduceDefaultCrashLoopBackOffDecay = v
	case "RelaxedEnvironmentVariableValidation":
		s.RelaxedEnvironmentVariableValidation = v
	case "ResourceHealthStatus":
		s.ResourceHealthStatus = v
	case "RestartAllContainersOnContainerExits":
		s.RestartAllContainersOnContainerExits = v
	case "SELinuxChangePolicy":
		s.SELinuxChangePolicy = v
	case "SELinuxMount":
		s.SELinuxMount = v
	case "StatefulSetRecreateStrategy":
		s.StatefulSetRecreateStrategy = v
	case "StrictIPCIDRValidation":
		s.StrictIPCIDRValidation = v
	case "SupplementalGroupsPolicy":
		s.SupplementalGroupsPolicy = v
	case "TaintTolerationComparisonOperators":
		s.TaintTolerationComparisonOperators = v
	case "UserNamespacesHostNetworkSupport":
		s.UserNamespacesHostNetworkSupport = v
	case "UserNamespacesSupport":
		s.UserNamespacesSupport = v
	case "VolumeAttributesClass":
		s.VolumeAttributesClass = v
	case "VolumeBindMountOptions":
		s.VolumeBindMountOptions = v
	case "WorkloadWithJob":
		s.WorkloadWithJob = v
	}
}

// resolveEach resolves every field with Enabled.
func resolveEach(g FeatureGates) Set {
	var s Set
	for _, name := range setFields {
		s.set(name, g.Enabled(name))
	}
	return s
}

// setFields names the fields of Set, in order.
var setFields = []string{
	"AtomicWriteVolumeUserFields",
	"CSIVolumeHealth",
	"ChangeContainerStatusOnKubeletRestart",
	"ClusterTrustBundleProjection",
	"ContainerRestartRules",
	"ContainerStopSignals",
	"DRANodeAllocatableResources",
	"DeclarativeValidationBeta",
	"DynamicResourceAllocation",
	"EmptyDirVolumeMode",
	"EnvFiles",
	"EvictionRequestAPI",
	"GRPCContainerProbeTLS",
	"GenericWorkload",
	"H2CContainerProbe",
	"HostnameOverride",
	"ImageVolume",
	"InPlacePodLevelResourcesVerticalScaling",
	"InPlacePodVerticalScaling",
	"InPlacePodVerticalScalingMemoryBackedVolumes",
	"JobManagedBy",
	"KubeletCrashLoopBackOffMax",
	"MatchLabelKeysInPodAffinity",
	"MatchLabelKeysInPodTopologySpread",
	"MatchLabelKeysInPodTopologySpreadSelectorMerge",
	"MaxUnavailableStatefulSet",
	"MutablePodResourcesForSuspendedJobs",
	"MutableSchedulingDirectivesForSuspendedJobs",
	"NodeInclusionPolicyInPodTopologySpread",
	"PodCertificateRequest",
	"PodDeletionCost",
	"PodLevelResources",
	"PodLevelResourcesFixDefaulting",
	"PodLevelResourcesFixKubeletQOSClass",
	"PodObservedGenerationTracking",
	"PodReadyToStartContainersCondition",
	"ProcMountType",
	"RecursiveReadOnlyMounts",
	"ReduceDefaultCrashLoopBackOffDecay",
	"RelaxedEnvironmentVariableValidation",
	"ResourceHealthStatus",
	"RestartAllContainersOnContainerExits",
	"SELinuxChangePolicy",
	"SELinuxMount",
	"StatefulSetRecreateStrategy",
	"StrictIPCIDRValidation",
	"SupplementalGroupsPolicy",
	"TaintTolerationComparisonOperators",
	"UserNamespacesHostNetworkSupport",
	"UserNamespacesSupport",
	"VolumeAttributesClass",
	"VolumeBindMountOptions",
	"WorkloadWithJob",
}
