package validation

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// liveObjects is what kubectl get -o yaml prints for the objects a cluster holds: a
// Deployment, a bare Pod and a Job with the selector the registry generated.
const liveObjects = `apiVersion: v1
kind: List
items:
- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: web
    namespace: default
    uid: 6f0c3c1e-8a55-4c55-9d0e-3f1e5c7a9b10
    resourceVersion: "7"
    generation: 3
  spec:
    replicas: 2
    selector:
      matchLabels: {app: web}
    template:
      metadata:
        labels: {app: web}
      spec:
        containers:
        - name: app
          image: nginx:1.27
- apiVersion: v1
  kind: Pod
  metadata:
    name: debug
    namespace: default
    uid: 0b7d1c2e-1f43-4e0f-a3c8-54e2a1d9c6aa
    resourceVersion: "12"
  spec:
    containers:
    - name: shell
      image: busybox:1.36
      resources:
        requests: {cpu: 100m}
`

// readStored reads live objects as a DecodeOnly stream and keeps them.
func readStored(t *testing.T, live string) *StoredObjects {
	t.Helper()
	stored := new(StoredObjects)
	for r := range ValidateStream(strings.NewReader(live), "live.yaml", StreamOptions{DecodeOnly: true}) {
		if !stored.Add(r) {
			t.Fatalf("live object not kept: %s", render(r))
		}
	}
	return stored
}

// TestStreamUpdatesStoredObjects: with StreamOptions.Stored, an object the cluster
// holds is answered as kubectl replace -f answers it, an update of the stored object;
// the others are created.
func TestStreamUpdatesStoredObjects(t *testing.T) {
	stored := readStored(t, liveObjects)
	for _, tc := range []struct {
		name string
		in   string
		want []string
	}{
		{
			name: "a new image is a valid update, with the update's warnings",
			in:   "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 2\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n      - name: app\n        image: nginx:1.28\n        env:\n        - {name: A, value: \"1\"}\n        - {name: A, value: \"2\"}\n",
			want: []string{`update 1.0@1 apps/v1 Deployment default/web valid [18: spec.template.spec.containers[0].env[1]: hides previous definition of "A", which may be dropped when using apply]`},
		},
		{
			name: "a new selector is immutable",
			in:   "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  selector:\n    matchLabels: {app: web2}\n  template:\n    metadata:\n      labels: {app: web2}\n    spec:\n      containers:\n      - name: app\n        image: nginx:1.27\n",
			want: []string{`update 1.0@1 apps/v1 Deployment default/web invalid: Deployment.apps "web" is invalid: spec.selector: Invalid value: {"matchLabels":{"app":"web2"}}: field is immutable`},
		},
		{
			name: "a stale resourceVersion conflicts",
			in:   "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  resourceVersion: \"5\"\nspec:\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n      - name: app\n        image: nginx:1.27\n",
			want: []string{`update 1.0@1 apps/v1 Deployment default/web rejected: Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again`},
		},
		{
			name: "a resourceVersion that is not a string is kubectl's decoding error, before any request",
			in:   "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  resourceVersion: 5\nspec:\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n      - name: app\n        image: nginx:1.27\n",
			want: []string{`1.0@1 apps/v1 Deployment /web rejected: unable to decode "f.yaml": json: cannot unmarshal number into Go struct field ObjectMeta.metadata.resourceVersion of type string`},
		},
		{
			name: "a bare pod's image may change, its resources may not",
			in:   "apiVersion: v1\nkind: Pod\nmetadata:\n  name: debug\nspec:\n  containers:\n  - name: shell\n    image: busybox:1.37\n    resources:\n      requests: {cpu: 100m}\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: debug\nspec:\n  containers:\n  - name: shell\n    image: busybox:1.36\n    resources:\n      requests: {cpu: 200m}\n",
			want: []string{"update 1.0@1 v1 Pod default/debug valid",
				"update 2.0@12 v1 Pod default/debug invalid: Pod \"debug\" is invalid: spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)\n@@ -14,7 +14,7 @@\n    \"Resources\": {\n     \"Limits\": null,\n     \"Requests\": {\n-     \"cpu\": \"100m\"\n+     \"cpu\": \"200m\"\n     },\n     \"Claims\": null\n    },\n"},
		},
		{
			name: "objects the cluster lacks are created",
			in:   "apiVersion: v1\nkind: Pod\nmetadata:\n  name: debug\n  namespace: other\nspec:\n  containers:\n  - name: shell\n    image: busybox\n",
			want: []string{"1.0@1 v1 Pod other/debug valid"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for r := range ValidateStream(strings.NewReader(tc.in), "f.yaml", StreamOptions{Stored: stored.Get}) {
				line := render(r)
				if r.Update {
					line = "update " + line
				}
				got = append(got, line)
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestStoredObjectsAdd: Add keeps a named object of a kind that holds a pod once,
// with its resourceVersion, or "1" for one written without (every stored object has
// one), without changing the result's object; Get finds it by kind, namespace and
// name.
func TestStoredObjectsAdd(t *testing.T) {
	const manifests = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: app, image: nginx}]}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cfg}
---
apiVersion: v1
kind: Pod
metadata: {generateName: job-}
spec: {containers: [{name: c, image: x}]}
---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: ns, resourceVersion: "42"}
spec: {containers: [{name: c, image: x}]}
---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: ns}
spec: {containers: [{name: c, image: y}]}
`
	stored := new(StoredObjects)
	var added []bool
	for r := range ValidateStream(strings.NewReader(manifests), "live.yaml", StreamOptions{DecodeOnly: true}) {
		before := r.Object
		var rv string
		if m, err := meta.Accessor(r.Object); err == nil {
			rv = m.GetResourceVersion()
		}
		added = append(added, stored.Add(r))
		if m, err := meta.Accessor(before); err == nil && m.GetResourceVersion() != rv {
			t.Errorf("Add changed the result's object: resourceVersion %q, was %q", m.GetResourceVersion(), rv)
		}
	}
	if want := []bool{true, false, false, true, false}; !slices.Equal(added, want) {
		t.Errorf("Add: %v, want %v (a Deployment, not a ConfigMap, not a pod without a name, a pod, not the same pod again)", added, want)
	}
	if stored.Len() != 2 {
		t.Errorf("Len() = %d, want 2", stored.Len())
	}
	for _, tc := range []struct {
		kind      schema.GroupKind
		ns, name  string
		wantRV    string
		wantImage string
	}{
		{schema.GroupKind{Group: "apps", Kind: "Deployment"}, "default", "web", "1", "nginx"},
		{schema.GroupKind{Kind: "Pod"}, "ns", "p", "42", "x"},
		{schema.GroupKind{Group: "extensions", Kind: "Deployment"}, "default", "web", "", ""},
		{schema.GroupKind{Kind: "Pod"}, "default", "p", "", ""},
	} {
		obj := stored.Get(tc.kind, tc.ns, tc.name)
		if tc.wantRV == "" {
			if obj != nil {
				t.Errorf("Get(%v, %s, %s) = %T, want nil", tc.kind, tc.ns, tc.name, obj)
			}
			continue
		}
		m, err := meta.Accessor(obj)
		if err != nil {
			t.Fatalf("Get(%v, %s, %s): %v", tc.kind, tc.ns, tc.name, err)
		}
		var image string
		switch o := obj.(type) {
		case *appsv1.Deployment:
			image = o.Spec.Template.Spec.Containers[0].Image
		case *corev1.Pod:
			image = o.Spec.Containers[0].Image
		}
		if m.GetResourceVersion() != tc.wantRV || image != tc.wantImage {
			t.Errorf("Get(%v, %s, %s): resourceVersion %q, image %q; want %q, %q", tc.kind, tc.ns, tc.name, m.GetResourceVersion(), image, tc.wantRV, tc.wantImage)
		}
	}
	var zero StoredObjects
	if zero.Get(schema.GroupKind{Kind: "Pod"}, "default", "p") != nil || zero.Len() != 0 {
		t.Error("the zero StoredObjects is not empty")
	}
}

// TestStreamUpdatesManifests: manifests standing for the objects they created (no
// resourceVersion, no status) are updated by the same manifests changed, as on a
// cluster; an unchanged manifest is a valid update that creates nothing.
func TestStreamUpdatesManifests(t *testing.T) {
	const main = "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec:\n  serviceName: db\n  selector: {matchLabels: {app: db}}\n  template:\n    metadata: {labels: {app: db}}\n    spec: {containers: [{name: db, image: postgres:16}]}\n  volumeClaimTemplates:\n  - metadata: {name: data}\n    spec:\n      accessModes: [ReadWriteOnce]\n      resources: {requests: {storage: 1Gi}}\n"
	stored := readStored(t, main)
	created := new(CreatedObjects)
	var got []string
	changed := strings.Replace(strings.Replace(main, "postgres:16", "postgres:17", 1), "storage: 1Gi", "storage: 2Gi", 1)
	for _, in := range []string{main, strings.Replace(main, "postgres:16", "postgres:17", 1), changed} {
		for r := range ValidateStream(strings.NewReader(in), "f.yaml", StreamOptions{Stored: stored.Get, Created: created}) {
			got = append(got, fmt.Sprintf("%t %s", r.Update, render(r)))
		}
	}
	want := []string{
		"true 1.0@1 apps/v1 StatefulSet default/db valid",
		"true 1.0@1 apps/v1 StatefulSet default/db valid",
		`true 1.0@1 apps/v1 StatefulSet default/db invalid: StatefulSet.apps "db" is invalid: spec.volumeClaimTemplates: Invalid value: [{"name":"data","Spec":{"AccessModes":["ReadWriteOnce"],"Selector":null,"Resources":{"Limits":null,"Requests":{"storage":"2Gi"}},"VolumeName":"","StorageClassName":null,"VolumeMode":"Filesystem","DataSource":null,"DataSourceRef":null,"VolumeAttributesClassName":null},"Status":{"Phase":"Pending","AccessModes":null,"Capacity":null,"Conditions":null,"AllocatedResources":null,"AllocatedResourceStatuses":null,"CurrentVolumeAttributesClassName":null,"ModifyVolumeStatus":null,"HealthStatus":null}}]: field is immutable`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if created.Len() != 0 {
		t.Errorf("Created.Len() = %d after updates only, want 0", created.Len())
	}
}

// TestStreamRefusalsBeforeValidation: a body the handler cannot convert is its 400,
// on create and on update; a request that panics the server is the panic filter's
// plain-text 500, which client-go reads as a generic server response naming the
// request (a POST to the resource, a PUT to the object); a body the server cannot
// decode is refused on update too, answered as the update it was sent as.
func TestStreamRefusalsBeforeValidation(t *testing.T) {
	const rolledBack = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  annotations: {deprecated.deployment.rollback.to: latest}\nspec:\n  selector: {matchLabels: {a: b}}\n  template:\n    metadata: {labels: {a: b}}\n    spec: {containers: [{name: c, image: x}]}\n"
	const panics = "apiVersion: batch/v1\nkind: Job\nmetadata: {name: sweep}\nspec:\n  completionMode: Indexed\n  parallelism: 4\n  successPolicy: {rules: [{succeededCount: 2}]}\n  template:\n    spec: {restartPolicy: Never, containers: [{name: c, image: x}]}\n"
	const unknownField = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replica: 2\n  selector: {matchLabels: {a: b}}\n  template:\n    metadata: {labels: {a: b}}\n    spec: {containers: [{name: c, image: x}]}\n"
	const storedWeb = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, resourceVersion: \"3\"}\nspec:\n  selector: {matchLabels: {a: b}}\n  template:\n    metadata: {labels: {a: b}}\n    spec: {containers: [{name: c, image: x}]}\n---\n" +
		"apiVersion: batch/v1\nkind: Job\nmetadata: {name: sweep, resourceVersion: \"4\"}\nspec:\n  completionMode: Indexed\n  completions: 4\n  parallelism: 4\n  template:\n    spec: {restartPolicy: Never, containers: [{name: c, image: x}]}\n"
	// The rolled-back Deployment with an unknown field too.
	rolledBackTypo := strings.Replace(rolledBack, "spec:\n", "spec:\n  replica: 2\n", 1)
	const dotDot = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: \"..\", namespace: ns, resourceVersion: \"5\"}\nspec:\n  selector: {matchLabels: {a: b}}\n  template:\n    metadata: {labels: {a: b}}\n    spec: {containers: [{name: c, image: x}]}\n"
	stored := readStored(t, storedWeb+"---\n"+dotDot)
	const conversionMsg = `Deployment in version "v1" cannot be handled as a Deployment: failed to parse annotation[deprecated.deployment.rollback.to]=latest as int64: strconv.ParseInt: parsing "latest": invalid syntax`
	for _, tc := range []struct {
		name, in string
		opts     StreamOptions
		want     string
		code     int32
	}{
		{"conversion, create", rolledBack, StreamOptions{}, `false 1.0@1 apps/v1 Deployment default/web rejected: Deployment in version "v1" cannot be handled as a Deployment: failed to parse annotation[deprecated.deployment.rollback.to]=latest as int64: strconv.ParseInt: parsing "latest": invalid syntax`, 400},
		{"conversion, update", rolledBack, StreamOptions{Stored: stored.Get}, `true 1.0@1 apps/v1 Deployment default/web rejected: Deployment in version "v1" cannot be handled as a Deployment: failed to parse annotation[deprecated.deployment.rollback.to]=latest as int64: strconv.ParseInt: parsing "latest": invalid syntax`, 400},
		{"panic, create", panics, StreamOptions{}, `false 1.0@1 batch/v1 Job default/sweep rejected: an error on the server ("This request caused apiserver to panic. Look in the logs for details.") has prevented the request from succeeding (post jobs.batch)`, 500},
		{"panic, no warning", strings.Replace(panics, "metadata: {name: sweep}", "metadata: {name: sweep, annotations: {seccomp.security.alpha.kubernetes.io/pod: runtime/default}}\nbogus: 1", 1), StreamOptions{FieldValidation: "Warn"}, `false 1.0@1 batch/v1 Job default/sweep rejected: an error on the server ("This request caused apiserver to panic. Look in the logs for details.") has prevented the request from succeeding (post jobs.batch)`, 500},
		{"panic, update", panics, StreamOptions{Stored: stored.Get}, `true 1.0@1 batch/v1 Job default/sweep rejected: an error on the server ("This request caused apiserver to panic. Look in the logs for details.") has prevented the request from succeeding (put jobs.batch sweep)`, 500},
		{"strict decoding, update", unknownField, StreamOptions{Stored: stored.Get}, `true 1.0@1 apps/v1 Deployment default/web rejected: Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.replica"`, 400},
		// The codec converts before it reports strict errors: the conversion's 400
		// under Strict, and under Warn the same 400 without the unknown field's
		// warning; DecodeOnly decodes as the server does, conversion included.
		{"conversion before strict errors", rolledBackTypo, StreamOptions{}, `false 1.0@1 apps/v1 Deployment default/web rejected: ` + conversionMsg, 400},
		{"conversion before strict warnings", rolledBackTypo, StreamOptions{FieldValidation: "Warn"}, `false 1.0@1 apps/v1 Deployment default/web rejected: ` + conversionMsg, 400},
		{"conversion before strict errors, update", rolledBackTypo, StreamOptions{Stored: stored.Get}, `true 1.0@1 apps/v1 Deployment default/web rejected: ` + conversionMsg, 400},
		{"conversion, decode only", rolledBack, StreamOptions{DecodeOnly: true}, `false 1.0@1 apps/v1 Deployment default/web rejected: ` + conversionMsg, 400},
		// client-go builds no URL with a namespace, or for a PUT a name, that is
		// not a path segment: nothing is sent, no status comes back.
		{"namespace not a path segment", strings.Replace(validPod, "name: web", "name: web\n  namespace: team/a", 1), StreamOptions{}, `false 1.0@1 v1 Pod team/a/web rejected: error when creating "f.yaml": invalid namespace "team/a": [may not contain '/']`, 0},
		{"name not a path segment, update", dotDot, StreamOptions{Stored: stored.Get}, `true 1.0@1 apps/v1 Deployment ns/.. rejected: error when replacing "f.yaml": invalid resource name "..": [may not be '..']`, 0},
		{"name not a path segment, create", strings.Replace(dotDot, "namespace: ns", "namespace: other", 1), StreamOptions{}, `false 1.0@1 apps/v1 Deployment other/.. invalid: Deployment.apps ".." is invalid: metadata.name: Invalid value: "..": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`, 422},
	} {
		var got []string
		var codes []int32
		for r := range ValidateStream(strings.NewReader(tc.in), "f.yaml", tc.opts) {
			got = append(got, fmt.Sprintf("%t %s", r.Update, render(r)))
			if st := r.Status(); st != nil {
				codes = append(codes, st.ErrStatus.Code)
			}
		}
		wantCodes := []int32{tc.code}
		if tc.code == 0 {
			wantCodes = nil
		}
		if len(got) != 1 || got[0] != tc.want || !slices.Equal(codes, wantCodes) {
			t.Errorf("%s:\n got  %q (codes %v)\n want %q (%d)", tc.name, got, codes, tc.want, tc.code)
		}
	}
}

// TestStoredNil: a Stored function that returns a nil pointer holds nothing for
// that name, and a nil *StoredObjects holds nothing.
func TestStoredNil(t *testing.T) {
	pods := map[string]*corev1.Pod{}
	opts := StreamOptions{Stored: func(_ schema.GroupKind, _, name string) runtime.Object { return pods[name] }}
	if got := renderAll(validPod, opts); !slices.Equal(got, []string{"1.0@1 v1 Pod default/web valid"}) {
		t.Errorf("a nil *Pod stored: %q", got)
	}
	var none *StoredObjects
	if none.Get(schema.GroupKind{Kind: "Pod"}, "default", "web") != nil || none.Len() != 0 {
		t.Error("a nil *StoredObjects holds something")
	}
	if got := renderAll(validPod, StreamOptions{Stored: none.Get}); !slices.Equal(got, []string{"1.0@1 v1 Pod default/web valid"}) {
		t.Errorf("a nil *StoredObjects' Get: %q", got)
	}
}

// TestClientRefusalLines: a request client-go refuses to build points at the field at
// fault when the document writes it, and at no line for a namespace from --namespace.
func TestClientRefusalLines(t *testing.T) {
	inNamespace := strings.Replace(validPod, "name: web", "name: web\n  namespace: team/a", 1)
	stored := readStored(t, "apiVersion: v1\nkind: Pod\nmetadata:\n  namespace: default\n  name: ..\nspec:\n  containers:\n  - name: app\n    image: nginx\n")
	for _, tc := range []struct {
		name, in string
		opts     StreamOptions
		line     int
	}{
		{"namespace written", inNamespace, StreamOptions{}, 5},
		{"namespace from --namespace", validPod, StreamOptions{Namespace: ".."}, 0},
		{"name of an update", strings.Replace(validPod, "name: web", "name: ..", 1), StreamOptions{Stored: stored.Get}, 4},
	} {
		var lines []int
		for r := range ValidateStream(strings.NewReader(tc.in), "f.yaml", tc.opts) {
			var ke *KubectlError
			if !errors.As(r.Err, &ke) {
				t.Fatalf("%s: %s, want kubectl's error", tc.name, render(r))
			}
			lines = append(lines, ke.Line)
		}
		if !slices.Equal(lines, []int{tc.line}) {
			t.Errorf("%s: lines %v, want [%d]", tc.name, lines, tc.line)
		}
	}
}
