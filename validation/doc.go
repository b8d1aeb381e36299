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
// # The create path
//
// ValidatePodCreate answers as a POST of the pod to
// /api/v1/namespaces/NAMESPACE/pods does, following the steps before the strategy's
// Validate as well:
//   - k8s.io/apiserver pkg/endpoints/handlers/create.go and pkg/registry/rest/meta.go
//     (EnsureObjectNamespaceMatchesRequestNamespace): the pod takes the request's
//     namespace (Options.Namespace; empty means the pod's own namespace, else
//     "default", as kubectl sends it); a pod whose namespace conflicts with the
//     request's gets upstream's Bad Request message (NamespaceMismatchDetail) as the
//     only error;
//   - k8s.io/apiserver pkg/registry/generic/registry/store.go (create) and
//     pkg/storage/names/generate.go: a pod with only metadata.generateName is
//     validated under the generated name, generateName cut to 58 bytes plus 5
//     characters. Upstream's 5 are random; podlife uses GeneratedNameSuffix
//     ("xxxxx", from upstream's alphabet "bcdfghjklmnpqrstvwxz2456789"), so the
//     errors are the same and only the bad value of a metadata.name error (reported
//     only when generateName itself is invalid) differs in its last 5 characters;
//   - k8s.io/apiserver pkg/registry/rest/create.go (BeforeCreate, ValidateCreate)
//     and pkg/registry/rest/validate.go: the strategy's errors pass through
//     declarative validation, whose filter keeps one error per message, so
//     ValidatePodCreate drops repeated messages too. ValidateCreate's generic
//     ObjectMeta check and the pod's declarative rules add nothing else on create
//     in v1.37.2 with the default gates: the name is already a DNS subdomain, the
//     metadata and toleration rules are alpha (shadowed by the hand-written ones),
//     the status is reset by PrepareForCreate, and the evictionResponders rules
//     need that field's alpha gate (see below).
//
// Admission (mutating and validating webhooks, NamespaceLifecycle, quotas, pod
// security) is not part of it. ValidatePodUpdate likewise follows rest.ValidateUpdate:
// the registry's common metadata checks, the strategy's ValidateUpdate, one error
// per message.
//
// # Manifest streams
//
// ValidateStream reads a YAML or JSON stream as `kubectl create -f` does and answers,
// object by object, as kubectl and a default v1.37.2 server would: kubectl's
// client-side checks (encoding, document splitting, apiVersion and kind, the REST
// mapping of the kinds the server serves, Lists expanded, the OpenAPI validation kubectl
// itself applies to Lists), the server's strict decoding (unknown fields, wrong types,
// the request size limit) and the create path (ValidateObjectCreate). Each result
// gives the document, the file line and, through FieldLine, the line of each field an
// error names. conformance/decoding compares it with kubectl's own builder and the
// create handler's decoding on generated files. Duplicate keys are reported as
// warnings: kubectl resolves them silently in favour of the last one, so the server
// never sees them. FeatureGateHints names the feature gates whose absence makes an
// error.
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
//     their alpha gates are on).
package validation
