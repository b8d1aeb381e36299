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

// nonMissingValues prepares NonMissingContainerRequests for an aggregation, appending
// to buf.
func nonMissingValues(list corev1.ResourceList, buf []namedQuantity) []namedQuantity {
	for name, q := range list {
		var v resource.Quantity
		v.Add(q)
		buf = append(buf, namedQuantity{name, v})
	}
	return buf
}

// What an aggregation does with the entries of a container's list.
const (
	opSum     = iota // a regular container: add to the sums
	opSidecar        // a sidecar: add to the sums and to the sidecar steps
	opInit           // a regular init container: an init step
)

// steps holds, for each slot of the table being aggregated, the running sum of the
// sidecars declared so far and the largest init step seen so far. Only pods with init
// containers need one.
type steps struct {
	inline [stepSlots]step
	extra  []step
}

// stepSlots is the number of resources whose steps live in a steps value itself; it is
// smaller than inlineSlots to keep the stack of a call small.
const stepSlots = 8

type step struct {
	side, peak resource.Quantity
	flags      uint8
}

const (
	hasSide uint8 = 1 << iota
	hasPeak
)

// at returns the step data of slot i, growing the storage as the table grows.
func (s *steps) at(i int) *step {
	if i < stepSlots {
		return &s.inline[i]
	}
	if need := i - stepSlots + 1; len(s.extra) < need {
		if cap(s.extra) < need {
			grown := make([]step, need, max(need, 2*cap(s.extra), stepSlots))
			copy(grown, s.extra)
			s.extra = grown
		} else {
			s.extra = s.extra[:need]
		}
	}
	return &s.extra[i-stepSlots]
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
	} else if a.rec == nil && len(a.nonMissing) == 0 && len(a.pod.Spec.Containers)+len(a.pod.Spec.InitContainers) > 1 && a.specEntries() == 0 {
		return // no list names anything: the aggregate is empty
	}
	for i := range a.pod.Spec.Containers {
		c := &a.pod.Spec.Containers[i]
		var cs *corev1.ContainerStatus
		if withStatus {
			cs = finder.find(c.Name)
		}
		a.list(t, nil, opSum, i, a.src.list(c, cs, a.infeasible))
	}
	if len(a.pod.Spec.InitContainers) == 0 {
		if a.rec != nil {
			a.rec.sums(t)
		}
		return
	}
	a.runInit(t, &finder, withStatus)
}

// specEntries counts the entries of the spec lists the aggregation reads. run calls
// it first on pods with more than one container: the loads of the containers' lists
// do not depend on one another, so the processor overlaps their cache misses here
// instead of taking them one after another in the loop (on a single container it
// costs more than it saves), and a pod whose lists are all empty is done.
func (a *aggregation) specEntries() int {
	n := 0
	for i := range a.pod.Spec.Containers {
		n += len(a.src.list(&a.pod.Spec.Containers[i], nil, false))
	}
	for i := range a.pod.Spec.InitContainers {
		n += len(a.src.list(&a.pod.Spec.InitContainers[i], nil, false))
	}
	return n
}

// runInit goes on with the init containers; it is a method of its own so that pods
// without them do not reserve stack for the steps.
func (a *aggregation) runInit(t *table, finder *statusFinder, withStatus bool) {
	var st steps
	for i := range a.pod.Spec.InitContainers {
		c := &a.pod.Spec.InitContainers[i]
		var cs *corev1.ContainerStatus
		if withStatus {
			cs = finder.find(c.Name)
		}
		op := opInit
		if podutil.IsSidecar(c) {
			op = opSidecar
		}
		a.list(t, &st, op, i, a.src.list(c, cs, a.infeasible))
	}

	if a.rec != nil {
		a.rec.sums(t)
	}
	for j := 0; j < t.n; j++ {
		s, p := t.slot(j), st.at(j)
		if p.flags&hasPeak != 0 && (s.flags&hasSum == 0 || p.peak.Cmp(s.sum) > 0) {
			s.sum = p.peak
			s.flags |= hasSum
		}
	}
}

// list applies op to every entry of the list of container i, then to the
// NonMissingContainerRequests the list lacks, reading the list as eachEntry does.
func (a *aggregation) list(t *table, st *steps, op int, i int, list corev1.ResourceList) {
	if n := len(list); n > lookupMax {
		t.reserve(n)
		if op == opSum {
			// The common case, a regular container's list, without entry's dispatch.
			for name, q := range list {
				t.addp(name, &q)
			}
		} else {
			for name, q := range list {
				a.entry(t, st, op, i, name, &q)
			}
		}
	} else if n > 0 {
		if q, ok := list[corev1.ResourceCPU]; ok {
			a.entry(t, st, op, i, corev1.ResourceCPU, &q)
			n--
		}
		if n > 0 {
			if q, ok := list[corev1.ResourceMemory]; ok {
				a.entry(t, st, op, i, corev1.ResourceMemory, &q)
				n--
			}
		}
		if n > 0 {
			for name, q := range list {
				if name != corev1.ResourceCPU && name != corev1.ResourceMemory {
					a.entry(t, st, op, i, name, &q)
				}
			}
		}
	}
	for k := range a.nonMissing {
		nm := &a.nonMissing[k]
		if _, ok := list[nm.name]; !ok {
			a.entry(t, st, op, i, nm.name, &nm.q)
		}
	}
}

// entry applies op to one entry; q is not modified.
func (a *aggregation) entry(t *table, st *steps, op int, i int, name corev1.ResourceName, q *resource.Quantity) {
	if op == opSum {
		t.addp(name, q)
		return
	}
	j := t.pos(name)
	s := t.slot(j)
	if op != opInit {
		// Regular containers and sidecars run together once the pod is initialized.
		if s.flags&hasSum == 0 {
			s.sum = q.DeepCopy()
			s.flags |= hasSum
		} else {
			s.sum.Add(*q)
		}
		if op == opSum {
			return
		}
	}
	p := st.at(j)
	var v resource.Quantity
	if op == opSidecar {
		// The step "every sidecar started so far".
		if p.flags&hasSide == 0 {
			p.side = q.DeepCopy()
			p.flags |= hasSide
		} else {
			p.side.Add(*q)
		}
		v = p.side.DeepCopy()
	} else {
		// A regular init container runs beside the sidecars declared before it.
		v = q.DeepCopy()
		if p.flags&hasSide != 0 {
			v.Add(p.side)
		}
	}
	if a.rec != nil {
		a.rec.step(name, i, v)
	}
	if p.flags&hasPeak == 0 || v.Cmp(p.peak) > 0 {
		p.peak = v
		p.flags |= hasPeak
	}
}
