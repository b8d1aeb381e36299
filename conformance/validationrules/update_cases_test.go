package validationrules

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	core "k8s.io/kubernetes/pkg/apis/core"
	corev1conv "k8s.io/kubernetes/pkg/apis/core/v1"

	"github.com/podlife/podlife/conformance/internal/upstreamcreate"
	"github.com/podlife/podlife/validation"
)

type goldenUpdateCase struct {
	Name string   `json:"name"`
	New  *v1.Pod  `json:"new"`
	Old  *v1.Pod  `json:"old"`
	Want []string `json:"want"`
}

// TestUpdateCasesAgainstUpstream replays podlife's ValidatePodUpdate table
// (validation/testdata/update_cases.json) through the API server's real update path
// (upstreamcreate.Update: the handler, the pod registry, the stored object as given):
// each expectation must be podlife's answer, and podlife's answer upstream's, error
// for error and text for text (refusals as their status).
func TestUpdateCasesAgainstUpstream(t *testing.T) {
	b, err := os.ReadFile("../../validation/testdata/update_cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []goldenUpdateCase
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 50 {
		t.Fatalf("%d cases, want at least 50", len(cases))
	}
	agree := 0
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			ours := validation.ValidatePodUpdate(c.New, c.Old, validation.Options{})
			if got := firstLines(ours); !reflect.DeepEqual(got, c.Want) && !(len(got) == 0 && len(c.Want) == 0) {
				t.Errorf("podlife differs from the table\npodlife: %s\n  table: %s", goList(got), goList(c.Want))
				return
			}
			// The server keeps the stored pod as its create defaulted it.
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
			theirs := ans.AsErrorList(t, c.New)
			if msg := compareDetailed(ours, theirs); msg != "" {
				t.Errorf("podlife and upstream differ:\n%s\nupstream: %s", msg, goList(strs(theirs)))
				return
			}
			agree++
		})
	}
	t.Logf("%d/%d update cases agree with upstream", agree, len(cases))
}

// firstLines renders errors as their Error() text cut at the first newline, as the
// table writes them (the generic spec Forbidden carries a diff after it).
func firstLines(errs field.ErrorList) []string {
	out := make([]string, 0, len(errs))
	for _, e := range errs {
		s, _, _ := strings.Cut(e.Error(), "\n")
		out = append(out, s)
	}
	return out
}
