package validation

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation"
)

// FuzzPlainLabelValue checks the hand-written matcher against apimachinery's.
func FuzzPlainLabelValue(f *testing.F) {
	for _, v := range []string{"", "a", "A-b_c.d", "-a", "a-", "a b", "ä", "0", "a..b",
		"123456789012345678901234567890123456789012345678901234567890123",
		"1234567890123456789012345678901234567890123456789012345678901234"} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v string) {
		if got, want := isPlainLabelValue(v), len(validation.IsValidLabelValue(v)) == 0; got != want {
			t.Fatalf("isPlainLabelValue(%q) = %v, apimachinery says valid = %v", v, got, want)
		}
	})
}

// TestDefaultCreateOptionsShortcut: the precomputed create options equal the full
// computation for any new pod.
func TestDefaultCreateOptionsShortcut(t *testing.T) {
	relaxed := &corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "a", Env: []corev1.EnvVar{{Name: "1=x"}}}}}}
	for _, pod := range []*corev1.Pod{nil, {}, relaxed} {
		for _, priv := range []bool{false, true} {
			opts := Options{AllowPrivileged: priv}
			if got, want := resolveOptions(opts, pod, nil), computeOptions(opts, pod, nil); got != want {
				t.Errorf("pod %v, privileged %v: shortcut %+v, computed %+v", pod, priv, got, want)
			}
		}
	}
}
