package validation

import (
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"

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
}

// restMapping mirrors kubectl's RESTMapping(gvk.GroupKind(), gvk.Version) against the
// kinds served with features; false is kubectl's "no matches for kind" error. An empty
// version maps to the group's preferred version that serves the kind.
func restMapping(gvk schema.GroupVersionKind, features podlife.FeatureGates) (mapping, bool) {
	if gvk.Version == "" {
		if v, ok := preferredVersions[gvk.Group]; ok {
			if m, ok := mapInVersion(gvk.GroupKind().WithVersion(v), features); ok {
				return m, true
			}
		}
		for i := range servedKinds {
			k := &servedKinds[i]
			if k.group == gvk.Group && k.version != preferredVersions[gvk.Group] {
				if m, ok := mapInVersion(gvk.GroupKind().WithVersion(k.version), features); ok {
					return m, true
				}
			}
		}
		return mapping{}, false
	}
	return mapInVersion(gvk, features)
}

// mapInVersion maps a kind in one group version.
func mapInVersion(gvk schema.GroupVersionKind, features podlife.FeatureGates) (mapping, bool) {
	gvServed := false
	for i := range servedKinds {
		k := &servedKinds[i]
		if k.group != gvk.Group || k.version != gvk.Version || !k.enabled(features) {
			continue
		}
		gvServed = true
		switch gvk.Kind {
		case k.kind, strings.ToLower(k.kind):
			return mapping{gvk: gvk, served: *k}, true
		case k.kind + "List":
			return mapping{gvk: gvk, served: *k, list: true}, true
		}
	}
	if gvServed && gvk.Kind == "List" {
		return mapping{gvk: gvk, list: true}, true
	}
	return mapping{}, false
}

// enabled reports whether the kind is served with features.
func (k *servedKind) enabled(features podlife.FeatureGates) bool {
	return k.gate == "" || features.Enabled(k.gate)
}

// servedExactly returns the served kind named exactly by gvk (not a list, not the
// lower-case alias).
func servedExactly(gvk schema.GroupVersionKind, features podlife.FeatureGates) (servedKind, bool) {
	for i := range servedKinds {
		k := &servedKinds[i]
		if k.group == gvk.Group && k.version == gvk.Version && k.kind == gvk.Kind && k.enabled(features) {
			return *k, true
		}
	}
	return servedKind{}, false
}
