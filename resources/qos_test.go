package resources_test

import (
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/podlife/podlife/resources"
)

type qosCase struct {
	name string
	pod  *corev1.Pod
	want corev1.PodQOSClass
	// plr and fix are the PodLevelResources and PodLevelResourcesFixKubeletQOSClass
	// gates, as upstream's table sets them.
	plr, fix bool
}

func (c qosCase) opts() resources.QOSOptions {
	return resources.QOSOptions{DisablePodLevelResources: !c.plr, DisablePodLevelResourcesFixKubeletQOSClass: !c.fix}
}

func podOf(name string, ctrs ...corev1.ResourceRequirements) *corev1.Pod {
	p := &corev1.Pod{}
	p.Name = name
	for _, r := range ctrs {
		p.Spec.Containers = append(p.Spec.Containers, corev1.Container{Resources: *r.DeepCopy()})
	}
	return p
}

// upstreamQOSCases rebuilds the cases of k8s.io/kubernetes
// pkg/apis/core/v1/helper/qos/qos_test.go (TestComputePodQOS), 95 in all.
func upstreamQOSCases() []qosCase {
	guaranteed := rr("cpu=100m memory=100Mi ephemeral-storage=10Gi", "cpu=100m memory=100Mi")
	bestEffort := []corev1.ResourceRequirements{
		{},
		rr("cpu=0 memory=0", ""),
		rr("cpu=0 memory=0", "cpu=0 memory=0"),
		{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.Quantity{}, corev1.ResourceMemory: resource.Quantity{}}},
		rr("ephemeral-storage=10Gi", ""),
		rr("ephemeral-storage=10Gi", "ephemeral-storage=10Gi"),
	}
	burstable := []corev1.ResourceRequirements{
		rr("cpu=100m memory=100Mi", "cpu=200m memory=200Mi"),
		rr("cpu=100m memory=100Mi", "cpu=100m memory=200Mi"),
		rr("cpu=100m memory=100Mi", "cpu=200m memory=100Mi"),
		rr("cpu=100m memory=100Mi", ""),
		rr("cpu=100m memory=100Mi", "cpu=100m"),
	}

	single := []qosCase{{name: "guaranteed", pod: podOf("guaranteed", guaranteed), want: corev1.PodQOSGuaranteed}}
	for i, r := range bestEffort {
		n := fmt.Sprintf("best-effort-%d", i)
		single = append(single, qosCase{name: n, pod: podOf(n, r), want: corev1.PodQOSBestEffort})
	}
	for i, r := range burstable {
		n := fmt.Sprintf("burstable-%d", i)
		single = append(single, qosCase{name: n, pod: podOf(n, r), want: corev1.PodQOSBurstable})
	}

	two := []qosCase{
		{name: "2c-guaranteed", pod: podOf("2c-guaranteed", guaranteed, guaranteed), want: corev1.PodQOSGuaranteed},
		{name: "2c-best-effort", pod: podOf("2c-best-effort", bestEffort[0], bestEffort[1]), want: corev1.PodQOSBestEffort},
		{name: "2c-burstable", pod: podOf("2c-burstable", burstable[0], burstable[1]), want: corev1.PodQOSBurstable},
	}
	first := []corev1.ResourceRequirements{guaranteed, bestEffort[0], burstable[0]}
	second := []corev1.ResourceRequirements{guaranteed, bestEffort[1], burstable[1]}
	for i := range first {
		for j := range second {
			if i != j {
				n := fmt.Sprintf("2c-mixed-burstable-%d-%d", i, j)
				two = append(two, qosCase{name: n, pod: podOf(n, first[i], second[j]), want: corev1.PodQOSBurstable})
			}
		}
	}
	containers := append(append([]qosCase{}, single...), two...)
	for _, c := range two {
		p := c.pod.DeepCopy()
		p.Name += "-init"
		p.Spec.InitContainers = p.Spec.Containers[1:]
		p.Spec.Containers = p.Spec.Containers[:1]
		containers = append(containers, qosCase{name: p.Name, pod: p, want: c.want})
	}
	ephemeral := podOf("guaranteed-ephemeral", guaranteed)
	ephemeral.Spec.EphemeralContainers = []corev1.EphemeralContainer{{EphemeralContainerCommon: corev1.EphemeralContainerCommon{Name: "ec"}}}
	containers = append(containers, qosCase{name: "guaranteed-ephemeral", pod: ephemeral, want: corev1.PodQOSGuaranteed})

	all := append([]qosCase{}, containers...)
	for _, c := range containers {
		p := c.pod.DeepCopy()
		p.Name += "-plr"
		all = append(all, qosCase{name: p.Name, pod: p, want: c.want, plr: true, fix: true})
	}
	for _, c := range single {
		// Pod-level resources take the container's requirements; the container
		// becomes Guaranteed, which decides when pod-level names nothing supported.
		p := c.pod.DeepCopy()
		p.Name = "pod-" + p.Name + "-plr"
		p.Spec.Resources = p.Spec.Containers[0].Resources.DeepCopy()
		p.Spec.Containers[0].Resources = *guaranteed.DeepCopy()
		want := c.want
		if !resources.IsPodLevelResourcesSet(p) {
			want = corev1.PodQOSGuaranteed
			p.Name += "-fallback"
		}
		all = append(all, qosCase{name: p.Name, pod: p, want: want, plr: true, fix: true})

		p = c.pod.DeepCopy()
		p.Name += "-pod-no-plr"
		p.Spec.Resources = guaranteed.DeepCopy()
		all = append(all, qosCase{name: p.Name, pod: p, want: c.want})
	}

	withPodLevel := func(name string, ctr corev1.ResourceRequirements, podLevel *corev1.ResourceRequirements) *corev1.Pod {
		p := podOf(name, ctr)
		p.Spec.Resources = podLevel
		return p
	}
	g := rr("cpu=100m memory=100Mi", "cpu=100m memory=100Mi")
	return append(all,
		qosCase{"empty-pod-level-resources-should-fallback-to-containers", withPodLevel("", g, rrp("{}", "{}")), corev1.PodQOSGuaranteed, true, true},
		qosCase{"completely-empty-pod-level-resources-should-fallback-to-containers", withPodLevel("", g, rrp("", "")), corev1.PodQOSGuaranteed, true, true},
		qosCase{"completely-empty-pod-level-resources-old-behavior", withPodLevel("", g, rrp("", "")), corev1.PodQOSBestEffort, true, false},
		qosCase{"nil-pod-level-resources-should-fallback-to-containers", withPodLevel("", g, nil), corev1.PodQOSGuaranteed, true, true},
		qosCase{"zero-pod-level-resources-should-not-fallback-to-containers", withPodLevel("", g, rrp("cpu=0 memory=0", "cpu=0 memory=0")), corev1.PodQOSBestEffort, true, true},
		qosCase{"zero-pod-level-resources-should-not-fallback-to-containers-fix-disabled", withPodLevel("", g, rrp("cpu=0 memory=0", "cpu=0 memory=0")), corev1.PodQOSBestEffort, true, false},
		qosCase{"empty-pod-level-resources-old-behavior", withPodLevel("", g, rrp("{}", "{}")), corev1.PodQOSBestEffort, true, false},
		qosCase{"guaranteed-with-pod-level-resources-and-hugepages", withPodLevel("", corev1.ResourceRequirements{},
			rrp("cpu=10m memory=100Mi hugepages-2Mi=100Mi", "cpu=10m memory=100Mi hugepages-2Mi=100Mi")), corev1.PodQOSGuaranteed, true, true},
		qosCase{"burstable-with-pod-level-resources-and-hugepages", withPodLevel("", corev1.ResourceRequirements{},
			rrp("cpu=10m hugepages-2Mi=100Mi", "hugepages-2Mi=100Mi")), corev1.PodQOSBurstable, true, true},
	)
}

func TestComputePodQOSUpstreamCases(t *testing.T) {
	cases := upstreamQOSCases()
	if len(cases) != 95 {
		t.Errorf("%d cases, upstream has 95", len(cases))
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := resources.ComputePodQOSWithOptions(c.pod, c.opts()); got != c.want {
				t.Errorf("ComputePodQOSWithOptions(%+v) = %s, want %s", c.opts(), got, c.want)
			}
			if c.plr && c.fix {
				if got := resources.ComputePodQOS(c.pod); got != c.want {
					t.Errorf("ComputePodQOS = %s, want %s", got, c.want)
				}
			}
		})
	}
}

// Cases from the spec notes and the API server's behaviour on top of upstream's table.
func TestComputePodQOS(t *testing.T) {
	for _, tc := range []struct {
		name string
		pod  tp
		want corev1.PodQOSClass
	}{
		{"no containers", tp{}, corev1.PodQOSBestEffort},
		{"limits only, not defaulted", tp{ctrs: []corev1.Container{ctr("a", "", "cpu=1 memory=1Gi")}}, corev1.PodQOSBurstable},
		{"equal in other units", tp{ctrs: []corev1.Container{ctr("a", "cpu=1000m memory=1024Mi", "cpu=1 memory=1Gi")}}, corev1.PodQOSGuaranteed},
		{"cpu only", tp{ctrs: []corev1.Container{ctr("a", "cpu=1", "cpu=1")}}, corev1.PodQOSBurstable},
		{"init burstable, app guaranteed", tp{init: []corev1.Container{ctr("i", "cpu=1", "")}, ctrs: []corev1.Container{ctr("a", "cpu=1 memory=1Gi", "cpu=1 memory=1Gi")}}, corev1.PodQOSBurstable},
		{"sidecar best effort, app guaranteed", tp{init: []corev1.Container{side("s", "", "")}, ctrs: []corev1.Container{ctr("a", "cpu=1 memory=1Gi", "cpu=1 memory=1Gi")}}, corev1.PodQOSBurstable},
		{"pod-level decides over containers", tp{res: rrp("cpu=1 memory=1Gi", "cpu=1 memory=1Gi"), ctrs: []corev1.Container{ctr("a", "cpu=1", "")}}, corev1.PodQOSGuaranteed},
		{"pod-level with only unsupported names falls back", tp{res: rrp("ephemeral-storage=1Gi", ""), ctrs: []corev1.Container{ctr("a", "cpu=1 memory=1Gi", "cpu=1 memory=1Gi")}}, corev1.PodQOSGuaranteed},
		{"extended resources ignored", tp{ctrs: []corev1.Container{ctr("a", "example.com/gpu=1", "example.com/gpu=1")}}, corev1.PodQOSBestEffort},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := resources.ComputePodQOS(tc.pod.pod()); got != tc.want {
				t.Errorf("ComputePodQOS = %s, want %s", got, tc.want)
			}
		})
	}
	if got := resources.ComputePodQOS(nil); got != corev1.PodQOSBestEffort {
		t.Errorf("ComputePodQOS(nil) = %s", got)
	}
}

func TestGetPodQOS(t *testing.T) {
	p := tp{ctrs: []corev1.Container{ctr("a", "cpu=1", "")}}.pod()
	if got := resources.GetPodQOS(p); got != corev1.PodQOSBurstable {
		t.Errorf("GetPodQOS without status = %s", got)
	}
	p.Status.QOSClass = corev1.PodQOSGuaranteed
	if got := resources.GetPodQOS(p); got != corev1.PodQOSGuaranteed {
		t.Errorf("GetPodQOS with status = %s, want the status value", got)
	}
	if got := resources.GetPodQOS(nil); got != corev1.PodQOSBestEffort {
		t.Errorf("GetPodQOS(nil) = %s", got)
	}
}
