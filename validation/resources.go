package validation

import (
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/podlife/podlife/resources"
)

// resourceNameFunc validates a resource name; fldPath is the map's path, the name is
// the key (the path is only built for errors).
type resourceNameFunc func(name corev1.ResourceName, fldPath lpath) field.ErrorList

// sortedResourceNames appends the keys of l to dst in ascending order. Upstream
// ranges over the map (random order); podlife reports in sorted order to stay
// deterministic. Callers pass a small stack buffer as dst.
func sortedResourceNames(dst []corev1.ResourceName, l corev1.ResourceList) []corev1.ResourceName {
	for n := range l {
		dst = append(dst, n)
	}
	slices.Sort(dst)
	return dst
}

// validateResourceRequirements mirrors upstream validateResourceRequirements.
func validateResourceRequirements(req *corev1.ResourceRequirements, nameFn resourceNameFunc, claimNames map[string]struct{}, fldPath lpath, o *podValidationOptions) field.ErrorList {
	var allErrs field.ErrorList
	limPath := fldPath.Child("limits")
	reqPath := fldPath.Child("requests")
	limCPUOrMemory, reqCPUOrMemory := false, false
	limHugePages, reqHugePages := false, false
	var buf [8]corev1.ResourceName
	for _, name := range sortedResourceNames(buf[:0], req.Limits) {
		q := req.Limits[name]
		allErrs = append(allErrs, nameFn(name, limPath)...)
		allErrs = append(allErrs, validateResourceQuantityValue(name, q, limPath)...)
		if isHugePageName(name) {
			limHugePages = true
			if !o.allowIndivisibleHugePagesValues && !hugePageDivisible(name, q) {
				allErrs = append(allErrs, invalidAt(limPath.Key(string(name)), q.String(), q.String()+" is not positive integer multiple of "+string(name)))
			}
		}
		if name == corev1.ResourceCPU || name == corev1.ResourceMemory {
			limCPUOrMemory = true
		}
	}
	for _, name := range sortedResourceNames(buf[:0], req.Requests) {
		q := req.Requests[name]
		allErrs = append(allErrs, nameFn(name, reqPath)...)
		allErrs = append(allErrs, validateResourceQuantityValue(name, q, reqPath)...)
		if limit, ok := req.Limits[name]; ok {
			// Requests of non-overcommittable resources must equal their limits.
			if q.Cmp(limit) != 0 && !isOvercommitAllowed(name) {
				allErrs = append(allErrs, invalidAt(reqPath, q.String(), "must be equal to "+string(name)+" limit of "+limit.String()))
			} else if q.Cmp(limit) > 0 {
				allErrs = append(allErrs, invalidAt(reqPath, q.String(), "must be less than or equal to "+string(name)+" limit of "+limit.String()))
			}
		} else if !isOvercommitAllowed(name) {
			allErrs = append(allErrs, requiredAt(limPath, "Limit must be set for non overcommitable resources"))
		}
		if isHugePageName(name) {
			reqHugePages = true
			if !o.allowIndivisibleHugePagesValues && !hugePageDivisible(name, q) {
				allErrs = append(allErrs, invalidAt(reqPath.Key(string(name)), q.String(), q.String()+" is not positive integer multiple of "+string(name)))
			}
		}
		if name == corev1.ResourceCPU || name == corev1.ResourceMemory {
			reqCPUOrMemory = true
		}
	}
	if !limCPUOrMemory && !reqCPUOrMemory && (reqHugePages || limHugePages) {
		allErrs = append(allErrs, forbiddenAt(fldPath, "HugePages require cpu or memory"))
	}
	if len(req.Claims) > 0 {
		allErrs = append(allErrs, validateResourceClaimNames(req.Claims, claimNames, fldPath.Child("claims"))...)
	}
	return allErrs
}

// validateResourceQuantityValue mirrors upstream ValidateResourceQuantityValue; the
// error path is mapPath[name].
func validateResourceQuantityValue(name corev1.ResourceName, q resource.Quantity, mapPath lpath) field.ErrorList {
	var allErrs field.ErrorList
	if q.Sign() < 0 {
		allErrs = append(allErrs, invalidAt(mapPath.Key(string(name)), q.String(), "must be greater than or equal to 0"))
	}
	if isIntegerResourceName(name) && q.MilliValue()%1000 != 0 {
		allErrs = append(allErrs, invalidAt(mapPath.Key(string(name)), q, "must be an integer"))
	}
	return allErrs
}

func validateResourceClaimNames(claims []corev1.ResourceClaim, podClaimNames map[string]struct{}, fldPath lpath) field.ErrorList {
	if len(claims) == 0 {
		return nil
	}
	var allErrs field.ErrorList
	names := map[string]struct{}{}
	var keys []string // insertion order of names, for the deterministic overlap scan
	for i, claim := range claims {
		name := claim.Name
		idx := fldPath.Index(i)
		if name == "" {
			allErrs = append(allErrs, requiredAt(idx, ""))
			continue
		}
		if _, dup := names[name]; dup {
			allErrs = append(allErrs, duplicateAt(idx, name))
		} else {
			key := name
			if claim.Request != "" {
				allErrs = append(allErrs, validateDNS1123Label(claim.Request, idx.Child("request"))...)
				key += "/" + claim.Request
			}
			if _, dup := names[key]; dup {
				allErrs = append(allErrs, duplicateAt(idx, key))
			} else if claim.Request == "" {
				for _, k := range keys {
					if before, _, ok := strings.Cut(k, "/"); ok && before == name {
						allErrs = append(allErrs, duplicateAt(idx, name))
					}
				}
			}
			if _, seen := names[key]; !seen {
				keys = append(keys, key)
			}
			names[key] = struct{}{}
		}
		if _, ok := podClaimNames[name]; !ok {
			e := notFoundAt(idx, name)
			e.Detail = "must be one of the names in pod.spec.resourceClaims"
			if len(podClaimNames) == 0 {
				e.Detail += " which is empty"
			} else {
				list := make([]string, 0, len(podClaimNames))
				for n := range podClaimNames {
					list = append(list, n)
				}
				slices.Sort(list)
				e.Detail += ": " + strings.Join(list, ", ")
			}
			allErrs = append(allErrs, e)
		}
	}
	return allErrs
}

// validateResourceName mirrors upstream validateResourceName; the error path is
// mapPath[value].
func validateResourceName(value corev1.ResourceName, mapPath lpath) field.ErrorList {
	if isStandardContainerResourceName(value) && validQualifiedName(string(value)) {
		return nil // the common case: cpu, memory, ephemeral-storage, hugepages-<size>
	}
	fldPath := mapPath.Key(string(value))
	var allErrs field.ErrorList
	for _, msg := range qualifiedNameErrs(string(value)) {
		allErrs = append(allErrs, invalidAt(fldPath, value, msg))
	}
	if len(allErrs) != 0 {
		return allErrs
	}
	if !strings.Contains(string(value), "/") && !isStandardResourceName(value) {
		return append(allErrs, invalidAt(fldPath, value, "must be a standard resource type or fully qualified"))
	}
	return allErrs
}

// validateContainerResourceName mirrors upstream ValidateContainerResourceName; the
// error path is mapPath[value].
func validateContainerResourceName(value corev1.ResourceName, mapPath lpath) field.ErrorList {
	allErrs := validateResourceName(value, mapPath)
	if len(allErrs) == 0 && isStandardContainerResourceName(value) {
		return nil
	}
	fldPath := mapPath.Key(string(value))
	if !strings.Contains(string(value), "/") {
		if !isStandardContainerResourceName(value) {
			return append(allErrs, invalidAt(fldPath, value, "must be a standard resource for containers"))
		}
	} else if !isNativeResource(value) && !isExtendedResourceName(value) {
		return append(allErrs, invalidAt(fldPath, value, "doesn't follow extended resource name standard"))
	}
	return allErrs
}

var supportedPodLevelResourceNames = []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceHugePagesPrefix, corev1.ResourceMemory}

// validatePodResourceName mirrors upstream validatePodResourceName; the error path is
// mapPath[value].
func validatePodResourceName(value corev1.ResourceName, mapPath lpath) field.ErrorList {
	if allErrs := validateResourceName(value, mapPath); len(allErrs) != 0 {
		return allErrs
	}
	if value != corev1.ResourceCPU && value != corev1.ResourceMemory && !isHugePageName(value) {
		return field.ErrorList{notSupportedAt(mapPath.Key(string(value)), value, supportedPodLevelResourceNames)}
	}
	return nil
}

func isHugePageName(n corev1.ResourceName) bool {
	return strings.HasPrefix(string(n), corev1.ResourceHugePagesPrefix)
}

// hugePageDivisible mirrors k8s.io/kubernetes pkg/apis/core/helper
// IsHugePageResourceValueDivisible.
func hugePageDivisible(name corev1.ResourceName, q resource.Quantity) bool {
	if !isHugePageName(name) {
		return false
	}
	pageSize, err := resource.ParseQuantity(strings.TrimPrefix(string(name), corev1.ResourceHugePagesPrefix))
	if err != nil {
		return false
	}
	if pageSize.Sign() <= 0 || pageSize.MilliValue()%1000 != 0 {
		return false
	}
	return q.Value()%pageSize.Value() == 0
}

func isNativeResource(n corev1.ResourceName) bool {
	return !strings.Contains(string(n), "/") || strings.Contains(string(n), corev1.ResourceDefaultNamespacePrefix)
}

func isOvercommitAllowed(n corev1.ResourceName) bool {
	return isNativeResource(n) && !isHugePageName(n)
}

func isExtendedResourceName(n corev1.ResourceName) bool {
	if isNativeResource(n) || strings.HasPrefix(string(n), corev1.DefaultResourceRequestsPrefix) {
		return false
	}
	return len(qualifiedNameErrs(corev1.DefaultResourceRequestsPrefix+string(n))) == 0
}

func isIntegerResourceName(n corev1.ResourceName) bool {
	switch n {
	case corev1.ResourcePods, corev1.ResourceQuotas, corev1.ResourceServices,
		corev1.ResourceReplicationControllers, corev1.ResourceSecrets, corev1.ResourceConfigMaps,
		corev1.ResourcePersistentVolumeClaims, corev1.ResourceServicesNodePorts, corev1.ResourceServicesLoadBalancers:
		return true
	}
	return isExtendedResourceName(n)
}

func isStandardResourceName(n corev1.ResourceName) bool {
	switch n {
	case corev1.ResourceCPU, corev1.ResourceMemory, corev1.ResourceEphemeralStorage,
		corev1.ResourceRequestsCPU, corev1.ResourceRequestsMemory, corev1.ResourceRequestsEphemeralStorage,
		corev1.ResourceLimitsCPU, corev1.ResourceLimitsMemory, corev1.ResourceLimitsEphemeralStorage,
		corev1.ResourcePods, corev1.ResourceQuotas, corev1.ResourceServices,
		corev1.ResourceReplicationControllers, corev1.ResourceSecrets, corev1.ResourceConfigMaps,
		corev1.ResourcePersistentVolumeClaims, corev1.ResourceStorage, corev1.ResourceRequestsStorage,
		corev1.ResourceServicesNodePorts, corev1.ResourceServicesLoadBalancers:
		return true
	}
	return isHugePageName(n) || strings.HasPrefix(string(n), corev1.ResourceRequestsHugePagesPrefix)
}

func isStandardContainerResourceName(n corev1.ResourceName) bool {
	return n == corev1.ResourceCPU || n == corev1.ResourceMemory || n == corev1.ResourceEphemeralStorage || isHugePageName(n)
}

// validatePodResources mirrors upstream validatePodResources (spec.resources).
func validatePodResources(spec *corev1.PodSpec, claimNames map[string]struct{}, fldPath lpath, o *podValidationOptions) field.ErrorList {
	if spec.Resources == nil {
		return nil
	}
	resPath := fldPath.Child("resources")
	if spec.OS != nil && spec.OS.Name == corev1.Windows {
		return field.ErrorList{forbiddenAt(resPath, "may not be set for a windows pod")}
	}
	var allErrs field.ErrorList
	if spec.Resources.Claims != nil {
		allErrs = append(allErrs, forbiddenAt(resPath.Child("claims"), "claims may not be set for Resources at pod-level"))
	}
	allErrs = append(allErrs, validateResourceRequirements(spec.Resources, validatePodResourceName, claimNames, resPath, o)...)
	allErrs = append(allErrs, validatePodResourceConsistency(spec, resPath)...)
	return allErrs
}

// validatePodResourceConsistency mirrors upstream validatePodResourceConsistency:
// pod-level requests cover the aggregate container requests, pod-level hugepage
// limits cover the aggregate container limits, and no regular container's limit
// exceeds the pod-level limit.
func validatePodResourceConsistency(spec *corev1.PodSpec, fldPath lpath) field.ErrorList {
	var allErrs field.ErrorList
	pod := &corev1.Pod{Spec: *spec}
	aggReqs := resources.AggregateContainerRequests(pod, resources.PodResourcesOptions{})
	reqPath := fldPath.Child("requests")
	var buf [8]corev1.ResourceName
	for _, name := range sortedResourceNames(buf[:0], aggReqs) {
		podReq, ok := spec.Resources.Requests[name]
		if !ok {
			continue
		}
		agg := aggReqs[name]
		if agg.Cmp(podReq) > 0 {
			allErrs = append(allErrs, invalidAt(reqPath.Key(string(name)), podReq.String(), "must be greater than or equal to aggregate container requests of "+agg.String()))
		}
	}
	// The requests are read: their map takes the limits (Reuse clears it first).
	aggLims := resources.AggregateContainerLimits(pod, resources.PodResourcesOptions{Reuse: aggReqs})
	for _, name := range sortedResourceNames(buf[:0], aggLims) {
		if !isHugePageName(name) {
			continue
		}
		podLim, ok := spec.Resources.Limits[name]
		if !ok {
			continue
		}
		agg := aggLims[name]
		if agg.Cmp(podLim) > 0 {
			allErrs = append(allErrs, invalidAt(fldPath.Child("limits").Key(string(name)), podLim.String(), "must be greater than or equal to aggregate container limits of "+agg.String()))
		}
	}
	for i := range spec.Containers {
		lims := spec.Containers[i].Resources.Limits
		for _, name := range sortedResourceNames(buf[:0], lims) {
			podLim, ok := spec.Resources.Limits[name]
			if !ok {
				continue
			}
			cl := lims[name]
			if cl.Cmp(podLim) > 0 {
				allErrs = append(allErrs, invalidAt(fldPath.Child("containers").Index(i).Key(string(name)).Child("limits"), cl.String(), "must be less than or equal to pod limits of "+podLim.String()))
			}
		}
	}
	return allErrs
}
