package validation

import (
	"errors"
	"fmt"
	"strconv"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured/unstructuredscheme"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// KubectlError is an error kubectl itself reports for a document or an object, before
// anything is sent to the API server, in kubectl's words (k8s.io/cli-runtime
// pkg/resource and k8s.io/kubectl pkg/validation, v0.37.2).
type KubectlError struct {
	// Message is the error as kubectl prints it after "error: ".
	Message string
	// Stops is true when kubectl stops reading the file at this document: a document
	// it cannot parse, or one that fails the client-side checks of its default
	// --validate=strict. kubectl then sends none of the later documents of the file
	// (ValidateStream still reports them).
	Stops bool
	// Line is the 1-based file line the error points at, 0 when it names none.
	Line int
}

// Error returns Message.
func (e *KubectlError) Error() string { return e.Message }

// stopValidateMessage ends kubectl's client-side validation errors
// (cli-runtime pkg/resource/visitor.go).
const stopValidateMessage = "if you choose to ignore these errors, turn validation off with --validate=false"

// schemaError is kubectl's error for a document that fails the client-side checks.
func schemaError(source string, err error) *KubectlError {
	return &KubectlError{
		Message: fmt.Sprintf("error validating %q: error validating data: %v; %s", source, err, stopValidateMessage),
		Stops:   true,
	}
}

// checkSchema runs what kubectl's validator (kubectl pkg/validation
// paramVerifyingSchema) checks on a document: for --validate=strict, it must be an
// object with string apiVersion and kind, and a kind without server-side field
// validation (every List, create-only kinds, unknown kinds) gets the client-side
// checks; for warn, only the first; for ignore, nothing (the factory's NullSchema).
func (s *streamRun) checkSchema(raw []byte) (schema.GroupVersionKind, error) {
	if s.directive == metav1.FieldValidationIgnore {
		return schema.GroupVersionKind{}, nil
	}
	obj, err := parseDocument(raw)
	if err != nil {
		return schema.GroupVersionKind{}, schemaError(s.source, err)
	}
	gvk, errs := objectKind(obj)
	if errs != nil {
		return gvk, schemaError(s.source, utilerrors.NewAggregate(errs))
	}
	if s.hasFieldValidation(gvk) || s.directive == metav1.FieldValidationWarn {
		return gvk, nil
	}
	if err := s.clientSideSchema(raw, obj, gvk); err != nil {
		return gvk, schemaError(s.source, err)
	}
	return gvk, nil
}

// parseDocument reads a document as kubectl's validator does (kubectl
// pkg/validation/validation.go parse).
func parseDocument(raw []byte) (any, error) {
	js, err := utilyaml.ToJSON(raw)
	if err != nil {
		return nil, err
	}
	var obj any
	if err := utiljson.Unmarshal(js, &obj); err != nil {
		return nil, err
	}
	return obj, nil
}

// objectKind re-expresses kubectl's getObjectKind (kubectl pkg/validation).
func objectKind(obj any) (schema.GroupVersionKind, []error) {
	fields, ok := obj.(map[string]any)
	if !ok || fields == nil {
		return schema.GroupVersionKind{}, []error{errors.New("invalid object to validate")}
	}
	var errs []error
	var gv schema.GroupVersion
	switch v := fields["apiVersion"].(type) {
	case nil:
		errs = append(errs, errors.New("apiVersion not set"))
	case string:
		parsed, err := schema.ParseGroupVersion(v)
		if err != nil {
			errs = append(errs, err)
		}
		gv = parsed
	default:
		errs = append(errs, errors.New("apiVersion isn't string type"))
	}
	kind, isString := fields["kind"].(string)
	switch {
	case fields["kind"] == nil:
		errs = append(errs, errors.New("kind not set"))
	case !isString:
		errs = append(errs, errors.New("kind isn't string type"))
	}
	if errs != nil {
		return schema.GroupVersionKind{}, errs
	}
	return gv.WithKind(kind), nil
}

// metadataOnlyObject is what kubectl's decoder checks a document's metadata against
// (cli-runtime pkg/resource/metadata_decoder.go). Its name shows in the messages of
// the JSON decoder ("Go struct field metadataOnlyObject.metadata ..."), so it is
// kubectl's.
type metadataOnlyObject struct {
	metav1.TypeMeta   `json:""`
	metav1.ObjectMeta `json:"metadata,omitempty"`
}

// decodeUnstructured decodes a document as kubectl's mapper does (cli-runtime
// pkg/resource/mapper.go infoForData with the metadata-validating unstructured decoder).
func (s *streamRun) decodeUnstructured(raw []byte) (runtime.Object, schema.GroupVersionKind, error) {
	obj, gvk, err := unstructured.UnstructuredJSONScheme.Decode(raw, nil, nil)
	if err == nil {
		err = utiljson.Unmarshal(raw, &metadataOnlyObject{})
	}
	if err != nil {
		return nil, schema.GroupVersionKind{}, &KubectlError{Message: fmt.Sprintf("unable to decode %q: %v", s.source, err)}
	}
	return obj, *gvk, nil
}

// noMatchError is kubectl's mapping error for an object whose kind the server does
// not serve (cli-runtime mapper.go, with apimachinery's NoKindMatchError).
func (s *streamRun) noMatchError(obj runtime.Object, gvk schema.GroupVersionKind) *KubectlError {
	name, namespace := objectName(obj)
	return &KubectlError{Message: fmt.Sprintf("resource mapping not found for name: %q namespace: %q from %q: %v\nensure CRDs are installed first",
		name, namespace, s.source, noKindMatch(gvk))}
}

// noKindMatch renders meta.NoKindMatchError for one searched version.
func noKindMatch(gvk schema.GroupVersionKind) error {
	return &meta.NoKindMatchError{GroupKind: gvk.GroupKind(), SearchedVersions: []string{gvk.Version}}
}

// objectName returns the name and namespace kubectl's metadata accessor reads.
func objectName(obj runtime.Object) (name, namespace string) {
	if m, err := meta.Accessor(obj); err == nil {
		return m.GetName(), m.GetNamespace()
	}
	return "", ""
}

// listItems expands a List as kubectl's FlattenListVisitor does: the items of nested
// lists come after the outer list's own items; the error is for the whole list. paths
// gives where each item sits in the document (items[0].items[2], ...).
func listItems(list runtime.Object) ([]runtime.Object, [][]pathSegment, error) {
	var items []runtime.Object
	var paths [][]pathSegment
	pending := []runtime.Object{list}
	pendingPaths := [][]pathSegment{nil}
	for i := 0; i < len(pending); i++ {
		if !meta.IsListType(pending[i]) {
			items, paths = append(items, pending[i]), append(paths, pendingPaths[i])
			continue
		}
		inner, err := meta.ExtractList(pending[i])
		if err != nil {
			return nil, nil, err
		}
		if errs := runtime.DecodeList(inner, unstructured.UnstructuredJSONScheme); len(errs) > 0 {
			return nil, nil, utilerrors.NewAggregate(errs)
		}
		for j := range inner {
			p := append(append([]pathSegment(nil), pendingPaths[i]...), pathSegment{name: "items"}, pathSegment{name: strconv.Itoa(j), bracket: true})
			pendingPaths = append(pendingPaths, p)
		}
		pending = append(pending, inner...)
	}
	return items, paths, nil
}

// itemKind types a list item as kubectl's unstructured typer does; the error is
// kubectl's message for the item.
func itemKind(item runtime.Object) (schema.GroupVersionKind, error) {
	kinds, _, err := unstructuredscheme.NewUnstructuredObjectTyper().ObjectKinds(item)
	if err != nil {
		return schema.GroupVersionKind{}, &KubectlError{Message: fmt.Sprintf("unable to get type info from the object %q: %v", fmt.Sprintf("%T", item), err)}
	}
	return kinds[0], nil
}

// namespaceFor applies kubectl's namespace rules to a namespaced object and returns
// the namespace of the request: an object without a namespace gets kubectl's (-n or
// the context's, "default" by default), written into the object as kubectl writes it
// (which silently fails when metadata is not an object); with an explicit -n, an
// object naming another namespace is refused.
func (s *streamRun) namespaceFor(u *unstructured.Unstructured) (string, error) {
	ns := u.GetNamespace()
	want := s.opts.Namespace
	switch {
	case ns == "" && want == "":
		ns = metav1.NamespaceDefault
		u.SetNamespace(ns)
	case ns == "":
		ns = want
		u.SetNamespace(ns)
	case want != "" && ns != want:
		return ns, &KubectlError{Message: fmt.Sprintf("the namespace from the provided object %q does not match the namespace %q. You must pass '--namespace=%s' to perform this operation.", ns, want, ns)}
	}
	return ns, nil
}
