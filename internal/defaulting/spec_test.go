package defaulting

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// TestPullPoliciesMemo checks that the per-call memo answers as parsing each image
// afresh, whatever the order of the images.
func TestPullPoliciesMemo(t *testing.T) {
	images := []string{"nginx", "nginx", "nginx:1.27", "nginx:1.27", "nginx", "", "", "NGINX", "x@sha256:", "registry.example.com/a:latest", "nginx:1.27"}
	want := []corev1.PullPolicy{
		corev1.PullAlways, corev1.PullAlways, corev1.PullIfNotPresent, corev1.PullIfNotPresent, corev1.PullAlways,
		corev1.PullIfNotPresent, corev1.PullIfNotPresent, corev1.PullIfNotPresent, corev1.PullIfNotPresent,
		corev1.PullAlways, corev1.PullIfNotPresent,
	}
	var memo pullPolicies
	for i, image := range images {
		if got := memo.forImage(image); got != want[i] || got != pullPolicyFor(image) {
			t.Errorf("image %d %q: got %s, want %s", i, image, got, want[i])
		}
	}
}
