package lifecycle

import "github.com/podlife/podlife"

// Options selects the cluster the answers are computed for. The zero value is a default
// Kubernetes v1.37.2 cluster.
type Options struct {
	// Features overrides feature gates by upstream name; nil means the v1.37.2 defaults.
	// This package reads ContainerRestartRules, RestartAllContainersOnContainerExits and
	// PodObservedGenerationTracking.
	Features podlife.FeatureGates
}
