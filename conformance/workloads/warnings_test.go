package workloads

import (
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
	warngen.CheckFamilies(t, "create warnings", union, 5, append(warngen.PodFamilies(true), "revision-history", "indexed-job"))
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
			o.Spec.VolumeClaimTemplates[0].Spec.Resources.Requests = corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("1.5Gi")}
		}
	case *batchv1.Job:
		if i%3 == 0 {
			mode := batchv1.IndexedCompletion
			c, p := int32(200_000), int32(20_000)
			o.Spec.CompletionMode, o.Spec.Completions, o.Spec.Parallelism = &mode, &c, &p
		}
	}
}
