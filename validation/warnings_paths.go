package validation

import (
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/podlife/podlife/internal/defaulting"
)

// This file holds the warnings of pkg/api/pod/warnings.go that compare items with
// each other: upstream compares every pair, podlife indexes them so that the work
// grows with the items and the warnings, not with the pairs.

// mergeIndexes calls fn for the indexes of sorted lists in increasing order, each
// once, until fn returns false.
func mergeIndexes(lists [][]int, fn func(int) bool) {
	for {
		best := -1
		for i, l := range lists {
			if len(l) > 0 && (best < 0 || l[0] < lists[best][0]) {
				best = i
			}
		}
		if best < 0 {
			return
		}
		next := lists[best][0]
		for i, l := range lists {
			if len(l) > 0 && l[0] == next {
				lists[i] = l[1:]
			}
		}
		if !fn(next) {
			return
		}
	}
}

// ---- ports ----

// portWarnings records the warnings on container ports: a hostIP without a hostPort,
// and a port whose number and protocol an earlier port of any container has (the
// same host binding: duplicate; either without a host port: overlapping; the same
// host port with the host IP on one only: dangerously ambiguous).
func portWarnings(w *warningRecorder, spec *corev1.PodSpec, sp lpath) {
	type entry struct {
		container lpath
		i         int
		port      *corev1.ContainerPort
	}
	type portKey struct {
		number   int32
		protocol corev1.Protocol
	}
	type hostBinding struct {
		port int32
		ip   string
	}
	type group struct {
		all, noHostPort []int
		byHostPort      map[int32][]int
		byBinding       map[hostBinding][]int
	}
	var entries []entry
	var groups map[portKey]*group
	portPath := func(e entry) lpath { return e.container.Child("ports").Index(e.i) }
	visitContainersWithPath(spec, sp, func(c *corev1.Container, cp lpath) {
		for i := range c.Ports {
			if w.full() {
				return
			}
			port := &c.Ports[i]
			this := entry{cp, i, port}
			if port.HostIP != "" && port.HostPort == 0 {
				w.addf("%s: hostIP set without hostPort: %+v", portPath(this), *port)
			}
			if groups == nil {
				groups = map[portKey]*group{}
			}
			key := portKey{port.ContainerPort, port.Protocol}
			g := groups[key]
			if g == nil {
				g = &group{}
				groups[key] = g
			}
			// The earlier ports that can give a warning with this one, in order.
			var candidates [3][]int
			if port.HostPort == 0 {
				candidates[0] = g.all
			} else {
				candidates[0] = g.noHostPort
				if port.HostIP == "" {
					candidates[1] = g.byHostPort[port.HostPort]
				} else {
					candidates[1] = g.byBinding[hostBinding{port.HostPort, port.HostIP}]
					candidates[2] = g.byBinding[hostBinding{port.HostPort, ""}]
				}
			}
			mergeIndexes(candidates[:], func(j int) bool {
				w.compared++
				other := entries[j]
				a, b := port.HostIP == "", other.port.HostIP == ""
				switch {
				case port.HostIP == other.port.HostIP && port.HostPort == other.port.HostPort:
					w.addf("%s: duplicate port definition with %s", portPath(this), portPath(other))
				case port.HostPort == 0 || other.port.HostPort == 0:
					w.addf("%s: overlapping port definition with %s", portPath(this), portPath(other))
				case port.HostPort == other.port.HostPort && (a || b) && !(a && b):
					w.addf("%s: dangerously ambiguous port definition with %s", portPath(this), portPath(other))
				}
				return !w.full()
			})
			n := len(entries)
			entries = append(entries, this)
			g.all = append(g.all, n)
			if port.HostPort == 0 {
				g.noHostPort = append(g.noHostPort, n)
				continue
			}
			if g.byHostPort == nil {
				g.byHostPort, g.byBinding = map[int32][]int{}, map[hostBinding][]int{}
			}
			g.byHostPort[port.HostPort] = append(g.byHostPort[port.HostPort], n)
			b := hostBinding{port.HostPort, port.HostIP}
			g.byBinding[b] = append(g.byBinding[b], n)
		}
	})
}

// portNameWarnings records the warning on a port name an earlier port of any
// container has.
func portNameWarnings(w *warningRecorder, spec *corev1.PodSpec, sp lpath) {
	type portAt struct {
		container lpath
		i         int
	}
	var first map[string]portAt
	visitContainersWithPath(spec, sp, func(c *corev1.Container, cp lpath) {
		for i := range c.Ports {
			name := c.Ports[i].Name
			if name == "" {
				continue
			}
			if first == nil {
				first = map[string]portAt{}
			}
			if o, ok := first[name]; ok {
				other := o.container.Child("ports").Index(o.i)
				w.addf("%s: duplicate port name %q with %s, services and probes that select ports by name will use %s", cp.Child("ports").Index(i), name, other, other)
				if w.full() {
					return
				}
				continue
			}
			first[name] = portAt{cp, i}
		}
	})
}

// ---- volume paths ----

// volumePath is a path a volume writes a file at and what the file comes from
// (upstream's pathAndSource).
type volumePath struct {
	path, source string
}

func (p volumePath) String() string {
	if p.source != "" {
		return fmt.Sprintf("%q (%s)", p.path, p.source)
	}
	return fmt.Sprintf("%q", p.path)
}

// pathNode is a directory of a volume's paths: the files named by it, and those
// under it (itself included), as indexes in the order they were written.
type pathNode struct {
	children map[string]*pathNode
	named    []int
	under    []int
}

// volumePaths finds, for each path a volume writes, the earlier ones it overlaps:
// the same path, a directory of it, or a file under it. Each distinct path and source
// is indexed once (a repeat gives the same warnings); a path seen before is only
// compared with those written since.
type volumePaths struct {
	root   pathNode
	paths  []volumePath
	lastAt map[volumePath]int
}

// overlaps calls fn with each earlier path p overlaps, in order, until fn returns
// false; then it adds p.
func (t *volumePaths) overlaps(p volumePath, fn func(volumePath) bool) {
	p.path = strings.TrimRight(p.path, "/")
	if p.path == "" {
		return
	}
	if t.lastAt == nil {
		t.lastAt = map[volumePath]int{}
	}
	// Those before since were compared with p when it came last: the same warnings.
	since, seen := t.lastAt[p]
	var lists [][]int
	after := func(l []int) []int {
		i, _ := slices.BinarySearch(l, since)
		return l[i:]
	}
	// Walk down p's directories: the files they name overlap, and so does every
	// file under p's own node.
	node := &t.root
	rest := p.path
	for node != nil {
		seg, more, found := strings.Cut(rest, "/")
		node = node.children[seg]
		if node == nil {
			break
		}
		if !found {
			lists = append(lists, after(node.under))
			break
		}
		if l := after(node.named); len(l) > 0 {
			lists = append(lists, l)
		}
		rest = more
	}
	mergeIndexes(lists, func(i int) bool { return fn(t.paths[i]) })

	t.lastAt[p] = len(t.paths)
	if seen {
		return
	}
	n := len(t.paths)
	t.paths = append(t.paths, p)
	node = &t.root
	rest = p.path
	for {
		seg, more, found := strings.Cut(rest, "/")
		child := node.children[seg]
		if child == nil {
			child = &pathNode{}
			if node.children == nil {
				node.children = map[string]*pathNode{}
			}
			node.children[seg] = child
		}
		node = child
		node.under = append(node.under, n)
		if !found {
			node.named = append(node.named, n)
			return
		}
		rest = more
	}
}

// overlappingPathWarnings mirrors warningsForOverlappingVirtualPaths for one volume:
// the items of a ConfigMap, Secret or downward API volume, and the files of all the
// sources of a projected volume, that overlap.
func overlappingPathWarnings(w *warningRecorder, v *corev1.Volume, vp lpath) {
	items := func(desc string, paths []volumePath) {
		var t volumePaths
		for _, p := range paths {
			t.overlaps(p, func(c volumePath) bool {
				w.compared++
				w.addfAt(vp, "volume %q (%s): overlapping paths: %s with %s", v.Name, desc, volumePath{strings.TrimRight(p.path, "/"), p.source}, c)
				return !w.full()
			})
			if w.full() {
				return
			}
		}
	}
	switch {
	case v.ConfigMap != nil && v.ConfigMap.Items != nil:
		items(fmt.Sprintf("ConfigMap %q", v.ConfigMap.Name), keyPaths(v.ConfigMap.Items, ""))
	case v.Secret != nil && v.Secret.Items != nil:
		items(fmt.Sprintf("Secret %q", v.Secret.SecretName), keyPaths(v.Secret.Items, ""))
	case v.DownwardAPI != nil && v.DownwardAPI.Items != nil:
		items("DownwardAPI", downwardPaths(v.DownwardAPI.Items, ""))
	case v.Projected != nil:
		var t volumePaths
		for i := range v.Projected.Sources {
			s := &v.Projected.Sources[i]
			if *s == (corev1.VolumeProjection{}) {
				w.addfAt(vp.Children("projected", "sources").Index(i), "volume %q (Projected) has no sources provided", v.Name)
				continue
			}
			for _, p := range projectedPaths(s) {
				t.overlaps(p, func(c volumePath) bool {
					w.compared++
					w.addfAt(vp, "volume %q (Projected): overlapping paths: %s with %s", v.Name, volumePath{strings.TrimRight(p.path, "/"), p.source}, c)
					return !w.full()
				})
				if w.full() {
					return
				}
			}
		}
	}
}

func keyPaths(items []corev1.KeyToPath, source string) []volumePath {
	out := make([]volumePath, len(items))
	for i := range items {
		out[i] = volumePath{items[i].Path, source}
	}
	return out
}

func downwardPaths(items []corev1.DownwardAPIVolumeFile, source string) []volumePath {
	out := make([]volumePath, len(items))
	for i := range items {
		out[i] = volumePath{items[i].Path, source}
	}
	return out
}

// projectedPaths are the files one source of a projected volume writes.
func projectedPaths(s *corev1.VolumeProjection) []volumePath {
	switch {
	case s.ConfigMap != nil && s.ConfigMap.Items != nil:
		return keyPaths(s.ConfigMap.Items, fmt.Sprintf("ConfigMap %q", s.ConfigMap.Name))
	case s.Secret != nil && s.Secret.Items != nil:
		return keyPaths(s.Secret.Items, fmt.Sprintf("Secret %q", s.Secret.Name))
	case s.DownwardAPI != nil && s.DownwardAPI.Items != nil:
		return downwardPaths(s.DownwardAPI.Items, "DownwardAPI")
	case s.ServiceAccountToken != nil:
		return []volumePath{{s.ServiceAccountToken.Path, "ServiceAccountToken"}}
	case s.ClusterTrustBundle != nil:
		// Validation requires a name or a signer name.
		name := ""
		if s.ClusterTrustBundle.Name != nil {
			name = *s.ClusterTrustBundle.Name
		} else if s.ClusterTrustBundle.SignerName != nil {
			name = *s.ClusterTrustBundle.SignerName
		}
		return []volumePath{{s.ClusterTrustBundle.Path, fmt.Sprintf("ClusterTrustBundle %q", name)}}
	case s.PodCertificate != nil:
		var out []volumePath
		for _, f := range [...]struct{ path, source string }{
			{s.PodCertificate.CertificateChainPath, "PodCertificate chain"},
			{s.PodCertificate.KeyPath, "PodCertificate key"},
			{s.PodCertificate.CredentialBundlePath, "PodCertificate credential bundle"},
		} {
			if f.path != "" {
				out = append(out, volumePath(f))
			}
		}
		return out
	}
	return nil
}

// ---- AppArmor ----

// appArmorSyncWarnings records the warnings a pod's PrepareForCreate sends
// (applyAppArmorVersionSkew) before validation: a container's deprecated AppArmor
// annotation, on a container without an appArmorProfile field, that says something
// other than the pod's profile or nothing valid. Windows pods get none.
func appArmorSyncWarnings(w *warningRecorder, pod *corev1.Pod) {
	if w.full() || len(pod.Annotations) == 0 || pod.Spec.OS != nil && pod.Spec.OS.Name == corev1.Windows {
		return
	}
	var podProfile *corev1.AppArmorProfile
	if pod.Spec.SecurityContext != nil {
		podProfile = pod.Spec.SecurityContext.AppArmorProfile
	}
	annotations := rootPath("metadata").Child("annotations")
	forEachContainer(&pod.Spec, func(c *corev1.Container) bool {
		key := corev1.DeprecatedAppArmorBetaContainerAnnotationKeyPrefix + c.Name
		v, ok := pod.Annotations[key]
		if !ok || c.SecurityContext != nil && c.SecurityContext.AppArmorProfile != nil {
			return true
		}
		if p := defaulting.AppArmorAnnotationProfile(v, true); p == nil || !defaulting.SameAppArmorProfile(p, podProfile) {
			w.addf(`%s: deprecated since v1.30; use the "appArmorProfile" field instead`, annotations.Key(key))
		}
		return !w.full()
	})
}
