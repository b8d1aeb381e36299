// Package byname finds list entries by name in time linear in the list: a short list
// is scanned, a long one indexed once, on its first lookup. Every lookup by name that
// runs once per container of a pod goes through it, so that a pod with 10,000
// containers costs 10,000 steps, not 10,000², and an ordinary pod allocates nothing.
package byname

import (
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
	// Built past Threshold: the first and last position of each name, and for each
	// position the next one with the same name (-1 at the end).
	ends map[string][2]int32
	next []int32
}

// New returns an Index over items, whose names name gives.
func New[T any](items []T, name func(*T) string) Index[T] {
	return Index[T]{items: items, name: name}
}

// Len is the number of entries.
func (x *Index[T]) Len() int { return len(x.items) }

// At returns a pointer to entry i.
func (x *Index[T]) At(i int) *T { return &x.items[i] }

func (x *Index[T]) build() bool {
	if len(x.items) <= Threshold {
		return false
	}
	if x.ends == nil {
		x.ends = make(map[string][2]int32, len(x.items))
		x.next = make([]int32, len(x.items))
		for i := range x.items {
			x.next[i] = -1
			n := x.name(&x.items[i])
			if e, ok := x.ends[n]; ok {
				x.next[e[1]] = int32(i)
				x.ends[n] = [2]int32{e[0], int32(i)}
			} else {
				x.ends[n] = [2]int32{int32(i), int32(i)}
			}
		}
	}
	return true
}

// First returns the position of the first entry named name, or -1.
func (x *Index[T]) First(name string) int {
	if x.build() {
		if e, ok := x.ends[name]; ok {
			return int(e[0])
		}
		return -1
	}
	for i := range x.items {
		if x.name(&x.items[i]) == name {
			return i
		}
	}
	return -1
}

// Last returns the position of the last entry named name, or -1.
func (x *Index[T]) Last(name string) int {
	if x.build() {
		if e, ok := x.ends[name]; ok {
			return int(e[1])
		}
		return -1
	}
	for i := len(x.items) - 1; i >= 0; i-- {
		if x.name(&x.items[i]) == name {
			return i
		}
	}
	return -1
}

// All yields the positions of the entries named name, in list order.
func (x *Index[T]) All(name string) iter.Seq[int] {
	return func(yield func(int) bool) {
		if x.build() {
			e, ok := x.ends[name]
			if !ok {
				return
			}
			for i := e[0]; i >= 0; i = x.next[i] {
				if !yield(int(i)) {
					return
				}
			}
			return
		}
		for i := range x.items {
			if x.name(&x.items[i]) == name && !yield(i) {
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
	return New(cs, func(c *corev1.Container) string { return c.Name })
}

// Statuses indexes container statuses by name.
func Statuses(ss []corev1.ContainerStatus) Index[corev1.ContainerStatus] {
	return New(ss, func(s *corev1.ContainerStatus) string { return s.Name })
}
