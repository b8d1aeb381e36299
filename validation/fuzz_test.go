package validation

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/podlife/podlife"
)

var knownErrorTypes = map[field.ErrorType]bool{
	field.ErrorTypeNotFound: true, field.ErrorTypeRequired: true, field.ErrorTypeDuplicate: true,
	field.ErrorTypeInvalid: true, field.ErrorTypeNotSupported: true, field.ErrorTypeForbidden: true,
	field.ErrorTypeTooLong: true, field.ErrorTypeTooMany: true, field.ErrorTypeInternal: true,
}

// FuzzValidatePodCreate feeds JSON pods (seeded with every table case and every pod
// of upstream's tables) and a gate and option choice. Invariants: no panic, the input is not modified, the answer is
// deterministic, every error has a known type and a path under metadata or spec, and
// a bad value in its internal form prints as its JSON (checkBadValue).
func FuzzValidatePodCreate(f *testing.F) {
	if b, err := os.ReadFile(goldenFile); err == nil {
		var cases []goldenCase
		if json.Unmarshal(b, &cases) == nil {
			for _, c := range cases {
				pb, _ := json.Marshal(c.Pod)
				f.Add(pb, uint8(0))
			}
		}
	}
	// The pods of upstream's tables, validated as given and with every alpha and
	// beta gate on (schedulingGroup and evictionResponders are kept then).
	if b, err := os.ReadFile("testdata/upstream_create_cases.json"); err == nil {
		var cases []upstreamCreateCase
		if json.Unmarshal(b, &cases) == nil {
			for _, c := range cases {
				pb, _ := json.Marshal(c.Pod)
				f.Add(pb, uint8(0x20|5))
			}
		}
	}
	f.Add([]byte(`{}`), uint8(1))
	f.Add([]byte(`{"spec":{"containers":[{"name":"c","image":"i","lifecycle":{"stopSignal":"SIGTERM"}}],"os":{"name":"linux"}}}`), uint8(2))
	gateSets := []podlife.FeatureGates{
		nil,
		{"ContainerRestartRules": false, "RestartAllContainersOnContainerExits": false},
		{"ContainerStopSignals": true},
		{"PodLevelResources": false, "PodLevelResourcesFixDefaulting": false, "PodLevelResourcesFixKubeletQOSClass": false, "InPlacePodLevelResourcesVerticalScaling": false},
		{"EnvFiles": false},
		{"AllAlpha": true, "AllBeta": true},
	}
	f.Fuzz(func(t *testing.T, data []byte, gates uint8) {
		var pod corev1.Pod
		if err := json.Unmarshal(data, &pod); err != nil {
			return
		}
		opts := Options{Features: gateSets[int(gates)%len(gateSets)], AllowPrivileged: gates&0x80 != 0}
		if gates&0x40 != 0 {
			opts.Namespace = "team-a"
		}
		opts.SkipDefaulting = gates&0x20 != 0
		before := pod.DeepCopy()
		first := ValidatePodCreate(&pod, opts)
		if !reflect.DeepEqual(&pod, before) {
			t.Fatalf("input modified")
		}
		second := ValidatePodCreate(&pod, opts)
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
			staticClaims := first[i].Detail == "static pods do not support resource claims" // upstream reports it at the empty path
			if !strings.HasPrefix(first[i].Field, "metadata") && !strings.HasPrefix(first[i].Field, "spec") && !staticClaims {
				t.Fatalf("error outside metadata and spec: %q", first[i].Error())
			}
			// The server fills in the namespace and generates the name first.
			if first[i].Type == field.ErrorTypeRequired && first[i].Field == "metadata.namespace" {
				t.Fatalf("namespace reported missing: %q", first[i].Error())
			}
			if first[i].Type == field.ErrorTypeRequired && first[i].Field == "metadata.name" && pod.GenerateName != "" {
				t.Fatalf("name reported missing despite generateName: %q", first[i].Error())
			}
		}
		// A conflicting request namespace is the one and only answer.
		mismatch := pod.Namespace != "" && opts.Namespace != "" && pod.Namespace != opts.Namespace
		if mismatch != (len(first) == 1 && first[0].Detail == NamespaceMismatchDetail) {
			t.Fatalf("namespace %q, request namespace %q: got %q", pod.Namespace, opts.Namespace, first.ToAggregate())
		}
	})
}

// checkBadValue holds an error whose bad value is an InternalForm to field.Error's
// printer: the value marshals to valid JSON, and an error type that prints its bad
// value prints that JSON.
func checkBadValue(t *testing.T, e *field.Error) {
	t.Helper()
	f, ok := e.BadValue.(InternalForm)
	if !ok {
		return
	}
	b, err := f.MarshalJSON()
	if err != nil || !json.Valid(b) {
		t.Fatalf("%s: the internal form of %T marshals to %q, %v", e.Field, f.Value, b, err)
	}
	switch e.Type {
	case field.ErrorTypeInvalid, field.ErrorTypeNotSupported, field.ErrorTypeNotFound, field.ErrorTypeDuplicate, field.ErrorTypeTooMany:
		if !strings.Contains(e.Error(), string(b)) {
			t.Fatalf("%q does not print its bad value %s", e.Error(), b)
		}
	}
}

func TestNilPod(t *testing.T) {
	errs := ValidatePodCreate(nil, Options{})
	want := []string{
		"metadata.name: Required value: name or generateName is required",
		"spec.containers: Required value",
	}
	got := make([]string, len(errs))
	for i, e := range errs {
		got[i] = e.Error()
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}
