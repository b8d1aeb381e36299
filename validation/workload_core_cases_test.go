package validation

import (
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podlife/podlife/internal/gates"
)

// The ReplicationController and PodTemplate cases of k8s.io/kubernetes
// pkg/apis/core/validation/validation_test.go (TestValidateReplicationController,
// TestValidateReplicationControllerUpdate, TestValidatePodTemplateSpecSeccomp),
// through the server's paths. The status tests validate the status subresource and
// are not re-expressed.

// rc is upstream's mkValidReplicationController.
func rc(tweaks ...func(*corev1.ReplicationController)) *corev1.ReplicationController {
	t := wlTemplate()
	r := &corev1.ReplicationController{
		ObjectMeta: objMeta("abc"),
		Spec: corev1.ReplicationControllerSpec{
			Replicas: ptr[int32](1),
			Selector: wlLabels(),
			Template: &t,
		},
	}
	for _, f := range tweaks {
		f(r)
	}
	return r
}

func rcStored(tweaks ...func(*corev1.ReplicationController)) *corev1.ReplicationController {
	return rc(append([]func(*corev1.ReplicationController){func(r *corev1.ReplicationController) { stored(&r.ObjectMeta) }}, tweaks...)...)
}

func init() {
	gcePD := func(r *corev1.ReplicationController) { gcePDTemplate(r.Spec.Template) }
	noBeta := gates.FeatureGates{"DeclarativeValidationBeta": false}
	addObjectCases("TestValidateReplicationController",
		objectCase{name: "valid", obj: rc()},
		objectCase{name: "valid alphanumeric name", obj: rc(func(r *corev1.ReplicationController) { r.Name = "abc-123" })},
		objectCase{name: "valid read-write volume", obj: rc(gcePD, func(r *corev1.ReplicationController) { r.Spec.Replicas = ptr[int32](2) })},
		objectCase{name: "valid hostnet", obj: rc(func(r *corev1.ReplicationController) { withHostNetPort(r.Spec.Template) })},
		objectCase{name: "valid zero replicas", obj: rc(func(r *corev1.ReplicationController) { r.Spec.Replicas = ptr[int32](0) })},
		objectCase{name: "valid 100 replicas", obj: rc(func(r *corev1.ReplicationController) { r.Spec.Replicas = ptr[int32](100) })},
		objectCase{name: "valid minReadySeconds", obj: rc(func(r *corev1.ReplicationController) { r.Spec.MinReadySeconds = 100 })},
		objectCase{name: "missing name", obj: rc(func(r *corev1.ReplicationController) { r.Name = "" }),
			want: []string{
				"metadata.name: Required value: name or generateName is required",
			},
		},
		objectCase{name: "missing namespace", obj: rc(func(r *corev1.ReplicationController) { r.Namespace = "" })},
		// The decoder gives an empty selector the template's labels.
		objectCase{name: "empty selector", obj: rc(func(r *corev1.ReplicationController) { r.Spec.Selector = nil })},
		objectCase{name: "selector doesnt match", obj: rc(func(r *corev1.ReplicationController) { r.Spec.Selector = map[string]string{"foo": "bar"} }),
			want: []string{
				"spec.template.metadata.labels: Invalid value: {\"a\":\"b\"}: `selector` does not match template `labels`",
			},
		},
		objectCase{name: "invalid manifest", obj: rc(func(r *corev1.ReplicationController) { r.Spec.Template = nil }),
			want: []string{
				"spec.template: Required value",
			},
		},
		objectCase{name: "negative replicas", obj: rc(func(r *corev1.ReplicationController) { r.Spec.Replicas = ptr[int32](-1) }),
			want: []string{
				"spec.replicas: Invalid value: -1: must be greater than or equal to 0",
			},
		},
		objectCase{name: "negative minReadySeconds", obj: rc(func(r *corev1.ReplicationController) { r.Spec.MinReadySeconds = -1 }),
			want: []string{
				"spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0",
			},
		},
		// The decoder defaults replicas to 1.
		objectCase{name: "nil replicas", obj: rc(func(r *corev1.ReplicationController) { r.Spec.Replicas = nil })},
		objectCase{name: "invalid label", obj: rc(func(r *corev1.ReplicationController) {
			r.Labels = map[string]string{"NoUppercaseOrSpecialCharsLike=Equals": "bar"}
		}),
			want: []string{
				"metadata.labels: Invalid value: \"NoUppercaseOrSpecialCharsLike=Equals\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
			},
		},
		objectCase{name: "invalid label 2", obj: rc(func(r *corev1.ReplicationController) {
			r.Spec.Template.Labels = map[string]string{"NoUppercaseOrSpecialCharsLike=Equals": "bar"}
		}),
			want: []string{
				"metadata.labels: Invalid value: \"NoUppercaseOrSpecialCharsLike=Equals\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
				"spec.template.metadata.labels: Invalid value: {\"NoUppercaseOrSpecialCharsLike=Equals\":\"bar\"}: `selector` does not match template `labels`",
				"spec.template.labels: Invalid value: \"NoUppercaseOrSpecialCharsLike=Equals\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
			},
		},
		objectCase{name: "invalid annotation", obj: rc(func(r *corev1.ReplicationController) {
			r.Annotations = map[string]string{"NoUppercaseOrSpecialCharsLike=Equals": "bar"}
		}),
			want: []string{
				"metadata.annotations: Invalid value: \"NoUppercaseOrSpecialCharsLike=Equals\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
			},
		},
		objectCase{name: "invalid restart policy 1", obj: rc(func(r *corev1.ReplicationController) {
			r.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyOnFailure
		}),
			want: []string{
				"spec.template.spec.restartPolicy: Unsupported value: \"OnFailure\": supported values: \"Always\"",
			},
		},
		objectCase{name: "invalid restart policy 2", obj: rc(func(r *corev1.ReplicationController) { r.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyNever }),
			want: []string{
				"spec.template.spec.restartPolicy: Unsupported value: \"Never\": supported values: \"Always\"",
			},
		},
		objectCase{name: "template may not contain ephemeral containers", obj: rc(func(r *corev1.ReplicationController) {
			r.Spec.Template.Spec.EphemeralContainers = []corev1.EphemeralContainer{{EphemeralContainerCommon: corev1.EphemeralContainerCommon{
				Name: "debug", Image: "image", ImagePullPolicy: corev1.PullIfNotPresent, TerminationMessagePolicy: corev1.TerminationMessageReadFile}}}
		}),
			want: []string{
				"spec.template.spec.ephemeralContainers: Forbidden: ephemeral containers not allowed in pod template",
			},
		},
		// podlife's own: declarative validation's rules come after the others, or
		// in place while DeclarativeValidationBeta is off.
		objectCase{name: "invalid name with other errors", obj: rc(func(r *corev1.ReplicationController) {
			r.Name = "Abc"
			r.Spec.Replicas = ptr[int32](-2)
			r.Spec.MinReadySeconds = -3
			r.Spec.Template.Spec.ActiveDeadlineSeconds = ptr[int64](5)
		}),
			want: []string{
				"spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicationController is not Supported",
				"metadata.name: Invalid value: \"Abc\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
				"spec.replicas: Invalid value: -2: must be greater than or equal to 0",
				"spec.minReadySeconds: Invalid value: -3: must be greater than or equal to 0",
			},
		},
		objectCase{name: "invalid name with other errors, beta rules off", features: noBeta, obj: rc(func(r *corev1.ReplicationController) {
			r.Name = "Abc"
			r.Spec.Replicas = ptr[int32](-2)
			r.Spec.MinReadySeconds = -3
			r.Spec.Template.Spec.ActiveDeadlineSeconds = ptr[int64](5)
		}),
			want: []string{
				"metadata.name: Invalid value: \"Abc\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
				"spec.minReadySeconds: Invalid value: -3: must be greater than or equal to 0",
				"spec.replicas: Invalid value: -2: must be greater than or equal to 0",
				"spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicationController is not Supported",
			},
		},
		objectCase{name: "generateName is not checked, only the generated name", obj: rc(func(r *corev1.ReplicationController) { r.Name, r.GenerateName = "", "Web-" }),
			want: []string{
				"metadata.name: Invalid value: \"Web-xxxxx\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
			},
		},
		objectCase{name: "a valid name with a generateName that does not fit a URL", obj: rc(func(r *corev1.ReplicationController) { r.GenerateName = "a/b" }),
			want: []string{
				"metadata.generateName: Invalid value: \"a/b\": may not contain '/'",
			},
		},
		objectCase{name: "a long name", obj: rc(func(r *corev1.ReplicationController) {
			r.Name = "a" + strings.Repeat("b", 253)
		}),
			want: []string{
				"metadata.name: Invalid value: \"abbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb\": must be no more than 253 bytes",
			},
		},
	)
	addObjectCases("TestValidateReplicationControllerUpdate",
		objectCase{name: "zero replicas", old: rcStored(), obj: rcStored(func(r *corev1.ReplicationController) { r.Spec.Replicas = ptr[int32](0) })},
		objectCase{name: "three replicas", old: rcStored(), obj: rcStored(func(r *corev1.ReplicationController) { r.Spec.Replicas = ptr[int32](3) })},
		objectCase{name: "zero minReadySeconds", old: rcStored(), obj: rcStored(func(r *corev1.ReplicationController) { r.Spec.MinReadySeconds = 0 })},
		objectCase{name: "three minReadySeconds", old: rcStored(), obj: rcStored(func(r *corev1.ReplicationController) { r.Spec.MinReadySeconds = 3 })},
		objectCase{name: "read-write volume", old: rcStored(), obj: rcStored(gcePD, func(r *corev1.ReplicationController) { r.Spec.Replicas = ptr[int32](2) })},
		objectCase{name: "unmatched selector", old: rcStored(), obj: rcStored(func(r *corev1.ReplicationController) { r.Spec.Selector["another"] = "value" }),
			want: []string{
				"spec.template.metadata.labels: Invalid value: {\"a\":\"b\"}: `selector` does not match template `labels`",
			},
		},
		objectCase{name: "invalid selector", old: rcStored(), obj: rcStored(func(r *corev1.ReplicationController) {
			r.Spec.Template.Labels = invalidLabels()
			r.Spec.Selector = invalidLabels()
		}),
			want: []string{
				"metadata.labels: Invalid value: \"NoUppercaseOrSpecialCharsLike=Equals\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
				"spec.template.labels: Invalid value: \"NoUppercaseOrSpecialCharsLike=Equals\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
			},
		},
		objectCase{name: "invalid pod", old: rcStored(), obj: rcStored(func(r *corev1.ReplicationController) { r.Spec.Template = nil }),
			want: []string{
				"spec.template: Required value",
			},
		},
		objectCase{name: "negative replicas", old: rcStored(), obj: rcStored(func(r *corev1.ReplicationController) { r.Spec.Replicas = ptr[int32](-1) }),
			want: []string{
				"spec.replicas: Invalid value: -1: must be greater than or equal to 0",
			},
		},
		// The decoder defaults replicas to 1.
		objectCase{name: "nil replicas", old: rcStored(), obj: rcStored(func(r *corev1.ReplicationController) { r.Spec.Replicas = nil })},
		objectCase{name: "negative minReadySeconds", old: rcStored(), obj: rcStored(func(r *corev1.ReplicationController) { r.Spec.MinReadySeconds = -1 }),
			want: []string{
				"spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0",
			},
		},
		// podlife's own: an unchanged field is not checked again by declarative
		// validation, so the hand-written error stays in place; the annotations of
		// fields an older version could not convert.
		objectCase{name: "negative replicas kept", old: rcStored(func(r *corev1.ReplicationController) { r.Spec.Replicas = ptr[int32](-1) }), obj: rcStored(func(r *corev1.ReplicationController) {
			r.Spec.Replicas = ptr[int32](-1)
			r.Spec.MinReadySeconds = -1
		}),
			want: []string{
				"spec.replicas: Invalid value: -1: must be greater than or equal to 0",
				"spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0",
			},
		},
		objectCase{name: "non-convertible selector changed", old: rcStored(func(r *corev1.ReplicationController) {
			r.Annotations = map[string]string{"non-convertible.kubernetes.io/spec.selector": "x"}
		}), obj: rcStored(func(r *corev1.ReplicationController) {
			r.Spec.Selector = map[string]string{"a": "b", "c": "d"}
			r.Spec.Template.Labels = map[string]string{"a": "b", "c": "d"}
		}),
			want: []string{
				"spec.selector: Invalid value: {\"a\":\"b\",\"c\":\"d\"}: cannot update non-convertible selector",
			},
		},
		objectCase{name: "unknown non-convertible field", old: rcStored(func(r *corev1.ReplicationController) {
			r.Annotations = map[string]string{"non-convertible.kubernetes.io/spec.foo": "bar", "non-convertible.kubernetes.io/a/b": "ignored"}
		}), obj: rcStored(),
			want: []string{
				"spec.foo: Not found: \"bar\": unknown non-convertible field",
			},
		},
		objectCase{name: "namespace from the stored object", old: rcStored(), obj: rcStored(func(r *corev1.ReplicationController) { r.Namespace = "" })},
	)

	seccompTemplate := func(annotations map[string]string, f func(*corev1.PodTemplateSpec)) *corev1.PodTemplate {
		t := wlTemplate()
		t.Annotations = annotations
		f(&t)
		return &corev1.PodTemplate{ObjectMeta: metav1.ObjectMeta{Name: "pt", Namespace: metav1.NamespaceDefault}, Template: t}
	}
	profile := func(t corev1.SeccompProfileType) *corev1.SeccompProfile { return &corev1.SeccompProfile{Type: t} }
	container := func(name string) corev1.Container {
		return corev1.Container{Name: name, Image: "image", ImagePullPolicy: corev1.PullIfNotPresent, TerminationMessagePolicy: corev1.TerminationMessageReadFile}
	}
	addObjectCases("TestValidatePodTemplateSpecSeccomp",
		objectCase{name: "seccomp field and container annotation must match", obj: seccompTemplate(map[string]string{"container.seccomp.security.alpha.kubernetes.io/test2": "unconfined"}, func(t *corev1.PodTemplateSpec) {
			c2 := container("test2")
			c2.SecurityContext = &corev1.SecurityContext{SeccompProfile: profile(corev1.SeccompProfileTypeRuntimeDefault)}
			t.Spec.Containers = []corev1.Container{container("test1"), c2}
		}),
			want: []string{
				"template.spec.containers[1].securityContext.seccompProfile.type: Forbidden: seccomp type in annotation and field must match",
			},
		},
		objectCase{name: "seccomp field and pod annotation must match", obj: seccompTemplate(map[string]string{"seccomp.security.alpha.kubernetes.io/pod": "runtime/default"}, func(t *corev1.PodTemplateSpec) {
			t.Spec.SecurityContext = &corev1.PodSecurityContext{SeccompProfile: profile(corev1.SeccompProfileTypeUnconfined)}
		}),
			want: []string{
				"template.spec.securityContext.seccompProfile.type: Forbidden: seccomp type in annotation and field must match",
			},
		},
		objectCase{name: "init seccomp field and container annotation must match", obj: seccompTemplate(map[string]string{"container.seccomp.security.alpha.kubernetes.io/init-test": "unconfined"}, func(t *corev1.PodTemplateSpec) {
			c := container("init-test")
			c.SecurityContext = &corev1.SecurityContext{SeccompProfile: profile(corev1.SeccompProfileTypeRuntimeDefault)}
			t.Spec.InitContainers = []corev1.Container{c}
		}),
			want: []string{
				"template.spec.initContainers[0].securityContext.seccompProfile.type: Forbidden: seccomp type in annotation and field must match",
			},
		},
	)
	pt := func(f func(*corev1.PodTemplate)) *corev1.PodTemplate {
		p := &corev1.PodTemplate{ObjectMeta: metav1.ObjectMeta{Name: "pt", Namespace: metav1.NamespaceDefault}, Template: wlTemplate()}
		f(p)
		return p
	}
	ptStored := func(f func(*corev1.PodTemplate)) *corev1.PodTemplate {
		return pt(func(p *corev1.PodTemplate) { p.ResourceVersion = "1"; f(p) })
	}
	addObjectCases("PodTemplate",
		objectCase{name: "valid", obj: pt(func(*corev1.PodTemplate) {})},
		objectCase{name: "any restart policy", obj: pt(func(p *corev1.PodTemplate) { p.Template.Spec.RestartPolicy = corev1.RestartPolicyNever })},
		objectCase{name: "invalid name and no containers", obj: pt(func(p *corev1.PodTemplate) {
			p.Name = "PT"
			p.Template.Spec.Containers = nil
		}),
			want: []string{
				"metadata.name: Invalid value: \"PT\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
				"template.spec.containers: Required value",
			},
		},
		objectCase{name: "ephemeral containers", obj: pt(func(p *corev1.PodTemplate) {
			p.Template.Spec.EphemeralContainers = []corev1.EphemeralContainer{{EphemeralContainerCommon: corev1.EphemeralContainerCommon{Name: "debug", Image: "image"}}}
		}),
			want: []string{
				"template.spec.ephemeralContainers: Forbidden: ephemeral containers not allowed in pod template",
			},
		},
		objectCase{name: "update of the template", old: ptStored(func(*corev1.PodTemplate) {}), obj: ptStored(func(p *corev1.PodTemplate) { p.Template.Spec.Containers[0].Image = "image:2" })},
		objectCase{name: "update to an invalid template", old: ptStored(func(*corev1.PodTemplate) {}), obj: ptStored(func(p *corev1.PodTemplate) { p.Template.Spec.Containers[0].Image = "" }),
			want: []string{
				"template.spec.containers[0].image: Required value",
			},
		},
		// The store gives an update without a resourceVersion the stored one
		// (unconditional update) before validation.
		objectCase{name: "update without a resourceVersion", old: ptStored(func(*corev1.PodTemplate) {}), obj: pt(func(*corev1.PodTemplate) {})},
		objectCase{name: "stop signal kept when the stored template has one", features: gates.FeatureGates{"ContainerStopSignals": true}, old: ptStored(func(p *corev1.PodTemplate) {
			sig := corev1.SIGTERM
			p.Template.Spec.OS = &corev1.PodOS{Name: corev1.Linux}
			p.Template.Spec.Containers[0].Lifecycle = &corev1.Lifecycle{StopSignal: &sig}
		}), obj: ptStored(func(p *corev1.PodTemplate) {
			sig := corev1.SIGKILL
			p.Template.Spec.Containers[0].Lifecycle = &corev1.Lifecycle{StopSignal: &sig}
		}),
			want: []string{
				"template.spec.containers[0].lifecycle.stopSignal: Forbidden: may not be set for containers with empty `spec.os.name`",
			},
		},
	)
}
