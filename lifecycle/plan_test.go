package lifecycle

import (
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podlife/podlife"
	"github.com/podlife/podlife/restart"
)

// The tables below re-express upstream's TestComputePodActions* cases
// (k8s.io/kubernetes pkg/kubelet/kuberuntime/kuberuntime_manager_test.go). Upstream's
// runtime PodStatus becomes a View: the sandbox "sandboxID", instances newest first,
// probe results on the instances; a changed container hash becomes SpecChanged.
// Upstream compares kills without their messages; these tables check the messages too.

const sandboxID = "sandboxID"

var (
	policyAlways    = corev1.ContainerRestartPolicyAlways
	policyOnFailure = corev1.ContainerRestartPolicyOnFailure
	policyNever     = corev1.ContainerRestartPolicyNever
)

func planBasePod() *corev1.Pod {
	pod := &corev1.Pod{}
	pod.UID, pod.Name, pod.Namespace = "12345678", "foo", "foo-ns"
	pod.Spec.Containers = []corev1.Container{{Name: "foo1", Image: "busybox"}, {Name: "foo2", Image: "busybox"}, {Name: "foo3", Image: "busybox"}}
	return pod
}

func planBaseView() restart.View {
	return restart.View{
		Sandboxes: []restart.Sandbox{{ID: sandboxID, Ready: true, Network: &restart.SandboxNetwork{IP: "10.0.0.1"}}},
		Instances: []restart.Instance{
			{Name: "foo1", ID: "id1", State: restart.StateRunning},
			{Name: "foo2", ID: "id2", State: restart.StateRunning},
			{Name: "foo3", ID: "id3", State: restart.StateRunning},
		},
	}
}

func planInitPod() *corev1.Pod {
	pod := planBasePod()
	pod.Spec.InitContainers = []corev1.Container{
		{Name: "init1", Image: "bar-image", Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{
			corev1.ResourceCPU: resource.MustParse("400m"), corev1.ResourceMemory: resource.MustParse("400Mi")}}},
		{Name: "init2", Image: "bar-image"},
		{Name: "init3", Image: "bar-image"},
	}
	return pod
}

func planInitView() restart.View {
	v := planBaseView()
	v.Instances = []restart.Instance{
		{Name: "init1", ID: "initid1", State: restart.StateExited},
		{Name: "init2", ID: "initid2", State: restart.StateExited},
		{Name: "init3", ID: "initid3", State: restart.StateExited},
	}
	return v
}

func planSidecarPod() *corev1.Pod {
	pod := planBasePod()
	pod.Spec.InitContainers = []corev1.Container{
		{Name: "restartable-init-1", Image: "bar-image", RestartPolicy: &policyAlways},
		{Name: "restartable-init-2", Image: "bar-image", RestartPolicy: &policyAlways, LivenessProbe: &corev1.Probe{}, StartupProbe: &corev1.Probe{}},
		{Name: "restartable-init-3", Image: "bar-image", RestartPolicy: &policyAlways, LivenessProbe: &corev1.Probe{}, StartupProbe: &corev1.Probe{}},
	}
	return pod
}

// planSidecarView has the probe results upstream's test loop sets before each case.
func planSidecarView() restart.View {
	v := planBaseView()
	v.Instances = []restart.Instance{
		{Name: "restartable-init-1", ID: "initid1", State: restart.StateRunning},
		{Name: "restartable-init-2", ID: "initid2", State: restart.StateRunning, Liveness: restart.ProbeSuccess, Startup: restart.ProbeSuccess},
		{Name: "restartable-init-3", ID: "initid3", State: restart.StateRunning, Liveness: restart.ProbeSuccess, Startup: restart.ProbeSuccess},
	}
	return v
}

func planEphemeralPod() *corev1.Pod {
	pod := planBasePod()
	pod.Spec.InitContainers = []corev1.Container{{Name: "init1", Image: "bar-image"}}
	pod.Spec.EphemeralContainers = []corev1.EphemeralContainer{{EphemeralContainerCommon: corev1.EphemeralContainerCommon{Name: "debug", Image: "busybox"}}}
	return pod
}

func planEphemeralView() restart.View {
	v := planBaseView()
	v.Instances = append(v.Instances,
		restart.Instance{Name: "init1", ID: "initid1", State: restart.StateExited},
		restart.Instance{Name: "debug", ID: "debug1", State: restart.StateRunning})
	return v
}

func regs(idx ...int) []ContainerRef {
	var out []ContainerRef
	for _, i := range idx {
		out = append(out, ContainerRef{Kind: KindContainer, Index: i, Name: []string{"foo1", "foo2", "foo3"}[i]})
	}
	return out
}

func inits(idx ...int) []ContainerRef {
	var out []ContainerRef
	for _, i := range idx {
		out = append(out, ContainerRef{Kind: KindInitContainer, Index: i, Name: []string{"init1", "init2", "init3"}[i]})
	}
	return out
}

func sidecars(idx ...int) []ContainerRef {
	var out []ContainerRef
	for _, i := range idx {
		out = append(out, ContainerRef{Kind: KindSidecar, Index: i, Name: []string{"restartable-init-1", "restartable-init-2", "restartable-init-3"}[i]})
	}
	return out
}

func kill(ref ContainerRef, id string, reason KillReason, msg string) ContainerKill {
	return ContainerKill{Container: ref, ID: id, Reason: reason, Message: msg}
}

type planCase struct {
	name       string
	pod        func(*corev1.Pod)
	view       func(*restart.View)
	restartAll bool
	want       PodActions
}

func runPlanCases(t *testing.T, base func() *corev1.Pod, baseView func() restart.View, cases []planCase, opts Options) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pod, v := base(), baseView()
			if tc.pod != nil {
				tc.pod(pod)
			}
			if tc.view != nil {
				tc.view(&v)
			}
			got := ComputePodActions(pod, &v, tc.restartAll, opts)
			assert.Equal(t, tc.want, got)
		})
	}
}

func withPolicy(p corev1.RestartPolicy) func(*corev1.Pod) {
	return func(pod *corev1.Pod) { pod.Spec.RestartPolicy = p }
}

var computePodActionsCases = []planCase{
	{name: "everything is good; do nothing", want: PodActions{SandboxID: sandboxID}},
	{
		name: "start pod sandbox and all containers for a new pod",
		view: func(v *restart.View) { v.Sandboxes, v.Instances = nil, nil },
		want: PodActions{KillPod: true, CreateSandbox: true, SandboxChange: "no pod sandbox exists", ContainersToStart: regs(0, 1, 2)},
	},
	{
		name: "restart exited containers if RestartPolicy == Always",
		pod:  withPolicy(corev1.RestartPolicyAlways),
		view: func(v *restart.View) {
			v.Instances[0].State, v.Instances[0].ExitCode = restart.StateExited, 0
			v.Instances[1].State, v.Instances[1].ExitCode = restart.StateExited, 111
		},
		want: PodActions{SandboxID: sandboxID, ContainersToStart: regs(0, 1)},
	},
	{
		name: "restart failed containers if RestartPolicy == OnFailure",
		pod:  withPolicy(corev1.RestartPolicyOnFailure),
		view: func(v *restart.View) {
			v.Instances[0].State, v.Instances[0].ExitCode = restart.StateExited, 0
			v.Instances[1].State, v.Instances[1].ExitCode = restart.StateExited, 111
		},
		want: PodActions{SandboxID: sandboxID, ContainersToStart: regs(1)},
	},
	{
		name: "restart created but not started containers if RestartPolicy == OnFailure",
		pod:  withPolicy(corev1.RestartPolicyOnFailure),
		view: func(v *restart.View) {
			v.Instances[0].State, v.Instances[0].ExitCode = restart.StateExited, 0
			v.Instances[1].State = restart.StateCreated
		},
		want: PodActions{SandboxID: sandboxID, ContainersToStart: regs(1)},
	},
	{
		name: "don't restart containers if RestartPolicy == Never",
		pod:  withPolicy(corev1.RestartPolicyNever),
		view: func(v *restart.View) {
			v.Instances[0].State, v.Instances[0].ExitCode = restart.StateExited, 0
			v.Instances[1].State, v.Instances[1].ExitCode = restart.StateExited, 111
		},
		want: PodActions{SandboxID: sandboxID},
	},
	{
		name: "Kill pod and recreate everything if the pod sandbox is dead, and RestartPolicy == Always",
		pod:  withPolicy(corev1.RestartPolicyAlways),
		view: func(v *restart.View) { v.Sandboxes[0].Ready = false },
		want: PodActions{KillPod: true, CreateSandbox: true, SandboxID: sandboxID, Attempt: 1, SandboxChange: "pod sandbox is not ready", ContainersToStart: regs(0, 1, 2)},
	},
	{
		name: "Kill pod and recreate all containers (except for the succeeded one) if the pod sandbox is dead, and RestartPolicy == OnFailure",
		pod:  withPolicy(corev1.RestartPolicyOnFailure),
		view: func(v *restart.View) {
			v.Sandboxes[0].Ready = false
			v.Instances[1].State, v.Instances[1].ExitCode = restart.StateExited, 0
		},
		want: PodActions{KillPod: true, CreateSandbox: true, SandboxID: sandboxID, Attempt: 1, SandboxChange: "pod sandbox is not ready", ContainersToStart: regs(0, 2)},
	},
	{
		name: "Kill pod and recreate all containers if the PodSandbox does not have an IP",
		view: func(v *restart.View) { v.Sandboxes[0].Network.IP = "" },
		want: PodActions{KillPod: true, CreateSandbox: true, SandboxID: sandboxID, Attempt: 1, SandboxChange: "pod sandbox has no IP address", ContainersToStart: regs(0, 1, 2)},
	},
	{
		name: "Kill and recreate the container if the container's spec changed",
		pod:  withPolicy(corev1.RestartPolicyAlways),
		view: func(v *restart.View) { v.Instances[1].SpecChanged = true },
		want: PodActions{SandboxID: sandboxID, ContainersToStart: regs(1),
			ContainersToKill: []ContainerKill{kill(regs(1)[0], "id2", KillReasonNone, "Container foo2 definition changed, will be restarted")}},
	},
	{
		name: "Kill and recreate the container if the liveness check has failed",
		pod:  withPolicy(corev1.RestartPolicyAlways),
		view: func(v *restart.View) { v.Instances[1].Liveness = restart.ProbeFailure },
		want: PodActions{SandboxID: sandboxID, ContainersToStart: regs(1),
			ContainersToKill: []ContainerKill{kill(regs(1)[0], "id2", KillReasonLivenessProbe, "Container foo2 failed liveness probe, will be restarted")}},
	},
	{
		name: "Kill and recreate the container if the startup check has failed",
		pod:  withPolicy(corev1.RestartPolicyAlways),
		view: func(v *restart.View) { v.Instances[1].Startup = restart.ProbeFailure },
		want: PodActions{SandboxID: sandboxID, ContainersToStart: regs(1),
			ContainersToKill: []ContainerKill{kill(regs(1)[0], "id2", KillReasonStartupProbe, "Container foo2 failed startup probe, will be restarted")}},
	},
	{
		name: "Verify we do not create a pod sandbox if no ready sandbox for pod with RestartPolicy=Never and all containers exited",
		pod:  withPolicy(corev1.RestartPolicyNever),
		view: func(v *restart.View) {
			v.Sandboxes[0].Ready, v.Sandboxes[0].Attempt = false, 1
			for i := range v.Instances {
				v.Instances[i].State, v.Instances[i].ExitCode = restart.StateExited, 0
			}
		},
		want: PodActions{KillPod: true, SandboxID: sandboxID, Attempt: 2},
	},
	{
		name: "Verify we do not create a pod sandbox if no ready sandbox for pod with RestartPolicy=OnFailure and all containers succeeded",
		pod:  withPolicy(corev1.RestartPolicyOnFailure),
		view: func(v *restart.View) {
			v.Sandboxes[0].Ready, v.Sandboxes[0].Attempt = false, 1
			for i := range v.Instances {
				v.Instances[i].State, v.Instances[i].ExitCode = restart.StateExited, 0
			}
		},
		want: PodActions{KillPod: true, SandboxID: sandboxID, Attempt: 2},
	},
	{
		name: "Verify we create a pod sandbox if no ready sandbox for pod with RestartPolicy=Never and no containers have ever been created",
		pod:  withPolicy(corev1.RestartPolicyNever),
		view: func(v *restart.View) {
			v.Sandboxes[0].Ready, v.Sandboxes[0].Attempt = false, 2
			v.Instances = nil
		},
		want: PodActions{KillPod: true, CreateSandbox: true, SandboxID: sandboxID, Attempt: 3, SandboxChange: "pod sandbox is not ready", ContainersToStart: regs(0, 1, 2)},
	},
	{
		name: "Kill and recreate the container if the container is in unknown state",
		pod:  withPolicy(corev1.RestartPolicyNever),
		view: func(v *restart.View) { v.Instances[1].State = restart.StateUnknown },
		want: PodActions{SandboxID: sandboxID, ContainersToStart: regs(1),
			ContainersToKill: []ContainerKill{kill(regs(1)[0], "id2", KillReasonUnknown, `Container is in "unknown" state, try killing it before restart`)}},
	},
	{
		name: "Restart the container if the container is in created state",
		pod:  withPolicy(corev1.RestartPolicyNever),
		view: func(v *restart.View) { v.Instances[1].State = restart.StateCreated },
		want: PodActions{SandboxID: sandboxID, ContainersToStart: regs(1)},
	},
}

var computeInitActionsCases = []planCase{
	{name: "initialization completed; start all containers", want: PodActions{SandboxID: sandboxID, ContainersToStart: regs(0, 1, 2)}},
	{
		name: "no init containers have been started; start the first one",
		view: func(v *restart.View) { v.Instances = nil },
		want: PodActions{SandboxID: sandboxID, InitContainersToStart: inits(0)},
	},
	{
		name: "initialization in progress; do nothing",
		pod:  withPolicy(corev1.RestartPolicyAlways),
		view: func(v *restart.View) { v.Instances[2].State = restart.StateRunning },
		want: PodActions{SandboxID: sandboxID},
	},
	{
		name: "Kill pod and restart the first init container if the pod sandbox is dead",
		pod:  withPolicy(corev1.RestartPolicyAlways),
		view: func(v *restart.View) { v.Sandboxes[0].Ready = false },
		want: PodActions{KillPod: true, CreateSandbox: true, SandboxID: sandboxID, Attempt: 1, SandboxChange: "pod sandbox is not ready", InitContainersToStart: inits(0)},
	},
	{
		name: "initialization failed; restart the last init container if RestartPolicy == Always",
		pod:  withPolicy(corev1.RestartPolicyAlways),
		view: func(v *restart.View) { v.Instances[2].ExitCode = 137 },
		want: PodActions{SandboxID: sandboxID, InitContainersToStart: inits(2)},
	},
	{
		name: "initialization failed; restart the last init container if RestartPolicy == OnFailure",
		pod:  withPolicy(corev1.RestartPolicyOnFailure),
		view: func(v *restart.View) { v.Instances[2].ExitCode = 137 },
		want: PodActions{SandboxID: sandboxID, InitContainersToStart: inits(2)},
	},
	{
		name: "initialization failed; kill pod if RestartPolicy == Never",
		pod:  withPolicy(corev1.RestartPolicyNever),
		view: func(v *restart.View) { v.Instances[2].ExitCode = 137 },
		want: PodActions{KillPod: true, SandboxID: sandboxID},
	},
	{
		name: "init container state unknown; kill and recreate the last init container if RestartPolicy == Always",
		pod:  withPolicy(corev1.RestartPolicyAlways),
		view: func(v *restart.View) { v.Instances[2].State = restart.StateUnknown },
		want: PodActions{SandboxID: sandboxID, InitContainersToStart: inits(2),
			ContainersToKill: []ContainerKill{kill(inits(2)[0], "initid3", KillReasonUnknown, `Init container is in "unknown" state, try killing it before restart`)}},
	},
	{
		name: "init container state unknown; kill and recreate the last init container if RestartPolicy == OnFailure",
		pod:  withPolicy(corev1.RestartPolicyOnFailure),
		view: func(v *restart.View) { v.Instances[2].State = restart.StateUnknown },
		want: PodActions{SandboxID: sandboxID, InitContainersToStart: inits(2),
			ContainersToKill: []ContainerKill{kill(inits(2)[0], "initid3", KillReasonUnknown, `Init container is in "unknown" state, try killing it before restart`)}},
	},
	{
		name: "init container state unknown; kill pod if RestartPolicy == Never",
		pod:  withPolicy(corev1.RestartPolicyNever),
		view: func(v *restart.View) { v.Instances[2].State = restart.StateUnknown },
		want: PodActions{KillPod: true, SandboxID: sandboxID},
	},
	{
		name: "Pod sandbox not ready, init container failed, but RestartPolicy == Never; kill pod only",
		pod:  withPolicy(corev1.RestartPolicyNever),
		view: func(v *restart.View) { v.Sandboxes[0].Ready = false },
		want: PodActions{KillPod: true, SandboxID: sandboxID, Attempt: 1},
	},
	{
		name: "Pod sandbox not ready, and RestartPolicy == Never, but no visible init containers;  create a new pod sandbox",
		pod:  withPolicy(corev1.RestartPolicyNever),
		view: func(v *restart.View) { v.Sandboxes[0].Ready, v.Instances = false, nil },
		want: PodActions{KillPod: true, CreateSandbox: true, SandboxID: sandboxID, Attempt: 1, SandboxChange: "pod sandbox is not ready", InitContainersToStart: inits(0)},
	},
	{
		name: "Pod sandbox not ready, init container failed, and RestartPolicy == OnFailure; create a new pod sandbox",
		pod:  withPolicy(corev1.RestartPolicyOnFailure),
		view: func(v *restart.View) { v.Sandboxes[0].Ready, v.Instances[2].ExitCode = false, 137 },
		want: PodActions{KillPod: true, CreateSandbox: true, SandboxID: sandboxID, Attempt: 1, SandboxChange: "pod sandbox is not ready", InitContainersToStart: inits(0)},
	},
	{
		name: "some of the init container statuses are missing but the last init container is running, don't restart preceding ones",
		pod:  withPolicy(corev1.RestartPolicyAlways),
		view: func(v *restart.View) {
			v.Instances[2].State = restart.StateRunning
			v.Instances = v.Instances[2:]
		},
		want: PodActions{SandboxID: sandboxID},
	},
	{
		name: "stale main container from a previous sandbox must not mark pod as initialized",
		view: func(v *restart.View) {
			v.Instances = []restart.Instance{{Name: "foo1", ID: "id1", State: restart.StateCreated, Sandbox: "previous-sandbox"}}
		},
		want: PodActions{SandboxID: sandboxID, InitContainersToStart: inits(0)},
	},
	{
		name: "an init container is in the created state due to an unknown error when starting container; restart it",
		pod:  withPolicy(corev1.RestartPolicyAlways),
		view: func(v *restart.View) { v.Instances[2].State = restart.StateCreated },
		want: PodActions{SandboxID: sandboxID, InitContainersToStart: inits(2)},
	},
	// The three resize cases, without their resize fields (not modelled).
	{
		name: "resize request exists on a not yet running non-sidecar init container; start it",
		pod: func(pod *corev1.Pod) {
			pod.Spec.InitContainers[0].Resources.Requests = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("200m"), corev1.ResourceMemory: resource.MustParse("200Mi")}
		},
		view: func(v *restart.View) { v.Instances = nil },
		want: PodActions{SandboxID: sandboxID, InitContainersToStart: inits(0)},
	},
	{
		name: "resize of a running non-sidecar init container",
		pod: func(pod *corev1.Pod) {
			pod.Spec.InitContainers[0].Resources.Requests = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("800m"), corev1.ResourceMemory: resource.MustParse("800Mi")}
		},
		view: func(v *restart.View) {
			v.Instances = v.Instances[:1]
			v.Instances[0].State = restart.StateRunning
		},
		want: PodActions{SandboxID: sandboxID},
	},
}

func sidecarKill(i int, id string, reason KillReason, msg string) ContainerKill {
	return kill(sidecars(i)[0], id, reason, msg)
}

var computeSidecarActionsCases = []planCase{
	{name: "initialization completed; start all containers", want: PodActions{SandboxID: sandboxID, ContainersToStart: regs(0, 1, 2)}},
	{
		name: "no init containers have been started; start the first one",
		view: func(v *restart.View) { v.Instances = nil },
		want: PodActions{SandboxID: sandboxID, InitContainersToStart: sidecars(0)},
	},
	{
		name: "an init container is stuck in the created state; restart it",
		pod:  withPolicy(corev1.RestartPolicyAlways),
		view: func(v *restart.View) { v.Instances[2].State = restart.StateCreated },
		want: PodActions{SandboxID: sandboxID, InitContainersToStart: sidecars(2)},
	},
	{
		name: "restartable init container has started; start the next",
		pod:  withPolicy(corev1.RestartPolicyAlways),
		view: func(v *restart.View) { v.Instances = v.Instances[:1] },
		want: PodActions{SandboxID: sandboxID, InitContainersToStart: sidecars(1)},
	},
	{
		name: "livenessProbe has not been run; start the nothing",
		pod:  withPolicy(corev1.RestartPolicyAlways),
		view: func(v *restart.View) { v.Instances[1].Liveness = restart.ProbeNone; v.Instances = v.Instances[:2] },
		want: PodActions{SandboxID: sandboxID, InitContainersToStart: sidecars(2)},
	},
	{
		name: "livenessProbe in progress; start the next",
		pod:  withPolicy(corev1.RestartPolicyAlways),
		view: func(v *restart.View) { v.Instances[1].Liveness = restart.ProbeUnknown; v.Instances = v.Instances[:2] },
		want: PodActions{SandboxID: sandboxID, InitContainersToStart: sidecars(2)},
	},
	{
		name: "livenessProbe has completed; start the next",
		pod:  withPolicy(corev1.RestartPolicyAlways),
		view: func(v *restart.View) { v.Instances = v.Instances[:2] },
		want: PodActions{SandboxID: sandboxID, InitContainersToStart: sidecars(2)},
	},
	{
		name: "kill and recreate the restartable init container if the liveness check has failed",
		pod:  withPolicy(corev1.RestartPolicyAlways),
		view: func(v *restart.View) { v.Instances[2].Liveness = restart.ProbeFailure },
		want: PodActions{SandboxID: sandboxID, InitContainersToStart: sidecars(2), ContainersToStart: regs(0, 1, 2),
			ContainersToKill: []ContainerKill{sidecarKill(2, "initid3", KillReasonLivenessProbe, "Init container restartable-init-3 failed liveness probe")}},
	},
	{
		name: "startupProbe has not been run; do nothing",
		pod:  withPolicy(corev1.RestartPolicyAlways),
		view: func(v *restart.View) { v.Instances[1].Startup = restart.ProbeNone; v.Instances = v.Instances[:2] },
		want: PodActions{SandboxID: sandboxID},
	},
	{
		name: "startupProbe in progress; do nothing",
		pod:  withPolicy(corev1.RestartPolicyAlways),
		view: func(v *restart.View) { v.Instances[1].Startup = restart.ProbeUnknown; v.Instances = v.Instances[:2] },
		want: PodActions{SandboxID: sandboxID},
	},
	{
		name: "startupProbe has completed; start the next",
		pod:  withPolicy(corev1.RestartPolicyAlways),
		view: func(v *restart.View) { v.Instances = v.Instances[:2] },
		want: PodActions{SandboxID: sandboxID, InitContainersToStart: sidecars(2)},
	},
	{
		name: "kill and recreate the restartable init container if the startup check has failed",
		pod: func(pod *corev1.Pod) {
			pod.Spec.RestartPolicy = corev1.RestartPolicyAlways
			pod.Spec.InitContainers[2].StartupProbe = &corev1.Probe{}
		},
		view: func(v *restart.View) { v.Instances[2].Startup = restart.ProbeFailure },
		want: PodActions{SandboxID: sandboxID, InitContainersToStart: sidecars(2),
			ContainersToKill: []ContainerKill{sidecarKill(2, "initid3", KillReasonStartupProbe, "Init container restartable-init-3 failed startup probe")}},
	},
	{
		name: "kill and recreate the restartable init container if the container definition changes",
		pod: func(pod *corev1.Pod) {
			pod.Spec.RestartPolicy = corev1.RestartPolicyAlways
			pod.Spec.InitContainers[2].Image = "foo-image"
		},
		view: func(v *restart.View) { v.Instances[2].SpecChanged = true },
		want: PodActions{SandboxID: sandboxID, InitContainersToStart: sidecars(2), ContainersToStart: regs(0, 1, 2),
			ContainersToKill: []ContainerKill{sidecarKill(2, "initid3", KillReasonNone, "Init container restartable-init-3 definition changed")}},
	},
	{
		name: "restart terminated restartable init container and next init container",
		pod:  withPolicy(corev1.RestartPolicyAlways),
		view: func(v *restart.View) {
			v.Instances[0].State, v.Instances[2].State = restart.StateExited, restart.StateExited
		},
		want: PodActions{SandboxID: sandboxID, InitContainersToStart: sidecars(0, 2)},
	},
	{
		name: "restart terminated restartable init container and regular containers",
		pod:  withPolicy(corev1.RestartPolicyAlways),
		view: func(v *restart.View) { v.Instances[0].State = restart.StateExited },
		want: PodActions{SandboxID: sandboxID, InitContainersToStart: sidecars(0), ContainersToStart: regs(0, 1, 2)},
	},
	{
		name: "Pod sandbox not ready, restartable init container failed, but RestartPolicy == Never; kill pod only",
		pod:  withPolicy(corev1.RestartPolicyNever),
		view: func(v *restart.View) {
			v.Sandboxes[0].Ready = false
			v.Instances[2].State, v.Instances[2].ExitCode = restart.StateExited, 137
		},
		want: PodActions{KillPod: true, SandboxID: sandboxID, Attempt: 1},
	},
	{
		name: "Pod sandbox not ready, and RestartPolicy == Never, but no visible restartable init containers;  create a new pod sandbox",
		pod:  withPolicy(corev1.RestartPolicyNever),
		view: func(v *restart.View) { v.Sandboxes[0].Ready, v.Instances = false, nil },
		want: PodActions{KillPod: true, CreateSandbox: true, SandboxID: sandboxID, Attempt: 1, SandboxChange: "pod sandbox is not ready", InitContainersToStart: sidecars(0)},
	},
	{
		name: "Pod sandbox not ready, restartable init container failed, and RestartPolicy == OnFailure; create a new pod sandbox",
		pod:  withPolicy(corev1.RestartPolicyOnFailure),
		view: func(v *restart.View) {
			v.Sandboxes[0].Ready = false
			v.Instances[2].State, v.Instances[2].ExitCode = restart.StateExited, 137
		},
		want: PodActions{KillPod: true, CreateSandbox: true, SandboxID: sandboxID, Attempt: 1, SandboxChange: "pod sandbox is not ready", InitContainersToStart: sidecars(0)},
	},
	{
		name: "Pod sandbox not ready, restartable init container failed, and RestartPolicy == Always; create a new pod sandbox",
		pod:  withPolicy(corev1.RestartPolicyAlways),
		view: func(v *restart.View) {
			v.Sandboxes[0].Ready = false
			v.Instances[2].State, v.Instances[2].ExitCode = restart.StateExited, 137
		},
		want: PodActions{KillPod: true, CreateSandbox: true, SandboxID: sandboxID, Attempt: 1, SandboxChange: "pod sandbox is not ready", InitContainersToStart: sidecars(0)},
	},
	{
		name: "initialization failed; restart the last restartable init container even if pod's RestartPolicy == Never",
		pod:  withPolicy(corev1.RestartPolicyNever),
		view: func(v *restart.View) { v.Instances[2].State, v.Instances[2].ExitCode = restart.StateExited, 137 },
		want: PodActions{SandboxID: sandboxID, InitContainersToStart: sidecars(2)},
	},
	{
		name: "restartable init container state unknown; kill and recreate the last restartable init container even if pod's RestartPolicy == Never",
		pod:  withPolicy(corev1.RestartPolicyNever),
		view: func(v *restart.View) { v.Instances[2].State = restart.StateUnknown },
		want: PodActions{SandboxID: sandboxID, InitContainersToStart: sidecars(2),
			ContainersToKill: []ContainerKill{sidecarKill(2, "initid3", KillReasonUnknown, `Init container is in "unknown" state, try killing it before restart`)}},
	},
	{
		name: "restart restartable init container if regular containers are running even if pod's RestartPolicy == Never",
		pod:  withPolicy(corev1.RestartPolicyNever),
		view: func(v *restart.View) {
			v.Instances[2].State, v.Instances[2].ExitCode = restart.StateExited, 137
			v.Instances = append(v.Instances, planBaseView().Instances...)
		},
		want: PodActions{SandboxID: sandboxID, InitContainersToStart: sidecars(2)},
	},
	{
		name: "kill the pod if all main containers succeeded if pod's RestartPolicy == Never",
		pod:  withPolicy(corev1.RestartPolicyNever),
		view: func(v *restart.View) {
			for i, n := range []string{"foo1", "foo2", "foo3"} {
				v.Instances = append(v.Instances, restart.Instance{Name: n, ID: []string{"id1", "id2", "id3"}[i], State: restart.StateExited})
			}
		},
		want: PodActions{KillPod: true, SandboxID: sandboxID},
	},
	{
		name: "some of the init container statuses are missing but the last init container is running, restart restartable init and regular containers",
		pod:  withPolicy(corev1.RestartPolicyAlways),
		view: func(v *restart.View) { v.Instances = v.Instances[2:] },
		want: PodActions{SandboxID: sandboxID, InitContainersToStart: sidecars(0, 1), ContainersToStart: regs(0, 1, 2)},
	},
	{
		name: "stale main container with mixed restartable and non-restartable init containers; start the first one",
		pod:  func(pod *corev1.Pod) { pod.Spec.InitContainers[1].RestartPolicy = nil },
		view: func(v *restart.View) {
			v.Instances = []restart.Instance{{Name: "foo1", ID: "id1", State: restart.StateCreated, Sandbox: "previous-sandbox"}}
		},
		want: PodActions{SandboxID: sandboxID, InitContainersToStart: sidecars(0)},
	},
}

var ephRef = ContainerRef{Kind: KindEphemeralContainer, Index: 0, Name: "debug"}

var computeEphemeralActionsCases = []planCase{
	{name: "steady state; do nothing; ignore ephemeral container", want: PodActions{SandboxID: sandboxID}},
	{
		name: "No ephemeral containers running; start one",
		view: func(v *restart.View) { v.Instances = v.Instances[:4] },
		want: PodActions{SandboxID: sandboxID, EphemeralContainersToStart: []ContainerRef{ephRef}},
	},
	{
		name: "Start second ephemeral container",
		pod: func(pod *corev1.Pod) {
			pod.Spec.EphemeralContainers = append(pod.Spec.EphemeralContainers, corev1.EphemeralContainer{EphemeralContainerCommon: corev1.EphemeralContainerCommon{Name: "debug2", Image: "busybox"}})
		},
		want: PodActions{SandboxID: sandboxID, EphemeralContainersToStart: []ContainerRef{{Kind: KindEphemeralContainer, Index: 1, Name: "debug2"}}},
	},
	{
		name: "Ephemeral container exited; do not restart",
		pod:  withPolicy(corev1.RestartPolicyAlways),
		view: func(v *restart.View) { v.Instances[4].State = restart.StateExited },
		want: PodActions{SandboxID: sandboxID},
	},
	{
		name: "initialization in progress; start ephemeral container",
		view: func(v *restart.View) {
			v.Instances[3].State = restart.StateRunning
			v.Instances = v.Instances[:4]
		},
		want: PodActions{SandboxID: sandboxID, EphemeralContainersToStart: []ContainerRef{ephRef}},
	},
	{
		name: "Create a new pod sandbox if the pod sandbox is dead, init container failed and RestartPolicy == OnFailure",
		pod:  withPolicy(corev1.RestartPolicyOnFailure),
		view: func(v *restart.View) {
			v.Sandboxes[0].Ready = false
			v.Instances = v.Instances[3:]
			v.Instances[0].ExitCode = 137
		},
		want: PodActions{KillPod: true, CreateSandbox: true, SandboxID: sandboxID, Attempt: 1, SandboxChange: "pod sandbox is not ready", InitContainersToStart: []ContainerRef{{Kind: KindInitContainer, Name: "init1"}}},
	},
	{
		name: "Kill pod and do not restart ephemeral container if the pod sandbox is dead",
		pod:  withPolicy(corev1.RestartPolicyAlways),
		view: func(v *restart.View) { v.Sandboxes[0].Ready = false },
		want: PodActions{KillPod: true, CreateSandbox: true, SandboxID: sandboxID, Attempt: 1, SandboxChange: "pod sandbox is not ready", InitContainersToStart: []ContainerRef{{Kind: KindInitContainer, Name: "init1"}}},
	},
	{
		name: "Kill pod if all containers exited except ephemeral container",
		pod:  withPolicy(corev1.RestartPolicyNever),
		view: func(v *restart.View) {
			for i := 0; i < 3; i++ {
				v.Instances[i].State, v.Instances[i].ExitCode = restart.StateExited, 0
			}
		},
		want: PodActions{KillPod: true, SandboxID: sandboxID},
	},
	{
		name: "Ephemeral container is in unknown state; leave it alone",
		pod:  withPolicy(corev1.RestartPolicyNever),
		view: func(v *restart.View) { v.Instances[4].State = restart.StateUnknown },
		want: PodActions{SandboxID: sandboxID},
	},
}

var computeContainerRestartRulesCases = []planCase{
	{
		name: "restart exited containers if RestartPolicy == Always",
		pod: func(pod *corev1.Pod) {
			pod.Spec.Containers[0].RestartPolicy = &policyAlways
			pod.Spec.Containers[1].RestartPolicy = &policyAlways
			pod.Spec.RestartPolicy = corev1.RestartPolicyNever
		},
		view: func(v *restart.View) {
			v.Instances[0].State, v.Instances[0].ExitCode = restart.StateExited, 0
			v.Instances[1].State, v.Instances[1].ExitCode = restart.StateExited, 111
		},
		want: PodActions{SandboxID: sandboxID, ContainersToStart: regs(0, 1)},
	},
	{
		name: "restart failed containers if RestartPolicy == OnFailure",
		pod: func(pod *corev1.Pod) {
			pod.Spec.Containers[0].RestartPolicy = &policyOnFailure
			pod.Spec.Containers[1].RestartPolicy = &policyOnFailure
			pod.Spec.RestartPolicy = corev1.RestartPolicyNever
		},
		view: func(v *restart.View) {
			v.Instances[0].State, v.Instances[0].ExitCode = restart.StateExited, 0
			v.Instances[1].State, v.Instances[1].ExitCode = restart.StateExited, 111
		},
		want: PodActions{SandboxID: sandboxID, ContainersToStart: regs(1)},
	},
	{
		name: "restart created but not started containers if RestartPolicy == OnFailure",
		pod: func(pod *corev1.Pod) {
			pod.Spec.Containers[0].RestartPolicy = &policyOnFailure
			pod.Spec.Containers[1].RestartPolicy = &policyOnFailure
			pod.Spec.RestartPolicy = corev1.RestartPolicyNever
		},
		view: func(v *restart.View) {
			v.Instances[0].State, v.Instances[0].ExitCode = restart.StateExited, 0
			v.Instances[1].State = restart.StateCreated
		},
		want: PodActions{SandboxID: sandboxID, ContainersToStart: regs(1)},
	},
	{
		name: "don't restart containers if RestartPolicy == Never",
		pod: func(pod *corev1.Pod) {
			pod.Spec.Containers[0].RestartPolicy = &policyNever
			pod.Spec.Containers[1].RestartPolicy = &policyNever
			pod.Spec.RestartPolicy = corev1.RestartPolicyAlways
		},
		view: func(v *restart.View) {
			v.Instances[0].State, v.Instances[0].ExitCode = restart.StateExited, 0
			v.Instances[1].State, v.Instances[1].ExitCode = restart.StateExited, 111
		},
		want: PodActions{SandboxID: sandboxID},
	},
	{
		name: "Kill pod and recreate all containers (except for the succeeded one) if the pod sandbox is dead",
		pod: func(pod *corev1.Pod) {
			pod.Spec.Containers[1].RestartPolicy = &policyOnFailure
			pod.Spec.RestartPolicy = corev1.RestartPolicyAlways
		},
		view: func(v *restart.View) {
			v.Sandboxes[0].Ready = false
			v.Instances[1].State, v.Instances[1].ExitCode = restart.StateExited, 0
		},
		want: PodActions{KillPod: true, CreateSandbox: true, SandboxID: sandboxID, Attempt: 1, SandboxChange: "pod sandbox is not ready", ContainersToStart: regs(0, 2)},
	},
}

var restartAllRules = []corev1.ContainerRestartRule{{
	Action:    corev1.ContainerRestartRuleActionRestartAllContainers,
	ExitCodes: &corev1.ContainerRestartRuleOnExitCodes{Operator: corev1.ContainerRestartRuleOnExitCodesOpIn, Values: []int32{1}},
}}

func reset(kind ContainerKind, i int, name, id string, kill, source bool) ContainerReset {
	return ContainerReset{Container: ContainerRef{Kind: kind, Index: i, Name: name}, ID: id, Kill: kill, Source: source}
}

func TestComputePodActions(t *testing.T) {
	for _, gates := range []podlife.FeatureGates{nil, {"ContainerRestartRules": false}, {"RestartAllContainersOnContainerExits": false}} {
		opts := Options{Features: gates}
		t.Run("base", func(t *testing.T) { runPlanCases(t, planBasePod, planBaseView, computePodActionsCases, opts) })
		t.Run("init", func(t *testing.T) { runPlanCases(t, planInitPod, planInitView, computeInitActionsCases, opts) })
		t.Run("sidecar", func(t *testing.T) { runPlanCases(t, planSidecarPod, planSidecarView, computeSidecarActionsCases, opts) })
		t.Run("ephemeral", func(t *testing.T) {
			runPlanCases(t, planEphemeralPod, planEphemeralView, computeEphemeralActionsCases, opts)
		})
	}
	t.Run("ContainerRestartRules", func(t *testing.T) {
		runPlanCases(t, planBasePod, planBaseView, computeContainerRestartRulesCases, Options{})
	})
}

func TestComputePodActionsForRestartAllContainers(t *testing.T) {
	trueCond := []corev1.PodCondition{{Type: corev1.AllContainersRestarting, Status: corev1.ConditionTrue}}
	falseCond := []corev1.PodCondition{{Type: corev1.AllContainersRestarting, Status: corev1.ConditionFalse}}
	cases := []struct {
		name       string
		pod        func() *corev1.Pod
		view       func() restart.View
		restartAll bool
		want       PodActions
	}{
		{
			name: "pod not marked for RestartAllContainers",
			pod:  func() *corev1.Pod { p := planBasePod(); p.Status.Conditions = falseCond; return p },
			view: planBaseView,
			want: PodActions{SandboxID: sandboxID},
		},
		{
			name:       "pod marked for RestartAllContainers",
			pod:        func() *corev1.Pod { p := planBasePod(); p.Status.Conditions = trueCond; return p },
			view:       planBaseView,
			restartAll: true,
			want: PodActions{SandboxID: sandboxID, ContainersToReset: []ContainerReset{
				reset(KindContainer, 0, "foo1", "id1", true, false),
				reset(KindContainer, 1, "foo2", "id2", true, false),
				reset(KindContainer, 2, "foo3", "id3", true, false),
			}},
		},
		{
			name:       "pod marked for RestartAllContainers with init containers",
			pod:        func() *corev1.Pod { p := planInitPod(); p.Status.Conditions = trueCond; return p },
			view:       planInitView,
			restartAll: true,
			want: PodActions{SandboxID: sandboxID, ContainersToReset: []ContainerReset{
				reset(KindInitContainer, 0, "init1", "initid1", false, false),
				reset(KindInitContainer, 1, "init2", "initid2", false, false),
				reset(KindInitContainer, 2, "init3", "initid3", false, false),
			}},
		},
		{
			name:       "pod marked for RestartAllContainers with restartable init containers",
			pod:        func() *corev1.Pod { p := planSidecarPod(); p.Status.Conditions = trueCond; return p },
			view:       planSidecarView,
			restartAll: true,
			want: PodActions{SandboxID: sandboxID, ContainersToReset: []ContainerReset{
				reset(KindSidecar, 0, "restartable-init-1", "initid1", true, false),
				reset(KindSidecar, 1, "restartable-init-2", "initid2", true, false),
				reset(KindSidecar, 2, "restartable-init-3", "initid3", true, false),
			}},
		},
		{
			name: "init container exit triggers RestartAllContainers",
			pod: func() *corev1.Pod {
				p := planInitPod()
				p.Spec.InitContainers[1].RestartPolicy = &policyAlways
				p.Spec.InitContainers[2].RestartPolicy = &policyNever
				p.Spec.InitContainers[2].RestartPolicyRules = restartAllRules
				p.Status.Conditions = trueCond
				return p
			},
			view: func() restart.View {
				v := planInitView()
				v.Instances[1].State = restart.StateRunning
				v.Instances[2].ExitCode = 1
				return v
			},
			restartAll: true,
			want: PodActions{SandboxID: sandboxID, ContainersToReset: []ContainerReset{
				reset(KindInitContainer, 0, "init1", "initid1", false, false),
				reset(KindSidecar, 1, "init2", "initid2", true, false),
				reset(KindInitContainer, 2, "init3", "initid3", false, true),
			}},
		},
		{
			name: "sidecar container exit triggers RestartAllContainres",
			pod: func() *corev1.Pod {
				p := planSidecarPod()
				p.Spec.InitContainers[2].RestartPolicyRules = restartAllRules
				p.Status.Conditions = trueCond
				return p
			},
			view: func() restart.View {
				v := planSidecarView()
				v.Instances[2].State, v.Instances[2].ExitCode = restart.StateExited, 1
				v.Instances = append(v.Instances, restart.Instance{Name: "foo1", ID: "id1", State: restart.StateRunning})
				return v
			},
			restartAll: true,
			want: PodActions{SandboxID: sandboxID, ContainersToReset: []ContainerReset{
				reset(KindContainer, 0, "foo1", "id1", true, false),
				reset(KindSidecar, 0, "restartable-init-1", "initid1", true, false),
				reset(KindSidecar, 1, "restartable-init-2", "initid2", true, false),
				reset(KindSidecar, 2, "restartable-init-3", "initid3", false, true),
			}},
		},
		{
			name: "regular container exit triggers RestartAllContainers",
			pod: func() *corev1.Pod {
				p := planSidecarPod()
				p.Spec.Containers[2].RestartPolicy = &policyNever
				p.Spec.Containers[2].RestartPolicyRules = restartAllRules
				p.Status.Conditions = trueCond
				return p
			},
			view: func() restart.View {
				v := planSidecarView()
				v.Instances = append(v.Instances,
					restart.Instance{Name: "foo1", ID: "id1", State: restart.StateRunning},
					restart.Instance{Name: "foo2", ID: "id2", State: restart.StateRunning},
					restart.Instance{Name: "foo3", ID: "id3", State: restart.StateExited, ExitCode: 1})
				return v
			},
			restartAll: true,
			want: PodActions{SandboxID: sandboxID, ContainersToReset: []ContainerReset{
				reset(KindContainer, 0, "foo1", "id1", true, false),
				reset(KindContainer, 1, "foo2", "id2", true, false),
				reset(KindSidecar, 0, "restartable-init-1", "initid1", true, false),
				reset(KindSidecar, 1, "restartable-init-2", "initid2", true, false),
				reset(KindSidecar, 2, "restartable-init-3", "initid3", true, false),
				reset(KindContainer, 2, "foo3", "id3", false, true),
			}},
		},
		{
			name: "removes past terminated statuses",
			pod: func() *corev1.Pod {
				p := planBasePod()
				p.Spec.RestartPolicy = corev1.RestartPolicyAlways
				p.Spec.Containers[2].RestartPolicy = &policyAlways
				p.Spec.Containers[2].RestartPolicyRules = restartAllRules
				p.Status.Conditions = trueCond
				return p
			},
			view: func() restart.View {
				v := planBaseView()
				v.Instances[2] = restart.Instance{Name: "foo3", ID: "id3", State: restart.StateExited, ExitCode: 1}
				v.Instances = append(v.Instances,
					restart.Instance{Name: "foo1", ID: "id1-past", State: restart.StateExited, ExitCode: 99},
					restart.Instance{Name: "foo2", ID: "id2-past", State: restart.StateExited, ExitCode: 99},
					restart.Instance{Name: "foo3", ID: "id3-past", State: restart.StateExited, ExitCode: 99})
				return v
			},
			restartAll: true,
			want: PodActions{SandboxID: sandboxID, ContainersToReset: []ContainerReset{
				reset(KindContainer, 0, "foo1", "id1", true, false),
				reset(KindContainer, 0, "foo1", "id1-past", false, false),
				reset(KindContainer, 1, "foo2", "id2", true, false),
				reset(KindContainer, 1, "foo2", "id2-past", false, false),
				reset(KindContainer, 2, "foo3", "id3-past", false, false),
				reset(KindContainer, 2, "foo3", "id3", false, true),
			}},
		},
		{
			name: "all containers removed, start init container",
			pod:  planInitPod,
			view: func() restart.View { v := planBaseView(); v.Instances = nil; return v },
			want: PodActions{SandboxID: sandboxID, InitContainersToStart: inits(0)},
		},
		{
			name: "all containers removed, start regular container",
			pod:  planBasePod,
			view: func() restart.View { v := planBaseView(); v.Instances = nil; return v },
			want: PodActions{SandboxID: sandboxID, ContainersToStart: regs(0, 1, 2)},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := tc.view()
			assert.Equal(t, tc.want, ComputePodActions(tc.pod(), &v, tc.restartAll, Options{}))
		})
	}
	t.Run("suites run with the gate on", func(t *testing.T) {
		opts := Options{Features: podlife.FeatureGates{"RestartAllContainersOnContainerExits": true, "ContainerRestartRules": true}}
		runPlanCases(t, planBasePod, planBaseView, computePodActionsCases, opts)
		runPlanCases(t, planInitPod, planInitView, computeInitActionsCases, opts)
	})
}

func TestPlanBackOff(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	pod := planBasePod()
	pod.Spec.Containers = pod.Spec.Containers[:1]
	key := restart.BackOffKey(pod, &pod.Spec.Containers[0])
	view := func(b map[string]restart.BackOff) restart.View {
		v := planBaseView()
		v.Instances = []restart.Instance{{Name: "foo1", ID: "id1", State: restart.StateExited, ExitCode: 1, FinishedAt: t0}}
		v.BackOff = b
		return v
	}
	ref := regs(0)

	// The first restart is immediate and creates the entry.
	v := view(nil)
	a := Plan(pod, &v, t0.Add(time.Second), Options{})
	assert.Equal(t, ref, a.ContainersToStart)
	assert.Equal(t, []BackOffUpdate{{Container: ref[0], Key: key, BackOff: restart.BackOff{Exists: true, Delay: 10 * time.Second, LastUpdate: t0.Add(time.Second)}}}, a.BackOffUpdates)

	// Inside the delay the start is held back with upstream's message.
	v = view(map[string]restart.BackOff{key: {Exists: true, Delay: 20 * time.Second, LastUpdate: t0.Add(-time.Minute)}})
	a = Plan(pod, &v, t0.Add(5*time.Second), Options{})
	assert.Nil(t, a.ContainersToStart)
	assert.Equal(t, []BackOffWait{{Container: ref[0], Delay: 20 * time.Second, Until: t0.Add(20 * time.Second),
		Message: "back-off 20s restarting failed container=foo1 pod=foo_foo-ns(12345678)"}}, a.BackOff)
	assert.Equal(t, "hold back container foo1 until 2026-01-01T10:00:20Z (back-off 20s restarting failed container=foo1 pod=foo_foo-ns(12345678))", a.String())

	// At the end of the delay it starts and the delay doubles.
	a = Plan(pod, &v, t0.Add(20*time.Second), Options{})
	assert.Equal(t, ref, a.ContainersToStart)
	assert.Equal(t, 40*time.Second, a.BackOffUpdates[0].BackOff.Delay)

	// MaxContainerRestartPeriod caps the delay.
	a = Plan(pod, &v, t0.Add(20*time.Second), Options{MaxContainerRestartPeriod: 30 * time.Second})
	assert.Equal(t, 30*time.Second, a.BackOffUpdates[0].BackOff.Delay)

	// A regular init container that cannot start aborts the rest of the sync.
	ipod := planInitPod()
	iv := planInitView()
	iv.Instances[0].ExitCode, iv.Instances[0].FinishedAt = 1, t0
	iv.BackOff = map[string]restart.BackOff{restart.BackOffKey(ipod, &ipod.Spec.InitContainers[0]): {Exists: true, Delay: 10 * time.Second, LastUpdate: t0}}
	x := newLookup(&iv)
	acts := PodActions{InitContainersToStart: inits(0), ContainersToStart: regs(1)}
	applyBackOff(ipod, &x, &acts, t0, nil, Options{})
	assert.Nil(t, acts.InitContainersToStart)
	assert.Nil(t, acts.ContainersToStart)
	assert.Equal(t, regs(1), acts.NotAttempted)
	require.Len(t, acts.BackOff, 1)
	assert.Equal(t, "init1", acts.BackOff[0].Container.Name)
}

func TestPlanTerminates(t *testing.T) {
	now := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	// A deleted pod is terminated.
	pod := planBasePod()
	pod.DeletionTimestamp = &metav1.Time{Time: now}
	v := planBaseView()
	assert.Equal(t, PodActions{Terminate: true, KillPod: true}, Plan(pod, &v, now, Options{}))

	// A Never pod whose containers all exited is terminal: the kubelet terminates it
	// instead of syncing it.
	pod = planBasePod()
	pod.Spec.RestartPolicy = corev1.RestartPolicyNever
	for i := range v.Instances {
		v.Instances[i].State = restart.StateExited
	}
	a := Plan(pod, &v, now, Options{})
	assert.Equal(t, PodActions{Terminate: true, KillPod: true}, a)
	assert.Equal(t, "terminate the pod: stop every container and the sandbox", a.String())

	// A pod marked Failed by the API server stays terminated.
	pod = planBasePod()
	pod.Status.Phase = corev1.PodFailed
	v = planBaseView()
	assert.True(t, Plan(pod, &v, now, Options{}).Terminate)

	// A nil pod and view plan a sandbox for nothing.
	assert.Equal(t, "create a sandbox (attempt 0) because no pod sandbox exists", Plan(nil, nil, now, Options{}).String())
}

func TestPlanRestartAll(t *testing.T) {
	now := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	pod := planBasePod()
	pod.Spec.Containers[2].RestartPolicy = &policyNever
	pod.Spec.Containers[2].RestartPolicyRules = restartAllRules
	v := planBaseView()
	v.Instances[2].State, v.Instances[2].ExitCode = restart.StateExited, 1
	a := Plan(pod, &v, now, Options{})
	assert.Equal(t, []ContainerReset{
		reset(KindContainer, 0, "foo1", "id1", true, false),
		reset(KindContainer, 1, "foo2", "id2", true, false),
		reset(KindContainer, 2, "foo3", "id3", false, true),
	}, a.ContainersToReset)
	assert.Equal(t, "kill and remove container foo1 to restart all containers; kill and remove container foo2 to restart all containers; remove container foo3 to restart all containers", a.String())
	// With the gate off the rule's action is not recognised: foo3's own policy (Never)
	// keeps it down and nothing else happens.
	a = Plan(pod, &v, now, Options{Features: podlife.FeatureGates{"RestartAllContainersOnContainerExits": false}})
	assert.Equal(t, PodActions{SandboxID: sandboxID}, a)
	assert.Equal(t, "nothing to do", a.String())
}

func TestPodActionsString(t *testing.T) {
	a := PodActions{KillPod: true, CreateSandbox: true, Attempt: 2, SandboxChange: "pod sandbox is not ready",
		EphemeralContainersToStart: []ContainerRef{ephRef}, InitContainersToStart: sidecars(0, 1),
		NotAttempted: regs(0, 2)}
	assert.Equal(t, "kill the pod; create a sandbox (attempt 2) because pod sandbox is not ready; start ephemeral container debug; start init containers restartable-init-1, restartable-init-2; leave foo1, foo3 for a later sync", a.String())
	a = PodActions{ContainersToKill: []ContainerKill{kill(regs(1)[0], "id2", KillReasonNone, "")}, ContainersToStart: regs(1, 2)}
	assert.Equal(t, "kill container foo2; start containers foo2, foo3", a.String())
}

func FuzzPlan(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		pod, v := fuzzPodAndView(data)
		podBefore, viewBefore := pod.DeepCopy(), cloneView(v)
		now := fuzzT0.Add(90 * time.Second)
		a := Plan(pod, v, now, Options{})
		checkSurelyNotTerminal(t, pod, v, now)
		require.Equal(t, podBefore, pod, "pod untouched")
		require.Equal(t, viewBefore, v, "view untouched")
		require.Equal(t, a, Plan(pod, v, now, Options{}), "deterministic")
		_ = a.String()

		if isTerminal(pod.Status.Phase) || pod.DeletionTimestamp != nil {
			require.True(t, a.Terminate, "a terminal or deleted pod is only ever terminated")
		}
		if a.Terminate {
			require.Empty(t, a.InitContainersToStart)
			require.Empty(t, a.ContainersToStart)
			return
		}
		checkStarts(t, pod, v, a)
		for _, w := range a.BackOff {
			require.True(t, w.Until.After(now), "a held start waits for a future time")
			require.Contains(t, w.Message, "back-off "+w.Delay.String()+" restarting failed container="+w.Container.Name+" pod=p_ns(u)")
		}
	})
}

// checkSurelyNotTerminal checks Plan's shortcut against the conversion it saves:
// when surelyNotTerminal holds, nextPhase answers neither Succeeded nor Failed and the
// pod is not restarting all its containers, under each feature-gate setting the
// shortcut reads.
func checkSurelyNotTerminal(t *testing.T, pod *corev1.Pod, v *restart.View, now time.Time) {
	t.Helper()
	for _, opts := range []Options{{}, {Features: podlife.FeatureGates{"ContainerRestartRules": false, "RestartAllContainersOnContainerExits": false}},
		{Features: podlife.FeatureGates{"ContainerRestartRules": true, "RestartAllContainersOnContainerExits": true}}} {
		x := newLookup(orEmptyView(v))
		if !surelyNotTerminal(orEmpty(pod), &x, now, opts) {
			continue
		}
		phase, restarting := nextPhase(orEmpty(pod), orEmptyView(v), &x, now, nil, opts)
		require.False(t, isTerminal(phase), "surelyNotTerminal, but the next phase is %s (%v)", phase, opts.Features)
		require.False(t, restarting, "surelyNotTerminal, but the pod restarts all its containers (%v)", opts.Features)
	}
}

func FuzzComputePodActions(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, data []byte, restartAll bool) {
		pod, v := fuzzPodAndView(data)
		podBefore, viewBefore := pod.DeepCopy(), cloneView(v)
		a := ComputePodActions(pod, v, restartAll, Options{})
		require.Equal(t, podBefore, pod)
		require.Equal(t, viewBefore, v)
		require.Equal(t, a, ComputePodActions(pod, v, restartAll, Options{}))
		require.Empty(t, a.BackOff)
		require.Empty(t, a.BackOffUpdates)
		if len(a.ContainersToReset) > 0 {
			require.Empty(t, a.ContainersToStart)
			require.Empty(t, a.InitContainersToStart)
		}
		checkStarts(t, pod, v, a)
	})
}

// checkStarts asserts the start-order invariants of an action.
func checkStarts(t *testing.T, pod *corev1.Pod, v *restart.View, a PodActions) {
	t.Helper()
	for _, r := range a.InitContainersToStart {
		require.Equal(t, pod.Spec.InitContainers[r.Index].Name, r.Name)
	}
	for _, r := range a.ContainersToStart {
		require.Equal(t, pod.Spec.Containers[r.Index].Name, r.Name)
	}
	for _, r := range a.EphemeralContainersToStart {
		require.Equal(t, pod.Spec.EphemeralContainers[r.Index].Name, r.Name)
	}
	// Init containers start in spec order, at most one regular init container at a time.
	regular := 0
	for i, r := range a.InitContainersToStart {
		if i > 0 {
			require.Less(t, a.InitContainersToStart[i-1].Index, r.Index, "spec order")
		}
		if r.Kind == KindInitContainer {
			regular++
		}
	}
	require.LessOrEqual(t, regular, 1, "one regular init container at a time")
	if a.CreateSandbox && len(pod.Spec.InitContainers) > 0 {
		// A new sandbox starts with the first init container (unless the back-off
		// holds it, or the sync resets all containers instead).
		require.Empty(t, a.ContainersToStart, "a new sandbox starts with the first init container")
		for _, r := range a.InitContainersToStart {
			require.Equal(t, 0, r.Index)
		}
	}
	// A regular container starts only once the last init container is done or started.
	if len(a.ContainersToStart) > 0 && len(pod.Spec.InitContainers) > 0 {
		x := newLookup(v)
		last := &pod.Spec.InitContainers[len(pod.Spec.InitContainers)-1]
		inst := x.newestActive(last.Name)
		done := inst != nil && (restart.IsRestartableInitContainer(last) && inst.State.Kubelet() == restart.StateRunning ||
			!restart.IsRestartableInitContainer(last) && inst.State.Kubelet() == restart.StateExited && !restart.IsInitContainerFailed(inst))
		require.True(t, done || anyActiveRegularContainer(pod, &x), "regular container started before initialization")
	}
}

// fuzzReader turns fuzz bytes into choices; it yields zeros once the bytes run out.
type fuzzReader struct{ b []byte }

func (r *fuzzReader) next() int {
	if len(r.b) == 0 {
		return 0
	}
	v := int(r.b[0])
	r.b = r.b[1:]
	return v
}

func (r *fuzzReader) pick(n int) int { return r.next() % n }

var fuzzT0 = time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)

// fuzzPodAndView builds a pod with statuses and a runtime view from fuzz bytes.
func fuzzPodAndView(data []byte) (*corev1.Pod, *restart.View) {
	r := &fuzzReader{b: data}
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns", UID: "u", Generation: int64(r.pick(3))}}
	pod.Spec.RestartPolicy = []corev1.RestartPolicy{"", corev1.RestartPolicyAlways, corev1.RestartPolicyOnFailure, corev1.RestartPolicyNever}[r.pick(4)]
	pod.Spec.HostNetwork = r.pick(8) == 0
	if r.pick(12) == 0 {
		pod.DeletionTimestamp = &metav1.Time{Time: fuzzT0}
	}
	policies := []*corev1.ContainerRestartPolicy{nil, &policyAlways, &policyOnFailure, &policyNever}
	rule := func() []corev1.ContainerRestartRule {
		if r.pick(3) != 0 {
			return nil
		}
		action := corev1.ContainerRestartRuleActionRestart
		if r.pick(2) == 0 {
			action = corev1.ContainerRestartRuleActionRestartAllContainers
		}
		return []corev1.ContainerRestartRule{{Action: action, ExitCodes: &corev1.ContainerRestartRuleOnExitCodes{Operator: corev1.ContainerRestartRuleOnExitCodesOpIn, Values: []int32{int32(r.pick(4))}}}}
	}
	probe := func() *corev1.Probe {
		if r.pick(3) == 0 {
			return &corev1.Probe{}
		}
		return nil
	}
	for i := r.pick(4); i > 0; i-- {
		c := corev1.Container{Name: "i" + strconv.Itoa(len(pod.Spec.InitContainers)), Image: "img", RestartPolicy: policies[r.pick(4)], StartupProbe: probe(), LivenessProbe: probe()}
		if c.RestartPolicy != nil {
			c.RestartPolicyRules = rule()
		}
		pod.Spec.InitContainers = append(pod.Spec.InitContainers, c)
	}
	for i := r.pick(4); i > 0; i-- {
		c := corev1.Container{Name: "c" + strconv.Itoa(len(pod.Spec.Containers)), Image: "img", RestartPolicy: policies[r.pick(4)], StartupProbe: probe(), ReadinessProbe: probe(), LivenessProbe: probe()}
		if c.RestartPolicy != nil {
			c.RestartPolicyRules = rule()
		}
		pod.Spec.Containers = append(pod.Spec.Containers, c)
	}
	if r.pick(4) == 0 {
		pod.Spec.EphemeralContainers = []corev1.EphemeralContainer{{EphemeralContainerCommon: corev1.EphemeralContainerCommon{Name: "e0", Image: "img"}}}
	}
	var names []string
	for _, c := range pod.Spec.InitContainers {
		names = append(names, c.Name)
	}
	for _, c := range pod.Spec.Containers {
		names = append(names, c.Name)
	}
	for _, c := range pod.Spec.EphemeralContainers {
		names = append(names, c.Name)
	}
	names = append(names, "stranger")

	// Previous status.
	pod.Status.Phase = []corev1.PodPhase{"", corev1.PodPending, corev1.PodRunning, corev1.PodSucceeded, corev1.PodFailed}[r.pick(5)]
	if r.pick(2) == 0 {
		pod.Status.StartTime = &metav1.Time{Time: fuzzT0}
	}
	if r.pick(3) == 0 {
		d := int64(r.pick(100))
		pod.Spec.ActiveDeadlineSeconds = &d
	}
	cstatus := func(name string) corev1.ContainerStatus {
		cs := corev1.ContainerStatus{Name: name, RestartCount: int32(r.pick(3)), ContainerID: "x://" + strconv.Itoa(r.pick(6))}
		switch r.pick(4) {
		case 0:
			cs.State.Running = &corev1.ContainerStateRunning{StartedAt: metav1.NewTime(fuzzT0)}
		case 1:
			cs.State.Terminated = &corev1.ContainerStateTerminated{ExitCode: int32(r.pick(3)), Reason: []string{"", "Error", "RestartingAllContainers"}[r.pick(3)]}
		case 2:
			cs.State.Waiting = &corev1.ContainerStateWaiting{Reason: []string{"", "CrashLoopBackOff", "RestartingAllContainers"}[r.pick(3)]}
		}
		if r.pick(3) == 0 {
			cs.LastTerminationState.Terminated = &corev1.ContainerStateTerminated{ExitCode: int32(r.pick(3))}
		}
		if r.pick(2) == 0 {
			b := r.pick(2) == 0
			cs.Started = &b
		}
		return cs
	}
	for _, c := range pod.Spec.InitContainers {
		if r.pick(2) == 0 {
			pod.Status.InitContainerStatuses = append(pod.Status.InitContainerStatuses, cstatus(c.Name))
		}
	}
	for _, c := range pod.Spec.Containers {
		if r.pick(2) == 0 {
			pod.Status.ContainerStatuses = append(pod.Status.ContainerStatuses, cstatus(c.Name))
		}
	}
	for i := r.pick(3); i > 0; i-- {
		t := []corev1.PodConditionType{corev1.AllContainersRestarting, corev1.PodInitialized, corev1.PodReady, corev1.DisruptionTarget, "custom"}[r.pick(5)]
		pod.Status.Conditions = append(pod.Status.Conditions, corev1.PodCondition{Type: t, Status: []corev1.ConditionStatus{corev1.ConditionTrue, corev1.ConditionFalse}[r.pick(2)]})
	}

	// Runtime view.
	v := &restart.View{}
	for i := r.pick(3); i > 0; i-- {
		sb := restart.Sandbox{ID: "s" + strconv.Itoa(len(v.Sandboxes)), Ready: r.pick(4) != 0, Attempt: uint32(r.pick(3)), HostNetwork: r.pick(6) == 0}
		switch r.pick(4) {
		case 0:
		case 1:
			sb.Network = &restart.SandboxNetwork{}
		case 2:
			sb.Network = &restart.SandboxNetwork{IP: "10.0.0.1", AdditionalIPs: []string{"fd00::1"}}
		default:
			sb.Network = &restart.SandboxNetwork{IP: "10.0.0." + strconv.Itoa(r.pick(300))}
		}
		v.Sandboxes = append(v.Sandboxes, sb)
	}
	states := []restart.State{restart.StateCreated, restart.StateRunning, restart.StateExited, restart.StateUnknown, restart.StateNone}
	results := []restart.ProbeResult{restart.ProbeNone, restart.ProbeSuccess, restart.ProbeFailure, restart.ProbeUnknown}
	for i := r.pick(8); i > 0; i-- {
		inst := restart.Instance{
			Name: names[r.pick(len(names))], ID: "x://" + strconv.Itoa(r.pick(6)),
			State: states[r.pick(len(states))], ExitCode: int32(r.pick(4)), RestartCount: int32(r.pick(4)),
			StartedAt: fuzzT0.Add(time.Duration(r.pick(60)) * time.Second), FinishedAt: fuzzT0.Add(time.Duration(r.pick(120)) * time.Second),
			SpecChanged: r.pick(6) == 0, Liveness: results[r.pick(4)], Startup: results[r.pick(4)], Readiness: results[r.pick(4)],
		}
		if r.pick(8) == 0 {
			inst.Reason = "OOMKilled"
		}
		if len(v.Sandboxes) > 0 && r.pick(3) == 0 {
			inst.Sandbox = v.Sandboxes[r.pick(len(v.Sandboxes))].ID
		}
		v.Instances = append(v.Instances, inst)
	}
	if r.pick(2) == 0 {
		v.BackOff = map[string]restart.BackOff{}
		for _, c := range pod.Spec.Containers {
			v.BackOff[restart.BackOffKey(pod, &c)] = restart.BackOff{Exists: true, Delay: time.Duration(10*(1+r.pick(4))) * time.Second, LastUpdate: fuzzT0}
		}
	}
	if r.pick(2) == 0 {
		v.StartFailures = map[string]restart.StartFailure{names[r.pick(len(names))]: {Reason: "ErrImagePull", Message: "m"}}
	}
	return pod, v
}

// cloneView deep-copies a view for the "input untouched" checks.
func cloneView(v *restart.View) *restart.View {
	c := *v
	c.Sandboxes = append([]restart.Sandbox(nil), v.Sandboxes...)
	for i := range c.Sandboxes {
		if n := c.Sandboxes[i].Network; n != nil {
			cp := *n
			cp.AdditionalIPs = append([]string(nil), n.AdditionalIPs...)
			c.Sandboxes[i].Network = &cp
		}
	}
	c.Instances = append([]restart.Instance(nil), v.Instances...)
	if v.BackOff != nil {
		c.BackOff = make(map[string]restart.BackOff, len(v.BackOff))
		for k, b := range v.BackOff {
			c.BackOff[k] = b
		}
	}
	if v.StartFailures != nil {
		c.StartFailures = make(map[string]restart.StartFailure, len(v.StartFailures))
		for k, f := range v.StartFailures {
			c.StartFailures[k] = f
		}
	}
	c.HostIPs = append([]string(nil), v.HostIPs...)
	return &c
}

var fuzzSeeds = [][]byte{
	nil,
	{1, 2, 3, 4, 5, 6, 7, 8, 9, 10},
	{3, 1, 0, 2, 2, 1, 1, 0, 3, 3, 2, 1, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12},
	{255, 254, 253, 252, 251, 250, 249, 248, 247, 246, 245, 244, 243, 242, 241, 240, 239, 238, 237, 236, 235, 234},
	[]byte("podlife lifecycle plan fuzz seed with sidecars and init containers"),
}

// benchPod is a realistic running pod: two init containers (one a sidecar with
// probes), two app containers with resources and probes, full statuses.
func benchPod() (*corev1.Pod, restart.View) {
	t0 := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	res := corev1.ResourceRequirements{
		Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("128Mi")},
		Limits:   corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("256Mi")},
	}
	probe := &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/healthz"}}}
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web-7d4b9c", Namespace: "prod", UID: "0b6f4a2e", Generation: 1,
		Labels: map[string]string{"app": "web", "tier": "frontend"}, CreationTimestamp: metav1.NewTime(t0)}}
	pod.Spec = corev1.PodSpec{
		RestartPolicy: corev1.RestartPolicyAlways,
		InitContainers: []corev1.Container{
			{Name: "migrate", Image: "registry.example/migrate:1.2", Resources: res},
			{Name: "proxy", Image: "registry.example/proxy:3", RestartPolicy: &policyAlways, Resources: res, StartupProbe: probe, ReadinessProbe: probe},
		},
		Containers: []corev1.Container{
			{Name: "app", Image: "registry.example/app:5", Resources: res, LivenessProbe: probe, ReadinessProbe: probe,
				Env: []corev1.EnvVar{{Name: "MODE", Value: "prod"}}, Ports: []corev1.ContainerPort{{ContainerPort: 8080}}},
			{Name: "worker", Image: "registry.example/worker:5", Resources: res},
		},
	}
	started := true
	run := func(name, id string, at time.Time) corev1.ContainerStatus {
		return corev1.ContainerStatus{Name: name, ContainerID: id, Ready: true, Started: &started, Image: "img", ImageID: "sha",
			State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: metav1.NewTime(at)}}}
	}
	pod.Status = corev1.PodStatus{
		Phase: corev1.PodRunning, PodIP: "10.1.2.3", PodIPs: []corev1.PodIP{{IP: "10.1.2.3"}}, HostIP: "192.168.1.1",
		StartTime: &metav1.Time{Time: t0}, QOSClass: corev1.PodQOSBurstable,
		Conditions: []corev1.PodCondition{
			{Type: corev1.PodReadyToStartContainers, Status: corev1.ConditionTrue},
			{Type: corev1.PodInitialized, Status: corev1.ConditionTrue},
			{Type: corev1.PodReady, Status: corev1.ConditionTrue},
			{Type: corev1.ContainersReady, Status: corev1.ConditionTrue},
			{Type: corev1.PodScheduled, Status: corev1.ConditionTrue},
		},
		InitContainerStatuses: []corev1.ContainerStatus{
			{Name: "migrate", ContainerID: "containerd://m1", Ready: true, State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{Reason: "Completed", ContainerID: "containerd://m1"}}},
			run("proxy", "containerd://p1", t0.Add(5*time.Second)),
		},
		ContainerStatuses: []corev1.ContainerStatus{run("app", "containerd://a1", t0.Add(6*time.Second)), run("worker", "containerd://w1", t0.Add(6*time.Second))},
	}
	v := restart.View{
		Sandboxes: []restart.Sandbox{{ID: "s1", Ready: true, Network: &restart.SandboxNetwork{IP: "10.1.2.3"}}},
		Instances: []restart.Instance{
			{Name: "worker", ID: "containerd://w1", State: restart.StateRunning, StartedAt: t0.Add(6 * time.Second)},
			{Name: "app", ID: "containerd://a1", State: restart.StateRunning, StartedAt: t0.Add(6 * time.Second), Liveness: restart.ProbeSuccess, Readiness: restart.ProbeSuccess},
			{Name: "proxy", ID: "containerd://p1", State: restart.StateRunning, StartedAt: t0.Add(5 * time.Second), Startup: restart.ProbeSuccess, Readiness: restart.ProbeSuccess},
			{Name: "migrate", ID: "containerd://m1", State: restart.StateExited, Reason: "Completed", FinishedAt: t0.Add(4 * time.Second)},
		},
		HostIPs: []string{"192.168.1.1"},
	}
	return pod, v
}

// BenchmarkPlan measures Plan next to a DeepCopy of the same pod; the ratio of the
// two ns/op is the cost of Plan in pod copies.
func BenchmarkPlan(b *testing.B) {
	pod, v := benchPod()
	now := pod.Status.StartTime.Add(time.Hour)
	b.Run("Plan", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = Plan(pod, &v, now, Options{})
		}
	})
	b.Run("DeepCopy", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = pod.DeepCopy()
		}
	})
}

// Upstream's TestPodSandboxChanged (pkg/kubelet/kuberuntime/util/util_test.go),
// observed through ComputePodActions' sandbox fields.
func TestPodSandboxChanged(t *testing.T) {
	cases := []struct {
		name      string
		hostNet   bool
		sandboxes []restart.Sandbox
		changed   bool
		attempt   uint32
		id        string
		reason    string
	}{
		{name: "Pod with no existing sandboxes", changed: true, reason: "no pod sandbox exists"},
		{name: "Pod with multiple ready sandbox statuses",
			sandboxes: []restart.Sandbox{{ID: "sandboxID2", Ready: true, Attempt: 1}, {ID: "sandboxID1", Ready: true}},
			changed:   true, attempt: 2, id: "sandboxID2", reason: "multiple pod sandboxes are ready and need to be reconciled"},
		{name: "Pod with no ready sandbox statuses",
			sandboxes: []restart.Sandbox{{ID: "sandboxID2", Attempt: 1}, {ID: "sandboxID1"}},
			changed:   true, attempt: 2, id: "sandboxID2", reason: "pod sandbox is not ready"},
		{name: "Pod with ready sandbox status but network namespace mismatch", hostNet: true,
			sandboxes: []restart.Sandbox{{ID: "sandboxID1", Ready: true}},
			changed:   true, attempt: 1, reason: "network namespace mode changed and sandbox needs to be recreated"},
		{name: "Pod with ready sandbox status but no IP",
			sandboxes: []restart.Sandbox{{ID: "sandboxID1", Ready: true, Network: &restart.SandboxNetwork{}}},
			changed:   true, attempt: 1, id: "sandboxID1", reason: "pod sandbox has no IP address"},
		{name: "Pod with ready sandbox status with IP",
			sandboxes: []restart.Sandbox{{ID: "sandboxID1", Ready: true, Network: &restart.SandboxNetwork{IP: "10.0.0.10"}}},
			id:        "sandboxID1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pod := &corev1.Pod{Spec: corev1.PodSpec{HostNetwork: tc.hostNet}}
			changed, attempt, id, reason := sandboxChanged(pod, &restart.View{Sandboxes: tc.sandboxes})
			assert.Equal(t, []any{tc.changed, tc.attempt, tc.id, tc.reason}, []any{changed, attempt, id, reason})
			a := ComputePodActions(pod, &restart.View{Sandboxes: tc.sandboxes}, false, Options{})
			assert.Equal(t, tc.changed, a.CreateSandbox)
			assert.Equal(t, tc.attempt, a.Attempt)
			assert.Equal(t, tc.id, a.SandboxID)
			assert.Equal(t, tc.reason, a.SandboxChange)
		})
	}
}

// Upstream's TestDoBackOff (kuberuntime_manager_test.go), with its 1s initial delay.
func TestDoBackOff(t *testing.T) {
	now := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{UID: "12345678", Name: "foo", Namespace: "new"},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "foocontainer", Image: "busybox"}}}}
	key := restart.BackOffKey(pod, &pod.Spec.Containers[0])
	opts := Options{Features: podlife.FeatureGates{"ReduceDefaultCrashLoopBackOffDecay": true}, MaxContainerRestartPeriod: time.Minute}
	ref := ContainerRef{Kind: KindContainer, Name: "foocontainer"}
	cases := []struct {
		name    string
		inst    restart.Instance
		backoff map[string]restart.BackOff
		held    bool
	}{
		{name: "container running", inst: restart.Instance{Name: "foocontainer", State: restart.StateRunning}},
		{name: "not in backoff", inst: restart.Instance{Name: "foocontainer", State: restart.StateExited, FinishedAt: now}},
		{name: "in backoff", inst: restart.Instance{Name: "foocontainer", State: restart.StateExited, FinishedAt: now},
			backoff: map[string]restart.BackOff{key: {Exists: true, Delay: time.Second, LastUpdate: now}}, held: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := &restart.View{Instances: []restart.Instance{tc.inst}, BackOff: tc.backoff}
			x := newLookup(v)
			a := PodActions{ContainersToStart: []ContainerRef{ref}}
			applyBackOff(pod, &x, &a, now, nil, opts)
			if !tc.held {
				assert.Equal(t, []ContainerRef{ref}, a.ContainersToStart)
				assert.Empty(t, a.BackOff)
				return
			}
			assert.Nil(t, a.ContainersToStart)
			assert.Equal(t, []BackOffWait{{Container: ref, Delay: time.Second, Until: now.Add(time.Second),
				Message: "back-off 1s restarting failed container=foocontainer pod=foo_new(12345678)"}}, a.BackOff)
		})
	}
}

// TestLargePod runs the planner and the status on a pod with 10,000 containers of
// each kind; large views and pods go through indexes, so this stays fast.
func TestLargePod(t *testing.T) {
	const n = 10000
	pod := &corev1.Pod{}
	v := &restart.View{Sandboxes: []restart.Sandbox{{ID: "s", Ready: true}}}
	for i := 0; i < n; i++ {
		name := "c" + strconv.Itoa(i)
		pod.Spec.InitContainers = append(pod.Spec.InitContainers, corev1.Container{Name: "i" + name})
		pod.Spec.Containers = append(pod.Spec.Containers, corev1.Container{Name: name})
		v.Instances = append(v.Instances, restart.Instance{Name: name, State: restart.StateRunning}, restart.Instance{Name: "i" + name, State: restart.StateExited})
	}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	assert.Equal(t, "nothing to do", Plan(pod, v, now, Options{}).String())
	s := NextStatus(pod, v, now, Options{})
	assert.Equal(t, corev1.PodRunning, s.Phase)
	assert.Len(t, s.ContainerStatuses, n)
	assert.Len(t, s.InitContainerStatuses, n)
}
