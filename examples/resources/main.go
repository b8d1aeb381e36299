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
// Pods are defaulted as the API server does on create (podlife.Default): the resources
// package reads a pod as the server stores it (a container with limits only gets equal
// requests). A workload's pod is built from its template as its controller does
// (podlife.PodFromTemplate). Other kinds are skipped with a note on standard error, as
// examples/validate does.
package main

import (
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/podlife/podlife"
	"github.com/podlife/podlife/examples/internal/manifest"
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
	if err := run(os.Stdout, os.Stderr, data); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// run reports on every Pod and workload of the YAML (or JSON) stream data; other kinds
// are skipped with a note on stderr.
func run(w, stderr io.Writer, data []byte) error {
	objects, err := manifest.Decode(data)
	if err != nil {
		return err
	}
	if len(objects) == 0 {
		return errors.New("no object found")
	}
	reported := 0
	for n, o := range objects {
		title, pod, err := podOf(o)
		if err != nil {
			fmt.Fprintf(stderr, "document %d: skipping %s %q: not a Pod or a workload with a pod template\n", n+1, o.Kind, o.Meta.Name)
			continue
		}
		if reported > 0 {
			fmt.Fprintln(w)
		}
		report(w, title, pod)
		reported++
	}
	if reported == 0 {
		return errors.New("no Pod or workload with a pod template found")
	}
	return nil
}

// podOf returns the pod the API server would store for o.
func podOf(o manifest.Object) (string, *corev1.Pod, error) {
	switch {
	case o.Pod != nil:
		return "Pod " + o.Pod.Name, podlife.Default(o.Pod), nil
	case o.Template != nil:
		pod := podlife.PodFromTemplate(o.Template, podlife.PodFromTemplateOptions{ControllerName: o.Meta.Name, Namespace: o.Meta.Namespace})
		return fmt.Sprintf("%s %s (a pod of its template)", o.Kind, o.Meta.Name), pod, nil
	}
	return "", nil, fmt.Errorf("kind %q is not a Pod or a workload with a pod template", o.Kind)
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
