package defaulting

import corev1 "k8s.io/api/core/v1"

// defaultPod and defaultTemplate are the public podlife.Default and
// podlife.DefaultTemplate: the engine with a default server's options.
func defaultPod(p *corev1.Pod) *corev1.Pod { return Pod(p, Options{}) }

func defaultTemplate(t *corev1.PodTemplateSpec) *corev1.PodTemplateSpec {
	return Template(t, Options{})
}
