// Package workloads compares validation.ValidateObjectCreate and
// validation.ValidateObjectUpdate with the API server's create and update paths for
// every kind that holds a pod (Pod aside, which package validation covers): v1
// PodTemplate and ReplicationController, apps/v1 Deployment, ReplicaSet, StatefulSet
// and DaemonSet, batch/v1 Job and CronJob.
//
// Upstream's side is conformance/internal/upstreamcreate. Creates run the kind's v1
// defaults and conversion, the handler's namespace step, the store's metadata, the
// registry strategy's PrepareForCreate and rest.ValidateCreate (declarative
// validation included), checked against rest.BeforeCreate itself. Updates run the
// real request path (Kind.Update): the update handler (k8s.io/apiserver
// handlers.UpdateResource: decoding, the request namespace, checkName) and the kind's
// registry store (pkg/registry/.../storage, with kube-apiserver's resource prefix)
// over an in-memory storage that runs etcd3's preconditions, so that the requests
// the server refuses before validation (400, 409, 500) are compared with
// validation.RefusalOf, status code, reason and message, and the others error by
// error. Every comparison includes each error's Error() text.
//
// The generator draws objects of each kind with faults in their own fields and in
// their pod template, and updates of objects the server stored; TestDifferential
// runs them under the standard gate sets (gatesets.Standard) and one with the
// container restart rules off, compares the answers error by error, and fails
// when the generator loses coverage. PODLIFE_SEED varies the inputs, PODLIFE_SCALE
// multiplies their number (unset, PODLIFE_N does: the inputs per gate set over the
// 1,200 creates per kind under the defaults, rounded up), PODLIFE_FAMILIES=1 lists
// the rule families reached.
// TestPodFromObject compares podlife.PodFromObject on stored objects with the pod
// each controller builds (GetPodFromTemplate and the StatefulSet, DaemonSet, Job and
// CronJob controllers' own steps, some reached with go:linkname) after the server's
// create-time defaults. TestCasesAgainstUpstream replays the table cases of package validation
// (testdata/workload_cases.json) against upstream, and BenchmarkValidateObjectCreate
// times both sides per kind on the same valid objects.
//
// FuzzWorkloadsMatchUpstream and FuzzWorkloadUpdatesMatchUpstream make the create
// and update comparisons on objects no generator wrote: the fuzzer mutates the JSON
// of the main module's example workloads (conformance/internal/fuzzseed) and, for
// updates, a JSON merge patch of the stored object.
package workloads
