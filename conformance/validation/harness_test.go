package validation

import (
	"context"
	"fmt"
	"net/http"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	podutil "k8s.io/kubernetes/pkg/api/pod"
	core "k8s.io/kubernetes/pkg/apis/core"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	corev1conv "k8s.io/kubernetes/pkg/apis/core/v1"
	corevalidation "k8s.io/kubernetes/pkg/apis/core/validation"
	podstore "k8s.io/kubernetes/pkg/registry/core/pod"

	"github.com/podlife/podlife/conformance/internal/gatesets"
	"github.com/podlife/podlife/conformance/internal/upstreamcreate"
	"github.com/podlife/podlife/validation"
)

// defaultSeed is the seed of a normal run; PODLIFE_SEED overrides it.
const defaultSeed = 20260513

// seed is PODLIFE_SEED, or defaultSeed (upstreamcreate.Seed).
func seed(t testing.TB) int64 { return upstreamcreate.Seed(t, defaultSeed) }

// count is PODLIFE_N, which may only raise def (upstreamcreate.Count).
func count(t testing.TB, def int) int { return upstreamcreate.Count(t, def) }

// flag reads an on/off environment variable (upstreamcreate.Flag).
func flag(t testing.TB, name string) bool { return upstreamcreate.Flag(t, name) }

// upstreamCtx is the request context the pod strategy reads the namespace from.
func upstreamCtx(ns string) context.Context {
	return genericapirequest.WithNamespace(context.Background(), ns)
}

// upstreamStore runs pod through the API server's create path up to validation:
// v1 defaulting, conversion to the internal API and the strategy's PrepareForCreate.
func upstreamStore(t testing.TB, pod *v1.Pod) *core.Pod {
	p := pod.DeepCopy()
	legacyscheme.Scheme.Default(p)
	var in core.Pod
	if err := corev1conv.Convert_v1_Pod_To_core_Pod(p, &in, nil); err != nil {
		t.Fatalf("convert: %v", err)
	}
	podstore.Strategy.PrepareForCreate(upstreamCtx(in.Namespace), &in)
	return &in
}

// upstreamCreate is the API server's answer to creating pod in its own namespace
// (or "default"), as podlife's zero Options.Namespace means; see upstreamcreate.CreateIn.
func upstreamCreate(t testing.TB, pod *v1.Pod) field.ErrorList {
	return upstreamcreate.CreateIn(t, pod, "")
}

// toV1 converts a stored internal pod back to what a client reads.
func toV1(t testing.TB, in *core.Pod) *v1.Pod {
	var out v1.Pod
	if err := corev1conv.Convert_core_Pod_To_v1_Pod(in.DeepCopy(), &out, nil); err != nil {
		t.Fatalf("convert back: %v", err)
	}
	return &out
}

// upstreamTemplate validates a pod template as workload registries do on create:
// SetObjectDefaults_PodTemplate, conversion, DropDisabledTemplateFields, the options
// of GetValidationOptionsFromPodTemplate and ValidatePodTemplateSpec.
func upstreamTemplate(t testing.TB, tmpl *v1.PodTemplateSpec, fldPath *field.Path) field.ErrorList {
	pt := &v1.PodTemplate{Template: *tmpl.DeepCopy()}
	legacyscheme.Scheme.Default(pt)
	var in core.PodTemplate
	if err := corev1conv.Convert_v1_PodTemplate_To_core_PodTemplate(pt, &in, nil); err != nil {
		t.Fatalf("convert: %v", err)
	}
	podutil.DropDisabledTemplateFields(&in.Template, nil)
	opts := podutil.GetValidationOptionsFromPodTemplate(&in.Template, nil)
	return corevalidation.ValidatePodTemplateSpec(&in.Template, fldPath, opts)
}

// gateSets are the configurations the differential tests cover: the standard sets
// (gatesets.Standard) and the non-default values of the gates that change pod
// validation.
var gateSets = gatesets.Standard(
	gatesets.Set{Name: "ContainerRestartRules=false", Overrides: map[string]bool{"ContainerRestartRules": false, "RestartAllContainersOnContainerExits": false}},
	gatesets.Set{Name: "RestartAllContainersOnContainerExits=false", Overrides: map[string]bool{"RestartAllContainersOnContainerExits": false}},
	gatesets.Set{Name: "ContainerStopSignals=true", Overrides: map[string]bool{"ContainerStopSignals": true}},
	gatesets.Set{Name: "PodLevelResources=false", Overrides: map[string]bool{"PodLevelResources": false, "PodLevelResourcesFixDefaulting": false, "InPlacePodLevelResourcesVerticalScaling": false, "PodLevelResourcesFixKubeletQOSClass": false, "PodLevelResourceManagers": false}},
	gatesets.Set{Name: "PodLevelResourcesFixDefaulting=false", Overrides: map[string]bool{"PodLevelResourcesFixDefaulting": false}},
	gatesets.Set{Name: "EnvFiles=false", Overrides: map[string]bool{"EnvFiles": false}},
)

// isSpecUpdateForbidden reports the generic "pod updates may not change fields" error,
// whose detail ends in a unified diff of the specs' JSON.
func isSpecUpdateForbidden(e *field.Error) bool {
	return e.Type == field.ErrorTypeForbidden && strings.HasPrefix(e.Detail, "pod updates may not change fields other than ")
}

// errKey renders the comparable part of an error: type, field, detail (in full, the
// spec diff of the generic update Forbidden included) and a normalised bad value.
func errKey(e *field.Error) string {
	return fmt.Sprintf("%s | %s | %q | %s", e.Type, e.Field, e.Detail, canon(e.BadValue))
}

var quantityType = reflect.TypeOf(resource.Quantity{})
var timeType = reflect.TypeOf(metav1.Time{})

// canon renders a bad value so that an internal-API value and its v1 counterpart
// print the same: named types collapse to their kind, structs print their non-zero
// fields sorted by Go name, maps print sorted, quantities print canonically. Nil and
// empty slices and maps stay distinct, as do nil and non-nil pointers. podlife's
// validation.InternalForm stands for its Value.
func canon(v any) string {
	if v == nil {
		return "nil"
	}
	if f, ok := v.(validation.InternalForm); ok {
		v = f.Value
	}
	var b strings.Builder
	canonValue(&b, reflect.ValueOf(v))
	return b.String()
}

func canonValue(b *strings.Builder, v reflect.Value) {
	if !v.IsValid() {
		b.WriteString("nil")
		return
	}
	switch v.Type() {
	case quantityType:
		q := v.Interface().(resource.Quantity)
		b.WriteString("Q(" + q.String() + ")")
		return
	case timeType:
		tm := v.Interface().(metav1.Time)
		b.WriteString("T(" + tm.UTC().String() + ")")
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		b.WriteString("&")
		canonValue(b, v.Elem())
	case reflect.Interface:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		canonValue(b, v.Elem())
	case reflect.String:
		b.WriteString(strconv.Quote(v.String()))
	case reflect.Bool:
		b.WriteString(strconv.FormatBool(v.Bool()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		b.WriteString(strconv.FormatInt(v.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		b.WriteString(strconv.FormatUint(v.Uint(), 10))
	case reflect.Float32, reflect.Float64:
		b.WriteString(strconv.FormatFloat(v.Float(), 'g', -1, 64))
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			b.WriteString("nil[]")
			return
		}
		b.WriteString("[")
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				b.WriteString(",")
			}
			canonValue(b, v.Index(i))
		}
		b.WriteString("]")
	case reflect.Map:
		if v.IsNil() {
			b.WriteString("nil{}")
			return
		}
		type kv struct{ k, v string }
		var items []kv
		it := v.MapRange()
		for it.Next() {
			var kb, vb strings.Builder
			canonValue(&kb, it.Key())
			canonValue(&vb, it.Value())
			items = append(items, kv{kb.String(), vb.String()})
		}
		sort.Slice(items, func(i, j int) bool { return items[i].k < items[j].k })
		b.WriteString("map{")
		for i, it := range items {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(it.k + ":" + it.v)
		}
		b.WriteString("}")
	case reflect.Struct:
		t := v.Type()
		var names []string
		vals := map[string]string{}
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() || v.Field(i).IsZero() {
				continue
			}
			var fb strings.Builder
			canonValue(&fb, v.Field(i))
			names = append(names, f.Name)
			vals[f.Name] = fb.String()
		}
		sort.Strings(names)
		b.WriteString("{")
		for i, n := range names {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(n + ":" + vals[n])
		}
		b.WriteString("}")
	default:
		fmt.Fprintf(b, "%v", v.Interface())
	}
}

// multisetDiff returns the keys upstream has more often than podlife (missing) and
// the ones podlife has more often (extra).
func multisetDiff(ours, theirs field.ErrorList) (missing, extra []string) {
	return stringDiff(keysOf(ours, errKey), keysOf(theirs, errKey))
}

func keysOf(l field.ErrorList, key func(*field.Error) string) []string {
	out := make([]string, len(l))
	for i, e := range l {
		out[i] = key(e)
	}
	return out
}

func errText(e *field.Error) string { return e.Error() }

// stringDiff compares two lists as multisets.
func stringDiff(ours, theirs []string) (missing, extra []string) {
	n := map[string]int{}
	for _, k := range theirs {
		n[k]++
	}
	for _, k := range ours {
		n[k]--
	}
	for k, c := range n {
		for ; c > 0; c-- {
			missing = append(missing, k)
		}
		for ; c < 0; c++ {
			extra = append(extra, k)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	return missing, extra
}

// ordered is the Error() text of the errors whose order upstream fixes, in order
// (upstreamcreate.Ordered: errors placed by map iteration are left out).
func ordered(l field.ErrorList) []string { return upstreamcreate.Ordered(l) }

var indexRE = regexp.MustCompile(`\[[0-9]+\]`)

// family names the rule an error key belongs to: its type and its field path with
// list indices replaced by [*].
func family(key string) string {
	parts := strings.SplitN(key, " | ", 3)
	if len(parts) < 2 {
		return key
	}
	return parts[0] + " " + indexRE.ReplaceAllString(parts[1], "[*]")
}

// tally counts disagreements per rule family and keeps one example for each, and
// what the inputs covered.
type tally struct {
	inputs, valid, invalid, disagreeing int
	families                            map[string]int
	examples                            map[string]string
	seen                                map[string]int // rule families upstream reported, with their counts
	specDiffs                           int            // generic spec-update Forbidden errors compared
	ordered                             int            // inputs with 2+ errors compared in order
	refusals                            map[string]int // refusals by HTTP status
	fields                              coverage       // what the generated inputs set
}

func newTally() *tally {
	return &tally{families: map[string]int{}, examples: map[string]string{}, seen: map[string]int{}, refusals: map[string]int{}, fields: coverage{}}
}

func (tl *tally) disagree(fam, example string) {
	tl.families[fam]++
	if _, ok := tl.examples[fam]; !ok {
		tl.examples[fam] = example
	}
}

// recordUpdate compares one answer to a PUT of newPod. A refusal upstream (any
// status but 422) is counted by status in tl.refusals, and podlife must refuse with
// the same code, reason and message; an input podlife refuses and upstream does not
// disagrees. Otherwise, and after a matching refusal, the answers are compared as
// record compares them (a refusal as the field error AsErrorList makes of it).
func (tl *tally) recordUpdate(t testing.TB, input func() string, ours field.ErrorList, ans upstreamcreate.UpdateAnswer, newPod *v1.Pod) {
	r, refused := validation.RefusalOf(ours)
	switch {
	case ans.Status != nil && ans.Code != http.StatusUnprocessableEntity:
		tl.refusals[strconv.Itoa(ans.Code)]++
		if !refused || int(r.Code) != ans.Code || r.Reason != ans.Status.Reason || r.Message != ans.Status.Message {
			tl.disagreeing++
			tl.disagree("refusal", fmt.Sprintf("upstream %d %s %q, podlife %+v (%v)\n%s", ans.Code, ans.Status.Reason, ans.Status.Message, r, refused, input()))
			return
		}
	case refused:
		tl.disagreeing++
		tl.disagree("refusal", fmt.Sprintf("upstream %d, podlife refuses %+v\n%s", ans.Code, r, input()))
		return
	}
	tl.record(input, ours, ans.AsErrorList(t, newPod))
}

// failOnDisagreement fails t with one example of each disagreeing family tl saw.
func (tl *tally) failOnDisagreement(t testing.TB, what string) {
	t.Helper()
	if tl.disagreeing == 0 {
		return
	}
	var b strings.Builder
	for fam, ex := range tl.examples {
		b.WriteString(fam + ": " + ex + "\n")
	}
	t.Fatalf("%s: podlife and upstream disagree:\n%s", what, b.String())
}

// record compares one answer: as multisets of (type, field, detail, bad value) and of
// Error() texts, and in order for the errors whose order upstream fixes.
func (tl *tally) record(input func() string, ours, theirs field.ErrorList) {
	tl.inputs++
	if len(theirs) == 0 {
		tl.valid++
	} else {
		tl.invalid++
	}
	for _, e := range theirs {
		tl.seen[family(errKey(e))]++
		if isSpecUpdateForbidden(e) {
			tl.specDiffs++
		}
	}
	bad := false
	missing, extra := multisetDiff(ours, theirs)
	for _, k := range missing {
		bad = true
		tl.disagree("missing "+family(k), fmt.Sprintf("upstream only: %s\n%s", k, input()))
	}
	for _, k := range extra {
		bad = true
		tl.disagree("extra "+family(k), fmt.Sprintf("podlife only: %s\n%s", k, input()))
	}
	if !bad {
		tm, te := stringDiff(keysOf(ours, errText), keysOf(theirs, errText))
		for _, k := range append(tm, te...) {
			bad = true
			tl.disagree("text", fmt.Sprintf("Error() differs: %q\n%s", k, input()))
		}
	}
	if !bad {
		o, u := ordered(ours), ordered(theirs)
		if len(u) > 1 {
			tl.ordered++
		}
		if !reflect.DeepEqual(o, u) {
			bad = true
			tl.disagree("order", fmt.Sprintf("order differs:\npodlife  %q\nupstream %q\n%s", o, u, input()))
		}
	}
	if bad {
		tl.disagreeing++
	}
}

// minimums are what a run must reach for its figures to mean something.
type minimums struct {
	inputs                 int
	invalidMin, invalidMax float64 // share of inputs upstream rejects
	families               int     // distinct rule families upstream reported
	ordered                int     // inputs whose 2+ errors were compared in order
}

// report logs the figures, fails the test on any disagreement (listing each rule
// family with its count and one failing input) and on a run below min.
func (tl *tally) report(t *testing.T, what string, seed int64, min minimums) {
	t.Helper()
	t.Logf("%s: %d inputs (%d valid, %d invalid upstream, %d distinct rule families reported, %d compared in order, %d spec diffs, refusals %v), %d disagreeing (seed %d)",
		what, tl.inputs, tl.valid, tl.invalid, len(tl.seen), tl.ordered, tl.specDiffs, tl.refusals, tl.disagreeing, seed)
	if flag(t, "PODLIFE_FAMILIES") {
		fams := make([]string, 0, len(tl.seen))
		for f, c := range tl.seen {
			fams = append(fams, fmt.Sprintf("%6d %s", c, f))
		}
		sort.Strings(fams)
		t.Logf("rule families reported by upstream:\n  %s", strings.Join(fams, "\n  "))
	}
	if tl.inputs < min.inputs {
		t.Errorf("%s: %d inputs, want at least %d", what, tl.inputs, min.inputs)
	}
	if tl.inputs > 0 {
		share := float64(tl.invalid) / float64(tl.inputs)
		if share < min.invalidMin || share > min.invalidMax {
			t.Errorf("%s: %.2f of the inputs are invalid upstream, want %.2f to %.2f", what, share, min.invalidMin, min.invalidMax)
		}
	}
	if len(tl.seen) < min.families {
		t.Errorf("%s: upstream reported %d distinct rule families, want at least %d", what, len(tl.seen), min.families)
	}
	if tl.ordered < min.ordered {
		t.Errorf("%s: %d inputs compared in order, want at least %d", what, tl.ordered, min.ordered)
	}
	if tl.disagreeing == 0 {
		return
	}
	fams := make([]string, 0, len(tl.families))
	for f := range tl.families {
		fams = append(fams, f)
	}
	sort.Slice(fams, func(i, j int) bool {
		if tl.families[fams[i]] != tl.families[fams[j]] {
			return tl.families[fams[i]] > tl.families[fams[j]]
		}
		return fams[i] < fams[j]
	})
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d of %d inputs disagree (seed %d); by rule family:\n", what, tl.disagreeing, tl.inputs, seed)
	for _, f := range fams {
		fmt.Fprintf(&b, "  %6d  %s\n", tl.families[f], f)
	}
	if flag(t, "PODLIFE_EXAMPLES") {
		for _, f := range fams {
			fmt.Fprintf(&b, "--- %s\n%s\n", f, tl.examples[f])
		}
	} else {
		b.WriteString("(set PODLIFE_EXAMPLES=1 to print one failing input per family)\n")
	}
	t.Error(b.String())
}
