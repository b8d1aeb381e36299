package restart

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
	_ "unsafe" // go:linkname

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/util/flowcontrol"
	kubeletconfigv1beta1 "k8s.io/kubelet/config/v1beta1"
	_ "k8s.io/kubernetes/pkg/kubelet" // linked for newCrashLoopBackOff
	kubeletconfig "k8s.io/kubernetes/pkg/kubelet/apis/config"
	kubeletconfigscheme "k8s.io/kubernetes/pkg/kubelet/apis/config/scheme"
	kubeletconfigvalidation "k8s.io/kubernetes/pkg/kubelet/apis/config/validation"
	kubecontainer "k8s.io/kubernetes/pkg/kubelet/container"
	"k8s.io/kubernetes/pkg/kubelet/kuberuntime"
	testingclock "k8s.io/utils/clock/testing"

	"github.com/podlife/podlife/conformance/internal/coverage"
	"github.com/podlife/podlife/conformance/internal/gatesets"
	"github.com/podlife/podlife/conformance/internal/runenv"
	"github.com/podlife/podlife/conformance/internal/upstreamkubelet"
	"github.com/podlife/podlife/restart"
)

var epoch = time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)

//go:linkname upstreamNewCrashLoopBackOff k8s.io/kubernetes/pkg/kubelet.newCrashLoopBackOff
func upstreamNewCrashLoopBackOff(kubeCfg *kubeletconfig.KubeletConfiguration) (time.Duration, time.Duration)

// crashLoopGateSets are the standard sets and the two gates newCrashLoopBackOff reads,
// flipped alone and together.
var crashLoopGateSets = gatesets.Standard(
	gatesets.Set{Name: "ReduceDefaultCrashLoopBackOffDecay", Overrides: map[string]bool{"ReduceDefaultCrashLoopBackOffDecay": true}},
	gatesets.Set{Name: "KubeletCrashLoopBackOffMax=false", Overrides: map[string]bool{"KubeletCrashLoopBackOffMax": false}},
	gatesets.Set{Name: "ReduceDefaultCrashLoopBackOffDecay, KubeletCrashLoopBackOffMax=false", Overrides: map[string]bool{
		"ReduceDefaultCrashLoopBackOffDecay": true, "KubeletCrashLoopBackOffMax": false}},
)

// restartPeriods are values of crashLoopBackOff.maxContainerRestartPeriod (0: unset),
// valid and invalid.
var restartPeriods = []time.Duration{0, time.Second, 1500 * time.Millisecond, 7 * time.Second, 10 * time.Second,
	45 * time.Second, 300 * time.Second, 999 * time.Millisecond, 301 * time.Second, 300*time.Second + time.Millisecond, -time.Second}

var kubeletScheme = func() *runtime.Scheme {
	s, _, err := kubeletconfigscheme.NewSchemeAndCodecs()
	if err != nil {
		panic(err)
	}
	return s
}()

// kubeletConfig is the configuration a kubelet started with the gate set s (already
// applied upstream) and crashLoopBackOff.maxContainerRestartPeriod period (0: unset)
// runs with: the v1beta1 KubeletConfiguration defaulted by the kubelet's scheme,
// converted to the internal type and validated. The error is the validation's.
// failCgroupV1 is off so that the host's cgroup version does not decide the answer.
func kubeletConfig(t testing.TB, s gatesets.Set, period time.Duration) (*kubeletconfig.KubeletConfiguration, error) {
	t.Helper()
	noFail := false
	ext := &kubeletconfigv1beta1.KubeletConfiguration{FeatureGates: s.Overrides, FailCgroupV1: &noFail}
	if period != 0 {
		ext.CrashLoopBackOff.MaxContainerRestartPeriod = &metav1.Duration{Duration: period}
	}
	kubeletScheme.Default(ext)
	in := &kubeletconfig.KubeletConfiguration{}
	if err := kubeletScheme.Convert(ext, in, nil); err != nil {
		t.Fatalf("convert the kubelet configuration: %v", err)
	}
	return in, kubeletconfigvalidation.ValidateKubeletConfiguration(in, utilfeature.DefaultFeatureGate)
}

// crashLoopErrors are the validation errors about the crash-loop back-off.
func crashLoopErrors(err error) []string {
	var out []string
	for _, m := range messages(err) {
		if strings.Contains(m, "CrashLoopBackOff") {
			out = append(out, m)
		}
	}
	return out
}

// messages flattens an aggregate error.
func messages(err error) []string {
	if err == nil {
		return nil
	}
	var agg utilerrors.Aggregate
	if errors.As(err, &agg) {
		var out []string
		for _, e := range agg.Errors() {
			out = append(out, messages(e)...)
		}
		return out
	}
	return []string{err.Error()}
}

// crashLoopConfig is one kubelet configuration of the crash-loop runs: a gate set and
// a maximum restart period the kubelet accepts, with the back-off settings
// newCrashLoopBackOff derives from it.
type crashLoopConfig struct {
	set          gatesets.Set
	period       time.Duration
	initial, max time.Duration
}

func (c crashLoopConfig) opts() restart.Options {
	return restart.Options{Features: c.set.Features(), MaxContainerRestartPeriod: c.period}
}

func (c crashLoopConfig) String() string {
	return fmt.Sprintf("gates %s, maxContainerRestartPeriod %v (upstream %v/%v)", c.set.Name, c.period, c.initial, c.max)
}

// TestCrashLoopBackOffSettingsMatchKubelet compares restart.Options.Validate and
// CrashLoopBackOffPolicy with the kubelet's own path from a KubeletConfiguration to
// its back-off: scheme defaulting, conversion, ValidateKubeletConfiguration and
// newCrashLoopBackOff (pkg/kubelet/kubelet.go), for every gate set and restart period.
func TestCrashLoopBackOffSettingsMatchKubelet(t *testing.T) {
	valid, refused := 0, 0
	gatesets.Run(t, crashLoopGateSets, func(t *testing.T, s gatesets.Set) {
		for _, period := range restartPeriods {
			opts := restart.Options{Features: s.Features(), MaxContainerRestartPeriod: period}
			cfg, err := kubeletConfig(t, s, period)
			want := crashLoopErrors(err)
			var got []string
			if e := opts.Validate(); e != nil {
				got = []string{e.Error()}
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("period %v: Validate %q, kubelet %q", period, got, want)
			}
			if err != nil {
				if len(want) == 0 {
					t.Errorf("period %v: the kubelet refuses its configuration for another reason: %v", period, err)
				}
				refused++
				continue
			}
			valid++
			upMax, upInitial := upstreamNewCrashLoopBackOff(cfg)
			p := restart.CrashLoopBackOffPolicy(opts)
			if p.Initial != upInitial || p.Max != upMax || p.ResetAfter != 600*time.Second {
				t.Errorf("period %v: policy %+v, kubelet initial %v max %v (reset after 600s)", period, p, upInitial, upMax)
			}
		}
	})
	t.Logf("%d configurations accepted (settings compared), %d refused (messages compared)", valid, refused)
	coverage.Require(t, "accepted configurations", valid, 20)
	coverage.Require(t, "refused configurations", refused, 20)
}

// crashLoopConfigs returns the configurations the kubelet accepts under the gate set s
// (applied upstream).
func crashLoopConfigs(t testing.TB, s gatesets.Set) []crashLoopConfig {
	var out []crashLoopConfig
	for _, period := range restartPeriods {
		cfg, err := kubeletConfig(t, s, period)
		if err != nil {
			continue
		}
		c := crashLoopConfig{set: s, period: period}
		c.max, c.initial = upstreamNewCrashLoopBackOff(cfg)
		out = append(out, c)
	}
	return out
}

// kubeletCrashLoop builds the kubelet's crash-loop back-off as pkg/kubelet/kubelet.go
// does from newCrashLoopBackOff's values, on a fake clock.
func kubeletCrashLoop(initial, max time.Duration, clock *testingclock.FakeClock) *flowcontrol.Backoff {
	b := flowcontrol.NewFakeBackOff(initial, max, clock)
	b.HasExpiredFunc = func(eventTime, lastUpdate time.Time, _ time.Duration) bool {
		return eventTime.Sub(lastUpdate) > 600*time.Second
	}
	return b
}

// TestCrashLoopMatchesKubelet drives a container through random exits, restarts,
// spec changes (image, resources) and housekeeping, under every kubelet configuration
// of TestCrashLoopBackOffSettingsMatchKubelet that the kubelet accepts, checking every
// start attempt with kuberuntime's own doBackOff (on the runtime status GetPodStatus
// derives, with the kubelet's back-off built from newCrashLoopBackOff's values on a fake
// clock) and with restart.BackOffPolicy.CheckStart, and the back-off value after each
// step.
func TestCrashLoopMatchesKubelet(t *testing.T) {
	s := seed(t)
	runs := runenv.Scale(podCount(t), numPods, 150, 30)
	const steps = 60
	total, bad, configs := 0, 0, 0
	var cov coverage.Counts
	gatesets.Run(t, crashLoopGateSets, func(t *testing.T, set gatesets.Set) {
		rt := upstreamkubelet.New(t)
		for ci, cfg := range crashLoopConfigs(t, set) {
			configs++
			opts := cfg.opts()
			policy := restart.CrashLoopBackOffPolicy(opts)
			if policy.Initial != cfg.initial || policy.Max != cfg.max {
				t.Fatalf("%s: podlife's policy %+v", cfg, policy)
			}
			g := newGen(s + 10 + uint64(ci))
			for run := range runs {
				clock := testingclock.NewFakeClock(epoch)
				kb := kubeletCrashLoop(cfg.initial, cfg.max, clock)
				pod := g.pod(true)
				pod.Spec.Containers = append(pod.Spec.Containers, g.container("app"))
				c := &pod.Spec.Containers[len(pod.Spec.Containers)-1]
				var insts []restart.Instance // newest first
				ids := 0
				// The kubelet keeps one entry per key; so does the caller here.
				entries := map[string]restart.BackOff{}
				fail := func(format string, args ...any) {
					bad++
					if bad <= 5 {
						t.Errorf("%s run %d: "+format, append([]any{cfg, run}, args...)...)
					}
				}
				for range steps {
					total++
					switch op := g.r.IntN(10); {
					case op < 4: // the container exits some time ago
						ago := pick(g, 0, time.Second, 5*time.Second, cfg.initial, cfg.max, time.Duration(g.r.Int64N(int64(700*time.Second))))
						insts = append([]restart.Instance{{Name: c.Name, ID: upstreamkubelet.InstanceID(ids), State: restart.StateExited,
							FinishedAt: clock.Now().Add(-ago)}}, insts...)
						ids++
					case op < 5: // a running or created instance appears
						insts = append([]restart.Instance{{Name: c.Name, ID: upstreamkubelet.InstanceID(ids),
							State: pick(g, restart.StateRunning, restart.StateCreated, restart.StateUnknown)}}, insts...)
						ids++
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
						cov.Add("housekeeping")
					default: // a sync tries to start the container
						view := restart.View{Sandboxes: []restart.Sandbox{{ID: "sandbox", Ready: true}}, Instances: insts}
						ps, _ := rt.PodStatus(t, pod, &view, false)
						inBackOff, msg, err := rt.DoBackOff(pod, c, ps, kb)
						events := rt.TakeEvents()
						retryAt, _ := kubecontainer.MinBackoffExpiration(err)
						key := restart.BackOffKey(pod, c)
						finished, exited := view.NewestExited(c.Name)
						check := policy.CheckStart(entries[key], finished.FinishedAt, exited, clock.Now())
						if check.BackOff.Exists {
							entries[key] = check.BackOff
						}
						if check.Allowed == inBackOff {
							fail("allowed %v, kubelet in back-off %v", check.Allowed, inBackOff)
						}
						switch {
						case check.Allowed && exited:
							cov.Add("start allowed after an exit")
						case check.Allowed:
							cov.Add("start allowed, never exited")
						default:
							cov.Add("start held")
						}
						if inBackOff {
							if got := restart.CrashLoopMessage(check.Delay, c.Name, pod); got != msg {
								fail("message %q, kubelet %q", got, msg)
							}
							if got := []string{"Warning " + restart.EventReasonBackOff + " " + restart.CrashLoopEventMessage(c.Name, pod)}; !reflect.DeepEqual(got, events) {
								fail("events %q, kubelet %q", got, events)
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
							if check.Delay == cfg.max {
								cov.Add("held at the maximum delay")
							}
						} else if len(events) != 0 {
							fail("the kubelet recorded %q for an allowed start", events)
						}
					}
					if got, want := entries[restart.BackOffKey(pod, c)].Delay, kb.Get(kuberuntime.GetBackoffKey(pod, c)); got != want {
						fail("delay %v, kubelet %v", got, want)
					}
					clock.Step(pick(g, 0, time.Second, cfg.initial, cfg.max, 600*time.Second, time.Duration(g.r.Int64N(int64(400*time.Second)))))
				}
			}
		}
	})
	t.Logf("crash loop vs kubelet doBackOff: %d configurations × %d containers × %d steps = %d steps, %d disagreements; %s", configs, runs, steps, total, bad, &cov)
	coverage.Require(t, "accepted kubelet configurations", configs, 20)
	cov.Each(t, "crash loop", total/100, "start held", "start allowed after an exit", "housekeeping")
	cov.Each(t, "crash loop", total/2000, "start allowed, never exited", "held at the maximum delay")
}

// TestPolicyMatchesFlowcontrol compares the Policy state machine with
// flowcontrol.Backoff on random initial and maximum delays, both expiry rules, and
// random event and clock times.
//
// flowcontrol reads no feature gate; the test runs under the standard sets all the same.
func TestPolicyMatchesFlowcontrol(t *testing.T) {
	s := seed(t)
	gatesets.Run(t, gatesets.Standard(), func(t *testing.T, _ gatesets.Set) { policyMatchesFlowcontrol(t, s) })
}

func policyMatchesFlowcontrol(t *testing.T, s uint64) {
	g := newGen(s + 20)
	total, bad := 0, 0
	var cov coverage.Counts
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
				cov.Addf("InBackOffSince=%t", fb.IsInBackOffSince(id, ev))
				if got, want := p.InBackOffSince(b, ev, clock.Now()), fb.IsInBackOffSince(id, ev); got != want {
					bad++
					t.Errorf("run %d: InBackOffSince %v, flowcontrol %v", run, got, want)
				}
			case 4:
				cov.Addf("InBackOffSinceUpdate=%t", fb.IsInBackOffSinceUpdate(id, ev))
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
	t.Logf("Policy vs flowcontrol.Backoff: %d comparisons, %d disagreements; %s", total, bad, &cov)
	cov.Each(t, "flowcontrol", total/100, "InBackOffSince=true", "InBackOffSince=false", "InBackOffSinceUpdate=true", "InBackOffSinceUpdate=false")
}

// TestScheduleMatchesFlowcontrol checks the documented schedule against
// flowcontrol driven as the kubelet drives it, from newCrashLoopBackOff's values, for
// a container that runs 1s and crashes, restarted as soon as allowed.
func TestScheduleMatchesFlowcontrol(t *testing.T) {
	n := 0
	gatesets.Run(t, crashLoopGateSets, func(t *testing.T, set gatesets.Set) {
		for _, cfg := range crashLoopConfigs(t, set) {
			n++
			scheduleMatches(t, cfg)
		}
	})
	coverage.Require(t, "accepted kubelet configurations", n, 20)
}

func scheduleMatches(t *testing.T, cfg crashLoopConfig) {
	opts := cfg.opts()
	{
		p := restart.CrashLoopBackOffPolicy(opts)
		clock := testingclock.NewFakeClock(epoch)
		kb := kubeletCrashLoop(cfg.initial, cfg.max, clock)
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
				t.Errorf("%s: Schedule %v, kubelet %v", cfg, got, waits)
				break
			}
		}
	}
}

// TestImagePullMatchesKubelet runs random pull attempts through ImagePullState and
// through the image manager's use of flowcontrol (10s/300s, default expiry,
// IsInBackOffSinceUpdate at now, Next on failure, GC on success).
//
// The image back-off reads no feature gate; the test runs under the standard sets all
// the same.
func TestImagePullMatchesKubelet(t *testing.T) {
	s := seed(t)
	gatesets.Run(t, gatesets.Standard(), func(t *testing.T, _ gatesets.Set) { imagePullMatches(t, s) })
}

func imagePullMatches(t *testing.T, s uint64) {
	g := newGen(s + 30)
	total, bad, heldPulls := 0, 0, 0
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
			if wantHeld {
				heldPulls++
			}
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
	t.Logf("image pull vs flowcontrol: %d comparisons (%d pulls held), %d disagreements", total, heldPulls, bad)
	coverage.RequireShare(t, "image pulls held", heldPulls, total, 0.1)
	coverage.RequireShare(t, "image pulls attempted", total-heldPulls, total, 0.1)
}
