package scenarios

import (
	"bytes"
	"math/rand"
	"strings"
	"testing"
	"text/tabwriter"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/kubectl/pkg/describe"

	"github.com/podlife/podlife/lifecycle"
)

// kubectlEvents renders records with kubectl's own DescribeEvents, through the
// tabwriter settings of its describers (tabbedString), as `kubectl describe pod`
// prints them at the wall clock's now.
func kubectlEvents(t *testing.T, records []lifecycle.EventRecord) string {
	t.Helper()
	el := &v1.EventList{}
	for _, r := range records {
		el.Items = append(el.Items, v1.Event{
			InvolvedObject: v1.ObjectReference{Kind: "Pod", Name: "p", FieldPath: r.FieldPath},
			Type:           r.Type, Reason: r.Reason, Message: r.Message,
			Source:         v1.EventSource{Component: r.Source},
			FirstTimestamp: metav1.NewTime(r.FirstTimestamp), LastTimestamp: metav1.NewTime(r.LastTimestamp),
			Count: r.Count,
		})
	}
	var buf bytes.Buffer
	w := tabwriter.NewWriter(&buf, 0, 8, 2, ' ', 0)
	describe.DescribeEvents(el, describe.NewPrefixWriter(w))
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// TestDescribeEventsMatchesKubectl compares lifecycle.DescribeEvents and
// FormatEventTable with kubectl's DescribeEvents on generated event records: ties in
// the last timestamp (kubectl sorts with the unstable sort.Sort), repeated events,
// messages with surrounding spaces, with and without field paths, no events at all.
//
// kubectl reads the wall clock for the ages: the records are placed whole seconds plus
// 500ms before a now taken just before kubectl runs, and a table is accepted when it
// equals ours at that now or at a reading taken right after kubectl returned (ages only
// grow), so no timing decides the verdict.
func TestDescribeEventsMatchesKubectl(t *testing.T) {
	r := rand.New(rand.NewSource(20261201))
	const n = 3000
	reasons := []string{"Pulling", "Pulled", "Created", "Started", "Killing", "BackOff", "Unhealthy", "Failed"}
	disagreements, repeated, ties, empty := 0, 0, 0, 0
	for i := range n {
		now := time.Now()
		base := now.Add(-500 * time.Millisecond)
		var records []lifecycle.EventRecord
		for range r.Intn(14) {
			first := base.Add(-time.Duration(r.Intn(4000)) * time.Second).Truncate(0)
			last := first
			count := int32(1)
			if r.Intn(3) == 0 {
				count = int32(2 + r.Intn(30))
				last = base.Add(-time.Duration(r.Intn(int(base.Sub(first)/time.Second)+1)) * time.Second)
				repeated++
			}
			msg := []string{"Container started", "  Back-off restarting failed container app in pod p_ns(uid)  ", "Readiness probe failed: HTTP probe failed with statuscode: 503", ""}[r.Intn(4)]
			fp := []string{"", "spec.containers{app}", "spec.initContainers{init-db}"}[r.Intn(3)]
			rec := lifecycle.EventRecord{
				Type: []string{"Normal", "Warning"}[r.Intn(2)], Reason: reasons[r.Intn(len(reasons))], Message: msg,
				FieldPath: fp, Source: []string{"kubelet", "default-scheduler"}[r.Intn(2)],
				FirstTimestamp: first, LastTimestamp: last, Count: count,
			}
			if len(records) > 0 && r.Intn(4) == 0 {
				rec.LastTimestamp = records[len(records)-1].LastTimestamp
				ties++
			}
			records = append(records, rec)
		}
		if len(records) == 0 {
			empty++
		}
		want := kubectlEvents(t, records)
		after := time.Now()
		got := lifecycle.FormatEventTable(lifecycle.DescribeEvents(records, now))
		if got != want && lifecycle.FormatEventTable(lifecycle.DescribeEvents(records, after)) != want {
			disagreements++
			if disagreements <= 3 {
				t.Errorf("case %d:\nkubectl:\n%s\npodlife:\n%s", i, want, got)
			}
		}
	}
	t.Logf("%d event lists (%d empty, %d repeated events, %d last-timestamp ties), %d disagreements", n, empty, repeated, ties, disagreements)
	if empty == 0 || repeated < n/2 || ties < n/2 {
		t.Errorf("coverage too thin: %d empty lists, %d repeated events, %d ties", empty, repeated, ties)
	}
	if !strings.Contains(kubectlEvents(t, nil), "<none>") {
		t.Error("kubectl's empty table changed")
	}
}
