// Package podlife answers, offline and exactly as Kubernetes v1.37.2 does, the questions
// the kubelet, the API server and kubectl answer about a pod inside a cluster.
//
// The module is a set of small packages, one per question:
//
//   - podlife (this package): the API server's create-time defaulting of a pod
//     ([Default]) and of a workload's pod template ([DefaultTemplate]), and the
//     per-call feature gates ([FeatureGates]) every other package takes.
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
// # Feature gates
//
// There is no global feature-gate state. Each options struct carries a [FeatureGates]
// map of overrides by upstream gate name; the zero value (nil) means the defaults of a
// v1.37.2 cluster. [FeatureGates.Validate] applies upstream's rules: unknown names,
// locked gates set to their non-default value and unmet dependencies are errors.
//
// # Principles
//
// Functions are pure: no I/O, no clock reads (time is a parameter), no logging. Inputs
// are never mutated, nil inputs never panic, and every function is safe for concurrent
// use.
package podlife

// KubernetesVersion is the Kubernetes release whose behaviour this module reproduces.
const KubernetesVersion = "v1.37.2"
