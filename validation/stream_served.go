package validation

import (
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/version"

	"github.com/podlife/podlife"
)

// servedKind is one kind a default v1.37.2 kube-apiserver serves.
type servedKind struct {
	group, version, kind string
	// resource is the resource's plural name, in the URL.
	resource string
	// namespaced is the resource's scope.
	namespaced bool
	// patch is true when the resource takes PATCH, and so the server-side field
	// validation kubectl relies on; false for create-only kinds (TokenReview, ...).
	patch bool
	// create is true when the resource takes POST; false for kinds only read
	// (ComponentStatus), whose create the server's router refuses with 405.
	create bool
	// gate is the feature gate the registry needs on to serve the kind ("" for none).
	gate string
}

// mapping is what kubectl's discovery REST mapper (k8s.io/client-go restmapper
// NewDiscoveryRESTMapper) answers for an object's apiVersion and kind: each served
// group version maps each of its kinds, the kind in lower case, the kind followed by
// "List", and "List".
type mapping struct {
	gvk schema.GroupVersionKind // the kind as written, with the version mapped to
	// served is the kind the object maps to; for "List" and "XList" kinds it is the
	// zero value unless the list is of a served kind X.
	served servedKind
	// list is true for "List" and for a served kind's list kind.
	list bool
	// custom is true for a kind a CustomResourceDefinition serves, and warning the
	// warning the server sends with every request to its version ("" for none).
	custom  bool
	warning string
}

// servedSet is what a server serves: the built-in kinds enabled by the feature gates
// and the kinds of the CustomResourceDefinitions it holds, by group.
type servedSet struct {
	features podlife.FeatureGates
	custom   map[string][]customKind
}

// customKind is a kind a CustomResourceDefinition serves in one version.
type customKind struct {
	servedKind
	// warning is the warning the server sends with every request to the version.
	warning string
}

// newServedSet returns the kinds served with features and the custom resources.
func newServedSet(features podlife.FeatureGates, custom []CustomResource) servedSet {
	s := servedSet{features: features}
	for _, c := range custom {
		if builtinGroup(c.Group) {
			continue // ReadCustomResources refuses such a definition
		}
		if s.custom == nil {
			s.custom = map[string][]customKind{}
		}
		s.custom[c.Group] = append(s.custom[c.Group], customKind{servedKind: servedKind{group: c.Group, version: c.Version, kind: c.Kind,
			resource: c.Resource, namespaced: c.Namespaced, patch: true, create: true}, warning: c.Warning})
	}
	// A custom group's versions in discovery's order, the preferred first
	// (k8s.io/apiextensions-apiserver sorts them by version priority).
	for _, kinds := range s.custom {
		slices.SortStableFunc(kinds, func(a, b customKind) int {
			return -version.CompareKubeAwareVersionStrings(a.version, b.version)
		})
	}
	return s
}

// each calls f for each served kind of group, the built-in ones first (c nil),
// then the custom ones, until f returns false.
func (s servedSet) each(group string, f func(k *servedKind, c *customKind) bool) {
	for i := range servedKinds {
		if k := &servedKinds[i]; k.group == group && k.enabled(s.features) && !f(k, nil) {
			return
		}
	}
	kinds := s.custom[group]
	for i := range kinds {
		if !f(&kinds[i].servedKind, &kinds[i]) {
			return
		}
	}
}

// preferredVersion is the version discovery prefers for a group: the built-in
// groups' own, a custom group's highest-priority version.
func (s servedSet) preferredVersion(group string) (string, bool) {
	if v, ok := preferredVersions[group]; ok {
		return v, true
	}
	if kinds := s.custom[group]; len(kinds) > 0 {
		return kinds[0].version, true
	}
	return "", false
}

// restMapping mirrors kubectl's RESTMapping(gvk.GroupKind(), gvk.Version) against the
// served kinds; false is kubectl's "no matches for kind" error. An empty version maps
// to the group's preferred version that serves the kind, then to its others.
func (s servedSet) restMapping(gvk schema.GroupVersionKind) (m mapping, ok bool) {
	if gvk.Version != "" {
		return s.mapInVersion(gvk)
	}
	preferred, hasPreferred := s.preferredVersion(gvk.Group)
	if hasPreferred {
		if m, ok := s.mapInVersion(gvk.GroupKind().WithVersion(preferred)); ok {
			return m, true
		}
	}
	s.each(gvk.Group, func(k *servedKind, _ *customKind) bool {
		if k.version != preferred {
			m, ok = s.mapInVersion(gvk.GroupKind().WithVersion(k.version))
		}
		return !ok
	})
	return m, ok
}

// mapInVersion maps a kind in one group version.
func (s servedSet) mapInVersion(gvk schema.GroupVersionKind) (m mapping, ok bool) {
	gvServed := false
	s.each(gvk.Group, func(k *servedKind, c *customKind) bool {
		if k.version != gvk.Version {
			return true
		}
		gvServed = true
		switch gvk.Kind {
		case k.kind, strings.ToLower(k.kind):
			m, ok = mapping{gvk: gvk, served: *k}, true
		case k.kind + "List":
			m, ok = mapping{gvk: gvk, served: *k, list: true}, true
		}
		if ok && c != nil {
			m.custom, m.warning = true, c.warning
		}
		return !ok
	})
	if !ok && gvServed && gvk.Kind == "List" {
		return mapping{gvk: gvk, list: true}, true
	}
	return m, ok
}

// enabled reports whether the kind is served with features.
func (k *servedKind) enabled(features podlife.FeatureGates) bool {
	return k.gate == "" || features.Enabled(k.gate)
}

// gatedOff reports whether gvk names a kind a default server serves whose gate is
// off under the set's features: the server installs no route for it.
func (s servedSet) gatedOff(gvk schema.GroupVersionKind) bool {
	for i := range servedKinds {
		k := &servedKinds[i]
		if k.gate != "" && k.group == gvk.Group && k.version == gvk.Version && k.kind == gvk.Kind {
			return !k.enabled(s.features)
		}
	}
	return false
}

// servedExactly returns the served kind named exactly by gvk (not a list, not the
// lower-case alias).
func (s servedSet) servedExactly(gvk schema.GroupVersionKind) (found servedKind, ok bool) {
	s.each(gvk.Group, func(k *servedKind, _ *customKind) bool {
		if k.version == gvk.Version && k.kind == gvk.Kind {
			found, ok = *k, true
		}
		return !ok
	})
	return found, ok
}

// CustomResource is a kind a CustomResourceDefinition makes the server serve, in one
// of its served versions. kubectl maps objects of the kind as it maps built-in ones
// and leaves their field validation to the server; ValidateStream answers them as
// the kinds that hold no pod (NotChecked, a name created twice refused).
type CustomResource struct {
	// Group, Version and Kind name the kind as objects write it: the definition's
	// spec.group, the name of one of its served spec.versions, spec.names.kind.
	Group, Version, Kind string
	// Resource is the plural name in the URL (spec.names.plural).
	Resource string
	// Namespaced is true for a definition of scope Namespaced.
	Namespaced bool
	// Warning is the warning the server sends with every request to a deprecated
	// version: the version's deprecationWarning, or by default "GROUP/VERSION KIND
	// is deprecated" followed by "; use GROUP/V KIND" naming the newest served
	// version that is not deprecated and newer than it (apiextensions-apiserver's
	// defaultDeprecationWarning); "" for a version not deprecated.
	Warning string
}
