package restart

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podlife/podlife"
)

// bytesReader turns fuzz input into choices; it yields zeros once exhausted.
type bytesReader struct{ b []byte }

func (r *bytesReader) byte() byte {
	if len(r.b) == 0 {
		return 0
	}
	v := r.b[0]
	r.b = r.b[1:]
	return v
}

func (r *bytesReader) n(k int) int { return int(r.byte()) % k }

func (r *bytesReader) int32() int32 {
	switch r.n(4) {
	case 0:
		return int32(r.n(4))
	case 1:
		return 42
	case 2:
		return 137
	}
	return int32(uint32(r.byte()) | uint32(r.byte())<<8 | uint32(r.byte())<<16 | uint32(r.byte())<<24)
}

var fuzzNames = []string{"a", "b", "c", "", "init", "app"}

func (r *bytesReader) container() corev1.Container {
	c := corev1.Container{Name: fuzzNames[r.n(len(fuzzNames))], Image: []string{"", "nginx", "busybox:1"}[r.n(3)]}
	if p := r.n(6); p < 5 {
		v := []corev1.ContainerRestartPolicy{"Always", "OnFailure", "Never", "", "Weird"}[p]
		c.RestartPolicy = &v
	}
	for range r.n(4) {
		rule := corev1.ContainerRestartRule{Action: []corev1.ContainerRestartRuleAction{"Restart", "RestartAllContainers", "", "X"}[r.n(4)]}
		if r.n(5) > 0 {
			on := &corev1.ContainerRestartRuleOnExitCodes{Operator: []corev1.ContainerRestartRuleOnExitCodesOperator{"In", "NotIn", "", "Is"}[r.n(4)]}
			for range r.n(4) {
				on.Values = append(on.Values, r.int32())
			}
			c.RestartPolicyRules = append(c.RestartPolicyRules, corev1.ContainerRestartRule{Action: rule.Action, ExitCodes: on})
			continue
		}
		c.RestartPolicyRules = append(c.RestartPolicyRules, rule)
	}
	if r.n(3) == 0 {
		c.Resources.Requests = corev1.ResourceList{corev1.ResourceCPU: *resource.NewMilliQuantity(int64(r.byte()), resource.DecimalSI)}
	}
	return c
}

func (r *bytesReader) status(name string) corev1.ContainerStatus {
	st := corev1.ContainerStatus{Name: name}
	term := func() *corev1.ContainerStateTerminated {
		return &corev1.ContainerStateTerminated{ExitCode: r.int32(), Reason: []string{"", "OOMKilled", "Error", ReasonRestartingAllContainers}[r.n(4)],
			FinishedAt: metav1.Time{Time: time.Unix(int64(r.byte())*10, 0)}}
	}
	switch r.n(6) {
	case 1:
		st.State.Running = &corev1.ContainerStateRunning{}
	case 2:
		st.State.Terminated = term()
	case 3:
		st.State.Waiting = &corev1.ContainerStateWaiting{Reason: []string{"", ReasonRestartingAllContainers}[r.n(2)]}
		st.LastTerminationState.Terminated = term()
	case 4:
		st.State.Waiting = &corev1.ContainerStateWaiting{Reason: []string{"", ReasonRestartingAllContainers}[r.n(2)]}
	case 5:
		st.State.Running = &corev1.ContainerStateRunning{}
		st.State.Terminated = term()
	}
	return st
}

func fuzzPod(data []byte) *corev1.Pod {
	r := &bytesReader{b: data}
	if r.n(16) == 0 {
		return nil
	}
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns", UID: "u"}}
	pod.Spec.RestartPolicy = []corev1.RestartPolicy{"Always", "OnFailure", "Never", "", "Sometimes"}[r.n(5)]
	if r.n(5) == 0 {
		pod.DeletionTimestamp = &metav1.Time{}
	}
	for range r.n(3) {
		pod.Spec.InitContainers = append(pod.Spec.InitContainers, r.container())
	}
	for range r.n(4) {
		pod.Spec.Containers = append(pod.Spec.Containers, r.container())
	}
	for range r.n(2) {
		pod.Spec.EphemeralContainers = append(pod.Spec.EphemeralContainers, corev1.EphemeralContainer{EphemeralContainerCommon: corev1.EphemeralContainerCommon(r.container())})
	}
	for range r.n(3) {
		pod.Status.InitContainerStatuses = append(pod.Status.InitContainerStatuses, r.status(fuzzNames[r.n(len(fuzzNames))]))
	}
	for range r.n(4) {
		pod.Status.ContainerStatuses = append(pod.Status.ContainerStatuses, r.status(fuzzNames[r.n(len(fuzzNames))]))
	}
	for range r.n(2) {
		pod.Status.EphemeralContainerStatuses = append(pod.Status.EphemeralContainerStatuses, r.status(fuzzNames[r.n(len(fuzzNames))]))
	}
	if r.n(3) == 0 {
		pod.Status.Conditions = append(pod.Status.Conditions, corev1.PodCondition{Type: corev1.AllContainersRestarting, Status: []corev1.ConditionStatus{"True", "False"}[r.n(2)]})
	}
	return pod
}

func fuzzOptions(b byte) Options {
	var fg podlife.FeatureGates
	switch b % 4 {
	case 1:
		fg = podlife.FeatureGates{"RestartAllContainersOnContainerExits": false}
	case 2:
		fg = podlife.FeatureGates{"ContainerRestartRules": false, "RestartAllContainersOnContainerExits": false}
	case 3:
		fg = podlife.FeatureGates{"ReduceDefaultCrashLoopBackOffDecay": true, "KubeletCrashLoopBackOffMax": b&4 == 0}
	}
	return Options{Features: fg, MaxContainerRestartPeriod: time.Duration(b/8) * 3 * time.Second}
}

func fuzzInstances(data []byte) []Instance {
	r := &bytesReader{b: data}
	var out []Instance
	for range r.n(6) {
		out = append(out, Instance{Name: fuzzNames[r.n(len(fuzzNames))], State: []State{StateCreated, StateRunning, StateExited, StateUnknown, "paused", ""}[r.n(6)],
			ExitCode: r.int32(), Reason: []string{"", "OOMKilled"}[r.n(2)], FinishedAt: time.Unix(int64(r.byte()), 0)})
	}
	return out
}

// fuzzView is the runtime view holding fuzzInstances(data).
func fuzzView(data []byte) *View { return &View{Instances: fuzzInstances(data)} }

// cloneInstances copies a view's instances for the "input untouched" checks.
func cloneInstances(v *View) []Instance {
	if v == nil {
		return nil
	}
	return append([]Instance(nil), v.Instances...)
}

func viewUnchanged(t *testing.T, before []Instance, v *View) {
	t.Helper()
	if v != nil && !reflect.DeepEqual(before, append([]Instance(nil), v.Instances...)) {
		t.Fatalf("view modified")
	}
}

var fuzzSeeds = [][]byte{
	{}, {1}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20},
	[]byte("restartPolicyRules on exit codes, sidecars, init containers and back-off"),
	{255, 254, 253, 252, 251, 250, 249, 248, 247, 246, 245, 244, 243, 242, 241, 240, 239, 238, 237, 236, 235, 234},
}

func addSeeds(f *testing.F) {
	for i, s := range fuzzSeeds {
		f.Add(s, byte(i))
	}
}

// lookup finds a container in ShouldRestart's order: regular, init, ephemeral.
func lookup(pod *corev1.Pod, name string) *corev1.Container {
	if pod == nil {
		return nil
	}
	for i := range pod.Spec.Containers {
		if pod.Spec.Containers[i].Name == name {
			return &pod.Spec.Containers[i]
		}
	}
	for i := range pod.Spec.InitContainers {
		if pod.Spec.InitContainers[i].Name == name {
			return &pod.Spec.InitContainers[i]
		}
	}
	for i := range pod.Spec.EphemeralContainers {
		if pod.Spec.EphemeralContainers[i].Name == name {
			return (*corev1.Container)(&pod.Spec.EphemeralContainers[i].EphemeralContainerCommon)
		}
	}
	return nil
}

// allContainers lists the pod's containers as ShouldRestart finds them.
func allContainers(pod *corev1.Pod) []*corev1.Container {
	if pod == nil {
		return nil
	}
	var out []*corev1.Container
	for i := range pod.Spec.InitContainers {
		out = append(out, &pod.Spec.InitContainers[i])
	}
	for i := range pod.Spec.Containers {
		out = append(out, &pod.Spec.Containers[i])
	}
	for i := range pod.Spec.EphemeralContainers {
		out = append(out, (*corev1.Container)(&pod.Spec.EphemeralContainers[i].EphemeralContainerCommon))
	}
	return out
}

func unchanged(t *testing.T, before, after any) {
	t.Helper()
	if !reflect.DeepEqual(before, after) {
		t.Fatalf("input modified")
	}
}

func FuzzShouldRestart(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte, o byte) {
		pod, opts := fuzzPod(data), fuzzOptions(o)
		before := pod.DeepCopy()
		for _, name := range append(fuzzNames, "missing") {
			d := ShouldRestart(pod, name, opts)
			unchanged(t, before, pod)
			if d2 := ShouldRestart(pod, name, opts); d2 != d || d2.Explain() != d.Explain() {
				t.Fatalf("not deterministic")
			}
			checkDecision(t, pod, lookup(pod, name), d, opts)
			if pod != nil && pod.DeletionTimestamp != nil && d.Restart {
				t.Fatalf("restart of a deleted pod's container")
			}
		}
	})
}

func checkDecision(t *testing.T, pod *corev1.Pod, c *corev1.Container, d Decision, opts Options) {
	t.Helper()
	if (d.Rule() == nil) != (d.RuleIndex() < 0) {
		t.Fatalf("Rule %v and RuleIndex %d disagree", d.Rule(), d.RuleIndex())
	}
	if d.RestartAllContainers() && (!d.Restart || d.Rule() == nil || d.Rule().Action != corev1.ContainerRestartRuleActionRestartAllContainers || !opts.restartAllContainers()) {
		t.Fatalf("RestartAllContainers without a RestartAllContainers rule: %+v", d)
	}
	if d.Rule() != nil && !opts.containerRestartRules() {
		t.Fatalf("a rule with ContainerRestartRules off: %+v", d)
	}
	if pod == nil && d != (Decision{}) {
		t.Fatalf("no pod, decision %+v", fieldsOf(d))
	}
	if pod != nil && d.PodPolicy() != pod.Spec.RestartPolicy {
		t.Fatalf("PodPolicy %q, pod's %q", d.PodPolicy(), pod.Spec.RestartPolicy)
	}
	if p := d.ContainerPolicy(); p != "" && (c == nil || c.RestartPolicy == nil || *c.RestartPolicy != p || d.State() != StateExited || !opts.containerRestartRules()) {
		t.Fatalf("ContainerPolicy %q read from no exit or no policy: %+v", p, fieldsOf(d))
	}
	if d.Container() != "" && (c == nil || d.Container() != c.Name) {
		t.Fatalf("Container %q, looked up %v", d.Container(), c)
	}
	if d.ExitCode() != 0 && d.State() != StateExited {
		t.Fatalf("exit code %d of a state %q", d.ExitCode(), d.State())
	}
	checkDecisionJSON(t, d)
	reason := d.Explain()
	if !strings.HasSuffix(reason, "→ Restart") && !strings.HasSuffix(reason, "→ no restart") && !strings.HasSuffix(reason, "→ RestartAllContainers") {
		t.Fatalf("reason %q", reason)
	}
	if strings.HasSuffix(reason, "→ no restart") == d.Restart {
		t.Fatalf("reason %q disagrees with Restart %v", reason, d.Restart)
	}
	if d.Basis() == BasisRule || d.Basis() == BasisContainerPolicy || d.Basis() == BasisPodPolicy {
		// The exit decision is ContainerShouldRestart's.
		if c != nil && ContainerShouldRestart(c, &pod.Spec, d.ExitCode(), opts) != d.Restart {
			t.Fatalf("decision %+v disagrees with ContainerShouldRestart", d)
		}
	}
}

func FuzzShouldRestartInstance(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte, o byte) {
		pod, opts := fuzzPod(data), fuzzOptions(o)
		v := fuzzView(data)
		before, beforeInsts := pod.DeepCopy(), cloneInstances(v)
		for _, c := range append(allContainers(pod), nil) {
			var newest *Instance
			if c != nil {
				if in, ok := v.Newest(c.Name); ok {
					newest = &in
				}
			}
			var beforeNewest Instance
			if newest != nil {
				beforeNewest = *newest
			}
			d := ShouldRestartInstance(pod, c, newest, opts)
			unchanged(t, before, pod)
			viewUnchanged(t, beforeInsts, v)
			if newest != nil && *newest != beforeNewest {
				t.Fatalf("instance modified")
			}
			checkDecision(t, pod, c, d, opts)
			// Any state the kubelet does not name ("", "paused") is unknown.
			if newest != nil && pod.DeletionTimestamp == nil && !d.Restart {
				if k := newest.State.Kubelet(); k == StateCreated || k == StateUnknown {
					t.Fatalf("created or unknown (%q) instance not restarted", newest.State)
				}
			}
			if newest != nil && newest.State == StateRunning && d.Restart {
				t.Fatalf("running instance restarted")
			}
		}
	})
}

func FuzzInstanceFromStatus(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte, _ byte) {
		r := &bytesReader{b: data}
		st := r.status("x")
		before := st.DeepCopy()
		inst, ok := InstanceFromStatus(&st)
		unchanged(t, *before, st)
		if ok != (st.State.Running != nil || st.State.Terminated != nil || st.LastTerminationState.Terminated != nil) {
			t.Fatalf("ok %v for %+v", ok, st)
		}
		if ok && inst.Name != "x" || ok && inst.State != StateRunning && inst.State != StateExited {
			t.Fatalf("instance %+v", inst)
		}
		if _, ok := InstanceFromStatus(nil); ok {
			t.Fatalf("nil status has an instance")
		}
		// ExitedInstance reads a termination record as InstanceFromStatus does.
		var rec *corev1.ContainerStateTerminated
		switch {
		case st.State.Running != nil: // a running instance, whatever else the status says
		case st.State.Terminated != nil:
			rec = st.State.Terminated
		default:
			rec = st.LastTerminationState.Terminated
		}
		if rec != nil {
			if got := ExitedInstance("x", rec); got != inst {
				t.Fatalf("ExitedInstance %+v, InstanceFromStatus %+v", got, inst)
			}
		}
		if got := ExitedInstance("y", nil); got != (Instance{Name: "y", State: StateExited}) {
			t.Fatalf("ExitedInstance of no record: %+v", got)
		}
	})
}

func FuzzIsRestartableInitContainer(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte, _ byte) {
		c := (&bytesReader{b: data}).container()
		before := c.DeepCopy()
		got := IsRestartableInitContainer(&c)
		unchanged(t, *before, c)
		if got != (c.RestartPolicy != nil && *c.RestartPolicy == corev1.ContainerRestartPolicyAlways) {
			t.Fatalf("IsRestartableInitContainer = %v for %+v", got, c.RestartPolicy)
		}
	})
}

func FuzzMatchingRule(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte, _ byte) {
		r := &bytesReader{b: data}
		c := r.container()
		code := r.int32()
		before := c.DeepCopy()
		rule, i, ok := MatchingRule(&c, code)
		unchanged(t, *before, c)
		if !ok {
			if i != -1 || !reflect.DeepEqual(rule, corev1.ContainerRestartRule{}) {
				t.Fatalf("no match but %d %+v", i, rule)
			}
			return
		}
		if i < 0 || i >= len(c.RestartPolicyRules) || !reflect.DeepEqual(rule, c.RestartPolicyRules[i]) || rule.ExitCodes == nil {
			t.Fatalf("match %d %+v", i, rule)
		}
		for j := range i {
			one := corev1.Container{RestartPolicyRules: c.RestartPolicyRules[j : j+1]}
			if _, _, ok := MatchingRule(&one, code); ok {
				t.Fatalf("rule %d matched before rule %d", j, i)
			}
		}
		in := false
		for _, v := range rule.ExitCodes.Values {
			in = in || v == code
		}
		if rule.ExitCodes.Operator == corev1.ContainerRestartRuleOnExitCodesOpIn != in {
			t.Fatalf("operator %s, code %d in values %v", rule.ExitCodes.Operator, code, in)
		}
	})
}

func FuzzContainerShouldRestart(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte, o byte) {
		r := &bytesReader{b: data}
		pod := fuzzPod(data)
		if pod == nil {
			pod = &corev1.Pod{}
		}
		c := r.container()
		code, opts := r.int32(), fuzzOptions(o)
		before, beforeC := pod.DeepCopy(), c.DeepCopy()
		got := ContainerShouldRestart(&c, &pod.Spec, code, opts)
		unchanged(t, before, pod)
		unchanged(t, *beforeC, c)
		if c.RestartPolicy == nil && got != ContainerShouldRestart(nil, &pod.Spec, code, opts) {
			t.Fatalf("rules used without a container policy")
		}
		// A container that is not restartable only restarts through a
		// RestartAllContainers rule.
		if got && !IsContainerRestartable(&pod.Spec, &c) {
			if rule, _, ok := MatchingRule(&c, code); !ok || rule.Action != corev1.ContainerRestartRuleActionRestartAllContainers {
				t.Fatalf("restarted a non-restartable container")
			}
		}
	})
}

func FuzzIsContainerRestartable(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte, _ byte) {
		r := &bytesReader{b: data}
		c := r.container()
		spec := &corev1.PodSpec{RestartPolicy: []corev1.RestartPolicy{"Always", "OnFailure", "Never", ""}[r.n(4)]}
		before := c.DeepCopy()
		got := IsContainerRestartable(spec, &c)
		unchanged(t, *before, c)
		if c.RestartPolicy == nil && got != (spec.RestartPolicy != corev1.RestartPolicyNever) {
			t.Fatalf("pod fallback wrong")
		}
		if c.RestartPolicy != nil && *c.RestartPolicy != corev1.ContainerRestartPolicyNever && !got {
			t.Fatalf("container policy %q not restartable", *c.RestartPolicy)
		}
		if got != IsContainerRestartable(spec, &c) {
			t.Fatalf("not deterministic")
		}
	})
}

func FuzzAllContainersCouldRestart(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte, _ byte) {
		pod := fuzzPod(data)
		if pod == nil {
			if AllContainersCouldRestart(nil) {
				t.Fatalf("nil spec could restart")
			}
			return
		}
		before := pod.DeepCopy()
		got := AllContainersCouldRestart(&pod.Spec)
		unchanged(t, before, pod)
		want := false
		for _, c := range append(append([]corev1.Container{}, pod.Spec.InitContainers...), pod.Spec.Containers...) {
			for _, r := range c.RestartPolicyRules {
				want = want || r.Action == corev1.ContainerRestartRuleActionRestartAllContainers
			}
		}
		if got != want {
			t.Fatalf("got %v, want %v", got, want)
		}
	})
}

func FuzzShouldAllContainersRestart(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte, _ byte) {
		pod := fuzzPod(data)
		before := pod.DeepCopy()
		for _, v := range []*View{nil, fuzzView(data), {}} {
			beforeInsts := cloneInstances(v)
			got := ShouldAllContainersRestart(pod, v)
			unchanged(t, before, pod)
			viewUnchanged(t, beforeInsts, v)
			if got != ShouldAllContainersRestart(pod, v) {
				t.Fatalf("not deterministic")
			}
			if want := shouldAllRestartByScan(pod, v); got != want {
				t.Fatalf("ShouldAllContainersRestart(view %v) = %v, upstream's algorithm %v", v != nil, got, want)
			}
			if got && pod == nil {
				t.Fatalf("restart-all without a pod")
			}
			if pod != nil {
				for _, c := range pod.Status.Conditions {
					if c.Type == corev1.AllContainersRestarting && c.Status == corev1.ConditionTrue && !got {
						t.Fatalf("sticky condition ignored")
					}
				}
			}
		}
	})
}

// shouldAllRestartByScan is upstream's kubecontainer.ShouldAllContainersRestart
// written out with plain scans: the condition; then, for each init and regular
// container, the newest instance in the view (when there is a view) must have exited
// (skip the container otherwise) and may match a RestartAllContainers rule; then the
// API status (the last regular status of the name, else the last init one) may be
// terminated with a matching code.
func shouldAllRestartByScan(pod *corev1.Pod, v *View) bool {
	if pod == nil {
		return false
	}
	for _, c := range pod.Status.Conditions {
		if c.Type == corev1.AllContainersRestarting && c.Status == corev1.ConditionTrue {
			return true
		}
	}
	restartsAll := func(c *corev1.Container, code int32) bool {
		for _, r := range c.RestartPolicyRules {
			if r.ExitCodes == nil {
				continue
			}
			in := false
			for _, x := range r.ExitCodes.Values {
				in = in || x == code
			}
			switch {
			case r.ExitCodes.Operator == corev1.ContainerRestartRuleOnExitCodesOpIn && in,
				r.ExitCodes.Operator == corev1.ContainerRestartRuleOnExitCodesOpNotIn && !in:
				return r.Action == corev1.ContainerRestartRuleActionRestartAllContainers
			}
		}
		return false
	}
	for _, c := range append(append([]corev1.Container{}, pod.Spec.InitContainers...), pod.Spec.Containers...) {
		if v != nil {
			var newest *Instance
			for i := range v.Instances {
				if v.Instances[i].Name == c.Name {
					newest = &v.Instances[i]
					break
				}
			}
			if newest == nil || newest.State.Kubelet() != StateExited {
				continue
			}
			if restartsAll(&c, newest.ExitCode) {
				return true
			}
		}
		var api *corev1.ContainerStatus
		for _, list := range [][]corev1.ContainerStatus{pod.Status.InitContainerStatuses, pod.Status.ContainerStatuses} {
			for i := range list {
				if list[i].Name == c.Name {
					api = &list[i]
				}
			}
		}
		if api != nil && api.State.Terminated != nil && restartsAll(&c, api.State.Terminated.ExitCode) {
			return true
		}
	}
	return false
}

func statusOf(pod *corev1.Pod) *corev1.PodStatus {
	if pod == nil {
		return nil
	}
	return &pod.Status
}

func FuzzAllContainersRestartCleanedUp(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte, _ byte) {
		pod, v := fuzzPod(data), fuzzView(data)
		before, beforeInsts := pod.DeepCopy(), cloneInstances(v)
		got := AllContainersRestartCleanedUp(pod, v)
		gotStatus := AllContainersRestartCleanedUp(pod, nil)
		unchanged(t, before, pod)
		viewUnchanged(t, beforeInsts, v)
		if !AllContainersRestartCleanedUp(pod, &View{}) {
			t.Fatalf("an empty view is not cleaned up")
		}
		if pod == nil {
			if !got || !gotStatus {
				t.Fatalf("a nil pod is not cleaned up")
			}
			return
		}
		// By scan: no init or regular container has an instance.
		want, wantStatus := true, true
		for _, c := range append(append([]corev1.Container{}, pod.Spec.InitContainers...), pod.Spec.Containers...) {
			if _, ok := v.Newest(c.Name); ok {
				want = false
			}
			if _, ok := statusInstanceByScan(statusOf(pod), c.Name); ok {
				wantStatus = false
			}
		}
		if got != want || gotStatus != wantStatus {
			t.Fatalf("AllContainersRestartCleanedUp = %v (view) %v (status), by scan %v %v", got, gotStatus, want, wantStatus)
		}
	})
}

// statusInstanceByScan is the newest instance of a container read from the API
// statuses without a view: init, regular, then ephemeral statuses, the first status
// with the name that yields an instance (InstanceFromStatus), a status waiting with
// reason RestartingAllContainers yielding none.
func statusInstanceByScan(s *corev1.PodStatus, name string) (Instance, bool) {
	for _, list := range [][]corev1.ContainerStatus{s.InitContainerStatuses, s.ContainerStatuses, s.EphemeralContainerStatuses} {
		for i := range list {
			st := &list[i]
			if st.Name != name || st.State.Waiting != nil && st.State.Waiting.Reason == ReasonRestartingAllContainers {
				continue
			}
			if inst, ok := InstanceFromStatus(st); ok {
				return inst, true
			}
		}
	}
	return Instance{}, false
}

func FuzzIsInitContainerFailed(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte, _ byte) {
		for _, in := range fuzzInstances(data) {
			got := IsInitContainerFailed(&in)
			if in.Reason == ReasonOOMKilled && !got || in.State == StateRunning && in.Reason == "" && got || in.State == StateCreated && in.Reason == "" && got {
				t.Fatalf("IsInitContainerFailed(%+v) = %v", in, got)
			}
		}
		if IsInitContainerFailed(nil) {
			t.Fatalf("nil failed")
		}
	})
}

func FuzzInitContainerAction(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte, o byte) {
		pod, opts, v := fuzzPod(data), fuzzOptions(o), fuzzView(data)
		before := pod.DeepCopy()
		for _, c := range allContainers(pod) {
			var newest *Instance
			if in, ok := v.Newest(c.Name); ok {
				newest = &in
			}
			a := InitContainerAction(pod, c, newest, opts)
			unchanged(t, before, pod)
			switch {
			case newest == nil && a != InitNotStarted:
				t.Fatalf("no instance but %v", a)
			case newest != nil && newest.State == StateRunning && a != InitWait:
				t.Fatalf("running but %v", a)
			case IsRestartableInitContainer(c) && (a == InitKillPod || a == InitDone):
				t.Fatalf("sidecar %v", a)
			case a == InitDone && IsInitContainerFailed(newest):
				t.Fatalf("failed but done")
			case a == InitKillPod && !IsInitContainerFailed(newest) && newest.State != "paused" && newest.State != "":
				t.Fatalf("pod killed for a container that did not fail: %+v", newest)
			}
			if a.String() == "" {
				t.Fatalf("empty action name")
			}
		}
	})
}

func FuzzValidate(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, _ []byte, o byte) {
		opts := fuzzOptions(o)
		for _, p := range []time.Duration{opts.MaxContainerRestartPeriod, time.Duration(o) * time.Millisecond * 1234, -time.Second} {
			opts.MaxContainerRestartPeriod = p
			err := opts.Validate()
			ms := p.Milliseconds()
			want := p == 0 || opts.Features.Enabled("KubeletCrashLoopBackOffMax") && ms >= 1000 && ms <= 300000
			if (err == nil) != want {
				t.Fatalf("Validate(%v) = %v", p, err)
			}
		}
	})
}

func FuzzCrashLoopPolicy(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, _ []byte, o byte) {
		opts := fuzzOptions(o)
		p := CrashLoopBackOffPolicy(opts)
		if p.ResetAfter != CrashLoopBackOffReset || p.Initial > p.Max || p.Initial <= 0 {
			t.Fatalf("policy %+v for %+v", p, opts)
		}
		if opts.Validate() == nil && opts.Features.Enabled("KubeletCrashLoopBackOffMax") && opts.MaxContainerRestartPeriod != 0 && p.Max != opts.MaxContainerRestartPeriod {
			t.Fatalf("max %v, configured %v", p.Max, opts.MaxContainerRestartPeriod)
		}
		if ip := ImagePullBackOffPolicy(); ip.Initial != 10*time.Second || ip.Max != 300*time.Second {
			t.Fatalf("image pull policy %+v", ip)
		}
	})
}

func fuzzPolicy(r *bytesReader) BackOffPolicy {
	return BackOffPolicy{Initial: time.Duration(r.byte()+1) * 100 * time.Millisecond, Max: time.Duration(r.byte()) * time.Second, ResetAfter: time.Duration(r.byte()) * 5 * time.Second}
}

func FuzzPolicy(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte, _ byte) {
		r := &bytesReader{b: data}
		p := fuzzPolicy(r)
		var b BackOff
		now := t0
		for range 20 {
			ev := now.Add(time.Duration(int8(r.byte())) * time.Second)
			switch r.n(4) {
			case 0:
				nb := p.Next(b, ev, now)
				if !nb.Exists || !nb.LastUpdate.Equal(now) || nb.Delay != p.Initial && nb.Delay > p.Max {
					t.Fatalf("Next(%+v) = %+v with %+v", b, nb, p)
				}
				b = nb
			case 1:
				if p.GC(b, now).Exists && p.Expired(b, now) {
					t.Fatalf("GC kept an expired entry")
				}
			case 2:
				c := p.CheckStart(b, ev, r.n(2) == 0, now)
				if !c.Allowed && (!c.RetryAt.After(now) || c.BackOff != b || c.Delay != b.Delay) {
					t.Fatalf("held start %+v at %v", c, now)
				}
				if !c.Allowed && !p.RestartAllowedAt(b, ev).Equal(c.RetryAt) {
					t.Fatalf("RestartAllowedAt disagrees with CheckStart")
				}
				at, next := p.AfterExit(b, ev)
				if c2 := p.CheckStart(b, ev, true, at); !c2.Allowed || c2.BackOff != next {
					t.Fatalf("AfterExit %v %+v disagrees with CheckStart %+v", at, next, c2)
				}
			case 3:
				if p.InBackOffSinceUpdate(b, ev) && !b.Exists {
					t.Fatalf("in back-off without an entry")
				}
				if p.InBackOffSince(b, ev, now) && !b.Exists {
					t.Fatalf("in back-off without an entry")
				}
			}
			now = now.Add(time.Duration(r.byte()) * time.Second)
		}
	})
}

func FuzzSchedule(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte, o byte) {
		p := fuzzPolicy(&bytesReader{b: data})
		n := int(o) % 40
		s := p.Schedule(n)
		if len(s) != n || n > 0 && s[0] != 0 {
			t.Fatalf("Schedule(%d) = %v", n, s)
		}
		for i := 2; i < n; i++ {
			if s[i] < s[i-1] && s[i] != p.Max {
				t.Fatalf("Schedule decreases: %v", s)
			}
		}
	})
}

func FuzzBackoffKey(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte, _ byte) {
		pod := fuzzPod(data)
		before := pod.DeepCopy()
		for _, c := range append(allContainers(pod), nil) {
			k := BackOffKey(pod, c)
			unchanged(t, before, pod)
			if k != BackOffKey(pod, c) || len(k) == 0 || len(k) > 16 || strings.Trim(k, "0123456789abcdef") != "" {
				t.Fatalf("key %q", k)
			}
			s := CrashLoopState{}.For(pod, c)
			if s.Key != k || s.BackOff.Exists || s.For(pod, c) != s {
				t.Fatalf("CrashLoopState.For %+v", s)
			}
		}
	})
}

func FuzzMessages(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte, o byte) {
		pod := fuzzPod(data)
		name, d := string(data), time.Duration(o)*time.Second
		want := "back-off " + d.String() + " restarting failed container=" + name + " pod=" + PodDesc(pod)
		if got := CrashLoopMessage(d, name, pod); got != want {
			t.Fatalf("%q", got)
		}
		if got := CrashLoopEventMessage(name, pod); !strings.HasPrefix(got, "Back-off restarting failed container ") || !strings.HasSuffix(got, " in pod "+PodDesc(pod)) {
			t.Fatalf("%q", got)
		}
		if got := ImagePullBackOffKey("u", name); got != "u_"+name {
			t.Fatalf("%q", got)
		}
		if got := ImagePullBackOffMessage(name, ""); !strings.HasPrefix(got, "Back-off pulling image \"") {
			t.Fatalf("%q", got)
		}
	})
}

func FuzzImagePullError(f *testing.F) {
	addSeeds(f)
	f.Add([]byte("RegistryUnavailable: down"), byte(0))
	f.Add([]byte("SignatureValidationFailed"), byte(0))
	f.Fuzz(func(t *testing.T, data []byte, _ byte) {
		reason, msg, prev := ImagePullError("img", string(data))
		switch reason {
		case ReasonErrImagePull:
			if msg != string(data) {
				t.Fatalf("message %q", msg)
			}
		case ReasonRegistryUnavailable, ReasonSignatureValidationFailed:
			if !strings.HasPrefix(string(data), reason) || !strings.HasPrefix(msg, "image pull failed for img because ") {
				t.Fatalf("%q %q", reason, msg)
			}
		default:
			t.Fatalf("reason %q", reason)
		}
		if prev != reason+": "+msg {
			t.Fatalf("prev %q", prev)
		}
	})
}

func FuzzImagePullState(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte, _ byte) {
		r := &bytesReader{b: data}
		var s ImagePullState
		now := t0
		for range 20 {
			next, held, msg := s.BeforePull("img", now)
			if held != (msg != "") || held && next != s || !held && next.Prev != "" {
				t.Fatalf("BeforePull %v %q %+v", held, msg, next)
			}
			s = next
			if !held {
				if r.n(2) == 0 {
					s, _, _ = s.PullFailed("img", "boom", now)
					if !s.BackOff.Exists || s.Prev == "" {
						t.Fatalf("PullFailed %+v", s)
					}
				} else {
					s = s.PullSucceeded(now)
				}
			}
			now = now.Add(time.Duration(r.byte()) * 3 * time.Second)
		}
	})
}

func FuzzViews(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte, _ byte) {
		v := fuzzView(data)
		pod := fuzzPod(data)
		for _, name := range append(fuzzNames, "missing") {
			in, ok := v.Newest(name)
			if ok && in.Name != name {
				t.Fatalf("Newest %+v", in)
			}
			x := newNewest(v, nil)
			if got, gok := x.get(name); gok != ok || got != in {
				t.Fatalf("newest.get(%q) = %+v %v, View.Newest %+v %v", name, got, gok, in, ok)
			}
			ex, eok := v.NewestExited(name)
			if eok && (ex.State.Kubelet() != StateExited || ex.Name != name) {
				t.Fatalf("NewestExited %+v", ex)
			}
			if ok && in.State.Kubelet() == StateExited && (!eok || ex != in) {
				t.Fatalf("the newest instance %+v is exited but NewestExited gives %+v %v", in, ex, eok)
			}
			if pod != nil {
				x := newNewest(nil, &pod.Status)
				got, gok := x.get(name)
				want, wok := statusInstanceByScan(&pod.Status, name)
				if got != want || gok != wok {
					t.Fatalf("newest.get(%q) from status = %+v %v, by scan %+v %v", name, got, gok, want, wok)
				}
			}
		}
		if len(data) > 0 && Basis(data[0]).String() == "" {
			t.Fatalf("empty basis name")
		}
	})
}

// checkDecisionJSON checks that d's JSON holds what its methods answer.
func checkDecisionJSON(t *testing.T, d Decision) {
	t.Helper()
	out, err := json.Marshal(d)
	if err != nil {
		t.Fatalf("MarshalJSON: %v", err)
	}
	var got struct {
		decisionFields
		Basis string
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%s: %v", out, err)
	}
	want := fieldsOf(d)
	if got.Basis != want.Basis.String() {
		t.Fatalf("JSON basis %q, Basis() %v", got.Basis, want.Basis)
	}
	rule := got.Rule
	got.decisionFields.Basis, got.Rule = want.Basis, want.Rule
	if got.decisionFields != want || (rule == nil) != (want.Rule == nil) || rule != nil && !sameJSON(*rule, *want.Rule) {
		t.Fatalf("JSON %s, methods %+v", out, want)
	}
}

// sameJSON reports whether a and b encode to the same JSON (an empty list and none
// alike, as JSON reads them back).
func sameJSON(a, b any) bool {
	x, errX := json.Marshal(a)
	y, errY := json.Marshal(b)
	return errX == nil && errY == nil && bytes.Equal(x, y)
}
