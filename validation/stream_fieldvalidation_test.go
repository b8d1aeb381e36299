package validation

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podlife/podlife/validation/apischeme"
)

// TestStreamFieldValidation: kubectl's --validate, as the directive it sends, decides
// what unknown fields do: the server's 400 (strict), warnings on the fields' lines
// (warn), nothing (ignore); and how much kubectl checks itself first.
func TestStreamFieldValidation(t *testing.T) {
	const stream = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replica: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: nginx
        imagePullPolice: Always
---
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: cm}
  dataa: {a: b}
---
metadata: {name: no-kind}
---
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers: [{name: c, image: busybox}]
`
	for _, tc := range []struct {
		directive string
		want      []string
	}{
		{"", []string{
			`1 Deployment/web rejected: Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.replica", unknown field "spec.template.spec.containers[0].imagePullPolice"`,
			`15 List/ rejected: error validating "s.yaml": error validating data: ValidationError(ConfigMap): unknown field "dataa" in io.k8s.api.core.v1.ConfigMap; if you choose to ignore these errors, turn validation off with --validate=false`,
			`23 / rejected: error validating "s.yaml": error validating data: [apiVersion not set, kind not set]; if you choose to ignore these errors, turn validation off with --validate=false`,
			`25 Pod/p valid: `,
		}},
		{metav1.FieldValidationWarn, []string{
			`1 Deployment/web valid:  [5 server: unknown field "spec.replica"] [13 server: unknown field "spec.template.spec.containers[0].imagePullPolice"]`,
			`18 ConfigMap/cm not checked:  [21 server: unknown field "dataa"]`,
			`23 / rejected: error validating "s.yaml": error validating data: [apiVersion not set, kind not set]; if you choose to ignore these errors, turn validation off with --validate=false`,
			`25 Pod/p valid: `,
		}},
		{metav1.FieldValidationIgnore, []string{
			`1 Deployment/web valid: `,
			`18 ConfigMap/cm not checked: `,
			`23 / rejected: unable to decode "s.yaml": Object 'Kind' is missing in '{"metadata":{"name":"no-kind"}}'`,
			`25 Pod/p valid: `,
		}},
	} {
		var got []string
		for r := range ValidateStream(strings.NewReader(stream), "s.yaml", StreamOptions{FieldValidation: tc.directive, Scheme: apischeme.New()}) {
			line := fmt.Sprintf("%d %s/%s %s: %s", r.Line, r.Kind, r.Name, r.Verdict, r.Message())
			for _, w := range r.Warnings {
				if w.Server {
					line += fmt.Sprintf(" [%d server: %s]", w.Line, w.Message)
				}
			}
			got = append(got, line)
		}
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("--validate=%q:\n%s\nwant\n%s", tc.directive, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
		}
	}
}

// TestRecordWarnings: the server's warning recorder keeps each text once, leaves out
// those a header cannot carry, and once
// the texts pass 4 Ki runes in all cuts every one to 256 runes and drops those past 4
// Ki of cut ones (k8s.io/apiserver pkg/endpoints/filters/warning.go; conformance/decoding
// compares whole responses).
func TestRecordWarnings(t *testing.T) {
	long := strings.Repeat("é", 300)
	if got := recordWarnings([]string{"a", "", "b", "a"}); strings.Join(got, ",") != "a,b" {
		t.Errorf("dedupe: %q", got)
	}
	// A text no Warning header can carry (a control character, invalid UTF-8) is left out.
	if got := recordWarnings([]string{"a", "bad\x01", "bad\xff", "b"}); strings.Join(got, ",") != "a,b" {
		t.Errorf("unwritable: %q", got)
	}
	if got := recordWarnings([]string{long}); len(got) != 1 || got[0] != long {
		t.Errorf("one long warning under the limit is kept whole: %d", len(got))
	}
	var many []string
	for i := range 40 {
		many = append(many, fmt.Sprintf("%03d%s", i, long))
	}
	got := recordWarnings(many)
	// 4096 / 256 = 16 cut warnings fit.
	if len(got) != 16 {
		t.Fatalf("%d warnings kept, want 16", len(got))
	}
	for i, w := range got {
		if utf8.RuneCountInString(w) != 256 || !strings.HasPrefix(w, fmt.Sprintf("%03d", i)) {
			t.Errorf("warning %d: %d runes, %.5q", i, utf8.RuneCountInString(w), w)
		}
	}
}
