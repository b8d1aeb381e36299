package defaulting

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/podlife/podlife/internal/gates"
)

func TestDefaultForUpdate(t *testing.T) {
	stopSignal := func(c *corev1.Container) {
		sig := corev1.SIGUSR1
		c.Lifecycle = &corev1.Lifecycle{StopSignal: &sig}
	}
	stored := func(mod func(*corev1.Pod)) *corev1.Pod {
		p := &corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{ctr("app", limits("cpu", "1"))}}}
		if mod != nil {
			mod(p)
		}
		out := Pod(p, Options{Features: gates.FeatureGates{"ContainerStopSignals": true}})
		out.Generation = 3
		out.Status.Phase = corev1.PodRunning
		return out
	}
	cases := []struct {
		name  string
		old   *corev1.Pod
		edit  func(*corev1.Pod)
		opts  Options
		check func(*corev1.Pod) string
		want  string
	}{
		{
			name: "unchanged spec keeps the generation and the stored status",
			old:  stored(nil),
			edit: func(p *corev1.Pod) {
				p.Status = corev1.PodStatus{Phase: corev1.PodFailed}
				p.Labels = map[string]string{"a": "b"}
			},
			check: func(p *corev1.Pod) string { return fmt.Sprint(p.Generation, " ", p.Status.Phase, " ", p.Labels) },
			want:  "3 Running map[a:b]",
		},
		{
			name:  "a spec change bumps the generation; the new object is defaulted",
			old:   stored(nil),
			edit:  func(p *corev1.Pod) { p.Spec.Containers[0].Image = "nginx"; p.Spec.Containers[0].ImagePullPolicy = "" },
			check: func(p *corev1.Pod) string { return fmt.Sprint(p.Generation, " ", p.Spec.Containers[0].ImagePullPolicy) },
			want:  "4 Always",
		},
		{
			name: "pod-level resources dropped by the client are restored",
			old: stored(func(p *corev1.Pod) {
				p.Spec.Resources = &corev1.ResourceRequirements{Requests: rl("cpu", "1")}
			}),
			edit:  func(p *corev1.Pod) { p.Spec.Resources = nil },
			check: func(p *corev1.Pod) string { return fmt.Sprint(p.Generation, " ", js(p.Spec.Resources)) },
			want:  `3 {"limits":{"cpu":"1"},"requests":{"cpu":"1"}}`,
		},
		{
			name:  "a disabled feature the stored pod uses is kept",
			old:   stored(func(p *corev1.Pod) { stopSignal(&p.Spec.Containers[0]) }),
			edit:  func(p *corev1.Pod) { p.Spec.Containers[0].Lifecycle.StopSignal = ptrTo(corev1.SIGTERM) },
			check: func(p *corev1.Pod) string { return fmt.Sprint(p.Generation, " ", js(p.Spec.Containers[0].Lifecycle)) },
			want:  `4 {"stopSignal":"SIGTERM"}`,
		},
		{
			name:  "a disabled feature the stored pod does not use is dropped",
			old:   stored(nil),
			edit:  func(p *corev1.Pod) { stopSignal(&p.Spec.Containers[0]) },
			check: func(p *corev1.Pod) string { return fmt.Sprint(p.Generation, " ", js(p.Spec.Containers[0].Lifecycle)) },
			want:  "3 null",
		},
		{
			name:  "nil old pod is an empty one",
			old:   nil,
			edit:  func(p *corev1.Pod) {},
			check: func(p *corev1.Pod) string { return fmt.Sprint(p.Generation, " ", js(p.Status)) },
			want:  "1 {}",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var newPod *corev1.Pod
			if tc.old != nil {
				newPod = tc.old.DeepCopy()
			} else {
				newPod = &corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{ctr("app")}}}
			}
			tc.edit(newPod)
			beforeNew, beforeOld := newPod.DeepCopy(), tc.old.DeepCopy()
			got := PodForUpdate(newPod, tc.old, tc.opts)
			if !reflect.DeepEqual(beforeNew, newPod) || !reflect.DeepEqual(beforeOld, tc.old) {
				t.Error("input modified")
			}
			if s := tc.check(got); s != tc.want {
				t.Errorf("got  %s\nwant %s", s, tc.want)
			}
		})
	}
	if PodForUpdate(nil, &corev1.Pod{}, Options{}) != nil {
		t.Error("nil new pod must give nil")
	}
}

// FuzzDefaultForUpdate checks DefaultForUpdate: no panic, inputs untouched,
// deterministic, the stored status always kept, and an update that resends the stored
// object: under the gates it was created with, it keeps its generation and spec; under
// other gates the server drops the fields of disabled gates the stored object does not
// use (an empty pod-level resources with PodLevelResources off, as upstream's
// dropDisabledPodFields does), and the generation moves by one exactly when the spec
// changed (updatePodGeneration).
func FuzzDefaultForUpdate(f *testing.F) {
	f.Add([]byte{}, []byte{1, 2, 3})
	f.Add([]byte{1, 1, 1, 3, 2, 1, 3, 2, 5, 1, 2, 1, 1, 1}, []byte("another pod"))
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	created := gates.FeatureGates{"AllAlpha": true, "AllBeta": true}
	f.Fuzz(func(t *testing.T, oldData, newData []byte) {
		so, sn := &bytesrc{b: oldData}, &bytesrc{b: newData}
		stored := Pod(so.pod(), Options{Features: created, Now: now})
		stored.Generation = int64(so.n(4))
		newPod := sn.pod()
		opts := Options{Features: fuzzGates(sn)}
		bn, bo := newPod.DeepCopy(), stored.DeepCopy()
		got := PodForUpdate(newPod, stored, opts)
		if !reflect.DeepEqual(bn, newPod) || !reflect.DeepEqual(bo, stored) {
			t.Fatal("input modified")
		}
		if mustJSON(t, got) != mustJSON(t, PodForUpdate(newPod, stored, opts)) {
			t.Fatal("not deterministic")
		}
		if mustJSON(t, got.Status) != mustJSON(t, stored.Status) {
			t.Fatalf("status not taken from the stored pod")
		}
		if got.Generation != stored.Generation && got.Generation != stored.Generation+1 {
			t.Fatalf("generation %d from %d", got.Generation, stored.Generation)
		}
		same := PodForUpdate(stored, stored, Options{Features: created})
		if same.Generation != stored.Generation || mustJSON(t, same.Spec) != mustJSON(t, stored.Spec) {
			t.Fatalf("resending the stored pod under its own gates changed it:\n%s\n%s", mustJSON(t, same.Spec), mustJSON(t, stored.Spec))
		}
		same = PodForUpdate(stored, stored, opts)
		want := stored.Generation
		if mustJSON(t, same.Spec) != mustJSON(t, stored.Spec) {
			want++
		}
		if same.Generation != want {
			t.Fatalf("resending the stored pod: generation %d from %d, want %d", same.Generation, stored.Generation, want)
		}
	})
}
