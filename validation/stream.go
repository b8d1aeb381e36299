package validation

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"iter"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// StreamOptions tune ValidateStream. The zero value reads a stream as `kubectl create
// -f FILE` does by default (client-side checks of --validate=strict, server-side
// strict field validation) against a default Kubernetes v1.37.2 API server that
// refuses privileged containers (see Options.AllowPrivileged).
type StreamOptions struct {
	// Validation holds the options every object that holds a pod is validated with:
	// feature gates (which also decide the kinds the server serves), privileged
	// containers, defaulting. Its Namespace is set, for each object, to the namespace
	// the object is created in (see Namespace).
	Validation Options

	// Namespace is kubectl's --namespace (-n). A namespaced object without a
	// namespace is created in it, in "default" when it is empty; when it is set, an
	// object naming another namespace is refused as kubectl refuses it. ValidateStream
	// reports that refusal at its object; kubectl prints all of them before the errors
	// of reading the files (parsing, mapping, client-side validation).
	Namespace string

	// FieldValidation is kubectl's --validate as the directive it sends
	// (metav1.FieldValidationStrict, Warn or Ignore; "" and any other value mean
	// Strict, kubectl's default). Strict refuses unknown and duplicate fields: the
	// server with 400, kubectl itself for the kinds the server cannot check (Lists,
	// create-only kinds). Warn lets the server decode and create the object anyway and
	// warn about each such field (Warnings, "unknown field \"spec.replica\""), and
	// kubectl skips its own checks but the document's apiVersion and kind. Ignore
	// drops such fields silently, and kubectl checks nothing before decoding.
	FieldValidation string

	// DecodeOnly stops after decoding: every object is read and checked as kubectl and
	// the server's decoding check it, but not validated; an object that holds a pod and
	// decodes is Valid. Use it to read the typed objects of a stream; they keep the
	// resourceVersion they were written with, which kubectl create clears before it
	// sends them (the answers are those to what it sends).
	DecodeOnly bool

	// Scheme, when set, holds the versioned Go types of kinds that hold no pod (a
	// scheme built with k8s.io/api's AddToScheme functions, such as
	// validation/apischeme's, or client-go's scheme.Scheme): an object of such a kind is
	// decoded as the server decodes it, with strict field validation, and Rejected with
	// the server's 400 when that fails ("ConfigMap in version \"v1\" cannot be handled
	// as a ConfigMap: ..."), NotChecked with its Object otherwise. Nil, or a kind the
	// scheme does not know, leaves such objects unread (NotChecked). The scheme is only
	// read, so one can serve many streams at once.
	Scheme *runtime.Scheme

	// Created, when set, holds the objects earlier streams of the same kubectl create
	// -f created (its other files, read in kubectl's order), and receives those this
	// stream creates. As against a cluster holding none of the objects to begin with,
	// an object whose name was created before (for its resource and namespace) is the
	// storage's 409 AlreadyExists, once it passed validation, as the second of two
	// Deployments named alike in one file is (with Apply, kubectl patches it instead:
	// see Apply). Nil keeps the stream's own objects only.
	// One value must not be shared by streams read at the same time. DecodeOnly
	// creates nothing.
	Created *CreatedObjects

	// Stored, when set, returns the object a cluster holds for a kind that holds a
	// pod (its group and kind), a namespace and a name, or nil when it holds none: an
	// object of the stream it returns one for is answered as kubectl replace -f answers
	// it, as a PUT of the object as written to the stored object's URL (the server's
	// decoding, then ValidateObjectUpdate and UpdateWarnings: immutable fields, the
	// update's warnings), with Update set; the others are created as before (as kubectl
	// create does; kubectl replace would find no object to replace). The stored object
	// is one a client reads, such as an object of kubectl get -o yaml decoded by a
	// DecodeOnly stream, of the Go type the stream decodes its kind to
	// (*appsv1.Deployment, ...). As kubectl replace does, an object written without a
	// resourceVersion takes the stored one; one written with another is the storage's
	// 409 Conflict. Each object of the stream is compared with the stored object as
	// given, so a second object of the same name is not compared with the first one's
	// result (on a cluster, the first update moves the resourceVersion on). An update
	// creates nothing in Created. Stored is not called with DecodeOnly, nor for an
	// object without a name, and may be called more than once for one object; it must
	// be safe to call from the stream's goroutine.
	Stored func(kind schema.GroupKind, namespace, name string) runtime.Object

	// Apply, when set, answers as kubectl apply -f (client-side apply, its defaults)
	// instead of kubectl create -f, with Apply computing and applying the patches
	// (pass apply.Patcher{} of package github.com/podlife/podlife/validation/apply).
	// Every object is looked up by name first, so one named only by generateName or
	// by a name that cannot be a URL path segment is refused by kubectl ("cannot use
	// generate name with apply"). An object Stored does not hold is created with the
	// kubectl.kubernetes.io/last-applied-configuration annotation kubectl adds (the
	// object's own JSON) and its null values pruned. An object Stored holds is sent
	// as the strategic merge patch kubectl computes from the stored object's
	// last-applied configuration, the object as written and the stored object
	// (ObjectResult.Patch), which the server applies to the stored object before it
	// validates the result as an update (ValidateObjectUpdate, UpdateWarnings).
	// Unlike kubectl replace, what the manifest leaves out is kept from the stored
	// object (a Job's generated selector, a pod's node), unless the last applied
	// configuration had it. A patch of {} is not sent: the object is Valid, without
	// the server's warnings. kubectl's own warnings are results' warnings (not
	// Server): about a stored object without the annotation, and about one being
	// deleted; those it prints when it cannot compute the patch from the server's
	// OpenAPI documents and falls back to the Go types (as podlife computes it) are
	// not reproduced. A later object with the name of one the stream (or
	// Created) created is patched against it as the server stored it (its defaults,
	// PrepareForCreate, GeneratedUID), as kubectl apply finds it; for a kind that
	// holds no pod it is NotChecked, not the create's 409. Created then keeps the
	// objects created, so memory grows with the objects of a stream. DecodeOnly
	// streams ignore Apply. A patch costs what it costs kubectl and the server
	// (apimachinery's strategicpatch looks each element of a keyed list up by
	// scanning the list, and orders the merged list by a sort whose comparisons
	// scan the order): time grows faster than the square of a keyed list whose
	// elements the manifest changes, in order or not (validation/apply
	// BenchmarkApplyKeyedList), where the rest of ValidateStream is linear.
	Apply StrategicPatcher

	// CustomResources are the kinds the cluster's CustomResourceDefinitions serve
	// (see ReadCustomResources). kubectl maps an object of such a kind instead of
	// refusing it ("resource mapping not found ... ensure CRDs are installed first")
	// and leaves its fields to the server, which checks them against the
	// definition's schema: its verdict is NotChecked. A definition in the stream
	// itself serves nothing here: a server serves its kinds once it has established
	// it, which kubectl create does not wait for. Kinds in a group the server serves
	// itself are ignored.
	CustomResources []CustomResource

	// MaxDocumentBytes, when positive, refuses a document longer than this many bytes
	// (ErrDocumentTooLarge) instead of holding it in memory. kubectl has no such limit;
	// the server refuses a request body over 3 MiB anyway.
	MaxDocumentBytes int
}

// CreatedObjects are the objects a kubectl create -f has created so far, by resource,
// namespace and name (objects named only by generateName get a name no other has, and
// those of create-only kinds such as TokenReview are not stored: neither is kept). The
// zero value is empty and ready to use.
type CreatedObjects struct {
	keys map[createdKey]struct{}
	// applied are the objects of the kinds that hold a pod a stream with Apply
	// created, as the server stores them: kubectl apply patches them when a later
	// object has their name.
	applied map[createdKey]runtime.Object
}

// has reports whether an object was created under k.
func (c *CreatedObjects) has(k createdKey) bool {
	if c == nil {
		return false
	}
	_, ok := c.keys[k]
	return ok
}

// appliedObject returns the object a stream with Apply created under k, nil when
// there is none.
func (c *CreatedObjects) appliedObject(k createdKey) runtime.Object {
	if c == nil {
		return nil
	}
	return c.applied[k]
}

// keepApplied keeps the object a stream with Apply created under k.
func (c *CreatedObjects) keepApplied(k createdKey, obj runtime.Object) {
	if c.applied == nil {
		c.applied = map[createdKey]runtime.Object{}
	}
	c.applied[k] = obj
}

// createdKey names a stored object.
type createdKey struct{ group, resource, namespace, name string }

// Len returns the number of objects created.
func (c *CreatedObjects) Len() int { return len(c.keys) }

// create records an object, or returns false when one of its name was created before.
func (c *CreatedObjects) create(k createdKey) bool {
	if _, exists := c.keys[k]; exists {
		return false
	}
	if c.keys == nil {
		c.keys = map[createdKey]struct{}{}
	}
	c.keys[k] = struct{}{}
	return true
}

// ErrDocumentTooLarge is the error of a document longer than
// StreamOptions.MaxDocumentBytes.
var ErrDocumentTooLarge = errDocumentTooLarge

// Verdict is the answer for one object of a stream.
type Verdict int

const (
	// Valid means the API server would create the object.
	Valid Verdict = iota + 1
	// Invalid means the server refuses it with 422 Invalid; Errors lists the causes.
	Invalid
	// Rejected means the object is refused other than by validation: by kubectl (a
	// document it cannot read, a missing apiVersion or kind, a kind the server does
	// not serve) or by the server (unknown fields under strict field validation,
	// values of the wrong type, a body over the size limit, a path it does not
	// serve, a name created before: see StreamOptions.Created). Err says why.
	Rejected
	// NotChecked means the server serves the kind but it holds no pod (a Service, a
	// ConfigMap, ...): ValidateStream does not validate it (with
	// StreamOptions.Scheme, it decodes it).
	NotChecked
)

// String returns "valid", "invalid", "rejected" or "not checked".
func (v Verdict) String() string {
	switch v {
	case Valid:
		return "valid"
	case Invalid:
		return "invalid"
	case Rejected:
		return "rejected"
	case NotChecked:
		return "not checked"
	}
	return fmt.Sprintf("Verdict(%d)", int(v))
}

// ObjectResult is the answer for one object of a stream, or for a document that holds
// no object kubectl could read.
type ObjectResult struct {
	// Source is the name given to ValidateStream, as kubectl's messages quote it.
	Source string
	// Document is the 1-based number of the document in the stream, counting the
	// documents kubectl reads: empty and comment-only documents are not counted.
	Document int
	// Item is the 1-based position of the object in the List the document holds
	// (nested lists flattened, as kubectl does), 0 when the document is not a List.
	Item int
	// Line is the 1-based line of the file where the object starts (its first line
	// that is not blank, a comment or "---"); for a document that cannot be parsed,
	// the line the parser's error points at when it names one.
	Line int

	// APIVersion, Kind, Namespace and Name identify the object as written, with the
	// namespace kubectl gives it (empty for a cluster-scoped kind); empty when unknown.
	APIVersion, Kind, Namespace, Name string

	// Verdict is the answer.
	Verdict Verdict
	// Update is true when the object was sent as an update of the object
	// StreamOptions.Stored returned for it (its verdict is the answer to that PUT,
	// or with StreamOptions.Apply to that PATCH, whether the server refused to
	// decode it or validated it) or, with Apply, of one the stream created before
	// (for a kind that holds no pod: NotChecked, without a Patch, even with
	// StreamOptions.Scheme: the decoding of that patch is not modelled); false when
	// as a create or not sent.
	Update bool
	// Patch is the strategic merge patch kubectl apply sends for an object it
	// finds stored (StreamOptions.Apply; Update is true), as JSON: "{}" when the
	// object is as the stored one and nothing is sent; nil otherwise and when no
	// patch could be computed.
	Patch []byte
	// Object is the object as the server decodes it (a *corev1.Pod, *appsv1.Deployment,
	// ...), for the kinds that hold a pod and those StreamOptions.Scheme holds; nil
	// otherwise and when decoding failed.
	Object runtime.Object
	// Errors are the server's validation errors (Verdict Invalid).
	Errors field.ErrorList
	// Err explains an Invalid or Rejected verdict: a *apierrors.StatusError for an
	// answer of the server (422 Invalid; 400 BadRequest from decoding; 413 for a body
	// over 3 MiB; 404, as client-go words it, for an apiVersion without a version or a
	// list kind without items, which kubectl posts where nothing is served; 405 for a
	// kind served only for reading, ComponentStatus; 409 for a name created before;
	// 504, the timeout filter's, for a quantity whose decoding would outlast the
	// request timeout, such as "1e999999999999": see TypeErrorField), a
	// *KubectlError for one of kubectl, a *ReadError when the reader failed,
	// ErrDocumentTooLarge.
	Err error
	// Warnings are remarks that do not change the verdict, such as duplicate keys,
	// whose earlier values kubectl drops silently, and the warnings of the server's
	// answer (Server set): about unknown fields with FieldValidation Warn, and those
	// it sends on create (CreateWarnings), each on the line of its field.
	Warnings []Warning

	// text is the document's text, which starts on file line textLine; prefix is where
	// the object sits in it (items[i] for a List item).
	text     []byte
	textLine int
	fromYAML bool
	prefix   []pathSegment
	// models are the stream's OpenAPI models (SuggestField).
	models *lazyModels
}

// FieldLine returns the 1-based file line of a field of the object, given as
// field.Path prints it ("spec.template.spec.containers[0].image") or as the server's
// strict decoding errors quote it: the line of the field, or of its deepest enclosing
// field the document holds (a missing field points at its parent). It reads block-style
// YAML and JSON; inside flow style it answers with the line of the enclosing block.
// It returns Line when the document's text is unknown.
func (r *ObjectResult) FieldLine(path string) int {
	if r.text == nil {
		return r.Line
	}
	return r.textLine + locate(r.text, r.fromYAML, r.segments(path))
}

// segments is a field path of the object as segments from the document's root (a
// List item's path in the List first).
func (r *ObjectResult) segments(path string) []pathSegment {
	return append(append([]pathSegment(nil), r.prefix...), parseFieldPath(path)...)
}

// SourceLine returns the text of the 1-based file line n, without its line break, when
// n lies in the document the object was read from; ok is false otherwise, and when
// the document's text is unknown. The text is the stream as it was read: UTF-8, a
// byte-order mark or UTF-16 decoded; for a value of a JSON stream, the part of the
// line that holds the value. A tool can print it beside FieldLine's answer.
func (r *ObjectResult) SourceLine(n int) (line string, ok bool) {
	if r.text == nil || n < r.textLine {
		return "", false
	}
	text := r.text
	for range n - r.textLine {
		i := bytes.IndexByte(text, '\n')
		if i < 0 {
			return "", false
		}
		text = text[i+1:]
	}
	if i := bytes.IndexByte(text, '\n'); i >= 0 {
		text = text[:i]
	} else if len(text) == 0 {
		return "", false // the document ended with the line before
	}
	return string(bytes.TrimSuffix(text, []byte("\r"))), true
}

// Warning is a remark on an object that does not change its verdict.
type Warning struct {
	// Line is the 1-based file line the warning is about.
	Line int
	// Message says what is wrong.
	Message string
	// Server is true for a warning the API server sends with its answer (kubectl
	// prints it as "Warning: " and Message), false for kubectl's own warnings (those
	// of kubectl apply, StreamOptions.Apply) and podlife's remarks on the file, such
	// as a key written twice.
	Server bool
}

// Status returns the status the API server answers with for a server-side verdict
// (Invalid, or Rejected by the server), nil otherwise.
func (r *ObjectResult) Status() *apierrors.StatusError {
	var s *apierrors.StatusError
	if errors.As(r.Err, &s) {
		return s
	}
	return nil
}

// Message returns the answer in one line as the server or kubectl words it: the
// status message (`Pod "x" is invalid: [...]`), kubectl's error, or "" for a Valid or
// NotChecked object.
func (r *ObjectResult) Message() string {
	if r.Err == nil {
		return ""
	}
	if s := r.Status(); s != nil {
		return s.ErrStatus.Message
	}
	return r.Err.Error()
}

// ValidateStream reads a YAML or JSON stream as `kubectl create -f` does and answers,
// for each object, as a default v1.37.2 API server would (ValidateObjectCreate),
// yielding results as it reads: memory is bounded by the largest document, not by the
// stream. source names the stream in messages, as kubectl names the file (use
// "STDIN" for standard input).
//
// The stream is read as kubectl reads it (k8s.io/cli-runtime pkg/resource, v0.37.2):
//   - the encoding: a UTF-16 or UTF-8 byte-order mark is honoured, otherwise the
//     bytes are UTF-8 with ill-formed sequences replaced by U+FFFD;
//   - the documents: a stream whose first non-space character is '{' is a series of
//     JSON values, otherwise YAML documents separated by "---" lines, block or flow
//     style; empty and comment-only documents are skipped;
//   - YAML is converted to JSON before anything else: later duplicate keys replace
//     earlier ones without a word from kubectl or the server (reported here as
//     Warnings);
//   - kubectl's client-side checks: apiVersion and kind must be set and be strings,
//     the kind must be served by the server (`no matches for kind "CronJob" in version
//     "batch/v1beta1"`); a List or XList (PodList, ...) is expanded into its items;
//   - client-go builds no request for an object whose namespace cannot be a URL path
//     segment ("..", or one holding '/' or '%'), nor the PUT of an update for such a
//     name: kubectl reports `error when creating "FILE": invalid namespace ...` and
//     sends nothing (a KubectlError);
//   - the object is sent with fieldValidation=Strict: an unknown field or a value of
//     the wrong type is the server's 400 ("Pod in version \"v1\" cannot be handled as a
//     Pod: strict decoding error: unknown field \"spec.contianers\""), unless the
//     conversion to the internal version fails first (a Deployment's
//     deprecated.deployment.rollback.to annotation that is not a number), whose 400
//     comes without strict errors or warnings;
//   - then the create path (ValidateObjectCreate): 422 Invalid and its causes.
//
// A document kubectl cannot read is a Rejected result and the stream goes on with the
// next document where the format allows it (YAML); kubectl stops reading the file there
// (KubectlError.Stops). A reader error ends the stream with a result whose Err is a
// *ReadError.
func ValidateStream(r io.Reader, source string, opts StreamOptions) iter.Seq[ObjectResult] {
	return func(yield func(ObjectResult) bool) {
		s := &streamRun{source: source, opts: opts, yield: yield, server: newServerDecoder(), models: new(lazyModels),
			directive: fieldValidation(opts.FieldValidation), served: newServedSet(opts.Validation.Features, opts.CustomResources)}
		d := newDocReader(r, opts.MaxDocumentBytes)
		for {
			c, ok := d.next()
			if !ok || !s.document(c) || c.final {
				return
			}
		}
	}
}
