package validation

import (
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// The rest of the pod: every PodSpec field, every volume source and projection the
// v1.37.2 API accepts, both security contexts in full, stdin/tty, env fileKeyRef —
// each with valid values (podBaseFields, on valid pods too) and invalid ones
// (extraFaults, added to the fault table).

func strp(s string) *string { return &s }

// podBaseFields sets pod-level fields to valid values, each now and then.
func (g *gen) podBaseFields(p *v1.Pod) {
	s := &p.Spec
	if g.chance(0.1) {
		s.HostPID = true
	}
	if g.chance(0.1) {
		s.HostIPC = true
	}
	if g.chance(0.1) && !s.HostPID {
		s.ShareProcessNamespace = ptrBool(g.chance(0.7))
	}
	if g.chance(0.1) {
		s.HostUsers = ptrBool(g.chance(0.5))
	}
	if g.chance(0.1) {
		s.RuntimeClassName = strp(g.pick("runc", "gvisor"))
	}
	if g.chance(0.1) {
		s.Priority = i32(int32(g.pick2(0, 1000, -5, 2000000000)))
	}
	if g.chance(0.1) {
		pp := v1.PreemptionPolicy(g.pick("PreemptLowerPriority", "Never"))
		s.PreemptionPolicy = &pp
	}
	if g.chance(0.1) {
		s.SchedulerName = g.pick("default-scheduler", "my-scheduler")
	}
	if g.chance(0.1) {
		s.SetHostnameAsFQDN = ptrBool(g.chance(0.5))
	}
	if g.chance(0.05) {
		s.HostnameOverride = strp(g.pick("web-0", "host.example.com"))
	}
	if g.chance(0.1) {
		s.AutomountServiceAccountToken = ptrBool(g.chance(0.5))
	}
	if g.chance(0.1) {
		s.EnableServiceLinks = ptrBool(g.chance(0.5))
	}
	if g.chance(0.1) {
		s.ServiceAccountName = "builder"
		if g.chance(0.5) {
			s.DeprecatedServiceAccount = "builder" //nolint:staticcheck // the field upstream keeps in sync
		}
	}
	if g.chance(0.1) {
		s.NodeSelector = map[string]string{"kubernetes.io/os": "linux"}
	}
	if g.chance(0.05) {
		s.ResourceClaims = []v1.PodResourceClaim{{Name: "gpu", ResourceClaimTemplateName: strp("gpu-template")}}
	}
	if g.chance(0.05) {
		s.SchedulingGroup = &v1.PodSchedulingGroup{PodGroupName: strp("group-a")}
	}
	if g.chance(0.05) {
		s.EvictionResponders = []v1.EvictionResponder{{Name: "example.com/drain", Priority: i32(5000)}}
	}
	if g.chance(0.1) {
		s.SecurityContext = g.podSecurityContext(false)
	}
	if g.chance(0.15) {
		s.Volumes = append(s.Volumes, v1.Volume{Name: "more-0", VolumeSource: g.inTreeSource(false)})
	}
	if g.chance(0.05) {
		s.Volumes = append(s.Volumes, v1.Volume{Name: "podinfo", VolumeSource: v1.VolumeSource{DownwardAPI: &v1.DownwardAPIVolumeSource{
			Items: []v1.DownwardAPIVolumeFile{{Path: "labels", FieldRef: &v1.ObjectFieldSelector{FieldPath: "metadata.labels"}}}}}})
	}
}

// podSecurityContext returns a pod security context with a few fields set, valid
// unless bad.
func (g *gen) podSecurityContext(bad bool) *v1.PodSecurityContext {
	sc := &v1.PodSecurityContext{}
	for i, n := 0, 1+g.r.Intn(3); i < n; i++ {
		switch g.r.Intn(12) {
		case 0:
			sc.SELinuxOptions = &v1.SELinuxOptions{User: "system_u", Role: "object_r", Type: g.pick("container_t", "spc_t"), Level: g.pick("s0:c1,c2", "s0")}
			if bad {
				sc.SELinuxOptions.Level = g.pick("bad level!", "s0:c1,c2")
			}
		case 1:
			sc.WindowsOptions = &v1.WindowsSecurityContextOptions{RunAsUserName: strp(g.pick("ContainerUser", "NT AUTHORITY\\SYSTEM"))}
			if bad {
				sc.WindowsOptions.RunAsUserName = strp(g.pick("", "a\"b", strings.Repeat("u", 300), "dom\\"))
				sc.WindowsOptions.GMSACredentialSpecName = strp(g.pick("spec", "Bad_Spec"))
				if g.chance(0.3) {
					sc.WindowsOptions.GMSACredentialSpec = strp("")
				}
			}
		case 2:
			sc.RunAsUser = i64(int64(g.pick2(1000, 0)))
			if bad {
				sc.RunAsUser = i64(int64(g.pick2(-1, 1<<40)))
			}
		case 3:
			sc.RunAsGroup = i64(int64(g.pick2(1000, 0)))
			if bad {
				sc.RunAsGroup = i64(-7)
			}
		case 4:
			sc.RunAsNonRoot = ptrBool(g.chance(0.5))
		case 5:
			sc.SupplementalGroups = []int64{1000, 2000}
			if bad {
				sc.SupplementalGroups = []int64{5, -1, 1 << 33}
			}
		case 6:
			pol := v1.SupplementalGroupsPolicy(g.pick("Merge", "Strict"))
			if bad {
				pol = v1.SupplementalGroupsPolicy(g.pick("Replace", ""))
			}
			sc.SupplementalGroupsPolicy = &pol
		case 7:
			sc.FSGroup = i64(int64(g.pick2(2000, 0)))
			if bad {
				sc.FSGroup = i64(-2)
			}
		case 8:
			sc.Sysctls = []v1.Sysctl{{Name: "net.core.somaxconn", Value: "1024"}}
			if bad {
				sc.Sysctls = append(sc.Sysctls, v1.Sysctl{Name: g.pick("net.core.somaxconn", "kernel.shm_rmid_forced", "bad sysctl", "kernel/msgmax", ""), Value: "1"})
			}
		case 9:
			pol := v1.PodFSGroupChangePolicy(g.pick("OnRootMismatch", "Always"))
			if bad {
				pol = "Sometimes"
			}
			sc.FSGroupChangePolicy = &pol
		case 10:
			sc.SeccompProfile = &v1.SeccompProfile{Type: v1.SeccompProfileType(g.pick("RuntimeDefault", "Unconfined"))}
			sc.AppArmorProfile = &v1.AppArmorProfile{Type: v1.AppArmorProfileType(g.pick("RuntimeDefault", "Unconfined"))}
			if bad {
				sc.SeccompProfile = &v1.SeccompProfile{Type: v1.SeccompProfileType(g.pick("Localhost", "Bogus")), LocalhostProfile: strp(g.pick("", "p.json", " x "))}
				sc.AppArmorProfile = &v1.AppArmorProfile{Type: v1.AppArmorProfileType(g.pick("Localhost", "Bogus")), LocalhostProfile: strp(g.pick("", "prof", " pad "))}
			}
		default:
			pol := v1.PodSELinuxChangePolicy(g.pick("Recursive", "MountOption"))
			if bad {
				pol = v1.PodSELinuxChangePolicy(g.pick("Never", ""))
			}
			sc.SELinuxChangePolicy = &pol
		}
	}
	return sc
}

// containerSecurityContext returns a container security context with a few fields
// set, valid unless bad.
func (g *gen) containerSecurityContext(bad bool) *v1.SecurityContext {
	sc := &v1.SecurityContext{}
	for i, n := 0, 1+g.r.Intn(3); i < n; i++ {
		switch g.r.Intn(12) {
		case 0:
			sc.Capabilities = &v1.Capabilities{Add: []v1.Capability{"NET_BIND_SERVICE"}, Drop: []v1.Capability{"ALL"}}
			if bad {
				sc.Capabilities.Add = append(sc.Capabilities.Add, "SYS_ADMIN", "CAP_SYS_ADMIN")
				sc.AllowPrivilegeEscalation = ptrBool(false)
			}
		case 1:
			sc.Privileged = ptrBool(bad || g.chance(0.2))
		case 2:
			sc.SELinuxOptions = &v1.SELinuxOptions{Level: g.pick("s0", "s0:c1,c2")}
			if bad {
				sc.SELinuxOptions.Level = "bad level!"
			}
		case 3:
			sc.WindowsOptions = &v1.WindowsSecurityContextOptions{HostProcess: ptrBool(bad), RunAsUserName: strp("ContainerUser")}
		case 4:
			sc.RunAsUser = i64(int64(g.pick2(1000, 0)))
			if bad {
				sc.RunAsUser = i64(-3)
			}
		case 5:
			sc.RunAsGroup = i64(int64(g.pick2(1000, 0)))
			if bad {
				sc.RunAsGroup = i64(1 << 40)
			}
		case 6:
			sc.RunAsNonRoot = ptrBool(g.chance(0.5))
		case 7:
			sc.ReadOnlyRootFilesystem = ptrBool(g.chance(0.5))
		case 8:
			sc.AllowPrivilegeEscalation = ptrBool(g.chance(0.5))
			if bad {
				sc.AllowPrivilegeEscalation = ptrBool(false)
				sc.Privileged = ptrBool(true)
			}
		case 9:
			pm := v1.ProcMountType(g.pick("Default", "Unmasked"))
			if bad {
				pm = "Bogus"
			}
			sc.ProcMount = &pm
		case 10:
			sc.SeccompProfile = &v1.SeccompProfile{Type: v1.SeccompProfileType(g.pick("RuntimeDefault", "Localhost"))}
			if sc.SeccompProfile.Type == v1.SeccompProfileTypeLocalhost {
				sc.SeccompProfile.LocalhostProfile = strp("profiles/a.json")
			}
			if bad {
				sc.SeccompProfile.LocalhostProfile = strp(g.pick("", "x"))
				sc.SeccompProfile.Type = v1.SeccompProfileType(g.pick("Unconfined", "Localhost"))
			}
		default:
			sc.AppArmorProfile = &v1.AppArmorProfile{Type: v1.AppArmorProfileType(g.pick("RuntimeDefault", "Unconfined"))}
			if bad {
				sc.AppArmorProfile = &v1.AppArmorProfile{Type: v1.AppArmorProfileType(g.pick("Localhost", "Bogus")), LocalhostProfile: strp(g.pick("", "p", "  "))}
			}
		}
	}
	return sc
}

// inTreeSource returns one of the in-tree sources (and the others the v1.37.2 API
// accepts beyond the base generator's), valid or not.
func (g *gen) inTreeSource(bad bool) v1.VolumeSource {
	var s v1.VolumeSource
	pick := func(good, wrong string) string {
		if bad && g.chance(0.6) {
			return wrong
		}
		return good
	}
	switch g.r.Intn(23) {
	case 0:
		s.GitRepo = &v1.GitRepoVolumeSource{Repository: pick("https://example.com/r.git", ""), Directory: pick("src", g.pick("/abs", "a/../b", ".."))} //nolint:staticcheck // deprecated, still accepted
	case 1:
		s.GCEPersistentDisk = &v1.GCEPersistentDiskVolumeSource{PDName: pick("disk", ""), Partition: int32(g.pick2(0, 1, 255, 256, -1))} //nolint:staticcheck
	case 2:
		s.AWSElasticBlockStore = &v1.AWSElasticBlockStoreVolumeSource{VolumeID: pick("vol-1", ""), Partition: int32(g.pick2(0, 3, 300, -2))} //nolint:staticcheck
	case 3:
		s.NFS = &v1.NFSVolumeSource{Server: pick("nfs.example.com", ""), Path: pick("/exports", g.pick("", "rel/path"))}
	case 4:
		s.ISCSI = &v1.ISCSIVolumeSource{
			TargetPortal: pick("10.0.0.1:3260", ""), IQN: pick("iqn.2015-02.com.example:storage", g.pick("", "bad", "iqn.x", "eui.0123", "naa.01")),
			Lun: int32(g.pick2(0, 7, 256, -1)), DiscoveryCHAPAuth: bad && g.chance(0.3),
		}
		if g.chance(0.4) {
			s.ISCSI.InitiatorName = strp(pick("iqn.2015-02.com.example:init", g.pick("x", "eui.ABCDEF0123456789", "iqn.bad", "naa.1")))
			if g.chance(0.3) {
				s.ISCSI.TargetPortal = strings.Repeat("p", 60)
			}
		}
	case 5:
		s.Glusterfs = &v1.GlusterfsVolumeSource{EndpointsName: pick("ep", ""), Path: pick("vol", "")} //nolint:staticcheck
	case 6:
		s.Flocker = &v1.FlockerVolumeSource{DatasetName: pick("ds", g.pick("", "a/b"))} //nolint:staticcheck
		if bad && g.chance(0.5) {
			s.Flocker.DatasetUUID = g.pick("uuid", "") //nolint:staticcheck
		}
	case 7:
		s.RBD = &v1.RBDVolumeSource{CephMonitors: []string{"10.0.0.2:6789"}, RBDImage: pick("img", "")} //nolint:staticcheck
		if bad && g.chance(0.5) {
			s.RBD.CephMonitors = nil //nolint:staticcheck
		}
	case 8:
		s.Cinder = &v1.CinderVolumeSource{VolumeID: pick("vol", "")} //nolint:staticcheck
		if g.chance(0.4) {
			s.Cinder.SecretRef = &v1.LocalObjectReference{Name: pick("sec", "")} //nolint:staticcheck
		}
	case 9:
		s.CephFS = &v1.CephFSVolumeSource{Monitors: []string{"10.0.0.3:6789"}} //nolint:staticcheck
		if bad {
			s.CephFS.Monitors = nil //nolint:staticcheck
		}
	case 10:
		s.Quobyte = &v1.QuobyteVolumeSource{Registry: pick("reg:7861", g.pick("", "reg", "a:1,b", "a:1,b:2")), Volume: pick("vol", "")} //nolint:staticcheck
		if bad && g.chance(0.3) {
			s.Quobyte.Tenant = strings.Repeat("t", 65) //nolint:staticcheck
		}
	case 11:
		s.FC = &v1.FCVolumeSource{TargetWWNs: []string{"500a0982991b8dc5"}, Lun: i32(int32(g.pick2(0, 2)))}
		if bad {
			switch g.r.Intn(4) {
			case 0:
				s.FC.TargetWWNs = nil
			case 1:
				s.FC.WWIDs = []string{"wwid"}
			case 2:
				s.FC.Lun = nil
			default:
				s.FC.Lun = i32(int32(g.pick2(-1, 256)))
			}
		}
	case 12:
		s.FlexVolume = &v1.FlexVolumeSource{Driver: pick("example.com/flex", ""), Options: map[string]string{"size": "1"}}
		if bad {
			s.FlexVolume.Options[g.pick("kubernetes.io/x", "a.k8s.io", "X.Kubernetes.IO/y", "fine.example.com/z")] = "v"
		}
	case 13:
		s.AzureFile = &v1.AzureFileVolumeSource{SecretName: pick("sec", ""), ShareName: pick("share", "")} //nolint:staticcheck
	case 14:
		s.VsphereVolume = &v1.VsphereVirtualDiskVolumeSource{VolumePath: pick("[ds] vm/disk.vmdk", "")} //nolint:staticcheck
	case 15:
		s.PhotonPersistentDisk = &v1.PhotonPersistentDiskVolumeSource{PdID: pick("pd", "")} //nolint:staticcheck
	case 16:
		s.PortworxVolume = &v1.PortworxVolumeSource{VolumeID: pick("px", "")} //nolint:staticcheck
	case 17:
		s.AzureDisk = &v1.AzureDiskVolumeSource{DiskName: pick("disk", ""), DataDiskURI: pick("https://acct.blob.core.windows.net/c/disk.vhd", g.pick("", "/subscriptions/x/disk", "http://x"))} //nolint:staticcheck
		if g.chance(0.5) {
			k := v1.AzureDataDiskKind(pick(g.pick("Shared", "Dedicated", "Managed"), g.pick("Bogus", "Managed")))
			s.AzureDisk.Kind = &k //nolint:staticcheck
		}
		if g.chance(0.4) {
			c := v1.AzureDataDiskCachingMode(pick("ReadOnly", "Sometimes"))
			s.AzureDisk.CachingMode = &c //nolint:staticcheck
		}
	case 18:
		s.StorageOS = &v1.StorageOSVolumeSource{VolumeName: pick("vol", g.pick("", "Bad_Vol")), VolumeNamespace: pick("", g.pick("Bad_NS", "ns"))} //nolint:staticcheck
		if g.chance(0.4) {
			s.StorageOS.SecretRef = &v1.LocalObjectReference{Name: pick("sec", "")} //nolint:staticcheck
		}
	case 19:
		s.ScaleIO = &v1.ScaleIOVolumeSource{Gateway: pick("gw", ""), System: pick("sys", ""), VolumeName: pick("vol", ""), SecretRef: &v1.LocalObjectReference{Name: "sec"}} //nolint:staticcheck
	case 20:
		s.CSI = &v1.CSIVolumeSource{Driver: pick("csi.example.com", g.pick("", "Bad_Driver!", strings.Repeat("d", 64)))}
		if g.chance(0.4) {
			s.CSI.NodePublishSecretRef = &v1.LocalObjectReference{Name: pick("sec", g.pick("", "Bad_Sec"))}
		}
	case 21:
		s.Image = &v1.ImageVolumeSource{Reference: pick("registry.example.com/data:v1", ""), PullPolicy: v1.PullPolicy(pick(g.pick("", "IfNotPresent", "Always"), "Sometimes"))}
	default:
		s.Ephemeral = g.ephemeralSource(bad)
	}
	return s
}

// ephemeralSource returns an ephemeral volume source, valid unless bad.
func (g *gen) ephemeralSource(bad bool) *v1.EphemeralVolumeSource {
	spec := v1.PersistentVolumeClaimSpec{
		AccessModes: []v1.PersistentVolumeAccessMode{v1.ReadWriteOnce},
		Resources:   v1.VolumeResourceRequirements{Requests: v1.ResourceList{v1.ResourceStorage: resource.MustParse("1Gi")}},
	}
	t := &v1.PersistentVolumeClaimTemplate{Spec: spec}
	if g.chance(0.3) {
		t.Labels = map[string]string{"app": "web"}
	}
	if g.chance(0.3) {
		t.Spec.StorageClassName = strp("fast")
	}
	if !bad {
		return &v1.EphemeralVolumeSource{VolumeClaimTemplate: t}
	}
	for i, n := 0, 1+g.r.Intn(3); i < n; i++ {
		switch g.r.Intn(14) {
		case 0:
			return &v1.EphemeralVolumeSource{}
		case 1:
			t.Name = g.pick("named", "x")
		case 2:
			t.Namespace = "ns"
			t.Finalizers = []string{}
		case 3:
			t.Labels = map[string]string{"bad key!": "v", "k": "bad value!"}
			t.Annotations = map[string]string{"bad key!": "v"}
		case 4:
			t.Spec.AccessModes = []v1.PersistentVolumeAccessMode{v1.PersistentVolumeAccessMode(g.pick("ReadWriteOncePod", "Bogus", "ReadOnlyMany")), v1.ReadWriteOnce}
		case 5:
			t.Spec.AccessModes = nil
		case 6:
			t.Spec.Resources.Requests = v1.ResourceList{v1.ResourceStorage: resource.MustParse(g.pick("0", "-1Gi"))}
		case 7:
			t.Spec.Resources.Requests = nil
		case 8:
			t.Spec.StorageClassName = strp("Bad_Class")
			t.Spec.VolumeAttributesClassName = strp(g.pick("Bad_VAC", "gold", ""))
		case 9:
			vm := v1.PersistentVolumeMode(g.pick("Bogus", "Block"))
			t.Spec.VolumeMode = &vm
		case 10:
			t.Spec.Selector = &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "k", Operator: metav1.LabelSelectorOperator(g.pick("In", "Near"))}}}
		case 11:
			t.Spec.DataSource = &v1.TypedLocalObjectReference{Name: g.pick("", "snap"), Kind: g.pick("", "VolumeSnapshot", "PersistentVolumeClaim"), APIGroup: g.pickPtr("", "snapshot.storage.k8s.io", "Bad_Group")}
		case 12:
			t.Spec.DataSourceRef = &v1.TypedObjectReference{Name: g.pick("", "src"), Kind: g.pick("PersistentVolumeClaim", "Populator"), APIGroup: g.pickPtr("", "example.com"), Namespace: g.pickPtr("", "other", "Bad_NS")}
			if g.chance(0.5) {
				t.Spec.DataSource = &v1.TypedLocalObjectReference{Name: "src", Kind: "PersistentVolumeClaim"}
			}
		default:
			t.Spec.VolumeName = "pv-1"
			t.CreationTimestamp = createdAt
		}
	}
	return &v1.EphemeralVolumeSource{VolumeClaimTemplate: t}
}

// pickPtr picks nil (for "") or a pointer to one of the values.
func (g *gen) pickPtr(items ...string) *string {
	s := g.pick(items...)
	if s == "" {
		return nil
	}
	return &s
}

// projection returns one projected volume source of any kind, valid or not.
func (g *gen) projection(bad bool) v1.VolumeProjection {
	var src v1.VolumeProjection
	pick := func(good, wrong string) string {
		if bad && g.chance(0.6) {
			return wrong
		}
		return good
	}
	switch g.r.Intn(6) {
	case 0:
		src.Secret = &v1.SecretProjection{LocalObjectReference: v1.LocalObjectReference{Name: pick("s", "")}, Items: []v1.KeyToPath{{Key: "k", Path: pick("s/key", g.pick("/abs", "..x", "dup"))}}}
	case 1:
		src.ConfigMap = &v1.ConfigMapProjection{LocalObjectReference: v1.LocalObjectReference{Name: pick("cm", "")}, Items: []v1.KeyToPath{{Key: pick("k", ""), Path: pick("cm/key", "dup")}}}
	case 2:
		src.DownwardAPI = &v1.DownwardAPIProjection{Items: []v1.DownwardAPIVolumeFile{{Path: pick("labels", "dup"), FieldRef: &v1.ObjectFieldSelector{FieldPath: pick("metadata.labels", "spec.nodeName")}}}}
	case 3:
		src.ServiceAccountToken = &v1.ServiceAccountTokenProjection{Path: pick("token", g.pick("", "../t")), ExpirationSeconds: i64(int64(g.pick2(3600, 60, 1<<33)))}
	case 4:
		c := &v1.ClusterTrustBundleProjection{Path: pick("ca.pem", g.pick("", "/abs", "dup"))}
		switch g.r.Intn(5) {
		case 0:
			c.Name = strp(pick("my-bundle", g.pick("", "Bad:Name", "example.com:signer:bundle", "example.com:x")))
			if bad && g.chance(0.3) {
				c.LabelSelector = &metav1.LabelSelector{MatchLabels: map[string]string{"a": "b"}}
			}
		case 1:
			c.SignerName = strp(pick("example.com/signer", g.pick("", "nodomain", "a/b/c", "Bad.Com/x", "example.com/Bad_Path", strings.Repeat("a", 260)+".com/x")))
			if g.chance(0.4) {
				c.LabelSelector = &metav1.LabelSelector{MatchLabels: map[string]string{"bundle": pick("a", "bad value!")}}
			}
		case 2:
			if bad {
				c.Name, c.SignerName = strp("n"), strp("example.com/s")
			} else {
				c.Name = strp("bundle")
			}
		case 3:
			if !bad {
				c.SignerName = strp("example.com/s")
			}
		default:
			c.Name = strp("bundle")
			if bad {
				c.User = i64(-1)
			}
		}
		src.ClusterTrustBundle = c
	default:
		c := &v1.PodCertificateProjection{
			SignerName: pick(g.pick("example.com/signer", "kubernetes.io/kube-apiserver-client-pod"), g.pick("", "bad", "a.b/c/d")),
			KeyType:    pick(g.pick("RSA3072", "ECDSAP256", "ED25519"), g.pick("", "DSA")),
		}
		switch g.r.Intn(3) {
		case 0:
			c.CredentialBundlePath = pick("creds.pem", g.pick("/abs", "dup"))
		case 1:
			c.KeyPath, c.CertificateChainPath = pick("key.pem", "..k"), pick("chain.pem", "key.pem")
		default:
			if !bad {
				c.KeyPath = "k.pem"
			}
		}
		if g.chance(0.4) {
			c.MaxExpirationSeconds = i32(7200)
			if bad && g.chance(0.6) {
				c.MaxExpirationSeconds = i32(int32(g.pick2(60, 100000, 9000000)))
			}
		}
		if g.chance(0.3) {
			c.UserAnnotations = map[string]string{pick("example.com/a", g.pick("noprefix", "Bad Key/x", "a/b/c")): "v"}
		}
		if bad && g.chance(0.2) {
			c.User = i64(1 << 40)
		}
		src.PodCertificate = c
	}
	return src
}

// extraFaults cover the fields the base fault table leaves out.
var extraFaults = []fault{
	{"pod.hostNamespaces", func(g *gen, p *v1.Pod) {
		p.Spec.HostPID = g.chance(0.7)
		p.Spec.HostIPC = g.chance(0.5)
		p.Spec.ShareProcessNamespace = ptrBool(g.chance(0.7))
		if g.chance(0.5) {
			p.Spec.HostUsers = ptrBool(false)
			p.Spec.HostNetwork = g.chance(0.5)
		}
	}},
	{"pod.names", func(g *gen, p *v1.Pod) {
		switch g.r.Intn(6) {
		case 0:
			p.Spec.RuntimeClassName = strp(g.pick("", "Bad_Class", strings.Repeat("r", 254)))
		case 1:
			p.Spec.SchedulerName = g.pick("", "Bad Scheduler", "my-scheduler")
		case 2:
			p.Spec.ServiceAccountName = g.pick("sa", "Bad_SA", "")
			p.Spec.DeprecatedServiceAccount = g.pick("sa", "other", "") //nolint:staticcheck
		case 3:
			p.Spec.HostnameOverride = strp(g.pick("", "Bad_Host", strings.Repeat("h", 70), "ok.example.com"))
			if g.chance(0.4) {
				p.Spec.SetHostnameAsFQDN = ptrBool(true)
			}
			p.Spec.HostNetwork = g.chance(0.3)
		case 4:
			p.Spec.SetHostnameAsFQDN = ptrBool(true)
			p.Spec.Hostname = g.pick("", "web", strings.Repeat("h", 60))
			p.Spec.Subdomain = g.pick("", "svc", strings.Repeat("s", 20))
		default:
			p.Spec.NodeSelector = map[string]string{g.pick("ok", "bad key!"): g.pick("v", "bad value!")}
		}
	}},
	{"pod.priority", func(g *gen, p *v1.Pod) {
		p.Spec.Priority = i32(int32(g.pick2(0, -1, 1000000001)))
		pp := v1.PreemptionPolicy(g.pick("", "Never", "Sometimes", "PreemptLowerPriority"))
		p.Spec.PreemptionPolicy = &pp
		p.Spec.PriorityClassName = g.pick("", "high", "Bad_Class")
	}},
	{"pod.serviceLinks", func(g *gen, p *v1.Pod) {
		p.Spec.AutomountServiceAccountToken = ptrBool(g.chance(0.5))
		p.Spec.EnableServiceLinks = ptrBool(g.chance(0.5))
	}},
	{"pod.schedulingGroup", func(g *gen, p *v1.Pod) {
		p.Spec.SchedulingGroup = &v1.PodSchedulingGroup{PodGroupName: g.pickPtr("", "group", "Bad_Group", strings.Repeat("g", 254))}
		if g.chance(0.3) {
			p.Spec.EvictionResponders = []v1.EvictionResponder{{Name: "example.com/r", Priority: i32(2000)}}
		}
	}},
	{"pod.evictionResponders", func(g *gen, p *v1.Pod) {
		n := g.r.Intn(4)
		if g.chance(0.1) {
			n = 11
		}
		for i := 0; i < n; i++ {
			r := v1.EvictionResponder{Name: g.pick("example.com/a", "example.com/b", "", "noprefix", "x.k8s.io/r", "Kubernetes.IO", "bad key!/x", "a.kubernetes.io./z"),
				Priority: i32(int32(g.pick2(1000, 5000, 999, 0, -1, 100001, 100000)))}
			if g.chance(0.1) {
				r.Priority = nil
			}
			p.Spec.EvictionResponders = append(p.Spec.EvictionResponders, r)
		}
	}},
	{"pod.securityContext.full", func(g *gen, p *v1.Pod) {
		p.Spec.SecurityContext = g.podSecurityContext(true)
		if g.chance(0.3) {
			p.Spec.OS = &v1.PodOS{Name: v1.OSName(g.pick("linux", "windows"))}
		}
		if g.chance(0.2) {
			p.Spec.HostNetwork, p.Spec.HostIPC = g.chance(0.5), g.chance(0.5)
		}
	}},
	{"container.securityContext.full", func(g *gen, p *v1.Pod) {
		g.anyContainer(p).SecurityContext = g.containerSecurityContext(g.chance(0.7))
		if g.chance(0.2) {
			p.Spec.HostUsers = ptrBool(false)
		}
		if g.chance(0.2) {
			p.Spec.OS = &v1.PodOS{Name: v1.OSName(g.pick("linux", "windows"))}
		}
	}},
	{"container.stdin", func(g *gen, p *v1.Pod) {
		c := g.anyContainer(p)
		c.Stdin = g.chance(0.6)
		c.StdinOnce = g.chance(0.5)
		c.TTY = g.chance(0.5)
	}},
	{"container.env.fileKeyRef", func(g *gen, p *v1.Pod) {
		c := g.anyContainer(p)
		vol := g.pick("files", "missing", "vol-0")
		if vol == "files" && g.chance(0.7) {
			p.Spec.Volumes = append(p.Spec.Volumes, v1.Volume{Name: "files", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}})
		}
		ref := &v1.FileKeySelector{VolumeName: vol, Path: g.pick("env/vars", "/abs", "", "../up", "a/../b"), Key: g.pick("KEY", "", "bad key=", "1X")}
		if g.chance(0.3) {
			ref.Optional = ptrBool(g.chance(0.5))
		}
		c.Env = append(c.Env, v1.EnvVar{Name: g.pick("FROM_FILE", "1bad"), ValueFrom: &v1.EnvVarSource{FileKeyRef: ref}})
		if g.chance(0.2) {
			c.Env[len(c.Env)-1].ValueFrom.SecretKeyRef = &v1.SecretKeySelector{Key: "k", LocalObjectReference: v1.LocalObjectReference{Name: "s"}}
		}
	}},
	{"pod.volumes.more", func(g *gen, p *v1.Pod) {
		bad := g.chance(0.7)
		vol := v1.Volume{Name: g.pick("more", "more-1", "Bad_Vol", strings.Repeat("v", 50)), VolumeSource: g.inTreeSource(bad)}
		if g.chance(0.1) {
			extra := g.inTreeSource(false)
			vol.CSI = extra.CSI
			vol.NFS = extra.NFS
		}
		p.Spec.Volumes = append(p.Spec.Volumes, vol)
		if g.chance(0.5) {
			c := g.anyContainer(p)
			if vol.Ephemeral != nil && g.chance(0.5) {
				c.VolumeDevices = append(c.VolumeDevices, v1.VolumeDevice{Name: vol.Name, DevicePath: "/dev/xvdb"})
			} else {
				c.VolumeMounts = append(c.VolumeMounts, v1.VolumeMount{Name: vol.Name, MountPath: "/more"})
			}
		}
		if vol.Ephemeral != nil && g.chance(0.3) {
			// A claim of the same name as the one the ephemeral volume creates.
			p.Spec.Volumes = append(p.Spec.Volumes, v1.Volume{Name: "claim", VolumeSource: v1.VolumeSource{PersistentVolumeClaim: &v1.PersistentVolumeClaimVolumeSource{ClaimName: p.Name + "-" + vol.Name}}})
		}
	}},
	{"pod.volumes.projected", func(g *gen, p *v1.Pod) {
		bad := g.chance(0.7)
		pr := &v1.ProjectedVolumeSource{}
		for i, n := 0, 1+g.r.Intn(3); i < n; i++ {
			pr.Sources = append(pr.Sources, g.projection(bad))
		}
		if bad && g.chance(0.2) {
			two := g.projection(false)
			pr.Sources[0].ConfigMap = &v1.ConfigMapProjection{LocalObjectReference: v1.LocalObjectReference{Name: "cm"}}
			pr.Sources = append(pr.Sources, two)
		}
		if g.chance(0.3) {
			pr.DefaultMode = i32(int32(g.pick2(0o644, 0o1000)))
		}
		p.Spec.Volumes = append(p.Spec.Volumes, v1.Volume{Name: g.pick("proj", "proj-2"), VolumeSource: v1.VolumeSource{Projected: pr}})
		if g.chance(0.5) {
			p.Spec.ServiceAccountName = "sa"
		}
	}},
	{"ephemeralContainers.full", func(g *gen, p *v1.Pod) {
		ec := v1.EphemeralContainer{EphemeralContainerCommon: v1.EphemeralContainerCommon{Name: g.pick("debugger", "app-0"), Image: "busybox"}, TargetContainerName: g.pick("", "app-0", "nope")}
		c := &ec.EphemeralContainerCommon
		if g.chance(0.5) {
			c.Command, c.Args, c.WorkingDir = []string{"sh"}, []string{"-c", "sleep 1"}, g.pick("/", "rel")
			c.ImagePullPolicy = v1.PullPolicy(g.pick("Always", "Never", "Bogus"))
		}
		for i, n := 0, 1+g.r.Intn(4); i < n; i++ {
			switch g.r.Intn(12) {
			case 9:
				c.Env = []v1.EnvVar{{Name: g.pick("DEBUG", "1bad"), Value: "1"}}
			case 10:
				c.RestartPolicyRules = []v1.ContainerRestartRule{{Action: v1.ContainerRestartRuleActionRestart,
					ExitCodes: &v1.ContainerRestartRuleOnExitCodes{Operator: v1.ContainerRestartRuleOnExitCodesOpIn, Values: []int32{1}}}}
			case 11:
				c.VolumeDevices = []v1.VolumeDevice{{Name: g.pick("vol-0", "more-0"), DevicePath: "/dev/xvdc"}}
			case 0:
				c.EnvFrom = []v1.EnvFromSource{{ConfigMapRef: &v1.ConfigMapEnvSource{LocalObjectReference: v1.LocalObjectReference{Name: g.pick("cm", "")}}}}
			case 1:
				c.ResizePolicy = []v1.ContainerResizePolicy{{ResourceName: v1.ResourceCPU, RestartPolicy: v1.NotRequired}}
			case 2:
				c.SecurityContext = g.containerSecurityContext(g.chance(0.5))
			case 3:
				c.StartupProbe = g.probe()
				c.LivenessProbe = g.probe()
			case 4:
				c.Stdin, c.StdinOnce, c.TTY = true, g.chance(0.5), g.chance(0.5)
			case 5:
				c.TerminationMessagePath = g.pick("/dev/termination-log", "")
				c.TerminationMessagePolicy = v1.TerminationMessagePolicy(g.pick("File", "Bogus"))
			case 6:
				c.Lifecycle = &v1.Lifecycle{PreStop: g.handler()}
				c.Resources.Requests = v1.ResourceList{v1.ResourceCPU: resource.MustParse("1")}
			case 7:
				c.VolumeMounts = []v1.VolumeMount{{Name: "vol-0", MountPath: "/x", SubPath: g.pick("", "sub")}}
			default:
				rp := v1.ContainerRestartPolicyAlways
				c.RestartPolicy = &rp
				c.Ports = []v1.ContainerPort{{ContainerPort: 80}}
			}
		}
		p.Spec.EphemeralContainers = append(p.Spec.EphemeralContainers, ec)
	}},
	{"pod.resourceClaims", func(g *gen, p *v1.Pod) {
		p.Spec.ResourceClaims = []v1.PodResourceClaim{{Name: g.pick("gpu", "", "Bad"), ResourceClaimName: g.pickPtr("", "claim", "Bad_C"), ResourceClaimTemplateName: g.pickPtr("", "tmpl")}}
		if g.chance(0.5) {
			g.anyContainer(p).Resources.Claims = []v1.ResourceClaim{{Name: g.pick("gpu", "other"), Request: g.pick("", "r1", "Bad Request")}}
		}
	}},
	{"metadata.uid", func(g *gen, p *v1.Pod) {
		p.UID = types.UID(g.pick("", "3f1c2a8e-0000-4000-8000-000000000001"))
	}},
}

// init adds extraFaults to the fault table three times over, so that their rarer
// branches (23 volume sources, 6 projections, both security contexts) are reached
// often enough to be asserted (see testdata/*_families.txt).
func init() {
	for i := 0; i < 3; i++ {
		podFaults = append(podFaults, extraFaults...)
	}
}
