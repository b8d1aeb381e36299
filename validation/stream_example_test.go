package validation_test

import (
	"fmt"
	"strings"

	"github.com/podlife/podlife/validation"
)

// A manifest file as people write them: a pod with a typo, a duplicate key, a flow-style
// document, a CronJob of a version the server no longer serves and a Service.
func ExampleValidateStream() {
	manifest := `# the app
apiVersion: v1
kind: Pod
metadata:
  name: web
  labels:
    app: web
spec:
  containers:
  - name: app
    image: nginx:1.27
    imagePullPolice: Always
---
{ apiVersion: v1, kind: Pod, metadata: { name: batch }, spec: { containers: [ { name: job } ] } }
---
apiVersion: batch/v1beta1
kind: CronJob
metadata:
  name: nightly
---
apiVersion: v1
kind: Service
metadata:
  name: web
  name: web-svc
`
	for r := range validation.ValidateStream(strings.NewReader(manifest), "app.yaml", validation.StreamOptions{}) {
		fmt.Printf("app.yaml:%d: %s %q: %s\n", r.Line, r.Kind, r.Name, r.Verdict)
		if msg := r.Message(); msg != "" {
			fmt.Println("  ", strings.ReplaceAll(msg, "\n", " "))
		}
		for _, w := range r.Warnings {
			fmt.Printf("   app.yaml:%d: %s\n", w.Line, w.Message)
		}
	}
	// Output:
	// app.yaml:2: Pod "web": rejected
	//    Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.containers[0].imagePullPolice"
	// app.yaml:14: Pod "batch": invalid
	//    Pod "batch" is invalid: spec.containers[0].image: Required value
	// app.yaml:16: CronJob "nightly": rejected
	//    resource mapping not found for name: "nightly" namespace: "" from "app.yaml": no matches for kind "CronJob" in version "batch/v1beta1" ensure CRDs are installed first
	// app.yaml:21: Service "web-svc": not checked
	//    app.yaml:25: duplicate key "name": kubectl keeps only the last value and the API server never sees the others
}

// Where a field is: the server's errors name fields by path, FieldLine finds their
// line in the file.
func ExampleObjectResult_FieldLine() {
	manifest := `apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
  containers:
  - name: app
    image: nginx
  - name: log
    image: " busybox"
`
	for r := range validation.ValidateStream(strings.NewReader(manifest), "pod.yaml", validation.StreamOptions{}) {
		for _, err := range r.Errors {
			fmt.Printf("pod.yaml:%d: %v\n", r.FieldLine(err.Field), err)
		}
	}
	// Output:
	// pod.yaml:10: spec.containers[1].image: Invalid value: " busybox": must not have leading or trailing whitespace
}

// A linter's view of a typo: the line of the unknown field, its text, and the field
// that was meant.
func ExampleObjectResult_SuggestField() {
	manifest := `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replica: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: app
        image: nginx:1.27
`
	for r := range validation.ValidateStream(strings.NewReader(manifest), "web.yaml", validation.StreamOptions{}) {
		line := r.FieldLine("spec.replica")
		text, _ := r.SourceLine(line)
		meant, _ := r.SuggestField("spec.replica")
		fmt.Printf("%s:%d: %s\n", r.Source, line, strings.TrimSpace(text))
		fmt.Printf("unknown field %q: did you mean %q?\n", "spec.replica", meant)
	}
	// Output:
	// web.yaml:6: replica: 3
	// unknown field "spec.replica": did you mean "replicas"?
}

// A value of the wrong type is named by the server without list indices;
// TypeErrorField finds it, and FieldLine its line.
func ExampleObjectResult_TypeErrorField() {
	const manifest = `apiVersion: v1
kind: Pod
metadata:
  name: envar-demo
spec:
  containers:
  - name: app
    image: nginx
    env:
    - name: GREETING
      value: hello
    - name: ENABLE_CACHE
      value: yes
`
	for r := range validation.ValidateStream(strings.NewReader(manifest), "pod.yaml", validation.StreamOptions{}) {
		fmt.Println(r.Message())
		if path, ok := r.TypeErrorField(); ok {
			fmt.Printf("line %d: %s\n", r.FieldLine(path), path)
		}
	}
	// Output:
	// Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal bool into Go struct field EnvVar.spec.containers.env.value of type string
	// line 13: spec.containers[0].env[1].value
}

// A quantity that does not parse is refused with no field named at all;
// TypeErrorField names the first the server's decoding met: the body kubectl sends
// has its keys sorted, so cpu comes before memory.
func ExampleObjectResult_TypeErrorField_quantity() {
	const manifest = `apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
  containers:
  - name: app
    image: nginx
    resources:
      requests:
        memory: 1Gb
        cpu: half
`
	for r := range validation.ValidateStream(strings.NewReader(manifest), "pod.yaml", validation.StreamOptions{}) {
		fmt.Println(r.Message())
		if path, ok := r.TypeErrorField(); ok {
			fmt.Printf("line %d: %s\n", r.FieldLine(path), path)
		}
	}
	// Output:
	// Pod in version "v1" cannot be handled as a Pod: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'
	// line 12: spec.containers[0].resources.requests[cpu]
}

// A pull request changes a Deployment and a bare Pod the cluster already runs: read
// the live objects (here the manifests on the main branch, standing for the objects
// they created) into StoredObjects, and the new manifests are answered as updates of
// them, as kubectl replace -f sends them. A new image is accepted, with the update's
// warnings; a Deployment the cluster lacks is created; a bare pod's resources cannot
// change.
func ExampleStoredObjects() {
	live := `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: app, image: nginx:1.27}]}
---
apiVersion: v1
kind: Pod
metadata: {name: debug}
spec: {containers: [{name: shell, image: busybox:1.36, resources: {requests: {cpu: 100m}}}]}
`
	changed := `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: app
        image: nginx:1.28
        ports: [{containerPort: 80}, {containerPort: 80}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: api}
spec:
  selector: {matchLabels: {app: api}}
  template:
    metadata: {labels: {app: api}}
    spec: {containers: [{name: api, image: api:2}]}
---
apiVersion: v1
kind: Pod
metadata: {name: debug}
spec: {containers: [{name: shell, image: busybox:1.36, resources: {requests: {cpu: 200m}}}]}
`
	stored := new(validation.StoredObjects)
	for r := range validation.ValidateStream(strings.NewReader(live), "main.yaml", validation.StreamOptions{DecodeOnly: true}) {
		stored.Add(r)
	}
	for r := range validation.ValidateStream(strings.NewReader(changed), "app.yaml", validation.StreamOptions{Stored: stored.Get}) {
		how := "create"
		if r.Update {
			how = "update"
		}
		fmt.Printf("app.yaml:%d: %s %s %q: %s\n", r.Line, how, r.Kind, r.Name, r.Verdict)
		for _, e := range r.Errors {
			fmt.Printf("  app.yaml:%d: %s: %s\n", r.FieldLine(e.Field), e.Field, strings.SplitN(e.ErrorBody(), "\n", 2)[0])
		}
		for _, w := range r.Warnings {
			fmt.Printf("  app.yaml:%d: warning: %s\n", w.Line, w.Message)
		}
	}
	// Output:
	// app.yaml:1: update Deployment "web": valid
	//   app.yaml:12: warning: spec.template.spec.containers[0].ports[1]: duplicate port definition with spec.template.spec.containers[0].ports[0]
	// app.yaml:14: create Deployment "api": valid
	// app.yaml:23: update Pod "debug": invalid
	//   app.yaml:26: spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)
}

// A cluster with cert-manager installed serves its kinds: give the definitions (as
// kubectl get crd -o yaml prints them) and its objects are sent, not refused as kinds
// the server lacks.
func ExampleReadCustomResources() {
	crds := `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: certificates.cert-manager.io}
spec:
  group: cert-manager.io
  names: {kind: Certificate, plural: certificates}
  scope: Namespaced
  versions: [{name: v1, served: true, storage: true}]
`
	custom, err := validation.ReadCustomResources(strings.NewReader(crds))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%+v\n", custom)
	manifest := `apiVersion: cert-manager.io/v1
kind: Certificate
metadata: {name: web-tls}
spec: {secretName: web-tls, dnsNames: [web.example.com]}
`
	for _, opts := range []validation.StreamOptions{{}, {CustomResources: custom}} {
		for r := range validation.ValidateStream(strings.NewReader(manifest), "certs.yaml", opts) {
			fmt.Printf("%s %s/%s: %s %s\n", r.Kind, r.Namespace, r.Name, r.Verdict, r.Message())
		}
	}
	// Output:
	// [{Group:cert-manager.io Version:v1 Kind:Certificate Resource:certificates Namespaced:true Warning:}]
	// Certificate /web-tls: rejected resource mapping not found for name: "web-tls" namespace: "" from "certs.yaml": no matches for kind "Certificate" in version "cert-manager.io/v1"
	// ensure CRDs are installed first
	// Certificate default/web-tls: not checked
}
