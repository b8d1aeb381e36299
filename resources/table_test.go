package resources

import (
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// TestTableFinds adds names to a table one by one, many of them sharing a hint bucket,
// and checks after each that every name added is found at its position and that
// names not added are not found, below and above the size where the table switches
// to a map index.
func TestTableFinds(t *testing.T) {
	// Names of one length whose hashed bytes differ only where hintOf weighs them
	// back into the same buckets, then extended resources, then a long tail.
	var names []corev1.ResourceName
	for _, n := range []string{"hugepages-1Gi", "hugepages-2Mi", "hugepages-1Mi", "hugepages-2Gi", "cpu", "memory", "ephemeral-storage"} {
		names = append(names, corev1.ResourceName(n))
	}
	for i := range 30 {
		names = append(names, corev1.ResourceName(fmt.Sprintf("example.com/r%02d", i)))
	}
	buckets := map[int]int{}
	for _, n := range names[:linearMax] {
		buckets[hintOf(n)]++
	}
	shared := 0
	for _, c := range buckets {
		shared += c - 1
	}
	if shared < 3 {
		t.Fatalf("only %d of the first %d names share a bucket with another: the test does not exercise probing", shared, linearMax)
	}
	absent := []corev1.ResourceName{"hugepages-3Gi", "example.com/r99", "", "c", "example.com/r0"}
	var tb table
	for k, name := range names {
		if got := tb.pos(name); got != k {
			t.Fatalf("adding %q: position %d, want %d", name, got, k)
		}
		tb.slot(k).sum = resource.MustParse("1")
		tb.slot(k).flags |= hasSum
		for j, n := range names[:k+1] {
			if got := tb.find(n); got != j {
				t.Fatalf("%d names: find(%q) = %d, want %d", k+1, n, got, j)
			}
		}
		for _, n := range append(absent, names[k+1:]...) {
			if got := tb.find(n); got != -1 {
				t.Fatalf("%d names: find(%q) = %d for a name not added", k+1, n, got)
			}
		}
	}
	if tb.index == nil {
		t.Fatalf("%d names and no map index", len(names))
	}
}
