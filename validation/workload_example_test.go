package validation_test

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/podlife/podlife/validation"
)

// A Deployment whose selector does not select its template, with a rolling update
// that can never make progress.
func ExampleValidateObjectCreate() {
	zero := intOrString("0%")
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web"},
		Spec: appsv1.DeploymentSpec{
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "frontend"}},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: "nginx"}}},
			},
			Strategy: appsv1.DeploymentStrategy{RollingUpdate: &appsv1.RollingUpdateDeployment{MaxUnavailable: &zero, MaxSurge: &zero}},
		},
	}
	for _, err := range validation.ValidateObjectCreate(d, validation.Options{}) {
		fmt.Println(err)
	}
	// Output:
	// spec.template.metadata.labels: Invalid value: {"app":"frontend"}: `selector` does not match template `labels`
	// spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "0%": may not be 0 when `maxSurge` is 0
}

// A CronJob: the schedule is parsed as the server parses it, and a time zone must be
// one the server knows.
func ExampleValidateObjectCreate_cronJob() {
	tz := "Europe/Berln"
	cj := &batchv1.CronJob{
		ObjectMeta: metav1.ObjectMeta{Name: "report"},
		Spec: batchv1.CronJobSpec{
			Schedule: "0 25 * * *",
			TimeZone: &tz,
			JobTemplate: batchv1.JobTemplateSpec{Spec: batchv1.JobSpec{Template: corev1.PodTemplateSpec{
				Spec: corev1.PodSpec{RestartPolicy: corev1.RestartPolicyOnFailure, Containers: []corev1.Container{{Name: "report", Image: "busybox"}}},
			}}},
		},
	}
	for _, err := range validation.ValidateObjectCreate(cj, validation.Options{}) {
		fmt.Println(err)
	}
	// Output:
	// spec.schedule: Invalid value: "0 25 * * *": end of range (25) above maximum (23): 25
	// spec.timeZone: Invalid value: "Europe/Berln": unknown time zone Europe/Berln
}

// A StatefulSet may not change its service name, and a Job's pod template is
// immutable unless the Job is suspended.
func ExampleValidateObjectUpdate() {
	old := &appsv1.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{Name: "db", Namespace: "default", ResourceVersion: "7"},
		Spec: appsv1.StatefulSetSpec{
			ServiceName: "db",
			Selector:    &metav1.LabelSelector{MatchLabels: map[string]string{"app": "db"}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "db"}},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "db", Image: "postgres:16"}}},
			},
		},
	}
	updated := old.DeepCopy()
	updated.Spec.ServiceName = "database"
	updated.Spec.Template.Spec.Containers[0].Image = "postgres:17"
	for _, err := range validation.ValidateObjectUpdate(updated, old, validation.Options{}) {
		fmt.Println(err)
	}
	// Output:
	// spec.serviceName: Invalid value: "database": field is immutable
}

// Types that hold no pod are refused with one error.
func ExampleValidateObjectCreate_unsupported() {
	fmt.Println(validation.ValidateObjectCreate(&corev1.ConfigMap{}, validation.Options{})[0].Type)
	// Output:
	// Unsupported value
}

func intOrString(s string) intstr.IntOrString { return intstr.FromString(s) }

func ExampleCreateWarnings() {
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web"},
		Spec: corev1.PodSpec{
			NodeSelector: map[string]string{"beta.kubernetes.io/os": "linux"},
			Containers: []corev1.Container{{
				Name: "app", Image: "nginx",
				Env: []corev1.EnvVar{{Name: "JAVA_OPTS", Value: "-Xmx1g"}, {Name: "JAVA_OPTS", Value: "-Xmx2g"}},
			}},
		},
	}
	for _, w := range validation.CreateWarnings(pod, validation.Options{}) {
		fmt.Println("Warning:", w)
	}
	// Output:
	// Warning: spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; use "kubernetes.io/os" instead
	// Warning: spec.containers[0].env[1]: hides previous definition of "JAVA_OPTS", which may be dropped when using apply
}

// A Deployment stored with a deprecated node label in its template warns again only
// when an update changes its spec: scaling it moves the generation on and brings the
// template's warnings back; relabelling it does not.
func ExampleUpdateWarnings() {
	labels := map[string]string{"app": "web"}
	stored := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", ResourceVersion: "41", Generation: 2},
		Spec: appsv1.DeploymentSpec{
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{
					NodeSelector: map[string]string{"beta.kubernetes.io/arch": "amd64"},
					Containers:   []corev1.Container{{Name: "app", Image: "nginx"}},
				},
			},
		},
	}

	relabelled := stored.DeepCopy()
	relabelled.Labels = map[string]string{"team": "web"}
	fmt.Println("relabelled:", validation.UpdateWarnings(relabelled, stored, validation.Options{}))

	scaled := stored.DeepCopy()
	replicas := int32(5)
	scaled.Spec.Replicas = &replicas
	for _, w := range validation.UpdateWarnings(scaled, stored, validation.Options{}) {
		fmt.Println("scaled: Warning:", w)
	}
	// Output:
	// relabelled: []
	// scaled: Warning: spec.template.spec.nodeSelector[beta.kubernetes.io/arch]: deprecated since v1.14; use "kubernetes.io/arch" instead
}
