package lifecycle

import (
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

func planBaseView() View {
	return View{
		Sandboxes: []Sandbox{{ID: sandboxID, Ready: true, Network: &SandboxNetwork{IP: "10.0.0.1"}}},
		Instances: []Instance{
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

func planInitView() View {
	v := planBaseView()
	v.Instances = []Instance{
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
func planSidecarView() View {
	v := planBaseView()
	v.Instances = []Instance{
		{Name: "restartable-init-1", ID: "initid1", State: restart.StateRunning},
		{Name: "restartable-init-2", ID: "initid2", State: restart.StateRunning, Liveness: ProbeSuccess, Startup: ProbeSuccess},
		{Name: "restartable-init-3", ID: "initid3", State: restart.StateRunning, Liveness: ProbeSuccess, Startup: ProbeSuccess},
	}
	return v
}

func planEphemeralPod() *corev1.Pod {
	pod := planBasePod()
	pod.Spec.InitContainers = []corev1.Container{{Name: "init1", Image: "bar-image"}}
	pod.Spec.EphemeralContainers = []corev1.EphemeralContainer{{EphemeralContainerCommon: corev1.EphemeralContainerCommon{Name: "debug", Image: "busybox"}}}
	return pod
}

func planEphemeralView() View {
	v := planBaseView()
	v.Instances = append(v.Instances,
		Instance{Name: "init1", ID: "initid1", State: restart.StateExited},
		Instance{Name: "debug", ID: "debug1", State: restart.StateRunning})
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
	view       func(*View)
	restartAll bool
	want       PodActions
}

func runPlanCases(t *testing.T, base func() *corev1.Pod, baseView func() View, cases []planCase, opts Options) {
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
		view: func(v *View) { v.Sandboxes, v.Instances = nil, nil },
		want: PodActions{KillPod: true, CreateSandbox: true, SandboxChange: "no pod sandbox exists", ContainersToStart: regs(0, 1, 2)},
	},
	{
		name: "restart exited containers if RestartPolicy == Always",
		pod:  withPolicy(corev1.RestartPolicyAlways),
		view: func(v *View) {
			v.Instances[0].State, v.Instances[0].ExitCode = restart.StateExited, 0
			v.Instances[1].State, v.Instances[1].ExitCode = restart.StateExited, 111
		},
		want: PodActions{SandboxID: sandboxID, ContainersToStart: regs(0, 1)},
	},
	{
		name: "restart failed containers if RestartPolicy == OnFailure",
		pod:  withPolicy(corev1.RestartPolicyOnFailure),
		view: func(v *View) {
			v.Instances[0].State, v.Instances[0].ExitCode = restart.StateExited, 0
			v.Instances[1].State, v.Instances[1].ExitCode = restart.StateExited, 111
		},
		want: PodActions{SandboxID: sandboxID, ContainersToStart: regs(1)},
	},
	{
		name: "restart created but not started containers if RestartPolicy == OnFailure",
		pod:  withPolicy(corev1.RestartPolicyOnFailure),
		view: func(v *View) {
			v.Instances[0].State, v.Instances[0].ExitCode = restart.StateExited, 0
			v.Instances[1].State = restart.StateCreated
		},
		want: PodActions{SandboxID: sandboxID, ContainersToStart: regs(1)},
	},
	{
		name: "don't restart containers if RestartPolicy == Never",
		pod:  withPolicy(corev1.RestartPolicyNever),
		view: func(v *View) {
			v.Instances[0].State, v.Instances[0].ExitCode = restart.StateExited, 0
			v.Instances[1].State, v.Instances[1].ExitCode = restart.StateExited, 111
		},
		want: PodActions{SandboxID: sandboxID},
	},
	{
		name: "Kill pod and recreate everything if the pod sandbox is dead, and RestartPolicy == Always",
		pod:  withPolicy(corev1.RestartPolicyAlways),
		view: func(v *View) { v.Sandboxes[0].Ready = false },
		want: PodActions{KillPod: true, CreateSandbox: true, SandboxID: sandboxID, Attempt: 1, SandboxChange: "pod sandbox is not ready", ContainersToStart: regs(0, 1, 2)},
	},
	{
		name: "Kill pod and recreate all containers (except for the succeeded one) if the pod sandbox is dead, and RestartPolicy == OnFailure",
		pod:  withPolicy(corev1.RestartPolicyOnFailure),
		view: func(v *View) {
			v.Sandboxes[0].Ready = false
			v.Instances[1].State, v.Instances[1].ExitCode = restart.StateExited, 0
		},
		want: PodActions{KillPod: true, CreateSandbox: true, SandboxID: sandboxID, Attempt: 1, SandboxChange: "pod sandbox is not ready", ContainersToStart: regs(0, 2)},
	},
	{
		name: "Kill pod and recreate all containers if the PodSandbox does not have an IP",
		view: func(v *View) { v.Sandboxes[0].Network.IP = "" },
		want: PodActions{KillPod: true, CreateSandbox: true, SandboxID: sandboxID, Attempt: 1, SandboxChange: "pod sandbox has no IP address", ContainersToStart: regs(0, 1, 2)},
	},
	{
		name: "Kill and recreate the container if the container's spec changed",
		pod:  withPolicy(corev1.RestartPolicyAlways),
		view: func(v *View) { v.Instances[1].SpecChanged = true },
		want: PodActions{SandboxID: sandboxID, ContainersToStart: regs(1),
			ContainersToKill: []ContainerKill{kill(regs(1)[0], "id2", KillReasonNone, "Container foo2 definition changed, will be restarted")}},
	},
	{
		name: "Kill and recreate the container if the liveness check has failed",
		pod:  withPolicy(corev1.RestartPolicyAlways),
		view: func(v *View) { v.Instances[1].Liveness = ProbeFailure },
		want: PodActions{SandboxID: sandboxID, ContainersToStart: regs(1),
			ContainersToKill: []ContainerKill{kill(regs(1)[0], "id2", KillReasonLivenessProbe, "Container foo2 failed liveness probe, will be restarted")}},
	},
	{
		name: "Kill and recreate the container if the startup check has failed",
		pod:  withPolicy(corev1.RestartPolicyAlways),
		view: func(v *View) { v.Instances[1].Startup = ProbeFailure },
		want: PodActions{SandboxID: sandboxID, ContainersToStart: regs(1),
			ContainersToKill: []ContainerKill{kill(regs(1)[0], "id2", KillReasonStartupProbe, "Container foo2 failed startup probe, will be restarted")}},
	},
	{
		name: "Verify we do not create a pod sandbox if no ready sandbox for pod with RestartPolicy=Never and all containers exited",
		pod:  withPolicy(corev1.RestartPolicyNever),
		view: func(v *View) {
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
		view: func(v *View) {
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
		view: func(v *View) {
			v.Sandboxes[0].Ready, v.Sandboxes[0].Attempt = false, 2
			v.Instances = nil
		},
		want: PodActions{KillPod: true, CreateSandbox: true, SandboxID: sandboxID, Attempt: 3, SandboxChange: "pod sandbox is not ready", ContainersToStart: regs(0, 1, 2)},
	},
	{
		name: "Kill and recreate the container if the container is in unknown state",
		pod:  withPolicy(corev1.RestartPolicyNever),
		view: func(v *View) { v.Instances[1].State = restart.StateUnknown },
		want: PodActions{SandboxID: sandboxID, ContainersToStart: regs(1),
			ContainersToKill: []ContainerKill{kill(regs(1)[0], "id2", KillReasonUnknown, `Container is in "unknown" state, try killing it before restart`)}},
	},
	{
		name: "Restart the container if the container is in created state",
		pod:  withPolicy(corev1.RestartPolicyNever),
		view: func(v *View) { v.Instances[1].State = restart.StateCreated },
		want: PodActions{SandboxID: sandboxID, ContainersToStart: regs(1)},
	},
}

var computeInitActionsCases = []planCase{
	{name: "initialization completed; start all containers", want: PodActions{SandboxID: sandboxID, ContainersToStart: regs(0, 1, 2)}},
	{
		name: "no init containers have been started; start the first one",
		view: func(v *View) { v.Instances = nil },
		want: PodActions{SandboxID: sandboxID, InitContainersToStart: inits(0)},
	},
	{
		name: "initialization in progress; do nothing",
		pod:  withPolicy(corev1.RestartPolicyAlways),
		view: func(v *View) { v.Instances[2].State = restart.StateRunning },
		want: PodActions{SandboxID: sandboxID},
	},
	{
		name: "Kill pod and restart the first init container if the pod sandbox is dead",
		pod:  withPolicy(corev1.RestartPolicyAlways),
		view: func(v *View) { v.Sandboxes[0].Ready = false },
		want: PodActions{KillPod: true, CreateSandbox: true, SandboxID: sandboxID, Attempt: 1, SandboxChange: "pod sandbox is not ready", InitContainersToStart: inits(0)},
	},
	{
		name: "initialization failed; restart the last init container if RestartPolicy == Always",
		pod:  withPolicy(corev1.RestartPolicyAlways),
		view: func(v *View) { v.Instances[2].ExitCode = 137 },
		want: PodActions{SandboxID: sandboxID, InitContainersToStart: inits(2)},
	},
	{
		name: "initialization failed; restart the last init container if RestartPolicy == OnFailure",
		pod:  withPolicy(corev1.RestartPolicyOnFailure),
		view: func(v *View) { v.Instances[2].ExitCode = 137 },
		want: PodActions{SandboxID: sandboxID, InitContainersToStart: inits(2)},
	},
	{
		name: "initialization failed; kill pod if RestartPolicy == Never",
		pod:  withPolicy(corev1.RestartPolicyNever),
		view: func(v *View) { v.Instances[2].ExitCode = 137 },
		want: PodActions{KillPod: true, SandboxID: sandboxID},
	},
	{
		name: "init container state unknown; kill and recreate the last init container if RestartPolicy == Always",
		pod:  withPolicy(corev1.RestartPolicyAlways),
		view: func(v *View) { v.Instances[2].State = restart.StateUnknown },
		want: PodActions{SandboxID: sandboxID, InitContainersToStart: inits(2),
			ContainersToKill: []ContainerKill{kill(inits(2)[0], "initid3", KillReasonUnknown, `Init container is in "unknown" state, try killing it before restart`)}},
	},
	{
		name: "init container state unknown; kill and recreate the last init container if RestartPolicy == OnFailure",
		pod:  withPolicy(corev1.RestartPolicyOnFailure),
		view: func(v *View) { v.Instances[2].State = restart.StateUnknown },
		want: PodActions{SandboxID: sandboxID, InitContainersToStart: inits(2),
			ContainersToKill: []ContainerKill{kill(inits(2)[0], "initid3", KillReasonUnknown, `Init container is in "unknown" state, try killing it before restart`)}},
	},
	{
		name: "init container state unknown; kill pod if RestartPolicy == Never",
		pod:  withPolicy(corev1.RestartPolicyNever),
		view: func(v *View) { v.Instances[2].State = restart.StateUnknown },
		want: PodActions{KillPod: true, SandboxID: sandboxID},
	},
	{
		name: "Pod sandbox not ready, init container failed, but RestartPolicy == Never; kill pod only",
		pod:  withPolicy(corev1.RestartPolicyNever),
		view: func(v *View) { v.Sandboxes[0].Ready = false },
		want: PodActions{KillPod: true, SandboxID: sandboxID, Attempt: 1},
	},
	{
		name: "Pod sandbox not ready, and RestartPolicy == Never, but no visible init containers;  create a new pod sandbox",
		pod:  withPolicy(corev1.RestartPolicyNever),
		view: func(v *View) { v.Sandboxes[0].Ready, v.Instances = false, nil },
		want: PodActions{KillPod: true, CreateSandbox: true, SandboxID: sandboxID, Attempt: 1, SandboxChange: "pod sandbox is not ready", InitContainersToStart: inits(0)},
	},
	{
		name: "Pod sandbox not ready, init container failed, and RestartPolicy == OnFailure; create a new pod sandbox",
		pod:  withPolicy(corev1.RestartPolicyOnFailure),
		view: func(v *View) { v.Sandboxes[0].Ready, v.Instances[2].ExitCode = false, 137 },
		want: PodActions{KillPod: true, CreateSandbox: true, SandboxID: sandboxID, Attempt: 1, SandboxChange: "pod sandbox is not ready", InitContainersToStart: inits(0)},
	},
	{
		name: "some of the init container statuses are missing but the last init container is running, don't restart preceding ones",
		pod:  withPolicy(corev1.RestartPolicyAlways),
		view: func(v *View) {
			v.Instances[2].State = restart.StateRunning
			v.Instances = v.Instances[2:]
		},
		want: PodActions{SandboxID: sandboxID},
	},
	{
		name: "stale main container from a previous sandbox must not mark pod as initialized",
		view: func(v *View) {
			v.Instances = []Instance{{Name: "foo1", ID: "id1", State: restart.StateCreated, Sandbox: "previous-sandbox"}}
		},
		want: PodActions{SandboxID: sandboxID, InitContainersToStart: inits(0)},
	},
	{
		name: "an init container is in the created state due to an unknown error when starting container; restart it",
		pod:  withPolicy(corev1.RestartPolicyAlways),
		view: func(v *View) { v.Instances[2].State = restart.StateCreated },
		want: PodActions{SandboxID: sandboxID, InitContainersToStart: inits(2)},
	},
	// The three resize cases, without their resize fields (not modelled).
	{
		name: "resize request exists on a not yet running non-sidecar init container; start it",
		pod: func(pod *corev1.Pod) {
			pod.Spec.InitContainers[0].Resources.Requests = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("200m"), corev1.ResourceMemory: resource.MustParse("200Mi")}
		},
		view: func(v *View) { v.Instances = nil },
		want: PodActions{SandboxID: sandboxID, InitContainersToStart: inits(0)},
	},
	{
		name: "resize of a running non-sidecar init container",
		pod: func(pod *corev1.Pod) {
			pod.Spec.InitContainers[0].Resources.Requests = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("800m"), corev1.ResourceMemory: resource.MustParse("800Mi")}
		},
		view: func(v *View) {
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
		view: func(v *View) { v.Instances = nil },
		want: PodActions{SandboxID: sandboxID, InitContainersToStart: sidecars(0)},
	},
	{
		name: "an init container is stuck in the created state; restart it",
		pod:  withPolicy(corev1.RestartPolicyAlways),
		view: func(v *View) { v.Instances[2].State = restart.StateCreated },
		want: PodActions{SandboxID: sandboxID, InitContainersToStart: sidecars(2)},
	},
	{
		name: "restartable init container has started; start the next",
		pod:  withPolicy(corev1.RestartPolicyAlways),
		view: func(v *View) { v.Instances = v.Instances[:1] },
		want: PodActions{SandboxID: sandboxID, InitContainersToStart: sidecars(1)},
	},
	{
		name: "livenessProbe has not been run; start the nothing",
		pod:  withPolicy(corev1.RestartPolicyAlways),
		view: func(v *View) { v.Instances[1].Liveness = ProbeNone; v.Instances = v.Instances[:2] },
		want: PodActions{SandboxID: sandboxID, InitContainersToStart: sidecars(2)},
	},
	{
		name: "livenessProbe in progress; start the next",
		pod:  withPolicy(corev1.RestartPolicyAlways),
		view: func(v *View) { v.Instances[1].Liveness = ProbeUnknown; v.Instances = v.Instances[:2] },
		want: PodActions{SandboxID: sandboxID, InitContainersToStart: sidecars(2)},
	},
	{
		name: "livenessProbe has completed; start the next",
		pod:  withPolicy(corev1.RestartPolicyAlways),
		view: func(v *View) { v.Instances = v.Instances[:2] },
		want: PodActions{SandboxID: sandboxID, InitContainersToStart: sidecars(2)},
	},
	{
		name: "kill and recreate the restartable init container if the liveness check has failed",
		pod:  withPolicy(corev1.RestartPolicyAlways),
		view: func(v *View) { v.Instances[2].Liveness = ProbeFailure },
		want: PodActions{SandboxID: sandboxID, InitContainersToStart: sidecars(2), ContainersToStart: regs(0, 1, 2),
			ContainersToKill: []ContainerKill{sidecarKill(2, "initid3", KillReasonLivenessProbe, "Init container restartable-init-3 failed liveness probe")}},
	},
	{
		name: "startupProbe has not been run; do nothing",
		pod:  withPolicy(corev1.RestartPolicyAlways),
		view: func(v *View) { v.Instances[1].Startup = ProbeNone; v.Instances = v.Instances[:2] },
		want: PodActions{SandboxID: sandboxID},
	},
	{
		name: "startupProbe in progress; do nothing",
		pod:  withPolicy(corev1.RestartPolicyAlways),
		view: func(v *View) { v.Instances[1].Startup = ProbeUnknown; v.Instances = v.Instances[:2] },
		want: PodActions{SandboxID: sandboxID},
	},
	{
		name: "startupProbe has completed; start the next",
		pod:  withPolicy(corev1.RestartPolicyAlways),
		view: func(v *View) { v.Instances = v.Instances[:2] },
		want: PodActions{SandboxID: sandboxID, InitContainersToStart: sidecars(2)},
	},
	{
		name: "kill and recreate the restartable init container if the startup check has failed",
		pod: func(pod *corev1.Pod) {
			pod.Spec.RestartPolicy = corev1.RestartPolicyAlways
			pod.Spec.InitContainers[2].StartupProbe = &corev1.Probe{}
		},
		view: func(v *View) { v.Instances[2].Startup = ProbeFailure },
		want: PodActions{SandboxID: sandboxID, InitContainersToStart: sidecars(2),
			ContainersToKill: []ContainerKill{sidecarKill(2, "initid3", KillReasonStartupProbe, "Init container restartable-init-3 failed startup probe")}},
	},
	{
		name: "kill and recreate the restartable init container if the container definition changes",
		pod: func(pod *corev1.Pod) {
			pod.Spec.RestartPolicy = corev1.RestartPolicyAlways
			pod.Spec.InitContainers[2].Image = "foo-image"
		},
		view: func(v *View) { v.Instances[2].SpecChanged = true },
		want: PodActions{SandboxID: sandboxID, InitContainersToStart: sidecars(2), ContainersToStart: regs(0, 1, 2),
			ContainersToKill: []ContainerKill{sidecarKill(2, "initid3", KillReasonNone, "Init container restartable-init-3 definition changed")}},
	},
	{
		name: "restart terminated restartable init container and next init container",
		pod:  withPolicy(corev1.RestartPolicyAlways),
		view: func(v *View) { v.Instances[0].State, v.Instances[2].State = restart.StateExited, restart.StateExited },
		want: PodActions{SandboxID: sandboxID, InitContainersToStart: sidecars(0, 2)},
	},
	{
		name: "restart terminated restartable init container and regular containers",
		pod:  withPolicy(corev1.RestartPolicyAlways),
		view: func(v *View) { v.Instances[0].State = restart.StateExited },
		want: PodActions{SandboxID: sandboxID, InitContainersToStart: sidecars(0), ContainersToStart: regs(0, 1, 2)},
	},
	{
		name: "Pod sandbox not ready, restartable init container failed, but RestartPolicy == Never; kill pod only",
		pod:  withPolicy(corev1.RestartPolicyNever),
		view: func(v *View) {
			v.Sandboxes[0].Ready = false
			v.Instances[2].State, v.Instances[2].ExitCode = restart.StateExited, 137
		},
		want: PodActions{KillPod: true, SandboxID: sandboxID, Attempt: 1},
	},
	{
		name: "Pod sandbox not ready, and RestartPolicy == Never, but no visible restartable init containers;  create a new pod sandbox",
		pod:  withPolicy(corev1.RestartPolicyNever),
		view: func(v *View) { v.Sandboxes[0].Ready, v.Instances = false, nil },
		want: PodActions{KillPod: true, CreateSandbox: true, SandboxID: sandboxID, Attempt: 1, SandboxChange: "pod sandbox is not ready", InitContainersToStart: sidecars(0)},
	},
	{
		name: "Pod sandbox not ready, restartable init container failed, and RestartPolicy == OnFailure; create a new pod sandbox",
		pod:  withPolicy(corev1.RestartPolicyOnFailure),
		view: func(v *View) {
			v.Sandboxes[0].Ready = false
			v.Instances[2].State, v.Instances[2].ExitCode = restart.StateExited, 137
		},
		want: PodActions{KillPod: true, CreateSandbox: true, SandboxID: sandboxID, Attempt: 1, SandboxChange: "pod sandbox is not ready", InitContainersToStart: sidecars(0)},
	},
	{
		name: "Pod sandbox not ready, restartable init container failed, and RestartPolicy == Always; create a new pod sandbox",
		pod:  withPolicy(corev1.RestartPolicyAlways),
		view: func(v *View) {
			v.Sandboxes[0].Ready = false
			v.Instances[2].State, v.Instances[2].ExitCode = restart.StateExited, 137
		},
		want: PodActions{KillPod: true, CreateSandbox: true, SandboxID: sandboxID, Attempt: 1, SandboxChange: "pod sandbox is not ready", InitContainersToStart: sidecars(0)},
	},
	{
		name: "initialization failed; restart the last restartable init container even if pod's RestartPolicy == Never",
		pod:  withPolicy(corev1.RestartPolicyNever),
		view: func(v *View) { v.Instances[2].State, v.Instances[2].ExitCode = restart.StateExited, 137 },
		want: PodActions{SandboxID: sandboxID, InitContainersToStart: sidecars(2)},
	},
	{
		name: "restartable init container state unknown; kill and recreate the last restartable init container even if pod's RestartPolicy == Never",
		pod:  withPolicy(corev1.RestartPolicyNever),
		view: func(v *View) { v.Instances[2].State = restart.StateUnknown },
		want: PodActions{SandboxID: sandboxID, InitContainersToStart: sidecars(2),
			ContainersToKill: []ContainerKill{sidecarKill(2, "initid3", KillReasonUnknown, `Init container is in "unknown" state, try killing it before restart`)}},
	},
	{
		name: "restart restartable init container if regular containers are running even if pod's RestartPolicy == Never",
		pod:  withPolicy(corev1.RestartPolicyNever),
		view: func(v *View) {
			v.Instances[2].State, v.Instances[2].ExitCode = restart.StateExited, 137
			v.Instances = append(v.Instances, planBaseView().Instances...)
		},
		want: PodActions{SandboxID: sandboxID, InitContainersToStart: sidecars(2)},
	},
	{
		name: "kill the pod if all main containers succeeded if pod's RestartPolicy == Never",
		pod:  withPolicy(corev1.RestartPolicyNever),
		view: func(v *View) {
			for i, n := range []string{"foo1", "foo2", "foo3"} {
				v.Instances = append(v.Instances, Instance{Name: n, ID: []string{"id1", "id2", "id3"}[i], State: restart.StateExited})
			}
		},
		want: PodActions{KillPod: true, SandboxID: sandboxID},
	},
	{
		name: "some of the init container statuses are missing but the last init container is running, restart restartable init and regular containers",
		pod:  withPolicy(corev1.RestartPolicyAlways),
		view: func(v *View) { v.Instances = v.Instances[2:] },
		want: PodActions{SandboxID: sandboxID, InitContainersToStart: sidecars(0, 1), ContainersToStart: regs(0, 1, 2)},
	},
	{
		name: "stale main container with mixed restartable and non-restartable init containers; start the first one",
		pod:  func(pod *corev1.Pod) { pod.Spec.InitContainers[1].RestartPolicy = nil },
		view: func(v *View) {
			v.Instances = []Instance{{Name: "foo1", ID: "id1", State: restart.StateCreated, Sandbox: "previous-sandbox"}}
		},
		want: PodActions{SandboxID: sandboxID, InitContainersToStart: sidecars(0)},
	},
}

var ephRef = ContainerRef{Kind: KindEphemeralContainer, Index: 0, Name: "debug"}

var computeEphemeralActionsCases = []planCase{
	{name: "steady state; do nothing; ignore ephemeral container", want: PodActions{SandboxID: sandboxID}},
	{
		name: "No ephemeral containers running; start one",
		view: func(v *View) { v.Instances = v.Instances[:4] },
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
		view: func(v *View) { v.Instances[4].State = restart.StateExited },
		want: PodActions{SandboxID: sandboxID},
	},
	{
		name: "initialization in progress; start ephemeral container",
		view: func(v *View) {
			v.Instances[3].State = restart.StateRunning
			v.Instances = v.Instances[:4]
		},
		want: PodActions{SandboxID: sandboxID, EphemeralContainersToStart: []ContainerRef{ephRef}},
	},
	{
		name: "Create a new pod sandbox if the pod sandbox is dead, init container failed and RestartPolicy == OnFailure",
		pod:  withPolicy(corev1.RestartPolicyOnFailure),
		view: func(v *View) {
			v.Sandboxes[0].Ready = false
			v.Instances = v.Instances[3:]
			v.Instances[0].ExitCode = 137
		},
		want: PodActions{KillPod: true, CreateSandbox: true, SandboxID: sandboxID, Attempt: 1, SandboxChange: "pod sandbox is not ready", InitContainersToStart: []ContainerRef{{Kind: KindInitContainer, Name: "init1"}}},
	},
	{
		name: "Kill pod and do not restart ephemeral container if the pod sandbox is dead",
		pod:  withPolicy(corev1.RestartPolicyAlways),
		view: func(v *View) { v.Sandboxes[0].Ready = false },
		want: PodActions{KillPod: true, CreateSandbox: true, SandboxID: sandboxID, Attempt: 1, SandboxChange: "pod sandbox is not ready", InitContainersToStart: []ContainerRef{{Kind: KindInitContainer, Name: "init1"}}},
	},
	{
		name: "Kill pod if all containers exited except ephemeral container",
		pod:  withPolicy(corev1.RestartPolicyNever),
		view: func(v *View) {
			for i := 0; i < 3; i++ {
				v.Instances[i].State, v.Instances[i].ExitCode = restart.StateExited, 0
			}
		},
		want: PodActions{KillPod: true, SandboxID: sandboxID},
	},
	{
		name: "Ephemeral container is in unknown state; leave it alone",
		pod:  withPolicy(corev1.RestartPolicyNever),
		view: func(v *View) { v.Instances[4].State = restart.StateUnknown },
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
		view: func(v *View) {
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
		view: func(v *View) {
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
		view: func(v *View) {
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
		view: func(v *View) {
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
		view: func(v *View) {
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
		view       func() View
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
			view: func() View {
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
			view: func() View {
				v := planSidecarView()
				v.Instances[2].State, v.Instances[2].ExitCode = restart.StateExited, 1
				v.Instances = append(v.Instances, Instance{Name: "foo1", ID: "id1", State: restart.StateRunning})
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
			view: func() View {
				v := planSidecarView()
				v.Instances = append(v.Instances,
					Instance{Name: "foo1", ID: "id1", State: restart.StateRunning},
					Instance{Name: "foo2", ID: "id2", State: restart.StateRunning},
					Instance{Name: "foo3", ID: "id3", State: restart.StateExited, ExitCode: 1})
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
			view: func() View {
				v := planBaseView()
				v.Instances[2] = Instance{Name: "foo3", ID: "id3", State: restart.StateExited, ExitCode: 1}
				v.Instances = append(v.Instances,
					Instance{Name: "foo1", ID: "id1-past", State: restart.StateExited, ExitCode: 99},
					Instance{Name: "foo2", ID: "id2-past", State: restart.StateExited, ExitCode: 99},
					Instance{Name: "foo3", ID: "id3-past", State: restart.StateExited, ExitCode: 99})
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
			view: func() View { v := planBaseView(); v.Instances = nil; return v },
			want: PodActions{SandboxID: sandboxID, InitContainersToStart: inits(0)},
		},
		{
			name: "all containers removed, start regular container",
			pod:  planBasePod,
			view: func() View { v := planBaseView(); v.Instances = nil; return v },
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
	key := restart.BackoffKey(pod, &pod.Spec.Containers[0])
	view := func(b map[string]restart.Backoff) View {
		v := planBaseView()
		v.Instances = []Instance{{Name: "foo1", ID: "id1", State: restart.StateExited, ExitCode: 1, FinishedAt: t0}}
		v.BackOff = b
		return v
	}
	ref := regs(0)

	// The first restart is immediate and creates the entry.
	v := view(nil)
	a := Plan(pod, &v, t0.Add(time.Second), Options{})
	assert.Equal(t, ref, a.ContainersToStart)
	assert.Equal(t, []BackOffUpdate{{Container: ref[0], Key: key, Backoff: restart.Backoff{Exists: true, Delay: 10 * time.Second, LastUpdate: t0.Add(time.Second)}}}, a.BackOffUpdates)

	// Inside the delay the start is held back with upstream's message.
	v = view(map[string]restart.Backoff{key: {Exists: true, Delay: 20 * time.Second, LastUpdate: t0.Add(-time.Minute)}})
	a = Plan(pod, &v, t0.Add(5*time.Second), Options{})
	assert.Nil(t, a.ContainersToStart)
	assert.Equal(t, []BackOffWait{{Container: ref[0], Delay: 20 * time.Second, Until: t0.Add(20 * time.Second),
		Message: "back-off 20s restarting failed container=foo1 pod=foo_foo-ns(12345678)"}}, a.BackOff)
	assert.Equal(t, "hold back container foo1 until 2026-01-01T10:00:20Z (back-off 20s restarting failed container=foo1 pod=foo_foo-ns(12345678))", a.String())

	// At the end of the delay it starts and the delay doubles.
	a = Plan(pod, &v, t0.Add(20*time.Second), Options{})
	assert.Equal(t, ref, a.ContainersToStart)
	assert.Equal(t, 40*time.Second, a.BackOffUpdates[0].Backoff.Delay)

	// MaxContainerRestartPeriod caps the delay.
	a = Plan(pod, &v, t0.Add(20*time.Second), Options{MaxContainerRestartPeriod: 30 * time.Second})
	assert.Equal(t, 30*time.Second, a.BackOffUpdates[0].Backoff.Delay)

	// A regular init container that cannot start aborts the rest of the sync.
	ipod := planInitPod()
	iv := planInitView()
	iv.Instances[0].ExitCode, iv.Instances[0].FinishedAt = 1, t0
	iv.BackOff = map[string]restart.Backoff{restart.BackoffKey(ipod, &ipod.Spec.InitContainers[0]): {Exists: true, Delay: 10 * time.Second, LastUpdate: t0}}
	x := newLookup(&iv)
	acts := PodActions{InitContainersToStart: inits(0), ContainersToStart: regs(1)}
	applyBackOff(ipod, &x, &acts, t0, Options{})
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
