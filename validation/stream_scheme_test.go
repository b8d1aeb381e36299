package validation

import (
	"fmt"
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
		{Group: "apiextensions.k8s.io", Kind: "CustomResourceDefinition"}: true,
		{Group: "apiregistration.k8s.io", Kind: "APIService"}:             true,
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

// TestStreamCreatedObjects: the second object of one name is the storage's 409 once it
// passed validation, within a stream and across streams sharing a CreatedObjects.
func TestStreamCreatedObjects(t *testing.T) {
	deployment := func(meta string) string {
		return "apiVersion: apps/v1\nkind: Deployment\nmetadata: " + meta + "\nspec:\n" +
			"  selector: {matchLabels: {app: api}}\n  template:\n    metadata: {labels: {app: api}}\n" +
			"    spec: {containers: [{name: c, image: nginx}]}\n---\n"
	}
	const (
		invalidPod = "apiVersion: v1\nkind: Pod\nmetadata: {name: bad}\nspec: {containers: [{name: c}]}\n---\n"
		validPod   = "apiVersion: v1\nkind: Pod\nmetadata: {name: bad}\nspec: {containers: [{name: c, image: nginx}]}\n---\n"
		generated  = "apiVersion: v1\nkind: Pod\nmetadata: {generateName: job-}\nspec: {containers: [{name: c, image: nginx}]}\n---\n"
		service    = "apiVersion: v1\nkind: Service\nmetadata: {name: api}\nspec: {ports: [{port: 80}]}\n---\n"
		review     = "apiVersion: authentication.k8s.io/v1\nkind: TokenReview\nmetadata: {name: check}\nspec: {token: abc}\n---\n"
	)
	// Each object twice, but the Deployment a third time in another namespace and the
	// Pod named bad first invalid.
	stream := deployment("{name: api}") + deployment("{name: api}") + deployment("{name: api, namespace: other}") +
		invalidPod + validPod + generated + generated + service + service + review + review
	render := func(opts StreamOptions) []string {
		var out []string
		for r := range ValidateStream(strings.NewReader(stream), "s.yaml", opts) {
			line := r.Kind + "/" + r.Name + " " + r.Namespace + " " + r.Verdict.String()
			if st := r.Status(); st != nil && st.ErrStatus.Code == 409 {
				line += fmt.Sprintf(" %d %s: %s", st.ErrStatus.Code, st.ErrStatus.Reason, r.Message())
			}
			out = append(out, line)
		}
		return out
	}
	want := []string{
		"Deployment/api default valid",
		`Deployment/api default rejected 409 AlreadyExists: deployments.apps "api" already exists`,
		"Deployment/api other valid",
		"Pod/bad default invalid",
		"Pod/bad default valid",
		"Pod/ default valid",
		"Pod/ default valid",
		"Service/api default not checked",
		`Service/api default rejected 409 AlreadyExists: services "api" already exists`,
		"TokenReview/check  not checked", // create-only: nothing is stored
		"TokenReview/check  not checked",
	}
	if got := render(StreamOptions{}); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("one stream:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	created := new(CreatedObjects)
	render(StreamOptions{Created: created})
	if created.Len() != 4 {
		t.Errorf("Created.Len() = %d after one stream, want 4 (two Deployments, a Pod, a Service)", created.Len())
	}
	for i, line := range render(StreamOptions{Created: created}) {
		if name := strings.Fields(want[i])[0]; strings.Contains(want[i], " valid") && name != "Pod/" || strings.Contains(want[i], "not checked") && name != "TokenReview/check" {
			if !strings.Contains(line, "rejected 409 AlreadyExists") {
				t.Errorf("second stream sharing Created, object %d: %s, want the 409", i, line)
			}
		} else if line != want[i] {
			t.Errorf("second stream sharing Created, object %d: %s, want %s", i, line, want[i])
		}
	}
	for _, line := range render(StreamOptions{DecodeOnly: true}) {
		if strings.Contains(line, "409") {
			t.Errorf("DecodeOnly: %s, want nothing created", line)
		}
	}
}

// TestStreamReadOnlyKinds: a kind served without create (ComponentStatus) is the
// router's 405 whatever the options, and is never stored (the second object of the
// name is a 405 too, not a 409).
func TestStreamReadOnlyKinds(t *testing.T) {
	const stream = `apiVersion: v1
kind: ComponentStatus
metadata: {name: scheduler}
conditions: [{type: Healthy, status: "True"}]
---
apiVersion: v1
kind: ComponentStatus
metadata: {name: scheduler}
conditions: [{type: Healthy, status: "False", error: "connection refused"}]
`
	for name, opts := range map[string]StreamOptions{
		"plain":       {},
		"scheme":      {Scheme: apischeme.New()},
		"decode only": {DecodeOnly: true, Scheme: apischeme.New()},
	} {
		created := new(CreatedObjects)
		opts.Created = created
		n := 0
		for r := range ValidateStream(strings.NewReader(stream), "cs.yaml", opts) {
			n++
			st := r.Status()
			if r.Verdict != Rejected || st == nil {
				t.Errorf("%s: object %d: %s (%v), want rejected with a status", name, n, r.Verdict, r.Err)
				continue
			}
			if got := fmt.Sprintf("%d %s %q", st.ErrStatus.Code, st.ErrStatus.Reason, st.ErrStatus.Message); got != `405 MethodNotAllowed "the server does not allow this method on the requested resource"` {
				t.Errorf("%s: object %d: %s", name, n, got)
			}
		}
		if n != 2 || created.Len() != 0 {
			t.Errorf("%s: %d results, %d objects created; want 2 and 0", name, n, created.Len())
		}
	}
}
