package validation

import (
	"context"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	schedulingv1alpha3 "k8s.io/api/scheduling/v1alpha3"
	"k8s.io/apimachinery/pkg/api/operation"
	"k8s.io/apimachinery/pkg/api/validate"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/podlife/podlife/internal/apidiff"
)

// This file holds the declarative rules that reach into a workload's pod template
// and a Job's spec.scheduling (alpha, gate WorkloadWithJob). They are standard rules
// of the generated declarative validation (k8s.io/kubernetes pkg/apis/{apps,batch,
// core}/v1 zz_generated.validations.go), always enforced: the server reports their
// errors after all the hand-written ones (see finishDeclarative), in the order of
// the fields they belong to. On update, as the generated code ratchets, what did not
// change is not validated again.

// templateDeclarative returns the declarative errors of a workload's pod template t
// (old: the stored template, nil on create; either may be nil) at tPath: the rules of
// spec.evictionResponders (see validateEvictionResponders).
func templateDeclarative(t, old *corev1.PodTemplateSpec, tPath lpath) field.ErrorList {
	if t == nil || len(t.Spec.EvictionResponders) == 0 {
		return nil
	}
	var oldSpec *corev1.PodSpec
	if old != nil {
		oldSpec = &old.Spec
	}
	return validateEvictionResponders(&t.Spec, oldSpec, tPath.Child("spec"))
}

// jobSpecDeclarative returns the declarative errors of a Job spec (a Job's, or a
// CronJob's job template's) at specPath, old being the stored spec on update (nil on
// create): its template's, then its scheduling's (see jobSchedulingDeclarative).
func jobSpecDeclarative(spec, old *batchv1.JobSpec, specPath lpath, workloadWithJob bool) field.ErrorList {
	if old != nil && apidiff.Equal(spec, old) {
		return nil
	}
	var oldTemplate *corev1.PodTemplateSpec
	if old != nil {
		oldTemplate = &old.Template
	}
	errs := templateDeclarative(&spec.Template, oldTemplate, specPath.Child("template"))
	return append(errs, jobSchedulingDeclarative(spec, old, specPath.Child("scheduling"), workloadWithJob)...)
}

// jobSchedulingDeclarative mirrors the rules of JobSpec.Scheduling and
// Validate_JobSchedulingConfiguration (k8s.io/kubernetes pkg/apis/batch/v1
// zz_generated.validations.go): without WorkloadWithJob the field is forbidden; on
// update it may be neither set nor cleared, nor may its policy, and its constraints,
// disruption mode and resource claims are immutable; the building blocks follow the
// rules of k8s.io/api/scheduling/v1alpha3 (one of basic or gang, a gang's minCount
// at least 1, at most one topology constraint with a label key, one of single or
// all, at most 4 resource claims with unique short names naming one claim or claim
// template).
func jobSchedulingDeclarative(spec, oldSpec *batchv1.JobSpec, fldPath lpath, workloadWithJob bool) field.ErrorList {
	s := spec.Scheduling
	var old *batchv1.JobSchedulingConfiguration
	update := oldSpec != nil
	if update {
		old = oldSpec.Scheduling
		if apidiff.Equal(s, old) {
			return nil
		}
	}
	var errs field.ErrorList
	stop := s == nil
	if !workloadWithJob && s != nil {
		errs = append(errs, shortCircuit(forbiddenAt(fldPath, "")))
		stop = true
	}
	if update {
		errs = append(errs, noSetNoUnset(old != nil, s != nil, fldPath)...)
		stop = stop || (old == nil) != (s == nil)
	}
	if stop {
		return errs
	}
	ctx := context.Background()
	op := operation.Operation{Type: operation.Create}
	var o batchv1.JobSchedulingConfiguration
	if update {
		op.Type = operation.Update
		o = *old
	}

	// schedulingPolicy: optional, neither set nor cleared on update.
	if p := s.SchedulingPolicy; !update || !apidiff.Equal(p, o.SchedulingPolicy) {
		pPath := fldPath.Child("schedulingPolicy")
		var perrs field.ErrorList
		if update {
			perrs = noSetNoUnset(o.SchedulingPolicy != nil, p != nil, pPath)
		}
		errs = append(errs, perrs...)
		if p != nil && len(perrs) == 0 {
			errs = append(errs, schedulingv1alpha3.Validate_WorkloadPodGroupSchedulingPolicy(ctx, op, pPath.P(), p, o.SchedulingPolicy)...)
		}
	}
	// schedulingConstraints, disruptionMode, resourceClaims: immutable, optional.
	if c := s.SchedulingConstraints; !update || !apidiff.Equal(c, o.SchedulingConstraints) {
		cPath := fldPath.Child("schedulingConstraints")
		switch {
		case update:
			errs = append(errs, immutableDeclarative(cPath))
		case c != nil:
			errs = append(errs, schedulingv1alpha3.Validate_WorkloadPodGroupSchedulingConstraints(ctx, op, cPath.P(), c, nil)...)
		}
	}
	if d := s.DisruptionMode; !update || !apidiff.Equal(d, o.DisruptionMode) {
		dPath := fldPath.Child("disruptionMode")
		switch {
		case update:
			errs = append(errs, immutableDeclarative(dPath))
		case d != nil:
			errs = append(errs, schedulingv1alpha3.Validate_WorkloadPodGroupDisruptionMode(ctx, op, dPath.P(), d, nil)...)
		}
	}
	if rc := s.ResourceClaims; !update || !apidiff.Equal(rc, o.ResourceClaims) {
		rPath := fldPath.Child("resourceClaims")
		// Immutable and maxItems both short-circuit and both report: an update that
		// changes the list to more than 4 claims gets the two errors, in this order.
		if update {
			errs = append(errs, immutableDeclarative(rPath))
		}
		if len(rc) > 4 {
			errs = append(errs, shortCircuit(field.TooMany(rPath.P(), len(rc), 4).WithOrigin("maxItems")))
		}
		if !update && len(rc) > 0 && len(rc) <= 4 {
			p := rPath.P()
			errs = append(errs, validate.ValSliceUnique(ctx, op, p, rc, nil, func(a, b *schedulingv1alpha3.WorkloadPodGroupResourceClaim) bool { return a.Name == b.Name })...)
			errs = append(errs, validate.EachValSliceVal(ctx, op, p, rc, nil, nil, nil, schedulingv1alpha3.Validate_WorkloadPodGroupResourceClaim)...)
		}
	}
	return errs
}

// noSetNoUnset is the update rule of an optional pointer that may be neither set nor
// cleared once created (validate.UpdatePointer with NoSet and NoUnset).
func noSetNoUnset(wasSet, isSet bool, fldPath lpath) field.ErrorList {
	switch {
	case !wasSet && isSet:
		return field.ErrorList{shortCircuit(invalidAt(fldPath, nil, "field cannot be set once created").WithOrigin("update"))}
	case wasSet && !isSet:
		return field.ErrorList{shortCircuit(invalidAt(fldPath, nil, "field cannot be cleared once set").WithOrigin("update"))}
	}
	return nil
}

// immutableDeclarative is the error of a declarative immutable field that changed.
func immutableDeclarative(fldPath lpath) *field.Error {
	return shortCircuit(invalidAt(fldPath, nil, "field is immutable").WithOrigin("immutable"))
}

// validateJobSchedulingPolicy mirrors validateJobScheduling (k8s.io/kubernetes
// pkg/apis/batch/validation), the controller-policy checks of the workload builder
// (k8s.io/component-helpers scheduling/schedulingv1/workloadbuilder) for a Job, which
// allows the basic and gang policies and both disruption modes: the disruption
// mode all is not supported with the basic policy, which a Job has when its
// policy is not a gang one.
func validateJobSchedulingPolicy(spec *batchv1.JobSpec, fldPath lpath) field.ErrorList {
	s := spec.Scheduling
	if s == nil {
		return nil
	}
	p, d := s.SchedulingPolicy, s.DisruptionMode
	gang := p != nil && p.Basic == nil && p.Gang != nil
	if gang || d == nil || d.Single != nil || d.All == nil {
		return nil
	}
	return field.ErrorList{invalidAt(fldPath.Child("disruptionMode"), "", "the disruptionMode `all` is not supported with the Basic scheduling policy")}
}
