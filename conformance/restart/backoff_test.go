package restart

import (
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/util/flowcontrol"
	kubecontainer "k8s.io/kubernetes/pkg/kubelet/container"
	"k8s.io/kubernetes/pkg/kubelet/kuberuntime"
	"k8s.io/kubernetes/pkg/kubelet/util/format"
	testingclock "k8s.io/utils/clock/testing"

	"github.com/podlife/podlife"
	"github.com/podlife/podlife/restart"
)

var epoch = time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)

// crashLoopOptions are the kubelet configurations the crash-loop runs use.
var crashLoopOptions = []restart.Options{
	{},
	{Features: podlife.FeatureGates{"ReduceDefaultCrashLoopBackOffDecay": true}},
	{Features: podlife.FeatureGates{"KubeletCrashLoopBackOffMax": false}},
	{Features: podlife.FeatureGates{"KubeletCrashLoopBackOffMax": false, "ReduceDefaultCrashLoopBackOffDecay": true}},
	{MaxContainerRestartPeriod: time.Second},
	{MaxContainerRestartPeriod: 7 * time.Second},
	{MaxContainerRestartPeriod: 45 * time.Second},
	{Features: podlife.FeatureGates{"ReduceDefaultCrashLoopBackOffDecay": true}, MaxContainerRestartPeriod: 10 * time.Second},
}

// kubeletCrashLoop builds the kubelet's crash-loop back-off as pkg/kubelet/kubelet.go
// does, on a fake clock.
func kubeletCrashLoop(initial, max time.Duration, clock *testingclock.FakeClock) *flowcontrol.Backoff {
	b := flowcontrol.NewFakeBackOff(initial, max, clock)
	b.HasExpiredFunc = func(eventTime, lastUpdate time.Time, _ time.Duration) bool {
		return eventTime.Sub(lastUpdate) > 600*time.Second
	}
	return b
}

// kubeletDoBackOff is kuberuntime's doBackOff (unexported) rebuilt from its exported
// parts: the newest exited instance, GetBackoffKey, IsInBackOffSince, Get, Next and
// the message, event and BackoffError it produces.
func kubeletDoBackOff(pod *corev1.Pod, c *corev1.Container, ps *kubecontainer.PodStatus, b *flowcontrol.Backoff) (inBackOff bool, msg, event string, retryAt time.Time) {
	var st *kubecontainer.Status
	for _, s := range ps.ContainerStatuses {
		if s.Name == c.Name && s.State == kubecontainer.ContainerStateExited {
			st = s
			break
		}
	}
	if st == nil {
		return false, "", "", time.Time{}
	}
	ts := st.FinishedAt
	key := kuberuntime.GetBackoffKey(pod, c)
	if b.IsInBackOffSince(key, ts) {
		event = fmt.Sprintf("Back-off restarting failed container %s in pod %s", c.Name, format.Pod(pod))
		d := b.Get(key)
		err := fmt.Errorf("back-off %s restarting failed container=%s pod=%s", d, c.Name, format.Pod(pod))
		at, _ := kubecontainer.MinBackoffExpiration(kubecontainer.NewBackoffError(kubecontainer.ErrCrashLoopBackOff, ts.Add(d)))
		return true, err.Error(), event, at
	}
	b.Next(key, ts)
	return false, "", "", time.Time{}
}

// TestCrashLoopMatchesKubelet drives a container through random exits, restarts,
// spec changes (image, resources) and housekeeping, checking every start with the
// kubelet's doBackOff on a fake clock and with restart.BackOffPolicy.CheckStart, and the
// back-off value after each step.
func TestCrashLoopMatchesKubelet(t *testing.T) {
	s := seed(t)
	const runs = 2000
	const steps = 60
	total, bad, held, allowed := 0, 0, 0, 0
	for oi, opts := range crashLoopOptions {
		policy := restart.CrashLoopBackOffPolicy(opts)
		g := newGen(s + 10 + uint64(oi))
		for run := range runs {
			clock := testingclock.NewFakeClock(epoch)
			kb := kubeletCrashLoop(policy.Initial, policy.Max, clock)
			pod := g.pod(true)
			pod.Spec.Containers = append(pod.Spec.Containers, g.container("app"))
			c := &pod.Spec.Containers[len(pod.Spec.Containers)-1]
			var insts []restart.Instance // newest first
			// The kubelet keeps one entry per key; so does the caller here.
			entries := map[string]restart.BackOff{}
			fail := func(format string, args ...any) {
				bad++
				if bad <= 5 {
					t.Errorf("options %+v run %d: "+format, append([]any{opts, run}, args...)...)
				}
			}
			for range steps {
				total++
				switch op := g.r.IntN(10); {
				case op < 4: // the container exits some time ago
					ago := pick(g, 0, time.Second, 5*time.Second, policy.Initial, policy.Max, time.Duration(g.r.Int64N(int64(700*time.Second))))
					insts = append([]restart.Instance{{Name: c.Name, State: restart.StateExited, FinishedAt: clock.Now().Add(-ago)}}, insts...)
				case op < 5: // a running or created instance appears
					insts = append([]restart.Instance{{Name: c.Name, State: pick(g, restart.StateRunning, restart.StateCreated, restart.StateUnknown)}}, insts...)
				case op < 6: // the spec changes
					switch g.r.IntN(3) {
					case 0:
						c.Image = pick(g, "busybox:1", "busybox:2", "nginx")
					case 1:
						c.Resources = g.resources()
					default:
						pod.Spec.ActiveDeadlineSeconds = new(int64)
					}
				case op < 7: // housekeeping
					kb.GC()
					for k, b := range entries {
						if b = policy.GC(b, clock.Now()); b.Exists {
							entries[k] = b
						} else {
							delete(entries, k)
						}
					}
				default: // a sync tries to start the container
					ps := toRuntime(pod, insts)
					inBackOff, msg, event, retryAt := kubeletDoBackOff(pod, c, ps, kb)
					key := restart.BackOffKey(pod, c)
					finished, exited := (&restart.View{Instances: insts}).NewestExited(c.Name)
					check := policy.CheckStart(entries[key], finished.FinishedAt, exited, clock.Now())
					if check.BackOff.Exists {
						entries[key] = check.BackOff
					}
					if check.Allowed == inBackOff {
						fail("allowed %v, kubelet in back-off %v", check.Allowed, inBackOff)
					}
					if check.Allowed {
						allowed++
					} else {
						held++
					}
					if inBackOff {
						if got := restart.CrashLoopMessage(check.Delay, c.Name, pod); got != msg {
							fail("message %q, kubelet %q", got, msg)
						}
						if got := restart.CrashLoopEventMessage(c.Name, pod); got != event {
							fail("event %q, kubelet %q", got, event)
						}
						if !check.RetryAt.Equal(retryAt) {
							fail("retry at %v, kubelet %v", check.RetryAt, retryAt)
						}
						if at := policy.RestartAllowedAt(entries[key], finished.FinishedAt); !at.Equal(retryAt) {
							fail("RestartAllowedAt %v, kubelet %v", at, retryAt)
						}
						if at, _ := policy.AfterExit(entries[key], finished.FinishedAt); !at.Equal(retryAt) {
							fail("AfterExit %v, kubelet %v", at, retryAt)
						}
					}
				}
				if got, want := entries[restart.BackOffKey(pod, c)].Delay, kb.Get(kuberuntime.GetBackoffKey(pod, c)); got != want {
					fail("delay %v, kubelet %v", got, want)
				}
				clock.Step(pick(g, 0, time.Second, policy.Initial, policy.Max, 600*time.Second, time.Duration(g.r.Int64N(int64(400*time.Second)))))
			}
		}
	}
	t.Logf("crash loop vs kubelet doBackOff: %d option sets × %d containers × %d steps, %d comparisons (%d starts held, %d allowed), %d disagreements", len(crashLoopOptions), runs, steps, total, held, allowed, bad)
	if held == 0 || allowed == 0 {
		t.Errorf("the generator never held (%d) or never allowed (%d) a start", held, allowed)
	}
}

// TestPolicyMatchesFlowcontrol compares the Policy state machine with
// flowcontrol.Backoff on random initial and maximum delays, both expiry rules, and
// random event and clock times.
func TestPolicyMatchesFlowcontrol(t *testing.T) {
	s := seed(t)
	g := newGen(s + 20)
	total, bad := 0, 0
	for run := range 3000 {
		initial := pick(g, time.Second, 10*time.Second, time.Duration(1+g.r.Int64N(int64(20*time.Second))))
		max := pick(g, initial, 2*initial, 300*time.Second, time.Duration(1+g.r.Int64N(int64(400*time.Second))))
		clock := testingclock.NewFakeClock(epoch)
		fb := flowcontrol.NewFakeBackOff(initial, max, clock)
		p := restart.BackOffPolicy{Initial: initial, Max: max}
		if g.pct(50) {
			reset := pick(g, 600*time.Second, max, time.Duration(g.r.Int64N(int64(900*time.Second))))
			fb.HasExpiredFunc = func(eventTime, lastUpdate time.Time, _ time.Duration) bool { return eventTime.Sub(lastUpdate) > reset }
			p.ResetAfter = reset
			if reset == 0 {
				continue // zero means the default in Policy
			}
		}
		const id = "x"
		var b restart.BackOff
		for range 40 {
			total++
			ev := clock.Now().Add(time.Duration(g.r.Int64N(int64(2*max+time.Second))) - max)
			if g.pct(20) {
				ev = clock.Now()
			}
			switch g.r.IntN(5) {
			case 0, 1:
				fb.Next(id, ev)
				b = p.Next(b, ev, clock.Now())
			case 2:
				fb.GC()
				b = p.GC(b, clock.Now())
			case 3:
				if got, want := p.InBackOffSince(b, ev, clock.Now()), fb.IsInBackOffSince(id, ev); got != want {
					bad++
					t.Errorf("run %d: InBackOffSince %v, flowcontrol %v", run, got, want)
				}
			case 4:
				if got, want := p.InBackOffSinceUpdate(b, ev), fb.IsInBackOffSinceUpdate(id, ev); got != want {
					bad++
					t.Errorf("run %d: InBackOffSinceUpdate %v, flowcontrol %v", run, got, want)
				}
			}
			if got, want := b.Delay, fb.Get(id); got != want {
				bad++
				t.Fatalf("run %d: delay %v, flowcontrol %v", run, got, want)
			}
			clock.Step(pick(g, 0, initial, max, 2*max, time.Duration(g.r.Int64N(int64(3*max)))))
		}
	}
	t.Logf("Policy vs flowcontrol.Backoff: %d comparisons, %d disagreements", total, bad)
}

// TestScheduleMatchesFlowcontrol checks the documented schedule against
// flowcontrol driven as the kubelet drives it for a container that runs 1s and
// crashes, restarted as soon as allowed.
func TestScheduleMatchesFlowcontrol(t *testing.T) {
	for _, opts := range crashLoopOptions {
		p := restart.CrashLoopBackOffPolicy(opts)
		clock := testingclock.NewFakeClock(epoch)
		kb := kubeletCrashLoop(p.Initial, p.Max, clock)
		const key = "k"
		var waits []time.Duration
		for range 12 {
			clock.Step(time.Second) // runs 1s, then exits
			finished := clock.Now()
			for kb.IsInBackOffSince(key, finished) {
				clock.Step(10 * time.Millisecond)
			}
			waits = append(waits, clock.Now().Sub(finished).Round(10*time.Millisecond))
			kb.Next(key, finished)
		}
		got := p.Schedule(len(waits))
		for i := range waits {
			if got[i] != waits[i] {
				t.Errorf("options %+v: Schedule %v, kubelet %v", opts, got, waits)
				break
			}
		}
	}
}

// TestImagePullMatchesKubelet runs random pull attempts through ImagePullState and
// through the image manager's use of flowcontrol (10s/300s, default expiry,
// IsInBackOffSinceUpdate at now, Next on failure, GC on success).
func TestImagePullMatchesKubelet(t *testing.T) {
	s := seed(t)
	g := newGen(s + 30)
	total, bad := 0, 0
	for run := range 2000 {
		clock := testingclock.NewFakeClock(epoch)
		fb := flowcontrol.NewFakeBackOff(10*time.Second, 300*time.Second, clock)
		key := restart.ImagePullBackOffKey("uid", "img")
		var st restart.ImagePullState
		for range 40 {
			total++
			wantHeld := fb.IsInBackOffSinceUpdate(key, clock.Now())
			next, held, _ := st.BeforePull("img", clock.Now())
			st = next
			if held != wantHeld {
				bad++
				t.Errorf("run %d: held %v, kubelet %v", run, held, wantHeld)
			}
			if !held {
				if g.pct(70) {
					fb.Next(key, clock.Now())
					st, _, _ = st.PullFailed("img", "boom", clock.Now())
				} else {
					fb.GC()
					st = st.PullSucceeded(clock.Now())
				}
			}
			if st.BackOff.Delay != fb.Get(key) {
				bad++
				t.Fatalf("run %d: delay %v, kubelet %v", run, st.BackOff.Delay, fb.Get(key))
			}
			clock.Step(pick(g, time.Second, 10*time.Second, 300*time.Second, 601*time.Second, time.Duration(g.r.Int64N(int64(400*time.Second)))))
		}
	}
	t.Logf("image pull vs flowcontrol: %d comparisons, %d disagreements", total, bad)
}
