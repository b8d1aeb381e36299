package restart

import (
	"encoding/json"
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
// what led to it. Restart is the answer; the methods say why. A Decision is four
// words, returned in registers: a caller that reads only Restart pays about what a
// bool would cost it. It holds no copy and no allocation of its own: it
// keeps the container and the pod it was computed from, and [Decision.Rule],
// [Decision.RuleIndex], [Decision.ContainerPolicy], [Decision.PodPolicy] and
// [Decision.Container] read them when called, so neither may be changed while the
// Decision is in use. The human text is built only when [Decision.Explain] is
// called. The zero Decision is that of no pod (BasisNoPod, no restart).
type Decision struct {
	// Restart is the kubelet's answer (ShouldContainerBeRestarted).
	Restart bool
	// info holds the rest: the exit code in its low 32 bits, then the basis, the
	// state and two flags (infoBasisShift and after).
	info uint64
	// c is the container decided for, nil when none was looked up or found.
	c *corev1.Container
	// pod is the pod decided for, nil for no pod.
	pod *corev1.Pod
}

// The fields packed in Decision.info above the exit code.
const (
	infoBasisShift = 32 // 4 bits: the Basis
	infoStateShift = 36 // 3 bits: the State's index in decisionStates
	// infoRestartAll: the restart is carried out by restarting every container.
	infoRestartAll = 1 << 39
	// infoPolicies: the container's own restartPolicy and its rules were read.
	infoPolicies = 1 << 40
)

// The indices of the states a Decision reports, in info (infoStateShift).
const (
	stateIndexNone uint64 = iota
	stateIndexCreated
	stateIndexRunning
	stateIndexExited
	stateIndexUnknown
)

// decisionStates are the states a Decision reports, by their index in info; the
// last three entries are never packed.
var decisionStates = [8]State{StateNone, StateCreated, StateRunning, StateExited, StateUnknown}

// The info of the decisions that read no exit code, each one basis and state.
const (
	infoDeletion       = uint64(BasisDeletion) << infoBasisShift
	infoNotFound       = uint64(BasisContainerNotFound) << infoBasisShift
	infoNoInstance     = uint64(BasisNoInstance) << infoBasisShift
	infoRunning        = uint64(BasisRunning)<<infoBasisShift | stateIndexRunning<<infoStateShift
	infoCreated        = uint64(BasisCreatedOrUnknown)<<infoBasisShift | stateIndexCreated<<infoStateShift
	infoUnknownRuntime = uint64(BasisCreatedOrUnknown)<<infoBasisShift | stateIndexUnknown<<infoStateShift
)

// Basis is the step that decided.
func (d Decision) Basis() Basis { return Basis(d.info >> infoBasisShift & 0xf) }

// State is the state of the newest instance the decision read: StateNone when there
// is none, or when the pod is being deleted (the kubelet reads none then).
func (d Decision) State() State { return decisionStates[d.info>>infoStateShift&7] }

// ExitCode is the newest instance's exit code when State is StateExited, else 0.
func (d Decision) ExitCode() int32 { return int32(uint32(d.info)) }

// RestartAllContainers is true when the exit matched a rule whose action is
// RestartAllContainers and the RestartAllContainersOnContainerExits gate is on: the
// restart is carried out by restarting every init and regular container of the pod.
func (d Decision) RestartAllContainers() bool { return d.info&infoRestartAll != 0 }

// Container is the name of the container decided for: "" when none was looked up
// (no pod; [ShouldRestart] on a pod being deleted) or the pod spec has none of the
// name asked.
func (d Decision) Container() string {
	if d.c == nil {
		return ""
	}
	return d.c.Name
}

// ContainerPolicy is the container's own restartPolicy when it decided or was read
// (the newest instance exited, ContainerRestartRules is on and the container has
// one), else "".
func (d Decision) ContainerPolicy() corev1.ContainerRestartPolicy {
	if d.info&infoPolicies == 0 {
		return ""
	}
	return *d.c.RestartPolicy
}

// PodPolicy is the pod's restartPolicy as written ("" means Always), "" for no pod.
func (d Decision) PodPolicy() corev1.RestartPolicy {
	if d.pod == nil {
		return ""
	}
	return d.pod.Spec.RestartPolicy
}

// Rule is the restart rule that matched the exit code, nil when none was evaluated
// or none matched. It points into the pod spec. A matched RestartAllContainers rule
// is reported even when the gate is off and the container policy decided instead.
func (d Decision) Rule() *corev1.ContainerRestartRule {
	if i := d.RuleIndex(); i >= 0 {
		return &d.c.RestartPolicyRules[i]
	}
	return nil
}

// RuleIndex is [Decision.Rule]'s index in the container's restartPolicyRules, -1
// when Rule is nil.
func (d Decision) RuleIndex() int {
	if d.info&infoPolicies == 0 {
		return -1
	}
	return ruleIndex(d.c, d.ExitCode())
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
func ShouldRestart(pod *corev1.Pod, container string, opts Options) Decision {
	return unlessDeleted(pod, container, opts, shouldRestart)
}

// unlessDeleted is ShouldRestart's body, small enough for the compiler to inline
// into the caller's code: a pod being deleted, the kubelet's first test, is answered
// there, without a call, and any other pod (or none) by full. full is a parameter
// only so that the call costs the inliner's budget for a call of a parameter: with
// shouldRestart named here, the body would exceed the budget and every question
// would pay for a call of its own; once inlined, full is the known function
// shouldRestart, called through its function value.
func unlessDeleted(pod *corev1.Pod, container string, opts Options, full func(*corev1.Pod, string, Options) Decision) Decision {
	if pod != nil && pod.DeletionTimestamp != nil {
		// Nothing of a pod being deleted is restarted, and neither the container
		// nor its instances are looked at.
		return Decision{info: infoDeletion, pod: pod}
	}
	return full(pod, container, opts)
}

// shouldRestart is ShouldRestart for a pod that is nil or not being deleted.
func shouldRestart(pod *corev1.Pod, container string, opts Options) Decision {
	if pod == nil {
		return Decision{}
	}
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
			return Decision{info: infoNotFound, pod: pod}
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
			return Decision{info: infoRunning, c: c, pod: pod}
		case st.State.Terminated != nil:
			t = st.State.Terminated
		default:
			t = st.LastTerminationState.Terminated
		}
		break // only the first status of that name is read
	}
	if t == nil {
		return Decision{Restart: true, info: infoNoInstance, c: c, pod: pod}
	}
	// The newest instance exited: the policies decide, with the two gates they read
	// resolved only now.
	g := gates.Defaults()
	rulesOn, allOn := g.ContainerRestartRules, g.RestartAllContainersOnContainerExits
	if len(opts.Features) != 0 {
		rulesOn, allOn = resolveExitGates(opts.Features)
	}
	return decideExited(pod, c, t.ExitCode, rulesOn, allOn)
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
func ShouldRestartInstance(pod *corev1.Pod, c *corev1.Container, newest *Instance, opts Options) Decision {
	switch {
	case pod == nil:
		return Decision{}
	case c == nil:
		return Decision{info: infoNotFound, pod: pod}
	case pod.DeletionTimestamp != nil:
		// No instance is read.
		return Decision{info: infoDeletion, c: c, pod: pod}
	case newest == nil:
		return Decision{Restart: true, info: infoNoInstance, c: c, pod: pod}
	}
	switch newest.State.Kubelet() {
	case StateRunning:
		return Decision{info: infoRunning, c: c, pod: pod}
	case StateExited:
		rulesOn, allOn := opts.exitGates()
		return decideExited(pod, c, newest.ExitCode, rulesOn, allOn)
	case StateCreated:
		return Decision{Restart: true, info: infoCreated, c: c, pod: pod}
	default: // unknown
		return Decision{Restart: true, info: infoUnknownRuntime, c: c, pod: pod}
	}
}

// decideExited is the decision for container c of pod, whose newest instance exited
// with exitCode, under the ContainerRestartRules (rulesOn) and
// RestartAllContainersOnContainerExits (allOn) gates.
func decideExited(pod *corev1.Pod, c *corev1.Container, exitCode int32, rulesOn, allOn bool) Decision {
	d := Decision{c: c, pod: pod}
	basis, flags := BasisPodPolicyRulesOff, uint64(0)
	switch {
	case !rulesOn:
		d.Restart = podPolicyRestarts(pod.Spec.RestartPolicy, exitCode)
	case c.RestartPolicy == nil:
		basis, d.Restart = BasisPodPolicy, podPolicyRestarts(pod.Spec.RestartPolicy, exitCode)
	default:
		var all bool
		basis, d.Restart, all = containerPolicy(c, exitCode, allOn, pod.Spec.RestartPolicy)
		flags = infoPolicies
		if all {
			flags |= infoRestartAll
		}
	}
	d.info = uint64(basis)<<infoBasisShift | stateIndexExited<<infoStateShift | flags | uint64(uint32(exitCode))
	return d
}

// containerPolicy is ContainerShouldRestart for a container with its own
// restartPolicy: the first matching rule (Restart, or RestartAllContainers when allOn),
// then that policy, then, for an unrecognised one, the pod's.
func containerPolicy(c *corev1.Container, exitCode int32, allOn bool, podPolicy corev1.RestartPolicy) (basis Basis, restart, all bool) {
	if i := ruleIndex(c, exitCode); i >= 0 {
		switch c.RestartPolicyRules[i].Action {
		case corev1.ContainerRestartRuleActionRestart:
			return BasisRule, true, false
		case corev1.ContainerRestartRuleActionRestartAllContainers:
			if allOn {
				return BasisRule, true, true
			}
		}
	}
	switch *c.RestartPolicy {
	case corev1.ContainerRestartPolicyAlways:
		return BasisContainerPolicy, true, false
	case corev1.ContainerRestartPolicyOnFailure:
		return BasisContainerPolicy, exitCode != 0, false
	case corev1.ContainerRestartPolicyNever:
		return BasisContainerPolicy, false, false
	}
	return BasisPodPolicy, podPolicyRestarts(podPolicy, exitCode), false
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
	basis, containerPolicy := d.Basis(), d.ContainerPolicy()
	switch basis {
	case BasisNoPod:
		b.WriteString("no pod")
	case BasisContainerNotFound:
		b.WriteString("container is not in the pod spec")
	case BasisDeletion:
		b.WriteString("pod is being deleted")
	case BasisNoInstance:
		b.WriteString("container has no instance yet")
	case BasisRunning:
		b.WriteString("container is running")
	case BasisCreatedOrUnknown:
		b.WriteString("container is in state ")
		b.WriteString(string(d.State()))
	case BasisRule, BasisContainerPolicy, BasisPodPolicy, BasisPodPolicyRulesOff:
		b.WriteString("exit code ")
		b.WriteString(strconv.FormatInt(int64(d.ExitCode()), 10))
		if i := d.RuleIndex(); i >= 0 {
			rule := &d.c.RestartPolicyRules[i]
			b.WriteString(" matched rule ")
			b.WriteString(strconv.Itoa(i))
			b.WriteString(" (")
			writeRule(&b, rule)
			b.WriteString(")")
			if basis != BasisRule {
				b.WriteString(" with action ")
				b.WriteString(string(rule.Action))
				if rule.Action == corev1.ContainerRestartRuleActionRestartAllContainers {
					b.WriteString(" but RestartAllContainersOnContainerExits is off")
				} else {
					b.WriteString(" which is not recognised")
				}
			}
		} else if basis == BasisContainerPolicy || basis == BasisPodPolicy && containerPolicy != "" {
			b.WriteString(" matched no rule")
		}
		switch basis {
		case BasisContainerPolicy:
			b.WriteString("; container restartPolicy ")
			b.WriteString(string(containerPolicy))
		case BasisPodPolicy, BasisPodPolicyRulesOff:
			if basis == BasisPodPolicy && containerPolicy != "" {
				b.WriteString("; container restartPolicy ")
				b.WriteString(strconv.Quote(string(containerPolicy)))
				b.WriteString(" is not recognised")
			}
			b.WriteString("; pod restartPolicy ")
			switch podPolicy := d.PodPolicy(); podPolicy {
			case corev1.RestartPolicyAlways, corev1.RestartPolicyOnFailure, corev1.RestartPolicyNever:
				b.WriteString(string(podPolicy))
			default:
				b.WriteString(strconv.Quote(string(podPolicy)))
				b.WriteString(" (treated as Always)")
			}
			if basis == BasisPodPolicyRulesOff {
				b.WriteString(" (ContainerRestartRules is off)")
			}
		}
	default:
		b.WriteString(basis.String())
	}
	switch {
	case d.RestartAllContainers():
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

// MarshalJSON encodes every answer of the decision as one object: Restart,
// RestartAllContainers, Rule, RuleIndex, Basis (by name, for example "Rule"),
// Container, State, ExitCode, ContainerPolicy and PodPolicy, as the methods give
// them.
func (d Decision) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Restart              bool
		RestartAllContainers bool
		Rule                 *corev1.ContainerRestartRule
		RuleIndex            int
		Basis                string
		Container            string
		State                State
		ExitCode             int32
		ContainerPolicy      corev1.ContainerRestartPolicy
		PodPolicy            corev1.RestartPolicy
	}{
		d.Restart, d.RestartAllContainers(), d.Rule(), d.RuleIndex(), d.Basis().String(), d.Container(),
		d.State(), d.ExitCode(), d.ContainerPolicy(), d.PodPolicy(),
	})
}

// String is [Decision.Explain].
func (d Decision) String() string { return d.Explain() }
