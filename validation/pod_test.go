package validation

import (
	"strings"

	corev1 "k8s.io/api/core/v1"
)

// subdomainMsg is apimachinery's message for an invalid DNS-1123 subdomain.
const subdomainMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"

// Re-expresses the pod-level rows of upstream TestValidatePodSpec and TestValidatePod
// (restart policy, grace period, active deadline, readiness gates, scheduling gates,
// tolerations, names) and apimachinery's ObjectMeta tests on the create path.
func init() {
	addFamily("pod",
		createCase{name: "negative grace period is defaulted to 1", mod: func(p *corev1.Pod) { p.Spec.TerminationGracePeriodSeconds = ptr(int64(-5)) }},
		createCase{name: "grace period zero", mod: func(p *corev1.Pod) { p.Spec.TerminationGracePeriodSeconds = ptr(int64(0)) }},
		createCase{name: "active deadline out of range", mod: func(p *corev1.Pod) { p.Spec.ActiveDeadlineSeconds = ptr(int64(0)) }, want: []string{
			`spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive`,
		}},
		createCase{name: "active deadline too large", mod: func(p *corev1.Pod) { p.Spec.ActiveDeadlineSeconds = ptr(int64(1) << 31) }, want: []string{
			`spec.activeDeadlineSeconds: Invalid value: 2147483648: must be between 1 and 2147483647, inclusive`,
		}},
		createCase{name: "readiness gates", mod: func(p *corev1.Pod) {
			p.Spec.ReadinessGates = []corev1.PodReadinessGate{{ConditionType: "example.com/ok"}, {ConditionType: "bad type!"}, {ConditionType: ""}}
		}, want: []string{
			`spec.readinessGates[1].conditionType: Invalid value: "bad type!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
			`spec.readinessGates[2].conditionType: Invalid value: "": name part must be non-empty`,
			`spec.readinessGates[2].conditionType: Invalid value: "": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
		}},
		createCase{name: "dns policy", mod: func(p *corev1.Pod) { p.Spec.DNSPolicy = "Bogus" }, want: []string{
			`spec.dnsPolicy: Unsupported value: "Bogus": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"`,
		}},
		createCase{name: "scheduling gates and nodeName", mod: func(p *corev1.Pod) {
			p.Spec.NodeName = "node-1"
			p.Spec.SchedulingGates = []corev1.PodSchedulingGate{{Name: "example.com/a"}, {Name: "example.com/a"}, {Name: "bad gate"}}
		}, want: []string{
			`spec.schedulingGates[1]: Duplicate value: "example.com/a"`,
			`spec.schedulingGates[2]: Invalid value: "bad gate": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
			`spec.nodeName: Forbidden: cannot be set until all schedulingGates have been cleared`,
		}},
		createCase{name: "names of pod-level references", mod: func(p *corev1.Pod) {
			p.Spec.NodeName = "Node_1"
			p.Spec.ServiceAccountName = "SA"
			p.Spec.DeprecatedServiceAccount = "other" //nolint:staticcheck
			p.Spec.Hostname = "Host"
			p.Spec.Subdomain = "sub.domain"
			p.Spec.PriorityClassName = "Prio"
			p.Spec.RuntimeClassName = ptr("rc_1")
			p.Spec.PreemptionPolicy = ptr(corev1.PreemptionPolicy("Sometimes"))
			p.Spec.NodeSelector = map[string]string{"bad key!": "v", "k": "bad value!"}
		}, want: []string{
			`spec.nodeSelector: Invalid value: "bad key!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
			`spec.nodeSelector: Invalid value: "bad value!": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
			`spec.serviceAccountName: Invalid value: "SA": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
			`spec.nodeName: Invalid value: "Node_1": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
			`spec.hostname: Invalid value: "Host": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
			`spec.subdomain: Invalid value: "sub.domain": must not contain dots`,
			`spec.priorityClassName: Invalid value: "Prio": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
			`spec.runtimeClassName: Invalid value: "rc_1": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
			`spec.preemptionPolicy: Unsupported value: "Sometimes": supported values: "PreemptLowerPriority", "Never"`,
		}},
		createCase{name: "tolerations", mod: func(p *corev1.Pod) {
			p.Spec.Tolerations = []corev1.Toleration{
				{Key: "k", Operator: "Equal", Value: "v", Effect: "NoSchedule"},
				{Operator: "Equal"},
				{Key: "bad key!", Operator: "Exists", Value: "v"},
				{Key: "k", Operator: "Lt", Value: "5"},
				{Key: "k", Operator: "Near"},
				{Key: "k", Effect: "Sometimes", TolerationSeconds: ptr(int64(5))},
			}
		}, want: []string{
			"spec.tolerations[1].operator: Invalid value: \"Equal\": operator must be Exists when `key` is empty, which means \"match all values and all keys\"",
			`spec.tolerations[2].key: Invalid value: "bad key!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
			"spec.tolerations[2].operator: Invalid value: \"v\": value must be empty when `operator` is 'Exists'",
			`spec.tolerations[3].operator: Unsupported value: "Lt": supported values: "Equal", "Exists", "Lt", "Gt"`,
			`spec.tolerations[4].operator: Unsupported value: "Near": supported values: "Equal", "Exists"`,
			"spec.tolerations[5].effect: Invalid value: \"Sometimes\": effect must be 'NoExecute' when `tolerationSeconds` is set",
			`spec.tolerations[5].effect: Unsupported value: "Sometimes": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"`,
		}},
		createCase{name: "toleration comparison with gate", features: map[string]bool{"TaintTolerationComparisonOperators": true}, mod: func(p *corev1.Pod) {
			p.Spec.Tolerations = []corev1.Toleration{{Key: "k", Operator: "Gt", Value: "x1"}, {Key: "k", Operator: "Lt", Value: "99999999999999999999"}}
		}, want: []string{
			`spec.tolerations[0].value: Invalid value: "x1": must be a valid decimal integer in canonical form`,
			`spec.tolerations[0].value: Invalid value: "x1": strconv.ParseInt: parsing "x1": invalid syntax`,
			`spec.tolerations[1].value: Invalid value: "99999999999999999999": strconv.ParseInt: parsing "99999999999999999999": value out of range`,
		}},
		createCase{name: "os name", mod: func(p *corev1.Pod) { p.Spec.OS = &corev1.PodOS{Name: "plan9"} }, want: []string{
			`spec.os: Unsupported value: "plan9": supported values: "linux", "windows"`,
		}},
		createCase{name: "os name empty", mod: func(p *corev1.Pod) { p.Spec.OS = &corev1.PodOS{} }, want: []string{
			`spec.os.name: Required value`,
		}},
	)
	addFamily("metadata",
		// The request namespace applies to a pod without one: Options.Namespace, else
		// "default" (k8s.io/apiserver pkg/endpoints/handlers/create.go).
		createCase{name: "no name no namespace", mod: func(p *corev1.Pod) { p.Name = ""; p.Namespace = "" }, want: []string{
			`metadata.name: Required value: name or generateName is required`,
		}},
		createCase{name: "no namespace takes the request's", namespace: "Bad.NS", mod: func(p *corev1.Pod) { p.Namespace = "" }, want: []string{
			`metadata.namespace: Invalid value: "Bad.NS": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
		}},
		createCase{name: "same namespace as the request", namespace: "ns"},
		// A conflicting namespace stops the request before validation: the only error.
		createCase{name: "namespace differs from the request's", namespace: "other", mod: func(p *corev1.Pod) {
			p.Name = "Bad_Name"
			p.Spec.Containers = nil
		}, want: []string{
			`metadata.namespace: Invalid value: "ns": the namespace of the provided object does not match the namespace sent on the request`,
		}},
		// The registry's store generates the name from generateName before validation
		// (k8s.io/apiserver pkg/registry/generic/registry/store.go).
		createCase{name: "generateName only", mod: func(p *corev1.Pod) { p.Name = ""; p.GenerateName = "web-" }},
		createCase{name: "generateName only without namespace", mod: func(p *corev1.Pod) { p.Name = ""; p.Namespace = ""; p.GenerateName = "job-" }},
		createCase{name: "generateName without dash", mod: func(p *corev1.Pod) { p.Name = ""; p.GenerateName = "web" }},
		// The name is kept when both are set; generateName is still validated.
		createCase{name: "name and invalid generateName", mod: func(p *corev1.Pod) { p.GenerateName = "Web-" }, want: []string{
			`metadata.generateName: Invalid value: "Web-": ` + subdomainMsg,
		}},
		// An invalid base makes the generated name invalid too; upstream's 5 random
		// characters are podlife's "xxxxx".
		createCase{name: "invalid generateName", mod: func(p *corev1.Pod) { p.Name = ""; p.GenerateName = "Web_" }, want: []string{
			`metadata.generateName: Invalid value: "Web_": ` + subdomainMsg,
			`metadata.name: Invalid value: "Web_xxxxx": ` + subdomainMsg,
		}},
		// The base is cut to 58 bytes, so a long generateName still yields a 63-byte name.
		createCase{name: "long generateName", mod: func(p *corev1.Pod) { p.Name = ""; p.GenerateName = strings.Repeat("a", 300) }, want: []string{
			`metadata.generateName: Invalid value: "` + strings.Repeat("a", 300) + `": must be no more than 253 characters`,
		}},
		// The cut can drop the invalid part: only generateName is reported.
		createCase{name: "generateName invalid past the cut", mod: func(p *corev1.Pod) { p.Name = ""; p.GenerateName = strings.Repeat("a", 58) + "_B" }, want: []string{
			`metadata.generateName: Invalid value: "` + strings.Repeat("a", 58) + `_B": ` + subdomainMsg,
		}},
		// A cut ending in a dot still makes a valid name: the suffix completes the label.
		createCase{name: "generateName cut at a dot", mod: func(p *corev1.Pod) { p.Name = ""; p.GenerateName = strings.Repeat("a", 57) + ".b" }},
		// The cut counts bytes, as upstream: it can split a rune.
		createCase{name: "generateName cut inside a rune", mod: func(p *corev1.Pod) { p.Name = ""; p.GenerateName = strings.Repeat("a", 57) + "é" }, want: []string{
			`metadata.generateName: Invalid value: "` + strings.Repeat("a", 57) + `é": ` + subdomainMsg,
			`metadata.name: Invalid value: "` + strings.Repeat("a", 57) + `\xc3xxxxx": ` + subdomainMsg,
		}},
		createCase{name: "bad names", mod: func(p *corev1.Pod) {
			p.Name = "Bad_Name"
			p.GenerateName = "Gen_"
			p.Namespace = "Bad.NS"
		}, want: []string{
			`metadata.generateName: Invalid value: "Gen_": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
			`metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
			`metadata.namespace: Invalid value: "Bad.NS": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
		}},
		createCase{name: "pod name too long", mod: func(p *corev1.Pod) { p.Name = strings.Repeat("a", 254) }, want: []string{
			`metadata.name: Invalid value: "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa": must be no more than 253 characters`,
		}},
		createCase{name: "labels annotations finalizers", mod: func(p *corev1.Pod) {
			p.Labels = map[string]string{"app": "web", "bad key!": "v", "k": "bad value!"}
			p.Annotations = map[string]string{"ok": "v", "Bad Key": "v"}
			p.Finalizers = []string{"kubernetes", "custom", "example.com/ok"}
		}, want: []string{
			`metadata.labels: Invalid value: "bad key!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
			`metadata.labels: Invalid value: "bad value!": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
			`metadata.annotations: Invalid value: "Bad Key": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
			`metadata.finalizers[1]: Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified`,
		}},
		createCase{name: "pod annotations", mod: func(p *corev1.Pod) {
			p.Annotations = map[string]string{
				"kubernetes.io/config.mirror":                      "x",
				"controller.kubernetes.io/pod-deletion-cost":       "+5",
				"seccomp.security.alpha.kubernetes.io/pod":         "bogus",
				"container.seccomp.security.alpha.kubernetes.io/c": "localhost/../x",
				"container.apparmor.security.beta.kubernetes.io/x": "bogus",
			}
		}, want: []string{
			`metadata.annotations[kubernetes.io/config.mirror]: Invalid value: "x": must set spec.nodeName if mirror pod annotation is set`,
			`metadata.annotations[controller.kubernetes.io/pod-deletion-cost]: Invalid value: "+5": must be a 32bit integer`,
			`metadata.annotations.seccomp.security.alpha.kubernetes.io/pod: Invalid value: "bogus": must be a valid seccomp profile`,
			`metadata.annotations.container.seccomp.security.alpha.kubernetes.io/c: Invalid value: "../x": must not contain '..'`,
			`metadata.annotations[container.apparmor.security.beta.kubernetes.io/x]: Invalid value: "x": container not found`,
			`metadata.annotations[container.apparmor.security.beta.kubernetes.io/x]: Invalid value: "bogus": invalid AppArmor profile name: "bogus"`,
		}},
		createCase{name: "seccomp and apparmor annotation mismatch", mod: func(p *corev1.Pod) {
			p.Annotations = map[string]string{
				"seccomp.security.alpha.kubernetes.io/pod":         "runtime/default",
				"container.seccomp.security.alpha.kubernetes.io/c": "localhost/a",
				"container.apparmor.security.beta.kubernetes.io/c": "localhost/b",
			}
			p.Spec.SecurityContext = &corev1.PodSecurityContext{SeccompProfile: &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeUnconfined}}
			p.Spec.Containers[0].SecurityContext = &corev1.SecurityContext{
				SeccompProfile:  &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeLocalhost, LocalhostProfile: ptr("b")},
				AppArmorProfile: &corev1.AppArmorProfile{Type: corev1.AppArmorProfileTypeRuntimeDefault},
			}
		}, want: []string{
			`spec.securityContext.seccompProfile.type: Forbidden: seccomp type in annotation and field must match`,
			`spec.containers[0].securityContext.seccompProfile.localhostProfile: Forbidden: seccomp profile in annotation and field must match`,
			`spec.containers[0].securityContext.appArmorProfile.type: Forbidden: apparmor type in annotation and field must match`,
		}},
	)
	addFamily("security",
		createCase{name: "privileged disallowed by default", mod: ctr(func(c *corev1.Container) {
			c.SecurityContext = &corev1.SecurityContext{Privileged: ptr(true)}
		}), want: []string{
			`spec.containers[0].securityContext.privileged: Forbidden: disallowed by cluster policy`,
		}},
		createCase{name: "privileged allowed with flag", privileged: true, mod: ctr(func(c *corev1.Container) {
			c.SecurityContext = &corev1.SecurityContext{Privileged: ptr(true)}
		})},
		createCase{name: "security context faults", privileged: true, mod: ctr(func(c *corev1.Container) {
			c.SecurityContext = &corev1.SecurityContext{
				Privileged:               ptr(true),
				AllowPrivilegeEscalation: ptr(false),
				RunAsUser:                ptr(int64(-1)),
				RunAsGroup:               ptr(int64(1) << 40),
				ProcMount:                ptr(corev1.UnmaskedProcMount),
				Capabilities:             &corev1.Capabilities{Add: []corev1.Capability{"CAP_SYS_ADMIN"}},
				SeccompProfile:           &corev1.SeccompProfile{Type: "Bogus", LocalhostProfile: ptr("x")},
				AppArmorProfile:          &corev1.AppArmorProfile{Type: corev1.AppArmorProfileTypeLocalhost, LocalhostProfile: ptr(" padded ")},
			}
		}), want: []string{
			`spec.containers[0].securityContext.runAsUser: Invalid value: -1: must be between 0 and 2147483647, inclusive`,
			`spec.containers[0].securityContext.runAsGroup: Invalid value: 1099511627776: must be between 0 and 2147483647, inclusive`,
			"spec.containers[0].securityContext.procMount: Invalid value: \"Unmasked\": `hostUsers` must be false to use `Unmasked`",
			`spec.containers[0].securityContext.seccompProfile.type: Unsupported value: "Bogus": supported values: "Localhost", "RuntimeDefault", "Unconfined"`,
			`spec.containers[0].securityContext.seccompProfile.localhostProfile: Invalid value: {"Type":"Bogus","LocalhostProfile":"x"}: can only be set when seccomp type is Localhost`,
			"spec.containers[0].securityContext: Invalid value: {\"Capabilities\":{\"Add\":[\"CAP_SYS_ADMIN\"],\"Drop\":null},\"Privileged\":true,\"SELinuxOptions\":null,\"WindowsOptions\":null,\"RunAsUser\":-1,\"RunAsGroup\":1099511627776,\"RunAsNonRoot\":null,\"ReadOnlyRootFilesystem\":null,\"AllowPrivilegeEscalation\":false,\"ProcMount\":\"Unmasked\",\"SeccompProfile\":{\"Type\":\"Bogus\",\"LocalhostProfile\":\"x\"},\"AppArmorProfile\":{\"Type\":\"Localhost\",\"LocalhostProfile\":\" padded \"}}: cannot set `allowPrivilegeEscalation` to false and `privileged` to true",
			"spec.containers[0].securityContext: Invalid value: {\"Capabilities\":{\"Add\":[\"CAP_SYS_ADMIN\"],\"Drop\":null},\"Privileged\":true,\"SELinuxOptions\":null,\"WindowsOptions\":null,\"RunAsUser\":-1,\"RunAsGroup\":1099511627776,\"RunAsNonRoot\":null,\"ReadOnlyRootFilesystem\":null,\"AllowPrivilegeEscalation\":false,\"ProcMount\":\"Unmasked\",\"SeccompProfile\":{\"Type\":\"Bogus\",\"LocalhostProfile\":\"x\"},\"AppArmorProfile\":{\"Type\":\"Localhost\",\"LocalhostProfile\":\" padded \"}}: cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN",
			`spec.containers[0].securityContext.appArmorProfile.localhostProfile: Invalid value: " padded ": must not be padded with whitespace`,
		}},
		createCase{name: "seccomp and apparmor field faults", mod: all(
			ctr(func(c *corev1.Container) {
				c.SecurityContext = &corev1.SecurityContext{
					SeccompProfile:  &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeLocalhost},
					AppArmorProfile: &corev1.AppArmorProfile{Type: "Bogus"},
				}
			}),
			initCtr(func(c *corev1.Container) {
				c.SecurityContext = &corev1.SecurityContext{
					SeccompProfile:  &corev1.SeccompProfile{},
					AppArmorProfile: &corev1.AppArmorProfile{Type: corev1.AppArmorProfileTypeUnconfined, LocalhostProfile: ptr("x")},
				}
			}),
		), want: []string{
			`spec.containers[0].securityContext.seccompProfile.localhostProfile: Required value: must be set when seccomp type is Localhost`,
			`spec.containers[0].securityContext.appArmorProfile.type: Unsupported value: "Bogus": supported values: "Localhost", "RuntimeDefault", "Unconfined"`,
			`spec.initContainers[0].securityContext.seccompProfile.type: Required value: type is required when seccompProfile is set`,
			`spec.initContainers[0].securityContext.appArmorProfile.localhostProfile: Invalid value: "x": can only be set when AppArmor type is Localhost`,
		}},
		createCase{name: "windows options", mod: ctr(func(c *corev1.Container) {
			c.SecurityContext = &corev1.SecurityContext{WindowsOptions: &corev1.WindowsSecurityContextOptions{
				GMSACredentialSpecName: ptr("Bad_Name"),
				GMSACredentialSpec:     ptr(""),
				RunAsUserName:          ptr(`.bad\us"er`),
			}}
		}), want: []string{
			`spec.containers[0].securityContext.windowsOptions.gmsaCredentialSpecName: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
			`spec.containers[0].securityContext.windowsOptions.gmsaCredentialSpec: Invalid value: "": gmsaCredentialSpec cannot be an empty string`,
			`spec.containers[0].securityContext.windowsOptions.runAsUserName: Invalid value: ".bad\\us\"er": runAsUserName's Domain doesn't match the NetBios nor the DNS format`,
			`spec.containers[0].securityContext.windowsOptions.runAsUserName: Invalid value: ".bad\\us\"er": runAsUserName's User cannot contain the following characters: "/\:;|=,+*?<>@[]`,
		}},
	)
}
