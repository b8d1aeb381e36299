package main

import (
	"encoding/json"
	"errors"
	"io"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podlife/podlife/validation"
)

// jsonReport is the -o json document.
type jsonReport struct {
	Objects  []jsonObject  `json:"objects"`
	Problems []jsonProblem `json:"problems,omitempty"`
	Summary  jsonSummary   `json:"summary"`
}

// jsonObject is one object's answer. Status is the server's answer as it sends it
// (kind Status, code 422 with details.causes for an invalid object, 400 or 413 for a
// body it cannot decode); Error is kubectl's message when kubectl refuses the object
// itself. Locations give the file line of each cause (of details.causes in order, or
// of the fields the server's decoding error names).
type jsonObject struct {
	File       string `json:"file"`
	Document   int    `json:"document"`
	Item       int    `json:"item,omitempty"`
	Line       int    `json:"line"`
	APIVersion string `json:"apiVersion,omitempty"`
	Kind       string `json:"kind,omitempty"`
	Namespace  string `json:"namespace,omitempty"`
	Name       string `json:"name,omitempty"`
	Verdict    string `json:"verdict"`
	// Update is true for an object checked as an update of a live object (--live).
	Update bool `json:"update,omitempty"`
	// Patch is the patch kubectl apply sends for it (--apply with --live): {} when
	// nothing is sent.
	Patch        json.RawMessage `json:"patch,omitempty"`
	Status       *metav1.Status  `json:"status,omitempty"`
	Error        string          `json:"error,omitempty"`
	KubectlStops bool            `json:"kubectlStopsHere,omitempty"`
	Locations    []jsonLocation  `json:"locations,omitempty"`
	Warnings     []jsonWarning   `json:"warnings,omitempty"`
}

type jsonLocation struct {
	Field string `json:"field,omitempty"`
	Line  int    `json:"line"`
	Hint  string `json:"hint,omitempty"`
	// Note names the field an unknown one was meant to be, or says how the YAML's
	// typing of a value caused the error, and the fix.
	Note string `json:"note,omitempty"`
}

type jsonWarning struct {
	Line    int    `json:"line"`
	Message string `json:"message"`
	// Server is true for the API server's warnings (--validate=warn).
	Server bool `json:"server,omitempty"`
}

type jsonProblem struct {
	File    string `json:"file"`
	Message string `json:"message"`
}

type jsonSummary struct {
	Objects    int `json:"objects"`
	Files      int `json:"files"`
	Valid      int `json:"valid"`
	Invalid    int `json:"invalid"`
	Rejected   int `json:"rejected"`
	NotChecked int `json:"notChecked"`
	Unreadable int `json:"unreadableFiles"`
	// Updates counts the objects checked as updates of live objects, LiveObjects the
	// objects --live read (of any kind); both only when --live is given.
	Updates     *int `json:"updates,omitempty"`
	LiveObjects *int `json:"liveObjects,omitempty"`
	// KubectlError is kubectl create's (apply's) own error when the files hold no object.
	KubectlError string `json:"kubectlError,omitempty"`
}

// writeJSON prints the report as one JSON document.
func writeJSON(w io.Writer, c *checker) {
	rep := jsonReport{Objects: []jsonObject{}, Summary: jsonSummary{Objects: len(c.objects), Files: len(c.names), Unreadable: len(c.problems)}}
	for _, o := range c.objects {
		r := &o.result
		jo := jsonObject{File: o.file, Document: r.Document, Item: r.Item, Line: r.Line, APIVersion: r.APIVersion,
			Kind: r.Kind, Namespace: r.Namespace, Name: r.Name, Verdict: r.Verdict.String(), Update: r.Update, Patch: r.Patch}
		switch r.Verdict {
		case validation.Valid:
			rep.Summary.Valid++
		case validation.Invalid:
			rep.Summary.Invalid++
		case validation.Rejected:
			rep.Summary.Rejected++
		case validation.NotChecked:
			rep.Summary.NotChecked++
		}
		if s := r.Status(); s != nil {
			st := s.ErrStatus
			st.TypeMeta = metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}
			jo.Status = &st
		} else if r.Err != nil {
			jo.Error = r.Err.Error()
			var ke *validation.KubectlError
			jo.KubectlStops = errors.As(r.Err, &ke) && ke.Stops
		}
		for _, cs := range o.causes {
			jo.Locations = append(jo.Locations, jsonLocation{Field: cs.field, Line: cs.line, Hint: cs.hint, Note: cs.note})
		}
		for _, wn := range r.Warnings {
			jo.Warnings = append(jo.Warnings, jsonWarning{Line: wn.Line, Message: wn.Message, Server: wn.Server})
		}
		rep.Objects = append(rep.Objects, jo)
	}
	if len(c.cfg.live) > 0 {
		updates := c.updates()
		rep.Summary.Updates, rep.Summary.LiveObjects = &updates, &c.liveRead
	}
	for _, p := range c.problems {
		rep.Problems = append(rep.Problems, jsonProblem{File: p.file, Message: p.message})
	}
	if c.noObjects() {
		rep.Summary.KubectlError = c.noObjectsError()
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(rep)
}
