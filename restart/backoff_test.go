package restart

import (
	"strconv"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podlife/podlife"
)

var t0 = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

// Upstream TestCrashLoopBackOffConfiguration (k8s.io/kubernetes
// pkg/kubelet/kubelet_test.go) plus the gate-off combinations.
func TestCrashLoopPolicy(t *testing.T) {
	reduce := podlife.FeatureGates{"ReduceDefaultCrashLoopBackOffDecay": true}
	for _, tc := range []struct {
		name             string
		opts             Options
		initial, max     time.Duration
		wantValidateText string
	}{
		{"Faster per node config; only node config configured", Options{MaxContainerRestartPeriod: 2 * time.Second}, 2 * time.Second, 2 * time.Second, ""},
		{"Faster per node config; new default and node config configured", Options{Features: reduce, MaxContainerRestartPeriod: 2 * time.Second}, time.Second, 2 * time.Second, ""},
		{"Slower per node config; new default and node config configured, set A", Options{Features: reduce, MaxContainerRestartPeriod: 10 * time.Second}, time.Second, 10 * time.Second, ""},
		{"Slower per node config; new default and node config configured, set B", Options{Features: reduce, MaxContainerRestartPeriod: 300 * time.Second}, time.Second, 300 * time.Second, ""},
		{"Slower per node config; only node config configured, set A", Options{MaxContainerRestartPeriod: 11 * time.Second}, 10 * time.Second, 11 * time.Second, ""},
		{"Slower per node config; only node config configured, set B", Options{MaxContainerRestartPeriod: 300 * time.Second}, 10 * time.Second, 300 * time.Second, ""},
		{"defaults", Options{}, 10 * time.Second, 300 * time.Second, ""},
		{"reduced decay, config unset", Options{Features: reduce}, time.Second, 300 * time.Second, ""},
		{"max gate off", Options{Features: podlife.FeatureGates{"KubeletCrashLoopBackOffMax": false}}, 10 * time.Second, 300 * time.Second, ""},
		{"max gate off, reduced decay", Options{Features: podlife.FeatureGates{"KubeletCrashLoopBackOffMax": false, "ReduceDefaultCrashLoopBackOffDecay": true}}, time.Second, 60 * time.Second, ""},
		{"max gate off, config set", Options{Features: podlife.FeatureGates{"KubeletCrashLoopBackOffMax": false}, MaxContainerRestartPeriod: 5 * time.Second}, 10 * time.Second, 300 * time.Second,
			"invalid configuration: FeatureGate KubeletCrashLoopBackOffMax not enabled, CrashLoopBackOff.MaxContainerRestartPeriod must not be set"},
		{"below 1s", Options{MaxContainerRestartPeriod: 500 * time.Millisecond}, 500 * time.Millisecond, 500 * time.Millisecond,
			"invalid configuration: CrashLoopBackOff.MaxContainerRestartPeriod (got: 0.5 seconds) must be set between 1s and 300s"},
		{"above 300s", Options{MaxContainerRestartPeriod: 301 * time.Second}, 10 * time.Second, 301 * time.Second,
			"invalid configuration: CrashLoopBackOff.MaxContainerRestartPeriod (got: 301 seconds) must be set between 1s and 300s"},
		{"whole milliseconds are compared", Options{MaxContainerRestartPeriod: 300*time.Second + 999*time.Microsecond}, 10 * time.Second, 300*time.Second + 999*time.Microsecond, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := CrashLoopBackOffPolicy(tc.opts)
			if p.Initial != tc.initial || p.Max != tc.max || p.ResetAfter != 600*time.Second {
				t.Errorf("CrashLoopBackOffPolicy = %+v, want initial %v max %v reset 10m", p, tc.initial, tc.max)
			}
			err := tc.opts.Validate()
			switch {
			case tc.wantValidateText == "" && err != nil:
				t.Errorf("Validate: unexpected %v", err)
			case tc.wantValidateText != "" && (err == nil || err.Error() != tc.wantValidateText):
				t.Errorf("Validate = %v, want %q", err, tc.wantValidateText)
			}
		})
	}
}

func TestSchedule(t *testing.T) {
	got := CrashLoopBackOffPolicy(Options{}).Schedule(9)
	want := []time.Duration{0, 10 * time.Second, 20 * time.Second, 40 * time.Second, 80 * time.Second, 160 * time.Second, 300 * time.Second, 300 * time.Second, 300 * time.Second}
	if len(got) != len(want) {
		t.Fatalf("Schedule = %v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("Schedule[%d] = %v, want %v", i, got[i], want[i])
		}
	}
	if s := fmtDurations(got); s != "0s 10s 20s 40s 1m20s 2m40s 5m0s 5m0s 5m0s" {
		t.Errorf("Schedule renders %q", s)
	}
	if CrashLoopBackOffPolicy(Options{}).Schedule(0) != nil || CrashLoopBackOffPolicy(Options{}).Schedule(-1) != nil {
		t.Errorf("Schedule of n <= 0 is not nil")
	}
	reduced := CrashLoopBackOffPolicy(Options{Features: podlife.FeatureGates{"ReduceDefaultCrashLoopBackOffDecay": true, "KubeletCrashLoopBackOffMax": false}})
	if s := fmtDurations(reduced.Schedule(9)); s != "0s 1s 2s 4s 8s 16s 32s 1m0s 1m0s" {
		t.Errorf("reduced Schedule renders %q", s)
	}
}

func fmtDurations(ds []time.Duration) string {
	s := ""
	for i, d := range ds {
		if i > 0 {
			s += " "
		}
		s += d.String()
	}
	return s
}

// Upstream TestSlowBackoff (k8s.io/client-go util/flowcontrol/backoff_test.go).
func TestSlowBackoff(t *testing.T) {
	p := BackOffPolicy{Initial: time.Second, Max: 50 * time.Second}
	var b BackOff
	now := t0
	for i, want := range []time.Duration{0, 1, 2, 4, 8, 16, 32, 50, 50, 50} {
		now = now.Add(time.Second)
		if b.Delay != want*time.Second {
			t.Errorf("step %d: delay %v, want %v", i, b.Delay, want*time.Second)
		}
		b = p.Next(b, now, now)
	}
}

// Upstream TestBackoffReset, TestBackoffHighWaterMark and TestBackoffGC.
func TestBackoffResetHighWaterMarkGC(t *testing.T) {
	p := BackOffPolicy{Initial: time.Second, Max: 5 * time.Second}
	climb := func() (BackOff, time.Time) {
		var b BackOff
		now := t0
		for i := 0; i <= 5; i++ {
			now = now.Add(time.Second)
			b = p.Next(b, now, now)
		}
		return b, now
	}
	b, now := climb()
	if !p.InBackOffSince(b, now, now) {
		t.Errorf("expected to be in back-off, delay %v", b.Delay)
	}
	if p.InBackOffSince(b, now, now.Add(11*time.Second)) {
		t.Errorf("expected not to be in back-off 11s later")
	}

	b, now = climb()
	now = now.Add(6 * time.Second)
	if b = p.Next(b, now, now); b.Delay != 5*time.Second {
		t.Errorf("high water mark: %v", b.Delay)
	}

	b, now = climb()
	now = now.Add(6 * time.Second)
	if !p.GC(b, now).Exists {
		t.Errorf("GC dropped the entry after 6s")
	}
	now = now.Add(6 * time.Second)
	if p.GC(b, now).Exists {
		t.Errorf("GC kept the entry after 12s")
	}
}

// Upstream TestAlternateBackoffGC and TestAlternateHasExpiredFunc, default expiry.
func TestBackoffDefaultExpiry(t *testing.T) {
	p := BackOffPolicy{Initial: time.Second, Max: 50 * time.Second}
	b := p.Next(BackOff{}, t0, t0)
	if !p.GC(b, t0.Add(5*time.Second)).Exists || p.GC(b, t0.Add(106*time.Second)).Exists {
		t.Errorf("GC expiry wrong")
	}
	b = p.Next(b, t0.Add(5*time.Second), t0.Add(5*time.Second))
	if b.Delay < 2*time.Second {
		t.Errorf("no increment: %v", b.Delay)
	}
	later := t0.Add(5*time.Second + 101*time.Second)
	if b = p.Next(b, later, later); b.Delay != time.Second {
		t.Errorf("no reset after expiry: %v", b.Delay)
	}
	// Exactly 2×Max is not expired; strictly more is.
	b = p.Next(BackOff{}, t0, t0)
	if p.Expired(b, t0.Add(100*time.Second)) || !p.Expired(b, t0.Add(100*time.Second+1)) {
		t.Errorf("expiry boundary wrong")
	}
	// Expired needs an entry.
	if p.Expired(BackOff{}, t0.Add(time.Hour)) {
		t.Errorf("missing entry expired")
	}
}

// Upstream TestIsInBackOffSinceUpdate (k8s.io/client-go util/flowcontrol/backoff_test.go).
func TestInBackOffSinceUpdate(t *testing.T) {
	p := BackOffPolicy{Initial: time.Second, Max: 10 * time.Second}
	var b BackOff
	for _, c := range []struct {
		tick      time.Duration
		inBackOff bool
		value     time.Duration
	}{
		{0, false, 0}, {1, false, 1}, {2, true, 2}, {3, false, 2}, {4, true, 4}, {5, true, 4}, {6, true, 4},
		{7, false, 4}, {8, true, 8}, {9, true, 8}, {10, true, 8}, {11, true, 8}, {12, true, 8}, {13, true, 8},
		{14, true, 8}, {15, false, 8}, {16, true, 10}, {17, true, 10}, {18, true, 10}, {19, true, 10}, {20, true, 10},
		{21, true, 10}, {22, true, 10}, {23, true, 10}, {24, true, 10}, {25, false, 10}, {26, true, 10}, {27, true, 10},
		{28, true, 10}, {29, true, 10}, {30, true, 10}, {31, true, 10}, {32, true, 10}, {33, true, 10}, {34, true, 10},
		{35, false, 10}, {56, false, 0}, {57, false, 1},
	} {
		now := t0.Add(c.tick * time.Second)
		if got := p.InBackOffSinceUpdate(b, now); got != c.inBackOff {
			t.Errorf("tick %d: in back-off %v, want %v", c.tick, got, c.inBackOff)
		}
		if c.inBackOff && b.Delay != c.value*time.Second {
			t.Errorf("tick %d: delay %v, want %v", c.tick, b.Delay, c.value*time.Second)
		}
		if !c.inBackOff {
			b = p.Next(b, now, now)
		}
	}
}

// Upstream TestDoBackOff (k8s.io/kubernetes pkg/kubelet/kuberuntime/kuberuntime_manager_test.go).
func TestCheckStart(t *testing.T) {
	p := BackOffPolicy{Initial: time.Second, Max: time.Minute}
	// container running: no exited instance.
	if c := p.CheckStart(BackOff{}, time.Time{}, false, t0); !c.Allowed || c.BackOff.Exists {
		t.Errorf("running: %+v", c)
	}
	// not in back-off: the start goes ahead and creates the entry.
	if c := p.CheckStart(BackOff{}, t0, true, t0); !c.Allowed || c.BackOff.Delay != time.Second || !c.BackOff.LastUpdate.Equal(t0) {
		t.Errorf("not in back-off: %+v", c)
	}
	// in back-off: held until FinishedAt + 1s.
	b := p.Next(BackOff{}, t0, t0)
	c := p.CheckStart(b, t0, true, t0)
	if c.Allowed || !c.RetryAt.Equal(t0.Add(time.Second)) || c.Delay != time.Second || c.BackOff != b {
		t.Errorf("in back-off: %+v", c)
	}
	if got := p.RestartAllowedAt(b, t0); !got.Equal(t0.Add(time.Second)) {
		t.Errorf("RestartAllowedAt = %v", got)
	}
	if got := p.RestartAllowedAt(BackOff{}, t0); !got.Equal(t0) {
		t.Errorf("RestartAllowedAt without entry = %v", got)
	}
	// The boundary is strict: at exactly FinishedAt + delay the start is allowed.
	if c := p.CheckStart(b, t0, true, t0.Add(time.Second)); !c.Allowed || c.BackOff.Delay != 2*time.Second {
		t.Errorf("boundary: %+v", c)
	}
}

// A crash-looping container under the default kubelet: the kubelet restarts it as
// soon as allowed, it runs 1s and exits. The waits between exit and restart follow
// the schedule, and the messages show the delay being waited.
func TestCrashLoopTimeline(t *testing.T) {
	p := CrashLoopBackOffPolicy(Options{})
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", UID: "uid-1"}}
	var b BackOff
	now := t0
	var waits []time.Duration
	for i := 0; i < 8; i++ {
		finished := now.Add(time.Second) // ran 1s
		c := p.CheckStart(b, finished, true, finished)
		wait := time.Duration(0)
		if !c.Allowed {
			wait = c.RetryAt.Sub(finished)
			if msg := CrashLoopMessage(c.Delay, "app", pod); msg != "back-off "+c.Delay.String()+" restarting failed container=app pod=web_default(uid-1)" {
				t.Errorf("message %q", msg)
			}
			c = p.CheckStart(b, finished, true, c.RetryAt)
			if !c.Allowed {
				t.Fatalf("not allowed at RetryAt")
			}
		}
		waits = append(waits, wait)
		b = c.BackOff
		now = finished.Add(wait)
	}
	if s := fmtDurations(waits); s != "0s 10s 20s 40s 1m20s 2m40s 5m0s 5m0s" {
		t.Errorf("waits %s", s)
	}
	// AfterExit walks the same timeline.
	var ab BackOff
	at := t0
	var afterWaits []time.Duration
	for range 8 {
		finished := at.Add(time.Second)
		at, ab = p.AfterExit(ab, finished)
		afterWaits = append(afterWaits, at.Sub(finished))
	}
	if s := fmtDurations(afterWaits); s != "0s 10s 20s 40s 1m20s 2m40s 5m0s 5m0s" || ab != b {
		t.Errorf("AfterExit waits %s, state %+v vs %+v", s, ab, b)
	}
	// Reset: running more than 600s since the last restart starts over; 599s does not.
	last := now
	if c := p.CheckStart(b, last.Add(601*time.Second), true, last.Add(601*time.Second)); !c.Allowed || c.BackOff.Delay != 10*time.Second {
		t.Errorf("601s: %+v", c)
	}
	if c := p.CheckStart(b, last.Add(599*time.Second), true, last.Add(599*time.Second)); c.Allowed || c.Delay != 300*time.Second {
		t.Errorf("599s: %+v", c)
	}
	if got := CrashLoopEventMessage("app", pod); got != "Back-off restarting failed container app in pod web_default(uid-1)" {
		t.Errorf("event %q", got)
	}
	if got := CrashLoopMessage(20*time.Second, "app", nil); got != "back-off 20s restarting failed container=app pod=<nil>" {
		t.Errorf("nil pod message %q", got)
	}
}

// Upstream TestGetBackoffKey (k8s.io/kubernetes pkg/kubelet/kuberuntime/helpers_test.go).
func TestBackoffKey(t *testing.T) {
	for name, spec := range map[string]corev1.PodSpec{
		"empty resources": {Containers: []corev1.Container{{Name: "test_container", Image: "foo/image:v1"}}},
		"with resources": {Containers: []corev1.Container{{Name: "test_container", Image: "foo/image:v1", Resources: corev1.ResourceRequirements{
			Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("100Mi")},
			Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("200m"), corev1.ResourceMemory: resource.MustParse("200Mi")},
		}}}},
	} {
		t.Run(name, func(t *testing.T) {
			pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "test_pod", Namespace: "test_pod_namespace", UID: "test_pod_uid"}, Spec: spec}
			pod.Spec.Containers = append(pod.Spec.Containers, corev1.Container{Name: "second_container", Image: "registry.k8s.io/pause"})
			key := BackOffKey(pod, &pod.Spec.Containers[0])
			if len(key) == 0 || len(key) > 16 {
				t.Fatalf("key %q is not a 64-bit hex hash", key)
			}
			check := func(desc string, mutate func(*corev1.Pod) *corev1.Container, same bool) {
				p := pod.DeepCopy()
				c := mutate(p)
				if got := BackOffKey(p, c); (got == key) != same {
					t.Errorf("%s: key %q vs %q, same=%v expected", desc, got, key, same)
				}
			}
			check("unrelated change", func(p *corev1.Pod) *corev1.Container {
				p.Spec.ActiveDeadlineSeconds = new(int64)
				return &p.Spec.Containers[0]
			}, true)
			check("different container", func(p *corev1.Pod) *corev1.Container { return &p.Spec.Containers[1] }, false)
			check("pod name", func(p *corev1.Pod) *corev1.Container { p.Name = "other-pod"; return &p.Spec.Containers[0] }, false)
			check("pod namespace", func(p *corev1.Pod) *corev1.Container { p.Namespace = "other-namespace"; return &p.Spec.Containers[0] }, false)
			check("image", func(p *corev1.Pod) *corev1.Container {
				p.Spec.Containers[0].Image = "foo/image:v2"
				return &p.Spec.Containers[0]
			}, false)
			check("resources", func(p *corev1.Pod) *corev1.Container {
				c := &p.Spec.Containers[0]
				if c.Resources.Requests == nil {
					c.Resources.Requests = corev1.ResourceList{}
				}
				c.Resources.Requests[corev1.ResourceCPU] = resource.MustParse("200m")
				return c
			}, false)

			s := CrashLoopState{}.For(pod, &pod.Spec.Containers[0])
			s.BackOff = BackOff{Exists: true, Delay: 40 * time.Second}
			if again := s.For(pod, &pod.Spec.Containers[0]); again != s {
				t.Errorf("same key lost the state")
			}
			p := pod.DeepCopy()
			p.Spec.Containers[0].Image = "foo/image:v3"
			if fresh := s.For(p, &p.Spec.Containers[0]); fresh.BackOff.Exists || fresh.Key == s.Key {
				t.Errorf("new image kept the state: %+v", fresh)
			}
		})
	}
	if BackOffKey(nil, nil) != BackOffKey(&corev1.Pod{}, &corev1.Container{}) {
		t.Errorf("nil pod and container do not hash as empty")
	}
}

// Upstream TestEvalCRIPullErr (k8s.io/kubernetes pkg/kubelet/images/image_manager_test.go).
func TestImagePullError(t *testing.T) {
	for _, tc := range []struct{ in, reason, msg string }{
		{"test", "ErrImagePull", "test"},
		{"RegistryUnavailable", "RegistryUnavailable", "image pull failed for test because the registry is unavailable"},
		{"RegistryUnavailable: foo", "RegistryUnavailable", "image pull failed for test because the registry is unavailable: foo"},
		{"SignatureValidationFailed", "SignatureValidationFailed", "image pull failed for test because the signature validation failed"},
		{"SignatureValidationFailed: bar", "SignatureValidationFailed", "image pull failed for test because the signature validation failed: bar"},
	} {
		reason, msg, prev := ImagePullError("test", tc.in)
		if reason != tc.reason || msg != tc.msg || prev != tc.reason+": "+tc.msg {
			t.Errorf("%q: got %q %q %q", tc.in, reason, msg, prev)
		}
	}
}

func TestImagePullState(t *testing.T) {
	var s ImagePullState
	s, held, _ := s.BeforePull("typo_image", t0)
	if held {
		t.Fatalf("first pull held")
	}
	s, reason, msg := s.PullFailed("typo_image", "SignatureValidationFailed", t0)
	if reason != "SignatureValidationFailed" || msg != "image pull failed for typo_image because the signature validation failed" {
		t.Errorf("PullFailed = %q %q", reason, msg)
	}
	_, held, msg = s.BeforePull("typo_image", t0.Add(5*time.Second))
	if !held || msg != `Back-off pulling image "typo_image": SignatureValidationFailed: image pull failed for typo_image because the signature validation failed` {
		t.Errorf("BeforePull = %v %q", held, msg)
	}
	s2, held, _ := s.BeforePull("typo_image", t0.Add(10*time.Second))
	if held || s2.Prev != "" {
		t.Errorf("after 10s: held=%v prev=%q", held, s2.Prev)
	}
	s2, _, _ = s2.PullFailed("typo_image", "boom", t0.Add(10*time.Second))
	if s2.BackOff.Delay != 20*time.Second || s2.Prev != "ErrImagePull: boom" {
		t.Errorf("second failure: %+v", s2)
	}
	if got := s2.PullSucceeded(t0.Add(11 * time.Second)); !got.BackOff.Exists {
		t.Errorf("success reset the entry")
	}
	if got := s2.PullSucceeded(t0.Add(611*time.Second + 1)); got.BackOff.Exists {
		t.Errorf("success did not GC an expired entry")
	}
	if got := ImagePullBackOffMessage("nginx", ""); got != `Back-off pulling image "nginx"` {
		t.Errorf("message %q", got)
	}
	if ImagePullBackOffKey("uid", "nginx:1") != "uid_nginx:1" {
		t.Errorf("image key")
	}
	if p := ImagePullBackOffPolicy(); p.Initial != 10*time.Second || p.Max != 300*time.Second || p.resetAfter() != 600*time.Second {
		t.Errorf("ImagePullBackOffPolicy = %+v", p)
	}
}

func TestPodDesc(t *testing.T) {
	if got := PodDesc(&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "a", Namespace: "b", UID: "c"}}); got != "a_b(c)" {
		t.Errorf("PodDesc = %q", got)
	}
	if PodDesc(nil) != "<nil>" {
		t.Errorf("PodDesc(nil)")
	}
}

// TestWriteResourceRequirements: the streamed rendering BackOffKey hashes is byte for
// byte the generated String method upstream's GetBackoffKey calls, for empty, small,
// large and claim-carrying requirements.
func TestWriteResourceRequirements(t *testing.T) {
	big := corev1.ResourceRequirements{Limits: corev1.ResourceList{}, Requests: corev1.ResourceList{}}
	for i := range 300 {
		name := corev1.ResourceName("example.com/r" + strconv.Itoa(i))
		big.Limits[name] = resource.MustParse(strconv.Itoa(i) + "Mi")
		big.Requests[name] = *resource.NewMilliQuantity(int64(i), resource.DecimalSI)
	}
	for _, r := range []corev1.ResourceRequirements{
		{},
		{Limits: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("500m")}},
		{Requests: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("1Gi"), corev1.ResourceCPU: resource.MustParse("1")},
			Claims: []corev1.ResourceClaim{{Name: "gpu", Request: "a"}, {Name: "&x"}}},
		big,
	} {
		var b strings.Builder
		writeResourceRequirements(&b, &r)
		if want := r.String(); b.String() != want {
			t.Errorf("streamed %q\ngenerated %q", b.String(), want)
		}
	}
}
