package resources

import (
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	upstream "k8s.io/component-helpers/resource"

	"github.com/podlife/podlife/resources"
)

// speedShape is one corpus of the speed comparison: pods of one shape, each with the
// options a caller of that shape passes.
type speedShape struct {
	name  string
	about string
	pods  []*corev1.Pod
	opts  []resources.PodResourcesOptions
}

// shapeGen builds the pods of the speed corpora. Its values are the canonical
// spellings real manifests use; a quarter of them carry a cached string, as quantities
// that were printed once do.
type shapeGen struct{ r *rand.Rand }

var (
	cpuValues = []string{"50m", "100m", "250m", "500m", "1", "1500m", "2"}
	memValues = []string{"32Mi", "64Mi", "128Mi", "256Mi", "512Mi", "1Gi", "100M"}
	// manyNames are the resource names of the many-names shape besides cpu and memory.
	manyNames = []corev1.ResourceName{
		corev1.ResourceEphemeralStorage, "hugepages-2Mi", "hugepages-1Gi", "nvidia.com/gpu",
		"example.com/fpga", "example.com/nic", "example.com/dongle", "amd.com/gpu",
		"intel.com/qat", "example.com/sriov-vf", "example.com/license", "example.com/ssd",
	}
	// oddValues are the invalid or unusual values of the mixed corpus.
	oddValues = []string{"0", "0m", "-1", "-500m", "1e3", "1n", "9223372036854775807", "123456789012345678901234567890", "1.5Gi", "+1"}
)

func (g *shapeGen) q(values []string) resource.Quantity {
	q := resource.MustParse(values[g.r.IntN(len(values))])
	if g.r.IntN(4) == 0 {
		_ = q.String()
	}
	return q
}

func (g *shapeGen) cpuMem() corev1.ResourceList {
	return corev1.ResourceList{corev1.ResourceCPU: g.q(cpuValues), corev1.ResourceMemory: g.q(memValues)}
}

// requirements returns cpu and memory requests, and limits of the same names (equal
// to the requests one time in three, memory alone one time in three).
func (g *shapeGen) requirements() corev1.ResourceRequirements {
	r := corev1.ResourceRequirements{Requests: g.cpuMem()}
	switch g.r.IntN(3) {
	case 0:
		r.Limits = r.Requests.DeepCopy()
	case 1:
		r.Limits = corev1.ResourceList{corev1.ResourceMemory: g.q(memValues)}
	default:
		r.Limits = g.cpuMem()
	}
	return r
}

func (g *shapeGen) containers(prefix string, n int, req func() corev1.ResourceRequirements) []corev1.Container {
	out := make([]corev1.Container, n)
	for i := range out {
		out[i] = corev1.Container{Name: fmt.Sprint(prefix, i), Image: "registry.example/app:1"}
		if req != nil {
			out[i].Resources = req()
		}
	}
	return out
}

// initContainers returns n init containers, about half of them sidecars.
func (g *shapeGen) initContainers(n int, req func() corev1.ResourceRequirements) []corev1.Container {
	out := g.containers("init", n, req)
	for i := range out {
		if g.r.IntN(2) == 0 {
			always := corev1.ContainerRestartPolicyAlways
			out[i].RestartPolicy = &always
			out[i].Name = fmt.Sprint("sidecar", i)
		}
	}
	return out
}

func newSpeedPod(c []corev1.Container) *corev1.Pod {
	p := &corev1.Pod{}
	p.Name, p.Namespace = "p", "ns"
	p.Spec.Containers = c
	return p
}

// statusFor fills container statuses as the kubelet reports a pod being resized: the
// allocated and actuated resources of every container, the actuated ones differing
// from the spec for some.
func (g *shapeGen) statusFor(p *corev1.Pod) {
	st := func(c corev1.Container) corev1.ContainerStatus {
		cs := corev1.ContainerStatus{Name: c.Name, AllocatedResources: c.Resources.Requests.DeepCopy()}
		act := c.Resources.DeepCopy()
		if g.r.IntN(2) == 0 {
			act.Requests = g.cpuMem()
		}
		cs.Resources = act
		return cs
	}
	for _, c := range p.Spec.Containers {
		p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, st(c))
	}
	for _, c := range p.Spec.InitContainers {
		p.Status.InitContainerStatuses = append(p.Status.InitContainerStatuses, st(c))
	}
	switch g.r.IntN(4) {
	case 0:
		p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodResizePending, Status: corev1.ConditionTrue, Reason: corev1.PodReasonDeferred}}
	case 1:
		p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodResizePending, Status: corev1.ConditionTrue, Reason: corev1.PodReasonInfeasible}}
	case 2:
		p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodResizeInProgress, Status: corev1.ConditionTrue}}
	}
}

// manyRequirements names cpu, memory and 6 to 12 of manyNames, in requests and limits.
func (g *shapeGen) manyRequirements() corev1.ResourceRequirements {
	r := corev1.ResourceRequirements{Requests: g.cpuMem(), Limits: g.cpuMem()}
	n := 6 + g.r.IntN(len(manyNames)-5)
	for _, i := range g.r.Perm(len(manyNames))[:n] {
		name := manyNames[i]
		v := g.q([]string{"1", "2", "4"})
		if strings.HasPrefix(string(name), corev1.ResourceHugePagesPrefix) || name == corev1.ResourceEphemeralStorage {
			v = g.q(memValues)
		}
		r.Requests[name] = v
		r.Limits[name] = v.DeepCopy()
	}
	return r
}

// mixedPod is one pod of the mixed corpus: 1 to 4 containers, 0 to 3 init containers
// (sidecars among them), pod-level resources, hugepages, overhead, status resources
// and, in a few pods, invalid or unusual values.
func (g *shapeGen) mixedPod() (*corev1.Pod, resources.PodResourcesOptions) {
	odd := g.r.IntN(8) == 0
	req := func() corev1.ResourceRequirements {
		switch g.r.IntN(6) {
		case 0:
			return corev1.ResourceRequirements{}
		case 1:
			return corev1.ResourceRequirements{Requests: g.cpuMem()}
		}
		r := g.requirements()
		if g.r.IntN(5) == 0 {
			r.Requests["hugepages-2Mi"] = g.q(memValues)
			r.Limits["hugepages-2Mi"] = r.Requests["hugepages-2Mi"].DeepCopy()
		}
		if g.r.IntN(6) == 0 {
			r.Requests[corev1.ResourceEphemeralStorage] = g.q(memValues)
		}
		if odd && g.r.IntN(2) == 0 {
			r.Requests[corev1.ResourceCPU] = g.q(oddValues)
			r.Limits[corev1.ResourceMemory] = g.q(oddValues)
		}
		return r
	}
	p := newSpeedPod(g.containers("app", 1+g.r.IntN(4), req))
	p.Spec.InitContainers = g.initContainers(g.r.IntN(4), req)
	if g.r.IntN(4) == 0 {
		// Values too large for int64 stay out of pod-level resources: upstream adds
		// the overhead into a shared big decimal there, changing its input.
		p.Spec.Resources = &corev1.ResourceRequirements{Requests: g.cpuMem()}
		if g.r.IntN(2) == 0 {
			p.Spec.Resources.Limits = g.cpuMem()
		}
	}
	if g.r.IntN(5) == 0 {
		p.Spec.Overhead = corev1.ResourceList{corev1.ResourceCPU: g.q(cpuValues), corev1.ResourceMemory: g.q(memValues)}
	}
	var opts resources.PodResourcesOptions
	if g.r.IntN(3) == 0 {
		g.statusFor(p)
		if p.Spec.Resources != nil && g.r.IntN(2) == 0 {
			p.Status.AllocatedResources = p.Spec.Resources.Requests.DeepCopy()
			p.Status.Resources = p.Spec.Resources.DeepCopy()
		}
		opts.UseStatusResources = true
		opts.InPlacePodLevelResourcesVerticalScalingEnabled = g.r.IntN(2) == 0
	}
	if g.r.IntN(8) == 0 {
		opts.NonMissingContainerRequests = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("200Mi")}
	}
	return p, opts
}

// shapeSpec is a corpus of speedShapes, built on demand so that only the corpus being
// timed is alive.
type shapeSpec struct {
	name  string
	build func() speedShape
}

// speedShapes describes the corpora of TestResourcesSpeedRatio, n pods each (the mixed
// corpus has 5n). Each corpus has its own seed, derived from seed and its position.
func speedShapes(seed uint64, n int) []shapeSpec {
	g := &shapeGen{}
	scheduler := resources.PodResourcesOptions{UseStatusResources: true, InPlacePodLevelResourcesVerticalScalingEnabled: true}
	nonMissing := resources.PodResourcesOptions{NonMissingContainerRequests: corev1.ResourceList{
		corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("200Mi")}}
	index := uint64(0)
	shape := func(name, about string, count int, mk func() (*corev1.Pod, resources.PodResourcesOptions)) shapeSpec {
		index++
		s := seed + index
		return shapeSpec{name: name, build: func() speedShape {
			g.r = rand.New(rand.NewPCG(s, s^0x5bd1e995))
			out := speedShape{name: name, about: about}
			for range count {
				p, o := mk()
				out.pods = append(out.pods, p)
				out.opts = append(out.opts, o)
			}
			return out
		}}
	}
	zero := func(mk func() *corev1.Pod) func() (*corev1.Pod, resources.PodResourcesOptions) {
		return func() (*corev1.Pod, resources.PodResourcesOptions) { return mk(), resources.PodResourcesOptions{} }
	}
	base := []shapeSpec{
		shape("tiny", "1 container, cpu+memory requests and limits", n, zero(func() *corev1.Pod {
			return newSpeedPod(g.containers("app", 1, g.requirements))
		})),
		shape("apps", "3-8 containers, cpu+memory", n, zero(func() *corev1.Pod {
			return newSpeedPod(g.containers("app", 3+g.r.IntN(6), g.requirements))
		})),
		shape("init+sidecar", "1-3 containers, 1-3 init containers (half sidecars)", n, zero(func() *corev1.Pod {
			p := newSpeedPod(g.containers("app", 1+g.r.IntN(3), g.requirements))
			p.Spec.InitContainers = g.initContainers(1+g.r.IntN(3), g.requirements)
			return p
		})),
		shape("pod-level", "spec.resources cpu+memory, 1-3 containers (some without resources)", n, zero(func() *corev1.Pod {
			p := newSpeedPod(g.containers("app", 1+g.r.IntN(3), func() corev1.ResourceRequirements {
				if g.r.IntN(3) == 0 {
					return corev1.ResourceRequirements{}
				}
				return g.requirements()
			}))
			p.Spec.Resources = &corev1.ResourceRequirements{Requests: g.cpuMem()}
			if g.r.IntN(2) == 0 {
				p.Spec.Resources.Limits = g.cpuMem()
			}
			return p
		})),
		shape("resize", "container statuses with allocated and actuated resources, resize conditions, pod-level status in half; scheduler options", n, func() (*corev1.Pod, resources.PodResourcesOptions) {
			p := newSpeedPod(g.containers("app", 1+g.r.IntN(3), g.requirements))
			if g.r.IntN(2) == 0 {
				p.Spec.InitContainers = g.initContainers(1, g.requirements)
			}
			if g.r.IntN(2) == 0 {
				p.Spec.Resources = &corev1.ResourceRequirements{Requests: g.cpuMem(), Limits: g.cpuMem()}
			}
			g.statusFor(p)
			if p.Spec.Resources != nil && g.r.IntN(2) == 0 {
				p.Status.AllocatedResources = p.Spec.Resources.Requests.DeepCopy()
				p.Status.Resources = p.Spec.Resources.DeepCopy()
			}
			return p, scheduler
		}),
		shape("many-names", "2-4 containers naming cpu, memory and 6-12 of ephemeral-storage, hugepages and extended resources", n, zero(func() *corev1.Pod {
			return newSpeedPod(g.containers("app", 2+g.r.IntN(3), g.manyRequirements))
		})),
		shape("overhead", "1-3 containers, spec.overhead cpu+memory", n, zero(func() *corev1.Pod {
			p := newSpeedPod(g.containers("app", 1+g.r.IntN(3), g.requirements))
			p.Spec.Overhead = corev1.ResourceList{corev1.ResourceCPU: g.q(cpuValues), corev1.ResourceMemory: g.q(memValues)}
			return p
		})),
		shape("no-resources", "1-4 containers and 0-2 init containers without any resources", n, zero(func() *corev1.Pod {
			p := newSpeedPod(g.containers("app", 1+g.r.IntN(4), nil))
			p.Spec.InitContainers = g.initContainers(g.r.IntN(3), nil)
			return p
		})),
		shape("non-missing", "1-3 containers, a third without requests; NonMissingContainerRequests (the scheduler's scoring)", n, func() (*corev1.Pod, resources.PodResourcesOptions) {
			p := newSpeedPod(g.containers("app", 1+g.r.IntN(3), func() corev1.ResourceRequirements {
				if g.r.IntN(3) == 0 {
					return corev1.ResourceRequirements{}
				}
				return g.requirements()
			}))
			return p, nonMissing
		}),
		shape("mixed", "1-4 containers, 0-3 init (sidecars), pod-level, hugepages, overhead, status resources, invalid values; mixed options", 5*n, g.mixedPod),
	}
	out := base
	for _, spec := range base {
		out = append(out, reusing(spec))
	}
	return out
}

// reuseSuffix ends the name of a corpus whose calls pass Reuse (see reusing).
const reuseSuffix = "+reuse"

// reusing makes every call of a corpus pass one Reuse list, as the kubelet's QoS
// container manager and the scheduler's resource metrics call component-helpers: the
// result is written into the caller's list instead of a new one, so the cost of
// building fresh result maps (the floor of the other corpora) leaves both sides.
// Upstream is given a list of its own (see reuseFor). The corpus is the same pods as
// spec's: its build draws from the same seed.
func reusing(spec shapeSpec) shapeSpec {
	build := spec.build
	spec.name += reuseSuffix
	spec.build = func() speedShape {
		s := build()
		s.name += reuseSuffix
		s.about = "the " + strings.TrimSuffix(s.name, reuseSuffix) + " corpus, both sides passing Reuse"
		reuse := corev1.ResourceList{}
		for i := range s.opts {
			s.opts[i].Reuse = reuse
		}
		return s
	}
	return spec
}

// reuseFor is upstream's Reuse for a call whose podlife options are o: a list of its
// own, so that the two sides never write into each other's result.
func reuseFor(o resources.PodResourcesOptions, own corev1.ResourceList) upstream.PodResourcesOptions {
	u := toUpstream(o)
	if u.Reuse != nil {
		u.Reuse = own
	}
	return u
}

// pair runs PodRequests and PodLimits of one implementation over a corpus.
type pair func(*speedShape)

func ourPair(s *speedShape) {
	for i, p := range s.pods {
		_ = resources.PodRequests(p, s.opts[i])
		_ = resources.PodLimits(p, s.opts[i])
	}
}

func upstreamPair(opts []upstream.PodResourcesOptions) pair {
	return func(s *speedShape) {
		for i, p := range s.pods {
			_ = upstream.PodRequests(p, opts[i])
			_ = upstream.PodLimits(p, opts[i])
		}
	}
}

// sideBySide gives each side its own copy of the corpus, made pod by pod in turn so
// that both lie in memory alike (the generated pods are scattered among the
// generator's garbage), and returns upstream's copy and pass. Upstream needs a copy of
// its own anyway: it may write into its input.
func sideBySide(s *speedShape) (speedShape, pair) {
	theirs := speedShape{name: s.name, about: s.about, opts: s.opts}
	uopts := make([]upstream.PodResourcesOptions, len(s.pods))
	ours := make([]*corev1.Pod, len(s.pods))
	own := corev1.ResourceList{}
	for i, p := range s.pods {
		ours[i] = p.DeepCopy()
		theirs.pods = append(theirs.pods, p.DeepCopy())
		uopts[i] = reuseFor(s.opts[i], own)
	}
	s.pods = ours
	return theirs, upstreamPair(uopts)
}

// resultMaps returns a pass that only builds, for each pod, two fresh lists with the
// entries of its requests and limits (taken from slices made beforehand): about the
// least any implementation returning new maps spends, without even reading the pod.
// For a corpus that passes Reuse it fills two lists it keeps instead.
func resultMaps(s *speedShape) pair {
	type entry struct {
		name corev1.ResourceName
		q    resource.Quantity
	}
	flat := func(l corev1.ResourceList) []entry {
		out := make([]entry, 0, len(l))
		for k, v := range l {
			out = append(out, entry{k, v})
		}
		return out
	}
	lists := make([][2][]entry, len(s.pods))
	for i, p := range s.pods {
		lists[i] = [2][]entry{flat(resources.PodRequests(p, s.opts[i])), flat(resources.PodLimits(p, s.opts[i]))}
	}
	out := make([]corev1.ResourceList, 2)
	reused := [2]corev1.ResourceList{{}, {}}
	return func(s *speedShape) {
		for i := range s.pods {
			for j, es := range lists[i] {
				var m corev1.ResourceList
				if s.opts[i].Reuse != nil {
					m = reused[j]
					clear(m)
				} else {
					m = make(corev1.ResourceList, len(es))
				}
				for _, e := range es {
					m[e.name] = e.q
				}
				out[j] = m
			}
		}
	}
}

// readLists is a pass that only reads, for each pod, every entry of the spec lists
// PodRequests and PodLimits read (each container's requests and limits, pod-level
// requests and limits, the overhead twice), looking cpu and memory up in short lists
// as podlife does: about the least any implementation reads, computing nothing (the
// container statuses of status resources are left out). With resultMaps it bounds
// from below what an implementation returning fresh lists can reach.
func readLists(s *speedShape) {
	var n int
	for _, p := range s.pods {
		for _, cs := range [][]corev1.Container{p.Spec.Containers, p.Spec.InitContainers} {
			for i := range cs {
				n += readList(cs[i].Resources.Requests) + readList(cs[i].Resources.Limits)
			}
		}
		if r := p.Spec.Resources; r != nil {
			n += readList(r.Requests) + readList(r.Limits)
		}
		n += 2 * readList(p.Spec.Overhead)
	}
	if n < 0 {
		panic("unreachable") // keeps the reads from being optimized away
	}
}

// readList reads every entry of l and returns a number made from them.
func readList(l corev1.ResourceList) int {
	n, left := 0, len(l)
	if left <= 3 {
		for _, name := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
			if q, ok := l[name]; ok {
				n += len(q.Format)
				left--
			}
		}
		if left == 0 {
			return n
		}
	}
	for name, q := range l {
		n += len(name) + len(q.Format)
	}
	return n
}

// checkShape asserts that both implementations agree on every pod of the corpus.
func checkShape(t *testing.T, s *speedShape) {
	t.Helper()
	fails := 0
	own := corev1.ResourceList{}
	for i, p := range s.pods {
		before := p.DeepCopy()
		o := reuseFor(s.opts[i], own)
		for _, fn := range listFns[:2] {
			if d := diffLists(fn.ours(p, s.opts[i]), fn.upstream(p.DeepCopy(), o)); d != "" {
				fails++
				if fails <= 5 {
					t.Errorf("shape %s pod #%d %s: %s\npod: %s", s.name, i, fn.name, d, dump(before))
				}
			}
		}
	}
}

// TestResourcesSpeedShapesAgree asserts that podlife and upstream agree on every pod of
// the speed corpora (TestResourcesSpeedRatio times them).
func TestResourcesSpeedShapesAgree(t *testing.T) {
	for _, spec := range speedShapes(seed(t), 300) {
		s := spec.build()
		checkShape(t, &s)
	}
}

// speedFlag reads PODLIFE_SPEED: unset, "", "0" or "false" is off, "1" or "true" on.
func speedFlag(t *testing.T) bool {
	switch v := os.Getenv("PODLIFE_SPEED"); v {
	case "", "0", "false":
		return false
	case "1", "true":
		return true
	default:
		t.Fatalf("PODLIFE_SPEED=%q: want 1 or 0", v)
		return false
	}
}

// cpuTime is the CPU time of the process so far (user and system, every thread: the
// garbage collector's workers included). On a loaded machine wall time mostly measures
// the other processes; CPU time does not.
func cpuTime(t *testing.T) time.Duration { return cpuOf(rusage(t)) }

func rusage(t *testing.T) syscall.Rusage {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatalf("getrusage: %v", err)
	}
	return ru
}

func cpuOf(ru syscall.Rusage) time.Duration { return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()) }

// heapBytes reads a runtime/metrics value in bytes.
func heapBytes(name string) uint64 {
	m := []metrics.Sample{{Name: name}}
	metrics.Read(m)
	return m[0].Value.Uint64()
}

// segmentCPU is the mutator CPU time upstream runs per segment; podlife runs the same
// number of passes over the corpus.
const segmentCPU = 10 * time.Millisecond

// speedPods is the number of pods of each corpus (the mixed one has five times as
// many): 1,000, or PODLIFE_SPEED_PODS (at least 10). Corpora larger than the cache
// make both sides wait on the same memory reads, which brings the ratios closer to 1
// than small ones do.
func speedPods(t *testing.T) int {
	v, ok := os.LookupEnv("PODLIFE_SPEED_PODS")
	if !ok {
		return 1000
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 10 {
		t.Fatalf("PODLIFE_SPEED_PODS=%q: want an integer of at least 10", v)
	}
	return n
}

// speedRounds is the number of timed rounds per shape; each round runs both sides
// over the whole corpus, in alternating order.
const speedRounds = 41

// gcModel charges a side for the collection work its allocations cause in a program
// at GOGC=100 in steady state. A collection marks the live heap every time the
// program has allocated as many bytes as are live (but at least enough to reach the
// runtime's 4 MB minimum heap), so each allocated byte costs mark/max(live, 4 MB -
// live), where mark is a forced collection that finds no garbage; and each allocated
// byte costs sweep, what a collection spends beyond mark per byte of garbage it
// frees.
type gcModel struct {
	mark  time.Duration
	live  uint64
	sweep float64 // ns per byte
}

func (m gcModel) charge(bytes uint64) time.Duration {
	const minHeap = 4 << 20
	between := float64(m.live)
	if m.live < minHeap/2 {
		between = float64(minHeap - m.live)
	}
	perByte := float64(m.mark)/between + max(m.sweep, 0)
	return time.Duration(perByte * float64(bytes))
}

// measureGC measures the model on the current heap, freeing the garbage of f's
// passes over s (bytes each) for the sweep cost. Each figure is the median of 7.
func measureGC(t *testing.T, f pair, s *speedShape, bytes uint64) gcModel {
	runtime.GC()
	var marks, sweeps []float64
	for range 7 {
		start := cpuTime(t)
		runtime.GC()
		marks = append(marks, float64(cpuTime(t)-start))
	}
	slices.Sort(marks)
	m := gcModel{mark: time.Duration(marks[len(marks)/2]), live: heapBytes("/gc/heap/live:bytes")}
	passes := max(1, int((64<<20)/max(bytes, 1)))
	for range 7 {
		for range passes {
			f(s)
		}
		start := cpuTime(t)
		runtime.GC()
		sweeps = append(sweeps, (float64(cpuTime(t)-start)-float64(m.mark))/float64(uint64(passes)*bytes))
	}
	slices.Sort(sweeps)
	m.sweep = sweeps[len(sweeps)/2]
	return m
}

// passBytes is the number of bytes one pass of f over s allocates.
func passBytes(f pair, s *speedShape) uint64 {
	runtime.GC()
	before := heapBytes("/gc/heap/allocs:bytes")
	f(s)
	return heapBytes("/gc/heap/allocs:bytes") - before
}

// segment is what one timed segment cost: CPU time and page faults.
type segment struct {
	cpu    time.Duration
	faults int64
}

// mutator times reps passes of f over s, the collector paused. The garbage of the
// previous segment is freed first, untimed, by a collection that runs while keep
// bytes more are in use (see keepMapped).
func mutator(t *testing.T, f pair, s *speedShape, reps int, keep uint64) segment {
	keepMapped(keep)
	runtime.GC()
	before := rusage(t)
	for range reps {
		f(s)
	}
	after := rusage(t)
	return segment{cpu: cpuOf(after) - cpuOf(before), faults: after.Minflt - before.Minflt}
}

// keepMapped allocates and touches n bytes and drops them, so that the collection that
// follows sees them in use. After a collection the runtime's background scavenger
// returns to the OS the free memory beyond 110% of the heap that collection found in
// use, and with the collector paused that is the live heap plus the previous
// segment's garbage: a side that allocates more than the segment before it would then
// pay a page fault per 4 KB it allocates beyond that, in its own timed CPU time (0.15
// to 0.56 faults per pod for upstream, a third of its time on single-container pods;
// podlife paid them too, less). A program in steady state at GOGC=100 keeps twice its live
// heap mapped and pays none, and the collection model charges the allocated bytes
// already; with n at least a segment's allocations, neither side pays them.
// The bytes come in chunks of one runtime page, which land where the segment's own
// spans will (the lowest free pages), not in one block that needs a run of its own.
func keepMapped(n uint64) {
	const chunk = 8 << 10
	chunks := make([][]byte, 0, n/chunk+1)
	for left := int64(n); left > 0; left -= chunk {
		b := make([]byte, chunk)
		b[0], b[chunk/2] = 1, 1 // fresh pages are not zeroed: touch both 4 KB halves
		chunks = append(chunks, b)
	}
	runtime.KeepAlive(chunks)
}

// TestResourcesSpeedRatio times PodRequests plus PodLimits, podlife against
// component-helpers with the same options, on each corpus shape of speedShapes
// (speedPods pods each), in one process: both sides run over the whole corpus in
// alternating segments of about 10 ms, speedRounds rounds per shape. A side's cost in
// a segment is its CPU time (user and system, see cpuTime, so the other processes of
// a loaded machine count little) with the collector paused, plus the collection work
// its allocated bytes cause in a program at GOGC=100 (see gcModel, measured on the
// corpus's own heap). Letting the collector run during the segments instead would
// charge each collection to whichever side happens to be running when it ends, which
// made the ratios jump by half from one run to the next. The memory each segment
// allocates stays mapped from one segment to the next (see keepMapped), so neither
// side pays page faults a program in steady state does not; the page faults per pod
// of each side are printed to show it.
//
// For each shape it prints the median and the worst round's ratio (podlife cost /
// upstream cost), the same for the mutator alone, the ratio of merely building the
// two result maps (resultMaps: a floor no implementation returning fresh lists goes
// under), the same plus merely reading the lists (readLists), and the allocations and
// bytes per pod of each side; then the shapes as README rows, worst median first. It asserts no time, only that the answers agree
// on every corpus. Timing depends on the machine, so it runs only with
// PODLIFE_SPEED=1.
func TestResourcesSpeedRatio(t *testing.T) {
	if !speedFlag(t) {
		t.Skip("set PODLIFE_SPEED=1 to compare timings")
	}
	type result struct {
		name, about           string
		pods                  int
		median, worst, mutMed float64
		floor, bound          float64
		oursNs, theirsNs      float64
		oursAlloc, theirAllc  float64
		oursB, theirsB        uint64
		oursPF, theirsPF      float64
	}
	var results []result
	for _, spec := range speedShapes(seed(t), speedPods(t)) {
		t.Run(spec.name, func(t *testing.T) {
			s := spec.build()
			checkShape(t, &s)
			theirs, up := sideBySide(&s)

			defer debug.SetGCPercent(debug.SetGCPercent(-1))
			oursB, theirsB := passBytes(ourPair, &s), passBytes(up, &theirs)
			m := measureGC(t, up, &theirs, theirsB)
			// Calibrate: about segmentCPU of upstream mutator time per segment.
			one := mutator(t, up, &theirs, 1, theirsB).cpu
			reps := max(1, int(segmentCPU/max(one, time.Microsecond)))
			keep := uint64(reps) * max(oursB, theirsB)
			mutator(t, ourPair, &s, reps, keep)
			gcO, gcU := m.charge(uint64(reps)*oursB), m.charge(uint64(reps)*theirsB)

			floor := resultMaps(&s)
			gcF := m.charge(uint64(reps) * passBytes(floor, &s))

			var ratios, mut, floors, bounds []float64
			var oursTotal, theirsTotal time.Duration
			var oursFaults, theirsFaults int64
			for r := range speedRounds {
				var so, su segment
				if r%2 == 0 {
					so = mutator(t, ourPair, &s, reps, keep)
					su = mutator(t, up, &theirs, reps, keep)
				} else {
					su = mutator(t, up, &theirs, reps, keep)
					so = mutator(t, ourPair, &s, reps, keep)
				}
				f := mutator(t, floor, &s, reps, keep).cpu
				rd := mutator(t, readLists, &s, reps, keep).cpu
				o, u := so.cpu, su.cpu
				oursFaults += so.faults
				theirsFaults += su.faults
				ratios = append(ratios, float64(o+gcO)/float64(u+gcU))
				mut = append(mut, float64(o)/float64(u))
				floors = append(floors, float64(f+gcF)/float64(u+gcU))
				bounds = append(bounds, float64(f+gcF+rd)/float64(u+gcU))
				oursTotal += o + gcO
				theirsTotal += u + gcU
			}
			slices.Sort(ratios)
			slices.Sort(mut)
			slices.Sort(floors)
			slices.Sort(bounds)
			calls := float64(speedRounds * reps * len(s.pods))
			res := result{
				name: s.name, about: s.about, pods: len(s.pods),
				median: ratios[len(ratios)/2], worst: ratios[len(ratios)-1], mutMed: mut[len(mut)/2], floor: floors[len(floors)/2],
				bound:  bounds[len(bounds)/2],
				oursNs: float64(oursTotal.Nanoseconds()) / calls, theirsNs: float64(theirsTotal.Nanoseconds()) / calls,
				oursAlloc: testing.AllocsPerRun(2, func() { ourPair(&s) }) / float64(len(s.pods)),
				theirAllc: testing.AllocsPerRun(2, func() { up(&theirs) }) / float64(len(s.pods)),
				oursB:     oursB / uint64(len(s.pods)), theirsB: theirsB / uint64(len(s.pods)),
				oursPF: float64(oursFaults) / calls, theirsPF: float64(theirsFaults) / calls,
			}
			results = append(results, res)
			t.Logf("%d pods x %d passes: ratio median %.2f worst %.2f (mutator alone %.2f, result maps alone %.2f, plus reading the lists %.2f); per pod %.0f vs %.0f ns, %.1f vs %.1f allocs, %d vs %d bytes, %.3f vs %.3f page faults; collection %.2f ns per byte (%s)",
				res.pods, reps, res.median, res.worst, res.mutMed, res.floor, res.bound, res.oursNs, res.theirsNs, res.oursAlloc, res.theirAllc,
				res.oursB, res.theirsB, res.oursPF, res.theirsPF, float64(m.charge(1<<20))/(1<<20), res.about)
		})
	}
	if len(results) == 0 {
		return
	}
	slices.SortStableFunc(results, func(a, b result) int {
		switch {
		case a.median > b.median:
			return -1
		case a.median < b.median:
			return 1
		}
		return 0
	})
	var b strings.Builder
	b.WriteString("\n| shape | pods | median | worst round | mutator alone | result maps alone | maps + reading the lists | allocs per pod | bytes per pod |\n|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range results {
		fmt.Fprintf(&b, "| %s (%s) | %d | %.2f | %.2f | %.2f | %.2f | %.2f | %.1f vs %.1f | %d vs %d |\n",
			r.name, r.about, r.pods, r.median, r.worst, r.mutMed, r.floor, r.bound, r.oursAlloc, r.theirAllc, r.oursB, r.theirsB)
	}
	withReuse := "no corpus passing Reuse ran"
	if i := slices.IndexFunc(results, func(r result) bool { return strings.HasSuffix(r.name, reuseSuffix) }); i >= 0 {
		withReuse = fmt.Sprintf("%s (%.2f, worst round %.2f)", results[i].name, results[i].median, results[i].worst)
	}
	t.Logf("PodRequests+PodLimits, podlife/upstream time, %d interleaved rounds per shape; worst shape by median: %s (%.2f, worst round %.2f); with Reuse: %s%s",
		speedRounds, results[0].name, results[0].median, results[0].worst, withReuse, b.String())
}

// BenchmarkSpeedShapes runs PodRequests plus PodLimits over each corpus of
// TestResourcesSpeedRatio (300 pods a shape), podlife and upstream; an operation is one
// pass over the corpus.
func BenchmarkSpeedShapes(b *testing.B) {
	for _, spec := range speedShapes(defaultSeed, 300) {
		s := spec.build()
		theirs, up := sideBySide(&s)
		b.Run(s.name+"/podlife", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				ourPair(&s)
			}
		})
		b.Run(s.name+"/upstream", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				up(&theirs)
			}
		})
	}
}
