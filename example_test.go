package podlife_test

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podlife/podlife"
)

// A container with limits only gets equal requests, so the pod is Guaranteed; an
// untagged image is pulled Always.
func ExampleDefault() {
	pod := &corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{{
		Name:  "app",
		Image: "nginx",
		Resources: corev1.ResourceRequirements{Limits: corev1.ResourceList{
			corev1.ResourceCPU:    resource.MustParse("500m"),
			corev1.ResourceMemory: resource.MustParse("0.5Gi"),
		}},
	}}}}
	out := podlife.Default(pod)
	c := out.Spec.Containers[0]
	fmt.Println("requests:", c.Resources.Requests.Cpu(), c.Resources.Requests.Memory())
	fmt.Println("imagePullPolicy:", c.ImagePullPolicy)
	fmt.Println("qosClass:", out.Status.QOSClass)
	fmt.Println("phase:", out.Status.Phase)
	fmt.Println("restartPolicy:", out.Spec.RestartPolicy, "dnsPolicy:", out.Spec.DNSPolicy)
	// Output:
	// requests: 500m 512Mi
	// imagePullPolicy: Always
	// qosClass: Guaranteed
	// phase: Pending
	// restartPolicy: Always dnsPolicy: ClusterFirst
}

// An update is defaulted against the stored pod: the stored status stays, and the
// generation moves only when the spec changes.
func ExampleDefaultForUpdate() {
	stored := podlife.Default(&corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "nginx:1.27"}}}})

	relabelled := stored.DeepCopy()
	relabelled.Labels = map[string]string{"tier": "web"}
	fmt.Println(podlife.DefaultForUpdate(relabelled, stored, podlife.DefaultOptions{}).Generation)

	newImage := stored.DeepCopy()
	newImage.Spec.Containers[0].Image = "nginx:1.28"
	out := podlife.DefaultForUpdate(newImage, stored, podlife.DefaultOptions{})
	fmt.Println(out.Generation, out.Status.Phase, out.Status.QOSClass)
	// Output:
	// 1
	// 2 Pending BestEffort
}

func exampleTemplate() *corev1.PodTemplateSpec {
	return &corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{
			Name:  "web",
			Image: "nginx:1.27",
			Resources: corev1.ResourceRequirements{Limits: corev1.ResourceList{
				corev1.ResourceCPU:    resource.MustParse("250m"),
				corev1.ResourceMemory: resource.MustParse("256Mi"),
			}},
		}}},
	}
}

// A Deployment's template as the API server stores it: PodSpec defaults, but limits
// are not copied into requests (that happens only when a pod is created).
func ExampleDefaultTemplate() {
	stored := podlife.DefaultTemplate(exampleTemplate())
	c := stored.Spec.Containers[0]
	fmt.Println("requests:", c.Resources.Requests == nil)
	fmt.Println("imagePullPolicy:", c.ImagePullPolicy)
	fmt.Println("restartPolicy:", stored.Spec.RestartPolicy)
	// Output:
	// requests: true
	// imagePullPolicy: IfNotPresent
	// restartPolicy: Always
}

// The pod a ReplicaSet controller gets stored for the same template.
func ExamplePodFromTemplate() {
	pod := podlife.PodFromTemplate(exampleTemplate(), podlife.PodFromTemplateOptions{
		ControllerName: "web-7d9f8c",
		Namespace:      "default",
	})
	c := pod.Spec.Containers[0]
	fmt.Println("generateName:", pod.GenerateName)
	fmt.Println("requests:", c.Resources.Requests.Cpu(), c.Resources.Requests.Memory())
	fmt.Println("qosClass:", pod.Status.QOSClass)
	// Output:
	// generateName: web-7d9f8c-
	// requests: 250m 256Mi
	// qosClass: Guaranteed
}

// Overrides are checked with the API server's own rules and wording.
func ExampleFeatureGates_Validate() {
	gates := podlife.FeatureGates{"ContainerRestartRules": false}
	fmt.Println(gates.Validate())

	gates["RestartAllContainersOnContainerExits"] = false
	fmt.Println(gates.Validate())
	fmt.Println(gates.Enabled("ContainerRestartRules"), gates.Enabled("PodLevelResources"))

	fmt.Println(podlife.FeatureGates{"InPlacePodVerticalScaling": false}.Validate())
	// Output:
	// RestartAllContainersOnContainerExits is enabled, but depends on features that are disabled: [ContainerRestartRules]
	// <nil>
	// false true
	// cannot set feature gate InPlacePodVerticalScaling to false, feature is locked to true
}

// A --feature-gates value is read as a Kubernetes component reads its flag.
func ExampleParseFeatureGates() {
	gates, err := podlife.ParseFeatureGates("ContainerRestartRules=false, RestartAllContainersOnContainerExits=false")
	fmt.Println(gates, err)
	fmt.Println(gates.Enabled("ContainerRestartRules"))

	_, err = podlife.ParseFeatureGates("PodLevelResources=yes")
	fmt.Println(err)
	_, err = podlife.ParseFeatureGates("ContainerRestartRules=false")
	fmt.Println(err)
	// Output:
	// map[ContainerRestartRules:false RestartAllContainersOnContainerExits:false] <nil>
	// false
	// invalid value of PodLevelResources: yes, err: strconv.ParseBool: parsing "yes": invalid syntax
	// RestartAllContainersOnContainerExits is enabled, but depends on features that are disabled: [ContainerRestartRules]
}
