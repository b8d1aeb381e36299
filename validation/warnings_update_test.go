package validation

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"

	"github.com/stretchr/testify/require"
)

// storedMeta is the metadata of a stored object: namespace, name, uid and
// resourceVersion.
func storedMeta(name string) metav1.ObjectMeta {
	return metav1.ObjectMeta{Name: name, Namespace: "default", UID: "00000000-0000-4000-8000-000000000001", ResourceVersion: "7", Generation: 3}
}

func storedDeployment(edit func(d *appsv1.Deployment)) *appsv1.Deployment {
	labels := map[string]string{"app": "web"}
	d := &appsv1.Deployment{
		ObjectMeta: storedMeta("web"),
		Spec: appsv1.DeploymentSpec{
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "nginx"}}},
			},
		},
	}
	if edit != nil {
		edit(d)
	}
	return d
}

func storedRC(edit func(rc *corev1.ReplicationController)) *corev1.ReplicationController {
	labels := map[string]string{"app": "web"}
	rc := &corev1.ReplicationController{
		ObjectMeta: storedMeta("web"),
		Spec: corev1.ReplicationControllerSpec{
			Selector: labels,
			Template: &corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "nginx"}}},
			},
		},
	}
	if edit != nil {
		edit(rc)
	}
	return rc
}

// TestUpdateWarnings checks when the server warns on an update, and about what, as
// conformance compares it with upstream's update path on generated updates.
func TestUpdateWarnings(t *testing.T) {
	const archWarning = `spec.template.spec.nodeSelector[beta.kubernetes.io/arch]: deprecated since v1.14; use "kubernetes.io/arch" instead`
	arch := func(spec *corev1.PodSpec) { spec.NodeSelector = map[string]string{"beta.kubernetes.io/arch": "amd64"} }
	replicas := int32(5)
	own := metav1.OwnerReference{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-1", UID: types.UID("u1")}
	twice := func(m *metav1.ObjectMeta) { m.OwnerReferences = []metav1.OwnerReference{own, own} }
	const ownerWarning = ".metadata.ownerReferences contains duplicate entries; API server dedups owner references in 1.20+, and may reject such requests as early as 1.24; please fix your requests; duplicate UID(s) observed: u1"
	for _, tc := range []struct {
		name     string
		new, old runtime.Object
		want     []string
	}{
		{"template changed to warn",
			storedDeployment(func(d *appsv1.Deployment) { arch(&d.Spec.Template.Spec) }), storedDeployment(nil),
			[]string{archWarning}},
		{"template as stored, nothing else changed",
			storedDeployment(func(d *appsv1.Deployment) { arch(&d.Spec.Template.Spec); d.Labels = map[string]string{"tier": "web"} }),
			storedDeployment(func(d *appsv1.Deployment) { arch(&d.Spec.Template.Spec) }),
			nil},
		{"template as stored, replicas changed: the generation moves on",
			storedDeployment(func(d *appsv1.Deployment) { arch(&d.Spec.Template.Spec); d.Spec.Replicas = &replicas }),
			storedDeployment(func(d *appsv1.Deployment) { arch(&d.Spec.Template.Spec) }),
			[]string{archWarning}},
		{"refused by validation: owners only",
			storedDeployment(func(d *appsv1.Deployment) {
				arch(&d.Spec.Template.Spec)
				d.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "other"}}
				twice(&d.ObjectMeta)
			}),
			storedDeployment(nil),
			[]string{ownerWarning}},
		{"stale resourceVersion: the store refuses after the handler's warning",
			storedDeployment(func(d *appsv1.Deployment) { d.ResourceVersion = "6"; twice(&d.ObjectMeta) }), storedDeployment(nil),
			[]string{ownerWarning}},
		{"another namespace: the handler refuses before its warning",
			storedDeployment(func(d *appsv1.Deployment) { d.Namespace = "other"; twice(&d.ObjectMeta) }), storedDeployment(nil),
			nil},
		{"ReplicationController: the stored template's warnings",
			storedRC(func(rc *corev1.ReplicationController) { rc.Spec.Template.Spec.Containers[0].Image = "nginx:2" }),
			storedRC(func(rc *corev1.ReplicationController) { arch(&rc.Spec.Template.Spec) }),
			[]string{archWarning}},
		{"ReplicationController: not the new template's",
			storedRC(func(rc *corev1.ReplicationController) { arch(&rc.Spec.Template.Spec) }), storedRC(nil),
			nil},
		{"StatefulSet: the history limit on every update",
			&appsv1.StatefulSet{ObjectMeta: storedMeta("db"), Spec: appsv1.StatefulSetSpec{
				Selector:             &metav1.LabelSelector{MatchLabels: map[string]string{"app": "db"}},
				RevisionHistoryLimit: ptrTo(int32(-1)),
				Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "db"}},
					Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "db", Image: "postgres"}}}},
				VolumeClaimTemplates: []corev1.PersistentVolumeClaim{{ObjectMeta: metav1.ObjectMeta{Name: "data"},
					Spec: corev1.PersistentVolumeClaimSpec{AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
						Resources: corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("0.5")}}}}},
			}}, nil,
			[]string{
				"spec.volumeClaimTemplates[0].Spec.resources.requests[storage]: fractional byte value \"500m\" is invalid, must be an integer",
				"spec.revisionHistoryLimit: a negative value retains all historical revisions; a value >= 0 is recommended",
			}},
		{"CronJob keeping a schedule with TZ",
			&batchv1.CronJob{ObjectMeta: storedMeta("nightly"), Spec: batchv1.CronJobSpec{
				Schedule: "TZ=UTC 0 3 * * *",
				JobTemplate: batchv1.JobTemplateSpec{Spec: batchv1.JobSpec{Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
					RestartPolicy: corev1.RestartPolicyOnFailure, Containers: []corev1.Container{{Name: "backup", Image: "backup"}}}}}},
			}}, nil,
			[]string{"cannot use TZ or CRON_TZ in spec.spec.schedule, use timeZone instead, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details"}},
		{"pod: owners only",
			warnPod(func(p *corev1.Pod) {
				p.ObjectMeta = storedMeta("web")
				p.Spec.NodeSelector = map[string]string{"beta.kubernetes.io/arch": "amd64"}
				twice(&p.ObjectMeta)
			}),
			warnPod(func(p *corev1.Pod) {
				p.ObjectMeta = storedMeta("web")
				p.Spec.NodeSelector = map[string]string{"beta.kubernetes.io/arch": "amd64"}
			}),
			[]string{ownerWarning}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			old := tc.old
			if old == nil {
				// A no-op update of the stored object.
				old = tc.new.DeepCopyObject()
			}
			require.Equal(t, tc.want, UpdateWarnings(tc.new, old, Options{}))
		})
	}
	// Taken as prepared (no PrepareForUpdate), the generation stays the stored one.
	changed := storedDeployment(func(d *appsv1.Deployment) { arch(&d.Spec.Template.Spec) })
	require.Equal(t, []string{archWarning}, UpdateWarnings(changed, storedDeployment(nil), Options{}))
	require.Empty(t, UpdateWarnings(changed, storedDeployment(nil), Options{SkipDefaulting: true}))
}
