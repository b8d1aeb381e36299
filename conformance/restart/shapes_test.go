package restart

import (
	"strconv"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kubecontainer "k8s.io/kubernetes/pkg/kubelet/container"
)

// speedCase is one ShouldRestart question and upstream's input for it: the container
// (upstream receives it ready-made, podlife looks it up by name in the spec) and the
// kubelet's runtime status of the whole pod, one runtime instance per container that
// has one, newest first, as the kubelet holds it (built once, outside any timing;
// podlife reads pod.Status in place).
type speedCase struct {
	pod  *corev1.Pod
	c    *corev1.Container
	ps   *kubecontainer.PodStatus
	name string
}

// speedShape is a corpus of questions of one shape.
type speedShape struct {
	name  string
	cases []speedCase
}

// podRuntime is the kubelet's runtime status of a whole pod derived from its API
// statuses as ShouldRestart's contract maps them (the first status of a name in its
// kind's list, runtimeFromAPI): ephemeral, regular, then init containers, each kind
// in reverse spec order, which is newest first for a pod whose containers started in
// the kubelet's order.
func podRuntime(pod *corev1.Pod) *kubecontainer.PodStatus {
	ps := &kubecontainer.PodStatus{}
	ks := kinds(pod) // regular, init, ephemeral
	for _, k := range []kind{ks[2], ks[0], ks[1]} {
		for i := len(k.containers) - 1; i >= 0; i-- {
			ps.ContainerStatuses = append(ps.ContainerStatuses, runtimeFromAPI(k.statuses, k.containers[i].Name).ContainerStatuses...)
		}
	}
	return ps
}

// casesOf asks about every container of pod that keep selects.
func casesOf(pod *corev1.Pod, keep func(k int, c *corev1.Container) bool) []speedCase {
	ps := podRuntime(pod)
	var out []speedCase
	for k, kd := range kinds(pod) {
		for _, c := range kd.containers {
			if keep == nil || keep(k, c) {
				out = append(out, speedCase{pod: pod, c: c, ps: ps, name: c.Name})
			}
		}
	}
	return out
}

// The kinds' indexes in kinds().
const (
	kindRegular = iota
	kindInit
	kindEphemeral
)

// shapeStatus cycles through the states an API status reports: running, exited with
// code 0, 1 and 137, waiting after an exit (CrashLoopBackOff), waiting before any run,
// and no status at all (nil).
func shapeStatus(name string, i int) *corev1.ContainerStatus {
	t0 := metav1.NewTime(time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC))
	term := func(code int32, reason string) *corev1.ContainerStateTerminated {
		return &corev1.ContainerStateTerminated{ExitCode: code, Reason: reason, StartedAt: t0, FinishedAt: t0, ContainerID: "containerd://" + name}
	}
	st := &corev1.ContainerStatus{Name: name, Image: "registry.example/" + name + ":1", ImageID: "sha256:0123", ContainerID: "containerd://" + name}
	switch i % 7 {
	case 0:
		st.State.Running = &corev1.ContainerStateRunning{StartedAt: t0}
	case 1:
		st.State.Terminated = term(0, "Completed")
	case 2:
		st.State.Terminated = term(1, "Error")
	case 3:
		st.State.Terminated = term(137, "OOMKilled")
	case 4:
		st.State.Waiting = &corev1.ContainerStateWaiting{Reason: "CrashLoopBackOff", Message: "back-off 10s restarting failed container"}
		st.LastTerminationState.Terminated = term(2, "Error")
		st.RestartCount = 3
	case 5:
		st.State.Waiting = &corev1.ContainerStateWaiting{Reason: "ContainerCreating"}
	case 6:
		return nil
	}
	return st
}

// shapePod builds a pod with the given policy, init containers (sidecar marks which
// are restartable) and regular containers; the container at position i of the pod
// (init first) has the status shapeStatus(i+offset), and restart policy and rules
// from rules when it is set.
func shapePod(policy corev1.RestartPolicy, nInit, nApp int, sidecar func(i int) bool, rules func(i int) (*corev1.ContainerRestartPolicy, []corev1.ContainerRestartRule), offset int) *corev1.Pod {
	always := corev1.ContainerRestartPolicyAlways
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web-" + strconv.Itoa(offset), Namespace: "prod", UID: "uid-1"}}
	pod.Spec.RestartPolicy = policy
	n := 0
	add := func(list *[]corev1.Container, statuses *[]corev1.ContainerStatus, name string) *corev1.Container {
		*list = append(*list, corev1.Container{Name: name, Image: "registry.example/" + name + ":1", ImagePullPolicy: corev1.PullIfNotPresent,
			TerminationMessagePath: corev1.TerminationMessagePathDefault, TerminationMessagePolicy: corev1.TerminationMessageReadFile})
		c := &(*list)[len(*list)-1]
		if rules != nil {
			c.RestartPolicy, c.RestartPolicyRules = rules(n)
		}
		if st := shapeStatus(name, n+offset); st != nil {
			*statuses = append(*statuses, *st)
		}
		n++
		return c
	}
	for i := range nInit {
		name := "init-" + strconv.Itoa(i)
		if sidecar != nil && sidecar(i) {
			name = "sidecar-" + strconv.Itoa(i)
		}
		c := add(&pod.Spec.InitContainers, &pod.Status.InitContainerStatuses, name)
		if sidecar != nil && sidecar(i) {
			c.RestartPolicy = &always
		}
	}
	for i := range nApp {
		add(&pod.Spec.Containers, &pod.Status.ContainerStatuses, "app-"+strconv.Itoa(i))
	}
	return pod
}

// speedShapes are the corpora ShouldRestart is timed on, by shape:
//   - app/Always, app/OnFailure, app/Never: regular containers (1 to 4 a pod) under
//     each pod restart policy, in every state;
//   - init: the (non-restartable) init containers of pods with 1 to 3 of them;
//   - sidecar: restartable init containers beside an init container and the apps;
//   - rules: containers with a container restartPolicy and restartPolicyRules
//     (Restart and RestartAllContainers on some exit codes), in every state;
//   - large: every container of pods with 50 init and 50 regular containers;
//   - deleted: pods being deleted;
//   - random: every container of generated pods (every policy, rule and state the
//     differential test draws; 15% of them being deleted).
func speedShapes() []speedShape {
	var shapes []speedShape
	for _, p := range []corev1.RestartPolicy{corev1.RestartPolicyAlways, corev1.RestartPolicyOnFailure, corev1.RestartPolicyNever} {
		var cases []speedCase
		for i := range 28 {
			pod := shapePod(p, 0, 1+i%4, nil, nil, i)
			cases = append(cases, casesOf(pod, nil)...)
		}
		shapes = append(shapes, speedShape{"app/" + string(p), cases})
	}
	var initCases, sidecarCases, rulesCases, deletedCases []speedCase
	for i := range 28 {
		policy := []corev1.RestartPolicy{corev1.RestartPolicyAlways, corev1.RestartPolicyOnFailure, corev1.RestartPolicyNever}[i%3]
		pod := shapePod(policy, 1+i%3, 1+i%2, nil, nil, i)
		initCases = append(initCases, casesOf(pod, func(k int, _ *corev1.Container) bool { return k == kindInit })...)

		pod = shapePod(policy, 3, 2, func(j int) bool { return j > 0 }, nil, i)
		sidecarCases = append(sidecarCases, casesOf(pod, func(k int, c *corev1.Container) bool {
			return k == kindInit && c.RestartPolicy != nil
		})...)

		pod = shapePod(policy, 1, 3, nil, shapeRules, i)
		rulesCases = append(rulesCases, casesOf(pod, nil)...)

		pod = shapePod(policy, 1, 2, nil, nil, i)
		pod.DeletionTimestamp = &metav1.Time{Time: time.Date(2026, 1, 1, 11, 0, 0, 0, time.UTC)}
		deletedCases = append(deletedCases, casesOf(pod, nil)...)
	}
	shapes = append(shapes, speedShape{"init", initCases}, speedShape{"sidecar", sidecarCases}, speedShape{"rules", rulesCases})
	var large []speedCase
	for i := range 3 {
		pod := shapePod(corev1.RestartPolicyAlways, 50, 50, func(j int) bool { return j%10 == 9 }, nil, i)
		large = append(large, casesOf(pod, nil)...)
	}
	shapes = append(shapes, speedShape{"large (50+50 containers)", large}, speedShape{"deleted", deletedCases})
	g := newGen(defaultSeed)
	var random []speedCase
	for len(random) < 400 {
		random = append(random, casesOf(g.pod(true), nil)...)
	}
	return append(shapes, speedShape{"random", random})
}

// shapeRules gives container i a restart policy and rules: Never with Restart on
// exit code 1 and 2 (some containers), OnFailure with RestartAllContainers on 137 and
// Restart on NotIn [0 137], Always with no rules, or none.
func shapeRules(i int) (*corev1.ContainerRestartPolicy, []corev1.ContainerRestartRule) {
	p := func(p corev1.ContainerRestartPolicy) *corev1.ContainerRestartPolicy { return &p }
	on := func(op corev1.ContainerRestartRuleOnExitCodesOperator, v ...int32) *corev1.ContainerRestartRuleOnExitCodes {
		return &corev1.ContainerRestartRuleOnExitCodes{Operator: op, Values: v}
	}
	switch i % 4 {
	case 0:
		return p(corev1.ContainerRestartPolicyNever), []corev1.ContainerRestartRule{
			{Action: corev1.ContainerRestartRuleActionRestart, ExitCodes: on(corev1.ContainerRestartRuleOnExitCodesOpIn, 1, 2)},
		}
	case 1:
		return p(corev1.ContainerRestartPolicyOnFailure), []corev1.ContainerRestartRule{
			{Action: corev1.ContainerRestartRuleActionRestartAllContainers, ExitCodes: on(corev1.ContainerRestartRuleOnExitCodesOpIn, 137)},
			{Action: corev1.ContainerRestartRuleActionRestart, ExitCodes: on(corev1.ContainerRestartRuleOnExitCodesOpNotIn, 0, 137)},
		}
	case 2:
		return p(corev1.ContainerRestartPolicyAlways), nil
	}
	return nil, nil
}
