package validation

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// Re-expresses the emptyDir, hostPath, secret, configMap, persistentVolumeClaim and
// downwardAPI rows of upstream TestValidateVolumes.
func init() {
	neg := resource.MustParse("-1Gi")
	addFamily("volumes",
		createCase{name: "valid sources", mod: func(p *corev1.Pod) {
			p.Spec.Volumes = []corev1.Volume{
				{Name: "e", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{Medium: corev1.StorageMediumMemory}}},
				{Name: "h", VolumeSource: corev1.VolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: "/var/log", Type: ptr(corev1.HostPathDirectory)}}},
				{Name: "s", VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: "s", Items: []corev1.KeyToPath{{Key: "k", Path: "a/b", Mode: ptr(int32(0400))}}}}},
				{Name: "c", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{LocalObjectReference: corev1.LocalObjectReference{Name: "cm"}}}},
				{Name: "d", VolumeSource: corev1.VolumeSource{DownwardAPI: &corev1.DownwardAPIVolumeSource{Items: []corev1.DownwardAPIVolumeFile{
					{Path: "labels", FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.labels"}},
					{Path: "cpu", ResourceFieldRef: &corev1.ResourceFieldSelector{ContainerName: "c", Resource: "limits.cpu"}},
				}}}},
			}
		}},
		createCase{name: "source faults", mod: all(func(p *corev1.Pod) {
			p.Spec.Volumes = []corev1.Volume{
				{Name: "e", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{SizeLimit: &neg}}},
				{Name: "h", VolumeSource: corev1.VolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: "/a/../b", Type: ptr(corev1.HostPathType("Pipe"))}}},
				{Name: "h2", VolumeSource: corev1.VolumeSource{HostPath: &corev1.HostPathVolumeSource{}}},
				{Name: "s", VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{DefaultMode: ptr(int32(01000)), Items: []corev1.KeyToPath{
					{}, {Key: "k", Path: "/abs"}, {Key: "k", Path: "..x", Mode: ptr(int32(-1))}, {Key: "k", Path: "a/../b"},
				}}}},
				{Name: "c", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{DefaultMode: ptr(int32(-1))}}},
				{Name: "p", VolumeSource: corev1.VolumeSource{PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{}}},
				{Name: "d", VolumeSource: corev1.VolumeSource{DownwardAPI: &corev1.DownwardAPIVolumeSource{Items: []corev1.DownwardAPIVolumeFile{
					{},
					{Path: "x", FieldRef: &corev1.ObjectFieldSelector{FieldPath: "spec.nodeName"}, ResourceFieldRef: &corev1.ResourceFieldSelector{Resource: "limits.cpu"}},
					{Path: "y", ResourceFieldRef: &corev1.ResourceFieldSelector{Resource: "limits.cpu"}},
					{Path: "z", ResourceFieldRef: &corev1.ResourceFieldSelector{ContainerName: "c", Resource: "limits.gpu"}, Mode: ptr(int32(01000))},
				}}}},
			}
		}, ctr(func(c *corev1.Container) {
			c.VolumeMounts = []corev1.VolumeMount{{Name: "e", MountPath: "/e"}, {Name: "s", MountPath: "/s"}, {Name: "d", MountPath: "/d"}}
		})), want: []string{
			`spec.volumes[0].emptyDir.sizeLimit: Forbidden: SizeLimit field must be a valid resource quantity`,
			`spec.volumes[1].hostPath.path: Invalid value: "/a/../b": must not contain '..'`,
			`spec.volumes[1].hostPath.type: Unsupported value: "Pipe": supported values: "", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket"`,
			`spec.volumes[2].hostPath.path: Required value`,
			`spec.volumes[3].secret.secretName: Required value`,
			`spec.volumes[3].secret.defaultMode: Invalid value: 512: must be a number between 0 and 0777 (octal), both inclusive`,
			`spec.volumes[3].secret.items[0].key: Required value`,
			`spec.volumes[3].secret.items[0].path: Required value`,
			`spec.volumes[3].secret.items[1].path: Invalid value: "/abs": must be a relative path`,
			`spec.volumes[3].secret.items[2].path: Invalid value: "..x": must not start with '..'`,
			`spec.volumes[3].secret.items[2].mode: Invalid value: -1: must be a number between 0 and 0777 (octal), both inclusive`,
			`spec.volumes[3].secret.items[3].path: Invalid value: "a/../b": must not contain '..'`,
			`spec.volumes[4].configMap.name: Required value`,
			`spec.volumes[4].configMap.defaultMode: Invalid value: -1: must be a number between 0 and 0777 (octal), both inclusive`,
			`spec.volumes[5].persistentVolumeClaim.claimName: Required value`,
			`spec.volumes[6].downwardAPI.path: Required value`,
			`spec.volumes[6].downwardAPI: Required value: one of fieldRef and resourceFieldRef is required`,
			`spec.volumes[6].downwardAPI.fieldRef.fieldPath: Unsupported value: "spec.nodeName": supported values: "metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace", "metadata.uid"`,
			`spec.volumes[6].downwardAPI: Invalid value: "resource": fieldRef and resourceFieldRef can not be specified simultaneously`,
			`spec.volumes[6].downwardAPI.resourceFieldRef.containerName: Required value`,
			`spec.volumes[6].downwardAPI.resourceFieldRef.resource: Unsupported value: "limits.gpu": supported values: "limits.cpu", "limits.ephemeral-storage", "limits.memory", "requests.cpu", "requests.ephemeral-storage", "requests.memory"`,
			`spec.volumes[6].downwardAPI.mode: Invalid value: 512: must be a number between 0 and 0777 (octal), both inclusive`,
			`spec.containers[0].volumeMounts[0].name: Not found: "e"`,
			`spec.containers[0].volumeMounts[1].name: Not found: "s"`,
			`spec.containers[0].volumeMounts[2].name: Not found: "d"`,
		}},
		createCase{name: "projected sources", mod: all(func(p *corev1.Pod) {
			p.Spec.ServiceAccountName = "sa"
			p.Spec.Volumes = []corev1.Volume{
				{Name: "ok", VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{Sources: []corev1.VolumeProjection{
					{ServiceAccountToken: &corev1.ServiceAccountTokenProjection{Path: "token", ExpirationSeconds: ptr(int64(3600))}},
					{ConfigMap: &corev1.ConfigMapProjection{LocalObjectReference: corev1.LocalObjectReference{Name: "ca"}, Items: []corev1.KeyToPath{{Key: "ca.crt", Path: "ca.crt"}}}},
				}}}},
				{Name: "bad", VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{DefaultMode: ptr(int32(01000)), Sources: []corev1.VolumeProjection{
					{ServiceAccountToken: &corev1.ServiceAccountTokenProjection{Path: "/abs", ExpirationSeconds: ptr(int64(60))}},
					{ServiceAccountToken: &corev1.ServiceAccountTokenProjection{}},
					{Secret: &corev1.SecretProjection{Items: []corev1.KeyToPath{{Key: "k", Path: "x"}}}, ConfigMap: &corev1.ConfigMapProjection{LocalObjectReference: corev1.LocalObjectReference{Name: "cm"}, Items: []corev1.KeyToPath{{Key: "k", Path: "x"}}}},
					{DownwardAPI: &corev1.DownwardAPIProjection{Items: []corev1.DownwardAPIVolumeFile{{Path: "x", FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.name"}}}}},
				}}}},
			}
		}, ctr(func(c *corev1.Container) {
			c.VolumeMounts = []corev1.VolumeMount{{Name: "ok", MountPath: "/ok"}, {Name: "bad", MountPath: "/bad"}}
		})), want: []string{
			`spec.volumes[1].projected.defaultMode: Invalid value: 512: must be a number between 0 and 0777 (octal), both inclusive`,
			`spec.volumes[1].projected.sources[0].serviceAccountToken.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes`,
			`spec.volumes[1].projected.path: Invalid value: "/abs": must be a relative path`,
			`spec.volumes[1].projected.path: Required value`,
			`spec.volumes[1].projected.sources[2].secret.name: Required value`,
			`spec.volumes[1].projected: Invalid value: "cm": conflicting duplicate paths`,
			`spec.volumes[1].projected.sources[2]: Forbidden: may not specify more than 1 volume type per source`,
			`spec.volumes[1].projected: Invalid value: "x": conflicting duplicate paths`,
			`spec.containers[0].volumeMounts[1].name: Not found: "bad"`,
		}},
		createCase{name: "projected token without service account", mod: func(p *corev1.Pod) {
			p.Spec.Volumes = []corev1.Volume{{Name: "t", VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{Sources: []corev1.VolumeProjection{
				{ServiceAccountToken: &corev1.ServiceAccountTokenProjection{Path: "token"}},
			}}}}}
		}, want: []string{
			`spec.volumes[0].projected.sources[0].serviceAccountToken: Forbidden: must not be specified when serviceAccountName is not set`,
		}},
		createCase{name: "csi and image sources", mod: all(func(p *corev1.Pod) {
			p.Spec.Volumes = []corev1.Volume{
				{Name: "c1", VolumeSource: corev1.VolumeSource{CSI: &corev1.CSIVolumeSource{Driver: "csi.example.com"}}},
				{Name: "c2", VolumeSource: corev1.VolumeSource{CSI: &corev1.CSIVolumeSource{Driver: "Bad_Driver!", NodePublishSecretRef: &corev1.LocalObjectReference{}}}},
				{Name: "c3", VolumeSource: corev1.VolumeSource{CSI: &corev1.CSIVolumeSource{Driver: "", NodePublishSecretRef: &corev1.LocalObjectReference{Name: "Bad_Secret"}}}},
				{Name: "i1", VolumeSource: corev1.VolumeSource{Image: &corev1.ImageVolumeSource{Reference: "registry.example.com/data:v1"}}},
				{Name: "i2", VolumeSource: corev1.VolumeSource{Image: &corev1.ImageVolumeSource{PullPolicy: "Sometimes"}}},
			}
		}, ctr(func(c *corev1.Container) {
			c.VolumeMounts = []corev1.VolumeMount{{Name: "c1", MountPath: "/c1"}, {Name: "i1", MountPath: "/i1"}, {Name: "i2", MountPath: "/i2"}}
		})), want: []string{
			`spec.volumes[1].csi.driver: Invalid value: "Bad_Driver!": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
			`spec.volumes[1].csi.nodePublishSecretRef.name: Required value`,
			`spec.volumes[2].csi.driver: Required value`,
			`spec.volumes[2].csi.name: Invalid value: "Bad_Secret": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
			`spec.volumes[4].image.reference: Required value`,
			`spec.volumes[4].image.pullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"`,
			`spec.containers[0].volumeMounts[2].name: Not found: "i2"`,
		}},
	)
}
