package resources

import (
	"slices"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// table is the accumulator behind every computation of this package: a small ordered
// set of resources, each with three running quantities. It replaces the several
// intermediate ResourceLists upstream builds per call. Lookups are linear while the
// table is small (pods name a handful of resources) and go through a map index beyond
// linearMax entries, so the cost stays linear in the size of the pod.
//
// Every update goes through resource.Quantity's own Add, Cmp and DeepCopy, in the same
// order upstream applies them, so results match upstream not only in value but also in
// Format and printed form.
type table struct {
	// The first inlineSlots resources live in the table itself, so a table declared
	// as a local variable needs no allocation for a typical pod; more spill to extra.
	inline [inlineSlots]slot
	extra  []slot
	n      int
	index  map[corev1.ResourceName]int
}

// slot holds one resource of a table.
type slot struct {
	name corev1.ResourceName
	// sum is the main accumulator: during a container aggregation it is the sum over
	// the regular containers and the sidecars; other computations use it alone.
	sum resource.Quantity
	// side is the running sum of the sidecars declared so far.
	side resource.Quantity
	// peak is the largest init step seen so far.
	peak  resource.Quantity
	flags uint8
}

const (
	hasSum uint8 = 1 << iota
	hasSide
	hasPeak
)

// linearMax is the table size beyond which lookups use a map index.
const linearMax = 12

// inlineSlots is the capacity callers give a table on their stack.
const inlineSlots = 4

// slot returns the i-th resource of the table (0 <= i < t.n).
func (t *table) slot(i int) *slot {
	if i < inlineSlots {
		return &t.inline[i]
	}
	return &t.extra[i-inlineSlots]
}

func (t *table) find(name corev1.ResourceName) int {
	if t.index != nil {
		if i, ok := t.index[name]; ok {
			return i
		}
		return -1
	}
	for i := 0; i < t.n; i++ {
		if t.slot(i).name == name {
			return i
		}
	}
	return -1
}

// reserve makes room for k more resources, so that a table filled from a long list
// is allocated once rather than grown entry by entry (the slots and the index grow
// by a quarter or a doubling at a time, which costs more bytes per entry the longer
// the list). Callers pass the length of the list they are about to add; names the
// table already holds only make the room larger than needed.
func (t *table) reserve(k int) {
	if want := t.n + k - inlineSlots; want > cap(t.extra) {
		t.extra = slices.Grow(t.extra, want-len(t.extra))
	}
	if t.index == nil && t.n+k > linearMax {
		t.index = make(map[corev1.ResourceName]int, t.n+k)
		for i := 0; i < t.n; i++ {
			t.index[t.slot(i).name] = i
		}
	}
}

// at returns the slot of name, adding an empty one when there is none.
func (t *table) at(name corev1.ResourceName) *slot {
	if i := t.find(name); i >= 0 {
		return t.slot(i)
	}
	if t.n < inlineSlots {
		t.inline[t.n] = slot{name: name}
	} else {
		t.extra = append(t.extra, slot{name: name})
	}
	t.n++
	switch {
	case t.index != nil:
		t.index[name] = t.n - 1
	case t.n > linearMax:
		t.index = make(map[corev1.ResourceName]int, 2*t.n)
		for i := 0; i < t.n; i++ {
			t.index[t.slot(i).name] = i
		}
	}
	return t.slot(t.n - 1)
}

// get returns the accumulated sum of name, if any.
func (t *table) get(name corev1.ResourceName) (*resource.Quantity, bool) {
	if i := t.find(name); i >= 0 && t.slot(i).flags&hasSum != 0 {
		return &t.slot(i).sum, true
	}
	return nil, false
}

// add is upstream's addResourceList for one entry: the first quantity is copied,
// later ones are added to it.
func (t *table) add(name corev1.ResourceName, q resource.Quantity) {
	s := t.at(name)
	if s.flags&hasSum == 0 {
		s.sum = q.DeepCopy()
		s.flags |= hasSum
		return
	}
	s.sum.Add(q)
}

// addRaw adds q to the sum of name, starting from a zero Quantity when the resource is
// new (upstream's "q := list[name]; q.Add(x)"; unlike add, the zero start takes the
// format of q and drops any cached string).
func (t *table) addRaw(name corev1.ResourceName, q resource.Quantity) {
	s := t.at(name)
	s.flags |= hasSum
	s.sum.Add(q)
}

// max is upstream's maxResourceList for one entry: q replaces the sum when there is
// none or when q is strictly larger.
func (t *table) max(name corev1.ResourceName, q resource.Quantity) {
	s := t.at(name)
	if s.flags&hasSum == 0 || q.Cmp(s.sum) > 0 {
		s.sum = q.DeepCopy()
		s.flags |= hasSum
	}
}

// set replaces the sum of name with a copy of q.
func (t *table) set(name corev1.ResourceName, q resource.Quantity) {
	s := t.at(name)
	s.sum = q.DeepCopy()
	s.flags |= hasSum
}

func (t *table) addList(list corev1.ResourceList) {
	t.reserve(len(list))
	for name, q := range list {
		t.add(name, q)
	}
}

func (t *table) maxList(list corev1.ResourceList) {
	t.reserve(len(list))
	for name, q := range list {
		t.max(name, q)
	}
}

func (t *table) maxTable(o *table) {
	t.reserve(o.n)
	for i := 0; i < o.n; i++ {
		if s := o.slot(i); s.flags&hasSum != 0 {
			t.max(s.name, s.sum)
		}
	}
}

// len returns the number of resources with a sum.
func (t *table) len() int {
	n := 0
	for i := 0; i < t.n; i++ {
		if t.slot(i).flags&hasSum != 0 {
			n++
		}
	}
	return n
}

// writeTo stores every sum in list. The table owns its quantities, so no copy is made.
func (t *table) writeTo(list corev1.ResourceList) {
	for i := 0; i < t.n; i++ {
		if s := t.slot(i); s.flags&hasSum != 0 {
			list[s.name] = s.sum
		}
	}
}

// output returns reuse (emptied by the caller at the start, as upstream does) or a new
// list sized for the table, filled with the table's sums.
func (t *table) output(reuse corev1.ResourceList) corev1.ResourceList {
	out := reuse
	if out == nil {
		out = make(corev1.ResourceList, t.len())
	}
	t.writeTo(out)
	return out
}
