package podlife

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/podlife/podlife/internal/defaulting"
)

// PodFromObject returns the pod a v1.37.2 cluster runs for obj, any object that holds
// a pod: v1 Pod, PodTemplate and ReplicationController, apps/v1 Deployment,
// ReplicaSet, StatefulSet and DaemonSet, batch/v1 Job and CronJob. It is the pod for
// resources callers (requests, limits, QoS): the object as the API server stores it
// (the kind's defaults and its registry's PrepareForCreate), the pod its controller
// makes from the stored template ([PodFromTemplate]: labels, annotations,
// finalizers and spec copied, generateName, the controller reference), with the
// controller's own additions, and the server's create-time defaults
// ([DefaultWithOptions]).
//
// The options default from the object: ControllerName is its name, Namespace its
// namespace, and when it has a uid (as a stored object has) ControllerRef points to
// it. A Pod is returned as [DefaultWithOptions] returns it; a PodTemplate, a
// Deployment (whose pods belong to a ReplicaSet named after a hash of the template)
// and a CronJob (whose pods belong to a Job not known yet) get no controller
// reference unless opts gives one.
//
// The controllers' additions applied:
//   - DaemonSet: the tolerations of AddOrUpdateDaemonPodTolerations (not-ready,
//     unreachable, disk-, memory- and PID-pressure, unschedulable, and
//     network-unavailable for host-network pods);
//   - StatefulSet: the pod of the first ordinal (spec.ordinals.start): its name,
//     hostname and subdomain, the pod-name and pod-index labels, and a volume for each
//     claim template (claim "<template>-<set>-<ordinal>") replacing a template volume
//     of the same name;
//   - Job and CronJob: the job-tracking finalizer, and for an Indexed Job the pod of
//     index 0 (the completion-index annotation and label, the JOB_COMPLETION_INDEX
//     variable, the hostname and generateName with the index); a Job with a uid
//     carries the labels its registry generates from it.
//
// Not applied: the hash labels controllers compute from the template
// (pod-template-hash of a Deployment's ReplicaSet, controller-revision-hash,
// DaemonSet's pod-template-generation), the node affinity a DaemonSet pod gets for
// its node, and the name and uid of a CronJob's Job (the pod is that of a Job named
// after the CronJob, without the labels the Job registry generates from a uid; an
// Indexed Job's pod has the hostname "<cronjob>-0" where a cluster's has
// "<cronjob>-<scheduled minute>-0"). The input is not modified. An object of
// another type, a nil object or a ReplicationController without a template gives an
// error.
func PodFromObject(obj runtime.Object, opts PodFromTemplateOptions) (*corev1.Pod, error) {
	return defaulting.PodFromObject(obj, defaulting.PodFromTemplateOptions{
		Options:        opts.engine(),
		ControllerName: opts.ControllerName,
		ControllerRef:  opts.ControllerRef,
		Namespace:      opts.Namespace,
	})
}
