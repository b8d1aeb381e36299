// Command lifecycle runs a pod through its life on a simulated Kubernetes v1.37.2 node,
// in virtual time, and prints what a cluster would show of it: the rows `kubectl get
// pod -w` prints as the pod changes, the events `kubectl describe pod` lists, the
// requests, limits and QoS class the pod is scheduled with, and the API server's
// verdict on the manifest, with the warnings it sends.
//
// Usage:
//
//	go run ./examples/lifecycle [flags] [MANIFEST.yaml]
//
// Without a manifest it runs the myapp-pod of the Kubernetes "Init Containers" page
// (embedded, with resources added): its two init containers wait for their services
// (20s and 15s), then the app runs, and the pod goes Init:0/2 → Init:1/2 →
// PodInitializing → Running.
//
// MANIFEST is a YAML or JSON stream holding a Pod or a workload with a pod template
// (Deployment, ReplicaSet, StatefulSet, DaemonSet, Job, CronJob, PodTemplate) and,
// optionally, a script: a document of kind Script saying how each container behaves
// (run durations, exit codes, probe results over time, image pull errors, start errors,
// stop behaviour) and the simulation's settings (duration, deletion). Other kinds are
// skipped with a note on standard error. See scenarios/*.yaml for examples.
//
// Flags:
//
//	--script FILE          read the script from FILE (replaces the manifest's)
//	--scenario NAME        run a built-in scenario; "list" lists them
//	-o text|json           output format (default text)
//	--svg FILE             also draw the timeline as an SVG picture
//	--feature-gates LIST   feature gate overrides, as a cluster's --feature-gates
//	                       (Name=true,Other=false)
//	--help                 print this help
//
// The pod is defaulted as the API server stores it on create (podlife.Default; a
// workload's pod is built by podlife.PodFromTemplate), put in namespace "default" when
// it has none, given a deterministic UID and name suffix, and bound to "node-1", as the
// scheduler would. Everything the kubelet does comes from lifecycle.Simulate.
//
// The exit code is 0 when the pod was simulated, 1 when the API server would refuse
// the manifest (nothing is simulated), and 2 for a usage error or an input that cannot
// be read.
package main

import (
	"crypto/sha1"
	"embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/podlife/podlife"
	"github.com/podlife/podlife/lifecycle"
	"github.com/podlife/podlife/validation"
)

//go:embed scenarios/*.yaml
var scenarioFS embed.FS

// start is the virtual time the pod is created at.
var start = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

// nodeName is the node the simulated scheduler binds the pod to.
const nodeName = "node-1"

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usage = `usage: lifecycle [flags] [MANIFEST.yaml]

Runs a pod (or a workload's pod) through its life on a simulated Kubernetes v1.37.2
node and prints what kubectl shows: the rows of "kubectl get pod -w", the events of
"kubectl describe pod", the requests, limits and QoS class, and the API server's
verdict and warnings. Without a manifest it runs the myapp-pod of the "Init
Containers" page.

Flags:
  --script FILE          read the script (kind: Script) from FILE
  --scenario NAME        run a built-in scenario ("list" lists them)
  -o text|json           output format (default text)
  --svg FILE             also write the timeline as an SVG picture
  --feature-gates LIST   feature gate overrides, e.g. ContainerRestartRules=false
  --help                 print this help

Exit codes: 0 simulated, 1 the manifest is invalid, 2 usage or input error.
`

// config is the parsed command line.
type config struct {
	script, scenario, output, svg, gates string
	manifest                             string
}

func parseFlags(args []string, stderr io.Writer) (config, error) {
	var c config
	fs := flag.NewFlagSet("lifecycle", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&c.script, "script", "", "")
	fs.StringVar(&c.scenario, "scenario", "", "")
	fs.StringVar(&c.output, "o", "text", "")
	fs.StringVar(&c.svg, "svg", "", "")
	fs.StringVar(&c.gates, "feature-gates", "", "")
	// Flags may come before or after the manifest, as with kubectl.
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return c, err
		}
		if fs.NArg() == 0 {
			break
		}
		positional = append(positional, fs.Arg(0))
		args = fs.Args()[1:]
	}
	switch len(positional) {
	case 0:
	case 1:
		c.manifest = positional[0]
	default:
		return c, errors.New("give at most one manifest")
	}
	if c.output != "text" && c.output != "json" {
		return c, fmt.Errorf("-o %q: want text or json", c.output)
	}
	if c.scenario != "" && c.manifest != "" {
		return c, errors.New("give a manifest or --scenario, not both")
	}
	return c, nil
}

// run is the program; it returns the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	c, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, usage)
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "lifecycle: %v\n\n%s", err, usage)
		return 2
	}
	if c.scenario == "list" {
		for _, s := range scenarioList() {
			fmt.Fprintf(stdout, "%-20s %s\n", s.name, s.summary)
		}
		return 0
	}
	in, err := load(c)
	for _, s := range in.skipped {
		fmt.Fprintln(stderr, s)
	}
	if err != nil {
		fmt.Fprintf(stderr, "lifecycle: %v\n", err)
		return 2
	}
	gates, err := featureGates(c.gates, in.script)
	if err != nil {
		fmt.Fprintf(stderr, "lifecycle: --feature-gates: %v\n", err)
		return 2
	}
	res, code, err := simulate(in, gates)
	if err != nil {
		fmt.Fprintf(stderr, "lifecycle: %v\n", err)
		return code
	}
	if code == 1 {
		// The server refuses the manifest: only its warnings and the verdict are
		// printed, as kubectl prints them.
		printWarnings(stdout, res.warnings)
		fmt.Fprintln(stdout, res.verdict)
		return 1
	}
	if c.svg != "" {
		if err := os.WriteFile(c.svg, []byte(renderSVG(res)), 0o644); err != nil {
			fmt.Fprintf(stderr, "lifecycle: %v\n", err)
			return 2
		}
	}
	switch c.output {
	case "json":
		if err := writeJSON(stdout, res); err != nil {
			fmt.Fprintf(stderr, "lifecycle: %v\n", err)
			return 2
		}
	default:
		writeText(stdout, res)
	}
	return 0
}

// load reads the manifest (or the scenario, or the embedded myapp-pod) and the script.
// The input is returned with its notes even on error.
func load(c config) (*input, error) {
	in := &input{}
	switch {
	case c.scenario != "":
		data, err := scenarioFS.ReadFile("scenarios/" + c.scenario + ".yaml")
		if err != nil {
			var names []string
			for _, s := range scenarioList() {
				names = append(names, s.name)
			}
			return in, fmt.Errorf("unknown scenario %q; the scenarios are: %s", c.scenario, strings.Join(names, ", "))
		}
		if err := readStream(in, "scenarios/"+c.scenario+".yaml", data); err != nil {
			return in, err
		}
	case c.manifest != "":
		data, err := os.ReadFile(c.manifest)
		if err != nil {
			return in, err
		}
		if err := readStream(in, c.manifest, data); err != nil {
			return in, err
		}
	default:
		data, _ := scenarioFS.ReadFile("scenarios/myapp.yaml")
		if err := readStream(in, "scenarios/myapp.yaml", data); err != nil {
			return in, err
		}
	}
	if in.object == nil {
		name := c.manifest
		if name == "" {
			name = c.scenario
		}
		return in, fmt.Errorf("%s: no Pod or workload with a pod template found", name)
	}
	if c.script != "" {
		data, err := os.ReadFile(c.script)
		if err != nil {
			return in, err
		}
		sin := &input{}
		if err := readStream(sin, c.script, data); err != nil {
			return in, err
		}
		if sin.script == nil {
			return in, fmt.Errorf("%s: no document of kind Script", c.script)
		}
		in.script, in.scriptAt = sin.script, sin.scriptAt
	}
	return in, nil
}

// qualifiedKind names a kind as the API server's messages do: "Pod", "Deployment.apps".
func qualifiedKind(apiVersion, kind string) string {
	if group, _, ok := strings.Cut(apiVersion, "/"); ok {
		return kind + "." + group
	}
	return kind
}

// featureGates reads --feature-gates ("A=true,B=false") over the script's gates, as
// podlife.ParseFeatureGates reads a flag: the script's gates come first, as pairs the
// flag's own replace, and the whole is checked once.
func featureGates(flagValue string, s *scriptDoc) (podlife.FeatureGates, error) {
	var pairs []string
	if s != nil {
		for _, name := range slices.Sorted(maps.Keys(s.FeatureGates)) {
			on := s.FeatureGates[name]
			if strings.ContainsAny(name, ",=") || strings.TrimSpace(name) != name {
				// Not a gate's name, and not one a pair could carry.
				return nil, podlife.FeatureGates{name: on}.Validate()
			}
			pairs = append(pairs, name+"="+strconv.FormatBool(on))
		}
	}
	return podlife.ParseFeatureGates(strings.Join(append(pairs, flagValue), ","))
}

// result is everything the outputs print.
type result struct {
	title    string
	pod      *corev1.Pod // the pod as created (defaulted, bound)
	timeline lifecycle.Timeline
	script   *scriptDoc
	verdict  string
	valid    bool
	// warnings are the API server's warnings on creating the object, as kubectl
	// prints them after "Warning: ".
	warnings  []string
	gates     podlife.FeatureGates
	scheduled lifecycle.EventRecord
}

// simulate builds the pod the cluster would run and runs it.
func simulate(in *input, gates podlife.FeatureGates) (*result, int, error) {
	o := in.object
	res := &result{script: in.script, gates: gates}
	ns := o.Namespace
	if ns == "" {
		ns = metav1.NamespaceDefault
	}
	vopts := validation.Options{Features: gates, Namespace: ns}
	kind := qualifiedKind(o.APIVersion, o.Kind)
	// The whole object is validated as the server validates it on create.
	errs := validation.ValidateObjectCreate(o.Object, vopts)
	res.warnings = validation.CreateWarnings(o.Object, vopts)
	pod, err := podlife.PodFromObject(o.Object, podlife.PodFromTemplateOptions{
		DefaultOptions: podlife.DefaultOptions{Features: gates, Now: start},
		Namespace:      ns,
	})
	if err != nil {
		return nil, 2, posError(in.name, in.objLine, err)
	}
	if _, isPod := o.Object.(*corev1.Pod); isPod {
		res.title = fmt.Sprintf("Pod %s", pod.Name)
	} else {
		if pod.Name == "" {
			pod.Name = pod.GenerateName + nameSuffix(ns+"/"+o.Name)
		}
		res.title = fmt.Sprintf("%s %s (pod %s, from its template)", kind, o.Name, pod.Name)
	}
	if len(errs) == 0 {
		res.valid = true
		res.verdict = fmt.Sprintf("%s %q is valid", kind, o.Name)
	} else {
		res.verdict = fmt.Sprintf("%s:%d: %s %q is invalid: %v", orEmbedded(in.name), in.objLine, kind, o.Name, errs.ToAggregate())
		return res, 1, nil
	}
	if err := checkScript(in.script, pod); err != nil {
		return nil, 2, &inputError{msg: in.scriptAt + ": " + err.Error()}
	}
	opts, err := in.script.options(start)
	if err != nil {
		return nil, 2, &inputError{msg: in.scriptAt + ": " + err.Error()}
	}
	opts.Features = gates

	// What the API server and the scheduler do before the kubelet sees the pod.
	pod.Namespace = ns
	pod.UID = types.UID(uid(ns + "/" + pod.Name))
	pod.CreationTimestamp = metav1.NewTime(start)
	pod.Spec.NodeName = nodeName
	pod.Status.Conditions = append(pod.Status.Conditions, corev1.PodCondition{Type: corev1.PodScheduled, Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(start)})
	if pod.Status.Phase == "" {
		pod.Status.Phase = corev1.PodPending
	}
	res.pod = pod
	res.scheduled = lifecycle.EventRecord{Type: corev1.EventTypeNormal, Reason: "Scheduled", Source: "default-scheduler",
		Message:        fmt.Sprintf("Successfully assigned %s/%s to %s", ns, pod.Name, nodeName),
		FirstTimestamp: start, Count: 1}
	var script lifecycle.Script
	if in.script != nil {
		script = in.script.Containers
	}
	res.timeline = lifecycle.Simulate(pod, script, opts)
	return res, 0, nil
}

// uid is a deterministic RFC 4122 version-5-style UUID for a name, standing in for the
// random UID the API server assigns.
func uid(name string) string {
	h := sha1.Sum([]byte("podlife:" + name))
	h[6] = h[6]&0x0f | 0x50
	h[8] = h[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", h[0:4], h[4:6], h[6:8], h[8:10], h[10:16])
}

// nameSuffix is a deterministic stand-in for the five random characters the API server
// appends to a generateName, from the same alphabet.
func nameSuffix(name string) string {
	const alphabet = "bcdfghjklmnpqrstvwxz2456789"
	h := sha1.Sum([]byte("podlife-suffix:" + name))
	b := make([]byte, 5)
	for i := range b {
		b[i] = alphabet[int(h[i])%len(alphabet)]
	}
	return string(b)
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}
