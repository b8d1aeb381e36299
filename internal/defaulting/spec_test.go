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
	// More images than the memo holds, repeated out of order: each answer is still
	// the image's own.
	images = append(images, "busybox", "gcr.io/p/app:v2", "busybox:latest", "a:latest", "b", "busybox", "nginx:1.27", "nginx", "gcr.io/p/app:v2")
	for n := range 3 {
		for i, image := range images[n:] {
			if got := memo.forImage(image); got != pullPolicyFor(image) {
				t.Errorf("round %d image %d %q: got %s, want %s", n, i, image, got, pullPolicyFor(image))
			}
		}
	}
}
