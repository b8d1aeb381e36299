package validation

import (
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/podlife/podlife/internal/gates"
)

// The cases of k8s.io/kubernetes pkg/apis/apps/validation/validation_test.go
// (TestValidateStatefulSet, TestValidateStatefulSetMinReadySeconds,
// TestValidateStatefulSetUpdate, TestValidateDaemonSet, TestValidateDaemonSetUpdate,
// TestDaemonSetUpdateMaxSurge, TestValidateDeployment, TestValidateDeploymentUpdate,
// TestValidateReplicaSet, TestValidateReplicaSetUpdate), through the server's paths.
// The status, ControllerRevision and rollback-subresource tests validate other
// requests and are not re-expressed.

// wlLabels are the labels of the tables' templates and selectors.
func wlLabels() map[string]string { return map[string]string{"a": "b"} }

// wlTemplate is upstream's validPodTemplate: labels a=b, one container.
func wlTemplate(tweaks ...func(*corev1.PodTemplateSpec)) corev1.PodTemplateSpec {
	t := corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: wlLabels()},
		Spec: corev1.PodSpec{
			RestartPolicy: corev1.RestartPolicyAlways,
			DNSPolicy:     corev1.DNSClusterFirst,
			Containers: []corev1.Container{{Name: "abc", Image: "image", ImagePullPolicy: corev1.PullIfNotPresent,
				TerminationMessagePolicy: corev1.TerminationMessageReadFile}},
			TerminationGracePeriodSeconds: ptr[int64](30),
		},
	}
	for _, f := range tweaks {
		f(&t)
	}
	return t
}

func withLabels(l map[string]string) func(*corev1.PodTemplateSpec) {
	return func(t *corev1.PodTemplateSpec) { t.Labels = l }
}

func withRestart(p corev1.RestartPolicy) func(*corev1.PodTemplateSpec) {
	return func(t *corev1.PodTemplateSpec) { t.Spec.RestartPolicy = p }
}

func withMount(name string) func(*corev1.PodTemplateSpec) {
	return func(t *corev1.PodTemplateSpec) {
		t.Spec.Containers[0].VolumeMounts = append(t.Spec.Containers[0].VolumeMounts, corev1.VolumeMount{Name: name, MountPath: "/" + name})
	}
}

func withEmptyDir(names ...string) func(*corev1.PodTemplateSpec) {
	return func(t *corev1.PodTemplateSpec) {
		for _, n := range names {
			t.Spec.Volumes = append(t.Spec.Volumes, corev1.Volume{Name: n, VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}})
		}
	}
}

func withHostNetPort(t *corev1.PodTemplateSpec) {
	t.Spec.HostNetwork = true
	t.Spec.Containers[0].Ports = []corev1.ContainerPort{{ContainerPort: 12345, Protocol: corev1.ProtocolTCP}}
}

func withoutContainers(t *corev1.PodTemplateSpec) { t.Spec.Containers = nil }

func withDeadline(t *corev1.PodTemplateSpec) { t.Spec.ActiveDeadlineSeconds = ptr[int64](60) }

// invalidLabels is upstream's invalidLabels.
func invalidLabels() map[string]string {
	return map[string]string{"NoUppercaseOrSpecialCharsLike=Equals": "b"}
}

func selectorOf(l map[string]string) *metav1.LabelSelector {
	if l == nil {
		return nil
	}
	return &metav1.LabelSelector{MatchLabels: l}
}

func objMeta(name string) metav1.ObjectMeta {
	return metav1.ObjectMeta{Name: name, Namespace: metav1.NamespaceDefault}
}

// stored sets what a stored object and the object of an update request carry.
func stored(m *metav1.ObjectMeta) { m.ResourceVersion = "1" }

// ---- StatefulSet ----

func sts(tweaks ...func(*appsv1.StatefulSet)) *appsv1.StatefulSet {
	ss := &appsv1.StatefulSet{
		ObjectMeta: objMeta("abc"),
		Spec: appsv1.StatefulSetSpec{
			PodManagementPolicy: appsv1.OrderedReadyPodManagement,
			Selector:            selectorOf(wlLabels()),
			Template:            wlTemplate(),
			UpdateStrategy:      appsv1.StatefulSetUpdateStrategy{Type: appsv1.RollingUpdateStatefulSetStrategyType},
		},
	}
	for _, f := range tweaks {
		f(ss)
	}
	return ss
}

func stsUpdate(tweaks ...func(*appsv1.StatefulSet)) *appsv1.StatefulSet {
	return sts(append([]func(*appsv1.StatefulSet){func(ss *appsv1.StatefulSet) { stored(&ss.ObjectMeta) }}, tweaks...)...)
}

func ssTemplate(t corev1.PodTemplateSpec) func(*appsv1.StatefulSet) {
	return func(ss *appsv1.StatefulSet) { ss.Spec.Template = t }
}

func ssReplicas(n int32) func(*appsv1.StatefulSet) {
	return func(ss *appsv1.StatefulSet) { ss.Spec.Replicas = ptr(n) }
}

func ssStrategy(t appsv1.StatefulSetUpdateStrategyType) func(*appsv1.StatefulSet) {
	return func(ss *appsv1.StatefulSet) { ss.Spec.UpdateStrategy.Type = t }
}

func ssPartition(p int32) func(*appsv1.StatefulSet) {
	return func(ss *appsv1.StatefulSet) {
		if ss.Spec.UpdateStrategy.RollingUpdate == nil {
			ss.Spec.UpdateStrategy.RollingUpdate = &appsv1.RollingUpdateStatefulSetStrategy{}
		}
		ss.Spec.UpdateStrategy.RollingUpdate.Partition = ptr(p)
	}
}

func ssMaxUnavailable(v intstr.IntOrString) func(*appsv1.StatefulSet) {
	return func(ss *appsv1.StatefulSet) {
		if ss.Spec.UpdateStrategy.RollingUpdate == nil {
			ss.Spec.UpdateStrategy.RollingUpdate = &appsv1.RollingUpdateStatefulSetStrategy{}
		}
		ss.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = &v
	}
}

func ssClaims(claims ...corev1.PersistentVolumeClaim) func(*appsv1.StatefulSet) {
	return func(ss *appsv1.StatefulSet) { ss.Spec.VolumeClaimTemplates = claims }
}

func ssSet(f func(*appsv1.StatefulSet)) func(*appsv1.StatefulSet) { return f }

// claimTemplate is a valid claim template of the given name.
func claimTemplate(name string, tweaks ...func(*corev1.PersistentVolumeClaim)) corev1.PersistentVolumeClaim {
	c := corev1.PersistentVolumeClaim{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: corev1.PersistentVolumeClaimSpec{
			AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
			Resources:   corev1.VolumeResourceRequirements{Requests: rl("storage", "1Gi")},
		},
	}
	for _, f := range tweaks {
		f(&c)
	}
	return c
}

func init() {
	long64 := strings.Repeat("a", 64)
	recreate := gates.FeatureGates{"StatefulSetRecreateStrategy": true}
	addObjectCases("TestValidateStatefulSet",
		objectCase{name: "alpha name", obj: sts()},
		objectCase{name: "alphanumeric name", obj: sts(ssSet(func(ss *appsv1.StatefulSet) { ss.Name = "abc-123" }))},
		objectCase{name: "hostNetwork true", obj: sts(ssTemplate(wlTemplate(withHostNetPort)))},
		objectCase{name: "parallel pod management", obj: sts(ssSet(func(ss *appsv1.StatefulSet) { ss.Spec.PodManagementPolicy = appsv1.ParallelPodManagement }))},
		objectCase{name: "rolling update strategy", obj: sts(ssReplicas(3), ssStrategy(appsv1.RollingUpdateStatefulSetStrategyType), ssPartition(2))},
		objectCase{name: "recreate update strategy", features: recreate, obj: sts(ssReplicas(3), ssStrategy(appsv1.RecreateStatefulSetStrategyType))},
		objectCase{name: "PVC policy", obj: sts(ssSet(func(ss *appsv1.StatefulSet) {
			ss.Spec.PersistentVolumeClaimRetentionPolicy = &appsv1.StatefulSetPersistentVolumeClaimRetentionPolicy{
				WhenDeleted: appsv1.DeletePersistentVolumeClaimRetentionPolicyType, WhenScaled: appsv1.RetainPersistentVolumeClaimRetentionPolicyType}
		}))},
		objectCase{name: "maxUnavailable with parallel pod management", obj: sts(ssReplicas(3), ssPartition(2), ssMaxUnavailable(intstr.FromInt32(2)))},
		objectCase{name: "ordinals.start positive value", obj: sts(ssReplicas(3), ssSet(func(ss *appsv1.StatefulSet) { ss.Spec.Ordinals = &appsv1.StatefulSetOrdinals{Start: 2} }))},
		objectCase{name: "invalid subdomain", obj: sts(ssSet(func(ss *appsv1.StatefulSet) { ss.Spec.Template.Spec.Subdomain = "NoUppercaseOrSpecialCharsLike=Equals" }))},
		objectCase{name: "invalid hostname", obj: sts(ssSet(func(ss *appsv1.StatefulSet) { ss.Spec.Template.Spec.Hostname = "NoUppercaseOrSpecialCharsLike=Equals" }))},
		objectCase{name: "both invalid subdomain and hostname", obj: sts(ssSet(func(ss *appsv1.StatefulSet) {
			ss.Spec.Template.Spec.Subdomain = "NoUppercaseOrSpecialCharsLike=Equals"
			ss.Spec.Template.Spec.Hostname = "NoUppercaseOrSpecialCharsLike=Equals"
		}))},
		objectCase{name: "volume template in pod volumeMounts", obj: sts(ssTemplate(wlTemplate(withMount("test"))), ssClaims(claimTemplate("test")))},
		objectCase{name: "volume templates already present in volumes", obj: sts(ssTemplate(wlTemplate(withMount("test"), withEmptyDir("test1", "test2"))),
			ssClaims(claimTemplate("test"), claimTemplate("test1"), claimTemplate("test2")))},
		objectCase{name: "volume templates present in volumes", obj: sts(ssTemplate(wlTemplate(withMount("test"), withEmptyDir("test"))), ssClaims(claimTemplate("test")))},
		objectCase{name: "VolumeClaimTemplates has 1 PVC", obj: sts(ssClaims(claimTemplate("pvc")))},
		objectCase{name: "zero-length name", obj: sts(ssSet(func(ss *appsv1.StatefulSet) { ss.Name = "" })),
			want: []string{
				"metadata.name: Required value: name or generateName is required",
			},
		},
		objectCase{name: "name-with-dots", obj: sts(ssSet(func(ss *appsv1.StatefulSet) { ss.Name = "abc.123" })),
			want: []string{
				"metadata.name: Invalid value: \"abc.123\": must not contain dots",
			},
		},
		objectCase{name: "long name", obj: sts(ssSet(func(ss *appsv1.StatefulSet) { ss.Name = long64 })),
			want: []string{
				"metadata.name: Invalid value: \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\": must be no more than 63 characters",
			},
		},
		// The server creates an object without a namespace in the request's.
		objectCase{name: "missing-namespace", obj: sts(ssSet(func(ss *appsv1.StatefulSet) { ss.Namespace = "" }))},
		objectCase{name: "empty selector", obj: sts(ssSet(func(ss *appsv1.StatefulSet) { ss.Spec.Selector = nil })),
			want: []string{
				"spec.selector: Required value",
				"spec.template.metadata.labels: Invalid value: {\"a\":\"b\"}: `selector` does not match template `labels`",
			},
		},
		objectCase{name: "selector_doesnt_match", obj: sts(ssSet(func(ss *appsv1.StatefulSet) { ss.Spec.Selector = selectorOf(map[string]string{"foo": "bar"}) })),
			want: []string{
				"spec.template.metadata.labels: Invalid value: {\"a\":\"b\"}: `selector` does not match template `labels`",
			},
		},
		objectCase{name: "negative_replicas", obj: sts(ssReplicas(-1)),
			want: []string{
				"spec.replicas: Invalid value: -1: must be greater than or equal to 0",
			},
		},
		objectCase{name: "invalid_label", obj: sts(ssSet(func(ss *appsv1.StatefulSet) {
			ss.Labels = map[string]string{"NoUppercaseOrSpecialCharsLike=Equals": "bar"}
		})),
			want: []string{
				"metadata.labels: Invalid value: \"NoUppercaseOrSpecialCharsLike=Equals\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
			},
		},
		objectCase{name: "invalid_label 2", obj: sts(ssTemplate(wlTemplate(withLabels(invalidLabels()), withoutContainers)),
			ssSet(func(ss *appsv1.StatefulSet) {
				ss.Labels = map[string]string{"NoUppercaseOrSpecialCharsLike=Equals": "bar"}
				ss.Spec.Selector = selectorOf(invalidLabels())
			})),
			want: []string{
				"metadata.labels: Invalid value: \"NoUppercaseOrSpecialCharsLike=Equals\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
				"spec.selector.matchLabels: Invalid value: \"NoUppercaseOrSpecialCharsLike=Equals\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
				"spec.selector: Invalid value: {\"matchLabels\":{\"NoUppercaseOrSpecialCharsLike=Equals\":\"b\"}}",
			},
		},
		objectCase{name: "invalid_annotation", obj: sts(ssSet(func(ss *appsv1.StatefulSet) {
			ss.Annotations = map[string]string{"NoUppercaseOrSpecialCharsLike=Equals": "bar"}
		})),
			want: []string{
				"metadata.annotations: Invalid value: \"NoUppercaseOrSpecialCharsLike=Equals\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
			},
		},
		objectCase{name: "invalid restart policy 1", obj: sts(ssTemplate(wlTemplate(withRestart(corev1.RestartPolicyOnFailure)))),
			want: []string{
				"spec.template.spec.restartPolicy: Unsupported value: \"OnFailure\": supported values: \"Always\"",
			},
		},
		objectCase{name: "invalid restart policy 2", obj: sts(ssTemplate(wlTemplate(withRestart(corev1.RestartPolicyNever)))),
			want: []string{
				"spec.template.spec.restartPolicy: Unsupported value: \"Never\": supported values: \"Always\"",
			},
		},
		// Defaulted to Always.
		objectCase{name: "empty restart policy", obj: sts(ssTemplate(wlTemplate(withRestart(""))))},
		objectCase{name: "invalid update strategy", obj: sts(ssReplicas(3), ssStrategy("foo")),
			want: []string{
				"spec.updateStrategy: Invalid value: {\"Type\":\"foo\",\"RollingUpdate\":null}: must be 'RollingUpdate' or 'OnDelete'",
			},
		},
		// Defaulted to RollingUpdate.
		objectCase{name: "empty update strategy", obj: sts(ssReplicas(3), ssStrategy(""))},
		objectCase{name: "invalid rolling update", obj: sts(ssReplicas(3), ssStrategy(appsv1.OnDeleteStatefulSetStrategyType), ssPartition(1)),
			want: []string{
				"spec.updateStrategy.rollingUpdate: Invalid value: {\"Partition\":1,\"MaxUnavailable\":null}: only allowed for updateStrategy 'RollingUpdate'",
			},
		},
		objectCase{name: "negative parition", obj: sts(ssReplicas(3), ssPartition(-1)),
			want: []string{
				"spec.updateStrategy.rollingUpdate.partition: Invalid value: -1: must be greater than or equal to 0",
			},
		},
		// Defaulted to OrderedReady.
		objectCase{name: "empty pod management policy", obj: sts(ssReplicas(3), ssSet(func(ss *appsv1.StatefulSet) { ss.Spec.PodManagementPolicy = "" }))},
		objectCase{name: "invalid pod management policy", obj: sts(ssSet(func(ss *appsv1.StatefulSet) { ss.Spec.PodManagementPolicy = "foo" })),
			want: []string{
				"spec.podManagementPolicy: Invalid value: \"foo\": must be 'OrderedReady' or 'Parallel'",
			},
		},
		objectCase{name: "set active deadline seconds", obj: sts(ssReplicas(3), ssTemplate(wlTemplate(withoutContainers, withDeadline))),
			want: []string{
				"spec.template.spec.containers: Required value",
				"spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in StatefulSet is not Supported",
			},
		},
		// Defaulted to Retain and Retain.
		objectCase{name: "empty PersistentVolumeClaimRetentionPolicy", obj: sts(ssSet(func(ss *appsv1.StatefulSet) {
			ss.Spec.PersistentVolumeClaimRetentionPolicy = &appsv1.StatefulSetPersistentVolumeClaimRetentionPolicy{}
		}))},
		objectCase{name: "invalid PersistentVolumeClaimRetentionPolicy", obj: sts(ssSet(func(ss *appsv1.StatefulSet) {
			ss.Spec.PersistentVolumeClaimRetentionPolicy = &appsv1.StatefulSetPersistentVolumeClaimRetentionPolicy{
				WhenDeleted: "invalid-retention-policy", WhenScaled: "invalid-retention-policy"}
		})),
			want: []string{
				"spec.persistentVolumeClaimRetentionPolicy.whenDeleted: Unsupported value: \"invalid-retention-policy\": supported values: \"Retain\", \"Delete\"",
				"spec.persistentVolumeClaimRetentionPolicy.whenScaled: Unsupported value: \"invalid-retention-policy\": supported values: \"Retain\", \"Delete\"",
			},
		},
		objectCase{name: "zero maxUnavailable", obj: sts(ssReplicas(3), ssMaxUnavailable(intstr.FromInt32(0))),
			want: []string{
				"spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: 0: cannot be 0",
			},
		},
		objectCase{name: "zero percent maxUnavailable", obj: sts(ssReplicas(3), ssMaxUnavailable(intstr.FromString("0%"))),
			want: []string{
				"spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: \"0%\": cannot be 0",
			},
		},
		objectCase{name: "greater than 100 percent maxUnavailable", obj: sts(ssReplicas(3), ssMaxUnavailable(intstr.FromString("101%"))),
			want: []string{
				"spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: \"101%\": must not be greater than 100%",
			},
		},
		objectCase{name: "invalid ordinals.start", obj: sts(ssReplicas(3), ssSet(func(ss *appsv1.StatefulSet) { ss.Spec.Ordinals = &appsv1.StatefulSetOrdinals{Start: -2} })),
			want: []string{
				"spec.ordinals.start: Invalid value: -2: must be greater than or equal to 0",
			},
		},
		objectCase{name: "invalid service name", obj: sts(ssSet(func(ss *appsv1.StatefulSet) { ss.Spec.ServiceName = "Invalid.Name" })),
			want: []string{
				"spec.serviceName: Invalid value: \"Invalid.Name\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
			},
		},
		objectCase{name: "missing volume in pod volumeMounts", obj: sts(ssTemplate(wlTemplate(withMount("test")))),
			want: []string{
				"spec.template.spec.containers[0].volumeMounts[0].name: Not found: \"test\"",
			},
		},
		objectCase{name: "want test volumeMount but have test1 volumeTemplate", obj: sts(ssTemplate(wlTemplate(withMount("test"))), ssClaims(claimTemplate("test1"))),
			want: []string{
				"spec.template.spec.containers[0].volumeMounts[0].name: Not found: \"test\"",
			},
		},
		objectCase{name: "duplicate volumes", obj: sts(ssTemplate(wlTemplate(withEmptyDir("test1", "test1")))),
			want: []string{
				"spec.template.spec.volumes[1].name: Duplicate value: \"test1\"",
			},
		},
		objectCase{name: "invalid volumeClaimTemplates with no accessModes", obj: sts(ssClaims(claimTemplate("pvc", func(c *corev1.PersistentVolumeClaim) { c.Spec.AccessModes = nil }))),
			want: []string{
				"spec.volumeClaimTemplates[0].spec.accessModes: Required value: at least 1 access mode is required",
			},
		},
		objectCase{name: "invalid volumeClaimTemplates with invalid VolumeAttributesClassName", obj: sts(ssClaims(claimTemplate("pvc", func(c *corev1.PersistentVolumeClaim) {
			c.Spec.VolumeAttributesClassName = ptr("abc@123")
		}))),
			want: []string{
				"spec.volumeClaimTemplates[0].spec.volumeAttributesClassName: Invalid value: \"abc@123\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
			},
		},
		objectCase{name: "recreate strategy forbidden", obj: sts(ssStrategy(appsv1.RecreateStatefulSetStrategyType)),
			want: []string{
				"spec.updateStrategy: Invalid value: {\"Type\":\"Recreate\",\"RollingUpdate\":null}: must be 'RollingUpdate' or 'OnDelete'",
			},
		},
		objectCase{name: "invalid rolling update config with recreate strategy", features: recreate, obj: sts(ssStrategy(appsv1.RecreateStatefulSetStrategyType), ssPartition(2)),
			want: []string{
				"spec.updateStrategy.rollingUpdate: Invalid value: {\"Partition\":2,\"MaxUnavailable\":null}: only allowed for updateStrategy 'RollingUpdate'",
			},
		},
		// podlife's own: the claim template checks upstream's table does not reach.
		objectCase{name: "claim template with ReadWriteOncePod and another mode", obj: sts(ssClaims(claimTemplate("pvc", func(c *corev1.PersistentVolumeClaim) {
			c.Spec.AccessModes = []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOncePod, corev1.ReadWriteMany}
		}))),
			want: []string{
				"spec.volumeClaimTemplates[0].spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes",
			},
		},
		objectCase{name: "claim template without storage and with an unknown mode", obj: sts(ssClaims(claimTemplate("pvc", func(c *corev1.PersistentVolumeClaim) {
			c.Spec.Resources.Requests = nil
			c.Spec.AccessModes = []corev1.PersistentVolumeAccessMode{"ReadSometimes"}
			c.Spec.VolumeMode = ptr(corev1.PersistentVolumeMode("Tape"))
		}))),
			want: []string{
				"spec.volumeClaimTemplates[0].spec.accessModes: Unsupported value: \"ReadSometimes\": supported values: \"ReadOnlyMany\", \"ReadWriteMany\", \"ReadWriteOnce\", \"ReadWriteOncePod\"",
				"spec.volumeClaimTemplates[0].spec.resources[storage]: Required value",
				"spec.volumeClaimTemplates[0].spec.volumeMode: Unsupported value: \"Tape\": supported values: \"Block\", \"Filesystem\"",
			},
		},
		objectCase{name: "claim template data sources", obj: sts(ssClaims(claimTemplate("pvc", func(c *corev1.PersistentVolumeClaim) {
			c.Spec.DataSource = &corev1.TypedLocalObjectReference{Kind: "VolumeSnapshot", Name: "snap"}
			c.Spec.DataSourceRef = &corev1.TypedObjectReference{Kind: "VolumeSnapshot", Name: "other", APIGroup: ptr("Bad_Group")}
		}))),
			want: []string{
				"spec.volumeClaimTemplates[0].spec.dataSource: Invalid value: \"VolumeSnapshot\": must be 'PersistentVolumeClaim' when referencing the default apiGroup",
				"spec.volumeClaimTemplates[0].spec.dataSourceRef.apiGroup: Invalid value: \"Bad_Group\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
				"spec.volumeClaimTemplates[0].spec: Invalid value: {}: must match dataSourceRef",
			},
		},
		objectCase{name: "claim template data source in another namespace", obj: sts(ssClaims(claimTemplate("pvc", func(c *corev1.PersistentVolumeClaim) {
			c.Spec.DataSource = &corev1.TypedLocalObjectReference{Kind: "PersistentVolumeClaim", Name: "src"}
			c.Spec.DataSourceRef = &corev1.TypedObjectReference{Kind: "PersistentVolumeClaim", Name: "src", Namespace: ptr("Other_NS")}
		}))),
			want: []string{
				"spec.volumeClaimTemplates[0].spec.dataSourceRef.namespace: Invalid value: \"Other_NS\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
				"spec.volumeClaimTemplates[0].spec: Invalid value: {}: may not be specified when dataSourceRef.namespace is specified",
			},
		},
		objectCase{name: "claim template with an invalid name names a template volume", obj: sts(ssTemplate(wlTemplate(withMount("WWW"))), ssClaims(claimTemplate("WWW"))),
			want: []string{
				"spec.template.spec.volumes[0].name: Invalid value: \"WWW\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
				"spec.template.spec.containers[0].volumeMounts[0].name: Not found: \"WWW\"",
			},
		},
	)
	addObjectCases("TestValidateStatefulSetMinReadySeconds",
		objectCase{name: "valid : minReadySeconds enabled, zero", obj: sts()},
		objectCase{name: "invalid : minReadySeconds enabled, negative", obj: sts(ssSet(func(ss *appsv1.StatefulSet) { ss.Spec.MinReadySeconds = -1 })),
			want: []string{
				"spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0",
			},
		},
		objectCase{name: "valid : minReadySeconds enabled, very large value", obj: sts(ssSet(func(ss *appsv1.StatefulSet) { ss.Spec.MinReadySeconds = 2147483647 }))},
		objectCase{name: "invalid : minReadySeconds enabled, large negative", obj: sts(ssSet(func(ss *appsv1.StatefulSet) { ss.Spec.MinReadySeconds = -2147483648 })),
			want: []string{
				"spec.minReadySeconds: Invalid value: -2147483648: must be greater than or equal to 0",
			},
		},
	)

	labels2 := map[string]string{"c": "d"}
	twoContainers := wlTemplate(func(t *corev1.PodTemplateSpec) {
		t.Spec.Containers = append(t.Spec.Containers, corev1.Container{Name: "def", Image: "image2", ImagePullPolicy: corev1.PullIfNotPresent, TerminationMessagePolicy: corev1.TerminationMessageReadFile})
	})
	sc1, sc2 := ptr("storage-class1"), ptr("storage-class2")
	pvcABC := claimTemplate("pvc-abc", func(c *corev1.PersistentVolumeClaim) { c.Spec.StorageClassName = sc1 })
	pvcNoModes := claimTemplate("pvc-without-access-modes", func(c *corev1.PersistentVolumeClaim) {
		c.Spec.StorageClassName = sc1
		c.Spec.AccessModes = nil
	})
	pvcResized := claimTemplate("pvc-abc", func(c *corev1.PersistentVolumeClaim) {
		c.Spec.StorageClassName = sc1
		c.Spec.Resources.Requests = rl("storage", "2Gi")
	})
	pvcReclassed := claimTemplate("pvc-abc", func(c *corev1.PersistentVolumeClaim) { c.Spec.StorageClassName = sc2 })
	pvcABC2 := claimTemplate("pvc-abc2", func(c *corev1.PersistentVolumeClaim) {
		c.Spec.StorageClassName = sc2
		c.Spec.Resources.Requests = rl("storage", "2Gi")
	})
	ssName := func(n string) func(*appsv1.StatefulSet) { return func(ss *appsv1.StatefulSet) { ss.Name = n } }
	ssService := func(n string) func(*appsv1.StatefulSet) {
		return func(ss *appsv1.StatefulSet) { ss.Spec.ServiceName = n }
	}
	ssPolicy := func(p appsv1.PodManagementPolicyType) func(*appsv1.StatefulSet) {
		return func(ss *appsv1.StatefulSet) { ss.Spec.PodManagementPolicy = p }
	}
	addObjectCases("TestValidateStatefulSetUpdate",
		objectCase{name: "update replica count", old: stsUpdate(), obj: stsUpdate(ssReplicas(3))},
		objectCase{name: "update containers 1", old: stsUpdate(), obj: stsUpdate(ssTemplate(twoContainers))},
		objectCase{name: "update containers 2", old: stsUpdate(ssTemplate(twoContainers)), obj: stsUpdate()},
		objectCase{name: "update containers and pvc retention policy 1", old: stsUpdate(ssTemplate(twoContainers)), obj: stsUpdate(ssSet(func(ss *appsv1.StatefulSet) {
			ss.Spec.PersistentVolumeClaimRetentionPolicy = &appsv1.StatefulSetPersistentVolumeClaimRetentionPolicy{WhenDeleted: "Retain", WhenScaled: "Retain"}
		}))},
		objectCase{name: "update containers and pvc retention policy 2", old: stsUpdate(ssSet(func(ss *appsv1.StatefulSet) {
			ss.Spec.PersistentVolumeClaimRetentionPolicy = &appsv1.StatefulSetPersistentVolumeClaimRetentionPolicy{WhenScaled: "Retain"}
		})), obj: stsUpdate()},
		objectCase{name: "update update strategy", old: stsUpdate(), obj: stsUpdate(ssStrategy(appsv1.OnDeleteStatefulSetStrategyType))},
		objectCase{name: "update min ready seconds 1", old: stsUpdate(), obj: stsUpdate(ssSet(func(ss *appsv1.StatefulSet) { ss.Spec.MinReadySeconds = 10 }))},
		objectCase{name: "update min ready seconds 2", old: stsUpdate(ssSet(func(ss *appsv1.StatefulSet) { ss.Spec.MinReadySeconds = 5 })), obj: stsUpdate(ssSet(func(ss *appsv1.StatefulSet) { ss.Spec.MinReadySeconds = 10 }))},
		objectCase{name: "update existing instance with now-invalid name", old: stsUpdate(ssSet(func(ss *appsv1.StatefulSet) { ss.Finalizers = []string{"final"} })), obj: stsUpdate()},
		objectCase{name: "update existing instance with .spec.ordinals.start", old: stsUpdate(), obj: stsUpdate(ssSet(func(ss *appsv1.StatefulSet) { ss.Spec.Ordinals = &appsv1.StatefulSetOrdinals{Start: 3} }))},
		objectCase{name: "update with invalid .spec.serviceName", old: stsUpdate(ssService("Invalid.Name")), obj: stsUpdate(ssService("Invalid.Name"), ssReplicas(3))},
		objectCase{name: "invalid old spec (missing volume template) should skip validation", old: stsUpdate(ssTemplate(wlTemplate(withMount("pvc-abc")))), obj: stsUpdate(ssTemplate(wlTemplate(withMount("pvc-abc"))), ssReplicas(3))},
		objectCase{name: "volume mount", old: stsUpdate(ssClaims(pvcABC)), obj: stsUpdate(ssTemplate(wlTemplate(withMount("pvc-abc"))), ssClaims(pvcABC), ssReplicas(3))},
		objectCase{name: "valid old spec, invalid subdomain in new spec", old: stsUpdate(), obj: stsUpdate(ssSet(func(ss *appsv1.StatefulSet) { ss.Spec.Template.Spec.Subdomain = "NoUppercaseOrSpecialCharsLike=Equals" }))},
		objectCase{name: "valid old spec, invalid hostname in new spec", old: stsUpdate(), obj: stsUpdate(ssSet(func(ss *appsv1.StatefulSet) { ss.Spec.Template.Spec.Hostname = "NoUppercaseOrSpecialCharsLike=Equals" }))},
		objectCase{name: "both invalid subdomain", old: stsUpdate(ssSet(func(ss *appsv1.StatefulSet) { ss.Spec.Template.Spec.Subdomain = "NoUppercaseOrSpecialCharsLike=Equals" })),
			obj: stsUpdate(ssSet(func(ss *appsv1.StatefulSet) { ss.Spec.Template.Spec.Subdomain = "NoUppercaseOrSpecialCharsLike=Equals" }))},
		objectCase{name: "both invalid hostname", old: stsUpdate(ssSet(func(ss *appsv1.StatefulSet) { ss.Spec.Template.Spec.Hostname = "NoUppercaseOrSpecialCharsLike=Equals" })),
			obj: stsUpdate(ssSet(func(ss *appsv1.StatefulSet) { ss.Spec.Template.Spec.Hostname = "NoUppercaseOrSpecialCharsLike=Equals" }))},
		objectCase{name: "invalid old spec (missing volume accessModes) should skip validation", old: stsUpdate(ssClaims(pvcNoModes)), obj: stsUpdate(ssClaims(pvcNoModes), ssReplicas(3))},
		objectCase{name: "switch from RollingUpdate to Recreate, RecreateFG on", features: recreate, old: stsUpdate(), obj: stsUpdate(ssStrategy(appsv1.RecreateStatefulSetStrategyType))},
		objectCase{name: "switch from OnDelete to Recreate, RecreateFG on", features: recreate, old: stsUpdate(ssStrategy(appsv1.OnDeleteStatefulSetStrategyType)), obj: stsUpdate(ssStrategy(appsv1.RecreateStatefulSetStrategyType))},
		objectCase{name: "switch from Recreate to RollingUpdate, RecreateFG on", features: recreate, old: stsUpdate(ssStrategy(appsv1.RecreateStatefulSetStrategyType)), obj: stsUpdate()},
		objectCase{name: "switch from Recreate to RollingUpdate, RecreateFG off", old: stsUpdate(ssStrategy(appsv1.RecreateStatefulSetStrategyType)), obj: stsUpdate()},
		objectCase{name: "switch from Recreate to OnDelete, RecreateFG on", features: recreate, old: stsUpdate(ssStrategy(appsv1.RecreateStatefulSetStrategyType)), obj: stsUpdate(ssStrategy(appsv1.OnDeleteStatefulSetStrategyType))},
		objectCase{name: "switch from Recreate to OnDelete, RecreateFG off", old: stsUpdate(ssStrategy(appsv1.RecreateStatefulSetStrategyType)), obj: stsUpdate(ssStrategy(appsv1.OnDeleteStatefulSetStrategyType))},
		// The server refuses a body that names another object than the URL (the stored
		// object's) before validation (400 Bad Request; see RefusalOf).
		objectCase{name: "update name", old: stsUpdate(ssName("abc")), obj: stsUpdate(ssName("abc2")),
			want: []string{
				"metadata.name: Invalid value: \"abc2\": the name of the object (abc2) does not match the name on the URL (abc)",
			},
		},
		// The server refuses a namespace that is not the stored object's (the request's).
		objectCase{name: "update namespace", old: stsUpdate(), obj: stsUpdate(ssSet(func(ss *appsv1.StatefulSet) { ss.Namespace = metav1.NamespaceDefault + "1" })),
			want: []string{
				"metadata.namespace: Invalid value: \"default1\": the namespace of the provided object does not match the namespace sent on the request",
			},
		},
		objectCase{name: "update selector", old: stsUpdate(), obj: stsUpdate(ssTemplate(wlTemplate(withLabels(labels2))), ssSet(func(ss *appsv1.StatefulSet) { ss.Spec.Selector = selectorOf(labels2) })),
			want: []string{
				"spec.selector: Invalid value: {\"matchLabels\":{\"c\":\"d\"}}: field is immutable",
			},
		},
		objectCase{name: "update service name", old: stsUpdate(ssService("valid-service")), obj: stsUpdate(ssService("other-service")),
			want: []string{
				"spec.serviceName: Invalid value: \"other-service\": field is immutable",
			},
		},
		// The stored policy "" reads back as OrderedReady (the decoder's default).
		objectCase{name: "update pod management policy 1", old: stsUpdate(ssPolicy("")), obj: stsUpdate(ssPolicy(appsv1.OrderedReadyPodManagement))},
		objectCase{name: "update pod management policy 2", old: stsUpdate(ssPolicy(appsv1.ParallelPodManagement)), obj: stsUpdate(ssPolicy(appsv1.OrderedReadyPodManagement)),
			want: []string{
				"spec.podManagementPolicy: Invalid value: \"OrderedReady\": field is immutable",
			},
		},
		objectCase{name: "update to negative replicas", old: stsUpdate(), obj: stsUpdate(ssReplicas(-1)),
			want: []string{
				"spec.replicas: Invalid value: -1: must be greater than or equal to 0",
			},
		},
		objectCase{name: "update pvc template size", old: stsUpdate(ssClaims(pvcABC)), obj: stsUpdate(ssClaims(pvcResized)),
			want: []string{
				"spec.volumeClaimTemplates: Invalid value: [{\"name\":\"pvc-abc\",\"Spec\":{\"AccessModes\":[\"ReadWriteOnce\"],\"Selector\":null,\"Resources\":{\"Limits\":null,\"Requests\":{\"storage\":\"2Gi\"}},\"VolumeName\":\"\",\"StorageClassName\":\"storage-class1\",\"VolumeMode\":\"Filesystem\",\"DataSource\":null,\"DataSourceRef\":null,\"VolumeAttributesClassName\":null},\"Status\":{\"Phase\":\"Pending\",\"AccessModes\":null,\"Capacity\":null,\"Conditions\":null,\"AllocatedResources\":null,\"AllocatedResourceStatuses\":null,\"CurrentVolumeAttributesClassName\":null,\"ModifyVolumeStatus\":null,\"HealthStatus\":null}}]: field is immutable",
			},
		},
		objectCase{name: "update pvc template storage class", old: stsUpdate(ssClaims(pvcABC)), obj: stsUpdate(ssClaims(pvcReclassed)),
			want: []string{
				"spec.volumeClaimTemplates: Invalid value: [{\"name\":\"pvc-abc\",\"Spec\":{\"AccessModes\":[\"ReadWriteOnce\"],\"Selector\":null,\"Resources\":{\"Limits\":null,\"Requests\":{\"storage\":\"1Gi\"}},\"VolumeName\":\"\",\"StorageClassName\":\"storage-class2\",\"VolumeMode\":\"Filesystem\",\"DataSource\":null,\"DataSourceRef\":null,\"VolumeAttributesClassName\":null},\"Status\":{\"Phase\":\"Pending\",\"AccessModes\":null,\"Capacity\":null,\"Conditions\":null,\"AllocatedResources\":null,\"AllocatedResourceStatuses\":null,\"CurrentVolumeAttributesClassName\":null,\"ModifyVolumeStatus\":null,\"HealthStatus\":null}}]: field is immutable",
			},
		},
		objectCase{name: "add new pvc template", old: stsUpdate(ssClaims(pvcABC)), obj: stsUpdate(ssClaims(pvcABC, pvcABC2)),
			want: []string{
				"spec.volumeClaimTemplates: Invalid value: [{\"name\":\"pvc-abc\",\"Spec\":{\"AccessModes\":[\"ReadWriteOnce\"],\"Selector\":null,\"Resources\":{\"Limits\":null,\"Requests\":{\"storage\":\"1Gi\"}},\"VolumeName\":\"\",\"StorageClassName\":\"storage-class1\",\"VolumeMode\":\"Filesystem\",\"DataSource\":null,\"DataSourceRef\":null,\"VolumeAttributesClassName\":null},\"Status\":{\"Phase\":\"Pending\",\"AccessModes\":null,\"Capacity\":null,\"Conditions\":null,\"AllocatedResources\":null,\"AllocatedResourceStatuses\":null,\"CurrentVolumeAttributesClassName\":null,\"ModifyVolumeStatus\":null,\"HealthStatus\":null}},{\"name\":\"pvc-abc2\",\"Spec\":{\"AccessModes\":[\"ReadWriteOnce\"],\"Selector\":null,\"Resources\":{\"Limits\":null,\"Requests\":{\"storage\":\"2Gi\"}},\"VolumeName\":\"\",\"StorageClassName\":\"storage-class2\",\"VolumeMode\":\"Filesystem\",\"DataSource\":null,\"DataSourceRef\":null,\"VolumeAttributesClassName\":null},\"Status\":{\"Phase\":\"Pending\",\"AccessModes\":null,\"Capacity\":null,\"Conditions\":null,\"AllocatedResources\":null,\"AllocatedResourceStatuses\":null,\"CurrentVolumeAttributesClassName\":null,\"ModifyVolumeStatus\":null,\"HealthStatus\":null}}]: field is immutable",
			},
		},
		objectCase{name: "valid old spec but invalid new spec", old: stsUpdate(), obj: stsUpdate(ssTemplate(wlTemplate(withLabels(invalidLabels()), withoutContainers))),
			want: []string{
				"spec.template.metadata.labels: Invalid value: {\"NoUppercaseOrSpecialCharsLike=Equals\":\"b\"}: `selector` does not match template `labels`",
				"spec.template.labels: Invalid value: \"NoUppercaseOrSpecialCharsLike=Equals\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
				"spec.template.spec.containers: Required value",
			},
		},
		objectCase{name: "switch from RollingUpdate to Recreate, RecreateFG off", old: stsUpdate(), obj: stsUpdate(ssStrategy(appsv1.RecreateStatefulSetStrategyType)),
			want: []string{
				"spec.updateStrategy: Invalid value: {\"Type\":\"Recreate\",\"RollingUpdate\":null}: must be 'RollingUpdate' or 'OnDelete'",
			},
		},
		objectCase{name: "switch from OnDelete to Recreate, RecreateFG off", old: stsUpdate(ssStrategy(appsv1.OnDeleteStatefulSetStrategyType)), obj: stsUpdate(ssStrategy(appsv1.RecreateStatefulSetStrategyType)),
			want: []string{
				"spec.updateStrategy: Invalid value: {\"Type\":\"Recreate\",\"RollingUpdate\":null}: must be 'RollingUpdate' or 'OnDelete'",
			},
		},
		// podlife's own: a claim template's apiVersion and kind are not part of it.
		objectCase{name: "claim template apiVersion and kind are not compared", old: stsUpdate(ssClaims(pvcABC)), obj: stsUpdate(ssClaims(func() corev1.PersistentVolumeClaim {
			c := pvcABC
			c.TypeMeta = metav1.TypeMeta{APIVersion: "v1", Kind: "PersistentVolumeClaim"}
			return c
		}()))},
	)
}

// ---- DaemonSet ----

func dset(tweaks ...func(*appsv1.DaemonSet)) *appsv1.DaemonSet {
	ds := &appsv1.DaemonSet{
		ObjectMeta: objMeta("abc"),
		Spec: appsv1.DaemonSetSpec{
			Selector:       selectorOf(wlLabels()),
			Template:       wlTemplate(),
			UpdateStrategy: appsv1.DaemonSetUpdateStrategy{Type: appsv1.OnDeleteDaemonSetStrategyType},
		},
	}
	for _, f := range tweaks {
		f(ds)
	}
	return ds
}

// dsGeneration is the internal spec.templateGeneration, which the v1 object carries
// in the deprecated.daemonset.template.generation annotation.
func dsGeneration(g string) func(*appsv1.DaemonSet) {
	return func(ds *appsv1.DaemonSet) {
		if ds.Annotations == nil {
			ds.Annotations = map[string]string{}
		}
		ds.Annotations[appsv1.DeprecatedTemplateGeneration] = g
	}
}

func dsStored(gen string, tweaks ...func(*appsv1.DaemonSet)) *appsv1.DaemonSet {
	return dset(append([]func(*appsv1.DaemonSet){func(ds *appsv1.DaemonSet) { stored(&ds.ObjectMeta) }, dsGeneration(gen)}, tweaks...)...)
}

func dsRolling(mu, ms *intstr.IntOrString) func(*appsv1.DaemonSet) {
	return func(ds *appsv1.DaemonSet) {
		ds.Spec.UpdateStrategy = appsv1.DaemonSetUpdateStrategy{Type: appsv1.RollingUpdateDaemonSetStrategyType,
			RollingUpdate: &appsv1.RollingUpdateDaemonSet{MaxUnavailable: mu, MaxSurge: ms}}
	}
}

func ios(v intstr.IntOrString) *intstr.IntOrString { return &v }

// gcePDTemplate is upstream's readWriteVolumePodTemplate.
func gcePDTemplate(t *corev1.PodTemplateSpec) {
	t.Spec.Volumes = []corev1.Volume{{Name: "gcepd", VolumeSource: corev1.VolumeSource{GCEPersistentDisk: &corev1.GCEPersistentDiskVolumeSource{PDName: "my-PD", FSType: "ext4", Partition: 1}}}}
}

func init() {
	dsSet := func(f func(*appsv1.DaemonSet)) func(*appsv1.DaemonSet) { return f }
	addObjectCases("TestValidateDaemonSet",
		objectCase{name: "valid", obj: dset()},
		objectCase{name: "valid alphanumeric name", obj: dset(dsSet(func(ds *appsv1.DaemonSet) { ds.Name = "abc-123" }))},
		objectCase{name: "valid hostnet", obj: dset(dsSet(func(ds *appsv1.DaemonSet) { ds.Name = "hostnet" }), dsSet(func(ds *appsv1.DaemonSet) { withHostNetPort(&ds.Spec.Template) }))},
		objectCase{name: "zero-length ID", obj: dset(dsSet(func(ds *appsv1.DaemonSet) { ds.Name = "" })),
			want: []string{
				"metadata.name: Required value: name or generateName is required",
			},
		},
		objectCase{name: "missing-namespace", obj: dset(dsSet(func(ds *appsv1.DaemonSet) { ds.Name, ds.Namespace = "abc-123", "" }))},
		objectCase{name: "nil selector", obj: dset(dsSet(func(ds *appsv1.DaemonSet) { ds.Spec.Selector = nil })),
			want: []string{
				"spec.template.metadata.labels: Invalid value: {\"a\":\"b\"}: `selector` does not match template `labels`",
			},
		},
		objectCase{name: "empty selector", obj: dset(dsSet(func(ds *appsv1.DaemonSet) { ds.Spec.Selector = &metav1.LabelSelector{} })),
			want: []string{
				"spec.selector: Invalid value: {}: empty selector is invalid for daemonset",
			},
		},
		objectCase{name: "selector_doesnt_match", obj: dset(dsSet(func(ds *appsv1.DaemonSet) { ds.Spec.Selector = selectorOf(map[string]string{"foo": "bar"}) })),
			want: []string{
				"spec.template.metadata.labels: Invalid value: {\"a\":\"b\"}: `selector` does not match template `labels`",
			},
		},
		objectCase{name: "invalid template", obj: dset(dsSet(func(ds *appsv1.DaemonSet) { ds.Spec.Template = corev1.PodTemplateSpec{} })),
			want: []string{
				"spec.template.metadata.labels: Invalid value: null: `selector` does not match template `labels`",
				"spec.template.spec.containers: Required value",
			},
		},
		objectCase{name: "invalid_label", obj: dset(dsSet(func(ds *appsv1.DaemonSet) {
			ds.Name, ds.Labels = "abc-123", map[string]string{"NoUppercaseOrSpecialCharsLike=Equals": "bar"}
		})),
			want: []string{
				"metadata.labels: Invalid value: \"NoUppercaseOrSpecialCharsLike=Equals\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
			},
		},
		objectCase{name: "invalid_label 2", obj: dset(dsSet(func(ds *appsv1.DaemonSet) {
			ds.Name, ds.Labels = "abc-123", map[string]string{"NoUppercaseOrSpecialCharsLike=Equals": "bar"}
			ds.Spec.Selector = nil
			ds.Spec.Template.Labels = nil
		})),
			want: []string{
				"metadata.labels: Invalid value: \"NoUppercaseOrSpecialCharsLike=Equals\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
				"spec.template.metadata.labels: Invalid value: null: `selector` does not match template `labels`",
			},
		},
		objectCase{name: "invalid_annotation", obj: dset(dsSet(func(ds *appsv1.DaemonSet) {
			ds.Name, ds.Annotations = "abc-123", map[string]string{"NoUppercaseOrSpecialCharsLike=Equals": "bar"}
		})),
			want: []string{
				"metadata.annotations: Invalid value: \"NoUppercaseOrSpecialCharsLike=Equals\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
			},
		},
		objectCase{name: "invalid restart policy 1", obj: dset(dsSet(func(ds *appsv1.DaemonSet) { ds.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyOnFailure })),
			want: []string{
				"spec.template.spec.restartPolicy: Unsupported value: \"OnFailure\": supported values: \"Always\"",
			},
		},
		objectCase{name: "invalid restart policy 2", obj: dset(dsSet(func(ds *appsv1.DaemonSet) { ds.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyNever })),
			want: []string{
				"spec.template.spec.restartPolicy: Unsupported value: \"Never\": supported values: \"Always\"",
			},
		},
		objectCase{name: "template may not contain ephemeral containers", obj: dset(dsSet(func(ds *appsv1.DaemonSet) {
			ds.Spec.Template.Spec.EphemeralContainers = []corev1.EphemeralContainer{{EphemeralContainerCommon: corev1.EphemeralContainerCommon{
				Name: "debug", Image: "image", ImagePullPolicy: corev1.PullIfNotPresent, TerminationMessagePolicy: corev1.TerminationMessageReadFile}}}
		})),
			want: []string{
				"spec.template.spec.ephemeralContainers: Forbidden: ephemeral containers not allowed in pod template",
			},
		},
		// podlife's own: the template generation annotation must be an integer.
		objectCase{name: "template generation annotation not an integer", obj: dset(dsGeneration("x")),
			want: []string{
				"metadata.annotations[deprecated.daemonset.template.generation]: Invalid value: \"x\": DaemonSet in version \"v1\" cannot be handled as a DaemonSet: strconv.ParseInt: parsing \"x\": invalid syntax",
			},
		},
		objectCase{name: "template generation annotation below 1 is raised", obj: dset(dsGeneration("-5"))},
	)

	nodeSelector := func(ds *appsv1.DaemonSet) {
		ds.Spec.Template.Spec.NodeSelector = wlLabels()
		ds.Spec.Template.Spec.NodeName = "xyz"
	}
	rollingOne := dsRolling(ios(intstr.FromInt32(1)), nil)
	addObjectCases("TestValidateDaemonSetUpdate",
		objectCase{name: "no change", old: dsStored("1"), obj: dsStored("1")},
		objectCase{name: "change template", old: dsStored("3"), obj: dsStored("4", nodeSelector)},
		objectCase{name: "change container image name", old: dsStored("1"), obj: dsStored("1")},
		objectCase{name: "change update strategy", old: dsStored("4"), obj: dsStored("4", rollingOne)},
		objectCase{name: "unchanged templateGeneration upon semantically equal template update", old: dsStored("4", func(ds *appsv1.DaemonSet) {
			ds.Spec.Template.Spec.Containers[0].Resources.Requests = rl("cpu", "1")
		}),
			obj: dsStored("4", rollingOne, func(ds *appsv1.DaemonSet) {
				// Upstream's empty-versus-nil list does not survive JSON; a quantity
				// written two ways is semantically equal too.
				ds.Spec.Template.Spec.Containers[0].Resources.Requests = rl("cpu", "1000m")
			})},
		objectCase{name: "Read-write volume verification", old: dsStored("1"), obj: dsStored("2", func(ds *appsv1.DaemonSet) { gcePDTemplate(&ds.Spec.Template) })},
		objectCase{name: "change daemon name", old: dsStored("1", func(ds *appsv1.DaemonSet) { ds.Name = "" }), obj: dsStored("1"),
			want: []string{
				"metadata.name: Invalid value: \"abc\": field is immutable",
			},
		},
		objectCase{name: "change selector", old: dsStored("1"), obj: dsStored("2", func(ds *appsv1.DaemonSet) {
			ds.Spec.Selector = selectorOf(map[string]string{"c": "d"})
			ds.Spec.Template.Labels = map[string]string{"c": "d"}
			ds.Spec.Template.Spec.Containers[0].Name = "def"
		}),
			want: []string{
				"spec.selector: Invalid value: {\"matchLabels\":{\"c\":\"d\"}}: field is immutable",
			},
		},
		objectCase{name: "invalid selector", old: dsStored("1"), obj: dsStored("1", func(ds *appsv1.DaemonSet) { ds.Spec.Selector = selectorOf(invalidLabels()) }),
			want: []string{
				"spec.selector: Invalid value: {\"matchLabels\":{\"NoUppercaseOrSpecialCharsLike=Equals\":\"b\"}}: field is immutable",
				"spec.selector.matchLabels: Invalid value: \"NoUppercaseOrSpecialCharsLike=Equals\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
			},
		},
		objectCase{name: "invalid pod", old: dsStored("1"), obj: dsStored("2", func(ds *appsv1.DaemonSet) { ds.Spec.Template.Spec.Containers = nil }),
			want: []string{
				"spec.template.spec.containers: Required value",
			},
		},
		objectCase{name: "invalid update strategy", old: dsStored("1"), obj: dsStored("1", func(ds *appsv1.DaemonSet) { ds.Spec.UpdateStrategy.Type = "Random" }),
			want: []string{
				"spec.updateStrategy: Unsupported value: {\"Type\":\"Random\",\"RollingUpdate\":null}: supported values: \"RollingUpdate\", \"OnDelete\"",
			},
		},
		// The registry keeps the stored generation (the new object's is ignored).
		objectCase{name: "negative templateGeneration", old: dsStored("-1"), obj: dsStored("-1"),
			want: []string{
				"spec.templateGeneration: Invalid value: -1: must be greater than or equal to 0",
			},
		},
		objectCase{name: "decreased templateGeneration", old: dsStored("2"), obj: dsStored("1")},
		objectCase{name: "unchanged templateGeneration upon template update", old: dsStored("2"), obj: dsStored("2", nodeSelector)},
	)

	maxSurge := func(mu, ms *intstr.IntOrString) *appsv1.DaemonSet { return dset(dsRolling(mu, ms)) }
	zero, zeroPct := ios(intstr.FromInt32(0)), ios(intstr.FromString("0%"))
	one, onePct := ios(intstr.FromInt32(1)), ios(intstr.FromString("1%"))
	full, over := ios(intstr.FromString("100%")), ios(intstr.FromString("101%"))
	// An unset internal maxUnavailable is 0 where the v1 default is 1: "unset" is an
	// explicit 0 here. An unset maxSurge defaults to 0 in v1 too.
	addObjectCases("TestDaemonSetUpdateMaxSurge",
		objectCase{name: "invalid: unset", obj: maxSurge(zero, nil),
			want: []string{
				"spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0",
			},
		},
		objectCase{name: "invalid: zero percent", obj: maxSurge(zeroPct, nil),
			want: []string{
				"spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0",
			},
		},
		objectCase{name: "valid: one", obj: maxSurge(one, nil)},
		objectCase{name: "valid: one percent", obj: maxSurge(onePct, nil)},
		objectCase{name: "valid: 100%", obj: maxSurge(full, nil)},
		objectCase{name: "invalid: greater than 100%", obj: maxSurge(over, nil),
			want: []string{
				"spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: \"101%\": must not be greater than 100%",
			},
		},
		objectCase{name: "valid: surge and unavailable set", obj: maxSurge(onePct, onePct),
			want: []string{
				"spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: \"1%\": may not be set when maxUnavailable is non-zero",
			},
		},
		objectCase{name: "invalid: surge enabled, surge zero percent", obj: maxSurge(zero, zeroPct),
			want: []string{
				"spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0",
			},
		},
		objectCase{name: "invalid: surge enabled, surge zero", obj: maxSurge(zero, zero),
			want: []string{
				"spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0",
			},
		},
		objectCase{name: "valid: surge enabled, surge one", obj: maxSurge(zero, one)},
		objectCase{name: "valid: surge enabled, surge one percent", obj: maxSurge(zero, onePct)},
		objectCase{name: "valid: surge enabled, surge 100%", obj: maxSurge(zero, full)},
		objectCase{name: "invalid: surge enabled, surge greater than 100%", obj: maxSurge(zero, over),
			want: []string{
				"spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: \"101%\": must not be greater than 100%",
			},
		},
		objectCase{name: "invalid: surge enabled, surge and unavailable zero percent", obj: maxSurge(zeroPct, zeroPct),
			want: []string{
				"spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0",
			},
		},
		objectCase{name: "invalid: surge enabled, surge and unavailable mixed zero", obj: maxSurge(zero, zeroPct),
			want: []string{
				"spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0",
			},
		},
		// podlife's own: the defaults (1 and 0) and invalid percentages.
		objectCase{name: "defaults", obj: maxSurge(nil, nil)},
		objectCase{name: "invalid percent strings", obj: maxSurge(ios(intstr.FromString("ten")), ios(intstr.FromString("5"))),
			want: []string{
				"spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: \"ten\": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
				"spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: \"5\": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
			},
		},
	)
}

// ---- Deployment ----

// deploy is upstream's validDeployment (its RollbackTo, an internal field, is the v1
// object's deprecated rollback annotation).
func deploy(tweaks ...func(*appsv1.Deployment)) *appsv1.Deployment {
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "abc", Namespace: metav1.NamespaceDefault,
			Annotations: map[string]string{appsv1.DeprecatedRollbackTo: "1"}},
		Spec: appsv1.DeploymentSpec{
			Selector: selectorOf(map[string]string{"name": "abc"}),
			Strategy: appsv1.DeploymentStrategy{Type: appsv1.RollingUpdateDeploymentStrategyType,
				RollingUpdate: &appsv1.RollingUpdateDeployment{MaxSurge: ios(intstr.FromInt32(1)), MaxUnavailable: ios(intstr.FromInt32(1))}},
			Template: wlTemplate(withLabels(map[string]string{"name": "abc"}), func(t *corev1.PodTemplateSpec) { t.Name, t.Namespace = "abc", metav1.NamespaceDefault }),
		},
	}
	for _, f := range tweaks {
		f(d)
	}
	return d
}

// deployStored is the Deployment of upstream's update table.
func deployStored(tweaks ...func(*appsv1.Deployment)) *appsv1.Deployment {
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "abc", Namespace: metav1.NamespaceDefault, ResourceVersion: "1"},
		Spec: appsv1.DeploymentSpec{
			Selector: selectorOf(wlLabels()),
			Template: wlTemplate(),
			Strategy: appsv1.DeploymentStrategy{Type: appsv1.RecreateDeploymentStrategyType},
		},
	}
	for _, f := range tweaks {
		f(d)
	}
	return d
}

func init() {
	dpStrategy := func(s appsv1.DeploymentStrategy) func(*appsv1.Deployment) {
		return func(d *appsv1.Deployment) { d.Spec.Strategy = s }
	}
	rolling := func(mu, ms *intstr.IntOrString) func(*appsv1.Deployment) {
		return dpStrategy(appsv1.DeploymentStrategy{Type: appsv1.RollingUpdateDeploymentStrategyType, RollingUpdate: &appsv1.RollingUpdateDeployment{MaxUnavailable: mu, MaxSurge: ms}})
	}
	addObjectCases("TestValidateDeployment",
		objectCase{name: "valid", obj: deploy()},
		objectCase{name: "valid hostnet", obj: deploy(func(d *appsv1.Deployment) { withHostNetPort(&d.Spec.Template) })},
		objectCase{name: "metadata.name: Required value", obj: &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: metav1.NamespaceDefault}},
			want: []string{
				"metadata.name: Required value: name or generateName is required",
				"spec.selector: Required value",
				"spec.template.metadata.labels: Invalid value: null: `selector` does not match template `labels`",
				"spec.template.spec.containers: Required value",
			},
		},
		objectCase{name: "`selector` does not match template `labels`", obj: deploy(func(d *appsv1.Deployment) { d.Spec.Selector = selectorOf(map[string]string{"name": "def"}) }),
			want: []string{
				"spec.template.metadata.labels: Invalid value: {\"name\":\"abc\"}: `selector` does not match template `labels`",
			},
		},
		objectCase{name: "Unsupported value: \"Never\"", obj: deploy(func(d *appsv1.Deployment) { d.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyNever }),
			want: []string{
				"spec.template.spec.restartPolicy: Unsupported value: \"Never\": supported values: \"Always\"",
			},
		},
		objectCase{name: "supported values: \"Recreate\", \"RollingUpdate\"", obj: deploy(func(d *appsv1.Deployment) { d.Spec.Strategy.Type = "randomType" }),
			want: []string{
				"spec.strategy: Unsupported value: {\"Type\":\"randomType\",\"RollingUpdate\":{\"MaxUnavailable\":1,\"MaxSurge\":1}}: supported values: \"Recreate\", \"RollingUpdate\"",
			},
		},
		objectCase{name: "may not be specified when strategy `type` is 'Recreate'", obj: deploy(dpStrategy(appsv1.DeploymentStrategy{Type: appsv1.RecreateDeploymentStrategyType, RollingUpdate: &appsv1.RollingUpdateDeployment{}})),
			want: []string{
				"spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'",
			},
		},
		// An unset internal maxUnavailable is 0; the v1 default would be 25%.
		objectCase{name: "a valid percent string must be", obj: deploy(rolling(ios(intstr.FromInt32(0)), ios(intstr.FromString("20Percent")))),
			want: []string{
				"spec.strategy.rollingUpdate.maxSurge: Invalid value: \"20Percent\": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
				"spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0",
			},
		},
		objectCase{name: "may not be 0 when `maxSurge` is 0", obj: deploy(rolling(ios(intstr.FromInt32(0)), ios(intstr.FromString("0%")))),
			want: []string{
				"spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0",
			},
		},
		objectCase{name: "must not be greater than 100%", obj: deploy(rolling(ios(intstr.FromString("110%")), ios(intstr.FromInt32(0)))),
			want: []string{
				"spec.strategy.rollingUpdate.maxUnavailable: Invalid value: \"110%\": must not be greater than 100%",
			},
		},
		objectCase{name: "must be greater than or equal to 0", obj: deploy(func(d *appsv1.Deployment) { d.Annotations[appsv1.DeprecatedRollbackTo] = "-3" }),
			want: []string{
				"spec.rollback.version: Invalid value: -3: must be greater than or equal to 0",
			},
		},
		objectCase{name: "must be greater than minReadySeconds", obj: deploy(func(d *appsv1.Deployment) {
			d.Spec.ProgressDeadlineSeconds = ptr[int32](600)
			d.Spec.MinReadySeconds = 600
		}),
			want: []string{
				"spec.progressDeadlineSeconds: Invalid value: 600: must be greater than minReadySeconds",
			},
		},
		objectCase{name: "ephemeral containers not allowed", obj: deploy(func(d *appsv1.Deployment) {
			d.Spec.Template.Spec.EphemeralContainers = []corev1.EphemeralContainer{{EphemeralContainerCommon: corev1.EphemeralContainerCommon{
				Name: "ec", Image: "image", ImagePullPolicy: corev1.PullIfNotPresent, TerminationMessagePolicy: corev1.TerminationMessageReadFile}}}
		}),
			want: []string{
				"spec.template.spec.ephemeralContainers: Forbidden: ephemeral containers not allowed in pod template",
			},
		},
		// podlife's own: the defaults, the rollback annotation, the other fields.
		objectCase{name: "defaults fill strategy and limits", obj: deploy(dpStrategy(appsv1.DeploymentStrategy{}), func(d *appsv1.Deployment) { d.Annotations = nil })},
		objectCase{name: "rollback annotation not an integer", obj: deploy(func(d *appsv1.Deployment) { d.Annotations[appsv1.DeprecatedRollbackTo] = "latest" }),
			want: []string{
				"metadata.annotations[deprecated.deployment.rollback.to]: Invalid value: \"latest\": Deployment in version \"v1\" cannot be handled as a Deployment: failed to parse annotation[deprecated.deployment.rollback.to]=latest as int64: strconv.ParseInt: parsing \"latest\": invalid syntax",
			},
		},
		objectCase{name: "negative numbers", obj: deploy(func(d *appsv1.Deployment) {
			d.Spec.Replicas = ptr[int32](-1)
			d.Spec.MinReadySeconds = -1
			d.Spec.RevisionHistoryLimit = ptr[int32](-1)
			d.Spec.ProgressDeadlineSeconds = ptr[int32](-1)
		}),
			want: []string{
				"spec.replicas: Invalid value: -1: must be greater than or equal to 0",
				"spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0",
				"spec.revisionHistoryLimit: Invalid value: -1: must be greater than or equal to 0",
				"spec.progressDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0",
				"spec.progressDeadlineSeconds: Invalid value: -1: must be greater than minReadySeconds",
			},
		},
		objectCase{name: "selector required and empty", obj: deploy(func(d *appsv1.Deployment) { d.Spec.Selector = &metav1.LabelSelector{} }),
			want: []string{
				"spec.selector: Invalid value: {}: empty selector is invalid for deployment",
			},
		},
		objectCase{name: "invalid selector operator", obj: deploy(func(d *appsv1.Deployment) {
			d.Spec.Selector.MatchExpressions = []metav1.LabelSelectorRequirement{{Key: "name", Operator: "Near", Values: []string{"abc"}}}
		}),
			want: []string{
				"spec.selector.matchExpressions[0].operator: Invalid value: \"Near\": not a valid selector operator",
				"spec.selector: Invalid value: {\"matchLabels\":{\"name\":\"abc\"},\"matchExpressions\":[{\"key\":\"name\",\"operator\":\"Near\",\"values\":[\"abc\"]}]}: invalid label selector",
			},
		},
		objectCase{name: "selector NotIn and DoesNotExist select the template", obj: deploy(func(d *appsv1.Deployment) {
			d.Spec.Selector.MatchExpressions = []metav1.LabelSelectorRequirement{
				{Key: "name", Operator: metav1.LabelSelectorOpNotIn, Values: []string{"def"}},
				{Key: "tier", Operator: metav1.LabelSelectorOpDoesNotExist},
			}
		})},
	)

	gcePD := func(d *appsv1.Deployment) { gcePDTemplate(&d.Spec.Template) }
	replicas := func(n int32) func(*appsv1.Deployment) { return func(d *appsv1.Deployment) { d.Spec.Replicas = ptr(n) } }
	addObjectCases("TestValidateDeploymentUpdate",
		objectCase{name: "positive replicas", old: deployStored(), obj: deployStored(replicas(1), gcePD)},
		objectCase{name: "Read-write volume verification", old: deployStored(), obj: deployStored(replicas(2), gcePD)},
		objectCase{name: "invalid selector", old: deployStored(func(d *appsv1.Deployment) { d.Name = "" }), obj: deployStored(replicas(2), func(d *appsv1.Deployment) {
			d.Spec.Selector = selectorOf(invalidLabels())
		}),
			want: []string{
				"metadata.name: Invalid value: \"abc\": field is immutable",
				"spec.selector.matchLabels: Invalid value: \"NoUppercaseOrSpecialCharsLike=Equals\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
				"spec.selector: Invalid value: {\"matchLabels\":{\"NoUppercaseOrSpecialCharsLike=Equals\":\"b\"}}: invalid label selector",
				"spec.selector: Invalid value: {\"matchLabels\":{\"NoUppercaseOrSpecialCharsLike=Equals\":\"b\"}}: field is immutable",
			},
		},
		objectCase{name: "invalid pod", old: deployStored(func(d *appsv1.Deployment) { d.Name = "" }), obj: deployStored(replicas(2), func(d *appsv1.Deployment) {
			d.Spec.Template = wlTemplate(withLabels(invalidLabels()), withoutContainers)
		}),
			want: []string{
				"metadata.name: Invalid value: \"abc\": field is immutable",
				"spec.template.metadata.labels: Invalid value: {\"NoUppercaseOrSpecialCharsLike=Equals\":\"b\"}: `selector` does not match template `labels`",
				"spec.template.labels: Invalid value: \"NoUppercaseOrSpecialCharsLike=Equals\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
				"spec.template.spec.containers: Required value",
			},
		},
		objectCase{name: "negative replicas", old: deployStored(), obj: deployStored(replicas(-1), gcePD),
			want: []string{
				"spec.replicas: Invalid value: -1: must be greater than or equal to 0",
			},
		},
		// podlife's own: the rollback annotation on update.
		objectCase{name: "rollback annotation not an integer", old: deployStored(), obj: deployStored(func(d *appsv1.Deployment) {
			d.Annotations = map[string]string{appsv1.DeprecatedRollbackTo: "x"}
		}),
			want: []string{
				"metadata.annotations[deprecated.deployment.rollback.to]: Invalid value: \"x\": Deployment in version \"v1\" cannot be handled as a Deployment: failed to parse annotation[deprecated.deployment.rollback.to]=x as int64: strconv.ParseInt: parsing \"x\": invalid syntax",
			},
		},
	)
}

// ---- ReplicaSet ----

func rset(tweaks ...func(*appsv1.ReplicaSet)) *appsv1.ReplicaSet {
	rs := &appsv1.ReplicaSet{
		ObjectMeta: objMeta("abc"),
		Spec:       appsv1.ReplicaSetSpec{Selector: selectorOf(wlLabels()), Template: wlTemplate()},
	}
	for _, f := range tweaks {
		f(rs)
	}
	return rs
}

func init() {
	rsSet := func(f func(*appsv1.ReplicaSet)) func(*appsv1.ReplicaSet) { return f }
	stor := func(rs *appsv1.ReplicaSet) { stored(&rs.ObjectMeta) }
	replicas := func(n int32) func(*appsv1.ReplicaSet) {
		return func(rs *appsv1.ReplicaSet) { rs.Spec.Replicas = ptr(n) }
	}
	gcePD := func(rs *appsv1.ReplicaSet) { gcePDTemplate(&rs.Spec.Template) }
	addObjectCases("TestValidateReplicaSetUpdate",
		objectCase{name: "positive replicas", old: rset(stor), obj: rset(stor, replicas(3))},
		objectCase{name: "Read-write volume verification", old: rset(stor), obj: rset(stor, replicas(3), gcePD)},
		objectCase{name: "invalid selector", old: rset(stor, rsSet(func(rs *appsv1.ReplicaSet) { rs.Name = "" })), obj: rset(stor, replicas(2), rsSet(func(rs *appsv1.ReplicaSet) {
			rs.Spec.Selector = selectorOf(invalidLabels())
		})),
			want: []string{
				"metadata.name: Invalid value: \"abc\": field is immutable",
				"spec.selector.matchLabels: Invalid value: \"NoUppercaseOrSpecialCharsLike=Equals\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
				"spec.selector: Invalid value: {\"matchLabels\":{\"NoUppercaseOrSpecialCharsLike=Equals\":\"b\"}}: invalid label selector",
				"spec.selector: Invalid value: {\"matchLabels\":{\"NoUppercaseOrSpecialCharsLike=Equals\":\"b\"}}: field is immutable",
			},
		},
		objectCase{name: "invalid pod", old: rset(stor, rsSet(func(rs *appsv1.ReplicaSet) { rs.Name = "" })), obj: rset(stor, replicas(2), rsSet(func(rs *appsv1.ReplicaSet) {
			rs.Spec.Template = wlTemplate(withLabels(invalidLabels()), withoutContainers)
		})),
			want: []string{
				"metadata.name: Invalid value: \"abc\": field is immutable",
				"spec.template.metadata.labels: Invalid value: {\"NoUppercaseOrSpecialCharsLike=Equals\":\"b\"}: `selector` does not match template `labels`",
				"spec.template.labels: Invalid value: \"NoUppercaseOrSpecialCharsLike=Equals\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
				"spec.template.spec.containers: Required value",
			},
		},
		objectCase{name: "negative replicas", old: rset(stor), obj: rset(stor, replicas(-1)),
			want: []string{
				"spec.replicas: Invalid value: -1: must be greater than or equal to 0",
			},
		},
		// podlife's own: a ReplicaSet's selector may not change.
		objectCase{name: "selector is immutable", old: rset(stor), obj: rset(stor, rsSet(func(rs *appsv1.ReplicaSet) {
			rs.Spec.Selector.MatchExpressions = []metav1.LabelSelectorRequirement{{Key: "a", Operator: metav1.LabelSelectorOpExists}}
		})),
			want: []string{
				"spec.selector: Invalid value: {\"matchLabels\":{\"a\":\"b\"},\"matchExpressions\":[{\"key\":\"a\",\"operator\":\"Exists\"}]}: field is immutable",
			},
		},
	)
	addObjectCases("TestValidateReplicaSet",
		objectCase{name: "valid", obj: rset()},
		objectCase{name: "valid alphanumeric name", obj: rset(rsSet(func(rs *appsv1.ReplicaSet) { rs.Name = "abc-123" }))},
		objectCase{name: "valid hostnet", obj: rset(rsSet(func(rs *appsv1.ReplicaSet) { rs.Name = "hostnet"; withHostNetPort(&rs.Spec.Template) }))},
		objectCase{name: "valid read-write volume", obj: rset(replicas(1), gcePD, rsSet(func(rs *appsv1.ReplicaSet) { rs.Name = "abc-123" }))},
		objectCase{name: "zero-length ID", obj: rset(rsSet(func(rs *appsv1.ReplicaSet) { rs.Name = "" })),
			want: []string{
				"metadata.name: Required value: name or generateName is required",
			},
		},
		objectCase{name: "missing-namespace", obj: rset(rsSet(func(rs *appsv1.ReplicaSet) { rs.Name, rs.Namespace = "abc-123", "" }))},
		objectCase{name: "empty selector", obj: rset(rsSet(func(rs *appsv1.ReplicaSet) { rs.Spec.Selector = nil })),
			want: []string{
				"spec.selector: Required value",
				"spec.template.metadata.labels: Invalid value: {\"a\":\"b\"}: `selector` does not match template `labels`",
			},
		},
		objectCase{name: "selector_doesnt_match", obj: rset(rsSet(func(rs *appsv1.ReplicaSet) { rs.Spec.Selector = selectorOf(map[string]string{"foo": "bar"}) })),
			want: []string{
				"spec.template.metadata.labels: Invalid value: {\"a\":\"b\"}: `selector` does not match template `labels`",
			},
		},
		objectCase{name: "invalid manifest", obj: rset(rsSet(func(rs *appsv1.ReplicaSet) { rs.Spec.Template = corev1.PodTemplateSpec{} })),
			want: []string{
				"spec.template.metadata.labels: Invalid value: null: `selector` does not match template `labels`",
				"spec.template.spec.containers: Required value",
			},
		},
		// The server creates the ReplicaSet in the request's namespace; more than one
		// replica with a read-write disk is no longer refused.
		objectCase{name: "read-write persistent disk with > 1 pod", obj: rset(replicas(2), gcePD, rsSet(func(rs *appsv1.ReplicaSet) { rs.Namespace = "" }))},
		objectCase{name: "negative_replicas", obj: rset(replicas(-1)),
			want: []string{
				"spec.replicas: Invalid value: -1: must be greater than or equal to 0",
			},
		},
		objectCase{name: "invalid_label", obj: rset(rsSet(func(rs *appsv1.ReplicaSet) {
			rs.Name, rs.Labels = "abc-123", map[string]string{"NoUppercaseOrSpecialCharsLike=Equals": "bar"}
		})),
			want: []string{
				"metadata.labels: Invalid value: \"NoUppercaseOrSpecialCharsLike=Equals\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
			},
		},
		objectCase{name: "invalid_label 2", obj: rset(rsSet(func(rs *appsv1.ReplicaSet) {
			rs.Name, rs.Labels = "abc-123", map[string]string{"NoUppercaseOrSpecialCharsLike=Equals": "bar"}
			rs.Spec.Template = wlTemplate(withLabels(invalidLabels()), withoutContainers)
		})),
			want: []string{
				"metadata.labels: Invalid value: \"NoUppercaseOrSpecialCharsLike=Equals\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
				"spec.template.metadata.labels: Invalid value: {\"NoUppercaseOrSpecialCharsLike=Equals\":\"b\"}: `selector` does not match template `labels`",
				"spec.template.labels: Invalid value: \"NoUppercaseOrSpecialCharsLike=Equals\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
				"spec.template.spec.containers: Required value",
			},
		},
		objectCase{name: "invalid_annotation", obj: rset(rsSet(func(rs *appsv1.ReplicaSet) {
			rs.Name, rs.Annotations = "abc-123", map[string]string{"NoUppercaseOrSpecialCharsLike=Equals": "bar"}
		})),
			want: []string{
				"metadata.annotations: Invalid value: \"NoUppercaseOrSpecialCharsLike=Equals\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
			},
		},
		objectCase{name: "invalid restart policy 1", obj: rset(rsSet(func(rs *appsv1.ReplicaSet) { rs.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyOnFailure })),
			want: []string{
				"spec.template.spec.restartPolicy: Unsupported value: \"OnFailure\": supported values: \"Always\"",
			},
		},
		objectCase{name: "invalid restart policy 2", obj: rset(rsSet(func(rs *appsv1.ReplicaSet) { rs.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyNever })),
			want: []string{
				"spec.template.spec.restartPolicy: Unsupported value: \"Never\": supported values: \"Always\"",
			},
		},
		// podlife's own.
		objectCase{name: "negative minReadySeconds and an active deadline", obj: rset(rsSet(func(rs *appsv1.ReplicaSet) {
			rs.Spec.MinReadySeconds = -5
			withDeadline(&rs.Spec.Template)
		})),
			want: []string{
				"spec.minReadySeconds: Invalid value: -5: must be greater than or equal to 0",
				"spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported",
			},
		},
		objectCase{name: "invalid selector value", obj: rset(rsSet(func(rs *appsv1.ReplicaSet) { rs.Spec.Selector = selectorOf(map[string]string{"a": "b c"}) })),
			want: []string{
				"spec.selector.matchLabels: Invalid value: \"b c\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
				"spec.selector: Invalid value: {\"matchLabels\":{\"a\":\"b c\"}}: invalid label selector",
			},
		},
	)
}
