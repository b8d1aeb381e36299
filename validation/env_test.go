package validation

import (
	corev1 "k8s.io/api/core/v1"
)

// Re-expresses upstream TestValidateEnv, TestRelaxedValidateEnv, TestValidateEnvFrom,
// TestValidateEnvVarValueFromFileKeyRef, TestHugePagesEnv and TestLocalStorageEnv.
func init() {
	addFamily("env",
		createCase{name: "valid env", mod: all(vols(emptyDir("files")), ctr(func(c *corev1.Container) {
			c.Env = []corev1.EnvVar{
				{Name: "A", Value: "x"},
				{Name: "1-relaxed.name!", Value: "y"},
				{Name: "POD", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.name"}}},
				{Name: "LBL", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.labels['app']"}}},
				{Name: "HOST", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "spec.host"}}},
				{Name: "CPU", ValueFrom: &corev1.EnvVarSource{ResourceFieldRef: &corev1.ResourceFieldSelector{Resource: "limits.cpu", Divisor: q("1m")}}},
				{Name: "HP", ValueFrom: &corev1.EnvVarSource{ResourceFieldRef: &corev1.ResourceFieldSelector{Resource: "requests.hugepages-2Mi", Divisor: q("1Mi")}}},
				{Name: "CM", ValueFrom: &corev1.EnvVarSource{ConfigMapKeyRef: &corev1.ConfigMapKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "cm"}, Key: "k"}}},
				{Name: "FILE", ValueFrom: &corev1.EnvVarSource{FileKeyRef: &corev1.FileKeySelector{VolumeName: "files", Path: "env", Key: "K"}}},
			}
		}))},
		createCase{name: "env names", mod: ctr(func(c *corev1.Container) {
			c.Env = []corev1.EnvVar{{Name: ""}, {Name: "a=b"}, {Name: "tab\tname"}, {Name: "ok"}}
		}), want: []string{
			`spec.containers[0].env[0].name: Required value`,
			`spec.containers[0].env[1].name: Invalid value: "a=b": a valid environment variable name must consist only of printable ASCII characters other than '='`,
			`spec.containers[0].env[2].name: Invalid value: "tab\tname": a valid environment variable name must consist only of printable ASCII characters other than '='`,
		}},
		createCase{name: "valueFrom source counts", mod: ctr(func(c *corev1.Container) {
			fr := &corev1.ObjectFieldSelector{FieldPath: "metadata.name"}
			c.Env = []corev1.EnvVar{
				{Name: "A", ValueFrom: &corev1.EnvVarSource{}},
				{Name: "B", Value: "v", ValueFrom: &corev1.EnvVarSource{FieldRef: fr}},
				{Name: "C", ValueFrom: &corev1.EnvVarSource{FieldRef: fr, SecretKeyRef: &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "s"}, Key: "k"}}},
			}
		}), want: []string{
			"spec.containers[0].env[0].valueFrom: Invalid value: \"\": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef`, `secretKeyRef` or `fileKeyRef`",
			"spec.containers[0].env[1].valueFrom: Invalid value: \"\": may not be specified when `value` is not empty",
			`spec.containers[0].env[2].valueFrom: Invalid value: "": may not have more than one field specified at a time`,
		}},
		createCase{name: "valueFrom without fileKeyRef when EnvFiles is off", features: map[string]bool{"EnvFiles": false}, mod: ctr(func(c *corev1.Container) {
			c.Env = []corev1.EnvVar{{Name: "A", ValueFrom: &corev1.EnvVarSource{}}}
		}), want: []string{
			"spec.containers[0].env[0].valueFrom: Invalid value: \"\": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`",
		}},
		createCase{name: "fieldRef faults", mod: ctr(func(c *corev1.Container) {
			c.Env = []corev1.EnvVar{
				{Name: "A", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1"}}},
				{Name: "B", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v2", FieldPath: "metadata.name"}}},
				{Name: "C", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "status.phase"}}},
				{Name: "D", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.labels"}}},
				{Name: "E", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.name['x']"}}},
				{Name: "F", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.annotations['BAD KEY']"}}},
				{Name: "G", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "nope"}}},
			}
		}), want: []string{
			`spec.containers[0].env[0].valueFrom.fieldRef.fieldPath: Required value`,
			`spec.containers[0].env[1].valueFrom.fieldRef.fieldPath: Invalid value: "metadata.name": error converting fieldPath: unsupported pod version: v2`,
			`spec.containers[0].env[2].valueFrom.fieldRef.fieldPath: Unsupported value: "status.phase": supported values: "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"`,
			`spec.containers[0].env[3].valueFrom.fieldRef.fieldPath: Unsupported value: "metadata.labels": supported values: "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"`,
			`spec.containers[0].env[4].valueFrom.fieldRef.fieldPath: Invalid value: "metadata.name['x']": error converting fieldPath: field label does not support subscript: metadata.name['x']`,
			`spec.containers[0].env[5].valueFrom.fieldRef: Invalid value: "bad key": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
			`spec.containers[0].env[6].valueFrom.fieldRef.fieldPath: Invalid value: "nope": error converting fieldPath: field label not supported: nope`,
		}},
		createCase{name: "resourceFieldRef faults", mod: ctr(func(c *corev1.Container) {
			c.Env = []corev1.EnvVar{
				{Name: "A", ValueFrom: &corev1.EnvVarSource{ResourceFieldRef: &corev1.ResourceFieldSelector{}}},
				{Name: "B", ValueFrom: &corev1.EnvVarSource{ResourceFieldRef: &corev1.ResourceFieldSelector{Resource: "limits.gpu"}}},
				{Name: "C", ValueFrom: &corev1.EnvVarSource{ResourceFieldRef: &corev1.ResourceFieldSelector{Resource: "requests.cpu", Divisor: q("2")}}},
				{Name: "D", ValueFrom: &corev1.EnvVarSource{ResourceFieldRef: &corev1.ResourceFieldSelector{Resource: "limits.memory", Divisor: q("1m")}}},
				{Name: "E", ValueFrom: &corev1.EnvVarSource{ResourceFieldRef: &corev1.ResourceFieldSelector{Resource: "requests.ephemeral-storage", Divisor: q("3")}}},
				{Name: "F", ValueFrom: &corev1.EnvVarSource{ResourceFieldRef: &corev1.ResourceFieldSelector{Resource: "limits.hugepages-1Gi", Divisor: q("2Gi")}}},
			}
		}), want: []string{
			`spec.containers[0].env[0].valueFrom.resourceFieldRef.resource: Required value`,
			`spec.containers[0].env[1].valueFrom.resourceFieldRef.resource: Unsupported value: "limits.gpu": supported values: "limits.cpu", "limits.ephemeral-storage", "limits.memory", "requests.cpu", "requests.ephemeral-storage", "requests.memory"`,
			`spec.containers[0].env[2].valueFrom.resourceFieldRef.divisor: Invalid value: "requests.cpu": only divisor's values 1m and 1 are supported with the cpu resource`,
			`spec.containers[0].env[3].valueFrom.resourceFieldRef.divisor: Invalid value: "limits.memory": only divisor's values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the memory resource`,
			`spec.containers[0].env[4].valueFrom.resourceFieldRef.divisor: Invalid value: "requests.ephemeral-storage": only divisor's values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the local ephemeral storage resource`,
			`spec.containers[0].env[5].valueFrom.resourceFieldRef.divisor: Invalid value: "limits.hugepages-1Gi": only divisor's values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the hugepages resource`,
		}},
		createCase{name: "key selector faults", mod: ctr(func(c *corev1.Container) {
			c.Env = []corev1.EnvVar{
				{Name: "A", ValueFrom: &corev1.EnvVarSource{ConfigMapKeyRef: &corev1.ConfigMapKeySelector{}}},
				{Name: "B", ValueFrom: &corev1.EnvVarSource{SecretKeyRef: &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "Bad_Name"}, Key: "bad key"}}},
			}
		}), want: []string{
			`spec.containers[0].env[0].valueFrom.configMapKeyRef.name: Invalid value: "": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
			`spec.containers[0].env[0].valueFrom.configMapKeyRef.key: Required value`,
			`spec.containers[0].env[1].valueFrom.secretKeyRef.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
			`spec.containers[0].env[1].valueFrom.secretKeyRef.key: Invalid value: "bad key": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`,
		}},
		createCase{name: "fileKeyRef faults", mod: all(vols(pvc("claim")), ctr(func(c *corev1.Container) {
			c.Env = []corev1.EnvVar{
				{Name: "A", ValueFrom: &corev1.EnvVarSource{FileKeyRef: &corev1.FileKeySelector{}}},
				{Name: "B", ValueFrom: &corev1.EnvVarSource{FileKeyRef: &corev1.FileKeySelector{VolumeName: "claim", Path: "../x", Key: "a=b"}}},
				{Name: "C", ValueFrom: &corev1.EnvVarSource{FileKeyRef: &corev1.FileKeySelector{VolumeName: "Missing", Path: "x", Key: "k"}}},
			}
		})), want: []string{
			`spec.containers[0].env[0].valueFrom.fileKeyRef.key: Required value`,
			`spec.containers[0].env[0].valueFrom.fileKeyRef.volumeName: Required value`,
			`spec.containers[0].env[0].valueFrom.fileKeyRef.path: Required value`,
			`spec.containers[0].env[1].valueFrom.fileKeyRef.key: Invalid value: "a=b": a valid environment variable name must consist only of printable ASCII characters other than '='`,
			`spec.containers[0].env[1].valueFrom.fileKeyRef.path: Invalid value: "../x": must not contain '..'`,
			`spec.containers[0].env[2].valueFrom.fileKeyRef.volumeName: Invalid value: "Missing": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
			`spec.containers[0].env[0].valueFrom.fileKeyRef.volumeName: Not found: ""`,
			`spec.containers[0].env[1].valueFrom.fileKeyRef.volumeName: Invalid value: "claim": referenced volume must be of type emptyDir`,
			`spec.containers[0].env[2].valueFrom.fileKeyRef.volumeName: Not found: "Missing"`,
		}},
		createCase{name: "envFrom faults", mod: ctr(func(c *corev1.Container) {
			c.EnvFrom = []corev1.EnvFromSource{
				{},
				{Prefix: "a=", ConfigMapRef: &corev1.ConfigMapEnvSource{}},
				{ConfigMapRef: &corev1.ConfigMapEnvSource{LocalObjectReference: corev1.LocalObjectReference{Name: "cm"}}, SecretRef: &corev1.SecretEnvSource{LocalObjectReference: corev1.LocalObjectReference{Name: "Bad"}}},
				{Prefix: "OK_", SecretRef: &corev1.SecretEnvSource{LocalObjectReference: corev1.LocalObjectReference{Name: "s"}}},
			}
		}), want: []string{
			"spec.containers[0].envFrom: Invalid value: \"\": must specify one of: `configMapRef` or `secretRef`",
			`spec.containers[0].envFrom[1].prefix: Invalid value: "a=": a valid environment variable name must consist only of printable ASCII characters other than '='`,
			`spec.containers[0].envFrom[1].configMapRef.name: Required value`,
			`spec.containers[0].envFrom[2].secretRef.name: Invalid value: "Bad": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
			`spec.containers[0].envFrom: Invalid value: "": may not have more than one field specified at a time`,
		}},
	)
}
