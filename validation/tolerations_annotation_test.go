package validation

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/podlife/podlife"
)

// tolerationsAnnotationPod is a valid pod carrying the legacy tolerations annotation.
func tolerationsAnnotationPod(value string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns", Annotations: map[string]string{tolerationsAnnotationKey: value}},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "img"}}},
	}
}

func TestTolerationsAnnotation(t *testing.T) {
	const (
		decode = `metadata.annotations: Invalid value: "scheduler.alpha.kubernetes.io/tolerations": `
		item0  = "metadata.annotations.scheduler.alpha.kubernetes.io/tolerations[0]."
		item1  = "metadata.annotations.scheduler.alpha.kubernetes.io/tolerations[1]."
	)
	cases := []struct {
		name     string
		value    string
		features podlife.FeatureGates
		want     []string
	}{
		// Upstream validates only a non-empty value, and an empty list has nothing to check.
		{name: "empty value is skipped", value: ""},
		{name: "null", value: "null"},
		{name: "empty list", value: "[]"},
		{name: "empty object in list needs Exists", value: "[{}]", want: []string{
			item0 + "operator: Invalid value: \"\": operator must be Exists when `key` is empty, which means \"match all values and all keys\"",
		}},
		{name: "valid", value: `[{"key":"a","operator":"Equal","value":"b","effect":"NoSchedule"},{"operator":"Exists"}]`},
		{name: "valid NoExecute with seconds", value: `[{"key":"a","operator":"Exists","effect":"NoExecute","tolerationSeconds":-1}]`},
		{name: "field names match case-insensitively", value: `[{"KEY":"a","Operator":"Exists","EFFECT":"NoExecute","tolerationseconds":5}]`},
		{name: "unknown fields are ignored", value: `[{"key":"a","extra":{"x":1}}]`},

		// Decoding errors: encoding/json's text, naming upstream's internal types.
		{name: "object", value: "{}", want: []string{decode + "json: cannot unmarshal object into Go value of type []core.Toleration"}},
		{name: "string", value: `"x"`, want: []string{decode + "json: cannot unmarshal string into Go value of type []core.Toleration"}},
		{name: "number", value: "1", want: []string{decode + "json: cannot unmarshal number into Go value of type []core.Toleration"}},
		{name: "number item", value: "[1]", want: []string{decode + "json: cannot unmarshal number into Go value of type core.Toleration"}},
		{name: "array item", value: "[[]]", want: []string{decode + "json: cannot unmarshal array into Go value of type core.Toleration"}},
		{name: "trailing garbage", value: "[] x", want: []string{decode + "invalid character 'x' after top-level value"}},
		{name: "not JSON", value: "x", want: []string{decode + "invalid character 'x' looking for beginning of value"}},
		{name: "blank", value: " ", want: []string{decode + "unexpected end of JSON input"}},
		{name: "truncated", value: "[{", want: []string{decode + "unexpected end of JSON input"}},
		{name: "trailing comma", value: `[{"key":"a"},]`, want: []string{decode + "invalid character ']' looking for beginning of value"}},
		{name: "key of wrong type", value: `[{"key":5}]`, want: []string{decode + "json: cannot unmarshal number into Go struct field Toleration.Key of type string"}},
		{name: "operator of wrong type", value: `[{"operator":5}]`, want: []string{decode + "json: cannot unmarshal number into Go struct field Toleration.Operator of type core.TolerationOperator"}},
		{name: "effect of wrong type", value: `[{"Effect":true}]`, want: []string{decode + "json: cannot unmarshal bool into Go struct field Toleration.Effect of type core.TaintEffect"}},
		{name: "fractional seconds", value: `[{"tolerationSeconds":1.5}]`, want: []string{decode + "json: cannot unmarshal number 1.5 into Go struct field Toleration.TolerationSeconds of type int64"}},
		{name: "seconds as string", value: `[{"tolerationSeconds":"1"}]`, want: []string{decode + "json: cannot unmarshal string into Go struct field Toleration.TolerationSeconds of type int64"}},
		{name: "seconds overflow", value: `[{"tolerationSeconds":99999999999999999999}]`, want: []string{decode + "json: cannot unmarshal number 99999999999999999999 into Go struct field Toleration.TolerationSeconds of type int64"}},
		{name: "first type error wins", value: `[{"key":"a","operator":5},{"key":"b","effect":1}]`, want: []string{decode + "json: cannot unmarshal number into Go struct field Toleration.Operator of type core.TolerationOperator"}},

		// Toleration rules, under fldPath.Child(key) as upstream builds the path.
		{name: "bad key", value: `[{"key":"bad key!","operator":"Exists"}]`, want: []string{
			item0 + `key: Invalid value: "bad key!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
		}},
		{name: "unknown operator", value: `[{"key":"a","operator":"Foo"}]`, want: []string{
			item0 + `operator: Unsupported value: "Foo": supported values: "Equal", "Exists"`,
		}},
		{name: "comparison operator, gate off", value: `[{"key":"a","operator":"Lt","value":"x"}]`, want: []string{
			item0 + `operator: Unsupported value: "Lt": supported values: "Equal", "Exists", "Lt", "Gt"`,
		}},
		{name: "comparison operator, gate on", value: `[{"key":"a","operator":"Gt","value":"x"},{"key":"a","operator":"Lt","value":"10"}]`,
			features: podlife.FeatureGates{"TaintTolerationComparisonOperators": true}, want: []string{
				item0 + `value: Invalid value: "x": must be a valid decimal integer in canonical form`,
				item0 + `value: Invalid value: "x": strconv.ParseInt: parsing "x": invalid syntax`,
			}},
		{name: "value with Exists", value: `[{"key":"a","operator":"Exists","value":"v"}]`, want: []string{
			item0 + "operator: Invalid value: \"v\": value must be empty when `operator` is 'Exists'",
		}},
		{name: "bad value", value: `[{"key":"a","value":"bad value!"}]`, want: []string{
			item0 + `operator: Invalid value: "bad value!": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
		}},
		{name: "empty key needs Exists", value: `[{"operator":"Equal"}]`, want: []string{
			item0 + "operator: Invalid value: \"Equal\": operator must be Exists when `key` is empty, which means \"match all values and all keys\"",
		}},
		{name: "unknown effect", value: `[{"key":"a","effect":"Bad"}]`, want: []string{
			item0 + `effect: Unsupported value: "Bad": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"`,
		}},
		{name: "seconds need NoExecute", value: `[{"key":"a","tolerationSeconds":5,"effect":"NoSchedule"},{"key":"b","tolerationSeconds":0}]`, want: []string{
			item0 + "effect: Invalid value: \"NoSchedule\": effect must be 'NoExecute' when `tolerationSeconds` is set",
			item1 + "effect: Invalid value: \"\": effect must be 'NoExecute' when `tolerationSeconds` is set",
		}},
		{name: "null seconds are unset", value: `[{"key":"a","tolerationSeconds":null,"effect":"NoSchedule"}]`},
		{name: "later duplicate field wins", value: `[{"key":"a","Key":"bad key!","operator":"Exists"}]`, want: []string{
			item0 + `key: Invalid value: "bad key!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			errs := ValidatePodCreate(tolerationsAnnotationPod(c.value), Options{Features: c.features})
			got := make([]string, len(errs))
			for i, e := range errs {
				got[i] = e.Error()
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("value %q:\n got: %q\nwant: %q", c.value, got, c.want)
			}
		})
	}
}

// TestTolerationsAnnotationErrorFields checks what the error strings do not show: the
// bad value of a decoding error is the annotation key (a plain string), and key-format
// errors are not marked as covered by declarative validation.
func TestTolerationsAnnotationErrorFields(t *testing.T) {
	errs := ValidatePodCreate(tolerationsAnnotationPod("{"), Options{})
	if len(errs) != 1 || errs[0].Type != field.ErrorTypeInvalid || errs[0].BadValue != any(tolerationsAnnotationKey) {
		t.Fatalf("decoding error: %#v", errs)
	}
	errs = ValidatePodCreate(tolerationsAnnotationPod(`[{"key":"bad key!","operator":"Exists"}]`), Options{})
	if len(errs) != 1 || errs[0].CoveredByDeclarative || errs[0].BadValue != any("bad key!") {
		t.Fatalf("key error: %#v", errs)
	}
	// The same key in spec.tolerations is covered.
	p := tolerationsAnnotationPod("")
	p.Spec.Tolerations = []corev1.Toleration{{Key: "bad key!", Operator: corev1.TolerationOpExists}}
	errs = ValidatePodCreate(p, Options{})
	if len(errs) != 1 || !errs[0].CoveredByDeclarative {
		t.Fatalf("spec key error: %#v", errs)
	}
}

func TestTolerationsAnnotationOnUpdate(t *testing.T) {
	old := tolerationsAnnotationPod("")
	old.ResourceVersion = "1"
	pod := old.DeepCopy()
	pod.Annotations[tolerationsAnnotationKey] = `[{"operator":"Equal"}]`
	want := "metadata.annotations.scheduler.alpha.kubernetes.io/tolerations[0].operator: Invalid value: \"Equal\": " +
		"operator must be Exists when `key` is empty, which means \"match all values and all keys\""
	errs := ValidatePodUpdate(pod, old, Options{})
	if !slices.ContainsFunc(errs, func(e *field.Error) bool { return e.Error() == want }) {
		t.Fatalf("update errors %q lack %q", errs.ToAggregate(), want)
	}
}

// FuzzTolerationsAnnotation checks, for any annotation value: no panic, the same
// answer twice, a decoding error alone and worded with upstream's type names,
// toleration errors only under the annotation's path, and decoding that accepts and
// yields exactly what decoding into the v1 type does.
func FuzzTolerationsAnnotation(f *testing.F) {
	for _, s := range []string{"", "[]", "{}", "[1]", `[{"key":"a"}]`, `[{"tolerationSeconds":1.5}]`, `[{"Operator":"Lt","value":"x"}] x`} {
		f.Add(s)
	}
	annotations := field.NewPath("metadata", "annotations")
	o := &podValidationOptions{}
	f.Fuzz(func(t *testing.T, value string) {
		errs := validateTolerationsAnnotation(value, fromPath(annotations), o)
		if again := validateTolerationsAnnotation(value, fromPath(annotations), o); !reflect.DeepEqual(errs, again) {
			t.Fatalf("not deterministic: %v vs %v", errs, again)
		}
		got, err := decodeTolerationsAnnotation(value)
		var v1 []corev1.Toleration
		v1Err := json.Unmarshal([]byte(value), &v1)
		if (err == nil) != (v1Err == nil) {
			t.Fatalf("decoding %q: %v, v1 type: %v", value, err, v1Err)
		}
		if err != nil {
			if len(errs) != 1 || errs[0].Field != "metadata.annotations" || errs[0].BadValue != any(tolerationsAnnotationKey) ||
				strings.Contains(errs[0].Detail, "validation.") {
				t.Fatalf("decoding error of %q reported as %#v", value, errs)
			}
			return
		}
		if len(v1) == 0 {
			v1 = nil
		}
		if !reflect.DeepEqual(got, v1) {
			t.Fatalf("decoded %q as %#v, v1 type gives %#v", value, got, v1)
		}
		for _, e := range errs {
			if !strings.HasPrefix(e.Field, "metadata.annotations."+tolerationsAnnotationKey+"[") || e.CoveredByDeclarative {
				t.Fatalf("unexpected error for %q: %#v", value, e)
			}
		}
	})
}
