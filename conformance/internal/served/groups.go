package served

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/restmapper"
)

// GroupResources returns the discovery of a v1.37.2 kube-apiserver serving the
// versions served by default as client-go's discovery REST mapper takes it:
// upstream's api/discovery documents cut to those versions, without the resources
// whose registry a gate holds back (gatedResources) when enabled says that gate is
// off, and without a version, or a group, left with no resource. A nil enabled is the
// default gates, under which every one of them is served.
func GroupResources(enabled func(gate string) bool) ([]*restmapper.APIGroupResources, error) {
	k8sDir, err := KubernetesDir()
	if err != nil {
		return nil, err
	}
	if err := checkEnabledRule(k8sDir); err != nil {
		return nil, err
	}
	dir := filepath.Join(k8sDir, "api", "discovery")
	read := func(name string, into any) error {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		return json.Unmarshal(data, into)
	}
	var groups []metav1.APIGroup
	groups = append(groups, metav1.APIGroup{Name: "", Versions: []metav1.GroupVersionForDiscovery{{GroupVersion: "v1", Version: "v1"}},
		PreferredVersion: metav1.GroupVersionForDiscovery{GroupVersion: "v1", Version: "v1"}})
	var list metav1.APIGroupList
	if err := read("apis.json", &list); err != nil {
		return nil, err
	}
	groups = append(groups, list.Groups...)
	var out []*restmapper.APIGroupResources
	for _, g := range groups {
		res := &restmapper.APIGroupResources{VersionedResources: map[string][]metav1.APIResource{}}
		var versions []metav1.GroupVersionForDiscovery
		for _, v := range g.Versions {
			if !stableVersion.MatchString(v.Version) {
				continue
			}
			file := "apis__" + g.Name + "__" + v.Version + ".json"
			if g.Name == "" {
				file = "api__v1.json"
			}
			var rl metav1.APIResourceList
			if err := read(file, &rl); err != nil {
				return nil, err
			}
			// The gated resources (gatedResources) are all on by default at v1.37.2.
			resources := slices.DeleteFunc(rl.APIResources, func(r metav1.APIResource) bool {
				resource, _, _ := strings.Cut(r.Name, "/") // and its subresources
				gate := gatedResources[schema.GroupVersionResource{Group: g.Name, Version: v.Version, Resource: resource}]
				return gate != "" && enabled != nil && !enabled(gate)
			})
			if len(resources) == 0 {
				continue
			}
			res.VersionedResources[v.Version] = resources
			versions = append(versions, v)
		}
		if len(versions) == 0 {
			continue
		}
		g.Versions = versions
		if !slices.Contains(versions, g.PreferredVersion) {
			g.PreferredVersion = versions[0]
		}
		res.Group = g
		out = append(out, res)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Group.Name == "" && out[j].Group.Name != "" })
	return out, nil
}
