// Package podlife answers, offline and exactly as Kubernetes v1.37.2 does, the questions
// the kubelet, the API server and kubectl answer about a pod inside a cluster.
//
// The module is a set of small packages, one per question:
//
//   - podlife (this package): the API server's create-time defaulting of a pod
//     ([Default]) and of a workload's pod template ([DefaultTemplate]), and the
//     per-call feature gates ([FeatureGates]) every other package takes, read from a
//     --feature-gates value as a component reads its flag ([ParseFeatureGates]).
//   - resources: effective pod requests and limits (a drop-in for
//     k8s.io/component-helpers/resource), the QoS class, and Explain, a readable
//     breakdown of which term won.
//   - validation: the API server's validation errors for a pod, as field.ErrorList.
//   - restart: whether, why and when a container restarts: pod and container restart
//     policy, restart rules, restart-all and CrashLoopBackOff.
//   - lifecycle: the kubelet's next action, the pod phase, conditions and next status,
//     the kubectl STATUS/READY/RESTARTS columns, termination order and a simulation of
//     a pod's life in virtual time.
//
// # Version
//
// Every answer is the answer of Kubernetes v1.37.2 ([KubernetesVersion]); the
// conformance module in this repository proves it by comparing against the upstream
// code on generated inputs.
//
// # Defaulting
//
// [Default] returns what a v1.37.2 API server stores for a created pod. It mirrors, in
// order, the generated v1 defaulters (k8s.io/kubernetes
// pkg/apis/core/v1/zz_generated.defaults.go SetObjectDefaults_Pod, with
// pkg/apis/core/v1/defaults.go) and the pod registry's create preparation
// (pkg/registry/core/pod/strategy.go PrepareForCreate, with DropDisabledPodFields and
// DefaultPodLevelResources from pkg/api/pod/util.go): status reset to Pending with
// the computed qosClass, generation 1, fields of disabled features dropped, the
// SchedulingGated condition, matchLabelKeys merged into selectors, deprecated AppArmor
// annotations copied into fields, and pod-level requests and limits filled in.
// [DefaultWithOptions] takes feature gates and the clock used for the condition.
// Image pull policies follow the image reference grammar of
// github.com/distribution/reference, as pkg/util/parsers does.
//
// [DefaultForUpdate] is the update path: the decoder's defaults, the generation carried
// over, and PrepareForUpdate (stored status kept, fields of disabled features dropped
// unless the stored pod uses them, generation bumped on a spec change).
//
// [DefaultTemplate] returns a workload's pod template as stored (PodSpec defaults
// and DropDisabledTemplateFields, no Pod-only defaults), and [PodFromTemplate] the pod
// a workload controller gets stored for a template (pkg/controller/controller_utils.go
// GetPodFromTemplate followed by [DefaultWithOptions]).
//
// Not mirrored: what the registry assigns outside PrepareForCreate (name from
// generateName, uid, creationTimestamp, resourceVersion, managedFields) and admission plugins
// (LimitRanger, ServiceAccount, webhooks, ...).
//
// # Feature gates
//
// There is no global feature-gate state. Each options struct carries a [FeatureGates]
// map of overrides by upstream gate name; the zero value (nil) means the defaults of a
// v1.37.2 cluster. [FeatureGates.Validate] applies upstream's rules
// (k8s.io/component-base featuregate/feature_gate.go): unknown names, locked gates set
// to their non-default value, gates not available at 1.37 and unmet dependencies are
// errors. The special gates AllAlpha and AllBeta work as upstream: they set every
// alpha (beta) gate the map does not set itself. Every package reads gates through the
// same resolver, generated from the gates upstream registers.
//
// # Principles
//
// Functions are pure: no I/O, no clock reads (time is a parameter), no logging. Inputs
// are never mutated, nil inputs never panic, and every function is safe for concurrent
// use.
package podlife

// KubernetesVersion is the Kubernetes release whose behaviour this module reproduces.
const KubernetesVersion = "v1.37.2"
