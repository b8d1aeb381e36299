package validation

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// pathSegment is one step of a field path: a key, or a bracketed key or index.
type pathSegment struct {
	name    string
	bracket bool
}

// parseFieldPath splits a field path as field.Path prints it
// ("spec.containers[0].image", "metadata.labels[app.kubernetes.io/name]").
func parseFieldPath(path string) []pathSegment {
	var segs []pathSegment
	for len(path) > 0 {
		switch path[0] {
		case '.':
			path = path[1:]
		case '[':
			end := strings.IndexByte(path, ']')
			if end < 0 {
				return append(segs, pathSegment{name: path[1:], bracket: true})
			}
			segs = append(segs, pathSegment{name: path[1:end], bracket: true})
			path = path[end+1:]
		default:
			end := strings.IndexAny(path, ".[")
			if end < 0 {
				end = len(path)
			}
			segs = append(segs, pathSegment{name: path[:end]})
			path = path[end:]
		}
	}
	return segs
}

// locate returns the 0-based line, within a document's text, of the deepest part of
// path the text holds (0 for the document itself). It reads block-style YAML and JSON;
// where the text uses flow style or constructs it does not follow, it stops at the
// deepest part found so far.
func locate(text []byte, fromYAML bool, path []pathSegment) int {
	if !fromYAML {
		return locateJSON(text, path)
	}
	return locateLines(splitYAMLLines(text), path)
}

// locateLines is locate on a YAML document already split into lines.
func locateLines(lines []yamlLine, path []pathSegment) int {
	r, ok := firstRegion(lines)
	if !ok {
		return 0
	}
	found := lines[r.first].number
	for _, seg := range path {
		next, line, ok := r.child(lines, seg)
		if !ok {
			break
		}
		r, found = next, line
	}
	return found
}

// yamlLine is one line of a YAML document: its indentation and content.
type yamlLine struct {
	number  int    // 0-based line in the document
	indent  int    // leading spaces
	content string // the rest, without the line end
	blank   bool   // blank or a comment only
}

// splitYAMLLines splits text into lines; a line indented with a tab is blank, as
// go-yaml refuses tabs there.
func splitYAMLLines(text []byte) []yamlLine {
	var lines []yamlLine
	for n := 0; len(text) > 0; n++ {
		line := text
		if i := bytes.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = nil
		}
		s := strings.TrimSuffix(string(line), "\r")
		content := strings.TrimLeft(s, " ")
		l := yamlLine{number: n, indent: len(s) - len(content), content: content}
		if c := strings.TrimSpace(content); c == "" || c[0] == '#' || strings.HasPrefix(content, "\t") ||
			n == 0 && strings.HasPrefix(s, "---") {
			l.blank = true
		}
		lines = append(lines, l)
	}
	return lines
}

// yamlRegion is the part of a document holding one value: from line first (whose
// content starts at column col) to line end (exclusive).
type yamlRegion struct {
	first, col, end int
}

// firstRegion is the whole document.
func firstRegion(lines []yamlLine) (yamlRegion, bool) {
	for i, l := range lines {
		if !l.blank {
			return yamlRegion{first: i, col: l.indent, end: len(lines)}, true
		}
	}
	return yamlRegion{}, false
}

// at returns the column and content of line i of the region.
func (r yamlRegion) at(lines []yamlLine, i int) (int, string) {
	if i == r.first {
		l := lines[i]
		return r.col, l.content[min(len(l.content), r.col-l.indent):]
	}
	return lines[i].indent, lines[i].content
}

// child finds seg in the region: a key of the mapping it holds, or an entry of the
// sequence it holds.
func (r yamlRegion) child(lines []yamlLine, seg pathSegment) (yamlRegion, int, bool) {
	col, content := r.at(lines, r.first)
	if !isSequenceEntry(content) {
		return r.key(lines, col, seg.name)
	}
	if i, err := strconv.Atoi(seg.name); err == nil && seg.bracket {
		return r.entry(lines, col, i)
	}
	// A key met on a sequence: paths without indexes (encoding/json's type errors
	// name "spec.containers.args") mean the first entry that has the key.
	for i := 0; ; i++ {
		e, _, ok := r.entry(lines, col, i)
		if !ok {
			return yamlRegion{}, 0, false
		}
		ecol, econtent := e.at(lines, e.first)
		if isSequenceEntry(econtent) {
			continue
		}
		if found, line, ok := e.key(lines, ecol, seg.name); ok {
			return found, line, true
		}
	}
}

// isSequenceEntry reports whether content starts a block sequence entry.
func isSequenceEntry(content string) bool {
	return content == "-" || strings.HasPrefix(content, "- ")
}

// key finds a key of the block mapping at column col.
func (r yamlRegion) key(lines []yamlLine, col int, key string) (yamlRegion, int, bool) {
	for i := r.first; i < r.end; i++ {
		if lines[i].blank {
			continue
		}
		c, content := r.at(lines, i)
		if c < col {
			break
		}
		if c > col || isSequenceEntry(content) {
			continue
		}
		k, rest, ok := mappingKey(content)
		if !ok || k != key {
			continue
		}
		end := i + 1
		for end < r.end && (lines[end].blank || lines[end].indent > col || lines[end].indent == col && isSequenceEntry(lines[end].content)) {
			end++
		}
		value := strings.TrimLeft(rest, " ")
		if value != "" && value[0] != '#' {
			return yamlRegion{first: i, col: c + len(content) - len(value), end: end}, lines[i].number, true
		}
		for j := i + 1; j < end; j++ {
			if !lines[j].blank {
				return yamlRegion{first: j, col: lines[j].indent, end: end}, lines[i].number, true
			}
		}
		return yamlRegion{first: i, col: c + len(content), end: i + 1}, lines[i].number, true
	}
	return yamlRegion{}, 0, false
}

// entry finds the n-th (0-based) entry of the block sequence at column col.
func (r yamlRegion) entry(lines []yamlLine, col, n int) (yamlRegion, int, bool) {
	seen := -1
	for i := r.first; i < r.end; i++ {
		if lines[i].blank {
			continue
		}
		c, content := r.at(lines, i)
		if c < col {
			break
		}
		if c > col || !isSequenceEntry(content) {
			continue
		}
		if seen++; seen != n {
			continue
		}
		end := i + 1
		for end < r.end && (lines[end].blank || lines[end].indent > col) {
			end++
		}
		value := strings.TrimLeft(content[1:], " ")
		if value != "" && value[0] != '#' {
			return yamlRegion{first: i, col: c + len(content) - len(value), end: end}, lines[i].number, true
		}
		for j := i + 1; j < end; j++ {
			if !lines[j].blank {
				return yamlRegion{first: j, col: lines[j].indent, end: end}, lines[i].number, true
			}
		}
		return yamlRegion{first: i, col: c + len(content), end: i + 1}, lines[i].number, true
	}
	return yamlRegion{}, 0, false
}

// mappingKey reads "key: value" (plain or simply quoted key) and returns the key and
// what follows the colon.
func mappingKey(content string) (key, rest string, ok bool) {
	if content == "" {
		return "", "", false
	}
	if q := content[0]; q == '"' || q == '\'' {
		end := strings.IndexByte(content[1:], q)
		if end < 0 {
			return "", "", false
		}
		key, content = content[1:end+1], content[end+2:]
		if !strings.HasPrefix(content, ":") {
			return "", "", false
		}
		return key, content[1:], true
	}
	for i := 0; i < len(content); i++ {
		if content[i] == ':' && (i+1 == len(content) || content[i+1] == ' ') {
			return strings.TrimRight(content[:i], " "), content[i+1:], true
		}
		if content[i] == ' ' && i+1 < len(content) && content[i+1] == '#' {
			return "", "", false
		}
	}
	return "", "", false
}

// locateJSON is locate for a JSON text.
func locateJSON(text []byte, path []pathSegment) int {
	dec := json.NewDecoder(bytes.NewReader(text))
	found := int64(0)
	lineOf := func(off int64) int {
		for off < int64(len(text)) && (text[off] == ' ' || text[off] == '\t' || text[off] == '\n' || text[off] == '\r' || text[off] == ',' || text[off] == ':') {
			off++
		}
		return bytes.Count(text[:min(off, int64(len(text)))], []byte("\n"))
	}
	for _, seg := range path {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		delim, _ := tok.(json.Delim)
		switch delim {
		case '{':
			off, ok := seekJSONKey(dec, seg.name)
			if !ok {
				return lineOf(found)
			}
			found = off
		case '[':
			i, err := strconv.Atoi(seg.name)
			if err != nil || !seg.bracket {
				return lineOf(found)
			}
			ok := true
			for ; i > 0 && ok; i-- {
				ok = skipJSONValue(dec)
			}
			if !ok || !dec.More() {
				return lineOf(found)
			}
			found = dec.InputOffset()
		default:
			return lineOf(found)
		}
	}
	return lineOf(found)
}

// seekJSONKey reads an object's keys up to key and returns the offset of the key's
// start; the decoder is then before the key's value.
func seekJSONKey(dec *json.Decoder, key string) (int64, bool) {
	for dec.More() {
		start := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return 0, false
		}
		if k, _ := tok.(string); k == key {
			return start, true
		}
		if !skipJSONValue(dec) {
			return 0, false
		}
	}
	return 0, false
}

// skipJSONValue reads past one value.
func skipJSONValue(dec *json.Decoder) bool {
	var v json.RawMessage
	return dec.Decode(&v) == nil
}
