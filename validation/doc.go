// Package validation reports the errors the Kubernetes v1.37.2 API server returns
// for a pod, and for every object that holds one (see "Workloads" below), offline
// and error for error: the same field.ErrorList entries (type, field path, bad value
// and detail) as upstream.
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
// CreateWarnings (and ValidateStream, with each result's Warnings) answers with the
// warnings the server sends on create: k8s.io/apiserver pkg/endpoints/handlers/rest.go
// (dedupOwnerReferencesAndAddWarning: repeated owner references, also dropped before
// validation, as the handler drops them), the pod strategy's PrepareForCreate
// (applyAppArmorVersionSkew), each registry strategy's WarningsOnCreate with
// k8s.io/kubernetes pkg/api/pod/warnings.go, pkg/api/node, pkg/api/job and
// pkg/api/persistentvolumeclaim, through the server's warning recorder
// (pkg/endpoints/filters/warning.go). Upstream compares every pair of ports and of
// a volume's paths; podlife indexes them, so the work grows with the items and the
// warnings found, and it stops once the recorder would drop the rest. UpdateWarnings
// answers with those of an update: the update handler's (handlers/update.go, the same
// owner references, after its own refusals and before the store's) and each registry
// strategy's WarningsOnUpdate, which warns about the template only when
// PrepareForUpdate moved the generation on (and, for a ReplicationController, about
// the stored template: upstream passes the two templates the other way round).
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
// causes. ValidatePodUpdate (like ValidatePodCreate for a namespace conflict, and
// ValidateObjectCreate and ValidateObjectUpdate for every kind) still returns a
// field.ErrorList: exactly one error, an Invalid on the metadata field at issue
// (metadata.namespace, metadata.name, metadata.uid, metadata.resourceVersion)
// whose bad value is newPod's value of that field and whose detail is the server's
// message (an Internal error for the 500). RefusalOf recognises such a result and
// returns the status the server answers (Refusal: code, reason, message).
//
// A stored pod always has a name, a namespace, a uid and a resourceVersion; where
// oldPod lacks one, the check that needs it is skipped.
//
// # Manifest streams
//
// ValidateStream reads a YAML or JSON stream as `kubectl create -f` does and answers,
// object by object, as kubectl and a default v1.37.2 server would: kubectl's
// client-side checks (encoding, document splitting, apiVersion and kind, the REST
// mapping of the kinds the server serves, Lists expanded, the OpenAPI validation kubectl
// itself applies to Lists), the server's strict decoding (unknown fields, wrong types,
// the request size limit) and the create path (ValidateObjectCreate). kubectl clears
// an object's resourceVersion before it sends it, so an object saved with kubectl get
// -o yaml is answered as a new one; as against a cluster holding none of the objects
// to begin with, the second object of one name is the storage's 409 AlreadyExists
// (StreamOptions.Created carries the created names from one file to the next); a kind
// served only for reading (ComponentStatus) is the router's 405. With
// StreamOptions.Stored (a StoredObjects read from kubectl get -o yaml's output, or
// from the manifests that created the objects), an object the cluster holds is
// answered as kubectl replace -f answers it: the PUT of the object as written to the
// stored one (ValidateObjectUpdate, UpdateWarnings; conformance/workloads and
// conformance/validation compare it with the real update handler). With
// StreamOptions.Apply (validation/apply's Patcher) the stream is answered as kubectl
// apply -f sends it (k8s.io/kubectl pkg/cmd/apply, client-side apply): creates carry
// the last-applied-configuration annotation, and an object the cluster holds is the
// three-way strategic merge patch kubectl computes, applied as the patch handler
// applies it (k8s.io/apiserver pkg/endpoints/handlers/patch.go) and validated as an
// update (conformance/workloads runs kubectl's Patcher against the real handler).
// kubectl's --validate
// is StreamOptions.FieldValidation (strict by default; warn, whose server warnings
// the results carry; ignore) and its --namespace StreamOptions.Namespace. Objects of
// kinds that hold no pod are not validated; with StreamOptions.Scheme
// (validation/apischeme builds one of every served kind) they are decoded as the
// server decodes them. StreamOptions.CustomResources (ReadCustomResources of the
// cluster's CustomResourceDefinitions) are served too: kubectl maps and sends their
// objects, which are not checked. Each result gives the
// document, the file line and, through FieldLine, the line of each field an error
// names. conformance/decoding compares it with kubectl's own builder and the create
// handler's decoding on generated files, on hand-written hostile files and under a
// fuzzer, and end to end (decoding, defaults and validation) with the server's whole
// create on realistic files modelled on public documentation and projects
// (testdata/manifests) and on generated ones, under six gate configurations and with
// those kubectl flags. Duplicate keys are reported as warnings: kubectl resolves them
// silently in favour of the last one, so the server never sees them (a key written
// after a merge key that brought it in is YAML's override, not a repeat).
// FeatureGateHints names the feature gates whose absence makes an error. Beyond what
// kubectl says, a result offers a linter's aids: SourceLine, the text of a line;
// SuggestField, the field an unknown one was meant to be; and TypeErrorField, the
// value a type error is about, with the list indices and map keys the server's message
// leaves out.
//
// # Workloads
//
// ValidateObjectCreate and ValidateObjectUpdate take any kind that holds a pod (v1
// Pod, PodTemplate and ReplicationController; apps/v1 Deployment, ReplicaSet,
// StatefulSet and DaemonSet; batch/v1 Job and CronJob; SupportedKinds lists them)
// and answer as a POST or PUT of the object does. Each kind follows the server's
// steps for it, on a private copy:
//   - the decoder: k8s.io/kubernetes pkg/apis/{apps,batch,core}/v1 defaults.go and
//     the generated defaulters (replicas, strategies and their percentages, revision
//     and history limits, a Job's completions, parallelism, backoff limits,
//     completion mode and pod replacement policy, a CronJob's concurrency policy and
//     suspend, the ReplicationController's selector and labels taken from its
//     template, the template's PodSpec defaults), then the conversion to the internal
//     type (below);
//   - the store and rest.BeforeCreate/BeforeUpdate: the request namespace, the
//     generated name, the uid (GeneratedUID), and on update the stored metadata
//     (generation, uid, creation and deletion fields) with the namespace of the
//     stored object;
//   - the registry strategy (pkg/registry/apps/*/strategy.go,
//     pkg/registry/batch/{job,cronjob}/strategy.go,
//     pkg/registry/core/{podtemplate,replicationcontroller}/strategy.go):
//     PrepareForCreate/PrepareForUpdate (status reset or kept, generation,
//     DropDisabledTemplateFields and each kind's disabled fields, a Job's generated
//     selector and controller-uid / batch.kubernetes.io/job-name labels, the
//     Job's and the ReplicationController's declarative-validation options), then
//     Validate/ValidateUpdate: pkg/apis/apps/validation, pkg/apis/batch/validation
//     (schedules parsed by github.com/robfig/cron/v3 as upstream parses them,
//     time zones, the 52-character CronJob name) and ValidateReplicationController
//     and ValidatePodTemplate in pkg/apis/core/validation, with the pod validation
//     options the strategy derives from the template (and the stored template);
//   - rest.ValidateCreate/ValidateUpdate: the generic metadata checks and
//     declarative validation (one error per message; the rules it enforces itself
//     while DeclarativeValidationBeta is on, the ReplicationController's name,
//     replicas and minReadySeconds and the CronJob's schedule, report the
//     declarative error in place of the hand-written one).
//
// # Conversion
//
// Upstream validates the internal types, so a few v1 values only show through the
// conversion:
//   - a Deployment's deprecated deprecated.deployment.rollback.to annotation becomes
//     spec.rollbackTo and a DaemonSet's deprecated.daemonset.template.generation
//     spec.templateGeneration; a value that does not parse as an integer makes the
//     server refuse the body as a Bad Request, reported here as the only error, an
//     Invalid on that annotation whose detail is the server's message;
//   - a Job's template labels and its own labels may be one map after the v1
//     defaults (the Job copies its template's labels when it has none), so the labels
//     the Job registry adds to the template show in the Job's too, as upstream;
//   - the volumes ValidateStatefulSetSpec adds for volumeClaimTemplates come first,
//     in the order of volumeClaimTemplates; upstream collects them in a map, so with
//     several claims the order of errors about them may differ from run to run;
//   - a bad value that is a struct (a strategy, a success policy, a claim
//     template, a whole pod template) is upstream's internal type, which carries no
//     JSON tags; podlife wraps the v1 value in InternalForm, which prints as
//     upstream prints the internal value (every field under its Go name, the
//     rolling-update parameters that are values in the internal API as values), so
//     that Error() is upstream's text.
//
// An error's BadValue may refer to a part of the object passed in (a container's
// securityContext, a resource list), as upstream's errors refer to the object the server
// validates: podlife never modifies its input, but a caller that keeps the errors and
// then modifies the object sees their text follow it; copy the object first.
//
// A request upstream fails with a panic in v1.37.2 (a Job template in Indexed
// completion mode without completions whose successPolicy rule has succeededIndexes
// or succeededCount) gets one field.ErrorTypeInternal error (ServerPanicDetail).
// ValidateObjectUpdate takes the request URL to be oldObj's and refuses, as the
// update handler and the generic registry do for every kind, a body that names
// another namespace or object, another uid or a stale resourceVersion (see "The
// update path" and RefusalOf; the Conflict message names the kind's resource, such
// as deployments.apps, and its storage key). Status subresources (PUT .../status)
// are not covered.
//
// The declarative rules that reach into a workload's pod template
// (spec.evictionResponders) and a Job's alpha spec.scheduling (gate WorkloadWithJob:
// forbidden without it, neither set nor cleared on update, the building blocks of
// k8s.io/api/scheduling/v1alpha3, whose generated rules podlife calls) are standard
// rules, always enforced, reported after the hand-written errors; the hand-written
// checks of spec.scheduling are the gang's minCount, the basic policy's refusal of
// the disruption mode all, and the policy variant that may not change.
package validation
