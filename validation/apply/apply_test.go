package apply_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/podlife/podlife/validation"
	"github.com/podlife/podlife/validation/apply"
)

// liveJob is a Job as kubectl get -o yaml prints it: the server generated its
// selector and the template's labels, and kubectl apply created it.
const liveJob = `apiVersion: batch/v1
kind: Job
metadata:
  name: migrate
  namespace: default
  resourceVersion: "41"
  uid: 2c8e4b1a-7d3f-4e6a-9b0c-5d1e2f3a4b6c
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: |
      {"apiVersion":"batch/v1","kind":"Job","metadata":{"annotations":{},"name":"migrate","namespace":"default"},"spec":{"backoffLimit":2,"template":{"spec":{"containers":[{"image":"shop/migrate:1.4","name":"migrate"}],"restartPolicy":"Never"}}}}
spec:
  backoffLimit: 2
  selector:
    matchLabels:
      batch.kubernetes.io/controller-uid: 2c8e4b1a-7d3f-4e6a-9b0c-5d1e2f3a4b6c
  template:
    metadata:
      labels:
        batch.kubernetes.io/controller-uid: 2c8e4b1a-7d3f-4e6a-9b0c-5d1e2f3a4b6c
        batch.kubernetes.io/job-name: migrate
        controller-uid: 2c8e4b1a-7d3f-4e6a-9b0c-5d1e2f3a4b6c
        job-name: migrate
    spec:
      containers:
      - name: migrate
        image: shop/migrate:1.4
      restartPolicy: Never
`

// storedFrom reads live objects as a cluster's.
func storedFrom(t testing.TB, live string) *validation.StoredObjects {
	t.Helper()
	stored := new(validation.StoredObjects)
	for r := range validation.ValidateStream(strings.NewReader(live), "live.yaml", validation.StreamOptions{DecodeOnly: true}) {
		if !stored.Add(r) && r.Object != nil {
			t.Fatalf("live object not kept: %s", r.Message())
		}
	}
	return stored
}

// applied answers one document as kubectl apply sends it.
func applied(t testing.TB, stored *validation.StoredObjects, doc, fieldValidation string) validation.ObjectResult {
	t.Helper()
	var results []validation.ObjectResult
	for r := range validation.ValidateStream(strings.NewReader(doc), "app.yaml", validation.StreamOptions{
		Stored: stored.Get, Apply: apply.Patcher{}, FieldValidation: fieldValidation}) {
		results = append(results, r)
	}
	if len(results) != 1 {
		t.Fatalf("%d results", len(results))
	}
	return results[0]
}

func ExamplePatcher() {
	live := new(validation.StoredObjects)
	for r := range validation.ValidateStream(strings.NewReader(liveJob), "cluster.yaml", validation.StreamOptions{DecodeOnly: true}) {
		live.Add(r)
	}
	// The manifest kubectl applied, with a new backoffLimit. kubectl replace would
	// send it without the selector the server generated (spec.selector: Required
	// value); kubectl apply's patch keeps it.
	manifest := `apiVersion: batch/v1
kind: Job
metadata: {name: migrate}
spec:
  backoffLimit: 4
  template:
    spec:
      containers: [{name: migrate, image: shop/migrate:1.4}]
      restartPolicy: Never
`
	for r := range validation.ValidateStream(strings.NewReader(manifest), "job.yaml", validation.StreamOptions{Stored: live.Get, Apply: apply.Patcher{}}) {
		fmt.Println(r.Kind, r.Name, r.Verdict, r.Update)
		// The patch sets the new annotation and, in the spec, what changed.
		var patch struct {
			Spec json.RawMessage `json:"spec"`
		}
		if err := json.Unmarshal(r.Patch, &patch); err != nil {
			panic(err)
		}
		fmt.Println(string(patch.Spec))
	}
	// Output:
	// Job migrate valid true
	// {"backoffLimit":4}
}

func TestApplyAnswers(t *testing.T) {
	stored := storedFrom(t, liveJob)
	manifest := func(spec string) string {
		return "apiVersion: batch/v1\nkind: Job\nmetadata: {name: migrate}\nspec:\n" + spec
	}
	same := manifest("  backoffLimit: 2\n  template:\n    spec:\n      containers: [{name: migrate, image: shop/migrate:1.4}]\n      restartPolicy: Never\n")
	tests := []struct {
		name, doc, fieldValidation string
		verdict                    validation.Verdict
		update                     bool
		patch                      string // "" for none
		message                    string // the whole message, or a prefix ending in "…"
	}{
		{name: "the applied configuration again: nothing sent", doc: same, verdict: validation.Valid, update: true, patch: "{}"},
		{name: "a changed image: the Job's template is immutable", doc: strings.Replace(same, "1.4", "1.5", 1), verdict: validation.Invalid, update: true,
			patch:   `{"metadata":{"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{\"apiVersion\":\"batch/v1\",\"kind\":\"Job\",\"metadata\":{\"annotations\":{},\"name\":\"migrate\",\"namespace\":\"default\"},\"spec\":{\"backoffLimit\":2,\"template\":{\"spec\":{\"containers\":[{\"image\":\"shop/migrate:1.5\",\"name\":\"migrate\"}],\"restartPolicy\":\"Never\"}}}}\n"}},"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"migrate"}],"containers":[{"image":"shop/migrate:1.5","name":"migrate"}]}}}}`,
			message: `Job.batch "migrate" is invalid: spec.template: Invalid value: …`},
		{name: "an unknown field: the patch handler's own 422", doc: strings.Replace(same, "  backoffLimit: 2\n", "  backoffLimit: 2\n  parallelisms: 3\n", 1), verdict: validation.Invalid, update: true,
			message: ` "" is invalid: patch: Invalid value: "map[metadata:map[annotations:map[kubectl.kubernetes.io/last-applied-configuration:…`},
		{name: "an unknown field under --validate=ignore: dropped", fieldValidation: "Ignore", doc: strings.Replace(same, "  backoffLimit: 2\n", "  backoffLimit: 2\n  parallelisms: 3\n", 1), verdict: validation.Valid, update: true},
		{name: "generateName", doc: "apiVersion: batch/v1\nkind: Job\nmetadata: {generateName: migrate-}\nspec: {}\n", verdict: validation.Rejected,
			message: "from migrate-: cannot use generate name with apply"},
		{name: "no name", doc: "apiVersion: apps/v1\nkind: Deployment\nmetadata: {labels: {a: b}}\nspec: {}\n", verdict: validation.Rejected,
			message: "error when retrieving current configuration of:\nResource: \"apps/v1, Resource=deployments\", GroupVersionKind: \"apps/v1, Kind=Deployment\"\nName: \"\", Namespace: \"default\"\nfrom server for: \"app.yaml\": resource name may not be empty"},
		{name: "a name client-go puts in no URL", doc: "apiVersion: v1\nkind: Pod\nmetadata: {name: a/b}\nspec: {containers: [{name: c, image: x}]}\n", verdict: validation.Rejected,
			message: "error when retrieving current configuration of:\nResource: \"/v1, Resource=pods\", GroupVersionKind: \"/v1, Kind=Pod\"\nName: \"a/b\", Namespace: \"default\"\nfrom server for: \"app.yaml\": invalid resource name \"a/b\": [may not contain '/']"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := applied(t, stored, tt.doc, tt.fieldValidation)
			if r.Verdict != tt.verdict || r.Update != tt.update {
				t.Errorf("verdict %s, update %v; want %s, %v: %s", r.Verdict, r.Update, tt.verdict, tt.update, r.Message())
			}
			if tt.patch != "" && string(r.Patch) != tt.patch {
				t.Errorf("patch:\n%s\nwant:\n%s", r.Patch, tt.patch)
			}
			if prefix, cut := strings.CutSuffix(tt.message, "…"); cut && !strings.HasPrefix(r.Message(), prefix) || !cut && r.Message() != tt.message {
				t.Errorf("message:\n%s\nwant:\n%s", r.Message(), tt.message)
			}
			if tt.update && (r.Patch == nil) {
				t.Error("a patch answer without its patch")
			}
		})
	}
	t.Run("the unknown field's detail", func(t *testing.T) {
		r := applied(t, stored, strings.Replace(same, "  backoffLimit: 2\n", "  backoffLimit: 2\n  parallelisms: 3\n", 1), "")
		if !strings.HasSuffix(r.Message(), `: strict decoding error: unknown field "spec.parallelisms"`) || len(r.Errors) != 1 || r.Errors[0].Field != "patch" {
			t.Errorf("%s %v", r.Message(), r.Errors)
		}
	})
	t.Run("a create carries the annotation", func(t *testing.T) {
		r := applied(t, stored, "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c, image: x}], nodeName: null}\n", "")
		if r.Verdict != validation.Valid || r.Update || r.Patch != nil {
			t.Fatalf("%s %v %s: %s", r.Verdict, r.Update, r.Patch, r.Message())
		}
		want := `{"apiVersion":"v1","kind":"Pod","metadata":{"annotations":{},"name":"p","namespace":"default"},"spec":{"containers":[{"image":"x","name":"c"}],"nodeName":null}}` + "\n"
		if got := r.Object.(*corev1.Pod).Annotations[corev1.LastAppliedConfigAnnotation]; got != want {
			t.Errorf("annotation %q, want %q", got, want)
		}
	})
	t.Run("a live object without the annotation: kubectl's warning", func(t *testing.T) {
		plain := storedFrom(t, strings.Replace(liveJob, "kubectl.kubernetes.io/last-applied-configuration", "example.com/note", 1))
		r := applied(t, plain, same, "")
		want := "resource jobs/migrate is missing the kubectl.kubernetes.io/last-applied-configuration annotation which is required by kubectl apply. kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. The missing annotation will be patched automatically."
		if len(r.Warnings) != 1 || r.Warnings[0].Server || r.Warnings[0].Message != want || r.Warnings[0].Line != 1 {
			t.Errorf("warnings %+v", r.Warnings)
		}
	})
}

// FuzzApplyStream reads two streams, the live objects and the applied ones, and
// answers the second as kubectl apply: no panic; the same answers twice; the live
// objects untouched; a patch only for an update, and an update of a pod kind the
// stream sent always has one unless kubectl refused it; "{}" is Valid without the
// server's warnings.
func FuzzApplyStream(f *testing.F) {
	f.Add(liveJob, "apiVersion: batch/v1\nkind: Job\nmetadata: {name: migrate}\nspec: {backoffLimit: 3, template: {spec: {containers: [{name: migrate, image: x}], restartPolicy: Never}}}\n")
	f.Add(liveJob, "apiVersion: batch/v1\nkind: Job\nmetadata: {name: migrate, uid: x, resourceVersion: \"3\"}\nspec: {selector: null, template: {metadata: {labels: null}}}\n")
	f.Add("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: w, annotations: {deprecated.deployment.rollback.to: \"1\"}}\nspec: {template: {spec: {containers: [{name: a, image: x, ports: [{containerPort: 80}, {containerPort: 80, name: b}]}]}}}\n",
		"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: w, annotations: {deprecated.deployment.rollback.to: x}}\nspec: {template: {spec: {containers: [{name: a, image: y, ports: [{containerPort: 80, hostPort: 1}]}]}}}\n")
	f.Fuzz(func(t *testing.T, live, doc string) {
		stored := new(validation.StoredObjects)
		var kept []runtime.Object
		for r := range validation.ValidateStream(strings.NewReader(live), "live.yaml", validation.StreamOptions{DecodeOnly: true}) {
			if stored.Add(r) {
				kept = append(kept, r.Object)
			}
		}
		var copies []runtime.Object
		for _, o := range kept {
			copies = append(copies, o.DeepCopyObject())
		}
		answer := func() []string {
			var out []string
			seen := map[string]bool{}
			for r := range validation.ValidateStream(strings.NewReader(doc), "app.yaml", validation.StreamOptions{Stored: stored.Get, Apply: apply.Patcher{}}) {
				if r.Patch != nil && !r.Update {
					t.Fatalf("a patch without an update: %s", r.Patch)
				}
				if string(r.Patch) == "{}" && (r.Verdict != validation.Valid || len(serverWarnings(r)) > 0) {
					t.Fatalf("nothing sent, answered %s %v", r.Verdict, r.Warnings)
				}
				if r.Update && r.Patch == nil && r.Verdict != validation.Rejected && r.Verdict != validation.NotChecked {
					t.Fatalf("an update answered %s without a patch", r.Verdict)
				}
				if r.Update {
					gv, _ := schema.ParseGroupVersion(r.APIVersion)
					key := r.Kind + "/" + r.Namespace + "/" + r.Name
					if stored.Get(schema.GroupKind{Group: gv.Group, Kind: r.Kind}, r.Namespace, r.Name) == nil && !seen[key] {
						t.Fatalf("an update of nothing stored or applied before: %s", key)
					}
				}
				seen[r.Kind+"/"+r.Namespace+"/"+r.Name] = true
				out = append(out, fmt.Sprintf("%s %v %s %s %v", r.Verdict, r.Update, r.Patch, r.Message(), r.Warnings))
			}
			return out
		}
		first := answer()
		if second := answer(); !reflect.DeepEqual(first, second) {
			t.Fatalf("answers differ:\n%q\n%q", first, second)
		}
		for i, o := range kept {
			if !reflect.DeepEqual(o, copies[i]) {
				m, _ := meta.Accessor(o)
				t.Fatalf("live object %s changed", m.GetName())
			}
		}
	})
}

// serverWarnings are a result's warnings from the server.
func serverWarnings(r validation.ObjectResult) []string {
	var out []string
	for _, w := range r.Warnings {
		if w.Server {
			out = append(out, w.Message)
		}
	}
	return out
}

// TestApplyAnnotationTooLong is the best-known answer of kubectl apply that kubectl
// create does not give: an object whose JSON is over 256 KiB is created by kubectl
// create, but kubectl apply adds it to the object as the last-applied-configuration
// annotation, and the server refuses annotations of more than 256 KiB in all.
func TestApplyAnnotationTooLong(t *testing.T) {
	doc := "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: big}\nspec:\n  selector: {matchLabels: {app: big}}\n  template:\n    metadata: {labels: {app: big}}\n    spec:\n      containers:\n      - name: app\n        image: app\n        env: [{name: CONFIG, value: \"" + strings.Repeat("x", 300_000) + "\"}]\n"
	for _, withApply := range []bool{false, true} {
		opts := validation.StreamOptions{}
		if withApply {
			opts.Apply = apply.Patcher{}
		}
		var rs []validation.ObjectResult
		for r := range validation.ValidateStream(strings.NewReader(doc), "big.yaml", opts) {
			rs = append(rs, r)
		}
		if len(rs) != 1 {
			t.Fatalf("%d results", len(rs))
		}
		r := rs[0]
		if !withApply {
			if r.Verdict != validation.Valid {
				t.Errorf("create: %s", r.Message())
			}
			continue
		}
		if r.Verdict != validation.Invalid || len(r.Errors) != 1 || r.Errors[0].Field != "metadata.annotations" ||
			r.Errors[0].Error() != "metadata.annotations: Too long: may not be more than 262144 bytes" {
			t.Errorf("apply: %s %s %v", r.Verdict, r.Message(), r.Errors)
		}
	}
}

// FuzzPatcher calls the two methods directly on JSON documents read as a
// Deployment's fields: no panic; the same answers twice; the documents untouched;
// a patch is JSON; a patch computed without an original configuration and applied
// to current is idempotent, and "{}" leaves current as it is.
func FuzzPatcher(f *testing.F) {
	f.Add(`{"spec":{"replicas":1}}`, `{"spec":{"replicas":2,"template":{"spec":{"containers":[{"name":"a","image":"x"}]}}}}`, `{"spec":{"replicas":1,"template":{"spec":{"containers":[{"name":"a","image":"y"},{"name":"b"}]}}}}`)
	f.Add(``, `{"metadata":{"labels":{"a":"b"}}}`, `{"metadata":{"labels":{"a":"b"}}}`)
	f.Add(`{"spec":{"template":{"spec":{"volumes":[{"name":"v","emptyDir":{}}]}}}}`, `{"spec":{"template":{"spec":{"volumes":[{"name":"v","hostPath":{"path":"/"}}]}}}}`, `{"spec":{"template":{"spec":{"volumes":[{"name":"v","emptyDir":{}}],"containers":[{"name":"a","ports":[{"containerPort":80},{"containerPort":80}]}]}}}}`)
	var p apply.Patcher
	schemaObj := &appsv1.Deployment{}
	f.Fuzz(func(t *testing.T, original, modified, current string) {
		var orig []byte
		if original != "" {
			orig = []byte(original)
		}
		patch, err := p.CreateThreeWayPatch(orig, []byte(modified), []byte(current), schemaObj)
		again, err2 := p.CreateThreeWayPatch(orig, []byte(modified), []byte(current), schemaObj)
		if !bytes.Equal(patch, again) || (err == nil) != (err2 == nil) {
			t.Fatalf("answers differ: %s %v, %s %v", patch, err, again, err2)
		}
		if !reflect.DeepEqual(schemaObj, &appsv1.Deployment{}) {
			t.Fatal("the schema object changed")
		}
		if err != nil {
			return
		}
		var patchMap, currentMap map[string]any
		if err := json.Unmarshal(patch, &patchMap); err != nil {
			t.Fatalf("the patch is not a JSON object: %s", patch)
		}
		if json.Unmarshal([]byte(current), &currentMap) != nil || currentMap == nil {
			return
		}
		before, _ := json.Marshal(currentMap)
		merged, err := p.ApplyPatch(currentMap, patchMap, schemaObj)
		if after, _ := json.Marshal(currentMap); !bytes.Equal(before, after) {
			t.Fatal("ApplyPatch changed current")
		}
		if err != nil {
			return
		}
		if string(patch) == "{}" && !reflect.DeepEqual(merged, currentMap) {
			t.Fatalf("{} changed %s into %v", current, merged)
		}
		if orig == nil {
			var again map[string]any
			_ = json.Unmarshal(patch, &again)
			twice, err := p.ApplyPatch(merged, again, schemaObj)
			if err == nil && !reflect.DeepEqual(twice, merged) {
				t.Fatalf("the patch applied twice differs:\n%v\n%v", merged, twice)
			}
		}
	})
}
