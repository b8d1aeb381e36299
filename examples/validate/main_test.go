package main

import (
	"encoding/json"
	"fmt"
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

// write creates a file in dir and returns its path.
func write(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRunSample runs the program on its embedded sample and checks the whole output.
func TestRunSample(t *testing.T) {
	code, out, errOut := runWith(t, "")
	if code != 1 || out != wantSample || errOut != "" {
		t.Errorf("exit %d, stdout:\n%s\nwant:\n%s\nstderr: %q", code, out, wantSample, errOut)
	}
}

const wantSample = `sample.yaml:2: Pod "myapp-pod" is valid
sample.yaml:21: Pod "broken-pod" is invalid:
  sample.yaml:35: spec.containers[0].ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"
  sample.yaml:37: spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1
  sample.yaml:41: spec.containers[1].image: Required value
  sample.yaml:41: spec.containers[1].name: Duplicate value: "app"
  sample.yaml:42: spec.containers[1].readinessProbe: Required value: must specify a handler type
  sample.yaml:29: spec.initContainers[0].restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "Never", "OnFailure"
  sample.yaml:32: spec.containers[0].image: Invalid value: " nginx:1.27": must not have leading or trailing whitespace

2 objects in 1 file: 1 valid, 1 invalid, 0 rejected, 0 not checked
`

func TestHelp(t *testing.T) {
	for _, arg := range []string{"--help", "-h", "-help"} {
		code, out, errOut := runWith(t, "", arg)
		if code != 0 || out != usageText || errOut != "" {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", arg, code, out, errOut)
		}
	}
}

func TestUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--frobnicate"}, "validate: flag provided but not defined: -frobnicate\n"},
		{[]string{"-o", "yaml"}, "validate: unknown output format \"yaml\" (text, json or sarif)\n"},
		{[]string{"--feature-gates", "EnvFiles"}, "validate: --feature-gates: malformed pair, expect string=bool\n"},
		{[]string{"--feature-gates", "EnvFiles=maybe"}, "validate: --feature-gates: invalid value of EnvFiles: maybe, err: strconv.ParseBool: parsing \"maybe\": invalid syntax\n"},
		{[]string{"--feature-gates", "NoSuchGate=true"}, "validate: --feature-gates: unrecognized feature gate: NoSuchGate\n"},
		{[]string{"--live", "-", "-"}, "validate: standard input (-) can be read only once, by one --crd, one --live or one PATH\n"},
		{[]string{"--live", "-", "--live", "-", "x.yaml"}, "validate: standard input (-) can be read only once, by one --crd, one --live or one PATH\n"},
	} {
		code, out, errOut := runWith(t, "", tc.args...)
		if code != 2 || out != "" || errOut != tc.want+"\n"+usageText {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q with the usage", tc.args, code, out, errOut, tc.want)
		}
	}
}

const privilegedPod = `apiVersion: v1
kind: Pod
metadata:
  name: debug
spec:
  containers:
  - name: shell
    image: busybox:1.36
    securityContext:
      privileged: true
`

const comparisonPod = `apiVersion: v1
kind: Pod
metadata:
  name: spot
spec:
  tolerations:
  - key: risk
    operator: Gt
    value: "3"
    effect: NoSchedule
  containers:
  - name: w
    image: busybox:1.36
`

func TestRun(t *testing.T) {
	dir := t.TempDir()
	valid := write(t, dir, "valid.yaml", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: ok\nspec:\n  containers:\n  - name: c\n    image: busybox\n")
	priv := write(t, dir, "priv.yaml", privilegedPod)
	cmp := write(t, dir, "cmp.yaml", comparisonPod)
	binary := write(t, dir, "bin.yaml", "\x1f\x8b\x08\x00\x00")
	write(t, dir, "tree/a/b.yml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n")
	write(t, dir, "tree/skip.txt", "not a manifest")
	empty := t.TempDir()
	blank := write(t, dir, "blank.yaml", "# nothing yet\n---\n")
	emptyList := write(t, dir, "list.yaml", "apiVersion: v1\nkind: List\nitems: []\n")
	twice := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cfg}\ndata: {a: b}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec: {containers: [{name: c, image: nginx}]}\n"
	dupA, dupB := write(t, dir, "dup/a.yaml", twice), write(t, dir, "dup/b.yaml", twice)
	noPod := write(t, dir, "svc.yaml", "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  ports:\n  - port: 80\n    targetport: 8080\n---\n"+
		"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: flags\ndata:\n  enabled: on\n---\napiVersion: v1\nkind: Service\nmetadata: {name: ok}\nspec: {ports: [{port: 80}]}\n")
	var many strings.Builder
	var manyOut string
	for i, kind := range []string{"Service", "ConfigMap", "Service", "ServiceAccount", "ConfigMap", "Service", "Secret", "ConfigMap", "Service"} {
		if i > 0 {
			many.WriteString("---\n")
		}
		fmt.Fprintf(&many, "apiVersion: v1\nkind: %s\nmetadata:\n  name: o%d\n", kind, i)
		manyOut += fmt.Sprintf("%s:%d: %s \"o%d\" is not checked: it holds no pod\n", filepath.Join(dir, "many.yaml"), 1+5*i, kind, i)
	}
	manyPath := write(t, dir, "many.yaml", many.String())
	for _, tc := range []struct {
		name   string
		stdin  string
		args   []string
		code   int
		out    string
		errOut string
	}{
		{
			name: "more than eight objects not checked are counted by kind in the summary",
			args: []string{manyPath},
			code: 0,
			out: manyOut + "\n9 objects in 1 file: 0 valid, 0 invalid, 0 rejected, 9 not checked\n" +
				"not checked (they hold no pod, each named above): 4 Service, 3 ConfigMap, 1 Secret, 1 ServiceAccount\n",
		},
		{
			name: "valid file",
			args: []string{valid},
			code: 0,
			out:  valid + ":1: Pod \"ok\" is valid\n\n1 object in 1 file: 1 valid, 0 invalid, 0 rejected, 0 not checked\n",
		},
		{
			name: "kinds that hold no pod are decoded as the server decodes them",
			args: []string{noPod},
			code: 1,
			out: noPod + ":1: Service \"web\" is rejected by the server: Service in version \"v1\" cannot be handled as a Service: strict decoding error: unknown field \"spec.ports[0].targetport\"\n" +
				"  " + noPod + ":8: unknown field \"spec.ports[0].targetport\"\n" +
				"  " + noPod + ":8: hint: did you mean \"targetPort\"?\n" +
				noPod + ":10: ConfigMap \"flags\" is rejected by the server: ConfigMap in version \"v1\" cannot be handled as a ConfigMap: json: cannot unmarshal bool into Go struct field ConfigMap.data of type string\n" +
				"  " + noPod + ":15: json: cannot unmarshal bool into Go struct field ConfigMap.data of type string\n" +
				"  " + noPod + ":15: hint: YAML reads on as a boolean: write \"on\" to send the string\n" +
				noPod + ":17: Service \"ok\" is not checked: it holds no pod\n" +
				"\n3 objects in 1 file: 0 valid, 0 invalid, 2 rejected, 1 not checked\n" +
				"not checked (they hold no pod): Service \"ok\" (" + noPod + ":17)\n",
		},
		{
			name: "the files of one run are one kubectl create: a name created before is the server's 409",
			args: []string{filepath.Dir(dupA)},
			code: 1,
			out: dupA + ":1: ConfigMap \"cfg\" is not checked: it holds no pod\n" +
				dupA + ":6: Pod \"web\" is valid\n" +
				dupB + ":1: ConfigMap \"cfg\" is rejected by the server: configmaps \"cfg\" already exists\n" +
				dupB + ":6: Pod \"web\" is rejected by the server: pods \"web\" already exists\n" +
				"\n4 objects in 2 files: 1 valid, 0 invalid, 2 rejected, 1 not checked\n" +
				"not checked (they hold no pod): ConfigMap \"cfg\" (" + dupA + ":1)\n",
		},
		{
			name: "--each-file: each file is a kubectl create of its own",
			args: []string{"--each-file", filepath.Dir(dupA)},
			code: 0,
			out: dupA + ":1: ConfigMap \"cfg\" is not checked: it holds no pod\n" +
				dupA + ":6: Pod \"web\" is valid\n" +
				dupB + ":1: ConfigMap \"cfg\" is not checked: it holds no pod\n" +
				dupB + ":6: Pod \"web\" is valid\n" +
				"\n4 objects in 2 files: 2 valid, 0 invalid, 0 rejected, 2 not checked\n" +
				"not checked (they hold no pod): ConfigMap \"cfg\" (" + dupA + ":1), ConfigMap \"cfg\" (" + dupB + ":1)\n",
		},
		{
			name: "privileged containers allowed by default",
			args: []string{priv},
			code: 0,
			out:  priv + ":1: Pod \"debug\" is valid\n\n1 object in 1 file: 1 valid, 0 invalid, 0 rejected, 0 not checked\n",
		},
		{
			name: "privileged containers refused",
			args: []string{"--allow-privileged=false", priv},
			code: 1,
			out: priv + ":1: Pod \"debug\" is invalid:\n" +
				"  " + priv + ":10: spec.containers[0].securityContext.privileged: Forbidden: disallowed by cluster policy\n" +
				"\n1 object in 1 file: 0 valid, 1 invalid, 0 rejected, 0 not checked\n",
		},
		{
			name: "a gate that lifts an error is named",
			args: []string{cmp},
			code: 1,
			out: cmp + ":1: Pod \"spot\" is invalid:\n" +
				"  " + cmp + ":8: spec.tolerations[0].operator: Unsupported value: \"Gt\": supported values: \"Equal\", \"Exists\", \"Lt\", \"Gt\"\n" +
				"  " + cmp + ":8: hint: accepted with --feature-gates=TaintTolerationComparisonOperators=true\n" +
				"\n1 object in 1 file: 0 valid, 1 invalid, 0 rejected, 0 not checked\n",
		},
		{
			name: "with the gate on",
			args: []string{"--feature-gates", "TaintTolerationComparisonOperators=true", cmp},
			code: 0,
			out:  cmp + ":1: Pod \"spot\" is valid\n\n1 object in 1 file: 1 valid, 0 invalid, 0 rejected, 0 not checked\n",
		},
		{
			name:  "standard input",
			stdin: "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n",
			args:  []string{"-"},
			code:  0,
			out:   "STDIN:1: Service \"web\" is not checked: it holds no pod\n\n1 object in 1 file: 0 valid, 0 invalid, 0 rejected, 1 not checked\nnot checked (they hold no pod): Service \"web\" (STDIN:1)\n",
		},
		{
			name: "a directory, recursively, manifests only",
			args: []string{filepath.Join(dir, "tree")},
			code: 0,
			out:  filepath.Join(dir, "tree/a/b.yml") + ":1: ConfigMap \"cm\" is not checked: it holds no pod\n\n1 object in 1 file: 0 valid, 0 invalid, 0 rejected, 1 not checked\nnot checked (they hold no pod): ConfigMap \"cm\" (" + filepath.Join(dir, "tree/a/b.yml") + ":1)\n",
		},
		{
			name:   "a binary file is reported, the others are checked",
			args:   []string{binary, valid},
			code:   2,
			out:    valid + ":1: Pod \"ok\" is valid\n\n1 object in 2 files: 1 valid, 0 invalid, 0 rejected, 0 not checked\n1 file could not be checked (see standard error)\n",
			errOut: "validate: " + binary + ": not a text file (a NUL byte at offset 3); kubectl cannot read it either\n",
		},
		{
			name: "files without an object fail as kubectl create fails",
			args: []string{blank, emptyList},
			code: 1,
			out:  "\n0 objects in 2 files: 0 valid, 0 invalid, 0 rejected, 0 not checked\nkubectl create -f fails on " + blank + ", " + emptyList + ": no objects passed to create\n",
		},
		{
			name: "a file without an object beside one with an object",
			args: []string{blank, valid},
			code: 0,
			out:  valid + ":1: Pod \"ok\" is valid\n\n1 object in 2 files: 1 valid, 0 invalid, 0 rejected, 0 not checked\n",
		},
		{
			name:  "no object as JSON",
			stdin: "---\n",
			args:  []string{"-o", "json", "-"},
			code:  1,
			out:   "{\n  \"objects\": [],\n  \"summary\": {\n    \"objects\": 0,\n    \"files\": 1,\n    \"valid\": 0,\n    \"invalid\": 0,\n    \"rejected\": 0,\n    \"notChecked\": 0,\n    \"unreadableFiles\": 0,\n    \"kubectlError\": \"no objects passed to create\"\n  }\n}\n",
		},
		{
			name:   "missing file",
			args:   []string{filepath.Join(dir, "nope.yaml")},
			code:   2,
			out:    "\n0 objects in 0 files: 0 valid, 0 invalid, 0 rejected, 0 not checked\n1 file could not be checked (see standard error)\n",
			errOut: "validate: " + filepath.Join(dir, "nope.yaml") + ": stat " + filepath.Join(dir, "nope.yaml") + ": no such file or directory\n",
		},
		{
			name:   "empty directory",
			args:   []string{empty},
			code:   2,
			out:    "\n0 objects in 0 files: 0 valid, 0 invalid, 0 rejected, 0 not checked\n1 file could not be checked (see standard error)\n",
			errOut: "validate: " + empty + ": no .json, .yaml or .yml file in the directory\n",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runWith(t, tc.stdin, tc.args...)
			if code != tc.code || out != tc.out || errOut != tc.errOut {
				t.Errorf("exit %d (want %d)\nstdout:\n%s\nwant:\n%s\nstderr: %q\nwant:   %q", code, tc.code, out, tc.out, errOut, tc.errOut)
			}
		})
	}
}

func TestJSON(t *testing.T) {
	code, out, _ := runWith(t, "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n  - name: app\n", "-o", "json", "-")
	if code != 1 || out != wantJSON {
		t.Errorf("exit %d, output:\n%s\nwant:\n%s", code, out, wantJSON)
	}
}

const wantJSON = `{
  "objects": [
    {
      "file": "STDIN",
      "document": 1,
      "line": 1,
      "apiVersion": "v1",
      "kind": "Pod",
      "namespace": "default",
      "name": "web",
      "verdict": "invalid",
      "status": {
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Failure",
        "message": "Pod \"web\" is invalid: spec.containers[0].image: Required value",
        "reason": "Invalid",
        "details": {
          "name": "web",
          "kind": "Pod",
          "causes": [
            {
              "reason": "FieldValueRequired",
              "message": "Required value",
              "field": "spec.containers[0].image"
            }
          ]
        },
        "code": 422
      },
      "locations": [
        {
          "field": "spec.containers[0].image",
          "line": 7
        }
      ]
    }
  ],
  "summary": {
    "objects": 1,
    "files": 1,
    "valid": 0,
    "invalid": 1,
    "rejected": 0,
    "notChecked": 0,
    "unreadableFiles": 0
  }
}
`

func TestSARIF(t *testing.T) {
	in := "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  name: web2\nspec:\n  contianers: []\n"
	code, out, _ := runWith(t, in, "--output=sarif", "-")
	if code != 1 || out != wantSARIF {
		t.Errorf("exit %d, output:\n%s\nwant:\n%s", code, out, wantSARIF)
	}
}

const wantSARIF = `{
  "$schema": "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json",
  "version": "2.1.0",
  "runs": [
    {
      "tool": {
        "driver": {
          "name": "podlife-validate",
          "informationUri": "https://github.com/podlife/podlife",
          "rules": [
            {
              "id": "server-invalid",
              "shortDescription": {
                "text": "The API server refuses the object: 422 Invalid"
              },
              "defaultConfiguration": {
                "level": "error"
              }
            },
            {
              "id": "server-rejected",
              "shortDescription": {
                "text": "The API server cannot decode the object: unknown fields (strict field validation), wrong types, size"
              },
              "defaultConfiguration": {
                "level": "error"
              }
            },
            {
              "id": "kubectl-rejected",
              "shortDescription": {
                "text": "kubectl refuses the document before sending it: unreadable YAML or JSON, no apiVersion or kind, a kind or version the server does not serve"
              },
              "defaultConfiguration": {
                "level": "error"
              }
            },
            {
              "id": "duplicate-key",
              "shortDescription": {
                "text": "A key appears twice: kubectl keeps the last value and the server never sees the others"
              },
              "defaultConfiguration": {
                "level": "warning"
              }
            },
            {
              "id": "unreadable-file",
              "shortDescription": {
                "text": "The file cannot be read as a manifest"
              },
              "defaultConfiguration": {
                "level": "error"
              }
            },
            {
              "id": "no-objects",
              "shortDescription": {
                "text": "The files hold no object: kubectl create -f fails (no objects passed to create)"
              },
              "defaultConfiguration": {
                "level": "error"
              }
            },
            {
              "id": "server-warning",
              "shortDescription": {
                "text": "The API server creates the object but warns: a field it does not know or gives twice (--validate=warn)"
              },
              "defaultConfiguration": {
                "level": "warning"
              }
            }
          ]
        }
      },
      "results": [
        {
          "ruleId": "server-rejected",
          "ruleIndex": 1,
          "level": "error",
          "message": {
            "text": "Pod \"web2\": unknown field \"spec.contianers\" (did you mean \"containers\"?)"
          },
          "locations": [
            {
              "physicalLocation": {
                "artifactLocation": {
                  "uri": "STDIN"
                },
                "region": {
                  "startLine": 7
                }
              }
            }
          ]
        },
        {
          "ruleId": "duplicate-key",
          "ruleIndex": 3,
          "level": "warning",
          "message": {
            "text": "Pod \"web2\": duplicate key \"name\": kubectl keeps only the last value and the API server never sees the others"
          },
          "locations": [
            {
              "physicalLocation": {
                "artifactLocation": {
                  "uri": "STDIN"
                },
                "region": {
                  "startLine": 5
                }
              }
            }
          ]
        }
      ]
    }
  ]
}
`

// TestSARIFNoObjects checks that input without an object is one no-objects error per
// file, as kubectl create -f fails on it.
func TestSARIFNoObjects(t *testing.T) {
	code, out, _ := runWith(t, "# nothing\n---\n", "-o", "sarif", "-")
	var log sarifLog
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	if code != 1 || len(log.Runs) != 1 || len(log.Runs[0].Results) != 1 {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
	r := log.Runs[0].Results[0]
	if r.RuleID != "no-objects" || r.Level != "error" || r.Message.Text != "kubectl create -f: no objects passed to create" ||
		r.Locations[0].PhysicalLocation.ArtifactLocation.URI != "STDIN" {
		t.Errorf("result %+v", r)
	}
}

// typingManifest holds the four ways YAML's own typing of a scalar makes the server
// refuse a manifest.
const typingManifest = `apiVersion: v1
kind: Pod
metadata: {name: norway}
spec:
  containers:
  - name: c
    image: busybox
    env:
    - name: COUNTRY
      value: no   # the Norway problem
---
apiVersion: v1
kind: Pod
metadata: {name: version}
spec:
  containers: [{name: c, image: busybox, env: [{name: V, value: 1.10}]}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: quoted}
spec:
  replicas: "3"
  selector: {matchLabels: {a: b}}
  template:
    metadata: {labels: {a: b}}
    spec: {containers: [{name: c, image: busybox}]}
---
apiVersion: v1
kind: Pod
metadata: {name: flag}
spec:
  hostNetwork: 'true'
  containers: [{name: c, image: busybox}]
---
apiVersion: v1
kind: Pod
metadata: {name: later-entry}
spec:
  containers:
  - name: a
    image: busybox
    env:
    - name: GREETING
      value: hello
  - name: b
    image: busybox
    env:
    - name: LANG
      value: en
    - name: CACHE
      value: on
---
apiVersion: v1
kind: Pod
metadata: {name: args}
spec:
  containers:
  - name: c
    image: busybox
    args:
    - --port
    - 8080   # the port
`

// TestTypingNotes: a value YAML types otherwise than the field is refused by the
// server, as kubectl sends it; the note names the value and the fix, on the value's
// line even when the server's message names its field without list indices (the
// second container's second env entry, an args entry).
func TestTypingNotes(t *testing.T) {
	code, out, _ := runWith(t, typingManifest, "-")
	var notes []string
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "hint: ") {
			notes = append(notes, strings.TrimSpace(line))
		}
	}
	want := []string{
		`STDIN:10: hint: YAML reads no as a boolean: write "no" to send the string`,
		`STDIN:16: hint: YAML reads 1.10 as a number: write "1.10" to send the string`,
		`STDIN:22: hint: "3" is quoted, so it is sent as a string: write 3 without quotes`,
		`STDIN:32: hint: 'true' is quoted, so it is sent as a string: write true without quotes`,
		`STDIN:51: hint: YAML reads on as a boolean: write "on" to send the string`,
		`STDIN:62: hint: YAML reads 8080 as a number: write "8080" to send the string`,
	}
	if code != 1 || strings.Join(notes, "\n") != strings.Join(want, "\n") {
		t.Errorf("exit %d, notes:\n%s\nwant:\n%s\noutput:\n%s", code, strings.Join(notes, "\n"), strings.Join(want, "\n"), out)
	}
}

// TestTypingNotesJSON: the note for a quoted number in a JSON file says nothing of
// YAML, and points at the value's line.
func TestTypingNotesJSON(t *testing.T) {
	const manifest = `{
  "apiVersion": "apps/v1",
  "kind": "Deployment",
  "metadata": {"name": "web"},
  "spec": {
    "replicas": "3",
    "selector": {"matchLabels": {"app": "web"}},
    "template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "web", "image": "nginx"}]}}
  }
}
`
	code, out, _ := runWith(t, manifest, "-")
	want := `STDIN:6: hint: "3" is quoted, so it is sent as a string: write 3 without quotes`
	if code != 1 || !strings.Contains(out, want+"\n") {
		t.Errorf("exit %d, output:\n%s\nwant a line %q", code, out, want)
	}
}

// TestQuantityCause: a quantity the server cannot parse is refused with a message
// that names no field; the cause line names the value and its line (the first
// refused in the order the server decodes, cpu before memory).
func TestQuantityCause(t *testing.T) {
	const manifest = `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: nginx}
spec:
  selector: {matchLabels: {app: nginx}}
  template:
    metadata: {labels: {app: nginx}}
    spec:
      containers:
      - name: nginx
        image: nginx
        resources:
          requests:
            memory: 1Gb
            cpu: ""
`
	code, out, _ := runWith(t, manifest, "-")
	want := `STDIN:1: DaemonSet "nginx" is rejected by the server: DaemonSet in version "v1" cannot be handled as a DaemonSet: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'
  STDIN:15: spec.template.spec.containers[0].resources.requests[cpu]: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'
`
	if code != 1 || !strings.HasPrefix(out, want) {
		t.Errorf("exit %d, output:\n%s\nwant it to start with:\n%s", code, out, want)
	}
}

// TestSlowQuantityCause: a quantity whose decoding would outlast the server's
// request timeout is its 504, with the quantity's line.
func TestSlowQuantityCause(t *testing.T) {
	const manifest = `apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  containers:
  - name: web
    image: nginx
    resources:
      limits: {cpu: "1e999999999999"}
`
	code, out, _ := runWith(t, manifest, "-")
	want := `STDIN:1: Pod "web" is rejected by the server: Timeout: request did not complete within the allotted timeout
  STDIN:9: spec.containers[0].resources.limits[cpu]: the server's decoding of this quantity does not end within its request timeout
`
	if code != 1 || !strings.HasPrefix(out, want) {
		t.Errorf("exit %d, output:\n%s\nwant it to start with:\n%s", code, out, want)
	}
}

func TestScalarAfter(t *testing.T) {
	for _, tc := range []struct {
		line, key, want string
		ok              bool
	}{
		{"      value: no   # comment", "value", "no", true},
		{"  env: [{name: V, value: 1.10}]", "value", "1.10", true},
		{"  env: [{name: V, valueFrom: {x: 1}, value: 2}]", "value", "2", true},
		{"  replicas: \"3\"", "replicas", `"3"`, true},
		{"  hostNetwork: 'true' # on", "hostNetwork", "'true'", true},
		{`  {"replicas": "3"}`, "replicas", `"3"`, true},
		{"  myvalue: no", "value", "", false},
		{"  value:", "value", "", false},
		{"  value: \"unterminated", "value", "", false},
		{"  - value: on", "value", "on", true},
		{"", "", "", false},
		{"  a: b", "", "", false},
		{": x", "", "", false},
	} {
		got, ok := scalarAfter(tc.line, tc.key)
		if got != tc.want || ok != tc.ok {
			t.Errorf("scalarAfter(%q, %q) = %q, %t; want %q, %t", tc.line, tc.key, got, ok, tc.want, tc.ok)
		}
	}
}

// TestFieldSuggestions: each unknown field of the corpus's typos gets the field that
// was meant, where the schema has one near enough (not spec.workloadRef).
func TestFieldSuggestions(t *testing.T) {
	path := filepath.Join("testdata", "corpus", "pods", "typos.yaml")
	code, out, _ := runWith(t, "", path)
	var notes []string
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "hint: ") {
			notes = append(notes, strings.TrimSpace(line))
		}
	}
	want := []string{
		path + `:19: hint: did you mean "containers"?`,
		path + `:31: hint: did you mean "imagePullPolicy"?`,
		path + `:32: hint: did you mean "resources"?`,
	}
	if code != 1 || strings.Join(notes, "\n") != strings.Join(want, "\n") {
		t.Errorf("exit %d, notes:\n%s\nwant:\n%s", code, strings.Join(notes, "\n"), strings.Join(want, "\n"))
	}
}

// readmeExample returns the lines the README shows the program printing after
// `$ command`, up to the blank line that ends the example.
func readmeExample(t *testing.T, command string) []string {
	t.Helper()
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(readme), "    $ "+command+"\n")
	if !ok {
		t.Fatalf("README has no `$ %s` example", command)
	}
	block, _, _ = strings.Cut(block, "\n\n")
	var lines []string
	for _, line := range strings.Split(block, "\n") {
		lines = append(lines, strings.TrimPrefix(line, "    "))
	}
	return lines
}

// TestReadmeHints keeps the README's example of a hint true: the lines it shows are
// what the program prints for the manifest they describe.
func TestReadmeHints(t *testing.T) {
	want := readmeExample(t, "validate deploy.yaml")
	t.Chdir(t.TempDir())
	write(t, ".", "deploy.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replica: 3\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers:\n      - name: app\n        image: nginx:1.27\n")
	_, out, _ := runWith(t, "", "deploy.yaml")
	got := strings.Split(out, "\n")
	if len(got) < len(want) || strings.Join(got[:len(want)], "\n") != strings.Join(want, "\n") {
		t.Errorf("the program prints:\n%s\nthe README shows:\n%s", out, strings.Join(want, "\n"))
	}
}

// TestReadmeCreateWarnings keeps the README's example of the server's warnings on
// create true: the program prints them on the lines of the fields they name.
func TestReadmeCreateWarnings(t *testing.T) {
	want := readmeExample(t, "validate web.yaml")
	t.Chdir(t.TempDir())
	write(t, ".", "web.yaml", `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      nodeSelector:
        beta.kubernetes.io/os: linux
      containers:
      - name: app
        image: nginx:1.27
        env:
        - {name: JAVA_OPTS, value: -Xmx1g}
        - {name: JAVA_OPTS, value: -Xmx2g}
`)
	code, out, _ := runWith(t, "", "web.yaml")
	got := strings.Split(out, "\n")
	if code != 0 || len(got) < len(want) || strings.Join(got[:len(want)], "\n") != strings.Join(want, "\n") {
		t.Errorf("exit %d; the program prints:\n%s\nthe README shows:\n%s", code, out, strings.Join(want, "\n"))
	}
}

// TestTypingNotesInMaps: kubectl refuses a label or annotation YAML typed as a number
// or a boolean, naming only the map; the hint points at the entry, in block and flow
// style.
func TestTypingNotesInMaps(t *testing.T) {
	in := `apiVersion: v1
kind: Pod
metadata:
  name: a
  annotations:
    team: payments

    # scraped by Prometheus
    prometheus.io/scrape: true
spec:
  containers: [{name: c, image: busybox}]
---
apiVersion: v1
kind: Pod
metadata:
  name: b
  labels: {app: b, version: 1.0, build: 42}
spec:
  containers: [{name: c, image: busybox}]
---
apiVersion: v1
kind: Pod
metadata:
  name: c
  labels:
    app: "c"
spec:
  containers: [{name: c, image: busybox}]
`
	code, out, _ := runWith(t, in, "-")
	want := "STDIN:1: Pod \"a\" is rejected by kubectl: unable to decode \"STDIN\": json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.annotations of type string\n" +
		"  STDIN:9: json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.annotations of type string\n" +
		"  STDIN:9: hint: YAML reads true as a boolean: write \"true\" to send the string\n" +
		"STDIN:13: Pod \"b\" is rejected by kubectl: unable to decode \"STDIN\": json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string\n" +
		"  STDIN:17: json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string\n" +
		"  STDIN:17: hint: YAML reads 42 as a number: write \"42\" to send the string\n" +
		"STDIN:21: Pod \"c\" is valid\n"
	if code != 1 || !strings.HasPrefix(out, want) {
		t.Errorf("exit %d, output:\n%s\nwant it to start with:\n%s", code, out, want)
	}
}

// TestValidateFlag: --validate takes kubectl's values (a boolean, strict, warn,
// ignore; the flag alone is strict) and refuses others with kubectl's words; warn
// shows the server's warnings on the fields' lines, ignore drops the fields.
func TestValidateFlag(t *testing.T) {
	for value, want := range map[string]string{"true": "Strict", "1": "Strict", "strict": "Strict", "warn": "Warn", "false": "Ignore", "F": "Ignore", "ignore": "Ignore"} {
		if got, err := fieldValidation(value); got != want || err != nil {
			t.Errorf("--validate=%s: %q, %v; want %q", value, got, err, want)
		}
	}
	if _, err := fieldValidation("Warn"); err == nil || err.Error() != `invalid - validate option "Warn"; must be one of: strict (or true), warn, ignore (or false)` {
		t.Errorf("--validate=Warn: %v", err)
	}
	const manifest = "apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  containers:\n  - name: web\n    image: nginx\n    imagePullPolice: Always\n"
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-"}, 1, `STDIN:1: Pod "web" is rejected by the server: Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.containers[0].imagePullPolice"`},
		{[]string{"--validate", "-"}, 1, `unknown field "spec.containers[0].imagePullPolice"`},
		{[]string{"--validate=warn", "-"}, 0, "STDIN:1: Pod \"web\" is valid\nSTDIN:8: warning from the server: unknown field \"spec.containers[0].imagePullPolice\"\n"},
		{[]string{"--validate=false", "-"}, 0, "STDIN:1: Pod \"web\" is valid\n\n"},
		{[]string{"--validate=maybe", "-"}, 2, ""},
		{[]string{"-o", "json", "--validate=warn", "-"}, 0, `"warnings": [
        {
          "line": 8,
          "message": "unknown field \"spec.containers[0].imagePullPolice\"",
          "server": true
        }
      ]`},
		{[]string{"-o", "sarif", "--validate=warn", "-"}, 0, `"ruleId": "server-warning",
          "ruleIndex": 6,`},
	} {
		code, out, errOut := runWith(t, manifest, tc.args...)
		if code != tc.code || !strings.Contains(out, tc.want) {
			t.Errorf("%v: exit %d, output:\n%s%s\nwant exit %d and %q", tc.args, code, out, errOut, tc.code, tc.want)
		}
	}
}

// TestLive checks --live on its example (testdata/live: a cluster's objects as
// kubectl get -o yaml prints them, a pull request's manifests; the answers are those
// of upstream's update handler, conformance/workloads TestLiveExampleMatchesUpstream)
// against the whole output in testdata/live/want.txt.
func TestLive(t *testing.T) {
	want, err := os.ReadFile("testdata/live/want.txt")
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runWith(t, "", "--live", "testdata/live/cluster.yaml", "testdata/live/changes.yaml")
	if code != 1 || out != string(want) || errOut != "" {
		t.Errorf("exit %d, stderr %q, stdout:\n%s\nwant exit 1 and testdata/live/want.txt", code, errOut, out)
	}
	code, out, _ = runWith(t, "", "-o", "json", "--live", "testdata/live/cluster.yaml", "testdata/live/changes.yaml")
	var rep jsonReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 1 {
		t.Fatalf("-o json: exit %d, %v", code, err)
	}
	var updates []string
	for _, o := range rep.Objects {
		if o.Update {
			updates = append(updates, o.Kind+"/"+o.Name+"="+o.Verdict)
		}
	}
	if got := strings.Join(updates, " "); got != "Deployment/web=valid StatefulSet/db=invalid Job/migrate=invalid CronJob/report=valid Pod/debug=valid" {
		t.Errorf("-o json updates: %s", got)
	}
	if s := rep.Summary; s.Updates == nil || s.LiveObjects == nil || *s.Updates != 5 || *s.LiveObjects != 6 {
		t.Errorf("-o json summary: %v updates of %v live objects, want 5 of 6", s.Updates, s.LiveObjects)
	}
	// With --live and nothing to update, the counts are there, zero; without it, absent.
	_, out, _ = runWith(t, "", "-o", "json", "--live", "testdata/live/cluster.yaml", "testdata/sample.yaml")
	if !strings.Contains(out, `"updates": 0,`) || !strings.Contains(out, `"liveObjects": 6`) {
		t.Errorf("-o json --live without updates: no zero counts in\n%s", out)
	}
	if _, out, _ = runWith(t, "", "-o", "json", "testdata/sample.yaml"); strings.Contains(out, `"updates"`) {
		t.Errorf("-o json without --live: an updates count in\n%s", out)
	}
	code, out, _ = runWith(t, "", "-o", "sarif", "--live", "testdata/live/cluster.yaml", "testdata/live/changes.yaml")
	if want := `"text": "Job \"migrate\" (as an update of the live object): spec.selector: Required value"`; code != 1 || !strings.Contains(out, want) {
		t.Errorf("-o sarif: exit %d, no %s in\n%s", code, want, out)
	}
}

// TestLiveProblems: a live file that cannot be read, a live object that does not
// decode, one without a name and one given twice are each reported, with exit 2; the
// manifests are still checked, the readable live objects used (an unknown field of
// one dropped).
// TestLiveApply checks --apply on the --live example: the objects are sent as
// kubectl apply's patches (the Job keeps its generated selector, the live objects
// lack the last-applied annotation), as testdata/live/want-apply.txt holds.
func TestLiveApply(t *testing.T) {
	want, err := os.ReadFile("testdata/live/want-apply.txt")
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runWith(t, "", "--apply", "--live", "testdata/live/cluster.yaml", "testdata/live/changes.yaml")
	if code != 1 || out != string(want) || errOut != "" {
		t.Errorf("exit %d, stderr %q, stdout:\n%s\nwant exit 1 and testdata/live/want-apply.txt", code, errOut, out)
	}
	code, out, _ = runWith(t, "", "-o", "json", "--apply", "--live", "testdata/live/cluster.yaml", "testdata/live/changes.yaml")
	var rep jsonReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 1 {
		t.Fatalf("-o json: exit %d, %v", code, err)
	}
	var patches []string
	for _, o := range rep.Objects {
		if len(o.Patch) > 0 {
			var p map[string]any
			if err := json.Unmarshal(o.Patch, &p); err != nil {
				t.Fatalf("%s/%s: patch %s: %v", o.Kind, o.Name, o.Patch, err)
			}
			patches = append(patches, o.Kind+"/"+o.Name+"="+o.Verdict)
		}
	}
	if got := strings.Join(patches, " "); got != "Deployment/web=valid StatefulSet/db=invalid Job/migrate=invalid CronJob/report=valid Pod/debug=valid" {
		t.Errorf("-o json patches: %s", got)
	}
	_, out, _ = runWith(t, "", "-o", "sarif", "--apply", "--live", "testdata/live/cluster.yaml", "testdata/live/changes.yaml")
	if n := strings.Count(out, "(as a patch of the live object)"); n != 2 || strings.Contains(out, "as an update") {
		t.Errorf("-o sarif: %d messages of a patch, want 2 (and none of an update)", n)
	}
}

func TestLiveProblems(t *testing.T) {
	dir := t.TempDir()
	live := write(t, dir, "live.yaml", `apiVersion: v1
kind: Pod
metadata: {name: p}
spec: {containers: {name: c, image: x}}
---
apiVersion: v1
kind: Pod
metadata: {generateName: q-}
spec: {containers: [{name: c, image: x}]}
---
apiVersion: v1
kind: Pod
metadata: {name: r}
spec: {containers: [{name: c, image: x, imagePullPolice: Always}]}
---
apiVersion: v1
kind: Pod
metadata: {name: r}
spec: {containers: [{name: c, image: z}]}
`)
	manifest := write(t, dir, "pods.yaml", "apiVersion: v1\nkind: Pod\nmetadata: {name: r}\nspec: {containers: [{name: c, image: x, resources: {requests: {cpu: 1}}}]}\n")
	code, out, errOut := runWith(t, "", "--live", live, "--live", filepath.Join(dir, "missing.yaml"), manifest)
	wantErr := "validate: " + live + ": line 1: live Pod \"p\" cannot be read: Pod in version \"v1\" cannot be handled as a Pod: json: cannot unmarshal object into Go struct field PodSpec.spec.containers of type []v1.Container\n" +
		"validate: " + live + ": line 6: live Pod \"\" has no name\n" +
		"validate: " + live + ": line 16: live Pod \"r\" is given twice; the first is used\n" +
		"validate: " + filepath.Join(dir, "missing.yaml") + ": stat " + filepath.Join(dir, "missing.yaml") + ": no such file or directory\n"
	if code != 2 || errOut != wantErr {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 2 and:\n%s", code, errOut, wantErr)
	}
	if !strings.Contains(out, manifest+":1: Pod \"r\" is invalid as an update of the live object:\n") ||
		!strings.Contains(out, "--live: 1 object read from 1 file (1 holding a pod); 1 object checked as an update\n2 files could not be checked (see standard error)\n") {
		t.Errorf("stdout:\n%s", out)
	}
}

// TestCRD: --crd makes the kinds of the definitions it reads served, so that their
// objects are sent and not checked instead of refused by kubectl's mapping; a file
// holding anything but definitions is a problem of that file (exit 2).
func TestCRD(t *testing.T) {
	want, err := os.ReadFile("testdata/crds/want.txt")
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runWith(t, "", "--crd", "testdata/crds/crds.yaml", "testdata/crds/app.yaml")
	if code != 1 || out != string(want) || errOut != "" {
		t.Errorf("exit %d, stderr %q, stdout:\n%s\nwant exit 1 and testdata/crds/want.txt", code, errOut, out)
	}
	if code, out, _ := runWith(t, "", "testdata/crds/app.yaml"); code != 1 || strings.Count(out, "ensure CRDs are installed first") != 3 {
		t.Errorf("without --crd: exit %d, want 3 mapping errors in\n%s", code, out)
	}
	code, _, errOut = runWith(t, "", "--crd", "testdata/crds/app.yaml", "testdata/crds/app.yaml")
	if want := `validate: testdata/crds/app.yaml: --crd: document 1: Deployment "shop" is not an apiextensions.k8s.io/v1 CustomResourceDefinition`; code != 2 || !strings.Contains(errOut, want) {
		t.Errorf("--crd of a Deployment: exit %d, stderr %q, want 2 and %q", code, errOut, want)
	}
	if code, _, errOut = runWith(t, "", "--crd", "-", "-"); code != 2 || !strings.Contains(errOut, "can be read only once") {
		t.Errorf("--crd - with -: exit %d, stderr %q", code, errOut)
	}
}
