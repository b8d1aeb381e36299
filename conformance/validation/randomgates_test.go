package validation

import (
	"math/rand"
	"reflect"
	"strconv"
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/podlife/podlife"
	"github.com/podlife/podlife/conformance/internal/gatesets"
	"github.com/podlife/podlife/conformance/internal/upstreamcreate"
	"github.com/podlife/podlife/validation"
)

// TestRandomGateSetsMatchUpstream compares ValidatePodCreate, ValidatePodUpdate and
// ValidatePodTemplateSpec with the server's paths under random cluster
// configurations (gatesets.RandomSets): every gate the server lets an operator set, pod
// gates or not, a quarter of them flipped at a time, so that combinations no named
// set holds are compared — a gate podlife does not read that changes the server's
// answer shows up here. Each set must be accepted by both sides (gatesets.Apply),
// and the run asserts what it covered: inputs, the share invalid, the gates flipped,
// and answers the random gates change from the default cluster's.
func TestRandomGateSetsMatchUpstream(t *testing.T) {
	s := seed(t)
	n := count(t, 10000)
	m := n / 25 // creates per set; half as many updates and templates
	sets := gatesets.RandomSets(24, uint64(s+31))
	flipped := map[string]bool{}
	var changed int
	g, gu := newGen(s+32), newGen(s+33)
	mr := rand.New(rand.NewSource(s + 34))
	path := field.NewPath("spec", "template")
	for _, gs := range sets {
		for name := range gs.Overrides {
			flipped[name] = true
		}
		t.Run(gs.Name, func(t *testing.T) {
			gatesets.Apply(t, gs)
			opts := validation.Options{Features: gs.Features()}
			creates, updates, templates := newTally(), newTally(), newTally()
			for i := range m {
				pod, faults := g.pod()
				reqNS, kind := metaVariant(mr, pod)
				o := opts
				o.Namespace = reqNS
				cp := pod.DeepCopy()
				ours := checkOurs(t, "create", func() field.ErrorList { return validation.ValidatePodCreate(pod, o) }, []any{pod}, []any{cp})
				if !reflect.DeepEqual(keys(ours), keys(validation.ValidatePodCreate(pod, validation.Options{Namespace: reqNS}))) {
					changed++
				}
				theirs := upstreamcreate.CreateIn(t, pod, reqNS)
				creates.record(func() string {
					return describe(s+32, i, append(faults, kind, "request namespace "+strconv.Quote(reqNS), gs.Flag()), pod)
				}, ours, theirs)
				if i%2 == 1 {
					continue
				}
				tmpl := &v1.PodTemplateSpec{ObjectMeta: pod.ObjectMeta, Spec: pod.Spec}
				tmpl.Name, tmpl.Namespace = "", ""
				tc := tmpl.DeepCopy()
				ours = checkOurs(t, "template", func() field.ErrorList { return validation.ValidatePodTemplateSpec(tmpl, path, opts) }, []any{tmpl}, []any{tc})
				theirs = upstreamTemplate(t, tmpl, path)
				templates.record(func() string { return describe(s+32, i, append(faults, gs.Flag()), tmpl) }, ours, theirs)

				p := gu.updatePair(t)
				np, op := p.newPod.DeepCopy(), p.storedV1.DeepCopy()
				ours = checkOurs(t, "update", func() field.ErrorList { return validation.ValidatePodUpdate(p.newPod, p.storedV1, opts) },
					[]any{p.newPod, p.storedV1}, []any{np, op})
				ans := upstreamcreate.Update(t, p.newPod, p.stored)
				updates.recordUpdate(t, func() string { return describe(s+33, i, append(p.faults, gs.Flag()), p.newPod, p.storedV1) }, ours, ans, p.newPod)
			}
			creates.report(t, "create/"+gs.Name, s+32, minimums{inputs: m, invalidMin: 0.3, invalidMax: 0.95, families: 100})
			templates.report(t, "template/"+gs.Name, s+32, minimums{inputs: m / 2, invalidMin: 0.3, invalidMax: 0.95, families: 60})
			updates.report(t, "update/"+gs.Name, s+33, minimums{inputs: m / 2, invalidMin: 0.3, invalidMax: 0.95, families: 30})
		})
	}
	t.Logf("%d random gate sets, %d distinct gates flipped, %d creates answered otherwise than under the default gates", len(sets), len(flipped), changed)
	settable := 0
	for _, name := range podlife.KnownFeatureGates() {
		if spec, _ := podlife.LookupFeatureGate(name); !spec.LockToDefault && spec.PreRelease != "PRE-ALPHA" {
			settable++
		}
	}
	if len(flipped) < settable*3/4 {
		t.Errorf("%d of the %d settable gates flipped in some set, want three quarters", len(flipped), settable)
	}
	if changed < m/10 {
		t.Errorf("%d creates answered otherwise than under the default gates, want at least %d: the random gates no longer reach validation", changed, m/10)
	}
}
