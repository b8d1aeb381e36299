package lifecycle

import (
	"strconv"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/podlife/podlife/internal/speed"
	"github.com/podlife/podlife/restart"
)

// statusCase is one NextStatus question: a pod as the API server stores it, the
// runtime view derived from its status (ViewFromStatus), and the time of the sync.
type statusCase struct {
	pod  *corev1.Pod
	view restart.View
	now  time.Time
}

// statusShape is a corpus of NextStatus questions of one shape.
type statusShape struct {
	name  string
	cases []statusCase
}

var shapeT0 = time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)

// storedContainer is a container as a Deployment's pod template gives it and the API
// server stores it (defaults applied): image, port, environment, resources, the
// service-account token mount, termination-message and pull-policy defaults; with
// probes when probed is set.
func storedContainer(name string, probed bool) corev1.Container {
	c := corev1.Container{
		Name:  name,
		Image: "registry.example/team/" + name + ":1.4.2",
		Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 8080, Protocol: corev1.ProtocolTCP}},
		Env: []corev1.EnvVar{
			{Name: "MODE", Value: "production"},
			{Name: "POD_NAME", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.name"}}},
		},
		Resources: corev1.ResourceRequirements{
			Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("128Mi")},
			Limits:   corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("256Mi")},
		},
		VolumeMounts:             []corev1.VolumeMount{{Name: "kube-api-access-7xk2p", ReadOnly: true, MountPath: "/var/run/secrets/kubernetes.io/serviceaccount"}},
		TerminationMessagePath:   corev1.TerminationMessagePathDefault,
		TerminationMessagePolicy: corev1.TerminationMessageReadFile,
		ImagePullPolicy:          corev1.PullIfNotPresent,
	}
	if probed {
		probe := func(path string) *corev1.Probe {
			return &corev1.Probe{
				ProbeHandler:   corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: path, Port: intstr.FromInt32(8080), Scheme: corev1.URISchemeHTTP}},
				TimeoutSeconds: 1, PeriodSeconds: 10, SuccessThreshold: 1, FailureThreshold: 3,
			}
		}
		c.LivenessProbe, c.ReadinessProbe = probe("/healthz"), probe("/ready")
	}
	return c
}

// storedPod is a pod of a Deployment as the API server stores it, with the given
// restart policy and containers, scheduled to a node.
func storedPod(name string, policy corev1.RestartPolicy, inits, apps []corev1.Container) *corev1.Pod {
	grace, tolerate := int64(30), int64(300)
	expiry := int64(3607)
	enable := true
	ctrl := true
	preempt := corev1.PreemptLowerPriority
	priority := int32(0)
	mode := int32(420)
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Name: name, GenerateName: "web-7d4b9c8f6-", Namespace: "prod", UID: "0b6f4a2e-4f1d-4bb1-9c62-0d1f7d2f6b5e",
			ResourceVersion: "123456", Generation: 1, CreationTimestamp: metav1.NewTime(shapeT0),
			Labels:          map[string]string{"app": "web", "pod-template-hash": "7d4b9c8f6"},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-7d4b9c8f6", UID: "4f1d0b6f", Controller: &ctrl, BlockOwnerDeletion: &ctrl}},
		},
		Spec: corev1.PodSpec{
			Volumes: []corev1.Volume{{Name: "kube-api-access-7xk2p", VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{
				Sources: []corev1.VolumeProjection{
					{ServiceAccountToken: &corev1.ServiceAccountTokenProjection{ExpirationSeconds: &expiry, Path: "token"}},
					{ConfigMap: &corev1.ConfigMapProjection{LocalObjectReference: corev1.LocalObjectReference{Name: "kube-root-ca.crt"}, Items: []corev1.KeyToPath{{Key: "ca.crt", Path: "ca.crt"}}}},
					{DownwardAPI: &corev1.DownwardAPIProjection{Items: []corev1.DownwardAPIVolumeFile{{Path: "namespace", FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.namespace"}}}}},
				},
				DefaultMode: &mode,
			}}}},
			InitContainers:                inits,
			Containers:                    apps,
			RestartPolicy:                 policy,
			TerminationGracePeriodSeconds: &grace,
			DNSPolicy:                     corev1.DNSClusterFirst,
			ServiceAccountName:            "default",
			NodeName:                      "node-1",
			SecurityContext:               &corev1.PodSecurityContext{},
			SchedulerName:                 corev1.DefaultSchedulerName,
			Tolerations: []corev1.Toleration{
				{Key: corev1.TaintNodeNotReady, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: &tolerate},
				{Key: corev1.TaintNodeUnreachable, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: &tolerate},
			},
			Priority:           &priority,
			EnableServiceLinks: &enable,
			PreemptionPolicy:   &preempt,
		},
	}
}

// Container statuses as the kubelet writes them.
func runningStatus(name string, at time.Duration, ready bool) corev1.ContainerStatus {
	started := true
	return corev1.ContainerStatus{Name: name, Ready: ready, Started: &started, Image: "registry.example/team/" + name + ":1.4.2",
		ImageID: "registry.example/team/" + name + "@sha256:4f1d0b6f", ContainerID: "containerd://" + name + "-1",
		State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: metav1.NewTime(shapeT0.Add(at))}}}
}

func exitedStatus(name string, code int32, reason string, at time.Duration) corev1.ContainerStatus {
	started := false
	id := "containerd://" + name + "-1"
	return corev1.ContainerStatus{Name: name, Ready: code == 0, Started: &started, Image: "registry.example/team/" + name + ":1.4.2",
		ImageID: "registry.example/team/" + name + "@sha256:4f1d0b6f", ContainerID: id,
		State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: code, Reason: reason, ContainerID: id,
			StartedAt: metav1.NewTime(shapeT0.Add(at - 5*time.Second)), FinishedAt: metav1.NewTime(shapeT0.Add(at))}}}
}

func waitingStatus(name, reason string) corev1.ContainerStatus {
	started := false
	return corev1.ContainerStatus{Name: name, Started: &started, Image: "registry.example/team/" + name + ":1.4.2",
		State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: reason}}}
}

// podConditions are the conditions of a pod: PodReadyToStartContainers, Initialized,
// Ready, ContainersReady and PodScheduled with the given statuses ("" leaves one out).
func podConditions(sandbox, initialized, ready corev1.ConditionStatus) []corev1.PodCondition {
	var out []corev1.PodCondition
	add := func(t corev1.PodConditionType, s corev1.ConditionStatus, reason string) {
		if s == "" {
			return
		}
		c := corev1.PodCondition{Type: t, Status: s, ObservedGeneration: 1, LastTransitionTime: metav1.NewTime(shapeT0.Add(time.Second))}
		if s == corev1.ConditionFalse {
			c.Reason = reason
		}
		out = append(out, c)
	}
	add(corev1.PodReadyToStartContainers, sandbox, "")
	add(corev1.PodInitialized, initialized, ReasonContainersNotInitialized)
	add(corev1.PodReady, ready, ReasonContainersNotReady)
	add(corev1.ContainersReady, ready, ReasonContainersNotReady)
	add(corev1.PodScheduled, corev1.ConditionTrue, "")
	return out
}

// setStatus gives pod a status of the given phase, with its sandbox's IP when it has
// one, and derives the view from it.
func setStatus(pod *corev1.Pod, phase corev1.PodPhase, conds []corev1.PodCondition, inits, apps []corev1.ContainerStatus) statusCase {
	pod.Status = corev1.PodStatus{Phase: phase, Conditions: conds, HostIP: "192.168.1.17", HostIPs: []corev1.HostIP{{IP: "192.168.1.17"}},
		InitContainerStatuses: inits, ContainerStatuses: apps, QOSClass: corev1.PodQOSBurstable, ObservedGeneration: 1}
	if len(conds) > 1 {
		pod.Status.PodIP, pod.Status.PodIPs = "10.244.1.23", []corev1.PodIP{{IP: "10.244.1.23"}}
		pod.Status.StartTime = &metav1.Time{Time: shapeT0.Add(time.Second)}
	}
	return statusCase{pod: pod, view: ViewFromStatus(pod), now: shapeT0.Add(time.Hour)}
}

// statusShapes are the corpora NextStatus is timed on, 4 pods a shape, as the API
// server stores them (storedPod):
//   - scheduled: just bound to the node, no status but PodScheduled, no sandbox;
//   - init: an init container done, the next running, the apps waiting;
//   - running: 1 to 4 probed apps, running and ready;
//   - sidecars: an init container done, two sidecars and two apps running;
//   - crashloop: one app running, one in CrashLoopBackOff after exit code 1;
//   - succeeded, failed: a Job's pod (restartPolicy Never) whose container exited 0 or 1;
//   - deleting: a running pod with a deletionTimestamp;
//   - many: 40 apps and 10 sidecars running;
//   - bench: benchPod, minimal specs (the figure README rows gave before).
func statusShapes() []statusShape {
	always := corev1.ContainerRestartPolicyAlways
	sidecar := func(name string) corev1.Container {
		c := storedContainer(name, true)
		c.RestartPolicy = &always
		c.LivenessProbe = nil
		c.StartupProbe = c.ReadinessProbe
		return c
	}
	var shapes []statusShape
	add := func(name string, f func(i int) statusCase) {
		s := statusShape{name: name}
		for i := range 4 {
			s.cases = append(s.cases, f(i))
		}
		shapes = append(shapes, s)
	}
	pn := func(i int) string { return "web-7d4b9c8f6-" + strconv.Itoa(10000+i) }
	add("scheduled", func(i int) statusCase {
		pod := storedPod(pn(i), corev1.RestartPolicyAlways, nil, []corev1.Container{storedContainer("app", true), storedContainer("log", false)})
		return setStatus(pod, corev1.PodPending, podConditions("", "", ""), nil, nil)
	})
	add("init", func(i int) statusCase {
		pod := storedPod(pn(i), corev1.RestartPolicyAlways, []corev1.Container{storedContainer("migrate", false), storedContainer("seed", false)},
			[]corev1.Container{storedContainer("app", true), storedContainer("log", false)})
		return setStatus(pod, corev1.PodPending, podConditions(corev1.ConditionTrue, corev1.ConditionFalse, corev1.ConditionFalse),
			[]corev1.ContainerStatus{exitedStatus("migrate", 0, "Completed", 8*time.Second), runningStatus("seed", 9*time.Second, false)},
			[]corev1.ContainerStatus{waitingStatus("app", ReasonPodInitializing), waitingStatus("log", ReasonPodInitializing)})
	})
	add("running", func(i int) statusCase {
		var apps []corev1.Container
		var sts []corev1.ContainerStatus
		for j := range 1 + i {
			name := "app-" + strconv.Itoa(j)
			apps = append(apps, storedContainer(name, true))
			sts = append(sts, runningStatus(name, 5*time.Second, true))
		}
		pod := storedPod(pn(i), corev1.RestartPolicyAlways, nil, apps)
		return setStatus(pod, corev1.PodRunning, podConditions(corev1.ConditionTrue, corev1.ConditionTrue, corev1.ConditionTrue), nil, sts)
	})
	add("sidecars", func(i int) statusCase {
		pod := storedPod(pn(i), corev1.RestartPolicyAlways, []corev1.Container{storedContainer("migrate", false), sidecar("proxy"), sidecar("logs")},
			[]corev1.Container{storedContainer("app", true), storedContainer("worker", true)})
		return setStatus(pod, corev1.PodRunning, podConditions(corev1.ConditionTrue, corev1.ConditionTrue, corev1.ConditionTrue),
			[]corev1.ContainerStatus{exitedStatus("migrate", 0, "Completed", 4*time.Second), runningStatus("proxy", 5*time.Second, true), runningStatus("logs", 5*time.Second, true)},
			[]corev1.ContainerStatus{runningStatus("app", 6*time.Second, true), runningStatus("worker", 6*time.Second, true)})
	})
	add("crashloop", func(i int) statusCase {
		pod := storedPod(pn(i), corev1.RestartPolicyAlways, nil, []corev1.Container{storedContainer("app", true), storedContainer("cache", false)})
		crash := waitingStatus("app", restart.ReasonCrashLoopBackOff)
		crash.State.Waiting.Message = "back-off 2m40s restarting failed container=app pod=" + pod.Name + "_prod(" + string(pod.UID) + ")"
		crash.RestartCount = 5 + int32(i)
		crash.ContainerID = "containerd://app-5"
		crash.LastTerminationState = exitedStatus("app", 1, "Error", 50*time.Minute).State
		return setStatus(pod, corev1.PodRunning, podConditions(corev1.ConditionTrue, corev1.ConditionTrue, corev1.ConditionFalse), nil,
			[]corev1.ContainerStatus{crash, runningStatus("cache", 5*time.Second, true)})
	})
	for _, end := range []struct {
		name   string
		code   int32
		reason string
		phase  corev1.PodPhase
	}{{"succeeded", 0, "Completed", corev1.PodSucceeded}, {"failed", 1, "Error", corev1.PodFailed}} {
		add(end.name, func(i int) statusCase {
			pod := storedPod(pn(i), corev1.RestartPolicyNever, nil, []corev1.Container{storedContainer("job", false)})
			return setStatus(pod, end.phase, podConditions(corev1.ConditionFalse, corev1.ConditionTrue, corev1.ConditionFalse), nil,
				[]corev1.ContainerStatus{exitedStatus("job", end.code, end.reason, 10*time.Minute)})
		})
	}
	add("deleting", func(i int) statusCase {
		pod := storedPod(pn(i), corev1.RestartPolicyAlways, nil, []corev1.Container{storedContainer("app", true), storedContainer("log", false)})
		c := setStatus(pod, corev1.PodRunning, podConditions(corev1.ConditionTrue, corev1.ConditionTrue, corev1.ConditionTrue), nil,
			[]corev1.ContainerStatus{runningStatus("app", 5*time.Second, true), runningStatus("log", 5*time.Second, true)})
		grace := int64(30)
		pod.DeletionTimestamp, pod.DeletionGracePeriodSeconds = &metav1.Time{Time: shapeT0.Add(time.Hour - 10*time.Second)}, &grace
		return c
	})
	add("many (10 sidecars, 40 apps)", func(i int) statusCase {
		var inits, apps []corev1.Container
		var ists, asts []corev1.ContainerStatus
		for j := range 10 {
			name := "side-" + strconv.Itoa(j)
			inits = append(inits, sidecar(name))
			ists = append(ists, runningStatus(name, 5*time.Second, true))
		}
		for j := range 40 {
			name := "app-" + strconv.Itoa(10+j)
			apps = append(apps, storedContainer(name, j%2 == 0))
			asts = append(asts, runningStatus(name, 6*time.Second, true))
		}
		pod := storedPod(pn(i), corev1.RestartPolicyAlways, inits, apps)
		return setStatus(pod, corev1.PodRunning, podConditions(corev1.ConditionTrue, corev1.ConditionTrue, corev1.ConditionTrue), ists, asts)
	})
	add("bench (minimal specs)", func(int) statusCase {
		pod, v := benchPod()
		return statusCase{pod: pod, view: v, now: pod.Status.StartTime.Add(time.Hour)}
	})
	return shapes
}

// BenchmarkNextStatusShapes measures NextStatus next to a DeepCopy of the same pod,
// shape by shape (statusShapes); TestNextStatusSpeedRatio compares them in
// interleaved rounds.
func BenchmarkNextStatusShapes(b *testing.B) {
	for _, s := range statusShapes() {
		b.Run(s.name+"/NextStatus", func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				c := &s.cases[i%len(s.cases)]
				_ = NextStatus(c.pod, &c.view, c.now, Options{})
				i++
			}
		})
		b.Run(s.name+"/DeepCopy", func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				_ = s.cases[i%len(s.cases)].pod.DeepCopy()
				i++
			}
		})
	}
}

// TestNextStatusSpeedRatio compares, shape by shape (statusShapes), NextStatus with
// pod.DeepCopy() of the same pods and prints the ratios, per-call costs and
// allocations (internal/speed: PODLIFE_SPEED=1 for interleaved rounds of thread CPU
// time, PODLIFE_SPEED=instructions for instruction counts under callgrind). It
// asserts no time. The sides allocate very different amounts (NextStatus 1–9
// allocations a call, a deep copy 42–713), so the rounds run with the collector in its
// steady state (speed.Options.Steady), as TestSimulateSpeedRatio's do: after a forced
// collection the deep copies of a short round never met a collection, and the crash
// loop's ratio read 0.44–0.53 where BenchmarkNextStatusShapes, whose loop meets the
// collector as a program does, shows 0.37.
func TestNextStatusSpeedRatio(t *testing.T) {
	s := speed.NewSuite(t, "NextStatus / pod.DeepCopy()")
	s.Steady()
	var sink *corev1.Pod
	for _, sh := range statusShapes() {
		cases := sh.cases
		s.Add(sh.name, speed.Side{Calls: len(cases), Run: func() {
			for i := range cases {
				_ = NextStatus(cases[i].pod, &cases[i].view, cases[i].now, Options{})
			}
		}}, speed.Side{Calls: len(cases), Run: func() {
			for i := range cases {
				sink = cases[i].pod.DeepCopy()
			}
		}})
	}
	_ = sink
	s.Report()
}

// simSet is a named set of lifecycles TestSimulateSpeedRatio times as one shape.
type simSet struct {
	name  string
	cases []simCase
}

// simSets are the shapes of TestSimulateSpeedRatio: the myapp-pod, the whole corpus
// (simCorpus), then each lifecycle of the corpus but the seed alone ("corpus/<name>"),
// so that the worst lifecycle shows.
func simSets() []simSet {
	corpus := simCorpus()
	sets := []simSet{{"myapp", []simCase{seedCase()}}, {"corpus", corpus}}
	for _, c := range corpus[1:] {
		sets = append(sets, simSet{"corpus/" + c.name, []simCase{c}})
	}
	return sets
}

// TestSimulateSpeedRatio compares Simulate per sync with one pod.DeepCopy() per sync,
// on the myapp-pod, on the corpus of BenchmarkSimulate and on each of its lifecycles, as TestNextStatusSpeedRatio
// does but with the collector in its steady state (speed.Options.Steady): a lifecycle
// allocates 1.6 to 2.2 times the bytes of its syncs' deep copies, and short turns after a
// forced collection let the copies run on a freshly swept heap without ever meeting a
// collection (0.7 µs a copy instead of 2–2.5 µs), which tripled the ratio.
// BenchmarkSimulateVsDeepCopy measures the same with turns of one lifecycle.
func TestSimulateSpeedRatio(t *testing.T) {
	s := speed.NewSuite(t, "Simulate per sync / pod.DeepCopy() per sync")
	s.Steady()
	var sink *corev1.Pod
	for _, set := range simSets() {
		cases := set.cases
		steps := make([]int, len(cases))
		total := 0
		for i := range cases {
			steps[i] = len(Simulate(cases[i].pod, cases[i].script, cases[i].opts).Steps)
			total += steps[i]
		}
		s.Add(set.name, speed.Side{Calls: total, Run: func() {
			for i := range cases {
				_ = Simulate(cases[i].pod, cases[i].script, cases[i].opts)
			}
		}}, speed.Side{Calls: total, Run: func() {
			for i := range cases {
				for range steps[i] {
					sink = cases[i].pod.DeepCopy()
				}
			}
		}})
	}
	_ = sink
	s.Report()
}
