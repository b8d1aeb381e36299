package workloads

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	schedulingv1alpha3 "k8s.io/api/scheduling/v1alpha3"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/podlife/podlife/conformance/internal/upstreamcreate"
)

// update draws a stored object of the kind and a change of it. The stored object is
// what the server stores when it creates a generated object with few faults (so
// some stored objects no longer validate, as after a rule tightened), read back as v1.
func (g *gen) update(t testing.TB, kind string) (newObj, oldObj runtime.Object) {
	saved := g.pFault
	g.pFault = 0.01
	var old runtime.Object
	for old == nil {
		old = upstreamcreate.Stored(t, g.object(kind))
	}
	g.pFault = saved
	g.faults = nil
	// The PUT goes to the stored object's URL: it has a name.
	if m := metaOf(old); m.Name == "" {
		m.Name = "stored"
	}
	if g.fault("stored: name that is no path segment") {
		// Only a stored object the server could not have created; the store's key
		// function refuses it.
		metaOf(old).Name = pick(g, "a%b", "..", "a/b")
	}
	g.storedStatus(old)
	// Fields of alpha gates the object may keep from when its gate was on.
	if t := templateOf(old); t != nil && g.fault("stored: evictionResponders") {
		t.Spec.EvictionResponders = []corev1.EvictionResponder{{Name: "example.com/drain", Priority: i32(5000)}}
	}
	if s := jobSpecOf(old); s != nil && s.Scheduling == nil && (g.fault("stored: scheduling") || g.chance(0.1)) {
		s.Scheduling = &batchv1.JobSchedulingConfiguration{SchedulingPolicy: &schedulingv1alpha3.WorkloadPodGroupSchedulingPolicy{
			Gang: &schedulingv1alpha3.WorkloadPodGroupGangSchedulingPolicy{MinCount: i32(1)}}}
	}
	n := old.DeepCopyObject()
	g.mutateMeta(metaOf(n))
	switch o := n.(type) {
	case *appsv1.Deployment:
		g.mutateTemplate(&o.Spec.Template)
		if g.fault("update: selector") {
			o.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web", "v": "2"}}
		}
		if g.fault("update: replicas") {
			o.Spec.Replicas = i32(pick[int32](g, 5, -1))
		}
		if g.fault("update: strategy") {
			o.Spec.Strategy = appsv1.DeploymentStrategy{Type: appsv1.RecreateDeploymentStrategyType}
		}
		if g.fault("update: rollback") {
			setAnnotation(&o.ObjectMeta, appsv1.DeprecatedRollbackTo, pick(g, "2", "x", "-1"))
		}
		if g.fault("update: progressDeadlineSeconds") {
			o.Spec.ProgressDeadlineSeconds = i32(pick[int32](g, 0, 30))
		}
	case *appsv1.ReplicaSet:
		g.mutateTemplate(&o.Spec.Template)
		if g.fault("update: selector") {
			o.Spec.Selector = nil
		}
		if g.fault("update: replicas") {
			o.Spec.Replicas = i32(pick[int32](g, 5, -1))
		}
	case *appsv1.DaemonSet:
		g.mutateTemplate(&o.Spec.Template)
		if g.fault("update: selector") {
			o.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web", "v": "2"}}
		}
		if g.fault("update: templateGeneration annotation") {
			setAnnotation(&o.ObjectMeta, appsv1.DeprecatedTemplateGeneration, pick(g, "9", "0", "y"))
		}
		if g.fault("update: strategy") {
			o.Spec.UpdateStrategy = appsv1.DaemonSetUpdateStrategy{Type: appsv1.OnDeleteDaemonSetStrategyType}
		}
	case *appsv1.StatefulSet:
		g.mutateTemplate(&o.Spec.Template)
		if g.fault("update: selector") {
			o.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web", "v": "2"}}
		}
		if g.fault("update: serviceName") {
			o.Spec.ServiceName = pick(g, "other", "Bad_Name", "")
		}
		if g.fault("update: podManagementPolicy") {
			o.Spec.PodManagementPolicy = pick(g, appsv1.ParallelPodManagement, appsv1.OrderedReadyPodManagement, "Bogus")
		}
		if g.fault("update: claim templates") {
			c := g.claim(pick(g, "www", "logs"))
			o.Spec.VolumeClaimTemplates = append(o.Spec.VolumeClaimTemplates, c)
		}
		if g.fault("update: claim template apiVersion") && len(o.Spec.VolumeClaimTemplates) > 0 {
			o.Spec.VolumeClaimTemplates[0].TypeMeta = metav1.TypeMeta{APIVersion: "v1", Kind: "PersistentVolumeClaim"}
		}
		if g.fault("update: strategy") {
			o.Spec.UpdateStrategy = appsv1.StatefulSetUpdateStrategy{Type: pick[appsv1.StatefulSetUpdateStrategyType](g, "Recreate", appsv1.OnDeleteStatefulSetStrategyType)}
		}
		if g.fault("update: maxUnavailable") {
			mu := intstr.FromInt32(2)
			o.Spec.UpdateStrategy = appsv1.StatefulSetUpdateStrategy{Type: appsv1.RollingUpdateStatefulSetStrategyType,
				RollingUpdate: &appsv1.RollingUpdateStatefulSetStrategy{MaxUnavailable: &mu}}
		}
		if g.fault("update: replicas") {
			o.Spec.Replicas = i32(pick[int32](g, 5, -1))
		}
	case *batchv1.Job:
		g.mutateJobSpec(&o.Spec)
		if g.fault("update: selector") {
			o.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
		}
		if g.fault("update: manualSelector") {
			o.Spec.ManualSelector = boolp(true)
		}
	case *batchv1.CronJob:
		g.mutateJobSpec(&o.Spec.JobTemplate.Spec)
		if g.fault("update: schedule") {
			o.Spec.Schedule = pick(g, "*/10 * * * *", "", "TZ=UTC 0 0 * * *", "bad", "CRON_TZ=Asia/Tokyo @daily")
		}
		if g.fault("update: timeZone") {
			o.Spec.TimeZone = pick(g, nil, str("Asia/Tokyo"), str("Nowhere/Land"), str(""))
		}
		if g.fault("update: concurrencyPolicy") {
			o.Spec.ConcurrencyPolicy = pick[batchv1.ConcurrencyPolicy](g, "Forbid", "Odd")
		}
	case *corev1.ReplicationController:
		if o.Spec.Template != nil {
			g.mutateTemplate(o.Spec.Template)
		}
		if g.fault("update: selector") {
			o.Spec.Selector = map[string]string{"app": "web", "v": "2"}
		}
		if g.fault("update: replicas") {
			o.Spec.Replicas = pick(g, i32(-1), i32(4), nil)
		}
		if g.fault("update: minReadySeconds") {
			o.Spec.MinReadySeconds = pick[int32](g, -1, 5)
		}
		if g.fault("update: no template") {
			o.Spec.Template = nil
		}
	case *corev1.PodTemplate:
		g.mutateTemplate(&o.Template)
	}
	// Both objects reach the server as JSON (the stored one from etcd, the new one
	// from the client), which drops empty lists and maps; podlife gets them the same.
	return jsonRoundTrip(t, n), jsonRoundTrip(t, old)
}

// jsonRoundTrip returns obj as it reads back from its JSON.
func jsonRoundTrip(t testing.TB, obj runtime.Object) runtime.Object {
	b, err := json.Marshal(obj)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	out := reflect.New(reflect.TypeOf(obj).Elem()).Interface().(runtime.Object)
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatalf("unmarshal: %v", err)
	}
	return out
}

// storedStatus gives some stored Jobs the status a running, suspended or finished Job
// has, which decides what an update may change in the template.
//
// Some stored ReplicationControllers carry the annotations of fields an older API
// version could not convert, and some stored DaemonSets an odd template generation.
func (g *gen) storedStatus(obj runtime.Object) {
	switch o := obj.(type) {
	case *corev1.ReplicationController:
		if g.fault("stored: non-convertible annotation") {
			setAnnotation(&o.ObjectMeta, pick(g, "non-convertible.kubernetes.io/spec.selector", "non-convertible.kubernetes.io/spec.foo", "non-convertible.kubernetes.io/a/b"), "x")
		}
		return
	case *appsv1.DaemonSet:
		if g.fault("stored: template generation") {
			setAnnotation(&o.ObjectMeta, appsv1.DeprecatedTemplateGeneration, pick(g, "-3", "0", "7"))
		}
		return
	}
	j, ok := obj.(*batchv1.Job)
	if !ok {
		return
	}
	if g.chance(0.4) {
		j.Spec.Suspend = boolp(true)
	}
	if g.chance(0.4) {
		now := metav1.Unix(1_700_000_100, 0)
		j.Status.StartTime = &now
	}
	if g.chance(0.3) {
		j.Status.Conditions = []batchv1.JobCondition{{Type: batchv1.JobSuspended, Status: pick(g, corev1.ConditionTrue, corev1.ConditionFalse)}}
	}
	if g.chance(0.3) {
		j.Status.Active = pick[int32](g, 0, 2)
	}
}

func metaOf(obj runtime.Object) *metav1.ObjectMeta {
	switch o := obj.(type) {
	case *appsv1.Deployment:
		return &o.ObjectMeta
	case *appsv1.ReplicaSet:
		return &o.ObjectMeta
	case *appsv1.DaemonSet:
		return &o.ObjectMeta
	case *appsv1.StatefulSet:
		return &o.ObjectMeta
	case *batchv1.Job:
		return &o.ObjectMeta
	case *batchv1.CronJob:
		return &o.ObjectMeta
	case *corev1.ReplicationController:
		return &o.ObjectMeta
	case *corev1.PodTemplate:
		return &o.ObjectMeta
	}
	panic("no metadata")
}

// templateOf returns the pod template of obj, nil for a ReplicationController
// without one.
func templateOf(obj runtime.Object) *corev1.PodTemplateSpec {
	switch o := obj.(type) {
	case *appsv1.Deployment:
		return &o.Spec.Template
	case *appsv1.ReplicaSet:
		return &o.Spec.Template
	case *appsv1.DaemonSet:
		return &o.Spec.Template
	case *appsv1.StatefulSet:
		return &o.Spec.Template
	case *batchv1.Job:
		return &o.Spec.Template
	case *batchv1.CronJob:
		return &o.Spec.JobTemplate.Spec.Template
	case *corev1.ReplicationController:
		return o.Spec.Template
	case *corev1.PodTemplate:
		return &o.Template
	}
	return nil
}

// jobSpecOf returns the Job spec of a Job or CronJob, else nil.
func jobSpecOf(obj runtime.Object) *batchv1.JobSpec {
	switch o := obj.(type) {
	case *batchv1.Job:
		return &o.Spec
	case *batchv1.CronJob:
		return &o.Spec.JobTemplate.Spec
	}
	return nil
}

func setAnnotation(m *metav1.ObjectMeta, k, v string) {
	if m.Annotations == nil {
		m.Annotations = map[string]string{}
	}
	m.Annotations[k] = v
}

func (g *gen) mutateMeta(m *metav1.ObjectMeta) {
	if g.fault("update: name") {
		m.Name = pick(g, "renamed", "Bad_Name", "a/b", "x%y", ".", "")
	}
	switch {
	case g.fault("update: namespace"):
		m.Namespace = pick(g, "other", "")
	case g.fault("update: labels"):
		if m.Labels == nil {
			m.Labels = map[string]string{}
		}
		m.Labels["touched"] = pick(g, "yes", "bad value!")
	case g.fault("update: annotations"):
		setAnnotation(m, pick(g, "example.com/x", "non-convertible.kubernetes.io/spec.selector", "non-convertible.kubernetes.io/spec.foo"), "v")
	case g.fault("update: uid"):
		m.UID = pick[types.UID](g, "11111111-2222-4333-8444-555555555555", "")
	case g.fault("update: resourceVersion"):
		m.ResourceVersion = pick(g, "42", "", "0", "01", "x1")
	case g.fault("update: generation"):
		m.Generation = pick[int64](g, 0, 7, -3)
	case g.fault("update: finalizers"):
		m.Finalizers = append(m.Finalizers, pick(g, "example.com/f", "bogus"))
	}
}

func (g *gen) mutateTemplate(t *corev1.PodTemplateSpec) {
	s := &t.Spec
	switch {
	case g.fault("update: image") && len(s.Containers) > 0:
		s.Containers[0].Image = pick(g, "nginx:2", "", " nginx")
	case g.fault("update: template labels"):
		t.Labels = map[string]string{"app": pick(g, "web", "api")}
	case g.fault("update: template resources") && len(s.Containers) > 0:
		s.Containers[0].Resources.Requests = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(pick(g, "200m", "-1"))}
	case g.fault("update: template restartPolicy"):
		s.RestartPolicy = pick(g, corev1.RestartPolicyAlways, corev1.RestartPolicyNever, corev1.RestartPolicyOnFailure)
	case g.fault("update: stop signal") && len(s.Containers) > 0:
		sig := corev1.SIGINT
		s.Containers[0].Lifecycle = &corev1.Lifecycle{StopSignal: &sig}
	case g.fault("update: restart rules") && len(s.Containers) > 0:
		s.Containers[0].RestartPolicy = new(corev1.ContainerRestartPolicyNever)
		s.Containers[0].RestartPolicyRules = []corev1.ContainerRestartRule{{Action: corev1.ContainerRestartRuleActionRestart,
			ExitCodes: &corev1.ContainerRestartRuleOnExitCodes{Operator: corev1.ContainerRestartRuleOnExitCodesOpIn, Values: []int32{3}}}}
	case g.fault("update: node selector"):
		s.NodeSelector = map[string]string{"zone": "a"}
	case g.fault("update: tolerations"):
		s.Tolerations = append(s.Tolerations, corev1.Toleration{Key: "k", Operator: corev1.TolerationOpExists})
	case g.fault("update: affinity"):
		s.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{
			NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "zone", Operator: corev1.NodeSelectorOpIn, Values: []string{"a"}}}}}}}}
	case g.fault("update: scheduling gates"):
		s.SchedulingGates = []corev1.PodSchedulingGate{{Name: "example.com/wait"}}
	case g.fault("update: template annotations"):
		t.Annotations = map[string]string{"example.com/rev": "2"}
	case g.fault("update: hostname"):
		s.Hostname = pick(g, "h", "Bad_Host")
	case g.fault("update: schedulingGroup"):
		s.SchedulingGroup = pick(g, nil, &corev1.PodSchedulingGroup{PodGroupName: str("group-b")})
	case g.fault("update: evictionResponders"):
		if len(s.EvictionResponders) > 0 && g.chance(0.5) {
			s.EvictionResponders[0].Priority = pick(g, i32(6000), i32(-1), nil)
		} else {
			s.EvictionResponders = g.evictionResponders()
		}
	}
}

func (g *gen) mutateJobSpec(s *batchv1.JobSpec) {
	g.mutateTemplate(&s.Template)
	if g.fault("update: parallelism") {
		s.Parallelism = i32(pick[int32](g, 1, 4, 10, -1))
	}
	if g.fault("update: completions") {
		s.Completions = pick(g, i32(4), i32(10), nil, i32(-2))
	}
	if g.fault("update: completionMode") {
		s.CompletionMode = new(pick(g, batchv1.IndexedCompletion, batchv1.NonIndexedCompletion))
	}
	if g.fault("update: suspend") {
		s.Suspend = boolp(pick(g, true, false))
	}
	if g.fault("update: backoffLimitPerIndex") {
		s.BackoffLimitPerIndex = pick(g, i32(1), nil)
	}
	if g.fault("update: podFailurePolicy") {
		s.PodFailurePolicy = pick(g, nil, &batchv1.PodFailurePolicy{Rules: []batchv1.PodFailurePolicyRule{{Action: batchv1.PodFailurePolicyActionIgnore,
			OnPodConditions: []batchv1.PodFailurePolicyOnPodConditionsPattern{{Type: corev1.DisruptionTarget}}}}})
	}
	if g.fault("update: managedBy") {
		s.ManagedBy = pick(g, nil, str("example.com/other"))
	}
	if g.fault("update: successPolicy") {
		s.SuccessPolicy = pick(g, nil, &batchv1.SuccessPolicy{Rules: []batchv1.SuccessPolicyRule{{SucceededCount: i32(1)}}})
	}
	if g.fault("update: activeDeadlineSeconds") {
		s.ActiveDeadlineSeconds = i64(pick[int64](g, 10, -5))
	}
	if g.fault("update: ttl") {
		s.TTLSecondsAfterFinished = i32(pick[int32](g, 10, -5))
	}
	if g.fault("update: scheduling") || g.chance(0.1) {
		switch {
		case s.Scheduling == nil || g.chance(0.3):
			s.Scheduling = pick(g, nil, g.jobScheduling())
		case g.chance(0.5):
			s.Scheduling.SchedulingPolicy = pick(g, nil, &schedulingv1alpha3.WorkloadPodGroupSchedulingPolicy{Gang: &schedulingv1alpha3.WorkloadPodGroupGangSchedulingPolicy{MinCount: i32(pick[int32](g, 0, 1, 3))}},
				&schedulingv1alpha3.WorkloadPodGroupSchedulingPolicy{Basic: &schedulingv1alpha3.WorkloadPodGroupBasicSchedulingPolicy{}})
		default:
			s.Scheduling.DisruptionMode = &schedulingv1alpha3.WorkloadPodGroupDisruptionMode{All: &schedulingv1alpha3.WorkloadPodGroupAllDisruptionMode{}}
			s.Scheduling.ResourceClaims = nil
		}
	}
	if g.fault("update: template name label") {
		if s.Template.Labels == nil {
			s.Template.Labels = map[string]string{}
		}
		s.Template.Labels[batchv1.JobNameLabel] = strings.Repeat("z", 5)
	}
}
