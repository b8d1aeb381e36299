package validation

import (
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Pod-level checks of ValidatePodSpec outside the container core: resource claims,
// DNS config, host aliases and hostnameOverride.

// validatePodResourceClaims mirrors upstream validatePodResourceClaims.
func validatePodResourceClaims(meta *metav1.ObjectMeta, claims []corev1.PodResourceClaim, fldPath lpath) field.ErrorList {
	var allErrs field.ErrorList
	seen := map[string]struct{}{}
	for i := range claims {
		claim := &claims[i]
		idx := fldPath.Index(i)
		if meta != nil {
			if _, ok := meta.Annotations[mirrorPodAnnotationKey]; ok {
				allErrs = append(allErrs, field.Forbidden(field.NewPath(""), "static pods do not support resource claims"))
				continue
			}
		}
		if claim.Name == "" {
			allErrs = append(allErrs, requiredAt(idx.Child("name"), ""))
		} else if _, dup := seen[claim.Name]; dup {
			allErrs = append(allErrs, duplicateAt(idx.Child("name"), claim.Name))
		} else {
			allErrs = append(allErrs, validateDNS1123Label(claim.Name, idx.Child("name"))...)
			seen[claim.Name] = struct{}{}
		}
		// Upstream passes the internal PodResourceClaim struct as the bad value.
		if claim.ResourceClaimName != nil && claim.ResourceClaimTemplateName != nil {
			allErrs = append(allErrs, invalidAt(idx, InternalForm{*claim}, "at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified"))
		}
		if claim.ResourceClaimName == nil && claim.ResourceClaimTemplateName == nil {
			allErrs = append(allErrs, invalidAt(idx, InternalForm{*claim}, "must specify one of: `resourceClaimName`, `resourceClaimTemplateName`"))
		}
		if claim.ResourceClaimName != nil {
			for _, d := range nameIsDNSSubdomain(*claim.ResourceClaimName, false) {
				allErrs = append(allErrs, invalidAt(idx.Child("resourceClaimName"), *claim.ResourceClaimName, d))
			}
		}
		if claim.ResourceClaimTemplateName != nil {
			for _, d := range nameIsDNSSubdomain(*claim.ResourceClaimTemplateName, false) {
				allErrs = append(allErrs, invalidAt(idx.Child("resourceClaimTemplateName"), *claim.ResourceClaimTemplateName, d))
			}
		}
	}
	return allErrs
}

const (
	maxDNSNameservers     = 3
	maxDNSSearchPaths     = 32
	maxDNSSearchListChars = 2048
)

// validatePodDNSConfig mirrors upstream validatePodDNSConfig.
func validatePodDNSConfig(cfg *corev1.PodDNSConfig, policy corev1.DNSPolicy, fldPath lpath, o *podValidationOptions) field.ErrorList {
	if policy == corev1.DNSNone {
		if cfg == nil {
			return field.ErrorList{requiredAt(fldPath, "must provide `dnsConfig` when `dnsPolicy` is None")}
		}
		if len(cfg.Nameservers) == 0 {
			return field.ErrorList{requiredAt(fldPath.Child("nameservers"), "must provide at least one DNS nameserver when `dnsPolicy` is None")}
		}
	}
	if cfg == nil {
		return nil
	}
	var allErrs field.ErrorList
	if len(cfg.Nameservers) > maxDNSNameservers {
		allErrs = append(allErrs, invalidAt(fldPath.Child("nameservers"), cfg.Nameservers, "must not have more than "+strconv.Itoa(maxDNSNameservers)+" nameservers"))
	}
	for i, ns := range cfg.Nameservers {
		allErrs = append(allErrs, validation.IsValidIPForLegacyField(fldPath.Child("nameservers").Index(i).P(), ns, o.strictIPValidation, nil)...)
	}
	if len(cfg.Searches) > maxDNSSearchPaths {
		allErrs = append(allErrs, invalidAt(fldPath.Child("searches"), cfg.Searches, "must not have more than "+strconv.Itoa(maxDNSSearchPaths)+" search paths"))
	}
	if len(strings.Join(cfg.Searches, " ")) > maxDNSSearchListChars {
		allErrs = append(allErrs, invalidAt(fldPath.Child("searches"), cfg.Searches, "must not have more than "+strconv.Itoa(maxDNSSearchListChars)+" characters (including spaces) in the search list"))
	}
	for i, search := range cfg.Searches {
		if search == "." {
			continue
		}
		search = strings.TrimSuffix(search, ".")
		for _, msg := range validation.IsDNS1123SubdomainWithUnderscore(search) {
			allErrs = append(allErrs, invalidAt(fldPath.Child("searches").Index(i), search, msg).WithOrigin("format=k8s-dns-subdomain-with-underscore"))
		}
	}
	for i, opt := range cfg.Options {
		if opt.Name == "" {
			allErrs = append(allErrs, requiredAt(fldPath.Child("options").Index(i), "must not be empty"))
		}
	}
	return allErrs
}

// validateHostAliases mirrors upstream ValidateHostAliases.
func validateHostAliases(aliases []corev1.HostAlias, fldPath lpath, o *podValidationOptions) field.ErrorList {
	var allErrs field.ErrorList
	for i, a := range aliases {
		allErrs = append(allErrs, validation.IsValidIPForLegacyField(fldPath.Index(i).Child("ip").P(), a.IP, o.strictIPValidation, nil)...)
		for j, h := range a.Hostnames {
			for _, msg := range dns1123SubdomainErrs(h) {
				allErrs = append(allErrs, invalidAt(fldPath.Index(i).Child("hostnames").Index(j), h, msg).WithOrigin("format=k8s-long-name"))
			}
		}
	}
	return allErrs
}

// validatePodHostName mirrors upstream validatePodHostName (hostnameOverride).
func validatePodHostName(spec *corev1.PodSpec, fldPath lpath) field.ErrorList {
	if spec.HostnameOverride == nil {
		return nil
	}
	var allErrs field.ErrorList
	p := fldPath.Child("hostnameOverride")
	if spec.SetHostnameAsFQDN != nil && *spec.SetHostnameAsFQDN {
		allErrs = append(allErrs, forbiddenAt(p, "may not be specified when setHostnameAsFQDN is true"))
	}
	if spec.HostNetwork {
		allErrs = append(allErrs, forbiddenAt(p, "may not be specified when hostNetwork is true"))
	}
	if len(*spec.HostnameOverride) > 64 {
		allErrs = append(allErrs, field.TooLong(p.P(), "", 64))
	}
	for _, msg := range dns1123SubdomainErrs(*spec.HostnameOverride) {
		allErrs = append(allErrs, invalidAt(p, *spec.HostnameOverride, msg).WithOrigin("format=k8s-long-name"))
	}
	return allErrs
}
