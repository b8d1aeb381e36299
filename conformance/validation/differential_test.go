package validation

import (
	"fmt"
	"math/rand"
	"reflect"
	"strconv"
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

// TestCreateMatchesUpstream compares ValidatePodCreate with the API server's create
// path on generated pods, under each gate set.
func TestCreateMatchesUpstream(t *testing.T) {
	s := seed(t)
	n := count(t, 10000)
	gatesets.Run(t, gateSets, func(t *testing.T, gs gatesets.Set) {
		m := n
		if gs.Name != gatesets.Defaults.Name {
			m = n / 5
		}
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
			opts := validation.Options{Features: gs.Features(), Namespace: reqNS}
			cp := pod.DeepCopy()
			ours := checkOurs(t, "create", func() field.ErrorList { return validation.ValidatePodCreate(pod, opts) }, []any{pod}, []any{cp})
			theirs := upstreamcreate.CreateIn(t, pod, reqNS)
			tl.record(func() string {
				return describe(s, i, append(faults, kind, "request namespace "+strconv.Quote(reqNS)), pod)
			}, ours, theirs)
		}
		t.Logf("metadata variants: %v", kinds)
		tl.report(t, "create/"+gs.Name, s)
	})
}

// TestUpdateMatchesUpstream compares ValidatePodUpdate with the API server's update
// path on generated (stored pod, new object) pairs, under each gate set.
func TestUpdateMatchesUpstream(t *testing.T) {
	s := seed(t)
	n := count(t, 10000)
	gatesets.Run(t, gateSets, func(t *testing.T, gs gatesets.Set) {
		m := n
		if gs.Name != gatesets.Defaults.Name {
			m = n / 10
		}
		g := newGen(s + 1)
		tl := newTally()
		opts := validation.Options{Features: gs.Features()}
		for i := 0; i < m; i++ {
			p := g.updatePair(t)
			np, op := p.newPod.DeepCopy(), p.storedV1.DeepCopy()
			ours := checkOurs(t, "update", func() field.ErrorList { return validation.ValidatePodUpdate(p.newPod, p.storedV1, opts) },
				[]any{p.newPod, p.storedV1}, []any{np, op})
			theirs := upstreamUpdate(t, p.newPod, p.stored)
			tl.record(func() string { return describe(s+1, i, p.faults, p.newPod, p.storedV1) }, ours, theirs)
		}
		tl.report(t, "update/"+gs.Name, s+1)
	})
}

// TestTemplateMatchesUpstream compares ValidatePodTemplateSpec with upstream's
// template path on the generated pods turned into templates.
func TestTemplateMatchesUpstream(t *testing.T) {
	s := seed(t)
	n := count(t, 10000)
	gatesets.Run(t, gateSets, func(t *testing.T, gs gatesets.Set) {
		m := n / 2
		if gs.Name != gatesets.Defaults.Name {
			m = n / 10
		}
		g := newGen(s + 2)
		tl := newTally()
		opts := validation.Options{Features: gs.Features()}
		path := field.NewPath("spec", "template")
		for i := 0; i < m; i++ {
			pod, faults := g.pod()
			tmpl := &v1.PodTemplateSpec{ObjectMeta: pod.ObjectMeta, Spec: pod.Spec}
			tmpl.Name, tmpl.Namespace = "", ""
			cp := tmpl.DeepCopy()
			ours := checkOurs(t, "template", func() field.ErrorList { return validation.ValidatePodTemplateSpec(tmpl, path, opts) }, []any{tmpl}, []any{cp})
			theirs := upstreamTemplate(t, tmpl, path)
			tl.record(func() string { return describe(s+2, i, faults, tmpl) }, ours, theirs)
		}
		tl.report(t, "template/"+gs.Name, s+2)
	})
}
