package validation

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// A request the API server refuses before it validates the object gets one status
// (400 Bad Request, 409 Conflict, 500) with a message, not a 422 Invalid with a list
// of causes. ValidatePodCreate, ValidatePodUpdate, ValidateObjectCreate and
// ValidateObjectUpdate keep their field.ErrorList result and report such a refusal
// as a list of exactly one error: on the field the refusal is about (a metadata
// field, or the annotation a conversion failed to read), with the object's value of
// that field as the bad value and the server's message as the detail (an Internal
// error for a 500). RefusalOf tells these lists apart and returns the status the
// server answers.

// Refusal is the status the API server answers a request it refuses before
// validation.
type Refusal struct {
	// Code is the HTTP status code: 400, 409 or 500.
	Code int32
	// Reason is the status reason: BadRequest, Conflict, Unknown (for the 500 of a
	// resourceVersion that is not a number) or InternalError (for a request whose
	// handling panicked: the panic filter writes ServerPanicDetail as plain text,
	// which client-go would read as an InternalError; see ServerPanicDetail for why
	// the response never arrives).
	Reason metav1.StatusReason
	// Message is the status message, as the server writes it.
	Message string
}

// RefusalOf reports whether errs, a result of ValidatePodCreate, ValidatePodUpdate,
// ValidateObjectCreate or ValidateObjectUpdate, is a refusal rather than validation
// errors, and if so returns the server's status. It recognises, for every kind:
//
//   - 400 Bad Request: a namespace that conflicts with the request's
//     (NamespaceMismatchDetail, on create and update); on update, a new object that
//     names another object than the stored one, or none, and a stored name that
//     cannot be a URL path segment; a body the decoder cannot convert (a Deployment's
//     deprecated.deployment.rollback.to or a DaemonSet's
//     deprecated.daemonset.template.generation annotation that is not an integer);
//   - 409 Conflict, on update: a uid other than the stored object's, a
//     resourceVersion other than the stored one; the message names the resource as
//     the server does ("Operation cannot be fulfilled on deployments.apps \"web\":
//     ...");
//   - 500, on update: a resourceVersion that is not a number; and a request the
//     server fails with a panic (ServerPanicDetail).
func RefusalOf(errs field.ErrorList) (Refusal, bool) {
	if len(errs) != 1 {
		return Refusal{}, false
	}
	e := errs[0]
	switch {
	case e.Type == field.ErrorTypeInvalid && e.Field == "metadata.namespace" && e.Detail == NamespaceMismatchDetail,
		e.Type == field.ErrorTypeInvalid && e.Field == "metadata.name" && (strings.HasPrefix(e.Detail, "the name of the object (") || strings.HasPrefix(e.Detail, "Name parameter invalid: ")),
		e.Type == field.ErrorTypeInvalid && strings.HasPrefix(e.Field, "metadata.annotations[") && strings.Contains(e.Detail, decodeErrorInfix):
		return Refusal{Code: http.StatusBadRequest, Reason: metav1.StatusReasonBadRequest, Message: e.Detail}, true
	case e.Type == field.ErrorTypeInvalid && (e.Field == "metadata.uid" || e.Field == "metadata.resourceVersion") && strings.HasPrefix(e.Detail, conflictPrefix):
		return Refusal{Code: http.StatusConflict, Reason: metav1.StatusReasonConflict, Message: e.Detail}, true
	case e.Type == field.ErrorTypeInternal && e.Field == "metadata.resourceVersion":
		return Refusal{Code: http.StatusInternalServerError, Reason: metav1.StatusReasonUnknown, Message: e.Detail}, true
	case e.Type == field.ErrorTypeInternal && e.Field == (*field.Path)(nil).String() && e.Detail == ServerPanicDetail:
		return Refusal{Code: http.StatusInternalServerError, Reason: metav1.StatusReasonInternalError, Message: e.Detail}, true
	}
	return Refusal{}, false
}

// panicked reports whether the refusal is that of a request that panics the server,
// which sends no response: not the status, nor the warnings recorded before.
func (r Refusal) panicked() bool {
	return r.Reason == metav1.StatusReasonInternalError && r.Message == ServerPanicDetail
}

// statusError is the refusal as the status error a client reads after a request
// (verb: a POST to the resource gr, or a PUT to its object name) for the object
// named name: a Conflict names the object in its details, as apierrors.NewConflict
// does; a panic is written in plain text, which client-go reads as a generic server
// response naming the request's URL (k8s.io/client-go rest
// newUnstructuredResponseError) — were it delivered (see ServerPanicDetail).
func (r Refusal) statusError(verb string, gr schema.GroupResource, name string) *apierrors.StatusError {
	if r.panicked() {
		urlName := name
		if verb == http.MethodPost {
			urlName = ""
		}
		return apierrors.NewGenericServerResponse(http.StatusInternalServerError, verb, gr, urlName, ServerPanicDetail, 0, true)
	}
	st := metav1.Status{Status: metav1.StatusFailure, Code: r.Code, Reason: r.Reason, Message: r.Message}
	if r.Reason == metav1.StatusReasonConflict {
		st.Details = &metav1.StatusDetails{Name: name, Group: gr.Group, Kind: gr.Resource}
	}
	return &apierrors.StatusError{ErrStatus: st}
}

const (
	// conflictPrefix starts every Conflict message (k8s.io/apimachinery
	// pkg/api/errors NewConflict).
	conflictPrefix = "Operation cannot be fulfilled on "
	// optimisticLockMsg is k8s.io/apiserver pkg/registry/generic/registry
	// OptimisticLockErrorMsg.
	optimisticLockMsg = "the object has been modified; please apply your changes to the latest version and try again"
	// etcdPrefix is kube-apiserver's default --etcd-prefix, which shows in the key of
	// a storage precondition failure.
	etcdPrefix = "/registry"
	// decodeErrorInfix is in the message of every body the decoder cannot convert
	// (k8s.io/apiserver pkg/endpoints/handlers transformDecodeError).
	decodeErrorInfix = ` in version "v1" cannot be handled as a `
)

// storedResource is how the server stores a kind: the resource its Conflict
// messages name (schema.GroupResource.String) and the prefix of its storage keys
// (kube-apiserver's SpecialDefaultResourcePrefixes, else the resource).
type storedResource struct{ qualified, keyPrefix string }

var (
	podsResource                   = storedResource{"pods", "pods"}
	podTemplatesResource           = storedResource{"podtemplates", "podtemplates"}
	replicationControllersResource = storedResource{"replicationcontrollers", "controllers"}
	deploymentsResource            = storedResource{"deployments.apps", "deployments"}
	replicaSetsResource            = storedResource{"replicasets.apps", "replicasets"}
	statefulSetsResource           = storedResource{"statefulsets.apps", "statefulsets"}
	daemonSetsResource             = storedResource{"daemonsets.apps", "daemonsets"}
	jobsResource                   = storedResource{"jobs.batch", "jobs"}
	cronJobsResource               = storedResource{"cronjobs.batch", "cronjobs"}
)

// refuseUpdate returns the refusal of a PUT to the stored object old (the URL's
// namespace and name are old's) with newMeta's object as the body, nil when the
// server goes on to validate. It follows k8s.io/apiserver
// pkg/endpoints/handlers/update.go (the request namespace:
// EnsureObjectNamespaceMatchesRequestNamespace; checkName) and
// pkg/registry/generic/registry/store.go Update (the key of a name that cannot be a
// URL path segment, the uid precondition the new object's uid sets, then the
// resourceVersion: none or "0" takes the stored one, as every kind podlife validates
// allows unconditional updates; another one conflicts).
//
// A stored object always has a namespace, a name, a uid and a resourceVersion; where
// old lacks one (or has a resourceVersion that is not a positive number), the check
// that needs it is skipped.
//
// It also returns the namespace and resourceVersion the new object has from here on
// (filled in from the request and the stored object).
//
// Between the handler's refusals and the store's, the handler drops repeated owner
// references (dedupOwnerReferences) with its warning: refuseUpdate does that to
// *refs, recording the warning in w, when the handler gets that far.
func refuseUpdate(newMeta, old *metav1.ObjectMeta, res storedResource, refs *[]metav1.OwnerReference, w *warningRecorder, patch bool) (errs field.ErrorList, ns, rv string) {
	ns, rv = newMeta.Namespace, newMeta.ResourceVersion
	meta := newPath("metadata")
	if old.Namespace != "" {
		switch ns {
		case old.Namespace:
		case "":
			ns = old.Namespace
		default:
			return field.ErrorList{invalidAt(meta.Child("namespace"), newMeta.Namespace, NamespaceMismatchDetail)}, ns, rv
		}
	}
	if old.Name != "" {
		if newMeta.Name == "" {
			return field.ErrorList{invalidAt(meta.Child("name"), newMeta.Name,
				"the name of the object ("+old.Name+" based on URL) was undeterminable: name must be provided")}, ns, rv
		}
		if newMeta.Name != old.Name {
			return field.ErrorList{invalidAt(meta.Child("name"), newMeta.Name,
				"the name of the object ("+newMeta.Name+") does not match the name on the URL ("+old.Name+")")}, ns, rv
		}
	}
	*refs = dedupOwnerReferences(*refs, w)
	if old.Name != "" {
		// The store's key function refuses a name that cannot be a path segment.
		if msgs := pathSegmentName(old.Name, false); len(msgs) != 0 {
			return field.ErrorList{invalidAt(meta.Child("name"), newMeta.Name,
				"Name parameter invalid: "+strconv.Quote(old.Name)+": "+strings.Join(msgs, ";"))}, ns, rv
		}
	}
	conflict := func(name, value, msg string) field.ErrorList {
		return field.ErrorList{invalidAt(meta.Child(name), value, conflictPrefix+res.qualified+" "+strconv.Quote(old.Name)+": "+msg)}
	}
	if !patch && newMeta.UID != "" && old.UID != "" && newMeta.UID != old.UID {
		key := etcdPrefix + "/" + res.keyPrefix + "/" + ns + "/" + old.Name
		return conflict("uid", string(newMeta.UID), "StorageError: invalid object, Code: 4, Key: "+key+
			", ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: "+string(newMeta.UID)+
			", UID in object meta: "+string(old.UID)), ns, rv
	}
	stored, err := strconv.ParseUint(old.ResourceVersion, 10, 64)
	if err != nil || stored == 0 {
		return nil, ns, rv
	}
	sent := uint64(0)
	if rv != "" {
		sent, err = strconv.ParseUint(rv, 10, 64)
		if err != nil {
			// Not an API status: the server answers 500 with the parse error.
			return field.ErrorList{field.InternalError(meta.Child("resourceVersion").P(), errors.New(err.Error()))}, ns, rv
		}
	}
	switch {
	case sent == 0:
		rv = strconv.FormatUint(stored, 10)
	case sent != stored:
		return conflict("resourceVersion", rv, optimisticLockMsg), ns, rv
	}
	return nil, ns, rv
}

// refuseObjectUpdate is refuseUpdate on a private copy of the new object's metadata:
// the refusal, else nil with the namespace and resourceVersion filled in.
func refuseObjectUpdate(meta, old *metav1.ObjectMeta, res storedResource, w *warningRecorder, patch bool) field.ErrorList {
	errs, ns, rv := refuseUpdate(meta, old, res, &meta.OwnerReferences, w, patch)
	if errs != nil {
		return errs
	}
	meta.Namespace, meta.ResourceVersion = ns, rv
	return nil
}
