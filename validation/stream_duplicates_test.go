package validation

import (
	"fmt"
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

// TestMergeKeyWarnings: a key written after a merge key that brought it in is the
// override YAML means, not a repeat; a key written twice by hand still is, and so is
// a merge that replaces a key written before it (go-yaml lets the merge win there).
func TestMergeKeyWarnings(t *testing.T) {
	head := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\n"
	for _, tc := range []struct {
		name, in string
		want     []string
	}{
		{"override after a merge", head + "base: &b {x: 1, y: 2}\ndata:\n  <<: *b\n  x: \"3\"\n", nil},
		{"override after a merge in a sequence entry", head + "base: &b {x: 1}\nlist:\n- <<: *b\n  x: 2\n", nil},
		// Not followed: two merged maps naming the same key (go-yaml reports it on the
		// first map's line, far from the merge).
		{"a list of merges naming one key", head + "a: &a {x: 1}\nb: &b {x: 2}\nc:\n  <<: [*a, *b]\n", []string{`4: duplicate key "x"`}},
		{"written twice after a merge", head + "base: &b {x: 1}\ndata:\n  <<: *b\n  x: 2\n  x: 3\n", []string{`8: duplicate key "x"`}},
		{"no merge", head + "data:\n  x: 1\n  x: 2\n", []string{`6: duplicate key "x"`}},
		{"merge after the key", head + "base: &b\n  x: 1\ndata:\n  x: 2\n  <<: *b\n", []string{`5: duplicate key "x"`}},
		{"flow style", head + "base: &b {x: 1}\ndata: {<<: *b, x: 2}\n", []string{`5: duplicate key "x"`}},
		{"an anchored entry starting on the next line", head + "list:\n- &a\n  x: 1\n- &b\n  <<: *a\n  x: 2\n", nil},
		{"an anchored entry, commented", head + "list:\n- &a # the base\n  x: 1\n-   &b   # a copy\n  <<: *a\n  x: 2\n", nil},
		{"a repeat inside an anchored node, reported once", head + "base: &b\n  x: 1\n  x: 2\nc: [*b, *b, *b]\n", []string{`6: duplicate key "x"`}},
	} {
		got := warningsOf(tc.in)
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("%s: warnings %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestListItemWarnings: a repeated key inside a List item is that item's warning only;
// one in the List's own keys is every item's.
func TestListItemWarnings(t *testing.T) {
	in := "apiVersion: v1\nkind: List\nkind: List\nitems:\n" +
		"- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: a}\n  data:\n    x: \"1\"\n    x: \"2\"\n" +
		"- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: b}\n" +
		"- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: c}\n  data:\n    y: \"1\"\n    y: \"2\"\n"
	var got []string
	for r := range ValidateStream(strings.NewReader(in), "f.yaml", StreamOptions{DecodeOnly: true}) {
		var lines []string
		for _, w := range r.Warnings {
			lines = append(lines, fmt.Sprint(w.Line))
		}
		got = append(got, r.Name+":"+strings.Join(lines, ","))
	}
	want := []string{"a:3,10", "b:3", "c:3,19"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("warnings by item %q, want %q", got, want)
	}
}

// FuzzMergeOverride: no panic on any text, line and key, and an override found only
// where a merge key is written.
func FuzzMergeOverride(f *testing.F) {
	f.Add("data:\n  <<: *b\n  x: 1\n", 3, "x")
	f.Add("- <<: *b\n  x: 1\n-\n", 2, "x")
	f.Add("-  \n- \n", 2, "")
	f.Fuzz(func(t *testing.T, text string, n int, key string) {
		if mergeOverride([]byte(text), n, key) && !strings.Contains(text, "<<") {
			t.Fatalf("an override without a merge key in %q (line %d, key %q)", text, n, key)
		}
	})
}

// TestOtherLineBreakWarnings: go-yaml also breaks lines at a lone CR and at NEL, LS
// and PS, and numbers its lines so; a repeated key is still found, and warned about
// on the line (counted at "\n", as every other answer counts) that holds it.
func TestOtherLineBreakWarnings(t *testing.T) {
	head := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\n"
	for _, tc := range []struct {
		name, in string
		want     []string
	}{
		{"CRLF", head + "data:\r\n  x: \"1\"\r\n  x: \"2\"\r\n", []string{`6: duplicate key "x"`}},
		{"lone CRs", "apiVersion: v1\r\nkind: ConfigMap\rmetadata: {name: cm}\rdata: {x: \"1\"}\rdata: {y: \"2\"}\r\n", []string{`2: duplicate key "data"`}},
		{"a lone CR, then lines", head + "data: {x: \"1\"}\rlabels: {}\ndata: {y: \"2\"}\n", []string{`5: duplicate key "data"`}},
		{"NEL", head + "data:\u0085  x: \"1\"\u0085  x: \"2\"\n", []string{`4: duplicate key "x"`}},
		{"LS and PS", head + "data: {x: \"1\"}\u2028other: 1\u2029data: {}\n", []string{`4: duplicate key "data"`}},
		{"an override after a merge, lone CRs", head + "base: &b {x: \"1\"}\rdata:\r  <<: *b\r  x: \"2\"\r", nil},
	} {
		got := warningsOf(tc.in)
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("%s: warnings %q, want %q", tc.name, got, tc.want)
		}
	}
}

// warningsOf lists a stream's warnings as "LINE: MESSAGE" (the message up to its
// first colon).
func warningsOf(in string) []string {
	var got []string
	for r := range ValidateStream(strings.NewReader(in), "f.yaml", StreamOptions{DecodeOnly: true}) {
		for _, w := range r.Warnings {
			got = append(got, fmt.Sprintf("%d: %s", w.Line, strings.SplitN(w.Message, ":", 2)[0]))
		}
	}
	return got
}
