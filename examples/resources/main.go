// Command resources prints the effective requests and limits, the QoS class and the
// breakdown of each value (which container, init step, pod-level value or overhead
// decided it) for the pods and workloads of manifests, as a Kubernetes v1.37.2
// cluster computes them.
//
// Usage:
//
//	go run ./examples/resources [flags] [PATH ...]
//
// PATH is a file, a directory (read recursively: *.json, *.yaml, *.yml) or - for
// standard input, read as kubectl reads it (validation.ValidateStream, decoding only).
// Without PATH it reads an embedded copy of the myapp-pod of the Init Containers
// page, with resources added. Each Pod, PodTemplate, ReplicationController,
// Deployment, ReplicaSet, StatefulSet, DaemonSet, Job and CronJob is reported for
// the pod the cluster runs for it (podlife.PodFromObject: the object as the API server
// stores it, the pod its controller makes, the server's create-time defaults), so a
// container with limits only gets equal requests, as the server gives it; a pod with
// a status (as `kubectl get pod -o yaml` prints a live one) is read as it is. Other kinds
// are skipped with a note on standard error; a document that cannot be read is
// reported with its file and line, and the others are still read.
//
// Flags:
//
//	-o, --output text|json     output format (default text)
//	    --feature-gates LIST   gate overrides, as kube-apiserver takes them
//	    --use-status-resources read the resources the kubelet allocated and actuated
//	    --exclude-overhead     leave out the pod overhead
//	    --skip-pod-level       leave out pod-level resources (spec.resources)
//	    --non-missing-requests count a container without requests as the scheduler's
//	                           scoring does (100m CPU, 200Mi memory)
//	-h, --help                 print the help
//
// Exit status: 0 every pod reported, 1 a document could not be read or no input held
// a pod, 2 a usage error or a file that cannot be read.
package main

import (
	"bufio"
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/podlife/podlife"
	"github.com/podlife/podlife/examples/internal/manifests"
	"github.com/podlife/podlife/resources"
	"github.com/podlife/podlife/validation"
)

//go:embed testdata/myapp-pod.yaml
var defaultManifest []byte

const usage = `usage: resources [flags] [PATH ...]

Prints the effective requests and limits, the QoS class and how each value was
reached (which container, init step, pod-level value or overhead decided it) for
the pods and workloads of manifests, as a Kubernetes v1.37.2 cluster computes
them. PATH is a file, a directory (read recursively: *.json, *.yaml, *.yml) or -
for standard input; without PATH an embedded myapp-pod is reported.

Flags:
  -o, --output text|json     output format (default text)
      --feature-gates LIST   gate overrides as kube-apiserver takes them, e.g.
                             PodLevelResources=false
      --use-status-resources read the resources the kubelet allocated and
                             actuated (container statuses), as the scheduler and
                             the kubelet do during an in-place resize
      --exclude-overhead     leave out the pod overhead (spec.overhead)
      --skip-pod-level       leave out pod-level resources (spec.resources)
      --non-missing-requests count a container without CPU or memory requests as
                             100m and 200Mi, as the scheduler's scoring does
  -h, --help                 print this help

Exit status: 0 every pod reported, 1 a document could not be read or no input
held a pod, 2 a usage error or a file that cannot be read.
`

// Exit codes.
const (
	exitOK      = 0
	exitInput   = 1
	exitFailure = 2
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// config is what the flags ask for.
type config struct {
	json    bool
	gates   podlife.FeatureGates
	options resources.PodResourcesOptions
	paths   []string
}

// parseFlags reads the command line; ok is false when the program should exit with
// code.
func parseFlags(args []string, stdout, stderr io.Writer) (cfg config, code int, ok bool) {
	fs := flag.NewFlagSet("resources", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var output, gates string
	var statusResources, excludeOverhead, skipPodLevel, nonMissing bool
	for _, name := range []string{"o", "output"} {
		fs.StringVar(&output, name, "text", "")
	}
	fs.StringVar(&gates, "feature-gates", "", "")
	fs.BoolVar(&statusResources, "use-status-resources", false, "")
	fs.BoolVar(&excludeOverhead, "exclude-overhead", false, "")
	fs.BoolVar(&skipPodLevel, "skip-pod-level", false, "")
	fs.BoolVar(&nonMissing, "non-missing-requests", false, "")
	fail := func(msg string) (config, int, bool) {
		fmt.Fprintf(stderr, "resources: %s\n\n%s", msg, usage)
		return config{}, exitFailure, false
	}
	// Flags may follow paths, as kubectl allows.
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fmt.Fprint(stdout, usage)
				return config{}, exitOK, false
			}
			return fail(err.Error())
		}
		if fs.NArg() == 0 {
			break
		}
		cfg.paths = append(cfg.paths, fs.Arg(0))
		args = fs.Args()[1:]
	}
	switch output {
	case "text":
	case "json":
		cfg.json = true
	default:
		return fail(fmt.Sprintf("unknown output format %q (text or json)", output))
	}
	g, err := podlife.ParseFeatureGates(gates)
	if err != nil {
		return fail("--feature-gates: " + err.Error())
	}
	cfg.gates = g
	cfg.options = resources.PodResourcesOptions{
		UseStatusResources: statusResources,
		ExcludeOverhead:    excludeOverhead,
		// The scheduler and the kubelet set these two from the gates.
		SkipPodLevelResources:                          skipPodLevel || !g.Enabled("PodLevelResources"),
		InPlacePodLevelResourcesVerticalScalingEnabled: g.Enabled("InPlacePodLevelResourcesVerticalScaling"),
	}
	if nonMissing {
		// The scheduler's defaults for scoring (k8s.io/kubernetes
		// pkg/scheduler/util: DefaultMilliCPURequest, DefaultMemoryRequest).
		cfg.options.NonMissingContainerRequests = corev1.ResourceList{
			corev1.ResourceCPU:    *resource.NewMilliQuantity(100, resource.DecimalSI),
			corev1.ResourceMemory: *resource.NewQuantity(200*1024*1024, resource.DecimalSI),
		}
	}
	return cfg, 0, true
}

// run is the program; it returns the exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cfg, code, ok := parseFlags(args, stdout, stderr)
	if !ok {
		return code
	}
	r := &reporter{cfg: cfg, stderr: stderr}
	if len(cfg.paths) == 0 {
		r.read("myapp-pod.yaml", bytes.NewReader(defaultManifest))
	}
	for _, p := range cfg.paths {
		manifests.Walk(p, stdin, r.read, r.fail)
	}
	if cfg.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(jsonReport{Pods: r.jsonPods()})
	} else {
		writeText(stdout, r.pods)
	}
	switch {
	case r.unreadable:
		return exitFailure
	case r.badDocuments:
		return exitInput
	case len(r.pods) == 0:
		fmt.Fprintf(stderr, "resources: no Pod or workload with a pod template found\n")
		return exitInput
	}
	return exitOK
}

// reporter reads the streams and keeps what the outputs print.
type reporter struct {
	cfg          config
	stderr       io.Writer
	pods         []report
	unreadable   bool // a path could not be read
	badDocuments bool // a document could not be decoded
}

// report is what the program says about one object's pod.
type report struct {
	file     string
	line     int
	kind     string
	name     string
	qos      corev1.PodQOSClass
	requests corev1.ResourceList
	limits   corev1.ResourceList
	explain  resources.Explanation
}

// read reports on every object of one stream that holds a pod.
func (r *reporter) read(name string, in io.Reader) {
	br := bufio.NewReaderSize(in, 64<<10)
	if off := manifests.BinaryOffset(br); off >= 0 {
		r.fail(name, fmt.Sprintf("not a text file (a NUL byte at offset %d); kubectl cannot read it either", off))
		return
	}
	opts := validation.StreamOptions{DecodeOnly: true, Validation: validation.Options{Features: r.cfg.gates}}
	for res := range validation.ValidateStream(br, name, opts) {
		var readErr *validation.ReadError
		switch {
		case errors.As(res.Err, &readErr):
			r.fail(name, readErr.Error())
			continue
		case res.Err != nil:
			r.badDocuments = true
			fmt.Fprintf(r.stderr, "%s:%d: %s\n", name, res.Line, manifests.Refusal(&res))
			continue
		}
		pod, err := r.podOf(res.Object)
		if err != nil {
			fmt.Fprintf(r.stderr, "%s:%d: skipping %s %q: it holds no pod\n", name, res.Line, res.Kind, res.Name)
			continue
		}
		o := r.cfg.options
		r.pods = append(r.pods, report{
			file: name, line: res.Line, kind: res.Kind, name: res.Name,
			qos:      resources.GetPodQOSWithOptions(pod, qosOptions(r.cfg.gates)),
			requests: resources.PodRequests(pod, o),
			limits:   resources.PodLimits(pod, o),
			explain:  resources.Explain(pod, o),
		})
	}
}

// podOf returns the pod to report for obj: a live pod (one with a status, as
// `kubectl get pod -o yaml` prints it) as it is, since the server stored it so and
// --use-status-resources reads its status; for any other object, the pod a cluster
// runs for it, created anew.
func (r *reporter) podOf(obj runtime.Object) (*corev1.Pod, error) {
	if pod, ok := obj.(*corev1.Pod); ok && (pod.Status.Phase != "" || len(pod.Status.ContainerStatuses) > 0 || len(pod.Status.InitContainerStatuses) > 0) {
		return pod, nil
	}
	return podlife.PodFromObject(obj, podlife.PodFromTemplateOptions{DefaultOptions: podlife.DefaultOptions{Features: r.cfg.gates}})
}

// qosOptions are the QoS options the gates ask for.
func qosOptions(g podlife.FeatureGates) resources.QOSOptions {
	return resources.QOSOptions{
		DisablePodLevelResources:                   !g.Enabled("PodLevelResources"),
		DisablePodLevelResourcesFixKubeletQOSClass: !g.Enabled("PodLevelResourcesFixKubeletQOSClass"),
	}
}

// fail reports a path that cannot be read.
func (r *reporter) fail(name, msg string) {
	r.unreadable = true
	fmt.Fprintf(r.stderr, "resources: %s: %s\n", name, msg)
}

// writeText prints each pod: its values, then the breakdown.
func writeText(w io.Writer, pods []report) {
	for i, p := range pods {
		if i > 0 {
			fmt.Fprintln(w)
		}
		title := p.kind + " " + p.name
		if p.kind != "Pod" {
			title += " (a pod of its template)"
		}
		fmt.Fprintf(w, "%s:%d: %s\n", p.file, p.line, title)
		fmt.Fprintf(w, "  QoS class: %s\n", p.qos)
		fmt.Fprintf(w, "  requests:  %s\n", list(p.requests))
		fmt.Fprintf(w, "  limits:    %s\n", list(p.limits))
		fmt.Fprintln(w)
		fmt.Fprint(w, p.explain)
	}
}

// list renders a resource list sorted by name.
func list(l corev1.ResourceList) string {
	if len(l) == 0 {
		return "(none)"
	}
	names := make([]string, 0, len(l))
	for _, name := range slices.Sorted(maps.Keys(l)) {
		q := l[name]
		names = append(names, string(name)+" "+q.String())
	}
	return strings.Join(names, ", ")
}
