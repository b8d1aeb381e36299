package lifecycle

import (
	"github.com/podlife/podlife/internal/gates"
	"github.com/podlife/podlife/restart"
)

// Options selects the cluster the answers are computed for: the feature gates
// (Features; nil means the v1.37.2 defaults) and the kubelet's crash-loop setting
// (MaxContainerRestartPeriod, crashLoopBackOff.maxContainerRestartPeriod, honoured with
// the KubeletCrashLoopBackOffMax gate; zero means 300s). They are the restart
// package's options, so that a lifecycle answer and the restart decision inside it
// always see the same cluster. The zero value is a default Kubernetes v1.37.2 cluster.
//
// Phase and the conditions read ContainerRestartRules,
// RestartAllContainersOnContainerExits and PodObservedGenerationTracking; [Plan] and
// [Simulate] apply the crash-loop back-off of restart.CrashLoopBackOffPolicy.
type Options = restart.Options

// The gates read on every call, each read in one load from the shared defaults when
// the options override nothing (opts.Features.Resolve() copies the whole Set).

func observedGenerationTracking(o Options) bool {
	if len(o.Features) == 0 {
		return gates.Defaults().PodObservedGenerationTracking
	}
	return o.Features.Resolve().PodObservedGenerationTracking
}

func restartAllContainersOnExits(o Options) bool {
	if len(o.Features) == 0 {
		return gates.Defaults().RestartAllContainersOnContainerExits
	}
	return o.Features.Resolve().RestartAllContainersOnContainerExits
}

func readyToStartContainersCondition(o Options) bool {
	if len(o.Features) == 0 {
		return gates.Defaults().PodReadyToStartContainersCondition
	}
	return o.Features.Resolve().PodReadyToStartContainersCondition
}
