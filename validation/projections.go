package validation

import (
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The clusterTrustBundle and podCertificate projections of a projected volume, as
// upstream validateProjectionSources checks them (k8s.io/kubernetes
// pkg/apis/core/validation/validation.go and names.go: ValidateSignerName,
// ValidateClusterTrustBundleName, IsKubernetesSignerName).

// validateClusterTrustBundleProjection checks everything of the source but the
// duplicate path, which the caller checks across sources.
func validateClusterTrustBundleProjection(c *corev1.ClusterTrustBundleProjection, p lpath) field.ErrorList {
	var allErrs field.ErrorList
	switch {
	case c.Name != nil && c.SignerName != nil:
		// Upstream reports the internal projection struct as the bad value.
		allErrs = append(allErrs, invalidAt(p, InternalForm{c}, "only one of name and signerName may be used"))
	case c.Name != nil:
		name := *c.Name
		if name == "" {
			allErrs = append(allErrs, requiredAt(p.Child("name"), "must be a valid object name"))
		}
		for _, msg := range clusterTrustBundleNameErrs(name) {
			allErrs = append(allErrs, invalidAt(p.Child("name"), name, "not a valid clustertrustbundlename: "+msg))
		}
		if c.LabelSelector != nil {
			allErrs = append(allErrs, invalidAt(p.Child("labelSelector"), c.LabelSelector, "labelSelector must be unset if name is specified"))
		}
	case c.SignerName != nil:
		if *c.SignerName == "" {
			allErrs = append(allErrs, requiredAt(p.Child("signerName"), "must be a valid signer name"))
		}
		allErrs = append(allErrs, validateSignerName(p.Child("signerName"), *c.SignerName)...)
		allErrs = append(allErrs, validateLabelSelector(c.LabelSelector, false, p.Child("labelSelector"))...)
	default:
		allErrs = append(allErrs, requiredAt(p, "either name or signerName must be specified"))
	}
	if c.Path == "" {
		allErrs = append(allErrs, requiredAt(p.Child("path"), ""))
	}
	allErrs = append(allErrs, validateUserField(c.User, p.Child("user"))...)
	return append(allErrs, validateLocalNonReservedPath(c.Path, p.Child("path"))...)
}

// clusterTrustBundleNameErrs mirrors upstream's check of a ClusterTrustBundle name: a
// name with a colon belongs to the signer before its last colon ("/" written as ":")
// and must start with that signer's prefix; the rest (or a name without colon) must be
// a DNS subdomain.
func clusterTrustBundleNameErrs(name string) []string {
	i := strings.LastIndex(name, ":")
	if i < 0 {
		return apimachineryvalidation.NameIsDNSSubdomain(name, false)
	}
	signer := strings.ReplaceAll(name[:i], ":", "/")
	prefix := strings.ReplaceAll(signer, "/", ":") + ":"
	if !strings.HasPrefix(name, prefix) {
		return []string{"ClusterTrustBundle for signerName " + signer + " must be named with prefix " + prefix}
	}
	return apimachineryvalidation.NameIsDNSSubdomain(strings.TrimPrefix(name, prefix), false)
}

// validateSignerName mirrors upstream ValidateSignerName: "domain/path", the domain
// at most 253 characters of at least two DNS labels, the path DNS subdomains
// separated by dots, the whole at most 571 characters.
func validateSignerName(p lpath, signer string) field.ErrorList {
	if signer == "" {
		return field.ErrorList{requiredAt(p, "")}
	}
	segments := strings.Split(signer, "/")
	if len(segments) != 2 {
		return field.ErrorList{invalidAt(p, signer, "must be a fully qualified domain and path of the form 'example.com/signer-name'")}
	}
	var allErrs field.ErrorList
	domain, rest := segments[0], segments[1]
	if len(domain) > validation.DNS1123SubdomainMaxLength {
		allErrs = append(allErrs, field.TooLong(p.P(), "", validation.DNS1123SubdomainMaxLength))
	}
	labels := strings.Split(domain, ".")
	for _, l := range labels {
		if msgs := validation.IsDNS1123Label(l); len(msgs) > 0 {
			// Only the first bad label is reported.
			for _, msg := range msgs {
				allErrs = append(allErrs, invalidAt(p, domain, "validating label "+strconv.Quote(l)+": "+msg))
			}
			break
		}
	}
	if len(labels) < 2 {
		allErrs = append(allErrs, invalidAt(p, domain, "should be a domain with at least two segments separated by dots"))
	}
	for _, l := range strings.Split(rest, ".") {
		if msgs := validation.IsDNS1123Subdomain(l); len(msgs) > 0 {
			for _, msg := range msgs {
				allErrs = append(allErrs, invalidAt(p, rest, "validating label "+strconv.Quote(l)+": "+msg))
			}
			break
		}
	}
	const maxSigner = validation.DNS1123SubdomainMaxLength + (validation.DNS1123SubdomainMaxLength + validation.DNS1123LabelMaxLength + 1) + 1
	if len(signer) > maxSigner {
		allErrs = append(allErrs, field.TooLong(p.P(), "", maxSigner))
	}
	return allErrs
}

// isKubernetesSignerName mirrors upstream IsKubernetesSignerName.
func isKubernetesSignerName(signer string) bool {
	host, _, _ := strings.Cut(signer, "/")
	return host == "kubernetes.io" || strings.HasSuffix(host, ".kubernetes.io")
}

// supportedPodCertificateKeyTypes is upstream's list, in its order.
var supportedPodCertificateKeyTypes = []string{"RSA3072", "RSA4096", "ECDSAP256", "ECDSAP384", "ECDSAP521", "ED25519"}

const (
	// maxPodCertificateExpiration and maxKubernetesPodCertificateExpiration are
	// upstream certificates.MaxMaxExpirationSeconds (91 days) and
	// KubernetesMaxMaxExpirationSeconds (1 day).
	maxPodCertificateExpiration           = 91 * 24 * 60 * 60
	maxKubernetesPodCertificateExpiration = 24 * 60 * 60
)

// validatePodCertificateProjection checks everything of the source but its paths,
// which the caller checks with the other sources' paths.
func validatePodCertificateProjection(c *corev1.PodCertificateProjection, p lpath) field.ErrorList {
	allErrs := validateSignerName(p.Child("signerName"), c.SignerName)
	if c.UserAnnotations != nil {
		ap := p.Child("userAnnotations")
		// Upstream ranges over the map; podlife reports the keys in sorted order.
		for _, k := range sortedKeys(c.UserAnnotations) {
			allErrs = append(allErrs, validation.IsDomainPrefixedKey(ap.P(), strings.ToLower(k))...)
		}
		if apimachineryvalidation.ValidateAnnotationsSize(c.UserAnnotations) != nil {
			allErrs = append(allErrs, field.TooLong(ap.P(), "", apimachineryvalidation.TotalAnnotationSizeLimitB))
		}
	}
	allErrs = append(allErrs, validateUserField(c.User, p.Child("user"))...)
	if !contains(supportedPodCertificateKeyTypes, c.KeyType) {
		allErrs = append(allErrs, notSupportedAt(p.Child("keyType"), c.KeyType, supportedPodCertificateKeyTypes))
	}
	if m := c.MaxExpirationSeconds; m != nil {
		if *m < 3600 {
			allErrs = append(allErrs, invalidAt(p.Child("maxExpirationSeconds"), *m, "if provided, maxExpirationSeconds must be >= 3600"))
		}
		limit := maxPodCertificateExpiration
		if isKubernetesSignerName(c.SignerName) {
			limit = maxKubernetesPodCertificateExpiration
		}
		if *m > int32(limit) {
			allErrs = append(allErrs, invalidAt(p.Child("maxExpirationSeconds"), *m, "if provided, maxExpirationSeconds must be <= "+strconv.Itoa(limit)))
		}
	}
	return allErrs
}
