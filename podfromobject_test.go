package podlife

import (
	"reflect"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

func objTemplate() corev1.PodTemplateSpec {
	return corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "nginx",
			Resources: corev1.ResourceRequirements{Limits: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1")}}}}},
	}
}

func TestPodFromObject(t *testing.T) {
	meta := metav1.ObjectMeta{Name: "web", Namespace: "ns", UID: "u1"}
	sel := &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	jobTmpl := objTemplate()
	jobTmpl.Spec.RestartPolicy = corev1.RestartPolicyNever
	indexed := batchv1.IndexedCompletion
	tests := []struct {
		name  string
		obj   runtime.Object
		check func(t *testing.T, p *corev1.Pod)
	}{
		{"Deployment", &appsv1.Deployment{ObjectMeta: meta, Spec: appsv1.DeploymentSpec{Selector: sel, Template: objTemplate()}}, func(t *testing.T, p *corev1.Pod) {
			// Its pods belong to a ReplicaSet the Deployment controller makes: no owner.
			if p.GenerateName != "web-" || p.Namespace != "ns" || len(p.OwnerReferences) != 0 {
				t.Errorf("metadata: %+v", p.ObjectMeta)
			}
			// The pod defaults copy limits to requests and set the QoS class.
			if q := p.Spec.Containers[0].Resources.Requests.Cpu(); q.String() != "1" || p.Status.QOSClass != corev1.PodQOSBurstable {
				t.Errorf("requests %v, QoS %s", q, p.Status.QOSClass)
			}
		}},
		{"StatefulSet", &appsv1.StatefulSet{ObjectMeta: meta, Spec: appsv1.StatefulSetSpec{Selector: sel, Template: objTemplate(), ServiceName: "svc",
			Ordinals:             &appsv1.StatefulSetOrdinals{Start: 3},
			VolumeClaimTemplates: []corev1.PersistentVolumeClaim{{ObjectMeta: metav1.ObjectMeta{Name: "data"}}}}}, func(t *testing.T, p *corev1.Pod) {
			if p.Name != "web-3" || p.Spec.Hostname != "web-3" || p.Spec.Subdomain != "svc" || p.Labels[appsv1.PodIndexLabel] != "3" || p.Labels[appsv1.StatefulSetPodNameLabel] != "web-3" {
				t.Errorf("identity: %s %s %s %v", p.Name, p.Spec.Hostname, p.Spec.Subdomain, p.Labels)
			}
			if len(p.Spec.Volumes) != 1 || p.Spec.Volumes[0].PersistentVolumeClaim == nil || p.Spec.Volumes[0].PersistentVolumeClaim.ClaimName != "data-web-3" {
				t.Errorf("volumes: %+v", p.Spec.Volumes)
			}
		}},
		{"DaemonSet", &appsv1.DaemonSet{ObjectMeta: meta, Spec: appsv1.DaemonSetSpec{Selector: sel, Template: objTemplate()}}, func(t *testing.T, p *corev1.Pod) {
			if len(p.Spec.Tolerations) != 6 || p.Spec.Tolerations[0].Key != corev1.TaintNodeNotReady {
				t.Errorf("tolerations: %+v", p.Spec.Tolerations)
			}
		}},
		{"Job", &batchv1.Job{ObjectMeta: meta, Spec: batchv1.JobSpec{Template: jobTmpl, CompletionMode: &indexed, Completions: ptrTo[int32](3)}}, func(t *testing.T, p *corev1.Pod) {
			if p.Labels[batchv1.ControllerUidLabel] != "u1" || p.Labels[batchv1.JobNameLabel] != "web" || p.Labels[batchv1.JobCompletionIndexAnnotation] != "0" {
				t.Errorf("labels: %v", p.Labels)
			}
			if p.GenerateName != "web-0-" || p.Spec.Hostname != "web-0" || len(p.Finalizers) != 1 || p.Finalizers[0] != batchv1.JobTrackingFinalizer {
				t.Errorf("metadata: %s %s %v", p.GenerateName, p.Spec.Hostname, p.Finalizers)
			}
			env := p.Spec.Containers[0].Env
			if len(env) != 1 || env[0].Name != "JOB_COMPLETION_INDEX" || env[0].ValueFrom.FieldRef.APIVersion != "v1" {
				t.Errorf("env: %+v", env)
			}
		}},
		{"CronJob", &batchv1.CronJob{ObjectMeta: meta, Spec: batchv1.CronJobSpec{Schedule: "@hourly", JobTemplate: batchv1.JobTemplateSpec{Spec: batchv1.JobSpec{Template: jobTmpl}}}}, func(t *testing.T, p *corev1.Pod) {
			if p.GenerateName != "web-" || len(p.OwnerReferences) != 0 || p.Finalizers[0] != batchv1.JobTrackingFinalizer {
				t.Errorf("metadata: %+v", p.ObjectMeta)
			}
		}},
		{"ReplicationController", &corev1.ReplicationController{ObjectMeta: meta, Spec: corev1.ReplicationControllerSpec{Template: ptrTo(objTemplate())}}, func(t *testing.T, p *corev1.Pod) {
			if p.OwnerReferences[0].APIVersion != "v1" || p.Labels["app"] != "web" {
				t.Errorf("metadata: %+v", p.ObjectMeta)
			}
		}},
		{"PodTemplate", &corev1.PodTemplate{ObjectMeta: meta, Template: objTemplate()}, func(t *testing.T, p *corev1.Pod) {
			if len(p.OwnerReferences) != 0 || p.Spec.RestartPolicy != corev1.RestartPolicyAlways {
				t.Errorf("pod: %+v", p)
			}
		}},
		{"Pod", &corev1.Pod{ObjectMeta: meta, Spec: objTemplate().Spec}, func(t *testing.T, p *corev1.Pod) {
			if p.Name != "web" || p.Status.Phase != corev1.PodPending {
				t.Errorf("pod: %+v", p)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := tc.obj.DeepCopyObject()
			p, err := PodFromObject(tc.obj, PodFromTemplateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(before, tc.obj) {
				t.Fatal("input modified")
			}
			tc.check(t, p)
		})
	}
	for _, obj := range []runtime.Object{nil, &corev1.Service{}, (*appsv1.Deployment)(nil), &corev1.ReplicationController{}} {
		if p, err := PodFromObject(obj, PodFromTemplateOptions{}); err == nil || p != nil {
			t.Errorf("%T: want an error, got %v", obj, p)
		}
	}
}

func ptrTo[T any](v T) *T { return &v }
