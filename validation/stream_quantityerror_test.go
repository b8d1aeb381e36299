package validation

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"
)

func TestTypeErrorFieldQuantity(t *testing.T) {
	const pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n"
	for _, tc := range []struct {
		name, doc, want string
	}{
		{"an empty request (a user's DaemonSet)", "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: nginx}\nspec:\n  selector: {matchLabels: {app: nginx}}\n  template:\n    metadata: {labels: {app: nginx}}\n    spec:\n      containers:\n      - image: nginx\n        name: nginx\n        resources:\n          requests:\n            cpu: \"\"\n            memeory: \"\"\n",
			"spec.template.spec.containers[0].resources.requests[cpu]"},
		{"the first by key, not by line", pod + "  containers:\n  - name: c\n    image: busybox\n    resources:\n      requests: {memory: 1Gb, cpu: 1x}\n",
			"spec.containers[0].resources.requests[cpu]"},
		{"limits before requests", pod + "  containers:\n  - name: c\n    image: busybox\n    resources:\n      requests: {cpu: one}\n      limits: {cpu: two}\n",
			"spec.containers[0].resources.limits[cpu]"},
		{"containers before initContainers", pod + "  initContainers:\n  - {name: i, image: busybox, resources: {limits: {memory: lots}}}\n  containers:\n  - {name: c, image: busybox, resources: {limits: {memory: more}}}\n",
			"spec.containers[0].resources.limits[memory]"},
		{"the second container", pod + "  containers:\n  - {name: a, image: busybox, resources: {limits: {cpu: 100m}}}\n  - {name: b, image: busybox, resources: {limits: {cpu: 100M1}}}\n",
			"spec.containers[1].resources.limits[cpu]"},
		{"an emptyDir's size limit", pod + "  containers: [{name: c, image: busybox}]\n  volumes:\n  - name: v\n    emptyDir: {sizeLimit: 1GiB}\n",
			"spec.volumes[0].emptyDir.sizeLimit"},
		{"a divisor", pod + "  containers:\n  - name: c\n    image: busybox\n    env:\n    - name: CPU\n      valueFrom: {resourceFieldRef: {resource: limits.cpu, divisor: 1 m}}\n",
			"spec.containers[0].env[0].valueFrom.resourceFieldRef.divisor"},
		{"a boolean", pod + "  overhead: {cpu: yes}\n  containers: [{name: c, image: busybox}]\n",
			"spec.overhead[cpu]"},
		{"an object", pod + "  resources: {limits: {memory: {value: 1Gi}}}\n  containers: [{name: c, image: busybox}]\n",
			"spec.resources.limits[memory]"},
		{"two decimal points", pod + "  containers: [{name: c, image: busybox, resources: {requests: {cpu: 1.2.3}}}]\n",
			"spec.containers[0].resources.requests[cpu]"},
		{"an unknown suffix", pod + "  containers: [{name: c, image: busybox, resources: {requests: {memory: 64iK}}}]\n",
			"spec.containers[0].resources.requests[memory]"},
		{"a newline is escaped, not trimmed", `{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": {"containers": [{"name": "c", "image": "busybox", "resources": {"limits": {"cpu": " 1 ", "memory": "1Gi\n"}}}]}}`,
			"spec.containers[0].resources.limits[memory]"},
		{"a List item", "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata: {name: p}\n  spec:\n    containers: [{name: c, image: busybox, resources: {limits: {cpu: half}}}]\n",
			"spec.containers[0].resources.limits[cpu]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := 0
			for r := range ValidateStream(strings.NewReader(tc.doc), "f", StreamOptions{}) {
				n++
				if !isQuantityError(r.Message()) {
					t.Fatalf("the answer is not a quantity's refusal: %s %s", r.Verdict, r.Message())
				}
				if got, ok := r.TypeErrorField(); !ok || got != tc.want {
					t.Errorf("TypeErrorField() = %q, %t; want %q (answer: %s)", got, ok, tc.want, r.Message())
				}
			}
			if n != 1 {
				t.Errorf("%d results, want 1", n)
			}
		})
	}
	// A bad quantity in a field the kind does not have is dropped, not decoded: the
	// answer is the strict decoding error, and no quantity is named.
	unknown := pod + "  containers: [{name: c, image: busybox, resourcez: {limits: {cpu: x}}}]\n"
	for r := range ValidateStream(strings.NewReader(unknown), "f", StreamOptions{}) {
		if got, ok := r.TypeErrorField(); ok || isQuantityError(r.Message()) {
			t.Errorf("unknown field: TypeErrorField() = %q, %t (answer: %s)", got, ok, r.Message())
		}
	}
}

// badQuantities are values resource.ParseQuantity refuses with different errors (its
// third, ErrNumeric, follows a text its pattern admits and is not met here), so that
// the decoder's error tells which of them it met first.
var badQuantities = []struct {
	value string
	err   error
}{{"lots", resource.ErrFormatWrong}, {"64iK", resource.ErrSuffix}}

// TestTypeErrorFieldQuantityMatchesDecoder checks TypeErrorField against
// encoding/json on generated pods and deployments with one or two bad quantities,
// each refused with another of ParseQuantity's errors, among valid ones in every
// field that holds a quantity: the body kubectl would send is decoded into the
// typed object, and the value TypeErrorField names must be the one whose error the
// decoder returned.
func TestTypeErrorFieldQuantityMatchesDecoder(t *testing.T) {
	for _, b := range badQuantities {
		if _, err := resource.ParseQuantity(b.value); err != b.err {
			t.Fatalf("ParseQuantity(%q) = %v, want %v", b.value, err, b.err)
		}
	}
	rng := rand.New(rand.NewSource(11))
	var compared, yamlDocs, deployments int
	fields := map[string]int{}
	for i := range 600 {
		doc, obj, slots := quantityDoc(rng, i)
		bad := map[string]int{}
		for k, j := range rng.Perm(len(slots))[:1+rng.Intn(min(len(badQuantities), len(slots)))] {
			slots[j].set(badQuantities[k].value)
			bad[slots[j].path] = k
		}
		body, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		decodeErr := json.Unmarshal(body, obj)
		want := ""
		for path, k := range bad {
			if decodeErr == badQuantities[k].err {
				want = path
			}
		}
		if want == "" {
			t.Fatalf("doc %d: the decoder's error %v is none of the bad quantities' %v\n%s", i, decodeErr, bad, body)
		}
		text := string(body)
		if i%2 == 0 {
			text = blockYAML(doc, "")
			yamlDocs++
		}
		for r := range ValidateStream(strings.NewReader(text), "f", StreamOptions{}) {
			if got, ok := r.TypeErrorField(); !ok || got != want {
				t.Fatalf("doc %d: TypeErrorField() = %q, %t; the decoder stopped at %q (%s)\n%s", i, got, ok, want, r.Message(), text)
			}
			compared++
			if r.Kind == "Deployment" {
				deployments++
			}
			fields[quantityFieldKind(want)]++
		}
	}
	t.Logf("%d compared (%d YAML, %d Deployments), named by field: %v", compared, yamlDocs, deployments, fields)
	if compared != 600 || yamlDocs < 300 || deployments < 150 || len(fields) < 6 {
		t.Errorf("coverage: %d compared (%d YAML, %d Deployments), %d kinds of field %v; want 600, ≥300, ≥150, ≥6", compared, yamlDocs, deployments, len(fields), fields)
	}
}

// quantitySlot is a place of a generated document that holds a quantity.
type quantitySlot struct {
	path string
	set  func(value string)
}

// quantityDoc draws a Pod or a Deployment with quantities in container and init
// container requests and limits, pod overhead, pod-level resources, emptyDir size
// limits and resourceFieldRef divisors, all valid, and returns it with the typed
// object it decodes into and its quantities' places.
func quantityDoc(rng *rand.Rand, i int) (map[string]any, runtime.Object, []quantitySlot) {
	prefix := "spec."
	if i%3 == 0 {
		prefix = "spec.template.spec."
	}
	var slots []quantitySlot
	list := func(path string) map[string]any {
		m := map[string]any{}
		for _, name := range rng.Perm(4)[:1+rng.Intn(3)] {
			key := []string{"cpu", "memory", "ephemeral-storage", "example.com/gpu"}[name]
			m[key] = []any{"100m", "64Mi", json.Number("2"), "1e3"}[rng.Intn(4)]
			slots = append(slots, quantitySlot{fmt.Sprintf("%s[%s]", path, key), func(v string) { m[key] = v }})
		}
		return m
	}
	containers := func(field string, n int) []any {
		var out []any
		for c := range n {
			at := fmt.Sprintf("%s%s[%d]", prefix, field, c)
			ctr := map[string]any{"name": fmt.Sprintf("%s%d", field[:1], c), "image": "busybox"}
			res := map[string]any{}
			if rng.Intn(3) > 0 {
				res["requests"] = list(at + ".resources.requests")
			}
			if rng.Intn(3) > 0 {
				res["limits"] = list(at + ".resources.limits")
			}
			ctr["resources"] = res
			if rng.Intn(3) == 0 {
				ref := map[string]any{"resource": "limits.cpu", "divisor": "1m"}
				ctr["env"] = []any{map[string]any{"name": "CPU", "valueFrom": map[string]any{"resourceFieldRef": ref}}}
				slots = append(slots, quantitySlot{at + ".env[0].valueFrom.resourceFieldRef.divisor", func(v string) { ref["divisor"] = v }})
			}
			out = append(out, ctr)
		}
		return out
	}
	spec := map[string]any{"containers": containers("containers", 1+rng.Intn(3))}
	if n := rng.Intn(3); n > 0 {
		spec["initContainers"] = containers("initContainers", n)
	}
	if rng.Intn(3) == 0 {
		spec["overhead"] = list(prefix + "overhead")
	}
	if rng.Intn(3) == 0 {
		spec["resources"] = map[string]any{"limits": list(prefix + "resources.limits")}
	}
	if rng.Intn(3) == 0 {
		dir := map[string]any{"sizeLimit": "1Gi"}
		spec["volumes"] = []any{map[string]any{"name": "v", "emptyDir": dir}}
		slots = append(slots, quantitySlot{prefix + "volumes[0].emptyDir.sizeLimit", func(v string) { dir["sizeLimit"] = v }})
	}
	meta := map[string]any{"name": "x", "labels": map[string]any{"a": "b"}}
	if i%3 != 0 {
		return map[string]any{"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec}, &corev1.Pod{}, slots
	}
	return map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "d"},
		"spec": map[string]any{"selector": map[string]any{"matchLabels": map[string]any{"a": "b"}}, "template": map[string]any{"metadata": meta, "spec": spec}}}, &appsv1.Deployment{}, slots
}

// quantityFieldKind names the kind of field a quantity's path ends in, for coverage.
func quantityFieldKind(path string) string {
	for _, k := range []string{"initContainers", "divisor", "overhead", "sizeLimit", "spec.resources", "spec.template.spec.resources"} {
		if strings.Contains(path, k) {
			return k
		}
	}
	if strings.Contains(path, ".requests[") {
		return "container requests"
	}
	return "container limits"
}
