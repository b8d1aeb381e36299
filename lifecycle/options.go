package lifecycle

import (
	"time"

	"github.com/podlife/podlife/internal/gates"
)

// Options selects the cluster the answers are computed for. The zero value is a default
// Kubernetes v1.37.2 cluster.
type Options struct {
	// Features overrides feature gates by upstream name; nil means the v1.37.2 defaults.
	// Phase and the conditions read ContainerRestartRules,
	// RestartAllContainersOnContainerExits and PodObservedGenerationTracking.
	Features gates.FeatureGates

	// MaxContainerRestartPeriod is the kubelet configuration field
	// crashLoopBackOff.maxContainerRestartPeriod (honoured with the
	// KubeletCrashLoopBackOffMax gate, on by default); zero means unset (300s). It sets
	// the crash-loop back-off [Plan] and [Simulate] apply.
	MaxContainerRestartPeriod time.Duration
}
