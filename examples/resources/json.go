package main

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/podlife/podlife/resources"
)

// jsonReport is the -o json output.
type jsonReport struct {
	Pods []jsonPod `json:"pods"`
}

// jsonPod is one object's pod: where the object is, its values and their breakdown.
type jsonPod struct {
	File        string              `json:"file"`
	Line        int                 `json:"line"`
	Kind        string              `json:"kind"`
	Name        string              `json:"name"`
	QOSClass    corev1.PodQOSClass  `json:"qosClass"`
	Requests    corev1.ResourceList `json:"requests"`
	Limits      corev1.ResourceList `json:"limits"`
	Explanation jsonExplanation     `json:"explanation"`
}

// jsonExplanation is resources.Explanation with the output's field names.
type jsonExplanation struct {
	Requests []jsonResource `json:"requests"`
	Limits   []jsonResource `json:"limits"`
}

// jsonResource is resources.ResourceExplanation.
type jsonResource struct {
	Name    corev1.ResourceName `json:"name"`
	Present bool                `json:"present"`
	Value   *resource.Quantity  `json:"value,omitempty"`
	Terms   []jsonTerm          `json:"terms"`
}

// jsonTerm is resources.Term.
type jsonTerm struct {
	Kind      resources.TermKind `json:"kind"`
	Op        resources.Op       `json:"op"`
	Level     int                `json:"level,omitempty"`
	Container string             `json:"container,omitempty"`
	Sidecar   bool               `json:"sidecar,omitempty"`
	Sidecars  []string           `json:"sidecars,omitempty"`
	Parts     []jsonPart         `json:"parts,omitempty"`
	Source    string             `json:"source,omitempty"`
	Value     resource.Quantity  `json:"value"`
	Won       bool               `json:"won,omitempty"`
	Ignored   bool               `json:"ignored,omitempty"`
}

// jsonPart is resources.Part.
type jsonPart struct {
	Container string            `json:"container"`
	Value     resource.Quantity `json:"value"`
}

// jsonPods converts the reports.
func (r *reporter) jsonPods() []jsonPod {
	out := []jsonPod{}
	for _, p := range r.pods {
		out = append(out, jsonPod{
			File: p.file, Line: p.line, Kind: p.kind, Name: p.name, QOSClass: p.qos,
			Requests: orEmpty(p.requests), Limits: orEmpty(p.limits),
			Explanation: jsonExplanation{Requests: jsonResources(p.explain.Requests), Limits: jsonResources(p.explain.Limits)},
		})
	}
	return out
}

// orEmpty is l, or an empty list for nil, so that the output has {} and not null.
func orEmpty(l corev1.ResourceList) corev1.ResourceList {
	if l == nil {
		return corev1.ResourceList{}
	}
	return l
}

// jsonResources converts a resource's explanations.
func jsonResources(rs []resources.ResourceExplanation) []jsonResource {
	out := []jsonResource{}
	for _, re := range rs {
		jr := jsonResource{Name: re.Name, Present: re.Present, Terms: []jsonTerm{}}
		if re.Present {
			jr.Value = &re.Value
		}
		for _, t := range re.Terms {
			jt := jsonTerm{Kind: t.Kind, Op: t.Op, Level: t.Level, Container: t.Container, Sidecar: t.Sidecar, Sidecars: t.Sidecars,
				Source: t.Source, Value: t.Value, Won: t.Won, Ignored: t.Ignored}
			for _, p := range t.Parts {
				jt.Parts = append(jt.Parts, jsonPart(p))
			}
			jr.Terms = append(jr.Terms, jt)
		}
		out = append(out, jr)
	}
	return out
}
