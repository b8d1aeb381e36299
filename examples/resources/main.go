// Command resources prints the effective requests and limits, the QoS class and the
// breakdown of each value (which container, init step, pod-level value or overhead
// decided it) for a pod or for the pods of a workload, as a default Kubernetes v1.37.2
// cluster computes them.
//
// Usage:
//
//	go run ./examples/resources [FILE.yaml]
//
// Without an argument it reads an embedded copy of the myapp-pod of the Init
// Containers page, with resources added. FILE may hold several YAML documents, each a
// Pod, Deployment, StatefulSet, DaemonSet, ReplicaSet, Job, CronJob or PodTemplate.
// Pods are defaulted as the API server does on create (podlife.Default); a workload's
// pod is built from its template as its controller does (podlife.PodFromTemplate).
package main

import (
	"bufio"
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"

	"github.com/podlife/podlife"
	"github.com/podlife/podlife/resources"
)

//go:embed testdata/myapp-pod.yaml
var defaultManifest []byte

func main() {
	data := defaultManifest
	if len(os.Args) > 2 {
		fmt.Fprintln(os.Stderr, "usage: resources [FILE.yaml]")
		os.Exit(2)
	}
	if len(os.Args) == 2 {
		var err error
		if data, err = os.ReadFile(os.Args[1]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	if err := run(os.Stdout, data); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// run reports on every object of the YAML (or JSON) stream data.
func run(w io.Writer, data []byte) error {
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	n := 0
	for {
		doc, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		js, err := utilyaml.ToJSON(doc)
		if err != nil {
			return fmt.Errorf("document %d: %w", n+1, err)
		}
		if len(bytes.TrimSpace(js)) == 0 || string(bytes.TrimSpace(js)) == "null" {
			continue // an empty document
		}
		n++
		title, pod, err := podOf(js)
		if err != nil {
			return fmt.Errorf("document %d: %w", n, err)
		}
		if n > 1 {
			fmt.Fprintln(w)
		}
		report(w, title, pod)
	}
	if n == 0 {
		return errors.New("no object found")
	}
	return nil
}

// podOf decodes one object and returns the pod the API server would store for it.
func podOf(js []byte) (string, *corev1.Pod, error) {
	var tm metav1.TypeMeta
	if err := json.Unmarshal(js, &tm); err != nil {
		return "", nil, err
	}
	var (
		meta     *metav1.ObjectMeta
		template *corev1.PodTemplateSpec
		obj      any
	)
	switch tm.Kind {
	case "Pod":
		var p corev1.Pod
		if err := json.Unmarshal(js, &p); err != nil {
			return "", nil, err
		}
		return "Pod " + p.Name, podlife.Default(&p), nil
	case "Deployment":
		var o appsv1.Deployment
		obj, meta, template = &o, &o.ObjectMeta, &o.Spec.Template
	case "StatefulSet":
		var o appsv1.StatefulSet
		obj, meta, template = &o, &o.ObjectMeta, &o.Spec.Template
	case "DaemonSet":
		var o appsv1.DaemonSet
		obj, meta, template = &o, &o.ObjectMeta, &o.Spec.Template
	case "ReplicaSet":
		var o appsv1.ReplicaSet
		obj, meta, template = &o, &o.ObjectMeta, &o.Spec.Template
	case "Job":
		var o batchv1.Job
		obj, meta, template = &o, &o.ObjectMeta, &o.Spec.Template
	case "CronJob":
		var o batchv1.CronJob
		obj, meta, template = &o, &o.ObjectMeta, &o.Spec.JobTemplate.Spec.Template
	case "PodTemplate":
		var o corev1.PodTemplate
		obj, meta, template = &o, &o.ObjectMeta, &o.Template
	default:
		return "", nil, fmt.Errorf("kind %q is not a Pod or a workload with a pod template", tm.Kind)
	}
	if err := json.Unmarshal(js, obj); err != nil {
		return "", nil, err
	}
	pod := podlife.PodFromTemplate(template, podlife.PodFromTemplateOptions{ControllerName: meta.Name, Namespace: meta.Namespace})
	return fmt.Sprintf("%s %s (a pod of its template)", tm.Kind, meta.Name), pod, nil
}

// report prints what the resources package says about pod.
func report(w io.Writer, title string, pod *corev1.Pod) {
	opts := resources.PodResourcesOptions{}
	fmt.Fprintln(w, title)
	fmt.Fprintf(w, "  QoS class: %s\n", resources.GetPodQOS(pod))
	fmt.Fprintf(w, "  requests:  %s\n", list(resources.PodRequests(pod, opts)))
	fmt.Fprintf(w, "  limits:    %s\n", list(resources.PodLimits(pod, opts)))
	fmt.Fprintln(w)
	fmt.Fprint(w, resources.Explain(pod, opts))
}

// list renders a resource list sorted by name.
func list(l corev1.ResourceList) string {
	if len(l) == 0 {
		return "(none)"
	}
	names := make([]string, 0, len(l))
	for name := range l {
		names = append(names, string(name))
	}
	slices.Sort(names)
	for i, name := range names {
		q := l[corev1.ResourceName(name)]
		names[i] = name + " " + q.String()
	}
	return strings.Join(names, ", ")
}
