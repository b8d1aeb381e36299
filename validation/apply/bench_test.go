package apply_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/podlife/podlife/validation"
	"github.com/podlife/podlife/validation/apply"
)

// changedList returns a live Deployment of n containers and a manifest that gives each
// another image, listing them in the live order or (reversed) in the reverse order.
func changedList(n int, reversed bool) (live, doc string) {
	var l, d strings.Builder
	head := "spec:\n  selector: {matchLabels: {a: b}}\n  template:\n    metadata: {labels: {a: b}}\n    spec:\n      containers:\n"
	l.WriteString("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: w, namespace: default, resourceVersion: \"1\"}\n" + head)
	d.WriteString("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: w}\n" + head)
	for i := range n {
		j := i
		if reversed {
			j = n - 1 - i
		}
		fmt.Fprintf(&l, "      - {name: c-%05d, image: x}\n", i)
		fmt.Fprintf(&d, "      - {name: c-%05d, image: y}\n", j)
	}
	return l.String(), d.String()
}

// BenchmarkApplyKeyedList applies a manifest that changes every element of a keyed
// list (containers, merged by name) over the live object, in the live order and
// reversed, at 100, 300 and 1,000 containers: the cost grows faster than the square
// of the list, as kubectl's and the server's do (strategicpatch looks each element
// up in the list by scanning it, and orders the merged list by a sort whose every
// comparison scans the order), not linearly as podlife's own functions do.
func BenchmarkApplyKeyedList(b *testing.B) {
	for _, shape := range []struct {
		name     string
		reversed bool
	}{{"in-order", false}, {"reversed", true}} {
		for _, n := range []int{100, 300, 1000} {
			live, doc := changedList(n, shape.reversed)
			stored := new(validation.StoredObjects)
			for r := range validation.ValidateStream(strings.NewReader(live), "live.yaml", validation.StreamOptions{DecodeOnly: true}) {
				stored.Add(r)
			}
			b.Run(fmt.Sprintf("%s/%d", shape.name, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					for r := range validation.ValidateStream(strings.NewReader(doc), "app.yaml", validation.StreamOptions{Stored: stored.Get, Apply: apply.Patcher{}}) {
						if r.Patch == nil {
							b.Fatalf("no patch: %s", r.Message())
						}
					}
				}
			})
		}
	}
}
