package resources

import (
	"fmt"
	"math/rand/v2"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podlife/podlife/conformance/internal/runenv"
)

// defaultSeed is the seed of a normal run; PODLIFE_SEED overrides it.
const defaultSeed = 20260137

func seed(t testing.TB) uint64 { return runenv.Seed(t, defaultSeed) }

// quantities mixes canonical and non-canonical spellings, every format, zeros,
// negatives (invalid in the API, but the functions must still agree) and values too
// large or too precise for the int64 representation.
var quantities = []string{
	"0", "0", "1", "2", "3", "100m", "250m", "500m", "1500m", "1000m", "+1", "0.5", "1.5",
	"1e3", "2e-3", "1k", "1Ki", "1Mi", "10Mi", "128Mi", "200Mi", "1Gi", "1024Mi", "2Gi",
	"1G", "500M", "1.5Gi", "0Mi", "0m", "-1", "-500m", "-1Gi", "1n", "7", "12345",
	"9223372036854775807", "1e20", "123456789012345678901234567890", "0.000000001",
	"4Ei", "3Pi", "100Ki", "64", "1E", "2M",
}

var resourceNames = []corev1.ResourceName{
	corev1.ResourceCPU, corev1.ResourceCPU, corev1.ResourceMemory, corev1.ResourceMemory,
	corev1.ResourceEphemeralStorage, "hugepages-2Mi", "hugepages-1Gi", "example.com/gpu",
	"nvidia.com/gpu", "hugepages-", corev1.ResourceStorage, "pods",
}

type gen struct{ r *rand.Rand }

func newGen(s uint64) *gen { return &gen{rand.New(rand.NewPCG(s, s^0x9e3779b97f4a7c15))} }

func (g *gen) quantity() resource.Quantity {
	s := quantities[g.r.IntN(len(quantities))]
	q := resource.MustParse(s)
	switch g.r.IntN(8) {
	case 0:
		_ = q.String() // a cached string
	case 1:
		q = *resource.NewMilliQuantity(g.r.Int64N(5000), resource.DecimalSI)
	case 2:
		q = *resource.NewQuantity(g.r.Int64N(4)<<20, resource.BinarySI)
	}
	return q
}

func (g *gen) ptrQuantity() *resource.Quantity {
	if g.r.IntN(6) == 0 {
		return nil
	}
	q := g.quantity()
	return &q
}

// list returns nil, an empty list or a few random resources.
func (g *gen) list() corev1.ResourceList {
	switch g.r.IntN(6) {
	case 0:
		return nil
	case 1:
		return corev1.ResourceList{}
	}
	l := corev1.ResourceList{}
	for n := 1 + g.r.IntN(4); n > 0; n-- {
		l[resourceNames[g.r.IntN(len(resourceNames))]] = g.quantity()
	}
	return l
}

func (g *gen) requirements() corev1.ResourceRequirements {
	r := corev1.ResourceRequirements{}
	switch g.r.IntN(7) {
	case 5, 6: // Guaranteed-shaped: equal, non-zero cpu and memory
		l := corev1.ResourceList{corev1.ResourceCPU: g.quantity(), corev1.ResourceMemory: g.quantity()}
		if g.r.IntN(3) == 0 {
			l[resourceNames[g.r.IntN(len(resourceNames))]] = g.quantity()
		}
		r.Requests, r.Limits = l, l.DeepCopy()
	case 0: // neither
	case 1:
		r.Requests = g.list()
	case 2:
		r.Limits = g.list()
	case 3: // QoS-shaped: equal requests and limits
		l := g.list()
		r.Requests, r.Limits = l, l.DeepCopy()
	default:
		r.Requests, r.Limits = g.list(), g.list()
	}
	return r
}

var restartPolicies = []corev1.ContainerRestartPolicy{
	corev1.ContainerRestartPolicyAlways, corev1.ContainerRestartPolicyAlways,
	corev1.ContainerRestartPolicyOnFailure, corev1.ContainerRestartPolicyNever, "Bogus",
}

func (g *gen) name(prefix string, i int) string {
	if g.r.IntN(12) == 0 {
		return "dup" // shared by several containers
	}
	return fmt.Sprintf("%s%d", prefix, i)
}

func (g *gen) status(name string) corev1.ContainerStatus {
	cs := corev1.ContainerStatus{Name: name}
	if g.r.IntN(3) > 0 {
		cs.AllocatedResources = g.list()
	}
	if g.r.IntN(3) > 0 {
		cs.Resources = &corev1.ResourceRequirements{}
		if g.r.IntN(3) > 0 {
			cs.Resources.Requests = g.list()
		}
		if g.r.IntN(3) > 0 {
			cs.Resources.Limits = g.list()
		}
	}
	return cs
}

func (g *gen) pod() *corev1.Pod {
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns"}}
	for i, n := 0, g.r.IntN(5); i < n; i++ {
		p.Spec.Containers = append(p.Spec.Containers, corev1.Container{Name: g.name("c", i), Resources: g.requirements()})
	}
	for i, n := 0, g.r.IntN(5); i < n; i++ {
		c := corev1.Container{Name: g.name("i", i), Resources: g.requirements()}
		if g.r.IntN(4) > 0 {
			rp := restartPolicies[g.r.IntN(len(restartPolicies))]
			c.RestartPolicy = &rp
		}
		p.Spec.InitContainers = append(p.Spec.InitContainers, c)
	}
	if g.r.IntN(10) == 0 {
		p.Spec.EphemeralContainers = []corev1.EphemeralContainer{{EphemeralContainerCommon: corev1.EphemeralContainerCommon{
			Name: "e", Resources: g.requirements()}}}
	}
	if g.r.IntN(3) == 0 {
		r := g.requirements()
		p.Spec.Resources = &r
	}
	if g.r.IntN(3) == 0 {
		p.Spec.Overhead = g.list()
	}
	if g.r.IntN(3) > 0 {
		for _, c := range p.Spec.Containers {
			if g.r.IntN(4) > 0 {
				p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, g.status(c.Name))
			}
		}
		for _, c := range p.Spec.InitContainers {
			if g.r.IntN(4) > 0 {
				p.Status.InitContainerStatuses = append(p.Status.InitContainerStatuses, g.status(c.Name))
			}
		}
		if g.r.IntN(8) == 0 {
			p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, g.status("unknown"))
		}
		if g.r.IntN(2) == 0 {
			p.Status.AllocatedResources = g.list()
		}
		if g.r.IntN(2) == 0 {
			p.Status.Resources = &corev1.ResourceRequirements{Requests: g.list(), Limits: g.list()}
		}
		p.Status.Conditions = g.conditions()
		if g.r.IntN(5) == 0 {
			p.Status.QOSClass = []corev1.PodQOSClass{corev1.PodQOSBestEffort, corev1.PodQOSBurstable, corev1.PodQOSGuaranteed}[g.r.IntN(3)]
		}
		if g.r.IntN(5) == 0 {
			p.Status.NodeAllocatableResourceClaimStatuses = g.claims(p)
		}
	}
	return p
}

func (g *gen) conditions() []corev1.PodCondition {
	var out []corev1.PodCondition
	for n := g.r.IntN(4); n > 0; n-- {
		c := corev1.PodCondition{Type: corev1.PodReady, Status: corev1.ConditionTrue}
		switch g.r.IntN(4) {
		case 0, 1:
			c.Type = corev1.PodResizePending
			c.Reason = []string{corev1.PodReasonInfeasible, corev1.PodReasonDeferred, "", "Other"}[g.r.IntN(4)]
			c.Status = []corev1.ConditionStatus{corev1.ConditionTrue, corev1.ConditionFalse}[g.r.IntN(2)]
		case 2:
			c.Type = corev1.PodResizeInProgress
			c.Reason = corev1.PodReasonInfeasible
		}
		out = append(out, c)
	}
	return out
}

func (g *gen) claims(p *corev1.Pod) []corev1.NodeAllocatableResourceClaimStatus {
	var out []corev1.NodeAllocatableResourceClaimStatus
	for n := 1 + g.r.IntN(2); n > 0; n-- {
		cs := corev1.NodeAllocatableResourceClaimStatus{ResourceClaimName: fmt.Sprint("claim", n)}
		for _, c := range p.Spec.Containers {
			if g.r.IntN(2) == 0 {
				cs.Containers = append(cs.Containers, c.Name)
			}
		}
		for m := g.r.IntN(3); m > 0; m-- {
			cs.Mapping = append(cs.Mapping, corev1.NodeAllocatableMappedResources{
				Name: resourceNames[g.r.IntN(len(resourceNames))], Quantity: g.ptrQuantity()})
		}
		for m := g.r.IntN(3); m > 0; m-- {
			cs.Overhead = append(cs.Overhead, corev1.NodeAllocatableOverheadResources{
				Name: resourceNames[g.r.IntN(len(resourceNames))], PerPod: g.ptrQuantity(), PerContainer: g.ptrQuantity()})
		}
		out = append(out, cs)
	}
	return out
}
