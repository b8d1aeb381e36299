package resources

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// recorder collects what Explain shows while the computation runs.
type recorder struct {
	statusSource int
}

const (
	statusFromContainers = iota
	statusFromPod
)

func (r *recorder) step(name corev1.ResourceName, init int, v resource.Quantity) {}
func (r *recorder) sums(t *table)                                                {}
func (r *recorder) status(spec, alloc, act *table, infeasible bool)              {}
