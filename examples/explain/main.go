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
//	go run ./examples/explain [--now TIME] [-o text|json] [--feature-gates LIST] [FILE.yaml]
//
// FILE holds one or more pods (a List from `kubectl get pods -o yaml` works); "-" reads
// standard input. The pods are explained as of --now (RFC 3339, default the current
// time), which matters for back-off and deadlines. Without a file, the embedded samples
// (testdata/*.yaml: pods captured from simulated lifecycles in each state the program
// explains) are explained at the time each was captured.
//
// The exit code is 0 when every pod was explained and 2 for a usage error or an input
// that cannot be read.
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
	"time"

	corev1 "k8s.io/api/core/v1"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"

	"github.com/podlife/podlife"
	"github.com/podlife/podlife/lifecycle"
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

const usage = `usage: explain [--now TIME] [-o text|json] [--feature-gates LIST] [FILE.yaml | -]

Explains pods as "kubectl get pod -o yaml" prints them: why each is in its phase,
what blocks it, what the kubelet of Kubernetes v1.37.2 does next, and when a
backed-off container starts again. Without a file it explains embedded samples.

Flags:
  --now TIME             the time to explain at (RFC 3339; default now)
  -o text|json           output format (default text)
  --feature-gates LIST   feature gate overrides, e.g. ContainerRestartRules=false
  --help                 print this help
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
	if len(files) > 1 {
		return fail(errors.New("give at most one file"))
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
	if len(files) == 0 {
		for _, name := range sampleOrder {
			data, _ := samples.ReadFile("testdata/" + name)
			pods, err := decodePods(data)
			if err != nil {
				return fail(fmt.Errorf("testdata/%s: %v", name, err))
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
		var data []byte
		if files[0] == "-" {
			data, err = io.ReadAll(stdin)
		} else {
			data, err = os.ReadFile(files[0])
		}
		if err != nil {
			return fail(err)
		}
		pods, err := decodePods(data)
		if err != nil {
			return fail(fmt.Errorf("%s: %v", files[0], err))
		}
		if len(pods) == 0 {
			return fail(fmt.Errorf("%s: no pod found", files[0]))
		}
		for _, p := range pods {
			jobs = append(jobs, job{name: files[0], pod: p, at: at})
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
		if len(files) == 0 {
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
	return 0
}

// decodePods reads the pods of a YAML or JSON stream: Pod documents and the items of
// List documents (`kubectl get pods -o yaml`). Other kinds are errors, with the
// document's number.
func decodePods(data []byte) ([]*corev1.Pod, error) {
	r := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
	var pods []*corev1.Pod
	for n := 1; ; n++ {
		var raw json.RawMessage
		if err := r.Decode(&raw); err != nil {
			if errors.Is(err, io.EOF) {
				return pods, nil
			}
			return nil, fmt.Errorf("document %d: %v", n, err)
		}
		if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
			continue
		}
		var head struct {
			Kind  string            `json:"kind"`
			Items []json.RawMessage `json:"items"`
		}
		if err := json.Unmarshal(raw, &head); err != nil {
			return nil, fmt.Errorf("document %d: %v", n, err)
		}
		switch head.Kind {
		case "Pod":
			p := &corev1.Pod{}
			if err := json.Unmarshal(raw, p); err != nil {
				return nil, fmt.Errorf("document %d: %v", n, err)
			}
			pods = append(pods, p)
		case "List", "PodList":
			for i, it := range head.Items {
				p := &corev1.Pod{}
				if err := json.Unmarshal(it, p); err != nil {
					return nil, fmt.Errorf("document %d, item %d: %v", n, i, err)
				}
				if p.Kind != "" && p.Kind != "Pod" {
					return nil, fmt.Errorf("document %d, item %d: kind %q is not a Pod", n, i, p.Kind)
				}
				pods = append(pods, p)
			}
		default:
			return nil, fmt.Errorf("document %d: kind %q is not a Pod or a List of pods", n, head.Kind)
		}
	}
}
