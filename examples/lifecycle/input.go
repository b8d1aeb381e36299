package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"

	"github.com/podlife/podlife/lifecycle"
	"github.com/podlife/podlife/validation"
)

// document is one document of a YAML or JSON stream with the line it starts on.
type document struct {
	data []byte
	line int
}

// splitDocuments splits a YAML stream at its "---" separator lines, keeping each
// document's first line number (1-based). A JSON stream is one document.
func splitDocuments(data []byte) []document {
	var docs []document
	var cur bytes.Buffer
	start := 1
	lines := bytes.SplitAfter(data, []byte("\n"))
	for i, l := range lines {
		trimmed := bytes.TrimRight(l, "\r\n")
		if bytes.HasPrefix(trimmed, []byte("---")) && (len(trimmed) == 3 || trimmed[3] == ' ' || trimmed[3] == '\t') {
			docs = append(docs, document{data: bytes.Clone(cur.Bytes()), line: start})
			cur.Reset()
			start = i + 2
			continue
		}
		cur.Write(l)
	}
	docs = append(docs, document{data: bytes.Clone(cur.Bytes()), line: start})
	return docs
}

// scriptDoc is the program's script manifest: how the containers behave, and the
// simulation's settings.
type scriptDoc struct {
	APIVersion string `json:"apiVersion,omitempty"`
	Kind       string `json:"kind"`
	Metadata   *struct {
		Name string `json:"name,omitempty"`
	} `json:"metadata,omitempty"`
	// Description says what the scenario shows and where upstream does it.
	Description string `json:"description,omitempty"`
	// Duration bounds the simulated time ("10m" when empty).
	Duration string `json:"duration,omitempty"`
	// DeleteAfter deletes the pod that long after it is created, with
	// DeleteGracePeriodSeconds (the pod's terminationGracePeriodSeconds when unset).
	DeleteAfter              string   `json:"deleteAfter,omitempty"`
	DeleteGracePeriodSeconds *int64   `json:"deleteGracePeriodSeconds,omitempty"`
	PresentImages            []string `json:"presentImages,omitempty"`
	// FeatureGates are overrides the scenario needs.
	FeatureGates map[string]bool  `json:"featureGates,omitempty"`
	Containers   lifecycle.Script `json:"containers,omitempty"`
}

// input is what the program runs: one object holding a pod, and a script.
type input struct {
	name     string // file name, empty for embedded data
	object   *validation.ObjectResult
	objLine  int
	script   *scriptDoc
	scriptAt string // "file:line" of the script
	skipped  []string
}

// inputError is an error about the input (exit code 2), with its position.
type inputError struct{ msg string }

func (e *inputError) Error() string { return e.msg }

func posError(name string, line int, err error) error {
	if name == "" {
		name = "<embedded>"
	}
	return &inputError{msg: fmt.Sprintf("%s:%d: %v", name, line, err)}
}

var yamlLine = regexp.MustCompile(`line (\d+)`)

// readStream reads the documents of one file into in: the first object holding a pod
// and the first script; other kinds are skipped with a note.
func readStream(in *input, name string, data []byte) error {
	for _, d := range splitDocuments(data) {
		js, err := utilyaml.ToJSON(d.data)
		if err != nil {
			line := d.line
			if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
				n, _ := strconv.Atoi(m[1])
				line = d.line + n - 1
				err = errors.New(yamlLine.ReplaceAllString(err.Error(), "line "+strconv.Itoa(line)))
			}
			return posError(name, line, err)
		}
		if t := bytes.TrimSpace(js); len(t) == 0 || string(t) == "null" {
			continue
		}
		first := d.line + leadingBlankOrComment(d.data)
		var tm struct {
			Kind string `json:"kind"`
		}
		if err := json.Unmarshal(js, &tm); err != nil {
			return posError(name, first, fmt.Errorf("not an object: %v", err))
		}
		if tm.Kind == "Script" {
			if in.script != nil {
				in.skipped = append(in.skipped, fmt.Sprintf("%s:%d: skipping a second Script", orEmbedded(name), first))
				continue
			}
			var s scriptDoc
			dec := json.NewDecoder(bytes.NewReader(js))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&s); err != nil {
				return posError(name, locate(d, err), err)
			}
			in.script, in.scriptAt = &s, fmt.Sprintf("%s:%d", orEmbedded(name), first)
			continue
		}
		// The library's stream reader decodes the document as kubectl and the server do
		// (strict fields, Lists, flow style, JSON); it counts lines from the document.
		for r := range validation.ValidateStream(bytes.NewReader(d.data), orEmbedded(name), validation.StreamOptions{DecodeOnly: true}) {
			line := d.line + r.Line - 1
			switch {
			case r.Verdict == validation.NotChecked:
				in.skipped = append(in.skipped, fmt.Sprintf("%s:%d: skipping %s %q: it holds no pod", orEmbedded(name), line, r.Kind, r.Name))
				continue
			case r.Object == nil:
				return posError(name, line, errors.New(r.Message()))
			case in.object != nil:
				in.skipped = append(in.skipped, fmt.Sprintf("%s:%d: skipping %s %q: only the first object holding a pod is simulated", orEmbedded(name), line, r.Kind, r.Name))
				continue
			}
			in.object, in.objLine, in.name = &r, line, name
		}
	}
	return nil
}

func orEmbedded(name string) string {
	if name == "" {
		return "<embedded>"
	}
	return name
}

// leadingBlankOrComment counts the blank and comment lines a document starts with.
func leadingBlankOrComment(data []byte) int {
	n := 0
	for _, l := range strings.Split(string(data), "\n") {
		t := strings.TrimSpace(l)
		if t != "" && !strings.HasPrefix(t, "#") {
			return n
		}
		n++
	}
	return 0
}

var quoted = regexp.MustCompile(`"([^"]+)"`)

// locate finds the line of the document a decoding error is about: the first line that
// holds a key or value the error quotes (or the field a type error names), else the
// document's first line.
func locate(d document, err error) int {
	var tokens []string
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		parts := strings.Split(te.Field, ".")
		tokens = append(tokens, parts[len(parts)-1])
	}
	for _, m := range quoted.FindAllStringSubmatch(err.Error(), -1) {
		tokens = append(tokens, m[1])
	}
	lines := strings.Split(string(d.data), "\n")
	for _, tok := range tokens {
		for i, l := range lines {
			if strings.HasPrefix(strings.TrimSpace(l), "#") {
				continue
			}
			if strings.Contains(l, tok+":") || strings.Contains(l, tok) {
				return d.line + i
			}
		}
	}
	return d.line + leadingBlankOrComment(d.data)
}

// options turns the script's settings into simulation options.
func (s *scriptDoc) options(start time.Time) (lifecycle.SimulateOptions, error) {
	opts := lifecycle.SimulateOptions{Start: start, MaxDuration: 10 * time.Minute, RecordViews: false}
	if s == nil {
		return opts, nil
	}
	if s.Duration != "" {
		d, err := time.ParseDuration(s.Duration)
		if err != nil || d <= 0 {
			return opts, fmt.Errorf("duration %q: want a positive duration such as \"5m\"", s.Duration)
		}
		opts.MaxDuration = d
	}
	if s.DeleteAfter != "" {
		d, err := time.ParseDuration(s.DeleteAfter)
		if err != nil || d < 0 {
			return opts, fmt.Errorf("deleteAfter %q: want a duration such as \"40s\"", s.DeleteAfter)
		}
		opts.Delete = &lifecycle.Deletion{After: d, GracePeriodSeconds: s.DeleteGracePeriodSeconds}
	}
	opts.PresentImages = s.PresentImages
	return opts, nil
}

// checkScript reports script entries that name no container of the pod.
func checkScript(s *scriptDoc, pod *corev1.Pod) error {
	if s == nil {
		return nil
	}
	known := map[string]bool{}
	for _, c := range pod.Spec.InitContainers {
		known[c.Name] = true
	}
	for _, c := range pod.Spec.Containers {
		known[c.Name] = true
	}
	var unknown []string
	for name := range s.Containers {
		if !known[name] {
			unknown = append(unknown, strconv.Quote(name))
		}
	}
	if len(unknown) > 0 {
		return fmt.Errorf("the script names containers the pod does not have: %s", strings.Join(sorted(unknown), ", "))
	}
	return nil
}
