package validation

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// ReadCustomResources reads CustomResourceDefinitions (apiextensions.k8s.io/v1) from
// a YAML or JSON stream, as written or as `kubectl get crd -o yaml` prints them (a
// List), and returns the kinds they serve: one CustomResource for each served
// version, for StreamOptions.CustomResources. Empty documents are skipped; any other
// object, or a definition without its group, kind, plural or a served version, or
// whose group has no dot (the server refuses it) or is one the server serves itself,
// is an error naming its document (1-based), and so is a document that cannot be
// read.
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
		objs := []unstructured.Unstructured{u}
		if u.IsList() {
			list, err := u.ToList()
			if err != nil {
				return out, fmt.Errorf("document %d: %w", doc, err)
			}
			objs = list.Items
		}
		for i, obj := range objs {
			crs, err := customResourcesOf(obj)
			if err != nil {
				if len(objs) > 1 || u.IsList() {
					return out, fmt.Errorf("document %d, item %d: %w", doc, i+1, err)
				}
				return out, fmt.Errorf("document %d: %w", doc, err)
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
	cr.Namespaced = scope == "Namespaced"
	versions, _, err := unstructured.NestedSlice(obj.Object, "spec", "versions")
	if err != nil {
		return nil, fmt.Errorf("CustomResourceDefinition %q: spec.versions: %w", name, err)
	}
	var out []CustomResource
	for _, v := range versions {
		version, _ := v.(map[string]any)
		served, _ := version["served"].(bool)
		vname, _ := version["name"].(string)
		if served && vname != "" {
			cr.Version = vname
			out = append(out, cr)
		}
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
