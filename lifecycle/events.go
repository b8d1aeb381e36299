package lifecycle

import (
	"sort"
	"strconv"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/podlife/podlife/internal/podutil"
)

// Event is one event the kubelet records about a pod, as its event recorder emits it
// (before the client-side correlation that [RecordEvents] applies).
type Event struct {
	// Time is when the kubelet recorded the event.
	Time time.Time
	// Type is corev1.EventTypeNormal or corev1.EventTypeWarning.
	Type string
	// Reason is the event's reason, for example "Pulling" or "BackOff".
	Reason string
	// Message is the event's message with upstream's wording, for example
	// `Pulling image "busybox:1.28"`.
	Message string
	// FieldPath is the involved object's fieldPath: "spec.containers{app}",
	// "spec.initContainers{init}" or "spec.ephemeralContainers{debug}" for a container
	// event (kubecontainer.GenerateContainerRef), empty for an event about the pod.
	FieldPath string
}

// The event reasons the kubelet records about a pod's containers, as in
// k8s.io/kubernetes pkg/kubelet/events/event.go, and the two pod-level ones the
// simulation produces.
const (
	EventReasonPulling           = "Pulling"
	EventReasonPulled            = "Pulled"
	EventReasonFailed            = "Failed" // failed pull, failed create or start
	EventReasonBackOff           = "BackOff"
	EventReasonErrImageNeverPull = "ErrImageNeverPull"
	EventReasonCreated           = "Created"
	EventReasonStarted           = "Started"
	EventReasonKilling           = "Killing"
	EventReasonUnhealthy         = "Unhealthy"
	EventReasonSandboxChanged    = "SandboxChanged"
	// EventReasonDeadlineExceeded is the Normal event of the active-deadline handler,
	// with message MessageDeadlineExceeded.
	EventReasonDeadlineExceeded = ReasonDeadlineExceeded
)

// Event messages, as the kubelet formats them (pkg/kubelet/kuberuntime
// kuberuntime_container.go and kuberuntime_manager.go, pkg/kubelet/images
// image_manager.go, pkg/kubelet/prober/prober.go).
const (
	MessageContainerCreated = "Container created"
	MessageContainerStarted = "Container started"
	MessageSandboxChanged   = "Pod sandbox changed, it will be killed and re-created."
	// MessageKillingForRestartAll is the Killing message of a container killed to restart
	// all containers in place.
	MessageKillingForRestartAll = "killing"
)

// MessagePulling is the Pulling event's message: `Pulling image "<image>"`.
func MessagePulling(image string) string {
	if podutil.PlainQuoted(image) {
		return "Pulling image \"" + image + "\""
	}
	return "Pulling image " + strconv.Quote(image)
}

// MessagePulled is the Pulled event's message after a successful pull of image that took
// d (rendered truncated to milliseconds, as the image manager does) and fetched size bytes.
func MessagePulled(image string, d time.Duration, size int64) string {
	t := d.Truncate(time.Millisecond).String()
	var n [20]byte
	sz := strconv.AppendInt(n[:0], size, 10)
	if podutil.PlainQuoted(image) {
		return "Successfully pulled image \"" + image + "\" in " + t + " (" + t + " including waiting). Image size: " + string(sz) + " bytes."
	}
	return "Successfully pulled image " + strconv.Quote(image) + " in " + t + " (" + t + " including waiting). Image size: " + string(sz) + " bytes."
}

// MessageImagePresent is the Pulled event's message when the image is already on the
// node. With the KubeletEnsureSecretPulledImages gate on (the default) the kubelet adds
// that the pod may use it ("... already present on machine and can be accessed by the
// pod"): the pod needs no credentials, or the node pulled it with the pod's.
func MessageImagePresent(image string, ensureSecretPulledImages bool) string {
	suffix := " already present on machine"
	if ensureSecretPulledImages {
		suffix = " already present on machine and can be accessed by the pod"
	}
	if podutil.PlainQuoted(image) {
		return "Container image \"" + image + "\"" + suffix
	}
	return "Container image " + strconv.Quote(image) + suffix
}

// MessageStopping is the Killing event's message when the kubelet stops a container
// without a more specific reason (a whole-pod kill): "Stopping container <name>".
func MessageStopping(container string) string { return "Stopping container " + container }

// MessageProbeFailed is the Unhealthy event's message of a failed probe: probe is
// "Liveness", "Readiness" or "Startup", output the probe's output.
func MessageProbeFailed(probe, output string) string { return probe + " probe failed: " + output }

// containerFieldPath is GenerateContainerRef's fieldPath for a container of the spec:
// regular containers first, then init containers, then ephemeral containers.
func containerFieldPath(pod *corev1.Pod, name string) string {
	for i := range pod.Spec.Containers {
		if pod.Spec.Containers[i].Name == name {
			return fieldPathOf("spec.containers", i, name)
		}
	}
	for i := range pod.Spec.InitContainers {
		if pod.Spec.InitContainers[i].Name == name {
			return fieldPathOf("spec.initContainers", i, name)
		}
	}
	for i := range pod.Spec.EphemeralContainers {
		if pod.Spec.EphemeralContainers[i].Name == name {
			return fieldPathOf("spec.ephemeralContainers", i, name)
		}
	}
	return "implicitly required container " + name
}

func fieldPathOf(list string, i int, name string) string {
	if name == "" {
		return list + "[" + strconv.Itoa(i) + "]"
	}
	return list + "{" + name + "}"
}

// EventRecord is an Event object as the API server holds it once the kubelet's event
// recorder has correlated what it emitted: identical events (same object, field path,
// type, reason and message) become one record with a count and first and last
// timestamps.
type EventRecord struct {
	Type, Reason, Message, FieldPath string
	// Source is the reporting component, "kubelet".
	Source string
	// FirstTimestamp and LastTimestamp are the first and the latest occurrence; Count
	// the number of occurrences the recorder sent.
	FirstTimestamp, LastTimestamp time.Time
	Count                         int32
}

// The kubelet's event correlator settings (k8s.io/client-go tools/record
// events_cache.go, used with its defaults by the kubelet).
const (
	correlatorMaxEvents   = 10
	correlatorMaxInterval = 600 * time.Second
	spamBurst             = 25
)

// spamQPS is the spam filter's refill rate, one token per 5 minutes, with the float32
// precision client-go passes it in.
var spamQPS = float64(float32(1.0 / 300.0))

// RecordEvents turns the events the kubelet emitted for one pod, in the order it
// emitted them, into the Event objects the API server ends up holding, as the kubelet's
// event recorder (k8s.io/client-go tools/record, EventCorrelator with its defaults)
// sends them:
//
//   - the aggregator: when the same object gets events of one type and reason with 10
//     or more distinct messages within 10 minutes, the new one is sent as a new record
//     with the message "(combined from similar events): <message>";
//   - the logger: an event identical to an earlier one (object, field path, type,
//     reason, message) updates that record's count and last timestamp;
//   - the spam filter: per object and type, a token bucket of 25 events refilled at one
//     every 5 minutes; an event that finds it empty is dropped (its occurrence is
//     still counted by the logger, so the next update that passes jumps the count).
//
// Records come in creation order; timestamps are whole seconds, as the API stores them.
// Upstream drops an arbitrary message from the aggregator's set once it reaches 10
// messages; here the newest one is dropped, which makes the result deterministic.
func RecordEvents(events []Event) []EventRecord {
	type logEntry struct {
		index int // record index, -1 when the first occurrence was dropped
		count int32
		first time.Time
	}
	type aggEntry struct {
		messages map[string]bool
		last     time.Time
	}
	type bucket struct {
		tokens float64
		last   time.Time
	}
	var out []EventRecord
	logs := map[string]*logEntry{}
	aggs := map[string]*aggEntry{}
	buckets := map[string]*bucket{}
	for _, e := range events {
		now := e.Time.Truncate(time.Second)
		msg := e.Message
		aggKey := e.Type + "\x00" + e.Reason
		a := aggs[aggKey]
		if a == nil || now.Sub(a.last) > correlatorMaxInterval {
			a = &aggEntry{messages: map[string]bool{}}
			aggs[aggKey] = a
		}
		a.messages[msg] = true
		a.last = now
		key := e.FieldPath + "\x00" + e.Type + "\x00" + e.Reason + "\x00" + msg
		fieldPath := e.FieldPath
		if len(a.messages) >= correlatorMaxEvents {
			delete(a.messages, msg)
			msg = "(combined from similar events): " + msg
			key = aggKey // the aggregate record is keyed by the aggregate key
		}
		l := logs[key]
		var count int32 = 1
		first := now
		if l != nil {
			count, first = l.count+1, l.first
		} else {
			l = &logEntry{index: -1}
			logs[key] = l
		}
		l.count, l.first = count, first

		// x/time/rate's AllowN: refill from the last accepted event, capped at the burst.
		b := buckets[e.Type]
		if b == nil {
			b = &bucket{tokens: spamBurst, last: e.Time}
			buckets[e.Type] = b
		}
		last := b.last
		if e.Time.Before(last) {
			last = e.Time
		}
		tokens := min(spamBurst, b.tokens+e.Time.Sub(last).Seconds()*spamQPS)
		if tokens < 1 {
			continue // dropped by the spam filter
		}
		b.tokens, b.last = tokens-1, e.Time
		if l.index >= 0 {
			r := &out[l.index]
			r.Count, r.LastTimestamp, r.Message = count, now, msg
			continue
		}
		l.index = len(out)
		out = append(out, EventRecord{Type: e.Type, Reason: e.Reason, Message: msg, FieldPath: fieldPath, Source: "kubelet",
			FirstTimestamp: first, LastTimestamp: now, Count: count})
	}
	return out
}

// EventRow is one row of the Events table of `kubectl describe pod`.
type EventRow struct {
	Type, Reason, Age, From, Message string
}

// DescribeEvents renders records as `kubectl describe pod` prints its Events table at
// time now (k8s.io/kubectl pkg/describe DescribeEvents): sorted by last timestamp with
// sort.Sort, as kubectl does, from the API's list order (creation order); AGE is the
// age of the first occurrence, or "<last> (xN over <first>)" for a repeated event; FROM
// is the source component; the message is trimmed and prefixed by the field path.
func DescribeEvents(records []EventRecord, now time.Time) []EventRow {
	sorted := make(byLastTimestamp, len(records))
	copy(sorted, records)
	sort.Sort(sorted)
	rows := make([]EventRow, len(sorted))
	for i, r := range sorted {
		first := sinceOrUnknown(r.FirstTimestamp, now)
		age := first
		if r.Count > 1 {
			age = sinceOrUnknown(r.LastTimestamp, now) + " (x" + strconv.Itoa(int(r.Count)) + " over " + first + ")"
		}
		msg := strings.TrimSpace(r.Message)
		if r.FieldPath != "" {
			msg = r.FieldPath + ": " + msg
		}
		rows[i] = EventRow{Type: r.Type, Reason: r.Reason, Age: age, From: r.Source, Message: msg}
	}
	return rows
}

// byLastTimestamp is kubectl's SortableEvents.
type byLastTimestamp []EventRecord

// Len, Swap and Less are sort.Interface's, ordering by last timestamp.
func (l byLastTimestamp) Len() int { return len(l) }

// Swap exchanges two records.
func (l byLastTimestamp) Swap(i, j int) { l[i], l[j] = l[j], l[i] }

// Less orders by last timestamp, as kubectl's SortableEvents does.
func (l byLastTimestamp) Less(i, j int) bool { return l[i].LastTimestamp.Before(l[j].LastTimestamp) }

func sinceOrUnknown(t, now time.Time) string {
	if t.IsZero() {
		return "<unknown>"
	}
	return HumanDuration(now.Sub(t))
}

// FormatEventTable renders rows as kubectl's describe output does, under an "Events:"
// heading with tab-aligned columns; no rows give "Events:  <none>".
func FormatEventTable(rows []EventRow) string {
	if len(rows) == 0 {
		return "Events:  <none>\n"
	}
	cells := [][]string{{"Type", "Reason", "Age", "From", "Message"}, {"----", "------", "----", "----", "-------"}}
	for _, r := range rows {
		cells = append(cells, []string{r.Type, r.Reason, r.Age, r.From, r.Message})
	}
	return "Events:\n" + alignColumns(cells, "  ", 2)
}

// alignColumns pads every column but the last to its widest cell plus pad spaces, as a
// tabwriter with padding pad does, each line starting with indent.
func alignColumns(cells [][]string, indent string, pad int) string {
	var widths []int
	for _, row := range cells {
		for i, c := range row {
			if i == len(row)-1 {
				continue
			}
			for len(widths) <= i {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], len([]rune(c)))
		}
	}
	var b strings.Builder
	for _, row := range cells {
		b.WriteString(indent)
		for i, c := range row {
			b.WriteString(c)
			if i < len(row)-1 {
				b.WriteString(strings.Repeat(" ", widths[i]-len([]rune(c))+pad))
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}
