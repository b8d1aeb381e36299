package main

import (
	"fmt"
	"html"
	"math"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/podlife/podlife/lifecycle"
)

// The picture's geometry, in pixels.
const (
	svgWidth    = 960
	labelWidth  = 190
	plotLeft    = labelWidth + 10
	plotRight   = svgWidth - 20
	laneHeight  = 22
	laneGap     = 6
	topMargin   = 56
	axisHeight  = 34
	legendLines = 2
)

// Colours of states.
const (
	colWaiting    = "#d9d9d9"
	colWaitingErr = "#f4a259"
	colRunning    = "#9bd49b"
	colReady      = "#2e9e4f"
	colCompleted  = "#6c8ebf"
	colError      = "#d64545"
	colTrue       = "#2e9e4f"
	colFalse      = "#e6e6e6"
	colPending    = "#f2d16b"
	colSucceeded  = "#6c8ebf"
	colFailed     = "#d64545"
	colUnknown    = "#999999"
)

// segment is a coloured interval of a lane, with an optional label.
type segment struct {
	from, to time.Time
	color    string
	label    string
}

// lane is one row of the picture.
type lane struct {
	title    string
	segments []segment
	marks    []mark
	thin     bool
}

// mark is a symbol at a moment of a lane.
type mark struct {
	at    time.Time
	glyph string // "restart", "kill"
	note  string
}

// svgScale maps times to x positions.
type svgScale struct {
	t0, t1 time.Time
}

func (s svgScale) x(t time.Time) float64 {
	span := s.t1.Sub(s.t0).Seconds()
	if span <= 0 {
		return plotLeft
	}
	f := t.Sub(s.t0).Seconds() / span
	f = math.Max(0, math.Min(1, f))
	return plotLeft + f*(plotRight-plotLeft)
}

// renderSVG draws the timeline: a lane for the phase, one per kubelet condition, and
// one per container with its states coloured from the statuses the kubelet wrote (run
// boundaries from their startedAt and finishedAt), restarts and kills marked.
func renderSVG(res *result) string {
	tl := res.timeline
	end := endTime(res)
	span := end.Sub(start)
	tail := max(span/10, 2*time.Second)
	sc := svgScale{t0: start, t1: end.Add(tail)}
	steps := tl.Steps
	stepEnd := func(i int) time.Time {
		if i+1 < len(steps) {
			return steps[i+1].Time
		}
		return sc.t1
	}

	var lanes []lane
	// Phase.
	ph := lane{title: "phase"}
	ph.segments = append(ph.segments, segment{from: start, to: firstStepTime(res), color: colPending, label: "Pending"})
	for i := range steps {
		p := steps[i].Status.Phase
		ph.segments = append(ph.segments, segment{from: steps[i].Time, to: stepEnd(i), color: phaseColor(p), label: string(p)})
	}
	lanes = append(lanes, mergeSegments(ph))
	// Conditions.
	for _, ct := range []corev1.PodConditionType{corev1.PodReadyToStartContainers, corev1.PodInitialized, corev1.ContainersReady, corev1.PodReady} {
		l := lane{title: string(ct), thin: true}
		for i := range steps {
			st := corev1.ConditionFalse
			for _, c := range steps[i].Status.Conditions {
				if c.Type == ct {
					st = c.Status
				}
			}
			col := colFalse
			if st == corev1.ConditionTrue {
				col = colTrue
			}
			l.segments = append(l.segments, segment{from: steps[i].Time, to: stepEnd(i), color: col, label: string(st)})
		}
		lanes = append(lanes, mergeSegments(l))
	}
	// Containers.
	kills := map[string][]lifecycle.Event{}
	for _, e := range tl.Events {
		if e.Reason == lifecycle.EventReasonKilling {
			kills[containerOfPath(e.FieldPath)] = append(kills[containerOfPath(e.FieldPath)], e)
		}
	}
	addContainer := func(c corev1.Container, kind string, init bool) {
		l := lane{title: kind + " " + c.Name}
		type run struct {
			from, to time.Time
			exit     *corev1.ContainerStateTerminated
		}
		runs := map[string]*run{}
		var order []string
		for i := range steps {
			st := statusOf(&steps[i].Status, c.Name, init)
			if st == nil {
				continue
			}
			seg := segment{from: steps[i].Time, to: stepEnd(i)}
			switch {
			case st.State.Running != nil:
				seg.color, seg.label = colRunning, "running"
				if st.Ready {
					seg.color, seg.label = colReady, "ready"
				}
				if st.Started != nil && !*st.Started {
					seg.label = "not started"
				}
			case st.State.Terminated != nil:
				seg.color, seg.label = terminatedColor(st.State.Terminated), terminatedLabel(st.State.Terminated)
			case st.State.Waiting != nil:
				seg.color, seg.label = colWaiting, st.State.Waiting.Reason
				switch st.State.Waiting.Reason {
				case "PodInitializing", "ContainerCreating":
				default:
					seg.color = colWaitingErr
				}
			}
			l.segments = append(l.segments, seg)
			// Runs, with their exact start and finish.
			note := func(id string, s, f time.Time, t *corev1.ContainerStateTerminated) {
				if id == "" || s.IsZero() {
					return
				}
				r := runs[id]
				if r == nil {
					r = &run{from: s}
					runs[id] = r
					order = append(order, id)
				}
				if t != nil {
					r.to, r.exit = f, t
				}
			}
			if r := st.State.Running; r != nil {
				note(st.ContainerID, r.StartedAt.Time, time.Time{}, nil)
			}
			if t := st.State.Terminated; t != nil {
				note(t.ContainerID, t.StartedAt.Time, t.FinishedAt.Time, t)
			}
			if t := st.LastTerminationState.Terminated; t != nil {
				note(t.ContainerID, t.StartedAt.Time, t.FinishedAt.Time, t)
			}
		}
		l = mergeSegments(l)
		for n, id := range order {
			r := runs[id]
			to := r.to
			if to.IsZero() {
				to = sc.t1
				// A run still going when a later status shows it stopped ends there.
				for i := range steps {
					if st := statusOf(&steps[i].Status, c.Name, init); steps[i].Time.After(r.from) && st != nil && st.State.Running == nil {
						to = steps[i].Time
						break
					}
				}
			}
			l.segments = overlay(l.segments, segment{from: r.from, to: to, color: colRunning, label: "running"})
			// Readiness, where the status says this run is ready.
			for i := range steps {
				st := statusOf(&steps[i].Status, c.Name, init)
				if st == nil || st.State.Running == nil || !st.Ready || st.ContainerID != id {
					continue
				}
				from, until := maxTime(steps[i].Time, r.from), minTime(stepEnd(i), to)
				l.segments = overlay(l.segments, segment{from: from, to: until, color: colReady, label: "ready"})
			}
			if r.exit != nil {
				// Between the exit and the next status the container is stopped.
				next := sc.t1
				for i := range steps {
					if !steps[i].Time.Before(r.to) {
						next = steps[i].Time
						break
					}
				}
				if next.After(r.to) {
					l.segments = overlay(l.segments, segment{from: r.to, to: next, color: terminatedColor(r.exit), label: terminatedLabel(r.exit)})
				}
			}
			if n > 0 {
				l.marks = append(l.marks, mark{at: r.from, glyph: "restart", note: "restart"})
			}
		}
		l = mergeSegments(l)
		for _, e := range kills[c.Name] {
			l.marks = append(l.marks, mark{at: e.Time, glyph: "kill", note: e.Message})
		}
		lanes = append(lanes, l)
	}
	pod := tl.Pod
	for _, c := range pod.Spec.InitContainers {
		kind := "init"
		if c.RestartPolicy != nil && *c.RestartPolicy == corev1.ContainerRestartPolicyAlways {
			kind = "sidecar"
		}
		addContainer(c, kind, true)
	}
	for _, c := range pod.Spec.Containers {
		addContainer(c, "container", false)
	}
	return drawSVG(res, lanes, sc)
}

func firstStepTime(res *result) time.Time {
	if len(res.timeline.Steps) > 0 {
		return res.timeline.Steps[0].Time
	}
	return start
}

func phaseColor(p corev1.PodPhase) string {
	switch p {
	case corev1.PodPending:
		return colPending
	case corev1.PodRunning:
		return colReady
	case corev1.PodSucceeded:
		return colSucceeded
	case corev1.PodFailed:
		return colFailed
	}
	return colUnknown
}

func terminatedColor(t *corev1.ContainerStateTerminated) string {
	if t.ExitCode == 0 {
		return colCompleted
	}
	return colError
}

func terminatedLabel(t *corev1.ContainerStateTerminated) string {
	r := t.Reason
	if r == "" {
		r = "Terminated"
	}
	return fmt.Sprintf("%s (%d)", r, t.ExitCode)
}

// statusOf finds the named container's status.
func statusOf(s *corev1.PodStatus, name string, init bool) *corev1.ContainerStatus {
	list := s.ContainerStatuses
	if init {
		list = s.InitContainerStatuses
	}
	for i := range list {
		if list[i].Name == name {
			return &list[i]
		}
	}
	return nil
}

// containerOfPath returns the container name of a fieldPath such as
// "spec.containers{app}".
func containerOfPath(p string) string {
	i, j := strings.IndexByte(p, '{'), strings.LastIndexByte(p, '}')
	if i < 0 || j < i {
		return ""
	}
	return p[i+1 : j]
}

// overlay paints seg over segs.
func overlay(segs []segment, seg segment) []segment {
	if !seg.to.After(seg.from) {
		return segs
	}
	var out []segment
	for _, s := range segs {
		if !s.to.After(seg.from) || !s.from.Before(seg.to) {
			out = append(out, s)
			continue
		}
		if s.from.Before(seg.from) {
			left := s
			left.to = seg.from
			out = append(out, left)
		}
		if s.to.After(seg.to) {
			right := s
			right.from = seg.to
			out = append(out, right)
		}
	}
	out = append(out, seg)
	sortSegments(out)
	return out
}

func sortSegments(s []segment) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j].from.Before(s[j-1].from); j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// mergeSegments joins adjacent segments of the same colour and label.
func mergeSegments(l lane) lane {
	sortSegments(l.segments)
	var out []segment
	for _, s := range l.segments {
		if !s.to.After(s.from) {
			continue
		}
		if n := len(out); n > 0 && out[n-1].color == s.color && out[n-1].label == s.label && !out[n-1].to.Before(s.from) {
			if s.to.After(out[n-1].to) {
				out[n-1].to = s.to
			}
			continue
		}
		out = append(out, s)
	}
	l.segments = out
	return l
}

// niceStep picks an axis tick interval giving at most about ten ticks.
func niceStep(span time.Duration) time.Duration {
	for _, s := range []time.Duration{time.Second, 2 * time.Second, 5 * time.Second, 10 * time.Second, 15 * time.Second, 30 * time.Second,
		time.Minute, 2 * time.Minute, 5 * time.Minute, 10 * time.Minute, 15 * time.Minute, 30 * time.Minute, time.Hour} {
		if span/s <= 10 {
			return s
		}
	}
	return 2 * time.Hour
}

// drawSVG writes the lanes as an SVG document.
func drawSVG(res *result, lanes []lane, sc svgScale) string {
	var b strings.Builder
	y := float64(topMargin)
	height := topMargin + len(lanes)*(laneHeight+laneGap) + axisHeight + legendLines*18 + 24
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="Helvetica, Arial, sans-serif" font-size="12">`+"\n", svgWidth, height, svgWidth, height)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="#ffffff"/>`+"\n")
	fmt.Fprintf(&b, `<text x="12" y="22" font-size="15" font-weight="bold">%s</text>`+"\n", esc(res.title))
	fmt.Fprintf(&b, `<text x="12" y="40" fill="#555555">virtual time on a simulated Kubernetes v1.37.2 node; %s</text>`+"\n", esc(endText(res)))
	for _, l := range lanes {
		h := float64(laneHeight)
		yy := y
		if l.thin {
			h = laneHeight / 2
			yy = y + laneHeight/4
		}
		fmt.Fprintf(&b, `<text x="12" y="%.1f" text-anchor="start">%s</text>`+"\n", y+laneHeight/2+4, esc(l.title))
		fmt.Fprintf(&b, `<rect x="%d" y="%.1f" width="%d" height="%.1f" fill="#f7f7f7" stroke="#cccccc" stroke-width="0.5"/>`+"\n", plotLeft, yy, plotRight-plotLeft, h)
		for _, s := range l.segments {
			x0, x1 := sc.x(s.from), sc.x(s.to)
			if x1-x0 < 0.5 {
				continue
			}
			fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s: %s → %s</title></rect>`+"\n",
				x0, yy, x1-x0, h, s.color, esc(s.label), rel(s.from), rel(s.to))
			if !l.thin && s.label != "" && float64(len(s.label))*6.2 < x1-x0-6 {
				fill := "#1a1a1a"
				if s.color == colReady || s.color == colError || s.color == colFailed || s.color == colCompleted {
					fill = "#ffffff"
				}
				fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" fill="%s" font-size="11">%s</text>`+"\n", x0+4, yy+h/2+4, fill, esc(s.label))
			}
		}
		for _, m := range l.marks {
			x := sc.x(m.at)
			switch m.glyph {
			case "kill":
				fmt.Fprintf(&b, `<g stroke="#8b0000" stroke-width="2.5"><title>Killing at %s: %s</title><line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/><line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/></g>`+"\n",
					rel(m.at), esc(m.note), x-5, y+4, x+5, y+laneHeight-4, x-5, y+laneHeight-4, x+5, y+4)
			case "restart":
				fmt.Fprintf(&b, `<path d="M %.1f %.1f l 5 -8 l 5 8 z" fill="#1f4e9c"><title>restart at %s</title></path>`+"\n", x-5, y+laneHeight, rel(m.at))
			}
		}
		y += laneHeight + laneGap
	}
	// Deletion.
	if t := deletedAt(res); !t.IsZero() {
		x := sc.x(t)
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%.1f" stroke="#8b0000" stroke-dasharray="4 3"/>`+"\n", x, topMargin-6, x, y)
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" fill="#8b0000" font-size="11">deleted</text>`+"\n", x+3, topMargin-8)
	}
	// Axis.
	fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#333333"/>`+"\n", plotLeft, y, plotRight, y)
	step := niceStep(sc.t1.Sub(sc.t0))
	for d := time.Duration(0); !start.Add(d).After(sc.t1); d += step {
		x := sc.x(start.Add(d))
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#333333"/>`+"\n", x, y, x, y+5)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle" font-size="11">%s</text>`+"\n", x, y+18, lifecycle.HumanDuration(d))
	}
	y += axisHeight
	// Legend.
	legend := [][2]string{{colWaiting, "waiting"}, {colWaitingErr, "waiting (back-off, error)"}, {colRunning, "running"}, {colReady, "ready / True / Running"},
		{colCompleted, "exited 0 / Succeeded"}, {colError, "exited ≠ 0 / Failed"}, {colPending, "Pending"}, {colFalse, "False"}}
	x := 12.0
	for i, it := range legend {
		if i == 4 {
			x = 12
			y += 18
		}
		fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="12" height="12" fill="%s" stroke="#999999" stroke-width="0.5"/><text x="%.1f" y="%.1f" font-size="11">%s</text>`+"\n", x, y, it[0], x+16, y+10, esc(it[1]))
		x += 200
	}
	y += 18
	fmt.Fprintf(&b, `<path d="M 12 %.1f l 5 -8 l 5 8 z" fill="#1f4e9c"/><text x="28" y="%.1f" font-size="11">restart</text>`+"\n", y+12, y+10)
	fmt.Fprintf(&b, `<g stroke="#8b0000" stroke-width="2.5"><line x1="212" y1="%.1f" x2="222" y2="%.1f"/><line x1="212" y1="%.1f" x2="222" y2="%.1f"/></g><text x="228" y="%.1f" font-size="11">kill (Killing event)</text>`+"\n", y+1, y+11, y+11, y+1, y+10)
	b.WriteString("</svg>\n")
	return b.String()
}

func rel(t time.Time) string { return lifecycle.HumanDuration(t.Sub(start)) }

func esc(s string) string { return html.EscapeString(s) }

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}
