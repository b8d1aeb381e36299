package validation

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/validation"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/apimachinery/pkg/version"
)

// ReadCustomResources reads CustomResourceDefinitions (apiextensions.k8s.io/v1) from
// a YAML or JSON stream, as written or as `kubectl get crd -o yaml` prints them (a
// List), and returns the kinds they serve: one CustomResource for each served
// version, with its deprecation warning, for StreamOptions.CustomResources. Empty
// documents are skipped; any other object, or a definition without its group, kind,
// plural or a served version, or one the server refuses (a group that is not a DNS
// subdomain with a dot, a scope other than Namespaced or Cluster), or in a group the
// server serves itself, is an error naming its document (1-based), and so is a
// document that cannot be read. The definitions' other rules are not checked.
func ReadCustomResources(r io.Reader) ([]CustomResource, error) {
	dec := utilyaml.NewYAMLOrJSONDecoder(r, 4096)
	var out []CustomResource
	for doc := 1; ; doc++ {
		var m map[string]any
		if err := dec.Decode(&m); errors.Is(err, io.EOF) {
			return out, nil
		} else if err != nil {
			return out, fmt.Errorf("document %d: %w", doc, err)
		}
		if m == nil {
			continue
		}
		u := unstructured.Unstructured{Object: m}
		if !u.IsList() {
			crs, err := customResourcesOf(u)
			if err != nil {
				return out, fmt.Errorf("document %d: %w", doc, err)
			}
			out = append(out, crs...)
			continue
		}
		list, err := u.ToList()
		if err != nil {
			return out, fmt.Errorf("document %d: %w", doc, err)
		}
		for i, item := range list.Items {
			crs, err := customResourcesOf(item)
			if err != nil {
				return out, fmt.Errorf("document %d, item %d: %w", doc, i+1, err)
			}
			out = append(out, crs...)
		}
	}
}

// customResourcesOf returns the kinds one definition serves.
func customResourcesOf(obj unstructured.Unstructured) ([]CustomResource, error) {
	if gvk := obj.GroupVersionKind(); gvk.Group != "apiextensions.k8s.io" || gvk.Version != "v1" || gvk.Kind != "CustomResourceDefinition" {
		return nil, fmt.Errorf("%s %q is not an apiextensions.k8s.io/v1 CustomResourceDefinition", kindOrUnknown(obj.GetKind()), obj.GetName())
	}
	name := obj.GetName()
	text := func(fields ...string) (string, error) {
		v, found, err := unstructured.NestedString(obj.Object, fields...)
		if err != nil || !found || v == "" {
			return "", fmt.Errorf("CustomResourceDefinition %q has no %s", name, strings.Join(fields, "."))
		}
		return v, nil
	}
	cr := CustomResource{}
	var err error
	if cr.Group, err = text("spec", "group"); err != nil {
		return nil, err
	}
	switch {
	case len(validation.IsDNS1123Subdomain(cr.Group)) > 0:
		return nil, fmt.Errorf("CustomResourceDefinition %q: group %q is not a DNS subdomain", name, cr.Group)
	case !strings.Contains(cr.Group, "."):
		// The server refuses such a definition (apiextensions validation: "should
		// be a domain with at least one dot").
		return nil, fmt.Errorf("CustomResourceDefinition %q: group %q has no dot", name, cr.Group)
	case builtinGroup(cr.Group):
		return nil, fmt.Errorf("CustomResourceDefinition %q: group %q is served by the API server itself", name, cr.Group)
	}
	if cr.Kind, err = text("spec", "names", "kind"); err != nil {
		return nil, err
	}
	if cr.Resource, err = text("spec", "names", "plural"); err != nil {
		return nil, err
	}
	scope, err := text("spec", "scope")
	if err != nil {
		return nil, err
	}
	if scope != "Namespaced" && scope != "Cluster" {
		return nil, fmt.Errorf("CustomResourceDefinition %q: scope %q is neither Namespaced nor Cluster", name, scope)
	}
	cr.Namespaced = scope == "Namespaced"
	versions, _, err := unstructured.NestedSlice(obj.Object, "spec", "versions")
	if err != nil {
		return nil, fmt.Errorf("CustomResourceDefinition %q: spec.versions: %w", name, err)
	}
	type crdVersion struct {
		name               string
		served, deprecated bool
		warning            *string
	}
	var all []crdVersion
	for _, v := range versions {
		fields, _ := v.(map[string]any)
		var cv crdVersion
		cv.name, _ = fields["name"].(string)
		cv.served, _ = fields["served"].(bool)
		cv.deprecated, _ = fields["deprecated"].(bool)
		if text, ok := fields["deprecationWarning"].(string); ok {
			cv.warning = &text
		}
		all = append(all, cv)
	}
	var out []CustomResource
	for _, v := range all {
		if !v.served || v.name == "" {
			continue
		}
		cr.Version, cr.Warning = v.name, ""
		switch {
		case v.deprecated && v.warning != nil:
			cr.Warning = *v.warning
		case v.deprecated:
			// apiextensions-apiserver's defaultDeprecationWarning: the newest served
			// version that is not deprecated and newer than this one.
			cr.Warning = fmt.Sprintf("%s/%s %s is deprecated", cr.Group, v.name, cr.Kind)
			use := ""
			for _, o := range all {
				if o.served && !o.deprecated && version.CompareKubeAwareVersionStrings(v.name, o.name) < 0 &&
					(use == "" || version.CompareKubeAwareVersionStrings(o.name, use) > 0) {
					use = o.name
				}
			}
			if use != "" {
				cr.Warning += fmt.Sprintf("; use %s/%s %s", cr.Group, use, cr.Kind)
			}
		}
		out = append(out, cr)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("CustomResourceDefinition %q serves no version", name)
	}
	return out, nil
}

// builtinGroup reports whether a default v1.37.2 server serves group itself.
func builtinGroup(group string) bool {
	for i := range servedKinds {
		if servedKinds[i].group == group {
			return true
		}
	}
	return false
}

// kindOrUnknown names a kind for a message, "object" when it has none.
func kindOrUnknown(kind string) string {
	if kind == "" {
		return "object"
	}
	return kind
}
