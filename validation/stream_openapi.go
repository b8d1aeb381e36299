package validation

import (
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/runtime/schema"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
)

// kubectl validates a List, and the kinds the server does not validate fields for,
// against the server's OpenAPI v2 models itself (k8s.io/kubectl pkg/validation
// schemaValidation, with k8s.io/kube-openapi pkg/util/proto/validation). This file
// re-expresses that validation over openAPIModels, the models of a default v1.37.2
// server (zz_generated_openapi.go).

// oaSchema is one schema of a model, as kube-openapi's proto package reads it.
type oaSchema struct {
	// kind is 'K' for an object with properties, 's', 'i', 'n' or 'b' for a string,
	// integer, number or boolean, 'a' for anything, '@' for a reference to the model
	// ref, '[' for an array and '{' for a map of sub.
	kind     byte
	path     string // the schema's path: the model's name, then ".field"
	ref      string
	sub      *oaSchema
	fields   map[string]*oaSchema
	required []string
}

// oaModels are the parsed models and kubectl's index of them by kind.
type oaModels struct {
	defs  map[string]*oaSchema
	index map[schema.GroupVersionKind]string
}

// lazyModels parses openAPIModels once, when first asked, for a stream and the
// results it yields, which may ask from several goroutines.
type lazyModels struct {
	once   sync.Once
	models *oaModels
}

// get returns the parsed models.
func (l *lazyModels) get() *oaModels {
	l.once.Do(func() { l.models = parseOpenAPIModels() })
	return l.models
}

// parseOpenAPIModels reads openAPIModels.
func parseOpenAPIModels() *oaModels {
	m := &oaModels{defs: map[string]*oaSchema{}, index: map[schema.GroupVersionKind]string{}}
	for _, line := range strings.Split(strings.TrimSuffix(openAPIModels, "\n"), "\n") {
		parts := strings.Split(line, "\t")
		switch parts[0] {
		case "D":
			name := parts[1]
			if parts[2] != "K" {
				m.defs[name] = parseOASchema(parts[2], name)
				continue
			}
			k := &oaSchema{kind: 'K', path: name, fields: map[string]*oaSchema{}}
			if parts[3] != "" {
				k.required = strings.Split(parts[3], ",")
			}
			for _, f := range parts[4:] {
				field, enc, _ := strings.Cut(f, "=")
				k.fields[field] = parseOASchema(enc, name+"."+field)
			}
			m.defs[name] = k
		case "G":
			m.index[schema.GroupVersionKind{Group: parts[1], Version: parts[2], Kind: parts[3]}] = parts[4]
		}
	}
	return m
}

// parseOASchema reads an encoded schema that is not a kind.
func parseOASchema(enc, path string) *oaSchema {
	s := &oaSchema{kind: enc[0], path: path}
	switch s.kind {
	case '@':
		s.ref = enc[1:]
	case '[', '{':
		s.sub = parseOASchema(enc[1:], path)
	}
	return s
}

// primitiveType names a primitive schema's type as OpenAPI does.
func (s *oaSchema) primitiveType() string {
	switch s.kind {
	case 's':
		return "string"
	case 'i':
		return "integer"
	case 'n':
		return "number"
	}
	return "boolean"
}

// validateOpenAPI re-expresses kubectl's schemaValidation.ValidateBytes once the kind
// is known: a v1 List is validated item by item, another kind against its model when
// the server publishes one.
func (s *streamRun) validateOpenAPI(obj any, gvk schema.GroupVersionKind) error {
	if gvk == (schema.GroupVersionKind{Version: "v1", Kind: "List"}) {
		return utilerrors.NewAggregate(s.validateOpenAPIList(obj))
	}
	return utilerrors.NewAggregate(s.validateOpenAPIResource(obj, gvk))
}

// validateOpenAPIList mirrors schemaValidation.validateList.
func (s *streamRun) validateOpenAPIList(obj any) []error {
	fields, _ := obj.(map[string]any)
	items, ok := fields["items"].([]any)
	if !ok {
		return []error{errors.New("invalid object to validate")}
	}
	var errs []error
	for _, item := range items {
		gvk, kindErrs := objectKind(item)
		if kindErrs != nil {
			errs = append(errs, kindErrs...)
			continue
		}
		errs = append(errs, s.validateOpenAPIResource(item, gvk)...)
	}
	return errs
}

// validateOpenAPIResource mirrors schemaValidation.validateResource.
func (s *streamRun) validateOpenAPIResource(obj any, gvk schema.GroupVersionKind) []error {
	models := s.models.get()
	name, ok := models.index[gvk]
	if !ok || s.served.gatedOff(gvk) {
		// A kind the server does not serve is not in the document it publishes
		// (it builds it from the routes it installed), so kubectl finds no model.
		return nil
	}
	item, err := newOAItem(gvk.Kind, obj)
	if err != nil {
		return []error{err}
	}
	item.accept(models, models.defs[name])
	return item.errs
}

// oaItem is a value being validated (kube-openapi validation's mapItem, arrayItem and
// primitiveItem in one): its path and the errors found.
type oaItem struct {
	path  string
	value any
	kind  string // "map", "array", or the primitive's type
	errs  []error
}

// newOAItem is kube-openapi validation's itemFactory.
func newOAItem(path string, v any) (*oaItem, error) {
	if v == nil {
		return nil, oaObjectTypeError(path, "nil")
	}
	item := &oaItem{path: path, value: v}
	switch k := reflect.TypeOf(v).Kind(); k {
	case reflect.Bool:
		item.kind = "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		item.kind = "integer"
	case reflect.Float32, reflect.Float64:
		item.kind = "number"
	case reflect.String:
		item.kind = "string"
	case reflect.Array, reflect.Slice:
		item.kind = "array"
	case reflect.Map:
		item.kind = "map"
	default:
		return nil, oaObjectTypeError(path, k.String())
	}
	return item, nil
}

// The errors of kube-openapi's validation, in its words.
func oaObjectTypeError(path, typ string) error {
	return fmt.Errorf("unknown object type %q in %s", typ, path)
}

func oaTypeError(path, actual, expected string) error {
	return fmt.Errorf("invalid type for %s: got %q, expected %q", path, actual, expected)
}

// addValidationError records err as a ValidationError at the item's path.
func (it *oaItem) addValidationError(err error) {
	it.errs = append(it.errs, fmt.Errorf("ValidationError(%s): %w", it.path, err))
}

// child validates a sub-value against s and keeps its errors.
func (it *oaItem) child(m *oaModels, path string, v any, s *oaSchema) {
	sub, err := newOAItem(path, v)
	if err != nil {
		it.errs = append(it.errs, err)
		return
	}
	sub.accept(m, s)
	it.errs = append(it.errs, sub.errs...)
}

// accept validates the item against s, as the item visitors of kube-openapi do.
func (it *oaItem) accept(m *oaModels, s *oaSchema) {
	switch s.kind {
	case '@':
		it.accept(m, m.defs[s.ref])
	case 'a':
	case 'K':
		it.visitKind(m, s)
	case '{':
		it.visitMap(m, s)
	case '[':
		it.visitArray(m, s)
	default:
		it.visitPrimitive(s)
	}
}

// visitKind checks an object against a model with properties.
func (it *oaItem) visitKind(m *oaModels, s *oaSchema) {
	obj, isMap := it.value.(map[string]any)
	if !isMap {
		it.addValidationError(oaTypeError(s.path, it.kind, "map"))
		return
	}
	for _, key := range sortedKeysOf(obj) {
		if obj[key] == nil {
			continue
		}
		if _, err := newOAItem(it.path+"."+key, obj[key]); err != nil {
			it.errs = append(it.errs, err)
			continue
		}
		field, known := s.fields[key]
		if !known {
			it.addValidationError(fmt.Errorf("unknown field %q in %s", key, s.path))
			continue
		}
		it.child(m, it.path+"."+key, obj[key], field)
	}
	for _, req := range s.required {
		if v, ok := obj[req]; !ok || v == nil {
			it.addValidationError(fmt.Errorf("missing required field %q in %s", req, s.path))
		}
	}
}

// visitMap checks an object against a map schema.
func (it *oaItem) visitMap(m *oaModels, s *oaSchema) {
	obj, isMap := it.value.(map[string]any)
	if !isMap {
		it.addValidationError(oaTypeError(s.path, it.kind, "map"))
		return
	}
	for _, key := range sortedKeysOf(obj) {
		it.child(m, it.path+"."+key, obj[key], s.sub)
	}
}

// visitArray checks an array against an array schema.
func (it *oaItem) visitArray(m *oaModels, s *oaSchema) {
	list, isArray := it.value.([]any)
	if !isArray {
		it.addValidationError(oaTypeError(s.path, it.kind, "array"))
		return
	}
	for i, v := range list {
		path := fmt.Sprintf("%s[%d]", it.path, i)
		if v == nil {
			it.addValidationError(oaObjectTypeError(path, "nil"))
			continue
		}
		it.child(m, path, v, s.sub)
	}
}

// visitPrimitive checks a value against a primitive schema: a string accepts any
// primitive, a number or an integer any number, a boolean only a boolean.
func (it *oaItem) visitPrimitive(s *oaSchema) {
	want := s.primitiveType()
	switch {
	case it.kind == "map" || it.kind == "array":
	case want == "string",
		want == "boolean" && it.kind == "boolean",
		(want == "integer" || want == "number") && (it.kind == "integer" || it.kind == "number"):
		return
	}
	it.addValidationError(oaTypeError(s.path, it.kind, want))
}

// sortedKeysOf returns a map's keys in order.
func sortedKeysOf(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
