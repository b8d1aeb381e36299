package restart

import (
	"strconv"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"
	kubecontainer "k8s.io/kubernetes/pkg/kubelet/container"
	kubeletstatus "k8s.io/kubernetes/pkg/kubelet/status"

	"github.com/podlife/podlife/lifecycle"
	"github.com/podlife/podlife/restart"
)

// BenchmarkShouldRestart runs podlife's ShouldRestart and the kubelet's
// ShouldContainerBeRestarted on each shape's corpus (speedShapes, default gates):
// upstream is given the container and the whole pod's runtime status ready-made,
// podlife the pod and the container's name. PODLIFE_SPEED=1 go test -run
// TestRestartSpeedRatio compares them in interleaved rounds.
func BenchmarkShouldRestart(b *testing.B) {
	logger := klog.Background()
	for _, s := range speedShapes() {
		corpus := s.cases
		b.Run(s.name+"/podlife", func(b *testing.B) {
			b.ReportAllocs()
			i, n := 0, 0
			for b.Loop() {
				bc := &corpus[i]
				if restart.ShouldRestart(bc.pod, bc.name, restart.Options{}).Restart {
					n++
				}
				if i++; i == len(corpus) {
					i = 0
				}
			}
			_ = n
		})
		b.Run(s.name+"/upstream", func(b *testing.B) {
			b.ReportAllocs()
			i, n := 0, 0
			for b.Loop() {
				bc := &corpus[i]
				if kubecontainer.ShouldContainerBeRestarted(logger, bc.c, bc.pod, bc.ps) {
					n++
				}
				if i++; i == len(corpus) {
					i = 0
				}
			}
			_ = n
		})
	}
}

// largePod has n init and n regular containers, each with a RestartAllContainers
// rule on exit code 42, and a status for each: init containers completed, regular
// ones running except the last, which exited 42, so only the last container
// triggers a restart of all containers. ps is the kubelet's runtime status for it.
func largePod(n int) (pod *corev1.Pod, ps *kubecontainer.PodStatus, view *restart.View) {
	never := corev1.ContainerRestartPolicyNever
	rules := []corev1.ContainerRestartRule{{
		Action:    corev1.ContainerRestartRuleActionRestartAllContainers,
		ExitCodes: &corev1.ContainerRestartRuleOnExitCodes{Operator: corev1.ContainerRestartRuleOnExitCodesOpIn, Values: []int32{42}},
	}}
	pod = &corev1.Pod{}
	ps = &kubecontainer.PodStatus{}
	var insts []restart.Instance
	for i := range n {
		in, cn := "init-"+strconv.Itoa(i), "app-"+strconv.Itoa(i)
		pod.Spec.InitContainers = append(pod.Spec.InitContainers, corev1.Container{Name: in, RestartPolicy: &never, RestartPolicyRules: rules})
		pod.Spec.Containers = append(pod.Spec.Containers, corev1.Container{Name: cn, RestartPolicy: &never, RestartPolicyRules: rules})
		pod.Status.InitContainerStatuses = append(pod.Status.InitContainerStatuses, corev1.ContainerStatus{Name: in, State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{}}})
		st := corev1.ContainerStatus{Name: cn, State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}}
		if i == n-1 {
			st.State = corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 42}}
		}
		pod.Status.ContainerStatuses = append(pod.Status.ContainerStatuses, st)
	}
	for _, list := range [][]corev1.ContainerStatus{pod.Status.InitContainerStatuses, pod.Status.ContainerStatuses} {
		for i := range list {
			inst, _ := restart.InstanceFromStatus(&list[i])
			insts = append(insts, inst)
			ps.ContainerStatuses = append(ps.ContainerStatuses, &kubecontainer.Status{Name: inst.Name, State: kubecontainer.State(inst.State), ExitCode: int(inst.ExitCode)})
		}
	}
	return pod, ps, &restart.View{Instances: insts}
}

// BenchmarkShouldAllContainersRestartLarge runs ShouldAllContainersRestart and the
// kubelet's, side by side, on pods with 10 to 10,000 init and regular containers,
// with the API status only and with a runtime view. The kubelet looks runtime
// instances up by scanning, so its cost with a runtime grows with the square of the
// containers.
func BenchmarkShouldAllContainersRestartLarge(b *testing.B) {
	for _, n := range []int{10, 100, 1000, 10000} {
		pod, ps, rt := largePod(n)
		api := &pod.Status
		for _, withRuntime := range []bool{false, true} {
			name := strconv.Itoa(n) + "/api"
			var ours *restart.View
			var theirs *kubecontainer.PodStatus
			if withRuntime {
				name = strconv.Itoa(n) + "/runtime"
				ours, theirs = rt, ps
			}
			b.Run(name+"/podlife", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if !restart.ShouldAllContainersRestart(pod, ours) {
						b.Fatal("no restart-all")
					}
				}
			})
			b.Run(name+"/upstream", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if !kubecontainer.ShouldAllContainersRestart(pod, theirs, api) {
						b.Fatal("no restart-all")
					}
				}
			})
		}
	}
}

// BenchmarkAllContainersRestartingConditionLarge runs AllContainersRestartingCondition
// and the kubelet's GenerateAllContainersRestartingCondition side by side with a
// runtime view, on pods with 10 to 10,000 init and regular containers.
func BenchmarkAllContainersRestartingConditionLarge(b *testing.B) {
	for _, n := range []int{10, 100, 1000, 10000} {
		pod, ps, rt := largePod(n)
		api := &pod.Status
		b.Run(strconv.Itoa(n)+"/podlife", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if c, _ := lifecycle.AllContainersRestartingCondition(pod, rt, corev1.PodRunning, lifecycle.Options{}); c.Status != corev1.ConditionTrue {
					b.Fatal("condition not True")
				}
			}
		})
		b.Run(strconv.Itoa(n)+"/upstream", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if c := kubeletstatus.GenerateAllContainersRestartingCondition(pod, ps, api, corev1.PodRunning); c.Status != corev1.ConditionTrue {
					b.Fatal("condition not True")
				}
			}
		})
	}
}
