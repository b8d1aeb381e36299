package validation

import (
	"regexp"
	"strings"
	"sync"
	"testing"
)

// TestSuggestField asks, for each unknown field the server names in a stream of
// misspelt manifests, which field was meant.
func TestSuggestField(t *testing.T) {
	in := `apiVersion: v1
kind: Pod
metadata:
  name: a
  lables: {app: a}
spec:
  contianers:
  - name: c
    image: busybox
---
apiVersion: v1
kind: Pod
metadata: {name: b}
spec:
  containers:
  - name: c
    image: busybox
    imagePullPolice: Always
    resource: {}
    Env: []
    zz: 1
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: d}
spec:
  replica: 2
  selector: {matchLabels: {a: b}}
  template:
    metadata: {labels: {a: b}}
    spec:
      containers: [{name: c, image: busybox, ports: [{containerPort: 80, protcol: TCP}]}]
      restartPolcy: Always
---
apiVersion: batch/v1
kind: Job
metadata: {name: j}
spec:
  backofLimit: 2
  template:
    spec:
      containers: [{name: c, image: busybox}]
      restartPolicy: Never
`
	want := map[string]string{
		"metadata.lables":                                   "labels",
		"spec.contianers":                                   "containers",
		"spec.containers[0].imagePullPolice":                "imagePullPolicy",
		"spec.containers[0].resource":                       "resources",
		"spec.containers[0].Env":                            "env",
		"spec.containers[0].zz":                             "",
		"spec.replica":                                      "replicas",
		"spec.template.spec.containers[0].ports[0].protcol": "protocol",
		"spec.template.spec.restartPolcy":                   "restartPolicy",
		"spec.backofLimit":                                  "backoffLimit",
	}
	unknown := regexp.MustCompile(`unknown field "([^"]*)"`)
	seen := 0
	for r := range ValidateStream(strings.NewReader(in), "f.yaml", StreamOptions{DecodeOnly: true}) {
		for _, m := range unknown.FindAllStringSubmatch(r.Message(), -1) {
			w, listed := want[m[1]]
			if !listed {
				t.Errorf("%s %s: unexpected unknown field %q", r.Kind, r.Name, m[1])
				continue
			}
			seen++
			if got, ok := r.SuggestField(m[1]); got != w || ok != (w != "") {
				t.Errorf("%s %s: SuggestField(%q) = %q, %t; want %q", r.Kind, r.Name, m[1], got, ok, w)
			}
		}
	}
	if seen != len(want) {
		t.Errorf("%d unknown fields reported, want %d", seen, len(want))
	}

	// Fields that exist, paths the schema cannot follow, kinds without a schema.
	for r := range ValidateStream(strings.NewReader(validPod+"---\napiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n"), "f.yaml", StreamOptions{DecodeOnly: true}) {
		for _, path := range []string{"spec.containers", "spec", "metadata.labels.app", "spec.containers[0]", "", "spec.nodeName.x", "spec.volumes[0].configMap.itmes"} {
			got, ok := r.SuggestField(path)
			wantOK := r.Kind == "Pod" && path == "spec.volumes[0].configMap.itmes"
			if ok != wantOK || wantOK && got != "items" {
				t.Errorf("%s: SuggestField(%q) = %q, %t", r.Kind, path, got, ok)
			}
		}
	}
}

func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b  string
		limit int
		want  int
	}{
		{"containers", "containers", 2, 0},
		{"containers", "contianers", 2, 1},
		{"replicas", "replica", 2, 1},
		{"protocol", "protcol", 2, 1},
		{"resources", "resource", 2, 1},
		{"abc", "xyz", 2, 3},
		{"spec", "", 2, 3},
		{"backoffLimit", "backofLimit", 2, 1},
		{"imagePullPolicy", "imagePullPolice", 2, 1},
		{"ca", "ac", 1, 1},
		{"abcdef", "badcfe", 2, 3},
	} {
		if got := editDistance(tc.a, tc.b, tc.limit); got != tc.want {
			t.Errorf("editDistance(%q, %q, %d) = %d, want %d", tc.a, tc.b, tc.limit, got, tc.want)
		}
	}
}

// TestSuggestFieldConcurrent asks the results of one stream from several goroutines at
// once, before any of them has parsed the models: the answers agree (CI runs it under
// the race detector).
func TestSuggestFieldConcurrent(t *testing.T) {
	in := strings.Repeat("apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec:\n  contianers: []\n---\n", 4)
	var results []ObjectResult
	for r := range ValidateStream(strings.NewReader(in), "f.yaml", StreamOptions{DecodeOnly: true}) {
		results = append(results, r)
	}
	answers := make(chan string, 8*len(results))
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for i := range results {
				got, _ := results[i].SuggestField("spec.contianers")
				answers <- got
			}
		})
	}
	wg.Wait()
	close(answers)
	n := 0
	for a := range answers {
		n++
		if a != "containers" {
			t.Errorf("answer %q, want containers", a)
		}
	}
	if n != 8*len(results) || len(results) != 4 {
		t.Errorf("%d answers from %d results", n, len(results))
	}
}
