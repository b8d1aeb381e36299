package podlife

import (
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/podlife/podlife/internal/defaulting"
)

// DefaultOptions tunes the defaulting functions ([DefaultWithOptions],
// [DefaultForUpdate], the template functions). The zero value is a default v1.37.2 API
// server at the zero time.
type DefaultOptions struct {
	// Features overrides feature gates; nil means the v1.37.2 defaults.
	Features FeatureGates
	// Now is the time the server stamps on conditions it adds at creation (the
	// PodScheduled=False "SchedulingGated" condition of a pod with scheduling gates).
	// The zero value leaves the zero time there.
	Now time.Time
}

func (o DefaultOptions) engine() defaulting.Options {
	return defaulting.Options{Features: o.Features, Now: o.Now}
}

// Default returns a deep copy of pod as a default v1.37.2 API server stores it when the
// pod is created: the v1 defaulting (SetObjectDefaults_Pod) followed by the pod
// registry's PrepareForCreate (status reset to Pending, generation 1, disabled fields
// dropped, pod-level resources defaulted, status.qosClass set). The input is not
// modified. A nil pod gives nil.
//
// Default does not assign what the registry adds outside PrepareForCreate (uid,
// creationTimestamp, a generated name) and runs no admission plugin.
func Default(pod *corev1.Pod) *corev1.Pod {
	return defaulting.Pod(pod, defaulting.Options{})
}

// DefaultWithOptions is [Default] for a server with the given feature gates and clock.
func DefaultWithOptions(pod *corev1.Pod, opts DefaultOptions) *corev1.Pod {
	return defaulting.Pod(pod, opts.engine())
}

// DefaultForUpdate returns what a v1.37.2 API server makes of an update of the stored
// pod oldPod to newPod before validating it: a deep copy of newPod with the v1 defaults
// the decoder applies (SetObjectDefaults_Pod), the generation carried over from oldPod
// (rest.BeforeUpdate), then the pod registry's PrepareForUpdate (k8s.io/kubernetes
// pkg/registry/core/pod/strategy.go): the status replaced by oldPod's, spec.resources
// kept from oldPod when the client dropped it, the fields of disabled features dropped
// unless oldPod already uses them, and the generation bumped when the spec changed.
//
// oldPod should be the stored object (for example the result of [Default]); it is not
// modified. A nil newPod gives nil; a nil oldPod is treated as an empty pod. The
// resize and status subresources, which use other strategies, are not covered.
func DefaultForUpdate(newPod, oldPod *corev1.Pod, opts DefaultOptions) *corev1.Pod {
	return defaulting.PodForUpdate(newPod, oldPod, opts.engine())
}
