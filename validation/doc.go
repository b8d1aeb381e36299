// Package validation reports the errors the Kubernetes v1.37.2 API server returns
// for a pod, offline and error for error: the same field.ErrorList entries (type,
// field path, bad value and detail) as upstream.
//
// It mirrors, on the v1 types:
//   - k8s.io/kubernetes pkg/registry/core/pod/strategy.go (Validate, PrepareForCreate):
//     a pod is defaulted and prepared by podlife.Default before it is validated;
//   - k8s.io/kubernetes pkg/api/pod/util.go (GetValidationOptionsFromPodSpecAndMeta):
//     the options derived from feature gates and from what an old object already uses;
//   - k8s.io/kubernetes pkg/apis/core/validation/validation.go (ValidatePodCreate,
//     validatePodMetadataAndSpec, ValidatePodSpec, validateContainers,
//     validateInitContainers, validateEphemeralContainers, validateContainerCommon,
//     probes, lifecycle handlers, resources, ports, env, volume mounts and devices,
//     container security context, container restart policy and rules, resize
//     policy; and at pod level: restartPolicy, activeDeadlineSeconds,
//     terminationGracePeriodSeconds, spec.resources, overhead, readiness and
//     scheduling gates, tolerations, the pod security context and sysctls, hostUsers,
//     Windows host-process and per-OS rules, resource claims, affinity, topology
//     spread constraints, DNS config, host aliases, hostnameOverride, the pod
//     annotations, volume names and the emptyDir, hostPath, secret, configMap,
//     persistentVolumeClaim, downwardAPI, projected, csi and image volume sources);
//   - k8s.io/apimachinery pkg/api/validation (ObjectMeta: name, generateName,
//     namespace, labels, annotations, finalizers), re-expressed so that map keys are
//     visited in sorted order.
//
// Field paths are built lazily and names are matched by hand before falling back
// to the apimachinery validators for their messages, so validating a valid pod
// allocates little.
//
// # Differences from upstream
//
// Upstream ranges over Go maps (resource lists, annotations), so the order of some
// errors changes from run to run; podlife visits map keys in sorted order and is
// otherwise in upstream's order. Compare results as multisets when comparing with
// upstream.
//
// Upstream validates the internal core types, so where it reports a field's value
// as the bad value, that value has the internal type (for example core.RestartPolicy,
// *core.Signal, *core.SecurityContext). podlife reports the v1 type of the same
// field (corev1.RestartPolicy, *corev1.Signal, *corev1.SecurityContext) with the same
// value; numeric widths (int32, int64, int) are those upstream uses.
//
// # Scope of the create path
//
// ValidatePodCreate validates what the pod strategy's Validate sees. The registry's
// store generates metadata.name from metadata.generateName before that, and the
// request URL supplies metadata.namespace; podlife does neither, so set both.
//
// # Not validated yet
//
// These parts of ValidatePodSpec are skipped, so a pod that upstream rejects only
// for them is accepted here:
//   - the sources of volumes other than emptyDir, hostPath, secret, configMap,
//     persistentVolumeClaim, downwardAPI, projected, csi and image (ephemeral and
//     the deprecated in-tree kinds, and projected volumes with a clusterTrustBundle
//     or podCertificate source) are only counted ("must specify a volume type",
//     "may not specify more than 1 volume type"): such a volume with an invalid
//     source is still mountable here, while upstream reports the source and a Not
//     found on each mount of it;
//   - schedulingGroup and evictionResponders (both dropped before validation unless
//     their alpha gates are on);
//   - the legacy tolerations annotation (scheduler.alpha.kubernetes.io/tolerations).
package validation
