package lifecycle

import (
	"strconv"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podlife/podlife/internal/byname"
	"github.com/podlife/podlife/internal/podutil"
	"github.com/podlife/podlife/restart"
)

// Columns is one row of `kubectl get pods -o wide`, cell by cell, as the API server's
// table printer renders it. The first five are the columns of `kubectl get pods`.
type Columns struct {
	Name           string // NAME: metadata.name
	Ready          string // READY: ready containers / (containers + sidecars), e.g. "1/2"
	Status         string // STATUS: e.g. "Running", "Init:1/3", "CrashLoopBackOff", "Terminating"
	Restarts       string // RESTARTS: e.g. "0", "5 (3m ago)"
	Age            string // AGE: e.g. "12s", "3m20s", "5d", "<unknown>"
	IP             string // IP: the first pod IP, or "<none>"
	Node           string // NODE: spec.nodeName, or "<none>"
	NominatedNode  string // NOMINATED NODE: status.nominatedNodeName, or "<none>"
	ReadinessGates string // READINESS GATES: true gates / gates, e.g. "1/2", or "<none>"
}

// Values the printer uses.
const (
	none                  = "<none>"
	reasonCompleted       = "Completed"
	reasonPodInitializing = "PodInitializing"
	// reasonNodeLost is node.NodeUnreachablePodReason, set on pods of an unreachable node.
	reasonNodeLost = "NodeLost"
)

// PodColumns renders the pod as `kubectl get pods -o wide` shows it at time now, as the
// API server's pod table printer (k8s.io/kubernetes pkg/printers/internalversion/printers.go
// printPod) does with its clock reading now.
//
// STATUS starts from status.reason or the phase and is refined, in upstream's order, by a
// SchedulingGated PodScheduled condition, by the first init container status that has not
// completed ("Init:<reason>", "Init:Signal:<n>", "Init:ExitCode:<n>", "Init:<i>/<n>"; a
// started sidecar counts as completed), then, once initialized, by the regular container
// statuses (the first in status order that is waiting with a reason or terminated wins,
// "Completed" giving way to "Running", an error reason or "NotReady" while a container
// still runs), and finally by the deletion timestamp ("Terminating", or "Unknown" for a
// NodeLost pod). READY counts the ready sidecars reached by the init scan and the ready
// running regular containers, over the regular containers plus the sidecars of the spec.
// RESTARTS adds up the restart counts of the statuses the scans reach and shows how long ago
// the latest last-termination finished. Durations are rendered as
// k8s.io/apimachinery's duration.HumanDuration does.
func PodColumns(pod *corev1.Pod, now time.Time) Columns {
	pod = orEmpty(pod)
	st := &pod.Status
	spec := &pod.Spec

	reason := string(st.Phase)
	if st.Reason != "" {
		reason = st.Reason
	}
	for i := range st.Conditions {
		if c := &st.Conditions[i]; c.Type == corev1.PodScheduled && c.Reason == corev1.PodReasonSchedulingGated {
			reason = corev1.PodReasonSchedulingGated
		}
	}

	total := len(spec.Containers)
	for i := range spec.InitContainers {
		if restart.IsRestartableInitContainer(&spec.InitContainers[i]) {
			total++
		}
	}
	sidecar := sidecarLookup(spec.InitContainers)

	var restarts, sidecarRestarts, ready int
	var lastRestart, lastSidecarRestart time.Time
	initializing := false
	for i := range st.InitContainerStatuses {
		s := &st.InitContainerStatuses[i]
		isSidecar := sidecar(s.Name)
		restarts += int(s.RestartCount)
		if t := s.LastTerminationState.Terminated; t != nil {
			lastRestart = later(lastRestart, t.FinishedAt.Time)
		}
		if isSidecar {
			sidecarRestarts += int(s.RestartCount)
			if t := s.LastTerminationState.Terminated; t != nil {
				lastSidecarRestart = later(lastSidecarRestart, t.FinishedAt.Time)
			}
		}
		if t := s.State.Terminated; t != nil && t.ExitCode == 0 {
			continue
		}
		if isSidecar && s.Started != nil && *s.Started {
			if s.Ready {
				ready++
			}
			continue
		}
		initializing = true
		switch t, w := s.State.Terminated, s.State.Waiting; {
		case t != nil:
			switch {
			case t.Reason != "":
				reason = "Init:" + t.Reason
			case t.Signal != 0:
				reason = "Init:Signal:" + strconv.FormatInt(int64(t.Signal), 10)
			default:
				reason = "Init:ExitCode:" + strconv.FormatInt(int64(t.ExitCode), 10)
			}
		case w != nil && w.Reason != "" && w.Reason != reasonPodInitializing:
			reason = "Init:" + w.Reason
		default:
			reason = "Init:" + strconv.Itoa(i) + "/" + strconv.Itoa(len(spec.InitContainers))
		}
		break
	}

	if !initializing || initializedConditionTrue(st.Conditions) {
		// Past initialization only the sidecars' restarts count besides the containers'.
		restarts, lastRestart = sidecarRestarts, lastSidecarRestart
		hasRunning := false
		errorReason := ""
		// The scan runs backwards, so the first status in the list has the last word.
		for i := len(st.ContainerStatuses) - 1; i >= 0; i-- {
			s := &st.ContainerStatuses[i]
			restarts += int(s.RestartCount)
			if t := s.LastTerminationState.Terminated; t != nil {
				lastRestart = later(lastRestart, t.FinishedAt.Time)
			}
			switch t, w := s.State.Terminated, s.State.Waiting; {
			case w != nil && w.Reason != "":
				reason = w.Reason
			case t != nil:
				switch {
				case t.Reason != "":
					reason = t.Reason
				case t.Signal != 0:
					reason = "Signal:" + strconv.FormatInt(int64(t.Signal), 10)
				default:
					reason = "ExitCode:" + strconv.FormatInt(int64(t.ExitCode), 10)
				}
				if t.ExitCode != 0 {
					errorReason = reason
				}
			case s.Ready && s.State.Running != nil:
				hasRunning = true
				ready++
			}
		}
		if reason == reasonCompleted {
			switch {
			case hasRunning && readyConditionTrue(st.Conditions):
				reason = string(corev1.PodRunning)
			case errorReason != "":
				reason = errorReason
			case hasRunning:
				reason = "NotReady"
			}
		}
	}

	if pod.DeletionTimestamp != nil {
		if st.Reason == reasonNodeLost {
			reason = string(corev1.PodUnknown)
		} else if !isTerminal(st.Phase) {
			reason = "Terminating"
		}
	}

	restartsCell := strconv.Itoa(restarts)
	if restarts != 0 && !lastRestart.IsZero() {
		var b [64]byte
		cell := append(strconv.AppendInt(b[:0], int64(restarts), 10), " ("...)
		restartsCell = string(append(appendHumanDuration(cell, now.Sub(lastRestart)), " ago)"...))
	}

	cols := Columns{
		Name:           pod.Name,
		Ready:          fraction(ready, total),
		Status:         reason,
		Restarts:       restartsCell,
		Age:            since(pod.CreationTimestamp, now),
		IP:             none,
		Node:           orNone(spec.NodeName),
		NominatedNode:  orNone(st.NominatedNodeName),
		ReadinessGates: none,
	}
	if len(st.PodIPs) > 0 && st.PodIPs[0].IP != "" {
		cols.IP = st.PodIPs[0].IP
	}
	if len(spec.ReadinessGates) > 0 {
		trueGates := 0
		for _, g := range spec.ReadinessGates {
			for i := range st.Conditions {
				if st.Conditions[i].Type == g.ConditionType {
					if st.Conditions[i].Status == corev1.ConditionTrue {
						trueGates++
					}
					break
				}
			}
		}
		cols.ReadinessGates = fraction(trueGates, len(spec.ReadinessGates))
	}
	return cols
}

// sidecarLookup returns a function telling whether the init container named name is a
// sidecar. Like the printer's name map, the last init container of a name decides; an
// unknown name is not a sidecar. The cost stays linear ([byname]).
func sidecarLookup(inits []corev1.Container) func(name string) bool {
	x := byname.Containers(inits)
	return func(name string) bool { return podutil.IsSidecar(x.LastEntry(name)) }
}

// later returns the later of the two instants, keeping cur on a tie (metav1.Time.Before).
func later(cur, t time.Time) time.Time {
	if cur.Before(t) {
		return t
	}
	return cur
}

func initializedConditionTrue(conds []corev1.PodCondition) bool {
	for i := range conds {
		if conds[i].Type == corev1.PodInitialized {
			return conds[i].Status == corev1.ConditionTrue
		}
	}
	return false
}

func readyConditionTrue(conds []corev1.PodCondition) bool {
	for i := range conds {
		if conds[i].Type == corev1.PodReady && conds[i].Status == corev1.ConditionTrue {
			return true
		}
	}
	return false
}

func orNone(s string) string {
	if s == "" {
		return none
	}
	return s
}

// since is the printer's translateTimestampSince with its clock reading now.
func since(t metav1.Time, now time.Time) string {
	if t.IsZero() {
		return "<unknown>"
	}
	return HumanDuration(now.Sub(t.Time))
}

// HumanDuration renders d as kubectl's AGE column and the "ago" of RESTARTS do
// (k8s.io/apimachinery pkg/util/duration HumanDuration): "<invalid>" below -1s, "0s" for
// small negatives, then seconds below 2 minutes, minutes and seconds below 10 minutes,
// minutes below 3 hours, hours and minutes below 8 hours, hours below 2 days, days and
// hours below 8 days, days below 2 years, years and days below 8 years, years beyond.
// Years are 365 days.
func HumanDuration(d time.Duration) string {
	if seconds := int(d.Seconds()); seconds < -1 {
		return "<invalid>"
	} else if seconds < 0 {
		return "0s"
	}
	var b [32]byte
	return string(appendHumanDuration(b[:0], d))
}

// appendHumanDuration appends HumanDuration(d) to b.
func appendHumanDuration(b []byte, d time.Duration) []byte {
	if seconds := int(d.Seconds()); seconds < -1 {
		return append(b, "<invalid>"...)
	} else if seconds < 0 {
		return append(b, "0s"...)
	} else if seconds < 60*2 {
		return unit(b, seconds, 's')
	}
	minutes := int(d / time.Minute)
	if minutes < 10 {
		return pair(b, minutes, 'm', int(d/time.Second)%60, 's')
	} else if minutes < 60*3 {
		return unit(b, minutes, 'm')
	}
	hours := int(d / time.Hour)
	switch {
	case hours < 8:
		return pair(b, hours, 'h', int(d/time.Minute)%60, 'm')
	case hours < 48:
		return unit(b, hours, 'h')
	case hours < 24*8:
		return pair(b, hours/24, 'd', hours%24, 'h')
	case hours < 24*365*2:
		return unit(b, hours/24, 'd')
	case hours < 24*365*8:
		return pair(b, hours/24/365, 'y', (hours/24)%365, 'd')
	}
	return unit(b, hours/24/365, 'y')
}

// unit appends "<n><u>" to b.
func unit(b []byte, n int, u byte) []byte { return append(strconv.AppendInt(b, int64(n), 10), u) }

// pair appends "<a><ua><b><ub>", or "<a><ua>" when b is zero, to buf.
func pair(buf []byte, a int, ua byte, b int, ub byte) []byte {
	buf = unit(buf, a, ua)
	if b == 0 {
		return buf
	}
	return unit(buf, b, ub)
}

// smallFractions holds "a/b" for the digits a and b, at 3*(10*a+b): the usual
// READY and READINESS GATES columns, without an allocation.
const smallFractions = "0/00/10/20/30/40/50/60/70/80/91/01/11/21/31/41/51/61/71/81/9" +
	"2/02/12/22/32/42/52/62/72/82/93/03/13/23/33/43/53/63/73/83/9" +
	"4/04/14/24/34/44/54/64/74/84/95/05/15/25/35/45/55/65/75/85/9" +
	"6/06/16/26/36/46/56/66/76/86/97/07/17/27/37/47/57/67/77/87/9" +
	"8/08/18/28/38/48/58/68/78/88/99/09/19/29/39/49/59/69/79/89/9"

// fraction renders "<a>/<b>": for two digits a slice of smallFractions, otherwise in
// one allocation.
func fraction(a, b int) string {
	if uint(a) < 10 && uint(b) < 10 {
		i := 3 * (10*a + b)
		return smallFractions[i : i+3]
	}
	var buf [48]byte
	return string(strconv.AppendInt(append(strconv.AppendInt(buf[:0], int64(a), 10), '/'), int64(b), 10))
}

// RowConditions returns the conditions the API server's table printer attaches to the
// pod's row: a Completed condition for a Succeeded or Failed pod (kubectl hides such rows
// unless asked to show them), none otherwise. The returned slice is new on every call.
func RowConditions(pod *corev1.Pod) []metav1.TableRowCondition {
	pod = orEmpty(pod)
	switch pod.Status.Phase {
	case corev1.PodSucceeded:
		return []metav1.TableRowCondition{{Type: metav1.RowCompleted, Status: metav1.ConditionTrue, Reason: string(corev1.PodSucceeded), Message: "The pod has completed successfully."}}
	case corev1.PodFailed:
		return []metav1.TableRowCondition{{Type: metav1.RowCompleted, Status: metav1.ConditionTrue, Reason: string(corev1.PodFailed), Message: "The pod failed."}}
	}
	return nil
}
