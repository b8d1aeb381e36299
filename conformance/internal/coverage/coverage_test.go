package coverage

import (
	"fmt"
	"testing"
)

// recorder counts the errors reported to it.
type recorder struct {
	testing.TB
	errors []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func TestAssertionsFail(t *testing.T) {
	var c Counts
	c.AddN("a", 9)
	c.Add("b")
	r := &recorder{}
	c.AtLeast(r, "x", "a", 9)
	c.Share(r, "x", "a", 0.9)
	Require(r, "x", 3, 3)
	RequireShare(r, "x", 1, 10, 0.1)
	if len(r.errors) != 0 {
		t.Fatalf("met minimums reported: %q", r.errors)
	}
	c.AtLeast(r, "x", "b", 2)
	c.Each(r, "x", 1, "a", "missing")
	c.Share(r, "x", "b", 0.2)
	Require(r, "x", 2, 3)
	RequireShare(r, "x", 0, 0, 0.1)
	if len(r.errors) != 5 {
		t.Fatalf("unmet minimums: %d reported, want 5: %q", len(r.errors), r.errors)
	}
	if got := c.String(); got != "{a: 9, b: 1}" {
		t.Errorf("String = %q", got)
	}
}
