package lifecycle

import "testing"

// TestFraction checks the READY fractions, from the table and rendered.
func TestFraction(t *testing.T) {
	for _, tc := range []struct {
		a, b int
		want string
	}{{0, 0, "0/0"}, {0, 1, "0/1"}, {1, 2, "1/2"}, {9, 9, "9/9"}, {3, 7, "3/7"}, {10, 12, "10/12"}, {9, 10, "9/10"}, {-1, 2, "-1/2"}} {
		if got := fraction(tc.a, tc.b); got != tc.want {
			t.Errorf("fraction(%d, %d) = %q, want %q", tc.a, tc.b, got, tc.want)
		}
	}
	if n := testing.AllocsPerRun(10, func() { _ = fraction(2, 3) }); n != 0 {
		t.Errorf("fraction(2, 3) allocates %v times, want 0", n)
	}
}
