package validation

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/podlife/podlife/validation/apischeme"
)

// TestAPISchemeCoversServedKinds: apischeme.New knows every kind a default server
// serves but those whose types live outside k8s.io/api, and not those.
func TestAPISchemeCoversServedKinds(t *testing.T) {
	s := apischeme.New()
	outside := map[schema.GroupKind]bool{
		{Group: "apiextensions.k8s.io", Kind: "CustomResourceDefinition"}:   true,
		{Group: "apiregistration.k8s.io", Kind: "APIService"}:               true,
		{Group: "storagemigration.k8s.io", Kind: "StorageVersionMigration"}: true,
	}
	for _, k := range servedKinds {
		gvk := schema.GroupVersionKind{Group: k.group, Version: k.version, Kind: k.kind}
		if got, want := s.Recognizes(gvk), !outside[gvk.GroupKind()]; got != want {
			t.Errorf("apischeme.New().Recognizes(%v) = %v, want %v", gvk, got, want)
		}
	}
}

// TestStreamSchemeDecodesOtherKinds: with a scheme, objects that hold no pod are
// decoded as the server decodes them; without one they are not read.
func TestStreamSchemeDecodesOtherKinds(t *testing.T) {
	const stream = `apiVersion: v1
kind: ConfigMap
metadata: {name: flags}
data:
  enabled: on
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  ports:
  - port: 80
    targetport: 8080
---
apiVersion: v1
kind: Service
metadata: {name: ok, namespace: shop}
spec:
  ports: [{port: 80}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: reader, resourceVersion: "42"}
rules: [{apiGroups: [""], resources: [pods], verbs: [get]}]
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: x.example.com}
spec: {bogus: 1}
---
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers: [{name: c, image: busybox}]
`
	withScheme := []string{
		`ConfigMap/flags rejected: ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal bool into Go struct field ConfigMap.data of type string`,
		`Service/web rejected: Service in version "v1" cannot be handled as a Service: strict decoding error: unknown field "spec.ports[0].targetport"`,
		`Service/ok not checked: `,
		`ClusterRole/reader not checked: `,
		`CustomResourceDefinition/x.example.com not checked: `,
		`Pod/p valid: `,
	}
	run := func(opts StreamOptions) (lines []string, results []ObjectResult) {
		for r := range ValidateStream(strings.NewReader(stream), "s.yaml", opts) {
			lines = append(lines, r.Kind+"/"+r.Name+" "+r.Verdict.String()+": "+r.Message())
			results = append(results, r)
		}
		return lines, results
	}
	got, results := run(StreamOptions{Scheme: apischeme.New()})
	if strings.Join(got, "\n") != strings.Join(withScheme, "\n") {
		t.Errorf("with a scheme:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(withScheme, "\n"))
	}
	if svc, ok := results[2].Object.(*corev1.Service); !ok || svc.Namespace != "shop" || svc.Spec.Ports[0].Port != 80 {
		t.Errorf("Service ok: Object = %#v, want the decoded Service in namespace shop", results[2].Object)
	}
	if m := results[3].Object; m == nil || m.(interface{ GetResourceVersion() string }).GetResourceVersion() != "" {
		t.Errorf("ClusterRole: Object = %#v, want it decoded with its resourceVersion cleared as kubectl sends it", m)
	}
	if results[4].Object != nil {
		t.Errorf("CustomResourceDefinition: Object = %#v, want nil (not in the scheme)", results[4].Object)
	}
	got, results = run(StreamOptions{})
	for i, r := range results[:5] {
		if r.Verdict != NotChecked || r.Object != nil || r.Err != nil {
			t.Errorf("without a scheme, object %d: %s, Object %T, want not checked and unread", i, got[i], r.Object)
		}
	}
}
