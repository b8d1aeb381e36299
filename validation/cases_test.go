package validation

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podlife/podlife"
)

// createCase is one ValidatePodCreate case: a change to a valid base pod and the
// exact errors (field.Error.Error() strings, in podlife's deterministic order).
//
// Every case is also written to testdata/create_cases.json, which the conformance
// module (package validationrules) replays against the upstream API server code to
// prove each expectation is upstream's answer.
type createCase struct {
	name     string
	mod      func(p *corev1.Pod)
	features podlife.FeatureGates
	// privileged allows privileged containers (kube-apiserver --allow-privileged).
	privileged bool
	// namespace is Options.Namespace, the namespace of the request.
	namespace string
	want      []string
}

// caseFamily groups the cases of one rule family.
type caseFamily struct {
	name  string
	cases []createCase
}

// families lists every table; each *_test.go file adds its own in init.
var families []caseFamily

func addFamily(name string, cases ...createCase) {
	families = append(families, caseFamily{name: name, cases: cases})
}

// basePod is valid after defaulting: one container, name and namespace set.
func basePod() *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns"},
		Spec: corev1.PodSpec{
			Containers: []corev1.Container{{Name: "c", Image: "img"}},
		},
	}
}

func (c *createCase) pod() *corev1.Pod {
	p := basePod()
	if c.mod != nil {
		c.mod(p)
	}
	return p
}

func TestValidatePodCreateCases(t *testing.T) {
	for _, fam := range families {
		for _, c := range fam.cases {
			t.Run(fam.name+"/"+c.name, func(t *testing.T) {
				pod := c.pod()
				before := pod.DeepCopy()
				errs := ValidatePodCreate(pod, Options{Features: c.features, AllowPrivileged: c.privileged, Namespace: c.namespace})
				if !reflect.DeepEqual(pod, before) {
					t.Fatalf("input was modified")
				}
				got := make([]string, len(errs))
				for i, e := range errs {
					got[i] = e.Error()
				}
				if len(got) == 0 && len(c.want) == 0 {
					return
				}
				if !reflect.DeepEqual(got, c.want) {
					t.Errorf("errors differ\n got: %s\nwant: %s", goList(got), goList(c.want))
				}
			})
		}
	}
}

func goList(s []string) string {
	var b bytes.Buffer
	b.WriteString("[]string{\n")
	for _, e := range s {
		b.WriteString("\t")
		q, _ := json.Marshal(e)
		b.Write(q)
		b.WriteString(",\n")
	}
	b.WriteString("}")
	return b.String()
}

// goldenCase is the JSON form of a createCase in testdata/create_cases.json.
type goldenCase struct {
	Name       string               `json:"name"`
	Features   podlife.FeatureGates `json:"features,omitempty"`
	Privileged bool                 `json:"privileged,omitempty"`
	Namespace  string               `json:"namespace,omitempty"`
	Pod        *corev1.Pod          `json:"pod"`
	Want       []string             `json:"want"`
}

const goldenFile = "testdata/create_cases.json"

func goldenBytes(t *testing.T) []byte {
	var all []goldenCase
	for _, fam := range families {
		for _, c := range fam.cases {
			want := c.want
			if want == nil {
				want = []string{}
			}
			all = append(all, goldenCase{Name: fam.name + "/" + c.name, Features: c.features, Privileged: c.privileged, Namespace: c.namespace, Pod: c.pod(), Want: want})
		}
	}
	b, err := json.MarshalIndent(all, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

// TestGoldenUpToDate keeps testdata/create_cases.json equal to the tables. With
// PODLIFE_UPDATE_GOLDEN=1 it rewrites the file and still fails, so that a rewrite
// never passes: review the diff (the conformance module replays the file against
// upstream) and run the tests again without the variable.
func TestGoldenUpToDate(t *testing.T) {
	checkGolden(t, goldenFile, goldenBytes(t))
}

// checkGolden fails unless the file at path holds want; PODLIFE_UPDATE_GOLDEN=1
// rewrites it, and fails too.
func checkGolden(t *testing.T, path string, want []byte) {
	t.Helper()
	if os.Getenv("PODLIFE_UPDATE_GOLDEN") != "" {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Fatalf("%s rewritten; review the diff, then run the tests again without PODLIFE_UPDATE_GOLDEN", path)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with PODLIFE_UPDATE_GOLDEN=1 to write it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is stale; run the tests with PODLIFE_UPDATE_GOLDEN=1 to rewrite it, then review the diff", path)
	}
}
