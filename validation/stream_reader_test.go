package validation

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// upstreamDocs decodes data as kubectl's stream visitor does (apimachinery's
// YAMLOrJSONDecoder into RawExtensions, empty and null documents skipped, stopping at
// the first error) and returns the documents and the error message ("" at EOF).
func upstreamDocs(data []byte) (docs []string, errMsg string) {
	d := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
	for range 10000 {
		var ext runtime.RawExtension
		if err := d.Decode(&ext); err != nil {
			if err == io.EOF {
				return docs, ""
			}
			return docs, err.Error()
		}
		raw := bytes.TrimSpace(ext.Raw)
		if len(raw) == 0 || string(raw) == "null" {
			continue
		}
		docs = append(docs, string(raw))
	}
	return docs, "too many documents"
}

// ourDocs is the same from docReader, with the line of each document.
func ourDocs(data []byte) (docs []string, lines []int, errMsg string, errLine int) {
	r := newDocReader(bytes.NewReader(data), 0)
	for range 10000 {
		c, ok := r.next()
		if !ok {
			return docs, lines, "", 0
		}
		if c.err != nil {
			return docs, lines, c.err.Error(), c.errLine
		}
		docs = append(docs, string(c.raw))
		lines = append(lines, c.line)
	}
	return docs, lines, "too many documents", 0
}

func TestDocReader(t *testing.T) {
	for _, tc := range []struct {
		name    string
		in      string
		docs    []string
		lines   []int
		err     string
		errLine int
	}{
		{
			name:  "multi-document YAML",
			in:    "a: 1\n---\nb: 2\n--- # comment\n\n# only a comment\n---\nc: [1, 2]\n",
			docs:  []string{`{"a":1}`, `{"b":2}`, `{"c":[1,2]}`},
			lines: []int{1, 3, 8},
		},
		{
			name:  "leading separator kept in the first document",
			in:    "---\nkind: Pod\n",
			docs:  []string{`{"kind":"Pod"}`},
			lines: []int{2},
		},
		{
			name:  "flow style after block style",
			in:    "a: 1\n---\n{ apiVersion: \"v1\", kind: Pod, metadata: {name: x} }\n",
			docs:  []string{`{"a":1}`, `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"x"}}`},
			lines: []int{1, 3},
		},
		{
			name:  "flow style first: JSON fails, YAML reads it",
			in:    "{ kind: Pod }\n---\nb: 2\n",
			docs:  []string{`{"kind":"Pod"}`, `{"b":2}`},
			lines: []int{1, 3},
		},
		{
			name:  "concatenated JSON keeps its text",
			in:    " {\"b\":1, \"a\":2}\n{\"c\":\n3}",
			docs:  []string{`{"b":1, "a":2}`, "{\"c\":\n3}"},
			lines: []int{1, 2},
		},
		{
			name:  "JSON then YAML",
			in:    "{\"a\":1}\n---\nb: 2\n",
			docs:  []string{`{"a":1}`, `{"b":2}`},
			lines: []int{1, 3},
		},
		{
			name:    "JSON error after two values is final",
			in:      "{}\n{}\n{x}\n",
			docs:    []string{`{}`, `{}`},
			lines:   []int{1, 2},
			err:     "invalid character 'x' looking for beginning of object key string",
			errLine: 3,
		},
		{
			name:  "duplicate keys: the last wins, keys sorted",
			in:    "name: a\nkind: Pod\nname: b\n",
			docs:  []string{`{"kind":"Pod","name":"b"}`},
			lines: []int{1},
		},
		{
			name:    "syntax error counted from the file",
			in:      "a: 1\n---\nb: 2\nc: [\n",
			docs:    []string{`{"a":1}`},
			lines:   []int{1},
			err:     "error converting YAML to JSON: yaml: line 2: did not find expected node content",
			errLine: 4, // the mark is on the (empty) next line; clamped to the document
		},
		{
			name:    "separator followed by text",
			in:      "a: 1\n--- !foo\nb: 2\n",
			err:     "invalid Yaml document separator: !foo",
			errLine: 2,
		},
		{
			name:  "CRLF line ends",
			in:    "a: 1\r\n---\r\nb: 2\r\n",
			docs:  []string{`{"a":1}`, `{"b":2}`},
			lines: []int{1, 3},
		},
		{
			name:  "UTF-8 byte-order mark dropped",
			in:    "\xEF\xBB\xBFa: 1\n",
			docs:  []string{`{"a":1}`},
			lines: []int{1},
		},
		{
			name:  "UTF-16 little endian",
			in:    "\xFF\xFEa\x00:\x00 \x001\x00\n\x00",
			docs:  []string{`{"a":1}`},
			lines: []int{1},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			docs, lines, err, errLine := ourDocs([]byte(tc.in))
			if strings.Join(docs, "|") != strings.Join(tc.docs, "|") {
				t.Errorf("docs %q, want %q", docs, tc.docs)
			}
			if len(tc.lines) > 0 && !equalInts(lines, tc.lines) {
				t.Errorf("lines %v, want %v", lines, tc.lines)
			}
			if err != tc.err || errLine != tc.errLine {
				t.Errorf("error %q at line %d, want %q at line %d", err, errLine, tc.err, tc.errLine)
			}
		})
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestDocReaderMatchesUpstream compares docReader with apimachinery's decoder up to
// the first error, on inputs that need no transcoding.
func TestDocReaderMatchesUpstream(t *testing.T) {
	for _, in := range docReaderSeeds {
		checkDocReader(t, []byte(in))
	}
}

var docReaderSeeds = []string{
	"", "\n", "---", "---\n---\n", "a: 1", "a: 1\n---", "a: 1\n----\nb: 2\n",
	"{}", "{} x", "{}\n{", "{}{}", "{}{}{", "[1, 2]\n", "\"s\"\n", "null\n---\na: 1\n",
	"{\"a\": 1}\n---\n- x\n", "  \n\t{ a: 1 }", "{ a: [ }", "a: \"x\ny\"\n", "a: |\n  ---\n  b\n",
	"a: 1\r\n---\r", "a:\tb\n", "a: b: c\n", "- a\n- b\n", "a: &x 1\nb: *x\n", "a: 1\n...\nb: 2\n",
	"{\"a\":1}\n\n{\"b\":2}\n---\nc: 3\n", "{\"a\":1} b: 2\n", "{\"a\":1}\n  b: 2\n",
	strings.Repeat(" ", 5000) + "{\"a\":1}", "\xff\xfe", "a: \x00\n", "{\"a\": \"\x00\"}",
	"a: 1\n--- # c\nb: 2\n---   \nc: 3", "a: 18446744073709551615\nb: 1e400\n", "a: !!binary aGk=\n",
	// Documents blankYAML answers without parsing, and some it must leave to go-yaml.
	"---\n# c\n---\n  # d\n\n---\na: 1\n", "# c\t\n---\n", "\t\n---\na: 1\n", "---#c\n---\na: 1\n",
	"--- #\x01\n---\na: 1\n", "# \u00e9\n---\na: 1\n", "#\x7f\n", "---\t# c\n", "--- \n \n", "# c\r\n---\r\n",
}

// TestBlankYAML checks the documents blankYAML reads as empty without parsing: each
// must be null to go-yaml, and the ones it leaves to go-yaml include some go-yaml
// refuses.
func TestBlankYAML(t *testing.T) {
	for _, tc := range []struct {
		doc   string
		blank bool
	}{
		{"", true}, {"---\n", true}, {"--- # c\n", true}, {"---   \n", true}, {"# c\n", true},
		{"   # c\n\n  \n", true}, {"---\n# a\tb\n", true}, {"#\n", true},
		{"---#c\n", false}, {"---\t# c\n", false}, {"\t\n", false}, {"# \u00e9\n", false},
		{"#\x01\n", false}, {"#\x7f\n", false}, {"a: 1\n", false}, {"...\n", false}, {"%YAML 1.1\n", false},
		{"# c\n---\n", false}, {"\r\n", false},
	} {
		if got := blankYAML([]byte(tc.doc)); got != tc.blank {
			t.Errorf("blankYAML(%q) = %v, want %v", tc.doc, got, tc.blank)
		}
		if !tc.blank {
			continue
		}
		var ext runtime.RawExtension
		if err := utilyaml.Unmarshal([]byte(tc.doc), &ext); err != nil {
			t.Errorf("%q: go-yaml: %v", tc.doc, err)
		} else if raw := bytes.TrimSpace(ext.Raw); len(raw) != 0 && string(raw) != "null" {
			t.Errorf("%q: go-yaml reads %s", tc.doc, raw)
		}
	}
}

// checkDocReader fails when docReader and upstream's decoder disagree on data, which
// must be valid UTF-8 (upstream's decoder reads it after kubectl's transcoding).
func checkDocReader(t *testing.T, data []byte) {
	t.Helper()
	var transcoded bytes.Buffer
	if _, err := io.Copy(&transcoded, newTranscoder(bytes.NewReader(data))); err != nil {
		t.Fatal(err)
	}
	wantDocs, wantErr := upstreamDocs(transcoded.Bytes())
	docs, lines, err, _ := ourDocs(data)
	if strings.Join(docs, "\x00") != strings.Join(wantDocs, "\x00") || err != wantErr {
		t.Errorf("input %q:\n ours     %q, error %q\n upstream %q, error %q", data, docs, err, wantDocs, wantErr)
	}
	total := bytes.Count(transcoded.Bytes(), []byte("\n")) + 1
	for _, l := range lines {
		if l < 1 || l > total {
			t.Errorf("input %q: line %d outside 1..%d", data, l, total)
		}
	}
}

func FuzzDocReader(f *testing.F) {
	for _, s := range docReaderSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkDocReader(t, data)
	})
}
