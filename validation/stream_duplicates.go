package validation

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

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
// name each repeated key and its line, unless a quick look at its lines proves that no
// key repeats.
func yamlDuplicateKeys(c chunk) []Warning {
	// go-yaml also breaks lines at a lone CR and at NEL, LS and PS, and numbers its
	// lines so; the scans below and the warning's line read the document as go-yaml
	// does, and rows turns go-yaml's lines back into the file's.
	text, rows := yamlLines(c.text)
	if !mayRepeatKeys(text) {
		return nil
	}
	var m map[string]any
	err := utilyaml.UnmarshalStrict(c.text, &m)
	if err == nil {
		return nil
	}
	var out []Warning
	for _, g := range yamlDuplicate.FindAllStringSubmatch(err.Error(), -1) {
		n, _ := strconv.Atoi(g[1])
		if key, err := strconv.Unquote(g[2]); err == nil && mergeOverride(text, n, key) {
			continue
		}
		// go-yaml reports a repeat inside an anchored node once per alias of it.
		if w := duplicateWarning(c.start+textLine(rows, n)-1, g[2]); !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// textLine returns the line, counted at "\n", on which go-yaml's line n starts, given
// yamlLines' rows (nil when the two count alike).
func textLine(rows []int, n int) int {
	if n >= 1 && n <= len(rows) {
		return rows[n-1]
	}
	return n
}

// yamlLines returns text as go-yaml splits it into lines, with "\n" at every break it
// counts ("\r\n", a lone CR, "\n", NEL, LS, PS; yaml.v2's is_break), and, for each of
// those lines, the 1-based line of text (lines separated by "\n") it starts on. When
// text breaks lines at "\n" (or "\r\n") only, the two count alike: it returns text
// itself and nil rows.
func yamlLines(text []byte) ([]byte, []int) {
	if bytes.Count(text, []byte("\r")) == bytes.Count(text, []byte("\r\n")) &&
		!bytes.Contains(text, []byte("\u0085")) && !bytes.Contains(text, []byte("\u2028")) && !bytes.Contains(text, []byte("\u2029")) {
		return text, nil
	}
	out := make([]byte, 0, len(text))
	rows := []int{1}
	row := 1
	for i := 0; i < len(text); {
		width := 0
		switch {
		case text[i] == '\r' && i+1 < len(text) && text[i+1] == '\n':
			width = 2
			row++
		case text[i] == '\n':
			width = 1
			row++
		case text[i] == '\r':
			width = 1
		case bytes.HasPrefix(text[i:], []byte("\u0085")):
			width = 2
		case bytes.HasPrefix(text[i:], []byte("\u2028")), bytes.HasPrefix(text[i:], []byte("\u2029")):
			width = 3
		}
		if width == 0 {
			out = append(out, text[i])
			i++
			continue
		}
		out = append(out, '\n')
		rows = append(rows, row)
		i += width
	}
	return out, rows
}

// mergeOverride reports whether go-yaml's repeated key at the 1-based line n of a
// document is a key written in a block mapping after a merge key ("<<: *base") that
// brought the same key in: the override YAML means, which go-yaml's strict mode counts
// as a repeat. It answers false whenever it is not sure: a flow mapping, a value on
// a later line than its key, the key written twice by hand.
func mergeOverride(text []byte, n int, key string) bool {
	lines := bytes.Split(text, []byte("\n"))
	if n < 1 || n > len(lines) {
		return false
	}
	col, content := mappingEntry(lines[n-1])
	if len(content) == 0 {
		return false
	}
	if k, _, kind := splitKey(content); kind != keyPlain || k != key {
		return false
	}
	merged := false
	for i := n - 2; i >= 0; i-- {
		line := bytes.TrimSuffix(lines[i], []byte("\r"))
		trimmed := bytes.TrimLeft(line, " ")
		if len(trimmed) == 0 || trimmed[0] == '#' {
			continue
		}
		c, entry := mappingEntry(line)
		lineCol := len(line) - len(trimmed)
		switch {
		case len(entry) == 0 || anchorOnly(entry):
			if lineCol < col {
				return merged // "-" alone or "- &anchor": a sequence entry starting on the next line
			}
		case c == col:
			if isMergeKey(entry) {
				merged = true
			} else if k, _, kind := splitKey(entry); kind != keyPlain || k == key {
				return false // written twice, or a key the scan does not follow
			}
			if lineCol < col {
				return merged // a sequence entry's first key: the mapping starts here
			}
		case lineCol < col:
			return merged // the parent's line
		}
	}
	return merged
}

// mappingEntry returns the column and the content of a block line, after the "- "
// that open sequence entries.
func mappingEntry(line []byte) (int, []byte) {
	line = bytes.TrimSuffix(line, []byte("\r"))
	content := bytes.TrimLeft(line, " ")
	col := len(line) - len(content)
	for len(content) > 1 && content[0] == '-' && content[1] == ' ' {
		rest := bytes.TrimLeft(content[1:], " ")
		col += len(content) - len(rest)
		content = rest
	}
	return col, content
}

// anchorOnly reports whether a line's content is an anchor and nothing else
// ("&base", maybe followed by a comment): the node it names starts on the next line.
func anchorOnly(content []byte) bool {
	if len(content) < 2 || content[0] != '&' {
		return false
	}
	end := bytes.IndexAny(content, " \t")
	if end < 0 {
		return true
	}
	rest := bytes.TrimLeft(content[end:], " \t")
	return len(rest) == 0 || rest[0] == '#'
}

// isMergeKey reports whether a line's content is a merge key ("<<: *base").
func isMergeKey(content []byte) bool {
	rest, ok := bytes.CutPrefix(content, []byte("<<"))
	rest = bytes.TrimLeft(rest, " ")
	return ok && len(rest) > 0 && rest[0] == ':' && (len(rest) == 1 || rest[1] == ' ')
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

// mayRepeatKeys reports whether a YAML document may repeat a key in a mapping: false
// only when its lines are block style that the scan follows and no block mapping has a
// key twice. Whatever it does not follow (flow mappings, multi-line quoted scalars, keys
// that are not plain strings, tabs, tags and anchors on keys, merge keys, directives)
// answers true, and the caller then asks go-yaml.
func mayRepeatKeys(text []byte) bool {
	type scope struct {
		col  int
		keys map[string]bool
	}
	var stack []scope
	pop := func(col int) {
		for len(stack) > 0 && stack[len(stack)-1].col > col {
			stack = stack[:len(stack)-1]
		}
	}
	block := -1 // lines indented more than this are a block scalar's text
lines:
	for n := 0; len(text) > 0; n++ {
		line := text
		if i := bytes.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = nil
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		content := bytes.TrimLeft(line, " ")
		col := len(line) - len(content)
		if len(bytes.TrimSpace(content)) == 0 || content[0] == '#' {
			continue
		}
		if block >= 0 && col > block {
			continue
		}
		block = -1
		switch {
		case n == 0 && bytes.HasPrefix(line, []byte("---")):
			if rest := bytes.TrimSpace(line[3:]); len(rest) == 0 || rest[0] == '#' {
				continue
			}
			return true
		case content[0] == '\t', content[0] == '%', bytes.HasPrefix(content, []byte("...")):
			return true
		}
		for len(content) > 0 && content[0] == '-' && (len(content) == 1 || content[1] == ' ') {
			dash := col
			pop(dash)
			rest := bytes.TrimLeft(content[1:], " ")
			col += len(content) - len(rest)
			content = rest
			if len(content) == 0 || content[0] == '#' {
				continue lines // the entry's node starts on a later line
			}
			if content[0] == '|' || content[0] == '>' {
				block = dash
			}
			stack = append(stack, scope{col: col, keys: map[string]bool{}})
		}
		key, value, kind := splitKey(content)
		switch kind {
		case keyUnsure:
			return true
		case keyNone:
			if !safeValue(content) {
				return true
			}
			continue
		}
		pop(col)
		if len(stack) == 0 || stack[len(stack)-1].col < col {
			stack = append(stack, scope{col: col, keys: map[string]bool{}})
		}
		if top := stack[len(stack)-1]; top.keys[key] {
			return true
		} else {
			top.keys[key] = true
		}
		value = bytes.TrimSpace(value)
		if !safeValue(value) {
			return true
		}
		if len(value) > 0 && (value[0] == '|' || value[0] == '>') {
			block = col
		}
	}
	return false
}

// What splitKey found at the start of a line's content.
const (
	keyNone   = iota // no key: a scalar or a flow collection
	keyPlain         // a key that go-yaml decodes as the string returned
	keyUnsure        // a key the scan does not follow
)

// splitKey reads "key: value" at the start of content.
func splitKey(content []byte) (key string, value []byte, kind int) {
	switch content[0] {
	case '"', '\'':
		q := content[0]
		end := bytes.IndexByte(content[1:], q) + 1
		if end == 0 {
			return "", nil, keyNone // a multi-line quoted scalar: safeValue refuses it
		}
		after := content[end+1:]
		if len(after) > 0 && after[0] == ':' && (len(after) == 1 || after[1] == ' ') {
			inner := content[1:end]
			if bytes.IndexByte(inner, '\\') >= 0 || end+1 < len(content) && content[end+1] == q {
				return "", nil, keyUnsure
			}
			return string(inner), after[1:], keyPlain
		}
		return "", nil, keyNone
	case '?', '&', '!', '*', '<', '@', '`':
		return "", nil, keyUnsure
	case '{', '[', '|', '>':
		return "", nil, keyNone
	}
	for i := 0; i < len(content); i++ {
		switch {
		case content[i] == ' ' && i+1 < len(content) && content[i+1] == '#':
			return "", nil, keyNone
		case content[i] == ':' && (i+1 == len(content) || content[i+1] == ' '):
			k := bytes.TrimRight(content[:i], " ")
			if len(k) == 0 || !simpleKey(k) {
				return "", nil, keyUnsure
			}
			return string(k), content[i+1:], keyPlain
		}
	}
	return "", nil, keyNone
}

// safeValue reports whether a value (or a sequence entry) cannot hide a repeated key
// from the line scan: empty, a plain or block scalar, a quoted scalar closed on the
// line, or a flow sequence closed on the line without mappings in it.
func safeValue(v []byte) bool {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return true
	}
	switch v[0] {
	case '"', '\'':
		return closedQuote(v)
	case '{', '?', '@', '`':
		return false
	case '[':
		return bytes.IndexByte(v, '{') < 0 && balancedBrackets(v)
	}
	return true
}

// closedQuote reports whether the quoted scalar starting v ends on the line, followed
// by nothing but a comment.
func closedQuote(v []byte) bool {
	q := v[0]
	i := 1
	for ; i < len(v); i++ {
		switch {
		case q == '"' && v[i] == '\\':
			i++
		case v[i] == q && q == '\'' && i+1 < len(v) && v[i+1] == '\'':
			i++
		case v[i] == q:
			rest := bytes.TrimSpace(v[i+1:])
			return len(rest) == 0 || rest[0] == '#'
		}
	}
	return false
}

// simpleKey reports whether k is a plain scalar go-yaml v2 decodes as the string k:
// letters, digits and "-_./", starting with a letter or "_", not a YAML 1.1 boolean
// or null.
func simpleKey(k []byte) bool {
	c := k[0]
	if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_') {
		return false
	}
	for _, c := range k {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' || c == '/') {
			return false
		}
	}
	switch strings.ToLower(string(k)) {
	case "y", "yes", "n", "no", "true", "false", "on", "off", "null", "nan", "inf":
		return false
	}
	return true
}

// balancedBrackets reports whether the square brackets of s close on the same line.
func balancedBrackets(s []byte) bool {
	depth := 0
	for _, c := range s {
		switch c {
		case '[':
			depth++
		case ']':
			if depth--; depth < 0 {
				return false
			}
		}
	}
	return depth == 0
}
