package validationrules

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation/field"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	core "k8s.io/kubernetes/pkg/apis/core"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	corev1conv "k8s.io/kubernetes/pkg/apis/core/v1"
	"k8s.io/kubernetes/pkg/capabilities"
	podstore "k8s.io/kubernetes/pkg/registry/core/pod"

	"github.com/podlife/podlife"
	"github.com/podlife/podlife/conformance/internal/gatesets"
	"github.com/podlife/podlife/conformance/internal/upstreamcreate"
	"github.com/podlife/podlife/validation"
)

type goldenCase struct {
	Name       string               `json:"name"`
	Features   podlife.FeatureGates `json:"features,omitempty"`
	Privileged bool                 `json:"privileged,omitempty"`
	Namespace  string               `json:"namespace,omitempty"`
	Pod        *v1.Pod              `json:"pod"`
	Want       []string             `json:"want"`
}

func loadCases(t testing.TB) []goldenCase {
	b, err := os.ReadFile("../../validation/testdata/create_cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []goldenCase
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	return cases
}

// applyGates runs the rest of the (non-parallel) test under g, upstream and in
// podlife alike (gatesets.Apply).
func applyGates(t *testing.T, g podlife.FeatureGates) {
	t.Helper()
	gatesets.Apply(t, gatesets.Set{Name: "table case", Overrides: g})
}

func setPrivileged(t *testing.T, allow bool) {
	capabilities.ResetForTest()
	capabilities.Initialize(capabilities.Capabilities{AllowPrivileged: allow})
	t.Cleanup(capabilities.ResetForTest)
}

// upstreamPrepared is pod as the API server has it just before validation: v1
// defaulting, conversion to the internal API and the strategy's PrepareForCreate.
func upstreamPrepared(t testing.TB, pod *v1.Pod) *core.Pod {
	p := pod.DeepCopy()
	legacyscheme.Scheme.Default(p)
	var in core.Pod
	if err := corev1conv.Convert_v1_Pod_To_core_Pod(p, &in, nil); err != nil {
		t.Fatalf("convert: %v", err)
	}
	ctx := genericapirequest.WithNamespace(context.Background(), in.Namespace)
	podstore.Strategy.PrepareForCreate(ctx, &in)
	return &in
}

// upstreamCreate is the API server's answer to creating pod in its own namespace
// (or "default"), as podlife's zero Options.Namespace means.
func upstreamCreate(t testing.TB, pod *v1.Pod) field.ErrorList {
	return upstreamcreate.CreateIn(t, pod, "")
}

func strs(errs field.ErrorList) []string {
	out := make([]string, len(errs))
	for i, e := range errs {
		out[i] = e.Error()
	}
	return out
}

// TestCasesAgainstUpstream checks every expectation of podlife's tables against
// upstream, and podlife's own result (bad values and origins included) too.
func TestCasesAgainstUpstream(t *testing.T) {
	cases := loadCases(t)
	if len(cases) == 0 {
		t.Fatal("no cases")
	}
	agree := 0
	dump := map[string]map[string]any{}
	defer func() {
		// PODLIFE_DUMP=file writes upstream's and podlife's answers per case, to help
		// write table expectations.
		if f := os.Getenv("PODLIFE_DUMP"); f != "" {
			b, _ := json.MarshalIndent(dump, "", " ")
			_ = os.WriteFile(f, b, 0o644)
		}
	}()
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			applyGates(t, c.Features)
			setPrivileged(t, c.Privileged)
			theirs := upstreamcreate.CreateIn(t, c.Pod, c.Namespace)
			ours := validation.ValidatePodCreate(c.Pod, validation.Options{Features: c.Features, AllowPrivileged: c.Privileged, Namespace: c.Namespace})
			dump[c.Name] = map[string]any{"upstream": strs(theirs), "ours": strs(ours), "agree": compareDetailed(ours, theirs) == ""}
			if got := strs(ours); !reflect.DeepEqual(got, c.Want) && !(len(got) == 0 && len(c.Want) == 0) {
				t.Errorf("podlife differs from the table (stale golden file?)\npodlife: %s\n  table: %s", goList(strs(ours)), goList(c.Want))
				return
			}
			if msg := compareDetailed(ours, theirs); msg != "" {
				t.Errorf("podlife and upstream differ:\n%s\nupstream: %s", msg, goList(strs(theirs)))
				return
			}
			agree++
		})
	}
	t.Logf("%d/%d cases agree with upstream", agree, len(cases))
}

func goList(s []string) string {
	var b strings.Builder
	b.WriteString("[]string{\n")
	for _, e := range s {
		q, _ := json.Marshal(e)
		b.WriteString("\t" + string(q) + ",\n")
	}
	b.WriteString("}")
	return b.String()
}

// errKey renders what must agree: type, field, detail and the bad value normalised
// across the internal and v1 APIs (canon).
func errKey(e *field.Error) string {
	return string(e.Type) + " | " + e.Field + " | " + strconv.Quote(e.Detail) + " | " + canon(e.BadValue) + " | origin=" + e.Origin
}

// compareDetailed compares podlife's and upstream's errors as multisets of errKey and
// their Error() texts, byte for byte (podlife's validation.InternalForm prints a v1
// value as upstream prints the internal one), then in order, leaving out the errors
// upstream places by ranging over a map (upstreamcreate.Ordered).
func compareDetailed(ours, theirs field.ErrorList) string {
	count := map[string]int{}
	text := map[string]string{}
	for _, e := range theirs {
		k := errKey(e)
		count[k]++
		text[k] = e.Error()
	}
	var problems []string
	for _, o := range ours {
		k := errKey(o)
		if count[k] == 0 {
			problems = append(problems, "extra: "+k)
			continue
		}
		count[k]--
		if text[k] != o.Error() {
			problems = append(problems, "text: "+o.Error()+" vs upstream "+text[k])
		}
	}
	for k, n := range count {
		for ; n > 0; n-- {
			problems = append(problems, "missing: "+k)
		}
	}
	sort.Strings(problems)
	if len(problems) == 0 {
		if o, u := upstreamcreate.Ordered(ours), upstreamcreate.Ordered(theirs); !reflect.DeepEqual(o, u) {
			problems = append(problems, fmt.Sprintf("order: podlife %q, upstream %q", o, u))
		}
	}
	return strings.Join(problems, "\n")
}

// canon prints a value so that an internal-API value and its v1 counterpart print
// the same: named types collapse to their kind (but keep their type name), structs
// print their non-zero exported fields sorted by Go name, quantities canonically.
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
	if v.Type() == reflect.TypeOf(resource.Quantity{}) {
		q := v.Interface().(resource.Quantity)
		b.WriteString("Q(" + q.String() + ")")
		return
	}
	if n := v.Type().Name(); n != "" && v.Kind() != reflect.Struct {
		b.WriteString(n + ":")
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		if v.Kind() == reflect.Pointer {
			b.WriteString("&")
		}
		canonValue(b, v.Elem())
	case reflect.String:
		b.WriteString(strconv.Quote(v.String()))
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
		keys := v.MapKeys()
		var items []string
		for _, k := range keys {
			var kb strings.Builder
			canonValue(&kb, k)
			kb.WriteString(":")
			canonValue(&kb, v.MapIndex(k))
			items = append(items, kb.String())
		}
		sort.Strings(items)
		b.WriteString("map{" + strings.Join(items, ",") + "}")
	case reflect.Struct:
		var items []string
		for i := 0; i < v.NumField(); i++ {
			f := v.Type().Field(i)
			if !f.IsExported() || v.Field(i).IsZero() {
				continue
			}
			var fb strings.Builder
			fb.WriteString(f.Name + ":")
			canonValue(&fb, v.Field(i))
			items = append(items, fb.String())
		}
		sort.Strings(items)
		b.WriteString("{" + strings.Join(items, ",") + "}")
	default:
		fmt.Fprintf(b, "%v", v.Interface())
	}
}
