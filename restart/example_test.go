package restart_test

import (
	"encoding/json"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podlife/podlife/restart"
)

// A container that must not be restarted except when it exits with 42, which asks
// the kubelet to restart the whole pod in place.
func ExampleShouldRestart() {
	never := corev1.ContainerRestartPolicyNever
	pod := &corev1.Pod{
		Spec: corev1.PodSpec{
			RestartPolicy: corev1.RestartPolicyAlways,
			Containers: []corev1.Container{{
				Name:          "trainer",
				RestartPolicy: &never,
				RestartPolicyRules: []corev1.ContainerRestartRule{
					{Action: corev1.ContainerRestartRuleActionRestart, ExitCodes: &corev1.ContainerRestartRuleOnExitCodes{Operator: corev1.ContainerRestartRuleOnExitCodesOpIn, Values: []int32{75}}},
					{Action: corev1.ContainerRestartRuleActionRestartAllContainers, ExitCodes: &corev1.ContainerRestartRuleOnExitCodes{Operator: corev1.ContainerRestartRuleOnExitCodesOpIn, Values: []int32{42}}},
				},
			}},
		},
	}
	for _, code := range []int32{42, 75, 1} {
		pod.Status.ContainerStatuses = []corev1.ContainerStatus{{
			Name:  "trainer",
			State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: code}},
		}}
		d := restart.ShouldRestart(pod, "trainer", restart.Options{})
		fmt.Printf("%v %v: %s\n", d.Restart, d.RestartAllContainers(), d.Explain())
	}
	// Output:
	// true true: exit code 42 matched rule 1 (In [42]) → RestartAllContainers
	// true false: exit code 75 matched rule 0 (In [75]) → Restart
	// false false: exit code 1 matched no rule; container restartPolicy Never → no restart
}

// The back-off of a container that crashes one second after every start, under a
// default kubelet: the kubelet restarts it as soon as CheckStart allows.
func ExampleBackOffPolicy_CheckStart() {
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", UID: "0c5a"}}
	p := restart.CrashLoopBackOffPolicy(restart.Options{})
	var b restart.BackOff
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	for range 8 {
		finished := now.Add(time.Second) // it ran for a second and crashed
		c := p.CheckStart(b, finished, true, finished)
		if !c.Allowed {
			fmt.Println(restart.CrashLoopMessage(c.Delay, "app", pod))
			c = p.CheckStart(b, finished, true, c.RetryAt)
		} else {
			fmt.Println("restarted at once")
		}
		b, now = c.BackOff, c.BackOff.LastUpdate
	}
	fmt.Println(p.Schedule(9))
	// Output:
	// restarted at once
	// back-off 10s restarting failed container=app pod=web_default(0c5a)
	// back-off 20s restarting failed container=app pod=web_default(0c5a)
	// back-off 40s restarting failed container=app pod=web_default(0c5a)
	// back-off 1m20s restarting failed container=app pod=web_default(0c5a)
	// back-off 2m40s restarting failed container=app pod=web_default(0c5a)
	// back-off 5m0s restarting failed container=app pod=web_default(0c5a)
	// back-off 5m0s restarting failed container=app pod=web_default(0c5a)
	// [0s 10s 20s 40s 1m20s 2m40s 5m0s 5m0s 5m0s]
}

// What the kubelet does with an init container that was OOM-killed but exited 0,
// under each pod restart policy.
func ExampleInitContainerAction() {
	oom := &restart.Instance{Name: "migrate", State: restart.StateExited, ExitCode: 0, Reason: "OOMKilled"}
	for _, policy := range []corev1.RestartPolicy{corev1.RestartPolicyAlways, corev1.RestartPolicyOnFailure, corev1.RestartPolicyNever} {
		pod := &corev1.Pod{Spec: corev1.PodSpec{RestartPolicy: policy, InitContainers: []corev1.Container{{Name: "migrate"}}}}
		fmt.Println(policy, restart.InitContainerAction(pod, &pod.Spec.InitContainers[0], oom, restart.Options{}))
	}
	// Output:
	// Always Start
	// OnFailure KillPod
	// Never KillPod
}

// A Decision says why through its methods, and encodes them all as JSON.
func ExampleDecision_MarshalJSON() {
	onFailure := corev1.ContainerRestartPolicyOnFailure
	pod := &corev1.Pod{
		Spec: corev1.PodSpec{
			RestartPolicy: corev1.RestartPolicyNever,
			Containers: []corev1.Container{{
				Name:          "worker",
				RestartPolicy: &onFailure,
				RestartPolicyRules: []corev1.ContainerRestartRule{
					{Action: corev1.ContainerRestartRuleActionRestart, ExitCodes: &corev1.ContainerRestartRuleOnExitCodes{Operator: corev1.ContainerRestartRuleOnExitCodesOpNotIn, Values: []int32{0, 1}}},
				},
			}},
		},
		Status: corev1.PodStatus{ContainerStatuses: []corev1.ContainerStatus{{
			Name:  "worker",
			State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 1}},
		}}},
	}
	d := restart.ShouldRestart(pod, "worker", restart.Options{})
	fmt.Println(d.Basis(), d.RuleIndex(), d.ContainerPolicy(), d.PodPolicy())
	out, _ := json.Marshal(d)
	fmt.Println(string(out))
	// Output:
	// ContainerPolicy -1 OnFailure Never
	// {"Restart":true,"RestartAllContainers":false,"Rule":null,"RuleIndex":-1,"Basis":"ContainerPolicy","Container":"worker","State":"exited","ExitCode":1,"ContainerPolicy":"OnFailure","PodPolicy":"Never"}
}
