package apitest

import (
	"testing"
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
