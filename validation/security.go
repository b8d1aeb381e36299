package validation

import (
	"regexp"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

var (
	supportedProcMountTypes   = []corev1.ProcMountType{corev1.DefaultProcMount, corev1.UnmaskedProcMount}
	supportedSeccompTypes     = []corev1.SeccompProfileType{corev1.SeccompProfileTypeLocalhost, corev1.SeccompProfileTypeRuntimeDefault, corev1.SeccompProfileTypeUnconfined}
	supportedAppArmorTypes    = []corev1.AppArmorProfileType{corev1.AppArmorProfileTypeLocalhost, corev1.AppArmorProfileTypeRuntimeDefault, corev1.AppArmorProfileTypeUnconfined}
	ctrlRegex                 = regexp.MustCompile(`[[:cntrl:]]+`)
	validNetBiosRegex         = regexp.MustCompile(`^[^\\/:\*\?"<>|\.][^\\/:\*\?"<>|]{0,14}$`)
	validWindowsDomainDNS     = regexp.MustCompile(`^[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$`)
	invalidUserNameChars      = regexp.MustCompile(`["/\\:;|=,\+\*\?<>@\[\]]`)
	invalidUserNameDotsSpaces = regexp.MustCompile(`^[\. ]+$`)
)

// validateSecurityContext mirrors upstream ValidateSecurityContext (container level).
// Upstream passes the *SecurityContext itself as the bad value of the two
// allowPrivilegeEscalation errors; so does podlife (the v1 type).
func validateSecurityContext(sc *corev1.SecurityContext, fldPath lpath, hostUsers bool, o *podValidationOptions) field.ErrorList {
	if sc == nil {
		return nil
	}
	var allErrs field.ErrorList
	if sc.Privileged != nil && *sc.Privileged && !o.allowPrivileged {
		allErrs = append(allErrs, forbiddenAt(fldPath.Child("privileged"), "disallowed by cluster policy"))
	}
	if sc.RunAsUser != nil {
		for _, msg := range validation.IsValidUserID(*sc.RunAsUser) {
			allErrs = append(allErrs, invalidAt(fldPath.Child("runAsUser"), *sc.RunAsUser, msg))
		}
	}
	if sc.RunAsGroup != nil {
		for _, msg := range validation.IsValidGroupID(*sc.RunAsGroup) {
			allErrs = append(allErrs, invalidAt(fldPath.Child("runAsGroup"), *sc.RunAsGroup, msg))
		}
	}
	if sc.ProcMount != nil {
		if *sc.ProcMount != corev1.DefaultProcMount && *sc.ProcMount != corev1.UnmaskedProcMount {
			allErrs = append(allErrs, notSupportedAt(fldPath.Child("procMount"), *sc.ProcMount, supportedProcMountTypes))
		}
		if hostUsers && *sc.ProcMount == corev1.UnmaskedProcMount {
			allErrs = append(allErrs, invalidAt(fldPath.Child("procMount"), sc.ProcMount, "`hostUsers` must be false to use `Unmasked`"))
		}
	}
	allErrs = append(allErrs, validateSeccompProfileField(sc.SeccompProfile, fldPath.Child("seccompProfile"))...)
	if sc.AllowPrivilegeEscalation != nil && !*sc.AllowPrivilegeEscalation {
		if sc.Privileged != nil && *sc.Privileged {
			allErrs = append(allErrs, invalidAt(fldPath, InternalForm{sc}, "cannot set `allowPrivilegeEscalation` to false and `privileged` to true"))
		}
		if !o.allowSysAdminWhenPrivilegeEscalationFalse && sc.Capabilities != nil {
			for _, c := range sc.Capabilities.Add {
				if c == "CAP_SYS_ADMIN" {
					allErrs = append(allErrs, invalidAt(fldPath, InternalForm{sc}, "cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN"))
				}
			}
		}
	}
	allErrs = append(allErrs, validateWindowsSecurityContextOptions(sc.WindowsOptions, fldPath.Child("windowsOptions"))...)
	allErrs = append(allErrs, validateAppArmorProfileField(sc.AppArmorProfile, fldPath.Child("appArmorProfile"))...)
	return allErrs
}

func validateSeccompProfileField(sp *corev1.SeccompProfile, fldPath lpath) field.ErrorList {
	if sp == nil {
		return nil
	}
	var allErrs field.ErrorList
	switch sp.Type {
	case corev1.SeccompProfileTypeLocalhost, corev1.SeccompProfileTypeRuntimeDefault, corev1.SeccompProfileTypeUnconfined:
	case "":
		allErrs = append(allErrs, requiredAt(fldPath.Child("type"), "type is required when seccompProfile is set"))
	default:
		allErrs = append(allErrs, notSupportedAt(fldPath.Child("type"), sp.Type, supportedSeccompTypes))
	}
	if sp.Type == corev1.SeccompProfileTypeLocalhost {
		if sp.LocalhostProfile == nil {
			allErrs = append(allErrs, requiredAt(fldPath.Child("localhostProfile"), "must be set when seccomp type is Localhost"))
		} else {
			allErrs = append(allErrs, validateLocalDescendingPath(*sp.LocalhostProfile, fldPath.Child("localhostProfile"))...)
		}
	} else if sp.LocalhostProfile != nil {
		allErrs = append(allErrs, invalidAt(fldPath.Child("localhostProfile"), InternalForm{sp}, "can only be set when seccomp type is Localhost"))
	}
	return allErrs
}

func validateAppArmorProfileField(p *corev1.AppArmorProfile, fldPath lpath) field.ErrorList {
	if p == nil {
		return nil
	}
	var allErrs field.ErrorList
	lp := fldPath.Child("localhostProfile")
	switch p.Type {
	case corev1.AppArmorProfileTypeLocalhost:
		if p.LocalhostProfile == nil {
			allErrs = append(allErrs, requiredAt(lp, "must be set when AppArmor type is Localhost"))
			break
		}
		trimmed := strings.TrimSpace(*p.LocalhostProfile)
		if trimmed != *p.LocalhostProfile {
			allErrs = append(allErrs, invalidAt(lp, *p.LocalhostProfile, "must not be padded with whitespace"))
		} else if trimmed == "" {
			allErrs = append(allErrs, requiredAt(lp, "must be set when AppArmor type is Localhost"))
		}
		const maxLocalhostProfileLength = 4095 // PATH_MAX - 1
		if len(*p.LocalhostProfile) > maxLocalhostProfileLength {
			allErrs = append(allErrs, field.TooLong(lp.P(), "", maxLocalhostProfileLength))
		}
	case corev1.AppArmorProfileTypeRuntimeDefault, corev1.AppArmorProfileTypeUnconfined:
		if p.LocalhostProfile != nil {
			allErrs = append(allErrs, invalidAt(lp, p.LocalhostProfile, "can only be set when AppArmor type is Localhost"))
		}
	case "":
		allErrs = append(allErrs, requiredAt(fldPath.Child("type"), "type is required when appArmorProfile is set"))
	default:
		allErrs = append(allErrs, notSupportedAt(fldPath.Child("type"), p.Type, supportedAppArmorTypes))
	}
	return allErrs
}

// validateWindowsSecurityContextOptions mirrors upstream's function of the same
// name; bad values are the string pointers, as upstream passes them.
func validateWindowsSecurityContextOptions(w *corev1.WindowsSecurityContextOptions, fldPath lpath) field.ErrorList {
	if w == nil {
		return nil
	}
	var allErrs field.ErrorList
	if w.GMSACredentialSpecName != nil {
		for _, msg := range dns1123SubdomainErrs(*w.GMSACredentialSpecName) {
			allErrs = append(allErrs, invalidAt(fldPath.Child("gmsaCredentialSpecName"), w.GMSACredentialSpecName, msg))
		}
	}
	if w.GMSACredentialSpec != nil {
		const maxKiB = 64
		if l := len(*w.GMSACredentialSpec); l == 0 {
			allErrs = append(allErrs, invalidAt(fldPath.Child("gmsaCredentialSpec"), w.GMSACredentialSpec, "gmsaCredentialSpec cannot be an empty string"))
		} else if l > maxKiB*1024 {
			allErrs = append(allErrs, invalidAt(fldPath.Child("gmsaCredentialSpec"), w.GMSACredentialSpec, "gmsaCredentialSpec size must be under "+strconv.Itoa(maxKiB)+" KiB"))
		}
	}
	if w.RunAsUserName == nil {
		return allErrs
	}
	p := fldPath.Child("runAsUserName")
	name := *w.RunAsUserName
	invalid := func(msg string) { allErrs = append(allErrs, invalidAt(p, w.RunAsUserName, msg)) }
	switch {
	case len(name) == 0:
		invalid("runAsUserName cannot be an empty string")
		return allErrs
	case ctrlRegex.MatchString(name):
		invalid("runAsUserName cannot contain control characters")
		return allErrs
	}
	parts := strings.Split(name, "\\")
	if len(parts) > 2 {
		invalid("runAsUserName cannot contain more than one backslash")
		return allErrs
	}
	hasDomain, domain, user := false, "", parts[0]
	if len(parts) == 2 {
		hasDomain, domain, user = true, parts[0], parts[1]
	}
	const maxDomain, maxUser = 256, 104
	if len(domain) >= maxDomain {
		invalid("runAsUserName's Domain length must be under " + strconv.Itoa(maxDomain) + " characters")
	}
	if hasDomain && !(validNetBiosRegex.MatchString(domain) || validWindowsDomainDNS.MatchString(domain)) {
		invalid("runAsUserName's Domain doesn't match the NetBios nor the DNS format")
	}
	if l := len(user); l == 0 {
		invalid("runAsUserName's User cannot be empty")
	} else if l > maxUser {
		invalid("runAsUserName's User length must not be longer than " + strconv.Itoa(maxUser) + " characters")
	}
	if invalidUserNameDotsSpaces.MatchString(user) {
		invalid(`runAsUserName's User cannot contain only periods or spaces`)
	}
	if invalidUserNameChars.MatchString(user) {
		invalid(`runAsUserName's User cannot contain the following characters: "/\:;|=,+*?<>@[]`)
	}
	return allErrs
}
