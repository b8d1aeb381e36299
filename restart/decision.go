package restart

import (
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/podlife/podlife/internal/gates"
)

// InstanceFromStatus derives the newest runtime instance of a container from its API
// status, as the package documents for [ShouldRestart]: State.Running is a running
// instance; State.Terminated an exited one with its exit code, reason and finish time;
// State.Waiting (or no state) with LastTerminationState.Terminated an exited one with
// that termination; any other status, or nil, means no instance (ok is false).
func InstanceFromStatus(st *corev1.ContainerStatus) (inst Instance, ok bool) {
	if st == nil {
		return Instance{}, false
	}
	switch {
	case st.State.Running != nil:
		return Instance{Name: st.Name, State: StateRunning}, true
	case st.State.Terminated != nil:
		return exitedInstance(st.Name, st.State.Terminated), true
	case st.LastTerminationState.Terminated != nil:
		return exitedInstance(st.Name, st.LastTerminationState.Terminated), true
	}
	return Instance{}, false
}

// exitedInstance is the exited instance a termination record describes.
func exitedInstance(name string, t *corev1.ContainerStateTerminated) Instance {
	return Instance{
		Name:       name,
		ID:         t.ContainerID,
		State:      StateExited,
		ExitCode:   t.ExitCode,
		Reason:     t.Reason,
		Message:    t.Message,
		StartedAt:  t.StartedAt.Time,
		FinishedAt: t.FinishedAt.Time,
	}
}

// ExitedInstance returns the exited instance a termination record of the named
// container describes (its ID, exit code, reason, message and times), as
// [InstanceFromStatus] reads State.Terminated and LastTerminationState.Terminated. A
// nil record gives an exited instance with only the name.
func ExitedInstance(name string, t *corev1.ContainerStateTerminated) Instance {
	if t == nil {
		return Instance{Name: name, State: StateExited}
	}
	return exitedInstance(name, t)
}

// Basis names the step of the kubelet's decision that settled it.
type Basis uint8

// The steps of ShouldContainerBeRestarted, in the order the kubelet takes them, with
// the two of its callers' (no pod, no such container) first.
const (
	// BasisNoPod: there is no pod (nil); nothing is restarted.
	BasisNoPod Basis = iota
	// BasisContainerNotFound: the pod spec has no container of that name (and the
	// pod is not being deleted).
	BasisContainerNotFound
	// BasisDeletion: the pod has a deletionTimestamp; nothing is restarted. The
	// kubelet tests it first; [ShouldRestart] does too, before it looks the
	// container up, so a pod being deleted gives this basis for any name.
	BasisDeletion
	// BasisNoInstance: the container has no instance (never ran, or all were
	// garbage-collected); it is started.
	BasisNoInstance
	// BasisRunning: the newest instance is running; it is not restarted.
	BasisRunning
	// BasisCreatedOrUnknown: the newest instance is created or unknown; it is
	// (re)started whatever the policies say.
	BasisCreatedOrUnknown
	// BasisRule: a restart rule matched the exit code and its action restarts.
	BasisRule
	// BasisContainerPolicy: the container's own restartPolicy decided.
	BasisContainerPolicy
	// BasisPodPolicy: the pod's restartPolicy decided (the container has none, or an
	// unrecognised one).
	BasisPodPolicy
	// BasisPodPolicyRulesOff: the pod's restartPolicy decided because the
	// ContainerRestartRules gate is off, so container-level fields are ignored.
	BasisPodPolicyRulesOff
)

var basisNames = [...]string{
	BasisNoPod:             "NoPod",
	BasisContainerNotFound: "ContainerNotFound",
	BasisDeletion:          "Deletion",
	BasisNoInstance:        "NoInstance",
	BasisRunning:           "Running",
	BasisCreatedOrUnknown:  "CreatedOrUnknown",
	BasisRule:              "Rule",
	BasisContainerPolicy:   "ContainerPolicy",
	BasisPodPolicy:         "PodPolicy",
	BasisPodPolicyRulesOff: "PodPolicyRulesOff",
}

// String returns the basis name, for example "Rule".
func (b Basis) String() string {
	if int(b) < len(basisNames) {
		return basisNames[b]
	}
	return "Basis(" + strconv.Itoa(int(b)) + ")"
}

// Decision is the kubelet's answer to "is this container (re)started?" together with
// what led to it. It holds no allocations of its own: Rule points into the pod spec
// it was computed from, and the human text is built only when [Decision.Explain] is
// called.
type Decision struct {
	// Restart is the kubelet's answer (ShouldContainerBeRestarted).
	Restart bool
	// RestartAllContainers is true when the exit matched a rule whose action is
	// RestartAllContainers and the RestartAllContainersOnContainerExits gate is on: the
	// restart is carried out by restarting every init and regular container of the pod.
	RestartAllContainers bool
	// Rule is the restart rule that matched the exit code, nil when none was
	// evaluated or none matched. It points into the pod spec. A matched
	// RestartAllContainers rule is reported even when the gate is off and the
	// container policy decided instead.
	Rule *corev1.ContainerRestartRule
	// RuleIndex is Rule's index in the container's restartPolicyRules, -1 when Rule
	// is nil.
	RuleIndex int
	// Basis is the step that decided.
	Basis Basis
	// Container is the container's name.
	Container string
	// State is the state of the newest instance the decision read: StateNone when
	// there is none, or when the pod is being deleted (the kubelet reads none then).
	State State
	// ExitCode is the newest instance's exit code when State is StateExited.
	ExitCode int32
	// ContainerPolicy is the container's own restartPolicy, "" when unset or when
	// ContainerRestartRules is off.
	ContainerPolicy corev1.ContainerRestartPolicy
	// PodPolicy is the pod's restartPolicy as written ("" means Always).
	PodPolicy corev1.RestartPolicy
}

// ShouldRestart answers, as the v1.37.2 kubelet's ShouldContainerBeRestarted
// (k8s.io/kubernetes pkg/kubelet/container/helpers.go), whether the named container
// of pod is started again. The container is looked up in spec.containers, then
// spec.initContainers, then spec.ephemeralContainers, and its runtime state is read
// from the status list of the same kind (the first status with that name) as
// [InstanceFromStatus] maps it. A nil pod or an unknown name gives Restart false; a
// pod being deleted gives Restart false whatever the name, before any lookup.
//
// ShouldRestart allocates nothing and costs one pass over the pod's containers and
// the statuses of the container's kind. A caller deciding for every container of a
// large pod should look its containers and instances up itself and call
// [ShouldRestartInstance], which looks nothing up.
func ShouldRestart(pod *corev1.Pod, container string, opts Options) (d Decision) {
	unlessDeleted(&d, pod, container, opts, shouldRestart)
	return
}

// unlessDeleted is ShouldRestart's body, small enough for the compiler to inline
// into the caller's code: a pod being deleted, the kubelet's first test, is answered
// there, without a call, and any other pod (or none) by full. Both write into d, a
// zero Decision (ShouldRestart's result, in the caller's frame once inlined). full is
// a parameter only so that the call costs the inliner's budget for a call of a
// parameter: with shouldRestart named here, the body would exceed the budget and
// every question would pay for a call of its own; once inlined, full is the known
// function shouldRestart, called through its function value.
func unlessDeleted(d *Decision, pod *corev1.Pod, container string, opts Options, full func(*Decision, *corev1.Pod, string, Options)) {
	if pod != nil && pod.DeletionTimestamp != nil {
		// Nothing of a pod being deleted is restarted, and neither the container
		// nor its instances are looked at.
		d.RuleIndex, d.Container, d.PodPolicy, d.Basis = -1, container, pod.Spec.RestartPolicy, BasisDeletion
		return
	}
	full(d, pod, container, opts)
}

// shouldRestart is ShouldRestart for a pod that is nil or not being deleted,
// written into d, a zero Decision.
func shouldRestart(d *Decision, pod *corev1.Pod, container string, opts Options) {
	if pod == nil {
		d.RuleIndex, d.Container, d.Basis = -1, container, BasisNoPod
		return
	}
	// One statement: the two strings are written under one check of the write
	// barrier.
	d.RuleIndex, d.Container, d.PodPolicy = -1, container, pod.Spec.RestartPolicy
	// The container, then the first status of that name in its kind's list, read in
	// place. The loops are written out here, in one frame: a name of another length
	// costs a load, a comparison and the loop's step; one of the same length, a
	// comparison of its last two bytes (nameKey) before the rest. A list of skipFrom
	// names or more is first passed over sixteen, eight, then four names a step
	// (skipContainers, skipStatuses) up to the first name of the right length and
	// last two bytes.
	n := len(container)
	key := newNameKey(container)
	var c *corev1.Container
	var statuses []corev1.ContainerStatus
	cs := pod.Spec.Containers
	if len(cs) >= skipFrom && n >= 2 {
		cs = cs[skipContainers(cs, n, key.tail):]
	}
	for i := range cs {
		name := cs[i].Name
		if len(name) != n {
			continue
		}
		if n >= 2 && le16(name, n-2) != key.tail {
			continue
		}
		if !key.rest(name) {
			continue
		}
		c, statuses = &cs[i], pod.Status.ContainerStatuses
		break
	}
	if c == nil {
		cs = pod.Spec.InitContainers
		if len(cs) >= skipFrom && n >= 2 {
			cs = cs[skipContainers(cs, n, key.tail):]
		}
		for i := range cs {
			name := cs[i].Name
			if len(name) != n {
				continue
			}
			if n >= 2 && le16(name, n-2) != key.tail {
				continue
			}
			if !key.rest(name) {
				continue
			}
			c, statuses = &cs[i], pod.Status.InitContainerStatuses
			break
		}
	}
	if c == nil {
		es := pod.Spec.EphemeralContainers
		for i := range es {
			name := es[i].Name
			if len(name) != n {
				continue
			}
			if n >= 2 && le16(name, n-2) != key.tail {
				continue
			}
			if !key.rest(name) {
				continue
			}
			// The kubelet converts ephemeral containers the same way: the common part
			// has the Container's layout.
			c, statuses = (*corev1.Container)(&es[i].EphemeralContainerCommon), pod.Status.EphemeralContainerStatuses
			break
		}
		if c == nil {
			d.Basis = BasisContainerNotFound
			return
		}
	}
	if len(statuses) >= skipFrom && n >= 2 {
		statuses = statuses[skipStatuses(statuses, n, key.tail):]
	}
	var t *corev1.ContainerStateTerminated
	for i := range statuses {
		name := statuses[i].Name
		if len(name) != n {
			continue
		}
		if n >= 2 && le16(name, n-2) != key.tail {
			continue
		}
		if !key.rest(name) {
			continue
		}
		st := &statuses[i]
		switch {
		case st.State.Running != nil:
			d.State, d.Basis = StateRunning, BasisRunning
			return
		case st.State.Terminated != nil:
			t = st.State.Terminated
		default:
			t = st.LastTerminationState.Terminated
		}
		break // only the first status of that name is read
	}
	if t == nil {
		d.Basis, d.Restart = BasisNoInstance, true
		return
	}
	// The newest instance exited: the policies decide, with the two gates they read
	// resolved only now.
	exitCode := t.ExitCode
	d.State, d.ExitCode = StateExited, exitCode
	g := gates.Defaults()
	rulesOn, allOn := g.ContainerRestartRules, g.RestartAllContainersOnContainerExits
	if len(opts.Features) != 0 {
		rulesOn, allOn = resolveExitGates(opts.Features)
	}
	switch {
	case !rulesOn:
		d.Basis = BasisPodPolicyRulesOff
	case c.RestartPolicy == nil:
		d.Basis = BasisPodPolicy
	default:
		d.ContainerPolicy = *c.RestartPolicy
		d.Basis, d.Restart, d.RestartAllContainers, d.Rule, d.RuleIndex = containerPolicy(c, exitCode, allOn, d.PodPolicy)
		return
	}
	d.Restart = podPolicyRestarts(d.PodPolicy, exitCode)
}

// skipFrom is the length from which ShouldRestart's scans first skip, sixteen,
// eight or four names a step, the leading names that certainly differ
// (skipContainers, skipStatuses): on shorter lists the call would cost more than
// it saves.
const skipFrom = 8

// skipContainers returns the number of leading containers of cs that certainly do
// not have the name looked for, of length n (at least 2) and last two bytes tail:
// the index of the first container whose name has that length and those bytes, or,
// when none has, the length of cs rounded down to a multiple of four (the scan by
// name looks at the rest). It looks at sixteen names a step, then eight, then
// four: a name of another length costs one comparison with its length in memory,
// one of the same length a load of its last two bytes.
func skipContainers(cs []corev1.Container, n int, tail uint16) int {
	if n < 2 {
		return 0
	}
	// Blocks of sixteen, then one of eight and one of four, each viewed as an array
	// (one length check a block, none for its names); the slice is advanced, not indexed, which
	// costs fewer checks a block.
	all := len(cs)
	for len(cs) >= 16 {
		b := (*[16]corev1.Container)(cs)
		switch {
		case near(b[0].Name, n, tail):
			return all - len(cs)
		case near(b[1].Name, n, tail):
			return all - len(cs) + 1
		case near(b[2].Name, n, tail):
			return all - len(cs) + 2
		case near(b[3].Name, n, tail):
			return all - len(cs) + 3
		case near(b[4].Name, n, tail):
			return all - len(cs) + 4
		case near(b[5].Name, n, tail):
			return all - len(cs) + 5
		case near(b[6].Name, n, tail):
			return all - len(cs) + 6
		case near(b[7].Name, n, tail):
			return all - len(cs) + 7
		case near(b[8].Name, n, tail):
			return all - len(cs) + 8
		case near(b[9].Name, n, tail):
			return all - len(cs) + 9
		case near(b[10].Name, n, tail):
			return all - len(cs) + 10
		case near(b[11].Name, n, tail):
			return all - len(cs) + 11
		case near(b[12].Name, n, tail):
			return all - len(cs) + 12
		case near(b[13].Name, n, tail):
			return all - len(cs) + 13
		case near(b[14].Name, n, tail):
			return all - len(cs) + 14
		case near(b[15].Name, n, tail):
			return all - len(cs) + 15
		}
		cs = cs[16:]
	}
	if len(cs) >= 8 {
		b := (*[8]corev1.Container)(cs)
		switch {
		case near(b[0].Name, n, tail):
			return all - len(cs)
		case near(b[1].Name, n, tail):
			return all - len(cs) + 1
		case near(b[2].Name, n, tail):
			return all - len(cs) + 2
		case near(b[3].Name, n, tail):
			return all - len(cs) + 3
		case near(b[4].Name, n, tail):
			return all - len(cs) + 4
		case near(b[5].Name, n, tail):
			return all - len(cs) + 5
		case near(b[6].Name, n, tail):
			return all - len(cs) + 6
		case near(b[7].Name, n, tail):
			return all - len(cs) + 7
		}
		cs = cs[8:]
	}
	if len(cs) >= 4 {
		b := (*[4]corev1.Container)(cs)
		switch {
		case near(b[0].Name, n, tail):
			return all - len(cs)
		case near(b[1].Name, n, tail):
			return all - len(cs) + 1
		case near(b[2].Name, n, tail):
			return all - len(cs) + 2
		case near(b[3].Name, n, tail):
			return all - len(cs) + 3
		}
		return all - len(cs) + 4
	}
	return all - len(cs)
}

// skipStatuses is skipContainers for container statuses.
func skipStatuses(ss []corev1.ContainerStatus, n int, tail uint16) int {
	if n < 2 {
		return 0
	}
	all := len(ss)
	for len(ss) >= 16 {
		b := (*[16]corev1.ContainerStatus)(ss)
		switch {
		case near(b[0].Name, n, tail):
			return all - len(ss)
		case near(b[1].Name, n, tail):
			return all - len(ss) + 1
		case near(b[2].Name, n, tail):
			return all - len(ss) + 2
		case near(b[3].Name, n, tail):
			return all - len(ss) + 3
		case near(b[4].Name, n, tail):
			return all - len(ss) + 4
		case near(b[5].Name, n, tail):
			return all - len(ss) + 5
		case near(b[6].Name, n, tail):
			return all - len(ss) + 6
		case near(b[7].Name, n, tail):
			return all - len(ss) + 7
		case near(b[8].Name, n, tail):
			return all - len(ss) + 8
		case near(b[9].Name, n, tail):
			return all - len(ss) + 9
		case near(b[10].Name, n, tail):
			return all - len(ss) + 10
		case near(b[11].Name, n, tail):
			return all - len(ss) + 11
		case near(b[12].Name, n, tail):
			return all - len(ss) + 12
		case near(b[13].Name, n, tail):
			return all - len(ss) + 13
		case near(b[14].Name, n, tail):
			return all - len(ss) + 14
		case near(b[15].Name, n, tail):
			return all - len(ss) + 15
		}
		ss = ss[16:]
	}
	if len(ss) >= 8 {
		b := (*[8]corev1.ContainerStatus)(ss)
		switch {
		case near(b[0].Name, n, tail):
			return all - len(ss)
		case near(b[1].Name, n, tail):
			return all - len(ss) + 1
		case near(b[2].Name, n, tail):
			return all - len(ss) + 2
		case near(b[3].Name, n, tail):
			return all - len(ss) + 3
		case near(b[4].Name, n, tail):
			return all - len(ss) + 4
		case near(b[5].Name, n, tail):
			return all - len(ss) + 5
		case near(b[6].Name, n, tail):
			return all - len(ss) + 6
		case near(b[7].Name, n, tail):
			return all - len(ss) + 7
		}
		ss = ss[8:]
	}
	if len(ss) >= 4 {
		b := (*[4]corev1.ContainerStatus)(ss)
		switch {
		case near(b[0].Name, n, tail):
			return all - len(ss)
		case near(b[1].Name, n, tail):
			return all - len(ss) + 1
		case near(b[2].Name, n, tail):
			return all - len(ss) + 2
		case near(b[3].Name, n, tail):
			return all - len(ss) + 3
		}
		return all - len(ss) + 4
	}
	return all - len(ss)
}

// near reports whether name has length n, at least 2, and tail as its last two
// bytes.
func near(name string, n int, tail uint16) bool {
	// The bytes are indexed from n, not len(name): the length is then read only by
	// the comparison, which the compiler folds into one instruction with its load.
	return len(name) == n && le16(name, n-2) == tail
}

// nameKey is a name to compare many names of its length with: a name of another
// length is rejected by one comparison, most others by its last two bytes, held by
// the key as one number, before the runtime's memequal is called. The last bytes
// are read, not the first: names of one pod often share a prefix ("app-12",
// "app-22") rather than a suffix.
type nameKey struct {
	s    string
	tail uint16
}

func newNameKey(s string) nameKey {
	k := nameKey{s: s}
	if n := len(s); n >= 2 {
		k.tail = le16(s, n-2)
	}
	return k
}

// rest reports whether name, of k's length and, from two bytes on, with k's last
// two bytes, is k's name.
func (k nameKey) rest(name string) bool {
	if n := len(name); n <= 2 {
		// Two bytes are the last two; none is the empty name.
		return n != 1 || name[0] == k.s[0]
	}
	return name == k.s
}

// le16 reads s[i] and s[i+1] as a little-endian number, in one load where the
// machine allows it.
func le16(s string, i int) uint16 {
	_ = s[i+1]
	return uint16(s[i]) | uint16(s[i+1])<<8
}

// ShouldRestartInstance is [ShouldRestart] for a caller that holds the container
// and its newest runtime instance (from any sandbox) itself, for example from a
// [View] with created or unknown instances. A nil newest means the container has no
// instance; its state is read through [State.Kubelet]. A nil pod or container gives
// Restart false.
func ShouldRestartInstance(pod *corev1.Pod, c *corev1.Container, newest *Instance, opts Options) (d Decision) {
	d.RuleIndex = -1
	if pod == nil {
		d.Basis = BasisNoPod
		return d
	}
	d.PodPolicy = pod.Spec.RestartPolicy
	if c == nil {
		d.Basis = BasisContainerNotFound
		return d
	}
	d.Container = c.Name
	state, exitCode := StateNone, int32(0)
	if newest != nil {
		state, exitCode = newest.State.Kubelet(), newest.ExitCode
	}
	decide(&d, pod, c, state, exitCode, opts)
	return d
}

// decide is ShouldContainerBeRestarted given the newest instance's state
// (StateNone: no instance) and exit code. d has RuleIndex, Container and PodPolicy set.
func decide(d *Decision, pod *corev1.Pod, c *corev1.Container, state State, exitCode int32, opts Options) {
	if pod.DeletionTimestamp != nil {
		d.Basis = BasisDeletion // no instance is read
		return
	}
	d.State = state
	switch {
	case state == StateNone:
		d.Basis, d.Restart = BasisNoInstance, true
		return
	case state == StateRunning:
		d.Basis = BasisRunning
		return
	case state == StateUnknown || state == StateCreated:
		d.Basis, d.Restart = BasisCreatedOrUnknown, true
		return
	}
	decideExit(d, pod, c, exitCode, opts)
}

// decideExit is the decision for a container whose newest instance exited with
// exitCode. d has RuleIndex, Container and PodPolicy set.
func decideExit(d *Decision, pod *corev1.Pod, c *corev1.Container, exitCode int32, opts Options) {
	d.State, d.ExitCode = StateExited, exitCode
	rulesOn, allOn := opts.exitGates()
	if !rulesOn {
		d.Basis = BasisPodPolicyRulesOff
		d.Restart = podPolicyRestarts(pod.Spec.RestartPolicy, exitCode)
		return
	}
	decideExited(d, c, exitCode, allOn)
}

// decideExited is ContainerShouldRestart with its reasons; allOn is the
// RestartAllContainersOnContainerExits gate. d has PodPolicy set.
func decideExited(d *Decision, c *corev1.Container, exitCode int32, allOn bool) {
	d.State, d.ExitCode = StateExited, exitCode
	if c != nil && c.RestartPolicy != nil {
		decideContainerPolicy(d, c, exitCode, allOn)
		return
	}
	d.Basis = BasisPodPolicy
	d.Restart = podPolicyRestarts(d.PodPolicy, exitCode)
}

// decideContainerPolicy is ContainerShouldRestart for a container with its own
// restartPolicy, written into d. d has PodPolicy set.
func decideContainerPolicy(d *Decision, c *corev1.Container, exitCode int32, allOn bool) {
	d.ContainerPolicy = *c.RestartPolicy
	d.Basis, d.Restart, d.RestartAllContainers, d.Rule, d.RuleIndex = containerPolicy(c, exitCode, allOn, d.PodPolicy)
}

// containerPolicy is ContainerShouldRestart for a container with its own
// restartPolicy: the first matching rule (Restart, or RestartAllContainers when allOn),
// then that policy, then, for an unrecognised one, the pod's. It returns the
// decision's fields in registers: written through a pointer, they would cost write
// barriers.
func containerPolicy(c *corev1.Container, exitCode int32, allOn bool, podPolicy corev1.RestartPolicy) (basis Basis, restart, all bool, rule *corev1.ContainerRestartRule, index int) {
	index = -1
	for i := range c.RestartPolicyRules {
		r := &c.RestartPolicyRules[i]
		if r.ExitCodes == nil || !ruleMatches(r.ExitCodes, exitCode) {
			continue
		}
		rule, index = r, i
		switch r.Action {
		case corev1.ContainerRestartRuleActionRestart:
			return BasisRule, true, false, rule, index
		case corev1.ContainerRestartRuleActionRestartAllContainers:
			if allOn {
				return BasisRule, true, true, rule, index
			}
		}
		break
	}
	switch *c.RestartPolicy {
	case corev1.ContainerRestartPolicyAlways:
		return BasisContainerPolicy, true, false, rule, index
	case corev1.ContainerRestartPolicyOnFailure:
		return BasisContainerPolicy, exitCode != 0, false, rule, index
	case corev1.ContainerRestartPolicyNever:
		return BasisContainerPolicy, false, false, rule, index
	}
	return BasisPodPolicy, podPolicyRestarts(podPolicy, exitCode), false, rule, index
}

// podPolicyRestarts is the pod-level policy; an empty or unknown value is Always.
func podPolicyRestarts(p corev1.RestartPolicy, exitCode int32) bool {
	switch p {
	case corev1.RestartPolicyNever:
		return false
	case corev1.RestartPolicyOnFailure:
		return exitCode != 0
	}
	return true
}

// Explain renders the decision as one stable line of text, for example
// "exit code 42 matched rule 1 (In [42]) → Restart". Only the Explain call allocates.
// (It is not named Reason: in Kubernetes a reason is a CamelCase token such as
// CrashLoopBackOff; [Decision.Basis] is the token here.)
func (d Decision) Explain() string {
	var b strings.Builder
	switch d.Basis {
	case BasisNoPod:
		b.WriteString("no pod")
	case BasisContainerNotFound:
		b.WriteString("container ")
		b.WriteString(strconv.Quote(d.Container))
		b.WriteString(" is not in the pod spec")
	case BasisDeletion:
		b.WriteString("pod is being deleted")
	case BasisNoInstance:
		b.WriteString("container has no instance yet")
	case BasisRunning:
		b.WriteString("container is running")
	case BasisCreatedOrUnknown:
		b.WriteString("container is in state ")
		b.WriteString(string(d.State))
	case BasisRule, BasisContainerPolicy, BasisPodPolicy, BasisPodPolicyRulesOff:
		b.WriteString("exit code ")
		b.WriteString(strconv.FormatInt(int64(d.ExitCode), 10))
		if d.Rule != nil {
			b.WriteString(" matched rule ")
			b.WriteString(strconv.Itoa(d.RuleIndex))
			b.WriteString(" (")
			writeRule(&b, d.Rule)
			b.WriteString(")")
			if d.Basis != BasisRule {
				b.WriteString(" with action ")
				b.WriteString(string(d.Rule.Action))
				if d.Rule.Action == corev1.ContainerRestartRuleActionRestartAllContainers {
					b.WriteString(" but RestartAllContainersOnContainerExits is off")
				} else {
					b.WriteString(" which is not recognised")
				}
			}
		} else if d.Basis == BasisContainerPolicy || d.Basis == BasisPodPolicy && d.ContainerPolicy != "" {
			b.WriteString(" matched no rule")
		}
		switch d.Basis {
		case BasisContainerPolicy:
			b.WriteString("; container restartPolicy ")
			b.WriteString(string(d.ContainerPolicy))
		case BasisPodPolicy, BasisPodPolicyRulesOff:
			if d.Basis == BasisPodPolicy && d.ContainerPolicy != "" {
				b.WriteString("; container restartPolicy ")
				b.WriteString(strconv.Quote(string(d.ContainerPolicy)))
				b.WriteString(" is not recognised")
			}
			b.WriteString("; pod restartPolicy ")
			switch d.PodPolicy {
			case corev1.RestartPolicyAlways, corev1.RestartPolicyOnFailure, corev1.RestartPolicyNever:
				b.WriteString(string(d.PodPolicy))
			default:
				b.WriteString(strconv.Quote(string(d.PodPolicy)))
				b.WriteString(" (treated as Always)")
			}
			if d.Basis == BasisPodPolicyRulesOff {
				b.WriteString(" (ContainerRestartRules is off)")
			}
		}
	default:
		b.WriteString(d.Basis.String())
	}
	switch {
	case d.RestartAllContainers:
		b.WriteString(" → RestartAllContainers")
	case d.Restart:
		b.WriteString(" → Restart")
	default:
		b.WriteString(" → no restart")
	}
	return b.String()
}

// writeRule renders a rule's exit-code test as "In [1 2]" or "NotIn []".
func writeRule(b *strings.Builder, r *corev1.ContainerRestartRule) {
	if r.ExitCodes == nil {
		b.WriteString("no exitCodes")
		return
	}
	b.WriteString(string(r.ExitCodes.Operator))
	b.WriteString(" [")
	for i, v := range r.ExitCodes.Values {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.FormatInt(int64(v), 10))
	}
	b.WriteByte(']')
}

// String is [Decision.Explain].
func (d Decision) String() string { return d.Explain() }
