package resources

import (
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/podlife/podlife/internal/podutil"
)

// Explanation tells how [PodRequests] and [PodLimits] arrived at each value.
type Explanation struct {
	// Requests has one entry per resource named anywhere in the computation of the
	// requests, sorted by name.
	Requests []ResourceExplanation
	// Limits is the same for the limits.
	Limits []ResourceExplanation
}

// ResourceExplanation is the computation of one resource.
type ResourceExplanation struct {
	Name corev1.ResourceName
	// Present tells whether the resource is in the result. A limit can be absent
	// while overhead names it, for instance.
	Present bool
	// Value is the result (zero when not Present); it equals the entry of
	// PodRequests or PodLimits for the same pod and options.
	Value resource.Quantity
	// Terms are the competing and contributing terms, in the order they are applied.
	Terms []Term
}

// TermKind names what a term stands for.
type TermKind string

// The kinds of terms.
const (
	// TermContainers is the sum over the regular containers and all sidecars (they
	// all run together once the pod is initialized).
	TermContainers TermKind = "containers"
	// TermInitStep is the moment init container Container runs: itself plus the
	// sidecars started before it (for a sidecar: the sidecars up to itself).
	TermInitStep TermKind = "init"
	// TermDRA is what node-allocatable resource claims add.
	TermDRA TermKind = "dra"
	// TermSpec is the aggregate over the container spec, competing with the status.
	TermSpec TermKind = "spec"
	// TermActuated is the aggregate of the actuated resources (status).
	TermActuated TermKind = "actuated"
	// TermAllocated is the aggregate of the allocated resources (status).
	TermAllocated TermKind = "allocated"
	// TermPodLevel is the pod-level value, which replaces the container aggregate.
	TermPodLevel TermKind = "pod-level"
	// TermOverhead is spec.overhead, added at the end.
	TermOverhead TermKind = "overhead"
)

// Op says how a term combines with the terms before it.
type Op string

// The operations.
const (
	OpMax Op = "max" // the largest term of the group wins
	OpAdd Op = "+"   // added to the result
	OpSet Op = "="   // replaces the result
)

// Term is one input of a resource's computation.
type Term struct {
	Kind TermKind
	Op   Op
	// Level is 1 for the terms of the spec aggregate when status resources compete
	// with it (they are then the details of the TermSpec term), 0 otherwise.
	Level int
	// Container is the init container of a TermInitStep.
	Container string
	// Sidecar tells whether Container is a sidecar.
	Sidecar bool
	// Sidecars are the sidecars running beside Container in a TermInitStep.
	Sidecars []string
	// Parts are the per-container contributions of a TermContainers term.
	Parts []Part
	// Source says where a status or pod-level value comes from.
	Source string
	Value  resource.Quantity
	// Won marks the term an OpMax group took (the first of the largest), and an
	// applied OpSet or OpAdd term.
	Won bool
	// Ignored marks a term that does not count, with the reason in Source: the spec
	// of an infeasible resize, overhead on a missing or zero limit.
	Ignored bool
}

// Part is one container's contribution to a sum.
type Part struct {
	Container string
	Value     resource.Quantity
}

// Explain computes the requests and the limits of the pod as [PodRequests] and
// [PodLimits] do with the same options and records every term: the sum over the
// regular containers and sidecars (with each container's contribution), each init
// step with the sidecars running beside it, the status aggregates when
// UseStatusResources is set, the pod-level value, node-allocatable claims and the
// overhead, and which term won. Its cost is linear in the size of the pod.
// Reuse is not used (the options' map is left alone).
func Explain(pod *corev1.Pod, opts PodResourcesOptions) Explanation {
	pod = orEmpty(pod)
	opts.Reuse = nil
	var e Explanation

	var t table
	rec := newRecorder(pod, &opts, false)
	podRequests(pod, &opts, &t, rec)
	e.Requests = rec.finish(&t)

	opts.NonMissingContainerRequests = nil
	var l table
	rec = newRecorder(pod, &opts, true)
	podLimits(pod, &opts, &l, rec)
	e.Limits = rec.finish(&l)
	return e
}

// recorder collects the terms while the computation runs.
type recorder struct {
	pod          *corev1.Pod
	opts         *PodResourcesOptions
	limits       bool
	statusSource int
	hasStatus    bool     // status aggregates were recorded
	sidecars     []string // names of the sidecars in declaration order
	before       []int    // before[i]: number of sidecars declared before init container i
	order        []corev1.ResourceName
	terms        map[corev1.ResourceName][]Term
}

const (
	statusFromContainers = iota
	statusFromPod
)

func newRecorder(pod *corev1.Pod, opts *PodResourcesOptions, limits bool) *recorder {
	r := &recorder{pod: pod, opts: opts, limits: limits, terms: map[corev1.ResourceName][]Term{}}
	r.before = make([]int, len(pod.Spec.InitContainers))
	nSidecars := 0
	for i := range pod.Spec.InitContainers {
		if podutil.IsSidecar(&pod.Spec.InitContainers[i]) {
			nSidecars++
		}
	}
	if nSidecars > 0 {
		r.sidecars = make([]string, 0, nSidecars)
	}
	for i := range pod.Spec.InitContainers {
		r.before[i] = len(r.sidecars)
		if podutil.IsSidecar(&pod.Spec.InitContainers[i]) {
			r.sidecars = append(r.sidecars, pod.Spec.InitContainers[i].Name)
		}
	}
	r.reserveSteps()
	return r
}

// specList is the list of c the recorder's side (requests or limits) reads.
func (r *recorder) specList(c *corev1.Container) corev1.ResourceList {
	if r.limits {
		return c.Resources.Limits
	}
	return c.Resources.Requests
}

// nonMissing is NonMissingContainerRequests on the requests side, nil on the limits one.
func (r *recorder) nonMissing() corev1.ResourceList {
	if r.limits {
		return nil
	}
	return r.opts.NonMissingContainerRequests
}

// reserveSteps allocates, for each resource the init containers name, room for its
// init steps (one per init container naming it, or lacking it when it is a
// non-missing request) and the two terms put at the head of the group (the
// containers and the spec aggregates), so that the list is allocated once rather
// than grown step by step, which costs more bytes per step the more steps there are.
// The counts read the spec; when the status lists are read instead, the room is only
// a hint.
func (r *recorder) reserveSteps() {
	inits := r.pod.Spec.InitContainers
	if len(inits) == 0 {
		return
	}
	counts := map[corev1.ResourceName]int{}
	for name := range r.nonMissing() {
		counts[name] = len(inits)
	}
	for i := range inits {
		for name := range r.specList(&inits[i]) {
			if _, ok := r.nonMissing()[name]; !ok {
				counts[name]++
			}
		}
	}
	for name, n := range counts {
		r.terms[name] = make([]Term, 0, n+2)
	}
}

func (r *recorder) add(name corev1.ResourceName, t Term) {
	if len(r.terms[name]) == 0 {
		r.order = append(r.order, name)
	}
	r.terms[name] = append(r.terms[name], t)
}

// prepend puts t at the head of the terms of name, in the room reserveSteps left
// when there is some.
func (r *recorder) prepend(name corev1.ResourceName, t Term) {
	ts := append(r.terms[name], Term{})
	copy(ts[1:], ts)
	ts[0] = t
	r.terms[name] = ts
}

// step records the value of init container i's step for one resource.
func (r *recorder) step(name corev1.ResourceName, i int, v resource.Quantity) {
	c := &r.pod.Spec.InitContainers[i]
	sidecar := podutil.IsSidecar(c)
	n := r.before[i]
	beside := r.sidecars[:n:n]
	r.add(name, Term{Kind: TermInitStep, Op: OpMax, Container: c.Name, Sidecar: sidecar, Sidecars: beside, Value: v.DeepCopy()})
}

// sums records the sum over regular containers and sidecars, before the init steps
// compete with it.
func (r *recorder) sums(t *table) {
	parts := r.parts()
	for i := 0; i < t.n; i++ {
		s := t.slot(i)
		if s.flags&hasSum == 0 {
			continue
		}
		term := Term{Kind: TermContainers, Op: OpMax, Value: s.sum.DeepCopy(), Parts: parts[s.name]}
		// The containers term goes first in its group.
		if len(r.terms[s.name]) > 0 {
			r.prepend(s.name, term)
		} else {
			r.add(s.name, term)
		}
	}
}

// parts returns the spec contribution of each regular container and sidecar, by
// resource, in one pass over the containers.
func (r *recorder) parts() map[corev1.ResourceName][]Part {
	nonMissing := r.nonMissing()
	// A first pass counts the parts of each resource, so that each list is allocated
	// once at its size.
	counts := map[corev1.ResourceName]int{}
	n := 0
	count := func(c *corev1.Container) {
		list := r.specList(c)
		for name := range list {
			counts[name]++
		}
		for name := range nonMissing {
			if _, ok := list[name]; !ok {
				counts[name]++
			}
		}
	}
	for i := range r.pod.Spec.Containers {
		count(&r.pod.Spec.Containers[i])
	}
	for i := range r.pod.Spec.InitContainers {
		if c := &r.pod.Spec.InitContainers[i]; podutil.IsSidecar(c) {
			count(c)
		}
	}
	for _, k := range counts {
		n += k
	}
	out := make(map[corev1.ResourceName][]Part, len(counts))
	backing := make([]Part, n)
	for name, k := range counts {
		out[name], backing = backing[:0:k], backing[k:]
	}
	add := func(c *corev1.Container) {
		list := r.specList(c)
		for name, q := range list {
			out[name] = append(out[name], Part{c.Name, q.DeepCopy()})
		}
		for name, q := range nonMissing {
			if _, ok := list[name]; !ok {
				out[name] = append(out[name], Part{c.Name, q.DeepCopy()})
			}
		}
	}
	for i := range r.pod.Spec.Containers {
		add(&r.pod.Spec.Containers[i])
	}
	for i := range r.pod.Spec.InitContainers {
		if c := &r.pod.Spec.InitContainers[i]; podutil.IsSidecar(c) {
			add(c)
		}
	}
	return out
}

// status records the aggregates that compete when status resources are used. The
// terms recorded so far become the details of the spec term.
func (r *recorder) status(spec, alloc, act *table, infeasible bool) {
	r.hasStatus = true
	for _, name := range r.order {
		ts := r.terms[name]
		for i := range ts {
			ts[i].Level = 1
		}
	}
	src := "container statuses"
	if r.statusSource == statusFromPod {
		src = "pod status"
	}
	for i := 0; i < spec.n; i++ {
		s := spec.slot(i)
		if s.flags&hasSum == 0 {
			continue
		}
		term := Term{Kind: TermSpec, Op: OpMax, Value: s.sum.DeepCopy(), Source: "container spec"}
		if infeasible {
			term.Ignored, term.Source = true, "resize infeasible"
		}
		// The spec term heads its details.
		if len(r.terms[s.name]) == 0 {
			r.order = append(r.order, s.name)
		}
		r.prepend(s.name, term)
	}
	r.dra()
	r.statusTerms(act, TermActuated, src)
	if alloc != nil {
		r.statusTerms(alloc, TermAllocated, src)
	}
}

func (r *recorder) statusTerms(t *table, kind TermKind, src string) {
	for i := 0; i < t.n; i++ {
		if s := t.slot(i); s.flags&hasSum != 0 {
			r.add(s.name, Term{Kind: kind, Op: OpMax, Value: s.sum.DeepCopy(), Source: src})
		}
	}
}

// aggregate is called once the container aggregate is known.
func (r *recorder) aggregate(*table) {
	if !r.hasStatus {
		r.dra()
	}
}

// dra records what node-allocatable resource claims add to the spec aggregate.
func (r *recorder) dra() {
	if !r.opts.UseDRANodeAllocatableResourceClaimStatus {
		return
	}
	var dra table
	addDRA(&dra, r.pod, r.opts)
	for i := 0; i < dra.n; i++ {
		d := dra.slot(i)
		term := Term{Kind: TermDRA, Op: OpAdd, Value: d.sum.DeepCopy(), Source: "node-allocatable resource claims", Won: true}
		if r.limits && !r.declared(d.name) && !strings.HasPrefix(string(d.name), corev1.ResourceHugePagesPrefix) {
			term.Won, term.Ignored, term.Source = false, true, "no container limit"
		}
		if r.hasStatus {
			term.Level = 1
		}
		r.add(d.name, term)
	}
}

// declared reports whether the container spec names the resource.
func (r *recorder) declared(name corev1.ResourceName) bool {
	for _, t := range r.terms[name] {
		if t.Kind == TermContainers || t.Kind == TermInitStep {
			return true
		}
	}
	return false
}

func (r *recorder) podLevel(name corev1.ResourceName, q resource.Quantity, withStatus bool) {
	src := "spec.resources"
	if withStatus {
		src = "max of spec.resources and pod status"
	}
	r.add(name, Term{Kind: TermPodLevel, Op: OpSet, Value: q.DeepCopy(), Source: src, Won: true})
}

func (r *recorder) overhead(t *table, overhead corev1.ResourceList, limits bool) {
	for name, q := range overhead {
		term := Term{Kind: TermOverhead, Op: OpAdd, Value: q.DeepCopy(), Source: "spec.overhead", Won: true}
		if limits {
			if v, ok := t.get(name); !ok || v.IsZero() {
				term.Won, term.Ignored, term.Source = false, true, "no limit to add to"
			}
		}
		r.add(name, term)
	}
}

// finish marks the winners and returns the resources sorted by name.
func (r *recorder) finish(t *table) []ResourceExplanation {
	names := r.order
	for i := 0; i < t.n; i++ {
		if s := t.slot(i); len(r.terms[s.name]) == 0 {
			names = append(names, s.name)
		}
	}
	slices.Sort(names)
	out := make([]ResourceExplanation, 0, len(names))
	for _, name := range names {
		re := ResourceExplanation{Name: name}
		if ts := r.terms[name]; len(ts) > 0 {
			re.Terms = ts
		}
		if v, ok := t.get(name); ok {
			re.Present, re.Value = true, v.DeepCopy()
		}
		if !slices.ContainsFunc(re.Terms, func(t Term) bool { return t.Kind == TermSpec && t.Ignored }) {
			markWinner(re.Terms, 1)
		}
		markWinner(re.Terms, 0)
		out = append(out, re)
	}
	return out
}

// markWinner flags the first largest OpMax term of a level, as upstream's strict
// "greater than" replacement keeps the first of equal values.
func markWinner(ts []Term, level int) {
	best := -1
	for i := range ts {
		if ts[i].Op != OpMax || ts[i].Level != level || ts[i].Ignored {
			continue
		}
		if best < 0 || ts[i].Value.Cmp(ts[best].Value) > 0 {
			best = i
		}
	}
	if best >= 0 {
		ts[best].Won = true
	}
}

// maxListed is how many names a rendered term lists before summarizing the rest.
const maxListed = 4

// String renders the explanation as a compact table, requests then limits: each
// resource with its result, then one row per term with its operation ("max": the
// largest of the group wins, "=": replaces, "+": added), its value and a "*" on the
// term a max took. Terms of the spec aggregate competing with status resources are
// indented under the spec term.
func (e Explanation) String() string {
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	section := func(title string, list []ResourceExplanation) {
		fmt.Fprintf(w, "%s\tRESULT\tOP\tTERM\tVALUE\t\tDETAIL\n", strings.ToUpper(title))
		if len(list) == 0 {
			fmt.Fprintf(w, "(none)\t\t\t\t\t\t\n")
		}
		for _, re := range list {
			name, v := string(re.Name), "-"
			if re.Present {
				v = re.Value.String()
			}
			for i, t := range re.Terms {
				if i > 0 {
					name, v = "", ""
				}
				mark := ""
				if t.Won && t.Op == OpMax {
					mark = "*"
				}
				label := t.label()
				if t.Level > 0 {
					label = "  " + label
				}
				fmt.Fprintf(w, "  %s\t%s\t%s\t%s\t%s\t%s\t%s\n", name, v, t.Op, label, t.Value.String(), mark, t.detail())
			}
		}
	}
	section("requests", e.Requests)
	section("limits", e.Limits)
	w.Flush()
	// Cells of an empty last column leave padding behind.
	lines := strings.Split(b.String(), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

func (t Term) label() string {
	switch t.Kind {
	case TermInitStep:
		if t.Sidecar {
			return "sidecar " + t.Container
		}
		return "init " + t.Container
	default:
		return string(t.Kind)
	}
}

func (t Term) detail() string {
	switch t.Kind {
	case TermContainers:
		parts := make([]string, 0, min(len(t.Parts), maxListed))
		for i, p := range t.Parts {
			if i == maxListed {
				break
			}
			parts = append(parts, p.Container+" "+p.Value.String())
		}
		return "(" + strings.Join(parts, " + ") + more(len(t.Parts)) + ")"
	case TermInitStep:
		if len(t.Sidecars) == 0 {
			if t.Sidecar {
				return "(first sidecar)"
			}
			return "(no sidecar running)"
		}
		names := t.Sidecars[:min(len(t.Sidecars), maxListed)]
		prefix := "(with sidecars "
		if t.Sidecar {
			prefix = "(itself + sidecars "
		}
		return prefix + strings.Join(names, ", ") + more(len(t.Sidecars)) + ")"
	default:
		if t.Ignored {
			return "(not used: " + t.Source + ")"
		}
		if t.Source == "" {
			return ""
		}
		return "(" + t.Source + ")"
	}
}

func more(n int) string {
	if n <= maxListed {
		return ""
	}
	return fmt.Sprintf(" … %d more", n-maxListed)
}
