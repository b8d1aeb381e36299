package defaulting

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podlife/podlife/internal/gates"
)

// bytesrc turns fuzz input into choices; an exhausted input answers 0.
type bytesrc struct {
	b []byte
	i int
}

func (s *bytesrc) next() byte {
	if s.i >= len(s.b) {
		return 0
	}
	s.i++
	return s.b[s.i-1]
}

func (s *bytesrc) n(k int) int { return int(s.next()) % k }
func (s *bytesrc) flag() bool  { return s.next()%2 == 1 }
func (s *bytesrc) str() string {
	return []string{"", "a", "nginx", "nginx:latest", "x@sha256:", "Z", "localhost/p", "hugepages-2Mi"}[s.n(8)]
}
func (s *bytesrc) i32() int32    { return int32(int8(s.next())) }
func (s *bytesrc) i64p() *int64  { v := int64(int8(s.next())); return &v }
func (s *bytesrc) strp() *string { v := s.str(); return &v }

var fuzzQuantities = []string{"0", "1", "100m", "0.1m", "1.0001", "1n", "1Gi", "2Mi", "1e3", "-1", "1E", "123456789n", "3.5"}
var fuzzNames = []corev1.ResourceName{"cpu", "memory", "hugepages-2Mi", "hugepages-1Gi", "ephemeral-storage", "example.com/x"}

func (s *bytesrc) list() corev1.ResourceList {
	switch s.n(3) {
	case 0:
		return nil
	case 1:
		return corev1.ResourceList{}
	}
	l := corev1.ResourceList{}
	for k := s.n(4); k >= 0; k-- {
		l[fuzzNames[s.n(len(fuzzNames))]] = resource.MustParse(fuzzQuantities[s.n(len(fuzzQuantities))])
	}
	return l
}

func (s *bytesrc) probe() *corev1.Probe {
	if !s.flag() {
		return nil
	}
	p := &corev1.Probe{TimeoutSeconds: s.i32(), PeriodSeconds: s.i32(), SuccessThreshold: s.i32(), FailureThreshold: s.i32()}
	switch s.n(3) {
	case 0:
		p.HTTPGet = &corev1.HTTPGetAction{Path: s.str()}
	case 1:
		p.GRPC = &corev1.GRPCAction{Service: map[bool]*string{true: s.strp()}[s.flag()]}
	}
	return p
}

func (s *bytesrc) container(name string) corev1.Container {
	c := corev1.Container{Name: name, Image: s.str(), Resources: corev1.ResourceRequirements{Requests: s.list(), Limits: s.list()}}
	if s.flag() {
		always := corev1.ContainerRestartPolicyAlways
		c.RestartPolicy = &always
	}
	for k := s.n(3); k > 0; k-- {
		c.Ports = append(c.Ports, corev1.ContainerPort{ContainerPort: s.i32(), HostPort: s.i32() % 2})
	}
	if s.flag() {
		c.Env = []corev1.EnvVar{{Name: "E", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{}}}}
	}
	c.LivenessProbe, c.ReadinessProbe, c.StartupProbe = s.probe(), s.probe(), s.probe()
	if s.flag() {
		c.Lifecycle = &corev1.Lifecycle{PreStop: &corev1.LifecycleHandler{HTTPGet: &corev1.HTTPGetAction{}}}
	}
	return c
}

func (s *bytesrc) pod() *corev1.Pod {
	p := &corev1.Pod{}
	if s.flag() {
		p.Labels = map[string]string{"app": s.str()}
	}
	if s.flag() {
		p.Annotations = map[string]string{
			"container.apparmor.security.beta.kubernetes.io/c0": []string{"runtime/default", "localhost/x", "localhost/", "junk"}[s.n(4)],
			"pod.beta.kubernetes.io/init-containers":            "[]",
		}
	}
	for k := s.n(4); k > 0; k-- {
		p.Spec.InitContainers = append(p.Spec.InitContainers, s.container(fmt.Sprint("i", k)))
	}
	for k := s.n(4); k > 0; k-- {
		p.Spec.Containers = append(p.Spec.Containers, s.container(fmt.Sprint("c", k-1)))
	}
	if s.flag() {
		p.Spec.EphemeralContainers = []corev1.EphemeralContainer{{EphemeralContainerCommon: corev1.EphemeralContainerCommon(s.container("e"))}}
	}
	if s.flag() {
		p.Spec.Resources = &corev1.ResourceRequirements{Requests: s.list(), Limits: s.list()}
	}
	p.Spec.Overhead = s.list()
	p.Spec.HostNetwork = s.flag()
	if s.flag() {
		p.Spec.TerminationGracePeriodSeconds = s.i64p()
	}
	p.Spec.ServiceAccountName, p.Spec.DeprecatedServiceAccount = s.str(), s.str()
	for k := s.n(3); k > 0; k-- {
		v := corev1.Volume{Name: s.str()}
		switch s.n(4) {
		case 1:
			v.Secret = &corev1.SecretVolumeSource{}
		case 2:
			v.Projected = &corev1.ProjectedVolumeSource{Sources: []corev1.VolumeProjection{{ServiceAccountToken: &corev1.ServiceAccountTokenProjection{}}}}
		case 3:
			v.Image = &corev1.ImageVolumeSource{Reference: s.str()}
		}
		p.Spec.Volumes = append(p.Spec.Volumes, v)
	}
	if s.flag() {
		p.Spec.SchedulingGates = []corev1.PodSchedulingGate{{Name: "g"}}
	}
	if s.flag() {
		p.Spec.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{{
			LabelSelector: &metav1.LabelSelector{}, MatchLabelKeys: []string{"app"}}}
	}
	if s.flag() {
		p.Status = corev1.PodStatus{Phase: corev1.PodFailed, QOSClass: corev1.PodQOSGuaranteed}
	}
	return p
}

func fuzzGates(s *bytesrc) gates.FeatureGates {
	switch s.n(4) {
	case 1:
		return gates.FeatureGates{"PodLevelResourcesFixDefaulting": false}
	case 2:
		return gates.FeatureGates{"PodLevelResources": false}
	case 3:
		return gates.FeatureGates{"H2CContainerProbe": true, "PodLevelResourcesFixKubeletQOSClass": false}
	}
	return nil
}

func mustJSON(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// stripLabelKeys clears the matchLabelKeys the server has already merged into the
// selectors: the merge appends on every create, so only a pod without them can be
// defaulted twice to the same result.
func stripLabelKeys(p *corev1.Pod) {
	for i := range p.Spec.TopologySpreadConstraints {
		p.Spec.TopologySpreadConstraints[i].MatchLabelKeys = nil
	}
}

// FuzzDefault checks that Default never panics, leaves its input alone, is
// deterministic and idempotent, and that its output keeps the create-time invariants.
func FuzzDefault(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{1, 1, 1, 3, 2, 1, 3, 2, 5, 1, 2, 1, 1, 1})
	f.Add([]byte("limits-only containers with pod-level resources and sidecars"))
	f.Add([]byte{0, 0, 3, 2, 2, 1, 4, 2, 2, 2, 0, 1, 1, 1, 2, 2, 2, 1, 9, 1, 1, 1, 2})
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, data []byte) {
		s := &bytesrc{b: data}
		pod := s.pod()
		opts := Options{Features: fuzzGates(s), Now: now}
		before := pod.DeepCopy()
		out := Pod(pod, opts)
		if !reflect.DeepEqual(before, pod) {
			t.Fatal("input modified")
		}
		first := mustJSON(t, out)
		if again := mustJSON(t, Pod(pod, opts)); again != first {
			t.Fatalf("not deterministic:\n%s\n%s", first, again)
		}
		// ReadOnly shares unchanged lists but gives the same pod and leaves the input alone.
		ro := opts
		ro.ReadOnly = true
		shared := Pod(pod, ro)
		if !reflect.DeepEqual(before, pod) {
			t.Fatal("input modified with ReadOnly")
		}
		if !reflect.DeepEqual(shared, out) {
			t.Fatalf("ReadOnly result differs:\n%s\n%s", mustJSON(t, shared), first)
		}
		stripped := out.DeepCopy()
		stripLabelKeys(stripped)
		if twice := mustJSON(t, Pod(stripped, opts)); twice != mustJSON(t, stripped) {
			t.Fatalf("not idempotent:\nonce  %s\ntwice %s", mustJSON(t, stripped), twice)
		}
		// Create-time invariants.
		if out.Status.Phase != corev1.PodPending || out.Status.QOSClass == "" || out.Generation != 1 {
			t.Fatalf("status %+v generation %d", out.Status, out.Generation)
		}
		for _, c := range append(append([]corev1.Container{}, out.Spec.InitContainers...), out.Spec.Containers...) {
			if c.ImagePullPolicy == "" || c.TerminationMessagePath == "" {
				t.Fatalf("container %s not defaulted", c.Name)
			}
			for name, q := range c.Resources.Limits {
				if _, ok := c.Resources.Requests[name]; !ok {
					t.Fatalf("container %s: limit %s=%s without request", c.Name, name, q.String())
				}
			}
		}
		if out.Spec.SecurityContext == nil || out.Spec.EnableServiceLinks == nil || out.Spec.TerminationGracePeriodSeconds == nil ||
			*out.Spec.TerminationGracePeriodSeconds < 0 {
			t.Fatal("pod spec not defaulted")
		}
	})
}
