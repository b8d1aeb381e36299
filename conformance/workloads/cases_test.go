package workloads

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/podlife/podlife"
	"github.com/podlife/podlife/conformance/internal/gatesets"
	"github.com/podlife/podlife/conformance/internal/upstreamcreate"
	"github.com/podlife/podlife/validation"
)

// goldenCase is a case of validation/testdata/workload_cases.json, the tables of
// podlife's unit tests (which re-express upstream's own validation tests).
type goldenCase struct {
	Name     string               `json:"name"`
	Kind     string               `json:"kind"`
	Features podlife.FeatureGates `json:"features,omitempty"`
	Object   json.RawMessage      `json:"object"`
	Old      json.RawMessage      `json:"old,omitempty"`
	Want     []string             `json:"want"`
}

func newObject(t testing.TB, kind string) runtime.Object {
	switch kind {
	case "PodTemplate":
		return &corev1.PodTemplate{}
	case "ReplicationController":
		return &corev1.ReplicationController{}
	case "Deployment":
		return &appsv1.Deployment{}
	case "ReplicaSet":
		return &appsv1.ReplicaSet{}
	case "StatefulSet":
		return &appsv1.StatefulSet{}
	case "DaemonSet":
		return &appsv1.DaemonSet{}
	case "Job":
		return &batchv1.Job{}
	case "CronJob":
		return &batchv1.CronJob{}
	}
	t.Fatalf("unknown kind %q", kind)
	return nil
}

func decodeObject(t testing.TB, kind string, raw json.RawMessage) runtime.Object {
	obj := newObject(t, kind)
	if err := json.Unmarshal(raw, obj); err != nil {
		t.Fatalf("decode %s: %v", kind, err)
	}
	return obj
}

// TestCasesAgainstUpstream replays every case of podlife's tables against upstream:
// podlife's answer must be the table's expectation and agree with upstream's,
// error by error (see diff).
func TestCasesAgainstUpstream(t *testing.T) {
	b, err := os.ReadFile("../../validation/testdata/workload_cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []goldenCase
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 50 {
		t.Fatalf("only %d cases in the tables", len(cases))
	}
	perKind := map[string]int{}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			gatesets.Apply(t, gatesets.Set{Name: fmt.Sprint(c.Features), Overrides: c.Features})
			obj := decodeObject(t, c.Kind, c.Object)
			opts := validation.Options{Features: c.Features}
			ours := validation.ValidateObjectCreate(obj, opts)
			var theirs field.ErrorList
			var problems []string
			if c.Old == nil {
				theirs = upstreamcreate.ObjectCreateIn(t, obj, "")
			} else {
				old := decodeObject(t, c.Kind, c.Old)
				ours = validation.ValidateObjectUpdate(obj, old, opts)
				// The PUT goes to the stored object's URL; a stored object has a
				// namespace, a name and a resourceVersion (podlife skips the checks
				// that need one it lacks; the server has them all).
				stored := asStored(old)
				ans := upstreamcreate.KindOf(t, obj).Update(t, obj, stored)
				theirs = ans.AsErrorList(t, obj)
				onStored := validation.ValidateObjectUpdate(obj, stored, opts)
				problems = append(compareRefusal(ans, onStored), diff(onStored, theirs)...)
			}
			got := make([]string, len(ours))
			for i, e := range ours {
				got[i] = e.Error()
			}
			if !reflect.DeepEqual(got, c.Want) && !(len(got) == 0 && len(c.Want) == 0) {
				t.Errorf("podlife no longer answers the table's expectation\n got: %q\nwant: %q", got, c.Want)
			}
			if c.Old == nil {
				problems = diff(ours, theirs)
			}
			if len(problems) > 0 {
				t.Errorf("the table's expectation is not upstream's answer:\n%s", strings.Join(problems, "\n"))
			}
		})
		perKind[c.Kind]++
	}
	t.Logf("%d cases replayed: %v", len(cases), perKind)
}

// asStored returns old with what every stored object has: a namespace, a name and a
// resourceVersion (those it lacks: default, stored, 1).
func asStored(old runtime.Object) runtime.Object {
	cp := old.DeepCopyObject()
	m := metaOf(cp)
	if m.Namespace == "" {
		m.Namespace = "default"
	}
	if m.Name == "" {
		m.Name = "stored"
	}
	if m.ResourceVersion == "" {
		m.ResourceVersion = "1"
	}
	return cp
}
