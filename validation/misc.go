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
			allErrs = append(allErrs, field.Required(idx.Child("name").P(), ""))
		} else if _, dup := seen[claim.Name]; dup {
			allErrs = append(allErrs, field.Duplicate(idx.Child("name").P(), claim.Name))
		} else {
			allErrs = append(allErrs, validateDNS1123Label(claim.Name, idx.Child("name"))...)
			seen[claim.Name] = struct{}{}
		}
		// Upstream passes the internal PodResourceClaim struct as the bad value.
		if claim.ResourceClaimName != nil && claim.ResourceClaimTemplateName != nil {
			allErrs = append(allErrs, field.Invalid(idx.P(), InternalForm{*claim}, "at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified"))
		}
		if claim.ResourceClaimName == nil && claim.ResourceClaimTemplateName == nil {
			allErrs = append(allErrs, field.Invalid(idx.P(), InternalForm{*claim}, "must specify one of: `resourceClaimName`, `resourceClaimTemplateName`"))
		}
		if claim.ResourceClaimName != nil {
			for _, d := range nameIsDNSSubdomain(*claim.ResourceClaimName, false) {
				allErrs = append(allErrs, field.Invalid(idx.Child("resourceClaimName").P(), *claim.ResourceClaimName, d))
			}
		}
		if claim.ResourceClaimTemplateName != nil {
			for _, d := range nameIsDNSSubdomain(*claim.ResourceClaimTemplateName, false) {
				allErrs = append(allErrs, field.Invalid(idx.Child("resourceClaimTemplateName").P(), *claim.ResourceClaimTemplateName, d))
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
			return field.ErrorList{field.Required(fldPath.P(), "must provide `dnsConfig` when `dnsPolicy` is None")}
		}
		if len(cfg.Nameservers) == 0 {
			return field.ErrorList{field.Required(fldPath.Child("nameservers").P(), "must provide at least one DNS nameserver when `dnsPolicy` is None")}
		}
	}
	if cfg == nil {
		return nil
	}
	var allErrs field.ErrorList
	if len(cfg.Nameservers) > maxDNSNameservers {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("nameservers").P(), cfg.Nameservers, "must not have more than "+strconv.Itoa(maxDNSNameservers)+" nameservers"))
	}
	for i, ns := range cfg.Nameservers {
		allErrs = append(allErrs, validation.IsValidIPForLegacyField(fldPath.Child("nameservers").Index(i).P(), ns, o.strictIPValidation, nil)...)
	}
	if len(cfg.Searches) > maxDNSSearchPaths {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("searches").P(), cfg.Searches, "must not have more than "+strconv.Itoa(maxDNSSearchPaths)+" search paths"))
	}
	if len(strings.Join(cfg.Searches, " ")) > maxDNSSearchListChars {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("searches").P(), cfg.Searches, "must not have more than "+strconv.Itoa(maxDNSSearchListChars)+" characters (including spaces) in the search list"))
	}
	for i, search := range cfg.Searches {
		if search == "." {
			continue
		}
		search = strings.TrimSuffix(search, ".")
		for _, msg := range validation.IsDNS1123SubdomainWithUnderscore(search) {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("searches").Index(i).P(), search, msg).WithOrigin("format=k8s-dns-subdomain-with-underscore"))
		}
	}
	for i, opt := range cfg.Options {
		if opt.Name == "" {
			allErrs = append(allErrs, field.Required(fldPath.Child("options").Index(i).P(), "must not be empty"))
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
				allErrs = append(allErrs, field.Invalid(fldPath.Index(i).Child("hostnames").Index(j).P(), h, msg).WithOrigin("format=k8s-long-name"))
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
		allErrs = append(allErrs, field.Forbidden(p.P(), "may not be specified when setHostnameAsFQDN is true"))
	}
	if spec.HostNetwork {
		allErrs = append(allErrs, field.Forbidden(p.P(), "may not be specified when hostNetwork is true"))
	}
	if len(*spec.HostnameOverride) > 64 {
		allErrs = append(allErrs, field.TooLong(p.P(), "", 64))
	}
	for _, msg := range dns1123SubdomainErrs(*spec.HostnameOverride) {
		allErrs = append(allErrs, field.Invalid(p.P(), *spec.HostnameOverride, msg).WithOrigin("format=k8s-long-name"))
	}
	return allErrs
}
