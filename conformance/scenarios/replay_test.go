package scenarios

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/go-logr/logr"
	"go.opentelemetry.io/otel/trace/noop"
	batchv1 "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/record"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	apitest "k8s.io/cri-api/pkg/apis/testing"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	api "k8s.io/kubernetes/pkg/apis/core"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	kubecontainer "k8s.io/kubernetes/pkg/kubelet/container"
	containertest "k8s.io/kubernetes/pkg/kubelet/container/testing"
	proberesults "k8s.io/kubernetes/pkg/kubelet/prober/results"
	kubeletstatus "k8s.io/kubernetes/pkg/kubelet/status"
	"k8s.io/kubernetes/pkg/printers"
	printersinternal "k8s.io/kubernetes/pkg/printers/internalversion"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/yaml"

	"github.com/podlife/podlife"
	"github.com/podlife/podlife/conformance/internal/gatesets"
	"github.com/podlife/podlife/lifecycle"
	"github.com/podlife/podlife/restart"
)

func TestMain(m *testing.M) {
	// Upstream logs every missing resize checkpoint; the fake manager has none.
	klog.SetLogger(logr.Discard())
	os.Exit(m.Run())
}

// start is the virtual time the program creates its pods at.
var start = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

// scenario is one file of examples/lifecycle/scenarios.
type scenario struct {
	name   string
	pod    *v1.Pod
	script lifecycle.Script
	opts   lifecycle.SimulateOptions
}

// scriptDoc is the script document of the program (kind: Script).
type scriptDoc struct {
	Kind                     string           `json:"kind"`
	Description              string           `json:"description"`
	Duration                 string           `json:"duration"`
	DeleteAfter              string           `json:"deleteAfter"`
	DeleteGracePeriodSeconds *int64           `json:"deleteGracePeriodSeconds"`
	PresentImages            []string         `json:"presentImages"`
	FeatureGates             map[string]bool  `json:"featureGates"`
	Containers               lifecycle.Script `json:"containers"`
}

// loadScenarios reads the program's scenarios and prepares their pods as the program
// does (defaulted, namespace default, bound to node-1, PodScheduled=True).
func loadScenarios(t *testing.T) []scenario {
	files, err := filepath.Glob("../../examples/lifecycle/scenarios/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenarios: %v", err)
	}
	var out []scenario
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := scenario{name: strings.TrimSuffix(filepath.Base(f), ".yaml")}
		var doc scriptDoc
		for _, part := range bytes.Split(data, []byte("\n---\n")) {
			js, err := yaml.YAMLToJSON(part)
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			var tm metav1.TypeMeta
			_ = json.Unmarshal(js, &tm)
			switch tm.Kind {
			case "Pod":
				p := &v1.Pod{}
				if err := json.Unmarshal(js, p); err != nil {
					t.Fatal(err)
				}
				p.Namespace = "default"
				sc.pod = podlife.DefaultWithOptions(p, podlife.DefaultOptions{Now: start})
			case "Job":
				j := &batchv1.Job{}
				if err := json.Unmarshal(js, j); err != nil {
					t.Fatal(err)
				}
				sc.pod = podlife.PodFromTemplate(&j.Spec.Template, podlife.PodFromTemplateOptions{DefaultOptions: podlife.DefaultOptions{Now: start}, ControllerName: j.Name, Namespace: "default"})
				sc.pod.Name = sc.pod.GenerateName + "x4z2k"
			case "Script":
				if err := json.Unmarshal(js, &doc); err != nil {
					t.Fatalf("%s: %v", f, err)
				}
			}
		}
		if sc.pod == nil {
			t.Fatalf("%s: no pod", f)
		}
		p := sc.pod
		p.Namespace, p.UID, p.CreationTimestamp, p.Spec.NodeName = "default", types.UID("uid-"+sc.name), metav1.NewTime(start), "node-1"
		p.Status.Conditions = append(p.Status.Conditions, v1.PodCondition{Type: v1.PodScheduled, Status: v1.ConditionTrue, LastTransitionTime: metav1.NewTime(start)})
		sc.script = doc.Containers
		sc.opts = lifecycle.SimulateOptions{Start: start, MaxDuration: 10 * time.Minute, PresentImages: doc.PresentImages, RecordViews: true}
		if doc.Duration != "" {
			sc.opts.MaxDuration, _ = time.ParseDuration(doc.Duration)
		}
		if doc.DeleteAfter != "" {
			d, _ := time.ParseDuration(doc.DeleteAfter)
			sc.opts.Delete = &lifecycle.Deletion{After: d, GracePeriodSeconds: doc.DeleteGracePeriodSeconds}
		}
		if len(doc.FeatureGates) > 0 {
			t.Fatalf("%s: scenario gates are not replayed here", f)
		}
		out = append(out, sc)
	}
	return out
}

// TestScenarioReplays simulates every scenario under each standard gate set and checks
// every sync against upstream.
func TestScenarioReplays(t *testing.T) {
	scenarios := loadScenarios(t)
	gatesets.Run(t, gatesets.Standard(), func(t *testing.T, gs gatesets.Set) {
		opts := lifecycle.Options{Features: gs.Features()}
		total := map[string]int{}
		for _, sc := range scenarios {
			so := sc.opts
			so.Options = opts
			tl := lifecycle.Simulate(sc.pod, sc.script, so)
			n := replay(t, sc.name, sc.pod, tl, opts)
			for k, v := range n {
				total[k] += v
			}
			checkEvents(t, sc.name, tl)
			total["event timelines"]++
		}
		t.Logf("gates %q: %d scenarios; compared %v; 0 disagreements unless reported above", gs.Name, len(scenarios), total)
	})
}

// podAt is the pod as the API holds it at step i: the simulated pod's spec and metadata
// with the step's status, and the deletion fields only once the pod was deleted.
func podAt(tl lifecycle.Timeline, i int, deleteAt *time.Time) *v1.Pod {
	p := tl.Pod.DeepCopy()
	p.Status = *tl.Steps[i].Status.DeepCopy()
	if deleteAt == nil || tl.Steps[i].Time.Before(*deleteAt) {
		p.DeletionTimestamp, p.DeletionGracePeriodSeconds = nil, nil
	}
	return p
}

func replay(t *testing.T, name string, orig *v1.Pod, tl lifecycle.Timeline, opts lifecycle.Options) map[string]int {
	t.Helper()
	ctx := context.Background()
	logger := klog.Background()
	m, liveness, startup := newManager(t)
	counts := map[string]int{}
	var deleteAt *time.Time
	if tl.Pod.DeletionTimestamp != nil {
		d := tl.Pod.DeletionTimestamp.Add(-time.Duration(*tl.Pod.DeletionGracePeriodSeconds) * time.Second)
		deleteAt = &d
	}
	prev := orig.Status
	for i := range tl.Steps {
		s := &tl.Steps[i]
		pod := podAt(tl, i, deleteAt)
		where := fmt.Sprintf("%s step %d at %s", name, i, s.Time.Sub(start))
		view := s.View
		if view == nil {
			t.Fatalf("%s: no view recorded", where)
		}

		// getPhase on the step's container statuses.
		initialized := hasActiveRegularContainer(pod, view)
		info := append(append([]v1.ContainerStatus{}, pod.Status.ContainerStatuses...), pod.Status.InitContainerStatuses...)
		want := getPhase(logger, pod, info, s.Final, initialized)
		got := lifecycle.Phase(pod, lifecycle.PhaseOptions{Options: opts, PodIsTerminal: s.Final, PodHasInitialized: &initialized})
		counts["getPhase"]++
		if want != got {
			t.Errorf("%s: getPhase %s, podlife %s", where, want, got)
		}
		if s.Status.Reason == "" && !terminal(prev.Phase) && s.Status.Phase != want {
			t.Errorf("%s: the step's phase %s, upstream getPhase %s", where, s.Status.Phase, want)
		}

		// The kubelet's conditions, generated with the previous status as the old one.
		old := prev.DeepCopy()
		gen := pod.DeepCopy()
		gen.Status.Conditions = old.Conditions
		statuses := append(append([]v1.ContainerStatus{}, s.Status.InitContainerStatuses...), s.Status.ContainerStatuses...)
		for _, up := range []v1.PodCondition{
			kubeletstatus.GeneratePodInitializedCondition(gen, old, statuses, s.Status.Phase),
			kubeletstatus.GenerateContainersReadyCondition(gen, old, statuses, s.Status.Phase),
		} {
			counts["conditions"]++
			c := condition(s.Status.Conditions, up.Type)
			if c == nil || c.Status != up.Status || c.Reason != up.Reason || c.Message != up.Message {
				t.Errorf("%s: condition %s: upstream %+v, step %+v", where, up.Type, up, c)
			}
		}

		// The table printer, with the step as now.
		now := time.Now()
		shifted := shift(pod, now.Sub(s.Time))
		up := upstreamRow(t, shifted)
		after := time.Now()
		counts["printer rows"]++
		if cells(s.Row) != cellsOf(up) && cells(lifecycle.PodColumns(shifted, after)) != cellsOf(up) {
			t.Errorf("%s: row\n podlife  %v\n upstream %v", where, cells(s.Row), cellsOf(up))
		}

		// computePodActions, on the syncs that plan (not the end of a termination).
		if !s.Final {
			restartAll := false
			if c := condition(s.Status.Conditions, v1.AllContainersRestarting); c != nil && c.Status == v1.ConditionTrue {
				restartAll = opts.Features.Enabled("RestartAllContainersOnContainerExits")
			}
			ps := runtimeStatus(pod, view)
			setProbes(pod, view, liveness, startup)
			theirs := fromUpstream(computePodActions(m, ctx, pod, ps, restartAll))
			clearProbes(view, liveness, startup)
			ours := lifecycle.ComputePodActions(pod, view, restartAll, opts)
			counts["computePodActions"]++
			if fmt.Sprint(fromOurs(ours)) != fmt.Sprint(theirs) {
				t.Errorf("%s: computePodActions\n upstream %+v\n podlife  %+v", where, theirs, fromOurs(ours))
			}
			// The sync's own action is computePodActions with the back-off applied, or
			// the termination of a terminal or deleted pod.
			if !s.Actions.Terminate {
				planned := fromOurs(s.Actions)
				for _, w := range s.Actions.BackOff {
					addStart(&planned, w.Container)
				}
				for _, r := range s.Actions.NotAttempted {
					addStart(&planned, r)
				}
				normalize(&planned)
				if fmt.Sprint(planned) != fmt.Sprint(theirs) {
					t.Errorf("%s: the sync's actions\n upstream %+v\n step     %+v", where, theirs, planned)
				}
			} else if !terminal(s.Status.Phase) && pod.DeletionTimestamp == nil {
				t.Errorf("%s: terminated a pod that is neither terminal nor deleted", where)
			}
		}
		prev = s.Status
	}
	return counts
}

func terminal(p v1.PodPhase) bool { return p == v1.PodSucceeded || p == v1.PodFailed }

func condition(cs []v1.PodCondition, t v1.PodConditionType) *v1.PodCondition {
	for i := range cs {
		if cs[i].Type == t {
			return &cs[i]
		}
	}
	return nil
}

// hasActiveRegularContainer is the kubelet's HasAnyActiveRegularContainerStarted over the
// view: a regular container has an instance in the current sandbox.
func hasActiveRegularContainer(pod *v1.Pod, v *restart.View) bool {
	if len(v.Sandboxes) == 0 || !v.Sandboxes[0].Ready {
		return false
	}
	for _, inst := range v.Instances {
		if inst.Sandbox != "" && inst.Sandbox != v.Sandboxes[0].ID {
			continue
		}
		for _, c := range pod.Spec.Containers {
			if c.Name == inst.Name {
				return true
			}
		}
	}
	return false
}

// plan is a comparable form of both answers.
type plan struct {
	KillPod, CreateSandbox bool
	SandboxID              string
	Attempt                uint32
	Init, Regular, Eph     []int
	Kills                  []string
	Resets                 []string
}

func fromOurs(a lifecycle.PodActions) plan {
	p := plan{KillPod: a.KillPod, CreateSandbox: a.CreateSandbox, SandboxID: a.SandboxID, Attempt: a.Attempt}
	for _, r := range a.InitContainersToStart {
		p.Init = append(p.Init, r.Index)
	}
	for _, r := range a.ContainersToStart {
		p.Regular = append(p.Regular, r.Index)
	}
	for _, r := range a.EphemeralContainersToStart {
		p.Eph = append(p.Eph, r.Index)
	}
	for _, k := range a.ContainersToKill {
		p.Kills = append(p.Kills, fmt.Sprintf("%s|%s|%s|%s", k.ID, k.Container.Name, k.Reason, k.Message))
	}
	for _, r := range a.ContainersToReset {
		p.Resets = append(p.Resets, fmt.Sprintf("%s|%s|%t", r.ID, r.Container.Name, r.Kill))
	}
	normalize(&p)
	return p
}

func fromUpstream(a upstreamActions) plan {
	p := plan{KillPod: a.KillPod, CreateSandbox: a.CreateSandbox, SandboxID: a.SandboxID, Attempt: a.Attempt,
		Init: a.InitContainersToStart, Regular: a.ContainersToStart, Eph: a.EphemeralContainersToStart}
	for id, k := range a.ContainersToKill {
		p.Kills = append(p.Kills, fmt.Sprintf("%s|%s|%s|%s", id.String(), k.name, k.reason, k.message))
	}
	for _, r := range a.ContainersToReset {
		p.Resets = append(p.Resets, fmt.Sprintf("%s|%s|%t", r.containerID.String(), r.container.Name, r.kill))
	}
	normalize(&p)
	return p
}

func addStart(p *plan, r lifecycle.ContainerRef) {
	switch r.Kind {
	case lifecycle.KindInitContainer, lifecycle.KindSidecar:
		p.Init = append(p.Init, r.Index)
	case lifecycle.KindEphemeralContainer:
		p.Eph = append(p.Eph, r.Index)
	default:
		p.Regular = append(p.Regular, r.Index)
	}
}

func normalize(p *plan) {
	for _, l := range []*[]int{&p.Init, &p.Regular, &p.Eph} {
		sort.Ints(*l)
		if len(*l) == 0 {
			*l = nil
		}
	}
	sort.Strings(p.Kills)
}

// runtimeStatus converts a view to the kubelet's kubecontainer.PodStatus, as
// kuberuntime's GetPodStatus builds it.
func runtimeStatus(pod *v1.Pod, v *restart.View) *kubecontainer.PodStatus {
	ps := &kubecontainer.PodStatus{ID: pod.UID, Name: pod.Name, Namespace: pod.Namespace}
	for _, sb := range v.Sandboxes {
		st := &runtimeapi.PodSandboxStatus{Id: sb.ID, Metadata: &runtimeapi.PodSandboxMetadata{Attempt: sb.Attempt}, State: runtimeapi.PodSandboxState_SANDBOX_NOTREADY}
		if sb.Ready {
			st.State = runtimeapi.PodSandboxState_SANDBOX_READY
		}
		if sb.HostNetwork {
			st.Linux = &runtimeapi.LinuxPodSandboxStatus{Namespaces: &runtimeapi.Namespace{Options: &runtimeapi.NamespaceOption{Network: runtimeapi.NamespaceMode_NODE}}}
		}
		if sb.Network != nil {
			st.Network = &runtimeapi.PodSandboxNetworkStatus{Ip: sb.Network.IP}
		}
		ps.SandboxStatuses = append(ps.SandboxStatuses, st)
	}
	active := ""
	if len(v.Sandboxes) > 0 && v.Sandboxes[0].Ready {
		active = v.Sandboxes[0].ID
	}
	for _, inst := range v.Instances {
		st := &kubecontainer.Status{ID: containerID(inst.ID), Name: inst.Name, ExitCode: int(inst.ExitCode), Reason: inst.Reason,
			StartedAt: inst.StartedAt, FinishedAt: inst.FinishedAt, RestartCount: int(inst.RestartCount), Image: inst.Image}
		st.State = kubecontainer.State(inst.State)
		if c := spec(pod, inst.Name); c != nil {
			st.Hash = kubecontainer.HashContainer(c)
			if inst.SpecChanged {
				st.Hash++
			}
		}
		ps.ContainerStatuses = append(ps.ContainerStatuses, st)
		if active != "" && (inst.Sandbox == "" || inst.Sandbox == active) {
			ps.ActiveContainerStatuses = append(ps.ActiveContainerStatuses, st)
		}
	}
	return ps
}

func containerID(s string) kubecontainer.ContainerID {
	if t, id, ok := strings.Cut(s, "://"); ok {
		return kubecontainer.ContainerID{Type: t, ID: id}
	}
	return kubecontainer.ContainerID{ID: s}
}

func spec(pod *v1.Pod, name string) *v1.Container {
	for i := range pod.Spec.InitContainers {
		if pod.Spec.InitContainers[i].Name == name {
			return &pod.Spec.InitContainers[i]
		}
	}
	for i := range pod.Spec.Containers {
		if pod.Spec.Containers[i].Name == name {
			return &pod.Spec.Containers[i]
		}
	}
	return nil
}

// setProbes puts the view's liveness and startup results into upstream's caches.
func setProbes(pod *v1.Pod, v *restart.View, liveness, startup proberesults.Manager) {
	for _, inst := range v.Instances {
		id := containerID(inst.ID)
		for _, pr := range []struct {
			m proberesults.Manager
			r restart.ProbeResult
		}{{liveness, inst.Liveness}, {startup, inst.Startup}} {
			switch pr.r {
			case restart.ProbeSuccess:
				pr.m.Set(id, proberesults.Success, pod)
			case restart.ProbeFailure:
				pr.m.Set(id, proberesults.Failure, pod)
			case restart.ProbeUnknown:
				pr.m.Set(id, proberesults.Unknown, pod)
			}
		}
	}
}

func clearProbes(v *restart.View, liveness, startup proberesults.Manager) {
	for _, inst := range v.Instances {
		liveness.Remove(containerID(inst.ID))
		startup.Remove(containerID(inst.ID))
	}
}

// newManager returns a fresh fake kuberuntime manager and its probe result caches.
func newManager(t testing.TB) (unsafe.Pointer, proberesults.Manager, proberesults.Manager) {
	ctx := context.Background()
	m, err := newFakeKubeRuntimeManager(ctx, apitest.NewFakeRuntimeService(), apitest.NewFakeImageService(), nil,
		&containertest.FakeOS{}, &containertest.FakeRuntimeHelper{}, noop.NewTracerProvider().Tracer(""), &record.FakeRecorder{})
	if err != nil {
		t.Fatal(err)
	}
	prefix := (*managerPrefix)(m)
	for _, rm := range []proberesults.Manager{prefix.livenessManager, prefix.startupManager} {
		go func(updates <-chan proberesults.Update) {
			for range updates {
			}
		}(rm.Updates())
	}
	return m, prefix.livenessManager, prefix.startupManager
}

var tableGenerator = printers.NewTableGenerator().With(printersinternal.AddHandlers)

// upstreamRow renders the pod as the API server does for `kubectl get pods -o wide`.
func upstreamRow(t testing.TB, pod *v1.Pod) metav1.TableRow {
	internal := &api.Pod{}
	if err := legacyscheme.Scheme.Convert(pod, internal, nil); err != nil {
		t.Fatalf("convert: %v", err)
	}
	table, err := tableGenerator.GenerateTable(internal, printers.GenerateOptions{Wide: true})
	if err != nil || len(table.Rows) != 1 {
		t.Fatalf("GenerateTable: %v, %d rows", err, len(table.Rows))
	}
	return table.Rows[0]
}

func cells(c lifecycle.Columns) string {
	return fmt.Sprint([]any{c.Name, c.Ready, c.Status, c.Restarts, c.Age, c.IP, c.Node, c.NominatedNode, c.ReadinessGates})
}

func cellsOf(r metav1.TableRow) string { return fmt.Sprint(r.Cells) }

// shift moves every timestamp of the pod by d.
func shift(p *v1.Pod, d time.Duration) *v1.Pod {
	p = p.DeepCopy()
	mv := func(t *metav1.Time) {
		if t != nil && !t.IsZero() {
			t.Time = t.Add(d)
		}
	}
	mv(&p.CreationTimestamp)
	mv(p.DeletionTimestamp)
	mv(p.Status.StartTime)
	for i := range p.Status.Conditions {
		mv(&p.Status.Conditions[i].LastTransitionTime)
		mv(&p.Status.Conditions[i].LastProbeTime)
	}
	for _, list := range [][]v1.ContainerStatus{p.Status.InitContainerStatuses, p.Status.ContainerStatuses, p.Status.EphemeralContainerStatuses} {
		for i := range list {
			for _, st := range []*v1.ContainerState{&list[i].State, &list[i].LastTerminationState} {
				if st.Running != nil {
					mv(&st.Running.StartedAt)
				}
				if st.Terminated != nil {
					mv(&st.Terminated.StartedAt)
					mv(&st.Terminated.FinishedAt)
				}
			}
		}
	}
	return p
}

// checkEvents feeds the timeline's events to client-go's EventCorrelator as the
// kubelet's recorder does (fake clock at each event's time, a store standing for the
// API server) and compares the records with lifecycle.RecordEvents.
func checkEvents(t *testing.T, name string, tl lifecycle.Timeline) {
	t.Helper()
	clock := clocktesting.NewFakeClock(start)
	c := record.NewEventCorrelatorWithOptions(record.CorrelatorOptions{Clock: clock})
	type stored struct {
		ev    *v1.Event
		order int
	}
	store := map[string]*stored{}
	pod := tl.Pod
	for i, e := range tl.Events {
		clock.SetTime(e.Time)
		ts := metav1.NewTime(e.Time)
		ev := &v1.Event{
			ObjectMeta:     metav1.ObjectMeta{Name: fmt.Sprintf("%s.%x", pod.Name, e.Time.UnixNano()+int64(i)), Namespace: pod.Namespace},
			InvolvedObject: v1.ObjectReference{Kind: "Pod", Namespace: pod.Namespace, Name: pod.Name, UID: pod.UID, APIVersion: "v1", FieldPath: e.FieldPath},
			Reason:         e.Reason, Message: e.Message, FirstTimestamp: ts, LastTimestamp: ts, Count: 1, Type: e.Type,
			Source:              v1.EventSource{Component: "kubelet", Host: "node-1"},
			ReportingController: "kubelet", ReportingInstance: "node-1",
		}
		res, err := c.EventCorrelate(ev)
		if err != nil {
			t.Fatal(err)
		}
		if res.Skip {
			continue
		}
		got := res.Event.DeepCopy()
		if s, ok := store[got.Name]; ok && got.Count > 1 {
			s.ev.Count, s.ev.LastTimestamp, s.ev.Message = got.Count, got.LastTimestamp, got.Message
			c.UpdateState(s.ev)
			continue
		}
		store[got.Name] = &stored{ev: got, order: len(store)}
		c.UpdateState(got)
	}
	var upstream []stored
	for _, s := range store {
		upstream = append(upstream, *s)
	}
	sort.Slice(upstream, func(i, j int) bool { return upstream[i].order < upstream[j].order })
	type rec struct {
		Type, Reason, Message, FieldPath string
		First, Last                      time.Time
		Count                            int32
	}
	var want, got []rec
	for _, s := range upstream {
		e := s.ev
		want = append(want, rec{e.Type, e.Reason, e.Message, e.InvolvedObject.FieldPath, e.FirstTimestamp.Truncate(time.Second), e.LastTimestamp.Truncate(time.Second), e.Count})
	}
	for _, r := range lifecycle.RecordEvents(tl.Events) {
		got = append(got, rec{r.Type, r.Reason, r.Message, r.FieldPath, r.FirstTimestamp, r.LastTimestamp, r.Count})
	}
	if !reflect.DeepEqual(want, got) {
		t.Errorf("%s: event records\n client-go %+v\n podlife   %+v", name, want, got)
	}
}
