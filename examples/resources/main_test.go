package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runWith runs the program and returns its exit code and outputs.
func runWith(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut strings.Builder
	code := run(args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

// TestRunDefault runs the program on the embedded myapp-pod and checks the whole
// output, so the example cannot rot.
func TestRunDefault(t *testing.T) {
	code, out, errOut := runWith(t, "")
	if code != 0 || out != wantDefault || errOut != "" {
		t.Errorf("exit %d, stderr %q, output:\n%s\nwant:\n%s", code, errOut, out, wantDefault)
	}
}

// TestRunWorkloads runs it on a file holding a Deployment and a CronJob.
func TestRunWorkloads(t *testing.T) {
	code, out, errOut := runWith(t, "", "testdata/workloads.yaml")
	if code != 0 || out != wantWorkloads || errOut != "" {
		t.Errorf("exit %d, stderr %q, output:\n%s\nwant:\n%s", code, errOut, out, wantWorkloads)
	}
}

const wantDefault = `myapp-pod.yaml:2: Pod myapp-pod
  QoS class: Burstable
  requests:  cpu 1, memory 64Mi
  limits:    cpu 1, memory 128Mi

REQUESTS  RESULT  OP   TERM                 VALUE     DETAIL
  cpu     1       max  containers           250m      (myapp-container 250m)
                  max  init init-myservice  100m      (no sidecar running)
                  max  init init-mydb       1      *  (no sidecar running)
  memory  64Mi    max  containers           64Mi   *  (myapp-container 64Mi)
                  max  init init-myservice  32Mi      (no sidecar running)
                  max  init init-mydb       64Mi      (no sidecar running)
LIMITS    RESULT  OP   TERM                 VALUE     DETAIL
  cpu     1       max  containers           500m      (myapp-container 500m)
                  max  init init-myservice  100m      (no sidecar running)
                  max  init init-mydb       1      *  (no sidecar running)
  memory  128Mi   max  containers           128Mi  *  (myapp-container 128Mi)
                  max  init init-myservice  32Mi      (no sidecar running)
                  max  init init-mydb       64Mi      (no sidecar running)
`

const wantWorkloads = `testdata/workloads.yaml:2: Deployment web (a pod of its template)
  QoS class: Burstable
  requests:  cpu 1, memory 256Mi
  limits:    memory 320Mi

REQUESTS  RESULT  OP   TERM           VALUE     DETAIL
  cpu     1       max  containers     600m      (web 500m + proxy 100m)
                  max  init migrate   1      *  (no sidecar running)
                  max  sidecar proxy  100m      (first sidecar)
  memory  256Mi   max  containers     160Mi     (web 128Mi + proxy 32Mi)
                  max  init migrate   256Mi  *  (no sidecar running)
                  max  sidecar proxy  32Mi      (first sidecar)
LIMITS    RESULT  OP   TERM           VALUE     DETAIL
  memory  320Mi   max  containers     320Mi  *  (web 256Mi + proxy 64Mi)
                  max  sidecar proxy  64Mi      (first sidecar)

testdata/workloads.yaml:43: CronJob report (a pod of its template)
  QoS class: Guaranteed
  requests:  cpu 2, memory 1Gi
  limits:    cpu 2, memory 1Gi

REQUESTS  RESULT  OP   TERM        VALUE     DETAIL
  cpu     2       max  containers  2      *  (report 2)
  memory  1Gi     max  containers  1Gi    *  (report 1Gi)
LIMITS    RESULT  OP   TERM        VALUE     DETAIL
  cpu     2       max  containers  2      *  (report 2)
  memory  1Gi     max  containers  1Gi    *  (report 1Gi)
`

// write creates a file under dir and returns its path.
func write(t *testing.T, dir, name, data string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

const smallPod = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: small\nspec:\n  containers:\n  - name: c\n    image: busybox\n    resources:\n      limits: {cpu: 200m}\n"

// TestUsageAndErrors: help, usage errors, unreadable inputs, documents that cannot be
// read and kinds without a pod, each with its exit code and message; the program goes
// on after a bad input.
func TestUsageAndErrors(t *testing.T) {
	dir := t.TempDir()
	small := write(t, dir, "small.yaml", smallPod)
	bad := write(t, dir, "bad.yaml", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: typo\nspec:\n  contianers: []\n---\n"+smallPod)
	svc := write(t, dir, "svc.yaml", "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n")
	empty := write(t, dir, "empty.yaml", "# nothing\n")
	binary := write(t, dir, "bin.yaml", "\x1f\x8b\x08\x00\x00")
	write(t, dir, "tree/a/b.yml", smallPod)
	write(t, dir, "tree/notes.txt", "not a manifest")
	smallOut := small + ":1: Pod small\n  QoS class: Burstable\n  requests:  cpu 200m\n  limits:    cpu 200m\n"
	for _, tc := range []struct {
		name   string
		args   []string
		stdin  string
		code   int
		stdout string // prefix
		stderr string // exact
	}{
		{"help", []string{"--help"}, "", 0, "usage: resources [flags] [PATH ...]", ""},
		{"short help", []string{"-h"}, "", 0, "usage: resources [flags] [PATH ...]", ""},
		{"unknown flag", []string{"--bogus"}, "", 2, "", "resources: flag provided but not defined: -bogus\n\n" + usage},
		{"unknown output", []string{"-o", "yaml"}, "", 2, "", "resources: unknown output format \"yaml\" (text or json)\n\n" + usage},
		{"bad gates", []string{"--feature-gates", "PodLevelResources=maybe"}, "", 2, "",
			"resources: --feature-gates: invalid value of PodLevelResources: maybe, err: strconv.ParseBool: parsing \"maybe\": invalid syntax\n\n" + usage},
		{"a file", []string{small}, "", 0, smallOut, ""},
		{"flags after the path", []string{small, "-o", "text"}, "", 0, smallOut, ""},
		{"missing file, the next one is read", []string{filepath.Join(dir, "none.yaml"), small}, "", 2, smallOut,
			"resources: " + filepath.Join(dir, "none.yaml") + ": stat " + filepath.Join(dir, "none.yaml") + ": no such file or directory\n"},
		{"binary file", []string{binary}, "", 2, "", "resources: " + binary + ": not a text file (a NUL byte at offset 3); kubectl cannot read it either\n"},
		{"a bad document, the next one is read", []string{bad}, "", 1, bad + ":8: Pod small\n",
			bad + ":1: Pod in version \"v1\" cannot be handled as a Pod: strict decoding error: unknown field \"spec.contianers\"\n"},
		{"an old apiVersion, kubectl's two-line error indented", []string{"-"}, "apiVersion: extensions/v1beta1\nkind: Deployment\nmetadata: {name: old}\n---\n" + smallPod, 1, "STDIN:5: Pod small\n",
			"STDIN:1: resource mapping not found for name: \"old\" namespace: \"\" from \"STDIN\": no matches for kind \"Deployment\" in version \"extensions/v1beta1\"\n    ensure CRDs are installed first\n"},
		{"a quantity that does not parse, with its line", []string{"-"}, "apiVersion: v1\nkind: Pod\nmetadata: {name: q}\nspec:\n  containers:\n  - name: c\n    image: x\n    resources: {requests: {cpu: \"\"}}\n---\n" + smallPod, 1, "STDIN:10: Pod small\n",
			"STDIN:1: Pod in version \"v1\" cannot be handled as a Pod: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$' (line 8: spec.containers[0].resources.requests[cpu])\n"},
		{"a kind without a pod", []string{svc, small}, "", 0, smallOut, svc + ":1: skipping Service \"web\": it holds no pod\n"},
		{"no pod at all", []string{svc, empty}, "", 1, "", svc + ":1: skipping Service \"web\": it holds no pod\nresources: no Pod or workload with a pod template found\n"},
		{"standard input", []string{"-"}, smallPod, 0, "STDIN:1: Pod small\n", ""},
		{"a directory, manifests only", []string{filepath.Join(dir, "tree")}, "", 0, filepath.Join(dir, "tree/a/b.yml") + ":1: Pod small\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runWith(t, tc.stdin, tc.args...)
			if code != tc.code || !strings.HasPrefix(out, tc.stdout) || errOut != tc.stderr {
				t.Errorf("exit %d (want %d)\nstdout:\n%s\nwant prefix:\n%s\nstderr: %q\nwant:   %q", code, tc.code, out, tc.stdout, errOut, tc.stderr)
			}
		})
	}
}

// optionsPod has a container without requests, an init container, pod-level
// requests, overhead, and a resize the kubelet has allocated but not actuated.
const optionsPod = `apiVersion: v1
kind: Pod
metadata:
  name: opts
spec:
  overhead: {cpu: 50m}
  resources:
    requests: {memory: 1Gi}
  containers:
  - name: app
    image: app
    resources:
      requests: {cpu: 300m, memory: 300Mi}
  - name: bare
    image: bare
status:
  containerStatuses:
  - name: app
    image: app
    imageID: ""
    ready: true
    restartCount: 0
    allocatedResources: {cpu: 500m, memory: 300Mi}
    resources:
      requests: {cpu: 400m, memory: 300Mi}
`

// TestOptions: each option flag changes the requests as PodResourcesOptions says.
func TestOptions(t *testing.T) {
	dir := t.TempDir()
	path := write(t, dir, "opts.yaml", optionsPod)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "  requests:  cpu 350m, memory 1Gi\n"},
		{[]string{"--exclude-overhead"}, "  requests:  cpu 300m, memory 1Gi\n"},
		{[]string{"--skip-pod-level"}, "  requests:  cpu 350m, memory 300Mi\n"},
		{[]string{"--non-missing-requests", "--skip-pod-level"}, "  requests:  cpu 450m, memory 500Mi\n"},
		{[]string{"--use-status-resources"}, "  requests:  cpu 550m, memory 1Gi\n"},
		{[]string{"--feature-gates", "PodLevelResources=false,InPlacePodLevelResourcesVerticalScaling=false,PodLevelResourcesFixDefaulting=false,PodLevelResourcesFixKubeletQOSClass=false"},
			"  requests:  cpu 350m, memory 300Mi\n"},
	} {
		code, out, errOut := runWith(t, "", append(tc.args, path)...)
		if code != 0 || !strings.Contains(out, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, output:\n%s\nwant a line %q", tc.args, code, errOut, out, tc.want)
		}
	}
}

// TestJSON checks -o json on the embedded pod: the values and their breakdown.
func TestJSON(t *testing.T) {
	code, out, errOut := runWith(t, "", "-o", "json")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	var rep struct {
		Pods []struct {
			File, Kind, Name string
			Line             int
			QOSClass         string
			Requests         map[string]string
			Limits           map[string]string
			Explanation      struct {
				Requests []struct {
					Name    string
					Present bool
					Value   string
					Terms   []struct {
						Kind, Op, Container, Value string
						Won                        bool
					}
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(rep.Pods) != 1 {
		t.Fatalf("%d pods:\n%s", len(rep.Pods), out)
	}
	p := rep.Pods[0]
	if p.File != "myapp-pod.yaml" || p.Line != 2 || p.Kind != "Pod" || p.Name != "myapp-pod" || p.QOSClass != "Burstable" ||
		p.Requests["cpu"] != "1" || p.Requests["memory"] != "64Mi" || p.Limits["memory"] != "128Mi" {
		t.Errorf("pod %+v", p)
	}
	cpu := p.Explanation.Requests[0]
	if cpu.Name != "cpu" || !cpu.Present || cpu.Value != "1" || len(cpu.Terms) != 3 {
		t.Fatalf("cpu %+v", cpu)
	}
	if w := cpu.Terms[2]; w.Kind != "init" || w.Op != "max" || w.Container != "init-mydb" || w.Value != "1" || !w.Won {
		t.Errorf("winning term %+v", w)
	}
}
