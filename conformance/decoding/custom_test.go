package decoding

import (
	"bytes"
	"context"
	"fmt"
	"math/rand"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	_ "unsafe" // go:linkname

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	_ "k8s.io/apiextensions-apiserver/pkg/apiserver" // defaultDeprecationWarning, reached with go:linkname
	"k8s.io/apiextensions-apiserver/pkg/registry/customresource"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured/unstructuredscheme"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/apimachinery/pkg/version"
	"k8s.io/client-go/restmapper"

	"github.com/podlife/podlife/conformance/internal/runenv"
	"github.com/podlife/podlife/validation"
)

// customDefinitions reads testdata/custom/crds.yaml into typed
// CustomResourceDefinitions (and the unstructured objects kubectl's parameter
// verifier lists), independently of validation.ReadCustomResources.
func customDefinitions(t *testing.T) ([]apiextensionsv1.CustomResourceDefinition, []runtime.Object, []byte) {
	t.Helper()
	data, err := os.ReadFile("testdata/custom/crds.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var crds []apiextensionsv1.CustomResourceDefinition
	var objs []runtime.Object
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
	for {
		var u unstructured.Unstructured
		if err := dec.Decode(&u.Object); err != nil {
			break
		}
		items := []unstructured.Unstructured{u}
		if u.IsList() {
			list, err := u.ToList()
			if err != nil {
				t.Fatal(err)
			}
			items = list.Items
		}
		for _, item := range items {
			var crd apiextensionsv1.CustomResourceDefinition
			if err := runtime.DefaultUnstructuredConverter.FromUnstructuredWithValidation(item.Object, &crd, true); err != nil {
				t.Fatal(err)
			}
			crds = append(crds, crd)
			objs = append(objs, item.DeepCopy())
		}
	}
	if len(crds) != 3 {
		t.Fatalf("%d definitions read, want 3", len(crds))
	}
	return crds, objs, data
}

// customDiscovery is the discovery a server holding crds publishes for them, as
// apiextensions-apiserver's discovery controller builds it: per group, the served
// versions by version priority (the first preferred), each listing the resources of
// the definitions served in it.
func customDiscovery(crds []apiextensionsv1.CustomResourceDefinition) []*restmapper.APIGroupResources {
	byGroup := map[string]*restmapper.APIGroupResources{}
	var order []string
	for _, crd := range crds {
		g := byGroup[crd.Spec.Group]
		if g == nil {
			g = &restmapper.APIGroupResources{Group: metav1.APIGroup{Name: crd.Spec.Group}, VersionedResources: map[string][]metav1.APIResource{}}
			byGroup[crd.Spec.Group] = g
			order = append(order, crd.Spec.Group)
		}
		for _, v := range crd.Spec.Versions {
			if !v.Served {
				continue
			}
			if _, ok := g.VersionedResources[v.Name]; !ok {
				g.Group.Versions = append(g.Group.Versions, metav1.GroupVersionForDiscovery{GroupVersion: crd.Spec.Group + "/" + v.Name, Version: v.Name})
			}
			g.VersionedResources[v.Name] = append(g.VersionedResources[v.Name], metav1.APIResource{
				Name: crd.Spec.Names.Plural, SingularName: crd.Spec.Names.Singular, Namespaced: crd.Spec.Scope == apiextensionsv1.NamespaceScoped,
				Kind: crd.Spec.Names.Kind, ShortNames: crd.Spec.Names.ShortNames, Categories: crd.Spec.Names.Categories,
				Verbs: metav1.Verbs{"delete", "deletecollection", "get", "list", "patch", "create", "update", "watch"},
			})
		}
	}
	var out []*restmapper.APIGroupResources
	for _, name := range order {
		g := byGroup[name]
		slices.SortFunc(g.Group.Versions, func(a, b metav1.GroupVersionForDiscovery) int {
			return -version.CompareKubeAwareVersionStrings(a.Version, b.Version)
		})
		g.Group.PreferredVersion = g.Group.Versions[0]
		out = append(out, g)
	}
	return out
}

// customDocuments are the documents the custom-resource files are drawn from, with
// what each is there for.
var customDocuments = []struct{ what, doc string }{
	{"namespaced kind", "apiVersion: cert-manager.io/v1\nkind: Certificate\nmetadata:\n  name: web-tls\nspec:\n  secretName: web-tls\n  dnsNames: [web.example.com]\n"},
	{"older served version", "apiVersion: cert-manager.io/v1beta1\nkind: Certificate\nmetadata:\n  name: api-tls\n  namespace: shop\nspec:\n  secretName: api-tls\n"},
	{"deprecated version with its own warning", "apiVersion: monitoring.coreos.com/v1alpha1\nkind: ServiceMonitor\nmetadata:\n  name: legacy\n"},
	{"lower-case kind", "apiVersion: cert-manager.io/v1\nkind: certificate\nmetadata:\n  name: lower\n"},
	{"version no longer served", "apiVersion: cert-manager.io/v1alpha2\nkind: Certificate\nmetadata:\n  name: old\n"},
	{"no version", "apiVersion: cert-manager.io/\nkind: Certificate\nmetadata:\n  name: nov\n"},
	{"cluster-scoped kind with a namespace", "apiVersion: cert-manager.io/v1\nkind: ClusterIssuer\nmetadata:\n  name: letsencrypt\n  namespace: shop\nspec:\n  acme: {server: https://acme-v02.api.letsencrypt.org/directory}\n"},
	{"list kind", "apiVersion: cert-manager.io/v1\nkind: CertificateList\nitems:\n- apiVersion: cert-manager.io/v1\n  kind: Certificate\n  metadata: {name: listed}\n- apiVersion: cert-manager.io/v1\n  kind: ClusterIssuer\n  metadata: {name: listed-issuer}\n"},
	{"list kind without items", "apiVersion: cert-manager.io/v1\nkind: CertificateList\nmetadata:\n  name: bare\n"},
	{"list kind without items, namespace no URL holds", "apiVersion: cert-manager.io/v1\nkind: CertificateList\nmetadata:\n  name: bare\n  namespace: a/b\n"},
	{"List of custom and built-in kinds", "apiVersion: v1\nkind: List\nitems:\n- apiVersion: monitoring.coreos.com/v1\n  kind: ServiceMonitor\n  metadata: {name: web, namespace: monitoring}\n  spec: {endpoints: [{port: http}]}\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: web-dashboards}\n- apiVersion: monitoring.coreos.com/v1\n  kind: PodMonitor\n  metadata: {name: pods}\n"},
	{"kind not installed", "apiVersion: monitoring.coreos.com/v1\nkind: PodMonitor\nmetadata:\n  name: pods\n"},
	{"namespace no URL holds", "apiVersion: cert-manager.io/v1\nkind: Certificate\nmetadata:\n  name: slash\n  namespace: team/a\n"},
	{"unknown fields", "apiVersion: cert-manager.io/v1\nkind: Certificate\nmetadata:\n  name: typo\nspec:\n  secretname: typo\n  dnsNames: [a.example.com]\n"},
	{"a definition in the stream", "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: widgets.example.com\nspec:\n  group: example.com\n  names: {kind: Widget, plural: widgets}\n  scope: Namespaced\n  versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}]\n"},
	{"its kind beside it", "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n"},
	{"a pod beside them", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n  - name: web\n    image: nginx\n"},
}

// TestCustomResourcesMatchKubectl: given the kinds CustomResourceDefinitions serve
// (validation.ReadCustomResources of the same definitions), ValidateStream answers
// files of custom resources as kubectl create -f does against a server that
// publishes their discovery and lists the definitions: the objects sent, their
// namespaces, the server's answers (a name created twice refused), and kubectl's
// errors, with and without --namespace. Without the definitions, every custom
// object is kubectl's mapping error.
func TestCustomResourcesMatchKubectl(t *testing.T) {
	crds, objs, data := customDefinitions(t)
	u, err := newUpstreamWith(nil, customDiscovery(crds), objs)
	if err != nil {
		t.Fatal(err)
	}
	u.custom = customServing(crds)
	custom, err := validation.ReadCustomResources(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewSource(seed(t) + 31))
	dir := t.TempDir()
	outcomes := map[string]int{}
	used := map[string]int{}
	disagreements, results := 0, 0
	for i := range 300 {
		var docs []string
		for n := 1 + r.Intn(4); n > 0; n-- {
			d := customDocuments[r.Intn(len(customDocuments))]
			used[d.what]++
			docs = append(docs, d.doc)
		}
		path := filepath.Join(dir, fmt.Sprintf("c%03d.yaml", i))
		if err := os.WriteFile(path, []byte(strings.Join(docs, "---\n")), 0o600); err != nil {
			t.Fatal(err)
		}
		opts := validation.StreamOptions{CustomResources: custom}
		if i%3 == 0 {
			opts.Namespace = "shop"
		}
		want, n, diff, _, err := endToEnd(t, u, path, opts)
		if err != nil {
			t.Fatal(err)
		}
		results += n
		for _, s := range want.sent {
			outcomes[fmt.Sprintf("%s %d", s.kind, s.status)]++
		}
		for _, w := range want.warnings {
			if len(w) > 0 {
				outcomes["warned"]++
			}
		}
		for _, e := range want.errors {
			outcomes["kubectl "+kubectlErrorClass(e)]++
		}
		if diff != "" {
			disagreements++
			if disagreements <= 5 {
				t.Errorf("file %d (--namespace %q) disagrees: %s\n%s", i, opts.Namespace, diff, strings.Join(docs, "---\n"))
			}
		}
	}
	t.Logf("300 files, %d results, %d disagreements; upstream outcomes: %v", results, disagreements, outcomes)
	for _, d := range customDocuments {
		if least := runenv.Least(20); used[d.what] < least {
			t.Errorf("document %q used %d times, want at least %d", d.what, used[d.what], least)
		}
	}
	for _, o := range []string{"Certificate 201", "Certificate 409", "ClusterIssuer 201", "ServiceMonitor 201", "Pod 201", "certificate 422", "CertificateList 404", "warned",
		"kubectl resource mapping not found", "kubectl unable to recognize", "kubectl error when creating", "Certificate 404"} {
		if least := runenv.Least(3); outcomes[o] < least {
			t.Errorf("outcome %q seen %d times, want at least %d", o, outcomes[o], least)
		}
	}
	// Without the definitions each custom object is a mapping error.
	path := filepath.Join(dir, "plain.yaml")
	if err := os.WriteFile(path, []byte(customDocuments[0].doc), 0o600); err != nil {
		t.Fatal(err)
	}
	got, _, err := oursWith(path, validation.StreamOptions{})
	if err != nil || len(got.sent) != 0 || len(got.errors) != 1 || !strings.Contains(got.errors[0], "ensure CRDs are installed first") {
		t.Errorf("without the definitions: %+v, %v", got, err)
	}
}

// customServed is what the server does with a request to one version of a custom
// resource: the warnings its handler adds to every request, and the registry's
// strategy.
type customServed struct {
	warnings []string
	strategy interface {
		Validate(context.Context, runtime.Object) field.ErrorList
	}
}

//go:linkname defaultDeprecationWarning k8s.io/apiextensions-apiserver/pkg/apiserver.defaultDeprecationWarning
func defaultDeprecationWarning(deprecatedVersion string, crd apiextensionsv1.CustomResourceDefinitionSpec) string

// customServing is how a server holding crds serves each version of them: the
// deprecation warning apiextensions-apiserver's handler adds (the version's own
// text, or its defaultDeprecationWarning) and the custom resource strategy, without
// a schema (only its kind and apiVersion checks bite).
func customServing(crds []apiextensionsv1.CustomResourceDefinition) map[schema.GroupVersionResource]customServed {
	out := map[schema.GroupVersionResource]customServed{}
	for _, crd := range crds {
		for _, v := range crd.Spec.Versions {
			if !v.Served {
				continue
			}
			var c customServed
			if v.Deprecated {
				if v.DeprecationWarning != nil {
					c.warnings = append(c.warnings, *v.DeprecationWarning)
				} else {
					c.warnings = append(c.warnings, defaultDeprecationWarning(v.Name, crd.Spec))
				}
			}
			gvk := schema.GroupVersionKind{Group: crd.Spec.Group, Version: v.Name, Kind: crd.Spec.Names.Kind}
			c.strategy = customresource.NewStrategy(unstructuredscheme.NewUnstructuredObjectTyper(), crd.Spec.Scope == apiextensionsv1.NamespaceScoped, gvk, nil, nil, nil, nil, nil, nil)
			out[gvk.GroupVersion().WithResource(crd.Spec.Names.Plural)] = c
		}
	}
	return out
}

// customResource answers a create of a custom resource as its handler does: the
// version's warnings on every answer, the strategy's validation (a 422), then the
// storage (201, or 409 for a name created before).
func (u *upstream) customResource(out *kubectlOutcome, path string, gvr schema.GroupVersionResource, body []byte, kind schema.GroupVersionKind, c customServed) *http.Response {
	out.pendingWarnings = c.warnings
	var obj unstructured.Unstructured
	if err := obj.UnmarshalJSON(body); err != nil {
		return status(apierrors.NewBadRequest(err.Error()))
	}
	if errs := c.strategy.Validate(context.Background(), &obj); len(errs) > 0 {
		return status(apierrors.NewInvalid(kind.GroupKind(), obj.GetName(), errs))
	}
	return u.store(out, path, gvr, body, kind)
}
