package validation

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/podlife/podlife/internal/gates"
)

// fuzzKinds are the kinds the object fuzz targets decode into, by a byte of input.
var fuzzKinds = []string{"Pod", "PodTemplate", "ReplicationController", "Deployment", "ReplicaSet", "StatefulSet", "DaemonSet", "Job", "CronJob"}

func fuzzObject(kind string) runtime.Object {
	switch kind {
	case "Pod":
		return &corev1.Pod{}
	case "PodTemplate":
		return &corev1.PodTemplate{}
	case "ReplicationController":
		return &corev1.ReplicationController{}
	case "Deployment":
		return &appsv1.Deployment{}
	case "ReplicaSet":
		return &appsv1.ReplicaSet{}
	case "StatefulSet":
		return &appsv1.StatefulSet{}
	case "DaemonSet":
		return &appsv1.DaemonSet{}
	case "Job":
		return &batchv1.Job{}
	}
	return &batchv1.CronJob{}
}

var fuzzGateSets = []gates.FeatureGates{
	nil,
	{"AllAlpha": true, "AllBeta": true},
	{"AllBeta": false},
	{"ContainerRestartRules": false, "RestartAllContainersOnContainerExits": false},
}

// fuzzSeeds adds every case of the tables (testdata/workload_cases.json).
func fuzzSeeds(f *testing.F, add func(kind uint8, obj, old []byte)) {
	b, err := os.ReadFile(objectGoldenFile)
	if err != nil {
		return
	}
	var cases []goldenObjectCase
	if json.Unmarshal(b, &cases) != nil {
		return
	}
	for _, c := range cases {
		for i, k := range fuzzKinds {
			if k == c.Kind {
				old := []byte(c.Old)
				if old == nil {
					old = c.Object
				}
				add(uint8(i), c.Object, old)
			}
		}
	}
}

// checkAnswer holds an answer to its invariants: known error types, bad values that
// print (checkBadValue), and the same answer when asked again.
func checkAnswer(t *testing.T, first, second field.ErrorList) {
	t.Helper()
	if len(first) != len(second) {
		t.Fatalf("not deterministic: %d vs %d errors", len(first), len(second))
	}
	for i := range first {
		if first[i].Error() != second[i].Error() || first[i].Origin != second[i].Origin {
			t.Fatalf("not deterministic at %d: %q vs %q", i, first[i].Error(), second[i].Error())
		}
		if !knownErrorTypes[first[i].Type] {
			t.Fatalf("unknown error type %q", first[i].Type)
		}
		checkBadValue(t, first[i])
	}
}

// FuzzValidateObjectCreate feeds JSON objects of every kind (seeded with every table
// case) under the gate sets of the conformance tests. Invariants: no panic, the
// input is not modified, the answer is deterministic, error types are known, a Pod
// gets exactly ValidatePodCreate's answer, and the kinds agree with SupportedKinds
// (checkSupportedKinds).
func FuzzValidateObjectCreate(f *testing.F) {
	fuzzSeeds(f, func(kind uint8, obj, _ []byte) { f.Add(kind, obj, uint8(0)) })
	f.Add(uint8(7), []byte(`{"spec":{"completionMode":"Indexed","parallelism":2,"successPolicy":{"rules":[{"succeededCount":1}]}}}`), uint8(1))
	f.Add(uint8(8), []byte(`{"spec":{"schedule":"TZ=","timeZone":"Local"}}`), uint8(2))
	f.Fuzz(func(t *testing.T, kind uint8, data []byte, gateSet uint8) {
		obj := fuzzObject(fuzzKinds[int(kind)%len(fuzzKinds)])
		if err := json.Unmarshal(data, obj); err != nil {
			return
		}
		opts := Options{Features: fuzzGateSets[int(gateSet)%len(fuzzGateSets)], AllowPrivileged: gateSet&0x80 != 0}
		if gateSet&0x40 != 0 {
			opts.Namespace = "team-a"
		}
		before := obj.DeepCopyObject()
		first := ValidateObjectCreate(obj, opts)
		if !reflect.DeepEqual(obj, before) {
			t.Fatalf("input modified")
		}
		checkAnswer(t, first, ValidateObjectCreate(obj, opts))
		checkSupportedKinds(t, obj, first, opts)
		if pod, ok := obj.(*corev1.Pod); ok {
			if want := ValidatePodCreate(pod, opts); !reflect.DeepEqual(errorStrings(first), errorStrings(want)) {
				t.Fatalf("a Pod's answer is not ValidatePodCreate's")
			}
		}
		checkCreateWarnings(t, obj, opts, len(first) == 0)
	})
}

// checkCreateWarnings holds CreateWarnings to its invariants: the input untouched,
// the same answer twice, what the server's recorder lets through (see
// checkWarningList), and for a refused object only the warnings sent before
// validation.
func checkCreateWarnings(t *testing.T, obj runtime.Object, opts Options, valid bool) {
	t.Helper()
	before := obj.DeepCopyObject()
	ws := CreateWarnings(obj, opts)
	if !reflect.DeepEqual(obj, before) {
		t.Fatalf("CreateWarnings modified its input")
	}
	if again := CreateWarnings(obj, opts); !slices.Equal(ws, again) {
		t.Fatalf("CreateWarnings not deterministic:\n%q\n%q", ws, again)
	}
	checkWarningList(t, "a refused object", ws, func(w string) bool {
		return valid || strings.Contains(w, "ownerReferences contains duplicate entries") || strings.Contains(w, "deprecated since v1.30")
	})
}

// checkUpdateWarnings holds UpdateWarnings to its invariants: the inputs untouched,
// the same answer twice, what the server's recorder lets through; a refused update
// and any update of a pod warn only about repeated owner references; and an update
// that changes nothing (old to old) sends none of the template's warnings, as the
// generation does not move on.
func checkUpdateWarnings(t *testing.T, obj, old runtime.Object, opts Options, valid bool) {
	t.Helper()
	objBefore, oldBefore := obj.DeepCopyObject(), old.DeepCopyObject()
	ws := UpdateWarnings(obj, old, opts)
	if !reflect.DeepEqual(obj, objBefore) || !reflect.DeepEqual(old, oldBefore) {
		t.Fatalf("UpdateWarnings modified its input")
	}
	if again := UpdateWarnings(obj, old, opts); !slices.Equal(ws, again) {
		t.Fatalf("UpdateWarnings not deterministic:\n%q\n%q", ws, again)
	}
	_, isPod := obj.(*corev1.Pod)
	owners := func(w string) bool { return strings.Contains(w, "ownerReferences contains duplicate entries") }
	checkWarningList(t, "a refused update or a pod's", ws, func(w string) bool { return valid && !isPod || owners(w) })
	checkWarningList(t, "a no-op update", UpdateWarnings(old, old, opts), func(w string) bool {
		// What a StatefulSet and a CronJob warn about on every update.
		return owners(w) || strings.HasPrefix(w, "spec.revisionHistoryLimit: ") ||
			strings.HasPrefix(w, "spec.volumeClaimTemplates[") || strings.HasPrefix(w, "cannot use TZ or CRON_TZ")
	})
}

// checkWarningList holds a list of server warnings to what the server's recorder lets
// through (each text once, none empty or unwritable, at most 4 Ki runes of them once
// cut) and each warning to allowed, which what names.
func checkWarningList(t *testing.T, what string, ws []string, allowed func(string) bool) {
	t.Helper()
	seen := map[string]bool{}
	runes := 0
	for _, w := range ws {
		if w == "" || seen[w] || !writableWarning(w) {
			t.Fatalf("warning %q: empty, repeated or unwritable", w)
		}
		seen[w] = true
		runes += utf8.RuneCountInString(w)
		if !allowed(w) {
			t.Fatalf("%s warned: %q", what, w)
		}
	}
	if runes > warningsTruncateAtTotalRunes+warningsTruncateItemRunes {
		t.Fatalf("%d runes of warnings, past the recorder's limit", runes)
	}
}

// fuzzAPIVersions gives the apiVersion of each of fuzzKinds.
var fuzzAPIVersions = map[string]string{
	"Pod": "v1", "PodTemplate": "v1", "ReplicationController": "v1",
	"Deployment": "apps/v1", "ReplicaSet": "apps/v1", "StatefulSet": "apps/v1", "DaemonSet": "apps/v1",
	"Job": "batch/v1", "CronJob": "batch/v1",
}

// checkSupportedKinds holds ValidateObjectCreate's answer for obj (one of fuzzKinds)
// to SupportedKinds: the kind is listed and its answer is not the unsupported-kind
// error; an object of a type that holds no pod, carrying obj's apiVersion and kind,
// gets that one error, which names it as its TypeMeta does and lists SupportedKinds;
// and changing the list SupportedKinds returned changes nothing.
func checkSupportedKinds(t *testing.T, obj runtime.Object, errs field.ErrorList, opts Options) {
	t.Helper()
	kinds := SupportedKinds()
	kind := fmt.Sprintf("%T", obj)[len("*v1."):]
	if !slices.Contains(kinds, fuzzAPIVersions[kind]+"/"+kind) {
		t.Fatalf("%s is validated but not among SupportedKinds %v", kind, kinds)
	}
	for _, e := range errs {
		if e.Field == "kind" && e.Type == field.ErrorTypeNotSupported {
			t.Fatalf("a %s refused as unsupported: %q", kind, e.Error())
		}
	}
	typeMeta := reflect.ValueOf(obj).Elem().FieldByName("TypeMeta").Interface().(metav1.TypeMeta)
	other := ValidateObjectCreate(&corev1.ConfigMap{TypeMeta: typeMeta}, opts)
	name := "*v1.ConfigMap"
	if typeMeta.Kind != "" {
		name = typeMeta.GroupVersionKind().GroupVersion().String() + "/" + typeMeta.Kind
	}
	want := field.NotSupported(field.NewPath("kind"), name, kinds).Error()
	if len(other) != 1 || other[0].Error() != want {
		t.Fatalf("a ConfigMap typed %q: got %v, want %q", typeMeta.APIVersion+"/"+typeMeta.Kind, other, want)
	}
	kinds[0] = "v1/ConfigMap"
	if SupportedKinds()[0] == "v1/ConfigMap" {
		t.Fatalf("changing the list SupportedKinds returned changed the next one")
	}
}

// FuzzValidateObjectUpdate feeds pairs of JSON objects of every kind (seeded with
// every table case, creates as no-op updates). Invariants: no panic, neither input is
// modified, the answer is deterministic, error types are known; and UpdateWarnings'
// (checkUpdateWarnings).
func FuzzValidateObjectUpdate(f *testing.F) {
	fuzzSeeds(f, func(kind uint8, obj, old []byte) { f.Add(kind, obj, old, uint8(0)) })
	f.Fuzz(func(t *testing.T, kind uint8, data, oldData []byte, gateSet uint8) {
		k := fuzzKinds[int(kind)%len(fuzzKinds)]
		obj, old := fuzzObject(k), fuzzObject(k)
		if json.Unmarshal(data, obj) != nil || json.Unmarshal(oldData, old) != nil {
			return
		}
		opts := Options{Features: fuzzGateSets[int(gateSet)%len(fuzzGateSets)], AllowPrivileged: gateSet&0x80 != 0}
		objBefore, oldBefore := obj.DeepCopyObject(), old.DeepCopyObject()
		first := ValidateObjectUpdate(obj, old, opts)
		if !reflect.DeepEqual(obj, objBefore) || !reflect.DeepEqual(old, oldBefore) {
			t.Fatalf("input modified")
		}
		checkAnswer(t, first, ValidateObjectUpdate(obj, old, opts))
		checkUpdateWarnings(t, obj, old, opts, len(first) == 0)
	})
}

// TestObjectUnsupported: a type that holds no pod, nil, or a mismatched pair gets one
// error; a Pod gets ValidatePodCreate's answer.
func TestObjectUnsupported(t *testing.T) {
	for _, c := range []struct {
		name string
		errs field.ErrorList
		want string
	}{
		{"ConfigMap", ValidateObjectCreate(&corev1.ConfigMap{}, Options{}),
			`kind: Unsupported value: "*v1.ConfigMap": supported values: "v1/Pod", "v1/PodTemplate", "v1/ReplicationController", "apps/v1/Deployment", "apps/v1/ReplicaSet", "apps/v1/StatefulSet", "apps/v1/DaemonSet", "batch/v1/Job", "batch/v1/CronJob"`},
		{"nil", ValidateObjectCreate(nil, Options{}),
			`kind: Unsupported value: "nil": supported values: "v1/Pod", "v1/PodTemplate", "v1/ReplicationController", "apps/v1/Deployment", "apps/v1/ReplicaSet", "apps/v1/StatefulSet", "apps/v1/DaemonSet", "batch/v1/Job", "batch/v1/CronJob"`},
		{"typed Service", ValidateObjectUpdate(&corev1.Service{TypeMeta: metaType("v1", "Service")}, &corev1.Service{}, Options{}),
			`kind: Unsupported value: "v1/Service": supported values: "v1/Pod", "v1/PodTemplate", "v1/ReplicationController", "apps/v1/Deployment", "apps/v1/ReplicaSet", "apps/v1/StatefulSet", "apps/v1/DaemonSet", "batch/v1/Job", "batch/v1/CronJob"`},
		{"mismatched update", ValidateObjectUpdate(&appsv1.Deployment{}, &appsv1.StatefulSet{}, Options{}),
			`kind: Invalid value: "*v1.Deployment": the new and the stored object must be of the same kind; the stored object is *v1.StatefulSet`},
	} {
		if len(c.errs) != 1 || c.errs[0].Error() != c.want {
			t.Errorf("%s: got %q, want %q", c.name, errorStrings(c.errs), c.want)
		}
	}
	// Typed nil pointers of a supported kind are empty objects.
	if errs := ValidateObjectCreate((*appsv1.Deployment)(nil), Options{}); len(errs) == 0 || errs[0].Field != "metadata.name" {
		t.Errorf("nil Deployment: %v", errs)
	}
	pod := &corev1.Pod{}
	if !reflect.DeepEqual(errorStrings(ValidateObjectCreate(pod, Options{})), errorStrings(ValidatePodCreate(pod, Options{}))) {
		t.Error("a Pod's answer is not ValidatePodCreate's")
	}
	if got := SupportedKinds(); len(got) != 9 || got[0] != "v1/Pod" {
		t.Errorf("SupportedKinds: %v", got)
	}
}

func metaType(apiVersion, kind string) metav1.TypeMeta {
	return metav1.TypeMeta{APIVersion: apiVersion, Kind: kind}
}
