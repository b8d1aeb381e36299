package validation

import (
	"math/rand"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podlife/podlife/validation/apischeme"
)

// TestSlowQuantities: a quantity whose decoding would outlast the server's request
// timeout (a nonzero number rounded at a scale of 2^29 or more past nanounits) is
// the server's 504, where the decoder reaches it; one it does not reach, or does
// not read as a quantity, changes nothing. Each case would run for minutes to hours
// without the bound.
func TestSlowQuantities(t *testing.T) {
	const timeout = "Timeout: request did not complete within the allotted timeout"
	pod := func(resources string) string {
		return "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n    image: busybox\n    resources: " + resources + "\n"
	}
	for _, tc := range []struct {
		name, doc string
		opts      StreamOptions
		code      int32
		message   string
	}{
		{"an exponent past 32 bits, narrowed to -727379969", pod(`{limits: {cpu: "1e999999999999"}}`), StreamOptions{}, http.StatusGatewayTimeout, timeout},
		{"upstream's example (kubernetes/kubernetes#131063)", pod(`{requests: {memory: "2E6024865272343"}}`), StreamOptions{}, http.StatusGatewayTimeout, timeout},
		{"a negative exponent at the bound", pod(`{limits: {cpu: "1e-536870921"}}`), StreamOptions{}, http.StatusGatewayTimeout, timeout},
		{"the lowest exponent, whose negation wraps", pod(`{limits: {cpu: "1e-2147483648"}}`), StreamOptions{}, http.StatusGatewayTimeout, timeout},
		{"19 digits and a positive exponent", pod(`{limits: {cpu: "1234567890123456789e999999999"}}`), StreamOptions{}, http.StatusGatewayTimeout, timeout},
		{"digits after the point count", pod(`{limits: {cpu: "0.5e-536870920"}}`), StreamOptions{}, http.StatusGatewayTimeout, timeout},
		{"a pod's overhead, in JSON", `{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": {"overhead": {"cpu": "-3E-999999999"}, "containers": [{"name": "c", "image": "busybox"}]}}`,
			StreamOptions{}, http.StatusGatewayTimeout, timeout},
		{"an emptyDir's size limit, decoded only", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: busybox}]\n  volumes: [{name: v, emptyDir: {sizeLimit: '1e-999999999'}}]\n",
			StreamOptions{DecodeOnly: true}, http.StatusGatewayTimeout, timeout},
		{"a quota, decoded with a scheme", "apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: q}\nspec: {hard: {requests.cpu: '1e-999999999'}}\n",
			StreamOptions{Scheme: apischeme.New()}, http.StatusGatewayTimeout, timeout},
		{"the decoder stops first at cpu, sorted before memory", pod(`{limits: {memory: "1e-999999999", cpu: "lots"}}`), StreamOptions{},
			http.StatusBadRequest, `Pod in version "v1" cannot be handled as a Pod: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`},
		{"limits before requests", pod(`{requests: {cpu: "lots"}, limits: {cpu: "1e-999999999"}}`), StreamOptions{}, http.StatusGatewayTimeout, timeout},
		{"an unknown field is not decoded", pod(`{limitz: {cpu: "1e-999999999"}}`), StreamOptions{},
			http.StatusBadRequest, `Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.containers[0].resources.limitz"`},
		{"an escaped newline is not trimmed: the text does not parse", `{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": {"containers": [{"name": "c", "image": "busybox", "resources": {"limits": {"cpu": "1e-999999999\n"}}}]}}`,
			StreamOptions{}, http.StatusBadRequest, `Pod in version "v1" cannot be handled as a Pod: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := 0
			for r := range ValidateStream(strings.NewReader(tc.doc), "f", tc.opts) {
				n++
				st := r.Status()
				if r.Verdict != Rejected || st == nil || st.ErrStatus.Code != tc.code || st.ErrStatus.Message != tc.message {
					t.Errorf("%s %v, want the server's %d %q", r.Verdict, r.Err, tc.code, tc.message)
				}
				if tc.code == http.StatusGatewayTimeout && st != nil && st.ErrStatus.Reason != metav1.StatusReasonTimeout {
					t.Errorf("reason %q, want Timeout", st.ErrStatus.Reason)
				}
				if p, ok := r.TypeErrorField(); tc.code == http.StatusGatewayTimeout && (!ok || !strings.HasPrefix(p, "spec.")) {
					t.Errorf("TypeErrorField() = %q, %t; want the quantity", p, ok)
				}
			}
			if n != 1 {
				t.Errorf("%d results, want 1", n)
			}
		})
	}
	// Quantities the server decodes as quickly as podlife: the answer is the
	// object's own.
	for _, q := range []string{"0e-999999999", "1e999999999", "1e-9", "1e2147483647", "1e9223372036854775808", "1E", "1e-500000"} {
		doc := pod(`{limits: {cpu: "` + q + `"}}`)
		for r := range ValidateStream(strings.NewReader(doc), "f", StreamOptions{DecodeOnly: true}) {
			if st := r.Status(); st != nil && st.ErrStatus.Code == http.StatusGatewayTimeout {
				t.Errorf("%s: the server's 504, want its own answer", q)
			}
		}
	}
	// Unquoted, YAML reads the same text as a float, which underflows to 0.
	for r := range ValidateStream(strings.NewReader(pod("{limits: {cpu: 1e-999999999}}")), "f", StreamOptions{}) {
		if r.Verdict != Valid {
			t.Errorf("unquoted 1e-999999999: %s %v, want valid (YAML's float 0)", r.Verdict, r.Err)
		}
	}
	// The quantity is named, on its line.
	doc := pod("\n      requests: {cpu: 1}\n      limits:\n        cpu: 1\n        memory: \"1e-999999999\"\n")
	for r := range ValidateStream(strings.NewReader(doc), "f", StreamOptions{}) {
		if p, ok := r.TypeErrorField(); p != "spec.containers[0].resources.limits[memory]" || r.FieldLine(p) != 12 {
			t.Errorf("TypeErrorField() = %q, %t at line %d; want spec.containers[0].resources.limits[memory] at line 12 (%s %v)", p, ok, r.FieldLine(p), r.Verdict, r.Err)
		}
	}
	annotated := "apiVersion: v1\nkind: Pod\nmetadata: {name: p, annotations: {a: '1e-999999999'}}\nspec: {containers: [{name: c, image: busybox}]}\n"
	for r := range ValidateStream(strings.NewReader(annotated), "f", StreamOptions{}) {
		if r.Verdict != Valid {
			t.Errorf("an annotation that reads as a quantity: %s %v, want valid", r.Verdict, r.Err)
		}
	}
}

func TestRoundingShift(t *testing.T) {
	for _, tc := range []struct {
		text  string
		shift int64
		ok    bool
	}{
		{"1e-5", 0, false}, // an int64 amount
		{"1.25e3", 0, false},
		{"1e-9", 0, false},
		{"1e-10", -1, true},
		{"0.5e-536870920", -536870912, true},
		{"-0.000e-700", 0, false}, // zero is not rounded
		{"1e999999999999", -727379960, true},
		{"1e2147483647", 0, false},
		{"1e-2147483648", -2147483639, true}, // 9 + 2^31 wraps
		{"1234567890123456789e5", 14, true},  // 19 digits
		{"1234567890123456789e999999999", 1000000008, true},
		{"000000000000000000001e999999999", 0, false}, // leading zeros do not count
		{" 1E-20 ", -11, true},
		{"1e", 0, false},
		{"1ee5", 0, false},
		{"1Ki", 0, false},
		{"1.2.3e-50", 0, false},
		{"1e9223372036854775808", 0, false},
	} {
		shift, ok := roundingShift(tc.text)
		if shift != tc.shift || ok != tc.ok {
			t.Errorf("roundingShift(%q) = %d, %t; want %d, %t", tc.text, shift, ok, tc.shift, tc.ok)
		}
	}
}

// TestRoundingShiftMatchesParseQuantity checks which texts roundingShift finds
// rounded against resource.ParseQuantity itself, on nonzero quantities with small
// exponents (cheap to parse): the slow path leaves an inf.Dec in the quantity, the
// fast one an int64 amount.
func TestRoundingShiftMatchesParseQuantity(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	digits := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('0' + rng.Intn(10))
		}
		return string(b)
	}
	var rounded, fast int
	for range 20000 {
		text := []string{"", "+", "-"}[rng.Intn(3)] + strings.Repeat("0", rng.Intn(3)) + "1" + digits(rng.Intn(22))
		if rng.Intn(2) == 0 {
			text += "." + digits(rng.Intn(6))
		}
		text += []string{"e", "E"}[rng.Intn(2)] + strconv.Itoa(rng.Intn(81)-40)
		q, err := resource.ParseQuantity(text)
		if err != nil {
			t.Fatalf("ParseQuantity(%q): %v", text, err)
		}
		slowPath := !reflect.ValueOf(q).FieldByName("d").Field(0).IsNil()
		if _, ok := roundingShift(text); ok != slowPath {
			t.Fatalf("roundingShift(%q) ok = %t; ParseQuantity took the slow path: %t", text, ok, slowPath)
		}
		if slowPath {
			rounded++
		} else {
			fast++
		}
	}
	if rounded < 5000 || fast < 5000 {
		t.Errorf("%d rounded and %d int64 amounts; want ≥5000 each", rounded, fast)
	}
}
