package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/podlife/podlife"
	"github.com/podlife/podlife/lifecycle"
	"github.com/podlife/podlife/restart"
)

var update = flag.Bool("update", false, "rewrite the samples in testdata/ from their simulations")

var t0 = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

// sample is a pod captured from a simulated lifecycle, in one state Explain must answer.
type sample struct {
	file    string
	pod     *corev1.Pod
	script  lifecycle.Script
	opts    lifecycle.SimulateOptions
	capture func(tl lifecycle.Timeline) int // the step whose status is captured
}

func byStatus(status string, from time.Duration) func(lifecycle.Timeline) int {
	return func(tl lifecycle.Timeline) int {
		for i, s := range tl.Steps {
			if s.Row.Status == status && s.Time.Sub(t0) >= from {
				return i
			}
		}
		return -1
	}
}

func last(tl lifecycle.Timeline) int { return len(tl.Steps) - 1 }

func container(name, image string) corev1.Container {
	return corev1.Container{Name: name, Image: image, Command: []string{"sh", "-c", "run " + name}}
}

func newPod(name string, policy corev1.RestartPolicy, inits []corev1.Container, containers ...corev1.Container) *corev1.Pod {
	p := &corev1.Pod{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"}, ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default",
		UID: types.UID("6b0f3e58-" + fmt.Sprintf("%04x", len(name)) + "-4c1e-9a57-2d1c0e8b7f30"), Labels: map[string]string{"app": name}}}
	p.Spec.RestartPolicy = policy
	p.Spec.InitContainers = inits
	p.Spec.Containers = containers
	p.Spec.NodeName = "node-1"
	p = podlife.Default(p)
	p.CreationTimestamp = metav1.NewTime(t0)
	return p
}

func samplePods() []sample {
	always := corev1.ContainerRestartPolicyAlways
	seedInits := []corev1.Container{container("init-myservice", "busybox:1.28"), container("init-mydb", "busybox:1.28")}
	opts := lifecycle.SimulateOptions{Start: t0, PresentImages: []string{"busybox:1.28", "envoyproxy/envoy:v1.31.0", "nginx:1.27"}}
	long := opts
	long.MaxDuration = 5 * time.Minute
	proxy := container("proxy", "envoyproxy/envoy:v1.31.0")
	proxy.RestartPolicy = &always
	proxy.StartupProbe = &corev1.Probe{ProbeHandler: corev1.ProbeHandler{Exec: &corev1.ExecAction{Command: []string{"ready"}}}}
	deadline := newPod("report", corev1.RestartPolicyNever, nil, container("report", "busybox:1.28"))
	d := int64(30)
	deadline.Spec.ActiveDeadlineSeconds = &d
	return []sample{
		{file: "waiting-init.yaml", pod: newPod("myapp-pod", corev1.RestartPolicyAlways, seedInits, container("myapp-container", "busybox:1.28")),
			script: lifecycle.Script{"init-myservice": {Runs: []lifecycle.Run{{Duration: 20 * time.Second}}}}, opts: opts, capture: byStatus("Init:0/2", time.Second)},
		{file: "init-crashloop.yaml", pod: newPod("myapp-pod", corev1.RestartPolicyAlways, seedInits, container("myapp-container", "busybox:1.28")),
			script: lifecycle.Script{"init-myservice": {Runs: []lifecycle.Run{{Duration: 2 * time.Second, ExitCode: 1}}}}, opts: long, capture: byStatus("Init:Error", 30*time.Second)},
		{file: "sidecar-not-started.yaml", pod: newPod("web", corev1.RestartPolicyAlways, []corev1.Container{proxy}, container("app", "nginx:1.27")),
			script: lifecycle.Script{"proxy": {Runs: []lifecycle.Run{{Forever: true, Startup: []lifecycle.ProbeStep{{At: 15 * time.Second, Result: restart.ProbeSuccess}}}}}}, opts: opts, capture: byStatus("Init:0/1", time.Second)},
		{file: "app-crashloop.yaml", pod: newPod("api", corev1.RestartPolicyAlways, nil, container("api", "nginx:1.27")),
			script: lifecycle.Script{"api": {Runs: []lifecycle.Run{{Duration: 5 * time.Second, ExitCode: 1}}}}, opts: long, capture: byStatus("CrashLoopBackOff", 2*time.Minute)},
		{file: "image-pull-backoff.yaml", pod: newPod("web", corev1.RestartPolicyAlways, nil, container("web", "nginx:1.27-typo")),
			script: lifecycle.Script{"web": {PullErrors: []string{`rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:1.27-typo": not found`, "again", "again"}}},
			opts:   lifecycle.SimulateOptions{Start: t0, MaxDuration: time.Minute}, capture: byStatus("ImagePullBackOff", 0)},
		{file: "succeeded.yaml", pod: newPod("migrate", corev1.RestartPolicyNever, nil, container("migrate", "busybox:1.28")),
			script: lifecycle.Script{"migrate": {Runs: []lifecycle.Run{{Duration: 12 * time.Second}}}}, opts: opts, capture: last},
		{file: "failed-deadline.yaml", pod: deadline, script: nil, opts: opts, capture: last},
	}
}

// capture simulates a sample and returns the pod at the captured step.
func (s sample) live(t *testing.T) (*corev1.Pod, lifecycle.Step) {
	tl := lifecycle.Simulate(s.pod, s.script, s.opts)
	i := s.capture(tl)
	if i < 0 {
		t.Fatalf("%s: no step to capture", s.file)
	}
	p := tl.Pod.DeepCopy()
	p.Status = *tl.Steps[i].Status.DeepCopy()
	return p, tl.Steps[i]
}

// TestSamples checks that the committed samples are the simulated pods (rewritten with
// -update), that they decode back to them, and what Explain says about each state.
func TestSamples(t *testing.T) {
	if len(samplePods()) != len(sampleOrder) {
		t.Fatalf("%d samples, %d in sampleOrder", len(samplePods()), len(sampleOrder))
	}
	for _, s := range samplePods() {
		t.Run(s.file, func(t *testing.T) {
			pod, step := s.live(t)
			js, err := json.Marshal(pod)
			if err != nil {
				t.Fatal(err)
			}
			text := "# " + s.file + ": captured from a simulated lifecycle at " + lifecycle.HumanDuration(step.Time.Sub(t0)) + ", as `kubectl get pod -o yaml` shows it\n" + toYAML(t, js)
			path := filepath.Join("testdata", s.file)
			if *update {
				if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			committed, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if string(committed) != text {
				t.Errorf("%s is not the simulated pod (go test -run TestSamples -update rewrites it)", path)
			}
			pods, notes := decodePods(path, committed)
			if len(notes) > 0 || len(pods) != 1 {
				t.Fatalf("decode: %q, %d pods", notes, len(pods))
			}
			if !equality.Semantic.DeepEqual(pods[0], pod) {
				t.Errorf("the YAML does not decode to the pod")
			}
			at, err := time.Parse(time.RFC3339, sampleTimes[s.file])
			if err != nil || at.Before(step.Time) || at.Sub(step.Time) > 10*time.Minute {
				t.Errorf("sample time %s for a capture at %s", sampleTimes[s.file], step.Time)
			}
		})
	}
}

// TestExplainSamples runs the program without arguments and checks, for each state,
// the statements that come from upstream behaviour.
func TestExplainSamples(t *testing.T) {
	var out, errOut strings.Builder
	if code := run(nil, nil, &out, &errOut, t0); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	sections := map[string]string{}
	for _, part := range strings.Split(out.String(), "# testdata/")[1:] {
		name, body, _ := strings.Cut(part, "\n")
		sections[name] = body
	}
	for file, wants := range map[string][]string{
		// GeneratePodInitializedCondition lists the init containers that have not
		// completed; computeInitContainerActions waits for a running one.
		"waiting-init.yaml": {
			"Phase: Pending: it is initializing",
			"Initialized: False (ContainersNotInitialized: containers with incomplete status: [init-myservice init-mydb])",
			"  blocked by init container init-myservice: it is running since 2026-01-01T12:00:00Z",
			"Next: nothing to do\n  because: nothing to do now; the kubelet waits for init container init-myservice to complete",
		},
		// doBackOff: after the third failure (38s) the back-off is 40s: next start at 1m18s.
		"init-crashloop.yaml": {
			"init container init-myservice: it exited with code 1 (Error) at 2026-01-01T12:00:38Z; restart decision: exit code 1; pod restartPolicy Always → Restart",
			"Next: hold back init container init-myservice until 2026-01-01T12:01:18Z",
			"Next start of init-myservice: 2026-01-01T12:01:18Z (in 35s, back-off 40s)",
		},
		// A sidecar is initialized only once started (its startup probe passed).
		"sidecar-not-started.yaml": {
			"Initialized: False (ContainersNotInitialized: containers with incomplete status: [proxy])",
			"blocked by sidecar proxy: it is running since 2026-01-01T12:00:00Z but its startup probe has not succeeded yet (started: false)",
			"Next: nothing to do",
		},
		// The waiting message carries the delay (back-off 1m20s); the exit was at 1m35s.
		"app-crashloop.yaml": {
			"Phase: Running: its containers have started; exited and to be restarted: api",
			"it is waiting (CrashLoopBackOff: back-off 1m20s restarting failed container=api pod=api_default(",
			"Next start of api: 2026-01-01T12:02:55Z (in 3s, back-off 1m20s)",
		},
		// The image-pull back-off is not in the status: the kubelet tries at each sync.
		"image-pull-backoff.yaml": {
			"Phase: Pending: its containers have not started: container web: it is waiting (ImagePullBackOff: Back-off pulling image \"nginx:1.27-typo\": ErrImagePull: rpc error: code = NotFound",
			"Next: start container web",
			"the image-pull back-off decides when the pull is tried again",
		},
		// getPhase: every container exited 0 under restartPolicy Never.
		"succeeded.yaml": {
			"Phase: Succeeded: every container exited with code 0 and none is restarted",
			"Ended: its containers completed: migrate exited with code 0 at 2026-01-01T12:00:12Z",
			"Ready: False (PodCompleted)",
		},
		// The active-deadline handler (DeadlineExceeded) 30s after the start.
		"failed-deadline.yaml": {
			"Phase: Failed: the kubelet failed it: DeadlineExceeded: Pod was active on the node longer than the specified deadline",
			"Ended: it was active on the node longer than spec.activeDeadlineSeconds (30s): it started at 2026-01-01T12:00:00Z and its deadline passed at 2026-01-01T12:00:30Z",
		},
	} {
		body, ok := sections[file]
		if !ok {
			t.Errorf("no section for %s", file)
			continue
		}
		for _, w := range wants {
			if !strings.Contains(body, w) {
				t.Errorf("%s: missing %q in:\n%s", file, w, body)
			}
		}
	}
}

func TestArgsAndErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(content), 0o600)
		return p
	}
	crash, _ := os.ReadFile("testdata/app-crashloop.yaml")
	list := write("list.yaml", "apiVersion: v1\nkind: List\nitems:\n"+indentItem(string(crash)))
	for _, tc := range []struct {
		name         string
		args         []string
		stdin        string
		code         int
		stdout, errs string
	}{
		{"help", []string{"--help"}, "", 0, "usage: explain", ""},
		{"stdin", []string{"-", "--now", "2026-01-01T12:03:30Z"}, string(crash), 0, "Next: start container api", ""},
		{"list", []string{list, "--now", "2026-01-01T12:02:40Z"}, "", 0, "Next start of api: 2026-01-01T12:02:55Z (in 15s, back-off 1m20s)", ""},
		{"json", []string{"-o", "json", "testdata/succeeded.yaml"}, "", 0, `"Phase": "Succeeded"`, ""},
		{"json restart decision", []string{"-o", "json", "testdata/app-crashloop.yaml"}, "", 0,
			`"Restart": {
          "Restart": true,
          "RestartAllContainers": false,
          "Rule": null,
          "RuleIndex": -1,
          "Basis": "PodPolicy",
          "Container": "api",
          "State": "exited",
          "ExitCode": 1,
          "ContainerPolicy": "",
          "PodPolicy": "Always"
        }`, ""},
		{"bad now", []string{"--now", "yesterday"}, "", 2, "", "--now: parsing time"},
		{"not a pod", []string{write("svc.yaml", "apiVersion: v1\nkind: Service\nmetadata: {name: s}\n")}, "", 2, "", `svc.yaml:1: skipping Service "s": not a Pod`},
		{"a pod after a Service", []string{"--now", "2026-01-01T12:03:30Z", write("mixed.yaml", "apiVersion: v1\nkind: Service\nmetadata: {name: s}\n---\n"+string(crash))}, "", 1,
			"Next: start container api", `mixed.yaml:1: skipping Service "s": not a Pod`},
		{"a quantity whose decoding outlasts the server's timeout, with its line", []string{write("slow.yaml", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n    image: x\n    resources:\n      limits: {cpu: \"1e999999999999\"}\n")}, "", 2, "",
			"slow.yaml:1: skipping: Timeout: request did not complete within the allotted timeout (line 9: spec.containers[0].resources.limits[cpu])"},
		{"a syntax error after a pod", []string{"--now", "2026-01-01T12:03:30Z", write("broken.yaml", string(crash)+"---\nkind: Pod\nmetadata: [x\n")}, "", 1,
			"Next: start container api", "broken.yaml:91: skipping: error parsing"},
		{"a field the Go type does not know is ignored", []string{"--now", "2026-01-01T12:03:30Z", "-"}, strings.Replace(string(crash), "\nspec:\n", "\nspec:\n  fromANewerServer: 1\n", 1), 0,
			"Next: start container api", ""},
		{"a List with another kind", []string{"--now", "2026-01-01T12:02:40Z", write("list2.yaml", "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Service\n  metadata: {name: s}\n")}, "", 2, "",
			`list2.yaml:4: skipping Service "s": not a Pod`},
		{"empty", []string{write("empty.yaml", "# nothing\n")}, "", 2, "", "no pod found"},
		{"missing", []string{filepath.Join(dir, "none.yaml")}, "", 2, "", "no such file or directory"},
		{"two files, each headed", []string{"--now", "2026-01-01T12:05:00Z", "testdata/succeeded.yaml", "testdata/failed-deadline.yaml"}, "", 0,
			"# testdata/succeeded.yaml\n", ""},
		{"a directory", []string{"--now", "2026-01-01T12:05:00Z", "testdata"}, "", 0, "# testdata/waiting-init.yaml\n", ""},
		{"a missing path beside a pod", []string{"--now", "2026-01-01T12:03:30Z", filepath.Join(dir, "none.yaml"), "-"}, string(crash), 2,
			"Next: start container api", "none.yaml: stat"},
		{"a directory without manifests", []string{t.TempDir()}, "", 2, "", "no .json, .yaml or .yml file in the directory"},
		{"gates", []string{"--feature-gates", "Nope=true"}, "", 2, "", "unrecognized feature gate: Nope"},
		{"gates space pair", []string{"--feature-gates", "AllBeta=true, "}, "", 2, "", "malformed pair, expect string=bool"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut strings.Builder
			code := run(tc.args, strings.NewReader(tc.stdin), &out, &errOut, t0)
			if code != tc.code || !strings.Contains(out.String(), tc.stdout) || !strings.Contains(errOut.String(), tc.errs) {
				t.Errorf("code %d (want %d)\nstdout %s\nstderr %s", code, tc.code, out.String(), errOut.String())
			}
		})
	}
}

// indentItem turns a pod document into an item of a YAML list.
func indentItem(doc string) string {
	var b strings.Builder
	first := true
	for _, l := range strings.Split(strings.TrimRight(doc, "\n"), "\n") {
		if strings.HasPrefix(l, "#") {
			continue
		}
		if first {
			b.WriteString("- " + l + "\n")
			first = false
			continue
		}
		b.WriteString("  " + l + "\n")
	}
	return b.String()
}

// toYAML renders JSON as block YAML in the style of `kubectl get -o yaml` (keys sorted,
// sequences not indented under their key).
func toYAML(t *testing.T, js []byte) string {
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	writeYAML(&b, v, 0)
	return b.String()
}

func writeYAML(b *strings.Builder, v any, indent int) {
	pad := strings.Repeat(" ", indent)
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			b.WriteString(pad + scalar(k) + ":")
			writeValue(b, x[k], indent, false)
		}
	case []any:
		for _, it := range x {
			b.WriteString(pad + "-")
			writeValue(b, it, indent, true)
		}
	}
}

// writeValue writes the value after "key:" or "-".
func writeValue(b *strings.Builder, v any, indent int, item bool) {
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 0 {
			b.WriteString(" {}\n")
			return
		}
		if item {
			// The first key goes on the dash's line.
			var inner strings.Builder
			writeYAML(&inner, x, indent+2)
			b.WriteString(" " + strings.TrimLeft(inner.String(), " "))
			return
		}
		b.WriteString("\n")
		writeYAML(b, x, indent+2)
	case []any:
		if len(x) == 0 {
			b.WriteString(" []\n")
			return
		}
		b.WriteString("\n")
		next := indent
		if item {
			next = indent + 2
		}
		writeYAML(b, x, next)
	default:
		b.WriteString(" " + scalarValue(x) + "\n")
	}
}

func scalarValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(x)
	case json.Number:
		return x.String()
	case string:
		return scalar(x)
	}
	return fmt.Sprint(v)
}

// scalar writes a string plainly when YAML reads it back as the same string.
func scalar(s string) string {
	plain := s != "" && !strings.ContainsAny(s, "{}[],&*!|>'\"%@`\n\t\\") && !strings.Contains(s, ": ") && !strings.Contains(s, " #") &&
		!strings.HasSuffix(s, ":") && !strings.HasPrefix(s, "#") && !strings.HasPrefix(s, "-") && !strings.HasPrefix(s, " ") && !strings.HasSuffix(s, " ")
	if plain {
		switch strings.ToLower(s) {
		case "true", "false", "yes", "no", "on", "off", "null", "~", "y", "n":
			plain = false
		}
		if _, err := strconv.ParseFloat(s, 64); err == nil || (s[0] >= '0' && s[0] <= '9') || s[0] == '.' || s[0] == '+' {
			plain = false
		}
	}
	if plain {
		return s
	}
	q, _ := json.Marshal(s)
	return string(q)
}
