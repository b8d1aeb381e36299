package byname

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

type entry struct{ name string }

func entryName(e *entry) string { return e.name }

// scan answers as the Index must, by brute force.
func scan(items []entry, name string) (all []int) {
	for i := range items {
		if items[i].name == name {
			all = append(all, i)
		}
	}
	return all
}

// TestIndexMatchesScan: on random lists around the threshold, with repeated names,
// First, Last and All answer as a scan does, indexed or not.
func TestIndexMatchesScan(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for round := range 3000 {
		n := r.IntN(3 * Threshold)
		items := make([]entry, n)
		for i := range items {
			items[i].name = strconv.Itoa(r.IntN(n/2 + 1))
		}
		x := New(items, entryName)
		for q := range n + 2 {
			name := strconv.Itoa(q)
			want := scan(items, name)
			got := slices.Collect(x.All(name))
			if !slices.Equal(got, want) {
				t.Fatalf("round %d n=%d All(%s) = %v, want %v", round, n, name, got, want)
			}
			first, last := -1, -1
			if len(want) > 0 {
				first, last = want[0], want[len(want)-1]
			}
			if x.First(name) != first || x.Last(name) != last {
				t.Fatalf("round %d n=%d %s: First/Last = %d/%d, want %d/%d", round, n, name, x.First(name), x.Last(name), first, last)
			}
			if e := x.FirstEntry(name); (e == nil) != (first < 0) || e != nil && e != &items[first] {
				t.Fatalf("FirstEntry(%s) wrong", name)
			}
			if e := x.LastEntry(name); (e == nil) != (last < 0) || e != nil && e != &items[last] {
				t.Fatalf("LastEntry(%s) wrong", name)
			}
			for range x.All(name) {
				break // an early stop must not panic
			}
			var walked []int
			for i := x.First(name); i >= 0; i = x.Next(i, name) {
				walked = append(walked, i)
			}
			if !slices.Equal(walked, want) {
				t.Fatalf("round %d n=%d First/Next(%s) = %v, want %v", round, n, name, walked, want)
			}
		}
	}
}

// TestIndexWorkIsLinear counts the names read to answer one lookup per entry: a long
// list reads a few names per entry and per lookup (the index builds its table from
// each name and checks the entry a lookup lands on, with a probe now and then), never
// a scan's worth; a short one scans. This is the linearity every per-container lookup
// relies on, shown by counting work rather than timing it.
func TestIndexWorkIsLinear(t *testing.T) {
	for _, n := range []int{Threshold, Threshold + 1, 1000, 10000} {
		items := make([]entry, n)
		for i := range items {
			items[i].name = strconv.Itoa(i)
		}
		reads := 0
		x := New(items, func(e *entry) string { reads++; return e.name })
		for i := range items {
			if x.First(items[i].name) != i || x.Last(items[i].name) != i {
				t.Fatalf("n=%d: entry %d not found", n, i)
			}
		}
		switch {
		case n <= Threshold:
			if reads > 2*n*n {
				t.Errorf("n=%d: %d name reads, scans should need at most %d", n, reads, 2*n*n)
			}
		case reads > 3*(n+2*n):
			t.Errorf("n=%d: %d name reads for %d entries and %d lookups; the index should read a few names for each", n, reads, n, 2*n)
		}
	}
}

// TestIndexCollisions: names hashed into the same slots (here many more names than
// the minimum table holds, and repeated names) are all found, in order.
func TestIndexCollisions(t *testing.T) {
	var items []entry
	for i := range 500 {
		items = append(items, entry{name: strconv.Itoa(i % 97)}, entry{name: "x" + strconv.Itoa(i)})
	}
	x := New(items, entryName)
	for q := range 600 {
		for _, name := range []string{strconv.Itoa(q), "x" + strconv.Itoa(q), "missing" + strconv.Itoa(q)} {
			want := scan(items, name)
			if got := slices.Collect(x.All(name)); !slices.Equal(got, want) {
				t.Fatalf("All(%s) = %v, want %v", name, got, want)
			}
		}
	}
}

// TestShortListAllocatesNothing: ordinary pods never pay for an index.
func TestShortListAllocatesNothing(t *testing.T) {
	items := make([]entry, Threshold)
	for i := range items {
		items[i].name = strconv.Itoa(i)
	}
	allocs := testing.AllocsPerRun(100, func() {
		x := New(items, entryName)
		_ = x.First("7") + x.Last("3")
		for range x.All("9") {
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations for a short list", allocs)
	}
}

// TestConcreteScansMatch: the indexes of containers and statuses, which scan short
// lists with their own loops, answer as the generic scan does, around the threshold.
func TestConcreteScansMatch(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for round := range 2000 {
		n := r.IntN(3 * Threshold)
		cs := make([]corev1.Container, n)
		ss := make([]corev1.ContainerStatus, n)
		for i := range n {
			name := strconv.Itoa(r.IntN(n/2 + 1))
			if r.IntN(4) == 0 {
				name += "x" // names of other lengths
			}
			cs[i].Name, ss[i].Name = name, name
		}
		c, st := Containers(cs), Statuses(ss)
		g := New(cs, func(c *corev1.Container) string { return c.Name })
		for q := range n + 2 {
			for _, name := range []string{strconv.Itoa(q), strconv.Itoa(q) + "x"} {
				want := slices.Collect(g.All(name))
				if got := slices.Collect(c.All(name)); !slices.Equal(got, want) {
					t.Fatalf("round %d: Containers All(%s) = %v, want %v", round, name, got, want)
				}
				if got := slices.Collect(st.All(name)); !slices.Equal(got, want) {
					t.Fatalf("round %d: Statuses All(%s) = %v, want %v", round, name, got, want)
				}
				if c.First(name) != g.First(name) || c.Last(name) != g.Last(name) || st.First(name) != g.First(name) || st.Last(name) != g.Last(name) {
					t.Fatalf("round %d: First/Last(%s) differ", round, name)
				}
			}
		}
	}
}

// TestIndexBytesAreProportional: the table of a long list takes 16 bytes per entry,
// whatever the length (a table sized to a power of two took up to twice that, so its
// bytes grew 13× from 1,000 to 10,000 entries).
func TestIndexBytesAreProportional(t *testing.T) {
	for _, n := range []int{Threshold + 1, 1000, 1025, 10000, 10250} {
		items := make([]entry, n)
		for i := range items {
			items[i].name = strconv.Itoa(i)
		}
		x := New(items, entryName)
		_ = x.First("0")
		if got := cap(x.slots) + cap(x.next) + cap(x.tail); got != 4*n {
			t.Errorf("n=%d: the index holds %d int32s, want %d", n, got, 4*n)
		}
	}
}
