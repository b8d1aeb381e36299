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

// TestErrorText checks errorText against Error() for every error type and the bad
// values it formats itself (strings with quotes and escapes, integers, booleans, an
// omitted value) and some it leaves to Error() (named strings, structs, pointers,
// floats, nil), with and without a detail.
func TestErrorText(t *testing.T) {
	p := field.NewPath("spec").Child("volumes").Index(3).Key(`a"b`)
	type named string
	values := []any{"", "x", `a "quoted" \ value`, "tab\tnl\n\u00e9\x00", int64(-7), int32(42), true, false,
		field.OmitValueType{}, named("n"), struct{ A int }{1}, ptrTo(int64(3)), 1.5, float32(2.25), nil, []string{"a"}}
	types := []field.ErrorType{field.ErrorTypeNotFound, field.ErrorTypeRequired, field.ErrorTypeDuplicate, field.ErrorTypeInvalid,
		field.ErrorTypeNotSupported, field.ErrorTypeForbidden, field.ErrorTypeTooLong, field.ErrorTypeTooMany,
		field.ErrorTypeTooFew, field.ErrorTypeInternal, field.ErrorTypeTypeInvalid, field.ErrorTypeTooShort, field.ErrorType("Bogus")}
	n := 0
	for _, typ := range types {
		for _, v := range values {
			for _, detail := range []string{"", "must be unique", `has "quotes": and colons`} {
				e := &field.Error{Type: typ, Field: p.String(), BadValue: v, Detail: detail}
				assert.Equal(t, e.Error(), errorText(e), "type %s value %#v detail %q", typ, v, detail)
				n++
			}
		}
	}
	assert.Equal(t, 624, n)
}

func ptrTo[T any](v T) *T { return &v }
