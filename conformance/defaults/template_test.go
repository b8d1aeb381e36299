package defaults

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/apis/apps"
	_ "k8s.io/kubernetes/pkg/apis/apps/install"
	api "k8s.io/kubernetes/pkg/apis/core"
	"k8s.io/kubernetes/pkg/controller"
	deploymentstore "k8s.io/kubernetes/pkg/registry/apps/deployment"
	podtemplatestore "k8s.io/kubernetes/pkg/registry/core/podtemplate"

	"github.com/podlife/podlife"
	"github.com/podlife/podlife/conformance/internal/coverage"
	"github.com/podlife/podlife/conformance/internal/gatesets"
)

// templatesPerRun is the number of generated templates checked per gate set.
const templatesPerRun = 2000

// template turns a generated pod into a workload's pod template.
func (g *gen) template() *corev1.PodTemplateSpec {
	p := g.pod()
	t := &corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: p.Labels, Annotations: p.Annotations}, Spec: p.Spec}
	if g.p(0.2) {
		t.Finalizers = []string{"example.com/f"}
	}
	if g.p(0.1) {
		t.Finalizers = []string{}
	}
	return t
}

// upstreamTemplateViaPodTemplate stores t as a core/v1 PodTemplate.
func upstreamTemplateViaPodTemplate(t testing.TB, tmpl *corev1.PodTemplateSpec) *corev1.PodTemplateSpec {
	v := &corev1.PodTemplate{ObjectMeta: metav1.ObjectMeta{Name: "t", Namespace: "ns"}, Template: *tmpl.DeepCopy()}
	legacyscheme.Scheme.Default(v)
	internal := &api.PodTemplate{}
	must(t, legacyscheme.Scheme.Convert(v, internal, nil))
	podtemplatestore.Strategy.PrepareForCreate(context.Background(), internal)
	out := &corev1.PodTemplate{}
	must(t, legacyscheme.Scheme.Convert(internal, out, nil))
	return &out.Template
}

// upstreamTemplateViaDeployment stores t inside an apps/v1 Deployment.
func upstreamTemplateViaDeployment(t testing.TB, tmpl *corev1.PodTemplateSpec) *corev1.PodTemplateSpec {
	v := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "d", Namespace: "ns"}, Spec: appsv1.DeploymentSpec{Template: *tmpl.DeepCopy()}}
	legacyscheme.Scheme.Default(v)
	internal := &apps.Deployment{}
	must(t, legacyscheme.Scheme.Convert(v, internal, nil))
	deploymentstore.Strategy.PrepareForCreate(context.Background(), internal)
	out := &appsv1.Deployment{}
	must(t, legacyscheme.Scheme.Convert(internal, out, nil))
	return &out.Spec.Template
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

var controllerNames = []string{"web", "web-7d9f", "x", "Upper", "a.b", strings.Repeat("n", 252), strings.Repeat("n", 253), strings.Repeat("n", 254), "-bad", "ok-", "a_b"}

// upstreamPodFromTemplate builds the pod as the controller does, sends it over the
// wire (JSON) and runs the server's create path on it.
func upstreamPodFromTemplate(t testing.TB, tmpl *corev1.PodTemplateSpec, name string, ref *metav1.OwnerReference) *corev1.Pod {
	parent := &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: name}}
	pod, err := controller.GetPodFromTemplate(tmpl, parent, ref)
	must(t, err)
	b, err := json.Marshal(pod)
	must(t, err)
	wire := &corev1.Pod{}
	must(t, json.Unmarshal(b, wire))
	wire.Namespace = "ns"
	return upstreamDefault(t, wire)
}

func TestTemplatesMatchUpstream(t *testing.T) {
	s := seed(t)
	t.Logf("seed %d (override with PODLIFE_SEED)", s)
	for gi, gs := range gateSets(t) {
		t.Run(gs.Name, func(t *testing.T) {
			gatesets.Apply(t, gs.Set)
			g := newGen(s + 1000 + uint64(gi))
			opts := podlife.DefaultOptions{Features: gs.Features(), Now: fixedNow}
			n := templatesPerRun
			if gs.Name != gatesets.Defaults.Name {
				n = templatesPerRun / 6
			}
			fails := 0
			var names coverage.Counts
			fail := func(i int, what, d string, in any) {
				fails++
				b, _ := json.Marshal(in)
				t.Errorf("template %d (seed %d, gates %s) %s: %s\ninput: %s", i, s+1000+uint64(gi), gs.Name, what, d, b)
				if fails > 3 {
					t.FailNow()
				}
			}
			for i := 0; i < n; i++ {
				tmpl := g.template()
				before := tmpl.DeepCopy()
				got := podlife.DefaultTemplateWithOptions(tmpl, opts)
				if !reflect.DeepEqual(before, tmpl) {
					t.Fatalf("template %d: DefaultTemplate modified its input", i)
				}
				if d := compare(got, upstreamTemplateViaPodTemplate(t, tmpl)); d != "" {
					fail(i, "DefaultTemplate vs PodTemplate", d, before)
				}
				if d := compare(got, upstreamTemplateViaDeployment(t, tmpl)); d != "" {
					fail(i, "DefaultTemplate vs Deployment", d, before)
				}

				name := pick(g, controllerNames...)
				names.Add(name)
				var ref *metav1.OwnerReference
				if g.p(0.7) {
					ref = metav1.NewControllerRef(&appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: name, UID: "uid-1"}},
						appsv1.SchemeGroupVersion.WithKind("ReplicaSet"))
				}
				// The controller reads the stored template; try the raw one as well.
				for _, in := range []*corev1.PodTemplateSpec{tmpl, got} {
					start := timeNow()
					want := upstreamPodFromTemplate(t, in, name, ref)
					pinClock(t, want, start)
					pod := podlife.PodFromTemplate(in, podlife.PodFromTemplateOptions{
						DefaultOptions: opts, ControllerName: name, ControllerRef: ref, Namespace: "ns"})
					if d := compareWire(pod, want); d != "" {
						fail(i, fmt.Sprintf("PodFromTemplate(controller %q)", name), d, in)
					}
				}
			}
			t.Logf("%s: %d templates × (2 stored forms + 2 pods), %d disagreements; controller names %s", gs.Name, n, fails, &names)
			// Pods named "<controller>-" and, when that is no valid prefix, "<controller>".
			coverage.Require(t, "distinct controller names", len(names.Keys()), len(controllerNames))
		})
	}
}

// compareWire compares objects that went over the wire on one side: canonical JSON and
// nothing finer: JSON does not keep nil apart from empty.
func compareWire(got, want any) string {
	gj, _ := json.Marshal(got)
	wj, _ := json.Marshal(want)
	if string(gj) != string(wj) {
		return fmt.Sprintf("JSON differs:\npodlife:  %s\nupstream: %s", gj, wj)
	}
	return ""
}

// upstreamTemplateUpdate stores newT over oldT inside an apps/v1 Deployment update.
func upstreamTemplateUpdate(t testing.TB, newT, oldT *corev1.PodTemplateSpec) *corev1.PodTemplateSpec {
	conv := func(tmpl *corev1.PodTemplateSpec, defaulted bool) *apps.Deployment {
		v := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "d", Namespace: "ns"}, Spec: appsv1.DeploymentSpec{Template: *tmpl.DeepCopy()}}
		if defaulted {
			legacyscheme.Scheme.Default(v)
		}
		internal := &apps.Deployment{}
		must(t, legacyscheme.Scheme.Convert(v, internal, nil))
		return internal
	}
	newD, oldD := conv(newT, true), conv(oldT, false)
	deploymentstore.Strategy.PrepareForUpdate(context.Background(), newD, oldD)
	out := &appsv1.Deployment{}
	must(t, legacyscheme.Scheme.Convert(newD, out, nil))
	return &out.Spec.Template
}

func TestDefaultTemplateForUpdateMatchesUpstream(t *testing.T) {
	s := seed(t)
	t.Logf("seed %d (override with PODLIFE_SEED)", s)
	for gi, gs := range gateSets(t) {
		t.Run(gs.Name, func(t *testing.T) {
			gatesets.Apply(t, gs.Set)
			g := newGen(s + 3000 + uint64(gi))
			opts := podlife.DefaultOptions{Features: gs.Features()}
			n := templatesPerRun / 2
			if gs.Name != gatesets.Defaults.Name {
				n = templatesPerRun / 10
			}
			fails := 0
			for i := 0; i < n; i++ {
				var old *corev1.PodTemplateSpec
				if g.p(0.5) {
					old = upstreamTemplateViaDeployment(t, g.template())
				} else { // stored while more features were on
					old = podlife.DefaultTemplateWithOptions(g.template(), podlife.DefaultOptions{Features: storedUnder})
				}
				newT := g.template()
				if g.p(0.5) {
					newT = old.DeepCopy()
					newT.Spec.Containers = append(newT.Spec.Containers, g.container("added", 0))
				}
				bn, bo := newT.DeepCopy(), old.DeepCopy()
				got := podlife.DefaultTemplateForUpdate(newT, old, opts)
				if !reflect.DeepEqual(bn, newT) || !reflect.DeepEqual(bo, old) {
					t.Fatalf("template %d: DefaultTemplateForUpdate modified an input", i)
				}
				if d := compare(got, upstreamTemplateUpdate(t, newT, old)); d != "" {
					fails++
					nb, _ := json.Marshal(bn)
					ob, _ := json.Marshal(bo)
					t.Errorf("template update %d (seed %d, gates %s): %s\nnew: %s\nold: %s", i, s+3000+uint64(gi), gs.Name, d, nb, ob)
					if fails > 3 {
						t.FailNow()
					}
				}
			}
			t.Logf("%s: %d template updates, %d disagreements", gs.Name, n, fails)
		})
	}
}
