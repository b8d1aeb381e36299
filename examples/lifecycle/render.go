package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podlife/podlife/lifecycle"
	"github.com/podlife/podlife/resources"
)

// watchRow is one row `kubectl get pod -w` prints: the pod after one update.
type watchRow struct {
	At   time.Duration
	By   string // who updated the pod: "api-server", "scheduler", "kubelet"
	Cols lifecycle.Columns
	pod  *corev1.Pod
}

// podAt returns the pod as the API holds it after the kubelet's status of step s.
func podAt(res *result, s *lifecycle.Step) *corev1.Pod {
	p := *res.timeline.Pod
	p.Status = s.Status
	if p.DeletionTimestamp != nil && !s.Time.Before(deletedAt(res)) {
		return &p
	}
	p.DeletionTimestamp, p.DeletionGracePeriodSeconds = nil, nil
	return &p
}

// deletedAt is when the delete request was made.
func deletedAt(res *result) time.Time {
	if res.script == nil || res.script.DeleteAfter == "" {
		return time.Time{}
	}
	d, _ := time.ParseDuration(res.script.DeleteAfter)
	return start.Add(d)
}

// sameStatus is the kubelet status manager's isPodStatusByKubeletEqual: conditions are
// compared by type, status, reason and message, everything else exactly. A status equal
// to the last one is not written, so `kubectl get -w` shows nothing for it.
func sameStatus(a, b *corev1.PodStatus) bool {
	strip := func(s *corev1.PodStatus) *corev1.PodStatus {
		c := s.DeepCopy()
		for i := range c.Conditions {
			c.Conditions[i].LastTransitionTime = metav1.Time{}
			c.Conditions[i].LastProbeTime = metav1.Time{}
		}
		return c
	}
	return equality.Semantic.DeepEqual(strip(a), strip(b))
}

// watchRows lists the rows of `kubectl get pod -w` started before the pod is created:
// the created pod, the pod bound by the scheduler, then every status the kubelet writes
// that differs from the last, and the deletion.
func watchRows(res *result) []watchRow {
	created := res.pod.DeepCopy()
	created.Spec.NodeName = ""
	created.Status.Conditions = nil
	rows := []watchRow{
		{At: 0, By: "api-server", Cols: lifecycle.PodColumns(created, start), pod: created},
		{At: 0, By: "scheduler", Cols: lifecycle.PodColumns(res.pod, start), pod: res.pod},
	}
	last := &res.pod.Status
	deleted := false
	del := deletedAt(res)
	for i := range res.timeline.Steps {
		s := &res.timeline.Steps[i]
		p := podAt(res, s)
		if !deleted && p.DeletionTimestamp != nil {
			deleted = true
			q := *p
			q.Status = *last
			rows = append(rows, watchRow{At: del.Sub(start), By: "api-server", Cols: lifecycle.PodColumns(&q, del), pod: &q})
		}
		if sameStatus(last, &s.Status) {
			continue
		}
		last = &s.Status
		rows = append(rows, watchRow{At: s.Time.Sub(start), By: "kubelet", Cols: lifecycle.PodColumns(p, s.Time), pod: p})
	}
	return rows
}

// endTime is the time of the last step.
func endTime(res *result) time.Time {
	if n := len(res.timeline.Steps); n > 0 {
		return res.timeline.Steps[n-1].Time
	}
	return start
}

// eventRows is the Events table of `kubectl describe pod` at the end: the scheduler's
// Scheduled event and the kubelet's events as the API holds them.
func eventRows(res *result) []lifecycle.EventRow {
	records := append([]lifecycle.EventRecord{res.scheduled}, lifecycle.RecordEvents(res.timeline.Events)...)
	return lifecycle.DescribeEvents(records, endTime(res))
}

// resourceLines are the effective requests and limits and the QoS class.
func resourceLines(pod *corev1.Pod) (qos corev1.PodQOSClass, requests, limits string) {
	opts := resources.PodResourcesOptions{}
	return resources.GetPodQOS(pod), list(resources.PodRequests(pod, opts)), list(resources.PodLimits(pod, opts))
}

// list renders a resource list sorted by name.
func list(l corev1.ResourceList) string {
	if len(l) == 0 {
		return "(none)"
	}
	names := make([]string, 0, len(l))
	for name := range l {
		names = append(names, string(name))
	}
	slices.Sort(names)
	for i, name := range names {
		q := l[corev1.ResourceName(name)]
		names[i] = name + " " + q.String()
	}
	return strings.Join(names, ", ")
}

// endText explains why the simulation stopped.
func endText(res *result) string {
	at := lifecycle.HumanDuration(endTime(res).Sub(start))
	switch res.timeline.End {
	case "terminal":
		if res.timeline.Pod.DeletionTimestamp != nil {
			return "deleted: every container stopped at " + at + "; the pod object is then removed"
		}
		return "terminal at " + at + ": the pod is " + string(res.timeline.Pod.Status.Phase) + " and every container has stopped"
	case "steady":
		return "steady at " + at + ": nothing more happens until something changes"
	case "max-duration":
		return "stopped at " + at + ", the end of the simulated time"
	}
	return "stopped after " + at + " (" + res.timeline.End + ")"
}

// writeText prints the human-readable report.
func writeText(w io.Writer, res *result) {
	name := res.pod.Name
	fmt.Fprintf(w, "%s, on a simulated Kubernetes v1.37.2 node (virtual time)\n", res.title)
	if res.script != nil && res.script.Description != "" {
		fmt.Fprint(w, wrap(res.script.Description, 88))
	}
	fmt.Fprintf(w, "\n$ kubectl get pod %s -w\n", name)
	var tw watchTable
	header := []string{"NAME", "READY", "STATUS", "RESTARTS", "AGE"}
	for i, r := range watchRows(res) {
		row := []string{r.Cols.Name, r.Cols.Ready, r.Cols.Status, r.Cols.Restarts, r.Cols.Age}
		if i == 0 {
			tw.flush(w, header, row) // the list's header and first row come together
			continue
		}
		tw.flush(w, row)
	}
	fmt.Fprintf(w, "\n$ kubectl describe pod %s   # at %s, the events\n", name, lifecycle.HumanDuration(endTime(res).Sub(start)))
	fmt.Fprint(w, lifecycle.FormatEventTable(eventRows(res)))
	qos, req, lim := resourceLines(res.pod)
	fmt.Fprintf(w, "\nScheduled with QoS class %s; requests: %s; limits: %s\n", qos, req, lim)
	fmt.Fprintf(w, "Validation: %s\n", res.verdict)
	printWarnings(w, res.warnings)
	fmt.Fprintf(w, "End: %s\n", endText(res))
}

// printWarnings prints the server's warnings as kubectl does.
func printWarnings(w io.Writer, warnings []string) {
	for _, text := range warnings {
		fmt.Fprintf(w, "Warning: %s\n", text)
	}
}

// jsonReport is the -o json output.
type jsonReport struct {
	Title      string            `json:"title"`
	Start      time.Time         `json:"start"`
	Pod        *corev1.Pod       `json:"pod"`
	Watch      []jsonRow         `json:"watch"`
	Steps      []jsonStep        `json:"steps"`
	Events     []jsonEventRow    `json:"events"`
	Raw        []jsonEvent       `json:"kubeletEvents"`
	Resources  jsonResources     `json:"resources"`
	Validation jsonValidation    `json:"validation"`
	End        string            `json:"end"`
	EndAt      string            `json:"endAt"`
	Final      *corev1.PodStatus `json:"finalStatus"`
	Gates      map[string]bool   `json:"featureGates,omitempty"`
}

type jsonRow struct {
	At  string      `json:"at"`
	By  string      `json:"by"`
	Row jsonColumns `json:"row"`
}

// jsonColumns is a kubectl row with the column names as keys.
type jsonColumns struct {
	Name           string `json:"name"`
	Ready          string `json:"ready"`
	Status         string `json:"status"`
	Restarts       string `json:"restarts"`
	Age            string `json:"age"`
	IP             string `json:"ip"`
	Node           string `json:"node"`
	NominatedNode  string `json:"nominatedNode"`
	ReadinessGates string `json:"readinessGates"`
}

func columns(c lifecycle.Columns) jsonColumns { return jsonColumns(c) }

type jsonEventRow struct {
	Type    string `json:"type"`
	Reason  string `json:"reason"`
	Age     string `json:"age"`
	From    string `json:"from"`
	Message string `json:"message"`
}

type jsonStep struct {
	At      string          `json:"at"`
	Actions string          `json:"actions"`
	Final   bool            `json:"final,omitempty"`
	Phase   corev1.PodPhase `json:"phase"`
	Row     jsonColumns     `json:"row"`
}

type jsonEvent struct {
	At        string `json:"at"`
	Type      string `json:"type"`
	Reason    string `json:"reason"`
	Message   string `json:"message"`
	FieldPath string `json:"fieldPath,omitempty"`
}

type jsonResources struct {
	QOSClass corev1.PodQOSClass  `json:"qosClass"`
	Requests corev1.ResourceList `json:"requests"`
	Limits   corev1.ResourceList `json:"limits"`
}

type jsonValidation struct {
	Valid   bool   `json:"valid"`
	Verdict string `json:"verdict"`
	// Warnings are the server's warnings on create (omitted when there are none).
	Warnings []string `json:"warnings,omitempty"`
}

// writeJSON prints the report as one JSON object.
func writeJSON(w io.Writer, res *result) error {
	rep := jsonReport{Title: res.title, Start: start, Pod: res.pod, End: res.timeline.End,
		EndAt: endTime(res).Sub(start).String(), Gates: res.gates}
	for _, r := range watchRows(res) {
		rep.Watch = append(rep.Watch, jsonRow{At: r.At.String(), By: r.By, Row: columns(r.Cols)})
	}
	for _, s := range res.timeline.Steps {
		rep.Steps = append(rep.Steps, jsonStep{At: s.Time.Sub(start).String(), Actions: s.Actions.String(), Final: s.Final, Phase: s.Status.Phase, Row: columns(s.Row)})
	}
	for _, e := range eventRows(res) {
		rep.Events = append(rep.Events, jsonEventRow(e))
	}
	for _, e := range res.timeline.Events {
		rep.Raw = append(rep.Raw, jsonEvent{At: e.Time.Sub(start).String(), Type: e.Type, Reason: e.Reason, Message: e.Message, FieldPath: e.FieldPath})
	}
	opts := resources.PodResourcesOptions{}
	rep.Resources = jsonResources{QOSClass: resources.GetPodQOS(res.pod), Requests: resources.PodRequests(res.pod, opts), Limits: resources.PodLimits(res.pod, opts)}
	rep.Validation = jsonValidation{Valid: res.valid, Verdict: res.verdict, Warnings: res.warnings}
	if res.timeline.Pod != nil {
		rep.Final = &res.timeline.Pod.Status
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}

// watchTable aligns rows as kubectl's printer does in watch mode: a tab writer with
// minimum width 6 and padding 3 that remembers the widest cell of each column across
// flushes (k8s.io/cli-runtime printers.GetNewTabWriter, with liggitt/tabwriter's
// RememberWidths), flushed after every row. The last column is not padded.
type watchTable struct{ widths []int }

func (t *watchTable) flush(w io.Writer, rows ...[]string) {
	const minWidth, padding = 6, 3
	for _, r := range rows {
		for j := 0; j < len(r)-1; j++ {
			for len(t.widths) <= j {
				t.widths = append(t.widths, minWidth)
			}
			t.widths[j] = max(t.widths[j], len(r[j])+padding)
		}
	}
	var b strings.Builder
	for _, r := range rows {
		for j, c := range r {
			b.WriteString(c)
			if j < len(r)-1 {
				b.WriteString(strings.Repeat(" ", t.widths[j]-len(c)))
			}
		}
		b.WriteByte('\n')
	}
	io.WriteString(w, b.String())
}

// wrap breaks text into lines of at most width characters.
func wrap(text string, width int) string {
	var b strings.Builder
	n := 0
	for _, w := range strings.Fields(text) {
		if n > 0 && n+1+len(w) > width {
			b.WriteByte('\n')
			n = 0
		}
		if n > 0 {
			b.WriteByte(' ')
			n++
		}
		b.WriteString(w)
		n += len(w)
	}
	if n > 0 {
		b.WriteByte('\n')
	}
	return b.String()
}
