package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunSample runs the program on its embedded sample and checks the whole output.
func TestRunSample(t *testing.T) {
	var out, errOut strings.Builder
	if code := run(nil, &out, &errOut); code != 1 {
		t.Errorf("exit code %d, want 1", code)
	}
	if out.String() != wantSample {
		t.Errorf("output:\n%s\nwant:\n%s", out.String(), wantSample)
	}
	if errOut.String() != "" {
		t.Errorf("stderr: %s", errOut.String())
	}
}

// TestRunDirectory runs it on a directory of manifests holding workloads, a skipped
// Service and a file that is not a manifest (ignored for its extension).
func TestRunDirectory(t *testing.T) {
	var out, errOut strings.Builder
	if code := run([]string{"testdata/dir"}, &out, &errOut); code != 1 {
		t.Errorf("exit code %d, want 1", code)
	}
	if out.String() != wantDir {
		t.Errorf("output:\n%s\nwant:\n%s", out.String(), wantDir)
	}
	wantErr := "testdata/dir/good.yml: skipping Service \"ignored\": not a Pod or a workload with a pod template\n"
	if errOut.String() != wantErr {
		t.Errorf("stderr: %q, want %q", errOut.String(), wantErr)
	}
}

func TestRunExitCodes(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	valid := write("valid.yaml", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: ok\nspec:\n  containers:\n  - name: c\n    image: busybox\n")
	broken := write("broken.yaml", "kind: Pod\nspec: [1\n")
	for _, tc := range []struct {
		name    string
		args    []string
		code    int
		out     string
		errPart string
	}{
		{"all valid", []string{valid}, 0, "Pod \"ok\" is valid\n", ""},
		{"missing file", []string{filepath.Join(dir, "nope.yaml")}, 2, "", "no such file or directory"},
		{"undecodable document", []string{broken}, 2, "", "validate: document 1: "},
		{"too many arguments", []string{valid, valid}, 2, "", "usage: validate [FILE.yaml | DIRECTORY]"},
		{"empty directory", []string{t.TempDir()}, 2, "", "no .yaml, .yml or .json file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut strings.Builder
			if code := run(tc.args, &out, &errOut); code != tc.code {
				t.Errorf("exit code %d, want %d (stderr %q)", code, tc.code, errOut.String())
			}
			if out.String() != tc.out {
				t.Errorf("stdout %q, want %q", out.String(), tc.out)
			}
			if !strings.Contains(errOut.String(), tc.errPart) {
				t.Errorf("stderr %q, want it to contain %q", errOut.String(), tc.errPart)
			}
		})
	}
}

const wantSample = `Pod "myapp-pod" is valid
Pod "broken-pod" is invalid: [spec.containers[0].ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP", spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1, spec.containers[1].image: Required value, spec.containers[1].name: Duplicate value: "app", spec.containers[1].readinessProbe: Required value: must specify a handler type, spec.initContainers[0].restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "Never", "OnFailure", spec.containers[0].image: Invalid value: " nginx:1.27": must not have leading or trailing whitespace]
`

const wantDir = `testdata/dir/deploy.yaml: Deployment.apps "web" is invalid: [spec.template.spec.containers[0].livenessProbe.httpGet.port: Invalid value: 70000: must be between 1 and 65535, inclusive, spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"]
testdata/dir/deploy.yaml: CronJob.batch "nightly" is invalid: spec.jobTemplate.spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"
testdata/dir/good.yml: Job.batch "once" is valid
testdata/dir/good.yml: PodTemplate "Bad_Name" is invalid: [metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), template.labels: Invalid value: "not ok!": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')]
`
