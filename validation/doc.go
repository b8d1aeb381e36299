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
//     host namespaces, Windows host-process and per-OS rules, resource claims,
//     affinity, topology spread constraints, DNS config, host aliases, hostname and
//     hostnameOverride, service account, node, priority class, runtime class,
//     preemption policy, schedulingGroup, the pod annotations, and every volume
//     source the v1.37.2 API accepts: emptyDir, hostPath, secret, configMap,
//     persistentVolumeClaim, downwardAPI, projected (secret, configMap, downwardAPI,
//     serviceAccountToken, clusterTrustBundle and podCertificate projections), csi,
//     image, ephemeral (the claim template's metadata and PersistentVolumeClaimSpec,
//     and the name of the claim it creates) and the deprecated in-tree sources
//     (gitRepo, gcePersistentDisk, awsElasticBlockStore, nfs, iscsi, glusterfs,
//     flocker, rbd, cinder, cephfs, quobyte, fc, flexVolume, azureFile,
//     vsphereVolume, photonPersistentDisk, portworxVolume, azureDisk, storageos,
//     scaleIO);
//   - k8s.io/kubernetes pkg/apis/core/v1 zz_generated.validations.go: the declarative
//     rules the server enforces for pods (spec.evictionResponders), appended after
//     the hand-written errors as rest.ValidateCreate and ValidateUpdate append them;
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
// Upstream ranges over Go maps (labels, annotations, node selectors, resource lists,
// flex volume options, user annotations of a pod certificate, the scheduling gates an
// update adds), so the order of those errors changes from run to run; podlife visits
// map keys in sorted order and is otherwise in upstream's order. Compare the errors
// upstream places by map iteration as a multiset, the others in order (the
// conformance tests do).
//
// Upstream validates the internal core types, so where it reports a field's value
// as the bad value, that value has the internal type (for example core.RestartPolicy,
// *core.Signal, *core.SecurityContext). podlife reports the v1 type of the same
// field (corev1.RestartPolicy, *corev1.Signal) with the same value; numeric widths
// (int32, int64, int) are those upstream uses. Where the value is a struct or a list
// of structs, the two types would print differently (field.Error prints such a value
// as JSON, and the internal types carry no JSON tags), so podlife reports it wrapped
// in InternalForm, which prints as upstream's: Error() is upstream's text to the byte.
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
//     the status is reset by PrepareForCreate; the evictionResponders rules (the
//     field needs the EvictionRequestAPI gate) are podlife's too.
//
// A pod with only metadata.generateName creates its ephemeral volumes' claims
// under the generated name, so that name also shows in the detail of an ephemeral
// volume's claim-name error, and a persistentVolumeClaim source naming such a claim
// is refused only when it names podlife's suffix.
//
// Admission (mutating and validating webhooks, NamespaceLifecycle, quotas, pod
// security) is not part of it.
//
// # The update path
//
// ValidatePodUpdate answers as PUT /api/v1/namespaces/NS/pods/NAME does, NS and
// NAME being those of the stored pod (oldPod), newPod the body:
//   - k8s.io/apiserver pkg/endpoints/handlers/update.go: the request namespace
//     (a newPod without namespace takes oldPod's; another namespace is refused) and
//     checkName (another name, or none, is refused);
//   - pkg/registry/generic/registry/store.go Update: the key of a name that cannot
//     be a URL path segment is refused; a uid in newPod is a precondition (another
//     uid conflicts); a resourceVersion other than oldPod's conflicts, none (or "0")
//     takes oldPod's, as pods allow unconditional updates, and one that is not a
//     number fails with a 500;
//   - pkg/registry/rest/update.go BeforeUpdate: the strategy's PrepareForUpdate, the
//     metadata carried over, then rest.ValidateUpdate: the registry's common metadata
//     checks, the strategy's ValidateUpdate, the declarative rules, one error per
//     message.
//
// A refused request gets one status (400, 409 or 500) and a message, not a list of
// causes. ValidatePodUpdate (like ValidatePodCreate for a namespace conflict) still
// returns a field.ErrorList: exactly one error, an Invalid on the metadata field at
// issue (metadata.namespace, metadata.name, metadata.uid, metadata.resourceVersion)
// whose bad value is newPod's value of that field and whose detail is the server's
// message (an Internal error for the 500). RefusalOf recognises such a result and
// returns the status the server answers (Refusal: code, reason, message).
//
// A stored pod always has a name, a namespace, a uid and a resourceVersion; where
// oldPod lacks one, the check that needs it is skipped.
package validation
