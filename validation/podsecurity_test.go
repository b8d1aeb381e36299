package validation

import (
	corev1 "k8s.io/api/core/v1"
)

// Re-expresses upstream TestValidatePodSpec / TestValidatePod rows for the pod
// security context, sysctls, hostUsers, Windows host-process pods and the per-OS
// field bans (TestValidateWindowsPodSecurityContext, TestValidateLinuxPodSecurityContext,
// TestValidateWindowsSecurityContext, TestValidateLinuxSecurityContext).
func init() {
	addFamily("pod security",
		createCase{name: "pod security context faults", mod: func(p *corev1.Pod) {
			p.Spec.SecurityContext = &corev1.PodSecurityContext{
				FSGroup:                  ptr(int64(-1)),
				RunAsUser:                ptr(int64(1) << 40),
				RunAsGroup:               ptr(int64(-2)),
				SupplementalGroups:       []int64{1, -1},
				FSGroupChangePolicy:      ptr(corev1.PodFSGroupChangePolicy("Sometimes")),
				SupplementalGroupsPolicy: ptr(corev1.SupplementalGroupsPolicy("Loose")),
				SELinuxChangePolicy:      ptr(corev1.PodSELinuxChangePolicy("Never")),
				SeccompProfile:           &corev1.SeccompProfile{},
				AppArmorProfile:          &corev1.AppArmorProfile{Type: corev1.AppArmorProfileTypeLocalhost},
			}
		}, want: []string{
			`spec.securityContext.fsGroup: Invalid value: -1: must be between 0 and 2147483647, inclusive`,
			`spec.securityContext.runAsUser: Invalid value: 1099511627776: must be between 0 and 2147483647, inclusive`,
			`spec.securityContext.runAsGroup: Invalid value: -2: must be between 0 and 2147483647, inclusive`,
			`spec.securityContext.supplementalGroups[1]: Invalid value: -1: must be between 0 and 2147483647, inclusive`,
			`spec.securityContext.fsGroupChangePolicy: Unsupported value: "Sometimes": supported values: "Always", "OnRootMismatch"`,
			`spec.securityContext.seccompProfile.type: Required value: type is required when seccompProfile is set`,
			`spec.securityContext.appArmorProfile.localhostProfile: Required value: must be set when AppArmor type is Localhost`,
			`spec.securityContext.supplementalGroupsPolicy: Unsupported value: "Loose": supported values: "Merge", "Strict"`,
			`spec.securityContext.seLinuxChangePolicy: Unsupported value: "Never": supported values: "MountOption", "Recursive"`,
		}},
		createCase{name: "sysctls", mod: func(p *corev1.Pod) {
			p.Spec.HostNetwork = true
			p.Spec.HostIPC = true
			p.Spec.SecurityContext = &corev1.PodSecurityContext{Sysctls: []corev1.Sysctl{
				{Name: ""}, {Name: "Bad.Name"}, {Name: "net.core.somaxconn"}, {Name: "net.core.somaxconn"},
				{Name: "kernel/shm_rmid_forced"}, {Name: "fs.mqueue.msg_max"}, {Name: "kernel.domainname"},
			}}
		}, want: []string{
			`spec.securityContext.sysctls[0].name: Required value`,
			`spec.securityContext.sysctls[1].name: Invalid value: "Bad.Name": must have at most 253 characters and match regex ^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$`,
			`spec.securityContext.sysctls[2].name: Invalid value: "net.core.somaxconn": may not be specified when 'hostNetwork' is true`,
			`spec.securityContext.sysctls[3].name: Duplicate value: "net.core.somaxconn"`,
			`spec.securityContext.sysctls[3].name: Invalid value: "net.core.somaxconn": may not be specified when 'hostNetwork' is true`,
			`spec.securityContext.sysctls[4].name: Invalid value: "kernel/shm_rmid_forced": may not be specified when 'hostIPC' is true`,
			`spec.securityContext.sysctls[5].name: Invalid value: "fs.mqueue.msg_max": may not be specified when 'hostIPC' is true`,
		}},
		createCase{name: "shareProcessNamespace with hostPID", mod: func(p *corev1.Pod) {
			p.Spec.HostPID = true
			p.Spec.ShareProcessNamespace = ptr(true)
		}, want: []string{
			`spec.shareProcessNamespace: Invalid value: true: ShareProcessNamespace and HostPID cannot both be enabled`,
		}},
		createCase{name: "hostUsers false with host namespaces", features: map[string]bool{"UserNamespacesSupport": true}, mod: all(vols(pvc("b")), func(p *corev1.Pod) {
			p.Spec.HostUsers = ptr(false)
			p.Spec.HostNetwork = true
			p.Spec.HostPID = true
			p.Spec.HostIPC = true
			p.Spec.Containers[0].VolumeDevices = []corev1.VolumeDevice{{Name: "b", DevicePath: "/dev/b"}}
		}), want: []string{
			"spec.hostNetwork: Forbidden: when `hostUsers` is false",
			"spec.HostPID: Forbidden: when `hostUsers` is false",
			"spec.HostIPC: Forbidden: when `hostUsers` is false",
			"spec.containers[0].volumeDevices: Forbidden: when `hostUsers` is false",
		}},
		createCase{name: "windows options on linux pod", mod: func(p *corev1.Pod) {
			p.Spec.OS = &corev1.PodOS{Name: corev1.Linux}
			p.Spec.SecurityContext = &corev1.PodSecurityContext{WindowsOptions: &corev1.WindowsSecurityContextOptions{}}
			p.Spec.Containers[0].SecurityContext = &corev1.SecurityContext{WindowsOptions: &corev1.WindowsSecurityContextOptions{}}
		}, want: []string{
			`spec.securityContext.windowsOptions: Forbidden: windows options cannot be set for a linux pod`,
			`spec.containers[0].securityContext.windowsOptions: Forbidden: windows options cannot be set for a linux pod`,
		}},
		createCase{name: "linux fields on windows pod", mod: func(p *corev1.Pod) {
			p.Spec.OS = &corev1.PodOS{Name: corev1.Windows}
			p.Spec.HostPID = true
			p.Spec.ShareProcessNamespace = ptr(false)
			p.Spec.SecurityContext = &corev1.PodSecurityContext{
				RunAsUser: ptr(int64(1)), FSGroup: ptr(int64(1)), SupplementalGroups: []int64{1},
				SeccompProfile: &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeRuntimeDefault},
			}
			p.Spec.Containers[0].SecurityContext = &corev1.SecurityContext{
				Capabilities: &corev1.Capabilities{}, ReadOnlyRootFilesystem: ptr(true), RunAsGroup: ptr(int64(1)),
				AllowPrivilegeEscalation: ptr(true),
			}
		}, want: []string{
			`spec.securityContext.seccompProfile: Forbidden: cannot be set for a windows pod`,
			`spec.securityContext.fsGroup: Forbidden: cannot be set for a windows pod`,
			`spec.securityContext.runAsUser: Forbidden: cannot be set for a windows pod`,
			`spec.securityContext.supplementalGroups: Forbidden: cannot be set for a windows pod`,
			`spec.hostPID: Forbidden: cannot be set for a windows pod`,
			`spec.shareProcessNamespace: Forbidden: cannot be set for a windows pod`,
			`spec.containers[0].securityContext.capabilities: Forbidden: cannot be set for a windows pod`,
			`spec.containers[0].securityContext.readOnlyRootFilesystem: Forbidden: cannot be set for a windows pod`,
			`spec.containers[0].securityContext.allowPrivilegeEscalation: Forbidden: cannot be set for a windows pod`,
			`spec.containers[0].securityContext.runAsGroup: Forbidden: cannot be set for a windows pod`,
		}},
		createCase{name: "windows host process", mod: func(p *corev1.Pod) {
			p.Spec.SecurityContext = &corev1.PodSecurityContext{WindowsOptions: &corev1.WindowsSecurityContextOptions{HostProcess: ptr(true)}}
			p.Spec.Containers = append(p.Spec.Containers, corev1.Container{Name: "d", Image: "img", SecurityContext: &corev1.SecurityContext{
				WindowsOptions: &corev1.WindowsSecurityContextOptions{HostProcess: ptr(false)},
			}})
		}, want: []string{
			`spec.containers[1].securityContext.windowsOptions.hostProcess: Invalid value: false: pod hostProcess value must be identical if both are specified, was true`,
			`spec: Invalid value: "": If pod contains any hostProcess containers then all containers must be HostProcess containers`,
			`spec.hostNetwork: Invalid value: false: hostNetwork must be true if pod contains any hostProcess containers`,
			`spec: Forbidden: hostProcess containers are disallowed by cluster policy`,
		}},
		createCase{name: "windows host process allowed", privileged: true, mod: func(p *corev1.Pod) {
			p.Spec.HostNetwork = true
			p.Spec.SecurityContext = &corev1.PodSecurityContext{WindowsOptions: &corev1.WindowsSecurityContextOptions{HostProcess: ptr(true)}}
		}},
	)
}
