package defaulting

import (
	"math"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podlife/podlife/internal/apidiff"
	"github.com/podlife/podlife/internal/gates"
)

// The labels the Job registry puts on a Job's pod template and selector when it
// generates the selector (k8s.io/kubernetes pkg/apis/batch/types.go): the current
// ones and the legacy unprefixed ones.
const (
	JobNameLabel             = batchv1.JobNameLabel
	ControllerUIDLabel       = batchv1.ControllerUidLabel
	LegacyJobNameLabel       = "job-name"
	LegacyControllerUIDLabel = "controller-uid"
)

// CopyJob returns a deep copy of j without its status (see workload.go).
func CopyJob(j *batchv1.Job, readOnly bool) *batchv1.Job {
	out := &batchv1.Job{TypeMeta: j.TypeMeta}
	j.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	copyJobSpec(&j.Spec, &out.Spec, readOnly)
	return out
}

// copyJobSpec deep-copies in into out, the template by copyTemplate.
func copyJobSpec(in, out *batchv1.JobSpec, readOnly bool) {
	out.Parallelism = clonePtr(in.Parallelism)
	out.Completions = clonePtr(in.Completions)
	out.ActiveDeadlineSeconds = clonePtr(in.ActiveDeadlineSeconds)
	out.PodFailurePolicy = in.PodFailurePolicy.DeepCopy()
	out.SuccessPolicy = in.SuccessPolicy.DeepCopy()
	out.BackoffLimit = clonePtr(in.BackoffLimit)
	out.BackoffLimitPerIndex = clonePtr(in.BackoffLimitPerIndex)
	out.MaxFailedIndexes = clonePtr(in.MaxFailedIndexes)
	out.Selector = in.Selector.DeepCopy()
	out.ManualSelector = clonePtr(in.ManualSelector)
	out.TTLSecondsAfterFinished = clonePtr(in.TTLSecondsAfterFinished)
	out.CompletionMode = clonePtr(in.CompletionMode)
	out.Suspend = clonePtr(in.Suspend)
	out.PodReplacementPolicy = clonePtr(in.PodReplacementPolicy)
	out.ManagedBy = clonePtr(in.ManagedBy)
	out.Scheduling = in.Scheduling.DeepCopy()
	copyTemplate(&in.Template, &out.Template, readOnly)
}

// DefaultJob mirrors SetObjectDefaults_Job (k8s.io/kubernetes
// pkg/apis/batch/v1/defaults.go SetDefaults_Job, the pod failure policy pattern
// defaults and the template defaults).
//
// As upstream, a Job without labels whose template has labels (even an empty map)
// takes the template's label map itself, not a copy: the labels the registry adds to
// the template when it generates the selector then show in the Job's labels too.
func DefaultJob(j *batchv1.Job, g *gates.Set) {
	defaultJobSpec(&j.Spec)
	if l := j.Spec.Template.Labels; l != nil && len(j.Labels) == 0 {
		j.Labels = l
	}
	defaultTemplateSpec(&j.Spec.Template, g)
}

// defaultJobSpec is SetDefaults_Job without the labels, plus the pod failure policy
// pattern defaults.
func defaultJobSpec(s *batchv1.JobSpec) {
	if s.Completions == nil && s.Parallelism == nil {
		s.Completions = int32Ptr(1)
		s.Parallelism = int32Ptr(1)
	}
	if s.Parallelism == nil {
		s.Parallelism = int32Ptr(1)
	}
	if s.BackoffLimit == nil {
		if s.BackoffLimitPerIndex != nil {
			s.BackoffLimit = int32Ptr(math.MaxInt32)
		} else {
			s.BackoffLimit = int32Ptr(6)
		}
	}
	if s.CompletionMode == nil {
		m := batchv1.NonIndexedCompletion
		s.CompletionMode = &m
	}
	if s.Suspend == nil {
		f := false
		s.Suspend = &f
	}
	if s.PodReplacementPolicy == nil {
		p := batchv1.TerminatingOrFailed
		if s.PodFailurePolicy != nil {
			p = batchv1.Failed
		}
		s.PodReplacementPolicy = &p
	}
	if s.ManualSelector == nil {
		f := false
		s.ManualSelector = &f
	}
	defaultPodFailurePolicy(s.PodFailurePolicy)
}

// defaultPodFailurePolicy mirrors SetDefaults_PodFailurePolicyOnPodConditionsPattern
// on every pattern.
func defaultPodFailurePolicy(p *batchv1.PodFailurePolicy) {
	if p == nil {
		return
	}
	for i := range p.Rules {
		for j := range p.Rules[i].OnPodConditions {
			if c := &p.Rules[i].OnPodConditions[j]; c.Status == "" {
				c.Status = corev1.ConditionTrue
			}
		}
	}
}

// PrepareJobForCreate mirrors jobStrategy.PrepareForCreate: the selector and template
// labels are generated from the Job's name and uid (which the store assigns before,
// so they must be set), the status reset, the generation set to 1, managedBy dropped
// without JobManagedBy, spec.scheduling dropped without WorkloadWithJob, and the
// template's disabled fields dropped.
func PrepareJobForCreate(j *batchv1.Job, g *gates.Set) {
	if j.Spec.ManualSelector == nil || !*j.Spec.ManualSelector {
		generateJobSelector(j)
	}
	j.Status = batchv1.JobStatus{}
	j.Generation = 1
	if !g.JobManagedBy {
		j.Spec.ManagedBy = nil
	}
	dropJobSpecFields(&j.Spec, nil, g)
	dropTemplateFields(&j.Spec.Template, nil, g)
}

// generateJobSelector mirrors generateSelector of the Job registry: the template gets
// the name and uid labels it does not have yet, and the selector the uid label.
func generateJobSelector(j *batchv1.Job) {
	t := &j.Spec.Template
	if t.Labels == nil {
		t.Labels = make(map[string]string, 4)
	}
	for _, k := range [...]string{LegacyJobNameLabel, JobNameLabel} {
		if _, ok := t.Labels[k]; !ok {
			t.Labels[k] = j.Name
		}
	}
	for _, k := range [...]string{LegacyControllerUIDLabel, ControllerUIDLabel} {
		if _, ok := t.Labels[k]; !ok {
			t.Labels[k] = string(j.UID)
		}
	}
	if j.Spec.Selector == nil {
		j.Spec.Selector = &metav1.LabelSelector{}
	}
	if j.Spec.Selector.MatchLabels == nil {
		j.Spec.Selector.MatchLabels = make(map[string]string, 1)
	}
	if _, ok := j.Spec.Selector.MatchLabels[ControllerUIDLabel]; !ok {
		j.Spec.Selector.MatchLabels[ControllerUIDLabel] = string(j.UID)
	}
}

// PrepareJobForUpdate mirrors jobStrategy.PrepareForUpdate.
func PrepareJobForUpdate(j, old *batchv1.Job, g *gates.Set) {
	j.Status = *old.Status.DeepCopy()
	dropJobSpecFields(&j.Spec, &old.Spec, g)
	dropTemplateFields(&j.Spec.Template, &old.Spec.Template, g)
	if !apidiff.Equal(j.Spec, old.Spec) {
		j.Generation = old.Generation + 1
	}
}

// dropJobSpecFields mirrors job.DropDisabledFields (k8s.io/kubernetes
// pkg/api/job/util.go): spec.scheduling goes unless WorkloadWithJob is on or the
// stored spec uses it.
func dropJobSpecFields(s, old *batchv1.JobSpec, g *gates.Set) {
	if g.WorkloadWithJob || (old != nil && old.Scheduling != nil) {
		return
	}
	s.Scheduling = nil
}

// CopyCronJob returns a deep copy of cj without its status (see workload.go).
func CopyCronJob(cj *batchv1.CronJob, readOnly bool) *batchv1.CronJob {
	out := &batchv1.CronJob{TypeMeta: cj.TypeMeta}
	cj.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	s, o := &cj.Spec, &out.Spec
	o.Schedule = s.Schedule
	o.TimeZone = clonePtr(s.TimeZone)
	o.StartingDeadlineSeconds = clonePtr(s.StartingDeadlineSeconds)
	o.ConcurrencyPolicy = s.ConcurrencyPolicy
	o.Suspend = clonePtr(s.Suspend)
	s.JobTemplate.ObjectMeta.DeepCopyInto(&o.JobTemplate.ObjectMeta)
	copyJobSpec(&s.JobTemplate.Spec, &o.JobTemplate.Spec, readOnly)
	o.SuccessfulJobsHistoryLimit = clonePtr(s.SuccessfulJobsHistoryLimit)
	o.FailedJobsHistoryLimit = clonePtr(s.FailedJobsHistoryLimit)
	return out
}

// DefaultCronJob mirrors SetObjectDefaults_CronJob: the CronJob defaults, the pod
// failure policy pattern defaults of the job template and its pod template's
// defaults. The job template does not get the Job defaults.
func DefaultCronJob(cj *batchv1.CronJob, g *gates.Set) {
	s := &cj.Spec
	if s.ConcurrencyPolicy == "" {
		s.ConcurrencyPolicy = batchv1.AllowConcurrent
	}
	if s.Suspend == nil {
		f := false
		s.Suspend = &f
	}
	if s.SuccessfulJobsHistoryLimit == nil {
		s.SuccessfulJobsHistoryLimit = int32Ptr(3)
	}
	if s.FailedJobsHistoryLimit == nil {
		s.FailedJobsHistoryLimit = int32Ptr(1)
	}
	defaultPodFailurePolicy(s.JobTemplate.Spec.PodFailurePolicy)
	defaultTemplateSpec(&s.JobTemplate.Spec.Template, g)
}

// PrepareCronJobForCreate mirrors cronJobStrategy.PrepareForCreate.
func PrepareCronJobForCreate(cj *batchv1.CronJob, g *gates.Set) {
	cj.Status = batchv1.CronJobStatus{}
	cj.Generation = 1
	dropJobSpecFields(&cj.Spec.JobTemplate.Spec, nil, g)
	dropTemplateFields(&cj.Spec.JobTemplate.Spec.Template, nil, g)
}

// PrepareCronJobForUpdate mirrors cronJobStrategy.PrepareForUpdate.
func PrepareCronJobForUpdate(cj, old *batchv1.CronJob, g *gates.Set) {
	cj.Status = *old.Status.DeepCopy()
	dropJobSpecFields(&cj.Spec.JobTemplate.Spec, &old.Spec.JobTemplate.Spec, g)
	dropTemplateFields(&cj.Spec.JobTemplate.Spec.Template, &old.Spec.JobTemplate.Spec.Template, g)
	if !apidiff.Equal(cj.Spec, old.Spec) {
		cj.Generation = old.Generation + 1
	}
}
