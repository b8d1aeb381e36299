package validation

import (
	"fmt"
	"math/rand"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/yaml"
)

// gen builds random pods: a valid base, then a few faults from the fault table.
type gen struct {
	r *rand.Rand
	n int
}

func newGen(seed int64) *gen { return &gen{r: rand.New(rand.NewSource(seed))} }

func (g *gen) pick(items ...string) string { return items[g.r.Intn(len(items))] }
func (g *gen) chance(p float64) bool       { return g.r.Float64() < p }

func i64(v int64) *int64 { return &v }
func i32(v int32) *int32 { return &v }
func ptrBool(v bool) *bool {
	return &v
}

var images = []string{"nginx", "nginx:1.27", "busybox:latest", "registry.example.com/team/app@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", "gcr.io/p/app:v2"}

// pod returns a random pod and the names of the faults injected into it; 55% of the
// pods get faults.
func (g *gen) pod() (*v1.Pod, []string) { return g.podWith(0.55) }

// podWith returns a random pod that gets faults with probability pFault.
func (g *gen) podWith(pFault float64) (*v1.Pod, []string) {
	g.n++
	p := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Name:      fmt.Sprintf("pod-%d", g.n),
			Namespace: g.pick("default", "team-a"),
			Labels:    map[string]string{"app": g.pick("web", "db", "batch")},
		},
	}
	if g.chance(0.3) {
		p.Annotations = map[string]string{"example.com/owner": "me"}
	}
	spec := &p.Spec
	nvol := g.r.Intn(4)
	for i := 0; i < nvol; i++ {
		vol := v1.Volume{Name: fmt.Sprintf("vol-%d", i)}
		switch g.r.Intn(3) {
		case 0:
			vol.EmptyDir = &v1.EmptyDirVolumeSource{}
		case 1:
			vol.ConfigMap = &v1.ConfigMapVolumeSource{LocalObjectReference: v1.LocalObjectReference{Name: "cm"}}
		case 2:
			vol.PersistentVolumeClaim = &v1.PersistentVolumeClaimVolumeSource{ClaimName: "claim"}
		}
		spec.Volumes = append(spec.Volumes, vol)
	}
	spec.RestartPolicy = v1.RestartPolicy(g.pick("", "Always", "OnFailure", "Never"))
	for i, n := 0, 1+g.r.Intn(3); i < n; i++ {
		spec.Containers = append(spec.Containers, g.container(fmt.Sprintf("app-%d", i), spec, false, false))
	}
	for i, n := 0, g.r.Intn(3); i < n; i++ {
		sidecar := g.chance(0.5)
		spec.InitContainers = append(spec.InitContainers, g.container(fmt.Sprintf("init-%d", i), spec, true, sidecar))
	}
	if g.chance(0.3) {
		spec.TerminationGracePeriodSeconds = i64(int64(g.r.Intn(60)))
	}
	if g.chance(0.2) {
		spec.ActiveDeadlineSeconds = i64(int64(1 + g.r.Intn(1000)))
	}
	if g.chance(0.2) {
		spec.ReadinessGates = []v1.PodReadinessGate{{ConditionType: "example.com/ready"}}
	}
	if g.chance(0.2) {
		spec.Resources = &v1.ResourceRequirements{
			Limits: v1.ResourceList{v1.ResourceCPU: resource.MustParse("8"), v1.ResourceMemory: resource.MustParse("8Gi")},
		}
		if g.chance(0.5) {
			spec.Resources.Requests = v1.ResourceList{v1.ResourceCPU: resource.MustParse("4")}
		}
	}
	if g.chance(0.1) {
		spec.Overhead = v1.ResourceList{v1.ResourceCPU: resource.MustParse("100m")}
	}
	if g.chance(0.1) {
		spec.Tolerations = []v1.Toleration{{Key: "example.com/dedicated", Operator: v1.TolerationOpExists, Effect: v1.TaintEffectNoSchedule}}
	}
	g.podBaseFields(p)
	var faults []string
	if g.chance(pFault) {
		for i, n := 0, 1+g.r.Intn(3); i < n; i++ {
			f := podFaults[g.r.Intn(len(podFaults))]
			faults = append(faults, f.name)
			f.apply(g, p)
		}
	}
	return p, faults
}

func (g *gen) container(name string, spec *v1.PodSpec, init, sidecar bool) v1.Container {
	c := v1.Container{Name: name, Image: images[g.r.Intn(len(images))]}
	if sidecar {
		c.RestartPolicy = ptrRP(v1.ContainerRestartPolicyAlways)
	}
	if g.chance(0.5) {
		c.Command = []string{"/bin/sh", "-c"}
		c.Args = []string{"echo hi; sleep 3600"}
	}
	if g.chance(0.2) {
		c.WorkingDir = "/work"
	}
	if g.chance(0.4) {
		c.Ports = []v1.ContainerPort{{Name: "http", ContainerPort: int32(8000 + g.r.Intn(100))}}
	}
	if g.chance(0.4) {
		c.Env = []v1.EnvVar{{Name: "MODE", Value: "prod"}}
		if g.chance(0.5) {
			c.Env = append(c.Env, v1.EnvVar{Name: "POD_NAME", ValueFrom: &v1.EnvVarSource{FieldRef: &v1.ObjectFieldSelector{FieldPath: "metadata.name"}}})
		}
	}
	if g.chance(0.2) {
		c.EnvFrom = []v1.EnvFromSource{{ConfigMapRef: &v1.ConfigMapEnvSource{LocalObjectReference: v1.LocalObjectReference{Name: "cm"}}}}
	}
	for i, vol := range spec.Volumes {
		if vol.PersistentVolumeClaim == nil && g.chance(0.4) {
			c.VolumeMounts = append(c.VolumeMounts, v1.VolumeMount{Name: vol.Name, MountPath: fmt.Sprintf("/mnt/%d", i)})
		}
	}
	if g.chance(0.6) {
		c.Resources.Requests = v1.ResourceList{v1.ResourceCPU: resource.MustParse(g.pick("100m", "250m", "1")), v1.ResourceMemory: resource.MustParse(g.pick("64Mi", "128Mi"))}
		if g.chance(0.5) {
			c.Resources.Limits = v1.ResourceList{v1.ResourceCPU: resource.MustParse("2"), v1.ResourceMemory: resource.MustParse("256Mi")}
		}
	} else if g.chance(0.2) {
		c.Resources.Limits = v1.ResourceList{v1.ResourceCPU: resource.MustParse("500m")}
	}
	if g.chance(0.2) && (!init || sidecar) {
		c.ResizePolicy = []v1.ContainerResizePolicy{{ResourceName: v1.ResourceCPU, RestartPolicy: v1.NotRequired}}
	}
	if !init || sidecar {
		if g.chance(0.3) {
			c.LivenessProbe = g.probe()
		}
		if g.chance(0.3) {
			c.ReadinessProbe = g.probe()
		}
		if g.chance(0.2) {
			c.StartupProbe = g.probe()
		}
		if g.chance(0.3) {
			c.Lifecycle = &v1.Lifecycle{PreStop: g.handler(), PostStart: nil}
			if g.chance(0.5) {
				c.Lifecycle.PostStart = g.handler()
			}
		}
	}
	if !init && g.chance(0.15) {
		c.RestartPolicy = ptrRP(v1.ContainerRestartPolicyNever)
		c.RestartPolicyRules = []v1.ContainerRestartRule{{
			Action:    v1.ContainerRestartRuleActionRestart,
			ExitCodes: &v1.ContainerRestartRuleOnExitCodes{Operator: v1.ContainerRestartRuleOnExitCodesOpIn, Values: []int32{42}},
		}}
	}
	if g.chance(0.2) {
		c.TerminationMessagePolicy = v1.TerminationMessagePolicy(g.pick("File", "FallbackToLogsOnError"))
	}
	if g.chance(0.3) {
		c.ImagePullPolicy = v1.PullPolicy(g.pick("Always", "IfNotPresent", "Never"))
	}
	if g.chance(0.3) {
		c.SecurityContext = &v1.SecurityContext{RunAsNonRoot: ptrBool(true), RunAsUser: i64(1000), AllowPrivilegeEscalation: ptrBool(false),
			Capabilities: &v1.Capabilities{Drop: []v1.Capability{"ALL"}}}
	}
	return c
}

func ptrRP(p v1.ContainerRestartPolicy) *v1.ContainerRestartPolicy { return &p }

func (g *gen) probe() *v1.Probe {
	p := &v1.Probe{ProbeHandler: *g.probeHandler()}
	if g.chance(0.5) {
		p.PeriodSeconds = int32(1 + g.r.Intn(30))
		p.InitialDelaySeconds = int32(g.r.Intn(10))
	}
	return p
}

func (g *gen) probeHandler() *v1.ProbeHandler {
	switch g.r.Intn(4) {
	case 0:
		return &v1.ProbeHandler{Exec: &v1.ExecAction{Command: []string{"true"}}}
	case 1:
		return &v1.ProbeHandler{HTTPGet: &v1.HTTPGetAction{Path: "/healthz", Port: intstr.FromInt32(8080)}}
	case 2:
		return &v1.ProbeHandler{TCPSocket: &v1.TCPSocketAction{Port: intstr.FromString("http")}}
	default:
		return &v1.ProbeHandler{GRPC: &v1.GRPCAction{Port: 9090}}
	}
}

func (g *gen) handler() *v1.LifecycleHandler {
	switch g.r.Intn(4) {
	case 0:
		return &v1.LifecycleHandler{Exec: &v1.ExecAction{Command: []string{"/bin/stop"}}}
	case 1:
		return &v1.LifecycleHandler{HTTPGet: &v1.HTTPGetAction{Path: "/stop", Port: intstr.FromInt32(8080)}}
	case 2:
		return &v1.LifecycleHandler{TCPSocket: &v1.TCPSocketAction{Port: intstr.FromInt32(8080)}}
	default:
		return &v1.LifecycleHandler{Sleep: &v1.SleepAction{Seconds: 5}}
	}
}

// anyContainer returns a random container of any kind (regular, init or ephemeral).
func (g *gen) anyContainer(p *v1.Pod) *v1.Container {
	var all []*v1.Container
	for i := range p.Spec.Containers {
		all = append(all, &p.Spec.Containers[i])
	}
	for i := range p.Spec.InitContainers {
		all = append(all, &p.Spec.InitContainers[i])
	}
	for i := range p.Spec.EphemeralContainers {
		all = append(all, (*v1.Container)(&p.Spec.EphemeralContainers[i].EphemeralContainerCommon))
	}
	return all[g.r.Intn(len(all))]
}

func (g *gen) anyProbe(c *v1.Container) *v1.Probe {
	switch g.r.Intn(3) {
	case 0:
		if c.LivenessProbe == nil {
			c.LivenessProbe = g.probe()
		}
		return c.LivenessProbe
	case 1:
		if c.ReadinessProbe == nil {
			c.ReadinessProbe = g.probe()
		}
		return c.ReadinessProbe
	default:
		if c.StartupProbe == nil {
			c.StartupProbe = g.probe()
		}
		return c.StartupProbe
	}
}

func (g *gen) anyHandler(c *v1.Container) *v1.LifecycleHandler {
	if c.Lifecycle == nil {
		c.Lifecycle = &v1.Lifecycle{}
	}
	if g.chance(0.5) {
		if c.Lifecycle.PreStop == nil {
			c.Lifecycle.PreStop = g.handler()
		}
		return c.Lifecycle.PreStop
	}
	if c.Lifecycle.PostStart == nil {
		c.Lifecycle.PostStart = g.handler()
	}
	return c.Lifecycle.PostStart
}

func (g *gen) quantity() resource.Quantity {
	return resource.MustParse(g.pick("-1", "0", "0.1m", "100m", "1.0001", "3", "1Gi", "1500Mi", "2Mi", "1e3"))
}

func (g *gen) resourceName() v1.ResourceName {
	return v1.ResourceName(g.pick("cpu", "memory", "ephemeral-storage", "hugepages-2Mi", "example.com/gpu", "foo", "requests.cpu", "Bad Name", "nvidia.com/gpu", "kubernetes.io/thing"))
}

type fault struct {
	name  string
	apply func(g *gen, p *v1.Pod)
}

func label63(g *gen) string { return strings.Repeat("a", 63+g.r.Intn(2)) }

// podFaults are the faults injected into generated pods, field by field.
var podFaults = []fault{
	// Container names: DNS label, duplicates across kinds.
	{"container.name", func(g *gen, p *v1.Pod) {
		g.anyContainer(p).Name = g.pick("", "Bad_Name", "UPPER", "-lead", label63(g), "ok-name")
	}},
	{"container.name.duplicate", func(g *gen, p *v1.Pod) {
		a, b := g.anyContainer(p), g.anyContainer(p)
		a.Name = b.Name
	}},
	{"ephemeralContainers", func(g *gen, p *v1.Pod) {
		ec := v1.EphemeralContainer{EphemeralContainerCommon: v1.EphemeralContainerCommon{Name: g.pick("debug", "app-0", "Bad_Name"), Image: g.pick("busybox", "")}}
		if g.chance(0.3) {
			ec.Ports = []v1.ContainerPort{{ContainerPort: 80}}
		}
		if g.chance(0.3) {
			ec.ReadinessProbe = g.probe()
		}
		p.Spec.EphemeralContainers = append(p.Spec.EphemeralContainers, ec)
	}},
	{"container.image", func(g *gen, p *v1.Pod) {
		g.anyContainer(p).Image = g.pick("", " nginx", "nginx ", "\tbusybox", "UPPER:tag", "nginx:latest")
	}},
	{"container.command", func(g *gen, p *v1.Pod) {
		c := g.anyContainer(p)
		c.Command = []string{g.pick("", "/bin/true", " x ")}
		c.Args = []string{""}
		c.WorkingDir = g.pick("", "relative/dir", "/abs")
	}},
	{"container.ports", func(g *gen, p *v1.Pod) {
		c := g.anyContainer(p)
		port := v1.ContainerPort{
			Name:          g.pick("", "http", "Bad_Port", "toolongportname", "metrics"),
			ContainerPort: int32(g.pick2(0, 80, 70000, -1, 8080)),
			HostPort:      int32(g.pick2(0, 0, 80, 70000, -5)),
			Protocol:      v1.Protocol(g.pick("", "TCP", "UDP", "SCTP", "HTTP")),
			HostIP:        g.pick("", "", "10.0.0.1", "not-an-ip"),
		}
		c.Ports = append(c.Ports, port)
	}},
	{"container.ports.hostPort.conflict", func(g *gen, p *v1.Pod) {
		a, b := g.anyContainer(p), g.anyContainer(p)
		a.Ports = append(a.Ports, v1.ContainerPort{ContainerPort: 8081, HostPort: 9000})
		b.Ports = append(b.Ports, v1.ContainerPort{ContainerPort: 8082, HostPort: 9000})
	}},
	{"container.env", func(g *gen, p *v1.Pod) {
		c := g.anyContainer(p)
		e := v1.EnvVar{Name: g.pick("", "GOOD", "1BAD", "has=equals", "a b", "dot.name")}
		switch g.r.Intn(7) {
		case 0:
			e.Value = "v"
		case 1:
			e.Value = "v"
			e.ValueFrom = &v1.EnvVarSource{FieldRef: &v1.ObjectFieldSelector{FieldPath: "metadata.name"}}
		case 2:
			e.ValueFrom = &v1.EnvVarSource{FieldRef: &v1.ObjectFieldSelector{FieldPath: g.pick("metadata.nope", "spec.nodeName", "metadata.labels['x']", "status.podIP", "")}}
		case 3:
			e.ValueFrom = &v1.EnvVarSource{ConfigMapKeyRef: &v1.ConfigMapKeySelector{LocalObjectReference: v1.LocalObjectReference{Name: g.pick("", "cm", "Bad_CM")}, Key: g.pick("", "key", "bad key")}}
		case 4:
			e.ValueFrom = &v1.EnvVarSource{ResourceFieldRef: &v1.ResourceFieldSelector{ContainerName: g.pick("", c.Name, "other"), Resource: g.pick("limits.cpu", "requests.memory", "limits.foo", "cpu")}}
		case 5:
			e.ValueFrom = &v1.EnvVarSource{}
		default:
			e.ValueFrom = &v1.EnvVarSource{SecretKeyRef: &v1.SecretKeySelector{Key: "k"}, ConfigMapKeyRef: &v1.ConfigMapKeySelector{Key: "k"}}
		}
		c.Env = append(c.Env, e)
	}},
	{"container.envFrom", func(g *gen, p *v1.Pod) {
		c := g.anyContainer(p)
		s := v1.EnvFromSource{Prefix: g.pick("", "P_", "1bad", "a=b")}
		switch g.r.Intn(4) {
		case 0:
			s.ConfigMapRef = &v1.ConfigMapEnvSource{LocalObjectReference: v1.LocalObjectReference{Name: g.pick("cm", "Bad_Name", "")}}
		case 1:
			s.SecretRef = &v1.SecretEnvSource{LocalObjectReference: v1.LocalObjectReference{Name: g.pick("sec", "Bad_Name")}}
		case 2:
			s.ConfigMapRef = &v1.ConfigMapEnvSource{LocalObjectReference: v1.LocalObjectReference{Name: "cm"}}
			s.SecretRef = &v1.SecretEnvSource{LocalObjectReference: v1.LocalObjectReference{Name: "sec"}}
		}
		c.EnvFrom = append(c.EnvFrom, s)
	}},
	{"container.volumeMounts", func(g *gen, p *v1.Pod) {
		c := g.anyContainer(p)
		name := "missing"
		if len(p.Spec.Volumes) > 0 && g.chance(0.7) {
			name = p.Spec.Volumes[g.r.Intn(len(p.Spec.Volumes))].Name
		}
		m := v1.VolumeMount{Name: name, MountPath: g.pick("", "/data", "/mnt/0", "rel")}
		switch g.r.Intn(5) {
		case 0:
			m.SubPath = g.pick("../x", "/abs", "ok/sub")
		case 1:
			mp := v1.MountPropagationMode(g.pick("Bidirectional", "HostToContainer", "Weird"))
			m.MountPropagation = &mp
		case 2:
			m.SubPathExpr = "$(POD_NAME)"
			m.SubPath = g.pick("", "x")
		case 3:
			rro := v1.RecursiveReadOnlyMode(g.pick("Enabled", "IfPossible", "Bogus"))
			m.RecursiveReadOnly = &rro
			m.ReadOnly = g.chance(0.5)
		}
		c.VolumeMounts = append(c.VolumeMounts, m)
	}},
	{"container.volumeDevices", func(g *gen, p *v1.Pod) {
		c := g.anyContainer(p)
		name := "missing"
		if len(p.Spec.Volumes) > 0 && g.chance(0.7) {
			name = p.Spec.Volumes[g.r.Intn(len(p.Spec.Volumes))].Name
		}
		c.VolumeDevices = append(c.VolumeDevices, v1.VolumeDevice{Name: name, DevicePath: g.pick("", "/dev/xvda", "rel", "/mnt/0")})
	}},
	{"container.resources", func(g *gen, p *v1.Pod) {
		c := g.anyContainer(p)
		if c.Resources.Requests == nil || g.chance(0.3) {
			c.Resources.Requests = v1.ResourceList{}
		}
		if g.chance(0.5) {
			c.Resources.Limits = v1.ResourceList{}
		}
		for i := 0; i < 1+g.r.Intn(2); i++ {
			c.Resources.Requests[g.resourceName()] = g.quantity()
		}
		if c.Resources.Limits != nil {
			c.Resources.Limits[g.resourceName()] = g.quantity()
		}
	}},
	{"container.resources.requestOverLimit", func(g *gen, p *v1.Pod) {
		c := g.anyContainer(p)
		n := v1.ResourceName(g.pick("cpu", "memory", "hugepages-2Mi"))
		c.Resources.Requests = v1.ResourceList{n: resource.MustParse("4Mi")}
		c.Resources.Limits = v1.ResourceList{n: resource.MustParse("2Mi")}
	}},
	{"container.resources.claims", func(g *gen, p *v1.Pod) {
		c := g.anyContainer(p)
		c.Resources.Claims = []v1.ResourceClaim{{Name: g.pick("", "gpu", "Bad_Claim")}}
	}},
	{"container.resizePolicy", func(g *gen, p *v1.Pod) {
		c := g.anyContainer(p)
		c.ResizePolicy = append(c.ResizePolicy, v1.ContainerResizePolicy{
			ResourceName:  v1.ResourceName(g.pick("cpu", "memory", "storage", "")),
			RestartPolicy: v1.ResourceResizeRestartPolicy(g.pick("NotRequired", "RestartContainer", "Sometimes", "")),
		})
	}},
	{"container.probe.fields", func(g *gen, p *v1.Pod) {
		pr := g.anyProbe(g.anyContainer(p))
		switch g.r.Intn(6) {
		case 0:
			pr.PeriodSeconds = int32(g.pick2(-1, 0, 5))
		case 1:
			pr.SuccessThreshold = int32(g.pick2(-1, 2, 1))
		case 2:
			pr.TimeoutSeconds = -3
			pr.FailureThreshold = -1
		case 3:
			pr.InitialDelaySeconds = -1
		case 4:
			pr.TerminationGracePeriodSeconds = i64(int64(g.pick2(0, -1, 10)))
		default:
			pr.PeriodSeconds = 1
			pr.TimeoutSeconds = 0
		}
	}},
	{"container.probe.handler", func(g *gen, p *v1.Pod) {
		pr := g.anyProbe(g.anyContainer(p))
		switch g.r.Intn(6) {
		case 0:
			pr.ProbeHandler = v1.ProbeHandler{}
		case 1:
			pr.ProbeHandler = v1.ProbeHandler{Exec: &v1.ExecAction{Command: []string{"x"}}, TCPSocket: &v1.TCPSocketAction{Port: intstr.FromInt32(1)}}
		case 2:
			pr.ProbeHandler = v1.ProbeHandler{HTTPGet: &v1.HTTPGetAction{Port: g.port(), Scheme: v1.URIScheme(g.pick("", "HTTP", "HTTPS", "FTP")), Path: g.pick("", "/ok", "noslash"),
				HTTPHeaders: []v1.HTTPHeader{{Name: g.pick("X-Ok", "bad header", ""), Value: "v"}}}}
		case 3:
			pr.ProbeHandler = v1.ProbeHandler{TCPSocket: &v1.TCPSocketAction{Port: g.port(), Host: g.pick("", "example.com")}}
		case 4:
			svc := g.pick("", "svc")
			pr.ProbeHandler = v1.ProbeHandler{GRPC: &v1.GRPCAction{Port: int32(g.pick2(0, -1, 70000, 9090)), Service: &svc}}
		default:
			pr.ProbeHandler = v1.ProbeHandler{Exec: &v1.ExecAction{}}
		}
	}},
	{"container.lifecycle", func(g *gen, p *v1.Pod) {
		c := g.anyContainer(p)
		h := g.anyHandler(c)
		switch g.r.Intn(6) {
		case 0:
			*h = v1.LifecycleHandler{}
		case 1:
			*h = v1.LifecycleHandler{Sleep: &v1.SleepAction{Seconds: int64(g.pick2(-1, 0, 30))}}
		case 2:
			*h = v1.LifecycleHandler{HTTPGet: &v1.HTTPGetAction{Port: g.port(), Host: g.pick("", "h")}}
		case 3:
			*h = v1.LifecycleHandler{TCPSocket: &v1.TCPSocketAction{Port: g.port()}}
		case 4:
			*h = v1.LifecycleHandler{Exec: &v1.ExecAction{Command: []string{"x"}}, Sleep: &v1.SleepAction{Seconds: 1}}
		default:
			*h = v1.LifecycleHandler{Exec: &v1.ExecAction{}}
		}
	}},
	{"container.lifecycle.stopSignal", func(g *gen, p *v1.Pod) {
		c := g.anyContainer(p)
		if c.Lifecycle == nil {
			c.Lifecycle = &v1.Lifecycle{}
		}
		s := v1.Signal(g.pick("SIGTERM", "SIGKILL", "SIGRTMIN+3", "SIGNOPE"))
		c.Lifecycle.StopSignal = &s
		if g.chance(0.5) {
			p.Spec.OS = &v1.PodOS{Name: v1.OSName(g.pick("linux", "windows"))}
		}
	}},
	{"container.restartPolicy", func(g *gen, p *v1.Pod) {
		c := g.anyContainer(p)
		if g.chance(0.2) {
			c.RestartPolicy = nil
		} else {
			c.RestartPolicy = ptrRP(v1.ContainerRestartPolicy(g.pick("Always", "OnFailure", "Never", "Sometimes", "")))
		}
	}},
	{"container.restartPolicyRules", func(g *gen, p *v1.Pod) {
		c := g.anyContainer(p)
		if g.chance(0.6) {
			c.RestartPolicy = ptrRP(v1.ContainerRestartPolicy(g.pick("Always", "OnFailure", "Never")))
		}
		rule := v1.ContainerRestartRule{Action: v1.ContainerRestartRuleAction(g.pick("Restart", "RestartAllContainers", "Nope", ""))}
		if g.chance(0.8) {
			rule.ExitCodes = &v1.ContainerRestartRuleOnExitCodes{Operator: v1.ContainerRestartRuleOnExitCodesOperator(g.pick("In", "NotIn", "Between"))}
			switch g.r.Intn(4) {
			case 0:
				rule.ExitCodes.Values = []int32{1, 2}
			case 1:
				rule.ExitCodes.Values = []int32{2, 1, 1}
			case 2:
				for i := 0; i < 256; i++ {
					rule.ExitCodes.Values = append(rule.ExitCodes.Values, int32(i))
				}
			}
		}
		c.RestartPolicyRules = append(c.RestartPolicyRules, rule)
	}},
	{"container.terminationMessage", func(g *gen, p *v1.Pod) {
		c := g.anyContainer(p)
		c.TerminationMessagePath = g.pick("", "/dev/termination-log", "relative", strings.Repeat("x", 4100))
		c.TerminationMessagePolicy = v1.TerminationMessagePolicy(g.pick("", "File", "Bogus"))
	}},
	{"container.imagePullPolicy", func(g *gen, p *v1.Pod) {
		g.anyContainer(p).ImagePullPolicy = v1.PullPolicy(g.pick("", "Always", "Sometimes", "never"))
	}},
	{"container.securityContext", func(g *gen, p *v1.Pod) {
		c := g.anyContainer(p)
		sc := &v1.SecurityContext{}
		switch g.r.Intn(8) {
		case 0:
			sc.Privileged = ptrBool(g.chance(0.5))
		case 1:
			sc.RunAsUser = i64(int64(g.pick2(-1, 0, 1000)))
			sc.RunAsGroup = i64(int64(g.pick2(-1, 0, 1000)))
		case 2:
			sc.AllowPrivilegeEscalation = ptrBool(false)
			if g.chance(0.5) {
				sc.Privileged = ptrBool(true)
			} else {
				sc.Capabilities = &v1.Capabilities{Add: []v1.Capability{"SYS_ADMIN"}}
			}
		case 3:
			pm := v1.ProcMountType(g.pick("Default", "Unmasked", "Bogus"))
			sc.ProcMount = &pm
		case 4:
			sc.SeccompProfile = &v1.SeccompProfile{Type: v1.SeccompProfileType(g.pick("RuntimeDefault", "Localhost", "Bogus", "Unconfined"))}
			if g.chance(0.5) {
				lp := g.pick("", "profiles/a.json", "../up")
				sc.SeccompProfile.LocalhostProfile = &lp
			}
		case 5:
			sc.SELinuxOptions = &v1.SELinuxOptions{Level: g.pick("s0", "bad level!"), User: "u"}
		case 6:
			sc.AppArmorProfile = &v1.AppArmorProfile{Type: v1.AppArmorProfileType(g.pick("RuntimeDefault", "Localhost", "Bogus"))}
		default:
			sc.WindowsOptions = &v1.WindowsSecurityContextOptions{HostProcess: ptrBool(true)}
		}
		c.SecurityContext = sc
	}},
	{"pod.restartPolicy", func(g *gen, p *v1.Pod) {
		p.Spec.RestartPolicy = v1.RestartPolicy(g.pick("Sometimes", "always", "Never"))
	}},
	{"pod.activeDeadlineSeconds", func(g *gen, p *v1.Pod) {
		p.Spec.ActiveDeadlineSeconds = i64(int64(g.pick2(0, -1, 1<<31, 5)))
	}},
	{"pod.terminationGracePeriodSeconds", func(g *gen, p *v1.Pod) {
		p.Spec.TerminationGracePeriodSeconds = i64(int64(g.pick2(-5, 0, 1, 30)))
	}},
	{"pod.resources", func(g *gen, p *v1.Pod) {
		r := &v1.ResourceRequirements{Requests: v1.ResourceList{}, Limits: v1.ResourceList{}}
		r.Requests[g.resourceName()] = g.quantity()
		if g.chance(0.7) {
			r.Limits[g.resourceName()] = g.quantity()
		}
		if g.chance(0.4) {
			r.Limits[v1.ResourceCPU] = resource.MustParse("50m")
		}
		p.Spec.Resources = r
	}},
	{"pod.overhead", func(g *gen, p *v1.Pod) {
		p.Spec.Overhead = v1.ResourceList{g.resourceName(): g.quantity()}
	}},
	{"pod.readinessGates", func(g *gen, p *v1.Pod) {
		p.Spec.ReadinessGates = append(p.Spec.ReadinessGates, v1.PodReadinessGate{ConditionType: v1.PodConditionType(g.pick("", "bad type!", "example.com/x", "Ready"))})
	}},
	{"metadata.name", func(g *gen, p *v1.Pod) {
		p.Name = g.pick("", "Bad_Name", "dots.are.ok", strings.Repeat("n", 254), "-x")
		if g.chance(0.4) {
			p.GenerateName = g.pick("gen-", "Bad-", "gen")
		}
	}},
	{"metadata.namespace", func(g *gen, p *v1.Pod) {
		p.Namespace = g.pick("", "Bad_NS", "a.b", strings.Repeat("n", 64))
	}},
	{"metadata.labels", func(g *gen, p *v1.Pod) {
		if p.Labels == nil {
			p.Labels = map[string]string{}
		}
		p.Labels[g.pick("ok", "bad key!", "example.com/ok", "/nope", strings.Repeat("k", 64))] = g.pick("v", "bad value!", strings.Repeat("v", 64), "")
	}},
	{"metadata.annotations", func(g *gen, p *v1.Pod) {
		if p.Annotations == nil {
			p.Annotations = map[string]string{}
		}
		k := g.pick("ok", "bad key!", "controller.kubernetes.io/pod-deletion-cost", "kubernetes.io/config.mirror", "container.apparmor.security.beta.kubernetes.io/app-0", "seccomp.security.alpha.kubernetes.io/pod")
		p.Annotations[k] = g.pick("v", "x1", "100", "runtime/default", "localhost/p", strings.Repeat("v", 300000))
	}},
	{"pod.hostNetwork", func(g *gen, p *v1.Pod) {
		p.Spec.HostNetwork = true
		c := g.anyContainer(p)
		c.Ports = append(c.Ports, v1.ContainerPort{ContainerPort: 8443, HostPort: int32(g.pick2(0, 8443, 9443))})
	}},
	{"pod.volumes", func(g *gen, p *v1.Pod) {
		vol := v1.Volume{Name: g.pick("extra", "vol-0", "Bad_Vol", "")}
		switch g.r.Intn(6) {
		case 0:
		case 1:
			vol.HostPath = &v1.HostPathVolumeSource{Path: g.pick("/data", "", "rel/..")}
		case 2:
			vol.Secret = &v1.SecretVolumeSource{SecretName: g.pick("sec", "Bad_Name", ""), DefaultMode: i32(int32(g.pick2(0o644, 0o1000, -1)))}
		case 3:
			vol.EmptyDir = &v1.EmptyDirVolumeSource{Medium: v1.StorageMedium(g.pick("", "Memory", "Disk"))}
			vol.ConfigMap = &v1.ConfigMapVolumeSource{LocalObjectReference: v1.LocalObjectReference{Name: "cm"}}
		case 4:
			vol.Projected = &v1.ProjectedVolumeSource{Sources: []v1.VolumeProjection{{ServiceAccountToken: &v1.ServiceAccountTokenProjection{Path: g.pick("token", "", "../t"), ExpirationSeconds: func() *int64 { v := int64(g.pick2(600, 3600, 1<<33)); return &v }()}}}}
		default:
			vol.DownwardAPI = &v1.DownwardAPIVolumeSource{Items: []v1.DownwardAPIVolumeFile{{Path: g.pick("labels", "/abs", ""), FieldRef: &v1.ObjectFieldSelector{FieldPath: g.pick("metadata.labels", "spec.nodeName")}}}}
		}
		p.Spec.Volumes = append(p.Spec.Volumes, vol)
	}},
	{"pod.affinity", func(g *gen, p *v1.Pod) {
		term := v1.PodAffinityTerm{TopologyKey: g.pick("kubernetes.io/hostname", "", "bad key!"),
			LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": g.pick("web", "bad value!")}}}
		if g.chance(0.4) {
			term.MatchLabelKeys = []string{g.pick("app", "pod-template-hash", "bad key!")}
		}
		a := &v1.Affinity{}
		switch g.r.Intn(3) {
		case 0:
			a.PodAffinity = &v1.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []v1.PodAffinityTerm{term}}
		case 1:
			a.PodAntiAffinity = &v1.PodAntiAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []v1.WeightedPodAffinityTerm{{Weight: int32(g.pick2(0, 1, 100, 101)), PodAffinityTerm: term}}}
		default:
			a.NodeAffinity = &v1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &v1.NodeSelector{NodeSelectorTerms: []v1.NodeSelectorTerm{{
				MatchExpressions: []v1.NodeSelectorRequirement{{Key: g.pick("zone", "bad key!"), Operator: v1.NodeSelectorOperator(g.pick("In", "Exists", "Gt", "Bogus")), Values: []string{g.pick("a", "1", "")}}},
			}}}}
		}
		p.Spec.Affinity = a
	}},
	{"pod.tolerations", func(g *gen, p *v1.Pod) {
		p.Spec.Tolerations = append(p.Spec.Tolerations, v1.Toleration{Key: g.pick("", "k", "bad key!"), Operator: v1.TolerationOperator(g.pick("", "Exists", "Equal", "Lt", "Bogus")),
			Value: g.pick("", "v", "5"), Effect: v1.TaintEffect(g.pick("", "NoSchedule", "NoExecute", "Bogus"))})
	}},
	{"pod.topologySpread", func(g *gen, p *v1.Pod) {
		c := v1.TopologySpreadConstraint{MaxSkew: int32(g.pick2(0, 1, 2)), TopologyKey: g.pick("zone", ""),
			WhenUnsatisfiable: v1.UnsatisfiableConstraintAction(g.pick("DoNotSchedule", "ScheduleAnyway", "Bogus")),
			LabelSelector:     &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}}
		if g.chance(0.3) {
			c.MatchLabelKeys = []string{g.pick("app", "pod-template-hash")}
		}
		if g.chance(0.3) {
			c.MinDomains = i32(int32(g.pick2(0, 1, 3)))
		}
		p.Spec.TopologySpreadConstraints = append(p.Spec.TopologySpreadConstraints, c)
	}},
	{"pod.dns", func(g *gen, p *v1.Pod) {
		p.Spec.DNSPolicy = v1.DNSPolicy(g.pick("None", "ClusterFirstWithHostNet", "Default", "Bogus"))
		if g.chance(0.6) {
			p.Spec.DNSConfig = &v1.PodDNSConfig{Nameservers: []string{g.pick("1.1.1.1", "not-an-ip")}, Searches: []string{g.pick("svc.cluster.local", "Bad_Domain")},
				Options: []v1.PodDNSConfigOption{{Name: g.pick("ndots", "")}}}
		}
		if g.chance(0.3) {
			p.Spec.HostAliases = []v1.HostAlias{{IP: g.pick("10.0.0.1", "bad"), Hostnames: []string{g.pick("db", "Bad_Host")}}}
		}
		if g.chance(0.3) {
			p.Spec.Hostname = g.pick("web-0", "Bad_Host")
			p.Spec.Subdomain = g.pick("", "svc", "Bad.Sub")
		}
	}},
	{"pod.sysctls", func(g *gen, p *v1.Pod) {
		if p.Spec.SecurityContext == nil {
			p.Spec.SecurityContext = &v1.PodSecurityContext{}
		}
		p.Spec.SecurityContext.Sysctls = []v1.Sysctl{{Name: g.pick("net.core.somaxconn", "kernel.shm_rmid_forced", "bad sysctl", ""), Value: "1"}}
		p.Spec.HostNetwork = g.chance(0.3)
	}},
	{"pod.misc", func(g *gen, p *v1.Pod) {
		switch g.r.Intn(5) {
		case 0:
			p.Spec.ServiceAccountName = g.pick("sa", "Bad_SA")
		case 1:
			p.Spec.PriorityClassName = g.pick("high", "Bad_Priority")
		case 2:
			p.Spec.NodeName = g.pick("node-1", "Bad_Node")
		case 3:
			p.Spec.ImagePullSecrets = []v1.LocalObjectReference{{Name: g.pick("", "regcred")}}
		default:
			p.Spec.SchedulingGates = []v1.PodSchedulingGate{{Name: g.pick("example.com/g", "bad gate!")}, {Name: "example.com/g"}}
		}
	}},
	{"pod.securityContext", func(g *gen, p *v1.Pod) {
		p.Spec.SecurityContext = &v1.PodSecurityContext{RunAsUser: i64(int64(g.pick2(-1, 1000))), FSGroup: i64(int64(g.pick2(-2, 2000)))}
	}},
}

// pick2 picks one of the integers.
func (g *gen) pick2(items ...int) int { return items[g.r.Intn(len(items))] }

func (g *gen) port() intstr.IntOrString {
	switch g.r.Intn(4) {
	case 0:
		return intstr.FromInt32(int32(g.pick2(0, -1, 70000, 80)))
	case 1:
		return intstr.FromString(g.pick("http", "Bad_Name", "", "toolongportname1"))
	default:
		return intstr.FromInt32(8080)
	}
}

// describe renders an input for a failure message.
func describe(seed int64, i int, faults []string, objs ...any) string {
	var b strings.Builder
	fmt.Fprintf(&b, "seed %d, input %d, faults %v\n", seed, i, faults)
	for _, o := range objs {
		y, err := yaml.Marshal(o)
		if err != nil {
			fmt.Fprintf(&b, "%#v\n", o)
			continue
		}
		b.Write(y)
		b.WriteString("---\n")
	}
	return b.String()
}
