// Package defaults checks podlife.Default, DefaultTemplate and PodFromTemplate against
// the upstream API server code: v1 defaulting through the legacy scheme, conversion to
// the internal type, the pod registry's PrepareForCreate and conversion back to v1.
package defaults

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	api "k8s.io/kubernetes/pkg/apis/core"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	podstore "k8s.io/kubernetes/pkg/registry/core/pod"

	"github.com/podlife/podlife"
	"github.com/podlife/podlife/conformance/internal/coverage"
	"github.com/podlife/podlife/conformance/internal/fieldfill"
	"github.com/podlife/podlife/conformance/internal/gatesets"
	"github.com/podlife/podlife/conformance/internal/runenv"
)

// podsPerRun is the number of generated pods checked under the default gates; the other
// sets check an eighth or a fifth as many (PODLIFE_N overrides podsPerRun, down to
// minPods). minLeafHits is how often every PodSpec leaf must be set in the inputs of
// each gate set.
const (
	podsPerRun  = 10000
	minPods     = 5000
	minLeafHits = 3
)

// fixedNow is the clock podlife gets; upstream's clock reading is replaced by it after
// checking that upstream did stamp a time.
var fixedNow = time.Date(2026, 11, 30, 1, 2, 3, 0, time.UTC)

// gateSet is one feature-gate configuration (applied upstream and to podlife by
// gatesets) with the number of pods compared under it.
type gateSet struct {
	gatesets.Set
	pods int
}

func set(name string, pods int, overrides map[string]bool) gateSet {
	return gateSet{gatesets.Set{Name: name, Overrides: overrides}, pods}
}

// gateSets are the standard sets (gatesets.Standard) and the gates defaulting reads,
// flipped, with podsPerRun pods.
func gateSets(t testing.TB) []gateSet {
	podsPerRun := runenv.Count(t, podsPerRun, minPods)
	var out []gateSet
	for _, s := range gatesets.Standard() {
		n := podsPerRun / 8
		if s.Name == gatesets.Defaults.Name {
			n = podsPerRun
		}
		out = append(out, gateSet{s, n})
	}
	return append(out,
		set("PodLevelResourcesFixDefaulting=false", podsPerRun/8, map[string]bool{"PodLevelResourcesFixDefaulting": false}),
		set("PodLevelResources=false", podsPerRun/5, map[string]bool{"PodLevelResources": false, "PodLevelResourcesFixDefaulting": false,
			"PodLevelResourcesFixKubeletQOSClass": false, "InPlacePodLevelResourcesVerticalScaling": false}),
		set("PodLevelResourcesFixKubeletQOSClass=false", podsPerRun/8, map[string]bool{"PodLevelResourcesFixKubeletQOSClass": false}),
		set("alpha-on", podsPerRun/8, map[string]bool{"H2CContainerProbe": true, "NodeDeclaredFeatures": true, "ContainerStopSignals": true,
			"GRPCContainerProbeTLS": true, "AtomicWriteVolumeUserFields": true, "EmptyDirVolumeMode": true, "VolumeBindMountOptions": true,
			"GenericWorkload": true, "EvictionRequestAPI": true, "TaintTolerationComparisonOperators": true, "CSIVolumeHealth": true,
			"DRANodeAllocatableResources": true, "ImageVolumeWithDigest": true, "PodLogsQuerySplitStreams": true}),
		set("beta-off", podsPerRun/8, map[string]bool{"ContainerRestartRules": false, "RestartAllContainersOnContainerExits": false, "EnvFiles": false,
			"ClusterTrustBundleProjection": false, "PodCertificateRequest": false, "MatchLabelKeysInPodTopologySpread": false,
			"MatchLabelKeysInPodTopologySpreadSelectorMerge": false, "PodDeletionCost": false, "ResourceHealthStatus": false,
			"ResourceHealthStatusMessage": false, "SELinuxMount": false, "InPlacePodLevelResourcesVerticalScaling": false}),
		set("SelectorMerge=false", podsPerRun/8, map[string]bool{"MatchLabelKeysInPodTopologySpreadSelectorMerge": false}),
	)
}

// upstreamDefault runs the API server's create path on a copy of pod.
func upstreamDefault(t testing.TB, pod *corev1.Pod) *corev1.Pod {
	v := pod.DeepCopy()
	legacyscheme.Scheme.Default(v)
	internal := &api.Pod{}
	if err := legacyscheme.Scheme.Convert(v, internal, nil); err != nil {
		t.Fatalf("convert to internal: %v", err)
	}
	podstore.Strategy.PrepareForCreate(context.Background(), internal)
	out := &corev1.Pod{}
	if err := legacyscheme.Scheme.Convert(internal, out, nil); err != nil {
		t.Fatalf("convert to v1: %v", err)
	}
	return out
}

// pinClock replaces the time upstream stamped on the SchedulingGated condition.
func pinClock(t testing.TB, pod *corev1.Pod, start time.Time) {
	for i := range pod.Status.Conditions {
		c := &pod.Status.Conditions[i]
		if c.Reason == corev1.PodReasonSchedulingGated {
			if c.LastTransitionTime.Time.Before(start.Add(-time.Second)) {
				t.Errorf("upstream stamped %v, before the test started", c.LastTransitionTime)
			}
			c.LastTransitionTime = metav1.NewTime(fixedNow)
		}
	}
}

// compare reports how got differs from want: byte-exact canonical JSON, semantic
// equality, and a strict walk that also tells nil from empty and compares quantities
// by their canonical string.
func compare(got, want any) string {
	gj, err1 := json.Marshal(got)
	wj, err2 := json.Marshal(want)
	if err1 != nil || err2 != nil {
		return fmt.Sprintf("marshal: %v %v", err1, err2)
	}
	if string(gj) != string(wj) {
		return fmt.Sprintf("JSON differs:\npodlife:  %s\nupstream: %s", gj, wj)
	}
	if !apiequality.Semantic.DeepEqual(got, want) {
		return "not semantically equal"
	}
	if d := strictDiff(reflect.ValueOf(got), reflect.ValueOf(want), "$"); d != "" {
		return "strict: " + d
	}
	return ""
}

var (
	quantityType = reflect.TypeOf(resource.Quantity{})
	timeType     = reflect.TypeOf(metav1.Time{})
)

func strictDiff(a, b reflect.Value, path string) string {
	if a.Type() != b.Type() {
		return path + ": type"
	}
	switch a.Type() {
	case quantityType:
		qa, qb := a.Interface().(resource.Quantity), b.Interface().(resource.Quantity)
		if qa.String() != qb.String() {
			return fmt.Sprintf("%s: %s vs %s", path, qa.String(), qb.String())
		}
		return ""
	case timeType:
		ta, tb := a.Interface().(metav1.Time), b.Interface().(metav1.Time)
		if !ta.Equal(&tb) {
			return path + ": time"
		}
		return ""
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return fmt.Sprintf("%s: nil %v vs %v", path, a.IsNil(), b.IsNil())
			}
			return ""
		}
		return strictDiff(a.Elem(), b.Elem(), path)
	case reflect.Slice:
		if a.IsNil() != b.IsNil() {
			return fmt.Sprintf("%s: nil slice %v vs %v", path, a.IsNil(), b.IsNil())
		}
		if a.Len() != b.Len() {
			return path + ": length"
		}
		for i := 0; i < a.Len(); i++ {
			if d := strictDiff(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i)); d != "" {
				return d
			}
		}
	case reflect.Map:
		if a.IsNil() != b.IsNil() {
			return fmt.Sprintf("%s: nil map %v vs %v", path, a.IsNil(), b.IsNil())
		}
		if a.Len() != b.Len() {
			return path + ": map length"
		}
		for _, k := range a.MapKeys() {
			bv := b.MapIndex(k)
			if !bv.IsValid() {
				return fmt.Sprintf("%s[%v]: missing", path, k)
			}
			if d := strictDiff(a.MapIndex(k), bv, fmt.Sprintf("%s[%v]", path, k)); d != "" {
				return d
			}
		}
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if !a.Type().Field(i).IsExported() {
				continue
			}
			if d := strictDiff(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name); d != "" {
				return d
			}
		}
	default:
		if a.Interface() != b.Interface() {
			return fmt.Sprintf("%s: %v vs %v", path, a.Interface(), b.Interface())
		}
	}
	return ""
}

func TestDefaultMatchesUpstream(t *testing.T) {
	s := seed(t)
	t.Logf("seed %d (override with PODLIFE_SEED)", s)
	total := 0
	sets := gateSets(t)
	for gi, gs := range sets {
		t.Run(gs.Name, func(t *testing.T) {
			gatesets.Apply(t, gs.Set)
			g := newGen(s + uint64(gi))
			opts := podlife.DefaultOptions{Features: gs.Features(), Now: fixedNow}
			failures := 0
			var cov pathCoverage
			fields := fieldfill.NewCoverage(reflect.TypeOf(corev1.PodSpec{}))
			for i := 0; i < gs.pods; i++ {
				pod := g.pod()
				before := pod.DeepCopy()
				fields.Record(&before.Spec)
				start := time.Now()
				want := upstreamDefault(t, pod)
				pinClock(t, want, start)
				got := podlife.DefaultWithOptions(pod, opts)
				cov.add(before, want)
				if !reflect.DeepEqual(before, pod) {
					t.Fatalf("pod %d: podlife modified its input", i)
				}
				if d := compare(got, want); d != "" {
					failures++
					in, _ := json.Marshal(before)
					t.Errorf("pod %d (seed %d, gates %s): %s\ninput: %s", i, s+uint64(gi), gs.Name, d, in)
					if failures > 3 {
						t.FailNow()
					}
				}
			}
			total += gs.pods
			t.Logf("%s: %d pods, 0 disagreements allowed; coverage %s", gs.Name, gs.pods, cov)
			// Every field of the PodSpec, to its leaves, is in the inputs of every gate set.
			if missing := fields.Below(minLeafHits); len(missing) > 0 {
				t.Errorf("%d of %d PodSpec leaves reached fewer than %d times: %v", len(missing), len(fields.Paths()), minLeafHits, missing)
			}
			cov.assert(t, gs.pods, gs.Features().Enabled("PodLevelResources"))
		})
	}
	t.Logf("%d pods compared over %d gate sets", total, len(sets))
}

func TestDefaultNilPod(t *testing.T) {
	if podlife.Default(nil) != nil {
		t.Fatal("Default(nil) must be nil")
	}
}

// pathCoverage counts how often the generated pods reach the interesting defaulting paths,
// so that a weak generator shows in the log.
type pathCoverage struct {
	podLevelChanged, schedulingGated, appArmorCopied, pullAlways, requestsFromLimits int
	qos                                                                              map[corev1.PodQOSClass]int
}

func (c *pathCoverage) add(in, out *corev1.Pod) {
	if c.qos == nil {
		c.qos = map[corev1.PodQOSClass]int{}
	}
	c.qos[out.Status.QOSClass]++
	if in.Spec.Resources != nil && out.Spec.Resources != nil && !apiequality.Semantic.DeepEqual(in.Spec.Resources, out.Spec.Resources) {
		c.podLevelChanged++
	}
	if len(out.Status.Conditions) > 0 {
		c.schedulingGated++
	}
	for i, ctr := range out.Spec.Containers {
		if ctr.ImagePullPolicy == corev1.PullAlways && in.Spec.Containers[i].ImagePullPolicy == "" {
			c.pullAlways++
		}
		if (in.Spec.Containers[i].SecurityContext == nil || in.Spec.Containers[i].SecurityContext.AppArmorProfile == nil) &&
			ctr.SecurityContext != nil && ctr.SecurityContext.AppArmorProfile != nil {
			c.appArmorCopied++
		}
		if len(ctr.Resources.Requests) > len(in.Spec.Containers[i].Resources.Requests) {
			c.requestsFromLimits++
		}
	}
}

// assert fails t unless each defaulting path was reached in a share of the n pods (the
// pod-level resources only when the gate is on).
func (c pathCoverage) assert(t *testing.T, n int, podLevel bool) {
	t.Helper()
	if podLevel {
		coverage.RequireShare(t, "pod-level resources changed", c.podLevelChanged, n, 0.01)
	}
	for what, got := range map[string]int{"SchedulingGated added": c.schedulingGated,
		"AppArmor copied": c.appArmorCopied, "pull policy Always": c.pullAlways, "requests from limits": c.requestsFromLimits} {
		coverage.RequireShare(t, what, got, n, 0.01)
	}
	for _, q := range []corev1.PodQOSClass{corev1.PodQOSBestEffort, corev1.PodQOSBurstable, corev1.PodQOSGuaranteed} {
		coverage.RequireShare(t, "QoS "+string(q), c.qos[q], n, 0.02)
	}
}

func (c pathCoverage) String() string {
	return fmt.Sprintf("pod-level resources changed=%d, SchedulingGated=%d, AppArmor copied=%d, pull Always=%d, requests from limits=%d, qos=%v",
		c.podLevelChanged, c.schedulingGated, c.appArmorCopied, c.pullAlways, c.requestsFromLimits, c.qos)
}

// TestHarnessDetectsDifferences guards the comparison itself: a changed quantity
// form, a nil-versus-empty map and a changed field must all be reported.
func TestHarnessDetectsDifferences(t *testing.T) {
	base := podlife.Default(&corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "a",
		Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("1Ki")}}}}}})
	if d := compare(base, base.DeepCopy()); d != "" {
		t.Fatalf("identical pods reported different: %s", d)
	}
	form := base.DeepCopy()
	form.Spec.Containers[0].Resources.Requests[corev1.ResourceMemory] = resource.MustParse("1024")
	empty := base.DeepCopy()
	empty.Spec.Containers[0].Resources.Limits = corev1.ResourceList{}
	field := base.DeepCopy()
	field.Spec.SchedulerName = "x"
	for name, p := range map[string]*corev1.Pod{"quantity form": form, "nil vs empty": empty, "field": field} {
		if compare(p, base) == "" {
			t.Errorf("%s: difference not detected", name)
		}
	}
}

func timeNow() time.Time { return time.Now() }
