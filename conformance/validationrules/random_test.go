package validationrules

import (
	"math/rand"
	"strconv"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/podlife/podlife/conformance/internal/upstreamcreate"
	"github.com/podlife/podlife/validation"
)

// randomPod builds a pod that exercises the pod-level areas podlife validates beyond
// the container core (volumes and their sources, affinity, topology spread, DNS,
// host aliases, resource claims, pod security context), each field drawn from a
// small pool of valid and invalid values.
type rgen struct{ r *rand.Rand }

func (g rgen) pick(s ...string) string { return s[g.r.Intn(len(s))] }
func (g rgen) maybe() bool             { return g.r.Intn(2) == 0 }
func (g rgen) i32(s ...int32) *int32   { v := s[g.r.Intn(len(s))]; return &v }
func (g rgen) i64(s ...int64) *int64   { v := s[g.r.Intn(len(s))]; return &v }

func (g rgen) labelKey() string {
	return g.pick("app", "zone", "example.com/tier", "bad key!", "", "Bad_Key")
}
func (g rgen) labelValue() string { return g.pick("web", "a", "", "bad value!", "-x") }
func (g rgen) path() string       { return g.pick("a", "a/b", "/abs", "..", "..x", "a/../b", "", "x") }

func (g rgen) selector() *metav1.LabelSelector {
	if g.r.Intn(4) == 0 {
		return nil
	}
	s := &metav1.LabelSelector{}
	if g.maybe() {
		s.MatchLabels = map[string]string{g.labelKey(): g.labelValue()}
	}
	if g.maybe() {
		s.MatchExpressions = []metav1.LabelSelectorRequirement{{Key: g.labelKey(), Operator: metav1.LabelSelectorOperator(g.pick("In", "NotIn", "Exists", "Maybe")), Values: g.values()}}
	}
	return s
}

func (g rgen) values() []string {
	switch g.r.Intn(3) {
	case 0:
		return nil
	case 1:
		return []string{g.labelValue()}
	}
	return []string{g.labelValue(), g.labelValue()}
}

func (g rgen) items() []v1.KeyToPath {
	var out []v1.KeyToPath
	for i := g.r.Intn(3); i > 0; i-- {
		kp := v1.KeyToPath{Key: g.pick("k", ""), Path: g.path()}
		if g.maybe() {
			kp.Mode = g.i32(0400, 01000, -1)
		}
		out = append(out, kp)
	}
	return out
}

func (g rgen) dapiFile() v1.DownwardAPIVolumeFile {
	f := v1.DownwardAPIVolumeFile{Path: g.path()}
	switch g.r.Intn(4) {
	case 0:
		f.FieldRef = &v1.ObjectFieldSelector{FieldPath: g.pick("metadata.name", "metadata.labels", "spec.nodeName", "metadata.labels['app']")}
	case 1:
		f.ResourceFieldRef = &v1.ResourceFieldSelector{ContainerName: g.pick("c", ""), Resource: g.pick("limits.cpu", "requests.memory", "limits.gpu")}
	case 2:
		f.FieldRef = &v1.ObjectFieldSelector{FieldPath: "metadata.uid"}
		f.ResourceFieldRef = &v1.ResourceFieldSelector{ContainerName: "c", Resource: "limits.cpu"}
	}
	return f
}

func (g rgen) volumeSource() v1.VolumeSource {
	var s v1.VolumeSource
	for n := 1 + g.r.Intn(2); n > 0; n-- {
		switch g.r.Intn(8) {
		case 0:
			s.EmptyDir = &v1.EmptyDirVolumeSource{}
			if g.maybe() {
				q := resource.MustParse(g.pick("1Gi", "-1"))
				s.EmptyDir.SizeLimit = &q
			}
		case 1:
			s.HostPath = &v1.HostPathVolumeSource{Path: g.pick("/var/log", "", "/a/../b")}
			if g.maybe() {
				t := v1.HostPathType(g.pick("Directory", "Pipe", ""))
				s.HostPath.Type = &t
			}
		case 2:
			s.Secret = &v1.SecretVolumeSource{SecretName: g.pick("s", ""), Items: g.items()}
			if g.maybe() {
				s.Secret.DefaultMode = g.i32(0644, 01000)
			}
		case 3:
			s.ConfigMap = &v1.ConfigMapVolumeSource{LocalObjectReference: v1.LocalObjectReference{Name: g.pick("cm", "")}, Items: g.items()}
		case 4:
			s.PersistentVolumeClaim = &v1.PersistentVolumeClaimVolumeSource{ClaimName: g.pick("claim", "")}
		case 5:
			s.DownwardAPI = &v1.DownwardAPIVolumeSource{}
			for i := g.r.Intn(3); i > 0; i-- {
				s.DownwardAPI.Items = append(s.DownwardAPI.Items, g.dapiFile())
			}
		case 6:
			p := &v1.ProjectedVolumeSource{}
			for i := 1 + g.r.Intn(3); i > 0; i-- {
				var src v1.VolumeProjection
				switch g.r.Intn(4) {
				case 0:
					src.ServiceAccountToken = &v1.ServiceAccountTokenProjection{Path: g.path(), ExpirationSeconds: g.i64(3600, 60, 1<<33)}
				case 1:
					src.ConfigMap = &v1.ConfigMapProjection{LocalObjectReference: v1.LocalObjectReference{Name: g.pick("cm", "")}, Items: g.items()}
				case 2:
					src.Secret = &v1.SecretProjection{LocalObjectReference: v1.LocalObjectReference{Name: "s"}, Items: g.items()}
					if g.maybe() {
						src.ConfigMap = &v1.ConfigMapProjection{LocalObjectReference: v1.LocalObjectReference{Name: "cm"}}
					}
				case 3:
					src.DownwardAPI = &v1.DownwardAPIProjection{Items: []v1.DownwardAPIVolumeFile{g.dapiFile()}}
				}
				p.Sources = append(p.Sources, src)
			}
			s.Projected = p
		case 7:
			s.CSI = &v1.CSIVolumeSource{Driver: "csi.example.com"}
		}
	}
	return s
}

func (g rgen) pod(n int) *v1.Pod {
	p := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "pod-" + strconv.Itoa(n), Namespace: "ns", Labels: map[string]string{"app": "web"}},
		Spec:       v1.PodSpec{Containers: []v1.Container{{Name: "c", Image: "img"}}},
	}
	if g.maybe() {
		p.Spec.ServiceAccountName = "sa"
	}
	for i := g.r.Intn(4); i > 0; i-- {
		name := g.pick("v1", "v2", "v3", "Bad")
		p.Spec.Volumes = append(p.Spec.Volumes, v1.Volume{Name: name, VolumeSource: g.volumeSource()})
		if g.maybe() {
			p.Spec.Containers[0].VolumeMounts = append(p.Spec.Containers[0].VolumeMounts, v1.VolumeMount{Name: name, MountPath: "/m/" + strconv.Itoa(i)})
		}
	}
	if g.r.Intn(3) == 0 {
		a := &v1.Affinity{}
		if g.maybe() {
			term := v1.NodeSelectorTerm{MatchExpressions: []v1.NodeSelectorRequirement{{Key: g.labelKey(), Operator: v1.NodeSelectorOperator(g.pick("In", "Exists", "Gt", "Near")), Values: g.values()}}}
			if g.maybe() {
				term.MatchFields = []v1.NodeSelectorRequirement{{Key: g.pick("metadata.name", "spec.nodeName"), Operator: v1.NodeSelectorOperator(g.pick("In", "Exists")), Values: []string{g.pick("node-1", "Bad_Node")}}}
			}
			a.NodeAffinity = &v1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &v1.NodeSelector{NodeSelectorTerms: []v1.NodeSelectorTerm{term}}}
			if g.maybe() {
				a.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution = []v1.PreferredSchedulingTerm{{Weight: *g.i32(1, 0, 101), Preference: term}}
			}
		}
		if g.maybe() {
			term := v1.PodAffinityTerm{LabelSelector: g.selector(), TopologyKey: g.pick("zone", "", "bad key!")}
			if g.maybe() {
				term.MatchLabelKeys = []string{g.pick("app", "pod-template-hash", "bad key!")}
			}
			if g.maybe() {
				term.MismatchLabelKeys = []string{g.pick("app", "tier")}
			}
			if g.maybe() {
				term.Namespaces = []string{g.pick("ns", "Bad_NS")}
			}
			if g.maybe() {
				a.PodAntiAffinity = &v1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []v1.PodAffinityTerm{term}}
			} else {
				a.PodAffinity = &v1.PodAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []v1.WeightedPodAffinityTerm{{Weight: *g.i32(1, 0, 101), PodAffinityTerm: term}}}
			}
		}
		p.Spec.Affinity = a
	}
	for i := g.r.Intn(3); i > 0; i-- {
		c := v1.TopologySpreadConstraint{
			MaxSkew: *g.i32(1, 0), TopologyKey: g.pick("zone", "", "rack"),
			WhenUnsatisfiable: v1.UnsatisfiableConstraintAction(g.pick("DoNotSchedule", "ScheduleAnyway", "Sometimes")),
			LabelSelector:     g.selector(),
		}
		if g.maybe() {
			c.MinDomains = g.i32(1, 0, 3)
		}
		if g.maybe() {
			c.MatchLabelKeys = []string{g.pick("app", "pod-template-hash", "Bad Key")}
		}
		if g.maybe() {
			pol := v1.NodeInclusionPolicy(g.pick("Honor", "Ignore", "Maybe"))
			c.NodeTaintsPolicy = &pol
		}
		p.Spec.TopologySpreadConstraints = append(p.Spec.TopologySpreadConstraints, c)
	}
	if g.r.Intn(4) == 0 {
		p.Spec.DNSPolicy = v1.DNSPolicy(g.pick("None", "ClusterFirst"))
		if g.maybe() {
			p.Spec.DNSConfig = &v1.PodDNSConfig{Nameservers: []string{g.pick("1.1.1.1", "x")}, Searches: []string{g.pick("a.b", "Bad!", ".")}}
		}
	}
	if g.r.Intn(5) == 0 {
		p.Spec.HostAliases = []v1.HostAlias{{IP: g.pick("10.0.0.1", "x"), Hostnames: []string{g.pick("db", "Bad_Host")}}}
	}
	if g.r.Intn(5) == 0 {
		p.Spec.ResourceClaims = []v1.PodResourceClaim{{Name: g.pick("a", "", "Bad"), ResourceClaimName: &[]string{g.pick("claim", "Bad_C")}[0]}}
		if g.maybe() {
			p.Spec.Containers[0].Resources.Claims = []v1.ResourceClaim{{Name: g.pick("a", "b")}}
		}
	}
	if g.r.Intn(4) == 0 {
		sc := &v1.PodSecurityContext{RunAsUser: g.i64(1000, -1), FSGroup: g.i64(1, -1)}
		if g.maybe() {
			sc.Sysctls = []v1.Sysctl{{Name: g.pick("net.core.somaxconn", "kernel.shm_rmid_forced", "Bad")}}
			p.Spec.HostNetwork = g.maybe()
		}
		if g.maybe() {
			p.Spec.OS = &v1.PodOS{Name: v1.OSName(g.pick("linux", "windows"))}
		}
		p.Spec.SecurityContext = sc
	}
	return p
}

// TestRandomPodLevelMatchesUpstream compares podlife and upstream on random pods
// (PODLIFE_SEED overrides the seed, PODLIFE_N raises the count) and asserts the run's
// coverage: the inputs, a share of invalid ones, and every area with errors.
func TestRandomPodLevelMatchesUpstream(t *testing.T) {
	seed := upstreamcreate.Seed(t, 20261130)
	n := upstreamcreate.Count(t, 10000)
	g := rgen{rand.New(rand.NewSource(seed))}
	invalid, disagree := 0, 0
	areas := map[string]int{}
	for i := 0; i < n; i++ {
		pod := g.pod(i)
		theirs := upstreamCreate(t, pod)
		ours := validation.ValidatePodCreate(pod, validation.Options{})
		if len(theirs) > 0 {
			invalid++
		}
		for _, e := range theirs {
			for _, a := range randomAreas {
				if strings.HasPrefix(e.Field, a) {
					areas[a]++
				}
			}
		}
		if msg := compareDetailed(ours, theirs); msg != "" {
			disagree++
			if disagree <= 3 {
				y, _ := yaml.Marshal(pod)
				t.Errorf("seed %d, pod %d disagrees:\n%s\n--- pod:\n%s", seed, i, msg, y)
			}
		}
	}
	t.Logf("seed %d: %d pods (%d invalid upstream), errors by area %v, %d disagreeing", seed, n, invalid, areas, disagree)
	if share := float64(invalid) / float64(n); share < 0.5 || share > 0.98 {
		t.Errorf("%.2f of the pods are invalid upstream, want 0.5 to 0.98", share)
	}
	for _, a := range randomAreas {
		if areas[a] < 10 {
			t.Errorf("upstream reported %d errors under %s, want at least 10", areas[a], a)
		}
	}
	if disagree > 0 {
		t.Fail()
	}
}

// randomAreas are the field paths the random pods put faults under.
var randomAreas = []string{
	"spec.volumes", "spec.containers[0].volumeMounts", "spec.affinity.nodeAffinity", "spec.affinity.podAffinity",
	"spec.affinity.podAntiAffinity", "spec.topologySpreadConstraints", "spec.dnsConfig", "spec.hostAliases",
	"spec.resourceClaims", "spec.securityContext",
}
