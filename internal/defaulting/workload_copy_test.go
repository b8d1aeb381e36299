package defaulting

import (
	"reflect"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// TestCopyWorkloads checks that each kind's copy equals the generated DeepCopy
// without the status, on objects with every field set (fill): a field added to a
// spec in a later k8s.io/api is noticed here. It also checks that the copy shares
// nothing with the original.
func TestCopyWorkloads(t *testing.T) {
	for _, c := range []struct {
		obj    runtime.Object
		copy   func(runtime.Object) runtime.Object
		status func(runtime.Object)
	}{
		{&appsv1.Deployment{}, func(o runtime.Object) runtime.Object { return CopyDeployment(o.(*appsv1.Deployment), false) },
			func(o runtime.Object) { o.(*appsv1.Deployment).Status = appsv1.DeploymentStatus{} }},
		{&appsv1.ReplicaSet{}, func(o runtime.Object) runtime.Object { return CopyReplicaSet(o.(*appsv1.ReplicaSet), false) },
			func(o runtime.Object) { o.(*appsv1.ReplicaSet).Status = appsv1.ReplicaSetStatus{} }},
		{&appsv1.DaemonSet{}, func(o runtime.Object) runtime.Object { return CopyDaemonSet(o.(*appsv1.DaemonSet), false) },
			func(o runtime.Object) { o.(*appsv1.DaemonSet).Status = appsv1.DaemonSetStatus{} }},
		{&appsv1.StatefulSet{}, func(o runtime.Object) runtime.Object { return CopyStatefulSet(o.(*appsv1.StatefulSet), false) },
			func(o runtime.Object) { o.(*appsv1.StatefulSet).Status = appsv1.StatefulSetStatus{} }},
		{&batchv1.Job{}, func(o runtime.Object) runtime.Object { return CopyJob(o.(*batchv1.Job), false) },
			func(o runtime.Object) { o.(*batchv1.Job).Status = batchv1.JobStatus{} }},
		{&batchv1.CronJob{}, func(o runtime.Object) runtime.Object { return CopyCronJob(o.(*batchv1.CronJob), false) },
			func(o runtime.Object) { o.(*batchv1.CronJob).Status = batchv1.CronJobStatus{} }},
		{&corev1.ReplicationController{}, func(o runtime.Object) runtime.Object {
			return CopyReplicationController(o.(*corev1.ReplicationController), false)
		}, func(o runtime.Object) {
			o.(*corev1.ReplicationController).Status = corev1.ReplicationControllerStatus{}
		}},
		{&corev1.PodTemplate{}, func(o runtime.Object) runtime.Object { return CopyPodTemplate(o.(*corev1.PodTemplate), false) },
			func(runtime.Object) {}},
	} {
		counter := 0
		fill(reflect.ValueOf(c.obj).Elem(), 2, &counter, 0)
		want := c.obj.DeepCopyObject()
		c.status(want)
		got := c.copy(c.obj)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%T: the copy differs from DeepCopy without the status", c.obj)
		}
		// Nothing of the copy may be shared with the original.
		fill(reflect.ValueOf(got).Elem(), 2, &counter, 0)
		if again := c.obj.DeepCopyObject(); !reflect.DeepEqual(again, c.obj) {
			t.Errorf("%T: filling the copy changed the original", c.obj)
		}
	}
}
