package validation

import (
	"errors"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// refusalKinds are a stored object of every kind (namespace default, name web, uid
// u-1, resourceVersion 7) with the resource its Conflict messages name and its
// storage key prefix, as a v1.37.2 kube-apiserver has them.
func refusalKinds() []struct {
	obj             runtime.Object
	resource, store string
} {
	m := metav1.ObjectMeta{Name: "web", Namespace: "default", UID: "u-1", ResourceVersion: "7"}
	labels := map[string]string{"app": "web"}
	sel := &metav1.LabelSelector{MatchLabels: labels}
	tmpl := func(rp corev1.RestartPolicy) corev1.PodTemplateSpec {
		return corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels},
			Spec: corev1.PodSpec{RestartPolicy: rp, Containers: []corev1.Container{{Name: "c", Image: "nginx"}}}}
	}
	always, never := tmpl(corev1.RestartPolicyAlways), tmpl(corev1.RestartPolicyNever)
	return []struct {
		obj             runtime.Object
		resource, store string
	}{
		{&corev1.Pod{ObjectMeta: m, Spec: always.Spec}, "pods", "pods"},
		{&corev1.PodTemplate{ObjectMeta: m, Template: always}, "podtemplates", "podtemplates"},
		{&corev1.ReplicationController{ObjectMeta: m, Spec: corev1.ReplicationControllerSpec{Selector: labels, Template: &always}}, "replicationcontrollers", "controllers"},
		{&appsv1.Deployment{ObjectMeta: m, Spec: appsv1.DeploymentSpec{Selector: sel, Template: always}}, "deployments.apps", "deployments"},
		{&appsv1.ReplicaSet{ObjectMeta: m, Spec: appsv1.ReplicaSetSpec{Selector: sel, Template: always}}, "replicasets.apps", "replicasets"},
		{&appsv1.StatefulSet{ObjectMeta: m, Spec: appsv1.StatefulSetSpec{Selector: sel, Template: always}}, "statefulsets.apps", "statefulsets"},
		{&appsv1.DaemonSet{ObjectMeta: m, Spec: appsv1.DaemonSetSpec{Selector: sel, Template: always}}, "daemonsets.apps", "daemonsets"},
		{&batchv1.Job{ObjectMeta: m, Spec: batchv1.JobSpec{ManualSelector: new(true), Selector: sel, Template: never}}, "jobs.batch", "jobs"},
		{&batchv1.CronJob{ObjectMeta: m, Spec: batchv1.CronJobSpec{Schedule: "@daily", JobTemplate: batchv1.JobTemplateSpec{Spec: batchv1.JobSpec{Template: never}}}}, "cronjobs.batch", "cronjobs"},
	}
}

// withObjectMeta returns a copy of obj with f applied to its metadata.
func withObjectMeta(obj runtime.Object, f func(metav1.Object)) runtime.Object {
	cp := obj.DeepCopyObject()
	f(cp.(metav1.ObjectMetaAccessor).GetObjectMeta())
	return cp
}

// TestUpdateRefusals checks, for every kind, the requests the server refuses before
// validation: the one error ValidateObjectUpdate returns (its Error() text) and the
// status RefusalOf reads from it.
func TestUpdateRefusals(t *testing.T) {
	cases := []struct {
		name   string
		stored func(metav1.Object) // applied to the stored object
		change func(metav1.Object) // applied to the new object
		// want is the Error() text; RESOURCE and KEY stand for the kind's resource
		// and storage prefix.
		want   string
		code   int32
		reason metav1.StatusReason
	}{
		{name: "another namespace", change: func(m metav1.Object) { m.SetNamespace("prod") },
			want: `metadata.namespace: Invalid value: "prod": the namespace of the provided object does not match the namespace sent on the request`,
			code: 400, reason: metav1.StatusReasonBadRequest},
		{name: "no name", change: func(m metav1.Object) { m.SetName("") },
			want: `metadata.name: Invalid value: "": the name of the object (web based on URL) was undeterminable: name must be provided`,
			code: 400, reason: metav1.StatusReasonBadRequest},
		{name: "another name", change: func(m metav1.Object) { m.SetName("api") },
			want: `metadata.name: Invalid value: "api": the name of the object (api) does not match the name on the URL (web)`,
			code: 400, reason: metav1.StatusReasonBadRequest},
		{name: "a stored name that is no path segment", stored: func(m metav1.Object) { m.SetName("a%b") }, change: func(m metav1.Object) { m.SetName("a%b") },
			want: `metadata.name: Invalid value: "a%b": Name parameter invalid: "a%b": may not contain '%'`,
			code: 400, reason: metav1.StatusReasonBadRequest},
		{name: "another uid", change: func(m metav1.Object) { m.SetUID("u-2") },
			want: `metadata.uid: Invalid value: "u-2": Operation cannot be fulfilled on RESOURCE "web": StorageError: invalid object, Code: 4, Key: /registry/KEY/default/web, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: u-2, UID in object meta: u-1`,
			code: 409, reason: metav1.StatusReasonConflict},
		{name: "a stale resourceVersion", change: func(m metav1.Object) { m.SetResourceVersion("6") },
			want: `metadata.resourceVersion: Invalid value: "6": Operation cannot be fulfilled on RESOURCE "web": the object has been modified; please apply your changes to the latest version and try again`,
			code: 409, reason: metav1.StatusReasonConflict},
		{name: "a resourceVersion that is no number", change: func(m metav1.Object) { m.SetResourceVersion("x") },
			want: `metadata.resourceVersion: Internal error: strconv.ParseUint: parsing "x": invalid syntax`,
			code: 500, reason: metav1.StatusReasonUnknown},
		{name: "no namespace, uid or resourceVersion: the stored ones", change: func(m metav1.Object) {
			m.SetNamespace("")
			m.SetUID("")
			m.SetResourceVersion("")
		}},
		{name: "resourceVersion 0: unconditional", change: func(m metav1.Object) { m.SetResourceVersion("0") }},
	}
	for _, k := range refusalKinds() {
		for _, c := range cases {
			t.Run(k.resource+"/"+c.name, func(t *testing.T) {
				old := k.obj
				if c.stored != nil {
					old = withObjectMeta(old, c.stored)
				}
				obj := withObjectMeta(old, c.change)
				errs := ValidateObjectUpdate(obj, old, Options{})
				r, refused := RefusalOf(errs)
				if c.want == "" {
					if refused {
						t.Fatalf("refused: %+v", r)
					}
					if len(errs) != 0 {
						t.Fatalf("errors: %v", errs)
					}
					return
				}
				want := strings.NewReplacer("RESOURCE", k.resource, "KEY", k.store).Replace(c.want)
				if len(errs) != 1 || errs[0].Error() != want {
					t.Fatalf("got %q\nwant %q", errorStrings(errs), want)
				}
				wantRefusal := Refusal{Code: c.code, Reason: c.reason, Message: errs[0].Detail}
				if !refused || r != wantRefusal {
					t.Fatalf("RefusalOf: %+v %v, want %+v", r, refused, wantRefusal)
				}
			})
		}
	}
}

// TestCreateRefusals checks the requests a create refuses before validation.
func TestCreateRefusals(t *testing.T) {
	job := refusalKinds()[7].obj
	indexed := batchv1.IndexedCompletion
	panicking := job.DeepCopyObject().(*batchv1.Job)
	panicking.Spec.CompletionMode = &indexed
	panicking.Spec.Parallelism = new(int32(2)) // completions stay unset
	panicking.Spec.SuccessPolicy = &batchv1.SuccessPolicy{Rules: []batchv1.SuccessPolicyRule{{SucceededCount: new(int32(1))}}}
	deploy := withObjectMeta(refusalKinds()[3].obj, func(m metav1.Object) {
		m.SetAnnotations(map[string]string{appsv1.DeprecatedRollbackTo: "x"})
	})
	daemon := withObjectMeta(refusalKinds()[6].obj, func(m metav1.Object) {
		m.SetAnnotations(map[string]string{appsv1.DeprecatedTemplateGeneration: "1.5"})
	})
	cases := []struct {
		name string
		obj  runtime.Object
		opts Options
		want string
		r    Refusal
	}{
		{"a namespace other than the request's", job, Options{Namespace: "prod"},
			`metadata.namespace: Invalid value: "default": the namespace of the provided object does not match the namespace sent on the request`,
			Refusal{400, metav1.StatusReasonBadRequest, NamespaceMismatchDetail}},
		{"a rollback annotation that is no integer", deploy, Options{},
			`metadata.annotations[deprecated.deployment.rollback.to]: Invalid value: "x": Deployment in version "v1" cannot be handled as a Deployment: failed to parse annotation[deprecated.deployment.rollback.to]=x as int64: strconv.ParseInt: parsing "x": invalid syntax`,
			Refusal{400, metav1.StatusReasonBadRequest, `Deployment in version "v1" cannot be handled as a Deployment: failed to parse annotation[deprecated.deployment.rollback.to]=x as int64: strconv.ParseInt: parsing "x": invalid syntax`}},
		{"a template generation that is no integer", daemon, Options{},
			`metadata.annotations[deprecated.daemonset.template.generation]: Invalid value: "1.5": DaemonSet in version "v1" cannot be handled as a DaemonSet: strconv.ParseInt: parsing "1.5": invalid syntax`,
			Refusal{400, metav1.StatusReasonBadRequest, `DaemonSet in version "v1" cannot be handled as a DaemonSet: strconv.ParseInt: parsing "1.5": invalid syntax`}},
		{"a request the server panics on", panicking, Options{},
			`<nil>: Internal error: ` + ServerPanicDetail,
			Refusal{500, metav1.StatusReasonInternalError, ServerPanicDetail}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			errs := ValidateObjectCreate(c.obj, c.opts)
			if len(errs) != 1 || errs[0].Error() != c.want {
				t.Fatalf("got %q\nwant %q", errorStrings(errs), c.want)
			}
			r, ok := RefusalOf(errs)
			if !ok || r != c.r {
				t.Fatalf("RefusalOf: %+v %v, want %+v", r, ok, c.r)
			}
		})
	}
}

// TestRefusalOfValidationErrors checks that validation errors on the same fields
// are not taken for refusals.
func TestRefusalOfValidationErrors(t *testing.T) {
	for _, errs := range []field.ErrorList{
		nil,
		{field.Invalid(field.NewPath("metadata", "name"), "x", "field is immutable")},
		{field.Invalid(field.NewPath("metadata", "uid"), "x", "field is immutable")},
		{field.Invalid(field.NewPath("metadata", "annotations").Key("a"), "x", "must be no more than 63 characters")},
		{field.InternalError(nil, errors.New("boom"))},
		{field.Invalid(field.NewPath("metadata", "namespace"), "x", NamespaceMismatchDetail), field.Required(field.NewPath("spec"), "")},
	} {
		if r, ok := RefusalOf(errs); ok {
			t.Errorf("%v: refusal %+v", errs, r)
		}
	}
}
