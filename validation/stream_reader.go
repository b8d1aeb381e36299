package validation

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"k8s.io/apimachinery/pkg/runtime"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// chunk is one document of a stream as kubectl's decoder (k8s.io/apimachinery
// pkg/util/yaml YAMLOrJSONDecoder, which kubectl's stream visitor drives) yields it,
// with where it came from.
type chunk struct {
	// raw is the document as JSON (the RawExtension kubectl decodes into), trimmed.
	raw []byte
	// text is the document's own text: the YAML lines or the JSON value.
	text []byte
	// fromYAML is true when raw was converted from YAML (and so has sorted keys and
	// no duplicates); false for a value of a JSON stream, passed as written.
	fromYAML bool
	// start is the 1-based line of the file where text starts; line is the first line
	// of text that holds content (not blank, a comment or "---").
	start, line int
	// err is the decoder's error for this document; errLine is the file line it
	// points at (0 when it names none); final means nothing can be read after it.
	err     error
	errLine int
	final   bool
}

// The reader's states.
const (
	readStart = iota
	readJSON
	readYAML
	readDone
)

// sniffSize is how far kubectl looks for a JSON stream's opening brace
// (cli-runtime NewStreamVisitor: NewYAMLOrJSONDecoder(r, 4096)).
const sniffSize = 4096

// errDocumentTooLarge is reported for a document longer than the MaxDocumentBytes limit.
var errDocumentTooLarge = errors.New("document too large")

// docReader splits a stream into documents exactly as YAMLOrJSONDecoder does:
//   - when the first non-space character of the first 4096 bytes is '{', the stream
//     is read as concatenated JSON values; if the first or second value fails to
//     parse, the decoder goes back to the end of the last good value, skips white
//     space up to and including the first newline, and reads the rest as YAML; the
//     error it reports for that document is the JSON one;
//   - YAML is read line by line (a trailing "\r" before "\n" is dropped); a line
//     starting with "---" ends a non-empty document when the rest of the line is blank
//     or a comment, and is kept as the first line of the document otherwise when
//     nothing precedes it; any other text after "---" is an error that drops the
//     lines read so far; each document is converted to JSON by sigs.k8s.io/yaml
//     (go-yaml v2, non-strict: later duplicate keys win);
//   - values that are empty or null are skipped.
//
// Unlike kubectl, which stops reading a file at the first error, docReader goes on
// with the next YAML document when it can.
type docReader struct {
	src   source
	state int
	count int // documents decoded so far (the decoder's count)
	max   int // MaxDocumentBytes, 0 for no limit

	// JSON mode: dec reads src from fed; done is the end of the last good value.
	dec  *json.Decoder
	fed  int64
	done int64

	// line bookkeeping: lines newlines precede the absolute offset counted.
	counted int64
	lines   int

	// YAML mode: the read position and the 1-based line it is on.
	ypos  int64
	yline int
}

func newDocReader(r io.Reader, maxDoc int) *docReader {
	return &docReader{src: source{r: newTranscoder(r)}, max: maxDoc}
}

// next returns the next document, or false at the end of the stream.
func (d *docReader) next() (chunk, bool) {
	for {
		var c chunk
		var ok bool
		switch d.state {
		case readStart:
			d.start()
			continue
		case readJSON:
			c, ok = d.nextJSON()
		case readYAML:
			c, ok = d.nextYAML()
		default:
			return chunk{}, false
		}
		if !ok {
			return chunk{}, false
		}
		if c.err != nil {
			return c, true
		}
		c.raw = bytes.TrimSpace(c.raw)
		if len(c.raw) == 0 || string(c.raw) == "null" {
			continue
		}
		return c, true
	}
}

// start looks at the first bytes to choose between JSON and YAML.
func (d *docReader) start() {
	for len(d.src.buf) < sniffSize && d.src.more() {
	}
	head := d.src.buf[:min(len(d.src.buf), sniffSize)]
	if bytes.HasPrefix(bytes.TrimLeftFunc(head, unicode.IsSpace), []byte("{")) {
		d.state = readJSON
		d.dec = json.NewDecoder(jsonFeed{d})
		return
	}
	d.state, d.yline = readYAML, 1
}

// nextJSON decodes the next value of a JSON stream.
func (d *docReader) nextJSON() (chunk, bool) {
	var raw json.RawMessage
	err := d.dec.Decode(&raw)
	if err == nil {
		d.count++
		end := d.dec.InputOffset()
		start := end - int64(len(raw))
		line := d.lineAt(start) + 1
		c := chunk{raw: raw, text: raw, start: line, line: line}
		d.lineAt(end)
		d.done = end
		d.src.drop(end)
		return c, true
	}
	if err == io.EOF {
		d.state = readDone
		return chunk{}, false
	}
	if d.src.err != nil || errors.Is(err, errDocumentTooLarge) {
		d.state = readDone
		return d.readFailure(err), true
	}
	first, errLine := err, d.lineOf(d.nextValue())+1
	var syntax *json.SyntaxError
	if errors.As(err, &syntax) {
		first = utilyaml.JSONSyntaxError{Offset: syntax.Offset, Err: syntax}
		errLine = d.lineOf(min(syntax.Offset, d.src.end())) + 1
	}
	if d.count > 1 {
		// More than one value read: a JSON stream for sure, and the error is final.
		d.state = readDone
		return chunk{err: err, errLine: errLine, final: true, line: errLine}, true
	}
	// Ambiguous: go back to the end of the last good value and read YAML from there.
	d.dec = nil
	p, ok := d.skipSpaceThroughNewline(d.done)
	if !ok {
		d.state = readDone
		return chunk{err: first, errLine: errLine, final: true, line: errLine}, true
	}
	d.state, d.ypos, d.yline = readYAML, p, d.lineAt(p)+1
	c, more := d.nextYAML()
	if !more {
		return c, false
	}
	if c.err != nil && !c.final {
		c.err, c.errLine = first, errLine
	}
	return c, true
}

// skipSpaceThroughNewline mirrors YAMLOrJSONDecoder.consumeWhitespace: from p, white
// space is skipped up to and including the first newline, four bytes at a time being
// looked at; fewer than four bytes left, or an invalid (or U+FFFD) character, fails.
func (d *docReader) skipSpaceThroughNewline(p int64) (int64, bool) {
	for {
		for d.src.end()-p < 4 && d.src.more() {
		}
		if d.src.end()-p < 4 {
			return p, false
		}
		r, size := utf8.DecodeRune(d.src.at(p, 4))
		if r == utf8.RuneError {
			return p, false
		}
		if !unicode.IsSpace(r) {
			return p, true
		}
		p += int64(size)
		if r == '\n' {
			return p, true
		}
	}
}

// nextYAML reads the next YAML document and converts it to JSON.
func (d *docReader) nextYAML() (chunk, bool) {
	var doc []byte
	docLine := 0
	tooLarge := false
	for {
		line, lineNo, eof := d.readLine()
		if d.src.err != nil {
			d.state = readDone
			return d.readFailure(d.src.err), true
		}
		if bytes.HasPrefix(line, []byte("---")) {
			if rest := bytes.TrimSpace(line[3:]); len(rest) > 0 && rest[0] != '#' {
				// The lines read so far are lost, as upstream loses them.
				err := fmt.Errorf("invalid Yaml document separator: %s", rest)
				return chunk{err: err, errLine: lineNo, line: lineNo}, true
			}
			if len(doc) != 0 || tooLarge {
				return d.convert(doc, docLine, tooLarge), true
			}
			if eof {
				d.state = readDone
				return chunk{}, false
			}
		}
		if eof {
			d.state = readDone
			if len(doc) != 0 || tooLarge {
				return d.convert(doc, docLine, tooLarge), true
			}
			return chunk{}, false
		}
		if len(doc) == 0 && !tooLarge {
			docLine = lineNo
		}
		if d.max > 0 && len(doc)+len(line) > d.max {
			tooLarge, doc = true, nil
			continue
		}
		if !tooLarge {
			doc = append(doc, line...)
		}
	}
}

// convert turns a YAML document into JSON as kubectl's decoder does
// (sigs.k8s.io/yaml Unmarshal into a runtime.RawExtension).
func (d *docReader) convert(doc []byte, line int, tooLarge bool) chunk {
	if tooLarge {
		return chunk{err: errDocumentTooLarge, line: line, errLine: line}
	}
	if blankYAML(doc) {
		// What go-yaml reads as null, and kubectl skips, without parsing it: files
		// with thousands of empty or comment-only documents cost 3 KB of garbage each
		// otherwise.
		d.count++
		return chunk{text: doc, fromYAML: true, start: line, line: line}
	}
	var ext runtime.RawExtension
	if err := utilyaml.Unmarshal(doc, &ext); err != nil {
		c := chunk{err: err, line: line, text: doc, fromYAML: true, start: line, errLine: line}
		if n := yamlErrorLine(err.Error()); n > 0 {
			_, rows := yamlLines(doc)
			n = textLine(rows, n)
			c.errLine = line + min(n, bytes.Count(doc, []byte("\n"))) - 1
		}
		return c
	}
	d.count++
	return chunk{raw: ext.Raw, text: doc, fromYAML: true, start: line, line: line + contentLine(doc)}
}

// blankYAML reports whether a YAML document is certainly empty to go-yaml: an
// optional opening "---" (alone or followed by a space and a comment), then lines
// that are empty, spaces, or spaces and a comment. It answers false for anything
// else, including tabs and comments holding other bytes than printable ASCII, which
// go-yaml may refuse; those documents are parsed.
func blankYAML(doc []byte) bool {
	first := true
	for line := range bytes.Lines(doc) {
		line = bytes.TrimSuffix(line, []byte("\n"))
		if first && bytes.HasPrefix(line, []byte("---")) {
			line = line[3:]
			if len(line) > 0 && line[0] != ' ' {
				return false // "---x" is a scalar, not a separator
			}
		}
		first = false
		line = bytes.TrimLeft(line, " ")
		if len(line) == 0 {
			continue
		}
		if line[0] != '#' {
			return false
		}
		for _, c := range line {
			if c < 0x20 && c != '\t' || c > 0x7e {
				return false
			}
		}
	}
	return true
}

// contentLine is the 0-based index of the first line of a YAML document holding
// content: not blank, not a comment, not the "---" that may open the document.
func contentLine(doc []byte) int {
	i := 0
	for line := range bytes.Lines(doc) {
		t := bytes.TrimSpace(line)
		if len(t) != 0 && t[0] != '#' && (i != 0 || !bytes.HasPrefix(line, []byte("---"))) {
			return i
		}
		i++
	}
	return 0
}

// readFailure is the final chunk for an input that cannot be read further.
func (d *docReader) readFailure(err error) chunk {
	if d.src.err != nil {
		err = d.src.err
	}
	if errors.Is(err, errDocumentTooLarge) {
		return chunk{err: errDocumentTooLarge, final: true}
	}
	return chunk{err: &ReadError{Err: err}, final: true}
}

// yamlErrorLine returns the 1-based line, within the document, that a go-yaml v2
// error ("yaml: line N: PROBLEM") points at, 0 when it names none. go-yaml prints the
// 0-based line for parser errors and the 1-based line for scanner errors
// (go.yaml.in/yaml/v2 decode.go parser.fail), so the problem decides.
func yamlErrorLine(msg string) int {
	const prefix = "yaml: line "
	i := strings.Index(msg, prefix)
	if i < 0 {
		return 0
	}
	rest := msg[i+len(prefix):]
	j := strings.Index(rest, ": ")
	if j < 0 {
		return 0
	}
	n, err := strconv.Atoi(rest[:j])
	if err != nil || n <= 0 {
		return 0
	}
	if yamlParserProblems[rest[j+2:]] {
		n++
	}
	return n
}

// yamlParserProblems are go-yaml v2's parser (not scanner) problems
// (go.yaml.in/yaml/v2 parserc.go), whose line it prints 0-based.
var yamlParserProblems = map[string]bool{
	"did not find expected ',' or ']'":       true,
	"did not find expected ',' or '}'":       true,
	"did not find expected '-' indicator":    true,
	"did not find expected <document start>": true,
	"did not find expected <stream-start>":   true,
	"did not find expected key":              true,
	"did not find expected node content":     true,
	"found duplicate %TAG directive":         true,
	"found duplicate %YAML directive":        true,
	"found incompatible YAML document":       true,
	"found undefined tag handle":             true,
}

// readLine returns the next line as k8s.io/apimachinery's LineReader does: the bytes
// up to "\n" (a "\r" just before it dropped) followed by "\n"; a last line without
// "\n" as it is, followed by "\n"; at the end, eof. lineNo is the line's 1-based
// number in the file.
func (d *docReader) readLine() (line []byte, lineNo int, eof bool) {
	searched := int64(0)
	for {
		rest := d.src.at(d.ypos+searched, int(d.src.end()-d.ypos-searched))
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			end := d.ypos + searched + int64(i)
			body := d.src.at(d.ypos, int(end-d.ypos))
			body = bytes.TrimSuffix(body, []byte("\r"))
			line = append(append(make([]byte, 0, len(body)+1), body...), '\n')
			lineNo = d.yline
			d.ypos, d.yline = end+1, d.yline+1
			d.src.drop(d.ypos)
			return line, lineNo, false
		}
		searched += int64(len(rest))
		if !d.src.more() {
			break
		}
	}
	if d.ypos == d.src.end() {
		return []byte("\n"), d.yline, true
	}
	body := d.src.at(d.ypos, int(d.src.end()-d.ypos))
	line = append(append(make([]byte, 0, len(body)+1), body...), '\n')
	lineNo = d.yline
	d.ypos = d.src.end()
	d.src.drop(d.ypos)
	return line, lineNo, false
}

// lineAt returns the number of newlines before the absolute offset off, which must
// not be before an offset asked for earlier.
func (d *docReader) lineAt(off int64) int {
	if off > d.counted {
		d.lines += bytes.Count(d.src.at(d.counted, int(off-d.counted)), []byte("\n"))
		d.counted = off
	}
	return d.lines
}

// nextValue is the offset of the first byte after the last good JSON value that is not
// white space (the start of the value that failed).
func (d *docReader) nextValue() int64 {
	p := d.done
	for p < d.src.end() && bytes.IndexByte([]byte(" \t\r\n"), d.src.at(p, 1)[0]) >= 0 {
		p++
	}
	return p
}

// lineOf is lineAt without moving the count forward.
func (d *docReader) lineOf(off int64) int {
	if off <= d.counted {
		return d.lines
	}
	return d.lines + bytes.Count(d.src.at(d.counted, int(off-d.counted)), []byte("\n"))
}

// jsonFeed hands the buffered input to the JSON decoder, keeping it buffered so that
// the reader can go back to the end of the last good value.
type jsonFeed struct{ d *docReader }

// Read implements io.Reader.
func (f jsonFeed) Read(p []byte) (int, error) {
	d := f.d
	for d.fed == d.src.end() {
		if d.max > 0 && d.fed-d.done > int64(d.max) {
			return 0, errDocumentTooLarge
		}
		if !d.src.more() {
			if d.src.err != nil {
				return 0, d.src.err
			}
			return 0, io.EOF
		}
	}
	n := copy(p, d.src.at(d.fed, int(d.src.end()-d.fed)))
	d.fed += int64(n)
	return n, nil
}

// ReadError is the error of a stream whose reader failed; Err is the reader's error.
type ReadError struct{ Err error }

// Error implements error.
func (e *ReadError) Error() string { return e.Err.Error() }

// Unwrap returns the reader's error.
func (e *ReadError) Unwrap() error { return e.Err }

// source buffers the decoded input from an absolute offset on.
type source struct {
	r    io.Reader
	buf  []byte // buf[0] is at absolute offset base
	base int64
	eof  bool
	err  error // the reader's error other than io.EOF
}

// sourceChunk is how much the source asks its reader for at a time.
const sourceChunk = 32 << 10

// more reads more input; false when there is no more.
func (s *source) more() bool {
	for !s.eof {
		if cap(s.buf)-len(s.buf) < sourceChunk {
			grown := make([]byte, len(s.buf), 2*len(s.buf)+sourceChunk)
			copy(grown, s.buf)
			s.buf = grown
		}
		n, err := s.r.Read(s.buf[len(s.buf):cap(s.buf)])
		s.buf = s.buf[:len(s.buf)+n]
		if err != nil {
			s.eof = true
			if err != io.EOF {
				s.err = err
			}
		}
		if n > 0 {
			return true
		}
	}
	return false
}

// end is the absolute offset after the buffered input.
func (s *source) end() int64 { return s.base + int64(len(s.buf)) }

// at returns n buffered bytes from the absolute offset off.
func (s *source) at(off int64, n int) []byte {
	i := int(off - s.base)
	return s.buf[i : i+n]
}

// drop forgets the input before the absolute offset off.
func (s *source) drop(off int64) {
	n := int(off - s.base)
	if n <= 0 {
		return
	}
	// Move the rest down only when it is cheap, or when half the buffer is waste.
	if rest := len(s.buf) - n; rest <= 4096 || n >= len(s.buf)/2 {
		copy(s.buf, s.buf[n:])
		s.buf = s.buf[:rest]
		s.base = off
	}
}
