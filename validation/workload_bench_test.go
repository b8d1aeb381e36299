package validation

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// benchObjects returns one typical object of every supported workload kind, each
// holding benchPod(3) as its template.
func benchObjects() map[string]runtime.Object {
	pod := benchPod(3)
	meta := metav1.ObjectMeta{Name: "web", Namespace: "prod", Labels: map[string]string{"app": "web"}}
	sel := &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	tmpl := corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: pod.Labels}, Spec: pod.Spec}
	replicas := int32(3)
	jobTmpl := *tmpl.DeepCopy()
	jobTmpl.Spec.RestartPolicy = corev1.RestartPolicyOnFailure
	return map[string]runtime.Object{
		"Pod":         pod,
		"PodTemplate": &corev1.PodTemplate{ObjectMeta: meta, Template: tmpl},
		"ReplicationController": &corev1.ReplicationController{ObjectMeta: meta,
			Spec: corev1.ReplicationControllerSpec{Replicas: &replicas, Selector: map[string]string{"app": "web"}, Template: &tmpl}},
		"Deployment":  &appsv1.Deployment{ObjectMeta: meta, Spec: appsv1.DeploymentSpec{Replicas: &replicas, Selector: sel, Template: tmpl}},
		"ReplicaSet":  &appsv1.ReplicaSet{ObjectMeta: meta, Spec: appsv1.ReplicaSetSpec{Replicas: &replicas, Selector: sel, Template: tmpl}},
		"DaemonSet":   &appsv1.DaemonSet{ObjectMeta: meta, Spec: appsv1.DaemonSetSpec{Selector: sel, Template: tmpl}},
		"StatefulSet": &appsv1.StatefulSet{ObjectMeta: meta, Spec: appsv1.StatefulSetSpec{Replicas: &replicas, Selector: sel, Template: tmpl, ServiceName: "web"}},
		"Job":         &batchv1.Job{ObjectMeta: meta, Spec: batchv1.JobSpec{Template: jobTmpl}},
		"CronJob": &batchv1.CronJob{ObjectMeta: meta, Spec: batchv1.CronJobSpec{Schedule: "*/5 * * * *",
			JobTemplate: batchv1.JobTemplateSpec{Spec: batchv1.JobSpec{Template: jobTmpl}}}},
	}
}

// BenchmarkValidateObjectCreate measures the whole create path of each kind on a
// typical valid object.
func BenchmarkValidateObjectCreate(b *testing.B) {
	objs := benchObjects()
	for _, kind := range []string{"Pod", "PodTemplate", "ReplicationController", "Deployment", "ReplicaSet", "DaemonSet", "StatefulSet", "Job", "CronJob"} {
		obj := objs[kind]
		b.Run(kind, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if errs := ValidateObjectCreate(obj, Options{}); len(errs) != 0 {
					b.Fatal(errs)
				}
			}
		})
	}
}
