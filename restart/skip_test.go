package restart

import (
	"strconv"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// longListPod has a regular and an init container for each name of regular and
// inits, in that order, each init container with restartPolicy Always and each
// regular one with the pod's policy, and a status for each name of statuses (in the
// regular list) and initStatuses: the status at index i exited with code 100+i
// (1000+i for init statuses), so that a decision's ExitCode names the status it read.
func longListPod(regular, inits, statuses, initStatuses []string) *corev1.Pod {
	always := corev1.ContainerRestartPolicyAlways
	p := &corev1.Pod{Spec: corev1.PodSpec{RestartPolicy: corev1.RestartPolicyOnFailure}}
	for _, n := range regular {
		p.Spec.Containers = append(p.Spec.Containers, corev1.Container{Name: n})
	}
	for _, n := range inits {
		p.Spec.InitContainers = append(p.Spec.InitContainers, corev1.Container{Name: n, RestartPolicy: &always})
	}
	exited := func(code int) corev1.ContainerState {
		return corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: int32(code)}}
	}
	for i, n := range statuses {
		p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, corev1.ContainerStatus{Name: n, State: exited(100 + i)})
	}
	for i, n := range initStatuses {
		p.Status.InitContainerStatuses = append(p.Status.InitContainerStatuses, corev1.ContainerStatus{Name: n, State: exited(1000 + i)})
	}
	return p
}

// names returns prefix+i for i in [from, to).
func names(prefix string, from, to int) []string {
	var out []string
	for i := from; i < to; i++ {
		out = append(out, prefix+strconv.Itoa(i))
	}
	return out
}

// TestShouldRestartLongLists pins ShouldRestart on lists long enough to be skipped
// sixteen, eight or four names a step (skipContainers, skipStatuses), with names of
// the looked-up one's length and last two bytes before it.
func TestShouldRestartLongLists(t *testing.T) {
	// Twelve regular containers app-10…app-21 and twelve init containers
	// init-10…init-21; a status for each.
	base := longListPod(names("app-", 10, 22), names("ini-", 10, 22), names("app-", 10, 22), names("ini-", 10, 22))
	// The same with a regular container and a status named like an init
	// container, and a status of another name before the real one.
	shadow := longListPod(append(names("app-", 10, 21), "ini-17"), names("ini-", 10, 22),
		append(append([]string{"xni-17"}, names("app-", 10, 21)...), "ini-17"), names("ini-", 10, 22))
	for _, tc := range []struct {
		name      string
		pod       *corev1.Pod
		container string
		want      string
	}{
		{"first regular", base, "app-10", "exit code 100; pod restartPolicy OnFailure → Restart"},
		{"regular in a block of eight", base, "app-17", "exit code 107; pod restartPolicy OnFailure → Restart"},
		{"last regular, in a block of four", base, "app-21", "exit code 111; pod restartPolicy OnFailure → Restart"},
		{"init after twelve regulars", base, "ini-19", "exit code 1009 matched no rule; container restartPolicy Always → Restart"},
		{"same length and last two bytes, no such name", base, "xpp-15", "container is not in the pod spec → no restart"},
		{"a regular container shadows an init container of its name", shadow, "ini-17", "exit code 112; pod restartPolicy OnFailure → Restart"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ShouldRestart(tc.pod, tc.container, Options{}).Explain(); got != tc.want {
				t.Errorf("ShouldRestart(%q) = %q, want %q", tc.container, got, tc.want)
			}
		})
	}
}

// TestShouldRestartLongListsMatchLookup compares ShouldRestart, on lists of 0 to 40
// names (blocks of sixteen, eight and four and a remainder) drawn from a pool whose names share lengths and last two bytes (and hold
// empty and one-byte names and duplicates), with a plain lookup: the first container
// of the name in spec.containers, then spec.initContainers, the first status of the
// name in its kind's list, and ShouldRestartInstance.
func TestShouldRestartLongListsMatchLookup(t *testing.T) {
	pool := []string{"ab", "xb", "a-10", "b-10", "a-11", "", "a", "b", "long-name-10", "long-name-1x", "a-10", "ab"}
	pick := func(seed, n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = pool[(seed*7+i*5+i*i)%len(pool)]
		}
		return out
	}
	asked := 0
	for seed := range 12 {
		for n := range 41 {
			pod := longListPod(pick(seed, n), pick(seed+3, n), pick(seed+5, n), pick(seed+1, 40-n))
			for _, name := range append(pool, "zz", "long-name-11") {
				got := ShouldRestart(pod, name, Options{})
				if want := lookupDecision(pod, name); got != want {
					t.Fatalf("seed %d, %d names, %q: ShouldRestart = %+v, want %+v", seed, n, name, got, want)
				}
				asked++
			}
		}
	}
	if asked != 12*41*14 {
		t.Fatalf("asked %d questions", asked)
	}
}

// lookupDecision is ShouldRestart written plainly: the container and its first status
// found by string comparison, then ShouldRestartInstance.
func lookupDecision(pod *corev1.Pod, name string) Decision {
	c := lookup(pod, name)
	if c == nil {
		return ShouldRestartInstance(pod, nil, nil, Options{})
	}
	statuses := pod.Status.ContainerStatuses
	if lookup(&corev1.Pod{Spec: corev1.PodSpec{Containers: pod.Spec.Containers}}, name) == nil {
		statuses = pod.Status.InitContainerStatuses
	}
	var newest *Instance
	for i := range statuses {
		if statuses[i].Name == name {
			if inst, ok := InstanceFromStatus(&statuses[i]); ok {
				newest = &inst
			}
			break
		}
	}
	return ShouldRestartInstance(pod, c, newest, Options{})
}
