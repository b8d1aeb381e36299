package defaulting

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/podlife/podlife/internal/apidiff"
	"github.com/podlife/podlife/internal/gates"
)

// CopyDeployment returns a deep copy of d without its status (see workload.go).
func CopyDeployment(d *appsv1.Deployment, readOnly bool) *appsv1.Deployment {
	out := &appsv1.Deployment{TypeMeta: d.TypeMeta}
	d.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	s, o := &d.Spec, &out.Spec
	o.Replicas = clonePtr(s.Replicas)
	o.Selector = s.Selector.DeepCopy()
	s.Strategy.DeepCopyInto(&o.Strategy)
	o.MinReadySeconds = s.MinReadySeconds
	o.RevisionHistoryLimit = clonePtr(s.RevisionHistoryLimit)
	o.Paused = s.Paused
	o.ProgressDeadlineSeconds = clonePtr(s.ProgressDeadlineSeconds)
	copyTemplate(&s.Template, &o.Template, readOnly)
	return out
}

// DefaultDeployment mirrors SetObjectDefaults_Deployment (k8s.io/kubernetes
// pkg/apis/apps/v1/defaults.go SetDefaults_Deployment and the template defaults).
func DefaultDeployment(d *appsv1.Deployment, g *gates.Set) {
	s := &d.Spec
	if s.Replicas == nil {
		s.Replicas = int32Ptr(1)
	}
	st := &s.Strategy
	if st.Type == "" {
		st.Type = appsv1.RollingUpdateDeploymentStrategyType
	}
	if st.Type == appsv1.RollingUpdateDeploymentStrategyType {
		if st.RollingUpdate == nil {
			st.RollingUpdate = &appsv1.RollingUpdateDeployment{}
		}
		if st.RollingUpdate.MaxUnavailable == nil {
			st.RollingUpdate.MaxUnavailable = intOrStringPtr(intstr.FromString("25%"))
		}
		if st.RollingUpdate.MaxSurge == nil {
			st.RollingUpdate.MaxSurge = intOrStringPtr(intstr.FromString("25%"))
		}
	}
	if s.RevisionHistoryLimit == nil {
		s.RevisionHistoryLimit = int32Ptr(10)
	}
	if s.ProgressDeadlineSeconds == nil {
		s.ProgressDeadlineSeconds = int32Ptr(600)
	}
	defaultTemplateSpec(&s.Template, g)
}

// PrepareDeploymentForCreate mirrors deploymentStrategy.PrepareForCreate.
func PrepareDeploymentForCreate(d *appsv1.Deployment, g *gates.Set) {
	d.Status = appsv1.DeploymentStatus{}
	d.Generation = 1
	dropTemplateFields(&d.Spec.Template, nil, g)
}

// PrepareDeploymentForUpdate mirrors deploymentStrategy.PrepareForUpdate: the status
// is the stored one, disabled fields are dropped unless old uses them, and the
// generation moves on when the spec or the annotations change. d's generation must
// already be old's (rest.BeforeUpdate sets it first).
func PrepareDeploymentForUpdate(d, old *appsv1.Deployment, g *gates.Set) {
	d.Status = *old.Status.DeepCopy()
	dropTemplateFields(&d.Spec.Template, &old.Spec.Template, g)
	if !apidiff.Equal(d.Spec, old.Spec) || !apidiff.Equal(d.Annotations, old.Annotations) {
		d.Generation = old.Generation + 1
	}
}

// CopyReplicaSet returns a deep copy of rs without its status (see workload.go).
func CopyReplicaSet(rs *appsv1.ReplicaSet, readOnly bool) *appsv1.ReplicaSet {
	out := &appsv1.ReplicaSet{TypeMeta: rs.TypeMeta}
	rs.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	s, o := &rs.Spec, &out.Spec
	o.Replicas = clonePtr(s.Replicas)
	o.MinReadySeconds = s.MinReadySeconds
	o.Selector = s.Selector.DeepCopy()
	copyTemplate(&s.Template, &o.Template, readOnly)
	return out
}

// DefaultReplicaSet mirrors SetObjectDefaults_ReplicaSet.
func DefaultReplicaSet(rs *appsv1.ReplicaSet, g *gates.Set) {
	if rs.Spec.Replicas == nil {
		rs.Spec.Replicas = int32Ptr(1)
	}
	defaultTemplateSpec(&rs.Spec.Template, g)
}

// PrepareReplicaSetForCreate mirrors rsStrategy.PrepareForCreate.
func PrepareReplicaSetForCreate(rs *appsv1.ReplicaSet, g *gates.Set) {
	rs.Status = appsv1.ReplicaSetStatus{}
	rs.Generation = 1
	dropTemplateFields(&rs.Spec.Template, nil, g)
}

// PrepareReplicaSetForUpdate mirrors rsStrategy.PrepareForUpdate.
func PrepareReplicaSetForUpdate(rs, old *appsv1.ReplicaSet, g *gates.Set) {
	rs.Status = *old.Status.DeepCopy()
	dropTemplateFields(&rs.Spec.Template, &old.Spec.Template, g)
	if !apidiff.Equal(old.Spec, rs.Spec) {
		rs.Generation = old.Generation + 1
	}
}

// CopyDaemonSet returns a deep copy of ds without its status (see workload.go).
func CopyDaemonSet(ds *appsv1.DaemonSet, readOnly bool) *appsv1.DaemonSet {
	out := &appsv1.DaemonSet{TypeMeta: ds.TypeMeta}
	ds.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	s, o := &ds.Spec, &out.Spec
	o.Selector = s.Selector.DeepCopy()
	s.UpdateStrategy.DeepCopyInto(&o.UpdateStrategy)
	o.MinReadySeconds = s.MinReadySeconds
	o.RevisionHistoryLimit = clonePtr(s.RevisionHistoryLimit)
	copyTemplate(&s.Template, &o.Template, readOnly)
	return out
}

// DefaultDaemonSet mirrors SetObjectDefaults_DaemonSet.
func DefaultDaemonSet(ds *appsv1.DaemonSet, g *gates.Set) {
	us := &ds.Spec.UpdateStrategy
	if us.Type == "" {
		us.Type = appsv1.RollingUpdateDaemonSetStrategyType
	}
	if us.Type == appsv1.RollingUpdateDaemonSetStrategyType {
		if us.RollingUpdate == nil {
			us.RollingUpdate = &appsv1.RollingUpdateDaemonSet{}
		}
		if us.RollingUpdate.MaxUnavailable == nil {
			us.RollingUpdate.MaxUnavailable = intOrStringPtr(intstr.FromInt32(1))
		}
		if us.RollingUpdate.MaxSurge == nil {
			us.RollingUpdate.MaxSurge = intOrStringPtr(intstr.FromInt32(0))
		}
	}
	if ds.Spec.RevisionHistoryLimit == nil {
		ds.Spec.RevisionHistoryLimit = int32Ptr(10)
	}
	defaultTemplateSpec(&ds.Spec.Template, g)
}

// PrepareDaemonSetForCreate mirrors daemonSetStrategy.PrepareForCreate, except for
// spec.templateGeneration, a field of the internal type only (the v1 object carries
// it in the deprecated.daemonset.template.generation annotation), which callers
// handle: PrepareForCreate raises it to 1.
func PrepareDaemonSetForCreate(ds *appsv1.DaemonSet, g *gates.Set) {
	ds.Status = appsv1.DaemonSetStatus{}
	ds.Generation = 1
	dropTemplateFields(&ds.Spec.Template, nil, g)
}

// PrepareDaemonSetForUpdate mirrors daemonSetStrategy.PrepareForUpdate and reports
// whether the template changed (templateGeneration then becomes old's plus one,
// otherwise old's; callers handle that internal-only field).
func PrepareDaemonSetForUpdate(ds, old *appsv1.DaemonSet, g *gates.Set) (templateChanged bool) {
	dropTemplateFields(&ds.Spec.Template, &old.Spec.Template, g)
	ds.Status = *old.Status.DeepCopy()
	if !apidiff.Equal(old.Spec.Template, ds.Spec.Template) {
		ds.Generation = old.Generation + 1
		return true
	}
	if !apidiff.Equal(old.Spec, ds.Spec) {
		ds.Generation = old.Generation + 1
	}
	return false
}

// CopyStatefulSet returns a deep copy of ss without its status (see workload.go).
func CopyStatefulSet(ss *appsv1.StatefulSet, readOnly bool) *appsv1.StatefulSet {
	out := &appsv1.StatefulSet{TypeMeta: ss.TypeMeta}
	ss.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	s, o := &ss.Spec, &out.Spec
	o.Replicas = clonePtr(s.Replicas)
	o.Selector = s.Selector.DeepCopy()
	if s.VolumeClaimTemplates != nil {
		o.VolumeClaimTemplates = make([]corev1.PersistentVolumeClaim, len(s.VolumeClaimTemplates))
		for i := range s.VolumeClaimTemplates {
			s.VolumeClaimTemplates[i].DeepCopyInto(&o.VolumeClaimTemplates[i])
		}
	}
	o.ServiceName = s.ServiceName
	o.PodManagementPolicy = s.PodManagementPolicy
	s.UpdateStrategy.DeepCopyInto(&o.UpdateStrategy)
	o.RevisionHistoryLimit = clonePtr(s.RevisionHistoryLimit)
	o.MinReadySeconds = s.MinReadySeconds
	o.PersistentVolumeClaimRetentionPolicy = s.PersistentVolumeClaimRetentionPolicy.DeepCopy()
	o.Ordinals = s.Ordinals.DeepCopy()
	copyTemplate(&s.Template, &o.Template, readOnly)
	return out
}

// DefaultStatefulSet mirrors SetObjectDefaults_StatefulSet: the StatefulSet defaults
// (maxUnavailable only with MaxUnavailableStatefulSet), the template's, and the
// claim defaults of each volumeClaimTemplates entry.
func DefaultStatefulSet(ss *appsv1.StatefulSet, g *gates.Set) {
	s := &ss.Spec
	if s.PodManagementPolicy == "" {
		s.PodManagementPolicy = appsv1.OrderedReadyPodManagement
	}
	if s.UpdateStrategy.Type == "" {
		s.UpdateStrategy.Type = appsv1.RollingUpdateStatefulSetStrategyType
		if s.UpdateStrategy.RollingUpdate == nil {
			s.UpdateStrategy.RollingUpdate = &appsv1.RollingUpdateStatefulSetStrategy{}
		}
	}
	if ru := s.UpdateStrategy.RollingUpdate; s.UpdateStrategy.Type == appsv1.RollingUpdateStatefulSetStrategyType && ru != nil {
		if ru.Partition == nil {
			ru.Partition = int32Ptr(0)
		}
		if g.MaxUnavailableStatefulSet && ru.MaxUnavailable == nil {
			ru.MaxUnavailable = intOrStringPtr(intstr.FromInt32(1))
		}
	}
	if s.PersistentVolumeClaimRetentionPolicy == nil {
		s.PersistentVolumeClaimRetentionPolicy = &appsv1.StatefulSetPersistentVolumeClaimRetentionPolicy{}
	}
	if s.PersistentVolumeClaimRetentionPolicy.WhenDeleted == "" {
		s.PersistentVolumeClaimRetentionPolicy.WhenDeleted = appsv1.RetainPersistentVolumeClaimRetentionPolicyType
	}
	if s.PersistentVolumeClaimRetentionPolicy.WhenScaled == "" {
		s.PersistentVolumeClaimRetentionPolicy.WhenScaled = appsv1.RetainPersistentVolumeClaimRetentionPolicyType
	}
	if s.Replicas == nil {
		s.Replicas = int32Ptr(1)
	}
	if s.RevisionHistoryLimit == nil {
		s.RevisionHistoryLimit = int32Ptr(10)
	}
	defaultTemplateSpec(&s.Template, g)
	for i := range s.VolumeClaimTemplates {
		defaultClaim(&s.VolumeClaimTemplates[i])
	}
}

// defaultClaim mirrors the claim part of the generated defaulters:
// SetDefaults_PersistentVolumeClaim, SetDefaults_PersistentVolumeClaimSpec and the
// rounding of its resource lists.
func defaultClaim(c *corev1.PersistentVolumeClaim) {
	if c.Status.Phase == "" {
		c.Status.Phase = corev1.ClaimPending
	}
	if c.Spec.VolumeMode == nil {
		m := corev1.PersistentVolumeFilesystem
		c.Spec.VolumeMode = &m
	}
	roundResourceList(c.Spec.Resources.Limits)
	roundResourceList(c.Spec.Resources.Requests)
	roundResourceList(c.Status.Capacity)
	roundResourceList(c.Status.AllocatedResources)
}

// PrepareStatefulSetForCreate mirrors statefulSetStrategy.PrepareForCreate.
func PrepareStatefulSetForCreate(ss *appsv1.StatefulSet, g *gates.Set) {
	ss.Status = appsv1.StatefulSetStatus{}
	ss.Generation = 1
	dropStatefulSetFields(ss, nil, g)
	dropTemplateFields(&ss.Spec.Template, nil, g)
}

// PrepareStatefulSetForUpdate mirrors statefulSetStrategy.PrepareForUpdate.
func PrepareStatefulSetForUpdate(ss, old *appsv1.StatefulSet, g *gates.Set) {
	ss.Status = *old.Status.DeepCopy()
	dropStatefulSetFields(ss, old, g)
	dropTemplateFields(&ss.Spec.Template, &old.Spec.Template, g)
	if !apidiff.Equal(old.Spec, ss.Spec) {
		ss.Generation = old.Generation + 1
	}
}

// dropStatefulSetFields mirrors dropStatefulSetDisabledFields: maxUnavailable goes
// unless MaxUnavailableStatefulSet is on or the stored object uses it.
func dropStatefulSetFields(ss, old *appsv1.StatefulSet, g *gates.Set) {
	if g.MaxUnavailableStatefulSet {
		return
	}
	if old != nil && old.Spec.UpdateStrategy.RollingUpdate != nil && old.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable != nil {
		return
	}
	if ru := ss.Spec.UpdateStrategy.RollingUpdate; ru != nil {
		ru.MaxUnavailable = nil
	}
}

func intOrStringPtr(v intstr.IntOrString) *intstr.IntOrString { return &v }
