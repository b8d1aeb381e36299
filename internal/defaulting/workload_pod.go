package defaulting

import (
	"fmt"
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// PodFromObject returns the pod a controller creates from obj, an object holding a
// pod (see podlife.PodFromObject for the contract): the object as the server stores
// it (the kind's defaults and PrepareForCreate), then the controller's pod from its
// template with the kind's own additions, then the server's create-time defaults.
func PodFromObject(obj runtime.Object, opts PodFromTemplateOptions) (*corev1.Pod, error) {
	gs := opts.Features.Resolve()
	g := &gs
	switch o := obj.(type) {
	case *corev1.Pod:
		if o == nil {
			return nil, errNil(obj)
		}
		return Pod(o, opts.Options), nil
	case *corev1.PodTemplate:
		if o == nil {
			return nil, errNil(obj)
		}
		pt := CopyPodTemplate(o, false)
		DefaultPodTemplate(pt, g)
		PreparePodTemplateForCreate(pt, g)
		return podFromTemplate(&pt.Template, withDefaults(opts, &pt.ObjectMeta, "", "", false), nil), nil
	case *corev1.ReplicationController:
		if o == nil {
			return nil, errNil(obj)
		}
		rc := CopyReplicationController(o, false)
		DefaultReplicationController(rc, g)
		PrepareReplicationControllerForCreate(rc, g)
		if rc.Spec.Template == nil {
			return nil, fmt.Errorf("ReplicationController %q has no pod template", o.Name)
		}
		return podFromTemplate(rc.Spec.Template, withDefaults(opts, &rc.ObjectMeta, "v1", "ReplicationController", true), nil), nil
	case *appsv1.Deployment:
		if o == nil {
			return nil, errNil(obj)
		}
		d := CopyDeployment(o, false)
		DefaultDeployment(d, g)
		PrepareDeploymentForCreate(d, g)
		// The pods belong to a ReplicaSet the controller names after a hash of the
		// template: no controller reference.
		return podFromTemplate(&d.Spec.Template, withDefaults(opts, &d.ObjectMeta, "", "", false), nil), nil
	case *appsv1.ReplicaSet:
		if o == nil {
			return nil, errNil(obj)
		}
		rs := CopyReplicaSet(o, false)
		DefaultReplicaSet(rs, g)
		PrepareReplicaSetForCreate(rs, g)
		return podFromTemplate(&rs.Spec.Template, withDefaults(opts, &rs.ObjectMeta, "apps/v1", "ReplicaSet", true), nil), nil
	case *appsv1.DaemonSet:
		if o == nil {
			return nil, errNil(obj)
		}
		ds := CopyDaemonSet(o, false)
		DefaultDaemonSet(ds, g)
		PrepareDaemonSetForCreate(ds, g)
		return podFromTemplate(&ds.Spec.Template, withDefaults(opts, &ds.ObjectMeta, "apps/v1", "DaemonSet", true), addDaemonTolerations), nil
	case *appsv1.StatefulSet:
		if o == nil {
			return nil, errNil(obj)
		}
		ss := CopyStatefulSet(o, false)
		DefaultStatefulSet(ss, g)
		PrepareStatefulSetForCreate(ss, g)
		return podFromTemplate(&ss.Spec.Template, withDefaults(opts, &ss.ObjectMeta, "apps/v1", "StatefulSet", true), func(p *corev1.Pod) {
			statefulSetIdentity(ss, p)
		}), nil
	case *batchv1.Job:
		if o == nil {
			return nil, errNil(obj)
		}
		j := CopyJob(o, false)
		DefaultJob(j, g)
		if j.UID != "" {
			PrepareJobForCreate(j, g)
		} else {
			// Without a uid the selector and labels the registry generates from it are
			// unknown; everything else PrepareForCreate does still applies.
			manual := true
			saved := j.Spec.ManualSelector
			j.Spec.ManualSelector = &manual
			PrepareJobForCreate(j, g)
			j.Spec.ManualSelector = saved
		}
		o2 := withDefaults(opts, &j.ObjectMeta, "batch/v1", "Job", true)
		return podFromTemplate(&j.Spec.Template, o2, func(p *corev1.Pod) { jobPodAdditions(j, p, o2.ControllerName) }), nil
	case *batchv1.CronJob:
		if o == nil {
			return nil, errNil(obj)
		}
		cj := CopyCronJob(o, false)
		DefaultCronJob(cj, g)
		PrepareCronJobForCreate(cj, g)
		j := &batchv1.Job{ObjectMeta: metav1.ObjectMeta{Name: cj.Name, Namespace: cj.Namespace}, Spec: cj.Spec.JobTemplate.Spec}
		o2 := withDefaults(opts, &cj.ObjectMeta, "", "", false)
		return podFromTemplate(&j.Spec.Template, o2, func(p *corev1.Pod) { jobPodAdditions(j, p, o2.ControllerName) }), nil
	}
	if obj == nil {
		return nil, fmt.Errorf("no object")
	}
	return nil, fmt.Errorf("%T does not hold a pod template", obj)
}

func errNil(obj runtime.Object) error { return fmt.Errorf("nil %T", obj) }

// withDefaults fills the options a caller left empty from the owning object: its name
// as the controller name, its namespace, and (with owner) a controller reference when
// the object has a uid.
func withDefaults(opts PodFromTemplateOptions, meta *metav1.ObjectMeta, apiVersion, kind string, owner bool) PodFromTemplateOptions {
	if opts.ControllerName == "" {
		opts.ControllerName = meta.Name
	}
	if opts.Namespace == "" {
		opts.Namespace = meta.Namespace
	}
	if owner && opts.ControllerRef == nil && meta.UID != "" {
		t := true
		opts.ControllerRef = &metav1.OwnerReference{APIVersion: apiVersion, Kind: kind, Name: meta.Name, UID: meta.UID, Controller: &t, BlockOwnerDeletion: &t}
	}
	return opts
}

// daemonTolerations are the tolerations the DaemonSet controller gives its pods
// (k8s.io/kubernetes pkg/controller/daemon/util AddOrUpdateDaemonPodTolerations).
var daemonTolerations = []corev1.Toleration{
	{Key: corev1.TaintNodeNotReady, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute},
	{Key: corev1.TaintNodeUnreachable, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute},
	{Key: corev1.TaintNodeDiskPressure, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule},
	{Key: corev1.TaintNodeMemoryPressure, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule},
	{Key: corev1.TaintNodePIDPressure, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule},
	{Key: corev1.TaintNodeUnschedulable, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule},
}

// addDaemonTolerations mirrors AddOrUpdateDaemonPodTolerations: each toleration
// replaces one with the same key and effect (v1helper.AddOrUpdateTolerationInPodSpec)
// or is appended.
func addDaemonTolerations(p *corev1.Pod) {
	add := daemonTolerations
	if p.Spec.HostNetwork {
		add = append(append([]corev1.Toleration(nil), add...), corev1.Toleration{Key: corev1.TaintNodeNetworkUnavailable, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule})
	}
	for _, t := range add {
		replaced := false
		for i := range p.Spec.Tolerations {
			if p.Spec.Tolerations[i].Key == t.Key && p.Spec.Tolerations[i].Effect == t.Effect {
				p.Spec.Tolerations[i] = t
				replaced = true
			}
		}
		if !replaced {
			p.Spec.Tolerations = append(p.Spec.Tolerations, t)
		}
	}
}

// statefulSetIdentity mirrors newStatefulSetPod for the first ordinal
// (spec.ordinals.start): the pod's name, hostname and subdomain, its name and index
// labels, and a volume for each claim template, which replaces a template volume of
// the same name. Upstream appends the claims' volumes in map order; they come in the
// order of volumeClaimTemplates here.
func statefulSetIdentity(ss *appsv1.StatefulSet, p *corev1.Pod) {
	ordinal := 0
	if ss.Spec.Ordinals != nil {
		ordinal = int(ss.Spec.Ordinals.Start)
	}
	p.Name = fmt.Sprintf("%s-%d", ss.Name, ordinal)
	p.Namespace = ss.Namespace
	if p.Labels == nil {
		p.Labels = make(map[string]string, 2)
	}
	p.Labels[appsv1.StatefulSetPodNameLabel] = p.Name
	p.Labels[appsv1.PodIndexLabel] = strconv.Itoa(ordinal)
	p.Spec.Hostname = p.Name
	p.Spec.Subdomain = ss.Spec.ServiceName
	if len(ss.Spec.VolumeClaimTemplates) == 0 {
		return
	}
	claims := make(map[string]bool, len(ss.Spec.VolumeClaimTemplates))
	var volumes []corev1.Volume
	for i := range ss.Spec.VolumeClaimTemplates {
		name := ss.Spec.VolumeClaimTemplates[i].Name
		v := corev1.Volume{Name: name, VolumeSource: corev1.VolumeSource{PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{
			ClaimName: fmt.Sprintf("%s-%s-%d", name, ss.Name, ordinal),
		}}}
		if claims[name] {
			for k := range volumes {
				if volumes[k].Name == name {
					volumes[k] = v
				}
			}
			continue
		}
		claims[name] = true
		volumes = append(volumes, v)
	}
	for _, v := range p.Spec.Volumes {
		if !claims[v.Name] {
			volumes = append(volumes, v)
		}
	}
	p.Spec.Volumes = volumes
}

// jobPodAdditions mirrors what the Job controller adds to a pod (k8s.io/kubernetes
// pkg/controller/job manageJob): the tracking finalizer, and for an Indexed Job the
// first index (0): the completion-index annotation and label, the
// JOB_COMPLETION_INDEX variable in every container, the hostname "<job>-0" and the
// generateName "<job>-0-".
func jobPodAdditions(j *batchv1.Job, p *corev1.Pod, controllerName string) {
	if !containsString(p.Finalizers, batchv1.JobTrackingFinalizer) {
		p.Finalizers = append(p.Finalizers, batchv1.JobTrackingFinalizer)
	}
	if j.Spec.CompletionMode == nil || *j.Spec.CompletionMode != batchv1.IndexedCompletion {
		return
	}
	const index = "0"
	if p.Annotations == nil {
		p.Annotations = make(map[string]string, 1)
	}
	p.Annotations[batchv1.JobCompletionIndexAnnotation] = index
	if p.Labels == nil {
		p.Labels = make(map[string]string, 1)
	}
	p.Labels[batchv1.JobCompletionIndexAnnotation] = index
	if j.Spec.BackoffLimitPerIndex != nil {
		p.Annotations[batchv1.JobIndexFailureCountAnnotation] = "0"
	}
	p.Spec.Hostname = j.Name + "-" + index
	prefix := controllerName + "-" + index + "-"
	if max := 63 - 5; len(prefix) > max {
		prefix = prefix[:max-len("-"+index+"-")] + "-" + index + "-"
	}
	p.GenerateName = prefix
	for _, list := range [][]corev1.Container{p.Spec.InitContainers, p.Spec.Containers} {
		for i := range list {
			c := &list[i]
			has := false
			for _, e := range c.Env {
				if e.Name == "JOB_COMPLETION_INDEX" {
					has = true
				}
			}
			if !has {
				c.Env = append(c.Env, corev1.EnvVar{Name: "JOB_COMPLETION_INDEX", ValueFrom: &corev1.EnvVarSource{
					FieldRef: &corev1.ObjectFieldSelector{FieldPath: fmt.Sprintf("metadata.labels['%s']", batchv1.JobCompletionIndexAnnotation)},
				}})
			}
		}
	}
}

func containsString(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
