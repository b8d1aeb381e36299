package workloads

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/podlife/podlife/conformance/internal/gatesets"
	"github.com/podlife/podlife/conformance/internal/runenv"
	"github.com/podlife/podlife/conformance/internal/upstreamcreate"
	"github.com/podlife/podlife/validation"
)

// defaultSeed is the seed of a normal run; PODLIFE_SEED overrides it.
const defaultSeed = 20261201

// seed reads PODLIFE_SEED, failing on a malformed value.
func seed(t testing.TB) int64 {
	s, ok := os.LookupEnv("PODLIFE_SEED")
	if !ok {
		return defaultSeed
	}
	v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || strings.TrimSpace(s) != s {
		t.Fatalf("PODLIFE_SEED=%q: not an integer", s)
	}
	return v
}

// scale is the factor on the number of inputs: PODLIFE_SCALE (1 to 100), or else
// PODLIFE_N, the inputs per gate set the other differential tests take, as a multiple
// of the creates drawn per kind under the defaults (rounded up; a value below them
// fails, as PODLIFE_N may only raise a count), or else 1.
func scale(t testing.TB) int {
	s, ok := os.LookupEnv("PODLIFE_SCALE")
	if !ok {
		creates, _ := draws(gatesets.Defaults)
		n := runenv.Count(t, creates, creates)
		return (n + creates - 1) / creates
	}
	v, err := strconv.Atoi(s)
	if err != nil || v < 1 || v > 100 {
		t.Fatalf("PODLIFE_SCALE=%q: want an integer from 1 to 100", s)
	}
	return v
}

// gateSets are the configurations the other conformance packages use
// (gatesets.Standard: the v1.37.2 defaults, every alpha and beta gate on, every beta
// gate off, the kubelet gates flipped) and the container restart rules off.
var gateSets = gatesets.Standard(
	gatesets.Set{Name: "ContainerRestartRules=false", Overrides: map[string]bool{"ContainerRestartRules": false, "RestartAllContainersOnContainerExits": false}},
)

// draws returns the number of creates and updates drawn per kind under a gate set:
// most under the defaults.
func draws(gs gatesets.Set) (creates, updates int) {
	if gs.Name == gatesets.Defaults.Name {
		return 1200, 600
	}
	return 300, 150
}

// tally counts one kind's comparisons under one gate set.
type tally struct {
	inputs, invalid, disagreeing, errorsCompared int
	families                                     map[string]bool
	faults                                       map[string]bool
	refusals                                     map[int32]int // refusals by HTTP status
	examples                                     []string
}

func newTally() *tally {
	return &tally{families: map[string]bool{}, faults: map[string]bool{}, refusals: map[int32]int{}}
}

// record compares one answer (see diff); problems are differences found beforehand
// (a refusal's status).
func (tl *tally) record(describe func() string, faults []string, ours, theirs field.ErrorList, problems ...string) {
	tl.inputs++
	if len(theirs) > 0 {
		tl.invalid++
	}
	for _, f := range faults {
		tl.faults[f] = true
	}
	for _, e := range theirs {
		tl.families[family(e)] = true
	}
	if r, ok := validation.RefusalOf(theirs); ok {
		tl.refusals[r.Code]++
	}
	problems = append(problems, diff(ours, theirs)...)
	tl.errorsCompared += len(theirs)
	if len(problems) == 0 {
		return
	}
	tl.disagreeing++
	if len(tl.examples) < 5 {
		tl.examples = append(tl.examples, strings.Join(problems, "\n")+"\n"+describe())
	}
}

func dump(objs ...runtime.Object) string {
	var b strings.Builder
	for _, o := range objs {
		j, _ := json.Marshal(o)
		b.WriteString(fmt.Sprintf("%T %s\n", o, j))
	}
	return b.String()
}

// TestDifferential compares ValidateObjectCreate and ValidateObjectUpdate with the
// server's create and update paths on generated objects of every kind, under every
// gate set, and fails on any disagreement. It also holds the generator to its
// coverage: the number of inputs per kind, a share of invalid inputs within bounds,
// every fault knob drawn and every rule family of the kind reported by upstream.
func TestDifferential(t *testing.T) {
	s := seed(t)
	k := scale(t)
	all := map[string]*tally{} // per kind, creates and updates, over all gate sets
	for _, kind := range kinds {
		all[kind] = newTally()
	}
	gi := 0
	gatesets.Run(t, gateSets, func(t *testing.T, gs gatesets.Set) {
		defer func() { gi++ }()
		creates, updates := draws(gs)
		opts := validation.Options{Features: gs.Features()}
		for ki, kind := range kinds {
			create, update := compareKind(t, newGen(s+int64(1000*gi+ki)), kind, opts, creates*k, updates*k, "")
			for _, r := range []struct {
				what string
				tl   *tally
				want int
			}{{"create", create, creates * k}, {"update", update, updates * k}} {
				tl := r.tl
				t.Logf("%s %s: %d inputs, %d invalid upstream (%.0f%%), %d errors compared (with their Error() text), refusals %v, %d families, %d disagreeing (seed %d)",
					kind, r.what, tl.inputs, tl.invalid, 100*float64(tl.invalid)/float64(max(tl.inputs, 1)), tl.errorsCompared, tl.refusals, len(tl.families), tl.disagreeing, s)
				if tl.inputs != r.want {
					t.Errorf("%s %s: %d inputs, want %d", kind, r.what, tl.inputs, r.want)
				}
				if share := float64(tl.invalid) / float64(tl.inputs); share < 0.2 || share > 0.9 {
					t.Errorf("%s %s: %.0f%% of the inputs are invalid upstream, want 20%% to 90%%", kind, r.what, 100*share)
				}
				if tl.disagreeing > 0 {
					t.Errorf("%s %s: %d of %d inputs disagree; first ones:\n%s", kind, r.what, tl.disagreeing, tl.inputs, strings.Join(tl.examples, "\n\n"))
				}
				for f := range tl.families {
					all[kind].families[f] = true
				}
				for f := range tl.faults {
					all[kind].faults[f] = true
				}
				if r.what == "update" {
					for code, n := range tl.refusals {
						all[kind].refusals[code] += n
					}
				}
			}
		}
	})
	// Coverage over the whole run: every kind's updates refused for each reason the
	// generator draws (the 500 of a resourceVersion that is no number is rarer: over
	// all kinds).
	serverErrors := 0
	for _, kind := range kinds {
		for _, code := range []int32{http.StatusBadRequest, http.StatusConflict} {
			if all[kind].refusals[code] == 0 {
				t.Errorf("%s: no update refused with %d", kind, code)
			}
		}
		serverErrors += all[kind].refusals[http.StatusInternalServerError]
	}
	if serverErrors == 0 {
		t.Errorf("no update refused with 500")
	}
	for _, kind := range kinds {
		tl := all[kind]
		for _, f := range requiredFamilies[kind] {
			if !tl.families[f] {
				t.Errorf("%s: upstream never reported %q; the generator does not reach that rule", kind, f)
			}
		}
		if os.Getenv("PODLIFE_FAMILIES") != "" {
			var fams []string
			for f := range tl.families {
				fams = append(fams, f)
			}
			sort.Strings(fams)
			t.Logf("%s families:\n  %s", kind, strings.Join(fams, "\n  "))
		}
	}
	union := map[string]bool{}
	for _, kind := range kinds {
		for f := range all[kind].families {
			union[f] = true
		}
	}
	for _, want := range requiredAnywhere {
		if !reportedAnywhere(want, union) {
			t.Errorf("upstream never reported %q for any kind; the generator does not reach that rule", want)
		}
	}
	for _, knob := range knobs(t) {
		found := false
		for _, kind := range kinds {
			if all[kind].faults[knob] {
				found = true
			}
		}
		if !found {
			t.Errorf("fault knob %q never drawn", knob)
		}
	}
}

// compareKind compares ValidateObjectCreate and ValidateObjectUpdate with the
// server's create and update paths on creates and updates objects of kind drawn from
// g, failing t when podlife modifies its input, and returns the two tallies. note is
// added to each disagreeing input's description (the gate set, when it is not in the
// test's name).
func compareKind(t *testing.T, g *gen, kind string, opts validation.Options, creates, updates int, note string) (create, update *tally) {
	t.Helper()
	create, update = newTally(), newTally()
	for range creates {
		obj := g.object(kind)
		before := obj.DeepCopyObject()
		ours := validation.ValidateObjectCreate(obj, opts)
		if !reflect.DeepEqual(obj, before) {
			t.Fatalf("ValidateObjectCreate modified its input\n%s", dump(before))
		}
		theirs := upstreamcreate.ObjectCreateIn(t, obj, "")
		create.record(func() string { return dump(obj) + fmt.Sprint(g.faults) + note }, g.faults, ours, theirs)
	}
	for range updates {
		n, o := g.update(t, kind)
		nb, ob := n.DeepCopyObject(), o.DeepCopyObject()
		ours := validation.ValidateObjectUpdate(n, o, opts)
		if !reflect.DeepEqual(n, nb) || !reflect.DeepEqual(o, ob) {
			t.Fatalf("ValidateObjectUpdate modified its input\n%s", dump(nb, ob))
		}
		ans := upstreamcreate.KindOf(t, n).Update(t, n, o)
		theirs := ans.AsErrorList(t, n)
		update.record(func() string { return dump(n, o) + fmt.Sprint(g.faults) + note }, g.faults, ours, theirs, compareRefusal(ans, ours)...)
	}
	return create, update
}

// compareRefusal compares the status of a request the server refused before
// validation (400, 409, 500, or a panic) with the one validation.RefusalOf reads from
// podlife's answer, and checks that podlife refuses nothing the server validated.
func compareRefusal(ans upstreamcreate.UpdateAnswer, ours field.ErrorList) []string {
	r, refused := validation.RefusalOf(ours)
	var want validation.Refusal
	switch {
	case ans.Panicked:
		want = validation.Refusal{Code: http.StatusInternalServerError, Reason: metav1.StatusReasonInternalError, Message: validation.ServerPanicDetail}
	case ans.Status != nil && ans.Code != http.StatusUnprocessableEntity:
		want = validation.Refusal{Code: int32(ans.Code), Reason: ans.Status.Reason, Message: ans.Status.Message}
	default:
		if refused {
			return []string{fmt.Sprintf("upstream answered %d, podlife refuses: %+v", ans.Code, r)}
		}
		return nil
	}
	if !refused || r != want {
		return []string{fmt.Sprintf("refusal:\n   podlife:  %+v (%v)\n   upstream: %+v", r, refused, want)}
	}
	return nil
}
