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
	supportedFSGroupChangePolicies  = []corev1.PodFSGroupChangePolicy{corev1.FSGroupChangeAlways, corev1.FSGroupChangeOnRootMismatch}
	supportedSupplementalGroupsPols = []corev1.SupplementalGroupsPolicy{corev1.SupplementalGroupsPolicyMerge, corev1.SupplementalGroupsPolicyStrict}
	supportedSELinuxChangePolicies  = []corev1.PodSELinuxChangePolicy{corev1.SELinuxChangePolicyMountOption, corev1.SELinuxChangePolicyRecursive}
	onlyRecursiveSELinuxPolicy      = []corev1.PodSELinuxChangePolicy{corev1.SELinuxChangePolicyRecursive}

	// sysctlName is upstream's SysctlContainSlashFmt, anchored.
	sysctlName           = regexp.MustCompile(`^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$`)
	sysctlNameMessage    = "must have at most 253 characters and match regex " + sysctlName.String()
	ipcSysctlNames       = map[string]bool{"kernel.sem": true, "kernel.shmall": true, "kernel.shmmax": true, "kernel.shmmni": true, "kernel.shm_rmid_forced": true, "kernel.shm": true, "kernel.msgmax": true, "kernel.msgmnb": true, "kernel.msgmni": true}
	windowsOnlyForbidden = "cannot be set for a windows pod"
)

// validatePodSpecSecurityContext mirrors upstream validatePodSpecSecurityContext.
func validatePodSpecSecurityContext(sc *corev1.PodSecurityContext, spec *corev1.PodSpec, fldPath lpath, o *podValidationOptions) field.ErrorList {
	if sc == nil {
		return nil
	}
	var allErrs field.ErrorList
	if sc.FSGroup != nil {
		for _, msg := range validation.IsValidGroupID(*sc.FSGroup) {
			allErrs = append(allErrs, invalidAt(fldPath.Child("fsGroup"), *sc.FSGroup, msg))
		}
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
	for g, gid := range sc.SupplementalGroups {
		for _, msg := range validation.IsValidGroupID(gid) {
			allErrs = append(allErrs, invalidAt(fldPath.Child("supplementalGroups").Index(g), gid, msg))
		}
	}
	if len(sc.Sysctls) != 0 {
		allErrs = append(allErrs, validateSysctls(sc.Sysctls, spec, fldPath.Child("sysctls"), o)...)
	}
	if p := sc.FSGroupChangePolicy; p != nil && *p != corev1.FSGroupChangeAlways && *p != corev1.FSGroupChangeOnRootMismatch {
		// Upstream passes the pointer as the bad value.
		allErrs = append(allErrs, notSupportedAt(fldPath.Child("fsGroupChangePolicy"), p, supportedFSGroupChangePolicies))
	}
	allErrs = append(allErrs, validateSeccompProfileField(sc.SeccompProfile, fldPath.Child("seccompProfile"))...)
	allErrs = append(allErrs, validateWindowsSecurityContextOptions(sc.WindowsOptions, fldPath.Child("windowsOptions"))...)
	allErrs = append(allErrs, validateAppArmorProfileField(sc.AppArmorProfile, fldPath.Child("appArmorProfile"))...)
	if p := sc.SupplementalGroupsPolicy; p != nil && *p != corev1.SupplementalGroupsPolicyMerge && *p != corev1.SupplementalGroupsPolicyStrict {
		allErrs = append(allErrs, notSupportedAt(fldPath.Child("supplementalGroupsPolicy"), p, supportedSupplementalGroupsPols))
	}
	if p := sc.SELinuxChangePolicy; p != nil {
		if o.allowOnlyRecursiveSELinuxChangePolicy {
			if *p != corev1.SELinuxChangePolicyRecursive {
				allErrs = append(allErrs, notSupportedAt(fldPath.Child("seLinuxChangePolicy"), *p, onlyRecursiveSELinuxPolicy))
			}
		} else if *p != corev1.SELinuxChangePolicyRecursive && *p != corev1.SELinuxChangePolicyMountOption {
			allErrs = append(allErrs, notSupportedAt(fldPath.Child("seLinuxChangePolicy"), *p, supportedSELinuxChangePolicies))
		}
	}
	return allErrs
}

func validateSysctls(sysctls []corev1.Sysctl, spec *corev1.PodSpec, fldPath lpath, o *podValidationOptions) field.ErrorList {
	var allErrs field.ErrorList
	for i, s := range sysctls {
		namePath := fldPath.Index(i).Child("name")
		switch {
		case s.Name == "":
			allErrs = append(allErrs, requiredAt(namePath, ""))
		case len(s.Name) > 253 || !sysctlName.MatchString(s.Name):
			allErrs = append(allErrs, invalidAt(namePath, s.Name, sysctlNameMessage))
		default:
			for j := 0; j < i; j++ {
				if sysctls[j].Name == s.Name {
					allErrs = append(allErrs, duplicateAt(namePath, s.Name))
					break
				}
			}
		}
		if !o.allowNamespacedSysctlsForHostNetAndHostIPC {
			if err := validateHostSysctl(s.Name, spec, namePath); err != nil {
				allErrs = append(allErrs, err)
			}
		}
	}
	return allErrs
}

// validateHostSysctl mirrors upstream ValidateHostSysctl: namespaced sysctls may not
// be set when the pod shares that namespace with the host.
func validateHostSysctl(sysctl string, spec *corev1.PodSpec, fldPath lpath) *field.Error {
	switch ns := sysctlNamespace(sysctl); {
	case spec.HostNetwork && ns == "Net":
		return invalidAt(fldPath, sysctl, "may not be specified when 'hostNetwork' is true")
	case spec.HostIPC && ns == "IPC":
		return invalidAt(fldPath, sysctl, "may not be specified when 'hostIPC' is true")
	}
	return nil
}

// sysctlNamespace mirrors k8s.io/component-helpers node/util/sysctl GetNamespace.
func sysctlNamespace(sysctl string) string {
	name := normalizeSysctlName(sysctl)
	if i := strings.IndexByte(name, '*'); i != -1 {
		name = name[:i]
	}
	switch {
	case name == "kernel.domainname":
		return "UTS"
	case ipcSysctlNames[name]:
		return "IPC"
	case strings.HasPrefix(name, "net."):
		return "Net"
	case strings.HasPrefix(name, "fs.mqueue."):
		return "IPC"
	case strings.HasPrefix(name, "user."):
		return "User"
	}
	return ""
}

// normalizeSysctlName turns "net/ipv4/ip_forward" into "net.ipv4.ip_forward" (the
// separators swap when the first one is a slash).
func normalizeSysctlName(val string) string {
	i := strings.IndexAny(val, "./")
	if i == -1 || val[i] == '.' {
		return val
	}
	return strings.Map(func(r rune) rune {
		switch r {
		case '.':
			return '/'
		case '/':
			return '.'
		}
		return r
	}, val)
}

func validateShareProcessNamespace(spec *corev1.PodSpec, fldPath lpath) field.ErrorList {
	if spec.ShareProcessNamespace != nil && spec.HostPID && *spec.ShareProcessNamespace {
		return field.ErrorList{invalidAt(fldPath.Child("shareProcessNamespace"), *spec.ShareProcessNamespace, "ShareProcessNamespace and HostPID cannot both be enabled")}
	}
	return nil
}

// validateWindowsHostProcessPod mirrors upstream validateWindowsHostProcessPod.
func validateWindowsHostProcessPod(spec *corev1.PodSpec, fldPath lpath, o *podValidationOptions) field.ErrorList {
	var allErrs field.ErrorList
	var podHostProcess *bool
	if spec.SecurityContext != nil && spec.SecurityContext.WindowsOptions != nil {
		podHostProcess = spec.SecurityContext.WindowsOptions.HostProcess
	}
	count, hostProcessCount := 0, 0
	visitContainersWithPath(spec, fldPath, func(c *corev1.Container, p lpath) {
		count++
		var hp *bool
		if c.SecurityContext != nil && c.SecurityContext.WindowsOptions != nil {
			hp = c.SecurityContext.WindowsOptions.HostProcess
		}
		if podHostProcess != nil && hp != nil && *podHostProcess != *hp {
			allErrs = append(allErrs, invalidAt(p.Children("securityContext", "windowsOptions", "hostProcess"), *hp,
				"pod hostProcess value must be identical if both are specified, was "+strconv.FormatBool(*podHostProcess)))
		}
		if (hp != nil && *hp) || (hp == nil && podHostProcess != nil && *podHostProcess) {
			hostProcessCount++
		}
	})
	if hostProcessCount > 0 {
		if hostProcessCount != count {
			allErrs = append(allErrs, invalidAt(fldPath, "", "If pod contains any hostProcess containers then all containers must be HostProcess containers"))
		}
		if !spec.HostNetwork {
			allErrs = append(allErrs, invalidAt(fldPath.Child("hostNetwork"), spec.HostNetwork, "hostNetwork must be true if pod contains any hostProcess containers"))
		}
		if !o.allowPrivileged {
			allErrs = append(allErrs, forbiddenAt(fldPath, "hostProcess containers are disallowed by cluster policy"))
		}
	}
	return allErrs
}

// validateHostUsers mirrors upstream validateHostUsers (user namespaces, hostUsers: false).
func validateHostUsers(spec *corev1.PodSpec, fldPath lpath, o *podValidationOptions) field.ErrorList {
	if spec.HostUsers == nil || *spec.HostUsers {
		return nil
	}
	const msg = "when `hostUsers` is false"
	var allErrs field.ErrorList
	if !o.allowUserNamespacesHostNetworkSupport && spec.HostNetwork {
		allErrs = append(allErrs, forbiddenAt(fldPath.Child("hostNetwork"), msg))
	}
	// Upstream capitalises these two paths.
	if spec.HostPID {
		allErrs = append(allErrs, forbiddenAt(fldPath.Child("HostPID"), msg))
	}
	if spec.HostIPC {
		allErrs = append(allErrs, forbiddenAt(fldPath.Child("HostIPC"), msg))
	}
	if !o.allowUserNamespacesWithVolumeDevices {
		visitContainersWithPath(spec, fldPath, func(c *corev1.Container, p lpath) {
			if len(c.VolumeDevices) > 0 {
				allErrs = append(allErrs, forbiddenAt(p.Child("volumeDevices"), msg))
			}
		})
	}
	return allErrs
}

// validateLinux mirrors upstream validateLinux: no Windows options on a Linux pod.
func validateLinux(spec *corev1.PodSpec, fldPath lpath) field.ErrorList {
	const msg = "windows options cannot be set for a linux pod"
	var allErrs field.ErrorList
	if spec.SecurityContext != nil && spec.SecurityContext.WindowsOptions != nil {
		allErrs = append(allErrs, forbiddenAt(fldPath.Children("securityContext", "windowsOptions"), msg))
	}
	visitContainersWithPath(spec, fldPath, func(c *corev1.Container, p lpath) {
		if c.SecurityContext != nil && c.SecurityContext.WindowsOptions != nil {
			allErrs = append(allErrs, forbiddenAt(p.Children("securityContext", "windowsOptions"), msg))
		}
	})
	return allErrs
}

// validateWindows mirrors upstream validateWindows: Linux-only fields on a Windows pod.
func validateWindows(spec *corev1.PodSpec, fldPath lpath) field.ErrorList {
	var allErrs field.ErrorList
	forbid := func(p lpath, set bool) {
		if set {
			allErrs = append(allErrs, forbiddenAt(p, windowsOnlyForbidden))
		}
	}
	if sc := spec.SecurityContext; sc != nil {
		p := fldPath.Child("securityContext")
		forbid(p.Child("appArmorProfile"), sc.AppArmorProfile != nil)
		forbid(p.Child("seLinuxOptions"), sc.SELinuxOptions != nil)
		forbid(p.Child("seccompProfile"), sc.SeccompProfile != nil)
		forbid(p.Child("fsGroup"), sc.FSGroup != nil)
		forbid(p.Child("fsGroupChangePolicy"), sc.FSGroupChangePolicy != nil)
		forbid(p.Child("sysctls"), len(sc.Sysctls) > 0)
		forbid(p.Child("runAsUser"), sc.RunAsUser != nil)
		forbid(p.Child("runAsGroup"), sc.RunAsGroup != nil)
		forbid(p.Child("supplementalGroups"), sc.SupplementalGroups != nil)
		forbid(p.Child("supplementalGroupsPolicy"), sc.SupplementalGroupsPolicy != nil)
		forbid(p.Child("seLinuxChangePolicy"), sc.SELinuxChangePolicy != nil)
	}
	forbid(fldPath.Child("hostUsers"), spec.HostUsers != nil)
	forbid(fldPath.Child("hostPID"), spec.HostPID)
	forbid(fldPath.Child("hostIPC"), spec.HostIPC)
	forbid(fldPath.Child("shareProcessNamespace"), spec.ShareProcessNamespace != nil)
	visitContainersWithPath(spec, fldPath, func(c *corev1.Container, cp lpath) {
		sc := c.SecurityContext
		if sc == nil {
			return
		}
		p := cp.Child("securityContext")
		forbid(p.Child("appArmorProfile"), sc.AppArmorProfile != nil)
		forbid(p.Child("seLinuxOptions"), sc.SELinuxOptions != nil)
		forbid(p.Child("seccompProfile"), sc.SeccompProfile != nil)
		forbid(p.Child("capabilities"), sc.Capabilities != nil)
		forbid(p.Child("readOnlyRootFilesystem"), sc.ReadOnlyRootFilesystem != nil)
		forbid(p.Child("privileged"), sc.Privileged != nil)
		forbid(p.Child("allowPrivilegeEscalation"), sc.AllowPrivilegeEscalation != nil)
		forbid(p.Child("procMount"), sc.ProcMount != nil)
		forbid(p.Child("runAsUser"), sc.RunAsUser != nil)
		forbid(p.Child("runAsGroup"), sc.RunAsGroup != nil)
	})
	return allErrs
}
