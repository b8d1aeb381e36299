package defaults

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	api "k8s.io/kubernetes/pkg/apis/core"
	podstore "k8s.io/kubernetes/pkg/registry/core/pod"

	"github.com/podlife/podlife"
	"github.com/podlife/podlife/conformance/internal/coverage"
	"github.com/podlife/podlife/conformance/internal/gatesets"
)

// updatesPerRun is the number of generated updates checked with default gates.
const updatesPerRun = 3000

// storedUnder are the gates a stored pod was created under in half of the updates:
// every feature whose fields are dropped when off is on, so that the update sees them
// in use.
var storedUnder = podlife.FeatureGates{"AllAlpha": true, "AllBeta": true}

// upstreamUpdate runs the server's update path (decoder defaulting, generation carried
// over by rest.BeforeUpdate, PrepareForUpdate) for newPod over the stored oldPod.
func upstreamUpdate(t testing.TB, newPod, oldPod *corev1.Pod) *corev1.Pod {
	v := newPod.DeepCopy()
	legacyscheme.Scheme.Default(v)
	newInternal, oldInternal := &api.Pod{}, &api.Pod{}
	must(t, legacyscheme.Scheme.Convert(v, newInternal, nil))
	must(t, legacyscheme.Scheme.Convert(oldPod.DeepCopy(), oldInternal, nil))
	newInternal.Generation = oldInternal.Generation
	podstore.Strategy.PrepareForUpdate(context.Background(), newInternal, oldInternal)
	out := &corev1.Pod{}
	must(t, legacyscheme.Scheme.Convert(newInternal, out, nil))
	return out
}

// storedStatus gives a stored pod a status a kubelet might have written.
func (g *gen) storedStatus(p *corev1.Pod) {
	if g.p(0.5) {
		return
	}
	st := &p.Status
	st.Phase = corev1.PodRunning
	st.ObservedGeneration = p.Generation
	if g.p(0.3) {
		st.VolumeHealth = []corev1.PodVolumeHealth{}
	}
	if g.p(0.2) {
		st.NodeAllocatableResourceClaimStatuses = []corev1.NodeAllocatableResourceClaimStatus{}
	}
	for _, c := range p.Spec.Containers {
		cs := corev1.ContainerStatus{Name: c.Name, Image: c.Image, Ready: g.p(0.5)}
		if g.p(0.3) {
			cs.AllocatedResources = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1")}
			cs.Resources = &corev1.ResourceRequirements{}
		}
		if g.p(0.2) {
			cs.AllocatedResourcesStatus = []corev1.ResourceStatus{}
		}
		if g.p(0.1) {
			cs.AllocatedResourcesStatus = []corev1.ResourceStatus{{Name: "claim:x", Resources: []corev1.ResourceHealth{{ResourceID: "d", Health: corev1.ResourceHealthStatusHealthy}}}}
		}
		if g.p(0.2) {
			cs.VolumeMounts = []corev1.VolumeMountStatus{{Name: "v", MountPath: "/m"}}
		}
		if g.p(0.2) {
			cs.User = &corev1.ContainerUser{Linux: &corev1.LinuxContainerUser{UID: 1, GID: 1}}
		}
		st.ContainerStatuses = append(st.ContainerStatuses, cs)
	}
}

// update derives a new object for an update of stored.
func (g *gen) update(stored *corev1.Pod) *corev1.Pod {
	switch g.n(4) {
	case 0: // a different pod altogether
		p := g.pod()
		p.Name, p.Namespace = stored.Name, stored.Namespace
		return p
	case 1: // the stored object sent back unchanged
		return stored.DeepCopy()
	}
	p := stored.DeepCopy()
	for k := 1 + g.n(3); k > 0; k-- {
		switch g.n(10) {
		case 0:
			if len(p.Spec.Containers) > 0 {
				p.Spec.Containers[0].Image = pick(g, images...)
			}
		case 1:
			p.Spec.Resources = nil
		case 2:
			if len(p.Spec.Containers) > 0 {
				p.Spec.Containers[0].Lifecycle = &corev1.Lifecycle{StopSignal: ptr(corev1.SIGKILL)}
			}
		case 3:
			if len(p.Spec.Containers) > 0 {
				p.Spec.Containers[0].RestartPolicy = ptr(corev1.ContainerRestartPolicyNever)
			}
		case 4:
			p.Labels = map[string]string{"app": "web", "rev": "8"}
		case 5:
			p.Status = corev1.PodStatus{Phase: corev1.PodFailed}
		case 6:
			if len(p.Spec.Containers) > 0 {
				p.Spec.Containers[0].Resources = g.resources()
			}
		case 7:
			p.Spec.Volumes = append(p.Spec.Volumes, g.volume(len(p.Spec.Volumes)))
		case 8:
			p.Spec.ActiveDeadlineSeconds = ptr(int64(30))
		default:
			p.Spec.InitContainers = append(p.Spec.InitContainers, g.container("late", 1))
		}
	}
	return p
}

func TestDefaultForUpdateMatchesUpstream(t *testing.T) {
	s := seed(t)
	t.Logf("seed %d (override with PODLIFE_SEED)", s)
	for gi, gs := range gateSets(t) {
		t.Run(gs.Name, func(t *testing.T) {
			gatesets.Apply(t, gs.Set)
			g := newGen(s + 2000 + uint64(gi))
			opts := podlife.DefaultOptions{Features: gs.Features(), Now: fixedNow}
			n := updatesPerRun
			if gs.Name != gatesets.Defaults.Name {
				n = updatesPerRun / 6
			}
			fails := 0
			var kinds coverage.Counts
			for i := 0; i < n; i++ {
				var stored *corev1.Pod
				if g.p(0.5) {
					kinds.Add("stored by upstream")
					start := time.Now()
					stored = upstreamDefault(t, g.pod())
					pinClock(t, stored, start)
				} else {
					kinds.Add("stored with every feature on")
					// Stored while more features were on: fields of now-disabled
					// features are in use and must survive the update.
					stored = podlife.DefaultWithOptions(g.pod(), podlife.DefaultOptions{Features: storedUnder, Now: fixedNow})
				}
				if g.p(0.3) {
					stored.Generation = int64(1 + g.n(5))
				}
				g.storedStatus(stored)
				newPod := g.update(stored)
				if reflect.DeepEqual(newPod, stored) {
					kinds.Add("sent back unchanged")
				} else {
					kinds.Add("changed")
				}
				beforeNew, beforeOld := newPod.DeepCopy(), stored.DeepCopy()
				want := upstreamUpdate(t, newPod, stored)
				got := podlife.DefaultForUpdate(newPod, stored, opts)
				if !reflect.DeepEqual(beforeNew, newPod) || !reflect.DeepEqual(beforeOld, stored) {
					t.Fatalf("update %d: DefaultForUpdate modified an input", i)
				}
				if d := compare(got, want); d != "" {
					fails++
					nb, _ := json.Marshal(beforeNew)
					ob, _ := json.Marshal(beforeOld)
					t.Errorf("update %d (seed %d, gates %s): %s\nnew: %s\nold: %s", i, s+2000+uint64(gi), gs.Name, d, nb, ob)
					if fails > 3 {
						t.FailNow()
					}
				}
			}
			t.Logf("%s: %d updates, %d disagreements; %s", gs.Name, n, fails, &kinds)
			kinds.Each(t, "update", n/10, "stored by upstream", "stored with every feature on", "sent back unchanged", "changed")
		})
	}
}
