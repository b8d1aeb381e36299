package validationrules

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	core "k8s.io/kubernetes/pkg/apis/core"
	corev1conv "k8s.io/kubernetes/pkg/apis/core/v1"

	"github.com/podlife/podlife"
	"github.com/podlife/podlife/conformance/internal/upstreamcreate"
	"github.com/podlife/podlife/validation"
)

type upstreamCreateCase struct {
	Table      string               `json:"table"`
	Case       string               `json:"case"`
	Fn         string               `json:"fn"`
	Features   podlife.FeatureGates `json:"features,omitempty"`
	Privileged bool                 `json:"privileged,omitempty"`
	Pod        *v1.Pod              `json:"pod"`
	Want       []string             `json:"want"`
}

type upstreamUpdateCase struct {
	Table    string               `json:"table"`
	Case     string               `json:"case"`
	Features podlife.FeatureGates `json:"features,omitempty"`
	New      *v1.Pod              `json:"new"`
	Old      *v1.Pod              `json:"old"`
	Want     []string             `json:"want"`
}

func load(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatal(err)
	}
}

// TestUpstreamTablesAgainstUpstream replays the cases podlife re-expresses from
// upstream's validation_test.go tables (validation/testdata/upstream_*_cases.json)
// through upstream, under each case's gates: creates as given (CreatePrepared, as
// Options.SkipDefaulting), updates through the real update path. Each expectation
// must be podlife's answer and podlife's answer upstream's, in order and as text.
func TestUpstreamTablesAgainstUpstream(t *testing.T) {
	var creates []upstreamCreateCase
	var updates []upstreamUpdateCase
	load(t, "../../validation/testdata/upstream_create_cases.json", &creates)
	load(t, "../../validation/testdata/upstream_update_cases.json", &updates)
	if len(creates) < 1000 || len(updates) < 90 {
		t.Fatalf("%d create and %d update cases, want at least 1000 and 90", len(creates), len(updates))
	}
	agree := 0
	for _, c := range creates {
		t.Run(c.Case, func(t *testing.T) {
			applyGates(t, c.Features)
			setPrivileged(t, c.Privileged)
			ours := validation.ValidatePodCreate(c.Pod, validation.Options{Features: c.Features, AllowPrivileged: c.Privileged, SkipDefaulting: true})
			if got := strs(ours); !reflect.DeepEqual(got, c.Want) && !(len(got) == 0 && len(c.Want) == 0) {
				t.Errorf("podlife differs from the table\npodlife: %s\n  table: %s", goList(got), goList(c.Want))
				return
			}
			theirs := upstreamcreate.CreatePrepared(t, c.Pod)
			if msg := compareDetailed(ours, theirs); msg != "" {
				t.Errorf("podlife and upstream differ:\n%s\nupstream: %s", msg, goList(strs(theirs)))
				return
			}
			agree++
		})
	}
	for _, c := range updates {
		t.Run(c.Case, func(t *testing.T) {
			applyGates(t, c.Features)
			ours := validation.ValidatePodUpdate(c.New, c.Old, validation.Options{Features: c.Features})
			if got := strs(ours); !reflect.DeepEqual(got, c.Want) && !(len(got) == 0 && len(c.Want) == 0) {
				t.Errorf("podlife differs from the table\npodlife: %s\n  table: %s", goList(got), goList(c.Want))
				return
			}
			old := c.Old.DeepCopy()
			legacyscheme.Scheme.Default(old)
			var stored core.Pod
			if err := corev1conv.Convert_v1_Pod_To_core_Pod(old, &stored, nil); err != nil {
				t.Fatal(err)
			}
			ans := upstreamcreate.Update(t, c.New, &stored)
			if r, ok := validation.RefusalOf(ours); ok || (ans.Status != nil && ans.Code != 422) {
				if !ok || ans.Status == nil || int(r.Code) != ans.Code || r.Reason != ans.Status.Reason || r.Message != ans.Status.Message {
					t.Errorf("refusal: podlife %+v (%t), upstream %d %v", r, ok, ans.Code, ans.Status)
					return
				}
			}
			if msg := compareDetailed(ours, ans.AsErrorList(t, c.New)); msg != "" {
				t.Errorf("podlife and upstream differ:\n%s", msg)
				return
			}
			agree++
		})
	}
	t.Logf("%d/%d cases agree with upstream", agree, len(creates)+len(updates))
}
