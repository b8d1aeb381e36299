package upstreamcreate

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// MapOrdered reports whether upstream's position for e comes from ranging over a Go
// map, so that it changes from run to run: label, annotation and node-selector maps
// (reported at the map's path), keyed paths (resource lists, annotation keys, flex
// options), resource lists (some rules report at the list's path), and the
// scheduling gates an update adds (upstream ranges over a set). podlife reports these
// in sorted order; the tests compare them as a multiset and every other error in
// order.
func MapOrdered(e *field.Error) bool {
	f := e.Field
	for _, suffix := range []string{".labels", ".annotations", "nodeSelector", ".matchLabels", ".userAnnotations"} {
		if strings.HasSuffix(f, suffix) {
			return true
		}
	}
	if keyedRE.MatchString(f) {
		return true
	}
	for _, part := range []string{"resources.limits", "resources.requests", "spec.overhead"} {
		if strings.Contains(f, part) {
			return true
		}
	}
	return strings.HasPrefix(e.Detail, "only deletion is allowed, but found new scheduling gate")
}

// keyedRE matches a path with a map key segment ([key], not [index]).
var keyedRE = regexp.MustCompile(`\[[^0-9\]][^\]]*\]|\[[0-9]+[^0-9\]][^\]]*\]`)

// Ordered is the Error() text of the errors whose order upstream fixes, in order.
func Ordered(l field.ErrorList) []string {
	var out []string
	for _, e := range l {
		if !MapOrdered(e) {
			out = append(out, e.Error())
		}
	}
	return out
}

// Seed is PODLIFE_SEED, or def; a value that is not an integer fails the test.
func Seed(t testing.TB, def int64) int64 {
	s, ok := os.LookupEnv("PODLIFE_SEED")
	if !ok {
		return def
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatalf("PODLIFE_SEED=%q: %v", s, err)
	}
	return v
}

// Count is the number of generated inputs of a run: def, or PODLIFE_N. PODLIFE_N may
// only raise it: the coverage a test asserts is that of def inputs, so a value that is
// not an integer, or is below def, fails the test rather than shrinking the run.
func Count(t testing.TB, def int) int {
	s, ok := os.LookupEnv("PODLIFE_N")
	if !ok {
		return def
	}
	v, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("PODLIFE_N=%q: %v", s, err)
	}
	if v < def {
		t.Fatalf("PODLIFE_N=%d is below the %d inputs whose coverage this test asserts", v, def)
	}
	return v
}

// Flag reads an on/off environment variable: unset, "", "0" or "false" is off, "1" or
// "true" on; anything else fails the test.
func Flag(t testing.TB, name string) bool {
	switch s := os.Getenv(name); s {
	case "", "0", "false":
		return false
	case "1", "true":
		return true
	default:
		t.Fatalf("%s=%q: want 1 or 0", name, s)
		return false
	}
}
