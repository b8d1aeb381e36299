package validation

import (
	corev1 "k8s.io/api/core/v1"
)

// Re-expresses upstream TestValidateVolumeMounts, TestAlphaValidateVolumeDevices and
// the mount rows of TestValidateContainers.
func init() {
	addFamily("mounts",
		createCase{name: "valid mounts and devices", mod: all(vols(emptyDir("a"), pvc("b")), ctr(func(c *corev1.Container) {
			c.VolumeMounts = []corev1.VolumeMount{{Name: "a", MountPath: "/a", SubPath: "x/y"}, {Name: "a", MountPath: "/b", SubPathExpr: "$(POD)"}}
			c.VolumeDevices = []corev1.VolumeDevice{{Name: "b", DevicePath: "/dev/b"}}
		}))},
		createCase{name: "mount faults", mod: all(vols(emptyDir("a"), pvc("b")), ctr(func(c *corev1.Container) {
			c.VolumeMounts = []corev1.VolumeMount{
				{},
				{Name: "missing", MountPath: "/m"},
				{Name: "a", MountPath: "/m"},
				{Name: "a", MountPath: "/s", SubPath: "/abs"},
				{Name: "a", MountPath: "/t", SubPath: "../up", SubPathExpr: "x/../y"},
				{Name: "a", MountPath: "/u", MountPropagation: ptr(corev1.MountPropagationBidirectional)},
				{Name: "a", MountPath: "/v", MountPropagation: ptr(corev1.MountPropagationMode("Sideways"))},
				{Name: "b", MountPath: "/dev/b"},
			}
			c.VolumeDevices = []corev1.VolumeDevice{{Name: "b", DevicePath: "/dev/b"}}
		})), want: []string{
			`spec.containers[0].volumeMounts[0].name: Required value`,
			`spec.containers[0].volumeMounts[0].name: Not found: ""`,
			`spec.containers[0].volumeMounts[0].mountPath: Required value`,
			`spec.containers[0].volumeMounts[1].name: Not found: "missing"`,
			`spec.containers[0].volumeMounts[2].mountPath: Invalid value: "/m": must be unique`,
			`spec.containers[0].volumeMounts.subPath: Invalid value: "/abs": must be a relative path`,
			`spec.containers[0].volumeMounts.subPath: Invalid value: "../up": must not contain '..'`,
			`spec.containers[0].volumeMounts[4].subPathExpr: Invalid value: "x/../y": subPathExpr and subPath are mutually exclusive`,
			`spec.containers[0].volumeMounts.subPathExpr: Invalid value: "x/../y": must not contain '..'`,
			`spec.containers[0].volumeMounts.mountPropagation: Forbidden: Bidirectional mount propagation is available only to privileged containers`,
			`spec.containers[0].volumeMounts.mountPropagation: Unsupported value: "Sideways": supported values: "Bidirectional", "HostToContainer", "None"`,
			`spec.containers[0].volumeMounts[7].name: Invalid value: "b": must not already exist in volumeDevices`,
			`spec.containers[0].volumeMounts[7].mountPath: Invalid value: "/dev/b": must not already exist as a path in volumeDevices`,
			`spec.containers[0].volumeDevices[0].name: Invalid value: "b": must not already exist in volumeMounts`,
			`spec.containers[0].volumeDevices[0].devicePath: Invalid value: "/dev/b": must not already exist as a path in volumeMounts`,
		}},
		createCase{name: "recursive read-only", mod: all(vols(emptyDir("a")), ctr(func(c *corev1.Container) {
			c.VolumeMounts = []corev1.VolumeMount{
				{Name: "a", MountPath: "/a", RecursiveReadOnly: ptr(corev1.RecursiveReadOnlyEnabled)},
				{Name: "a", MountPath: "/b", ReadOnly: true, RecursiveReadOnly: ptr(corev1.RecursiveReadOnlyIfPossible), MountPropagation: ptr(corev1.MountPropagationHostToContainer)},
				{Name: "a", MountPath: "/c", RecursiveReadOnly: ptr(corev1.RecursiveReadOnlyMode("Sometimes"))},
				{Name: "a", MountPath: "/d", ReadOnly: true, RecursiveReadOnly: ptr(corev1.RecursiveReadOnlyEnabled)},
			}
		})), want: []string{
			`spec.containers[0].volumeMounts.recursiveReadOnly: Forbidden: may only be specified when readOnly is true`,
			`spec.containers[0].volumeMounts.recursiveReadOnly: Forbidden: may only be specified when mountPropagation is None or not specified`,
			`spec.containers[0].volumeMounts.recursiveReadOnly: Unsupported value: "Sometimes": supported values: "Disabled", "Enabled", "IfPossible"`,
		}},
		createCase{name: "bidirectional allowed when privileged", privileged: true, mod: all(vols(emptyDir("a")), ctr(func(c *corev1.Container) {
			c.SecurityContext = &corev1.SecurityContext{Privileged: ptr(true)}
			c.VolumeMounts = []corev1.VolumeMount{{Name: "a", MountPath: "/a", MountPropagation: ptr(corev1.MountPropagationBidirectional)}}
		}))},
		createCase{name: "device faults", mod: all(vols(emptyDir("a"), pvc("b")), ctr(func(c *corev1.Container) {
			c.VolumeDevices = []corev1.VolumeDevice{
				{},
				{Name: "a", DevicePath: "/dev/a"},
				{Name: "missing", DevicePath: "/dev/a"},
				{Name: "b", DevicePath: "/dev/../b"},
				{Name: "b", DevicePath: "/dev/m"},
			}
			c.VolumeMounts = []corev1.VolumeMount{{Name: "b", MountPath: "/dev/m"}}
		})), want: []string{
			`spec.containers[0].volumeMounts[0].name: Invalid value: "b": must not already exist in volumeDevices`,
			`spec.containers[0].volumeMounts[0].mountPath: Invalid value: "/dev/m": must not already exist as a path in volumeDevices`,
			`spec.containers[0].volumeDevices[0].name: Required value`,
			`spec.containers[0].volumeDevices[0].name: Not found: ""`,
			`spec.containers[0].volumeDevices[0].devicePath: Required value`,
			`spec.containers[0].volumeDevices[1].name: Invalid value: "a": can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode`,
			`spec.containers[0].volumeDevices[2].name: Not found: "missing"`,
			`spec.containers[0].volumeDevices[2].devicePath: Invalid value: "/dev/a": must be unique`,
			`spec.containers[0].volumeDevices[3].devicePath: Invalid value: "/dev/../b": can not contain backsteps ('..')`,
			`spec.containers[0].volumeDevices[3].name: Invalid value: "b": must not already exist in volumeMounts`,
			`spec.containers[0].volumeDevices[4].name: Invalid value: "b": must be unique`,
			`spec.containers[0].volumeDevices[4].name: Invalid value: "b": must not already exist in volumeMounts`,
			`spec.containers[0].volumeDevices[4].devicePath: Invalid value: "/dev/m": must not already exist as a path in volumeMounts`,
		}},
		createCase{name: "volume with three sources", mod: all(
			func(p *corev1.Pod) {
				p.Spec.Volumes = []corev1.Volume{{Name: "multi", VolumeSource: corev1.VolumeSource{
					EmptyDir:    &corev1.EmptyDirVolumeSource{},
					ConfigMap:   &corev1.ConfigMapVolumeSource{LocalObjectReference: corev1.LocalObjectReference{Name: "cm"}},
					DownwardAPI: &corev1.DownwardAPIVolumeSource{},
				}}}
			},
			ctr(func(c *corev1.Container) { c.VolumeMounts = []corev1.VolumeMount{{Name: "multi", MountPath: "/m"}} }),
		), want: []string{
			`spec.volumes[0].downwarAPI: Forbidden: may not specify more than 1 volume type`,
			`spec.volumes[0].configMap: Forbidden: may not specify more than 1 volume type`,
			`spec.containers[0].volumeMounts[0].name: Not found: "multi"`,
		}},
		createCase{name: "volume names", mod: all(
			func(p *corev1.Pod) {
				p.Spec.Volumes = []corev1.Volume{emptyDir("a"), emptyDir("a"), emptyDir("Bad"), {Name: "nosource"}}
			},
			ctr(func(c *corev1.Container) {
				c.VolumeMounts = []corev1.VolumeMount{{Name: "a", MountPath: "/a"}, {Name: "Bad", MountPath: "/b"}, {Name: "nosource", MountPath: "/c"}}
			})), want: []string{
			`spec.volumes[1].name: Duplicate value: "a"`,
			`spec.volumes[2].name: Invalid value: "Bad": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
			`spec.containers[0].volumeMounts[1].name: Not found: "Bad"`,
		}},
	)
}
