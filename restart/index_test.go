package restart

import (
	"math/rand/v2"
	"strconv"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// randomStatuses returns n statuses over a small pool of names, so names repeat
// within and across lists, in every state StatusRuntime distinguishes.
func randomStatuses(r *rand.Rand, n int) []corev1.ContainerStatus {
	names := []string{"a", "b", "c", "d", "e", "f", ""}
	out := make([]corev1.ContainerStatus, n)
	for i := range out {
		st := corev1.ContainerStatus{Name: names[r.IntN(len(names))]}
		term := &corev1.ContainerStateTerminated{ExitCode: int32(r.IntN(3))}
		switch r.IntN(6) {
		case 1:
			st.State.Running = &corev1.ContainerStateRunning{}
		case 2:
			st.State.Terminated = term
		case 3:
			st.State.Waiting = &corev1.ContainerStateWaiting{Reason: ReasonRestartingAllContainers}
			st.LastTerminationState.Terminated = term
		case 4:
			st.State.Waiting = &corev1.ContainerStateWaiting{Reason: "CrashLoopBackOff"}
			st.LastTerminationState.Terminated = term
		case 5:
			st.State.Waiting = &corev1.ContainerStateWaiting{}
		}
		out[i] = st
	}
	return out
}

// The indexes answer exactly as the scans they replace, on lists long enough to be
// indexed and short enough to be scanned.
func TestIndexesMatchScans(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	names := []string{"a", "b", "c", "d", "e", "f", "", "missing"}
	for range 2000 {
		size := func() int { return r.IntN(3 * indexLimit) }
		s := &corev1.PodStatus{
			InitContainerStatuses:      randomStatuses(r, size()),
			ContainerStatuses:          randomStatuses(r, size()),
			EphemeralContainerStatuses: randomStatuses(r, size()),
		}
		var insts Instances
		for range size() {
			insts = append(insts, Instance{Name: names[r.IntN(len(names))], State: []State{StateRunning, StateExited, StateCreated, StateUnknown}[r.IntN(4)], ExitCode: int32(r.IntN(3))})
		}
		api := apiStatuses{s: s}
		sr, ir := newest{rt: StatusRuntime{Status: s}}, newest{rt: insts}
		for _, name := range names {
			if got, want := api.find(name), apiStatusByName(s, name); got != want {
				t.Fatalf("apiStatuses.find(%q) = %p, scan %p; status %+v", name, got, want, s)
			}
			gi, gok := sr.get(name)
			wi, wok := StatusRuntime{Status: s}.Newest(name)
			if gi != wi || gok != wok {
				t.Fatalf("indexed StatusRuntime.Newest(%q) = %+v %v, scan %+v %v; status %+v", name, gi, gok, wi, wok, s)
			}
			gi, gok = ir.get(name)
			wi, wok = insts.Newest(name)
			if gi != wi || gok != wok {
				t.Fatalf("indexed Instances.Newest(%q) = %+v %v, scan %+v %v; instances %+v", name, gi, gok, wi, wok, insts)
			}
		}
	}
}

// pad returns a deep copy of pod whose init and regular status lists, and a copy of
// insts, are lengthened past indexLimit with entries named after no container, so
// that the functions index them instead of scanning; the answers must not change.
func pad(pod *corev1.Pod, insts Instances) (*corev1.Pod, Instances) {
	if pod == nil {
		return nil, insts
	}
	p := pod.DeepCopy()
	long := append(Instances(nil), insts...)
	for i := range indexLimit + 1 {
		name := "padding-" + strconv.Itoa(i)
		term := corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: int32(i)}}
		p.Status.InitContainerStatuses = append(p.Status.InitContainerStatuses, corev1.ContainerStatus{Name: name, State: term})
		p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, corev1.ContainerStatus{Name: name, State: term})
		long = append(long, Instance{Name: name, State: StateExited, ExitCode: int32(i)})
	}
	return p, long
}

// FuzzLongLists checks that the restart-all functions answer the same whether
// they scan a pod's lists or index them.
func FuzzLongLists(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte, o byte) {
		pod, opts, insts := fuzzPod(data), fuzzOptions(o), fuzzInstances(data)
		long, longInsts := pad(pod, insts)
		before := long.DeepCopy()
		if got, want := ShouldAllContainersRestart(long, nil, opts), ShouldAllContainersRestart(pod, nil, opts); got != want {
			t.Fatalf("ShouldAllContainersRestart(no runtime): indexed %v, scanned %v", got, want)
		}
		if got, want := ShouldAllContainersRestart(long, longInsts, opts), ShouldAllContainersRestart(pod, insts, opts); got != want {
			t.Fatalf("ShouldAllContainersRestart(Instances): indexed %v, scanned %v", got, want)
		}
		if got, want := ShouldAllContainersRestart(long, StatusRuntime{Status: statusOf(long)}, opts), ShouldAllContainersRestart(pod, StatusRuntime{Status: statusOf(pod)}, opts); got != want {
			t.Fatalf("ShouldAllContainersRestart(StatusRuntime): indexed %v, scanned %v", got, want)
		}
		if got, want := AllContainersRestartCleanedUp(long, longInsts, opts), AllContainersRestartCleanedUp(pod, insts, opts); got != want {
			t.Fatalf("AllContainersRestartCleanedUp(Instances): indexed %v, scanned %v", got, want)
		}
		if got, want := AllContainersRestartCleanedUp(long, nil, opts), AllContainersRestartCleanedUp(pod, nil, opts); got != want {
			t.Fatalf("AllContainersRestartCleanedUp(status): indexed %v, scanned %v", got, want)
		}
		for _, phase := range []corev1.PodPhase{corev1.PodPending, corev1.PodRunning, corev1.PodSucceeded} {
			gc, gi := AllContainersRestartingCondition(long, longInsts, phase, opts)
			wc, wi := AllContainersRestartingCondition(pod, insts, phase, opts)
			if gc != wc || gi != wi {
				t.Fatalf("AllContainersRestartingCondition(%s, Instances): indexed %+v %v, scanned %+v %v", phase, gc, gi, wc, wi)
			}
			gc, gi = AllContainersRestartingCondition(long, nil, phase, opts)
			wc, wi = AllContainersRestartingCondition(pod, nil, phase, opts)
			if gc != wc || gi != wi {
				t.Fatalf("AllContainersRestartingCondition(%s, status): indexed %+v %v, scanned %+v %v", phase, gc, gi, wc, wi)
			}
		}
		unchanged(t, before, long)
	})
}
