// Package byname finds list entries by name in time linear in the list: a short list
// is scanned, a long one indexed once, on its first lookup. Every lookup by name that
// runs once per container of a pod goes through it, so that a pod with 10,000
// containers costs 10,000 steps, not 10,000², and an ordinary pod allocates nothing.
package byname

import (
	"hash/maphash"
	"iter"

	corev1 "k8s.io/api/core/v1"
)

// Threshold is the list length above which an Index builds its index; shorter lists
// are scanned on each lookup, which is cheaper than a map for them.
const Threshold = 16

// Index finds the entries of a list by name. The zero Index finds nothing; create one
// with [New]. An Index is not safe for concurrent use (it builds its index on the
// first lookup); make one per call.
type Index[T any] struct {
	items []T
	name  func(*T) string
	// scan and scanBack find a name in a short list: the first position at or after
	// from, the last one before before (-1 for none). Nil scans through name, one
	// indirect call per entry; the constructors of concrete types give loops that
	// compare names in place.
	scan     func(items []T, from int, name string) int
	scanBack func(items []T, before int, name string) int
	// Built past Threshold: an open-addressing table, two slots per entry, of the
	// first position of each name (position+1; 0 is an empty slot), for each position
	// the next one with the same name (-1 at the end), and for each first position the
	// last one. One allocation of 16 bytes per entry, and a hash of each name, cost
	// less than a Go map's inserts.
	slots []int32
	next  []int32
	tail  []int32
}

// seed keys the table's hash per process, so that a list of names cannot be
// crafted to collide. It is set once and only read.
var seed = maphash.Comparable(maphash.MakeSeed(), 0) | 1

// hash is a cheap string hash keyed by seed, for the table: the name's bytes, read
// as a few little-endian words (the compiler makes each one load; the last word of a
// name overlaps the one before it, the length being mixed in first), are mixed in by
// a xor and a multiplication by an odd constant, which are bijective, then by
// murmur3's finalizer, also bijective. Names of up to 8 bytes never collide in full;
// which ones share a slot of the table depends on the seed.
func hash(s string) uint64 {
	const m = 0x9e3779b97f4a7c15
	n := len(s)
	h := seed ^ uint64(n)*m
	switch {
	case n > 8:
		for t := s; len(t) > 8; t = t[8:] {
			h = (h ^ le64(t)) * m
			h ^= h >> 29
		}
		h = (h ^ le64(s[n-8:])) * m
	case n >= 4:
		h = (h ^ (uint64(le32(s)) | uint64(le32(s[n-4:]))<<32)) * m
	case n > 0:
		h = (h ^ (uint64(s[0]) | uint64(s[n/2])<<8 | uint64(s[n-1])<<16)) * m
	}
	// A multiplication carries bits upward only: murmur3's finalizer mixes every bit
	// into the high bits the table reads (slotOf) and into the low ones.
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	return h ^ h>>33
}

// le64 and le32 read the first 8 and 4 bytes of s, little-endian.
func le64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

func le32(s string) uint32 {
	_ = s[3]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

// Same reports whether a == b, rejecting most mismatches by the length and the last
// and first bytes before the runtime's memequal is called (names of one pod often
// share a prefix and a length).
func Same(a, b string) bool {
	return len(a) == len(b) && (len(a) == 0 || a[len(a)-1] == b[len(b)-1] && a[0] == b[0] && a == b)
}

// New returns an Index over items, whose names name gives.
func New[T any](items []T, name func(*T) string) Index[T] {
	return Index[T]{items: items, name: name}
}

// NewScanned is New with the scans of short lists given: scan returns the first
// position at or after from whose name is name, scanBack the last one before before,
// -1 for none. They must answer as name does.
func NewScanned[T any](items []T, name func(*T) string, scan, scanBack func(items []T, from int, name string) int) Index[T] {
	return Index[T]{items: items, name: name, scan: scan, scanBack: scanBack}
}

func (x *Index[T]) scanFrom(from int, name string) int {
	if x.scan != nil {
		return x.scan(x.items, from, name)
	}
	for i := from; i < len(x.items); i++ {
		if x.name(&x.items[i]) == name {
			return i
		}
	}
	return -1
}

func (x *Index[T]) scanBefore(before int, name string) int {
	if x.scanBack != nil {
		return x.scanBack(x.items, before, name)
	}
	for i := before - 1; i >= 0; i-- {
		if x.name(&x.items[i]) == name {
			return i
		}
	}
	return -1
}

// Short reports whether the list is short enough to be scanned rather than indexed
// (Threshold): a caller with a concrete list may scan it in place, without the calls
// a lookup through the Index takes.
func (x *Index[T]) Short() bool { return len(x.items) <= Threshold }

// Items is the list.
func (x *Index[T]) Items() []T { return x.items }

// Len is the number of entries.
func (x *Index[T]) Len() int { return len(x.items) }

// At returns a pointer to entry i.
func (x *Index[T]) At(i int) *T { return &x.items[i] }

func (x *Index[T]) build() bool {
	if len(x.items) <= Threshold {
		return false
	}
	if x.slots == nil {
		n := len(x.items)
		size := 2 * n
		buf := make([]int32, size+2*n)
		x.slots, x.next, x.tail = buf[:size:size], buf[size:size+n:size+n], buf[size+n:]
		for i := range x.items {
			x.next[i] = -1
			name := x.name(&x.items[i])
			for h := slotOf(hash(name), size); ; h = following(h, size) {
				slot := x.slots[h]
				if slot == 0 {
					x.slots[h] = int32(i + 1)
					x.tail[i] = int32(i)
					break
				}
				if head := slot - 1; x.name(&x.items[head]) == name {
					x.next[x.tail[head]] = int32(i)
					x.tail[head] = int32(i)
					break
				}
			}
		}
	}
	return true
}

// slotOf maps a hash to one of size slots (size < 2³²) by its high 32 bits, with a
// multiplication and a shift: unlike a mask, it takes any size, so the table holds
// exactly two slots per entry and its bytes grow with the list in proportion, with no
// doubling at each power of two.
func slotOf(h uint64, size int) int {
	return int((h >> 32) * uint64(size) >> 32)
}

// following is the slot probed after slot h, wrapping at the end of the table.
func following(h, size int) int {
	if h++; h == size {
		return 0
	}
	return h
}

// head is the first position of name in a built index, or -1.
func (x *Index[T]) head(name string) int {
	size := len(x.slots)
	for h := slotOf(hash(name), size); ; h = following(h, size) {
		slot := x.slots[h]
		if slot == 0 {
			return -1
		}
		if x.name(&x.items[slot-1]) == name {
			return int(slot - 1)
		}
	}
}

// First returns the position of the first entry named name, or -1.
func (x *Index[T]) First(name string) int {
	if x.build() {
		return x.head(name)
	}
	return x.scanFrom(0, name)
}

// Next returns the position of the first entry named name after position i (an
// entry named name), or -1: with First, it walks the entries of a name in list order
// without an iterator.
func (x *Index[T]) Next(i int, name string) int {
	if x.build() {
		return int(x.next[i])
	}
	return x.scanFrom(i+1, name)
}

// Last returns the position of the last entry named name, or -1.
func (x *Index[T]) Last(name string) int {
	if x.build() {
		if h := x.head(name); h >= 0 {
			return int(x.tail[h])
		}
		return -1
	}
	return x.scanBefore(len(x.items), name)
}

// All yields the positions of the entries named name, in list order.
func (x *Index[T]) All(name string) iter.Seq[int] {
	return func(yield func(int) bool) {
		if x.build() {
			for i := x.head(name); i >= 0; i = int(x.next[i]) {
				if !yield(i) {
					return
				}
			}
			return
		}
		for i := x.scanFrom(0, name); i >= 0; i = x.scanFrom(i+1, name) {
			if !yield(i) {
				return
			}
		}
	}
}

// FirstEntry returns the first entry named name, or nil.
func (x *Index[T]) FirstEntry(name string) *T {
	if i := x.First(name); i >= 0 {
		return &x.items[i]
	}
	return nil
}

// LastEntry returns the last entry named name, or nil.
func (x *Index[T]) LastEntry(name string) *T {
	if i := x.Last(name); i >= 0 {
		return &x.items[i]
	}
	return nil
}

// Containers indexes containers by name.
func Containers(cs []corev1.Container) Index[corev1.Container] {
	return NewScanned(cs, containerName, scanContainers, scanContainersBack)
}

// Statuses indexes container statuses by name.
func Statuses(ss []corev1.ContainerStatus) Index[corev1.ContainerStatus] {
	return NewScanned(ss, statusName, scanStatuses, scanStatusesBack)
}

func containerName(c *corev1.Container) string    { return c.Name }
func statusName(s *corev1.ContainerStatus) string { return s.Name }

// The scans compare lengths first: most names of a pod differ in length or in
// content, and a length costs no call.

func scanContainers(cs []corev1.Container, from int, name string) int {
	for i := from; i < len(cs); i++ {
		if Same(cs[i].Name, name) {
			return i
		}
	}
	return -1
}

func scanContainersBack(cs []corev1.Container, before int, name string) int {
	for i := before - 1; i >= 0; i-- {
		if Same(cs[i].Name, name) {
			return i
		}
	}
	return -1
}

func scanStatuses(ss []corev1.ContainerStatus, from int, name string) int {
	for i := from; i < len(ss); i++ {
		if Same(ss[i].Name, name) {
			return i
		}
	}
	return -1
}

func scanStatusesBack(ss []corev1.ContainerStatus, before int, name string) int {
	for i := before - 1; i >= 0; i-- {
		if Same(ss[i].Name, name) {
			return i
		}
	}
	return -1
}

// FirstStatus is x.FirstEntry(name), with a short list scanned in place.
func FirstStatus(x *Index[corev1.ContainerStatus], name string) *corev1.ContainerStatus {
	if x.Short() {
		ss := x.items
		for i := range ss {
			if Same(ss[i].Name, name) {
				return &ss[i]
			}
		}
		return nil
	}
	return x.FirstEntry(name)
}

// LastStatus is x.LastEntry(name), with a short list scanned in place.
func LastStatus(x *Index[corev1.ContainerStatus], name string) *corev1.ContainerStatus {
	if x.Short() {
		ss := x.items
		for i := len(ss) - 1; i >= 0; i-- {
			if Same(ss[i].Name, name) {
				return &ss[i]
			}
		}
		return nil
	}
	return x.LastEntry(name)
}

// FirstContainer is x.FirstEntry(name), with a short list scanned in place.
func FirstContainer(x *Index[corev1.Container], name string) *corev1.Container {
	if x.Short() {
		cs := x.items
		for i := range cs {
			if Same(cs[i].Name, name) {
				return &cs[i]
			}
		}
		return nil
	}
	return x.FirstEntry(name)
}
