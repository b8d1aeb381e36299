package resources

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/json"
	upstream "k8s.io/component-helpers/resource"
	"k8s.io/kubernetes/pkg/apis/core/v1/helper/qos"

	"github.com/podlife/podlife/conformance/internal/coverage"
	"github.com/podlife/podlife/conformance/internal/gatesets"
	"github.com/podlife/podlife/conformance/internal/runenv"
	"github.com/podlife/podlife/resources"
)

// podsPerRun is the number of generated pods each differential test checks under the
// default gates (PODLIFE_N overrides it, down to minPods); the other gate sets check a
// tenth as many, for the functions that read no gate.
const (
	podsPerRun = 6000
	minPods    = 1500
)

func podCount(t testing.TB) int { return runenv.Count(t, podsPerRun, minPods) }

// perSet is the number of pods compared under the gate set s by a test whose functions
// read no feature gate (component-helpers takes options instead): all of them under
// the defaults, a tenth under the other sets.
func perSet(n int, s gatesets.Set) int {
	if s.Name == gatesets.Defaults.Name {
		return n
	}
	return max(n/10, minPods/10)
}

// optionSet is one PodResourcesOptions value, built fresh for each call so that Reuse
// maps are never shared between the two implementations.
type optionSet struct {
	name string
	set  func(o *resources.PodResourcesOptions)
}

func nonMissing() corev1.ResourceList {
	return corev1.ResourceList{
		corev1.ResourceCPU:    resource.MustParse("100m"),
		corev1.ResourceMemory: *resource.NewQuantity(200*1024*1024, resource.BinarySI),
	}
}

var optionSets = []optionSet{
	{"zero", func(*resources.PodResourcesOptions) {}},
	{"Reuse", func(o *resources.PodResourcesOptions) {
		o.Reuse = corev1.ResourceList{"stale": resource.MustParse("1"), corev1.ResourceCPU: resource.MustParse("9")}
	}},
	{"UseStatusResources", func(o *resources.PodResourcesOptions) { o.UseStatusResources = true }},
	{"InPlacePodLevelResourcesVerticalScalingEnabled", func(o *resources.PodResourcesOptions) {
		o.InPlacePodLevelResourcesVerticalScalingEnabled = true
	}},
	{"ExcludeOverhead", func(o *resources.PodResourcesOptions) { o.ExcludeOverhead = true }},
	{"NonMissingContainerRequests", func(o *resources.PodResourcesOptions) { o.NonMissingContainerRequests = nonMissing() }},
	{"NonMissingContainerRequests/odd", func(o *resources.PodResourcesOptions) {
		o.NonMissingContainerRequests = corev1.ResourceList{"example.com/gpu": resource.MustParse("0"), "hugepages-2Mi": resource.MustParse("+1")}
	}},
	{"SkipPodLevelResources", func(o *resources.PodResourcesOptions) { o.SkipPodLevelResources = true }},
	{"SkipContainerLevelResources", func(o *resources.PodResourcesOptions) { o.SkipContainerLevelResources = true }},
	{"UseDRANodeAllocatableResourceClaimStatus", func(o *resources.PodResourcesOptions) {
		o.UseDRANodeAllocatableResourceClaimStatus = true
	}},
	{"status+PLR (scheduler, quota)", func(o *resources.PodResourcesOptions) {
		o.UseStatusResources, o.InPlacePodLevelResourcesVerticalScalingEnabled = true, true
	}},
	{"status+PLR+NonMissing+DRA (scheduler)", func(o *resources.PodResourcesOptions) {
		o.UseStatusResources, o.InPlacePodLevelResourcesVerticalScalingEnabled = true, true
		o.NonMissingContainerRequests, o.UseDRANodeAllocatableResourceClaimStatus = nonMissing(), true
	}},
	{"status+DRA+Reuse", func(o *resources.PodResourcesOptions) {
		o.UseStatusResources, o.UseDRANodeAllocatableResourceClaimStatus = true, true
		o.Reuse = corev1.ResourceList{}
	}},
	{"status+ExcludeOverhead+SkipPodLevel", func(o *resources.PodResourcesOptions) {
		o.UseStatusResources, o.ExcludeOverhead, o.SkipPodLevelResources = true, true, true
	}},
	{"SkipContainer+status+PLR+Reuse", func(o *resources.PodResourcesOptions) {
		o.SkipContainerLevelResources, o.UseStatusResources, o.InPlacePodLevelResourcesVerticalScalingEnabled = true, true, true
		o.Reuse = corev1.ResourceList{"stale": resource.MustParse("1")}
	}},
}

func toUpstream(o resources.PodResourcesOptions) upstream.PodResourcesOptions {
	return upstream.PodResourcesOptions{
		Reuse:              o.Reuse,
		UseStatusResources: o.UseStatusResources,
		InPlacePodLevelResourcesVerticalScalingEnabled: o.InPlacePodLevelResourcesVerticalScalingEnabled,
		ExcludeOverhead:                          o.ExcludeOverhead,
		NonMissingContainerRequests:              o.NonMissingContainerRequests,
		SkipPodLevelResources:                    o.SkipPodLevelResources,
		SkipContainerLevelResources:              o.SkipContainerLevelResources,
		UseDRANodeAllocatableResourceClaimStatus: o.UseDRANodeAllocatableResourceClaimStatus,
	}
}

// diffLists describes how got differs from want: keys, numeric values, printed form
// and Format (which decides how a later sum prints); "" when they are the same.
func diffLists(got, want corev1.ResourceList) string {
	var b strings.Builder
	if (got == nil) != (want == nil) {
		fmt.Fprintf(&b, "nil-ness: podlife %v, upstream %v; ", got == nil, want == nil)
	}
	if len(got) != len(want) {
		fmt.Fprintf(&b, "lengths: podlife %d, upstream %d; ", len(got), len(want))
	}
	for _, k := range sortedKeys(got, want) {
		g, gok := got[k]
		w, wok := want[k]
		switch {
		case gok != wok:
			fmt.Fprintf(&b, "%s present: podlife %v, upstream %v; ", k, gok, wok)
		case g.Cmp(w) != 0 || g.String() != w.String():
			fmt.Fprintf(&b, "%s: podlife %s, upstream %s; ", k, g.String(), w.String())
		case g.Format != w.Format:
			fmt.Fprintf(&b, "%s: podlife format %s, upstream %s; ", k, g.Format, w.Format)
		}
	}
	return b.String()
}

func sortedKeys(lists ...corev1.ResourceList) []corev1.ResourceName {
	seen := map[corev1.ResourceName]bool{}
	var out []corev1.ResourceName
	for _, l := range lists {
		for k := range l {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

func dump(p *corev1.Pod) string {
	b, _ := json.Marshal(p)
	return string(b)
}

// explained is the result list of an explanation.
func explained(list []resources.ResourceExplanation) corev1.ResourceList {
	l := corev1.ResourceList{}
	for _, re := range list {
		if re.Present {
			l[re.Name] = re.Value
		}
	}
	return l
}

func sameMap(a, b corev1.ResourceList) bool {
	return a != nil && b != nil && reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}

type listFn struct {
	name     string
	ours     func(*corev1.Pod, resources.PodResourcesOptions) corev1.ResourceList
	upstream func(*corev1.Pod, upstream.PodResourcesOptions) corev1.ResourceList
}

var listFns = []listFn{
	{"PodRequests", resources.PodRequests, upstream.PodRequests},
	{"PodLimits", resources.PodLimits, upstream.PodLimits},
	{"AggregateContainerRequests", resources.AggregateContainerRequests, upstream.AggregateContainerRequests},
	{"AggregateContainerLimits", resources.AggregateContainerLimits, upstream.AggregateContainerLimits},
}

// TestDifferentialResourceLists compares the four list functions under every option
// set on generated pods, and Explain's results with PodRequests and PodLimits. The
// functions read no feature gate (the options stand for them); they run under the
// standard gate sets all the same, on a tenth of the pods outside the defaults.
// Coverage: every kind of term of Explain (containers, init steps, pod-level, overhead,
// spec, actuated status, DRA; allocated status for requests) wins in at least 1% as
// many resources as there are pods.
func TestDifferentialResourceLists(t *testing.T) {
	s := seed(t)
	gatesets.Run(t, gatesets.Standard(), func(t *testing.T, set gatesets.Set) { resourceLists(t, s, perSet(podCount(t), set)) })
}

func resourceLists(t *testing.T, s uint64, n int) {
	g := newGen(s)
	var counts, won coverage.Counts
	fails := 0
	for i := 0; i < n; i++ {
		pod := g.pod()
		before := pod.DeepCopy()
		for _, os := range optionSets {
			for _, fn := range listFns {
				d := compareList(pod, os, fn)
				counts.Add(fn.name)
				if d != "" {
					fails++
					if fails <= 5 {
						t.Errorf("seed %d pod #%d %s [%s]: %s\npod: %s", s, i, fn.name, os.name, d, dump(before))
					}
				}
			}
		}
		// Explain's results against upstream's PodRequests and PodLimits.
		for _, os := range optionSets {
			e, d := compareExplain(pod, os)
			countWinners(&won, "requests", e.Requests)
			countWinners(&won, "limits", e.Limits)
			counts.Add("Explain")
			if d != "" {
				fails++
				if fails <= 5 {
					t.Errorf("seed %d pod #%d Explain [%s]: %s\npod: %s", s, i, os.name, d, dump(before))
				}
			}
		}
		if !reflect.DeepEqual(pod, before) {
			t.Fatalf("seed %d pod #%d: podlife mutated its input\npod: %s", s, i, dump(before))
		}
	}
	t.Logf("seed %d: %d pods x %d option sets; calls per function %s; %d disagreements; winning terms %s", s, n, len(optionSets), &counts, fails, &won)
	for _, fn := range append(listFns, listFn{name: "Explain"}) {
		coverage.Require(t, fn.name+" calls", counts.Get(fn.name), n*len(optionSets))
	}
	for _, list := range []string{"requests", "limits"} {
		for _, k := range []resources.TermKind{resources.TermContainers, resources.TermInitStep, resources.TermPodLevel, resources.TermOverhead,
			resources.TermSpec, resources.TermActuated, resources.TermDRA} {
			won.AtLeast(t, "winning term", list+" "+string(k), n/100)
		}
	}
	// Allocated resources are requests only.
	won.AtLeast(t, "winning term", "requests "+string(resources.TermAllocated), n/100)
}

// compareList calls fn on pod under the option set os on both sides (each with its
// own options, so that Reuse maps are never shared) and describes how podlife's
// answer differs from upstream's: the list, the returned map's identity with Reuse,
// and the state a Reuse map not returned is left in; "" when they agree.
func compareList(pod *corev1.Pod, os optionSet, fn listFn) string {
	var ours, theirs resources.PodResourcesOptions
	os.set(&ours)
	os.set(&theirs)
	got := fn.ours(pod, ours)
	want := fn.upstream(pod.DeepCopy(), toUpstream(theirs))
	d := diffLists(got, want)
	if sameMap(got, ours.Reuse) != sameMap(want, theirs.Reuse) {
		d += "returned map identity differs from upstream's (Reuse); "
	}
	if ours.Reuse != nil && !sameMap(got, ours.Reuse) {
		if diff := diffLists(ours.Reuse, theirs.Reuse); diff != "" {
			d += "Reuse left in a different state: " + diff
		}
	}
	return d
}

// compareExplain explains pod under the option set os and describes how its
// results differ from upstream's PodRequests and PodLimits; "" when they agree.
func compareExplain(pod *corev1.Pod, os optionSet) (resources.Explanation, string) {
	var opts resources.PodResourcesOptions
	os.set(&opts)
	e := resources.Explain(pod, opts)
	opts.Reuse = nil
	d := diffLists(explained(e.Requests), upstream.PodRequests(pod.DeepCopy(), toUpstream(opts)))
	if dl := diffLists(explained(e.Limits), upstream.PodLimits(pod.DeepCopy(), toUpstream(opts))); dl != "" {
		d += "limits: " + dl
	}
	return e, d
}

// countWinners counts the kinds of the terms that decided each resource.
func countWinners(c *coverage.Counts, list string, rs []resources.ResourceExplanation) {
	for _, r := range rs {
		for _, term := range r.Terms {
			if term.Won && !term.Ignored {
				c.Add(list + " " + string(term.Kind))
			}
		}
	}
}

// TestDifferentialPredicates compares the pod-level and resize predicates and
// GetContainerDRAAllocations.
//
// They read no feature gate; the test runs under the standard gate sets all the same,
// on a tenth of the pods outside the defaults.
func TestDifferentialPredicates(t *testing.T) {
	s := seed(t)
	gatesets.Run(t, gatesets.Standard(), func(t *testing.T, set gatesets.Set) { predicates(t, s, perSet(podCount(t), set)) })
}

func predicates(t *testing.T, s uint64, n int) {
	g := newGen(s + 1)
	fails := 0
	var cov coverage.Counts
	check := func(i int, what string, got, want any, p *corev1.Pod) {
		if !reflect.DeepEqual(got, want) {
			fails++
			if fails <= 5 {
				t.Errorf("seed %d pod #%d %s: podlife %v, upstream %v\npod: %s", s+1, i, what, got, want, dump(p))
			}
		}
	}
	for i := 0; i < n; i++ {
		p := g.pod()
		cov.Addf("IsPodLevelResourcesSet=%t", upstream.IsPodLevelResourcesSet(p))
		cov.Addf("IsPodLevelRequestsSet=%t", upstream.IsPodLevelRequestsSet(p))
		cov.Addf("IsPodLevelLimitsSet=%t", upstream.IsPodLevelLimitsSet(p))
		cov.Addf("IsPodResizeInfeasible=%t", upstream.IsPodResizeInfeasible(p))
		cov.Addf("IsPodResizeDeferred=%t", upstream.IsPodResizeDeferred(p))
		cov.Addf("DRA allocations=%t", len(upstream.GetContainerDRAAllocations(p.DeepCopy(), "c0")) > 0)
		check(i, "IsPodLevelResourcesSet", resources.IsPodLevelResourcesSet(p), upstream.IsPodLevelResourcesSet(p), p)
		check(i, "IsPodLevelRequestsSet", resources.IsPodLevelRequestsSet(p), upstream.IsPodLevelRequestsSet(p), p)
		check(i, "IsPodLevelLimitsSet", resources.IsPodLevelLimitsSet(p), upstream.IsPodLevelLimitsSet(p), p)
		check(i, "IsPodResizeInfeasible", resources.IsPodResizeInfeasible(p), upstream.IsPodResizeInfeasible(p), p)
		check(i, "IsPodResizeDeferred", resources.IsPodResizeDeferred(p), upstream.IsPodResizeDeferred(p), p)
		for _, name := range []string{"c0", "c1", "dup", "i0", "nope"} {
			got := resources.GetContainerDRAAllocations(p, name)
			want := upstream.GetContainerDRAAllocations(p.DeepCopy(), name)
			if d := diffLists(got, want); d != "" {
				check(i, "GetContainerDRAAllocations("+name+")", d, "", p)
			}
		}
	}
	for _, n := range resourceNames {
		check(-1, "IsSupportedPodLevelResource("+string(n)+")", resources.IsSupportedPodLevelResource(n), upstream.IsSupportedPodLevelResource(n), nil)
	}
	check(-1, "SupportedPodLevelResources", resources.SupportedPodLevelResources(), upstream.SupportedPodLevelResources(), nil)
	t.Logf("seed %d: %d pods x 5 predicates + 5 DRA lookups; %d disagreements; %s", s+1, n, fails, &cov)
	for _, p := range []string{"IsPodLevelResourcesSet", "IsPodLevelRequestsSet", "IsPodLevelLimitsSet", "IsPodResizeInfeasible", "IsPodResizeDeferred", "DRA allocations"} {
		cov.Each(t, "predicate", n/100, p+"=true", p+"=false")
	}
}

// TestDifferentialQOS compares ComputePodQOS and GetPodQOS under the default gates and
// under the gate settings that change the answer.
func TestDifferentialQOS(t *testing.T) {
	sets := gatesets.Standard(
		gatesets.Set{Name: "PodLevelResourcesFixKubeletQOSClass=false", Overrides: map[string]bool{"PodLevelResourcesFixKubeletQOSClass": false}},
		gatesets.Set{Name: "PodLevelResources=false", Overrides: map[string]bool{
			"PodLevelResources": false, "PodLevelResourcesFixDefaulting": false,
			"PodLevelResourcesFixKubeletQOSClass": false, "InPlacePodLevelResourcesVerticalScaling": false,
		}},
	)
	s := seed(t)
	gatesets.Run(t, sets, func(t *testing.T, set gatesets.Set) {
		// resources takes plain options, not gates: they are derived as its godoc says.
		c := struct{ opts resources.QOSOptions }{resources.QOSOptions{
			DisablePodLevelResources:                   !set.Features().Enabled("PodLevelResources"),
			DisablePodLevelResourcesFixKubeletQOSClass: !set.Features().Enabled("PodLevelResourcesFixKubeletQOSClass"),
		}}
		{
			g := newGen(s + 2)
			fails, n := 0, 0
			var byClass coverage.Counts
			for i := 0; i < podCount(t); i++ {
				p := g.pod()
				got, want := resources.ComputePodQOSWithOptions(p, c.opts), qos.ComputePodQOS(p)
				gotGet, wantGet := resources.GetPodQOSWithOptions(p, c.opts), qos.GetPodQOS(p)
				byClass.Add(string(want))
				n++
				if got != want || gotGet != wantGet {
					fails++
					if fails <= 5 {
						t.Errorf("seed %d pod #%d: ComputePodQOS podlife %s upstream %s; GetPodQOS podlife %s upstream %s\npod: %s",
							s+2, i, got, want, gotGet, wantGet, dump(p))
					}
				}
			}
			t.Logf("seed %d: %d pods (%s), %d disagreements", s+2, n, &byClass, fails)
			for _, c := range []corev1.PodQOSClass{corev1.PodQOSBestEffort, corev1.PodQOSBurstable, corev1.PodQOSGuaranteed} {
				byClass.Share(t, "QoS class", string(c), 0.02)
			}
		}
	})
}

// TestUpstreamWritesThroughSharedDecimal documents why the differential tests give
// upstream a copy of each pod: when a pod-level request is stored as a big decimal,
// upstream's PodRequests adds the overhead into that very decimal, changing the pod it
// was given. podlife never modifies its input.
func TestUpstreamWritesThroughSharedDecimal(t *testing.T) {
	newPod := func() *corev1.Pod {
		return &corev1.Pod{Spec: corev1.PodSpec{
			Containers: []corev1.Container{{Name: "c"}},
			Resources:  &corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("123456789012345678901234567890")}},
			Overhead:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1")},
		}}
	}
	p := newPod()
	want := upstream.PodRequests(p, upstream.PodResourcesOptions{})
	q := p.Spec.Resources.Requests[corev1.ResourceCPU]
	if q.String() == "123456789012345678901234567890" {
		t.Logf("upstream left the pod alone this time")
	} else {
		t.Logf("upstream changed the pod-level request to %s", q.String())
	}
	p = newPod()
	got := resources.PodRequests(p, resources.PodResourcesOptions{})
	if d := diffLists(got, want); d != "" {
		t.Errorf("results differ: %s", d)
	}
	if q := p.Spec.Resources.Requests[corev1.ResourceCPU]; q.String() != "123456789012345678901234567890" {
		t.Errorf("podlife changed the pod-level request to %s", q.String())
	}
}

// TestNilPod documents the one deliberate difference: upstream panics on a nil pod,
// podlife answers as for an empty pod.
func TestNilPod(t *testing.T) {
	panics := func(f func()) (p bool) {
		defer func() { p = recover() != nil }()
		f()
		return false
	}
	for name, f := range map[string]func(){
		"PodRequests":                func() { upstream.PodRequests(nil, upstream.PodResourcesOptions{}) },
		"PodLimits":                  func() { upstream.PodLimits(nil, upstream.PodResourcesOptions{}) },
		"IsPodLevelResourcesSet":     func() { upstream.IsPodLevelResourcesSet(nil) },
		"IsPodResizeInfeasible":      func() { upstream.IsPodResizeInfeasible(nil) },
		"GetContainerDRAAllocations": func() { upstream.GetContainerDRAAllocations(nil, "c") },
		"ComputePodQOS":              func() { qos.ComputePodQOS(nil) },
	} {
		if !panics(f) {
			t.Errorf("upstream %s no longer panics on a nil pod; podlife could follow it", name)
		}
	}
	empty := &corev1.Pod{}
	for _, fn := range listFns {
		if d := diffLists(fn.ours(nil, resources.PodResourcesOptions{}), fn.upstream(empty, upstream.PodResourcesOptions{})); d != "" {
			t.Errorf("%s(nil) differs from upstream on an empty pod: %s", fn.name, d)
		}
	}
	if got, want := resources.ComputePodQOS(nil), qos.ComputePodQOS(empty); got != want {
		t.Errorf("ComputePodQOS(nil) = %s, upstream on an empty pod %s", got, want)
	}
}
