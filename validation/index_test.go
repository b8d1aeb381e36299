package validation

import (
	"math/rand/v2"
	"strconv"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// TestIndexedLookupsAgreeWithScans checks that the lookups which index a long list
// (namedPaths, seen, memberSet) answer as the scans they replace, on random lists
// below and above indexAbove whose names and paths repeat.
func TestIndexedLookupsAgreeWithScans(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	word := func(k int) string { return "w" + strconv.Itoa(rng.IntN(k)) }
	for round := range 300 {
		n := rng.IntN(3 * indexAbove)
		k := 1 + rng.IntN(n+1) // alphabet size: from all equal to mostly distinct
		mounts := make([]corev1.VolumeMount, n)
		for i := range mounts {
			mounts[i] = corev1.VolumeMount{Name: word(k), MountPath: word(k)}
		}
		x := newNamedPaths(mounts, mountName, mountPath)
		for q := range k + 2 {
			w := "w" + strconv.Itoa(q)
			if got, want := x.hasName(w), hasName(mounts, mountName, w); got != want {
				t.Fatalf("round %d: hasName(%q) = %v, the scan says %v", round, w, got, want)
			}
			if got, want := x.hasLastPath(w), hasPathValue(mounts, mountName, mountPath, w); got != want {
				t.Fatalf("round %d: hasLastPath(%q) = %v, the scan says %v", round, w, got, want)
			}
		}
		earlier := newSeenSet(len(mounts))
		for i := range mounts {
			if got, want := seen(&earlier, mounts[:i], mountPath, mounts[i].MountPath), hasName(mounts[:i], mountPath, mounts[i].MountPath); got != want {
				t.Fatalf("round %d: seen at %d = %v, the scan says %v", round, i, got, want)
			}
		}
		values := make([]int32, n)
		for i := range values {
			values[i] = int32(rng.IntN(k))
		}
		set := newMemberSet(values)
		for v := range int32(k + 2) {
			if got, want := set.has(values, v), contains(values, v); got != want {
				t.Fatalf("round %d: has(%d) = %v, the scan says %v", round, v, got, want)
			}
		}
	}
}
