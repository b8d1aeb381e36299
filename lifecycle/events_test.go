package lifecycle

import (
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
)

func ev(sec float64, typ, reason, msg, path string) Event {
	return Event{Time: simStart.Add(time.Duration(sec * float64(time.Second))), Type: typ, Reason: reason, Message: msg, FieldPath: path}
}

// TestRecordEventsCounts: identical events (same object, field path, type, reason and
// message) update one record (client-go tools/record events_cache.go eventObserve);
// timestamps are whole seconds as the API stores them.
func TestRecordEventsCounts(t *testing.T) {
	events := []Event{
		ev(0.4, "Normal", "Pulled", "present", "spec.containers{a}"),
		ev(0.5, "Normal", "Pulled", "present", "spec.containers{b}"),
		ev(10.9, "Normal", "Pulled", "present", "spec.containers{a}"),
		ev(20, "Warning", "BackOff", "back-off", "spec.containers{a}"),
		ev(30, "Normal", "Pulled", "present", "spec.containers{a}"),
	}
	got := RecordEvents(events)
	require.Len(t, got, 3)
	assert.Equal(t, EventRecord{Type: "Normal", Reason: "Pulled", Message: "present", FieldPath: "spec.containers{a}", Source: "kubelet",
		FirstTimestamp: simStart, LastTimestamp: simStart.Add(30 * time.Second), Count: 3}, got[0])
	assert.Equal(t, int32(1), got[1].Count)
	assert.Equal(t, "spec.containers{b}", got[1].FieldPath)
	assert.Equal(t, "BackOff", got[2].Reason)
	assert.Nil(t, RecordEvents(nil))
}

// TestRecordEventsSpamFilter: the recorder's spam filter is a token bucket per object and
// event type, 25 events, refilled at one per 300s (defaultSpamBurst, defaultSpamQPS,
// getSpamKey); a dropped event still counts in the logger's cache.
func TestRecordEventsSpamFilter(t *testing.T) {
	var events []Event
	for i := range 27 {
		events = append(events, ev(0, "Normal", "R"+strconv.Itoa(i), "m", ""))
	}
	events = append(events,
		ev(0, "Warning", "BackOff", "w", ""), // another bucket
		ev(299, "Normal", "R100", "m", ""),   // the bucket is still empty
		ev(310, "Normal", "R0", "m", ""),     // one token back
		ev(311, "Normal", "R26", "m", ""),    // dropped again
		ev(1000, "Normal", "R26", "m", ""),   // passes: its third occurrence
	)
	got := RecordEvents(events)
	var reasons []string
	for _, r := range got {
		reasons = append(reasons, r.Reason)
	}
	require.Len(t, got, 27, "%v", reasons)
	assert.Equal(t, "R24", got[24].Reason)
	assert.Equal(t, "BackOff", got[25].Reason)
	assert.Equal(t, "R26", got[26].Reason)
	assert.Equal(t, int32(3), got[26].Count, "the logger counted the dropped occurrences")
	assert.Equal(t, simStart, got[26].FirstTimestamp)
	assert.Equal(t, int32(2), got[0].Count)
	assert.Equal(t, simStart.Add(310*time.Second), got[0].LastTimestamp)
}

// TestRecordEventsAggregation: 10 distinct messages with one type and reason for one
// object within 10 minutes make the aggregator send "(combined from similar events):
// <message>" (EventAggregatorByReasonMessageFunc, defaultAggregateMaxEvents 10).
func TestRecordEventsAggregation(t *testing.T) {
	var events []Event
	for i := range 12 {
		events = append(events, ev(float64(i), "Normal", "Killing", "Stopping container c"+strconv.Itoa(i), "spec.containers{c"+strconv.Itoa(i)+"}"))
	}
	events = append(events, ev(700, "Normal", "Killing", "Stopping container z", "spec.containers{z}"))
	got := RecordEvents(events)
	require.Len(t, got, 11)
	assert.Equal(t, "Stopping container c8", got[8].Message)
	assert.Equal(t, "(combined from similar events): Stopping container c11", got[9].Message)
	assert.Equal(t, int32(3), got[9].Count)
	assert.Equal(t, "Stopping container z", got[10].Message, "the aggregate record expires after 10 minutes")
}

// TestDescribeEvents: kubectl describe sorts by last timestamp (sort.Sort), shows the
// first occurrence's age or "<last> (xN over <first>)", the source component, and the
// trimmed message prefixed by the field path (k8s.io/kubectl pkg/describe
// DescribeEvents); it prints "Events:  <none>" for none.
func TestDescribeEvents(t *testing.T) {
	records := []EventRecord{
		{Type: "Normal", Reason: "Pulled", Message: " present ", FieldPath: "spec.containers{a}", Source: "kubelet", FirstTimestamp: simStart, LastTimestamp: simStart.Add(50 * time.Second), Count: 3},
		{Type: "Normal", Reason: "Scheduled", Message: "Successfully assigned default/web to node-1", Source: "default-scheduler", FirstTimestamp: simStart, Count: 1},
		{Type: "Warning", Reason: "BackOff", Message: "back-off", Source: "kubelet", FirstTimestamp: simStart.Add(20 * time.Second), LastTimestamp: simStart.Add(20 * time.Second), Count: 1},
	}
	rows := DescribeEvents(records, simStart.Add(3*time.Minute))
	assert.Equal(t, []EventRow{
		{Type: "Normal", Reason: "Scheduled", Age: "3m", From: "default-scheduler", Message: "Successfully assigned default/web to node-1"},
		{Type: "Warning", Reason: "BackOff", Age: "2m40s", From: "kubelet", Message: "back-off"},
		{Type: "Normal", Reason: "Pulled", Age: "2m10s (x3 over 3m)", From: "kubelet", Message: "spec.containers{a}: present"},
	}, rows)
	assert.Equal(t, "Events:\n"+
		"  Type     Reason     Age                 From               Message\n"+
		"  ----     ------     ----                ----               -------\n"+
		"  Normal   Scheduled  3m                  default-scheduler  Successfully assigned default/web to node-1\n"+
		"  Warning  BackOff    2m40s               kubelet            back-off\n"+
		"  Normal   Pulled     2m10s (x3 over 3m)  kubelet            spec.containers{a}: present\n", FormatEventTable(rows))
	assert.Equal(t, "Events:  <none>\n", FormatEventTable(DescribeEvents(nil, simStart)))
	assert.Equal(t, "<unknown>", DescribeEvents([]EventRecord{{}}, simStart)[0].Age)
	assert.Equal(t, "Stopping container app", MessageStopping("app"))
	assert.Equal(t, "spec.containers[0]", containerFieldPath(&corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{{}}}}, ""))
}

func FuzzRecordEvents(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, uint16(30))
	f.Add([]byte("a much longer run of bytes that makes many events"), uint16(1))
	f.Fuzz(func(t *testing.T, data []byte, gap uint16) {
		var events []Event
		tm := simStart
		for i, b := range data {
			tm = tm.Add(time.Duration(int(b)%int(gap+1)) * time.Second)
			typ := []string{"Normal", "Warning"}[b%2]
			events = append(events, Event{Time: tm, Type: typ, Reason: "R" + strconv.Itoa(int(b%3)), Message: "m" + strconv.Itoa(int(b%13)), FieldPath: "p" + strconv.Itoa(i%2)})
		}
		before := append([]Event(nil), events...)
		got := RecordEvents(events)
		require.Equal(t, before, events, "input untouched")
		require.Equal(t, got, RecordEvents(events), "deterministic")
		var total int32
		for _, r := range got {
			require.Positive(t, r.Count)
			require.False(t, r.LastTimestamp.Before(r.FirstTimestamp))
			total += r.Count
		}
		require.LessOrEqual(t, int(total), len(events)+len(events)*len(events))
		rows := DescribeEvents(got, tm)
		require.Len(t, rows, len(got))
		require.Equal(t, rows, DescribeEvents(got, tm))
		_ = FormatEventTable(rows)
	})
}
