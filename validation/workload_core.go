package validation

import (
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/validate/content"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/podlife/podlife/internal/apidiff"
	"github.com/podlife/podlife/internal/defaulting"
	"github.com/podlife/podlife/internal/gates"
)

// This file mirrors the PodTemplate and ReplicationController parts of k8s.io/kubernetes
// pkg/apis/core/validation/validation.go and the strategies of
// pkg/registry/core/{podtemplate,replicationcontroller}, with the ReplicationController's
// declarative rules (pkg/apis/core/v1/zz_generated.validations.go), which the server
// enforces while DeclarativeValidationBeta is on.

// ---- PodTemplate ----

func validatePodTemplateCreate(in *corev1.PodTemplate, opts Options, w *warningRecorder) field.ErrorList {
	g := resolvedGates(opts)
	pt := defaulting.CopyPodTemplate(orEmpty(in), true)
	if errs := createSteps(&pt.ObjectMeta, opts, w,
		func() { defaulting.DefaultPodTemplate(pt, g) },
		func() { defaulting.PreparePodTemplateForCreate(pt, g) }); errs != nil {
		return errs
	}
	o := templateOptions(opts, &pt.Template, nil)
	errs := validateObjectMeta(&pt.ObjectMeta, true, nameIsDNSSubdomain, rootPath("metadata"))
	errs = append(errs, validateTemplate(&pt.Template, rootPath("template"), o)...)
	return acceptedWarnings(w, pt, finishCreate(errs, &pt.ObjectMeta, templateDeclarative(&pt.Template, nil, rootPath("template"))))
}

func validatePodTemplateUpdate(newIn, oldIn *corev1.PodTemplate, opts Options, w *warningRecorder) field.ErrorList {
	g := resolvedGates(opts)
	pt := defaulting.CopyPodTemplate(orEmpty(newIn), true)
	old := defaulting.CopyPodTemplate(orEmpty(oldIn), true)
	if errs := updateSteps(&pt.ObjectMeta, &old.ObjectMeta, podTemplatesResource, opts, w,
		func() { defaulting.DefaultPodTemplate(pt, g); defaulting.DefaultPodTemplate(old, g) },
		func() { defaulting.PreparePodTemplateForUpdate(pt, old, g) }, nil); errs != nil {
		return errs
	}
	o := templateOptions(opts, &pt.Template, &old.Template)
	errs := validateObjectMetaUpdate(&pt.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	errs = append(errs, validateTemplate(&pt.Template, rootPath("template"), o)...)
	return acceptedUpdateWarnings(w, pt, old, pt.Generation != old.Generation, finishUpdate(errs, &pt.ObjectMeta, &old.ObjectMeta, templateDeclarative(&pt.Template, &old.Template, rootPath("template"))))
}

// ---- ReplicationController ----

// longNameOrigin is the origin of declarative validation's long-name format errors.
const longNameOrigin = "format=k8s-long-name"

func validateReplicationControllerCreate(in *corev1.ReplicationController, opts Options, w *warningRecorder) field.ErrorList {
	g := resolvedGates(opts)
	rc := defaulting.CopyReplicationController(orEmpty(in), true)
	if errs := createSteps(&rc.ObjectMeta, opts, w,
		func() { defaulting.DefaultReplicationController(rc, g) },
		func() { defaulting.PrepareReplicationControllerForCreate(rc, g) }); errs != nil {
		return errs
	}
	o := templateOptions(opts, rc.Spec.Template, nil)
	errs := validateReplicationControllerMeta(&rc.ObjectMeta, rootPath("metadata"))
	errs = append(errs, validateReplicationControllerSpec(&rc.Spec, rootPath("spec"), o)...)
	enforced := replicationControllerDeclarative(rc, nil, g)
	enforced = append(enforced, templateDeclarative(rc.Spec.Template, nil, rootPath("spec").Child("template"))...)
	return acceptedWarnings(w, rc, finishCreate(errs, &rc.ObjectMeta, enforced))
}

func validateReplicationControllerUpdate(newIn, oldIn *corev1.ReplicationController, opts Options, w *warningRecorder) field.ErrorList {
	g := resolvedGates(opts)
	oldIn = orEmpty(oldIn)
	rc := defaulting.CopyReplicationController(orEmpty(newIn), true)
	old := defaulting.CopyReplicationController(oldIn, true)
	old.Status = *oldIn.Status.DeepCopy()
	if errs := updateSteps(&rc.ObjectMeta, &old.ObjectMeta, replicationControllersResource, opts, w,
		func() {
			defaulting.DefaultReplicationController(rc, g)
			defaulting.DefaultReplicationController(old, g)
		},
		func() { defaulting.PrepareReplicationControllerForUpdate(rc, old, g) },
		func() { rc.Status = old.Status }); errs != nil {
		return errs
	}
	o := templateOptions(opts, rc.Spec.Template, old.Spec.Template)
	errs := validateObjectMetaUpdate(&rc.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	errs = append(errs, validateReplicationControllerSpec(&rc.Spec, rootPath("spec"), o)...)
	errs = append(errs, nonConvertibleFieldErrors(rc, old)...)
	enforced := replicationControllerDeclarative(rc, old, g)
	enforced = append(enforced, templateDeclarative(rc.Spec.Template, old.Spec.Template, rootPath("spec").Child("template"))...)
	return acceptedUpdateWarnings(w, rc, old, rc.Generation != old.Generation, finishUpdate(errs, &rc.ObjectMeta, &old.ObjectMeta, enforced))
}

// validateReplicationControllerMeta mirrors the metadata part of
// ValidateReplicationController: ValidateObjectMetaWithOpts (no generateName check;
// the name a DNS subdomain, reported as declarative validation's long-name rule
// reports it, and covered by it) plus the Kubernetes finalizer-name rule.
func validateReplicationControllerMeta(meta *metav1.ObjectMeta, fldPath lpath) field.ErrorList {
	m := *meta
	m.GenerateName = ""
	errs := validateObjectMeta(&m, true, longNameErrs, fldPath)
	name := fldPath.Child("name").String()
	for _, e := range errs {
		if e.Field == name && e.Type == field.ErrorTypeInvalid {
			e.WithOrigin(longNameOrigin).MarkCoveredByDeclarative()
		}
	}
	return errs
}

// longNameErrs is declarative validation's long-name rule (k8s.io/apimachinery
// pkg/api/validate LongName): a DNS subdomain, with content's wording (its length
// limit counts bytes).
func longNameErrs(name string, _ bool) []string {
	if validDNS1123Subdomain(name) {
		return nil
	}
	return content.IsDNS1123Subdomain(name)
}

// validateReplicationControllerSpec mirrors ValidateReplicationControllerSpec.
func validateReplicationControllerSpec(spec *corev1.ReplicationControllerSpec, fldPath lpath, o podValidationOptions) field.ErrorList {
	errs := nonNegChild(int64(spec.MinReadySeconds), fldPath, "minReadySeconds").MarkCoveredByDeclarative()
	if len(spec.Selector) == 0 {
		errs = append(errs, requiredAt(fldPath.Child("selector"), ""))
	}
	if spec.Replicas == nil {
		errs = append(errs, requiredAt(fldPath.Child("replicas"), "").MarkCoveredByDeclarative())
	} else {
		errs = append(errs, nonNegChild(int64(*spec.Replicas), fldPath, "replicas").MarkCoveredByDeclarative()...)
	}
	tPath := fldPath.Child("template")
	t := spec.Template
	if t == nil {
		return append(errs, requiredAt(tPath, ""))
	}
	if len(spec.Selector) > 0 && !mapSelects(spec.Selector, t.Labels) {
		errs = append(errs, selectorMismatch(tPath, t.Labels))
	}
	errs = append(errs, validateTemplate(t, tPath, o)...)
	return append(errs, validateAlwaysRestart(&t.Spec, "ReplicationController", tPath.Child("spec"))...)
}

// mapSelects reports whether the label set selects labels, as
// labels.Set(selector).AsSelector().Matches does.
func mapSelects(selector, labels map[string]string) bool {
	for k, v := range selector {
		if got, ok := labels[k]; !ok || got != v {
			return false
		}
	}
	return true
}

// nonConvertibleFieldErrors mirrors the end of rcStrategy.ValidateUpdate: for each
// non-convertible.kubernetes.io/FIELD annotation of the stored object, a selector
// that changes is refused and any other field reported as unknown. Upstream ranges
// over the annotations; podlife takes them in sorted order.
func nonConvertibleFieldErrors(rc, old *corev1.ReplicationController) field.ErrorList {
	var errs field.ErrorList
	for _, key := range sortedKeys(old.Annotations) {
		if !strings.HasPrefix(key, corev1.NonConvertibleAnnotationPrefix) {
			continue
		}
		parts := strings.Split(key, "/")
		if len(parts) != 2 {
			continue
		}
		broken := parts[1]
		switch {
		case strings.Contains(broken, "selector"):
			if !apidiff.Equal(old.Spec.Selector, rc.Spec.Selector) {
				errs = append(errs, field.Invalid(field.NewPath("spec").Child("selector"), rc.Spec.Selector, "cannot update non-convertible selector"))
			}
		default:
			errs = append(errs, &field.Error{Type: field.ErrorTypeNotFound, BadValue: old.Annotations[key], Field: broken, Detail: "unknown non-convertible field"})
		}
	}
	return errs
}

// replicationControllerDeclarative returns the ReplicationController's beta
// declarative errors the server enforces (none while DeclarativeValidationBeta is
// off): the name as a long name, replicas required and not negative, minReadySeconds
// not negative. On update (old non-nil) a field equal to the stored one is not
// checked again, nor is anything under an unchanged metadata or spec.
func replicationControllerDeclarative(rc, old *corev1.ReplicationController, g *gates.Set) field.ErrorList {
	if !g.DeclarativeValidationBeta {
		return nil
	}
	var errs field.ErrorList
	if (old == nil || !apidiff.Equal(rc.ObjectMeta, old.ObjectMeta)) && rc.Name != "" && (old == nil || rc.Name != old.Name) {
		for _, msg := range longNameErrs(rc.Name, false) {
			errs = append(errs, field.Invalid(field.NewPath("metadata", "name"), rc.Name, msg).WithOrigin(longNameOrigin).MarkBeta())
		}
	}
	if old != nil && apidiff.Equal(rc.Spec, old.Spec) {
		return errs
	}
	specPath := rootPath("spec")
	if old == nil || !int32PtrEqual(rc.Spec.Replicas, old.Spec.Replicas) {
		switch {
		case rc.Spec.Replicas == nil:
			errs = append(errs, requiredAt(specPath.Child("replicas"), "").MarkBeta())
		case *rc.Spec.Replicas < 0:
			errs = append(errs, minimumError(specPath.Child("replicas"), *rc.Spec.Replicas))
		}
	}
	if (old == nil || rc.Spec.MinReadySeconds != old.Spec.MinReadySeconds) && rc.Spec.MinReadySeconds < 0 {
		errs = append(errs, minimumError(specPath.Child("minReadySeconds"), rc.Spec.MinReadySeconds))
	}
	return errs
}

// minimumError is declarative validation's Minimum(0) error, marked beta.
func minimumError(fldPath lpath, v int32) *field.Error {
	return invalidAt(fldPath, v, "must be greater than or equal to 0").WithOrigin("minimum").MarkBeta()
}

func int32PtrEqual(a, b *int32) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
}
