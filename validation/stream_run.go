package validation

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strconv"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// streamRun is the state of one ValidateStream call.
type streamRun struct {
	source string
	opts   StreamOptions
	yield  func(ObjectResult) bool
	server serverDecoder
	// otherDecoder decodes the kinds of StreamOptions.Scheme (see others).
	otherDecoder serverDecoder
	docs         int
	// slowOnly turns fastObject off (tests compare both paths).
	slowOnly bool
	// models are the OpenAPI models, read when a document or a result first needs
	// them.
	models *lazyModels
	// directive is the fieldValidation kubectl sends (StreamOptions.FieldValidation).
	directive string
	// served is what the server serves (the gates' kinds, StreamOptions.CustomResources).
	served servedSet
}

// applying reports whether the stream answers as kubectl apply sends objects
// (StreamOptions.Apply; DecodeOnly sends nothing).
func (s *streamRun) applying() bool { return s.opts.Apply != nil && !s.opts.DecodeOnly }

// fieldValidation returns the directive kubectl sends for a FieldValidation option:
// Strict unless Warn or Ignore.
func fieldValidation(option string) string {
	switch option {
	case metav1.FieldValidationWarn, metav1.FieldValidationIgnore:
		return option
	}
	return metav1.FieldValidationStrict
}

// addServerWarnings adds the warnings the server answered r with (w's), each on the
// line of the field it names when it names one (`unknown field "spec.replica"`,
// `spec.template.spec.containers[0].env[1]: hides ...`) or is about (w.fields), as
// FieldLine finds it; a YAML document is split into lines once for all of them.
func addServerWarnings(r *ObjectResult, w *warningRecorder) {
	var lines []yamlLine
	if len(w.out) > 1 && r.text != nil && r.fromYAML {
		lines = splitYAMLLines(r.text)
	}
	for i, text := range w.out {
		line := r.Line
		path, ok := warningField(text)
		if w.fields[i] != "" {
			path, ok = w.fields[i], true
		}
		if ok {
			if lines != nil {
				line = r.textLine + locateLines(lines, r.segments(path))
			} else {
				line = r.FieldLine(path)
			}
		}
		r.Warnings = append(r.Warnings, Warning{Line: line, Message: text, Server: true})
	}
}

// warningField is the field a server warning names: the quoted path of a strict
// decoding warning, or the path before the first ": " of a registry's warning.
func warningField(text string) (string, bool) {
	if _, quoted, ok := strings.Cut(text, " field "); ok {
		if path, err := strconv.Unquote(quoted); err == nil {
			return path, true
		}
	}
	if path, _, ok := strings.Cut(text, ": "); ok && path != "" && !strings.ContainsAny(path, " \t") {
		return path, true
	}
	return "", false
}

// document answers for one document; false when the consumer wants no more.
func (s *streamRun) document(c chunk) bool {
	s.docs++
	base := ObjectResult{Source: s.source, Document: s.docs, Line: c.line,
		text: c.text, textLine: c.start, fromYAML: c.fromYAML, models: s.models}
	if c.err != nil {
		return s.yield(s.unreadable(base, c))
	}
	base.Warnings = s.duplicateKeys(c)
	if !s.slowOnly {
		if r, ok := s.fastObject(base, c); ok {
			return s.yield(r)
		}
	}
	if _, err := s.checkSchema(c.raw); err != nil {
		return s.yield(s.rejected(base, c.raw, err))
	}
	obj, gvk, err := s.decodeUnstructured(c.raw)
	if err != nil {
		return s.yield(s.rejected(base, c.raw, err))
	}
	m, ok := s.served.restMapping(gvk)
	if !ok {
		return s.yield(s.rejected(base, c.raw, s.noMatchError(obj, gvk)))
	}
	if !meta.IsListType(obj) {
		return s.object(base, obj, m)
	}
	items, paths, err := listItems(obj)
	if err != nil {
		return s.yield(s.rejected(base, c.raw, &KubectlError{Message: err.Error()}))
	}
	results := make([]ObjectResult, len(items))
	for i := range items {
		r := base
		r.Item, r.prefix = i+1, paths[i]
		r.Line = r.FieldLine("")
		results[i] = r
	}
	itemWarnings(results)
	for i, item := range items {
		if !s.listItem(results[i], item) {
			return false
		}
	}
	return true
}

// itemWarnings gives each item of a List the warnings about its own lines, and every
// item those about the lines before the first (the List's own keys). When the items'
// lines do not follow one another (a flow-style List), each keeps them all.
func itemWarnings(items []ObjectResult) {
	for i := 1; i < len(items); i++ {
		if items[i].Line <= items[i-1].Line {
			return
		}
	}
	for i := range items {
		var own []Warning
		for _, w := range items[i].Warnings {
			inItem := w.Line >= items[i].Line && (i+1 == len(items) || w.Line < items[i+1].Line)
			if inItem || w.Line < items[0].Line {
				own = append(own, w)
			}
		}
		items[i].Warnings = own
	}
}

// listItem answers for one item of a List, mapped as kubectl maps list items.
func (s *streamRun) listItem(r ObjectResult, item runtime.Object) bool {
	gvk, err := itemKind(item)
	if err != nil {
		identify(&r, item)
		r.Verdict, r.Err = Rejected, err
		return s.yield(r)
	}
	m, ok := s.served.restMapping(gvk)
	if !ok {
		identify(&r, item)
		r.Verdict, r.Err = Rejected, &KubectlError{Message: fmt.Sprintf("unable to recognize %v", noKindMatch(gvk))}
		return s.yield(r)
	}
	return s.object(r, item, m)
}

// object answers for one object kubectl maps to a served kind.
func (s *streamRun) object(r ObjectResult, obj runtime.Object, m mapping) bool {
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		// A list kind without items: kubectl would post it to a resource that does
		// not exist; nothing here holds a pod.
		identify(&r, obj)
		r.Verdict = NotChecked
		return s.yield(r)
	}
	ns, writtenNS := "", u.GetNamespace()
	// An XList without items has X's scope (kubectl's mapper adds it with X's); the
	// bare List, which maps to no kind, is cluster-scoped.
	if m.served.namespaced {
		var err error
		if ns, err = s.namespaceFor(u); err != nil {
			identify(&r, u)
			r.Verdict, r.Err = Rejected, err
			return s.yield(r)
		}
	} else {
		u.SetNamespace("")
	}
	identify(&r, u)
	r.Namespace = ns
	resource := schema.GroupVersionKind{Group: m.gvk.Group, Version: m.gvk.Version, Kind: m.served.kind}
	holdsPod := podKinds[resource.GroupKind()]
	written := u.GroupVersionKind()
	unserved := written.Version == "" || m.list
	key := createdKey{m.served.group, m.served.resource, ns, u.GetName()}
	var stored runtime.Object
	if !unserved {
		if s.applying() && holdsPod {
			// kubectl apply finds what it created or patched before.
			stored = s.opts.Created.appliedObject(key)
		}
		if stored == nil {
			stored = s.stored(resource.GroupKind(), holdsPod, ns, u.GetName())
		}
	}
	r.Update = stored != nil
	verb := "creating"
	if r.Update && !s.applying() {
		verb = "replacing" // kubectl replace's AddSourceToErr
	}
	if s.applying() {
		// kubectl apply GETs every object by name before anything else.
		gvr := schema.GroupVersionResource{Group: m.served.group, Version: m.gvk.Version, Resource: m.served.resource}
		var ke *KubectlError
		field, err := requestPathError(ns, u.GetName(), m.served.namespaced, u.GetName() != "")
		switch {
		case u.GetName() == "" && u.GetGenerateName() != "":
			ke, field = s.applyNameError(u, gvr, m.gvk, ns), "metadata.generateName"
		case err != nil:
			ke = s.applyGetError(gvr, m.gvk, ns, u.GetName(), err)
		case u.GetName() == "":
			ke = s.applyNameError(u, gvr, m.gvk, ns)
		}
		if ke != nil {
			if field != "" && (field != "metadata.namespace" || writtenNS != "") {
				ke.Line = r.FieldLine(field) // not for a namespace from --namespace
			}
			r.Update = false
			r.Verdict, r.Err = Rejected, ke
			return s.yield(r)
		}
	}
	if field, err := requestPathError(ns, u.GetName(), m.served.namespaced, r.Update && !s.applying()); err != nil {
		ke := &KubectlError{Message: fmt.Sprintf("error when %s %q: %v", verb, s.source, err)}
		if field != "metadata.namespace" || writtenNS != "" {
			ke.Line = r.FieldLine(field) // not for a namespace from --namespace
		}
		r.Verdict, r.Err = Rejected, ke
		return s.yield(r)
	}
	if unserved {
		r.Verdict, r.Err = Rejected, notFound(written, m)
		return s.yield(r)
	}
	if !m.served.create {
		// The server routes a POST to a resource served without create to
		// go-restful's 405, before it reads the body (k8s.io/apiserver
		// pkg/server/handler.go serviceErrorHandler).
		r.Verdict, r.Err = Rejected, apierrors.NewGenericServerResponse(http.StatusMethodNotAllowed, "", schema.GroupResource{}, "", "405: Method Not Allowed", 0, false)
		return s.yield(r)
	}
	decoder := s.server
	if m.custom {
		return s.yield(s.customObject(r, u, m))
	}
	if !holdsPod {
		if s.opts.Scheme == nil || !s.opts.Scheme.Recognizes(resource) {
			r.Verdict = NotChecked
			return s.yield(s.store(r, m.served))
		}
		if s.applying() && s.opts.Created.has(key) {
			// kubectl apply patches what the stream created; the decoding of that
			// patch is not modelled for a kind that holds no pod.
			r.Verdict, r.Update = NotChecked, true
			return s.yield(r)
		}
		decoder = s.others()
	}
	writtenVersion := u.GetResourceVersion()
	if s.applying() {
		modified, err := appliedConfiguration(u)
		if err != nil {
			r.Verdict, r.Err = Rejected, &KubectlError{Message: fmt.Sprintf("error when %s %q: %v", verb, s.source, err)}
			return s.yield(r)
		}
		if stored != nil {
			return s.yield(s.applyUpdate(r, modified, resource, m.served, stored, key))
		}
		// kubectl apply creates the object with the annotation, its nulls pruned.
		pruneNulls(u.Object)
	}
	switch {
	case stored == nil && writtenVersion != "":
		// kubectl create clears it before sending (see asSent).
		u.SetResourceVersion("")
	case stored != nil && writtenVersion == "":
		// kubectl replace sends the stored one instead (k8s.io/cli-runtime
		// pkg/resource Helper.Replace).
		u.SetResourceVersion(resourceVersionOf(stored))
	}
	var body bytes.Buffer
	if err := unstructured.UnstructuredJSONScheme.Encode(u, &body); err != nil {
		r.Verdict, r.Err = Rejected, &KubectlError{Message: fmt.Sprintf("error when %s %q: %v", verb, s.source, err)}
		return s.yield(r)
	}
	typed, decodeWarnings, err := s.decode(decoder, body.Bytes(), resource)
	if err != nil {
		r.Verdict, r.Err = Rejected, err
		return s.yield(r)
	}
	if stored != nil {
		r.Object = typed
		return s.yield(s.update(r, decodeWarnings, resource.GroupKind(), m.served, stored))
	}
	asSent(typed, ns)
	if s.opts.DecodeOnly {
		setResourceVersion(typed, writtenVersion)
	}
	r.Object = typed
	return s.yield(s.create(r, decodeWarnings, resource.GroupKind(), holdsPod, m.served))
}

// customObject answers for an object of a kind a CustomResourceDefinition serves,
// sent to its version: its fields are the server's to check against the
// definition's schema (NotChecked), but a kind written in lower case, which kubectl
// maps, the custom resource's validation refuses before anything else
// (k8s.io/apiextensions-apiserver pkg/registry/customresource
// customResourceValidator.ValidateTypeMeta); a name created before is the
// storage's 409. Every answer carries the version's deprecation warning.
func (s *streamRun) customObject(r ObjectResult, u *unstructured.Unstructured, m mapping) ObjectResult {
	if s.opts.DecodeOnly {
		r.Verdict = NotChecked
		return r
	}
	if u.GetKind() != m.served.kind {
		errs := field.ErrorList{field.Invalid(field.NewPath("kind"), u.GetKind(), "must be "+m.served.kind)}
		r.Verdict, r.Errors = Invalid, errs
		r.Err = newInvalid(schema.GroupKind{Group: m.served.group, Kind: m.served.kind}, storedName(u), errs)
	} else {
		r.Verdict = NotChecked
		r = s.store(r, m.served)
	}
	var w warningRecorder
	w.add(m.warning)
	addServerWarnings(&r, &w)
	return r
}

// requestPathError is client-go's refusal to build the request kubectl sends for an
// object whose namespace (of a namespaced kind) or, for the PUT of an update, name
// cannot be a URL path segment (k8s.io/client-go rest Request.Namespace and
// Request.Name, in that order), and the field at fault: nothing is sent. A POST does
// not name the object in its URL.
func requestPathError(namespace, name string, namespaced, update bool) (field string, err error) {
	if namespaced {
		if msgs := pathSegmentName(namespace, false); len(msgs) != 0 {
			return "metadata.namespace", fmt.Errorf("invalid namespace %q: %v", namespace, msgs)
		}
	}
	if update {
		if msgs := pathSegmentName(name, false); len(msgs) != 0 {
			return "metadata.name", fmt.Errorf("invalid resource name %q: %v", name, msgs)
		}
	}
	return "", nil
}

// stored returns the object StreamOptions.Stored holds for an object of a kind that
// holds a pod, nil when there is none (a nil pointer too) or the stream does not
// update.
func (s *streamRun) stored(gk schema.GroupKind, holdsPod bool, namespace, name string) runtime.Object {
	if s.opts.Stored == nil || s.opts.DecodeOnly || !holdsPod || name == "" {
		return nil
	}
	obj := s.opts.Stored(gk, namespace, name)
	if v := reflect.ValueOf(obj); !v.IsValid() || v.Kind() == reflect.Pointer && v.IsNil() {
		return nil
	}
	return obj
}

// setResourceVersion sets an object's resourceVersion: a DecodeOnly stream's objects
// keep the one they were written with, which kubectl create clears before sending.
func setResourceVersion(obj runtime.Object, rv string) {
	if m, err := meta.Accessor(obj); err == nil {
		m.SetResourceVersion(rv)
	}
}

// resourceVersionOf returns an object's resourceVersion, "" when it has none.
func resourceVersionOf(obj runtime.Object) string {
	if m, err := meta.Accessor(obj); err == nil {
		return m.GetResourceVersion()
	}
	return ""
}

// update answers for the decoded object r.Object as the update path answers a PUT
// of it to the stored object's URL: the refusal or the validation's verdict, and the
// warnings of the one response, the decoder's and then the update's.
func (s *streamRun) update(r ObjectResult, decodeWarnings []string, gk schema.GroupKind, k servedKind, stored runtime.Object) ObjectResult {
	var w warningRecorder
	w.addAll(decodeWarnings)
	opts := s.opts.Validation
	opts.patch = r.Patch != nil
	errs := validateObjectUpdate(r.Object, stored, opts, &w)
	if refusal, ok := RefusalOf(errs); ok {
		method := http.MethodPut
		if r.Patch != nil {
			method = http.MethodPatch // kubectl apply's
		}
		r.Verdict, r.Err = Rejected, refusal.statusError(method, schema.GroupResource{Group: k.group, Resource: k.resource}, r.Name)
		if refusal.panicked() {
			w = warningRecorder{}
		}
	} else if len(errs) > 0 {
		r.Verdict, r.Errors = Invalid, errs
		r.Err = newInvalid(gk, r.Name, errs)
	} else {
		r.Verdict = Valid
	}
	addServerWarnings(&r, &w)
	return r
}

// create answers for the decoded object r.Object of kind gk: the create path's
// verdict for a kind that holds a pod (NotChecked for another), the storage's, and
// the warnings of the one response, the decoder's and then the create's.
func (s *streamRun) create(r ObjectResult, decodeWarnings []string, gk schema.GroupKind, holdsPod bool, k servedKind) ObjectResult {
	var w warningRecorder
	w.addAll(decodeWarnings)
	switch {
	case holdsPod:
		r = s.validate(r, gk, k, &w)
	default:
		if !s.opts.DecodeOnly {
			ownerWarnings(&w, r.Object)
		}
		r.Verdict = NotChecked
	}
	addServerWarnings(&r, &w)
	return s.store(r, k)
}

// ownerWarnings records the create handler's warning on repeated owner references
// of an object of a kind that holds no pod (dedupOwnerReferences).
func ownerWarnings(w *warningRecorder, obj runtime.Object) {
	if m, err := meta.Accessor(obj); err == nil {
		dedupOwnerReferences(m.GetOwnerReferences(), w)
	}
}

// store creates an object the server would create (a Valid one, or one of a kind
// that holds no pod, taken as valid) in StreamOptions.Created, or refuses it as the
// storage does when its name was created before (k8s.io/apiserver pkg/registry/
// generic/registry Store.Create: storeerr.InterpretCreateError's AlreadyExists, for
// the resource the registry serves).
func (s *streamRun) store(r ObjectResult, k servedKind) ObjectResult {
	created := r.Verdict == Valid || r.Verdict == NotChecked
	// Nothing is stored by DecodeOnly, for an object named only by generateName
	// (its generated name is new) or of a create-only kind (TokenReview, ...).
	if !created || s.opts.DecodeOnly || r.Name == "" || !k.patch {
		return r
	}
	key := createdKey{k.group, k.resource, r.Namespace, r.Name}
	switch {
	case !s.created().create(key):
		if !s.applying() {
			r.Verdict, r.Err = Rejected, apierrors.NewAlreadyExists(schema.GroupResource{Group: k.group, Resource: k.resource}, r.Name)
			break
		}
		// kubectl apply patches it instead: a kind that holds a pod found its
		// object before (see object); another is not checked either way.
		r.Update = true
	case s.applying() && r.Verdict == Valid && r.Object != nil:
		s.opts.Created.keepApplied(key, createdAsStored(r.Object, s.opts.Validation))
	}
	return r
}

// created returns StreamOptions.Created, or the stream's own when none was given.
func (s *streamRun) created() *CreatedObjects {
	if s.opts.Created == nil {
		s.opts.Created = new(CreatedObjects)
	}
	return s.opts.Created
}

// others returns the decoder of StreamOptions.Scheme's kinds, built on first use.
func (s *streamRun) others() serverDecoder {
	if s.otherDecoder.strict == nil {
		s.otherDecoder = newSchemeDecoder(s.opts.Scheme)
	}
	return s.otherDecoder
}

// validate runs the create path on a decoded object.
func (s *streamRun) validate(r ObjectResult, gk schema.GroupKind, k servedKind, w *warningRecorder) ObjectResult {
	if s.opts.DecodeOnly {
		r.Verdict = Valid
		return r
	}
	opts := s.opts.Validation
	opts.Namespace = r.Namespace
	errs := validateObjectCreate(r.Object, opts, w)
	if refusal, ok := RefusalOf(errs); ok {
		// A body the handler cannot convert (400) or a request that panics (500):
		// no 422.
		r.Verdict, r.Err = Rejected, refusal.statusError(http.MethodPost, schema.GroupResource{Group: k.group, Resource: k.resource}, r.Name)
		if refusal.panicked() {
			*w = warningRecorder{}
		}
		return r
	}
	if len(errs) == 0 {
		r.Verdict = Valid
		return r
	}
	r.Verdict, r.Errors = Invalid, errs
	r.Err = newInvalid(gk, storedName(r.Object), errs)
	return r
}

// notFound is the answer to a create kubectl sends where the server serves nothing:
// kubectl builds its client from the object's own apiVersion, so an apiVersion with no
// version ("apps/", "") posts to /apis/apps/namespaces/NS/... (/api/namespaces/...);
// and an object of a list kind without items posts to the resource kubectl guesses for
// the kind ("podlists"). The server answers with a plain-text 404 (Go's http.NotFound),
// which client-go words as a NotFound status (k8s.io/client-go rest
// newUnstructuredResponseError, apimachinery NewGenericServerResponse).
func notFound(written schema.GroupVersionKind, m mapping) error {
	resource := m.served.resource
	if m.list {
		plural, _ := meta.UnsafeGuessKindToResource(m.gvk)
		resource = plural.Resource
	}
	return apierrors.NewGenericServerResponse(http.StatusNotFound, http.MethodPost,
		schema.GroupResource{Group: written.Group, Resource: resource}, "", "404 page not found", 0, true)
}

// asSent makes a decoded object what the server reads: kubectl create clears a
// resourceVersion written as a string before it sends an object (k8s.io/cli-runtime
// pkg/resource Helper.Create, called with modify true; object clears it from the
// body, the fast path decodes the document itself), so an object saved with kubectl
// get -o yaml is created, not refused by the storage for carrying one; and the
// create handler gives an object that names no namespace the request's
// (k8s.io/apiserver pkg/registry/rest/meta.go).
func asSent(obj runtime.Object, ns string) {
	if m, err := meta.Accessor(obj); err == nil {
		m.SetResourceVersion("")
		if m.GetNamespace() == "" {
			m.SetNamespace(ns)
		}
	}
}

// storedName is the name the server validates an object under: its name, or the
// name generated from metadata.generateName (see GeneratedNameSuffix).
func storedName(obj runtime.Object) string {
	m, err := meta.Accessor(obj)
	if err != nil {
		return ""
	}
	if m.GetName() != "" || m.GetGenerateName() == "" {
		return m.GetName()
	}
	base := m.GetGenerateName()
	if len(base) > maxGeneratedNameLength {
		base = base[:maxGeneratedNameLength]
	}
	return base + GeneratedNameSuffix
}

// unreadable is the result for a document the decoder could not read.
func (s *streamRun) unreadable(r ObjectResult, c chunk) ObjectResult {
	r.Verdict = Rejected
	var readErr *ReadError
	switch {
	case errors.As(c.err, &readErr):
		r.Err = readErr
	case errors.Is(c.err, errDocumentTooLarge):
		r.Err = ErrDocumentTooLarge
	default:
		r.Err = &KubectlError{Message: fmt.Sprintf("error parsing %s: %v", s.source, c.err), Stops: true, Line: c.errLine}
	}
	if c.errLine > 0 {
		r.Line = c.errLine
	}
	return r
}

// rejected is the result for a document kubectl refuses, identified as far as it can.
func (s *streamRun) rejected(r ObjectResult, raw []byte, err error) ObjectResult {
	if obj, _, decErr := unstructured.UnstructuredJSONScheme.Decode(raw, nil, nil); decErr == nil {
		identify(&r, obj)
	} else if u := (&unstructured.Unstructured{}); u.UnmarshalJSON(raw) == nil {
		identify(&r, u)
	}
	r.Verdict, r.Err = Rejected, err
	return r
}

// identify fills the result's apiVersion, kind, namespace and name from obj.
func identify(r *ObjectResult, obj runtime.Object) {
	if obj == nil {
		return
	}
	gvk := obj.GetObjectKind().GroupVersionKind()
	r.APIVersion, r.Kind = gvk.GroupVersion().String(), gvk.Kind
	if u, ok := obj.(interface{ GetAPIVersion() string }); ok {
		r.APIVersion = u.GetAPIVersion()
	}
	r.Name, r.Namespace = objectName(obj)
}
