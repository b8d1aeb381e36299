package validation

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// naiveDedupe is the definition dedupe must agree with: keep the first error of each
// text.
func naiveDedupe(errs field.ErrorList) []string {
	seen := map[string]bool{}
	var out []string
	for _, e := range errs {
		if msg := e.Error(); !seen[msg] {
			seen[msg] = true
			out = append(out, msg)
		}
	}
	return out
}

func TestDedupe(t *testing.T) {
	p := field.NewPath
	many := func(n int, same bool) field.ErrorList {
		var l field.ErrorList
		for i := range n {
			f := p("spec").Child("containers").Index(i)
			if same && i%3 == 0 {
				f = p("spec").Child("containers").Index(0)
			}
			l = append(l, field.Required(f, ""))
		}
		return l
	}
	cases := []struct {
		name string
		in   field.ErrorList
		want []string
	}{
		{"none", nil, nil},
		{"one", field.ErrorList{field.Required(p("a"), "")}, []string{"a: Required value"}},
		{"same field, same text", field.ErrorList{field.Invalid(p("a"), "x", "bad"), field.Invalid(p("a"), "x", "bad")},
			[]string{`a: Invalid value: "x": bad`}},
		{"same field, other value", field.ErrorList{field.Invalid(p("a"), "x", "bad"), field.Invalid(p("a"), "y", "bad")},
			[]string{`a: Invalid value: "x": bad`, `a: Invalid value: "y": bad`}},
		{"other fields, same body", field.ErrorList{field.Required(p("a"), ""), field.Required(p("b"), ""), field.Required(p("a"), "")},
			[]string{"a: Required value", "b: Required value"}},
		// A key holding ": " makes a text that equals one of another field.
		{"field with a colon", field.ErrorList{
			field.Required(p("x: Required value"), ""), field.Required(p("x"), "Required value"),
			field.Invalid(p("x"), 1, ""),
		}, []string{"x: Required value: Required value", "x: Invalid value: 1"}},
		{"17 distinct (map path)", many(17, false), nil},
		{"17 with repeats (map path)", many(17, true), nil},
		{"16 with repeats (pair path)", many(16, true), nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			want := naiveDedupe(tc.in)
			if tc.want != nil {
				assert.Equal(t, tc.want, want, "the case's own expectation")
			}
			in := append(field.ErrorList(nil), tc.in...)
			var got []string
			for _, e := range dedupe(in) {
				got = append(got, e.Error())
			}
			assert.Equal(t, want, got)
		})
	}
	assert.Len(t, dedupe(many(17, true)), 12, "17 errors, 6 of them the first container's: 1 of those kept")
}
