package resources_test

import (
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/podlife/podlife/resources"
)

// fuzzReader turns fuzz bytes into choices; past the end every choice is 0.
type fuzzReader struct {
	data []byte
	pos  int
}

func (r *fuzzReader) next(n int) int {
	if r.pos >= len(r.data) || n <= 1 {
		r.pos++
		return 0
	}
	b := int(r.data[r.pos])
	r.pos++
	return b % n
}

var fuzzQuantities = []string{"0", "1", "2", "100m", "250m", "1500m", "+1", "0.5", "1e3", "1Ki", "64Mi", "1Gi", "1024Mi", "1G", "-1", "-200m", "9223372036854775807", "1e20", "123456789012345678901234567890", "1n"}
var fuzzNames = []corev1.ResourceName{"cpu", "memory", "ephemeral-storage", "hugepages-2Mi", "example.com/gpu", "hugepages-"}

func (r *fuzzReader) list() corev1.ResourceList {
	switch r.next(5) {
	case 0:
		return nil
	case 1:
		return corev1.ResourceList{}
	}
	l := corev1.ResourceList{}
	for n := 1 + r.next(4); n > 0; n-- {
		l[fuzzNames[r.next(len(fuzzNames))]] = resource.MustParse(fuzzQuantities[r.next(len(fuzzQuantities))])
	}
	return l
}

func (r *fuzzReader) reqs() corev1.ResourceRequirements {
	return corev1.ResourceRequirements{Requests: r.list(), Limits: r.list()}
}

var fuzzContainerNames = []string{"a", "b", "c", "d", "a"}

func (r *fuzzReader) status(name string) corev1.ContainerStatus {
	cs := corev1.ContainerStatus{Name: name, AllocatedResources: r.list()}
	if r.next(2) == 1 {
		rq := r.reqs()
		cs.Resources = &rq
	}
	return cs
}

// pod builds a pod, and options, from the fuzz input.
func (r *fuzzReader) pod() (*corev1.Pod, resources.PodResourcesOptions) {
	p := &corev1.Pod{}
	for i, n := 0, r.next(4); i < n; i++ {
		p.Spec.Containers = append(p.Spec.Containers, corev1.Container{Name: fuzzContainerNames[r.next(5)], Resources: r.reqs()})
	}
	for i, n := 0, r.next(4); i < n; i++ {
		c := corev1.Container{Name: "i" + fuzzContainerNames[r.next(5)], Resources: r.reqs()}
		if k := r.next(4); k > 0 {
			rp := []corev1.ContainerRestartPolicy{"", corev1.ContainerRestartPolicyAlways, corev1.ContainerRestartPolicyNever, "x"}[k]
			c.RestartPolicy = &rp
		}
		p.Spec.InitContainers = append(p.Spec.InitContainers, c)
	}
	if r.next(3) == 0 {
		rq := r.reqs()
		p.Spec.Resources = &rq
	}
	p.Spec.Overhead = r.list()
	if r.next(2) == 0 {
		for _, c := range p.Spec.Containers {
			if r.next(3) > 0 {
				p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, r.status(c.Name))
			}
		}
		for _, c := range p.Spec.InitContainers {
			if r.next(3) > 0 {
				p.Status.InitContainerStatuses = append(p.Status.InitContainerStatuses, r.status(c.Name))
			}
		}
		p.Status.AllocatedResources = r.list()
		if r.next(2) == 0 {
			rq := r.reqs()
			p.Status.Resources = &rq
		}
		if k := r.next(4); k > 0 {
			p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodResizePending, Reason: []string{"", corev1.PodReasonInfeasible, corev1.PodReasonDeferred, "x"}[k]}}
		}
		if r.next(3) == 0 {
			q := resource.MustParse(fuzzQuantities[r.next(len(fuzzQuantities))])
			p.Status.NodeAllocatableResourceClaimStatuses = []corev1.NodeAllocatableResourceClaimStatus{{
				Containers: []string{"a", "b"},
				Mapping:    []corev1.NodeAllocatableMappedResources{{Name: fuzzNames[r.next(len(fuzzNames))], Quantity: &q}},
				Overhead:   []corev1.NodeAllocatableOverheadResources{{Name: fuzzNames[r.next(len(fuzzNames))], PerContainer: &q}},
			}}
		}
	}
	bits := r.next(256)
	opts := resources.PodResourcesOptions{
		UseStatusResources: bits&1 != 0,
		InPlacePodLevelResourcesVerticalScalingEnabled: bits&2 != 0,
		ExcludeOverhead:                          bits&4 != 0,
		SkipPodLevelResources:                    bits&8 != 0,
		SkipContainerLevelResources:              bits&16 != 0,
		UseDRANodeAllocatableResourceClaimStatus: bits&32 != 0,
	}
	if bits&64 != 0 {
		opts.NonMissingContainerRequests = corev1.ResourceList{"cpu": resource.MustParse("100m"), "memory": resource.MustParse("200Mi")}
	}
	if bits&128 != 0 {
		opts.Reuse = corev1.ResourceList{"stale": resource.MustParse("1")}
	}
	return p, opts
}

var fuzzSeeds = [][]byte{
	nil,
	{1, 3, 2, 1, 4, 5, 6},
	{3, 2, 4, 1, 2, 3, 4, 5, 6, 7, 8, 9, 1, 1, 0, 1, 2, 3},
	{2, 2, 3, 2, 1, 9, 9, 2, 1, 1, 1, 0, 0, 3, 2, 1, 2, 3, 2, 1, 0, 0, 0, 255},
	{3, 3, 2, 4, 4, 4, 4, 4, 4, 4, 4, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1},
}

// nonNegative reports whether every quantity the pod's containers, overhead and claims
// name is >= 0.
func nonNegative(p *corev1.Pod) bool {
	ok := true
	check := func(l corev1.ResourceList) {
		for _, q := range l {
			if q.Sign() < 0 {
				ok = false
			}
		}
	}
	for _, list := range [][]corev1.Container{p.Spec.Containers, p.Spec.InitContainers} {
		for _, c := range list {
			check(c.Resources.Requests)
			check(c.Resources.Limits)
		}
	}
	check(p.Spec.Overhead)
	for _, c := range p.Status.NodeAllocatableResourceClaimStatuses {
		for _, m := range c.Mapping {
			if m.Quantity != nil && m.Quantity.Sign() < 0 {
				ok = false
			}
		}
		for _, o := range c.Overhead {
			if o.PerContainer != nil && o.PerContainer.Sign() < 0 {
				ok = false
			}
		}
	}
	return ok
}

// atLeastEveryContainer checks the aggregation's defining property: with non-negative
// quantities, no pod-level override and no infeasible resize, the pod value is at
// least what any single container (regular or init) declares in its spec.
func atLeastEveryContainer(t *testing.T, what string, p *corev1.Pod, opts resources.PodResourcesOptions, got corev1.ResourceList, limits bool) {
	if !nonNegative(p) || (!opts.SkipPodLevelResources && resources.IsPodLevelResourcesSet(p)) ||
		(opts.UseStatusResources && resources.IsPodResizeInfeasible(p)) || (!limits && opts.SkipContainerLevelResources) {
		return
	}
	for _, list := range [][]corev1.Container{p.Spec.Containers, p.Spec.InitContainers} {
		for _, c := range list {
			l := c.Resources.Requests
			if limits {
				l = c.Resources.Limits
			}
			for name, q := range l {
				v, ok := got[name]
				if !ok || v.Cmp(q) < 0 {
					t.Fatalf("%s[%s] = %v (present %t), below container %s's %s", what, name, v.String(), ok, c.Name, q.String())
				}
			}
		}
	}
}

func checkList(t *testing.T, name string, fn func(*corev1.Pod, resources.PodResourcesOptions) corev1.ResourceList, data []byte) corev1.ResourceList {
	p, opts := (&fuzzReader{data: data}).pod()
	before := p.DeepCopy()
	got := render(fn(p, opts))
	if !reflect.DeepEqual(p, before) {
		t.Fatalf("%s mutated its input", name)
	}
	p2, opts2 := (&fuzzReader{data: data}).pod()
	if again := render(fn(p2, opts2)); again != got {
		t.Fatalf("%s not deterministic: %q then %q", name, got, again)
	}
	p3, opts3 := (&fuzzReader{data: data}).pod()
	return fn(p3, opts3)
}

func FuzzPodRequests(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got := checkList(t, "PodRequests", resources.PodRequests, data)
		p, opts := (&fuzzReader{data: data}).pod()
		atLeastEveryContainer(t, "PodRequests", p, opts, got, false)
		if opts.NonMissingContainerRequests != nil && !opts.SkipContainerLevelResources && (opts.SkipPodLevelResources || !resources.IsPodLevelRequestsSet(p)) &&
			len(p.Spec.Containers)+len(p.Spec.InitContainers) > 0 && nonNegative(p) && !(opts.UseStatusResources && resources.IsPodResizeInfeasible(p)) {
			for name := range opts.NonMissingContainerRequests {
				if _, ok := got[name]; !ok {
					t.Fatalf("NonMissingContainerRequests %s missing from %v", name, render(got))
				}
			}
		}
	})
}

func FuzzPodLimits(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got := checkList(t, "PodLimits", resources.PodLimits, data)
		p, opts := (&fuzzReader{data: data}).pod()
		atLeastEveryContainer(t, "PodLimits", p, opts, got, true)
		// Limits never gain a resource from overhead alone.
		noOverhead := opts
		noOverhead.ExcludeOverhead, noOverhead.Reuse = true, nil
		without := resources.PodLimits(p, noOverhead)
		for name := range got {
			if _, ok := without[name]; !ok {
				t.Fatalf("overhead added limit %s", name)
			}
		}
	})
}

func FuzzComputePodQOS(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, _ := (&fuzzReader{data: data}).pod()
		before := p.DeepCopy()
		got := resources.ComputePodQOS(p)
		if !reflect.DeepEqual(p, before) {
			t.Fatalf("ComputePodQOS mutated its input")
		}
		if again := resources.ComputePodQOS(p); again != got {
			t.Fatalf("not deterministic: %s then %s", got, again)
		}
		switch got {
		case corev1.PodQOSBestEffort, corev1.PodQOSBurstable, corev1.PodQOSGuaranteed:
		default:
			t.Fatalf("class %q", got)
		}
		if resources.IsPodLevelResourcesSet(p) {
			return
		}
		// Without pod-level resources, Guaranteed means every container sets equal,
		// non-zero cpu and memory requests and limits; BestEffort means none sets a
		// non-zero cpu or memory value.
		for _, list := range [][]corev1.Container{p.Spec.InitContainers, p.Spec.Containers} {
			for _, c := range list {
				for _, name := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
					req, lim := c.Resources.Requests[name], c.Resources.Limits[name]
					if got == corev1.PodQOSGuaranteed && (req.Cmp(lim) != 0 || req.IsZero()) {
						t.Fatalf("Guaranteed but %s %s: request %s limit %s", c.Name, name, req.String(), lim.String())
					}
					if got == corev1.PodQOSBestEffort && (!req.IsZero() || !lim.IsZero()) {
						t.Fatalf("BestEffort but %s sets %s", c.Name, name)
					}
				}
			}
		}
		if p.Status.QOSClass == "" && resources.GetPodQOS(p) != got {
			t.Fatalf("GetPodQOS differs from ComputePodQOS without a status class")
		}
	})
}

func FuzzExplain(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, opts := (&fuzzReader{data: data}).pod()
		before := p.DeepCopy()
		reuseBefore := opts.Reuse.DeepCopy()
		e := resources.Explain(p, opts)
		if !reflect.DeepEqual(p, before) {
			t.Fatalf("Explain mutated its input")
		}
		if !reflect.DeepEqual(opts.Reuse, reuseBefore) {
			t.Fatalf("Explain touched Reuse")
		}
		opts.Reuse = nil
		if s1, s2 := e.String(), resources.Explain(p, opts).String(); s1 != s2 {
			t.Fatalf("not deterministic:\n%s\n%s", s1, s2)
		}
		if got, want := totals(e.Requests), render(resources.PodRequests(p, opts)); got != want {
			t.Fatalf("Explain requests %q, PodRequests %q\n%s", got, want, e)
		}
		if got, want := totals(e.Limits), render(resources.PodLimits(p, opts)); got != want {
			t.Fatalf("Explain limits %q, PodLimits %q\n%s", got, want, e)
		}
	})
}

// totals renders the present results of an explanation as render does a list.
func totals(list []resources.ResourceExplanation) string {
	l := corev1.ResourceList{}
	for _, re := range list {
		if re.Present {
			l[re.Name] = re.Value
		}
	}
	return render(l)
}
