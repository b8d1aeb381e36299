// Command explain asks a live pod why: given a pod as `kubectl get pod -o yaml` (or -o
// json) prints it, status included, it says why the pod is in its phase, which
// containers keep it from being initialized and ready and why, what the kubelet does
// next and why, when a container held back by the crash-loop back-off may start again,
// and, for a pod that has ended, why it ended: lifecycle.Explain, which answers from the
// same functions that reproduce the kubelet of Kubernetes v1.37.2.
//
// Usage:
//
//	kubectl get pod web -o yaml | go run ./examples/explain -
//	go run ./examples/explain [--now TIME] [-o text|json] [--feature-gates LIST] [PATH ...]
//
// A PATH is a file holding one or more pods (a List from `kubectl get pods -o yaml`
// works), a directory (read recursively: its *.json, *.yaml and *.yml files, as kubectl
// -R reads them) or "-" for standard input (named STDIN); with several streams each
// explanation is headed by its file's name. The pods are explained as of --now (RFC
// 3339, default the current time), which matters for back-off and deadlines. Without a
// path, the embedded samples (testdata/*.yaml: pods captured from simulated lifecycles
// in each state the program explains) are explained at the time each was captured.
//
// Objects that are not pods, and documents that do not decode, are skipped with a note
// naming their file and line, and the pods around them are explained. The exit code is
// 0 when every document was a pod and explained, 1 when some were skipped (or a syntax error ended a file, as it ends kubectl's
// reading) and the pods before and around them explained, and 2 for a usage error, a
// path that cannot be read (the others are still explained) or input holding no pod.
package main

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podlife/podlife"
	"github.com/podlife/podlife/examples/internal/manifests"
	"github.com/podlife/podlife/lifecycle"
	"github.com/podlife/podlife/validation"
)

//go:embed testdata/*.yaml
var samples embed.FS

// sampleTimes are the moments the embedded samples are explained at: a few seconds
// after each was captured.
var sampleTimes = map[string]string{
	"waiting-init.yaml":        "2026-01-01T12:00:10Z",
	"init-crashloop.yaml":      "2026-01-01T12:00:43Z",
	"sidecar-not-started.yaml": "2026-01-01T12:00:05Z",
	"app-crashloop.yaml":       "2026-01-01T12:02:52Z",
	"image-pull-backoff.yaml":  "2026-01-01T12:00:13Z",
	"succeeded.yaml":           "2026-01-01T12:05:00Z",
	"failed-deadline.yaml":     "2026-01-01T12:05:00Z",
}

// sampleOrder is the order the samples are explained in.
var sampleOrder = []string{"waiting-init.yaml", "init-crashloop.yaml", "sidecar-not-started.yaml", "app-crashloop.yaml",
	"image-pull-backoff.yaml", "succeeded.yaml", "failed-deadline.yaml"}

const usage = `usage: explain [--now TIME] [-o text|json] [--feature-gates LIST] [PATH ...]

Explains pods as "kubectl get pod -o yaml" prints them: why each is in its phase,
what blocks it, what the kubelet of Kubernetes v1.37.2 does next, and when a
backed-off container starts again. PATH is a file, a directory (read recursively:
*.json, *.yaml, *.yml) or - for standard input. Without a path it explains
embedded samples.

Flags:
  --now TIME             the time to explain at (RFC 3339; default now)
  -o text|json           output format (default text)
  --feature-gates LIST   feature gate overrides, e.g. ContainerRestartRules=false
  --help                 print this help

Exit status: 0 every document a pod and explained, 1 documents skipped (not pods,
or after a syntax error) and the pods explained, 2 a usage error, a path that
cannot be read (the others are explained) or input holding no pod.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, time.Now()))
}

// run is the program; wall is the current time. It returns the exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer, wall time.Time) int {
	fs := flag.NewFlagSet("explain", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	now := fs.String("now", "", "")
	output := fs.String("o", "text", "")
	gateList := fs.String("feature-gates", "", "")
	fail := func(err error) int {
		fmt.Fprintf(stderr, "explain: %v\n", err)
		return 2
	}
	var files []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fmt.Fprint(stdout, usage)
				return 0
			}
			fmt.Fprintf(stderr, "explain: %v\n\n%s", err, usage)
			return 2
		}
		if fs.NArg() == 0 {
			break
		}
		files = append(files, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if *output != "text" && *output != "json" {
		return fail(fmt.Errorf("-o %q: want text or json", *output))
	}
	gates, err := podlife.ParseFeatureGates(*gateList)
	if err != nil {
		return fail(fmt.Errorf("--feature-gates: %v", err))
	}
	at := wall
	if *now != "" {
		if at, err = time.Parse(time.RFC3339, *now); err != nil {
			return fail(fmt.Errorf("--now: %v", err))
		}
	}
	type job struct {
		name string
		pod  *corev1.Pod
		at   time.Time
	}
	var jobs []job
	skipped := false    // a document was skipped or ended the stream
	unreadable := false // a path or a stream could not be read
	streams := 0        // the streams read from the paths given
	if len(files) == 0 {
		for _, name := range sampleOrder {
			data, _ := samples.ReadFile("testdata/" + name)
			pods, notes := decodePods("testdata/"+name, data)
			if len(notes) > 0 {
				return fail(fmt.Errorf("embedded sample: %q", notes))
			}
			t, _ := time.Parse(time.RFC3339, sampleTimes[name])
			if *now != "" {
				t = at
			}
			for _, p := range pods {
				jobs = append(jobs, job{name: "testdata/" + name, pod: p, at: t})
			}
		}
	} else {
		for _, path := range files {
			manifests.Walk(path, stdin, func(name string, r io.Reader) {
				streams++
				data, err := io.ReadAll(r)
				if err != nil {
					fmt.Fprintf(stderr, "explain: %s: %v\n", name, err)
					unreadable = true
					return
				}
				pods, notes := decodePods(name, data)
				for _, n := range notes {
					fmt.Fprintln(stderr, n)
				}
				if len(notes) > 0 {
					skipped = true
				}
				for _, p := range pods {
					jobs = append(jobs, job{name: name, pod: p, at: at})
				}
			}, func(name, msg string) {
				fmt.Fprintf(stderr, "explain: %s: %s\n", name, msg)
				unreadable = true
			})
		}
		if len(jobs) == 0 && !unreadable {
			return fail(fmt.Errorf("%s: no pod found", strings.Join(files, ", ")))
		}
	}
	var all []lifecycle.Explanation
	for i, j := range jobs {
		e := lifecycle.Explain(j.pod, j.at, lifecycle.Options{Features: gates})
		if *output == "json" {
			all = append(all, e)
			continue
		}
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		if len(files) == 0 || streams > 1 {
			fmt.Fprintf(stdout, "# %s\n", j.name)
		}
		fmt.Fprint(stdout, e)
	}
	if *output == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(all); err != nil {
			return fail(err)
		}
	}
	switch {
	case unreadable:
		return 2
	case skipped:
		return 1
	}
	return 0
}

// decodePods reads the pods of the stream name holds as kubectl reads it
// (validation.ValidateStream with DecodeOnly: YAML or JSON, flow style, Lists and
// PodLists flattened), ignoring fields the Go type does not know, as a pod written by
// a newer server may carry them. Objects of other kinds, and documents that do not
// decode, are skipped, each with a note naming its file and line; a syntax error ends
// the stream after the pods read before it, as it ends kubectl's reading.
func decodePods(name string, data []byte) (pods []*corev1.Pod, notes []string) {
	opts := validation.StreamOptions{DecodeOnly: true, FieldValidation: metav1.FieldValidationIgnore}
	for res := range validation.ValidateStream(bytes.NewReader(data), name, opts) {
		if pod, ok := res.Object.(*corev1.Pod); ok && res.Err == nil {
			pods = append(pods, pod)
			continue
		}
		if res.Err != nil {
			notes = append(notes, fmt.Sprintf("%s:%d: skipping: %s", name, res.Line, manifests.Refusal(&res)))
		} else {
			notes = append(notes, fmt.Sprintf("%s:%d: skipping %s %q: not a Pod", name, res.Line, res.Kind, res.Name))
		}
	}
	return pods, notes
}
