package validation

import (
	"fmt"
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
