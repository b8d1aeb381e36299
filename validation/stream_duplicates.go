package validation

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"

	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// duplicateKeys finds the keys a document repeats, which kubectl's YAML-to-JSON
// conversion (and, for JSON, its unstructured decoding) resolves silently in favour
// of the last one: the server never sees the earlier values.
func (s *streamRun) duplicateKeys(c chunk) []Warning {
	if c.fromYAML {
		return yamlDuplicateKeys(c)
	}
	return jsonDuplicateKeys(c)
}

// yamlDuplicate matches go-yaml v2's strict-mode error for a repeated key.
var yamlDuplicate = regexp.MustCompile(`line (\d+): key (.*) already set in map`)

// yamlDuplicateKeys reads the document again in go-yaml's strict mode, whose errors
// name each repeated key and its line.
func yamlDuplicateKeys(c chunk) []Warning {
	var m map[string]any
	err := utilyaml.UnmarshalStrict(c.text, &m)
	if err == nil {
		return nil
	}
	var out []Warning
	for _, g := range yamlDuplicate.FindAllStringSubmatch(err.Error(), -1) {
		n, _ := strconv.Atoi(g[1])
		out = append(out, duplicateWarning(c.start+n-1, g[2]))
	}
	return out
}

// duplicateWarning words the warning for a repeated key.
func duplicateWarning(line int, key string) Warning {
	return Warning{Line: line, Message: fmt.Sprintf("duplicate key %s: kubectl keeps only the last value and the API server never sees the others", key)}
}

// jsonDuplicateKeys scans a JSON value for keys repeated within an object.
func jsonDuplicateKeys(c chunk) []Warning {
	dec := json.NewDecoder(bytes.NewReader(c.text))
	type object struct {
		keys   map[string]bool
		expect bool // the next string is a key
	}
	var stack []*object
	var out []Warning
	for {
		tok, err := dec.Token()
		if err != nil {
			return out
		}
		var top *object
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		switch v := tok.(type) {
		case json.Delim:
			switch v {
			case '{':
				stack = append(stack, &object{keys: map[string]bool{}, expect: true})
			case '[':
				stack = append(stack, nil)
			default:
				stack = stack[:len(stack)-1]
				if len(stack) > 0 && stack[len(stack)-1] != nil {
					stack[len(stack)-1].expect = true
				}
			}
			continue
		case string:
			if top != nil && top.expect {
				if top.keys[v] {
					line := c.start + bytes.Count(c.text[:dec.InputOffset()], []byte("\n"))
					out = append(out, duplicateWarning(line, strconv.Quote(v)))
				}
				top.keys[v] = true
				top.expect = false
				continue
			}
		}
		if top != nil {
			top.expect = true
		}
	}
}
