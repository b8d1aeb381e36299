package validation

import (
	"reflect"
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/podlife/podlife/internal/defaulting"
	"github.com/podlife/podlife/internal/gates"
)

// This file builds, for kubectl apply (StreamOptions.Apply), the object the server
// holds as kubectl reads it back: the stored object of a cluster (Stored), one the
// stream created, one a patch updated; v1 objects of the kinds that hold a pod.

// workloadSteps are a workload kind's steps on the server's storage path, on v1
// objects (internal/defaulting).
type workloadSteps struct {
	// copy returns a deep copy without the status.
	copy func(runtime.Object) runtime.Object
	// dflt applies the decoder's defaults.
	dflt func(runtime.Object, *gates.Set)
	// prepareCreate and prepareUpdate are the strategy's PrepareForCreate and
	// PrepareForUpdate; prepareUpdate reports a changed template.
	prepareCreate func(runtime.Object, *gates.Set)
	prepareUpdate func(obj, old runtime.Object, g *gates.Set) (templateChanged bool)
}

// stepsOf builds a kind's workloadSteps from its typed functions.
func stepsOf[T runtime.Object](copyFn func(T, bool) T, dflt, create func(T, *gates.Set), update func(T, T, *gates.Set) bool) workloadSteps {
	return workloadSteps{
		copy:          func(o runtime.Object) runtime.Object { return copyFn(o.(T), false) },
		dflt:          func(o runtime.Object, g *gates.Set) { dflt(o.(T), g) },
		prepareCreate: func(o runtime.Object, g *gates.Set) { create(o.(T), g) },
		prepareUpdate: func(o, old runtime.Object, g *gates.Set) bool { return update(o.(T), old.(T), g) },
	}
}

// unchanged adapts a PrepareForUpdate that reports nothing.
func unchanged[T any](prepare func(T, T, *gates.Set)) func(T, T, *gates.Set) bool {
	return func(o, old T, g *gates.Set) bool { prepare(o, old, g); return false }
}

// workloadStepsByType are the steps of the workload kinds, by Go type (pods have
// their own).
var workloadStepsByType = map[reflect.Type]workloadSteps{
	reflect.TypeFor[*corev1.PodTemplate](): stepsOf(defaulting.CopyPodTemplate, defaulting.DefaultPodTemplate,
		defaulting.PreparePodTemplateForCreate, unchanged(defaulting.PreparePodTemplateForUpdate)),
	reflect.TypeFor[*corev1.ReplicationController](): stepsOf(defaulting.CopyReplicationController, defaulting.DefaultReplicationController,
		defaulting.PrepareReplicationControllerForCreate, unchanged(defaulting.PrepareReplicationControllerForUpdate)),
	reflect.TypeFor[*appsv1.Deployment](): stepsOf(defaulting.CopyDeployment, defaulting.DefaultDeployment,
		defaulting.PrepareDeploymentForCreate, unchanged(defaulting.PrepareDeploymentForUpdate)),
	reflect.TypeFor[*appsv1.ReplicaSet](): stepsOf(defaulting.CopyReplicaSet, defaulting.DefaultReplicaSet,
		defaulting.PrepareReplicaSetForCreate, unchanged(defaulting.PrepareReplicaSetForUpdate)),
	reflect.TypeFor[*appsv1.StatefulSet](): stepsOf(defaulting.CopyStatefulSet, defaulting.DefaultStatefulSet,
		defaulting.PrepareStatefulSetForCreate, unchanged(defaulting.PrepareStatefulSetForUpdate)),
	reflect.TypeFor[*appsv1.DaemonSet](): stepsOf(defaulting.CopyDaemonSet, defaulting.DefaultDaemonSet,
		defaulting.PrepareDaemonSetForCreate, defaulting.PrepareDaemonSetForUpdate),
	reflect.TypeFor[*batchv1.Job](): stepsOf(defaulting.CopyJob, defaulting.DefaultJob,
		defaulting.PrepareJobForCreate, unchanged(defaulting.PrepareJobForUpdate)),
	reflect.TypeFor[*batchv1.CronJob](): stepsOf(defaulting.CopyCronJob, defaulting.DefaultCronJob,
		defaulting.PrepareCronJobForCreate, unchanged(defaulting.PrepareCronJobForUpdate)),
}

// objectMeta returns a typed object's metadata, nil for an object without.
func objectMeta(obj runtime.Object) *metav1.ObjectMeta {
	if a, ok := obj.(metav1.ObjectMetaAccessor); ok {
		om, _ := a.GetObjectMeta().(*metav1.ObjectMeta)
		return om
	}
	return nil
}

// copyStatus sets dst's status to a copy of src's (objects of one Go type; nothing
// for a kind without a status).
func copyStatus(dst, src runtime.Object) {
	d := reflect.ValueOf(dst).Elem().FieldByName("Status")
	if d.IsValid() && d.CanSet() {
		d.Set(reflect.ValueOf(src.DeepCopyObject()).Elem().FieldByName("Status"))
	}
}

// storedAsServed returns the object the server holds for stored, a v1 object as a
// client reads it: a copy with the defaults the storage's decoder applies (the
// stored object of a cluster has them already; a manifest standing for it gets
// them) and its status, as read back from storage (asReadFromStorage) in the served
// view (asServedView).
func storedAsServed(stored runtime.Object, opts Options) runtime.Object {
	var out runtime.Object
	if p, ok := stored.(*corev1.Pod); ok {
		c := defaulting.PodForUpdate(p, p, defaulting.Options{Features: opts.Features})
		c.Generation = p.Generation
		out = c
	} else if st, ok := workloadStepsByType[reflect.TypeOf(stored)]; ok {
		out = st.copy(stored)
		st.dflt(out, resolvedGates(opts))
		copyStatus(out, stored)
	} else {
		return stored.DeepCopyObject()
	}
	asReadFromStorage(out)
	asServedView(out, false)
	return out
}

// createdAsStored returns the object the server stores when it creates obj, a v1
// object of a kind that holds a pod that the create path accepted, as kubectl reads
// it back: a copy with the uid the store assigns (GeneratedUID), a resourceVersion
// and a creation time, the decoder's defaults and the strategy's PrepareForCreate (a
// Job's generated selector, a generation of 1, the status reset), as read back from
// storage (asReadFromStorage) in the served view (asServedView).
func createdAsStored(obj runtime.Object, opts Options) runtime.Object {
	stamp := func(m *metav1.ObjectMeta) {
		m.UID, m.ResourceVersion = GeneratedUID, unwrittenResourceVersion
		// Some creation time: the patch only ever names it to delete it (a
		// manifest's "creationTimestamp: null"), which rest.BeforeUpdate undoes.
		m.CreationTimestamp = metav1.Unix(1_700_000_000, 0)
	}
	var out runtime.Object
	if p, ok := obj.(*corev1.Pod); ok {
		c := p.DeepCopy()
		stamp(&c.ObjectMeta)
		out = defaulting.Pod(c, defaulting.Options{Features: opts.Features})
	} else if st, ok := workloadStepsByType[reflect.TypeOf(obj)]; ok {
		g := resolvedGates(opts)
		out = st.copy(obj)
		stamp(objectMeta(out))
		st.dflt(out, g)
		st.prepareCreate(out, g)
	} else {
		return obj.DeepCopyObject()
	}
	asReadFromStorage(out)
	asServedView(out, true)
	return out
}

// updatedAsStored returns the object the server stores after a patch of old (the
// stored object as storedAsServed serves it) gave merged (a v1 object of the same
// kind, as the patch handler decoded it): merged with the decoder's defaults, the
// stored generation, the strategy's PrepareForUpdate (the stored status, disabled
// fields dropped unless in use, the generation moved on, a DaemonSet's template
// generation), the metadata rest.BeforeUpdate carries over, as read back from
// storage (asReadFromStorage) in the served view (asServedView), with the next
// resourceVersion.
func updatedAsStored(merged, old runtime.Object, opts Options) runtime.Object {
	oldMeta := objectMeta(old)
	var out runtime.Object
	templateChanged := false
	if p, ok := merged.(*corev1.Pod); ok {
		out = defaulting.PodForUpdate(p, old.(*corev1.Pod), defaulting.Options{Features: opts.Features})
	} else if st, ok := workloadStepsByType[reflect.TypeOf(merged)]; ok && oldMeta != nil {
		g := resolvedGates(opts)
		out = st.copy(merged)
		st.dflt(out, g)
		objectMeta(out).Generation = oldMeta.Generation // rest.BeforeUpdate, first
		templateChanged = st.prepareUpdate(out, old, g)
	} else {
		return merged.DeepCopyObject()
	}
	m := objectMeta(out)
	carryOverMeta(m, oldMeta)
	if rv, err := strconv.ParseUint(oldMeta.ResourceVersion, 10, 64); err == nil {
		m.ResourceVersion = strconv.FormatUint(rv+1, 10)
	}
	asReadFromStorage(out)
	asServedView(out, false)
	if ds, ok := out.(*appsv1.DaemonSet); ok {
		// The template generation is the stored one, moved on with the template.
		tg, _ := templateGenerationOf(oldMeta.Annotations)
		if templateChanged {
			tg++
		}
		ds.Annotations[appsv1.DeprecatedTemplateGeneration] = strconv.FormatInt(tg, 10)
	}
	return out
}

// asServedView rewrites what a workload's conversion keeps in its internal spec
// as the server writes it back when it encodes the stored object (k8s.io/kubernetes
// pkg/apis/apps/v1 conversion.go): a Deployment's rollback revision annotation in
// its decimal form, none when empty; a DaemonSet's template generation annotation
// always (0 when it had none), at least 1 for an object just created (PrepareForCreate);
// a StatefulSet's claim templates with apiVersion v1 and kind PersistentVolumeClaim.
func asServedView(obj runtime.Object, created bool) {
	switch o := obj.(type) {
	case *appsv1.Deployment:
		if n, _ := rollbackToOf(o.Annotations); n != nil {
			o.Annotations[appsv1.DeprecatedRollbackTo] = strconv.FormatInt(*n, 10)
		} else {
			delete(o.Annotations, appsv1.DeprecatedRollbackTo)
		}
	case *appsv1.DaemonSet:
		n, _ := templateGenerationOf(o.Annotations)
		if o.Annotations == nil {
			o.Annotations = map[string]string{}
		}
		if created {
			n = max(n, 1)
		}
		o.Annotations[appsv1.DeprecatedTemplateGeneration] = strconv.FormatInt(n, 10)
	case *appsv1.StatefulSet:
		for i := range o.Spec.VolumeClaimTemplates {
			o.Spec.VolumeClaimTemplates[i].APIVersion, o.Spec.VolumeClaimTemplates[i].Kind = "v1", "PersistentVolumeClaim"
		}
	}
}

// asReadFromStorage clears the empty lists and maps of obj, at every depth: the
// server stores the built-in kinds as protobuf, which keeps no difference between
// an empty list or map and none, so what it reads back has none (a manifest's
// "sources: []", which has no omitempty, reads back as null).
func asReadFromStorage(obj runtime.Object) {
	clearEmpty(reflect.ValueOf(obj))
}

// clearEmpty is asReadFromStorage on a value.
func clearEmpty(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			clearEmpty(v.Elem())
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Field(i); f.CanSet() {
				clearEmpty(f)
			}
		}
	case reflect.Slice:
		if v.Len() == 0 {
			if !v.IsNil() && v.CanSet() {
				v.Set(reflect.Zero(v.Type()))
			}
			return
		}
		for i := range v.Len() {
			clearEmpty(v.Index(i))
		}
	case reflect.Map:
		if v.Len() == 0 {
			if !v.IsNil() && v.CanSet() {
				v.Set(reflect.Zero(v.Type()))
			}
			return
		}
		for _, k := range v.MapKeys() {
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(v.MapIndex(k))
			clearEmpty(e)
			v.SetMapIndex(k, e)
		}
	}
}
