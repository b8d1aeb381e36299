package main

import (
	"encoding/json"
	"path"
	"slices"
	"strings"

	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// scenario is a built-in scenario: a file of scenarios/ holding a pod and a script.
type scenario struct {
	name, summary string
}

// scenarioList lists the built-in scenarios, myapp first, with the first sentence of
// each script's description.
func scenarioList() []scenario {
	entries, _ := scenarioFS.ReadDir("scenarios")
	var out []scenario
	for _, e := range entries {
		name := strings.TrimSuffix(e.Name(), path.Ext(e.Name()))
		data, _ := scenarioFS.ReadFile("scenarios/" + e.Name())
		out = append(out, scenario{name: name, summary: summaryOf(data)})
	}
	slices.SortStableFunc(out, func(a, b scenario) int {
		switch {
		case a.name == "myapp":
			return -1
		case b.name == "myapp":
			return 1
		}
		return strings.Compare(a.name, b.name)
	})
	return out
}

// summaryOf returns the first sentence of the description of the stream's Script.
func summaryOf(data []byte) string {
	for _, d := range splitDocuments(data) {
		js, err := utilyaml.ToJSON(d.data)
		if err != nil {
			continue
		}
		var s scriptDoc
		if json.Unmarshal(js, &s) == nil && s.Kind == "Script" {
			desc := strings.Join(strings.Fields(s.Description), " ")
			if i := strings.Index(desc, ". "); i >= 0 {
				desc = desc[:i+1]
			}
			return desc
		}
	}
	return ""
}
