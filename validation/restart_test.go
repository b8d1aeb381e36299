package validation

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/podlife/podlife"
)

// Re-expresses upstream TestValidateContainerRestartPolicy, TestValidateRestartPolicy
// and the restart/resize rows of TestValidateContainers and TestValidateInitContainers,
// with the gate matrix of ContainerRestartRules and RestartAllContainersOnContainerExits.
func init() {
	noRestartAll := podlife.FeatureGates{"RestartAllContainersOnContainerExits": false}
	noRules := podlife.FeatureGates{"RestartAllContainersOnContainerExits": false, "ContainerRestartRules": false}
	rule := func(action corev1.ContainerRestartRuleAction, op corev1.ContainerRestartRuleOnExitCodesOperator, codes ...int32) corev1.ContainerRestartRule {
		return corev1.ContainerRestartRule{Action: action, ExitCodes: &corev1.ContainerRestartRuleOnExitCodes{Operator: op, Values: codes}}
	}
	many := func(n int) []corev1.ContainerRestartRule {
		out := make([]corev1.ContainerRestartRule, n)
		for i := range out {
			out[i] = rule("Restart", "In", 1)
		}
		return out
	}
	codes := make([]int32, 256)
	for i := range codes {
		codes[i] = int32(i)
	}
	regularNever := ctr(func(c *corev1.Container) { c.RestartPolicy = ptr(corev1.ContainerRestartPolicyNever) })
	initOnFailure := initCtr(func(c *corev1.Container) { c.RestartPolicy = ptr(corev1.ContainerRestartPolicyOnFailure) })
	sidecarRule := sidecar(func(c *corev1.Container) {
		c.RestartPolicyRules = []corev1.ContainerRestartRule{rule("Restart", "In", 42)}
	})
	restartAll := ctr(func(c *corev1.Container) {
		c.RestartPolicy = ptr(corev1.ContainerRestartPolicyNever)
		c.RestartPolicyRules = []corev1.ContainerRestartRule{rule("RestartAllContainers", "In", 42)}
	})
	addFamily("restart",
		createCase{name: "pod restart policy unsupported", mod: func(p *corev1.Pod) { p.Spec.RestartPolicy = "Sometimes" }, want: []string{
			`spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"`,
		}},
		createCase{name: "regular container policies and rules", mod: func(p *corev1.Pod) {
			p.Spec.Containers[0].RestartPolicy = ptr(corev1.ContainerRestartPolicyOnFailure)
			p.Spec.Containers[0].RestartPolicyRules = []corev1.ContainerRestartRule{rule("Restart", "NotIn", 0)}
			p.Spec.Containers = append(p.Spec.Containers, corev1.Container{Name: "d", Image: "img", RestartPolicy: ptr(corev1.ContainerRestartPolicyAlways)})
		}},
		createCase{name: "rule faults", mod: ctr(func(c *corev1.Container) {
			c.RestartPolicy = ptr(corev1.ContainerRestartPolicy("Bogus"))
			c.RestartPolicyRules = []corev1.ContainerRestartRule{
				{Action: "Explode"},
				rule("", "Within", 1),
				{Action: "Restart", ExitCodes: &corev1.ContainerRestartRuleOnExitCodes{Operator: "In", Values: codes}},
			}
		}), want: []string{
			`spec.containers[0].restartPolicy: Unsupported value: "Bogus": supported values: "Always", "Never", "OnFailure"`,
			`spec.containers[0].restartPolicyRules[0].action: Unsupported value: "Explode": supported values: "Restart", "RestartAllContainers"`,
			`spec.containers[0].restartPolicyRules[0].exitCodes: Required value: must be specified`,
			`spec.containers[0].restartPolicyRules[1].action: Unsupported value: "": supported values: "Restart", "RestartAllContainers"`,
			`spec.containers[0].restartPolicyRules[1].exitCodes.operator: Unsupported value: "Within": supported values: "In", "NotIn"`,
			`spec.containers[0].restartPolicyRules[2].exitCodes.values: Too many: 256: must have at most 255 items`,
		}},
		createCase{name: "rules without policy", mod: all(
			ctr(func(c *corev1.Container) {
				c.RestartPolicyRules = []corev1.ContainerRestartRule{rule("Restart", "In", 1)}
			}),
			initCtr(func(c *corev1.Container) { c.RestartPolicyRules = []corev1.ContainerRestartRule{{Action: "Bogus"}} }),
		), want: []string{
			`spec.containers[0].restartPolicy: Required value: must specify restartPolicy when restart rules are used`,
			`spec.initContainers[0].restartPolicy: Required value: must specify restartPolicy when restart rules are used`,
		}},
		createCase{name: "too many rules", mod: ctr(func(c *corev1.Container) {
			c.RestartPolicy = ptr(corev1.ContainerRestartPolicyNever)
			c.RestartPolicyRules = many(21)
		}), want: []string{
			`spec.containers[0].restartPolicyRules: Too many: 21: must have at most 20 items`,
		}},
		createCase{name: "init container policies", mod: all(initOnFailure, initCtr(func(c *corev1.Container) {
			c.Name = "j"
			c.RestartPolicy = ptr(corev1.ContainerRestartPolicy("Bogus"))
		})), want: []string{
			`spec.initContainers[1].restartPolicy: Unsupported value: "Bogus": supported values: "Always", "Never", "OnFailure"`,
		}},
		createCase{name: "sidecar rule and restart-all allowed by default", mod: all(sidecarRule, restartAll)},
		createCase{name: "restart-all off: sidecar rule forbidden, action unsupported", features: noRestartAll, mod: all(sidecarRule, restartAll, initOnFailure), want: []string{
			`spec.containers[0].restartPolicyRules[0].action: Unsupported value: "RestartAllContainers": supported values: "Restart"`,
			`spec.initContainers[0].restartPolicyRules: Forbidden: restartPolicyRules are not allowed for init containers with restart policy Always`,
		}},
		createCase{name: "rules off: fields dropped before validation", features: noRules, mod: all(regularNever, initOnFailure, sidecarRule, restartAll)},
		createCase{name: "rules off: bogus init policy still unsupported", features: noRules, mod: initCtr(func(c *corev1.Container) {
			c.RestartPolicy = ptr(corev1.ContainerRestartPolicy("Bogus"))
		})},
	)
	addFamily("resize",
		createCase{name: "valid resize policies", mod: all(
			ctr(func(c *corev1.Container) {
				c.ResizePolicy = []corev1.ContainerResizePolicy{{ResourceName: "cpu", RestartPolicy: "NotRequired"}, {ResourceName: "memory", RestartPolicy: "RestartContainer"}}
			}),
			sidecar(func(c *corev1.Container) {
				c.ResizePolicy = []corev1.ContainerResizePolicy{{ResourceName: "memory", RestartPolicy: "RestartContainer"}}
			}),
		)},
		createCase{name: "resize policy faults", mod: ctr(func(c *corev1.Container) {
			c.ResizePolicy = []corev1.ContainerResizePolicy{
				{ResourceName: "cpu", RestartPolicy: "NotRequired"},
				{ResourceName: "cpu", RestartPolicy: "Sometimes"},
				{ResourceName: "", RestartPolicy: ""},
				{ResourceName: "storage", RestartPolicy: "NotRequired"},
			}
		}), want: []string{
			`spec.containers[0].resizePolicy[1]: Duplicate value: "cpu"`,
			`spec.containers[0].resizePolicy: Unsupported value: "Sometimes": supported values: "NotRequired", "RestartContainer"`,
			// Twice from the strategy (empty name, empty policy), once on the wire.
			`spec.containers[0].resizePolicy: Required value`,
			`spec.containers[0].resizePolicy: Unsupported value: "storage": supported values: "cpu", "memory"`,
		}},
		createCase{name: "resize with pod restart Never", mod: all(
			func(p *corev1.Pod) { p.Spec.RestartPolicy = corev1.RestartPolicyNever },
			ctr(func(c *corev1.Container) {
				c.ResizePolicy = []corev1.ContainerResizePolicy{{ResourceName: "cpu", RestartPolicy: "RestartContainer"}, {ResourceName: "memory"}}
			}),
		), want: []string{
			"spec.containers[0].resizePolicy: Invalid value: \"RestartContainer\": must be 'NotRequired' when pod `restartPolicy` is 'Never'",
			`spec.containers[0].resizePolicy: Required value`,
			"spec.containers[0].resizePolicy: Invalid value: \"\": must be 'NotRequired' when pod `restartPolicy` is 'Never'",
		}},
		createCase{name: "non-sidecar init RestartContainer", mod: initCtr(func(c *corev1.Container) {
			c.ResizePolicy = []corev1.ContainerResizePolicy{{ResourceName: "cpu", RestartPolicy: "NotRequired"}, {ResourceName: "memory", RestartPolicy: "RestartContainer"}}
		}), want: []string{
			`spec.initContainers[0].resizePolicy[1].restartPolicy: Invalid value: "RestartContainer": must not be set to 'RestartContainer' for non-sidecar initContainers`,
		}},
	)
}
