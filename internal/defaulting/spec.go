package defaulting

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/podlife/podlife/internal/gates"
)

// defaultPodSpec mirrors the part of the generated SetObjectDefaults_Pod and
// SetObjectDefaults_PodTemplate (k8s.io/kubernetes pkg/apis/core/v1/zz_generated.defaults.go)
// that every embedded PodSpec gets: SetDefaults_PodSpec, the volume defaults, the
// per-container defaults for init, regular and ephemeral containers, and the milli
// rounding of spec.overhead and spec.resources.
func defaultPodSpec(spec *corev1.PodSpec, g *gates.Set) {
	defaultPodSpecSettled(spec, g, settledResources{})
}

// defaultPodSpecSettled is defaultPodSpec skipping the resource lists of the
// containers settled marks (which it leaves as they are anyway).
func defaultPodSpecSettled(spec *corev1.PodSpec, g *gates.Set, settled settledResources) {
	// SetDefaults_PodSpec.
	if spec.ServiceAccountName == "" {
		spec.ServiceAccountName = spec.DeprecatedServiceAccount
	}
	spec.DeprecatedServiceAccount = spec.ServiceAccountName
	if spec.DNSPolicy == "" {
		spec.DNSPolicy = corev1.DNSClusterFirst
	}
	if spec.RestartPolicy == "" {
		spec.RestartPolicy = corev1.RestartPolicyAlways
	}
	if spec.SecurityContext == nil {
		spec.SecurityContext = &corev1.PodSecurityContext{}
	}
	if spec.TerminationGracePeriodSeconds == nil {
		s := int64(corev1.DefaultTerminationGracePeriodSeconds)
		spec.TerminationGracePeriodSeconds = &s
	}
	if spec.SchedulerName == "" {
		spec.SchedulerName = corev1.DefaultSchedulerName
	}

	for i := range spec.Volumes {
		defaultVolume(&spec.Volumes[i], g)
	}
	var pulls pullPolicies
	for i := range spec.InitContainers {
		defaultContainer(&spec.InitContainers[i], &pulls, settledAt(settled.init, i))
	}
	for i := range spec.Containers {
		defaultContainer(&spec.Containers[i], &pulls, settledAt(settled.regular, i))
	}
	for i := range spec.EphemeralContainers {
		defaultContainer((*corev1.Container)(&spec.EphemeralContainers[i].EphemeralContainerCommon), &pulls, false)
	}
	roundResourceList(spec.Overhead)
	if spec.Resources != nil {
		roundResourceList(spec.Resources.Limits)
		roundResourceList(spec.Resources.Requests)
	}
}

// roundResourceList rounds every quantity up to milli precision in place
// (SetDefaults_ResourceList). A quantity that rounding leaves as it is (the common
// case: no finer than milli) is not stored back.
func roundResourceList(list corev1.ResourceList) {
	for name, q := range list {
		r := q
		r.RoundUp(-3)
		if r != q {
			list[name] = r
		}
	}
}

func defaultVolume(v *corev1.Volume, g *gates.Set) {
	src := &v.VolumeSource
	if *src == (corev1.VolumeSource{}) {
		src.EmptyDir = &corev1.EmptyDirVolumeSource{}
	}
	if src.Image != nil && src.Image.PullPolicy == "" && g.ImageVolume {
		src.Image.PullPolicy = pullPolicyFor(src.Image.Reference)
	}
	if src.HostPath != nil && src.HostPath.Type == nil {
		t := corev1.HostPathUnset
		src.HostPath.Type = &t
	}
	if src.Secret != nil && src.Secret.DefaultMode == nil {
		src.Secret.DefaultMode = int32Ptr(corev1.SecretVolumeSourceDefaultMode)
	}
	if src.ISCSI != nil && src.ISCSI.ISCSIInterface == "" {
		src.ISCSI.ISCSIInterface = "default"
	}
	if r := src.RBD; r != nil {
		if r.RBDPool == "" {
			r.RBDPool = "rbd"
		}
		if r.RadosUser == "" {
			r.RadosUser = "admin"
		}
		if r.Keyring == "" {
			r.Keyring = "/etc/ceph/keyring"
		}
	}
	if d := src.DownwardAPI; d != nil {
		if d.DefaultMode == nil {
			d.DefaultMode = int32Ptr(corev1.DownwardAPIVolumeSourceDefaultMode)
		}
		defaultDownwardAPIFiles(d.Items)
	}
	if src.ConfigMap != nil && src.ConfigMap.DefaultMode == nil {
		src.ConfigMap.DefaultMode = int32Ptr(corev1.ConfigMapVolumeSourceDefaultMode)
	}
	if a := src.AzureDisk; a != nil {
		if a.CachingMode == nil {
			m := corev1.AzureDataDiskCachingReadWrite
			a.CachingMode = &m
		}
		if a.FSType == nil {
			fs := "ext4"
			a.FSType = &fs
		}
		if a.ReadOnly == nil {
			ro := false
			a.ReadOnly = &ro
		}
		if a.Kind == nil {
			k := corev1.AzureSharedBlobDisk
			a.Kind = &k
		}
	}
	if p := src.Projected; p != nil {
		if p.DefaultMode == nil {
			p.DefaultMode = int32Ptr(corev1.ProjectedVolumeSourceDefaultMode)
		}
		for j := range p.Sources {
			s := &p.Sources[j]
			if s.DownwardAPI != nil {
				defaultDownwardAPIFiles(s.DownwardAPI.Items)
			}
			if t := s.ServiceAccountToken; t != nil && t.ExpirationSeconds == nil {
				hour := int64(3600)
				t.ExpirationSeconds = &hour
			}
		}
	}
	if s := src.ScaleIO; s != nil {
		if s.StorageMode == "" {
			s.StorageMode = "ThinProvisioned"
		}
		if s.FSType == "" {
			s.FSType = "xfs"
		}
	}
	if e := src.Ephemeral; e != nil && e.VolumeClaimTemplate != nil {
		spec := &e.VolumeClaimTemplate.Spec
		if spec.VolumeMode == nil {
			m := corev1.PersistentVolumeFilesystem
			spec.VolumeMode = &m
		}
		roundResourceList(spec.Resources.Limits)
		roundResourceList(spec.Resources.Requests)
	}
}

func defaultDownwardAPIFiles(items []corev1.DownwardAPIVolumeFile) {
	for k := range items {
		defaultFieldRef(items[k].FieldRef)
	}
}

func defaultFieldRef(f *corev1.ObjectFieldSelector) {
	if f != nil && f.APIVersion == "" {
		f.APIVersion = "v1"
	}
}

func int32Ptr(v int32) *int32 { return &v }

// pullPolicies remembers the default pull policies of the last few images it
// parsed: the containers of a pod often run the same images, and parsing a
// reference costs more than comparing it. It lives for one defaulting call.
type pullPolicies struct {
	seen [4]struct {
		image  string
		policy corev1.PullPolicy
	}
	last int // the entry the last call answered from, looked at first
	next int // the entry the next parsed image replaces
}

func (p *pullPolicies) forImage(image string) corev1.PullPolicy {
	if e := &p.seen[p.last]; e.policy != "" && e.image == image {
		return e.policy
	}
	for i := range p.seen {
		if e := &p.seen[i]; e.policy != "" && e.image == image {
			p.last = i
			return e.policy
		}
	}
	e := &p.seen[p.next]
	p.last, p.next = p.next, (p.next+1)%len(p.seen)
	e.image, e.policy = image, pullPolicyFor(image)
	return e.policy
}

func pullPolicyFor(image string) corev1.PullPolicy {
	if defaultPullPolicyIsAlways(image) {
		return corev1.PullAlways
	}
	return corev1.PullIfNotPresent
}

// defaultContainer applies SetDefaults_Container and the generated per-container
// defaults: port protocol, env sources, resource rounding (unless resourcesSettled:
// it would change nothing), probes and lifecycle hooks.
func defaultContainer(c *corev1.Container, pulls *pullPolicies, resourcesSettled bool) {
	if c.ImagePullPolicy == "" {
		c.ImagePullPolicy = pulls.forImage(c.Image)
	}
	if c.TerminationMessagePath == "" {
		c.TerminationMessagePath = corev1.TerminationMessagePathDefault
	}
	if c.TerminationMessagePolicy == "" {
		c.TerminationMessagePolicy = corev1.TerminationMessageReadFile
	}
	for j := range c.Ports {
		if c.Ports[j].Protocol == "" {
			c.Ports[j].Protocol = corev1.ProtocolTCP
		}
	}
	for j := range c.Env {
		src := c.Env[j].ValueFrom
		if src == nil {
			continue
		}
		defaultFieldRef(src.FieldRef)
		if src.FileKeyRef != nil && src.FileKeyRef.Optional == nil {
			off := false
			src.FileKeyRef.Optional = &off
		}
	}
	if !resourcesSettled {
		roundResourceList(c.Resources.Limits)
		roundResourceList(c.Resources.Requests)
	}
	for _, p := range []*corev1.Probe{c.LivenessProbe, c.ReadinessProbe, c.StartupProbe} {
		if p != nil {
			defaultProbe(p)
		}
	}
	if l := c.Lifecycle; l != nil {
		for _, h := range []*corev1.LifecycleHandler{l.PostStart, l.PreStop} {
			if h != nil && h.HTTPGet != nil {
				defaultHTTPGet(h.HTTPGet)
			}
		}
	}
}

func defaultProbe(p *corev1.Probe) {
	if p.TimeoutSeconds == 0 {
		p.TimeoutSeconds = 1
	}
	if p.PeriodSeconds == 0 {
		p.PeriodSeconds = 10
	}
	if p.SuccessThreshold == 0 {
		p.SuccessThreshold = 1
	}
	if p.FailureThreshold == 0 {
		p.FailureThreshold = 3
	}
	if p.HTTPGet != nil {
		defaultHTTPGet(p.HTTPGet)
	}
	if p.GRPC != nil && p.GRPC.Service == nil {
		empty := ""
		p.GRPC.Service = &empty
	}
}

func defaultHTTPGet(a *corev1.HTTPGetAction) {
	if a.Path == "" {
		a.Path = "/"
	}
	if a.Scheme == "" {
		a.Scheme = corev1.URISchemeHTTP
	}
}
