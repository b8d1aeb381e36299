package apply_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/podlife/podlife/validation"
	"github.com/podlife/podlife/validation/apply"
)

// reordered returns a live Deployment of n containers and a manifest that lists them
// in the reverse order, each with another image: the worst shape for a strategic
// merge patch, whose keyed lists kubectl and the server merge by scanning.
func reordered(n int) (live, doc string) {
	var l, d strings.Builder
	head := "spec:\n  selector: {matchLabels: {a: b}}\n  template:\n    metadata: {labels: {a: b}}\n    spec:\n      containers:\n"
	l.WriteString("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: w, namespace: default, resourceVersion: \"1\"}\n" + head)
	d.WriteString("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: w}\n" + head)
	for i := range n {
		fmt.Fprintf(&l, "      - {name: c-%05d, image: x}\n", i)
		fmt.Fprintf(&d, "      - {name: c-%05d, image: y}\n", n-1-i)
	}
	return l.String(), d.String()
}

// BenchmarkApplyReordered applies a manifest whose containers are reordered and
// changed over the live object, at 100, 300 and 1,000 containers: the cost grows with
// the square of the list, as kubectl's and the server's (strategicpatch), not
// linearly as podlife's own functions do.
func BenchmarkApplyReordered(b *testing.B) {
	for _, n := range []int{100, 300, 1000} {
		live, doc := reordered(n)
		stored := new(validation.StoredObjects)
		for r := range validation.ValidateStream(strings.NewReader(live), "live.yaml", validation.StreamOptions{DecodeOnly: true}) {
			stored.Add(r)
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
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
