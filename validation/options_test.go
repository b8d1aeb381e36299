package validation

import (
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/podlife/podlife"
)

// Re-expresses the create/update rows of upstream TestGetValidationOptionsFromPodSpec
// (k8s.io/kubernetes pkg/api/pod/util_test.go) for the options podlife derives.
func TestResolveOptions(t *testing.T) {
	noRules := podlife.FeatureGates{"ContainerRestartRules": false, "RestartAllContainersOnContainerExits": false}
	withRules := &corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", RestartPolicy: ptr(corev1.ContainerRestartPolicyNever)}}}}
	withRestartAll := &corev1.Pod{Spec: corev1.PodSpec{InitContainers: []corev1.Container{{Name: "s",
		RestartPolicy:      ptr(corev1.ContainerRestartPolicyAlways),
		RestartPolicyRules: []corev1.ContainerRestartRule{{Action: "Restart"}},
	}}}}
	indivisible := &corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c",
		Resources: corev1.ResourceRequirements{Limits: rl("hugepages-2Mi", "3Mi")},
	}}}}
	nonSidecarRestart := &corev1.Pod{Spec: corev1.PodSpec{InitContainers: []corev1.Container{{Name: "i",
		ResizePolicy: []corev1.ContainerResizePolicy{{ResourceName: "cpu", RestartPolicy: corev1.RestartContainer}},
	}}}}
	badCost := &corev1.Pod{}
	badCost.Annotations = map[string]string{corev1.PodDeletionCost: "+1"}

	tests := []struct {
		name     string
		features podlife.FeatureGates
		old      *corev1.Pod
		check    func(o podValidationOptions) bool
	}{
		{"create defaults", nil, nil, func(o podValidationOptions) bool {
			return o.podLevelResourcesEnabled && o.allowContainerRestartPolicyRules && o.allowRestartAllContainers &&
				o.allowSidecarResizePolicy && o.allowRelaxedEnvironmentVariableValidation && o.allowEnvFilesValidation &&
				!o.allowIndivisibleHugePagesValues && !o.allowInvalidPodDeletionCost && !o.resourceIsPod &&
				!o.allowExistingRestartContainerForNonSidecarInitContainer && !o.allowOnlyRecursiveSELinuxChangePolicy
		}},
		{"rules off on create", noRules, nil, func(o podValidationOptions) bool {
			return !o.allowContainerRestartPolicyRules && !o.allowRestartAllContainers
		}},
		{"rules off, old pod uses a container restart policy", noRules, withRules, func(o podValidationOptions) bool {
			return o.allowContainerRestartPolicyRules && !o.allowRestartAllContainers
		}},
		{"restart-all off, old sidecar has rules", noRules, withRestartAll, func(o podValidationOptions) bool {
			return o.allowContainerRestartPolicyRules && o.allowRestartAllContainers
		}},
		{"old pod with indivisible hugepages", nil, indivisible, func(o podValidationOptions) bool { return o.allowIndivisibleHugePagesValues }},
		{"old non-sidecar RestartContainer", nil, nonSidecarRestart, func(o podValidationOptions) bool {
			return o.allowExistingRestartContainerForNonSidecarInitContainer
		}},
		{"old pod with invalid deletion cost", nil, badCost, func(o podValidationOptions) bool { return o.allowInvalidPodDeletionCost }},
		{"EnvFiles off", podlife.FeatureGates{"EnvFiles": false}, nil, func(o podValidationOptions) bool { return !o.allowEnvFilesValidation }},
		{"PodDeletionCost off", podlife.FeatureGates{"PodDeletionCost": false}, nil, func(o podValidationOptions) bool { return o.allowInvalidPodDeletionCost }},
		{"SELinuxMount off", podlife.FeatureGates{"SELinuxMount": false}, nil, func(o podValidationOptions) bool { return o.allowOnlyRecursiveSELinuxChangePolicy }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			newPod := basePod()
			if o := resolveOptions(Options{Features: tc.features}, newPod, tc.old); !tc.check(o) {
				t.Errorf("unexpected options %+v", o)
			}
		})
	}
}
