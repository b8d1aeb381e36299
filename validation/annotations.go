package validation

import (
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

const (
	mirrorPodAnnotationKey   = "kubernetes.io/config.mirror"
	tolerationsAnnotationKey = "scheduler.alpha.kubernetes.io/tolerations"
)

// sortedKeys returns the annotation keys in ascending order: upstream ranges over the
// map, podlife reports deterministically.
func sortedKeys(m map[string]string) []string {
	return appendSortedKeys(make([]string, 0, len(m)), m)
}

// appendSortedKeys appends the keys of m to dst in ascending order; callers pass a
// small stack buffer.
func appendSortedKeys(dst []string, m map[string]string) []string {
	for k := range m {
		dst = append(dst, k)
	}
	slices.Sort(dst)
	return dst
}

// validatePodSpecificAnnotations mirrors upstream ValidatePodSpecificAnnotations.
func validatePodSpecificAnnotations(annotations map[string]string, spec *corev1.PodSpec, fldPath *field.Path, o *podValidationOptions) field.ErrorList {
	return validatePodSpecificAnnotationsL(annotations, spec, fromPath(fldPath), o)
}

func validatePodSpecificAnnotationsL(annotations map[string]string, spec *corev1.PodSpec, fldPath lpath, o *podValidationOptions) field.ErrorList {
	var allErrs field.ErrorList
	if v, ok := annotations[mirrorPodAnnotationKey]; ok && spec.NodeName == "" {
		allErrs = append(allErrs, invalidAt(fldPath.Key(mirrorPodAnnotationKey), v, "must set spec.nodeName if mirror pod annotation is set"))
	}
	if v := annotations[tolerationsAnnotationKey]; v != "" {
		allErrs = append(allErrs, validateTolerationsAnnotation(v, fldPath, o)...)
	}
	if !o.allowInvalidPodDeletionCost {
		if _, ok := parseDeletionCost(annotations); !ok {
			allErrs = append(allErrs, invalidAt(fldPath.Key(corev1.PodDeletionCost), annotations[corev1.PodDeletionCost], "must be a 32bit integer"))
		}
	}
	if len(annotations) == 0 {
		return allErrs
	}
	// Seccomp annotations: the pod one first, then container ones.
	if p, ok := annotations[corev1.SeccompPodAnnotationKey]; ok {
		allErrs = append(allErrs, validateSeccompProfileAnnotation(p, fldPath.Child(corev1.SeccompPodAnnotationKey))...)
	}
	keys := sortedKeys(annotations)
	for _, k := range keys {
		if strings.HasPrefix(k, corev1.SeccompContainerAnnotationKeyPrefix) {
			allErrs = append(allErrs, validateSeccompProfileAnnotation(annotations[k], fldPath.Child(k))...)
		}
	}
	for _, k := range keys {
		if !strings.HasPrefix(k, corev1.DeprecatedAppArmorBetaContainerAnnotationKeyPrefix) {
			continue
		}
		name := strings.TrimPrefix(k, corev1.DeprecatedAppArmorBetaContainerAnnotationKeyPrefix)
		if !specHasContainer(spec, name) {
			allErrs = append(allErrs, invalidAt(fldPath.Key(k), name, "container not found"))
		}
		p := annotations[k]
		if p != "" && p != corev1.DeprecatedAppArmorBetaProfileRuntimeDefault && p != corev1.DeprecatedAppArmorBetaProfileNameUnconfined &&
			!strings.HasPrefix(p, corev1.DeprecatedAppArmorBetaProfileNamePrefix) {
			allErrs = append(allErrs, invalidAt(fldPath.Key(k), p, "invalid AppArmor profile name: "+quote(p)))
		}
	}
	return allErrs
}

func specHasContainer(spec *corev1.PodSpec, name string) bool {
	found := false
	forEachContainer(spec, func(c *corev1.Container) bool {
		found = c.Name == name
		return !found
	})
	return found
}

func validateSeccompProfileAnnotation(p string, fldPath lpath) field.ErrorList {
	switch {
	case p == corev1.SeccompProfileRuntimeDefault, p == corev1.DeprecatedSeccompProfileDockerDefault, p == corev1.SeccompProfileNameUnconfined:
		return nil
	case strings.HasPrefix(p, corev1.SeccompLocalhostProfileNamePrefix):
		return validateLocalDescendingPath(strings.TrimPrefix(p, corev1.SeccompLocalhostProfileNamePrefix), fldPath)
	}
	return field.ErrorList{invalidAt(fldPath, p, "must be a valid seccomp profile")}
}

// visitContainersWithPath visits init, regular, then ephemeral containers with their
// paths, as k8s.io/kubernetes pkg/apis/core/pods VisitContainersWithPath does.
func visitContainersWithPath(spec *corev1.PodSpec, specPath lpath, fn func(c *corev1.Container, p lpath)) {
	for i := range spec.InitContainers {
		fn(&spec.InitContainers[i], specPath.Child("initContainers").Index(i))
	}
	for i := range spec.Containers {
		fn(&spec.Containers[i], specPath.Child("containers").Index(i))
	}
	for i := range spec.EphemeralContainers {
		fn((*corev1.Container)(&spec.EphemeralContainers[i].EphemeralContainerCommon), specPath.Child("ephemeralContainers").Index(i))
	}
}

// validateSeccompAnnotationsAndFieldsL mirrors upstream's create-time check that
// seccomp annotations and fields agree (validateSeccompAnnotationsAndFields).
func validateSeccompAnnotationsAndFieldsL(meta *metav1.ObjectMeta, spec *corev1.PodSpec, specPath lpath) field.ErrorList {
	if len(meta.Annotations) == 0 {
		return nil
	}
	var allErrs field.ErrorList
	if spec.SecurityContext != nil && spec.SecurityContext.SeccompProfile != nil {
		if a, ok := meta.Annotations[corev1.SeccompPodAnnotationKey]; ok {
			if err := seccompAnnotationMatches(a, spec.SecurityContext.SeccompProfile, specPath.Children("securityContext", "seccompProfile")); err != nil {
				allErrs = append(allErrs, err)
			}
		}
	}
	visitContainersWithPath(spec, specPath, func(c *corev1.Container, p lpath) {
		if c.SecurityContext == nil || c.SecurityContext.SeccompProfile == nil {
			return
		}
		if a, ok := meta.Annotations[corev1.SeccompContainerAnnotationKeyPrefix+c.Name]; ok {
			if err := seccompAnnotationMatches(a, c.SecurityContext.SeccompProfile, p.Children("securityContext", "seccompProfile")); err != nil {
				allErrs = append(allErrs, err)
			}
		}
	})
	return allErrs
}

func seccompAnnotationMatches(a string, f *corev1.SeccompProfile, fldPath lpath) *field.Error {
	switch f.Type {
	case corev1.SeccompProfileTypeUnconfined:
		if a != corev1.SeccompProfileNameUnconfined {
			return forbiddenAt(fldPath.Child("type"), "seccomp type in annotation and field must match")
		}
	case corev1.SeccompProfileTypeRuntimeDefault:
		if a != corev1.SeccompProfileRuntimeDefault && a != corev1.DeprecatedSeccompProfileDockerDefault {
			return forbiddenAt(fldPath.Child("type"), "seccomp type in annotation and field must match")
		}
	case corev1.SeccompProfileTypeLocalhost:
		if !strings.HasPrefix(a, corev1.SeccompLocalhostProfileNamePrefix) {
			return forbiddenAt(fldPath.Child("type"), "seccomp type in annotation and field must match")
		} else if f.LocalhostProfile == nil || strings.TrimPrefix(a, corev1.SeccompLocalhostProfileNamePrefix) != *f.LocalhostProfile {
			return forbiddenAt(fldPath.Child("localhostProfile"), "seccomp profile in annotation and field must match")
		}
	}
	return nil
}

// validateAppArmorAnnotationsAndFieldsMatchOnCreateL mirrors upstream's
// validateAppArmorAnnotationsAndFieldsMatchOnCreate.
func validateAppArmorAnnotationsAndFieldsMatchOnCreateL(meta *metav1.ObjectMeta, spec *corev1.PodSpec, specPath lpath) field.ErrorList {
	if (spec.OS != nil && spec.OS.Name == corev1.Windows) || len(meta.Annotations) == 0 {
		return nil
	}
	var allErrs field.ErrorList
	var podProfile *corev1.AppArmorProfile
	if spec.SecurityContext != nil {
		podProfile = spec.SecurityContext.AppArmorProfile
	}
	const (
		typeMismatch    = "apparmor type in annotation and field must match"
		profileMismatch = "apparmor profile in annotation and field must match"
	)
	visitContainersWithPath(spec, specPath, func(c *corev1.Container, p lpath) {
		profile := podProfile
		if c.SecurityContext != nil && c.SecurityContext.AppArmorProfile != nil {
			profile = c.SecurityContext.AppArmorProfile
		}
		if profile == nil {
			return
		}
		a, ok := meta.Annotations[corev1.DeprecatedAppArmorBetaContainerAnnotationKeyPrefix+c.Name]
		if !ok {
			return
		}
		ap := p.Children("securityContext", "appArmorProfile")
		switch profile.Type {
		case corev1.AppArmorProfileTypeUnconfined:
			if a != corev1.DeprecatedAppArmorBetaProfileNameUnconfined {
				allErrs = append(allErrs, forbiddenAt(ap.Child("type"), typeMismatch))
			}
		case corev1.AppArmorProfileTypeRuntimeDefault:
			if a != corev1.DeprecatedAppArmorBetaProfileRuntimeDefault {
				allErrs = append(allErrs, forbiddenAt(ap.Child("type"), typeMismatch))
			}
		case corev1.AppArmorProfileTypeLocalhost:
			if !strings.HasPrefix(a, corev1.DeprecatedAppArmorBetaProfileNamePrefix) {
				allErrs = append(allErrs, forbiddenAt(ap.Child("type"), typeMismatch))
			} else if profile.LocalhostProfile == nil || strings.TrimPrefix(a, corev1.DeprecatedAppArmorBetaProfileNamePrefix) != *profile.LocalhostProfile {
				allErrs = append(allErrs, forbiddenAt(ap.Child("localhostProfile"), profileMismatch))
			}
		}
	})
	return allErrs
}
