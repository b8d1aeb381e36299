package validation

import (
	"fmt"
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/podlife/podlife/internal/apidiff"
	"github.com/podlife/podlife/internal/defaulting"
)

// This file mirrors k8s.io/kubernetes pkg/apis/apps/validation/validation.go and the
// strategies of pkg/registry/apps/{deployment,replicaset,daemonset,statefulset}, on
// the v1 types. Where the internal type differs from v1 (int32 for *int32 replicas,
// partitions and the intstr values of rolling updates), the value upstream sees is
// the v1 value with nil read as zero, which is what the conversion makes of it.

// selectorMismatch is the error every workload reports when its selector does not
// select its template's labels.
func selectorMismatch(fldPath lpath, labels map[string]string) *field.Error {
	return invalidAt(fldPath.Children("metadata", "labels"), labels, "`selector` does not match template `labels`")
}

// validateStrictSelector is the selector check of Deployments, ReplicaSets and
// StatefulSets: required, valid with valid label values, and not empty.
func validateStrictSelector(sel *metav1.LabelSelector, kind string, fldPath lpath) field.ErrorList {
	if sel == nil {
		return field.ErrorList{requiredAt(fldPath, "")}
	}
	errs := validateLabelSelector(sel, false, fldPath)
	if len(sel.MatchLabels)+len(sel.MatchExpressions) == 0 {
		errs = append(errs, invalidAt(fldPath, sel, "empty selector is invalid for "+kind))
	}
	return errs
}

// validateTemplateForReplicaSet mirrors ValidatePodTemplateSpecForReplicaSet (and,
// with kind "ReplicationController", the template part of
// ValidatePodTemplateSpecForRC): the selector must select the template, which is
// validated, must restart Always and may not have an active deadline.
func validateTemplateForReplicaSet(t *corev1.PodTemplateSpec, sel *metav1.LabelSelector, k selectorKind, kind string, fldPath lpath, o podValidationOptions) field.ErrorList {
	var errs field.ErrorList
	if k != selectorEverything && !selectorMatches(sel, k, t.Labels) {
		errs = append(errs, selectorMismatch(fldPath, t.Labels))
	}
	errs = append(errs, validateTemplate(t, fldPath, o)...)
	errs = append(errs, validateAlwaysRestart(&t.Spec, kind, fldPath.Child("spec"))...)
	return errs
}

// validateAlwaysRestart is the restartPolicy Always and no activeDeadlineSeconds rule
// of the workloads whose pods run forever.
func validateAlwaysRestart(spec *corev1.PodSpec, kind string, specPath lpath) field.ErrorList {
	var errs field.ErrorList
	if spec.RestartPolicy != corev1.RestartPolicyAlways {
		errs = append(errs, notSupportedAt(specPath.Child("restartPolicy"), spec.RestartPolicy, []string{string(corev1.RestartPolicyAlways)}))
	}
	if spec.ActiveDeadlineSeconds != nil {
		errs = append(errs, forbiddenAt(specPath.Child("activeDeadlineSeconds"), "activeDeadlineSeconds in "+kind+" is not Supported"))
	}
	return errs
}

// nonNeg is ValidateNonnegativeField on a built path.
func nonNeg(v int64, fldPath lpath) field.ErrorList {
	if v < 0 {
		return field.ErrorList{invalidAt(fldPath, v, "must be greater than or equal to 0").WithOrigin("minimum")}
	}
	return nil
}

// nonNegChild is nonNeg(v, parent.Child(name)) without building the path unless v
// is negative.
func nonNegChild(v int64, parent lpath, name string) field.ErrorList {
	if v < 0 {
		return nonNeg(v, parent.Child(name))
	}
	return nil
}

func derefInt32(p *int32) int32 {
	if p == nil {
		return 0
	}
	return *p
}

func derefIntOrString(p *intstr.IntOrString) intstr.IntOrString {
	if p == nil {
		return intstr.IntOrString{}
	}
	return *p
}

// validatePositiveIntOrPercent mirrors ValidatePositiveIntOrPercent.
func validatePositiveIntOrPercent(v intstr.IntOrString, fldPath lpath) field.ErrorList {
	switch v.Type {
	case intstr.String:
		if isPercent(v.StrVal) {
			return nil
		}
		var errs field.ErrorList
		for _, msg := range validation.IsValidPercent(v.StrVal) {
			errs = append(errs, invalidAt(fldPath, v, msg))
		}
		return errs
	case intstr.Int:
		return nonNeg(int64(v.IntValue()), fldPath)
	}
	return field.ErrorList{invalidAt(fldPath, v, "must be an integer or percentage (e.g '5%%')")}
}

// isPercent is apimachinery's IsValidPercent without the regular expression: digits
// followed by '%'.
func isPercent(s string) bool {
	if len(s) < 2 || s[len(s)-1] != '%' {
		return false
	}
	for i := 0; i < len(s)-1; i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// percentValue mirrors getPercentValue: the number of a valid percent string (0 when
// it overflows an int, as strconv.Atoi's error is ignored upstream).
func percentValue(v intstr.IntOrString) (int, bool) {
	if v.Type != intstr.String || !isPercent(v.StrVal) {
		return 0, false
	}
	n, _ := strconv.Atoi(v.StrVal[:len(v.StrVal)-1])
	return n, true
}

// intOrPercentValue mirrors getIntOrPercentValue.
func intOrPercentValue(v intstr.IntOrString) int {
	if n, ok := percentValue(v); ok {
		return n
	}
	return v.IntValue()
}

// notMoreThan100Percent mirrors IsNotMoreThan100Percent.
func notMoreThan100Percent(v intstr.IntOrString, fldPath lpath) field.ErrorList {
	if n, ok := percentValue(v); ok && n > 100 {
		return field.ErrorList{invalidAt(fldPath, v, "must not be greater than 100%")}
	}
	return nil
}

// ---- Deployment ----

// decodeError is the server's answer to a body the decoder cannot convert to the
// internal type: a 400 Bad Request (k8s.io/apiserver pkg/endpoints/handlers
// transformDecodeError), reported as one Invalid error on the annotation at fault.
func decodeError(kind, key, value string, err error) field.ErrorList {
	msg := fmt.Sprintf("%s in version %q cannot be handled as a %s: %v", kind, "v1", kind, err)
	return field.ErrorList{field.Invalid(field.NewPath("metadata", "annotations").Key(key), value, msg)}
}

// takeRollbackTo mirrors Convert_v1_Deployment_To_apps_Deployment: the deprecated
// rollback annotation becomes spec.rollbackTo and leaves the annotations.
func takeRollbackTo(d *appsv1.Deployment) (rollbackTo *int64, errs field.ErrorList) {
	if rollbackTo, errs = rollbackToOf(d.Annotations); errs == nil {
		delete(d.Annotations, appsv1.DeprecatedRollbackTo)
	}
	return rollbackTo, errs
}

// rollbackToOf reads the deprecated rollback annotation as the conversion does: none
// when it is absent or empty, the decoder's error when it is not an int64.
func rollbackToOf(annotations map[string]string) (*int64, field.ErrorList) {
	v := annotations[appsv1.DeprecatedRollbackTo]
	if v == "" {
		return nil, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return nil, decodeError("Deployment", appsv1.DeprecatedRollbackTo, v,
			fmt.Errorf("failed to parse annotation[%s]=%s as int64: %v", appsv1.DeprecatedRollbackTo, v, err))
	}
	return &n, nil
}

func validateDeploymentCreate(in *appsv1.Deployment, opts Options, w *warningRecorder) field.ErrorList {
	g := resolvedGates(opts)
	d := defaulting.CopyDeployment(orEmpty(in), true)
	rollbackTo, errs := takeRollbackTo(d)
	if errs != nil {
		return errs
	}
	if errs := createSteps(&d.ObjectMeta, opts, w,
		func() { defaulting.DefaultDeployment(d, g) },
		func() { defaulting.PrepareDeploymentForCreate(d, g) }); errs != nil {
		return errs
	}
	o := templateOptions(opts, &d.Spec.Template, nil)
	errs = validateObjectMeta(&d.ObjectMeta, true, nameIsDNSSubdomain, rootPath("metadata"))
	errs = append(errs, validateDeploymentSpec(&d.Spec, rollbackTo, rootPath("spec"), o)...)
	return acceptedWarnings(w, d, finishCreate(errs, &d.ObjectMeta, templateDeclarative(&d.Spec.Template, nil, rootPath("spec").Child("template"))))
}

func validateDeploymentUpdate(newIn, oldIn *appsv1.Deployment, opts Options, w *warningRecorder) field.ErrorList {
	g := resolvedGates(opts)
	oldIn = orEmpty(oldIn)
	d := defaulting.CopyDeployment(orEmpty(newIn), true)
	rollbackTo, errs := takeRollbackTo(d)
	if errs != nil {
		return errs
	}
	old := defaulting.CopyDeployment(oldIn, true)
	old.Status = *oldIn.Status.DeepCopy()
	oldRollbackTo, _ := takeRollbackTo(old)
	if errs := updateSteps(&d.ObjectMeta, &old.ObjectMeta, deploymentsResource, opts, w,
		func() { defaulting.DefaultDeployment(d, g); defaulting.DefaultDeployment(old, g) },
		func() {
			defaulting.PrepareDeploymentForUpdate(d, old, g)
			if !int64PtrEqual(rollbackTo, oldRollbackTo) && d.Generation == old.Generation {
				// spec.rollbackTo is part of the internal spec.
				d.Generation++
			}
		},
		func() { d.Status = old.Status }); errs != nil {
		return errs
	}
	o := templateOptions(opts, &d.Spec.Template, &old.Spec.Template)
	specPath := rootPath("spec")
	errs = validateObjectMetaUpdate(&d.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	errs = append(errs, validateDeploymentSpec(&d.Spec, rollbackTo, specPath, o)...)
	errs = append(errs, immutable(d.Spec.Selector, old.Spec.Selector, specPath.Child("selector"))...)
	return acceptedUpdateWarnings(w, d, old, d.Generation != old.Generation, finishUpdate(errs, &d.ObjectMeta, &old.ObjectMeta, templateDeclarative(&d.Spec.Template, &old.Spec.Template, rootPath("spec").Child("template"))))
}

func int64PtrEqual(a, b *int64) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
}

// carryOverMeta is what rest.BeforeUpdate copies from the stored object after the
// strategy's PrepareForUpdate.
func carryOverMeta(meta, old *metav1.ObjectMeta) {
	if meta.UID == "" {
		meta.UID = old.UID
	}
	if !old.CreationTimestamp.IsZero() {
		meta.CreationTimestamp = old.CreationTimestamp
	}
	if !old.DeletionTimestamp.IsZero() {
		meta.DeletionTimestamp = old.DeletionTimestamp.DeepCopy()
	}
	if old.DeletionGracePeriodSeconds != nil && meta.DeletionGracePeriodSeconds == nil {
		s := *old.DeletionGracePeriodSeconds
		meta.DeletionGracePeriodSeconds = &s
	}
}

// immutable mirrors ValidateImmutableField: an Invalid "field is immutable" with the
// new value when the values differ semantically.
func immutable(newVal, oldVal any, fldPath lpath) field.ErrorList {
	if apidiff.Equal(newVal, oldVal) {
		return nil
	}
	return field.ErrorList{invalidAt(fldPath, internalForm(newVal), apimachineryvalidation.FieldImmutableErrorMsg)}
}

// validateDeploymentSpec mirrors ValidateDeploymentSpec.
func validateDeploymentSpec(spec *appsv1.DeploymentSpec, rollbackTo *int64, fldPath lpath, o podValidationOptions) field.ErrorList {
	replicas := derefInt32(spec.Replicas)
	errs := nonNegChild(int64(replicas), fldPath, "replicas")
	errs = append(errs, validateStrictSelector(spec.Selector, "deployment", fldPath.Child("selector"))...)
	if k := classifySelector(spec.Selector); k == selectorInvalid {
		errs = append(errs, invalidAt(fldPath.Child("selector"), spec.Selector, "invalid label selector"))
	} else {
		errs = append(errs, validateTemplateForReplicaSet(&spec.Template, spec.Selector, k, "ReplicaSet", fldPath.Child("template"), o)...)
	}
	errs = append(errs, validateDeploymentStrategy(&spec.Strategy, fldPath.Child("strategy"))...)
	errs = append(errs, nonNegChild(int64(spec.MinReadySeconds), fldPath, "minReadySeconds")...)
	if spec.RevisionHistoryLimit != nil {
		errs = append(errs, nonNegChild(int64(*spec.RevisionHistoryLimit), fldPath, "revisionHistoryLimit")...)
	}
	if rollbackTo != nil {
		errs = append(errs, nonNeg(*rollbackTo, fldPath.Child("rollback").Child("version"))...)
	}
	if p := spec.ProgressDeadlineSeconds; p != nil {
		errs = append(errs, nonNegChild(int64(*p), fldPath, "progressDeadlineSeconds")...)
		if *p <= spec.MinReadySeconds {
			errs = append(errs, invalidAt(fldPath.Child("progressDeadlineSeconds"), spec.ProgressDeadlineSeconds, "must be greater than minReadySeconds"))
		}
	}
	return errs
}

// validateDeploymentStrategy mirrors ValidateDeploymentStrategy.
func validateDeploymentStrategy(s *appsv1.DeploymentStrategy, fldPath lpath) field.ErrorList {
	switch s.Type {
	case appsv1.RecreateDeploymentStrategyType:
		if s.RollingUpdate != nil {
			return field.ErrorList{forbiddenAt(fldPath.Child("rollingUpdate"), "may not be specified when strategy `type` is 'Recreate'")}
		}
	case appsv1.RollingUpdateDeploymentStrategyType:
		if s.RollingUpdate == nil {
			return field.ErrorList{requiredAt(fldPath.Child("rollingUpdate"), "this should be defaulted and never be nil")}
		}
		return validateRollingUpdateDeployment(s.RollingUpdate, fldPath.Child("rollingUpdate"))
	default:
		return field.ErrorList{notSupportedAt(fldPath, InternalForm{s}, []string{string(appsv1.RecreateDeploymentStrategyType), string(appsv1.RollingUpdateDeploymentStrategyType)})}
	}
	return nil
}

// validateRollingUpdateDeployment mirrors ValidateRollingUpdateDeployment.
func validateRollingUpdateDeployment(ru *appsv1.RollingUpdateDeployment, fldPath lpath) field.ErrorList {
	mu, ms := derefIntOrString(ru.MaxUnavailable), derefIntOrString(ru.MaxSurge)
	errs := validatePositiveIntOrPercent(mu, fldPath.Child("maxUnavailable"))
	errs = append(errs, validatePositiveIntOrPercent(ms, fldPath.Child("maxSurge"))...)
	if intOrPercentValue(mu) == 0 && intOrPercentValue(ms) == 0 {
		errs = append(errs, invalidAt(fldPath.Child("maxUnavailable"), mu, "may not be 0 when `maxSurge` is 0"))
	}
	return append(errs, notMoreThan100Percent(mu, fldPath.Child("maxUnavailable"))...)
}

// ---- ReplicaSet ----

func validateReplicaSetCreate(in *appsv1.ReplicaSet, opts Options, w *warningRecorder) field.ErrorList {
	g := resolvedGates(opts)
	rs := defaulting.CopyReplicaSet(orEmpty(in), true)
	if errs := createSteps(&rs.ObjectMeta, opts, w,
		func() { defaulting.DefaultReplicaSet(rs, g) },
		func() { defaulting.PrepareReplicaSetForCreate(rs, g) }); errs != nil {
		return errs
	}
	o := templateOptions(opts, &rs.Spec.Template, nil)
	errs := validateObjectMeta(&rs.ObjectMeta, true, nameIsDNSSubdomain, rootPath("metadata"))
	errs = append(errs, validateReplicaSetSpec(&rs.Spec, rootPath("spec"), o)...)
	return acceptedWarnings(w, rs, finishCreate(errs, &rs.ObjectMeta, templateDeclarative(&rs.Spec.Template, nil, rootPath("spec").Child("template"))))
}

func validateReplicaSetUpdate(newIn, oldIn *appsv1.ReplicaSet, opts Options, w *warningRecorder) field.ErrorList {
	g := resolvedGates(opts)
	oldIn = orEmpty(oldIn)
	rs := defaulting.CopyReplicaSet(orEmpty(newIn), true)
	old := defaulting.CopyReplicaSet(oldIn, true)
	old.Status = *oldIn.Status.DeepCopy()
	if errs := updateSteps(&rs.ObjectMeta, &old.ObjectMeta, replicaSetsResource, opts, w,
		func() { defaulting.DefaultReplicaSet(rs, g); defaulting.DefaultReplicaSet(old, g) },
		func() { defaulting.PrepareReplicaSetForUpdate(rs, old, g) },
		func() { rs.Status = old.Status }); errs != nil {
		return errs
	}
	o := templateOptions(opts, &rs.Spec.Template, &old.Spec.Template)
	specPath := rootPath("spec")
	errs := validateObjectMetaUpdate(&rs.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	errs = append(errs, validateReplicaSetSpec(&rs.Spec, specPath, o)...)
	errs = append(errs, immutable(rs.Spec.Selector, old.Spec.Selector, specPath.Child("selector"))...)
	return acceptedUpdateWarnings(w, rs, old, rs.Generation != old.Generation, finishUpdate(errs, &rs.ObjectMeta, &old.ObjectMeta, templateDeclarative(&rs.Spec.Template, &old.Spec.Template, rootPath("spec").Child("template"))))
}

// validateReplicaSetSpec mirrors ValidateReplicaSetSpec.
func validateReplicaSetSpec(spec *appsv1.ReplicaSetSpec, fldPath lpath, o podValidationOptions) field.ErrorList {
	errs := nonNegChild(int64(derefInt32(spec.Replicas)), fldPath, "replicas")
	errs = append(errs, nonNegChild(int64(spec.MinReadySeconds), fldPath, "minReadySeconds")...)
	// Upstream's message says deployment for ReplicaSets too.
	errs = append(errs, validateStrictSelector(spec.Selector, "deployment", fldPath.Child("selector"))...)
	if k := classifySelector(spec.Selector); k == selectorInvalid {
		errs = append(errs, invalidAt(fldPath.Child("selector"), spec.Selector, "invalid label selector"))
	} else {
		errs = append(errs, validateTemplateForReplicaSet(&spec.Template, spec.Selector, k, "ReplicaSet", fldPath.Child("template"), o)...)
	}
	return errs
}

// ---- DaemonSet ----

// takeTemplateGeneration mirrors Convert_v1_DaemonSet_To_apps_DaemonSet: the
// deprecated template-generation annotation becomes spec.templateGeneration (0
// without it) and leaves the annotations.
func takeTemplateGeneration(ds *appsv1.DaemonSet) (int64, field.ErrorList) {
	n, errs := templateGenerationOf(ds.Annotations)
	if errs == nil {
		delete(ds.Annotations, appsv1.DeprecatedTemplateGeneration)
	}
	return n, errs
}

// templateGenerationOf reads the deprecated template-generation annotation as the
// conversion does: 0 when it is absent, the decoder's error when it is not an int64
// (an empty value included).
func templateGenerationOf(annotations map[string]string) (int64, field.ErrorList) {
	v, ok := annotations[appsv1.DeprecatedTemplateGeneration]
	if !ok {
		return 0, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, decodeError("DaemonSet", appsv1.DeprecatedTemplateGeneration, v, err)
	}
	return n, nil
}

// conversionErrors are the errors of converting a decoded object to the internal
// version, none for an object whose conversion cannot fail: of the kinds that hold a
// pod, only a Deployment's rollback annotation and a DaemonSet's template-generation
// annotation can fail it.
func conversionErrors(obj any) field.ErrorList {
	switch o := obj.(type) {
	case *appsv1.Deployment:
		_, errs := rollbackToOf(o.Annotations)
		return errs
	case *appsv1.DaemonSet:
		_, errs := templateGenerationOf(o.Annotations)
		return errs
	}
	return nil
}

func validateDaemonSetCreate(in *appsv1.DaemonSet, opts Options, w *warningRecorder) field.ErrorList {
	g := resolvedGates(opts)
	ds := defaulting.CopyDaemonSet(orEmpty(in), true)
	tg, errs := takeTemplateGeneration(ds)
	if errs != nil {
		return errs
	}
	if errs := createSteps(&ds.ObjectMeta, opts, w,
		func() { defaulting.DefaultDaemonSet(ds, g) },
		func() {
			defaulting.PrepareDaemonSetForCreate(ds, g)
			if tg < 1 {
				tg = 1
			}
		}); errs != nil {
		return errs
	}
	o := templateOptions(opts, &ds.Spec.Template, nil)
	errs = validateObjectMeta(&ds.ObjectMeta, true, nameIsDNSSubdomain, rootPath("metadata"))
	errs = append(errs, validateDaemonSetSpec(&ds.Spec, tg, rootPath("spec"), o)...)
	return acceptedWarnings(w, ds, finishCreate(errs, &ds.ObjectMeta, templateDeclarative(&ds.Spec.Template, nil, rootPath("spec").Child("template"))))
}

func validateDaemonSetUpdate(newIn, oldIn *appsv1.DaemonSet, opts Options, w *warningRecorder) field.ErrorList {
	g := resolvedGates(opts)
	oldIn = orEmpty(oldIn)
	ds := defaulting.CopyDaemonSet(orEmpty(newIn), true)
	tg, errs := takeTemplateGeneration(ds)
	if errs != nil {
		return errs
	}
	old := defaulting.CopyDaemonSet(oldIn, true)
	old.Status = *oldIn.Status.DeepCopy()
	oldTG, _ := takeTemplateGeneration(old)
	if errs := updateSteps(&ds.ObjectMeta, &old.ObjectMeta, daemonSetsResource, opts, w,
		func() { defaulting.DefaultDaemonSet(ds, g); defaulting.DefaultDaemonSet(old, g) },
		func() {
			tg = oldTG
			if defaulting.PrepareDaemonSetForUpdate(ds, old, g) {
				tg = oldTG + 1
			}
		},
		func() { ds.Status = old.Status }); errs != nil {
		return errs
	}
	o := templateOptions(opts, &ds.Spec.Template, &old.Spec.Template)
	o.allowInvalidLabelValueInSelector = o.allowInvalidLabelValueInSelector || selectorHasInvalidLabelValue(old.Spec.Selector)
	specPath := rootPath("spec")
	errs = validateObjectMetaUpdate(&ds.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	errs = append(errs, validateDaemonSetSpecUpdate(&ds.Spec, &old.Spec, tg, oldTG, specPath)...)
	errs = append(errs, validateDaemonSetSpec(&ds.Spec, tg, specPath, o)...)
	return acceptedUpdateWarnings(w, ds, old, tg != oldTG, finishUpdate(errs, &ds.ObjectMeta, &old.ObjectMeta, templateDeclarative(&ds.Spec.Template, &old.Spec.Template, rootPath("spec").Child("template"))))
}

// selectorHasInvalidLabelValue mirrors metav1validation.LabelSelectorHasInvalidLabelValue.
func selectorHasInvalidLabelValue(ps *metav1.LabelSelector) bool {
	if ps == nil {
		return false
	}
	for _, e := range ps.MatchExpressions {
		for _, v := range e.Values {
			if !isPlainLabelValue(v) {
				return true
			}
		}
	}
	return false
}

// validateDaemonSetSpecUpdate mirrors ValidateDaemonSetSpecUpdate.
func validateDaemonSetSpecUpdate(spec, old *appsv1.DaemonSetSpec, tg, oldTG int64, fldPath lpath) field.ErrorList {
	var errs field.ErrorList
	tgPath := fldPath.Child("templateGeneration")
	if tg < oldTG {
		errs = append(errs, invalidAt(tgPath, tg, "must not be decremented"))
	}
	updated := !apidiff.Equal(spec.Template, old.Template)
	if tg == oldTG && updated {
		errs = append(errs, invalidAt(tgPath, tg, "must be incremented upon template update"))
	} else if tg > oldTG && !updated {
		errs = append(errs, invalidAt(tgPath, tg, "must not be incremented without template update"))
	}
	return append(errs, immutable(spec.Selector, old.Selector, rootPath("spec").Child("selector"))...)
}

// validateDaemonSetSpec mirrors ValidateDaemonSetSpec.
func validateDaemonSetSpec(spec *appsv1.DaemonSetSpec, tg int64, fldPath lpath, o podValidationOptions) field.ErrorList {
	selPath := fldPath.Child("selector")
	errs := validateLabelSelector(spec.Selector, o.allowInvalidLabelValueInSelector, selPath)
	tPath := fldPath.Child("template")
	if k := classifySelector(spec.Selector); k != selectorInvalid && !selectorMatches(spec.Selector, k, spec.Template.Labels) {
		errs = append(errs, selectorMismatch(tPath, spec.Template.Labels))
	}
	if spec.Selector != nil && len(spec.Selector.MatchLabels)+len(spec.Selector.MatchExpressions) == 0 {
		errs = append(errs, invalidAt(selPath, spec.Selector, "empty selector is invalid for daemonset"))
	}
	errs = append(errs, validateTemplate(&spec.Template, tPath, o)...)
	errs = append(errs, validateAlwaysRestart(&spec.Template.Spec, "DaemonSet", tPath.Child("spec"))...)
	errs = append(errs, nonNegChild(int64(spec.MinReadySeconds), fldPath, "minReadySeconds")...)
	errs = append(errs, nonNegChild(tg, fldPath, "templateGeneration")...)
	errs = append(errs, validateDaemonSetUpdateStrategy(&spec.UpdateStrategy, fldPath.Child("updateStrategy"))...)
	if spec.RevisionHistoryLimit != nil {
		errs = append(errs, nonNegChild(int64(*spec.RevisionHistoryLimit), fldPath, "revisionHistoryLimit")...)
	}
	return errs
}

// validateDaemonSetUpdateStrategy mirrors ValidateDaemonSetUpdateStrategy.
func validateDaemonSetUpdateStrategy(s *appsv1.DaemonSetUpdateStrategy, fldPath lpath) field.ErrorList {
	switch s.Type {
	case appsv1.OnDeleteDaemonSetStrategyType:
	case appsv1.RollingUpdateDaemonSetStrategyType:
		if s.RollingUpdate == nil {
			return field.ErrorList{requiredAt(fldPath.Child("rollingUpdate"), "")}
		}
		return validateRollingUpdateDaemonSet(s.RollingUpdate, fldPath.Child("rollingUpdate"))
	default:
		return field.ErrorList{notSupportedAt(fldPath, InternalForm{s}, []string{string(appsv1.RollingUpdateDaemonSetStrategyType), string(appsv1.OnDeleteDaemonSetStrategyType)})}
	}
	return nil
}

// validateRollingUpdateDaemonSet mirrors ValidateRollingUpdateDaemonSet.
func validateRollingUpdateDaemonSet(ru *appsv1.RollingUpdateDaemonSet, fldPath lpath) field.ErrorList {
	mu, ms := derefIntOrString(ru.MaxUnavailable), derefIntOrString(ru.MaxSurge)
	muPath, msPath := fldPath.Child("maxUnavailable"), fldPath.Child("maxSurge")
	errs := validatePositiveIntOrPercent(mu, muPath)
	errs = append(errs, validatePositiveIntOrPercent(ms, msPath)...)
	errs = append(errs, notMoreThan100Percent(mu, muPath)...)
	errs = append(errs, notMoreThan100Percent(ms, msPath)...)
	hasUnavailable, hasSurge := intOrPercentValue(mu) != 0, intOrPercentValue(ms) != 0
	switch {
	case hasUnavailable && hasSurge:
		errs = append(errs, invalidAt(msPath, ms, "may not be set when maxUnavailable is non-zero"))
	case !hasUnavailable && !hasSurge:
		errs = append(errs, requiredAt(muPath, "cannot be 0 when maxSurge is 0"))
	}
	return errs
}

// ---- StatefulSet ----

// statefulSetOptions mirrors StatefulSetValidationOptions.
type statefulSetOptions struct {
	allowInvalidServiceName     bool
	skipValidatePodTemplateSpec bool
	skipValidateClaimTemplates  bool
	allowRecreateStrategy       bool
}

// clearClaimTypeMeta mirrors Convert_v1_StatefulSetSpec_To_apps_StatefulSetSpec: the
// internal claim templates carry no apiVersion and kind.
func clearClaimTypeMeta(ss *appsv1.StatefulSet) {
	for i := range ss.Spec.VolumeClaimTemplates {
		ss.Spec.VolumeClaimTemplates[i].TypeMeta = metav1.TypeMeta{}
	}
}

func validateStatefulSetCreate(in *appsv1.StatefulSet, opts Options, w *warningRecorder) field.ErrorList {
	g := resolvedGates(opts)
	ss := defaulting.CopyStatefulSet(orEmpty(in), true)
	// The conversion; the decoder's defaults leave the claims' TypeMeta alone.
	clearClaimTypeMeta(ss)
	if errs := createSteps(&ss.ObjectMeta, opts, w,
		func() { defaulting.DefaultStatefulSet(ss, g) },
		func() { defaulting.PrepareStatefulSetForCreate(ss, g) }); errs != nil {
		return errs
	}
	o := templateOptions(opts, &ss.Spec.Template, nil)
	setOpts := statefulSetOptions{allowRecreateStrategy: g.StatefulSetRecreateStrategy}
	errs := validateObjectMeta(&ss.ObjectMeta, true, nameIsDNSLabel, rootPath("metadata"))
	errs = append(errs, validateStatefulSetSpec(&ss.Spec, rootPath("spec"), o, setOpts)...)
	return acceptedWarnings(w, ss, finishCreate(errs, &ss.ObjectMeta, templateDeclarative(&ss.Spec.Template, nil, rootPath("spec").Child("template"))))
}

func validateStatefulSetUpdate(newIn, oldIn *appsv1.StatefulSet, opts Options, w *warningRecorder) field.ErrorList {
	g := resolvedGates(opts)
	oldIn = orEmpty(oldIn)
	ss := defaulting.CopyStatefulSet(orEmpty(newIn), true)
	old := defaulting.CopyStatefulSet(oldIn, true)
	old.Status = *oldIn.Status.DeepCopy()
	// The conversion; the decoder's defaults leave the claims' TypeMeta alone.
	clearClaimTypeMeta(ss)
	clearClaimTypeMeta(old)
	if errs := updateSteps(&ss.ObjectMeta, &old.ObjectMeta, statefulSetsResource, opts, w,
		func() { defaulting.DefaultStatefulSet(ss, g); defaulting.DefaultStatefulSet(old, g) },
		func() { defaulting.PrepareStatefulSetForUpdate(ss, old, g) },
		func() { ss.Status = old.Status }); errs != nil {
		return errs
	}
	o := templateOptions(opts, &ss.Spec.Template, &old.Spec.Template)
	setOpts := statefulSetOptions{
		allowInvalidServiceName:    true,
		skipValidateClaimTemplates: true,
		allowRecreateStrategy:      g.StatefulSetRecreateStrategy || old.Spec.UpdateStrategy.Type == appsv1.RecreateStatefulSetStrategyType,
	}
	errs := validateObjectMetaUpdate(&ss.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	// Stored StatefulSets whose spec no longer validates keep an unvalidated template.
	if len(validateStatefulSetSpec(&old.Spec, lpath{}, o, setOpts)) > 0 {
		setOpts.skipValidatePodTemplateSpec = true
	}
	specPath := rootPath("spec")
	errs = append(errs, validateStatefulSetSpec(&ss.Spec, specPath, o, setOpts)...)
	errs = append(errs, withOrigin(immutable(ss.Spec.Selector, old.Spec.Selector, specPath.Child("selector")), "immutable")...)
	errs = append(errs, withOrigin(immutable(ss.Spec.VolumeClaimTemplates, old.Spec.VolumeClaimTemplates, specPath.Child("volumeClaimTemplates")), "immutable")...)
	errs = append(errs, withOrigin(immutable(ss.Spec.ServiceName, old.Spec.ServiceName, specPath.Child("serviceName")), "immutable")...)
	errs = append(errs, withOrigin(immutable(ss.Spec.PodManagementPolicy, old.Spec.PodManagementPolicy, specPath.Child("podManagementPolicy")), "immutable")...)
	return acceptedUpdateWarnings(w, ss, old, ss.Generation != old.Generation, finishUpdate(errs, &ss.ObjectMeta, &old.ObjectMeta, templateDeclarative(&ss.Spec.Template, &old.Spec.Template, rootPath("spec").Child("template"))))
}

// withOrigin sets the origin of every error and marks it covered by declarative
// validation, as the StatefulSet's immutability rules are.
func withOrigin(errs field.ErrorList, origin string) field.ErrorList {
	return errs.WithOrigin(origin).MarkCoveredByDeclarative()
}

// nameIsDNSLabel is apimachinery's NameIsDNSLabel (ValidateStatefulSetName).
func nameIsDNSLabel(name string, prefix bool) []string {
	if validDNS1123Label(name) {
		return nil
	}
	return apimachineryvalidation.NameIsDNSLabel(name, prefix)
}

// validateStatefulSetSpec mirrors ValidateStatefulSetSpec. fldPath may be nil (the
// stored spec is validated under no path to decide whether to skip the template).
func validateStatefulSetSpec(spec *appsv1.StatefulSetSpec, fldPath lpath, o podValidationOptions, setOpts statefulSetOptions) field.ErrorList {
	var errs field.ErrorList
	switch spec.PodManagementPolicy {
	case "":
		errs = append(errs, requiredAt(fldPath.Child("podManagementPolicy"), ""))
	case appsv1.OrderedReadyPodManagement, appsv1.ParallelPodManagement:
	default:
		errs = append(errs, invalidAt(fldPath.Child("podManagementPolicy"), spec.PodManagementPolicy, fmt.Sprintf("must be '%s' or '%s'", appsv1.OrderedReadyPodManagement, appsv1.ParallelPodManagement)))
	}

	us := &spec.UpdateStrategy
	usPath := fldPath.Child("updateStrategy")
	onlyRolling := fmt.Sprintf("only allowed for updateStrategy '%s'", appsv1.RollingUpdateStatefulSetStrategyType)
	switch {
	case us.Type == "":
		errs = append(errs, requiredAt(usPath, ""))
	case us.Type == appsv1.OnDeleteStatefulSetStrategyType:
		if us.RollingUpdate != nil {
			errs = append(errs, invalidAt(usPath.Child("rollingUpdate"), InternalForm{us.RollingUpdate}, onlyRolling))
		}
	case us.Type == appsv1.RollingUpdateStatefulSetStrategyType:
		if us.RollingUpdate != nil {
			errs = append(errs, validateRollingUpdateStatefulSet(us.RollingUpdate, usPath.Child("rollingUpdate"))...)
		}
	case us.Type == appsv1.RecreateStatefulSetStrategyType && setOpts.allowRecreateStrategy:
		if us.RollingUpdate != nil {
			errs = append(errs, invalidAt(usPath.Child("rollingUpdate"), InternalForm{us.RollingUpdate}, onlyRolling))
		}
	default:
		valid := fmt.Sprintf("must be '%s' or '%s'", appsv1.RollingUpdateStatefulSetStrategyType, appsv1.OnDeleteStatefulSetStrategyType)
		if setOpts.allowRecreateStrategy {
			valid = fmt.Sprintf("must be '%s', '%s', or '%s'", appsv1.RollingUpdateStatefulSetStrategyType, appsv1.OnDeleteStatefulSetStrategyType, appsv1.RecreateStatefulSetStrategyType)
		}
		errs = append(errs, invalidAt(usPath, InternalForm{*us}, valid))
	}

	if p := spec.PersistentVolumeClaimRetentionPolicy; p != nil {
		pPath := fldPath.Child("persistentVolumeClaimRetentionPolicy")
		errs = append(errs, validateRetentionPolicyType(p.WhenDeleted, pPath.Child("whenDeleted"))...)
		errs = append(errs, validateRetentionPolicyType(p.WhenScaled, pPath.Child("whenScaled"))...)
	}
	if !setOpts.skipValidateClaimTemplates {
		for i := range spec.VolumeClaimTemplates {
			errs = append(errs, validatePVCSpec(&spec.VolumeClaimTemplates[i].Spec, fldPath.Child("volumeClaimTemplates").Index(i).Child("spec"))...)
		}
	}

	errs = append(errs, nonNegChild(int64(derefInt32(spec.Replicas)), fldPath, "replicas")...)
	errs = append(errs, nonNegChild(int64(spec.MinReadySeconds), fldPath, "minReadySeconds")...)
	if spec.Ordinals != nil {
		errs = append(errs, nonNegChild(int64(spec.Ordinals.Start), fldPath, "ordinals.start")...)
	}
	if !setOpts.allowInvalidServiceName && len(spec.ServiceName) > 0 {
		for _, msg := range dns1123LabelErrs(spec.ServiceName) {
			errs = append(errs, invalidAt(fldPath.Child("serviceName"), spec.ServiceName, msg))
		}
	}

	selPath := fldPath.Child("selector")
	if spec.Selector == nil {
		errs = append(errs, requiredAt(selPath, "").MarkCoveredByDeclarative())
	} else {
		errs = append(errs, validateLabelSelector(spec.Selector, false, selPath)...)
		if len(spec.Selector.MatchLabels)+len(spec.Selector.MatchExpressions) == 0 {
			errs = append(errs, invalidAt(selPath, spec.Selector, "empty selector is invalid for statefulset"))
		}
	}

	if k := classifySelector(spec.Selector); k == selectorInvalid {
		errs = append(errs, invalidAt(selPath, spec.Selector, ""))
	} else {
		t := statefulSetTemplateToValidate(spec)
		errs = append(errs, validateStatefulSetTemplate(t, spec.Selector, k, fldPath.Child("template"), o, setOpts)...)
	}
	errs = append(errs, validateStatefulSetRestart(&spec.Template.Spec, fldPath.Children("template", "spec"))...)
	return errs
}

// validateStatefulSetRestart is the restartPolicy and activeDeadlineSeconds rule of
// ValidateStatefulSetSpec.
func validateStatefulSetRestart(spec *corev1.PodSpec, specPath lpath) field.ErrorList {
	return validateAlwaysRestart(spec, "StatefulSet", specPath)
}

// statefulSetTemplateToValidate mirrors the template ValidateStatefulSetSpec
// validates: the controller overwrites the subdomain and hostname, so they are
// cleared, and the volumes of the claim templates come first, followed by the
// template's own volumes that no claim template shadows. Upstream collects the claim
// volumes in a map and appends them in its random iteration order; podlife keeps the
// order of volumeClaimTemplates (the first of two claims of the same name wins its
// place, the last its content, as the map does).
func statefulSetTemplateToValidate(spec *appsv1.StatefulSetSpec) *corev1.PodTemplateSpec {
	t := &spec.Template
	if t.Spec.Subdomain == "" && t.Spec.Hostname == "" && len(spec.VolumeClaimTemplates) == 0 {
		return t
	}
	cp := *t
	cp.Spec.Subdomain = ""
	cp.Spec.Hostname = ""
	if len(spec.VolumeClaimTemplates) > 0 {
		claims := make([]corev1.Volume, 0, len(spec.VolumeClaimTemplates)+len(t.Spec.Volumes))
		index := make(map[string]int, len(spec.VolumeClaimTemplates))
		for i := range spec.VolumeClaimTemplates {
			name := spec.VolumeClaimTemplates[i].Name
			v := corev1.Volume{Name: name, VolumeSource: corev1.VolumeSource{
				PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{ClaimName: name},
			}}
			if j, ok := index[name]; ok {
				claims[j] = v
				continue
			}
			index[name] = len(claims)
			claims = append(claims, v)
		}
		for _, v := range t.Spec.Volumes {
			if _, ok := index[v.Name]; !ok {
				claims = append(claims, v)
			}
		}
		cp.Spec.Volumes = claims
	}
	return &cp
}

// validateStatefulSetTemplate mirrors ValidatePodTemplateSpecForStatefulSet: the
// selector must select the template; the template is validated unless the stored
// spec no longer validates; its labels, annotations and pod annotations are checked
// once more (duplicates then fold into one error per message).
func validateStatefulSetTemplate(t *corev1.PodTemplateSpec, sel *metav1.LabelSelector, k selectorKind, fldPath lpath, o podValidationOptions, setOpts statefulSetOptions) field.ErrorList {
	var errs field.ErrorList
	if k != selectorEverything && !selectorMatches(sel, k, t.Labels) {
		errs = append(errs, selectorMismatch(fldPath, t.Labels))
	}
	if !setOpts.skipValidatePodTemplateSpec {
		errs = append(errs, validateTemplate(t, fldPath, o)...)
	}
	errs = append(errs, validateLabels(t.Labels, fldPath.Child("labels"))...)
	errs = append(errs, validateAnnotations(t.Annotations, fldPath.Child("annotations"))...)
	errs = append(errs, validatePodSpecificAnnotationsL(t.Annotations, &t.Spec, fldPath.Child("annotations"), &o)...)
	return errs
}

// validateRetentionPolicyType mirrors ValidatePersistentVolumeClaimRetentionPolicyType.
func validateRetentionPolicyType(p appsv1.PersistentVolumeClaimRetentionPolicyType, fldPath lpath) field.ErrorList {
	switch p {
	case appsv1.RetainPersistentVolumeClaimRetentionPolicyType, appsv1.DeletePersistentVolumeClaimRetentionPolicyType:
		return nil
	}
	return field.ErrorList{notSupportedAt(fldPath, p, []string{string(appsv1.RetainPersistentVolumeClaimRetentionPolicyType), string(appsv1.DeletePersistentVolumeClaimRetentionPolicyType)})}
}

// validateRollingUpdateStatefulSet mirrors validateRollingUpdateStatefulSet.
func validateRollingUpdateStatefulSet(ru *appsv1.RollingUpdateStatefulSetStrategy, fldPath lpath) field.ErrorList {
	errs := nonNegChild(int64(derefInt32(ru.Partition)), fldPath, "partition")
	if ru.MaxUnavailable != nil {
		muPath := fldPath.Child("maxUnavailable")
		mu := *ru.MaxUnavailable
		errs = append(errs, validatePositiveIntOrPercent(mu, muPath)...)
		if intOrPercentValue(mu) == 0 {
			errs = append(errs, invalidAt(muPath, mu, "cannot be 0"))
		}
		errs = append(errs, notMoreThan100Percent(mu, muPath)...)
	}
	return errs
}
