package validation

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

const certManagerCRDs = `apiVersion: v1
kind: List
items:
- apiVersion: apiextensions.k8s.io/v1
  kind: CustomResourceDefinition
  metadata: {name: certificates.cert-manager.io}
  spec:
    group: cert-manager.io
    names: {kind: Certificate, plural: certificates, listKind: CertificateList}
    scope: Namespaced
    versions:
    - {name: v1alpha2, served: false, storage: false}
    - {name: v1beta1, served: true, storage: false, deprecated: true}
    - {name: v1, served: true, storage: true}
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: clusterissuers.cert-manager.io
spec:
  group: cert-manager.io
  names:
    kind: ClusterIssuer
    plural: clusterissuers
  scope: Cluster
  versions:
  - name: v1
    served: true
    storage: true
`

func TestReadCustomResources(t *testing.T) {
	got, err := ReadCustomResources(strings.NewReader(certManagerCRDs))
	if err != nil {
		t.Fatal(err)
	}
	want := []CustomResource{
		{Group: "cert-manager.io", Version: "v1beta1", Kind: "Certificate", Resource: "certificates", Namespaced: true,
			Warning: "cert-manager.io/v1beta1 Certificate is deprecated; use cert-manager.io/v1 Certificate"},
		{Group: "cert-manager.io", Version: "v1", Kind: "Certificate", Resource: "certificates", Namespaced: true},
		{Group: "cert-manager.io", Version: "v1", Kind: "ClusterIssuer", Resource: "clusterissuers"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	for _, tc := range []struct{ name, in, want string }{
		{"another kind", validPod, `document 1: Pod "web" is not an apiextensions.k8s.io/v1 CustomResourceDefinition`},
		{"no plural", strings.Replace(certManagerCRDs, "plural: clusterissuers", "singular: clusterissuer", 1), `document 2: CustomResourceDefinition "clusterissuers.cert-manager.io" has no spec.names.plural`},
		{"no served version", strings.Replace(certManagerCRDs, "    served: true\n    storage: true", "    served: false\n    storage: true", 1), `document 2: CustomResourceDefinition "clusterissuers.cert-manager.io" serves no version`},
		{"in a list", strings.Replace(certManagerCRDs, "scope: Namespaced", "scope: 7", 1), `document 1, item 1: CustomResourceDefinition "certificates.cert-manager.io" has no spec.scope`},
		{"old version", strings.Replace(certManagerCRDs, "apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n", "apiextensions.k8s.io/v1beta1\nkind: CustomResourceDefinition\nmetadata:\n", 1), `document 2: CustomResourceDefinition "clusterissuers.cert-manager.io" is not an apiextensions.k8s.io/v1 CustomResourceDefinition`},
		{"unreadable", "a: [", "document 1: "},
		{"scope in lower case", strings.Replace(certManagerCRDs, "scope: Cluster", "scope: cluster", 1), `document 2: CustomResourceDefinition "clusterissuers.cert-manager.io": scope "cluster" is neither Namespaced nor Cluster`},
		{"group not a DNS subdomain", strings.Replace(certManagerCRDs, "group: cert-manager.io\n  names:", "group: Cert-Manager.io\n  names:", 1), `document 2: CustomResourceDefinition "clusterissuers.cert-manager.io": group "Cert-Manager.io" is not a DNS subdomain`},
		{"group without a dot", strings.Replace(certManagerCRDs, "group: cert-manager.io\n  names:", "group: certmanager\n  names:", 1), `document 2: CustomResourceDefinition "clusterissuers.cert-manager.io": group "certmanager" has no dot`},
		{"built-in group", strings.Replace(certManagerCRDs, "group: cert-manager.io\n  names:", "group: networking.k8s.io\n  names:", 1), `document 2: CustomResourceDefinition "clusterissuers.cert-manager.io": group "networking.k8s.io" is served by the API server itself`},
	} {
		_, err := ReadCustomResources(strings.NewReader(tc.in))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || tc.name != "unreadable" && err.Error() != tc.want {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
	// A deprecation warning of the definition's own, and the default one, which
	// names the newest served version newer than the deprecated one that is not
	// deprecated itself, or none.
	const widgets = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: widgets.example.com}\nspec:\n  group: example.com\n  names: {kind: Widget, plural: widgets}\n  scope: Cluster\n  versions:\n" +
		"  - {name: v1alpha1, served: true, deprecated: true}\n  - {name: v1beta1, served: true, deprecated: true, deprecationWarning: \"widgets v1beta1 go away in 2027\"}\n  - {name: v1beta2, served: false}\n  - {name: v2alpha1, served: true}\n  - {name: v1, served: true, deprecated: true}\n"
	got, err = ReadCustomResources(strings.NewReader(widgets))
	var warnings []string
	for _, c := range got {
		warnings = append(warnings, c.Version+": "+c.Warning)
	}
	if want := []string{"v1alpha1: example.com/v1alpha1 Widget is deprecated; use example.com/v2alpha1 Widget", "v1beta1: widgets v1beta1 go away in 2027",
		"v2alpha1: ", "v1: example.com/v1 Widget is deprecated"}; err != nil || !slices.Equal(warnings, want) {
		t.Errorf("deprecation warnings: %q, %v; want %q", warnings, err, want)
	}
	if got, err := ReadCustomResources(strings.NewReader("---\n# nothing\n---\n")); err != nil || len(got) != 0 {
		t.Errorf("empty documents: %v, %v", got, err)
	}
}

// TestStreamCustomResources: objects of the kinds CustomResourceDefinitions serve are
// mapped as kubectl maps built-in kinds (the lower-case kind, which the server's
// validation then refuses; the preferred version for an apiVersion without one; a
// namespace for a namespaced kind only), sent with their version's deprecation
// warning and unchecked (an empty list of them sends nothing); without the definitions they are
// kubectl's mapping error.
func TestStreamCustomResources(t *testing.T) {
	custom, err := ReadCustomResources(strings.NewReader(certManagerCRDs))
	if err != nil {
		t.Fatal(err)
	}
	const in = `apiVersion: cert-manager.io/v1
kind: Certificate
metadata: {name: web-tls}
spec: {secretName: web-tls}
---
apiVersion: cert-manager.io/v1beta1
kind: certificate
metadata: {name: api-tls, namespace: shop}
---
apiVersion: cert-manager.io/v1
kind: ClusterIssuer
metadata: {name: letsencrypt, namespace: ignored}
---
apiVersion: cert-manager.io/v1alpha2
kind: Certificate
metadata: {name: old}
---
apiVersion: cert-manager.io/v1
kind: Certificate
metadata: {name: web-tls}
---
apiVersion: cert-manager.io/v1
kind: CertificateList
items: []
---
apiVersion: cert-manager.io/v1
kind: Certificate
metadata: {name: x, namespace: team/a}
`
	got := renderAll(in, StreamOptions{CustomResources: custom})
	want := []string{
		`1.0@1 cert-manager.io/v1 Certificate default/web-tls not checked`,
		`2.0@6 cert-manager.io/v1beta1 certificate shop/api-tls invalid: Certificate.cert-manager.io "api-tls" is invalid: kind: Invalid value: "certificate": must be Certificate [6: cert-manager.io/v1beta1 Certificate is deprecated; use cert-manager.io/v1 Certificate]`,
		`3.0@10 cert-manager.io/v1 ClusterIssuer /letsencrypt not checked`,
		`4.0@14 cert-manager.io/v1alpha2 Certificate /old rejected: resource mapping not found for name: "old" namespace: "" from "f.yaml": no matches for kind "Certificate" in version "cert-manager.io/v1alpha2"` + "\nensure CRDs are installed first",
		`5.0@18 cert-manager.io/v1 Certificate default/web-tls rejected: certificates.cert-manager.io "web-tls" already exists`,
		`7.0@26 cert-manager.io/v1 Certificate team/a/x rejected: error when creating "f.yaml": invalid namespace "team/a": [may not contain '/']`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got := renderAll(in, StreamOptions{})[0]; !strings.Contains(got, "ensure CRDs are installed first") {
		t.Errorf("without the definitions: %s", got)
	}
	// The preferred version maps an apiVersion without one: v1 before v1beta1.
	s := newServedSet(nil, custom)
	if m, ok := s.restMapping(schema.GroupVersionKind{Group: "cert-manager.io", Kind: "Certificate"}); !ok || m.gvk.Version != "v1" {
		t.Errorf("no version: %+v %v", m, ok)
	}
}

// FuzzReadCustomResources: no panic, the same answer twice, every kind complete
// (group with a dot and not the server's own, version, kind, plural), and an error
// that names its document.
func FuzzReadCustomResources(f *testing.F) {
	f.Add([]byte(certManagerCRDs))
	f.Add([]byte(validPod))
	f.Add([]byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"a.example.com"},"spec":{"group":"example.com","names":{"kind":"A","plural":"as"},"scope":"Cluster","versions":[{"name":"v1","served":true}]}}`))
	f.Add([]byte("---\n---\nkind: List\napiVersion: v1\nitems: [{kind: X}]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := ReadCustomResources(bytes.NewReader(data))
		again, err2 := ReadCustomResources(bytes.NewReader(data))
		if !slices.Equal(got, again) || fmt.Sprint(err) != fmt.Sprint(err2) {
			t.Fatalf("two reads differ: %v %v, %v %v", got, err, again, err2)
		}
		if err != nil && !strings.HasPrefix(err.Error(), "document ") {
			t.Fatalf("error names no document: %v", err)
		}
		for _, c := range got {
			if !strings.Contains(c.Group, ".") || builtinGroup(c.Group) || c.Version == "" || c.Kind == "" || c.Resource == "" {
				t.Fatalf("incomplete kind %+v", c)
			}
		}
	})
}
