package validation

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// A request the API server refuses before it validates the object gets one status
// (400 Bad Request, 409 Conflict, 500) with a message, not a 422 Invalid with a list
// of causes. ValidatePodCreate and ValidatePodUpdate keep their field.ErrorList
// result and report such a refusal as a list of exactly one error: on the metadata
// field the refusal is about, with the object's value of that field as the bad value
// and the server's message as the detail (an Internal error for a 500). RefusalOf
// tells these lists apart and returns the status the server answers.

// Refusal is the status the API server answers a request it refuses before
// validation.
type Refusal struct {
	// Code is the HTTP status code: 400, 409 or 500.
	Code int32
	// Reason is the status reason: BadRequest, Conflict or Unknown (for a 500).
	Reason metav1.StatusReason
	// Message is the status message, as the server writes it.
	Message string
}

// RefusalOf reports whether errs, a result of ValidatePodCreate or ValidatePodUpdate,
// is a refusal rather than validation errors, and if so returns the server's status.
func RefusalOf(errs field.ErrorList) (Refusal, bool) {
	if len(errs) != 1 {
		return Refusal{}, false
	}
	e := errs[0]
	switch {
	case e.Type == field.ErrorTypeInvalid && e.Field == "metadata.namespace" && e.Detail == NamespaceMismatchDetail,
		e.Type == field.ErrorTypeInvalid && e.Field == "metadata.name" && (strings.HasPrefix(e.Detail, "the name of the object (") || strings.HasPrefix(e.Detail, "Name parameter invalid: ")):
		return Refusal{Code: http.StatusBadRequest, Reason: metav1.StatusReasonBadRequest, Message: e.Detail}, true
	case e.Type == field.ErrorTypeInvalid && (e.Field == "metadata.uid" || e.Field == "metadata.resourceVersion") && strings.HasPrefix(e.Detail, conflictPrefix):
		return Refusal{Code: http.StatusConflict, Reason: metav1.StatusReasonConflict, Message: e.Detail}, true
	case e.Type == field.ErrorTypeInternal && e.Field == "metadata.resourceVersion":
		return Refusal{Code: http.StatusInternalServerError, Reason: metav1.StatusReasonUnknown, Message: e.Detail}, true
	}
	return Refusal{}, false
}

const (
	// conflictPrefix starts every Conflict message of the pod registry
	// (k8s.io/apimachinery pkg/api/errors NewConflict).
	conflictPrefix = "Operation cannot be fulfilled on pods "
	// optimisticLockMsg is k8s.io/apiserver pkg/registry/generic/registry
	// OptimisticLockErrorMsg.
	optimisticLockMsg = "the object has been modified; please apply your changes to the latest version and try again"
	// etcdPrefix is kube-apiserver's default --etcd-prefix, which shows in the key of
	// a storage precondition failure.
	etcdPrefix = "/registry"
)

// refuseUpdate returns the refusal of PUT /api/v1/namespaces/NS/pods/NAME (NS and NAME
// those of the stored old pod) with newPod as the body, nil when the server goes on
// to validate. It follows k8s.io/apiserver pkg/endpoints/handlers/update.go (the
// request namespace: EnsureObjectNamespaceMatchesRequestNamespace; checkName) and
// pkg/registry/generic/registry/store.go Update (the key of a name that cannot be a
// URL path segment, the uid precondition the new object's
// uid sets, then the resourceVersion: none or "0" takes the stored one, as pods allow
// unconditional updates; another one conflicts).
//
// A stored pod always has a namespace, a name, a uid and a resourceVersion; where
// old lacks one (or has a resourceVersion that is not a positive number), the check
// that needs it is skipped.
//
// It also returns the namespace and resourceVersion the new object has from here on
// (filled in from the request and the stored pod).
func refuseUpdate(newPod, old *corev1.Pod) (errs field.ErrorList, ns, rv string) {
	ns, rv = newPod.Namespace, newPod.ResourceVersion
	meta := newPath("metadata")
	if old.Namespace != "" {
		switch ns {
		case old.Namespace:
		case "":
			ns = old.Namespace
		default:
			return field.ErrorList{field.Invalid(meta.Child("namespace").P(), newPod.Namespace, NamespaceMismatchDetail)}, ns, rv
		}
	}
	if old.Name != "" {
		if newPod.Name == "" {
			return field.ErrorList{field.Invalid(meta.Child("name").P(), newPod.Name,
				"the name of the object ("+old.Name+" based on URL) was undeterminable: name must be provided")}, ns, rv
		}
		if newPod.Name != old.Name {
			return field.ErrorList{field.Invalid(meta.Child("name").P(), newPod.Name,
				"the name of the object ("+newPod.Name+") does not match the name on the URL ("+old.Name+")")}, ns, rv
		}
		// The store's key function refuses a name that cannot be a path segment.
		if msgs := pathSegmentName(old.Name, false); len(msgs) != 0 {
			return field.ErrorList{field.Invalid(meta.Child("name").P(), newPod.Name,
				"Name parameter invalid: "+strconv.Quote(old.Name)+": "+strings.Join(msgs, ";"))}, ns, rv
		}
	}
	conflict := func(name, value, msg string) field.ErrorList {
		return field.ErrorList{field.Invalid(meta.Child(name).P(), value, conflictPrefix+strconv.Quote(old.Name)+": "+msg)}
	}
	if newPod.UID != "" && old.UID != "" && newPod.UID != old.UID {
		key := etcdPrefix + "/pods/" + ns + "/" + old.Name
		return conflict("uid", string(newPod.UID), "StorageError: invalid object, Code: 4, Key: "+key+
			", ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: "+string(newPod.UID)+
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
