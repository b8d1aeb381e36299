package validation

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"slices"
	"testing"
	"testing/iotest"

	corev1 "k8s.io/api/core/v1"

	"github.com/podlife/podlife"
)

// FuzzRefusalsAndHints checks the answers that sit around validation proper on a
// decoded pod: RefusalOf recognises exactly the one-error refusals (a renamed pod is
// a 400), every error renders (Error() marshals struct-valued bad values in their
// internal form), FeatureGateHints answers as its one-validation-per-gate definition
// (naiveFeatureGateHints), claims only errors of the first answer, names only gates
// that are off, in name order, and a stream whose reader fails ends in a ReadError
// that unwraps to the reader's error.
func FuzzRefusalsAndHints(f *testing.F) {
	f.Add([]byte(`{"metadata":{"name":"a","namespace":"default"},"spec":{"containers":[{"name":"c","image":"i"}]}}`), "b", false)
	f.Add([]byte(`{"metadata":{"name":"a"},"spec":{"containers":[{"name":"c","image":"i","securityContext":{"privileged":true}}],"hostUsers":false}}`), "a", true)
	f.Add([]byte(`{"metadata":{"name":"a","namespace":"x"},"spec":{"containers":[{"name":"c","image":"i","resources":{"requests":{"cpu":"1"}}}],"resources":{"limits":{"memory":"1Gi"}},"schedulingGates":[{"name":"g"}]}}`), "", true)
	f.Fuzz(func(t *testing.T, podJSON []byte, newName string, hints bool) {
		var pod corev1.Pod
		if json.Unmarshal(podJSON, &pod) != nil {
			return
		}
		opts := Options{Namespace: pod.Namespace}
		errs := ValidatePodCreate(&pod, opts)
		for _, e := range errs {
			_ = e.Error()
		}
		if r, ok := RefusalOf(errs); ok {
			if len(errs) != 1 || r.Message != errs[0].Detail || !slices.Contains([]int32{http.StatusBadRequest, http.StatusConflict, http.StatusInternalServerError}, r.Code) {
				t.Fatalf("refusal %+v of %v", r, errs)
			}
		}

		stored := podlife.Default(&pod)
		renamed := stored.DeepCopy()
		renamed.Name = newName
		uerrs := ValidatePodUpdate(renamed, stored, Options{})
		r, ok := RefusalOf(uerrs)
		if newName != stored.Name && stored.Name != "" && (!ok || r.Code != http.StatusBadRequest) {
			t.Fatalf("renaming %q to %q: refusal %+v (%t) of %v", stored.Name, newName, r, ok, uerrs)
		}

		if hints && len(errs) > 0 {
			if _, refused := RefusalOf(errs); refused {
				return
			}
			text := map[string]bool{}
			for _, e := range errs {
				text[e.Error()] = true
			}
			got := FeatureGateHints(&pod, opts)
			if g, w := hintsText(got), hintsText(naiveFeatureGateHints(&pod, opts)); g != w {
				t.Fatalf("hints sharing validations by gate values:\n%s\none validation per gate:\n%s", g, w)
			}
			for i, h := range got {
				if i > 0 && got[i-1].Gate >= h.Gate {
					t.Fatalf("hints not in name order: %q then %q", got[i-1].Gate, h.Gate)
				}
				if (podlife.FeatureGates{}).Enabled(h.Gate) || len(h.Fixed) == 0 {
					t.Fatalf("hint %q: gate on by default or fixes nothing", h.Gate)
				}
				for _, e := range h.Fixed {
					if !text[e.Error()] {
						t.Fatalf("hint %q claims %q, not an error of the first answer", h.Gate, e.Error())
					}
				}
			}
		}

		boom := errors.New("reader failed")
		var last ObjectResult
		for res := range ValidateStream(io.MultiReader(bytes.NewReader(podJSON), iotest.ErrReader(boom)), "pod.json", StreamOptions{}) {
			last = res
		}
		var readErr *ReadError
		if !errors.As(last.Err, &readErr) || !errors.Is(last.Err, boom) {
			t.Fatalf("stream over a failing reader ended with %v (%T)", last.Err, last.Err)
		}
	})
}
