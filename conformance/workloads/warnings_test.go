package workloads

import (
	"net/http"
	"reflect"
	"slices"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/podlife/podlife/conformance/internal/gatesets"
	"github.com/podlife/podlife/conformance/internal/upstreamcreate"
	"github.com/podlife/podlife/conformance/internal/warngen"
	"github.com/podlife/podlife/validation"
)

// TestCreateWarningsMatchUpstream compares CreateWarnings with the warnings of the API
// server's create path (the handler's owner references, the registry strategy's
// WarningsOnCreate, through the server's warning recorder) on generated objects of
// every kind, their templates changed to draw warnings, under each gate set.
func TestCreateWarningsMatchUpstream(t *testing.T) {
	s := seed(t)
	k := scale(t)
	union := map[string]int{}
	gi := 0
	gatesets.Run(t, gateSets, func(t *testing.T, gs gatesets.Set) {
		defer func() { gi++ }()
		creates, _ := draws(gs)
		opts := validation.Options{Features: gs.Features()}
		for ki, kind := range kinds {
			g := newGen(s + int64(1000*gi+ki) + 500)
			wg := warngen.New(s + int64(1000*gi+ki) + 700)
			var tl warngen.Tally
			for i := range creates * k {
				obj := g.object(kind)
				tmpl := templateOf(obj)
				if tmpl != nil {
					wg.Pod(&tmpl.Spec, &tmpl.ObjectMeta)
				}
				m, _ := meta.Accessor(obj)
				m.SetName(wg.Name(m.GetName()))
				if i%4 == 0 {
					var om metav1.ObjectMeta
					wg.Owners(&om)
					m.SetOwnerReferences(om.OwnerReferences)
				}
				workloadWarnings(i, obj)
				before := obj.DeepCopyObject()
				ours := validation.CreateWarnings(obj, opts)
				if again := validation.CreateWarnings(obj, opts); !slices.Equal(ours, again) {
					t.Fatalf("%s %d: CreateWarnings not deterministic:\n%q\n%q", kind, i, ours, again)
				}
				if !reflect.DeepEqual(obj, before) {
					t.Fatalf("CreateWarnings modified its input\n%s", dump(before))
				}
				errs, theirs := upstreamcreate.ObjectCreateWarned(t, obj, "")
				tl.Compare(dump(obj)+" gates "+gs.Name, ours, theirs, len(errs) > 0)
			}
			tl.Check(t, "create warnings/"+gs.Name+"/"+kind, creates*k, 0.95, union)
		}
	})
	warngen.CheckFamilies(t, "create warnings", union, 5, append(warngen.PodFamilies(true), "revision-history", "claim-bytes", "indexed-job"))
}

// TestUpdateWarningsMatchUpstream compares UpdateWarnings with the warnings of the API
// server's update path (the update handler's owner references, the registry
// strategy's WarningsOnUpdate, through the server's warning recorder, read from the
// response's Warning headers) on generated updates of every kind under each gate
// set. The templates are changed to draw warnings in the new object, in the stored
// one or in both with the template left as stored (then only an update that moves
// the generation on for another reason warns about it); CronJobs keep a schedule
// with TZ that validation lets an update keep.
func TestUpdateWarningsMatchUpstream(t *testing.T) {
	s := seed(t)
	k := scale(t)
	union := map[string]int{}
	var unchanged, unchangedAccepted, unchangedWarned int
	gi := 0
	gatesets.Run(t, gateSets, func(t *testing.T, gs gatesets.Set) {
		defer func() { gi++ }()
		_, updates := draws(gs)
		opts := validation.Options{Features: gs.Features()}
		for ki, kind := range kinds {
			g := newGen(s + int64(1000*gi+ki) + 800)
			wg := warngen.New(s + int64(1000*gi+ki) + 900)
			var tl warngen.Tally
			for i := range updates * k {
				n, o := g.update(t, kind)
				nt, ot := templateOf(n), templateOf(o)
				switch {
				case nt == nil || ot == nil:
				case i%4 == 0:
					// The stored template warns; the new one is the same.
					wg.Pod(&ot.Spec, &ot.ObjectMeta)
					ot.DeepCopyInto(nt)
					unchanged++
				case i%4 == 1:
					wg.Pod(&ot.Spec, &ot.ObjectMeta)
					wg.Pod(&nt.Spec, &nt.ObjectMeta)
				default:
					wg.Pod(&nt.Spec, &nt.ObjectMeta)
				}
				if i%3 == 0 {
					var om metav1.ObjectMeta
					wg.Owners(&om)
					metaOf(n).OwnerReferences = om.OwnerReferences
				}
				workloadWarnings(i, n)
				if ns, ok := n.(*appsv1.StatefulSet); ok && i%3 == 1 {
					// The claims cannot change: the stored object has the same.
					o.(*appsv1.StatefulSet).Spec.VolumeClaimTemplates = slices.Clone(ns.Spec.VolumeClaimTemplates)
				}
				if nj, ok := n.(*batchv1.Job); ok && i%3 == 0 {
					// Completions and the completion mode cannot change: the stored
					// Job has them, and a change of parallelism moves the generation.
					oj := o.(*batchv1.Job)
					oj.Spec.CompletionMode, oj.Spec.Completions = nj.Spec.CompletionMode, nj.Spec.Completions
					oj.Spec.Parallelism = pick(g, nj.Spec.Parallelism, i32(20_001))
				}
				if nc, ok := n.(*batchv1.CronJob); ok && i%3 == 1 {
					oc := o.(*batchv1.CronJob)
					oc.Spec.Schedule = "TZ=UTC 0 0 * * *"
					nc.Spec.Schedule = pick(g, oc.Spec.Schedule, "CRON_TZ=UTC @daily")
				}
				n, o = jsonRoundTrip(t, n), jsonRoundTrip(t, o)
				nb, ob := n.DeepCopyObject(), o.DeepCopyObject()
				ours := validation.UpdateWarnings(n, o, opts)
				if again := validation.UpdateWarnings(n, o, opts); !slices.Equal(ours, again) {
					t.Fatalf("%s %d: UpdateWarnings not deterministic:\n%q\n%q", kind, i, ours, again)
				}
				if !reflect.DeepEqual(n, nb) || !reflect.DeepEqual(o, ob) {
					t.Fatalf("UpdateWarnings modified its input\n%s", dump(nb, ob))
				}
				ans := upstreamcreate.KindOf(t, n).Update(t, n, o)
				if i%4 == 0 && ans.Code == http.StatusOK {
					unchangedAccepted++
					if slices.ContainsFunc(ans.Warnings, templateWarning) {
						unchangedWarned++
					}
				}
				tl.Compare(dump(n, o)+" gates "+gs.Name, ours, ans.Warnings, ans.Code != http.StatusOK)
			}
			tl.Check(t, "update warnings/"+gs.Name+"/"+kind, updates*k, 0.95, union)
		}
	})
	t.Logf("a template that warns left as stored: %d updates, %d accepted, %d of those with the template's warnings", unchanged, unchangedAccepted, unchangedWarned)
	if unchangedWarned < 50 || unchangedAccepted-unchangedWarned < 50 {
		t.Errorf("accepted updates leaving a template that warns as stored: %d, %d of them with its warnings: want at least 50 with (the generation moved on) and 50 without", unchangedAccepted, unchangedWarned)
	}
	families := []string{"owner-references", "revision-history", "claim-bytes", "indexed-job", "cron-tz"}
	for _, f := range warngen.PodFamilies(true) {
		if f != "dns-label-name" {
			families = append(families, f)
		}
	}
	warngen.CheckFamilies(t, "update warnings", union, 5, families)
	if union["dns-label-name"] > 0 {
		t.Errorf("%d name warnings on update; the strategies send none", union["dns-label-name"])
	}
}

// templateWarning reports whether a warning is one of a pod template's.
func templateWarning(text string) bool {
	return slices.Contains(warngen.PodFamilies(true), warngen.Family(text)) && warngen.Family(text) != "owner-references"
}

// workloadWarnings gives some objects the fields only a workload warns about: a
// StatefulSet's negative revision history limit and fractional claim storage, an
// Indexed Job's completions and parallelism past the tracking limits.
func workloadWarnings(i int, obj runtime.Object) {
	switch o := obj.(type) {
	case *appsv1.StatefulSet:
		if i%3 == 0 {
			v := int32(-1)
			o.Spec.RevisionHistoryLimit = &v
		}
		if i%3 == 1 && len(o.Spec.VolumeClaimTemplates) > 0 {
			// 1.5Gi would be a whole number of bytes.
			o.Spec.VolumeClaimTemplates[0].Spec.Resources.Requests = corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("10.5")}
			o.Spec.VolumeClaimTemplates[0].Spec.Resources.Limits = corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("1500m")}
		}
	case *batchv1.Job:
		if i%3 == 0 {
			mode := batchv1.IndexedCompletion
			c, p := int32(200_000), int32(20_000)
			o.Spec.CompletionMode, o.Spec.Completions, o.Spec.Parallelism = &mode, &c, &p
		}
	}
}
