package restart

import (
	"math/rand/v2"
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
