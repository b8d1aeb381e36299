package validation

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/podlife/podlife/internal/gates"
)

// objectCase is one ValidateObjectCreate case (old nil) or ValidateObjectUpdate case
// and the exact errors (field.Error.Error() strings, in podlife's deterministic
// order). The tables re-express the cases of upstream's own tests
// (k8s.io/kubernetes pkg/apis/apps/validation, pkg/apis/batch/validation and the
// ReplicationController and PodTemplate cases of pkg/apis/core/validation) as the
// server's create and update paths answer them: upstream calls the validation
// functions on internal objects it builds by hand, podlife's cases go through the
// decoder's defaults and the registry strategy, so where defaulting or the strategy
// settles a field upstream's case leaves open, the expectation is the server's.
//
// Every case is also written to testdata/workload_cases.json, which the conformance
// module (package workloads) replays against the upstream API server code to prove
// each expectation is upstream's answer.
type objectCase struct {
	name     string
	features gates.FeatureGates
	obj, old runtime.Object
	want     []string
}

// objectFamily groups the cases of one upstream test.
type objectFamily struct {
	name  string
	cases []objectCase
}

// objectFamilies lists every table; each workload_*_cases_test.go file adds its own in
// init.
var objectFamilies []objectFamily

func addObjectCases(name string, cases ...objectCase) {
	objectFamilies = append(objectFamilies, objectFamily{name: name, cases: cases})
}

// validate runs the case.
func (c *objectCase) validate() field.ErrorList {
	opts := Options{Features: c.features}
	if c.old == nil {
		return ValidateObjectCreate(c.obj, opts)
	}
	return ValidateObjectUpdate(c.obj, c.old, opts)
}

// TestObjectCases runs every table: exact errors, inputs untouched.
func TestObjectCases(t *testing.T) {
	dump := map[string][]string{}
	for _, fam := range objectFamilies {
		for _, c := range fam.cases {
			t.Run(fam.name+"/"+c.name, func(t *testing.T) {
				objBefore := c.obj.DeepCopyObject()
				var oldBefore runtime.Object
				if c.old != nil {
					oldBefore = c.old.DeepCopyObject()
				}
				got := errorStrings(c.validate())
				if !reflect.DeepEqual(c.obj, objBefore) || c.old != nil && !reflect.DeepEqual(c.old, oldBefore) {
					t.Fatal("input was modified")
				}
				dump[fam.name+"/"+c.name] = got
				if len(got) == 0 && len(c.want) == 0 {
					return
				}
				if !reflect.DeepEqual(got, c.want) {
					t.Errorf("errors differ\n got: %s\nwant: %s", goList(got), goList(c.want))
				}
			})
		}
	}
	// PODLIFE_DUMP_CASES=FILE writes podlife's answers per case, to help write the
	// expectations (which the conformance replay then checks against upstream).
	if f := os.Getenv("PODLIFE_DUMP_CASES"); f != "" {
		b, _ := json.MarshalIndent(dump, "", " ")
		if err := os.WriteFile(f, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestObjectCaseNames keeps case names unique within a family.
func TestObjectCaseNames(t *testing.T) {
	for _, fam := range objectFamilies {
		seen := map[string]bool{}
		for _, c := range fam.cases {
			if seen[c.name] {
				t.Errorf("%s: duplicate case %q", fam.name, c.name)
			}
			seen[c.name] = true
			if c.old != nil && reflect.TypeOf(c.old) != reflect.TypeOf(c.obj) {
				t.Errorf("%s/%s: old and new of different types", fam.name, c.name)
			}
		}
	}
}

// goldenObjectCase is the JSON form of an objectCase in testdata/workload_cases.json.
type goldenObjectCase struct {
	Name     string             `json:"name"`
	Kind     string             `json:"kind"`
	Features gates.FeatureGates `json:"features,omitempty"`
	Object   json.RawMessage    `json:"object"`
	Old      json.RawMessage    `json:"old,omitempty"`
	Want     []string           `json:"want"`
}

const objectGoldenFile = "testdata/workload_cases.json"

// kindName is the name the golden file gives the type of obj.
func kindName(obj runtime.Object) string {
	switch obj.(type) {
	case *corev1.PodTemplate:
		return "PodTemplate"
	case *corev1.ReplicationController:
		return "ReplicationController"
	case *appsv1.Deployment:
		return "Deployment"
	case *appsv1.ReplicaSet:
		return "ReplicaSet"
	case *appsv1.StatefulSet:
		return "StatefulSet"
	case *appsv1.DaemonSet:
		return "DaemonSet"
	case *batchv1.Job:
		return "Job"
	case *batchv1.CronJob:
		return "CronJob"
	}
	return fmt.Sprintf("%T", obj)
}

// jsonStable marshals obj and checks that it reads back equal, so that the replay
// validates what the table validates.
func jsonStable(t *testing.T, name string, obj runtime.Object) json.RawMessage {
	b, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	back := reflect.New(reflect.TypeOf(obj).Elem()).Interface()
	if err := json.Unmarshal(b, back); err != nil {
		t.Fatal(err)
	}
	if !equalThroughJSON(reflect.ValueOf(back), reflect.ValueOf(obj)) {
		t.Errorf("%s: the object does not survive JSON (an empty map or list the JSON drops?)", name)
	}
	return b
}

// equalThroughJSON is reflect.DeepEqual with quantities compared by their text (a
// parsed quantity caches its string, a built one may not).
func equalThroughJSON(a, b reflect.Value) bool {
	if a.Type() != b.Type() {
		return false
	}
	if q, ok := a.Interface().(resource.Quantity); ok {
		r := b.Interface().(resource.Quantity)
		return q.String() == r.String()
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return equalThroughJSON(a.Elem(), b.Elem())
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if a.Type().Field(i).IsExported() && !equalThroughJSON(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Slice, reflect.Map:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		if a.Kind() == reflect.Map {
			for _, k := range a.MapKeys() {
				if !b.MapIndex(k).IsValid() || !equalThroughJSON(a.MapIndex(k), b.MapIndex(k)) {
					return false
				}
			}
			return true
		}
		for i := 0; i < a.Len(); i++ {
			if !equalThroughJSON(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a.Interface(), b.Interface())
}

func objectGoldenBytes(t *testing.T) []byte {
	var all []goldenObjectCase
	for _, fam := range objectFamilies {
		for _, c := range fam.cases {
			name := fam.name + "/" + c.name
			g := goldenObjectCase{Name: name, Kind: kindName(c.obj), Features: c.features, Object: jsonStable(t, name, c.obj), Want: c.want}
			if c.old != nil {
				g.Old = jsonStable(t, name, c.old)
			}
			if g.Want == nil {
				g.Want = []string{}
			}
			all = append(all, g)
		}
	}
	b, err := json.MarshalIndent(all, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

// TestObjectGoldenUpToDate keeps testdata/workload_cases.json equal to the tables; run
// with PODLIFE_UPDATE_GOLDEN=1 to rewrite it.
func TestObjectGoldenUpToDate(t *testing.T) {
	want := objectGoldenBytes(t)
	if os.Getenv("PODLIFE_UPDATE_GOLDEN") != "" {
		if err := os.WriteFile(objectGoldenFile, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(objectGoldenFile)
	if err != nil {
		t.Fatalf("%v (run with PODLIFE_UPDATE_GOLDEN=1)", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is stale; run the tests with PODLIFE_UPDATE_GOLDEN=1", objectGoldenFile)
	}
}

// TestObjectCaseCounts logs the number of cases per upstream test.
func TestObjectCaseCounts(t *testing.T) {
	counts := map[string]int{}
	total := 0
	for _, fam := range objectFamilies {
		counts[strings.SplitN(fam.name, "/", 2)[0]] += len(fam.cases)
		total += len(fam.cases)
	}
	var names []string
	for n := range counts {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		t.Logf("%s: %d cases", n, counts[n])
	}
	t.Logf("total: %d cases", total)
}
