package defaulting

import (
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podlife/podlife/internal/gates"
)

// mergeAffinityLabelKeys turns matchLabelKeys and mismatchLabelKeys of pod (anti-)affinity
// terms into label-selector requirements on the pod's own label values
// (mutatePodAffinity in k8s.io/kubernetes pkg/registry/core/pod/strategy.go).
func mergeAffinityLabelKeys(pod *corev1.Pod, g *gates.Set) {
	a := pod.Spec.Affinity
	if !g.MatchLabelKeysInPodAffinity || a == nil {
		return
	}
	for _, pa := range []*corev1.PodAffinity{a.PodAffinity, (*corev1.PodAffinity)(a.PodAntiAffinity)} {
		if pa == nil {
			continue
		}
		for i := range pa.PreferredDuringSchedulingIgnoredDuringExecution {
			mergeTermLabelKeys(&pa.PreferredDuringSchedulingIgnoredDuringExecution[i].PodAffinityTerm, pod.Labels)
		}
		for i := range pa.RequiredDuringSchedulingIgnoredDuringExecution {
			mergeTermLabelKeys(&pa.RequiredDuringSchedulingIgnoredDuringExecution[i], pod.Labels)
		}
	}
}

func mergeTermLabelKeys(t *corev1.PodAffinityTerm, labels map[string]string) {
	// A nil selector matches nothing; there is nothing to narrow.
	if (len(t.MatchLabelKeys) == 0 && len(t.MismatchLabelKeys) == 0) || t.LabelSelector == nil {
		return
	}
	appendLabelKeyRequirements(t.LabelSelector, t.MatchLabelKeys, metav1.LabelSelectorOpIn, labels)
	appendLabelKeyRequirements(t.LabelSelector, t.MismatchLabelKeys, metav1.LabelSelectorOpNotIn, labels)
}

func appendLabelKeyRequirements(s *metav1.LabelSelector, keys []string, op metav1.LabelSelectorOperator, labels map[string]string) {
	for _, k := range keys {
		if v, ok := labels[k]; ok {
			s.MatchExpressions = append(s.MatchExpressions, metav1.LabelSelectorRequirement{Key: k, Operator: op, Values: []string{v}})
		}
	}
}

// mergeTopologySpreadLabelKeys is the same merge for topology spread constraints
// (mutateTopologySpreadConstraints).
func mergeTopologySpreadLabelKeys(pod *corev1.Pod, g *gates.Set) {
	if !g.MatchLabelKeysInPodTopologySpread || !g.MatchLabelKeysInPodTopologySpreadSelectorMerge {
		return
	}
	for i := range pod.Spec.TopologySpreadConstraints {
		c := &pod.Spec.TopologySpreadConstraints[i]
		if len(c.MatchLabelKeys) == 0 || c.LabelSelector == nil {
			continue
		}
		appendLabelKeyRequirements(c.LabelSelector, c.MatchLabelKeys, metav1.LabelSelectorOpIn, pod.Labels)
	}
}

// syncAppArmorAnnotations copies each container's deprecated AppArmor annotation into
// its securityContext.appArmorProfile when the field is unset, the annotation is valid
// and it differs from the pod-level profile (applyAppArmorVersionSkew). Windows pods
// are left alone.
func syncAppArmorAnnotations(pod *corev1.Pod) {
	if pod.Spec.OS != nil && pod.Spec.OS.Name == corev1.Windows {
		return
	}
	found := false
	for k := range pod.Annotations {
		if strings.HasPrefix(k, corev1.DeprecatedAppArmorBetaContainerAnnotationKeyPrefix) {
			found = true
			break
		}
	}
	if !found {
		return
	}
	var podProfile *corev1.AppArmorProfile
	if pod.Spec.SecurityContext != nil {
		podProfile = pod.Spec.SecurityContext.AppArmorProfile
	}
	forEachContainer(&pod.Spec, func(c *corev1.Container) {
		annotation, ok := pod.Annotations[corev1.DeprecatedAppArmorBetaContainerAnnotationKeyPrefix+c.Name]
		if !ok || (c.SecurityContext != nil && c.SecurityContext.AppArmorProfile != nil) {
			return
		}
		profile := AppArmorAnnotationProfile(annotation, true)
		if profile == nil || SameAppArmorProfile(profile, podProfile) {
			return
		}
		// A new security context, not a write into the old one: the read-only path
		// shares containers' security contexts with the input (see share.go).
		var sc corev1.SecurityContext
		if c.SecurityContext != nil {
			sc = *c.SecurityContext
		}
		sc.AppArmorProfile = profile
		c.SecurityContext = &sc
	})
}

// AppArmorAnnotationProfile returns the profile a deprecated AppArmor annotation's
// value stands for (pkg/api/pod ApparmorFieldForAnnotation), or nil for an unknown
// value. With checked, a profile field validation would refuse is nil too (padded,
// blank or over-long localhost names), as PrepareForCreate checks before copying it.
func AppArmorAnnotationProfile(v string, checked bool) *corev1.AppArmorProfile {
	switch {
	case v == corev1.DeprecatedAppArmorBetaProfileNameUnconfined:
		return &corev1.AppArmorProfile{Type: corev1.AppArmorProfileTypeUnconfined}
	case v == corev1.DeprecatedAppArmorBetaProfileRuntimeDefault:
		return &corev1.AppArmorProfile{Type: corev1.AppArmorProfileTypeRuntimeDefault}
	case strings.HasPrefix(v, corev1.DeprecatedAppArmorBetaProfileNamePrefix):
		name := strings.TrimPrefix(v, corev1.DeprecatedAppArmorBetaProfileNamePrefix)
		if name == "" || checked && (strings.TrimSpace(name) != name || len(name) > 4095) {
			return nil
		}
		return &corev1.AppArmorProfile{Type: corev1.AppArmorProfileTypeLocalhost, LocalhostProfile: &name}
	}
	return nil
}

// SameAppArmorProfile is apiequality.Semantic.DeepEqual for AppArmor profiles.
func SameAppArmorProfile(a, b *corev1.AppArmorProfile) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Type != b.Type {
		return false
	}
	if a.LocalhostProfile == nil || b.LocalhostProfile == nil {
		return a.LocalhostProfile == b.LocalhostProfile
	}
	return *a.LocalhostProfile == *b.LocalhostProfile
}
