package validationrules

import (
	"context"
	"encoding/json"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/component-base/featuregate"
	featuregatetesting "k8s.io/component-base/featuregate/testing"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	core "k8s.io/kubernetes/pkg/apis/core"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	corev1conv "k8s.io/kubernetes/pkg/apis/core/v1"
	"k8s.io/kubernetes/pkg/capabilities"
	podstore "k8s.io/kubernetes/pkg/registry/core/pod"

	"github.com/podlife/podlife"
	"github.com/podlife/podlife/validation"
)

type goldenCase struct {
	Name       string               `json:"name"`
	Features   podlife.FeatureGates `json:"features,omitempty"`
	Privileged bool                 `json:"privileged,omitempty"`
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

func applyGates(t *testing.T, g podlife.FeatureGates) {
	t.Helper()
	if err := g.Validate(); err != nil {
		t.Fatalf("gate set: %v", err)
	}
	if len(g) == 0 {
		return
	}
	overrides := featuregatetesting.FeatureOverrides{}
	for name, v := range g {
		overrides[featuregate.Feature(name)] = v
	}
	featuregatetesting.SetFeatureGatesDuringTest(t, utilfeature.DefaultFeatureGate, overrides)
}

func setPrivileged(t *testing.T, allow bool) {
	capabilities.ResetForTest()
	capabilities.Initialize(capabilities.Capabilities{AllowPrivileged: allow})
	t.Cleanup(capabilities.ResetForTest)
}

// upstreamCreate is the API server's answer to creating pod.
func upstreamCreate(t testing.TB, pod *v1.Pod) field.ErrorList {
	p := pod.DeepCopy()
	legacyscheme.Scheme.Default(p)
	var in core.Pod
	if err := corev1conv.Convert_v1_Pod_To_core_Pod(p, &in, nil); err != nil {
		t.Fatalf("convert: %v", err)
	}
	ctx := genericapirequest.WithNamespace(context.Background(), in.Namespace)
	podstore.Strategy.PrepareForCreate(ctx, &in)
	return podstore.Strategy.Validate(ctx, &in)
}

func strs(errs field.ErrorList) []string {
	out := make([]string, len(errs))
	for i, e := range errs {
		out[i] = e.Error()
	}
	return out
}

func sorted(s []string) []string {
	c := append([]string(nil), s...)
	sort.Strings(c)
	return c
}

// TestCasesAgainstUpstream checks every expectation of podlife's tables against
// upstream, and podlife's own result (bad values and origins included) too.
func TestCasesAgainstUpstream(t *testing.T) {
	cases := loadCases(t)
	if len(cases) == 0 {
		t.Fatal("no cases")
	}
	agree := 0
	dump := map[string]map[string][]string{}
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
			theirs := upstreamCreate(t, c.Pod)
			ours := validation.ValidatePodCreate(c.Pod, validation.Options{Features: c.Features, AllowPrivileged: c.Privileged})
			dump[c.Name] = map[string][]string{"upstream": strs(theirs), "ours": strs(ours)}
			if got := sorted(strs(theirs)); !reflect.DeepEqual(got, sorted(c.Want)) {
				t.Errorf("upstream differs from the table\nupstream: %s\n   table: %s", goList(strs(theirs)), goList(c.Want))
				return
			}
			if msg := compareDetailed(ours, theirs); msg != "" {
				t.Errorf("%s", msg)
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

// compareDetailed matches errors by their Error() text (as a multiset) and then
// compares each pair's bad value (dynamic type name, kind and JSON form) and origin.
func compareDetailed(ours, theirs field.ErrorList) string {
	byText := map[string][]*field.Error{}
	for _, e := range theirs {
		byText[e.Error()] = append(byText[e.Error()], e)
	}
	var problems []string
	for _, o := range ours {
		list := byText[o.Error()]
		if len(list) == 0 {
			problems = append(problems, "extra: "+o.Error())
			continue
		}
		u := list[0]
		byText[o.Error()] = list[1:]
		if msg := sameBadValue(o.BadValue, u.BadValue); msg != "" {
			problems = append(problems, o.Error()+": bad value "+msg)
		}
		if o.Origin != u.Origin {
			problems = append(problems, o.Error()+": origin "+o.Origin+" vs upstream "+u.Origin)
		}
	}
	for k, list := range byText {
		for range list {
			problems = append(problems, "missing: "+k)
		}
	}
	sort.Strings(problems)
	return strings.Join(problems, "\n")
}

func sameBadValue(ours, theirs any) string {
	if ours == nil || theirs == nil {
		if ours == nil && theirs == nil {
			return ""
		}
		return describe(ours) + " vs upstream " + describe(theirs)
	}
	to, tt := reflect.TypeOf(ours), reflect.TypeOf(theirs)
	if to.Kind() != tt.Kind() || to.Name() != tt.Name() || typeName(to) != typeName(tt) {
		return describe(ours) + " vs upstream " + describe(theirs)
	}
	if typeName(to) == "struct" {
		return "" // internal structs have no JSON tags; same type name is the check
	}
	jo, _ := json.Marshal(ours)
	jt, _ := json.Marshal(theirs)
	if string(jo) != string(jt) {
		return describe(ours) + " vs upstream " + describe(theirs)
	}
	return ""
}

// typeName names a type without its package: "*RestartPolicy", "int32", "struct".
func typeName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Pointer:
		return "*" + typeName(t.Elem())
	case reflect.Slice:
		return "[]" + typeName(t.Elem())
	case reflect.Struct:
		if t.Name() == "Quantity" {
			return "Quantity"
		}
		return "struct"
	}
	if t.Name() != "" {
		return t.Name()
	}
	return t.Kind().String()
}

func describe(v any) string {
	if v == nil {
		return "nil"
	}
	j, _ := json.Marshal(v)
	return reflect.TypeOf(v).String() + " " + string(j)
}
