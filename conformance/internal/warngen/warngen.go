// Package warngen changes generated pods and templates so that the API server warns
// about them on create (k8s.io/kubernetes pkg/api/pod/warnings.go and the registry
// strategies' WarningsOnCreate), and sorts the warnings into families, so that the
// differential tests can say which warnings they reached.
package warngen

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/podlife/podlife/conformance/internal/runenv"
)

// Families are the kinds of warning, each told by a piece of its text, in the order
// Family tries them.
var Families = []struct{ Name, Marker string }{
	{"owner-references", "ownerReferences contains duplicate entries"},
	{"dns-label-name", "a DNS label is recommended"},
	{"node-selector-label", "nodeSelector["},
	{"affinity-label-key", "].key: "},
	{"claim-bytes", "volumeClaimTemplates["},
	{"fractional-bytes", "fractional byte value"},
	{"affinity-label-value", "is invalid, "},
	{"topology-key", "topologyKey: "},
	{"null-selector", "a null labelSelector"},
	{"critical-pod", "critical-pod"},
	{"sysctl-annotation", "sysctls"},
	{"seccomp-annotation", "non-functional in v1.27+"},
	{"apparmor-annotation", "deprecated since v1.30"},
	{"volume-plugin", "deprecated in v1."},
	{"overlapping-paths", "overlapping paths"},
	{"empty-projection", "has no sources provided"},
	{"duplicate-ip", "duplicate ip"},
	{"pull-secret", "imagePullSecrets["},
	{"env-hides", "hides previous definition"},
	{"host-ip-port", "hostIP set without hostPort"},
	{"port-duplicate", "duplicate port definition"},
	{"port-overlap", "overlapping port definition"},
	{"port-ambiguous", "dangerously ambiguous"},
	{"port-name", "duplicate port name"},
	{"grace-period", "terminationGracePeriodSeconds"},
	{"ip-form", "IP address"},
	{"ipv6-form", "RFC 5952"},
	{"revision-history", "revisionHistoryLimit"},
	{"indexed-job", "In Indexed Jobs"},
	{"cron-tz", "cannot use TZ or CRON_TZ"},
}

// Family names the family of a warning, "other" for none.
func Family(text string) string {
	for _, f := range Families {
		if strings.Contains(text, f.Marker) {
			return f.Name
		}
	}
	return "other"
}

// SortNodeSelectorRuns sorts each run of consecutive node selector warnings: upstream
// ranges over the selector map, in a random order.
func SortNodeSelectorRuns(warnings []string) []string {
	out := slices.Clone(warnings)
	for i := 0; i < len(out); {
		j := i
		for j < len(out) && strings.Contains(out[j], "nodeSelector[") {
			j++
		}
		if j > i {
			slices.Sort(out[i:j])
			i = j
			continue
		}
		i++
	}
	return out
}

var deprecatedNodeLabels = []string{
	"beta.kubernetes.io/arch", "beta.kubernetes.io/os", "failure-domain.beta.kubernetes.io/region",
	"failure-domain.beta.kubernetes.io/zone", "beta.kubernetes.io/instance-type", "app.kubernetes.io/created-by",
	"scheduler.alpha.kubernetes.io/preferAvoidPods", "node-role.kubernetes.io/master",
}

// Gen draws the changes.
type Gen struct{ r *rand.Rand }

// New returns a Gen drawing from seed.
func New(seed int64) *Gen { return &Gen{r: rand.New(rand.NewSource(seed))} }

func (g *Gen) chance(p float64) bool { return g.r.Float64() < p }

func pick[T any](g *Gen, items ...T) T { return items[g.r.Intn(len(items))] }

// Owners gives meta owner references, often one repeated.
func (g *Gen) Owners(meta *metav1.ObjectMeta) {
	ref := metav1.OwnerReference{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-1", UID: types.UID("uid-1")}
	meta.OwnerReferences = []metav1.OwnerReference{ref}
	switch g.r.Intn(4) {
	case 0:
		meta.OwnerReferences = append(meta.OwnerReferences, ref, ref)
	case 1:
		other := ref
		other.Name = "web-2" // the same UID, another owner: kept
		meta.OwnerReferences = append(meta.OwnerReferences, other)
	case 2:
		c := ref
		t := true
		c.Controller = &t
		meta.OwnerReferences = append(meta.OwnerReferences, c, ref, c)
	default:
		second := ref
		second.UID = "uid-2"
		meta.OwnerReferences = append(meta.OwnerReferences, second, second, ref)
	}
}

// Name returns a name that is or is not a DNS label.
func (g *Gen) Name(base string) string {
	if base == "" {
		return base
	}
	return pick(g, base, base+".v2", strings.ToUpper(base[:1])+base[1:], base)
}

// Pod changes a pod's or a template's spec and metadata so that the server warns,
// with 1 to 4 changes drawn from the families.
func (g *Gen) Pod(spec *corev1.PodSpec, meta *metav1.ObjectMeta) {
	for n := 1 + g.r.Intn(4); n > 0; n-- {
		changes[g.r.Intn(len(changes))](g, spec, meta)
	}
}

func annotate(meta *metav1.ObjectMeta, k, v string) {
	if meta.Annotations == nil {
		meta.Annotations = map[string]string{}
	}
	meta.Annotations[k] = v
}

func anyContainer(g *Gen, spec *corev1.PodSpec) *corev1.Container {
	if len(spec.InitContainers) > 0 && g.chance(0.3) {
		return &spec.InitContainers[g.r.Intn(len(spec.InitContainers))]
	}
	if len(spec.Containers) == 0 {
		spec.Containers = append(spec.Containers, corev1.Container{Name: "app", Image: "busybox", ImagePullPolicy: corev1.PullIfNotPresent, TerminationMessagePolicy: corev1.TerminationMessageReadFile})
	}
	return &spec.Containers[g.r.Intn(len(spec.Containers))]
}

func (g *Gen) labelKey() string {
	if g.chance(0.7) {
		return pick(g, deprecatedNodeLabels...)
	}
	return "kubernetes.io/os"
}

var changes = []func(g *Gen, spec *corev1.PodSpec, meta *metav1.ObjectMeta){
	func(g *Gen, spec *corev1.PodSpec, _ *metav1.ObjectMeta) { // node selector
		if spec.NodeSelector == nil {
			spec.NodeSelector = map[string]string{}
		}
		for n := 1 + g.r.Intn(3); n > 0; n-- {
			spec.NodeSelector[g.labelKey()] = "linux"
		}
	},
	func(g *Gen, spec *corev1.PodSpec, _ *metav1.ObjectMeta) { // node affinity
		if spec.Affinity == nil {
			spec.Affinity = &corev1.Affinity{}
		}
		expr := func() corev1.NodeSelectorRequirement {
			return corev1.NodeSelectorRequirement{Key: g.labelKey(), Operator: corev1.NodeSelectorOpIn,
				Values: []string{pick(g, "amd64", "not a label value", strings.Repeat("v", 64), "-bad", "ok")}}
		}
		na := &corev1.NodeAffinity{}
		if g.chance(0.5) {
			na.RequiredDuringSchedulingIgnoredDuringExecution = &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{
				{MatchExpressions: []corev1.NodeSelectorRequirement{expr(), expr()}}}}
		}
		if g.chance(0.7) {
			na.PreferredDuringSchedulingIgnoredDuringExecution = []corev1.PreferredSchedulingTerm{
				{Weight: 10, Preference: corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{expr()}}}}
		}
		spec.Affinity.NodeAffinity = na
	},
	func(g *Gen, spec *corev1.PodSpec, _ *metav1.ObjectMeta) { // topology spread
		c := corev1.TopologySpreadConstraint{MaxSkew: 1, TopologyKey: g.labelKey(), WhenUnsatisfiable: corev1.DoNotSchedule}
		if g.chance(0.5) {
			c.LabelSelector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
		}
		spec.TopologySpreadConstraints = append(spec.TopologySpreadConstraints, c)
	},
	func(g *Gen, spec *corev1.PodSpec, _ *metav1.ObjectMeta) { // pod (anti-)affinity
		if spec.Affinity == nil {
			spec.Affinity = &corev1.Affinity{}
		}
		term := corev1.PodAffinityTerm{TopologyKey: "kubernetes.io/hostname"}
		if g.chance(0.3) {
			term.LabelSelector = &metav1.LabelSelector{}
		}
		if g.chance(0.5) {
			spec.Affinity.PodAffinity = &corev1.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{term}}
		} else {
			spec.Affinity.PodAntiAffinity = &corev1.PodAntiAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{{Weight: 1, PodAffinityTerm: term}}}
		}
	},
	func(g *Gen, spec *corev1.PodSpec, meta *metav1.ObjectMeta) { // deprecated annotations
		annotate(meta, pick(g, "scheduler.alpha.kubernetes.io/critical-pod", "security.alpha.kubernetes.io/sysctls",
			"security.alpha.kubernetes.io/unsafe-sysctls", "example.com/other"), "")
	},
	func(g *Gen, spec *corev1.PodSpec, meta *metav1.ObjectMeta) { // seccomp annotations
		c := anyContainer(g, spec)
		if g.chance(0.5) {
			annotate(meta, corev1.SeccompPodAnnotationKey, "runtime/default")
		} else {
			annotate(meta, corev1.SeccompContainerAnnotationKeyPrefix+c.Name, "runtime/default")
		}
		if g.chance(0.4) {
			sp := &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeRuntimeDefault}
			if g.chance(0.5) {
				if spec.SecurityContext == nil {
					spec.SecurityContext = &corev1.PodSecurityContext{}
				}
				spec.SecurityContext.SeccompProfile = sp
			} else {
				if c.SecurityContext == nil {
					c.SecurityContext = &corev1.SecurityContext{}
				}
				c.SecurityContext.SeccompProfile = sp
			}
		}
	},
	func(g *Gen, spec *corev1.PodSpec, meta *metav1.ObjectMeta) { // AppArmor annotations
		c := anyContainer(g, spec)
		annotate(meta, corev1.DeprecatedAppArmorBetaContainerAnnotationKeyPrefix+c.Name,
			pick(g, "runtime/default", "unconfined", "localhost/profile", "localhost/", "localhost/ padded", "junk"))
		if g.chance(0.4) {
			if spec.SecurityContext == nil {
				spec.SecurityContext = &corev1.PodSecurityContext{}
			}
			spec.SecurityContext.AppArmorProfile = pick(g,
				&corev1.AppArmorProfile{Type: corev1.AppArmorProfileTypeRuntimeDefault},
				&corev1.AppArmorProfile{Type: corev1.AppArmorProfileTypeUnconfined})
		}
		if g.chance(0.2) {
			if c.SecurityContext == nil {
				c.SecurityContext = &corev1.SecurityContext{}
			}
			c.SecurityContext.AppArmorProfile = &corev1.AppArmorProfile{Type: corev1.AppArmorProfileTypeRuntimeDefault}
		}
		if g.chance(0.1) {
			spec.OS = &corev1.PodOS{Name: corev1.Windows}
		}
	},
	func(g *Gen, spec *corev1.PodSpec, _ *metav1.ObjectMeta) { // deprecated volume plugins
		v := corev1.Volume{Name: fmt.Sprintf("old-%d", len(spec.Volumes))}
		switch g.r.Intn(10) {
		case 0:
			v.GitRepo = &corev1.GitRepoVolumeSource{Repository: "https://example.com/repo.git"} //nolint:staticcheck
		case 1:
			v.Glusterfs = &corev1.GlusterfsVolumeSource{EndpointsName: "glusterfs", Path: "vol"} //nolint:staticcheck
		case 2:
			v.CephFS = &corev1.CephFSVolumeSource{Monitors: []string{"10.0.0.1:6789"}} //nolint:staticcheck
		case 3:
			v.RBD = &corev1.RBDVolumeSource{CephMonitors: []string{"10.0.0.1:6789"}, RBDImage: "img"} //nolint:staticcheck
		case 4:
			v.ScaleIO = &corev1.ScaleIOVolumeSource{Gateway: "gw", System: "sys", SecretRef: &corev1.LocalObjectReference{Name: "s"}} //nolint:staticcheck
		case 5:
			v.Quobyte = &corev1.QuobyteVolumeSource{Registry: "reg:7861", Volume: "vol"} //nolint:staticcheck
		case 6:
			v.Flocker = &corev1.FlockerVolumeSource{DatasetName: "ds"} //nolint:staticcheck
		case 7:
			v.StorageOS = &corev1.StorageOSVolumeSource{VolumeName: "vol"} //nolint:staticcheck
		case 8:
			v.PhotonPersistentDisk = &corev1.PhotonPersistentDiskVolumeSource{PdID: "pd"} //nolint:staticcheck
		default:
			claim := corev1.PersistentVolumeClaimSpec{AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce}}
			claim.Resources.Requests = corev1.ResourceList{corev1.ResourceStorage: resource.MustParse(pick(g, "1.1Gi", "1Gi", "500m"))}
			if g.chance(0.5) {
				claim.Resources.Limits = corev1.ResourceList{corev1.ResourceStorage: resource.MustParse(pick(g, "2.3Gi", "2Gi"))}
			}
			v.Ephemeral = &corev1.EphemeralVolumeSource{VolumeClaimTemplate: &corev1.PersistentVolumeClaimTemplate{Spec: claim}}
		}
		spec.Volumes = append(spec.Volumes, v)
	},
	func(g *Gen, spec *corev1.PodSpec, _ *metav1.ObjectMeta) { // overlapping volume paths
		paths := func() []corev1.KeyToPath {
			var items []corev1.KeyToPath
			for i, n := 0, 1+g.r.Intn(4); i < n; i++ {
				items = append(items, corev1.KeyToPath{Key: fmt.Sprintf("k%d", i), Path: pick(g, "config", "config/app.yaml", "config/", "data", "config/app.yaml/x", "other/config")})
			}
			return items
		}
		v := corev1.Volume{Name: fmt.Sprintf("files-%d", len(spec.Volumes))}
		switch g.r.Intn(4) {
		case 0:
			v.ConfigMap = &corev1.ConfigMapVolumeSource{LocalObjectReference: corev1.LocalObjectReference{Name: "cm"}, Items: paths()}
		case 1:
			v.Secret = &corev1.SecretVolumeSource{SecretName: "sec", Items: paths()}
		case 2:
			var files []corev1.DownwardAPIVolumeFile
			for _, p := range paths() {
				files = append(files, corev1.DownwardAPIVolumeFile{Path: p.Path, FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.name"}})
			}
			v.DownwardAPI = &corev1.DownwardAPIVolumeSource{Items: files}
		default:
			var sources []corev1.VolumeProjection
			for i, n := 0, 1+g.r.Intn(4); i < n; i++ {
				switch g.r.Intn(6) {
				case 0:
					sources = append(sources, corev1.VolumeProjection{ConfigMap: &corev1.ConfigMapProjection{LocalObjectReference: corev1.LocalObjectReference{Name: "cm"}, Items: paths()}})
				case 1:
					sources = append(sources, corev1.VolumeProjection{Secret: &corev1.SecretProjection{LocalObjectReference: corev1.LocalObjectReference{Name: "sec"}, Items: paths()}})
				case 2:
					sources = append(sources, corev1.VolumeProjection{ServiceAccountToken: &corev1.ServiceAccountTokenProjection{Path: pick(g, "token", "config", "config/token")}})
				case 3:
					name := "bundle"
					sources = append(sources, corev1.VolumeProjection{ClusterTrustBundle: &corev1.ClusterTrustBundleProjection{Name: &name, Path: pick(g, "ca.crt", "config")}})
				case 4:
					sources = append(sources, corev1.VolumeProjection{})
				default:
					var files []corev1.DownwardAPIVolumeFile
					for _, p := range paths() {
						files = append(files, corev1.DownwardAPIVolumeFile{Path: p.Path, FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.name"}})
					}
					sources = append(sources, corev1.VolumeProjection{DownwardAPI: &corev1.DownwardAPIProjection{Items: files}})
				}
			}
			v.Projected = &corev1.ProjectedVolumeSource{Sources: sources}
		}
		spec.Volumes = append(spec.Volumes, v)
	},
	func(g *Gen, spec *corev1.PodSpec, _ *metav1.ObjectMeta) { // host aliases
		for n := 1 + g.r.Intn(3); n > 0; n-- {
			spec.HostAliases = append(spec.HostAliases, corev1.HostAlias{IP: pick(g, "10.0.0.1", "010.0.0.1", "::ffff:10.0.0.1", "2001:DB8::1", "2001:db8::1"), Hostnames: []string{"db"}})
		}
	},
	func(g *Gen, spec *corev1.PodSpec, _ *metav1.ObjectMeta) { // DNS config
		spec.DNSPolicy = corev1.DNSNone
		spec.DNSConfig = &corev1.PodDNSConfig{Nameservers: []string{pick(g, "10.0.0.10", "010.0.0.10", "2001:DB8::10", "::ffff:10.0.0.10")}}
	},
	func(g *Gen, spec *corev1.PodSpec, _ *metav1.ObjectMeta) { // image pull secrets
		for n := 1 + g.r.Intn(3); n > 0; n-- {
			spec.ImagePullSecrets = append(spec.ImagePullSecrets, corev1.LocalObjectReference{Name: pick(g, "regcred", "regcred", "", "other")})
		}
	},
	func(g *Gen, spec *corev1.PodSpec, _ *metav1.ObjectMeta) { // fractional bytes
		c := anyContainer(g, spec)
		name := pick(g, corev1.ResourceMemory, corev1.ResourceEphemeralStorage)
		q := resource.MustParse(pick(g, "1.1Gi", "100m", "0.5", "1Gi"))
		list := &c.Resources.Requests
		if g.chance(0.5) {
			list = &c.Resources.Limits
		}
		if g.chance(0.15) {
			list = &spec.Overhead
		}
		if *list == nil {
			*list = corev1.ResourceList{}
		}
		(*list)[name] = q
	},
	func(g *Gen, spec *corev1.PodSpec, _ *metav1.ObjectMeta) { // repeated environment variables
		c := anyContainer(g, spec)
		name := pick(g, "JAVA_OPTS", "PATH")
		c.Env = append(c.Env, corev1.EnvVar{Name: name, Value: "-Xmx1g"})
		for n := 1 + g.r.Intn(2); n > 0; n-- {
			e := corev1.EnvVar{Name: name, Value: pick(g, "x", "$("+name+")", "$("+name+") -Xms1g", "")}
			if e.Value == "" {
				e.ValueFrom = &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.name"}}
			}
			c.Env = append(c.Env, e)
		}
	},
	func(g *Gen, spec *corev1.PodSpec, _ *metav1.ObjectMeta) { // ports
		for n := 2 + g.r.Intn(3); n > 0; n-- {
			c := anyContainer(g, spec)
			p := corev1.ContainerPort{ContainerPort: int32(pick(g, 80, 8080)), Protocol: corev1.ProtocolTCP}
			if g.chance(0.5) {
				p.HostPort = int32(pick(g, 80, 8080))
			}
			if g.chance(0.4) {
				p.HostIP = pick(g, "10.0.0.1", "10.0.0.2")
			}
			if g.chance(0.5) {
				p.Name = pick(g, "http", "metrics")
			}
			c.Ports = append(c.Ports, p)
		}
	},
	func(g *Gen, spec *corev1.PodSpec, _ *metav1.ObjectMeta) { // negative grace period
		v := int64(pick(g, -1, -30, 0))
		spec.TerminationGracePeriodSeconds = &v
	},
}

// Tally counts what a warnings comparison covered.
type Tally struct {
	Inputs, Invalid, Warned, Disagree int
	Families                          map[string]int
	// First is the first disagreement, for the report.
	First string
}

// Compare records one input: ours and upstream's warnings (theirs) for an object
// upstream refused or not (invalid), and whether they agree, node selector warnings
// compared in any order.
func (t *Tally) Compare(what string, ours, theirs []string, invalid bool) {
	t.Inputs++
	if invalid {
		t.Invalid++
	}
	if len(theirs) > 0 {
		t.Warned++
	}
	if t.Families == nil {
		t.Families = map[string]int{}
	}
	for _, w := range theirs {
		t.Families[Family(w)]++
	}
	if !slices.Equal(SortNodeSelectorRuns(ours), SortNodeSelectorRuns(theirs)) {
		t.Disagree++
		if t.First == "" {
			t.First = fmt.Sprintf("%s\n upstream %q\n podlife  %q", what, theirs, ours)
		}
	}
}

// TB is what Check needs of a test.
type TB interface {
	Helper()
	Errorf(string, ...any)
	Logf(string, ...any)
}

// Check fails unless no input disagreed and the run covered what it must: at least
// minInputs inputs, a share of refused objects between 5% and maxRefused (under a
// seed PODLIFE_SEED chooses, some refused and some not) and of warned ones of at
// least 20%, and no warning of an unknown family. It adds the run's
// families to union.
func (t *Tally) Check(tb TB, name string, minInputs int, maxRefused float64, union map[string]int) {
	tb.Helper()
	tb.Logf("%s: %d inputs, %d refused, %d warned; families %v", name, t.Inputs, t.Invalid, t.Warned, t.Families)
	if t.Disagree > 0 {
		tb.Errorf("%s: %d of %d disagree; first: %s", name, t.Disagree, t.Inputs, t.First)
	}
	if t.Inputs < minInputs {
		tb.Errorf("%s: %d inputs, want at least %d", name, t.Inputs, minInputs)
	}
	minRefused := 0.05
	if runenv.SeedChosen() {
		// Bounds set on the default seeds: another needs only some of each.
		minRefused, maxRefused = 1e-9, 1-1e-9
	}
	if r := float64(t.Invalid) / float64(max(t.Inputs, 1)); r < minRefused || r > maxRefused {
		tb.Errorf("%s: %.2f of the inputs refused, want %.2f-%.2f", name, r, minRefused, maxRefused)
	}
	if r := float64(t.Warned) / float64(max(t.Inputs, 1)); r < 0.2 {
		tb.Errorf("%s: %.2f of the inputs warned about, want at least 0.20", name, r)
	}
	if t.Families["other"] > 0 {
		tb.Errorf("%s: %d warnings of no known family", name, t.Families["other"])
	}
	for f, n := range t.Families {
		union[f] += n
	}
}

// CheckFamilies fails unless union counts at least minEach warnings of each of the
// families. Under a seed chosen with PODLIFE_SEED, whose draws the minimums were not
// set for, one warning of each family is enough (seed 77 drew 3 of a family the
// default seeds draw at least 5 of).
func CheckFamilies(tb TB, name string, union map[string]int, minEach int, families []string) {
	tb.Helper()
	minEach = runenv.Least(minEach)
	for _, f := range families {
		if union[f] < minEach {
			tb.Errorf("%s: %d warnings of family %s, want at least %d", name, union[f], f, minEach)
		}
	}
}

// PodFamilies are the families a pod can give; a template can also give a negative
// grace period's (a pod's is defaulted to 1).
func PodFamilies(template bool) []string {
	var out []string
	for _, f := range Families {
		switch f.Name {
		case "revision-history", "claim-bytes", "indexed-job", "cron-tz":
			continue
		case "grace-period":
			if !template {
				continue
			}
		}
		out = append(out, f.Name)
	}
	return out
}
