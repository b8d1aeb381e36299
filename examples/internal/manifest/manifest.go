// Package manifest reads Kubernetes manifests for the example programs: a YAML or JSON
// stream of Pods and of workloads that carry a pod template.
package manifest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// Object is one decoded document.
type Object struct {
	// Kind and Group name the object's type ("Deployment", "apps"); Group is empty for
	// the core group.
	Kind, Group string
	// Meta is the object's metadata.
	Meta *metav1.ObjectMeta
	// Pod is set for a Pod.
	Pod *corev1.Pod
	// Template is set for a workload (Deployment, StatefulSet, DaemonSet, ReplicaSet,
	// Job, CronJob, PodTemplate); TemplatePath is where the template sits in it.
	Template     *corev1.PodTemplateSpec
	TemplatePath *field.Path
}

// QualifiedKind is the kind as the API server names it in messages: "Pod",
// "Deployment.apps", "Job.batch".
func (o Object) QualifiedKind() string {
	if o.Group == "" {
		return o.Kind
	}
	return o.Kind + "." + o.Group
}

// Decode returns every non-empty document of a YAML or JSON stream. A document of
// another kind is returned with only Kind and Meta set.
func Decode(data []byte) ([]Object, error) {
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	var objects []Object
	for n := 1; ; n++ {
		doc, err := r.Read()
		if errors.Is(err, io.EOF) {
			return objects, nil
		}
		if err != nil {
			return nil, err
		}
		js, err := utilyaml.ToJSON(doc)
		if err != nil {
			return nil, fmt.Errorf("document %d: %w", n, err)
		}
		if t := bytes.TrimSpace(js); len(t) == 0 || string(t) == "null" {
			continue
		}
		o, err := decodeObject(js)
		if err != nil {
			return nil, fmt.Errorf("document %d: %w", n, err)
		}
		objects = append(objects, o)
	}
}

func decodeObject(js []byte) (Object, error) {
	var tm metav1.TypeMeta
	if err := json.Unmarshal(js, &tm); err != nil {
		return Object{}, err
	}
	o := Object{Kind: tm.Kind}
	var into any
	templatePath := field.NewPath("spec", "template")
	switch tm.Kind {
	case "Pod":
		p := &corev1.Pod{}
		into, o.Meta, o.Pod = p, &p.ObjectMeta, p
	case "Deployment":
		w := &appsv1.Deployment{}
		into, o.Group, o.Meta, o.Template = w, "apps", &w.ObjectMeta, &w.Spec.Template
	case "StatefulSet":
		w := &appsv1.StatefulSet{}
		into, o.Group, o.Meta, o.Template = w, "apps", &w.ObjectMeta, &w.Spec.Template
	case "DaemonSet":
		w := &appsv1.DaemonSet{}
		into, o.Group, o.Meta, o.Template = w, "apps", &w.ObjectMeta, &w.Spec.Template
	case "ReplicaSet":
		w := &appsv1.ReplicaSet{}
		into, o.Group, o.Meta, o.Template = w, "apps", &w.ObjectMeta, &w.Spec.Template
	case "Job":
		w := &batchv1.Job{}
		into, o.Group, o.Meta, o.Template = w, "batch", &w.ObjectMeta, &w.Spec.Template
	case "CronJob":
		w := &batchv1.CronJob{}
		into, o.Group, o.Meta, o.Template = w, "batch", &w.ObjectMeta, &w.Spec.JobTemplate.Spec.Template
		templatePath = field.NewPath("spec", "jobTemplate", "spec", "template")
	case "PodTemplate":
		w := &corev1.PodTemplate{}
		into, o.Meta, o.Template = w, &w.ObjectMeta, &w.Template
		templatePath = field.NewPath("template")
	default:
		// Only the name is wanted, for a message; a body that does not fit is no error.
		m := &metav1.PartialObjectMetadata{}
		_ = json.Unmarshal(js, m)
		o.Meta = &m.ObjectMeta
		return o, nil
	}
	if err := json.Unmarshal(js, into); err != nil {
		return Object{}, err
	}
	if o.Template != nil {
		o.TemplatePath = templatePath
	}
	return o, nil
}
