package resources

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// table is the accumulator behind every computation of this package: a small ordered
// set of resources, each with a running quantity. It replaces the several intermediate
// ResourceLists upstream builds per call: a table declared as a local variable lives on
// the stack, so PodRequests and PodLimits allocate only their result for pods naming
// up to inlineSlots resources (stepSlots for pods with init containers). Lookups go
// through a small hash of the name (hint) while the table is small and through a map
// index beyond linearMax entries, so the cost stays linear in the size of the pod.
// The calls keep their stack small (about 6 KB on the deepest path, status resources
// and init containers): a goroutine's first stack is 8 KB.
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
	// hint is a small open-addressing index of the first linearMax names: bucket b
	// holds 1 + the position of a name whose hash (see hintOf) is b or, when that
	// bucket was taken, a name found by probing the buckets after it; 0 is an empty
	// bucket, where a lookup ends. At most half the buckets are ever taken, so most
	// lookups end at the first or second probe, even among names of one shape
	// ("hugepages-1Gi", "hugepages-2Mi") that share a hash.
	hint  [hintSize]uint8
	index map[corev1.ResourceName]int
}

// hintSize is the number of buckets of a table's hint.
const hintSize = 32

// hintOf hashes a name from its length and three of its bytes.
func hintOf(name corev1.ResourceName) int {
	n := len(name)
	if n == 0 {
		return 0
	}
	return (n + int(name[0]) + 3*int(name[n-1]) + 5*int(name[n/2])) & (hintSize - 1)
}

// slot holds one resource of a table.
type slot struct {
	name corev1.ResourceName
	// sum is the accumulated value: during a container aggregation, the sum over the
	// regular containers and the sidecars (the init steps are kept in steps).
	sum   resource.Quantity
	flags uint8
}

// hasSum marks a slot whose sum is set.
const hasSum uint8 = 1

// linearMax is the table size beyond which lookups use a map index.
const linearMax = 16

// The hint keeps at least half its buckets empty (find's probe ends at one).
const _ = uint(hintSize - 2*linearMax)

// inlineSlots is the number of resources a table holds without allocating: cpu,
// memory, ephemeral-storage, hugepages and a few extended resources.
const inlineSlots = 16

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
	// hint holds every name while there is no index, and never more than half its
	// buckets, so the probe meets the name or an empty bucket.
	for b := hintOf(name); ; b = (b + 1) & (hintSize - 1) {
		h := t.hint[b]
		if h == 0 {
			return -1
		}
		if i := int(h) - 1; t.slot(i).name == name {
			return i
		}
	}
}

// at returns the slot of name, adding an empty one when there is none.
func (t *table) at(name corev1.ResourceName) *slot {
	return t.slot(t.pos(name))
}

// pos returns the position of name, adding an empty slot when there is none.
func (t *table) pos(name corev1.ResourceName) int {
	if i := t.find(name); i >= 0 {
		return i
	}
	return t.push(name)
}

// push adds an empty slot for name, which the table does not hold, and returns its
// position.
func (t *table) push(name corev1.ResourceName) int {
	if t.n < inlineSlots {
		t.inline[t.n].name = name
	} else {
		if t.extra == nil {
			t.extra = make([]slot, 0, inlineSlots)
		}
		t.extra = append(t.extra, slot{name: name})
	}
	t.n++
	if t.n <= linearMax {
		b := hintOf(name)
		for t.hint[b] != 0 {
			b = (b + 1) & (hintSize - 1)
		}
		t.hint[b] = uint8(t.n)
	}
	switch {
	case t.index != nil:
		t.index[name] = t.n - 1
	case t.n > linearMax:
		t.index = make(map[corev1.ResourceName]int, 2*t.n)
		for i := 0; i < t.n; i++ {
			t.index[t.slot(i).name] = i
		}
	}
	return t.n - 1
}

// reserve makes room for n resources in all (a lower bound of what the table will
// hold, e.g. the length of a list about to be added), so that a table that grows large
// allocates its storage and its index once rather than by repeated appends and map
// growth, which cost several times the final size.
func (t *table) reserve(n int) {
	if n <= linearMax {
		return
	}
	if need := n - inlineSlots; cap(t.extra) < need {
		grown := make([]slot, len(t.extra), need)
		copy(grown, t.extra)
		t.extra = grown
	}
	if t.index == nil {
		t.index = make(map[corev1.ResourceName]int, n)
		for i := 0; i < t.n; i++ {
			t.index[t.slot(i).name] = i
		}
	}
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
	t.addp(name, &q)
}

// addp is add with q passed by pointer (q is not modified).
func (t *table) addp(name corev1.ResourceName, q *resource.Quantity) {
	// find and push rather than at: one call on the common path instead of three.
	i := t.find(name)
	if i < 0 {
		i = t.push(name)
	}
	s := t.slot(i)
	if s.flags&hasSum == 0 {
		s.sum = q.DeepCopy()
		s.flags |= hasSum
		return
	}
	s.sum.Add(*q)
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
	eachEntry(list, t.add)
}

func (t *table) maxList(list corev1.ResourceList) {
	t.reserve(len(list))
	eachEntry(list, t.max)
}

// lookupMax is the largest list whose cpu and memory eachEntry looks up before
// iterating: past it, most entries are other resources.
const lookupMax = 3

// eachEntry calls f for every entry of list. Short lists nearly always name cpu and
// memory: those two are looked up, which costs less than setting up an iteration, and
// the map is iterated only when it names more.
func eachEntry(list corev1.ResourceList, f func(corev1.ResourceName, resource.Quantity)) {
	n := len(list)
	if n == 0 {
		return
	}
	if n <= lookupMax {
		if q, ok := list[corev1.ResourceCPU]; ok {
			f(corev1.ResourceCPU, q)
			n--
		}
		if n > 0 {
			if q, ok := list[corev1.ResourceMemory]; ok {
				f(corev1.ResourceMemory, q)
				n--
			}
		}
		if n == 0 {
			return
		}
		for name, q := range list {
			if name != corev1.ResourceCPU && name != corev1.ResourceMemory {
				f(name, q)
			}
		}
		return
	}
	for name, q := range list {
		f(name, q)
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

// writeTo stores every sum in list. The table owns its quantities, so no copy is made.
func (t *table) writeTo(list corev1.ResourceList) {
	for i := 0; i < t.n; i++ {
		if s := t.slot(i); s.flags&hasSum != 0 {
			list[s.name] = s.sum
		}
	}
}

// output returns reuse (emptied by the caller at the start, as upstream does) or a new
// list sized for the table (every slot of a finished computation has a sum), filled
// with the table's sums.
func (t *table) output(reuse corev1.ResourceList) corev1.ResourceList {
	out := reuse
	if out == nil {
		out = make(corev1.ResourceList, t.n)
	}
	t.writeTo(out)
	return out
}
