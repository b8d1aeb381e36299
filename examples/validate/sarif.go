package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"

	"github.com/podlife/podlife/validation"
)

// The SARIF 2.1.0 subset code-scanning services read: a run with its tool's rules and
// results located by file and line.
type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool    sarifTool     `json:"tool"`
		Results []sarifResult `json:"results"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string      `json:"name"`
		InformationURI string      `json:"informationUri"`
		Rules          []sarifRule `json:"rules"`
	}
	sarifRule struct {
		ID                   string       `json:"id"`
		ShortDescription     sarifMessage `json:"shortDescription"`
		DefaultConfiguration sarifConfig  `json:"defaultConfiguration"`
	}
	sarifConfig struct {
		Level string `json:"level"`
	}
	sarifMessage struct {
		Text string `json:"text"`
	}
	sarifResult struct {
		RuleID    string          `json:"ruleId"`
		RuleIndex int             `json:"ruleIndex"`
		Level     string          `json:"level"`
		Message   sarifMessage    `json:"message"`
		Locations []sarifLocation `json:"locations"`
	}
	sarifLocation struct {
		PhysicalLocation sarifPhysical `json:"physicalLocation"`
	}
	sarifPhysical struct {
		ArtifactLocation sarifArtifact `json:"artifactLocation"`
		Region           *sarifRegion  `json:"region,omitempty"`
	}
	sarifArtifact struct {
		URI string `json:"uri"`
	}
	sarifRegion struct {
		StartLine int `json:"startLine"`
	}
)

// sarifRules are the kinds of findings; results refer to them by index.
var sarifRules = []sarifRule{
	{"server-invalid", sarifMessage{"The API server refuses the object: 422 Invalid"}, sarifConfig{"error"}},
	{"server-rejected", sarifMessage{"The API server cannot decode the object: unknown fields (strict field validation), wrong types, size"}, sarifConfig{"error"}},
	{"kubectl-rejected", sarifMessage{"kubectl refuses the document before sending it: unreadable YAML or JSON, no apiVersion or kind, a kind or version the server does not serve"}, sarifConfig{"error"}},
	{"duplicate-key", sarifMessage{"A key appears twice: kubectl keeps the last value and the server never sees the others"}, sarifConfig{"warning"}},
	{"unreadable-file", sarifMessage{"The file cannot be read as a manifest"}, sarifConfig{"error"}},
	{"no-objects", sarifMessage{"The files hold no object: kubectl create -f fails (no objects passed to create)"}, sarifConfig{"error"}},
	{"server-warning", sarifMessage{"The API server creates the object but warns: a field it does not know or gives twice (--validate=warn)"}, sarifConfig{"warning"}},
}

// writeSARIF prints the findings as a SARIF 2.1.0 log.
func writeSARIF(w io.Writer, c *checker) {
	results := []sarifResult{}
	add := func(rule int, file string, line int, msg string) {
		loc := sarifPhysical{ArtifactLocation: sarifArtifact{URI: sarifURI(file)}}
		if line > 0 {
			loc.Region = &sarifRegion{StartLine: line}
		}
		results = append(results, sarifResult{RuleID: sarifRules[rule].ID, RuleIndex: rule, Level: sarifRules[rule].DefaultConfiguration.Level,
			Message: sarifMessage{msg}, Locations: []sarifLocation{{PhysicalLocation: loc}}})
	}
	for _, o := range c.objects {
		r := &o.result
		rule := 0
		switch {
		case r.Verdict == validation.Rejected && r.Status() != nil:
			rule = 1
		case r.Verdict == validation.Rejected:
			rule = 2
		}
		if r.Verdict == validation.Invalid || r.Verdict == validation.Rejected {
			for _, cs := range o.causes {
				msg := fmt.Sprintf("%s: %s", title(r), cs.message)
				switch {
				case r.Patch != nil:
					msg = fmt.Sprintf("%s (as a patch of the live object): %s", title(r), cs.message)
				case r.Update:
					msg = fmt.Sprintf("%s (as an update of the live object): %s", title(r), cs.message)
				}
				if cs.hint != "" {
					msg += " (accepted with " + cs.hint + ")"
				}
				if cs.note != "" {
					msg += " (" + cs.note + ")"
				}
				add(rule, o.file, cs.line, msg)
			}
		}
		for _, wn := range r.Warnings {
			rule := 3
			if wn.Server {
				rule = 6
			}
			add(rule, o.file, wn.Line, fmt.Sprintf("%s: %s", title(r), wn.Message))
		}
	}
	for _, p := range c.problems {
		add(4, p.file, 0, p.message)
	}
	if c.noObjects() {
		for _, name := range c.names {
			add(5, name, 0, "kubectl "+c.command()+" -f: "+c.noObjectsError())
		}
	}
	log := sarifLog{
		Schema:  "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json",
		Version: "2.1.0",
		Runs: []sarifRun{{
			Tool:    sarifTool{Driver: sarifDriver{Name: "podlife-validate", InformationURI: "https://github.com/podlife/podlife", Rules: sarifRules}},
			Results: results,
		}},
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(log)
}

// sarifURI turns a path into the URI of an artifact: relative paths stay relative
// (with forward slashes), absolute ones become file URIs.
func sarifURI(path string) string {
	if filepath.IsAbs(path) {
		return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
	}
	return (&url.URL{Path: filepath.ToSlash(path)}).String()
}
