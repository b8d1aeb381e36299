package lifecycleplan

import (
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

	"github.com/podlife/podlife/conformance/internal/coverage"
	"github.com/podlife/podlife/conformance/internal/gatesets"
	"github.com/podlife/podlife/conformance/internal/upstreamkubelet"
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
// previous statuses of every shape (resources and started flags included), times,
// restart counts, images, messages and start failures.
func (g gen) statusInputs(pod *v1.Pod, v *restart.View) {
	t0 := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	prev := func(c v1.Container) v1.ContainerStatus {
		cs := v1.ContainerStatus{Name: c.Name, RestartCount: int32(g.pick(4)), ContainerID: upstreamkubelet.InstanceID(g.pick(8))}
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
		cs.Ready = g.pick(2) == 0
		switch g.pick(4) {
		case 0:
			cs.Resources = &v1.ResourceRequirements{}
		case 1, 2:
			// What the kubelet reported earlier: the spec's values, or others.
			r := c.Resources.DeepCopy()
			if g.pick(2) == 0 {
				other := g.resources()
				r = other.DeepCopy()
			}
			cs.Resources = r
			cs.AllocatedResources = r.Requests
		}
		return cs
	}
	pod.Status.InitContainerStatuses, pod.Status.ContainerStatuses, pod.Status.EphemeralContainerStatuses = nil, nil, nil
	for _, c := range pod.Spec.InitContainers {
		if g.pick(3) != 0 {
			pod.Status.InitContainerStatuses = append(pod.Status.InitContainerStatuses, prev(c))
		}
	}
	for _, c := range pod.Spec.Containers {
		if g.pick(3) != 0 {
			pod.Status.ContainerStatuses = append(pod.Status.ContainerStatuses, prev(c))
		}
	}
	for _, c := range pod.Spec.EphemeralContainers {
		if g.pick(2) == 0 {
			pod.Status.EphemeralContainerStatuses = append(pod.Status.EphemeralContainerStatuses, prev(v1.Container(c.EphemeralContainerCommon)))
		}
	}
	for i := range v.Instances {
		inst := &v.Instances[i]
		inst.RestartCount = int32(g.pick(4))
		inst.StartedAt = t0.Add(time.Duration(g.pick(100)) * time.Second)
		inst.FinishedAt = inst.StartedAt.Add(time.Duration(g.pick(100)) * time.Second)
		inst.Image, inst.ImageID = "img", "sha256:1"
		if inst.State == restart.StateExited && g.pick(2) == 0 {
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

// classify counts what a compared container status shows.
func classify(cov *coverage.Counts, kind string, cs v1.ContainerStatus) {
	switch {
	case cs.State.Running != nil:
		cov.Add(kind + " running")
	case cs.State.Terminated != nil:
		cov.Add(kind + " terminated " + cs.State.Terminated.Reason)
	case cs.State.Waiting != nil:
		cov.Add(kind + " waiting " + cs.State.Waiting.Reason)
	}
	if cs.Started != nil {
		cov.Addf("started=%t", *cs.Started)
	}
	if cs.State.Running != nil {
		cov.Addf("running ready=%t", cs.Ready)
	}
	if cs.Resources != nil && (len(cs.Resources.Requests) > 0 || len(cs.Resources.Limits) > 0) {
		cov.Add("status resources")
	}
	if len(cs.AllocatedResources) > 0 {
		cov.Add("allocated resources")
	}
	if cs.LastTerminationState.Terminated != nil {
		cov.Add("last termination")
	}
}

// TestContainerStatusesAgainstUpstream compares the container statuses of
// lifecycle.NextStatus, whole (started, ready and resources included), with what the
// kubelet's generateAPIPodStatus computes for them: convertToAPIContainerStatuses on the
// runtime status GetPodStatus derives from the view, with the same previous statuses and
// reason cache, then the prober manager's UpdatePodStatus with the view's probe results.
// The runtime reports no container resources and the kubelet holds no actuated record
// (NextStatus does not model runtime-reported resources): status resources are the
// spec's, with the CPU and memory values reported before kept for a container still
// running under the same ID.
func TestContainerStatusesAgainstUpstream(t *testing.T) {
	gatesets.Run(t, gateSets, func(t *testing.T, gs gatesets.Set) {
		opts := lifecycle.Options{Features: gs.Features()}
		s := seed(t)
		g := gen{rand.New(rand.NewSource(s + 3))}
		rt := upstreamkubelet.New(t)
		ctx := rt.Context()
		now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
		n, disagreements := count(t), 0
		var cov coverage.Counts
		for i := 0; i < n; i++ {
			pod := g.pod()
			v := g.view(pod)
			g.statusInputs(pod, &v)
			ps, _ := rt.PodStatus(t, pod, &v, false)
			kl := newKubelet(pod, &v)
			restarting := kubecontainer.ShouldAllContainersRestart(pod, ps, &pod.Status)
			hasInit := len(pod.Spec.InitContainers) > 0
			var eph []v1.Container
			for _, e := range pod.Spec.EphemeralContainers {
				eph = append(eph, v1.Container(e.EphemeralContainerCommon))
			}
			up := v1.PodStatus{
				InitContainerStatuses:      convertToAPIContainerStatuses(kl, ctx, pod, ps, pod.Status.InitContainerStatuses, pod.Spec.InitContainers, nil, hasInit, true, restarting),
				ContainerStatuses:          convertToAPIContainerStatuses(kl, ctx, pod, ps, pod.Status.ContainerStatuses, pod.Spec.Containers, nil, hasInit, false, restarting),
				EphemeralContainerStatuses: convertToAPIContainerStatuses(kl, ctx, pod, ps, pod.Status.EphemeralContainerStatuses, eph, nil, hasInit, false, restarting),
			}
			rt.UpdateProbeStatus(t, pod, &up)
			want := [3][]v1.ContainerStatus{up.InitContainerStatuses, up.ContainerStatuses, up.EphemeralContainerStatuses}
			st := lifecycle.NextStatus(pod, &v, now, opts)
			got := [3][]v1.ContainerStatus{st.InitContainerStatuses, st.ContainerStatuses, st.EphemeralContainerStatuses}
			for k := range want {
				for _, cs := range want[k] {
					classify(&cov, []string{"init", "regular", "ephemeral"}[k], cs)
				}
				if !apiequality.Semantic.DeepEqual(want[k], got[k]) {
					disagreements++
					if disagreements <= 3 {
						t.Errorf("seed %d input %d list %d:\npod: %+v\nview: %+v\nupstream: %s\npodlife:  %s", s, i, k, pod, v, dump(want[k]), dump(got[k]))
					}
				}
			}
		}
		t.Logf("container statuses: %d pods × 3 lists, %d disagreements (seed %d); %s", n, disagreements, s, &cov)
		cov.Each(t, "container status", n/100, "started=true", "started=false", "running ready=true", "running ready=false",
			"status resources", "allocated resources", "last termination", "regular running", "init running", "init terminated Completed",
			"regular terminated Error", "regular waiting ContainerCreating", "init waiting PodInitializing", "regular waiting CrashLoopBackOff")
		if gatesets.Enabled("RestartAllContainersOnContainerExits") {
			cov.AtLeast(t, "container status", "regular waiting RestartingAllContainers", n/1000)
		}
	})
}

func dump(list []v1.ContainerStatus) string {
	var b strings.Builder
	for _, cs := range list {
		started := "nil"
		if cs.Started != nil {
			started = fmt.Sprint(*cs.Started)
		}
		fmt.Fprintf(&b, "\n  %s id=%s restarts=%d state=%s last=%s image=%s started=%s ready=%t res=%v alloc=%v", cs.Name, cs.ContainerID, cs.RestartCount, state(cs.State), state(cs.LastTerminationState), cs.Image, started, cs.Ready, cs.Resources, cs.AllocatedResources)
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
