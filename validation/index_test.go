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

// TestIndexedLookupsLinear counts the calls of the key functions made by a loop
// that asks, for each of n mounts, whether an earlier mount has its path and whether
// a device has its name or path (as validateVolumeMounts does): the count grows ten
// times from 1,000 to 10,000 mounts, where scans would grow a hundred times.
func TestIndexedLookupsLinear(t *testing.T) {
	work := func(n int) int {
		calls := 0
		name := func(m *corev1.VolumeMount) string { calls++; return m.Name }
		path := func(m *corev1.VolumeMount) string { calls++; return m.MountPath }
		mounts := make([]corev1.VolumeMount, n)
		for i := range mounts {
			mounts[i] = corev1.VolumeMount{Name: "v" + strconv.Itoa(i%7), MountPath: "/m/" + strconv.Itoa(i)}
		}
		devices := newNamedPaths(mounts, name, path)
		earlier := newSeenSet(n)
		values := make([]string, n)
		for i := range values {
			values[i] = mounts[i].MountPath
		}
		members := newMemberSet(values)
		for i := range mounts {
			seen(&earlier, mounts[:i], path, mounts[i].MountPath)
			devices.hasName(mounts[i].Name)
			devices.hasLastPath(mounts[i].MountPath)
			members.has(values, mounts[i].MountPath)
		}
		return calls
	}
	small, big := work(1000), work(10000)
	if r := float64(big) / float64(small); r > 12 {
		t.Errorf("key function calls: %d for 1,000 mounts, %d for 10,000 (×%.1f), want at most ×12", small, big, r)
	}
}
