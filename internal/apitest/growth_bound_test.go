package apitest

import (
	"fmt"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podlife/podlife/validation"
)

// growthBound is a function on a hostile shape whose work must grow no faster than
// the pod: from small to 10×small elements, at most 12× the bytes and allocations.
type growthBound struct {
	call, shape string
	small       int
}

// boundedGrowth lists the calls that once grew faster than the pod, and why (at 300
// to 3,000 elements the old code fails here for all but the conditions, whose
// excess showed only from 1,000 to 10,000):
//   - ValidateStream: the 422 status message was built by apimachinery's
//     aggregate.Error, which appends message by message to one string (n² bytes);
//   - ComputePodActions and the conditions: lists of containers and messages grown
//     by appends (about 2× the final size for short lists, 5× for long ones);
//   - the resources: tables and Explain's per-resource lists grown entry by entry;
//     from 1,000 to 10,000 resource names, the tables' storage and index still grew
//     by appends and map growth (PodRequests 14×);
//   - the name index (internal/byname) of the statuses and containers: its table,
//     sized to a power of two, took up to twice its due, 13× from 1,000 to 10,000.
var boundedGrowth = []growthBound{
	{"validation.ValidateStream", "names", 300},
	{"validation.ValidateStream", "quantities", 300},
	{"lifecycle.ComputePodActions", "containers", 300},
	{"lifecycle.ComputePodActions", "names", 300},
	{"lifecycle.InitializedCondition", "containers", 300},
	{"lifecycle.InitializedCondition", "names", 300},
	{"lifecycle.ContainersReadyCondition", "containers", 300},
	{"lifecycle.ContainersReadyCondition", "names", 300},
	{"lifecycle.ReadyCondition", "containers", 300},
	{"lifecycle.ReadyCondition", "names", 300},
	{"resources.PodRequests", "quantities", 300},
	{"resources.PodLimits", "quantities", 300},
	{"resources.AggregateContainerRequests", "quantities", 300},
	{"resources.AggregateContainerLimits", "quantities", 300},
	{"resources.Explain", "containers", 300},
	{"resources.Explain", "names", 300},
	{"resources.Explain", "quantities", 300},
	{"resources.PodRequests", "quantities", 1000},
	{"resources.PodLimits", "quantities", 1000},
	{"lifecycle.Phase", "names", 1000},
	{"lifecycle.InitializedCondition", "containers", 1000},
	{"restart.ShouldAllContainersRestart", "names", 1000},
	// Upstream's create and update warnings compare every pair of ports and of volume
	// paths.
	{"validation.CreateWarnings", "ports", 1000},
	{"validation.CreateWarnings", "paths", 1000},
	{"validation.UpdateWarnings", "ports", 1000},
	{"validation.UpdateWarnings", "paths", 1000},
	{"validation.ValidatePodCreate", "ports", 1000},
	{"validation.ValidatePodCreate", "paths", 1000},
}

// TestHostileGrowthBounded counts the bytes and allocations of the calls of
// boundedGrowth at small and 10×small elements: both grow at most 12×. Work is
// counted, not timed, so the check is deterministic (TestHostileGrowth measures the
// time too, on demand). The sizes are small enough for a few seconds (1,000 where the excess showed only from there).
func TestHostileGrowthBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("hostile pods of 10,000 elements")
	}
	byName := map[string]call{}
	for _, c := range calls {
		byName[c.name] = c
	}
	type key struct {
		shape string
		n     int
	}
	built := map[key]*fixtures{}
	get := func(shape string, n int) *fixtures {
		k := key{shape, n}
		if built[k] == nil {
			built[k] = hostileFixtures(shape, n)
		}
		return built[k]
	}
	for _, g := range boundedGrowth {
		c, ok := byName[g.call]
		if !ok {
			t.Fatalf("no call named %s", g.call)
		}
		small, big := get(g.shape, g.small), get(g.shape, 10*g.small)
		bs, as := countWork(func() { _ = c.fn(small) })
		bb, ab := countWork(func() { _ = c.fn(big) })
		if rb, ra := ratio(float64(bb), float64(bs)), ratio(float64(ab), float64(as)); rb > 12 || ra > 12 {
			t.Errorf("%s on the %s shape, %d → %d elements: bytes %d → %d (×%.1f), allocations %d → %d (×%.1f); want at most ×12",
				g.call, g.shape, g.small, 10*g.small, bs, bb, rb, as, ab, ra)
		}
	}
}

// TestUnknownFieldsGrowthBounded: a Deployment with thousands of unknown fields costs
// ValidateStream work linear in them under each of kubectl's --validate directives
// (strict: one 400 naming them all; warn: the server's warnings, capped by its
// recorder, each located in the document; ignore: dropped), at most 12× the bytes and
// allocations from 1,000 to 10,000 fields.
func TestUnknownFieldsGrowthBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("documents of 10,000 fields")
	}
	doc := func(n int) string {
		var b strings.Builder
		b.WriteString("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n")
		for i := range n {
			fmt.Fprintf(&b, "  unknown%d: 1\n", i)
		}
		b.WriteString("  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: c, image: nginx}]}\n")
		return b.String()
	}
	small, big := doc(1000), doc(10000)
	for _, directive := range []string{metav1.FieldValidationStrict, metav1.FieldValidationWarn, metav1.FieldValidationIgnore} {
		run := func(d string) func() {
			return func() {
				for range validation.ValidateStream(strings.NewReader(d), "m.yaml", validation.StreamOptions{FieldValidation: directive}) {
				}
			}
		}
		bs, as := countWork(run(small))
		bb, ab := countWork(run(big))
		rb, ra := ratio(float64(bb), float64(bs)), ratio(float64(ab), float64(as))
		t.Logf("--validate=%s: bytes ×%.1f, allocations ×%.1f", directive, rb, ra)
		if rb > 12 || ra > 12 {
			t.Errorf("--validate=%s, 1,000 → 10,000 unknown fields: bytes %d → %d (×%.1f), allocations %d → %d (×%.1f); want at most ×12",
				directive, bs, bb, rb, as, ab, ra)
		}
	}
}
