package resources_test

import (
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// rl parses "cpu=1 memory=5Gi" into a list; "" is a nil list and "{}" an empty one.
func rl(s string) corev1.ResourceList {
	switch s {
	case "":
		return nil
	case "{}":
		return corev1.ResourceList{}
	}
	l := corev1.ResourceList{}
	for _, kv := range strings.Fields(s) {
		k, v, _ := strings.Cut(kv, "=")
		l[corev1.ResourceName(k)] = resource.MustParse(v)
	}
	return l
}

// rr builds requirements from two rl strings.
func rr(req, lim string) corev1.ResourceRequirements {
	return corev1.ResourceRequirements{Requests: rl(req), Limits: rl(lim)}
}

func rrp(req, lim string) *corev1.ResourceRequirements {
	r := rr(req, lim)
	return &r
}

func ctr(name, req, lim string) corev1.Container {
	return corev1.Container{Name: name, Resources: rr(req, lim)}
}

func side(name, req, lim string) corev1.Container {
	c := ctr(name, req, lim)
	always := corev1.ContainerRestartPolicyAlways
	c.RestartPolicy = &always
	return c
}

// st is a container status with allocatedResources alloc and resources res.
func st(name, alloc string, res *corev1.ResourceRequirements) corev1.ContainerStatus {
	return corev1.ContainerStatus{Name: name, AllocatedResources: rl(alloc), Resources: res}
}

var (
	infeasible = []corev1.PodCondition{{Type: corev1.PodResizePending, Status: corev1.ConditionTrue, Reason: corev1.PodReasonInfeasible}}
	deferred   = []corev1.PodCondition{{Type: corev1.PodResizePending, Status: corev1.ConditionTrue, Reason: corev1.PodReasonDeferred}}
)

// tp describes a test pod.
type tp struct {
	init, ctrs    []corev1.Container
	overhead      string
	res           *corev1.ResourceRequirements // spec.resources
	initSt, ctrSt []corev1.ContainerStatus
	cond          []corev1.PodCondition
	podAlloc      string                       // status.allocatedResources
	podRes        *corev1.ResourceRequirements // status.resources
	sumStatus     bool                         // fill status.resources/allocatedResources with container sums
	claims        []corev1.NodeAllocatableResourceClaimStatus
}

func (p tp) pod() *corev1.Pod {
	pod := &corev1.Pod{
		Spec: corev1.PodSpec{InitContainers: p.init, Containers: p.ctrs, Overhead: rl(p.overhead), Resources: p.res},
		Status: corev1.PodStatus{
			InitContainerStatuses: p.initSt, ContainerStatuses: p.ctrSt, Conditions: p.cond,
			AllocatedResources: rl(p.podAlloc), Resources: p.podRes, NodeAllocatableResourceClaimStatuses: p.claims,
		},
	}
	if p.sumStatus && pod.Status.Resources == nil {
		sumStatuses(pod)
	}
	return pod
}

// sumStatuses fills the pod-level status with the sums of the container statuses, as
// a kubelet reporting pod-level resources would.
func sumStatuses(pod *corev1.Pod) {
	pod.Status.Resources = &corev1.ResourceRequirements{Requests: corev1.ResourceList{}, Limits: corev1.ResourceList{}}
	pod.Status.AllocatedResources = corev1.ResourceList{}
	add := func(dst, src corev1.ResourceList) {
		for k, v := range src {
			q := dst[k]
			q.Add(v)
			dst[k] = q
		}
	}
	for _, list := range [][]corev1.ContainerStatus{pod.Status.ContainerStatuses, pod.Status.InitContainerStatuses} {
		for _, cs := range list {
			if cs.Resources != nil {
				add(pod.Status.Resources.Requests, cs.Resources.Requests)
				add(pod.Status.Resources.Limits, cs.Resources.Limits)
			}
			add(pod.Status.AllocatedResources, cs.AllocatedResources)
		}
	}
}

// render prints a list as sorted "name=value" pairs, values in their String form.
func render(l corev1.ResourceList) string {
	keys := make([]string, 0, len(l))
	for k := range l {
		keys = append(keys, string(k))
	}
	slices.Sort(keys)
	for i, k := range keys {
		q := l[corev1.ResourceName(k)]
		keys[i] = k + "=" + q.String()
	}
	return strings.Join(keys, " ")
}

func expect(t *testing.T, what string, got corev1.ResourceList, want string) {
	t.Helper()
	if g := render(got); g != want {
		t.Errorf("%s = %q, want %q", what, g, want)
	}
}
