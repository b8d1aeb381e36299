package workloads

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"testing"
	"time"
	_ "unsafe" // go:linkname

	"github.com/go-logr/logr"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	core "k8s.io/kubernetes/pkg/apis/core"
	"k8s.io/kubernetes/pkg/controller"
	_ "k8s.io/kubernetes/pkg/controller/cronjob"
	daemonutil "k8s.io/kubernetes/pkg/controller/daemon/util"
	_ "k8s.io/kubernetes/pkg/controller/job"
	_ "k8s.io/kubernetes/pkg/controller/statefulset"
	podstore "k8s.io/kubernetes/pkg/registry/core/pod"

	"github.com/podlife/podlife"
	"github.com/podlife/podlife/conformance/internal/gatesets"
	"github.com/podlife/podlife/conformance/internal/upstreamcreate"
)

// The controllers' own steps, unexported upstream.

//go:linkname upstreamNewStatefulSetPod k8s.io/kubernetes/pkg/controller/statefulset.newStatefulSetPod
func upstreamNewStatefulSetPod(set *appsv1.StatefulSet, ordinal int) *corev1.Pod

//go:linkname upstreamAddCompletionIndexEnvVariables k8s.io/kubernetes/pkg/controller/job.addCompletionIndexEnvVariables
func upstreamAddCompletionIndexEnvVariables(template *corev1.PodTemplateSpec)

//go:linkname upstreamAddCompletionIndexAnnotation k8s.io/kubernetes/pkg/controller/job.addCompletionIndexAnnotation
func upstreamAddCompletionIndexAnnotation(template *corev1.PodTemplateSpec, index int)

//go:linkname upstreamAddCompletionIndexLabel k8s.io/kubernetes/pkg/controller/job.addCompletionIndexLabel
func upstreamAddCompletionIndexLabel(template *corev1.PodTemplateSpec, index int)

//go:linkname upstreamPodGenerateNameWithIndex k8s.io/kubernetes/pkg/controller/job.podGenerateNameWithIndex
func upstreamPodGenerateNameWithIndex(jobName string, index int) string

//go:linkname upstreamAddIndexFailureCountAnnotation k8s.io/kubernetes/pkg/controller/job.addIndexFailureCountAnnotation
func upstreamAddIndexFailureCountAnnotation(logger logr.Logger, template *corev1.PodTemplateSpec, job *batchv1.Job, podBeingReplaced *corev1.Pod)

//go:linkname upstreamAppendJobCompletionFinalizerIfNotFound k8s.io/kubernetes/pkg/controller/job.appendJobCompletionFinalizerIfNotFound
func upstreamAppendJobCompletionFinalizerIfNotFound(finalizers []string) []string

//go:linkname upstreamGetJobFromTemplate2 k8s.io/kubernetes/pkg/controller/cronjob.getJobFromTemplate2
func upstreamGetJobFromTemplate2(cj *batchv1.CronJob, scheduledTime time.Time) (*batchv1.Job, error)

// podClock is the clock podlife gets; upstream's reading on the SchedulingGated
// condition is replaced by it.
var podClock = time.Date(2026, 11, 30, 1, 2, 3, 0, time.UTC)

// upstreamControllerPod is the pod the kind's controller asks the server to create
// for stored (a v1 object as the server stores it): the first pod of a StatefulSet
// or an Indexed Job, the pod of a Deployment's template without the ReplicaSet's hash
// label and owner (podlife's documented stand-in), a PodTemplate's pod without owner.
func upstreamControllerPod(t testing.TB, stored runtime.Object) *corev1.Pod {
	t.Helper()
	fromTemplate := func(tmpl *corev1.PodTemplateSpec, parent runtime.Object, ref *metav1.OwnerReference) *corev1.Pod {
		p, err := controller.GetPodFromTemplate(tmpl, parent, ref)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	ref := func(m metav1.Object, gvk string) *metav1.OwnerReference {
		gv := map[string]string{"ReplicationController": "v1", "ReplicaSet": "apps/v1", "DaemonSet": "apps/v1", "Job": "batch/v1"}[gvk]
		return &metav1.OwnerReference{APIVersion: gv, Kind: gvk, Name: m.GetName(), UID: m.GetUID(), Controller: ptrTo(true), BlockOwnerDeletion: ptrTo(true)}
	}
	switch o := stored.(type) {
	case *corev1.PodTemplate:
		return fromTemplate(&o.Template, o, nil)
	case *corev1.ReplicationController:
		return fromTemplate(o.Spec.Template, o, ref(o, "ReplicationController"))
	case *appsv1.Deployment:
		return fromTemplate(&o.Spec.Template, o, nil)
	case *appsv1.ReplicaSet:
		return fromTemplate(&o.Spec.Template, o, ref(o, "ReplicaSet"))
	case *appsv1.DaemonSet:
		tmpl := o.Spec.Template.DeepCopy()
		daemonutil.AddOrUpdateDaemonPodTolerations(&tmpl.Spec)
		return fromTemplate(tmpl, o, ref(o, "DaemonSet"))
	case *appsv1.StatefulSet:
		start := 0
		if o.Spec.Ordinals != nil {
			start = int(o.Spec.Ordinals.Start)
		}
		return upstreamNewStatefulSetPod(o, start)
	case *batchv1.Job:
		// manageJob and CreatePodsWithGenerateName for the first pod (index 0).
		tmpl := o.Spec.Template.DeepCopy()
		indexed := o.Spec.CompletionMode != nil && *o.Spec.CompletionMode == batchv1.IndexedCompletion
		if indexed {
			upstreamAddCompletionIndexEnvVariables(tmpl)
		}
		tmpl.Finalizers = upstreamAppendJobCompletionFinalizerIfNotFound(tmpl.Finalizers)
		generateName := ""
		if indexed {
			tmpl = tmpl.DeepCopy()
			upstreamAddCompletionIndexAnnotation(tmpl, 0)
			upstreamAddCompletionIndexLabel(tmpl, 0)
			tmpl.Spec.Hostname = fmt.Sprintf("%s-%d", o.Name, 0)
			generateName = upstreamPodGenerateNameWithIndex(o.Name, 0)
			if o.Spec.BackoffLimitPerIndex != nil {
				upstreamAddIndexFailureCountAnnotation(logr.Discard(), tmpl, o, nil)
			}
		}
		p := fromTemplate(tmpl, o, ref(o, "Job"))
		if generateName != "" {
			p.GenerateName = generateName
		}
		return p
	case *batchv1.CronJob:
		// The CronJob controller's Job, stored by the server, then its first pod.
		j, err := upstreamGetJobFromTemplate2(o, podClock)
		if err != nil {
			t.Fatal(err)
		}
		j.Namespace = o.Namespace
		sj := upstreamcreate.Stored(t, j)
		if sj == nil {
			t.Fatalf("the CronJob's Job does not decode")
		}
		return upstreamControllerPod(t, sj)
	}
	t.Fatalf("no controller for %T", stored)
	return nil
}

func ptrTo[T any](v T) *T { return &v }

// sortClaimVolumes sorts by name the first n volumes of p, those a StatefulSet's n
// claim templates give its pods.
func sortClaimVolumes(p *corev1.Pod, n int) {
	if n > len(p.Spec.Volumes) {
		n = len(p.Spec.Volumes)
	}
	head := p.Spec.Volumes[:n]
	sort.Slice(head, func(i, j int) bool { return head[i].Name < head[j].Name })
}

// upstreamServerPod sends the controller's pod over the wire and runs the server's
// create-time defaults on it (the v1 defaults, the pod strategy's PrepareForCreate).
func upstreamServerPod(t testing.TB, pod *corev1.Pod, namespace string) *corev1.Pod {
	t.Helper()
	b, err := json.Marshal(pod)
	if err != nil {
		t.Fatal(err)
	}
	wire := &corev1.Pod{}
	if err := json.Unmarshal(b, wire); err != nil {
		t.Fatal(err)
	}
	wire.Namespace = namespace
	legacyscheme.Scheme.Default(wire)
	in := &core.Pod{}
	if err := legacyscheme.Scheme.Convert(wire, in, nil); err != nil {
		t.Fatal(err)
	}
	podstore.Strategy.PrepareForCreate(context.Background(), in)
	out := &corev1.Pod{}
	if err := legacyscheme.Scheme.Convert(in, out, nil); err != nil {
		t.Fatal(err)
	}
	for i := range out.Status.Conditions {
		if c := &out.Status.Conditions[i]; c.Reason == corev1.PodReasonSchedulingGated {
			c.LastTransitionTime = metav1.NewTime(podClock)
		}
	}
	return out
}

// TestPodFromObject compares podlife.PodFromObject on objects as the server stores
// them with the pod their controller makes (upstream's controller code) after the
// server's create-time defaults, under the standard gate sets. A CronJob's pod is
// compared on its spec and finalizers: its labels, name and an Indexed Job's
// hostname come from the name and uid of a Job podlife does not know (documented).
func TestPodFromObject(t *testing.T) {
	s := seed(t)
	k := scale(t)
	gatesets.Run(t, gatesets.Standard(), func(t *testing.T, gs gatesets.Set) {
		per := 150
		if gs.Name != gatesets.Defaults.Name {
			per = 40
		}
		for ki, kind := range kinds {
			g := newGen(s + 77 + int64(ki))
			compared, disagreeing, special := 0, 0, 0
			for tries := 0; compared < per*k; tries++ {
				if tries > 50*per*k {
					t.Fatalf("%s: only %d valid objects in %d draws", kind, compared, tries)
				}
				obj := g.object(kind)
				// Indexed Jobs, whose pods the controller changes most, are rare
				// among the generator's valid objects: make half of them so.
				var js *batchv1.JobSpec
				switch o := obj.(type) {
				case *batchv1.Job:
					js = &o.Spec
				case *batchv1.CronJob:
					js = &o.Spec.JobTemplate.Spec
				}
				if js != nil && js.CompletionMode == nil && g.chance(0.5) {
					js.CompletionMode = ptrTo(batchv1.IndexedCompletion)
					js.Completions = ptrTo(int32(4))
					if g.chance(0.3) {
						js.BackoffLimitPerIndex = ptrTo(int32(1))
					}
				}
				if len(upstreamcreate.ObjectCreateIn(t, obj, "")) != 0 {
					continue
				}
				stored := upstreamcreate.Stored(t, obj)
				compared++
				switch o := stored.(type) {
				case *appsv1.StatefulSet:
					if len(o.Spec.VolumeClaimTemplates) > 0 {
						special++
					}
				case *batchv1.Job:
					if m := o.Spec.CompletionMode; m != nil && *m == batchv1.IndexedCompletion {
						special++
					}
				case *batchv1.CronJob:
					if m := o.Spec.JobTemplate.Spec.CompletionMode; m != nil && *m == batchv1.IndexedCompletion {
						special++
					}
				}
				before := stored.DeepCopyObject()
				got, err := podlife.PodFromObject(stored, podlife.PodFromTemplateOptions{DefaultOptions: podlife.DefaultOptions{Features: gs.Features(), Now: podClock}})
				if err != nil {
					t.Fatalf("%s: %v", kind, err)
				}
				if !reflect.DeepEqual(before, stored) {
					t.Fatalf("%s: PodFromObject modified its input", kind)
				}
				ns := ""
				if m := metaOf(stored); m != nil {
					ns = m.Namespace
				}
				want := upstreamServerPod(t, upstreamControllerPod(t, stored), ns)
				if ss, ok := stored.(*appsv1.StatefulSet); ok {
					// The claims' volumes come first, in map order upstream.
					sortClaimVolumes(got, len(ss.Spec.VolumeClaimTemplates))
					sortClaimVolumes(want, len(ss.Spec.VolumeClaimTemplates))
				}
				var gotV, wantV any = got, want
				if kind == "CronJob" {
					// The Job is named "<cronjob>-<scheduled minute>"; podlife names it
					// after the CronJob, which shows in an Indexed Job's hostname.
					cj := stored.(*batchv1.CronJob)
					gs, ws := got.Spec, want.Spec
					if m := cj.Spec.JobTemplate.Spec.CompletionMode; m != nil && *m == batchv1.IndexedCompletion {
						if gs.Hostname != cj.Name+"-0" {
							t.Errorf("CronJob %q: hostname %q, want %q", cj.Name, gs.Hostname, cj.Name+"-0")
						}
						gs.Hostname, ws.Hostname = "", ""
					}
					gotV = []any{gs, got.Finalizers}
					wantV = []any{ws, want.Finalizers}
				}
				gj, _ := json.Marshal(gotV)
				wj, _ := json.Marshal(wantV)
				if string(gj) != string(wj) {
					disagreeing++
					if disagreeing <= 3 {
						oj, _ := json.Marshal(stored)
						t.Errorf("%s: PodFromObject differs (seed %d)\npodlife:  %s\nupstream: %s\nstored: %s", kind, s, gj, wj, oj)
					}
				}
			}
			t.Logf("%s: %d stored objects compared, %d disagreeing", kind, compared, disagreeing)
			if (kind == "StatefulSet" || kind == "Job" || kind == "CronJob") && special < compared/10 {
				t.Errorf("%s: only %d of %d objects have claim templates or Indexed completion", kind, special, compared)
			}
		}
	})
}
