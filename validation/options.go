package validation

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/podlife/podlife/internal/gates"
	"github.com/podlife/podlife/internal/podutil"
)

// Options tune validation to a particular API server. The zero value validates as a
// default Kubernetes v1.37.2 kube-apiserver.
type Options struct {
	// Features overrides feature gates by upstream name: a podlife.FeatureGates (the
	// same type), resolved as a v1.37.2 component resolves --feature-gates; nil means
	// the v1.37.2 defaults.
	// Gates reach validation the way they do upstream: through the fields the server
	// drops before validating (DropDisabledPodFields) and through the derived
	// validation options (GetValidationOptionsFromPodSpecAndMeta).
	Features gates.FeatureGates

	// AllowPrivileged mirrors kube-apiserver's --allow-privileged flag (default false).
	// When false, a container with securityContext.privileged: true is rejected with
	// Forbidden "disallowed by cluster policy", and a Windows host-process pod with
	// "hostProcess containers are disallowed by cluster policy", as on a server
	// started without the flag. So the zero value is a kube-apiserver started with its
	// own defaults; the clusters most people run (kubeadm, kind, the managed services)
	// start it with --allow-privileged=true, so set it to true to answer as they do
	// (examples/validate does by default).
	AllowPrivileged bool

	// SkipDefaulting validates the object without defaulting and without dropping
	// disabled-gate fields. The server always does both, so leave it false to get
	// the server's answer; set it to validate an object that is already prepared.
	// ValidatePodCreate and ValidateObjectCreate still apply Namespace and generate
	// the name; the other steps of a kind's PrepareForCreate (a Job's generated
	// selector, a status reset) are skipped with the defaults.
	SkipDefaulting bool

	// Namespace is the namespace of the create request, the one in the URL
	// (/api/v1/namespaces/NAMESPACE/pods); kubectl sends the -n flag, else the
	// object's own namespace, else the context's, "default" by default. Used by
	// ValidatePodCreate and ValidateObjectCreate only (an update's namespace is the
	// stored object's). An object without metadata.namespace is created in
	// Namespace, or in "default" when Namespace is empty too. When both are set and
	// differ, the server refuses the request (NamespaceMismatchDetail). The empty
	// value therefore means: the object's own namespace, or "default".
	Namespace string

	// patch marks an update sent as a patch (kubectl apply's): the server takes no
	// uid precondition from a patch, so a changed uid is validation's error.
	patch bool
}

// podValidationOptions mirrors k8s.io/kubernetes pkg/apis/core/validation
// PodValidationOptions: the per-request switches the server derives from the feature
// gates and from what the old object (on update) already uses.
type podValidationOptions struct {
	// allowInvalidPodDeletionCost skips the pod-deletion-cost annotation check.
	allowInvalidPodDeletionCost bool
	// allowIndivisibleHugePagesValues allows hugepage quantities that are not a
	// multiple of the page size (old object already had one).
	allowIndivisibleHugePagesValues bool
	// resourceIsPod is true for a Pod, false for a PodSpec inside a template.
	resourceIsPod bool
	// allowRelaxedEnvironmentVariableValidation selects the relaxed env-name rule.
	allowRelaxedEnvironmentVariableValidation bool
	// podLevelResourcesEnabled makes spec.resources validated at all.
	podLevelResourcesEnabled bool
	// inPlacePodLevelResourcesVerticalScalingEnabled and
	// inPlacePodVerticalScalingMemoryBackedVolumesEnabled are used on resize only.
	inPlacePodLevelResourcesVerticalScalingEnabled      bool
	inPlacePodVerticalScalingMemoryBackedVolumesEnabled bool
	// allowSidecarResizePolicy allows resizePolicy on sidecar containers.
	allowSidecarResizePolicy bool
	// allowEnvFilesValidation selects the env valueFrom wording that names fileKeyRef.
	allowEnvFilesValidation bool
	// allowContainerRestartPolicyRules allows container restartPolicy and rules.
	allowContainerRestartPolicyRules bool
	// allowExistingRestartContainerForNonSidecarInitContainer keeps an old
	// RestartContainer resize policy on a non-sidecar init container valid.
	allowExistingRestartContainerForNonSidecarInitContainer bool
	// allowRestartAllContainers allows the RestartAllContainers action and rules on sidecars.
	allowRestartAllContainers bool
	// allowSysAdminWhenPrivilegeEscalationFalse tolerates CAP_SYS_ADMIN with
	// allowPrivilegeEscalation: false (old object already had it).
	allowSysAdminWhenPrivilegeEscalationFalse bool
	// allowTaintTolerationComparisonOperators allows the Lt and Gt toleration operators.
	allowTaintTolerationComparisonOperators bool
	// allowNamespacedSysctlsForHostNetAndHostIPC tolerates net/IPC sysctls on pods
	// sharing those namespaces with the host (old object already had them).
	allowNamespacedSysctlsForHostNetAndHostIPC bool
	// allowOnlyRecursiveSELinuxChangePolicy restricts seLinuxChangePolicy to Recursive.
	allowOnlyRecursiveSELinuxChangePolicy bool
	// allowUserNamespacesHostNetworkSupport allows hostNetwork with hostUsers: false.
	allowUserNamespacesHostNetworkSupport bool
	// allowUserNamespacesWithVolumeDevices tolerates volumeDevices with hostUsers: false.
	allowUserNamespacesWithVolumeDevices bool
	// allowInvalidLabelValueInSelector and allowInvalidLabelValueInRequiredNodeAffinity
	// keep old objects with invalid selector values in affinity updatable.
	allowInvalidLabelValueInSelector             bool
	allowInvalidLabelValueInRequiredNodeAffinity bool
	// The topology-spread matchLabelKeys switches (gates and old-object flags).
	allowMatchLabelKeysInPodTopologySpread              bool
	allowMatchLabelKeysInPodTopologySpreadSelectorMerge bool
	oldPodViolatesMatchLabelKeysValidation              bool
	oldPodViolatesLegacyMatchLabelKeysValidation        bool
	allowInvalidTopologySpreadConstraintLabelSelector   bool
	// allowEmptyImageVolumeReference keeps an old image volume without reference valid.
	allowEmptyImageVolumeReference bool
	// allowNonLocalProjectedTokenPath keeps an old non-local token path valid.
	allowNonLocalProjectedTokenPath bool
	// strictIPValidation is the StrictIPCIDRValidation gate (legacy IP fields).
	strictIPValidation bool
	// allowPrivileged is the kube-apiserver capability (--allow-privileged).
	allowPrivileged bool
}

// resolveOptions mirrors k8s.io/kubernetes pkg/api/pod/util.go
// GetValidationOptionsFromPodSpecAndMeta for a pod (oldPod nil on create). The
// result has resourceIsPod false; pod callers set it, as the pod strategy does.
func resolveOptions(opts Options, newPod, oldPod *corev1.Pod) podValidationOptions {
	if len(opts.Features) == 0 && oldPod == nil {
		// A create on a default server: the options depend on nothing else (the only
		// new-pod input, relaxed env var names, is decided by a gate locked on).
		o := defaultCreateOptions
		o.allowPrivileged = opts.AllowPrivileged
		return o
	}
	return computeOptions(opts, newPod, oldPod)
}

// defaultCreateOptions is computeOptions for a create with default gates.
var defaultCreateOptions = computeOptions(Options{}, nil, nil)

// computeOptions is resolveOptions without the shortcut.
func computeOptions(opts Options, newPod, oldPod *corev1.Pod) podValidationOptions {
	f := opts.Features.Resolve()
	o := podValidationOptions{
		allowInvalidPodDeletionCost:                         !f.PodDeletionCost,
		podLevelResourcesEnabled:                            f.PodLevelResources,
		allowSidecarResizePolicy:                            f.InPlacePodVerticalScaling,
		inPlacePodLevelResourcesVerticalScalingEnabled:      f.InPlacePodLevelResourcesVerticalScaling,
		inPlacePodVerticalScalingMemoryBackedVolumesEnabled: f.InPlacePodVerticalScalingMemoryBackedVolumes,
		allowContainerRestartPolicyRules:                    f.ContainerRestartRules,
		allowRestartAllContainers:                           f.RestartAllContainersOnContainerExits,
		allowPrivileged:                                     opts.AllowPrivileged,
		strictIPValidation:                                  f.StrictIPCIDRValidation,
		allowMatchLabelKeysInPodTopologySpread:              f.MatchLabelKeysInPodTopologySpread,
		allowMatchLabelKeysInPodTopologySpreadSelectorMerge: f.MatchLabelKeysInPodTopologySpreadSelectorMerge,
	}
	var oldSpec *corev1.PodSpec
	if oldPod != nil {
		oldSpec = &oldPod.Spec
	}
	var newSpec *corev1.PodSpec
	if newPod != nil {
		newSpec = &newPod.Spec
	}
	o.allowExistingRestartContainerForNonSidecarInitContainer = hasRestartContainerForNonSidecarInit(oldSpec)
	o.allowRelaxedEnvironmentVariableValidation = useRelaxedEnvVarValidation(f.RelaxedEnvironmentVariableValidation, newSpec, oldSpec)
	o.allowEnvFilesValidation = f.EnvFiles || usesEnvFileKeyRef(oldSpec)
	o.allowTaintTolerationComparisonOperators = f.TaintTolerationComparisonOperators || (oldSpec != nil && tolerationComparisonInUse(oldSpec))
	o.allowOnlyRecursiveSELinuxChangePolicy = !f.SELinuxMount &&
		!(oldSpec != nil && oldSpec.SecurityContext != nil && oldSpec.SecurityContext.SELinuxChangePolicy != nil)
	o.allowUserNamespacesHostNetworkSupport = f.UserNamespacesHostNetworkSupport ||
		(oldSpec != nil && oldSpec.HostUsers != nil && !*oldSpec.HostUsers && oldSpec.HostNetwork)
	if oldSpec != nil {
		o.allowUserNamespacesWithVolumeDevices = usesUserNamespacesWithVolumeDevices(oldSpec)
		if oldSpec.SecurityContext != nil {
			for _, s := range oldSpec.SecurityContext.Sysctls {
				if validateHostSysctl(s.Name, oldSpec, lpath{}) != nil {
					o.allowNamespacedSysctlsForHostNetAndHostIPC = true
					break
				}
			}
		}
		o.allowInvalidLabelValueInSelector = hasInvalidAffinitySelector(oldSpec)
		for _, v := range oldSpec.Volumes {
			if v.Image != nil && v.Image.Reference == "" {
				o.allowEmptyImageVolumeReference = true
			}
			if v.Projected == nil {
				continue
			}
			for _, s := range v.Projected.Sources {
				if s.ServiceAccountToken != nil && len(validateLocalNonReservedPath(s.ServiceAccountToken.Path, lpath{})) != 0 {
					o.allowNonLocalProjectedTokenPath = true
				}
			}
		}
		o.allowInvalidLabelValueInRequiredNodeAffinity = hasInvalidRequiredNodeAffinityValue(oldSpec)
		for _, c := range oldSpec.TopologySpreadConstraints {
			if len(validateLabelSelector(c.LabelSelector, false, lpath{})) != 0 {
				o.allowInvalidTopologySpreadConstraintLabelSelector = true
			}
			if o.allowMatchLabelKeysInPodTopologySpread {
				if o.allowMatchLabelKeysInPodTopologySpreadSelectorMerge {
					if len(validateMatchLabelKeysAndMismatchLabelKeys(lpath{}, c.MatchLabelKeys, nil, c.LabelSelector)) != 0 {
						o.oldPodViolatesMatchLabelKeysValidation = true
					}
				} else if len(validateMatchLabelKeysInTopologySpread(lpath{}, c.MatchLabelKeys, c.LabelSelector)) != 0 {
					o.oldPodViolatesLegacyMatchLabelKeysValidation = true
				}
			}
		}
		o.allowIndivisibleHugePagesValues = usesIndivisibleHugePages(oldSpec)
		o.allowSidecarResizePolicy = o.allowSidecarResizePolicy || hasSidecarResizePolicy(oldSpec)
		o.allowContainerRestartPolicyRules = o.allowContainerRestartPolicyRules || podutil.RestartRulesInUse(oldSpec)
		o.allowRestartAllContainers = o.allowRestartAllContainers || restartAllContainersInUse(oldSpec)
		o.allowSysAdminWhenPrivilegeEscalationFalse = usesSysAdminWithoutEscalation(oldSpec)
	}
	if oldPod != nil && !o.allowInvalidPodDeletionCost {
		// Only keep checking the annotation if the stored object passed the check.
		_, ok := parseDeletionCost(oldPod.Annotations)
		o.allowInvalidPodDeletionCost = !ok
	}
	return o
}
