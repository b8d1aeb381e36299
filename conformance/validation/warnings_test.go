package validation

import (
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"testing"

	"github.com/podlife/podlife/conformance/internal/gatesets"
	"github.com/podlife/podlife/conformance/internal/upstreamcreate"
	"github.com/podlife/podlife/conformance/internal/warngen"
	"github.com/podlife/podlife/validation"
)

// TestCreateWarningsMatchUpstream compares CreateWarnings with the warnings of the API
// server's create path (the handler's owner references, PrepareForCreate, the pod
// strategy's WarningsOnCreate, through the server's warning recorder) on generated
// pods changed to draw warnings, under each gate set, and asserts what it covered.
func TestCreateWarningsMatchUpstream(t *testing.T) {
	s := seed(t)
	n := count(t, 3000)
	union := map[string]int{}
	gatesets.Run(t, gateSets, func(t *testing.T, gs gatesets.Set) {
		m := perSet(n, gs, 5)
		g := newGen(s + 11)
		wg := warngen.New(s + 12)
		var tl warngen.Tally
		opts := validation.Options{Features: gs.Features()}
		for i := 0; i < m; i++ {
			pod, faults := g.podWith(0.15)
			wg.Pod(&pod.Spec, &pod.ObjectMeta)
			if i%4 == 0 {
				wg.Owners(&pod.ObjectMeta)
			}
			pod.Name = wg.Name(pod.Name)
			cp := pod.DeepCopy()
			ours := validation.CreateWarnings(pod, opts)
			if again := validation.CreateWarnings(pod, opts); !slices.Equal(ours, again) {
				t.Fatalf("pod %d: CreateWarnings not deterministic:\n%q\n%q", i, ours, again)
			}
			if !reflect.DeepEqual(pod, cp) {
				t.Fatalf("pod %d: CreateWarnings changed its input", i)
			}
			errs, theirs := upstreamcreate.ObjectCreateWarned(t, pod, "")
			tl.Compare(describe(s, i, append(faults, fmt.Sprintf("gates %s", gs.Name)), pod), ours, theirs, len(errs) > 0)
		}
		tl.Check(t, "create warnings/"+gs.Name, m, 0.8, union)
	})
	// Non-standard IP addresses are refused under StrictIPCIDRValidation (on by
	// default) and warned about without it.
	warngen.CheckFamilies(t, "create warnings", union, 5, warngen.PodFamilies(false))
}

// TestUpdateWarningsMatchUpstream compares UpdateWarnings with the warnings of the API
// server's update path for pods (upstreamcreate.Update, the real handler and pod
// registry, the response's Warning headers) on generated (stored pod, new object)
// pairs, the new pod often listing an owner twice and at times changed to draw the
// warnings a create would give, under each gate set. The pod strategy sends no warning on
// updates; the handler warns about the owner references, unless it refuses the
// request itself (another namespace or name).
func TestUpdateWarningsMatchUpstream(t *testing.T) {
	s := seed(t)
	n := count(t, 1500)
	union := map[string]int{}
	gatesets.Run(t, gateSets, func(t *testing.T, gs gatesets.Set) {
		m := perSet(n, gs, 5)
		g := newGen(s + 13)
		wg := warngen.New(s + 14)
		var tl warngen.Tally
		opts := validation.Options{Features: gs.Features()}
		for i := 0; i < m; i++ {
			p := g.updatePair(t)
			if i%5 == 0 {
				// Mostly refused: a pod's spec can hardly change.
				wg.Pod(&p.newPod.Spec, &p.newPod.ObjectMeta)
			}
			if i%2 == 0 {
				wg.Owners(&p.newPod.ObjectMeta)
			}
			np, op := p.newPod.DeepCopy(), p.storedV1.DeepCopy()
			ours := validation.UpdateWarnings(p.newPod, p.storedV1, opts)
			if again := validation.UpdateWarnings(p.newPod, p.storedV1, opts); !slices.Equal(ours, again) {
				t.Fatalf("pair %d: UpdateWarnings not deterministic:\n%q\n%q", i, ours, again)
			}
			if !reflect.DeepEqual(p.newPod, np) || !reflect.DeepEqual(p.storedV1, op) {
				t.Fatalf("pair %d: UpdateWarnings changed its input", i)
			}
			ans := upstreamcreate.Update(t, p.newPod, p.stored)
			tl.Compare(describe(s+13, i, append(p.faults, fmt.Sprintf("gates %s", gs.Name)), p.newPod, p.storedV1), ours, ans.Warnings, ans.Code != http.StatusOK)
		}
		tl.Check(t, "update warnings/"+gs.Name, m, 0.95, union)
	})
	for f, c := range union {
		if f != "owner-references" {
			t.Errorf("%d warnings of family %s on pod updates; the pod strategy sends none", c, f)
		}
	}
	warngen.CheckFamilies(t, "update warnings", union, 100, []string{"owner-references"})
}
