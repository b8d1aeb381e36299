package validation

import (
	"bytes"
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation/field"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// TypeErrorField returns the field holding the value that a JSON type error in the
// object's answer is about, with the list indices and map keys such an error leaves
// out. The server's decoding (and kubectl's, for the metadata) names a field by its
// JSON names only: `json: cannot unmarshal bool into Go struct field
// EnvVar.spec.containers.env.value of type string` is about the first value at
// spec.containers.env.value, in the order the decoder reads the body kubectl sends
// (lists in order, the keys of a map sorted), that is a boolean, and
// TypeErrorField names it: "spec.containers[0].env[2].value". An error naming a map
// or a list whose entries have the wrong type ("ObjectMeta.metadata.labels of type
// string") gives the entry ("metadata.labels[prometheus.io/scrape]",
// "spec.containers[0].args[1]"). Give the path to FieldLine for the value's line.
//
// A quantity the server cannot parse is refused with resource.ParseQuantity's error
// alone ("quantities must match the regular expression …", "unable to parse
// quantity's suffix"), which names no field; for it TypeErrorField names the first
// value, in the same order, of a field that holds a quantity (the kind's schema says
// which) that does not parse as the server reads it: `cpu: ""` gives
// "spec.containers[0].resources.requests[cpu]".
//
// For the server's 504 on a quantity whose decoding would outlast its request
// timeout ("1e-999999999"), TypeErrorField names that quantity.
//
// ok is false when the answer holds no such error, the document's text is unknown or
// cannot be read, or no value of the document matches.
func (r *ObjectResult) TypeErrorField() (path string, ok bool) {
	if r.Err == nil || r.text == nil {
		return "", false
	}
	msg := r.Message()
	quantity := isQuantityError(msg)
	st := r.Status()
	timeout := st != nil && st.ErrStatus.Code == http.StatusGatewayTimeout
	got, jsonPath, ok := parseTypeError(msg)
	if !ok && !quantity && !timeout {
		return "", false
	}
	var doc any
	if !decodeDocument(r.text, r.fromYAML, &doc) {
		return "", false
	}
	for _, seg := range r.prefix {
		doc, ok = childOf(doc, seg)
		if !ok {
			return "", false
		}
	}
	if timeout || quantity {
		// The quantity the decoder stopped at: the slow one for the 504, the one
		// that does not parse otherwise.
		models, kind, ok := r.kindSchema()
		if !ok {
			return "", false
		}
		path, slow, found := models.stopQuantity(kind, doc)
		return path, found && slow == timeout
	}
	var names []string
	if jsonPath != "" {
		names = strings.Split(jsonPath, ".")
	}
	p, ok := findTyped(doc, names, got, nil)
	if !ok || p == nil {
		return "", false
	}
	return p.String(), true
}

// parseTypeError reads encoding/json's UnmarshalTypeError in a message: what the value
// was ("bool", "number", "number 1.5", "string", "array", "object") and the field's
// JSON path without the Go type's name ("spec.containers.env.value").
func parseTypeError(msg string) (got, jsonPath string, ok bool) {
	const head, into, of = "json: cannot unmarshal ", " into Go struct field ", " of type "
	_, rest, found := strings.Cut(msg, head)
	if !found {
		return "", "", false
	}
	got, rest, found = strings.Cut(rest, into)
	if !found || got == "" {
		return "", "", false
	}
	goField, _, found := strings.Cut(rest, of)
	if !found {
		return "", "", false
	}
	_, jsonPath, found = strings.Cut(goField, ".")
	if !found || strings.ContainsAny(jsonPath, " \n") {
		return "", "", false
	}
	return got, jsonPath, true
}

// decodeDocument reads a document's text as the JSON kubectl decodes it, numbers kept
// as written.
func decodeDocument(text []byte, fromYAML bool, out *any) bool {
	if fromYAML {
		js, err := utilyaml.ToJSON(text)
		if err != nil {
			return false
		}
		text = js
	}
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	return dec.Decode(out) == nil
}

// childOf steps into a document value along one path segment.
func childOf(v any, seg pathSegment) (any, bool) {
	switch v := v.(type) {
	case map[string]any:
		c, ok := v[seg.name]
		return c, ok
	case []any:
		i, err := strconv.Atoi(seg.name)
		if !seg.bracket || err != nil || i < 0 || i >= len(v) {
			return nil, false
		}
		return v[i], true
	}
	return nil, false
}

// findTyped returns the path, below at, of the first value along names (lists
// crossed in order) that is what got says; at the end of names, a list's entries in
// order and a map's entries by sorted key are tried after the value itself.
func findTyped(v any, names []string, got string, at *field.Path) (*field.Path, bool) {
	if list, isList := v.([]any); isList && len(names) > 0 {
		for i, e := range list {
			if p, ok := findTyped(e, names, got, indexOf(at, i)); ok {
				return p, true
			}
		}
		return nil, false
	}
	if len(names) > 0 {
		m, isMap := v.(map[string]any)
		if !isMap {
			return nil, false
		}
		c, ok := m[names[0]]
		if !ok {
			return nil, false
		}
		return findTyped(c, names[1:], got, childPath(at, names[0]))
	}
	if jsonKindIs(v, got) {
		return at, true
	}
	switch v := v.(type) {
	case []any:
		for i, e := range v {
			if jsonKindIs(e, got) {
				return indexOf(at, i), true
			}
		}
	case map[string]any:
		keys := slices.Sorted(maps.Keys(v))
		for _, k := range keys {
			if jsonKindIs(v[k], got) {
				return at.Key(k), true
			}
		}
	}
	return nil, false
}

// childPath is at's field name, or the path's first field when at is nil.
func childPath(at *field.Path, name string) *field.Path {
	if at == nil {
		return field.NewPath(name)
	}
	return at.Child(name)
}

// indexOf is at's entry i; nil stays nil.
func indexOf(at *field.Path, i int) *field.Path {
	if at == nil {
		return nil // a document that is a list has no field path
	}
	return at.Index(i)
}

// jsonKindIs reports whether a decoded JSON value is what an UnmarshalTypeError's
// value says: its kind, and for "number X" that number (compared as a float, since
// kubectl's round trip rewrites 1.50 as 1.5).
func jsonKindIs(v any, got string) bool {
	kind, literal, _ := strings.Cut(got, " ")
	switch v := v.(type) {
	case bool:
		return got == "bool"
	case string:
		return got == "string"
	case []any:
		return got == "array"
	case map[string]any:
		return got == "object"
	case json.Number:
		if kind != "number" {
			return false
		}
		if literal == "" {
			return true
		}
		a, errA := strconv.ParseFloat(v.String(), 64)
		b, errB := strconv.ParseFloat(literal, 64)
		return errA == nil && errB == nil && a == b
	}
	return false
}

// quantityModel names the schema of a resource.Quantity in the OpenAPI models.
const quantityModel = "io.k8s.apimachinery.pkg.api.resource.Quantity"

// isQuantityError reports whether a refusal's message ends in one of
// resource.ParseQuantity's errors, as the server's decoding passes them on.
func isQuantityError(msg string) bool {
	for _, err := range []error{resource.ErrFormatWrong, resource.ErrNumeric, resource.ErrSuffix} {
		if strings.HasSuffix(msg, ": "+err.Error()) {
			return true
		}
	}
	return false
}

// walkQuantities walks v along its schema s, in the order the server's decoder
// reads the body kubectl sends (keys sorted), and calls visit with each value of
// a field that holds a quantity (null values left out, which decode to zero)
// until it returns false; walkQuantities returns false then.
func (m *oaModels) walkQuantities(s *oaSchema, v any, at *field.Path, visit func(at *field.Path, v any) bool) bool {
	if s != nil && s.kind == '@' && s.ref == quantityModel {
		return v == nil || visit(at, v)
	}
	switch s = m.resolve(s); {
	case s == nil:
	case s.kind == 'K' || s.kind == '{':
		obj, _ := v.(map[string]any)
		for _, k := range slices.Sorted(maps.Keys(obj)) {
			sub, next := s.sub, at.Key(k)
			if s.kind == 'K' {
				sub, next = s.fields[k], childPath(at, k)
			}
			if sub != nil && !m.walkQuantities(sub, obj[k], next, visit) {
				return false
			}
		}
	case s.kind == '[':
		list, _ := v.([]any)
		for i, e := range list {
			if !m.walkQuantities(s.sub, e, indexOf(at, i), visit) {
				return false
			}
		}
	}
	return true
}

// quantityDecodes reports whether resource.Quantity's UnmarshalJSON takes a value
// of a decoded document as kubectl sends it (quantityText).
func quantityDecodes(v any) bool {
	text, ok := quantityText(v)
	if !ok {
		return false
	}
	_, err := resource.ParseQuantity(text)
	return err == nil
}

// quantityText is the text resource.Quantity's UnmarshalJSON parses for a value of
// a decoded document as kubectl sends it: a string as Go's encoder writes it
// (escapes and all) between its quotes, anything else as its JSON text; spaces
// trimmed.
func quantityText(v any) (string, bool) {
	text, err := json.Marshal(v)
	if err != nil {
		return "", false
	}
	if _, isString := v.(string); isString {
		text = text[1 : len(text)-1]
	}
	return strings.TrimSpace(string(text)), true
}
