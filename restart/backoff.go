package restart

import (
	"fmt"
	"hash/fnv"
	"io"
	"sort"
	"strconv"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/podlife/podlife/internal/podutil"
)

// The kubelet's back-off constants (k8s.io/kubernetes pkg/kubelet/kubelet.go and
// pkg/kubelet/apis/config/v1beta1/defaults.go).
const (
	// DefaultInitialCrashLoopBackOff is the first crash-loop delay.
	DefaultInitialCrashLoopBackOff = 10 * time.Second
	// DefaultMaxCrashLoopBackOff is the longest crash-loop delay, and the default of
	// crashLoopBackOff.maxContainerRestartPeriod.
	DefaultMaxCrashLoopBackOff = 300 * time.Second
	// ReducedInitialCrashLoopBackOff is the first delay with ReduceDefaultCrashLoopBackOffDecay.
	ReducedInitialCrashLoopBackOff = 1 * time.Second
	// ReducedMaxCrashLoopBackOff is the longest delay with ReduceDefaultCrashLoopBackOffDecay
	// when KubeletCrashLoopBackOffMax is off.
	ReducedMaxCrashLoopBackOff = 60 * time.Second
	// CrashLoopBackOffReset is how long after the last restart a crash no longer
	// escalates the delay: the kubelet's HasExpiredFunc, strictly greater than 600s.
	CrashLoopBackOffReset = 600 * time.Second
	// MinContainerRestartPeriod and MaxContainerRestartPeriod bound the kubelet
	// configuration field crashLoopBackOff.maxContainerRestartPeriod.
	MinContainerRestartPeriod = 1 * time.Second
	MaxContainerRestartPeriod = 300 * time.Second
	// DefaultInitialImagePullBackOff and DefaultMaxImagePullBackOff are the image-pull
	// back-off's delays.
	DefaultInitialImagePullBackOff = 10 * time.Second
	DefaultMaxImagePullBackOff     = 300 * time.Second
)

// The reasons and event reasons of back-offs, as the kubelet spells them.
const (
	// ReasonCrashLoopBackOff is the waiting reason of a container held back by the
	// crash-loop back-off (kubecontainer.ErrCrashLoopBackOff).
	ReasonCrashLoopBackOff = "CrashLoopBackOff"
	// ReasonImagePullBackOff is the waiting reason of a container whose image pull is
	// held back.
	ReasonImagePullBackOff = "ImagePullBackOff"
	// ReasonErrImagePull is the waiting reason after a failed image pull.
	ReasonErrImagePull = "ErrImagePull"
	// ReasonRegistryUnavailable and ReasonSignatureValidationFailed replace
	// ErrImagePull when the runtime's error starts with them.
	ReasonRegistryUnavailable       = "RegistryUnavailable"
	ReasonSignatureValidationFailed = "SignatureValidationFailed"
	// EventReasonBackOff is the event reason of both back-offs (a Warning event for
	// the crash loop, a Normal one for the image pull).
	EventReasonBackOff = "BackOff"
)

// Validate reports the error the kubelet gives at start-up for opts'
// MaxContainerRestartPeriod: with KubeletCrashLoopBackOffMax on, a set value must lie
// in 1s–300s; with the gate off, it must not be set.
func (o Options) Validate() error {
	p := o.MaxContainerRestartPeriod
	if p == 0 {
		return nil
	}
	if !o.Features.Resolve().KubeletCrashLoopBackOffMax {
		return errorString("invalid configuration: FeatureGate KubeletCrashLoopBackOffMax not enabled, CrashLoopBackOff.MaxContainerRestartPeriod must not be set")
	}
	// Upstream compares whole milliseconds.
	if ms := p.Milliseconds(); ms < MinContainerRestartPeriod.Milliseconds() || ms > MaxContainerRestartPeriod.Milliseconds() {
		return errorString("invalid configuration: CrashLoopBackOff.MaxContainerRestartPeriod (got: " + strconv.FormatFloat(p.Seconds(), 'g', -1, 64) + " seconds) must be set between 1s and 300s")
	}
	return nil
}

type errorString string

func (e errorString) Error() string { return string(e) }

// BackOffPolicy is an exponential back-off as client-go's flowcontrol.BackOff runs it without
// jitter: the first failure waits Initial, each further one doubles the wait up to
// Max, and a failure more than ResetAfter after the last update starts again at
// Initial.
type BackOffPolicy struct {
	// Initial is the first delay. Like upstream it is not capped by Max.
	Initial time.Duration
	// Max caps the doubled delays.
	Max time.Duration
	// ResetAfter is the idle time after which an entry has expired: an event more
	// than ResetAfter (strictly) after the entry's last update resets it, and GC drops
	// it. Zero means client-go's default, 2×Max.
	ResetAfter time.Duration
}

// CrashLoopBackOffPolicy returns the kubelet's crash-loop back-off under opts
// (newCrashLoopBackOff): 10s doubling to 300s; 1s to 60s with
// ReduceDefaultCrashLoopBackOffDecay; with KubeletCrashLoopBackOffMax (on by default)
// the maximum is MaxContainerRestartPeriod (300s when unset) and the initial delay is
// lowered to it when larger. Entries reset after 600s.
func CrashLoopBackOffPolicy(opts Options) BackOffPolicy {
	p := BackOffPolicy{Initial: DefaultInitialCrashLoopBackOff, Max: DefaultMaxCrashLoopBackOff, ResetAfter: CrashLoopBackOffReset}
	g := opts.Features.Resolve()
	if g.ReduceDefaultCrashLoopBackOffDecay {
		p.Initial, p.Max = ReducedInitialCrashLoopBackOff, ReducedMaxCrashLoopBackOff
	}
	if g.KubeletCrashLoopBackOffMax {
		p.Max = opts.MaxContainerRestartPeriod
		if p.Max == 0 {
			p.Max = DefaultMaxCrashLoopBackOff
		}
		if p.Max < p.Initial {
			p.Initial = p.Max
		}
	}
	return p
}

// ImagePullPolicy returns the kubelet's image-pull back-off: 10s doubling to 300s,
// entries expiring after 600s (client-go's default of 2×Max).
func ImagePullBackOffPolicy() BackOffPolicy {
	return BackOffPolicy{Initial: DefaultInitialImagePullBackOff, Max: DefaultMaxImagePullBackOff}
}

func (p BackOffPolicy) resetAfter() time.Duration {
	if p.ResetAfter != 0 {
		return p.ResetAfter
	}
	return 2 * p.Max
}

// BackOff is the back-off state of one key (one entry of flowcontrol.BackOff). The
// zero value is "no entry".
type BackOff struct {
	// Exists is false for a key that has no entry (never failed, reset or
	// garbage-collected).
	Exists bool
	// Delay is the current delay (flowcontrol's Get).
	Delay time.Duration
	// LastUpdate is when Next last ran for the key.
	LastUpdate time.Time
}

// Expired reports whether an event at eventTime finds b expired: more than
// ResetAfter after its last update. A missing entry is not expired.
func (p BackOffPolicy) Expired(b BackOff, eventTime time.Time) bool {
	return b.Exists && eventTime.Sub(b.LastUpdate) > p.resetAfter()
}

// Next returns the state after a failure at eventTime recorded at now
// (flowcontrol's Next): a missing or expired entry restarts at Initial, otherwise the
// delay doubles up to Max. LastUpdate becomes now.
func (p BackOffPolicy) Next(b BackOff, eventTime, now time.Time) BackOff {
	if !b.Exists || p.Expired(b, eventTime) {
		return BackOff{Exists: true, Delay: p.Initial, LastUpdate: now}
	}
	return BackOff{Exists: true, Delay: min(b.Delay*2, p.Max), LastUpdate: now}
}

// InBackOffSince reports whether, at now, an event at eventTime is still inside the
// delay (flowcontrol's IsInBackOffSince): the entry exists, has not expired at
// eventTime, and now − eventTime < Delay.
func (p BackOffPolicy) InBackOffSince(b BackOff, eventTime, now time.Time) bool {
	if !b.Exists || p.Expired(b, eventTime) {
		return false
	}
	return now.Sub(eventTime) < b.Delay
}

// InBackOffSinceUpdate reports whether eventTime falls inside the delay counted
// from the last update (flowcontrol's IsInBackOffSinceUpdate, which the image
// manager uses with eventTime = now).
func (p BackOffPolicy) InBackOffSinceUpdate(b BackOff, eventTime time.Time) bool {
	if !b.Exists || p.Expired(b, eventTime) {
		return false
	}
	return eventTime.Sub(b.LastUpdate) < b.Delay
}

// GC returns b, or no entry when b has expired at now (flowcontrol's GC, which the
// kubelet's housekeeping runs about every 2s).
func (p BackOffPolicy) GC(b BackOff, now time.Time) BackOff {
	if p.Expired(b, now) {
		return BackOff{}
	}
	return b
}

// StartCheck is the outcome of the kubelet's crash-loop check before it starts a
// container (doBackOff).
type StartCheck struct {
	// Allowed is true when the start goes ahead.
	Allowed bool
	// BackOff is the container's back-off state after the check: unchanged when the
	// start is held back or when there is no exited instance; advanced by Next
	// otherwise.
	BackOff BackOff
	// Delay is the delay being waited when the start is held back: the "20s" of
	// "back-off 20s restarting failed container=…".
	Delay time.Duration
	// RetryAt is when the hold ends, the last exit's finish time plus Delay (the
	// BackoffError's backoff time); zero when Allowed.
	RetryAt time.Time
}

// CheckStart runs the kubelet's crash-loop check for a container about to be
// started at now, given its back-off state and the finish time of its newest exited
// instance (from any sandbox); hasExited is false when there is none, and the start
// is then immediate and leaves the state alone (the very first start, and every start
// after a restart-all cleanup). Otherwise the start is held back while now − finishedAt
// < Delay; when allowed, the state advances with Next(finishedAt, now).
func (p BackOffPolicy) CheckStart(b BackOff, finishedAt time.Time, hasExited bool, now time.Time) StartCheck {
	if !hasExited {
		return StartCheck{Allowed: true, BackOff: b}
	}
	if p.InBackOffSince(b, finishedAt, now) {
		return StartCheck{BackOff: b, Delay: b.Delay, RetryAt: finishedAt.Add(b.Delay)}
	}
	return StartCheck{Allowed: true, BackOff: p.Next(b, finishedAt, now)}
}

// RestartAllowedAt returns the earliest time at or after finishedAt at which
// CheckStart allows a start for a container whose newest exit finished at
// finishedAt: finishedAt itself when it is not in back-off then, else
// finishedAt + Delay.
func (p BackOffPolicy) RestartAllowedAt(b BackOff, finishedAt time.Time) time.Time {
	if p.InBackOffSince(b, finishedAt, finishedAt) {
		return finishedAt.Add(b.Delay)
	}
	return finishedAt
}

// AfterExit returns, for a container whose newest exit finished at finishedAt and
// which the kubelet starts again as soon as the back-off allows, when that start
// happens ([BackOffPolicy.RestartAllowedAt]) and the state after it: the next state after a
// failure that finished at finishedAt.
func (p BackOffPolicy) AfterExit(b BackOff, finishedAt time.Time) (restartAt time.Time, next BackOff) {
	restartAt = p.RestartAllowedAt(b, finishedAt)
	return restartAt, p.Next(b, finishedAt, restartAt)
}

// Schedule returns the first n waits between an exit and the restart of a container
// that keeps failing soon after each start (within ResetAfter), when the kubelet
// restarts it as soon as allowed: 0, then Initial doubling up to Max. With the
// defaults: 0s 10s 20s 40s 1m20s 2m40s 5m0s 5m0s … A negative n gives nil.
func (p BackOffPolicy) Schedule(n int) []time.Duration {
	if n <= 0 {
		return nil
	}
	out := make([]time.Duration, n)
	var b BackOff
	for i := range out {
		if b.Exists {
			out[i] = b.Delay
		}
		// The restart happens when allowed; its Next call ran from the exit's time.
		b = p.Next(b, time.Time{}, time.Time{})
	}
	return out
}

// BackOffKey returns the kubelet's crash-loop back-off key for a container of pod
// (kuberuntime.GetBackoffKey): the lower-case hex FNV-1a 64 hash of pod name,
// namespace, UID, container name, image and the container's resources in their
// generated String form, joined with "/". Changing the image or the resources (an
// in-place resize) or getting a new pod UID therefore starts a fresh back-off; no
// other spec change does. A nil pod or container hashes as empty.
func BackOffKey(pod *corev1.Pod, c *corev1.Container) string {
	h := fnv.New64a()
	var name, ns, uid string
	if pod != nil {
		name, ns, uid = pod.Name, pod.Namespace, string(pod.UID)
	}
	res := &corev1.ResourceRequirements{}
	var cname, image string
	if c != nil {
		cname, image, res = c.Name, c.Image, &c.Resources
	}
	for _, s := range [...]string{name, ns, uid, cname, image} {
		h.Write([]byte(s))
		h.Write([]byte{'/'})
	}
	writeResourceRequirements(h, res)
	return strconv.FormatUint(h.Sum64(), 16)
}

// writeResourceRequirements writes to w exactly what r.String() returns (the
// generated String of k8s.io/api core/v1, which GetBackoffKey hashes), without
// building it: the generated code concatenates the list entries one by one, which
// costs time quadratic in the number of resources.
func writeResourceRequirements(w io.Writer, r *corev1.ResourceRequirements) {
	io.WriteString(w, "&ResourceRequirements{Limits:")
	writeResourceList(w, r.Limits)
	io.WriteString(w, ",Requests:")
	writeResourceList(w, r.Requests)
	io.WriteString(w, ",Claims:[]ResourceClaim{")
	for _, c := range r.Claims {
		// ResourceClaim.String() with its leading "&" removed.
		fmt.Fprintf(w, "ResourceClaim{Name:%v,Request:%v,},", c.Name, c.Request)
	}
	io.WriteString(w, "},}")
}

// writeResourceList writes a list as the generated String methods render a map: keys
// sorted, each entry printed with %v (a Quantity value, so fmt prints its fields).
func writeResourceList(w io.Writer, list corev1.ResourceList) {
	keys := make([]string, 0, len(list))
	for k := range list {
		keys = append(keys, string(k))
	}
	sort.Strings(keys)
	io.WriteString(w, "ResourceList{")
	for _, k := range keys {
		fmt.Fprintf(w, "%v: %v,", k, list[corev1.ResourceName(k)])
	}
	io.WriteString(w, "}")
}

// PodDesc renders a pod as the kubelet's messages do (format.Pod):
// "<name>_<namespace>(<uid>)", or "<nil>" for a nil pod.
func PodDesc(pod *corev1.Pod) string {
	if pod == nil {
		return "<nil>"
	}
	return pod.Name + "_" + pod.Namespace + "(" + string(pod.UID) + ")"
}

// CrashLoopMessage returns the waiting message of a container held back by the
// crash-loop back-off, for example
// "back-off 20s restarting failed container=app pod=web_default(uid)".
func CrashLoopMessage(delay time.Duration, container string, pod *corev1.Pod) string {
	return "back-off " + delay.String() + " restarting failed container=" + container + " pod=" + PodDesc(pod)
}

// CrashLoopEventMessage returns the message of the Warning event (reason BackOff)
// the kubelet records when it holds a start back, for example
// "Back-off restarting failed container app in pod web_default(uid)".
func CrashLoopEventMessage(container string, pod *corev1.Pod) string {
	return "Back-off restarting failed container " + container + " in pod " + PodDesc(pod)
}

// ImagePullBackOffKey returns the image-pull back-off key, "<podUID>_<image>": it is
// shared by every container of the pod that uses the same image.
func ImagePullBackOffKey(podUID, image string) string {
	return podUID + "_" + image
}

// ImagePullBackOffMessage returns the message of a pull held back by the image-pull
// back-off, `Back-off pulling image "<image>"`, followed by ": <prev>" when the last
// failed pull left one (see [ImagePullError]).
func ImagePullBackOffMessage(image, prev string) string {
	if podutil.PlainQuoted(image) {
		if prev != "" {
			return "Back-off pulling image \"" + image + "\": " + prev
		}
		return "Back-off pulling image \"" + image + "\""
	}
	msg := "Back-off pulling image " + strconv.Quote(image)
	if prev != "" {
		msg += ": " + prev
	}
	return msg
}

// ImagePullError maps the runtime's pull error text to the waiting reason and
// message the kubelet reports (evalCRIPullErr), and returns the text it remembers
// for the next back-off message ("<reason>: <message>").
func ImagePullError(image, criError string) (reason, message, prev string) {
	switch {
	case hasPrefix(criError, ReasonRegistryUnavailable):
		reason = ReasonRegistryUnavailable
		message = "image pull failed for " + image + " because the registry is unavailable" + criError[len(ReasonRegistryUnavailable):]
	case hasPrefix(criError, ReasonSignatureValidationFailed):
		reason = ReasonSignatureValidationFailed
		message = "image pull failed for " + image + " because the signature validation failed" + criError[len(ReasonSignatureValidationFailed):]
	default:
		reason, message = ReasonErrImagePull, criError
	}
	return reason, message, reason + ": " + message
}

func hasPrefix(s, p string) bool { return len(s) >= len(p) && s[:len(p)] == p }

// CrashLoopState is the crash-loop back-off of one container as the kubelet keeps
// it: the entry under the container's [BackOffKey].
type CrashLoopState struct {
	// Key is the BackOffKey the entry belongs to.
	Key string
	// BackOff is the entry.
	BackOff BackOff
}

// For returns the state that applies to container c of pod: s itself when its key is
// c's key, otherwise a fresh state under the new key. A changed image or resources
// (or a new pod UID) therefore starts the back-off over. The kubelet keeps the old
// entry until housekeeping drops it (600s after its last update), so changing back
// within that time resumes the old entry; a caller that needs that keeps a
// map[string]BackOff keyed by [BackOffKey] instead.
func (s CrashLoopState) For(pod *corev1.Pod, c *corev1.Container) CrashLoopState {
	key := BackOffKey(pod, c)
	if key == s.Key {
		return s
	}
	return CrashLoopState{Key: key}
}

// ImagePullState is the image-pull back-off of one key ([ImagePullBackOffKey]) with
// the error text the kubelet remembers from the last failed pull.
type ImagePullState struct {
	// BackOff is the entry, run with [ImagePullBackOffPolicy].
	BackOff BackOff
	// Prev is "<reason>: <message>" of the last failed pull, "" when there is none.
	Prev string
}

// BeforePull is the image manager's check before pulling image at now: when the
// pull is held back it returns held = true and the ImagePullBackOff message (with the
// last error appended); otherwise the pull goes ahead and the remembered error is
// dropped.
func (s ImagePullState) BeforePull(image string, now time.Time) (next ImagePullState, held bool, message string) {
	if ImagePullBackOffPolicy().InBackOffSinceUpdate(s.BackOff, now) {
		return s, true, ImagePullBackOffMessage(image, s.Prev)
	}
	s.Prev = ""
	return s, false, ""
}

// PullFailed returns the state after a pull of image that failed at now with the
// runtime error criError, and the waiting reason and message the container shows
// (ErrImagePull, RegistryUnavailable or SignatureValidationFailed).
func (s ImagePullState) PullFailed(image, criError string, now time.Time) (next ImagePullState, reason, message string) {
	reason, message, prev := ImagePullError(image, criError)
	return ImagePullState{BackOff: ImagePullBackOffPolicy().Next(s.BackOff, now, now), Prev: prev}, reason, message
}

// PullSucceeded returns the state after a successful pull at now: the entry is not
// reset, only garbage-collected when expired.
func (s ImagePullState) PullSucceeded(now time.Time) ImagePullState {
	s.BackOff = ImagePullBackOffPolicy().GC(s.BackOff, now)
	return s
}
