package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/podlife/podlife/examples/internal/manifests"
	"github.com/podlife/podlife/validation"
	"github.com/podlife/podlife/validation/apply"
)

// checker runs the checks and keeps what the outputs print.
type checker struct {
	cfg config
	// scheme holds the types of the kinds that hold no pod, decoded as the server
	// decodes them (validation.StreamOptions.Scheme).
	scheme *runtime.Scheme
	// created are the objects the files read so far created: kubectl create -f reads
	// every file as one stream of creates (with --each-file, each file's own).
	created *validation.CreatedObjects
	// custom are the kinds the CustomResourceDefinitions --crd read serve.
	custom []validation.CustomResource
	// live are the objects --live read, which objects of the same name update.
	live      *validation.StoredObjects
	liveRead  int // objects --live read, of any kind
	liveFiles int
	stderr    io.Writer
	objects   []object
	problems  []problem // files that could not be checked
	names     []string  // the streams read, in order
	ioErrors  int
}

// object is the answer for one object, with the lines of its causes.
type object struct {
	file   string
	result validation.ObjectResult
	causes []cause
}

// cause is one reason an object is refused, with the line it points at.
type cause struct {
	line    int
	field   string // the field path, when the cause names one
	reason  string // the field error type (FieldValueRequired, ...), or a rule name
	message string
	hint    string // a feature gate that makes the cause go away
	note    string // the field meant, or how the YAML's own typing caused the cause
}

// problem is a file that could not be checked.
type problem struct {
	file    string
	message string
}

// checkPath checks a file, a directory or standard input.
func (c *checker) checkPath(path string, stdin io.Reader) {
	manifests.Walk(path, stdin, c.checkReader, c.fail)
}

// checkData checks an in-memory manifest (the embedded sample).
func (c *checker) checkData(name string, data []byte) {
	c.checkReader(name, bytes.NewReader(data))
}

// checkReader checks one stream, unless it is a binary file.
func (c *checker) checkReader(name string, r io.Reader) {
	c.names = append(c.names, name)
	br := bufio.NewReaderSize(r, 64<<10)
	if off := manifests.BinaryOffset(br); off >= 0 {
		c.fail(name, fmt.Sprintf("not a text file (a NUL byte at offset %d); kubectl cannot read it either", off))
		return
	}
	if c.cfg.eachFile {
		c.created = new(validation.CreatedObjects)
	}
	opts := validation.StreamOptions{
		Validation:      validation.Options{Features: c.cfg.features, AllowPrivileged: c.cfg.allowPrivileged},
		Namespace:       c.cfg.namespace,
		FieldValidation: c.cfg.fieldValidation,
		Scheme:          c.scheme,
		Created:         c.created,
		CustomResources: c.custom,
	}
	if c.live.Len() > 0 {
		opts.Stored = c.live.Get
	}
	if c.cfg.apply {
		opts.Apply = apply.Patcher{}
	}
	for res := range validation.ValidateStream(br, name, opts) {
		var readErr *validation.ReadError
		if errors.As(res.Err, &readErr) {
			c.fail(name, readErr.Error())
			continue
		}
		c.objects = append(c.objects, object{file: name, result: res, causes: c.causesOf(&res)})
	}
}

// readLive reads the objects a --live path holds: those of kinds that hold a pod
// become the objects an object of the same kind, namespace and name updates. An
// object that cannot be read, or one given twice, is a problem of its file.
func (c *checker) readLive(path string, stdin io.Reader) {
	manifests.Walk(path, stdin, func(name string, r io.Reader) {
		c.liveFiles++
		opts := validation.StreamOptions{
			Validation: validation.Options{Features: c.cfg.features},
			Namespace:  c.cfg.namespace,
			DecodeOnly: true,
			// A newer cluster's objects may hold fields v1.37.2 does not know.
			FieldValidation: metav1.FieldValidationIgnore,
			CustomResources: c.custom,
		}
		for res := range validation.ValidateStream(bufio.NewReaderSize(r, 64<<10), name, opts) {
			switch {
			case res.Verdict == validation.Rejected:
				c.fail(name, fmt.Sprintf("line %d: live %s cannot be read: %s", res.Line, title(&res), res.Message()))
			case res.Verdict == validation.Valid && res.Name == "":
				c.fail(name, fmt.Sprintf("line %d: live %s has no name", res.Line, title(&res)))
			case res.Verdict == validation.Valid && !c.live.Add(res):
				c.fail(name, fmt.Sprintf("line %d: live %s is given twice; the first is used", res.Line, title(&res)))
			default:
				c.liveRead++
			}
		}
	}, c.fail)
}

// readCRDs reads the CustomResourceDefinitions a --crd path holds; a file that holds
// anything else, or cannot be read, is a problem of its file (its definitions before
// the fault still count).
func (c *checker) readCRDs(path string, stdin io.Reader) {
	manifests.Walk(path, stdin, func(name string, r io.Reader) {
		custom, err := validation.ReadCustomResources(r)
		c.custom = append(c.custom, custom...)
		if err != nil {
			c.fail(name, "--crd: "+err.Error())
		}
	}, c.fail)
}

// updates counts the objects checked as updates of live objects.
func (c *checker) updates() int {
	n := 0
	for _, o := range c.objects {
		if o.result.Update {
			n++
		}
	}
	return n
}

// fail records a file that cannot be checked.
func (c *checker) fail(file, msg string) {
	c.ioErrors++
	c.problems = append(c.problems, problem{file: file, message: msg})
	fmt.Fprintf(c.stderr, "validate: %s: %s\n", file, msg)
}

// failed reports whether an object is invalid or rejected.
func (c *checker) failed() bool {
	if c.noObjects() {
		return true
	}
	for _, o := range c.objects {
		if o.result.Verdict == validation.Invalid || o.result.Verdict == validation.Rejected {
			return true
		}
	}
	return false
}

// command is the kubectl command the files are checked as: create, or apply with
// --apply.
func (c *checker) command() string {
	if c.cfg.apply {
		return "apply"
	}
	return "create"
}

// noObjectsError is kubectl create's (or apply's) error when the files hold no
// object at all (k8s.io/kubectl pkg/cmd/create, pkg/cmd/apply).
func (c *checker) noObjectsError() string { return "no objects passed to " + c.command() }

// noObjects reports whether kubectl create -f (apply -f) would fail with noObjectsError: files
// were read, none could not be, and not one document held an object (empty files,
// comments, empty Lists). kubectl says nothing of the kind when some object failed.
func (c *checker) noObjects() bool {
	return len(c.names) > 0 && len(c.problems) == 0 && len(c.objects) == 0
}

// strictField finds the fields the server's strict decoding errors name.
var strictField = regexp.MustCompile(`(unknown|duplicate) field "([^"]*)"`)

// typeField finds the field a JSON type error names ("Go struct field
// PodSpec.spec.containers of type").
var typeField = regexp.MustCompile(`Go struct field [A-Za-z0-9_]+\.(\S+) of type`)

// causesOf lists the causes of a refusal, each with its line, and the feature gates
// that would lift them.
func (c *checker) causesOf(r *validation.ObjectResult) []cause {
	switch r.Verdict {
	case validation.Invalid:
		hints := map[string]string{}
		opts := validation.Options{Features: c.cfg.features, AllowPrivileged: c.cfg.allowPrivileged, Namespace: r.Namespace}
		for _, h := range validation.FeatureGateHints(r.Object, opts) {
			for _, e := range h.Fixed {
				if _, seen := hints[e.Error()]; !seen {
					hints[e.Error()] = gateFlag(h)
				}
			}
		}
		var out []cause
		for _, e := range r.Errors {
			out = append(out, cause{line: r.FieldLine(e.Field), field: e.Field, reason: string(e.Type), message: e.Error(), hint: hints[e.Error()]})
		}
		return out
	case validation.Rejected:
		msg := r.Message()
		var out []cause
		if r.Status() != nil {
			for _, m := range strictField.FindAllStringSubmatch(msg, -1) {
				cs := cause{line: r.FieldLine(m[2]), field: m[2], reason: "FieldValueUnknown", message: m[0]}
				if suggestion, ok := r.SuggestField(m[2]); ok && m[1] == "unknown" {
					cs.note = fmt.Sprintf("did you mean %q?", suggestion)
				}
				out = append(out, cs)
			}
		}
		// A value of the wrong type: refused by the server's decoding, or by kubectl's
		// own for the metadata ("unable to decode").
		if m := typeField.FindStringSubmatchIndex(msg); m != nil && len(out) == 0 && (r.Status() != nil || strings.HasPrefix(msg, "unable to decode")) {
			field := msg[m[2]:m[3]]
			detail := msg[strings.LastIndex(msg[:m[0]], "json: "):]
			line, key := r.FieldLine(field), field[strings.LastIndex(field, ".")+1:]
			if p, ok := r.TypeErrorField(); ok {
				// The value itself, with the indices and map key the error leaves out.
				field, line, key = p, r.FieldLine(p), lastKey(p)
			}
			out = append(out, cause{line: line, field: field, reason: "FieldValueTypeInvalid", message: detail, note: typingNote(r, line, key, detail)})
		} else if p, ok := r.TypeErrorField(); ok && len(out) == 0 && r.Status() != nil {
			// A quantity that does not parse, or whose decoding outlasts the server's
			// request timeout, which the server's message does not place.
			detail := msg[strings.LastIndex(msg, ": ")+2:]
			if r.Status().ErrStatus.Code == http.StatusGatewayTimeout {
				detail = "the server's decoding of this quantity does not end within its request timeout"
			}
			out = append(out, cause{line: r.FieldLine(p), field: p, reason: "FieldValueInvalid", message: p + ": " + detail})
		}
		if len(out) > 0 {
			return out
		}
		line := r.Line
		if ke := (*validation.KubectlError)(nil); errors.As(r.Err, &ke) && ke.Line > 0 {
			line = ke.Line // the line kubectl's error is about, a namespace's say
		}
		return []cause{{line: line, reason: "Rejected", message: msg}}
	}
	return nil
}

// typeMismatch reads a JSON type error: the JSON type the value had and the Go type
// of the field.
var typeMismatch = regexp.MustCompile(`cannot unmarshal (bool|number|string) into Go struct field \S+ of type (\S+)`)

// yamlBooleans are the plain scalars kubectl's YAML reader (go-yaml v2, YAML 1.1)
// reads as booleans.
var yamlBooleans = []string{"y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "true", "True", "TRUE",
	"false", "False", "FALSE", "on", "On", "ON", "off", "Off", "OFF"}

// typingNote explains a type error that the YAML's own typing of a scalar caused,
// read from the value written after "key:" on the value's line (after "- " for a
// list entry, key ""): an unquoted no or 1.10 where the field takes a string, a
// quoted "3" or "true" where it takes a number or a boolean. It is "" when the line
// shows no such value.
func typingNote(r *validation.ObjectResult, line int, key, detail string) string {
	m := typeMismatch.FindStringSubmatch(detail)
	if m == nil {
		return ""
	}
	text, ok := r.SourceLine(line)
	if !ok {
		return ""
	}
	var value string
	if key == "" {
		value, ok = listEntry(text)
	} else {
		value, ok = scalarAfter(text, key)
	}
	if !ok || value[0] == '{' || value[0] == '[' {
		return ""
	}
	return noteFor(value, m[1], m[2])
}

// lastKey is the name a field path ends with: its last field, or the key of a map
// entry ("prometheus.io/scrape" for metadata.annotations[prometheus.io/scrape]); ""
// for a list entry (args[1]).
func lastKey(path string) string {
	if strings.HasSuffix(path, "]") {
		open := strings.LastIndexByte(path, '[')
		inner := path[open+1 : len(path)-1]
		if _, err := strconv.Atoi(inner); err == nil {
			return ""
		}
		return inner
	}
	return path[strings.LastIndex(path, ".")+1:]
}

// listEntry returns the scalar of a block sequence entry ("- 8080"), quotes
// included, without a trailing comment.
func listEntry(line string) (string, bool) {
	rest, ok := strings.CutPrefix(strings.TrimLeft(line, " \t"), "- ")
	if !ok {
		return "", false
	}
	return scalarAfter("k: "+strings.TrimLeft(rest, " \t"), "k")
}

// noteFor words typingNote's note for one written value.
func noteFor(value, got, want string) string {
	inner, quoted := unquote(value)
	switch {
	case quoted && got == "string" && want == "bool" && (inner == "true" || inner == "false"),
		quoted && got == "string" && want != "bool" && want != "string" && numeric(inner):
		return fmt.Sprintf("%s is quoted, so it is sent as a string: write %s without quotes", value, inner)
	case quoted || want != "string":
		return ""
	case got == "bool" && slices.Contains(yamlBooleans, value):
		return fmt.Sprintf("YAML reads %s as a boolean: write %q to send the string", value, value)
	case got == "number" && numeric(value):
		return fmt.Sprintf("YAML reads %s as a number: write %q to send the string", value, value)
	}
	return ""
}

// scalarAfter returns the scalar written after "key:" on a line of block or flow YAML
// (or JSON), quotes included, without a trailing comment.
func scalarAfter(line, key string) (string, bool) {
	if key == "" {
		return "", false
	}
	for from := 0; ; {
		i := strings.Index(line[from:], key)
		if i < 0 {
			return "", false
		}
		i += from
		from = i + len(key)
		if i > 0 && !strings.ContainsRune(" \t{,-\"'", rune(line[i-1])) {
			continue
		}
		rest := strings.TrimLeft(line[from:], "\"' \t")
		if !strings.HasPrefix(rest, ":") {
			continue
		}
		rest = strings.TrimLeft(rest[1:], " \t")
		if rest == "" {
			return "", false
		}
		if q := rest[0]; q == '"' || q == '\'' {
			if end := strings.IndexByte(rest[1:], q); end >= 0 {
				return rest[:end+2], true
			}
			return "", false
		}
		end := strings.IndexAny(rest, ",}]#")
		if end < 0 {
			end = len(rest)
		}
		v := strings.TrimSpace(rest[:end])
		return v, v != ""
	}
}

// unquote strips one pair of YAML quotes.
func unquote(v string) (string, bool) {
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
		return v[1 : len(v)-1], true
	}
	return v, false
}

// numeric reports whether YAML reads a plain scalar as a number.
func numeric(v string) bool {
	v = strings.ReplaceAll(v, "_", "")
	if _, err := strconv.ParseInt(v, 0, 64); err == nil {
		return true
	}
	_, err := strconv.ParseFloat(v, 64)
	return err == nil
}

// gateFlag renders a hint as the flag that applies it.
func gateFlag(h validation.GateHint) string {
	parts := []string{h.Gate + "=true"}
	for _, d := range h.Dependencies {
		parts = append(parts, d+"=true")
	}
	return "--feature-gates=" + strings.Join(parts, ",")
}
