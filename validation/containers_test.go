package validation

import (
	"strings"

	corev1 "k8s.io/api/core/v1"
)

// Re-expresses upstream TestValidateContainers / TestValidateInitContainers /
// TestValidateEphemeralContainers (k8s.io/kubernetes pkg/apis/core/validation) for
// names, images, policies, ports and the per-kind rules, on the create path.
func init() {
	const dns1123 = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
	addFamily("containers",
		createCase{name: "valid base"},
		createCase{name: "no containers", mod: func(p *corev1.Pod) { p.Spec.Containers = nil }, want: []string{
			`spec.containers: Required value`,
		}},
		createCase{name: "empty name", mod: ctr(func(c *corev1.Container) { c.Name = "" }), want: []string{
			`spec.containers[0].name: Required value`,
		}},
		createCase{name: "upper-case name", mod: ctr(func(c *corev1.Container) { c.Name = "Abc" }), want: []string{
			`spec.containers[0].name: Invalid value: "Abc": ` + dns1123,
		}},
		createCase{name: "name too long", mod: ctr(func(c *corev1.Container) { c.Name = strings.Repeat("a", 64) }), want: []string{
			`spec.containers[0].name: Invalid value: "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa": must be no more than 63 characters`,
		}},
		createCase{name: "duplicate names", mod: func(p *corev1.Pod) {
			p.Spec.Containers = append(p.Spec.Containers, corev1.Container{Name: "c", Image: "img"})
		}, want: []string{
			`spec.containers[1].name: Duplicate value: "c"`,
		}},
		createCase{name: "two unnamed containers", mod: func(p *corev1.Pod) {
			p.Spec.Containers = []corev1.Container{{Image: "img"}, {Image: "img"}}
		}, want: []string{
			`spec.containers[0].name: Required value`,
			`spec.containers[1].name: Required value`,
			`spec.containers[1].name: Duplicate value: ""`,
		}},
		createCase{name: "empty image", mod: ctr(func(c *corev1.Container) { c.Image = "" }), want: []string{
			`spec.containers[0].image: Required value`,
		}},
		createCase{name: "whitespace image", mod: ctr(func(c *corev1.Container) { c.Image = " img " }), want: []string{
			`spec.containers[0].image: Invalid value: " img ": must not have leading or trailing whitespace`,
		}},
		createCase{name: "only whitespace image", mod: ctr(func(c *corev1.Container) { c.Image = "  " }), want: []string{
			`spec.containers[0].image: Invalid value: "  ": must not have leading or trailing whitespace`,
		}},
		createCase{name: "bad termination message policy", mod: ctr(func(c *corev1.Container) { c.TerminationMessagePolicy = "Bad" }), want: []string{
			`spec.containers[0].terminationMessagePolicy: Unsupported value: "Bad": supported values: "File", "FallbackToLogsOnError"`,
		}},
		createCase{name: "bad image pull policy", mod: ctr(func(c *corev1.Container) { c.ImagePullPolicy = "Sometimes" }), want: []string{
			`spec.containers[0].imagePullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"`,
		}},
		createCase{name: "command args workingDir are free", mod: ctr(func(c *corev1.Container) {
			c.Command = []string{""}
			c.Args = []string{"", "x"}
			c.WorkingDir = "relative"
		})},
		createCase{name: "init name collides with container", mod: initCtr(func(c *corev1.Container) { c.Name = "c" }), want: []string{
			`spec.initContainers[0].name: Duplicate value: "c"`,
		}},
		createCase{name: "two init containers same name", mod: all(
			initCtr(func(c *corev1.Container) {}),
			initCtr(func(c *corev1.Container) {}),
		), want: []string{
			`spec.initContainers[1].name: Duplicate value: "i"`,
		}},
		createCase{name: "two unnamed init containers", mod: all(
			initCtr(func(c *corev1.Container) { c.Name = "" }),
			initCtr(func(c *corev1.Container) { c.Name = "" }),
		), want: []string{
			`spec.initContainers[0].name: Required value`,
			`spec.initContainers[1].name: Required value`,
		}},
		createCase{name: "init container empty image and bad name", mod: initCtr(func(c *corev1.Container) { c.Name = "I_1"; c.Image = "" }), want: []string{
			`spec.initContainers[0].name: Invalid value: "I_1": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
			`spec.initContainers[0].image: Required value`,
		}},
		createCase{name: "init whitespace image", mod: initCtr(func(c *corev1.Container) { c.Image = "img " }), want: []string{
			`spec.initContainers[0].image: Invalid value: "img ": must not have leading or trailing whitespace`,
		}},
		createCase{name: "ephemeral containers forbidden on create", mod: func(p *corev1.Pod) {
			p.Spec.EphemeralContainers = []corev1.EphemeralContainer{{EphemeralContainerCommon: corev1.EphemeralContainerCommon{Name: "e", Image: "img"}}}
		}, want: []string{
			`spec.ephemeralContainers: Forbidden: cannot be set on create`,
		}},
		createCase{name: "ephemeral container faults", mod: func(p *corev1.Pod) {
			p.Spec.Volumes = []corev1.Volume{emptyDir("v")}
			p.Spec.EphemeralContainers = []corev1.EphemeralContainer{
				{EphemeralContainerCommon: corev1.EphemeralContainerCommon{
					Name: "c", Image: " img", Ports: []corev1.ContainerPort{{ContainerPort: 80}},
					Resources:      corev1.ResourceRequirements{Requests: rl("cpu", "1")},
					ResizePolicy:   []corev1.ContainerResizePolicy{{ResourceName: "cpu", RestartPolicy: "NotRequired"}},
					RestartPolicy:  ptr(corev1.ContainerRestartPolicyAlways),
					LivenessProbe:  execProbe(),
					ReadinessProbe: execProbe(),
					StartupProbe:   execProbe(),
					Lifecycle:      &corev1.Lifecycle{PreStop: &corev1.LifecycleHandler{Exec: &corev1.ExecAction{Command: []string{"x"}}}},
					VolumeMounts:   []corev1.VolumeMount{{Name: "v", MountPath: "/a", SubPath: "x"}, {Name: "v", MountPath: "/b", SubPathExpr: "y"}},
				}, TargetContainerName: "missing"},
				{EphemeralContainerCommon: corev1.EphemeralContainerCommon{Name: "e", Image: "img"}},
				{EphemeralContainerCommon: corev1.EphemeralContainerCommon{Name: "e", Image: "img"}, TargetContainerName: "c"},
			}
		}, want: []string{
			`spec.ephemeralContainers[0].image: Invalid value: " img": must not have leading or trailing whitespace`,
			`spec.ephemeralContainers[0].name: Duplicate value: "c"`,
			`spec.ephemeralContainers[0].targetContainerName: Not found: "missing"`,
			`spec.ephemeralContainers[0].ports: Forbidden: cannot be set for an Ephemeral Container`,
			`spec.ephemeralContainers[0].resources: Forbidden: cannot be set for an Ephemeral Container`,
			`spec.ephemeralContainers[0].resizePolicy: Forbidden: cannot be set for an Ephemeral Container`,
			`spec.ephemeralContainers[0].restartPolicy: Forbidden: cannot be set for an Ephemeral Container`,
			`spec.ephemeralContainers[0].livenessProbe: Forbidden: cannot be set for an Ephemeral Container`,
			`spec.ephemeralContainers[0].readinessProbe: Forbidden: cannot be set for an Ephemeral Container`,
			`spec.ephemeralContainers[0].startupProbe: Forbidden: cannot be set for an Ephemeral Container`,
			`spec.ephemeralContainers[0].lifecycle: Forbidden: cannot be set for an Ephemeral Container`,
			`spec.ephemeralContainers[0].volumeMounts[0].subPath: Forbidden: cannot be set for an Ephemeral Container`,
			`spec.ephemeralContainers[0].volumeMounts[1].subPathExpr: Forbidden: cannot be set for an Ephemeral Container`,
			`spec.ephemeralContainers[2].name: Duplicate value: "e"`,
			`spec.ephemeralContainers: Forbidden: cannot be set on create`,
		}},
	)
	addFamily("ports",
		createCase{name: "valid ports", mod: ctr(func(c *corev1.Container) {
			c.Ports = []corev1.ContainerPort{{Name: "http", ContainerPort: 80}, {ContainerPort: 81, Protocol: "UDP"}, {ContainerPort: 82, Protocol: "SCTP", HostPort: 8082, HostIP: "10.0.0.1"}}
		})},
		createCase{name: "port faults", mod: ctr(func(c *corev1.Container) {
			c.Ports = []corev1.ContainerPort{
				{Name: "abcdefghijklmnopq", ContainerPort: 70000},
				{Name: "-x-", ContainerPort: 0, HostPort: -1},
				{Name: "a--b", ContainerPort: 1, Protocol: "tcp"},
				{Name: "1234", ContainerPort: 2, HostPort: 65536},
				{Name: "a_b", ContainerPort: 3},
				{Name: "ok", ContainerPort: 4},
				{Name: "ok", ContainerPort: 5},
			}
		}), want: []string{
			`spec.containers[0].ports[0].name: Invalid value: "abcdefghijklmnopq": must be no more than 15 characters`,
			`spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive`,
			`spec.containers[0].ports[1].name: Invalid value: "-x-": must not begin or end with a hyphen`,
			`spec.containers[0].ports[1].containerPort: Required value`,
			`spec.containers[0].ports[1].hostPort: Invalid value: -1: must be between 1 and 65535, inclusive`,
			`spec.containers[0].ports[2].name: Invalid value: "a--b": must not contain consecutive hyphens`,
			`spec.containers[0].ports[2].protocol: Unsupported value: "tcp": supported values: "SCTP", "TCP", "UDP"`,
			`spec.containers[0].ports[3].name: Invalid value: "1234": must contain at least one letter (a-z)`,
			`spec.containers[0].ports[3].hostPort: Invalid value: 65536: must be between 1 and 65535, inclusive`,
			`spec.containers[0].ports[4].name: Invalid value: "a_b": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)`,
			`spec.containers[0].ports[6].name: Duplicate value: "ok"`,
		}},
		createCase{name: "host port conflict across containers", mod: func(p *corev1.Pod) {
			p.Spec.Containers[0].Ports = []corev1.ContainerPort{{ContainerPort: 80, HostPort: 8080}}
			p.Spec.Containers = append(p.Spec.Containers, corev1.Container{Name: "d", Image: "img", Ports: []corev1.ContainerPort{{ContainerPort: 81, HostPort: 8080}, {ContainerPort: 82, HostPort: 8080, Protocol: "UDP"}}})
		}, want: []string{
			`spec.containers[1].ports[0].hostPort: Duplicate value: "TCP//8080"`,
		}},
		createCase{name: "host port conflict inside second init container reports index 0", mod: all(
			initCtr(func(c *corev1.Container) { c.Name = "i0" }),
			initCtr(func(c *corev1.Container) {
				c.Ports = []corev1.ContainerPort{{ContainerPort: 80, HostPort: 8080}, {ContainerPort: 81, HostPort: 8080}}
			}),
		), want: []string{
			`spec.initContainers[0].ports[1].hostPort: Duplicate value: "TCP//8080"`,
		}},
		createCase{name: "init and regular may share host ports", mod: all(
			ctr(func(c *corev1.Container) { c.Ports = []corev1.ContainerPort{{ContainerPort: 80, HostPort: 8080}} }),
			initCtr(func(c *corev1.Container) { c.Ports = []corev1.ContainerPort{{ContainerPort: 80, HostPort: 8080}} }),
		)},
		createCase{name: "hostNetwork defaults hostPort", mod: func(p *corev1.Pod) {
			p.Spec.HostNetwork = true
			p.Spec.Containers[0].Ports = []corev1.ContainerPort{{ContainerPort: 80}}
		}},
		createCase{name: "hostNetwork hostPort mismatch", mod: func(p *corev1.Pod) {
			p.Spec.HostNetwork = true
			p.Spec.Containers[0].Ports = []corev1.ContainerPort{{ContainerPort: 80, HostPort: 81}}
		}, want: []string{
			"spec.containers[0].ports[0].hostPort: Invalid value: 81: must match `containerPort` when `hostNetwork` is true",
		}},
	)
}
