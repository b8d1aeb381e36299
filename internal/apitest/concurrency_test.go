package apitest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/podlife/podlife"
	"github.com/podlife/podlife/lifecycle"
	"github.com/podlife/podlife/resources"
	"github.com/podlife/podlife/restart"
	"github.com/podlife/podlife/validation"
	"github.com/podlife/podlife/validation/apischeme"
	"github.com/podlife/podlife/validation/apply"
)

var t0 = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

// qty builds quantities whose cached string form is empty, so that a function that
// formats an input quantity (which caches the text in the quantity) is seen writing
// to shared memory by the race detector.
func qty(milli int64, f resource.Format) resource.Quantity {
	return *resource.NewMilliQuantity(milli, f)
}

func list(cpuMilli, memMi int64) corev1.ResourceList {
	return corev1.ResourceList{
		corev1.ResourceCPU:    qty(cpuMilli, resource.DecimalSI),
		corev1.ResourceMemory: qty(memMi*1024*1024*1000, resource.BinarySI),
	}
}

// fixtures are the shared inputs. Every call builds them anew, so that the inputs of
// the concurrent phase have not been touched by the sequential one.
type fixtures struct {
	pod, running, old *corev1.Pod
	view              restart.View
	template          *corev1.PodTemplateSpec
	deployment        *appsv1.Deployment
	// stored is deployment as stored before a change of its replicas: an update
	// from it moves the generation on, so the template's warnings are sent.
	stored   *appsv1.Deployment
	job      *batchv1.Job
	manifest string
	// scheme is shared by every stream read with it (StreamOptions.Scheme).
	scheme *k8sruntime.Scheme
	// live holds manifest's objects as stored, shared by every stream that updates
	// them (StreamOptions.Stored).
	live *validation.StoredObjects
	// custom are the kinds customDefinitions serves, shared by every stream that
	// maps them (StreamOptions.CustomResources).
	custom []validation.CustomResource
}

// customDefinitions is a CustomResourceDefinition the streams of custom resources
// serve; customObjects are objects of its kind and of one not served.
const (
	customDefinitions = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: widgets.example.com}\n" +
		"spec:\n  group: example.com\n  names: {kind: Widget, plural: widgets}\n  scope: Namespaced\n  versions: [{name: v1, served: true}, {name: v1beta1, served: true}]\n"
	customObjects = "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n---\napiVersion: example.com/v1beta1\nkind: widget\nmetadata: {name: w}\n---\n" +
		"apiVersion: example.com/v2\nkind: Widget\nmetadata: {name: x}\n"
)

// customKinds are the kinds customDefinitions serves.
func customKinds() []validation.CustomResource {
	custom, err := validation.ReadCustomResources(strings.NewReader(customDefinitions))
	if err != nil {
		panic(err)
	}
	return custom
}

// liveOf reads a manifest's objects as a cluster's stored objects.
func liveOf(manifest string) *validation.StoredObjects {
	live := new(validation.StoredObjects)
	for r := range validation.ValidateStream(strings.NewReader(manifest), "live.yaml", validation.StreamOptions{DecodeOnly: true}) {
		live.Add(r)
	}
	return live
}

// storedBefore returns d as stored, with other replicas than d's.
func storedBefore(d *appsv1.Deployment) *appsv1.Deployment {
	stored := d.DeepCopy()
	replicas := int32(1)
	if d.Spec.Replicas != nil {
		replicas = *d.Spec.Replicas + 1
	}
	stored.Spec.Replicas, stored.ResourceVersion, stored.Generation = &replicas, "7", 2
	return stored
}

func newFixtures() *fixtures {
	always, never := corev1.ContainerRestartPolicyAlways, corev1.ContainerRestartPolicyNever
	grace := int64(30)
	rules := []corev1.ContainerRestartRule{{
		Action:    corev1.ContainerRestartRuleActionRestart,
		ExitCodes: &corev1.ContainerRestartRuleOnExitCodes{Operator: corev1.ContainerRestartRuleOnExitCodesOpIn, Values: []int32{42}},
	}}
	probe := &corev1.Probe{ProbeHandler: corev1.ProbeHandler{Exec: &corev1.ExecAction{Command: []string{"true"}}}}
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", UID: "uid-1", Generation: 1,
			CreationTimestamp: metav1.NewTime(t0), Labels: map[string]string{"app": "web"}},
		Spec: corev1.PodSpec{
			TerminationGracePeriodSeconds: &grace,
			// Deprecated labels, which the server warns about in an order of its own.
			NodeSelector: map[string]string{"beta.kubernetes.io/os": "linux", "beta.kubernetes.io/arch": "amd64", "kubernetes.io/hostname": "n1"},
			InitContainers: []corev1.Container{
				{Name: "init", Image: "busybox:1.28", Resources: corev1.ResourceRequirements{Limits: list(200, 64)}},
				{Name: "proxy", Image: "envoy:1", RestartPolicy: &always, StartupProbe: probe, Resources: corev1.ResourceRequirements{Requests: list(100, 32)}},
			},
			Containers: []corev1.Container{
				{Name: "app", Image: "nginx:1.27", ReadinessProbe: probe, Resources: corev1.ResourceRequirements{Requests: list(250, 64), Limits: list(500, 128)},
					RestartPolicy: &never, RestartPolicyRules: rules},
				{Name: "worker", Image: "worker:2", Resources: corev1.ResourceRequirements{Limits: list(1000, 256)}},
			},
			Overhead: list(10, 8),
		},
	}
	running := pod.DeepCopy()
	running.Status = corev1.PodStatus{
		Phase: corev1.PodRunning, PodIP: "10.0.0.7", HostIP: "192.168.0.2",
		InitContainerStatuses: []corev1.ContainerStatus{
			{Name: "init", State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 0, Reason: "Completed", FinishedAt: metav1.NewTime(t0.Add(5 * time.Second))}}},
			{Name: "proxy", State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: metav1.NewTime(t0.Add(6 * time.Second))}}},
		},
		ContainerStatuses: []corev1.ContainerStatus{
			{Name: "app", RestartCount: 2, State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "CrashLoopBackOff", Message: "back-off 20s restarting failed container=app pod=web_default(uid-1)"}},
				LastTerminationState: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 42, Reason: "Error", FinishedAt: metav1.NewTime(t0.Add(40 * time.Second))}}},
			{Name: "worker", State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: metav1.NewTime(t0.Add(8 * time.Second))}}},
		},
	}
	old := podlife.Default(pod)
	old.ResourceVersion = "7"
	template := &corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}}, Spec: *pod.Spec.DeepCopy()}
	template.Spec.Containers[0].RestartPolicy, template.Spec.Containers[0].RestartPolicyRules = nil, nil
	replicas := int32(3)
	deployment := &appsv1.Deployment{
		TypeMeta:   metav1.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: appsv1.DeploymentSpec{Replicas: &replicas, Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: *template.DeepCopy()},
	}
	job := &batchv1.Job{
		TypeMeta:   metav1.TypeMeta{APIVersion: "batch/v1", Kind: "Job"},
		ObjectMeta: metav1.ObjectMeta{Name: "batch", Namespace: "default"},
		Spec:       batchv1.JobSpec{Template: *template.DeepCopy()},
	}
	job.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyNever
	f := &fixtures{
		pod: pod, running: running, old: old, view: lifecycle.ViewFromStatus(running),
		template: template, deployment: deployment, stored: storedBefore(deployment), job: job,
		manifest: "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec:\n  containers:\n  - {name: c, image: nginx}\n---\n" +
			"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec: {selector: {matchLabels: {a: b}}, template: {metadata: {labels: {a: c}}, spec: {containers: [{name: c, image: x}]}}}\n---\n" +
			"apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec: {ports: [{port: 80, targetport: 8080}]}\n---\n" +
			"apiVersion: v1\nkind: Pod\nmetadata: {name: e}\nspec: {containers: [{name: c, image: nginx, env: [{name: A, value: a}, {name: B, value: yes}]}]}\n",
		scheme: apischeme.New(),
	}
	f.live = liveOf(f.manifest)
	f.custom = customKinds()
	return f
}

// call is one exported function applied to the shared fixtures.
type call struct {
	name string
	fn   func(f *fixtures) any
}

var (
	gates = podlife.FeatureGates{"AllBeta": false}
	ropts = restart.Options{Features: podlife.FeatureGates{"RestartAllContainersOnContainerExits": true}}
)

// calls lists every exported function of the public packages (TestCallsCoverAPI
// checks it) and the methods that compute something.
var calls = []call{
	// podlife
	{"podlife.Default", func(f *fixtures) any { return podlife.Default(f.pod) }},
	{"podlife.DefaultWithOptions", func(f *fixtures) any {
		return podlife.DefaultWithOptions(f.pod, podlife.DefaultOptions{Features: gates, Now: t0})
	}},
	{"podlife.DefaultForUpdate", func(f *fixtures) any { return podlife.DefaultForUpdate(f.running, f.old, podlife.DefaultOptions{}) }},
	{"podlife.DefaultTemplate", func(f *fixtures) any { return podlife.DefaultTemplate(f.template) }},
	{"podlife.DefaultTemplateWithOptions", func(f *fixtures) any {
		return podlife.DefaultTemplateWithOptions(f.template, podlife.DefaultOptions{Features: gates})
	}},
	{"podlife.DefaultTemplateForUpdate", func(f *fixtures) any {
		return podlife.DefaultTemplateForUpdate(f.template, f.template, podlife.DefaultOptions{})
	}},
	{"podlife.PodFromTemplate", func(f *fixtures) any {
		return podlife.PodFromTemplate(f.template, podlife.PodFromTemplateOptions{ControllerName: "web", Namespace: "default"})
	}},
	{"podlife.PodFromObject", func(f *fixtures) any {
		p, err := podlife.PodFromObject(f.deployment, podlife.PodFromTemplateOptions{})
		return []any{p, err}
	}},
	{"podlife.KnownFeatureGates", func(f *fixtures) any { return podlife.KnownFeatureGates() }},
	{"podlife.LookupFeatureGate", func(f *fixtures) any {
		s, ok := podlife.LookupFeatureGate("ContainerRestartRules")
		return []any{s, ok}
	}},
	{"podlife.FeatureGates.Validate", func(f *fixtures) any { return fmt.Sprint(podlife.FeatureGates{"AllAlpha": true}.Validate()) }},
	{"podlife.FeatureGates.Enabled", func(f *fixtures) any { return gates.Enabled("EnvFiles") }},
	{"podlife.ParseFeatureGates", func(f *fixtures) any {
		g, err := podlife.ParseFeatureGates("AllBeta=true, ContainerRestartRules=false,RestartAllContainersOnContainerExits=false")
		return []any{g, fmt.Sprint(err)}
	}},

	// resources
	{"resources.PodRequests", func(f *fixtures) any {
		return resources.PodRequests(f.running, resources.PodResourcesOptions{UseStatusResources: true})
	}},
	{"resources.PodLimits", func(f *fixtures) any { return resources.PodLimits(f.pod, resources.PodResourcesOptions{}) }},
	{"resources.AggregateContainerRequests", func(f *fixtures) any {
		return resources.AggregateContainerRequests(f.pod, resources.PodResourcesOptions{})
	}},
	{"resources.AggregateContainerLimits", func(f *fixtures) any {
		return resources.AggregateContainerLimits(f.pod, resources.PodResourcesOptions{})
	}},
	{"resources.ComputePodQOS", func(f *fixtures) any { return resources.ComputePodQOS(f.pod) }},
	{"resources.ComputePodQOSWithOptions", func(f *fixtures) any {
		return resources.ComputePodQOSWithOptions(f.pod, resources.QOSOptions{DisablePodLevelResources: true})
	}},
	{"resources.GetPodQOS", func(f *fixtures) any { return resources.GetPodQOS(f.running) }},
	{"resources.GetPodQOSWithOptions", func(f *fixtures) any { return resources.GetPodQOSWithOptions(f.running, resources.QOSOptions{}) }},
	{"resources.GetContainerDRAAllocations", func(f *fixtures) any { return resources.GetContainerDRAAllocations(f.pod, "app") }},
	{"resources.IsPodLevelLimitsSet", func(f *fixtures) any { return resources.IsPodLevelLimitsSet(f.pod) }},
	{"resources.IsPodLevelRequestsSet", func(f *fixtures) any { return resources.IsPodLevelRequestsSet(f.pod) }},
	{"resources.IsPodLevelResourcesSet", func(f *fixtures) any { return resources.IsPodLevelResourcesSet(f.pod) }},
	{"resources.IsPodResizeDeferred", func(f *fixtures) any { return resources.IsPodResizeDeferred(f.running) }},
	{"resources.IsPodResizeInfeasible", func(f *fixtures) any { return resources.IsPodResizeInfeasible(f.running) }},
	{"resources.IsSupportedPodLevelResource", func(f *fixtures) any { return resources.IsSupportedPodLevelResource(corev1.ResourceCPU) }},
	{"resources.SupportedPodLevelResources", func(f *fixtures) any { return resources.SupportedPodLevelResources().UnsortedList() != nil }},
	{"resources.Explain", func(f *fixtures) any { return resources.Explain(f.pod, resources.PodResourcesOptions{}).String() }},

	// validation
	{"validation.ValidatePodCreate", func(f *fixtures) any {
		return errs(validation.ValidatePodCreate(f.pod, validation.Options{Features: gates}))
	}},
	{"validation.ValidatePodUpdate", func(f *fixtures) any {
		return errs(validation.ValidatePodUpdate(f.running, f.old, validation.Options{}))
	}},
	{"validation.ValidatePodTemplateSpec", func(f *fixtures) any {
		return errs(validation.ValidatePodTemplateSpec(f.template, field.NewPath("spec", "template"), validation.Options{}))
	}},
	{"validation.ValidateObjectCreate", func(f *fixtures) any { return errs(validation.ValidateObjectCreate(f.job, validation.Options{})) }},
	{"validation.ValidateObjectUpdate", func(f *fixtures) any {
		return errs(validation.ValidateObjectUpdate(f.deployment, f.deployment, validation.Options{}))
	}},
	{"validation.CreateWarnings", func(f *fixtures) any { return validation.CreateWarnings(f.pod, validation.Options{Features: gates}) }},
	{"validation.UpdateWarnings", func(f *fixtures) any {
		return validation.UpdateWarnings(f.deployment, f.stored, validation.Options{Features: gates})
	}},
	{"validation.SupportedKinds", func(f *fixtures) any { return validation.SupportedKinds() }},
	{"validation.ValidateStream", func(f *fixtures) any {
		var out []string
		for r := range validation.ValidateStream(strings.NewReader(f.manifest), "m.yaml", validation.StreamOptions{Scheme: f.scheme}) {
			p, _ := r.TypeErrorField()
			out = append(out, fmt.Sprintf("%d %s %s %s %s %s", r.Line, r.Kind, r.Name, r.Verdict, r.Message(), p))
		}
		return out
	}},
	{"validation.ValidateStream/Stored", func(f *fixtures) any {
		var out []string
		for r := range validation.ValidateStream(strings.NewReader(f.manifest), "m.yaml", validation.StreamOptions{Stored: f.live.Get}) {
			out = append(out, fmt.Sprintf("%d %s %s %t %s %s %v", r.Line, r.Kind, r.Name, r.Update, r.Verdict, r.Message(), r.Warnings))
		}
		return out
	}},
	{"validation.ValidateStream/Apply", func(f *fixtures) any {
		// The same objects applied over the stored ones: patches (some "{}"), and a
		// stream of its own that applies each object twice.
		var out []string
		for r := range validation.ValidateStream(strings.NewReader(f.manifest), "m.yaml", validation.StreamOptions{Stored: f.live.Get, Apply: apply.Patcher{}}) {
			out = append(out, fmt.Sprintf("%d %s %s %t %s %s %s %v", r.Line, r.Kind, r.Name, r.Update, r.Verdict, r.Patch, r.Message(), r.Warnings))
		}
		for r := range validation.ValidateStream(strings.NewReader(f.manifest+"---\n"+f.manifest), "m.yaml", validation.StreamOptions{Apply: apply.Patcher{}}) {
			out = append(out, fmt.Sprintf("%d %s %s %t %s %s %s", r.Line, r.Kind, r.Name, r.Update, r.Verdict, r.Patch, r.Message()))
		}
		return out
	}},
	{"apply.Patcher", func(f *fixtures) any {
		var p apply.Patcher
		current, _ := json.Marshal(f.deployment)
		modified := bytes.Replace(current, []byte(`"replicas":`), []byte(`"minReadySeconds":5,"replicas":`), 1)
		patch, err := p.CreateThreeWayPatch(nil, modified, current, &appsv1.Deployment{})
		var currentMap, patchMap map[string]any
		_ = json.Unmarshal(current, &currentMap)
		_ = json.Unmarshal(patch, &patchMap)
		merged, err2 := p.ApplyPatch(currentMap, patchMap, &appsv1.Deployment{})
		return []any{string(patch), err, merged, err2}
	}},
	{"validation.ReadCustomResources", func(f *fixtures) any {
		custom, err := validation.ReadCustomResources(strings.NewReader(customDefinitions))
		return []any{custom, err}
	}},
	{"validation.ValidateStream/CustomResources", func(f *fixtures) any {
		var out []string
		for r := range validation.ValidateStream(strings.NewReader(f.manifest+"---\n"+customObjects), "m.yaml", validation.StreamOptions{CustomResources: f.custom}) {
			out = append(out, fmt.Sprintf("%d %s %s %s %s", r.Line, r.Kind, r.Name, r.Verdict, r.Message()))
		}
		return out
	}},
	{"apischeme.New", func(f *fixtures) any { return len(apischeme.New().AllKnownTypes()) }},
	{"validation.FeatureGateHints", func(f *fixtures) any { return validation.FeatureGateHints(f.pod, validation.Options{Features: gates}) }},
	{"validation.RefusalOf", func(f *fixtures) any {
		r, ok := validation.RefusalOf(validation.ValidatePodUpdate(f.pod, f.old, validation.Options{}))
		return []any{r, ok}
	}},

	// restart
	{"restart.ShouldRestart", func(f *fixtures) any { return restart.ShouldRestart(f.running, "app", ropts).Explain() }},
	{"restart.ShouldRestartInstance", func(f *fixtures) any {
		inst, _ := f.view.Newest("app")
		return restart.ShouldRestartInstance(f.running, ctrAt(f.running, 0), &inst, ropts).String()
	}},
	{"restart.InstanceFromStatus", func(f *fixtures) any {
		i, ok := restart.InstanceFromStatus(statusAt(f.running, 0))
		return []any{i, ok}
	}},
	{"restart.ExitedInstance", func(f *fixtures) any {
		return restart.ExitedInstance("app", lastTermination(statusAt(f.running, 0)))
	}},
	{"restart.MatchingRule", func(f *fixtures) any {
		r, i, ok := restart.MatchingRule(ctrAt(f.pod, 0), 42)
		return []any{r, i, ok}
	}},
	{"restart.ContainerShouldRestart", func(f *fixtures) any {
		return restart.ContainerShouldRestart(ctrAt(f.pod, 0), &f.pod.Spec, 1, ropts)
	}},
	{"restart.IsContainerRestartable", func(f *fixtures) any { return restart.IsContainerRestartable(&f.pod.Spec, ctrAt(f.pod, 0)) }},
	{"restart.AllContainersCouldRestart", func(f *fixtures) any { return restart.AllContainersCouldRestart(&f.pod.Spec) }},
	{"restart.ShouldAllContainersRestart", func(f *fixtures) any { return restart.ShouldAllContainersRestart(f.running, &f.view) }},
	{"restart.AllContainersRestartCleanedUp", func(f *fixtures) any { return restart.AllContainersRestartCleanedUp(f.running, nil) }},
	{"restart.IsInitContainerFailed", func(f *fixtures) any { i, _ := f.view.Newest("init"); return restart.IsInitContainerFailed(&i) }},
	{"restart.IsRestartableInitContainer", func(f *fixtures) any { return restart.IsRestartableInitContainer(initAt(f.pod, 1)) }},
	{"restart.InitContainerAction", func(f *fixtures) any {
		i, _ := f.view.Newest("init")
		return restart.InitContainerAction(f.running, initAt(f.running, 0), &i, ropts).String()
	}},
	{"restart.BackOffKey", func(f *fixtures) any { return restart.BackOffKey(f.running, ctrAt(f.running, 0)) }},
	{"restart.PodDesc", func(f *fixtures) any { return restart.PodDesc(f.pod) }},
	{"restart.CrashLoopMessage", func(f *fixtures) any { return restart.CrashLoopMessage(20*time.Second, "app", f.pod) }},
	{"restart.CrashLoopEventMessage", func(f *fixtures) any { return restart.CrashLoopEventMessage("app", f.pod) }},
	{"restart.ImagePullBackOffKey", func(f *fixtures) any { return restart.ImagePullBackOffKey("uid", "nginx") }},
	{"restart.ImagePullBackOffMessage", func(f *fixtures) any { return restart.ImagePullBackOffMessage("nginx", "ErrImagePull: x") }},
	{"restart.ImagePullError", func(f *fixtures) any {
		a, b, c := restart.ImagePullError("nginx", "RegistryUnavailable: down")
		return []string{a, b, c}
	}},
	{"restart.CrashLoopBackOffPolicy", func(f *fixtures) any {
		p := restart.CrashLoopBackOffPolicy(ropts)
		b := p.Next(restart.BackOff{}, t0, t0)
		at, next := p.AfterExit(b, t0.Add(time.Second))
		return []any{p.Schedule(8), p.CheckStart(b, t0, true, t0.Add(5*time.Second)), at, next,
			p.Expired(b, t0.Add(time.Hour)), p.GC(b, t0.Add(time.Hour)), p.InBackOffSince(b, t0, t0), p.InBackOffSinceUpdate(b, t0), p.RestartAllowedAt(b, t0)}
	}},
	{"restart.ImagePullBackOffPolicy", func(f *fixtures) any {
		s, held, msg := restart.ImagePullState{}.BeforePull("nginx", t0)
		s, reason, m := s.PullFailed("nginx", "boom", t0)
		return []any{restart.ImagePullBackOffPolicy(), held, msg, reason, m, s.PullSucceeded(t0.Add(time.Minute))}
	}},
	{"restart.CrashLoopState.For", func(f *fixtures) any { return restart.CrashLoopState{}.For(f.pod, ctrAt(f.pod, 0)) }},

	// lifecycle
	{"lifecycle.Phase", func(f *fixtures) any { return lifecycle.Phase(f.running, lifecycle.PhaseOptions{}) }},
	{"lifecycle.ResolvePhase", func(f *fixtures) any {
		return lifecycle.ResolvePhase(f.running, corev1.PodRunning, t0, lifecycle.PhaseOptions{})
	}},
	{"lifecycle.StatusPhase", func(f *fixtures) any { return lifecycle.StatusPhase(f.running, t0, lifecycle.PhaseOptions{}) }},
	{"lifecycle.InitializedCondition", func(f *fixtures) any { return lifecycle.InitializedCondition(f.running, corev1.PodRunning, ropts) }},
	{"lifecycle.ContainersReadyCondition", func(f *fixtures) any {
		return lifecycle.ContainersReadyCondition(f.running, corev1.PodRunning, ropts)
	}},
	{"lifecycle.ReadyCondition", func(f *fixtures) any { return lifecycle.ReadyCondition(f.running, corev1.PodRunning, ropts) }},
	{"lifecycle.ReadyConditionWith", func(f *fixtures) any {
		return lifecycle.ReadyConditionWith(f.running, f.running.Status.Conditions, corev1.PodRunning, ropts)
	}},
	{"lifecycle.PodReadyToStartContainersCondition", func(f *fixtures) any {
		return lifecycle.PodReadyToStartContainersCondition(f.running, &f.view, ropts)
	}},
	{"lifecycle.AllContainersRestartingCondition", func(f *fixtures) any {
		c, ok := lifecycle.AllContainersRestartingCondition(f.running, &f.view, corev1.PodRunning, ropts)
		return []any{c, ok}
	}},
	{"lifecycle.ViewFromStatus", func(f *fixtures) any { return lifecycle.ViewFromStatus(f.running) }},
	{"lifecycle.ComputePodActions", func(f *fixtures) any { return lifecycle.ComputePodActions(f.running, &f.view, false, ropts).String() }},
	{"lifecycle.Plan", func(f *fixtures) any {
		return lifecycle.Plan(f.running, &f.view, t0.Add(50*time.Second), ropts).String()
	}},
	{"lifecycle.NextStatus", func(f *fixtures) any { return lifecycle.NextStatus(f.running, &f.view, t0.Add(50*time.Second), ropts) }},
	{"lifecycle.PodColumns", func(f *fixtures) any { return lifecycle.PodColumns(f.running, t0.Add(time.Hour)) }},
	{"lifecycle.RowConditions", func(f *fixtures) any { return lifecycle.RowConditions(f.running) }},
	{"lifecycle.HumanDuration", func(f *fixtures) any { return lifecycle.HumanDuration(90 * time.Minute) }},
	{"lifecycle.TerminationOrder", func(f *fixtures) any { return lifecycle.TerminationOrder(f.running) }},
	{"lifecycle.TerminationOrderOf", func(f *fixtures) any { return lifecycle.TerminationOrderOf(f.running, []string{"app", "proxy"}) }},
	{"lifecycle.TerminationSchedule", func(f *fixtures) any {
		return lifecycle.TerminationSchedule(f.running, lifecycle.TerminationOrder(f.running), nil, nil)
	}},
	{"lifecycle.GracePeriod", func(f *fixtures) any {
		return lifecycle.GracePeriod(f.running, "app", lifecycle.KillReasonLivenessProbe)
	}},
	{"lifecycle.StopTimeout", func(f *fixtures) any {
		return lifecycle.StopTimeout(f.running, "proxy", lifecycle.KillReasonNone, lifecycle.StopOptions{Ordered: true, Wait: 3 * time.Second})
	}},
	{"lifecycle.PodGracePeriod", func(f *fixtures) any { return lifecycle.PodGracePeriod(f.running, 30, nil) }},
	{"lifecycle.ActiveDeadline", func(f *fixtures) any { d, ok := lifecycle.ActiveDeadline(f.running); return []any{d, ok} }},
	{"lifecycle.PastActiveDeadline", func(f *fixtures) any { return lifecycle.PastActiveDeadline(f.running, t0) }},
	{"lifecycle.DeadlineEviction", func(f *fixtures) any { return lifecycle.DeadlineEviction(f.running, t0) }},
	{"lifecycle.Explain", func(f *fixtures) any { return lifecycle.Explain(f.running, t0.Add(50*time.Second), ropts).String() }},
	{"lifecycle.Simulate", func(f *fixtures) any {
		tl := lifecycle.Simulate(f.pod, lifecycle.Script{"app": {Runs: []lifecycle.Run{{Duration: 5 * time.Second, ExitCode: 42}, {Forever: true}}}},
			lifecycle.SimulateOptions{Start: t0, MaxDuration: 2 * time.Minute})
		rows := make([]lifecycle.Columns, len(tl.Steps))
		for i, s := range tl.Steps {
			rows[i] = s.Row
		}
		return []any{rows, tl.End, tl.Events}
	}},
	{"lifecycle.RecordEvents", func(f *fixtures) any {
		ev := []lifecycle.Event{{Time: t0, Type: corev1.EventTypeNormal, Reason: "Pulling", Message: lifecycle.MessagePulling("nginx")}}
		recs := lifecycle.RecordEvents(append(ev, ev...))
		return lifecycle.FormatEventTable(lifecycle.DescribeEvents(recs, t0.Add(time.Minute)))
	}},
	{"lifecycle.DescribeEvents", func(f *fixtures) any {
		return lifecycle.DescribeEvents([]lifecycle.EventRecord{{Type: "Warning", Reason: "BackOff", Message: " m ", Count: 3, FirstTimestamp: t0, LastTimestamp: t0}}, t0.Add(time.Hour))
	}},
	{"lifecycle.FormatEventTable", func(f *fixtures) any { return lifecycle.FormatEventTable(nil) }},
	{"lifecycle.MessagePulling", func(f *fixtures) any { return lifecycle.MessagePulling("nginx") }},
	{"lifecycle.MessagePulled", func(f *fixtures) any { return lifecycle.MessagePulled("nginx", 1500*time.Millisecond, 12345) }},
	{"lifecycle.MessageImagePresent", func(f *fixtures) any { return lifecycle.MessageImagePresent("nginx", true) }},
	{"lifecycle.MessageProbeFailed", func(f *fixtures) any { return lifecycle.MessageProbeFailed("Readiness", "503") }},
	{"lifecycle.MessageStopping", func(f *fixtures) any { return lifecycle.MessageStopping("app") }},
}

// initAt, ctrAt and statusAt return the i-th init container, container or container
// status of pod, or nil when there is none (the hostile shapes vary the lists).
func initAt(pod *corev1.Pod, i int) *corev1.Container {
	if i < len(pod.Spec.InitContainers) {
		return &pod.Spec.InitContainers[i]
	}
	return nil
}

func ctrAt(pod *corev1.Pod, i int) *corev1.Container {
	if i < len(pod.Spec.Containers) {
		return &pod.Spec.Containers[i]
	}
	return nil
}

func statusAt(pod *corev1.Pod, i int) *corev1.ContainerStatus {
	if i < len(pod.Status.ContainerStatuses) {
		return &pod.Status.ContainerStatuses[i]
	}
	return nil
}

func lastTermination(st *corev1.ContainerStatus) *corev1.ContainerStateTerminated {
	if st == nil {
		return nil
	}
	return st.LastTerminationState.Terminated
}

func errs(l field.ErrorList) []string {
	out := make([]string, len(l))
	for i, e := range l {
		out[i] = e.Error()
	}
	return out
}

// render gives a call's answer a comparable form.
func render(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%+v", v)
	}
	return string(b)
}

// runAll calls every function workers times at once, each worker in its own
// goroutine, on one set of fixtures, and returns every answer, rendered after all the
// goroutines have ended (rendering formats quantities, which caches their text).
func runAll(workers int) (f *fixtures, answers [][]string) {
	f = newFixtures()
	raw := make([][]any, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out := make([]any, len(calls))
			// Each worker starts at another call, so different functions overlap.
			for k := range calls {
				i := (k + w*7) % len(calls)
				out[i] = calls[i].fn(f)
			}
			raw[w] = out
		}()
	}
	wg.Wait()
	answers = make([][]string, workers)
	for w := range raw {
		answers[w] = make([]string, len(calls))
		for i, v := range raw[w] {
			answers[w][i] = render(v)
		}
	}
	return f, answers
}

// TestConcurrentCallsAgree runs every exported function from many goroutines on
// shared inputs under several GOMAXPROCS values: every answer equals the sequential
// one, and the inputs are unchanged. Under -race it also shows that nothing writes to
// shared memory.
func TestConcurrentCallsAgree(t *testing.T) {
	_, base := runAll(1)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2, 8} {
		runtime.GOMAXPROCS(procs)
		f, answers := runAll(16)
		for w := range answers {
			for i, got := range answers[w] {
				if got != base[0][i] {
					t.Fatalf("GOMAXPROCS=%d worker %d: %s answered\n%s\nsequentially\n%s", procs, w, calls[i].name, got, base[0][i])
				}
			}
		}
		fresh := newFixtures()
		for name, pair := range map[string][2]any{
			"pod": {f.pod, fresh.pod}, "running": {f.running, fresh.running}, "old": {f.old, fresh.old},
			"template": {f.template, fresh.template}, "deployment": {f.deployment, fresh.deployment}, "stored": {f.stored, fresh.stored}, "job": {f.job, fresh.job},
		} {
			if !apiequality.Semantic.DeepEqual(pair[0], pair[1]) {
				t.Errorf("GOMAXPROCS=%d: the shared %s was modified", procs, name)
			}
		}
		if !reflect.DeepEqual(f.view, fresh.view) {
			t.Errorf("GOMAXPROCS=%d: the shared view was modified", procs)
		}
	}
}

// TestCallsCoverAPI parses the public packages and fails when an exported function
// is missing from calls.
func TestCallsCoverAPI(t *testing.T) {
	listed := map[string]bool{}
	for _, c := range calls {
		listed[c.name] = true
	}
	var missing []string
	for _, pkg := range []struct{ name, dir string }{
		{"podlife", "../.."}, {"resources", "../../resources"}, {"validation", "../../validation"},
		{"restart", "../../restart"}, {"lifecycle", "../../lifecycle"}, {"apischeme", "../../validation/apischeme"},
	} {
		files, err := filepath.Glob(filepath.Join(pkg.dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, file := range files {
			if strings.HasSuffix(file, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Recv != nil || !fd.Name.IsExported() {
					continue
				}
				n++
				if name := pkg.name + "." + fd.Name.Name; !listed[name] {
					missing = append(missing, name)
				}
			}
		}
		if n == 0 {
			t.Fatalf("no exported function found in %s", pkg.dir)
		}
	}
	slices.Sort(missing)
	if len(missing) > 0 {
		t.Errorf("exported functions not called concurrently: %v", missing)
	}
}
