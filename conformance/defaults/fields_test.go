package defaults

import (
	"reflect"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podlife/podlife/conformance/internal/fieldfill"
)

// podSpecLeaves are the leaves of every field of the v1.37.2 PodSpec (fieldfill.Paths).
var podSpecLeaves = fieldfill.Paths(reflect.TypeOf(corev1.PodSpec{}))

// fillLeaves is how many leaves the round-robin filler sets in a filled pod; fillShare
// the share of pods filled. With 848 leaves, every leaf is set once per 141 filled
// pods, whatever the seed.
const (
	fillLeaves = 12
	fillShare  = 0.5
)

// enumPools give the filler values the API defines for the string leaves whose values
// defaulting or the strategy may read, by the leaf's last path element.
var enumPools = map[string][]string{
	"image":                    images,
	"reference":                images,
	"imagePullPolicy":          {"Always", "Never", "IfNotPresent"},
	"pullPolicy":               {"Always", "Never", "IfNotPresent"},
	"protocol":                 {"TCP", "UDP", "SCTP"},
	"restartPolicy":            {"Always", "OnFailure", "Never"},
	"dnsPolicy":                {"ClusterFirst", "ClusterFirstWithHostNet", "Default", "None"},
	"terminationMessagePolicy": {"File", "FallbackToLogsOnError"},
	"preemptionPolicy":         {"PreemptLowerPriority", "Never"},
	"type":                     {"RuntimeDefault", "Localhost", "Unconfined", "Directory", "DirectoryOrCreate", "File", "Socket"},
	"operator":                 {"In", "NotIn", "Exists", "DoesNotExist", "Equal", "Gt", "Lt"},
	"fieldPath":                {"metadata.name", "metadata.labels", "metadata.annotations['a']", "spec.nodeName", "status.podIP"},
	"resource":                 {"limits.cpu", "requests.memory", "limits.ephemeral-storage"},
	"divisor":                  nil,
	"procMount":                {"Default", "Unmasked"},
	"recursiveReadOnly":        {"Disabled", "IfPossible", "Enabled"},
	"mountPropagation":         {"None", "HostToContainer", "Bidirectional"},
	"fsGroupChangePolicy":      {"OnRootMismatch", "Always"},
	"supplementalGroupsPolicy": {"Merge", "Strict"},
	"seLinuxChangePolicy":      {"Recursive", "MountOption"},
	"scheme":                   {"HTTP", "HTTPS"},
	"mode":                     {"TLS", "Plaintext"},
	"stopSignal":               {"SIGTERM", "SIGKILL", "SIGUSR1"},
	"volumeMode":               {"Filesystem", "Block"},
	"accessModes[]":            {"ReadWriteOnce", "ReadOnlyMany", "ReadWriteMany", "ReadWriteOncePod"},
	"whenUnsatisfiable":        {"DoNotSchedule", "ScheduleAnyway"},
	"nodeAffinityPolicy":       {"Honor", "Ignore"},
	"nodeTaintsPolicy":         {"Honor", "Ignore"},
	"effect":                   {"NoSchedule", "PreferNoSchedule", "NoExecute"},
	"medium":                   {"Memory", "HugePages", "HugePages-2Mi"},
	"action":                   {"Restart", "RestartAllContainers"},
	"cachingMode":              {"None", "ReadOnly", "ReadWrite"},
	"kind":                     {"Shared", "Dedicated", "Managed"},
	"storageMode":              {"ThinProvisioned", "ThickProvisioned"},
	"resourceName":             {"cpu", "memory"},
	"keyType":                  {"RSA3072", "ECDSAP256", "ED25519"},
	"signerName":               {"example.com/signer"},
	"apiVersion":               {"v1"},
	"name":                     {"a", "web", "vol0", "vol1", "app0", "init0"},
}

// fillValues are the filler's values: enum pools where the API has them, plain words
// and small numbers elsewhere.
var fillValues = fieldfill.Random{
	Strings: func(path string, _ reflect.Type) []string {
		last := path[strings.LastIndex(path, ".")+1:]
		return enumPools[last]
	},
	Quantities: quantities,
}

// fill sets fillLeaves leaves of the spec, taken round-robin from every PodSpec leaf, in
// a fillShare of the pods.
func (g *gen) fill(p *corev1.Pod) {
	if !g.p(fillShare) {
		return
	}
	for _, leaf := range g.leaves.Take(fillLeaves) {
		fieldfill.Set(g.r, &p.Spec, leaf, fillValues)
	}
}

func (g *gen) optBool(prob float64) *bool {
	if !g.p(prob) {
		return nil
	}
	return ptr(g.p(0.5))
}

func (g *gen) optInt64(prob float64, vals ...int64) *int64 {
	if !g.p(prob) {
		return nil
	}
	return ptr(pick(g, vals...))
}

func (g *gen) seLinux() *corev1.SELinuxOptions {
	if !g.p(0.2) {
		return nil
	}
	return &corev1.SELinuxOptions{User: pick(g, "", "system_u"), Role: pick(g, "", "object_r"), Type: pick(g, "", "svirt_lxc_net_t"), Level: pick(g, "", "s0:c123,c456")}
}

func (g *gen) windows() *corev1.WindowsSecurityContextOptions {
	if !g.p(0.1) {
		return nil
	}
	w := &corev1.WindowsSecurityContextOptions{HostProcess: g.optBool(0.5)}
	if g.p(0.5) {
		w.RunAsUserName = ptr("ContainerUser")
	}
	if g.p(0.3) {
		w.GMSACredentialSpecName, w.GMSACredentialSpec = ptr("spec"), ptr("{}")
	}
	return w
}

func (g *gen) seccomp() *corev1.SeccompProfile {
	if !g.p(0.25) {
		return nil
	}
	s := &corev1.SeccompProfile{Type: pick(g, corev1.SeccompProfileTypeRuntimeDefault, corev1.SeccompProfileTypeUnconfined, corev1.SeccompProfileTypeLocalhost)}
	if s.Type == corev1.SeccompProfileTypeLocalhost || g.p(0.1) {
		s.LocalhostProfile = ptr("profiles/a.json")
	}
	return s
}

func (g *gen) appArmor() *corev1.AppArmorProfile {
	if !g.p(0.25) {
		return nil
	}
	a := &corev1.AppArmorProfile{Type: pick(g, corev1.AppArmorProfileTypeRuntimeDefault, corev1.AppArmorProfileTypeUnconfined, corev1.AppArmorProfileTypeLocalhost)}
	if a.Type == corev1.AppArmorProfileTypeLocalhost || g.p(0.1) {
		a.LocalhostProfile = ptr("prof")
	}
	return a
}

// podSecurityContext fills every field of the pod's security context, each in part of
// the pods.
func (g *gen) podSecurityContext() *corev1.PodSecurityContext {
	sc := &corev1.PodSecurityContext{
		SELinuxOptions: g.seLinux(),
		WindowsOptions: g.windows(),
		RunAsUser:      g.optInt64(0.4, 0, 1000, 65534),
		RunAsGroup:     g.optInt64(0.3, 0, 3000),
		RunAsNonRoot:   g.optBool(0.3),
		FSGroup:        g.optInt64(0.3, 2000),
		SeccompProfile: g.seccomp(),
		AppArmorProfile: pick(g, nil, nil, g.appArmor(), &corev1.AppArmorProfile{Type: corev1.AppArmorProfileTypeLocalhost, LocalhostProfile: ptr("prof")},
			&corev1.AppArmorProfile{Type: corev1.AppArmorProfileTypeUnconfined}),
	}
	if g.p(0.3) {
		sc.SupplementalGroups = []int64{1, 4000}
	}
	if g.p(0.3) {
		sc.SupplementalGroupsPolicy = ptr(pick(g, corev1.SupplementalGroupsPolicyStrict, corev1.SupplementalGroupsPolicyMerge))
	}
	if g.p(0.3) {
		sc.Sysctls = []corev1.Sysctl{{Name: "net.core.somaxconn", Value: "1024"}}
	}
	if g.p(0.3) {
		sc.FSGroupChangePolicy = ptr(pick(g, corev1.FSGroupChangeOnRootMismatch, corev1.FSGroupChangeAlways))
	}
	if g.p(0.3) {
		sc.SELinuxChangePolicy = ptr(pick(g, corev1.SELinuxChangePolicyMountOption, corev1.SELinuxChangePolicyRecursive))
	}
	return sc
}

// securityContext fills every field of a container's security context, each in part of
// the containers.
func (g *gen) securityContext() *corev1.SecurityContext {
	sc := &corev1.SecurityContext{
		Privileged:               g.optBool(0.2),
		SELinuxOptions:           g.seLinux(),
		WindowsOptions:           g.windows(),
		RunAsUser:                g.optInt64(0.3, 0, 1000),
		RunAsGroup:               g.optInt64(0.2, 0, 3000),
		RunAsNonRoot:             g.optBool(0.3),
		ReadOnlyRootFilesystem:   g.optBool(0.3),
		AllowPrivilegeEscalation: g.optBool(0.3),
		SeccompProfile:           g.seccomp(),
		AppArmorProfile:          g.appArmor(),
	}
	if g.p(0.3) {
		sc.Capabilities = &corev1.Capabilities{}
		if g.p(0.7) {
			sc.Capabilities.Add = []corev1.Capability{"NET_ADMIN"}
		}
		if g.p(0.7) {
			sc.Capabilities.Drop = []corev1.Capability{"ALL"}
		}
	}
	if g.p(0.2) {
		sc.ProcMount = ptr(pick(g, corev1.DefaultProcMount, corev1.UnmaskedProcMount))
	}
	return sc
}

// containerFields sets the container fields the base generator leaves alone.
func (g *gen) containerFields(c *corev1.Container) {
	if g.p(0.3) {
		c.SecurityContext = g.securityContext()
	}
	if g.p(0.1) {
		c.Stdin, c.StdinOnce, c.TTY = g.p(0.7), g.p(0.5), g.p(0.7)
	}
	if g.p(0.2) {
		c.Command, c.Args, c.WorkingDir = []string{"sh", "-c"}, []string{"echo $(A)"}, "/w"
	}
	if g.p(0.15) {
		e := corev1.EnvFromSource{Prefix: pick(g, "", "P_")}
		if g.p(0.5) {
			e.ConfigMapRef = &corev1.ConfigMapEnvSource{LocalObjectReference: corev1.LocalObjectReference{Name: "cm"}, Optional: g.optBool(0.5)}
		} else {
			e.SecretRef = &corev1.SecretEnvSource{LocalObjectReference: corev1.LocalObjectReference{Name: "s"}, Optional: g.optBool(0.5)}
		}
		c.EnvFrom = append(c.EnvFrom, e)
	}
	if g.p(0.15) {
		c.Env = append(c.Env, corev1.EnvVar{Name: "FILE", ValueFrom: &corev1.EnvVarSource{FileKeyRef: &corev1.FileKeySelector{
			VolumeName: "vol0", Path: "env", Key: "K", Optional: g.optBool(0.5)}}})
	}
	if g.p(0.1) {
		c.VolumeDevices = []corev1.VolumeDevice{{Name: "vol1", DevicePath: "/dev/x"}}
	}
	if g.p(0.1) && len(c.VolumeMounts) > 0 {
		m := &c.VolumeMounts[0]
		m.ReadOnly, m.SubPath, m.MountPropagation = g.p(0.5), "sub", ptr(pick(g, corev1.MountPropagationNone, corev1.MountPropagationHostToContainer))
		if g.p(0.3) {
			m.SubPath, m.SubPathExpr = "", "$(POD)"
		}
	}
	if g.p(0.1) {
		c.ResizePolicy = append(c.ResizePolicy, corev1.ContainerResizePolicy{ResourceName: corev1.ResourceMemory, RestartPolicy: corev1.RestartContainer})
	}
}

// specFields sets the pod-level fields the base generator leaves alone, each in part
// of the pods, with values the API accepts and some it refuses.
func (g *gen) specFields(p *corev1.Pod) {
	s := &p.Spec
	s.HostPID, s.HostIPC = g.p(0.1), g.p(0.1)
	s.ShareProcessNamespace = g.optBool(0.1)
	if g.p(0.1) {
		s.HostUsers = ptr(g.p(0.5))
	}
	if g.p(0.1) {
		s.RuntimeClassName = ptr(pick(g, "gvisor", "kata"))
	}
	if g.p(0.15) {
		s.Priority = ptr(pick(g, int32(0), int32(1000), int32(-5), int32(2000001000)))
	}
	if g.p(0.15) {
		s.PriorityClassName = pick(g, "high", "system-node-critical")
	}
	if g.p(0.1) {
		s.PreemptionPolicy = ptr(pick(g, corev1.PreemptNever, corev1.PreemptLowerPriority))
	}
	if g.p(0.1) {
		s.SchedulerName = pick(g, "other", "default-scheduler")
	}
	s.SetHostnameAsFQDN = g.optBool(0.1)
	if g.p(0.1) {
		s.HostnameOverride = ptr(pick(g, "h", "node-name.example"))
	}
	s.AutomountServiceAccountToken = g.optBool(0.15)
	if g.p(0.15) {
		s.EnableServiceLinks = ptr(g.p(0.5))
	}
	if g.p(0.1) {
		s.SchedulingGroup = &corev1.PodSchedulingGroup{}
		if g.p(0.8) {
			s.SchedulingGroup.PodGroupName = ptr(pick(g, "g", "group-1"))
		}
	}
	if g.p(0.1) {
		s.EvictionResponders = []corev1.EvictionResponder{{Name: "example.com/r", Priority: ptr(int32(10))}}
		if g.p(0.3) {
			s.EvictionResponders = append(s.EvictionResponders, corev1.EvictionResponder{Name: "example.com/s"})
		}
	}
	if g.p(0.1) {
		s.NodeName = "node-1"
	}
	if g.p(0.15) {
		s.NodeSelector = map[string]string{"kubernetes.io/os": "linux"}
	}
	if g.p(0.2) {
		t := corev1.Toleration{Key: "k", Operator: pick(g, corev1.TolerationOpEqual, corev1.TolerationOpExists, ""), Value: "v",
			Effect: pick(g, corev1.TaintEffectNoExecute, corev1.TaintEffectNoSchedule, "")}
		if g.p(0.5) {
			t.TolerationSeconds = ptr(int64(300))
		}
		s.Tolerations = append(s.Tolerations, t)
	}
	if g.p(0.1) {
		s.DNSPolicy = corev1.DNSNone
		s.DNSConfig = &corev1.PodDNSConfig{Nameservers: []string{"1.1.1.1"}, Searches: []string{"ns.svc"},
			Options: []corev1.PodDNSConfigOption{{Name: "ndots", Value: ptr("2")}}}
	}
	if g.p(0.1) {
		s.HostAliases = []corev1.HostAlias{{IP: "10.0.0.1", Hostnames: []string{"a.example"}}}
	}
	if g.p(0.1) {
		s.ReadinessGates = []corev1.PodReadinessGate{{ConditionType: "example.com/ready"}}
	}
	if g.p(0.1) {
		s.ActiveDeadlineSeconds = ptr(int64(600))
	}
	if g.p(0.1) {
		s.Hostname, s.Subdomain = "host", "sub"
	}
	if g.p(0.1) {
		s.ImagePullSecrets = []corev1.LocalObjectReference{{Name: "pull"}}
	}
	if g.p(0.1) {
		s.ResourceClaims = append(s.ResourceClaims, corev1.PodResourceClaim{Name: "tmpl", ResourceClaimTemplateName: ptr("t")})
	}
	if g.p(0.1) {
		s.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{
			NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "zone", Operator: corev1.NodeSelectorOpIn, Values: []string{"a"}}}}}}}}
	}
	if g.p(0.1) && len(s.Volumes) > 0 && len(s.Containers) > 0 {
		s.Containers[0].VolumeMounts = append(s.Containers[0].VolumeMounts, corev1.VolumeMount{Name: s.Volumes[0].Name, MountPath: "/img"})
	}
	if g.p(0.05) {
		s.Volumes = append(s.Volumes, corev1.Volume{Name: "img", VolumeSource: corev1.VolumeSource{Image: &corev1.ImageVolumeSource{}}})
	}
	if g.p(0.05) {
		s.Volumes = append(s.Volumes, corev1.Volume{Name: "tmpl", VolumeSource: corev1.VolumeSource{Ephemeral: &corev1.EphemeralVolumeSource{
			VolumeClaimTemplate: &corev1.PersistentVolumeClaimTemplate{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"a": "b"}}}}}})
	}
}
