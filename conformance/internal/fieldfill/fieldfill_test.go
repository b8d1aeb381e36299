package fieldfill

import (
	"math/rand/v2"
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// TestPodSpecPaths: the PodSpec's leaves include fields from every level, and setting
// each leaf in turn on an empty spec is recorded at that leaf.
func TestPodSpecPaths(t *testing.T) {
	paths := Paths(reflect.TypeOf(corev1.PodSpec{}))
	names := map[string]bool{}
	for _, p := range paths {
		names[p.Name] = true
	}
	for _, want := range []string{"hostPID", "containers[].stdin", "volumes[].image.reference", "volumes[].projected.sources[].podCertificate.keyType",
		"securityContext.seLinuxOptions.level", "containers[].securityContext.capabilities.add[]", "containers[].ports[].hostIP",
		"affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[].matchExpressions[].values[]"} {
		if !names[want] {
			t.Errorf("leaf %q missing", want)
		}
	}
	if len(paths) < 500 {
		t.Errorf("only %d leaves", len(paths))
	}
	r := rand.New(rand.NewPCG(1, 2))
	cov := NewCoverage(reflect.TypeOf(corev1.PodSpec{}))
	for _, p := range paths {
		spec := &corev1.PodSpec{}
		Set(r, spec, p, Random{})
		before := cov.Hits(p.Name)
		cov.Record(spec)
		if cov.Hits(p.Name) != before+1 {
			t.Errorf("%s: set but not recorded", p.Name)
		}
	}
	if missing := cov.Below(1); len(missing) != 0 {
		t.Errorf("not covered: %v", missing)
	}
	rr := NewRoundRobin(paths)
	seen := map[string]bool{}
	for range (len(paths) + 9) / 10 {
		for _, p := range rr.Take(10) {
			seen[p.Name] = true
		}
	}
	if len(seen) != len(paths) {
		t.Errorf("round robin reached %d of %d leaves", len(seen), len(paths))
	}
}
