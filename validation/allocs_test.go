package validation

import (
	"testing"
)

// TestValidatePodCreateAllocs counts the allocations of ValidatePodCreate on valid
// pods of 1, 10 and 100 app containers (benchPod): the defaulted copy of the pod is
// a local variable, the field paths are lazy (a container's path is its list's
// plus an index, none built for a valid pod), the copies the defaulting writes into
// come from one slab per kind, a Docker Hub image is parsed without building its
// normalized name and a pod without resource claims gets no claim-name map, so the
// count does not grow with the number of containers (100 take two more: the name
// indexes of a long list). Before these changes the counts were 25, 34 and 126.
func TestValidatePodCreateAllocs(t *testing.T) {
	for _, tc := range []struct {
		containers int
		max        float64
	}{{1, 15}, {10, 15}, {100, 17}} {
		pod := benchPod(tc.containers)
		got := testing.AllocsPerRun(20, func() {
			if errs := ValidatePodCreate(pod, Options{}); len(errs) != 0 {
				t.Fatal(errs)
			}
		})
		if got > tc.max {
			t.Errorf("%d containers: %v allocations, want at most %v", tc.containers, got, tc.max)
		}
	}
}
