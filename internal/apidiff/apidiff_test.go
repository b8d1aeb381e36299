package apidiff

import (
	"reflect"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

func TestUnifiedDiff(t *testing.T) {
	lines := func(s string) []string { return SplitLines(s) }
	tests := []struct {
		name, a, b, want string
	}{
		{"one change", "a\nb\nc\nd\ne\nf\ng\nh", "a\nb\nc\nd\nX\nf\ng\nh",
			"@@ -2,7 +2,7 @@\n b\n c\n d\n-e\n+X\n f\n g\n h\n"},
		{"insert at start", "b\nc", "a\nb\nc", "@@ -1,2 +1,3 @@\n+a\n b\n c\n"},
		{"delete at end", "a\nb\nc", "a\nb", "@@ -1,3 +1,2 @@\n a\n b\n-c\n"},
		{"two hunks", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12", "X\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\nY",
			"@@ -1,4 +1,4 @@\n-1\n+X\n 2\n 3\n 4\n@@ -9,4 +9,4 @@\n 9\n 10\n 11\n-12\n+Y\n"},
		{"equal", "a\nb", "a\nb", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Unified(lines(tc.a), lines(tc.b), 3); got != tc.want {
				t.Errorf("got\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

func TestEqual(t *testing.T) {
	q := func(s string) resource.Quantity { return resource.MustParse(s) }
	tests := []struct {
		name string
		a, b any
		want bool
	}{
		{"quantities by value", corev1.ResourceList{"cpu": q("1")}, corev1.ResourceList{"cpu": q("1000m")}, true},
		{"different quantities", corev1.ResourceList{"cpu": q("1")}, corev1.ResourceList{"cpu": q("1001m")}, false},
		{"nil and empty slices", &corev1.PodSpec{Containers: nil}, &corev1.PodSpec{Containers: []corev1.Container{}}, true},
		{"nil and empty maps", &corev1.PodSpec{NodeSelector: nil}, &corev1.PodSpec{NodeSelector: map[string]string{}}, true},
		{"nil and set pointers", &corev1.PodSpec{ActiveDeadlineSeconds: nil}, &corev1.PodSpec{ActiveDeadlineSeconds: ptr(int64(0))}, false},
		{"pointed-to values", &corev1.PodSpec{ActiveDeadlineSeconds: ptr(int64(5))}, &corev1.PodSpec{ActiveDeadlineSeconds: ptr(int64(5))}, true},
		{"missing map key", map[string]string{"a": ""}, map[string]string{"b": ""}, false},
		{"times by instant", metav1.NewTime(time.Unix(5, 0).UTC()), metav1.NewTime(time.Unix(5, 0).In(time.FixedZone("x", 3600))), true},
	}
	for _, tc := range tests {
		if got := Equal(tc.a, tc.b); got != tc.want {
			t.Errorf("%s: got %v", tc.name, got)
		}
	}
}

func ptr[T any](v T) *T { return &v }

// TestInternalJSON checks the JSON of v1 values standing for internal ones: Go field
// names, and the apps/v1 pointers that are values in the internal API.
func TestInternalJSON(t *testing.T) {
	one := intstr.FromInt32(1)
	for _, c := range []struct {
		v    any
		want string
	}{
		{&appsv1.RollingUpdateStatefulSetStrategy{}, `{"Partition":0,"MaxUnavailable":null}`},
		{appsv1.DeploymentStrategy{Type: "x", RollingUpdate: &appsv1.RollingUpdateDeployment{MaxSurge: &one}}, `{"Type":"x","RollingUpdate":{"MaxUnavailable":0,"MaxSurge":1}}`},
		{&appsv1.DaemonSetUpdateStrategy{RollingUpdate: &appsv1.RollingUpdateDaemonSet{}}, `{"Type":"","RollingUpdate":{"MaxUnavailable":0,"MaxSurge":0}}`},
		{batchv1.SuccessPolicy{Rules: []batchv1.SuccessPolicyRule{{SucceededCount: new(int32(2))}}}, `{"Rules":[{"SucceededIndexes":null,"SucceededCount":2}]}`},
		{&metav1.LabelSelector{MatchLabels: map[string]string{"a": "b"}}, `{"matchLabels":{"a":"b"}}`},
	} {
		got, err := InternalJSON(c.v)
		if err != nil || string(got) != c.want {
			t.Errorf("%T: got %s (%v)\nwant %s", c.v, got, err, c.want)
		}
		if HoldsInternal(reflect.TypeOf(c.v)) == (c.want[1:6] == `"matc`) {
			t.Errorf("%T: HoldsInternal %v", c.v, HoldsInternal(reflect.TypeOf(c.v)))
		}
	}
}
