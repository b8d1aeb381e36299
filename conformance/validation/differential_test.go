package validation

import (
	"fmt"
	"math/rand"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/podlife/podlife/conformance/internal/gatesets"
	"github.com/podlife/podlife/conformance/internal/upstreamcreate"
	"github.com/podlife/podlife/validation"
)

// keys renders a list in order, to check that podlife is deterministic.
func keys(l field.ErrorList) []string {
	out := make([]string, len(l))
	for i, e := range l {
		out[i] = errKey(e) + " | " + fmt.Sprintf("%q", e.Detail)
	}
	return out
}

// checkOurs runs fn twice and fails on a mutated input or a different answer.
func checkOurs(t *testing.T, what string, fn func() field.ErrorList, inputs []any, copies []any) field.ErrorList {
	t.Helper()
	first := fn()
	second := fn()
	if !reflect.DeepEqual(keys(first), keys(second)) {
		t.Fatalf("%s: podlife not deterministic:\n%v\n%v", what, keys(first), keys(second))
	}
	for i := range inputs {
		if !reflect.DeepEqual(inputs[i], copies[i]) {
			t.Fatalf("%s: podlife mutated its input", what)
		}
	}
	return first
}

// perSet is the share of the inputs each gate set other than the defaults gets.
func perSet(n int, gs gatesets.Set, div int) int {
	if gs.Name == gatesets.Defaults.Name {
		return n
	}
	return n / div
}

// TestCreateMatchesUpstream compares ValidatePodCreate with the API server's create
// path on generated pods, under each gate set, and asserts what the run covered.
func TestCreateMatchesUpstream(t *testing.T) {
	s := seed(t)
	n := count(t, 10000)
	union := map[string]int{}
	gatesets.Run(t, gateSets, func(t *testing.T, gs gatesets.Set) {
		m := perSet(n, gs, 5)
		g := newGen(s)
		// A second stream varies the metadata, so that the pods of g stay those
		// of earlier runs.
		mr := rand.New(rand.NewSource(s + 7))
		tl := newTally()
		kinds := map[string]int{}
		for i := 0; i < m; i++ {
			pod, faults := g.pod()
			reqNS, kind := metaVariant(mr, pod)
			kinds[kind]++
			tl.fields.pod(pod)
			opts := validation.Options{Features: gs.Features(), Namespace: reqNS}
			cp := pod.DeepCopy()
			ours := checkOurs(t, "create", func() field.ErrorList { return validation.ValidatePodCreate(pod, opts) }, []any{pod}, []any{cp})
			theirs := upstreamcreate.CreateIn(t, pod, reqNS)
			if r, ok := validation.RefusalOf(ours); ok {
				tl.refusals[strconv.Itoa(int(r.Code))]++
			}
			tl.record(func() string {
				return describe(s, i, append(faults, kind, "request namespace "+strconv.Quote(reqNS)), pod)
			}, ours, theirs)
		}
		t.Logf("metadata variants: %v", kinds)
		tl.fields.requireAll(t, "create/"+gs.Name)
		tl.report(t, "create/"+gs.Name, s, minimums{inputs: m, invalidMin: 0.4, invalidMax: 0.9, families: minFamilies(gs, 560, 340), ordered: m / 4})
		for f, c := range tl.seen {
			union[f] += c
		}
	})
	requireFamilies(t, "create", union, "testdata/create_families.txt")
}

// TestUpdateMatchesUpstream compares ValidatePodUpdate with the API server's update
// path (its real handler and pod registry, upstreamcreate.Update) on generated
// (stored pod, new object) pairs, under each gate set.
func TestUpdateMatchesUpstream(t *testing.T) {
	s := seed(t)
	n := count(t, 10000)
	union := map[string]int{}
	gatesets.Run(t, gateSets, func(t *testing.T, gs gatesets.Set) {
		m := perSet(n, gs, 10)
		g := newGen(s + 1)
		tl := newTally()
		opts := validation.Options{Features: gs.Features()}
		for i := 0; i < m; i++ {
			p := g.updatePair(t)
			tl.fields.pod(p.newPod)
			np, op := p.newPod.DeepCopy(), p.storedV1.DeepCopy()
			ours := checkOurs(t, "update", func() field.ErrorList { return validation.ValidatePodUpdate(p.newPod, p.storedV1, opts) },
				[]any{p.newPod, p.storedV1}, []any{np, op})
			ans := upstreamcreate.Update(t, p.newPod, p.stored)
			tl.recordUpdate(t, func() string { return describe(s+1, i, p.faults, p.newPod, p.storedV1) }, ours, ans, p.newPod)
		}
		if gs.Name == gatesets.Defaults.Name {
			tl.fields.requireAll(t, "update/"+gs.Name)
		}
		tl.report(t, "update/"+gs.Name, s+1, minimums{inputs: m, invalidMin: 0.35, invalidMax: 0.9, families: minFamilies(gs, 480, 190), ordered: m / 8})
		if gs.Name == gatesets.Defaults.Name {
			for _, code := range []string{"400", "409", "500"} {
				if tl.refusals[code] == 0 {
					t.Errorf("update/%s: no refusal with status %s", gs.Name, code)
				}
			}
		}
		for f, c := range tl.seen {
			union[f] += c
		}
	})
	requireFamilies(t, "update", union, "testdata/update_families.txt")
}

// TestTemplateMatchesUpstream compares ValidatePodTemplateSpec with upstream's
// template path on the generated pods turned into templates.
func TestTemplateMatchesUpstream(t *testing.T) {
	s := seed(t)
	n := count(t, 10000)
	union := map[string]int{}
	gatesets.Run(t, gateSets, func(t *testing.T, gs gatesets.Set) {
		m := perSet(n/2, gs, 5)
		g := newGen(s + 2)
		tl := newTally()
		opts := validation.Options{Features: gs.Features()}
		path := field.NewPath("spec", "template")
		for i := 0; i < m; i++ {
			pod, faults := g.pod()
			tmpl := &v1.PodTemplateSpec{ObjectMeta: pod.ObjectMeta, Spec: pod.Spec}
			tmpl.Name, tmpl.Namespace = "", ""
			tl.fields.pod(&v1.Pod{Spec: tmpl.Spec})
			cp := tmpl.DeepCopy()
			ours := checkOurs(t, "template", func() field.ErrorList { return validation.ValidatePodTemplateSpec(tmpl, path, opts) }, []any{tmpl}, []any{cp})
			theirs := upstreamTemplate(t, tmpl, path)
			tl.record(func() string { return describe(s+2, i, faults, tmpl) }, ours, theirs)
		}
		if gs.Name == gatesets.Defaults.Name {
			tl.fields.requireAll(t, "template/"+gs.Name)
		}
		tl.report(t, "template/"+gs.Name, s+2, minimums{inputs: m, invalidMin: 0.35, invalidMax: 0.9, families: minFamilies(gs, 480, 260), ordered: m / 5})
		for f, c := range tl.seen {
			union[f] += c
		}
	})
	requireFamilies(t, "template", union, "testdata/template_families.txt")
}

// requireFamilies fails t unless upstream reported, in some gate set, each rule
// family the file lists (one per line; # starts a comment). The list holds the
// families four seeds all reached; under another seed (PODLIFE_SEED) a rare one may
// be missed by chance, so such a run may miss up to missableShare of them (named in
// the log) and fails beyond that.
func requireFamilies(t *testing.T, what string, seen map[string]int, file string) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var want, miss []string
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			want = append(want, l)
		}
	}
	if len(want) < 200 {
		t.Fatalf("%s: only %d families listed", file, len(want))
	}
	for _, f := range want {
		if seen[f] == 0 {
			miss = append(miss, f)
		}
	}
	if len(miss) == 0 {
		return
	}
	msg := fmt.Sprintf("%s: no input made upstream report these %d of the %d rule families of %s:\n  %s", what, len(miss), len(want), file, strings.Join(miss, "\n  "))
	if seed(t) != defaultSeed && float64(len(miss)) <= missableShare*float64(len(want)) {
		t.Log(msg)
		return
	}
	t.Error(msg)
}

// missableShare is the share of the listed rule families a run under a seed other
// than defaultSeed may miss: seeds 424242, 9001 and 77 missed 0 to 6 of each list, at
// most 6 of the 316 update families (1.9%).
const missableShare = 0.03

// minFamilies is the number of distinct rule families a gate set's run must see:
// def for the full default run, other for the smaller runs of the other sets.
func minFamilies(gs gatesets.Set, def, other int) int {
	if gs.Name == gatesets.Defaults.Name {
		return def
	}
	return other
}
