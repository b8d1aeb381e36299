package validation

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	jsonserializer "k8s.io/apimachinery/pkg/runtime/serializer/json"
)

// maxRequestBodyBytes is kube-apiserver's default limit on a request body
// (k8s.io/apiserver pkg/server/config.go MaxRequestBodyBytes).
const maxRequestBodyBytes = 3 * 1024 * 1024

// legacySchemeName is the name of the scheme a v1.37.2 kube-apiserver decodes the
// built-in kinds with, as its messages quote it: apimachinery names a scheme after the
// line that creates it (k8s.io/kubernetes pkg/api/legacyscheme/scheme.go line 30),
// trimmed up to "pkg/" as release binaries are built with -trimpath
// (hack/lib/golang.sh). conformance/decoding checks the line.
const legacySchemeName = "pkg/api/legacyscheme/scheme.go:30"

// podKinds are the kinds that hold a pod, which ValidateObjectCreate checks.
var podKinds = map[schema.GroupKind]bool{
	{Group: "", Kind: "Pod"}:                   true,
	{Group: "", Kind: "PodTemplate"}:           true,
	{Group: "", Kind: "ReplicationController"}: true,
	{Group: "apps", Kind: "Deployment"}:        true,
	{Group: "apps", Kind: "ReplicaSet"}:        true,
	{Group: "apps", Kind: "StatefulSet"}:       true,
	{Group: "apps", Kind: "DaemonSet"}:         true,
	{Group: "batch", Kind: "Job"}:              true,
	{Group: "batch", Kind: "CronJob"}:          true,
}

// serverDecoder decodes a create request's body as kube-apiserver does with
// fieldValidation=Strict (k8s.io/apiserver pkg/endpoints/handlers/create.go: the
// negotiated serializer's StrictSerializer; runtime/serializer/json in strict mode).
type serverDecoder struct {
	strict *jsonserializer.Serializer
}

// newServerDecoder builds a decoder for the v1 kinds that hold a pod.
func newServerDecoder() serverDecoder {
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{corev1.AddToScheme, appsv1.AddToScheme, batchv1.AddToScheme} {
		if err := add(s); err != nil {
			panic(err) // the k8s.io/api registrations cannot fail
		}
	}
	return newSchemeDecoder(s)
}

// newSchemeDecoder builds a decoder for the kinds of a scheme.
func newSchemeDecoder(s *runtime.Scheme) serverDecoder {
	return serverDecoder{strict: jsonserializer.NewSerializerWithOptions(jsonserializer.DefaultMetaFactory, s, s,
		jsonserializer.SerializerOptions{Strict: true})}
}

// decode decodes body posted to the resource of kind resource (the URL's, with its
// group and version) and returns the typed object or the server's error: 413 for a
// body over the limit, 400 BadRequest for a decoding error, strict field errors
// included, in the words of handlers/rest.go transformDecodeError.
func (d serverDecoder) decode(body []byte, resource schema.GroupVersionKind) (runtime.Object, error) {
	if len(body) > maxRequestBodyBytes {
		return nil, apierrors.NewRequestEntityTooLargeError(fmt.Sprintf("limit is %d", maxRequestBodyBytes))
	}
	obj, gvk, err := d.strict.Decode(body, &resource, nil)
	if err == nil {
		return obj, nil
	}
	if runtime.IsNotRegisteredError(err) && gvk != nil {
		err = runtime.NewNotRegisteredErrForKind(legacySchemeName, *gvk)
	}
	if gvk == nil || gvk.Kind == "" {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("the object provided is unrecognized (must be of type %s): %v (%s)", resource.Kind, err, summarizeData(body, 30)))
	}
	return nil, apierrors.NewBadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: %v", gvk.Kind, gvk.Version, resource.Kind, err))
}

// summarizeData mirrors handlers/rest.go summarizeData: the body, cut to maxLength
// bytes (hexadecimal unless it starts with '{'), " ..." marking a cut.
func summarizeData(data []byte, maxLength int) string {
	switch {
	case len(data) == 0:
		return "<empty>"
	case data[0] == '{':
		if len(data) > maxLength {
			return string(data[:maxLength]) + " ..."
		}
		return string(data)
	default:
		if len(data) > maxLength {
			return fmt.Sprintf("%x ...", data[:maxLength])
		}
		return fmt.Sprintf("%x", data)
	}
}
