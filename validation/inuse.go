package validation

import (
	"strconv"

	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/podlife/podlife/internal/podutil"

	corev1 "k8s.io/api/core/v1"
)

// The helpers below mirror the "...InUse" predicates of k8s.io/kubernetes
// pkg/api/pod/util.go that relax validation for fields an old object already uses.

func hasRestartContainerForNonSidecarInit(spec *corev1.PodSpec) bool {
	if spec == nil {
		return false
	}
	for i := range spec.InitContainers {
		c := &spec.InitContainers[i]
		if podutil.IsSidecar(c) {
			continue
		}
		for _, p := range c.ResizePolicy {
			if p.RestartPolicy == corev1.RestartContainer {
				return true
			}
		}
	}
	return false
}

func hasSidecarResizePolicy(spec *corev1.PodSpec) bool {
	for i := range spec.InitContainers {
		if podutil.IsSidecar(&spec.InitContainers[i]) && len(spec.InitContainers[i].ResizePolicy) > 0 {
			return true
		}
	}
	return false
}

func restartAllContainersInUse(spec *corev1.PodSpec) bool {
	if spec == nil {
		return false
	}
	for i := range spec.Containers {
		for _, r := range spec.Containers[i].RestartPolicyRules {
			if r.Action == corev1.ContainerRestartRuleActionRestartAllContainers {
				return true
			}
		}
	}
	for i := range spec.InitContainers {
		c := &spec.InitContainers[i]
		for _, r := range c.RestartPolicyRules {
			if r.Action == corev1.ContainerRestartRuleActionRestartAllContainers {
				return true
			}
		}
		if podutil.IsSidecar(c) && len(c.RestartPolicyRules) > 0 {
			return true
		}
	}
	return false
}

// forEachContainer visits init, regular and ephemeral containers (upstream's
// AllContainers mask order) until fn returns false.
func forEachContainer(spec *corev1.PodSpec, fn func(c *corev1.Container) bool) {
	for i := range spec.InitContainers {
		if !fn(&spec.InitContainers[i]) {
			return
		}
	}
	for i := range spec.Containers {
		if !fn(&spec.Containers[i]) {
			return
		}
	}
	for i := range spec.EphemeralContainers {
		c := corev1.Container(spec.EphemeralContainers[i].EphemeralContainerCommon)
		if !fn(&c) {
			return
		}
	}
}

func usesEnvFileKeyRef(spec *corev1.PodSpec) bool {
	if spec == nil {
		return false
	}
	found := false
	forEachContainer(spec, func(c *corev1.Container) bool {
		for i := range c.Env {
			if c.Env[i].ValueFrom != nil && c.Env[i].ValueFrom.FileKeyRef != nil {
				found = true
				return false
			}
		}
		return true
	})
	return found
}

func usesSysAdminWithoutEscalation(spec *corev1.PodSpec) bool {
	found := false
	forEachContainer(spec, func(c *corev1.Container) bool {
		sc := c.SecurityContext
		if sc == nil || (sc.AllowPrivilegeEscalation != nil && *sc.AllowPrivilegeEscalation) || sc.Capabilities == nil {
			return true
		}
		for _, cp := range sc.Capabilities.Add {
			if cp == "CAP_SYS_ADMIN" {
				found = true
				return false
			}
		}
		return true
	})
	return found
}

func usesIndivisibleHugePages(spec *corev1.PodSpec) bool {
	indivisible := func(l corev1.ResourceList) bool {
		for name, q := range l {
			if isHugePageName(name) && !hugePageDivisible(name, q) {
				return true
			}
		}
		return false
	}
	found := false
	forEachContainer(spec, func(c *corev1.Container) bool {
		found = indivisible(c.Resources.Limits) || indivisible(c.Resources.Requests)
		return !found
	})
	return found || indivisible(spec.Overhead)
}

// useRelaxedEnvVarValidation mirrors useRelaxedEnvironmentVariableValidation: the
// gate (GA and locked on in v1.37) or a relaxed-only name the old pod already used.
func useRelaxedEnvVarValidation(relaxed bool, newSpec, oldSpec *corev1.PodSpec) bool {
	if relaxed {
		return true
	}
	if oldSpec == nil || newSpec == nil {
		return false
	}
	old := envVarNames(oldSpec)
	if len(old) == 0 {
		return false
	}
	for name := range envVarNames(newSpec) {
		if len(isEnvVarName(name)) == 0 || len(isRelaxedEnvVarName(name)) != 0 {
			continue
		}
		if _, ok := old[name]; ok {
			return true
		}
	}
	return false
}

func envVarNames(spec *corev1.PodSpec) map[string]struct{} {
	names := map[string]struct{}{}
	forEachContainer(spec, func(c *corev1.Container) bool {
		for i := range c.Env {
			names[c.Env[i].Name] = struct{}{}
		}
		for i := range c.EnvFrom {
			names[c.EnvFrom[i].Prefix] = struct{}{}
		}
		return true
	})
	return names
}

// parseDeletionCost mirrors k8s.io/kubernetes pkg/apis/core/helper
// GetDeletionCostFromPodAnnotations; ok is false when the annotation is invalid.
func parseDeletionCost(annotations map[string]string) (int32, bool) {
	v, exists := annotations[corev1.PodDeletionCost]
	if !exists {
		return 0, true
	}
	// No "+" sign and no leading zeros.
	if len(v) == 0 || !(v[0] == '-' || v == "0" || (v[0] >= '1' && v[0] <= '9')) {
		return 0, false
	}
	i, err := strconv.ParseInt(v, 10, 32)
	if err != nil {
		return 0, false
	}
	return int32(i), true
}

func usesUserNamespacesWithVolumeDevices(spec *corev1.PodSpec) bool {
	if spec.HostUsers == nil || *spec.HostUsers {
		return false
	}
	found := false
	forEachContainer(spec, func(c *corev1.Container) bool {
		found = len(c.VolumeDevices) > 0
		return !found
	})
	return found
}

// hasInvalidAffinitySelector mirrors hasInvalidLabelValueInAffinitySelector.
func hasInvalidAffinitySelector(spec *corev1.PodSpec) bool {
	a := spec.Affinity
	if a == nil {
		return false
	}
	check := func(req []corev1.PodAffinityTerm, pref []corev1.WeightedPodAffinityTerm) bool {
		for i := range req {
			if len(validatePodAffinityTermSelector(&req[i], false, lpath{})) != 0 {
				return true
			}
		}
		for i := range pref {
			if len(validatePodAffinityTermSelector(&pref[i].PodAffinityTerm, false, lpath{})) != 0 {
				return true
			}
		}
		return false
	}
	if a.PodAffinity != nil && check(a.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution, a.PodAffinity.PreferredDuringSchedulingIgnoredDuringExecution) {
		return true
	}
	return a.PodAntiAffinity != nil && check(a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution, a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution)
}

// hasInvalidRequiredNodeAffinityValue mirrors hasInvalidLabelValueInRequiredNodeAffinity.
func hasInvalidRequiredNodeAffinityValue(spec *corev1.PodSpec) bool {
	if spec.Affinity == nil || spec.Affinity.NodeAffinity == nil || spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil {
		return false
	}
	for _, term := range spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms {
		for _, e := range term.MatchExpressions {
			for _, v := range e.Values {
				if len(validation.IsValidLabelValue(v)) > 0 {
					return true
				}
			}
		}
	}
	return false
}
