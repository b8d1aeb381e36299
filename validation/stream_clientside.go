package validation

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"k8s.io/apimachinery/pkg/runtime/schema"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
)

// hasFieldValidation reports whether kubectl leaves field validation to the server
// for gvk: true for a served kind that takes PATCH with the fieldValidation parameter
// (cli-runtime pkg/resource query_param_verifier*.go, which look the kind up in the
// server's OpenAPI). Lists, create-only kinds, lower-case aliases and unknown kinds
// get kubectl's own checks instead.
func (s *streamRun) hasFieldValidation(gvk schema.GroupVersionKind) bool {
	k, ok := s.served.servedExactly(gvk)
	return ok && k.patch
}

// clientSideSchema runs the checks kubectl's strict validator falls back to (kubectl
// pkg/validation: the OpenAPI schema validation and NoDoubleKeySchema) on a document
// whose kind has no server-side field validation.
func (s *streamRun) clientSideSchema(raw []byte, obj any, gvk schema.GroupVersionKind) error {
	var errs []error
	if err := s.validateOpenAPI(obj, gvk); err != nil {
		errs = append(errs, err)
	}
	if err := noDoubleKeys(raw); err != nil {
		errs = append(errs, err)
	}
	return utilerrors.NewAggregate(errs)
}

// noDoubleKeys re-expresses kubectl's NoDoubleKeySchema: no key twice in the
// document's metadata.labels nor in its metadata.annotations.
func noDoubleKeys(raw []byte) error {
	var errs []error
	for _, field := range []string{"labels", "annotations"} {
		if err := noDuplicateKeysAt(raw, "metadata", field); err != nil {
			errs = append(errs, err)
		}
	}
	return utilerrors.NewAggregate(errs)
}

// noDuplicateKeysAt mirrors kubectl's validateNoDuplicateKeys, which reads tokens with
// github.com/exponent-io/jsonpath: it seeks the path from the root, then reads tokens
// until the first '}', refusing a key seen before (keys of nested objects included).
func noDuplicateKeysAt(raw []byte, path ...string) error {
	t := newKeyTokenizer(raw)
	for !t.at(path) {
		if _, _, err := t.next(); err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
	}
	seen := map[string]bool{}
	for {
		tok, isKey, err := t.next()
		if err != nil {
			return err
		}
		if d, ok := tok.(json.Delim); ok && d == '}' {
			return nil
		}
		if isKey {
			k := tok.(string)
			if seen[k] {
				return fmt.Errorf("duplicate key: %s", k)
			}
			seen[k] = true
		}
	}
}

// keyTokenizer reads JSON tokens and tracks the path of object keys from the root as
// the jsonpath decoder kubectl uses does.
type keyTokenizer struct {
	dec   *json.Decoder
	path  []any // string keys and int indexes
	inKey bool  // the next string token is a key
	inArr bool  // the current container is an array
}

func newKeyTokenizer(raw []byte) *keyTokenizer {
	return &keyTokenizer{dec: json.NewDecoder(bytes.NewReader(raw))}
}

// at reports whether the current path equals want.
func (t *keyTokenizer) at(want []string) bool {
	if len(t.path) != len(want) {
		return false
	}
	for i, w := range want {
		if s, ok := t.path[i].(string); !ok || s != w {
			return false
		}
	}
	return true
}

// next returns the next token and whether it is an object key.
func (t *keyTokenizer) next() (json.Token, bool, error) {
	tok, err := t.dec.Token()
	if err != nil {
		return tok, false, err
	}
	switch v := tok.(type) {
	case json.Delim:
		switch v {
		case '{':
			t.incIndex()
			t.path = append(t.path, "")
			t.inKey, t.inArr = true, false
		case '[':
			t.incIndex()
			t.path = append(t.path, -1)
			t.inKey, t.inArr = false, true
		default:
			t.path = t.path[:len(t.path)-1]
			t.inferContext()
		}
	case string:
		if t.inKey && !t.inArr {
			t.path[len(t.path)-1] = v
			t.inKey = false
			return tok, true, nil
		}
		t.valueDone()
	default:
		t.valueDone()
	}
	return tok, false, nil
}

// incIndex counts a value starting in an array.
func (t *keyTokenizer) incIndex() {
	if t.inArr && len(t.path) > 0 {
		if i, ok := t.path[len(t.path)-1].(int); ok {
			t.path[len(t.path)-1] = i + 1
		}
	}
}

// valueDone moves on after a scalar value.
func (t *keyTokenizer) valueDone() {
	if t.inArr {
		t.incIndex()
		return
	}
	t.inKey = true
}

// inferContext sets the context after a container closes, from the enclosing one.
func (t *keyTokenizer) inferContext() {
	if len(t.path) == 0 {
		t.inKey, t.inArr = false, false
		return
	}
	_, isIndex := t.path[len(t.path)-1].(int)
	t.inArr, t.inKey = isIndex, !isIndex
}
