package defaults

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/podlife/podlife/conformance/internal/fieldfill"
	"github.com/podlife/podlife/conformance/internal/runenv"
)

// seed returns the generator seed: PODLIFE_SEED when set (a malformed value fails tb),
// else a fixed default.
func seed(tb testing.TB) uint64 { return runenv.Seed(tb, 20261130) }

type gen struct {
	r *rand.Rand
	// leaves hands out the PodSpec leaves the filler sets, in turn.
	leaves *fieldfill.RoundRobin
}

func newGen(seed uint64) *gen {
	return &gen{r: rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)), leaves: fieldfill.NewRoundRobin(podSpecLeaves)}
}

func (g *gen) p(prob float64) bool { return g.r.Float64() < prob }
func (g *gen) n(k int) int         { return g.r.IntN(k) }

func pick[T any](g *gen, xs ...T) T { return xs[g.r.IntN(len(xs))] }

func ptr[T any](v T) *T { return &v }

var quantities = []string{
	"0", "1", "2", "100m", "250m", "1500m", "0.1m", "1.0001", "3.5", "1n", "2n", "123456789n",
	"1e3", "1e-4", "1k", "1Ki", "1Mi", "64Mi", "0.5Gi", "1Gi", "2Gi", "1G", "500M", "1.5", "7m", "0.0005",
	"4Mi", "2Mi", "1025Ki", "999999999999999", "+1", "1E", "10u", "-1", "-0.5m", "0.000000001Ki",
}

var resourceNames = []corev1.ResourceName{
	corev1.ResourceCPU, corev1.ResourceMemory, corev1.ResourceCPU, corev1.ResourceMemory,
	corev1.ResourceEphemeralStorage, "hugepages-2Mi", "hugepages-1Gi", "example.com/gpu", "nvidia.com/gpu",
}

func (g *gen) quantity() resource.Quantity { return resource.MustParse(pick(g, quantities...)) }

// list returns nil, an empty list or a few entries.
func (g *gen) list() corev1.ResourceList {
	switch g.n(6) {
	case 0, 1:
		return nil
	case 2:
		return corev1.ResourceList{}
	}
	l := corev1.ResourceList{}
	for i := 1 + g.n(4); i > 0; i-- {
		l[pick(g, resourceNames...)] = g.quantity()
	}
	return l
}

func (g *gen) resources() corev1.ResourceRequirements {
	var r corev1.ResourceRequirements
	switch g.n(5) {
	case 0: // nothing
	case 1: // limits only
		r.Limits = g.list()
	case 2: // requests only
		r.Requests = g.list()
	case 3: // guaranteed-looking
		l := g.list()
		if g.p(0.5) {
			l = corev1.ResourceList{corev1.ResourceCPU: g.quantity(), corev1.ResourceMemory: g.quantity()}
		}
		r.Limits = l
		if l != nil && g.p(0.5) {
			r.Requests = l.DeepCopy()
		}
	default:
		r.Requests, r.Limits = g.list(), g.list()
	}
	if g.p(0.05) {
		r.Claims = []corev1.ResourceClaim{{Name: "claim"}}
	}
	return r
}

var images = []string{
	"nginx", "nginx:latest", "nginx:1.27", "busybox@sha256:" + strings.Repeat("a", 64),
	"busybox:latest@sha256:" + strings.Repeat("b", 64), "registry.k8s.io/pause:3.10", "registry.k8s.io/pause",
	"localhost:5000/app", "localhost/app:latest", "[::1]:5000/app:v1", "", "NGINX", "Registry.Example/app",
	"nginx@sha256:abc", "nginx@sha512:" + strings.Repeat("c", 128), "nginx@sha384:" + strings.Repeat("d", 96),
	"nginx@sha256:" + strings.Repeat("A", 64), strings.Repeat("e", 64), "a/" + strings.Repeat("b", 260),
	"nginx:" + strings.Repeat("t", 129), "nginx:-x", "index.docker.io/library/nginx", "a__b/c--d:v", "a___b",
	"example.com:443/ns/app:LATEST", "app:latest ", " app", "gcr.io/x/y@md5:" + strings.Repeat("0", 32),
	"docker.io/nginx:latest", "x/Y", "a.b/C:d", "ubuntu:22.04@sha256:" + strings.Repeat("f", 64),
}

func (g *gen) handler() corev1.ProbeHandler {
	var h corev1.ProbeHandler
	switch g.n(4) {
	case 0:
		h.Exec = &corev1.ExecAction{Command: []string{"true"}}
	case 1:
		h.HTTPGet = g.httpGet()
	case 2:
		h.TCPSocket = &corev1.TCPSocketAction{Port: intstr.FromInt32(80)}
	default:
		h.GRPC = &corev1.GRPCAction{Port: 9000}
		if g.p(0.5) {
			h.GRPC.Service = ptr(pick(g, "", "health"))
		}
		if g.p(0.3) {
			h.GRPC.Mode = ptr(pick(g, corev1.GRPCProbeModeTLS, corev1.GRPCProbeModePlaintext))
		}
	}
	return h
}

func (g *gen) httpGet() *corev1.HTTPGetAction {
	a := &corev1.HTTPGetAction{Port: intstr.FromString("http")}
	if g.p(0.4) {
		a.Path = "/healthz"
	}
	if g.p(0.4) {
		a.Scheme = pick(g, corev1.URISchemeHTTP, corev1.URISchemeHTTPS)
	}
	if g.p(0.3) {
		a.Protocol = ptr(pick(g, corev1.HTTPProtocolHTTP1, corev1.HTTPProtocolHTTP2))
	}
	return a
}

func (g *gen) probe() *corev1.Probe {
	if g.p(0.6) {
		return nil
	}
	p := &corev1.Probe{ProbeHandler: g.handler()}
	if g.p(0.3) {
		p.TimeoutSeconds = int32(g.n(5))
	}
	if g.p(0.3) {
		p.PeriodSeconds = int32(g.n(30))
	}
	if g.p(0.3) {
		p.SuccessThreshold = int32(g.n(3))
	}
	if g.p(0.3) {
		p.FailureThreshold = int32(g.n(5))
	}
	if g.p(0.3) {
		p.InitialDelaySeconds = int32(g.n(10))
	}
	return p
}

func (g *gen) lifecycleHandler() *corev1.LifecycleHandler {
	if g.p(0.5) {
		return nil
	}
	var h corev1.LifecycleHandler
	switch g.n(4) {
	case 0:
		h.Exec = &corev1.ExecAction{Command: []string{"sh"}}
	case 1:
		h.HTTPGet = g.httpGet()
	case 2:
		h.TCPSocket = &corev1.TCPSocketAction{Port: intstr.FromInt32(1)}
	default:
		h.Sleep = &corev1.SleepAction{Seconds: 2}
	}
	return &h
}

func (g *gen) container(name string, kind int) corev1.Container {
	c := corev1.Container{Name: name, Image: pick(g, images...)}
	if g.p(0.2) {
		c.ImagePullPolicy = pick(g, corev1.PullAlways, corev1.PullNever, corev1.PullIfNotPresent)
	}
	if g.p(0.2) {
		c.TerminationMessagePath = "/tmp/msg"
	}
	if g.p(0.2) {
		c.TerminationMessagePolicy = corev1.TerminationMessageFallbackToLogsOnError
	}
	if kind != 2 { // ephemeral containers rarely have resources, but the server defaults whatever is there
		c.Resources = g.resources()
	} else if g.p(0.2) {
		c.Resources = g.resources()
	}
	for i := g.n(3); i > 0; i-- {
		p := corev1.ContainerPort{ContainerPort: int32(1000 + g.n(5000))}
		if g.p(0.5) {
			p.Protocol = pick(g, corev1.ProtocolTCP, corev1.ProtocolUDP, corev1.ProtocolSCTP)
		}
		if g.p(0.3) {
			p.HostPort = int32(2000 + g.n(100))
		}
		c.Ports = append(c.Ports, p)
	}
	for i := g.n(4); i > 0; i-- {
		e := corev1.EnvVar{Name: fmt.Sprintf("E%d", i)}
		switch g.n(5) {
		case 0:
			e.Value = "v"
		case 1:
			e.ValueFrom = &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.name"}}
			if g.p(0.3) {
				e.ValueFrom.FieldRef.APIVersion = "v1"
			}
		case 2:
			e.ValueFrom = &corev1.EnvVarSource{FileKeyRef: &corev1.FileKeySelector{VolumeName: "v", Path: "p", Key: "k"}}
			if g.p(0.5) {
				e.ValueFrom.FileKeyRef.Optional = ptr(g.p(0.5))
			}
		case 3:
			e.ValueFrom = &corev1.EnvVarSource{ResourceFieldRef: &corev1.ResourceFieldSelector{Resource: "limits.cpu"}}
		default:
			e.ValueFrom = &corev1.EnvVarSource{ConfigMapKeyRef: &corev1.ConfigMapKeySelector{Key: "k"}}
		}
		c.Env = append(c.Env, e)
	}
	c.LivenessProbe, c.ReadinessProbe, c.StartupProbe = g.probe(), g.probe(), g.probe()
	if g.p(0.4) {
		c.Lifecycle = &corev1.Lifecycle{PostStart: g.lifecycleHandler(), PreStop: g.lifecycleHandler()}
		if g.p(0.3) {
			c.Lifecycle.StopSignal = ptr(corev1.SIGTERM)
		}
	}
	if g.p(0.3) {
		c.SecurityContext = &corev1.SecurityContext{}
		if g.p(0.3) {
			c.SecurityContext.AppArmorProfile = &corev1.AppArmorProfile{Type: corev1.AppArmorProfileTypeRuntimeDefault}
		}
		if g.p(0.3) {
			c.SecurityContext.ProcMount = ptr(corev1.UnmaskedProcMount)
		}
	}
	switch {
	case kind == 1 && g.p(0.5): // sidecars and other init restart policies
		c.RestartPolicy = ptr(pick(g, corev1.ContainerRestartPolicyAlways, corev1.ContainerRestartPolicyAlways, corev1.ContainerRestartPolicyOnFailure, corev1.ContainerRestartPolicyNever))
	case g.p(0.15):
		c.RestartPolicy = ptr(pick(g, corev1.ContainerRestartPolicyAlways, corev1.ContainerRestartPolicyNever))
	}
	if g.p(0.1) {
		c.RestartPolicyRules = []corev1.ContainerRestartRule{{Action: corev1.ContainerRestartRuleActionRestart,
			ExitCodes: &corev1.ContainerRestartRuleOnExitCodes{Operator: corev1.ContainerRestartRuleOnExitCodesOpIn, Values: []int32{42}}}}
	}
	if g.p(0.1) {
		c.ResizePolicy = []corev1.ContainerResizePolicy{{ResourceName: corev1.ResourceCPU, RestartPolicy: corev1.NotRequired}}
	}
	for i := g.n(3); i > 0; i-- {
		m := corev1.VolumeMount{Name: fmt.Sprintf("vol%d", g.n(8)), MountPath: fmt.Sprintf("/m%d", i)}
		if g.p(0.2) {
			m.RecursiveReadOnly = ptr(corev1.RecursiveReadOnlyIfPossible)
		}
		if g.p(0.2) {
			m.BindMountOptions = []string{"ro"}
		}
		c.VolumeMounts = append(c.VolumeMounts, m)
	}
	g.containerFields(&c)
	return c
}

func (g *gen) keyToPaths() []corev1.KeyToPath {
	if g.p(0.5) {
		return nil
	}
	kp := corev1.KeyToPath{Key: "k", Path: "p"}
	if g.p(0.5) {
		kp.User = ptr(int64(1000))
	}
	return []corev1.KeyToPath{kp}
}

func (g *gen) dapiFiles() []corev1.DownwardAPIVolumeFile {
	f := corev1.DownwardAPIVolumeFile{Path: "labels", FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.labels"}}
	if g.p(0.3) {
		f.FieldRef.APIVersion = "v1"
	}
	if g.p(0.3) {
		f.FieldRef = nil
		f.ResourceFieldRef = &corev1.ResourceFieldSelector{Resource: "limits.memory"}
	}
	if g.p(0.3) {
		f.User = ptr(int64(7))
	}
	return []corev1.DownwardAPIVolumeFile{f}
}

func (g *gen) volume(i int) corev1.Volume {
	v := corev1.Volume{Name: fmt.Sprintf("vol%d", i)}
	s := &v.VolumeSource
	mode := func() *int32 {
		if g.p(0.5) {
			return nil
		}
		return ptr(int32(0o600))
	}
	user := func() *int64 {
		if g.p(0.7) {
			return nil
		}
		return ptr(int64(99))
	}
	switch g.n(16) {
	case 0: // no source
	case 1:
		s.EmptyDir = &corev1.EmptyDirVolumeSource{}
		if g.p(0.3) {
			s.EmptyDir.SizeLimit = ptr(g.quantity())
		}
		if g.p(0.3) {
			s.EmptyDir.Mode = ptr(int32(0o777))
		}
	case 2:
		s.Secret = &corev1.SecretVolumeSource{SecretName: "s", DefaultMode: mode(), DefaultUser: user(), Items: g.keyToPaths()}
	case 3:
		s.ConfigMap = &corev1.ConfigMapVolumeSource{DefaultMode: mode(), DefaultUser: user(), Items: g.keyToPaths()}
	case 4:
		s.DownwardAPI = &corev1.DownwardAPIVolumeSource{DefaultMode: mode(), DefaultUser: user(), Items: g.dapiFiles()}
	case 5:
		s.HostPath = &corev1.HostPathVolumeSource{Path: "/var"}
		if g.p(0.5) {
			s.HostPath.Type = ptr(corev1.HostPathDirectory)
		}
	case 6:
		s.ISCSI = &corev1.ISCSIVolumeSource{TargetPortal: "t", IQN: "i"}
		if g.p(0.3) {
			s.ISCSI.ISCSIInterface = "eth"
		}
	case 7:
		s.RBD = &corev1.RBDVolumeSource{CephMonitors: []string{"m"}, RBDImage: "img"}
		if g.p(0.3) {
			s.RBD.RBDPool, s.RBD.RadosUser, s.RBD.Keyring = "p", "u", "k"
		}
	case 8:
		s.AzureDisk = &corev1.AzureDiskVolumeSource{DiskName: "d", DataDiskURI: "u"}
		if g.p(0.3) {
			s.AzureDisk.FSType = ptr("xfs")
			s.AzureDisk.ReadOnly = ptr(true)
		}
	case 9, 10:
		p := &corev1.ProjectedVolumeSource{DefaultMode: mode(), DefaultUser: user()}
		for j := 1 + g.n(4); j > 0; j-- {
			var src corev1.VolumeProjection
			switch g.n(6) {
			case 0:
				src.Secret = &corev1.SecretProjection{Items: g.keyToPaths()}
			case 1:
				src.ConfigMap = &corev1.ConfigMapProjection{Items: g.keyToPaths()}
			case 2:
				src.DownwardAPI = &corev1.DownwardAPIProjection{Items: g.dapiFiles()}
			case 3:
				src.ServiceAccountToken = &corev1.ServiceAccountTokenProjection{Path: "token", User: user()}
				if g.p(0.3) {
					src.ServiceAccountToken.ExpirationSeconds = ptr(int64(600))
				}
			case 4:
				src.ClusterTrustBundle = &corev1.ClusterTrustBundleProjection{Name: ptr("b"), Path: "ca", User: user()}
			default:
				src.PodCertificate = &corev1.PodCertificateProjection{SignerName: "x/y", KeyType: "ED25519", User: user()}
			}
			p.Sources = append(p.Sources, src)
		}
		s.Projected = p
	case 11:
		s.ScaleIO = &corev1.ScaleIOVolumeSource{Gateway: "g", System: "s"}
		if g.p(0.3) {
			s.ScaleIO.FSType = "ext4"
		}
	case 12:
		s.Ephemeral = &corev1.EphemeralVolumeSource{}
		if g.p(0.8) {
			s.Ephemeral.VolumeClaimTemplate = &corev1.PersistentVolumeClaimTemplate{Spec: corev1.PersistentVolumeClaimSpec{
				AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
				Resources:   corev1.VolumeResourceRequirements{Requests: g.list(), Limits: g.list()},
			}}
			if g.p(0.3) {
				s.Ephemeral.VolumeClaimTemplate.Spec.VolumeMode = ptr(corev1.PersistentVolumeBlock)
			}
		}
	case 13:
		s.Image = &corev1.ImageVolumeSource{Reference: pick(g, images...)}
		if g.p(0.3) {
			s.Image.PullPolicy = corev1.PullNever
		}
	case 14:
		s.PersistentVolumeClaim = &corev1.PersistentVolumeClaimVolumeSource{ClaimName: "c"}
	default:
		s.NFS = &corev1.NFSVolumeSource{Server: "s", Path: "/"}
	}
	if g.p(0.05) { // invalid, but the server defaults it before validation refuses it
		s.Secret = &corev1.SecretVolumeSource{Items: g.keyToPaths(), DefaultUser: user()}
		s.ConfigMap = &corev1.ConfigMapVolumeSource{DefaultUser: user()}
	}
	return v
}

var labelSets = []map[string]string{nil, {}, {"app": "web"}, {"app": "web", "rev": "7", "tier": "fe"}}

// pod generates one pod covering the inputs the API server's defaulting looks at.
func (g *gen) pod() *corev1.Pod {
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns"}}
	p.Labels = pick(g, labelSets...)
	if p.Labels != nil {
		p.Labels = copyMap(p.Labels)
	}
	if g.p(0.2) {
		p.Generation = 5
	}
	nInit, nApp, nEph := g.n(4), g.n(5), 0
	if g.p(0.15) {
		nEph = 1 + g.n(2)
	}
	for i := 0; i < nInit; i++ {
		p.Spec.InitContainers = append(p.Spec.InitContainers, g.container(fmt.Sprintf("init%d", i), 1))
	}
	for i := 0; i < nApp; i++ {
		p.Spec.Containers = append(p.Spec.Containers, g.container(fmt.Sprintf("app%d", i), 0))
	}
	for i := 0; i < nEph; i++ {
		p.Spec.EphemeralContainers = append(p.Spec.EphemeralContainers, corev1.EphemeralContainer{
			EphemeralContainerCommon: corev1.EphemeralContainerCommon(g.container(fmt.Sprintf("debug%d", i), 2)),
			TargetContainerName:      "app0",
		})
	}
	if g.p(0.1) { // a Guaranteed-shaped pod: every container limits cpu and memory
		for _, list := range [][]corev1.Container{p.Spec.InitContainers, p.Spec.Containers} {
			for i := range list {
				list[i].Resources = corev1.ResourceRequirements{Limits: corev1.ResourceList{
					corev1.ResourceCPU: g.quantity(), corev1.ResourceMemory: g.quantity()}}
			}
		}
	}
	if g.p(0.05) {
		p.Spec.Containers = []corev1.Container{}
	}
	switch g.n(4) {
	case 0:
		p.Annotations = nil
	case 1:
		p.Annotations = map[string]string{}
	default:
		p.Annotations = map[string]string{"a": "b"}
		if g.p(0.3) {
			p.Annotations[pick(g, "pod.beta.kubernetes.io/init-containers", "pod.alpha.kubernetes.io/init-container-statuses")] = "[]"
		}
		for _, name := range []string{"init0", "app0", "app1", "debug0"} {
			if g.p(0.3) {
				p.Annotations[corev1.DeprecatedAppArmorBetaContainerAnnotationKeyPrefix+name] = pick(g,
					"runtime/default", "unconfined", "localhost/prof", "localhost/", "localhost/ x", "bogus", "localhost/"+strings.Repeat("p", 4096))
			}
		}
	}
	for i := g.n(5); i > 0; i-- {
		p.Spec.Volumes = append(p.Spec.Volumes, g.volume(len(p.Spec.Volumes)))
	}
	if g.p(0.05) {
		p.Spec.Volumes = []corev1.Volume{}
	}
	if g.p(0.35) {
		r := &corev1.ResourceRequirements{}
		switch g.n(5) {
		case 0: // empty
		case 1:
			r.Requests = g.list()
		case 2:
			r.Limits = g.list()
		default:
			r.Requests, r.Limits = g.list(), g.list()
		}
		p.Spec.Resources = r
	}
	if g.p(0.15) {
		p.Spec.Overhead = g.list()
	}
	p.Spec.HostNetwork = g.p(0.2)
	if g.p(0.3) {
		p.Spec.TerminationGracePeriodSeconds = ptr(pick(g, int64(-3), int64(0), int64(10)))
	}
	if g.p(0.3) {
		p.Spec.ServiceAccountName = "sa"
	}
	if g.p(0.3) {
		p.Spec.DeprecatedServiceAccount = pick(g, "sa", "old")
	}
	if g.p(0.2) {
		p.Spec.DNSPolicy = corev1.DNSDefault
	}
	if g.p(0.2) {
		p.Spec.RestartPolicy = pick(g, corev1.RestartPolicyNever, corev1.RestartPolicyOnFailure)
	}
	if g.p(0.1) {
		p.Spec.SchedulerName = "other"
	}
	if g.p(0.2) {
		p.Spec.EnableServiceLinks = ptr(false)
	}
	if g.p(0.4) {
		p.Spec.SecurityContext = g.podSecurityContext()
	}
	if g.p(0.1) {
		p.Spec.OS = &corev1.PodOS{Name: pick(g, corev1.Windows, corev1.Linux)}
	}
	if g.p(0.15) {
		p.Spec.SchedulingGates = []corev1.PodSchedulingGate{{Name: "example.com/gate"}}
	}
	if g.p(0.2) {
		term := func() corev1.PodAffinityTerm {
			t := corev1.PodAffinityTerm{TopologyKey: "zone", MatchLabelKeys: []string{"rev", "missing"}}
			if g.p(0.5) {
				t.MismatchLabelKeys = []string{"tier"}
			}
			if g.p(0.8) {
				t.LabelSelector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
			}
			return t
		}
		p.Spec.Affinity = &corev1.Affinity{
			PodAffinity: &corev1.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{term()}},
			PodAntiAffinity: &corev1.PodAntiAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{
				{Weight: 10, PodAffinityTerm: term()}}},
		}
	}
	if g.p(0.2) {
		c := corev1.TopologySpreadConstraint{MaxSkew: 1, TopologyKey: "zone", WhenUnsatisfiable: corev1.DoNotSchedule, MatchLabelKeys: []string{"rev"}}
		if g.p(0.8) {
			c.LabelSelector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
		}
		if g.p(0.3) {
			c.NodeTaintsPolicy = ptr(corev1.NodeInclusionPolicyHonor)
		}
		p.Spec.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{c}
	}
	if g.p(0.05) {
		p.Spec.HostUsers = ptr(false)
	}
	if g.p(0.05) {
		p.Spec.HostnameOverride = ptr("h")
	}
	if g.p(0.05) {
		p.Spec.SchedulingGroup = &corev1.PodSchedulingGroup{PodGroupName: ptr("g")}
	}
	if g.p(0.05) {
		p.Spec.EvictionResponders = []corev1.EvictionResponder{{Name: "r"}}
	}
	if g.p(0.05) {
		p.Spec.ResourceClaims = []corev1.PodResourceClaim{{Name: "claim", ResourceClaimName: ptr("rc")}}
	}
	g.specFields(p)
	g.fill(p)
	if g.p(0.3) {
		p.Status = corev1.PodStatus{Phase: corev1.PodRunning, PodIP: "10.0.0.1", QOSClass: corev1.PodQOSGuaranteed,
			Conditions: []corev1.PodCondition{{Type: corev1.PodScheduled, Status: corev1.ConditionTrue}}}
	}
	return p
}

func copyMap(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
