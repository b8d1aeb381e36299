package validation_test

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podlife/podlife/validation"
)

// The myapp-pod of the Init Containers page, with three mistakes: an init container
// reuses the app container's name, it has a readiness probe (only sidecars may), and
// the app container's memory request exceeds its limit.
func ExampleValidatePodCreate() {
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "myapp-pod", Namespace: "default", Labels: map[string]string{"app": "myapp"}},
		Spec: corev1.PodSpec{
			Containers: []corev1.Container{{
				Name:    "myapp-container",
				Image:   "busybox:1.28",
				Command: []string{"sh", "-c", "echo The app is running! && sleep 3600"},
				Resources: corev1.ResourceRequirements{
					Requests: corev1.ResourceList{corev1.ResourceMemory: resourceMustParse("256Mi")},
					Limits:   corev1.ResourceList{corev1.ResourceMemory: resourceMustParse("128Mi")},
				},
			}},
			InitContainers: []corev1.Container{{
				Name:    "myapp-container",
				Image:   "busybox:1.28",
				Command: []string{"sh", "-c", "until nslookup myservice; do sleep 2; done"},
				ReadinessProbe: &corev1.Probe{ProbeHandler: corev1.ProbeHandler{
					Exec: &corev1.ExecAction{Command: []string{"true"}},
				}},
			}},
		},
	}
	for _, err := range validation.ValidatePodCreate(pod, validation.Options{}) {
		fmt.Println(err)
	}
	// Output:
	// spec.containers[0].resources.requests: Invalid value: "256Mi": must be less than or equal to memory limit of 128Mi
	// spec.initContainers[0].name: Duplicate value: "myapp-container"
	// spec.initContainers[0].readinessProbe: Forbidden: may not be set for init containers without restartPolicy=Always
}

// A sidecar (an init container with restartPolicy Always) may have probes; an
// invalid container restart policy is reported with the supported values.
func ExampleValidatePodCreate_sidecar() {
	always := corev1.ContainerRestartPolicyAlways
	bogus := corev1.ContainerRestartPolicy("Sometimes")
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: corev1.PodSpec{
			InitContainers: []corev1.Container{{
				Name: "log-shipper", Image: "fluent-bit:3", RestartPolicy: &always,
				ReadinessProbe: &corev1.Probe{ProbeHandler: corev1.ProbeHandler{Exec: &corev1.ExecAction{Command: []string{"true"}}}},
			}},
			Containers: []corev1.Container{{Name: "web", Image: "nginx:1.27", RestartPolicy: &bogus}},
		},
	}
	for _, err := range validation.ValidatePodCreate(pod, validation.Options{}) {
		fmt.Println(err)
	}
	// Output:
	// spec.containers[0].restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "Never", "OnFailure"
}

func resourceMustParse(s string) resource.Quantity { return resource.MustParse(s) }

// Pods made by controllers and test frameworks carry only a generateName and no
// namespace: the server generates the name and takes the namespace from the
// request, and so does ValidatePodCreate. A generateName that is not a valid name
// prefix makes the generated name invalid too; its last 5 characters stand for the
// server's random ones.
func ExampleValidatePodCreate_generateName() {
	spec := corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "busybox:1.36"}}}
	ok := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{GenerateName: "e2e-test-"}, Spec: spec}
	fmt.Println(len(validation.ValidatePodCreate(ok, validation.Options{Namespace: "e2e-1234"})), "errors")

	bad := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{GenerateName: "E2E_"}, Spec: spec}
	for _, err := range validation.ValidatePodCreate(bad, validation.Options{}) {
		fmt.Println(err.Field, err.Type, err.BadValue)
	}

	// The request's namespace and the pod's must agree.
	other := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "prod"}, Spec: spec}
	for _, err := range validation.ValidatePodCreate(other, validation.Options{Namespace: "staging"}) {
		fmt.Println(err.Detail)
	}
	// Output:
	// 0 errors
	// metadata.generateName Invalid value E2E_
	// metadata.name Invalid value E2E_xxxxx
	// the namespace of the provided object does not match the namespace sent on the request
}
