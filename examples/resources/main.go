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
// The file is read as kubectl reads it (validation.ValidateStream, decoding only).
// Pods are defaulted as the API server does on create (podlife.Default): the resources
// package reads a pod as the server stores it (a container with limits only gets equal
// requests). A workload's pod is built from its template as its controller does
// (podlife.PodFromTemplate). Other kinds are skipped with a note on standard error, as
// examples/validate lists them as not checked.
package main

import (
	"bytes"
	_ "embed"
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
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/podlife/podlife"
	"github.com/podlife/podlife/resources"
	"github.com/podlife/podlife/validation"
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
	if err := run(os.Stdout, os.Stderr, data); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// run reports on every Pod and workload of the YAML (or JSON) stream data; other kinds
// are skipped with a note on stderr.
func run(w, stderr io.Writer, data []byte) error {
	seen, reported := 0, 0
	for r := range validation.ValidateStream(bytes.NewReader(data), "manifest", validation.StreamOptions{DecodeOnly: true}) {
		seen++
		if r.Err != nil {
			return fmt.Errorf("document %d: %s", r.Document, r.Message())
		}
		title, pod, err := podOf(r.Object)
		if err != nil {
			fmt.Fprintf(stderr, "document %d: skipping %s %q: not a Pod or a workload with a pod template\n", r.Document, r.Kind, r.Name)
			continue
		}
		if reported > 0 {
			fmt.Fprintln(w)
		}
		report(w, title, pod)
		reported++
	}
	switch {
	case seen == 0:
		return errors.New("no object found")
	case reported == 0:
		return errors.New("no Pod or workload with a pod template found")
	}
	return nil
}

// podOf returns the pod the API server would store for obj.
func podOf(obj runtime.Object) (string, *corev1.Pod, error) {
	var meta *metav1.ObjectMeta
	var template *corev1.PodTemplateSpec
	var kind string
	switch o := obj.(type) {
	case *corev1.Pod:
		return "Pod " + o.Name, podlife.Default(o), nil
	case *corev1.PodTemplate:
		meta, template, kind = &o.ObjectMeta, &o.Template, "PodTemplate"
	case *corev1.ReplicationController:
		meta, template, kind = &o.ObjectMeta, o.Spec.Template, "ReplicationController"
	case *appsv1.Deployment:
		meta, template, kind = &o.ObjectMeta, &o.Spec.Template, "Deployment"
	case *appsv1.ReplicaSet:
		meta, template, kind = &o.ObjectMeta, &o.Spec.Template, "ReplicaSet"
	case *appsv1.StatefulSet:
		meta, template, kind = &o.ObjectMeta, &o.Spec.Template, "StatefulSet"
	case *appsv1.DaemonSet:
		meta, template, kind = &o.ObjectMeta, &o.Spec.Template, "DaemonSet"
	case *batchv1.Job:
		meta, template, kind = &o.ObjectMeta, &o.Spec.Template, "Job"
	case *batchv1.CronJob:
		meta, template, kind = &o.ObjectMeta, &o.Spec.JobTemplate.Spec.Template, "CronJob"
	}
	if template == nil {
		return "", nil, errors.New("no pod template")
	}
	pod := podlife.PodFromTemplate(template, podlife.PodFromTemplateOptions{ControllerName: meta.Name, Namespace: meta.Namespace})
	return fmt.Sprintf("%s %s (a pod of its template)", kind, meta.Name), pod, nil
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
