package runenv

import (
	"fmt"
	"os"
	"testing"
)

// fakeTB records a fatal failure instead of stopping the goroutine.
type fakeTB struct {
	testing.TB
	failed string
}

func (f *fakeTB) Helper() {}
func (f *fakeTB) Fatalf(format string, args ...any) {
	f.failed = fmt.Sprintf(format, args...)
	panic(f)
}

func run(f func(tb testing.TB)) (failed string) {
	tb := &fakeTB{}
	defer func() {
		if r := recover(); r != nil && r != any(tb) {
			panic(r)
		}
		failed = tb.failed
	}()
	f(tb)
	return ""
}

func TestSeed(t *testing.T) {
	t.Setenv(SeedVar, "42")
	if got := Seed(t, 7); got != 42 {
		t.Errorf("Seed = %d, want 42", got)
	}
	for _, bad := range []string{"", "x", "-1", "1.5", " 3", "18446744073709551616"} {
		t.Setenv(SeedVar, bad)
		if msg := run(func(tb testing.TB) { Seed(tb, 7) }); msg == "" {
			t.Errorf("%s=%q accepted", SeedVar, bad)
		}
	}
}

func TestCount(t *testing.T) {
	if got := run(func(tb testing.TB) { Count(tb, 100, 10) }); got != "" {
		t.Fatalf("unset: %s", got)
	}
	t.Setenv(CountVar, "25")
	if got := Count(t, 100, 10); got != 25 {
		t.Errorf("Count = %d, want 25", got)
	}
	for _, bad := range []string{"", "x", "0", "-5", "9", "1e3"} {
		t.Setenv(CountVar, bad)
		if msg := run(func(tb testing.TB) { Count(tb, 100, 10) }); msg == "" {
			t.Errorf("%s=%q accepted", CountVar, bad)
		}
	}
	t.Setenv(CountVar, "50")
	t.Setenv("PODLIFE_PODS", "50")
	if msg := run(func(tb testing.TB) { Count(tb, 100, 10) }); msg == "" {
		t.Error("a retired variable was ignored")
	}
}

func TestScale(t *testing.T) {
	if got := Scale(500, 1000, 300, 10); got != 150 {
		t.Errorf("Scale = %d", got)
	}
	if got := Scale(1, 1000, 300, 10); got != 10 {
		t.Errorf("Scale below min = %d", got)
	}
}

func TestRandomGates(t *testing.T) {
	t.Setenv(RandomGatesVar, "") // restored after the test
	os.Unsetenv(RandomGatesVar)
	if got := RandomGates(t); got != 0 {
		t.Fatalf("unset: %d, want 0", got)
	}
	t.Setenv(RandomGatesVar, "8")
	if got := RandomGates(t); got != 8 {
		t.Errorf("RandomGates = %d, want 8", got)
	}
	for _, bad := range []string{"", "x", "-1", "2.5"} {
		t.Setenv(RandomGatesVar, bad)
		if msg := run(func(tb testing.TB) { RandomGates(tb) }); msg == "" {
			t.Errorf("%s=%q accepted", RandomGatesVar, bad)
		}
	}
}
