package restart

import (
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/podlife/podlife/internal/gates"
	"github.com/podlife/podlife/internal/podutil"
)

// containerRestartRules and restartAllContainers read the two gates decisions
// depend on, through the module's one resolver.
func (o Options) containerRestartRules() bool {
	if len(o.Features) == 0 {
		return gates.Defaults().ContainerRestartRules
	}
	return o.Features.Resolve().ContainerRestartRules
}

func (o Options) restartAllContainers() bool {
	if len(o.Features) == 0 {
		return gates.Defaults().RestartAllContainersOnContainerExits
	}
	return o.Features.Resolve().RestartAllContainersOnContainerExits
}

// exitGates returns the ContainerRestartRules and RestartAllContainersOnContainerExits
// gates, the two a decision on an exited container reads, resolved once: without
// overrides, two loads.
func (o Options) exitGates() (rules, all bool) {
	if len(o.Features) == 0 {
		g := gates.Defaults()
		return g.ContainerRestartRules, g.RestartAllContainersOnContainerExits
	}
	return resolveExitGates(o.Features)
}

// resolveExitGates is exitGates with overrides.
//
//go:noinline
func resolveExitGates(f gates.FeatureGates) (rules, all bool) {
	s := f.Resolve()
	return s.ContainerRestartRules, s.RestartAllContainersOnContainerExits
}

// Options selects the cluster the answers are computed for. The zero value is a
// default Kubernetes v1.37.2 kubelet.
type Options struct {
	// Features overrides feature gates by upstream name: a podlife.FeatureGates
	// (the same type), resolved as a v1.37.2 component resolves --feature-gates; nil
	// means the v1.37.2 defaults. The gates read here are ContainerRestartRules,
	// RestartAllContainersOnContainerExits, ReduceDefaultCrashLoopBackOffDecay and
	// KubeletCrashLoopBackOffMax.
	Features gates.FeatureGates

	// MaxContainerRestartPeriod is the kubelet configuration field
	// crashLoopBackOff.maxContainerRestartPeriod, honoured when the
	// KubeletCrashLoopBackOffMax gate is on. Zero means unset, which the kubelet's
	// configuration defaulting turns into 300s. A kubelet refuses to start with a value
	// outside 1s–300s; see [Options.Validate].
	MaxContainerRestartPeriod time.Duration
}

// IsRestartableInitContainer reports whether c has restartPolicy Always, which for an
// init container makes it a sidecar. Like upstream it does not check that c is an init
// container. A nil container is not restartable.
func IsRestartableInitContainer(c *corev1.Container) bool { return podutil.IsSidecar(c) }

// MatchingRule returns the first of c's restartPolicyRules that matches exitCode, its
// index in c.RestartPolicyRules and true; or the zero rule, -1 and false when none
// matches. It is upstream's FindMatchingContainerRestartRule: a rule without exitCodes
// or with an operator other than In and NotIn never matches, In with no values never
// matches, NotIn with no values always matches. Like upstream it ignores c's
// restartPolicy and the feature gates.
func MatchingRule(c *corev1.Container, exitCode int32) (rule corev1.ContainerRestartRule, index int, ok bool) {
	if c == nil {
		return corev1.ContainerRestartRule{}, -1, false
	}
	if i := ruleIndex(c, exitCode); i >= 0 {
		return c.RestartPolicyRules[i], i, true
	}
	return corev1.ContainerRestartRule{}, -1, false
}

// ruleIndex is the index of c's first restart rule with exit codes that match
// exitCode, -1 when none does.
func ruleIndex(c *corev1.Container, exitCode int32) int {
	for i := range c.RestartPolicyRules {
		if r := &c.RestartPolicyRules[i]; r.ExitCodes != nil && ruleMatches(r.ExitCodes, exitCode) {
			return i
		}
	}
	return -1
}

func ruleMatches(on *corev1.ContainerRestartRuleOnExitCodes, exitCode int32) bool {
	found := false
	for _, v := range on.Values {
		if v == exitCode {
			found = true
			break
		}
	}
	switch on.Operator {
	case corev1.ContainerRestartRuleOnExitCodesOpIn:
		return found
	case corev1.ContainerRestartRuleOnExitCodesOpNotIn:
		return !found
	}
	return false
}

// ContainerShouldRestart reports whether a container that exited with exitCode is
// restarted by its policies, as upstream's podutil.ContainerShouldRestart: when the
// container has its own restartPolicy, the first matching rule decides (Restart, or
// RestartAllContainers when that gate is on), then the container's policy; otherwise
// (or for an unrecognised container policy) the pod's policy, where an empty or
// unknown value means Always. Rules are ignored when the container has no
// restartPolicy. It knows nothing about init containers and does not check the
// ContainerRestartRules gate (the kubelet checks it before calling); use
// [ShouldRestart] for the kubelet's full decision. A nil container or spec counts as
// having no policy.
func ContainerShouldRestart(c *corev1.Container, spec *corev1.PodSpec, exitCode int32, opts Options) bool {
	podPolicy := podRestartPolicy(spec)
	if c == nil || c.RestartPolicy == nil {
		return podPolicyRestarts(podPolicy, exitCode)
	}
	_, restart, _ := containerPolicy(c, exitCode, opts.restartAllContainers(), podPolicy)
	return restart
}

// IsContainerRestartable reports whether the container can ever be restarted by its
// policies, as upstream's podutil.IsContainerRestartable: with a container-level
// restartPolicy, true when any rule has action Restart or the policy is not Never
// (RestartAllContainers rules do not count); otherwise true when the pod's policy is
// not Never.
func IsContainerRestartable(spec *corev1.PodSpec, c *corev1.Container) bool {
	if c != nil && c.RestartPolicy != nil {
		for i := range c.RestartPolicyRules {
			if c.RestartPolicyRules[i].Action == corev1.ContainerRestartRuleActionRestart {
				return true
			}
		}
		return *c.RestartPolicy != corev1.ContainerRestartPolicyNever
	}
	return podRestartPolicy(spec) != corev1.RestartPolicyNever
}

// AllContainersCouldRestart reports whether any init (sidecars included) or regular
// container of spec has a rule with action RestartAllContainers, as upstream's
// podutil.AllContainersCouldRestart. Ephemeral containers are not checked, and, like
// upstream, neither the containers' restartPolicy nor the gates are. A nil spec gives
// false.
func AllContainersCouldRestart(spec *corev1.PodSpec) bool {
	if spec == nil {
		return false
	}
	return anyRestartAllRule(spec.InitContainers) || anyRestartAllRule(spec.Containers)
}

func anyRestartAllRule(cs []corev1.Container) bool {
	for i := range cs {
		for j := range cs[i].RestartPolicyRules {
			if cs[i].RestartPolicyRules[j].Action == corev1.ContainerRestartRuleActionRestartAllContainers {
				return true
			}
		}
	}
	return false
}

func podRestartPolicy(spec *corev1.PodSpec) corev1.RestartPolicy {
	if spec == nil {
		return ""
	}
	return spec.RestartPolicy
}
