package restart

import (
	"math/rand/v2"
	"strconv"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/podlife/podlife/internal/byname"
)

// randomStatuses returns n statuses over a small pool of names, so names repeat
// within and across lists, in every state the status path distinguishes.
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

// apiStatusByScan is what apiStatuses.find must answer, by brute force: upstream's
// name map, built from the init statuses and then the regular ones, later writes
// winning.
func apiStatusByScan(s *corev1.PodStatus, name string) *corev1.ContainerStatus {
	var found *corev1.ContainerStatus
	for i := range s.InitContainerStatuses {
		if s.InitContainerStatuses[i].Name == name {
			found = &s.InitContainerStatuses[i]
		}
	}
	for i := range s.ContainerStatuses {
		if s.ContainerStatuses[i].Name == name {
			found = &s.ContainerStatuses[i]
		}
	}
	return found
}

// newestByScan is what newest.get over a view must answer: the first instance with
// the name.
func newestByScan(insts []Instance, name string) (Instance, bool) {
	for _, inst := range insts {
		if inst.Name == name {
			return inst, true
		}
	}
	return Instance{}, false
}

// The internal lookups answer exactly as brute-force scans, on lists long enough to
// be indexed and short enough to be scanned, whether one lookup structure serves
// every question (as in one call) or each question gets a fresh one.
func TestIndexesMatchScans(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	names := []string{"a", "b", "c", "d", "e", "f", "", "missing"}
	states := []State{StateRunning, StateExited, StateCreated, StateUnknown, StateNone}
	for range 2000 {
		size := func() int { return r.IntN(3 * byname.Threshold) }
		s := &corev1.PodStatus{
			InitContainerStatuses:      randomStatuses(r, size()),
			ContainerStatuses:          randomStatuses(r, size()),
			EphemeralContainerStatuses: randomStatuses(r, size()),
		}
		var insts []Instance
		for range size() {
			insts = append(insts, Instance{Name: names[r.IntN(len(names))], State: states[r.IntN(len(states))], ExitCode: int32(r.IntN(3))})
		}
		v := &View{Instances: insts}
		api := newAPIStatuses(s)
		sr, vr := newNewest(nil, s), newNewest(v, s)
		for _, name := range names {
			if got, want := api.find(name), apiStatusByScan(s, name); got != want {
				t.Fatalf("apiStatuses.find(%q) = %p, scan %p; status %+v", name, got, want, s)
			}
			fresh := newAPIStatuses(s)
			if got, want := fresh.find(name), apiStatusByScan(s, name); got != want {
				t.Fatalf("fresh apiStatuses.find(%q) = %p, scan %p", name, got, want)
			}
			wi, wok := statusInstanceByScan(s, name)
			gi, gok := sr.get(name)
			if gi != wi || gok != wok {
				t.Fatalf("newest.get(%q) from status = %+v %v, scan %+v %v; status %+v", name, gi, gok, wi, wok, s)
			}
			x := newNewest(nil, s)
			if gi, gok = x.get(name); gi != wi || gok != wok {
				t.Fatalf("fresh newest.get(%q) from status = %+v %v, scan %+v %v", name, gi, gok, wi, wok)
			}
			wi, wok = newestByScan(insts, name)
			if gi, gok = vr.get(name); gi != wi || gok != wok {
				t.Fatalf("newest.get(%q) from view = %+v %v, scan %+v %v; instances %+v", name, gi, gok, wi, wok, insts)
			}
			x = newNewest(v, nil)
			if gi, gok = x.get(name); gi != wi || gok != wok {
				t.Fatalf("fresh newest.get(%q) from view = %+v %v, scan %+v %v", name, gi, gok, wi, wok)
			}
		}
	}
}

// pad returns a deep copy of pod whose init and regular status lists, and a copy of
// view, are lengthened past byname.Threshold with entries named after no container,
// so that the functions index them instead of scanning; the answers must not change.
func pad(pod *corev1.Pod, view *View) (*corev1.Pod, *View) {
	var long *View
	if view != nil {
		long = &View{Instances: append([]Instance(nil), view.Instances...)}
	}
	if pod == nil {
		return nil, long
	}
	p := pod.DeepCopy()
	for i := range byname.Threshold + 1 {
		name := "padding-" + strconv.Itoa(i)
		term := corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: int32(i)}}
		p.Status.InitContainerStatuses = append(p.Status.InitContainerStatuses, corev1.ContainerStatus{Name: name, State: term})
		p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, corev1.ContainerStatus{Name: name, State: term})
		p.Status.EphemeralContainerStatuses = append(p.Status.EphemeralContainerStatuses, corev1.ContainerStatus{Name: name, State: term})
		if long != nil {
			long.Instances = append(long.Instances, Instance{Name: name, State: StateExited, ExitCode: int32(i)})
		}
	}
	return p, long
}

// FuzzLongLists checks that the restart-all functions answer the same whether
// they scan a pod's lists and view or index them.
func FuzzLongLists(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte, _ byte) {
		pod, v := fuzzPod(data), fuzzView(data)
		long, longView := pad(pod, v)
		before := long.DeepCopy()
		if got, want := ShouldAllContainersRestart(long, nil), ShouldAllContainersRestart(pod, nil); got != want {
			t.Fatalf("ShouldAllContainersRestart(no view): indexed %v, scanned %v", got, want)
		}
		if got, want := ShouldAllContainersRestart(long, longView), ShouldAllContainersRestart(pod, v); got != want {
			t.Fatalf("ShouldAllContainersRestart(view): indexed %v, scanned %v", got, want)
		}
		if got, want := AllContainersRestartCleanedUp(long, longView), AllContainersRestartCleanedUp(pod, v); got != want {
			t.Fatalf("AllContainersRestartCleanedUp(view): indexed %v, scanned %v", got, want)
		}
		if got, want := AllContainersRestartCleanedUp(long, nil), AllContainersRestartCleanedUp(pod, nil); got != want {
			t.Fatalf("AllContainersRestartCleanedUp(status): indexed %v, scanned %v", got, want)
		}
		unchanged(t, before, long)
	})
}
