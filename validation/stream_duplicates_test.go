package validation

import (
	"strings"
	"testing"

	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

func TestMayRepeatKeys(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{validPod, false},
		{"a: 1\nb: 2\na: 3\n", true},
		{"a:\n  x: 1\nb:\n  x: 2\n", false},
		{"spec:\n  containers:\n  - name: a\n  containers: []\n", true},
		{"items:\n- name: a\n  image: b\n- name: a\n  name: b\n", true},
		{"items:\n- name: a\n- name: a\n", false},
		{"-\n  name: a\n-\n  name: a\n", false},
		{"args:\n- |\n  name: a\n  name: a\n", false},
		{"script: |\n  a: 1\n  a: 1\nnext: x\n", false},
		{"a: \"x\"\n'a': y\n", true},
		{"a: {b: 1, b: 2}\n", true},
		{"a: [1, 2]\nb: \"q\" # c\n", false},
		{"a: 'multi\n  line'\n", true},
		{"1: a\n01: b\n", true},
		{"yes: a\ntrue: b\n", true},
		{"<<: *x\n", true},
		{"a: b\n\tc: d\n", true},
		{"--- # doc\na: 1\n", false},
		{"url: http://example.com/?a=b\nmsg: it's fine\n", false},
	} {
		if got := mayRepeatKeys([]byte(tc.in)); got != tc.want {
			t.Errorf("mayRepeatKeys(%q) = %t, want %t", tc.in, got, tc.want)
		}
	}
}

// FuzzMayRepeatKeys checks that the line scan never misses a key go-yaml finds twice.
func FuzzMayRepeatKeys(f *testing.F) {
	for _, s := range []string{validPod, "a: 1\nb: 2\na: 3\n", "items:\n- name: a\n  x: 1\n- name: a\n", "a:\n  b: |\n    c: 1\n  d: 2\n", "a: [1, {b: 2}]\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var m map[string]any
		err := utilyaml.UnmarshalStrict([]byte(s), &m)
		if err != nil && strings.Contains(err.Error(), "already set in map") && !mayRepeatKeys([]byte(s)) {
			t.Errorf("go-yaml finds a repeated key in %q: %v", s, err)
		}
	})
}
