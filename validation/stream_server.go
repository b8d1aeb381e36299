package validation

import (
	"fmt"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
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

// serverDecoder decodes a create request's body as kube-apiserver does
// (k8s.io/apiserver pkg/endpoints/handlers/create.go): with the negotiated
// serializer's StrictSerializer for fieldValidation=Strict and Warn, its Serializer
// for Ignore (runtime/serializer/json, strict mode or not).
type serverDecoder struct {
	strict, lax *jsonserializer.Serializer
	// scheme holds the kinds the serializers decode.
	scheme *runtime.Scheme
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
	return serverDecoder{
		strict: jsonserializer.NewSerializerWithOptions(jsonserializer.DefaultMetaFactory, s, s, jsonserializer.SerializerOptions{Strict: true}),
		lax:    jsonserializer.NewSerializerWithOptions(jsonserializer.DefaultMetaFactory, s, s, jsonserializer.SerializerOptions{}),
		scheme: s,
	}
}

// decode decodes body posted to the resource of kind resource (the URL's, with its
// group and version) with the request's fieldValidation directive, and returns the
// typed object and the server's warnings, or the server's error: 413 for a body over
// the limit, 400 BadRequest for a decoding error, strict field errors included for
// Strict, in the words of handlers/rest.go transformDecodeError. For Warn, the strict
// field errors are the warnings instead (addStrictDecodingWarnings).
func (d serverDecoder) decode(body []byte, resource schema.GroupVersionKind, directive string) (runtime.Object, []string, error) {
	if len(body) > maxRequestBodyBytes {
		return nil, nil, apierrors.NewRequestEntityTooLargeError(fmt.Sprintf("limit is %d", maxRequestBodyBytes))
	}
	decoder := d.strict
	if directive == metav1.FieldValidationIgnore {
		decoder = d.lax
	}
	obj, gvk, err := decoder.Decode(body, &resource, nil)
	strictErr, strict := runtime.AsStrictDecodingError(err)
	if err == nil || strict && obj != nil {
		// The codec converts the object to the internal version before it reports
		// strict field errors; a conversion that fails is the answer, with no strict
		// error nor warning (apimachinery runtime/serializer/versioning
		// codec.Decode).
		if errs := conversionErrors(obj); len(errs) > 0 {
			return nil, nil, apierrors.NewBadRequest(errs[0].Detail)
		}
	}
	if err == nil {
		return obj, nil, nil
	}
	if strict && obj != nil && directive == metav1.FieldValidationWarn {
		return obj, strictDecodingWarnings(strictErr.Errors()), nil
	}
	if runtime.IsNotRegisteredError(err) && gvk != nil {
		err = runtime.NewNotRegisteredErrForKind(legacySchemeName, *gvk)
	}
	if gvk == nil || gvk.Kind == "" {
		return nil, nil, apierrors.NewBadRequest(fmt.Sprintf("the object provided is unrecognized (must be of type %s): %v (%s)", resource.Kind, err, summarizeData(body, 30)))
	}
	return nil, nil, apierrors.NewBadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: %v", gvk.Kind, gvk.Version, resource.Kind, err))
}

// The prefixes of go-yaml's unmarshal errors that handlers/rest.go parseYAMLWarnings
// splits into one warning a line.
const (
	yamlWarningsShortPrefix = "yaml: unmarshal errors:\n"
	yamlWarningsLongPrefix  = "error converting YAML to JSON: yaml: unmarshal errors:\n"
)

// strictDecodingWarnings are the warnings the server records for the strict field
// errors of a body decoded with fieldValidation=Warn (handlers/rest.go
// addStrictDecodingWarnings and parseYAMLWarnings), in the order it records them.
func strictDecodingWarnings(errs []error) []string {
	var texts []string
	for _, e := range errs {
		msg := e.Error()
		rest, ok := strings.CutPrefix(msg, yamlWarningsShortPrefix)
		if !ok {
			rest, ok = strings.CutPrefix(msg, yamlWarningsLongPrefix)
		}
		if !ok {
			texts = append(texts, msg)
			continue
		}
		for _, line := range strings.Split(rest, "\n") {
			texts = append(texts, strings.TrimSpace(line))
		}
	}
	return texts
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
