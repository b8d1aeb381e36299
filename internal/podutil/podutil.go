// Package podutil holds the pod predicates several packages of the module ask, so
// that each is written once. They mirror helpers of k8s.io/kubernetes pkg/api/pod and
// pkg/api/v1/pod.
package podutil

import corev1 "k8s.io/api/core/v1"

// IsSidecar reports whether c, an init container, is a sidecar (a restartable init
// container): its restartPolicy is exactly Always, as upstream's
// IsRestartableInitContainer. A nil container is not.
func IsSidecar(c *corev1.Container) bool {
	return c != nil && c.RestartPolicy != nil && *c.RestartPolicy == corev1.ContainerRestartPolicyAlways
}

// HasSidecar reports whether any init container of spec is a sidecar.
func HasSidecar(spec *corev1.PodSpec) bool {
	for i := range spec.InitContainers {
		if IsSidecar(&spec.InitContainers[i]) {
			return true
		}
	}
	return false
}

// RestartRulesInUse reports whether spec uses the fields of the ContainerRestartRules
// gate (pkg/api/pod/util.go containerRestartRulesInUse): an init container with a
// restartPolicy other than Always or with restartPolicyRules, or a regular container
// with a restartPolicy (rules on regular containers alone do not count). A nil spec
// uses nothing.
func RestartRulesInUse(spec *corev1.PodSpec) bool {
	if spec == nil {
		return false
	}
	for i := range spec.InitContainers {
		c := &spec.InitContainers[i]
		if c.RestartPolicy != nil && *c.RestartPolicy != corev1.ContainerRestartPolicyAlways || len(c.RestartPolicyRules) > 0 {
			return true
		}
	}
	for i := range spec.Containers {
		if spec.Containers[i].RestartPolicy != nil {
			return true
		}
	}
	return false
}

// PlainQuoted reports whether strconv.Quote(s) is s between double quotes: s is
// printable ASCII with no double quote or backslash. Callers then build a quoted
// message with one concatenation instead of strconv.Quote's rune-by-rune escaping.
func PlainQuoted(s string) bool {
	for i := 0; i < len(s); i++ {
		if b := s[i]; b < ' ' || b > '~' || b == '"' || b == '\\' {
			return false
		}
	}
	return true
}
