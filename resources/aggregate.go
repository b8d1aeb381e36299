package resources

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/podlife/podlife/internal/byname"
	"github.com/podlife/podlife/internal/podutil"
)

// source selects which list of a container an aggregation reads.
type source uint8

const (
	specRequests      source = iota // container.resources.requests
	allocatedRequests               // status allocatedResources, else spec requests
	actuatedRequests                // status resources.requests, else allocatedResources, else spec
	specLimits                      // container.resources.limits
	actuatedLimits                  // status resources.limits, else spec limits
)

// list returns the resource list src reads for container c with status cs. When a
// resize is infeasible a container without the status field contributes nothing.
func (src source) list(c *corev1.Container, cs *corev1.ContainerStatus, infeasible bool) corev1.ResourceList {
	switch src {
	case allocatedRequests:
		if cs != nil && cs.AllocatedResources != nil {
			return cs.AllocatedResources
		}
	case actuatedRequests:
		if cs != nil && cs.Resources != nil && cs.Resources.Requests != nil {
			return cs.Resources.Requests
		}
		if cs != nil && cs.AllocatedResources != nil {
			return cs.AllocatedResources
		}
	case actuatedLimits:
		if cs != nil && cs.Resources != nil && cs.Resources.Limits != nil {
			return cs.Resources.Limits
		}
	case specLimits:
		return c.Resources.Limits
	default:
		return c.Resources.Requests
	}
	if infeasible {
		return nil
	}
	if src == actuatedLimits {
		return c.Resources.Limits
	}
	return c.Resources.Requests
}

// usesStatus reports whether src reads container statuses.
func (src source) usesStatus() bool {
	return src == allocatedRequests || src == actuatedRequests || src == actuatedLimits
}

// statusFinder finds a container's status as upstream's podutil.GetContainerStatus
// over ContainerStatuses then InitContainerStatuses, the first match winning, in time
// linear in the pod ([byname]).
type statusFinder struct {
	regular, init byname.Index[corev1.ContainerStatus]
}

func newStatusFinder(pod *corev1.Pod) statusFinder {
	return statusFinder{regular: byname.Statuses(pod.Status.ContainerStatuses), init: byname.Statuses(pod.Status.InitContainerStatuses)}
}

func (f *statusFinder) find(name string) *corev1.ContainerStatus {
	if st := f.regular.FirstEntry(name); st != nil {
		return st
	}
	return f.init.FirstEntry(name)
}

// aggregation describes one container aggregation.
type aggregation struct {
	pod        *corev1.Pod
	src        source
	infeasible bool
	// nonMissing holds, for each resource of NonMissingContainerRequests, the value a
	// container lacking it contributes (upstream: a zero Quantity plus the given one).
	nonMissing []namedQuantity
	rec        *recorder
}

type namedQuantity struct {
	name corev1.ResourceName
	q    resource.Quantity
}

// nonMissingValues prepares NonMissingContainerRequests for an aggregation.
func nonMissingValues(list corev1.ResourceList) []namedQuantity {
	if len(list) == 0 {
		return nil
	}
	out := make([]namedQuantity, 0, len(list))
	for name, q := range list {
		var v resource.Quantity
		v.Add(q)
		out = append(out, namedQuantity{name, v})
	}
	return out
}

// run fills t (which must be empty) with the aggregate of the containers' lists:
//
//	max( Σ regular + Σ sidecars , max over init containers i of step(i) )
//
// where step(i) is, for a sidecar, the sum of the sidecars up to and including i, and
// for any other init container, its own list plus the sidecars declared before it.
// The order of operations is upstream's (component-helpers resource/helpers.go,
// aggregateContainerResourcesByFn), which fixes the Format of each result.
//
// Upstream also compares, at every init step, the running sidecar sum of each resource
// the init container does not name. That value was already compared at the last
// sidecar step and the maximum only grows, so skipping it changes nothing (an equal
// value never replaces the maximum) and keeps the cost linear in the number of
// entries instead of containers times resources.
func (a *aggregation) run(t *table) {
	var finder statusFinder
	withStatus := a.src.usesStatus()
	if withStatus {
		finder = newStatusFinder(a.pod)
	}
	lookup := func(c *corev1.Container) *corev1.ContainerStatus {
		if !withStatus {
			return nil
		}
		return finder.find(c.Name)
	}

	for i := range a.pod.Spec.Containers {
		c := &a.pod.Spec.Containers[i]
		list := a.src.list(c, lookup(c), a.infeasible)
		t.reserve(len(list) + len(a.nonMissing))
		for name, q := range list {
			t.add(name, q)
		}
		for _, nm := range a.nonMissing {
			if _, ok := list[nm.name]; !ok {
				t.add(nm.name, nm.q)
			}
		}
	}

	for i := range a.pod.Spec.InitContainers {
		c := &a.pod.Spec.InitContainers[i]
		list := a.src.list(c, lookup(c), a.infeasible)
		t.reserve(len(list) + len(a.nonMissing))
		if podutil.IsSidecar(c) {
			for name, q := range list {
				a.addSidecar(t, i, name, q)
			}
			for _, nm := range a.nonMissing {
				if _, ok := list[nm.name]; !ok {
					a.addSidecar(t, i, nm.name, nm.q)
				}
			}
			continue
		}
		for name, q := range list {
			a.initEntry(t, i, name, q)
		}
		for _, nm := range a.nonMissing {
			if _, ok := list[nm.name]; !ok {
				a.initEntry(t, i, nm.name, nm.q)
			}
		}
	}

	if a.rec != nil {
		a.rec.sums(t)
	}
	for j := 0; j < t.n; j++ {
		if s := t.slot(j); s.flags&hasPeak != 0 && (s.flags&hasSum == 0 || s.peak.Cmp(s.sum) > 0) {
			s.sum = s.peak
			s.flags |= hasSum
		}
	}
}

// addSidecar adds a sidecar's quantity to the sums and records the step "every sidecar
// started so far" for that resource.
func (a *aggregation) addSidecar(t *table, i int, name corev1.ResourceName, q resource.Quantity) {
	s := t.at(name)
	if s.flags&hasSum == 0 {
		s.sum = q.DeepCopy()
		s.flags |= hasSum
	} else {
		s.sum.Add(q)
	}
	if s.flags&hasSide == 0 {
		s.side = q.DeepCopy()
		s.flags |= hasSide
	} else {
		s.side.Add(q)
	}
	a.step(s, i, s.side.DeepCopy())
}

// initEntry computes the step of a regular init container for one resource it names.
func (a *aggregation) initEntry(t *table, i int, name corev1.ResourceName, q resource.Quantity) {
	s := t.at(name)
	v := q.DeepCopy()
	if s.flags&hasSide != 0 {
		v.Add(s.side)
	}
	a.step(s, i, v)
}

// step records an init step value v (owned by the caller) for init container i.
func (a *aggregation) step(s *slot, i int, v resource.Quantity) {
	if a.rec != nil {
		a.rec.step(s.name, i, v)
	}
	if s.flags&hasPeak == 0 || v.Cmp(s.peak) > 0 {
		s.peak = v
		s.flags |= hasPeak
	}
}
