// Package served computes, from upstream Kubernetes v1.37.2, the kinds a default
// kube-apiserver serves, and renders them as the main module's generated table.
package served

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"regexp"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Kind is one served resource's kind.
type Kind struct {
	Group, Version, Kind string
	// Resource is the resource's plural name, in the URL.
	Resource   string
	Namespaced bool
	// Patch is true when the resource supports PATCH (and so kubectl's server-side
	// field validation); false for create-only kinds such as TokenReview.
	Patch bool
	// Create is true when the resource takes POST (create); false for kinds only
	// read, such as ComponentStatus, whose POST the server refuses with 405.
	Create bool
	// Gate is the feature gate the registry needs on to serve it ("" for none).
	Gate string
}

// gatedResources are the resources of default-enabled versions whose storage the
// registry installs only with a gate on (pkg/registry/*/rest/storage_*.go).
var gatedResources = map[schema.GroupVersionResource]string{
	{Group: "certificates.k8s.io", Version: "v1", Resource: "clustertrustbundles"}:          "ClusterTrustBundle",
	{Group: "certificates.k8s.io", Version: "v1", Resource: "podcertificaterequests"}:       "PodCertificateRequest",
	{Group: "storagemigration.k8s.io", Version: "v1", Resource: "storageversionmigrations"}: "StorageVersionMigrator",
}

// KubernetesDir is the k8s.io/kubernetes v1.37.2 source in the module cache.
func KubernetesDir() (string, error) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "k8s.io/kubernetes").Output()
	if err != nil {
		return "", fmt.Errorf("locating k8s.io/kubernetes: %v", err)
	}
	return strings.TrimSpace(string(out)), nil
}

// stableVersion matches the versions enabled by default: pkg/controlplane/instance.go
// DefaultAPIResourceConfigSource enables the stable versions of every group and
// disables every alpha and beta one; apiextensions-apiserver and kube-aggregator
// serve their v1. checkEnabledRule verifies that rule against instance.go.
var stableVersion = regexp.MustCompile(`^v[0-9]+$`)

// checkEnabledRule reads the version lists of pkg/controlplane/instance.go and fails
// unless the enabled lists name only stable versions and the disabled lists only
// alpha and beta ones.
func checkEnabledRule(k8sDir string) error {
	src, err := os.ReadFile(filepath.Join(k8sDir, "pkg", "controlplane", "instance.go"))
	if err != nil {
		return err
	}
	list := regexp.MustCompile(`(?s)(\w+APIGroupVersions(?:Enabled|Disabled)ByDefault) = \[\]schema\.GroupVersion\{(.*?)\}`)
	entry := regexp.MustCompile(`(\w+)\.SchemeGroupVersion`)
	stableAlias := regexp.MustCompile(`v[0-9]+$`)
	found := 0
	for _, m := range list.FindAllStringSubmatch(string(src), -1) {
		enabledList := strings.HasSuffix(m[1], "EnabledByDefault")
		for _, e := range entry.FindAllStringSubmatch(m[2], -1) {
			found++
			if stableAlias.MatchString(e[1]) != enabledList {
				return fmt.Errorf("instance.go: %s in %s breaks the stable-versions rule", e[1], m[1])
			}
		}
	}
	if found < 20 {
		return fmt.Errorf("instance.go: only %d versions found in the default lists", found)
	}
	return nil
}

// enabled reports whether a default kube-apiserver serves the resource, gates aside.
func enabled(gvr schema.GroupVersionResource) bool {
	return stableVersion.MatchString(gvr.Version)
}

// Kinds returns the served kinds, sorted, and each group's preferred version.
func Kinds() ([]Kind, map[string]string, error) {
	k8sDir, err := KubernetesDir()
	if err != nil {
		return nil, nil, err
	}
	if err := checkEnabledRule(k8sDir); err != nil {
		return nil, nil, err
	}
	dir := filepath.Join(k8sDir, "api", "discovery")
	files, err := filepath.Glob(filepath.Join(dir, "api*.json"))
	if err != nil {
		return nil, nil, err
	}
	var kinds []Kind
	groups := map[string]metav1.APIGroup{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, nil, err
		}
		var probe struct {
			Kind string `json:"kind"`
		}
		if err := json.Unmarshal(data, &probe); err != nil {
			return nil, nil, fmt.Errorf("%s: %v", f, err)
		}
		switch probe.Kind {
		case "APIGroup":
			var g metav1.APIGroup
			if err := json.Unmarshal(data, &g); err != nil {
				return nil, nil, err
			}
			groups[g.Name] = g
		case "APIResourceList":
			var l metav1.APIResourceList
			if err := json.Unmarshal(data, &l); err != nil {
				return nil, nil, err
			}
			gv, err := schema.ParseGroupVersion(l.GroupVersion)
			if err != nil {
				return nil, nil, err
			}
			for _, r := range l.APIResources {
				if strings.Contains(r.Name, "/") {
					continue
				}
				gvr := gv.WithResource(r.Name)
				if !enabled(gvr) {
					continue
				}
				kinds = append(kinds, Kind{gv.Group, gv.Version, r.Kind, r.Name, r.Namespaced,
					slices.Contains(r.Verbs, "patch"), slices.Contains(r.Verbs, "create"), gatedResources[gvr]})
			}
		}
	}
	sort.Slice(kinds, func(i, j int) bool {
		a, b := kinds[i], kinds[j]
		if a.Group != b.Group {
			return a.Group < b.Group
		}
		if a.Version != b.Version {
			return a.Version < b.Version
		}
		return a.Kind < b.Kind
	})
	preferred := map[string]string{"": "v1"}
	for name, g := range groups {
		if hasVersion(kinds, name, g.PreferredVersion.Version) {
			preferred[name] = g.PreferredVersion.Version
			continue
		}
		for _, v := range g.Versions {
			if hasVersion(kinds, name, v.Version) {
				preferred[name] = v.Version
				break
			}
		}
	}
	return kinds, preferred, nil
}

func hasVersion(kinds []Kind, group, version string) bool {
	for _, k := range kinds {
		if k.Group == group && k.Version == version {
			return true
		}
	}
	return false
}

// Generate renders the table as the main module's validation/zz_generated_served.go.
func Generate() ([]byte, error) {
	kinds, preferred, err := Kinds()
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	fmt.Fprintln(&b, "// Code generated by conformance/internal/genserved from Kubernetes v1.37.2. DO NOT EDIT.")
	fmt.Fprintln(&b)
	fmt.Fprintln(&b, "package validation")
	fmt.Fprintln(&b)
	fmt.Fprintln(&b, "// servedKinds lists the kinds a default v1.37.2 kube-apiserver serves (upstream's")
	fmt.Fprintln(&b, "// api/discovery filtered by the API versions enabled by default), sorted by group,")
	fmt.Fprintln(&b, "// version and kind; gate names the feature gate a kind needs on.")
	fmt.Fprintln(&b, "var servedKinds = [...]servedKind{")
	for _, k := range kinds {
		fmt.Fprintf(&b, "\t{%q, %q, %q, %q, %t, %t, %t, %q},\n", k.Group, k.Version, k.Kind, k.Resource, k.Namespaced, k.Patch, k.Create, k.Gate)
	}
	fmt.Fprintln(&b, "}")
	fmt.Fprintln(&b)
	fmt.Fprintln(&b, "// preferredVersions gives each served group's preferred version, the one kubectl")
	fmt.Fprintln(&b, "// maps a kind to when the apiVersion names no version.")
	fmt.Fprintln(&b, "var preferredVersions = map[string]string{")
	names := make([]string, 0, len(preferred))
	for g := range preferred {
		names = append(names, g)
	}
	sort.Strings(names)
	for _, g := range names {
		fmt.Fprintf(&b, "\t%q: %q,\n", g, preferred[g])
	}
	fmt.Fprintln(&b, "}")
	return format.Source(b.Bytes())
}
