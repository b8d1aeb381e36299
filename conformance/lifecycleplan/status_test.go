package lifecycleplan

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"

	v1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/kubernetes/pkg/kubelet"
	kubecontainer "k8s.io/kubernetes/pkg/kubelet/container"

	"github.com/podlife/podlife/conformance/internal/gatesets"
	"github.com/podlife/podlife/lifecycle"
	"github.com/podlife/podlife/restart"
)

// newKubelet returns a bare Kubelet whose reason cache holds the view's start
// failures: all that convertToAPIContainerStatuses reads (image-volume digests and
// recursive read-only mounts are off or absent).
func newKubelet(pod *v1.Pod, v *restart.View) *kubelet.Kubelet {
	kl := &kubelet.Kubelet{}
	rc := kubelet.NewReasonCache()
	var result kubecontainer.PodSyncResult
	names := make([]string, 0, len(v.StartFailures))
	for name := range v.StartFailures {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		f := v.StartFailures[name]
		r := kubecontainer.NewSyncResult(kubecontainer.StartContainer, name)
		r.Fail(errors.New(f.Reason), f.Message)
		result.AddSyncResult(r)
	}
	rc.Update(pod.UID, result)
	field := reflect.ValueOf(kl).Elem().FieldByName("reasonCache")
	reflect.NewAt(field.Type(), unsafe.Pointer(field.UnsafeAddr())).Elem().Set(reflect.ValueOf(rc))
	return kl
}

var startFailureReasons = []restart.StartFailure{
	{Reason: "CrashLoopBackOff", Message: "back-off 10s restarting failed container=x pod=p_ns(uid)"},
	{Reason: "ErrImagePull", Message: "rpc error: not found"},
	{Reason: "CreateContainerConfigError", Message: `secret "s" not found`},
}

// statusInputs adds what the status conversion reads on top of the plan inputs:
// previous statuses of every shape, times, messages and start failures.
func (g gen) statusInputs(pod *v1.Pod, v *restart.View) {
	t0 := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	prev := func(name string) v1.ContainerStatus {
		cs := v1.ContainerStatus{Name: name, RestartCount: int32(g.pick(4)), ContainerID: "cri://c" + fmt.Sprint(g.pick(8))}
		switch g.pick(5) {
		case 0:
			cs.State.Running = &v1.ContainerStateRunning{StartedAt: metav1.NewTime(t0)}
		case 1:
			cs.State.Terminated = &v1.ContainerStateTerminated{ExitCode: int32(g.pick(3)), Reason: "Error", FinishedAt: metav1.NewTime(t0), ContainerID: cs.ContainerID}
		case 2:
			cs.State.Waiting = &v1.ContainerStateWaiting{Reason: []string{"", "ContainerCreating", "RestartingAllContainers"}[g.pick(3)]}
		case 3:
		}
		if g.pick(3) == 0 {
			cs.LastTerminationState.Terminated = &v1.ContainerStateTerminated{ExitCode: int32(g.pick(3)), Reason: "Error"}
		}
		if g.pick(2) == 0 {
			b := g.pick(2) == 0
			cs.Started = &b
		}
		if g.pick(4) == 0 {
			cs.Resources = &v1.ResourceRequirements{}
		}
		return cs
	}
	pod.Status.InitContainerStatuses, pod.Status.ContainerStatuses, pod.Status.EphemeralContainerStatuses = nil, nil, nil
	for _, c := range pod.Spec.InitContainers {
		if g.pick(3) != 0 {
			pod.Status.InitContainerStatuses = append(pod.Status.InitContainerStatuses, prev(c.Name))
		}
	}
	for _, c := range pod.Spec.Containers {
		if g.pick(3) != 0 {
			pod.Status.ContainerStatuses = append(pod.Status.ContainerStatuses, prev(c.Name))
		}
	}
	for _, c := range pod.Spec.EphemeralContainers {
		if g.pick(2) == 0 {
			pod.Status.EphemeralContainerStatuses = append(pod.Status.EphemeralContainerStatuses, prev(c.Name))
		}
	}
	for i := range v.Instances {
		inst := &v.Instances[i]
		inst.RestartCount = int32(g.pick(4))
		inst.StartedAt = t0.Add(time.Duration(g.pick(100)) * time.Second)
		inst.FinishedAt = inst.StartedAt.Add(time.Duration(g.pick(100)) * time.Second)
		inst.Image, inst.ImageID = "img", "sha256:1"
		if inst.State == "exited" && g.pick(2) == 0 {
			inst.Reason, inst.Message = "Error", "boom"
		}
	}
	for _, name := range []string{"init0", "init1", "app0", "app1", "app2", "debug1"} {
		if g.pick(4) == 0 {
			if v.StartFailures == nil {
				v.StartFailures = map[string]restart.StartFailure{}
			}
			v.StartFailures[name] = startFailureReasons[g.pick(len(startFailureReasons))]
		}
	}
}

// forCompare clears what the prober sets after the conversion.
func forCompare(list []v1.ContainerStatus) []v1.ContainerStatus {
	out := make([]v1.ContainerStatus, len(list))
	for i, cs := range list {
		cs.Ready = false
		cs.Started = nil
		out[i] = cs
	}
	return out
}

// TestContainerStatusesAgainstUpstream compares the container statuses of
// lifecycle.NextStatus with the kubelet's convertToAPIContainerStatuses, called with
// the same previous statuses, runtime status and reason cache. The prober's started
// and ready flags, which NextStatus adds after the conversion, are left out.
func TestContainerStatusesAgainstUpstream(t *testing.T) {
	gatesets.Run(t, gatesets.Standard(), func(t *testing.T, gs gatesets.Set) {
		opts := lifecycle.Options{Features: gs.Features()}
		s := seed(t)
		g := gen{rand.New(rand.NewSource(s + 3))}
		ctx := context.Background()
		now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
		n, disagreements := count(), 0
		for i := 0; i < n; i++ {
			pod := g.pod()
			v := g.view(pod)
			g.statusInputs(pod, &v)
			ps := runtimeStatus(pod, &v)
			for j, inst := range v.Instances {
				ps.ContainerStatuses[j].RestartCount = int(inst.RestartCount)
				ps.ContainerStatuses[j].StartedAt, ps.ContainerStatuses[j].FinishedAt = inst.StartedAt, inst.FinishedAt
				ps.ContainerStatuses[j].Image, ps.ContainerStatuses[j].ImageRef = inst.Image, inst.ImageID
				ps.ContainerStatuses[j].Message = inst.Message
			}
			kl := newKubelet(pod, &v)
			restarting := kubecontainer.ShouldAllContainersRestart(pod, ps, &pod.Status)
			hasInit := len(pod.Spec.InitContainers) > 0
			var eph []v1.Container
			for _, e := range pod.Spec.EphemeralContainers {
				eph = append(eph, v1.Container(e.EphemeralContainerCommon))
			}
			want := [3][]v1.ContainerStatus{
				convertToAPIContainerStatuses(kl, ctx, pod, ps, pod.Status.InitContainerStatuses, pod.Spec.InitContainers, nil, hasInit, true, restarting),
				convertToAPIContainerStatuses(kl, ctx, pod, ps, pod.Status.ContainerStatuses, pod.Spec.Containers, nil, hasInit, false, restarting),
				convertToAPIContainerStatuses(kl, ctx, pod, ps, pod.Status.EphemeralContainerStatuses, eph, nil, hasInit, false, restarting),
			}
			st := lifecycle.NextStatus(pod, &v, now, opts)
			got := [3][]v1.ContainerStatus{st.InitContainerStatuses, st.ContainerStatuses, st.EphemeralContainerStatuses}
			for k := range want {
				w, o := forCompare(want[k]), forCompare(got[k])
				if !apiequality.Semantic.DeepEqual(w, o) {
					disagreements++
					if disagreements <= 3 {
						t.Errorf("seed %d input %d list %d:\npod: %+v\nview: %+v\nupstream: %s\npodlife:  %s", s, i, k, pod, v, dump(w), dump(o))
					}
				}
			}
		}
		t.Logf("container statuses: %d pods × 3 lists, %d disagreements (seed %d)", n, disagreements, s)
	})
}

func dump(list []v1.ContainerStatus) string {
	var b strings.Builder
	for _, cs := range list {
		fmt.Fprintf(&b, "\n  %s id=%s restarts=%d state=%s last=%s image=%s res=%v alloc=%v", cs.Name, cs.ContainerID, cs.RestartCount, state(cs.State), state(cs.LastTerminationState), cs.Image, cs.Resources, cs.AllocatedResources)
	}
	return b.String()
}

func state(s v1.ContainerState) string {
	switch {
	case s.Running != nil:
		return fmt.Sprintf("running(%s)", s.Running.StartedAt.UTC().Format(time.RFC3339))
	case s.Terminated != nil:
		t := s.Terminated
		return fmt.Sprintf("terminated(%d %q %q %s %s %s)", t.ExitCode, t.Reason, t.Message, t.StartedAt.UTC().Format(time.RFC3339), t.FinishedAt.UTC().Format(time.RFC3339), t.ContainerID)
	case s.Waiting != nil:
		return fmt.Sprintf("waiting(%q %q)", s.Waiting.Reason, s.Waiting.Message)
	}
	return "none"
}
