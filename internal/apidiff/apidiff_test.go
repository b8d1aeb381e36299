package apidiff

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
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
