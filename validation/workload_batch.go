package validation

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/podlife/podlife/internal/apidiff"
	"github.com/podlife/podlife/internal/defaulting"
	"github.com/podlife/podlife/internal/gates"
)

// This file mirrors k8s.io/kubernetes pkg/apis/batch/validation/validation.go and the
// strategies of pkg/registry/batch/{job,cronjob}, on the v1 types, with the
// CronJob's declarative schedule rule (pkg/apis/batch/v1/zz_generated.validations.go),
// which the server enforces while DeclarativeValidationBeta is on.

const (
	maxParallelismForIndexedJob             = 100000
	maxFailedIndexesForIndexedJob           = 100_000
	completionsSoftLimit                    = 100_000
	parallelismLimitForHighCompletions      = 10_000
	maxFailedIndexesLimitForHighCompletions = 10_000
	maxPodFailurePolicyRules                = 20
	maxPodFailurePolicyOnExitCodesValues    = 255
	maxPodFailurePolicyOnPodConditions      = 20
	maxManagedByLength                      = 63
	maxSucceededIndexesLength               = 64 * 1024
	maxSuccessPolicyRules                   = 20
	// maxCronJobNameLength is DNS1035LabelMaxLength-11: the controller appends a
	// suffix to the CronJob's name for its Jobs.
	maxCronJobNameLength = 52
)

// Sorted as upstream's sets.List sorts them.
var (
	podFailurePolicyActions = []batchv1.PodFailurePolicyAction{
		batchv1.PodFailurePolicyActionCount, batchv1.PodFailurePolicyActionFailIndex,
		batchv1.PodFailurePolicyActionFailJob, batchv1.PodFailurePolicyActionIgnore,
	}
	onExitCodesOperators = []batchv1.PodFailurePolicyOnExitCodesOperator{
		batchv1.PodFailurePolicyOnExitCodesOpIn, batchv1.PodFailurePolicyOnExitCodesOpNotIn,
	}
	onPodConditionsStatuses = []corev1.ConditionStatus{corev1.ConditionFalse, corev1.ConditionTrue, corev1.ConditionUnknown}
	podReplacementPolicies  = []batchv1.PodReplacementPolicy{batchv1.Failed, batchv1.TerminatingOrFailed}
)

// jobOptions mirrors JobValidationOptions.
type jobOptions struct {
	pod                              podValidationOptions
	allowMutableSchedulingDirectives bool
	requirePrefixedLabels            bool
	allowMutablePodResources         bool
}

// ---- Job ----

// ServerPanicDetail is the message of a kube-apiserver whose request handling
// panicked (k8s.io/apiserver pkg/server/filters WithPanicRecovery): its panic filter
// writes a 500 Internal Server Error with this text. ValidateObjectCreate and
// ValidateObjectUpdate report such a request as one field.ErrorTypeInternal error
// without a field, whose detail is this text. A real v1.37.2 server never delivers
// that response: after writing it the filter panics again (utilruntime.ReallyCrash
// is true in kube-apiserver), and Go's HTTP server resets the stream (HTTP/2) or
// closes the connection, so kubectl prints a transport error ("stream error: stream
// ID N; INTERNAL_ERROR; received from peer") that names the server's address.
// ValidateStream answers with the 500 client-go would make of the written response,
// the one answer of a stream that is not what kubectl prints.
//
// In v1.37.2 this happens to a Job or CronJob job template in Indexed completion
// mode without spec.completions whose successPolicy has a rule with
// succeededIndexes or succeededCount: the validation of the rule reads the missing
// completions.
const ServerPanicDetail = "This request caused apiserver to panic. Look in the logs for details."

// serverPanic is the one error of a request the server fails with a panic.
func serverPanic() field.ErrorList {
	return field.ErrorList{field.InternalError(nil, errors.New(ServerPanicDetail))}
}

// successPolicyPanics reports whether upstream's validateSuccessPolicyRule
// dereferences a nil spec.completions for this spec (and the server panics).
func successPolicyPanics(spec *batchv1.JobSpec) bool {
	if spec.SuccessPolicy == nil || spec.Completions != nil || spec.CompletionMode == nil || *spec.CompletionMode != batchv1.IndexedCompletion {
		return false
	}
	for _, r := range spec.SuccessPolicy.Rules {
		if r.SucceededIndexes != nil || r.SucceededCount != nil {
			return true
		}
	}
	return false
}

func validateJobCreate(in *batchv1.Job, opts Options, w *warningRecorder) field.ErrorList {
	g := resolvedGates(opts)
	j := defaulting.CopyJob(orEmpty(in), true)
	if errs := createSteps(&j.ObjectMeta, opts, w,
		func() { defaulting.DefaultJob(j, g) },
		func() {
			// The store's uid, from which the registry generates the selector.
			j.UID = GeneratedUID
			defaulting.PrepareJobForCreate(j, g)
		}); errs != nil {
		return errs
	}
	if j.UID == "" {
		j.UID = GeneratedUID
	}
	if successPolicyPanics(&j.Spec) {
		return serverPanic()
	}
	o := jobOptions{pod: templateOptions(opts, &j.Spec.Template, nil), requirePrefixedLabels: true}
	errs := validateObjectMeta(&j.ObjectMeta, true, nameIsDNSSubdomain, rootPath("metadata"))
	errs = append(errs, validateGeneratedSelector(j, o.requirePrefixedLabels)...)
	errs = append(errs, validateJobSpecWithSelector(&j.Spec, nil, rootPath("spec"), o.pod)...)
	errs = append(errs, validateNameAllowsCompletions(j)...)
	return acceptedWarnings(w, j, finishCreate(sortMapRuns(errs, "metadata.labels"), &j.ObjectMeta, jobSpecDeclarative(&j.Spec, nil, rootPath("spec"), g.WorkloadWithJob)))
}

func validateJobUpdate(newIn, oldIn *batchv1.Job, opts Options, w *warningRecorder) field.ErrorList {
	g := resolvedGates(opts)
	oldIn = orEmpty(oldIn)
	j := defaulting.CopyJob(orEmpty(newIn), true)
	old := defaulting.CopyJob(oldIn, true)
	old.Status = *oldIn.Status.DeepCopy()
	if errs := updateSteps(&j.ObjectMeta, &old.ObjectMeta, jobsResource, opts, w,
		func() { defaulting.DefaultJob(j, g); defaulting.DefaultJob(old, g) },
		func() { defaulting.PrepareJobForUpdate(j, old, g) },
		func() { j.Status = old.Status }); errs != nil {
		return errs
	}
	if successPolicyPanics(&j.Spec) {
		return serverPanic()
	}
	o := jobUpdateOptions(opts, j, old, g)
	specPath := rootPath("spec")
	errs := validateObjectMetaUpdate(&j.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	errs = append(errs, validateJobSpecUpdate(&j.Spec, &old.Spec, specPath, o)...)
	errs = append(errs, validateNameAllowsCompletions(j)...)
	return acceptedUpdateWarnings(w, j, old, j.Generation != old.Generation, finishUpdate(errs, &j.ObjectMeta, &old.ObjectMeta, jobSpecDeclarative(&j.Spec, &old.Spec, rootPath("spec"), g.WorkloadWithJob)))
}

// jobUpdateOptions mirrors validationOptionsForJob with a stored Job.
func jobUpdateOptions(opts Options, j, old *batchv1.Job, g *gates.Set) jobOptions {
	o := jobOptions{pod: templateOptions(opts, &j.Spec.Template, &old.Spec.Template), requirePrefixedLabels: true}
	o.pod.allowInvalidLabelValueInSelector = o.pod.allowInvalidLabelValueInSelector || selectorHasInvalidLabelValue(old.Spec.Selector)
	suspended := old.Spec.Suspend != nil && *old.Spec.Suspend
	notStarted := old.Status.StartTime == nil
	o.allowMutableSchedulingDirectives = suspended && notStarted
	mutableTemplate := suspended && (notStarted || jobConditionTrue(old.Status.Conditions, batchv1.JobSuspended)) && old.Status.Active == 0
	if g.MutablePodResourcesForSuspendedJobs {
		o.allowMutablePodResources = mutableTemplate
	}
	if g.MutableSchedulingDirectivesForSuspendedJobs {
		o.allowMutableSchedulingDirectives = mutableTemplate
	}
	_, hadName := old.Spec.Template.Labels[batchv1.JobNameLabel]
	_, hadUID := old.Spec.Template.Labels[batchv1.ControllerUidLabel]
	o.requirePrefixedLabels = hadName && hadUID
	return o
}

func jobConditionTrue(list []batchv1.JobCondition, t batchv1.JobConditionType) bool {
	for _, c := range list {
		if c.Type == t && c.Status == corev1.ConditionTrue {
			return true
		}
	}
	return false
}

// validateGeneratedSelector mirrors validateGeneratedSelector: a generated selector
// and the template labels must be the ones the registry generates.
func validateGeneratedSelector(j *batchv1.Job, batchLabels bool) field.ErrorList {
	if j.Spec.ManualSelector != nil && *j.Spec.ManualSelector || j.Spec.Selector == nil {
		return nil
	}
	var errs field.ErrorList
	if j.UID == "" {
		errs = append(errs, field.Required(field.NewPath("metadata").Child("uid"), ""))
	}
	mPath := rootPath("spec").Child("template").Child("metadata")
	uid := string(j.UID)
	labels := j.Spec.Template.Labels
	errs = append(errs, validateHasLabel(labels, mPath, defaulting.LegacyControllerUIDLabel, uid)...)
	errs = append(errs, validateHasLabel(labels, mPath, defaulting.LegacyJobNameLabel, j.Name)...)
	expected := map[string]string{
		defaulting.LegacyControllerUIDLabel: uid,
		defaulting.LegacyJobNameLabel:       j.Name,
	}
	if batchLabels {
		errs = append(errs, validateHasLabel(labels, mPath, batchv1.ControllerUidLabel, uid)...)
		errs = append(errs, validateHasLabel(labels, mPath, batchv1.JobNameLabel, j.Name)...)
		expected[batchv1.ControllerUidLabel] = uid
		expected[batchv1.JobNameLabel] = j.Name
	}
	if k := classifySelector(j.Spec.Selector); k != selectorInvalid && !selectorMatches(j.Spec.Selector, k, expected) {
		errs = append(errs, field.Invalid(field.NewPath("spec").Child("selector"), j.Spec.Selector, "`selector` not auto-generated"))
	}
	return errs
}

// validateHasLabel mirrors ValidateHasLabel.
func validateHasLabel(labels map[string]string, fldPath lpath, key, want string) field.ErrorList {
	got, ok := labels[key]
	if !ok {
		return field.ErrorList{requiredAt(fldPath.Child("labels").Key(key), fmt.Sprintf("must be '%s'", want))}
	}
	if got != want {
		return field.ErrorList{invalidAt(fldPath.Child("labels").Key(key), labels, fmt.Sprintf("must be '%s'", want))}
	}
	return nil
}

// validateNameAllowsCompletions mirrors validateNameAllowsCompletions: an Indexed
// Job's pods are named after it with the index appended, which must stay a DNS label.
func validateNameAllowsCompletions(j *batchv1.Job) field.ErrorList {
	s := &j.Spec
	if s.CompletionMode == nil || *s.CompletionMode != batchv1.IndexedCompletion || s.Completions == nil || *s.Completions <= 0 {
		return nil
	}
	host := fmt.Sprintf("%s-%d", j.Name, *s.Completions-1)
	if len(dns1123LabelErrs(host)) > 0 {
		return field.ErrorList{field.Invalid(field.NewPath("metadata").Child("name"), j.Name, "will not able to create pod with invalid DNS label: "+host)}
	}
	return nil
}

// validateJobSpecWithSelector mirrors ValidateJobSpec: the spec, then the selector
// and whether it selects the template.
func validateJobSpecWithSelector(spec, old *batchv1.JobSpec, fldPath lpath, o podValidationOptions) field.ErrorList {
	errs := validateJobSpec(spec, old, fldPath, o)
	selPath := fldPath.Child("selector")
	if spec.Selector == nil {
		errs = append(errs, requiredAt(selPath, ""))
	} else {
		errs = append(errs, validateLabelSelector(spec.Selector, o.allowInvalidLabelValueInSelector, selPath)...)
	}
	if k := classifySelector(spec.Selector); k != selectorInvalid && !selectorMatches(spec.Selector, k, spec.Template.Labels) {
		errs = append(errs, selectorMismatch(fldPath.Child("template"), spec.Template.Labels))
	}
	return errs
}

// validateJobSpec mirrors validateJobSpec.
func validateJobSpec(spec, old *batchv1.JobSpec, fldPath lpath, o podValidationOptions) field.ErrorList {
	var errs field.ErrorList
	if spec.Parallelism != nil {
		errs = append(errs, nonNegChild(int64(*spec.Parallelism), fldPath, "parallelism")...)
	}
	if spec.Completions != nil {
		errs = append(errs, nonNegChild(int64(*spec.Completions), fldPath, "completions")...)
	}
	if spec.ActiveDeadlineSeconds != nil {
		errs = append(errs, nonNegChild(*spec.ActiveDeadlineSeconds, fldPath, "activeDeadlineSeconds")...)
	}
	if spec.BackoffLimit != nil {
		errs = append(errs, nonNegChild(int64(*spec.BackoffLimit), fldPath, "backoffLimit")...)
	}
	if spec.TTLSecondsAfterFinished != nil {
		errs = append(errs, nonNegChild(int64(*spec.TTLSecondsAfterFinished), fldPath, "ttlSecondsAfterFinished")...)
	}
	if spec.BackoffLimitPerIndex != nil {
		errs = append(errs, nonNegChild(int64(*spec.BackoffLimitPerIndex), fldPath, "backoffLimitPerIndex")...)
	}
	if spec.MaxFailedIndexes != nil {
		errs = append(errs, nonNegChild(int64(*spec.MaxFailedIndexes), fldPath, "maxFailedIndexes")...)
		if spec.BackoffLimitPerIndex == nil {
			errs = append(errs, requiredAt(fldPath.Child("backoffLimitPerIndex"), "when maxFailedIndexes is specified").WithOrigin("dependentRequired").MarkCoveredByDeclarative())
		}
	}
	if spec.ManagedBy != nil {
		mbPath := fldPath.Child("managedBy")
		errs = append(errs, validation.IsDomainPrefixedPath(mbPath.P(), *spec.ManagedBy)...)
		if len(*spec.ManagedBy) > maxManagedByLength {
			errs = append(errs, field.TooLong(mbPath.P(), "", maxManagedByLength))
		}
	}
	if m := spec.CompletionMode; m != nil {
		if *m != batchv1.NonIndexedCompletion && *m != batchv1.IndexedCompletion {
			errs = append(errs, notSupportedAt(fldPath.Child("completionMode"), m, []batchv1.CompletionMode{batchv1.NonIndexedCompletion, batchv1.IndexedCompletion}))
		}
		if *m == batchv1.IndexedCompletion {
			errs = append(errs, validateIndexedJob(spec, fldPath)...)
		}
	}
	if spec.CompletionMode == nil || *spec.CompletionMode == batchv1.NonIndexedCompletion {
		if spec.BackoffLimitPerIndex != nil {
			errs = append(errs, invalidAt(fldPath.Child("backoffLimitPerIndex"), *spec.BackoffLimitPerIndex, "requires indexed completion mode"))
		}
		if spec.MaxFailedIndexes != nil {
			errs = append(errs, invalidAt(fldPath.Child("maxFailedIndexes"), *spec.MaxFailedIndexes, "requires indexed completion mode"))
		}
	}
	if spec.PodFailurePolicy != nil {
		errs = append(errs, validatePodFailurePolicy(spec, fldPath.Child("podFailurePolicy"))...)
	}
	if spec.SuccessPolicy != nil {
		if spec.CompletionMode == nil || *spec.CompletionMode != batchv1.IndexedCompletion {
			errs = append(errs, invalidAt(fldPath.Child("successPolicy"), InternalForm{*spec.SuccessPolicy}, "requires indexed completion mode"))
		} else {
			errs = append(errs, validateSuccessPolicy(spec, fldPath.Child("successPolicy"))...)
		}
	}
	errs = append(errs, validatePodReplacementPolicy(spec, fldPath.Child("podReplacementPolicy"))...)
	errs = append(errs, validateGangMinCount(spec, fldPath.Child("scheduling"))...)
	errs = append(errs, validateJobSchedulingPolicy(spec, fldPath.Child("scheduling"))...)

	tPath := fldPath.Child("template")
	errs = append(errs, validateTemplate(&spec.Template, tPath, o)...)
	rpPath := tPath.Children("spec", "restartPolicy")
	switch rp := spec.Template.Spec.RestartPolicy; {
	case rp == corev1.RestartPolicyAlways || rp == "":
		errs = append(errs, requiredAt(rpPath, fmt.Sprintf("valid values: %q, %q", corev1.RestartPolicyOnFailure, corev1.RestartPolicyNever)))
	case rp != corev1.RestartPolicyOnFailure && rp != corev1.RestartPolicyNever:
		errs = append(errs, notSupportedAt(rpPath, rp, []corev1.RestartPolicy{corev1.RestartPolicyOnFailure, corev1.RestartPolicyNever}))
	case spec.PodFailurePolicy != nil && rp != corev1.RestartPolicyNever:
		errs = append(errs, invalidAt(rpPath, rp, fmt.Sprintf("only %q is supported when podFailurePolicy is specified", corev1.RestartPolicyNever)))
	}
	return errs
}

// validateIndexedJob is the Indexed part of validateJobSpec.
func validateIndexedJob(spec *batchv1.JobSpec, fldPath lpath) field.ErrorList {
	var errs field.ErrorList
	indexed := batchv1.IndexedCompletion
	if spec.Completions == nil {
		errs = append(errs, requiredAt(fldPath.Child("completions"), fmt.Sprintf("when completion mode is %s", indexed)))
	}
	if spec.Parallelism != nil && *spec.Parallelism > maxParallelismForIndexedJob {
		errs = append(errs, invalidAt(fldPath.Child("parallelism"), *spec.Parallelism, fmt.Sprintf("must be less than or equal to %d when completion mode is %s", maxParallelismForIndexedJob, indexed)))
	}
	if spec.Completions != nil && spec.MaxFailedIndexes != nil && *spec.MaxFailedIndexes > *spec.Completions {
		errs = append(errs, invalidAt(fldPath.Child("maxFailedIndexes"), *spec.MaxFailedIndexes, "must be less than or equal to completions"))
	}
	if spec.MaxFailedIndexes != nil && *spec.MaxFailedIndexes > maxFailedIndexesForIndexedJob {
		errs = append(errs, invalidAt(fldPath.Child("maxFailedIndexes"), *spec.MaxFailedIndexes, fmt.Sprintf("must be less than or equal to %d", maxFailedIndexesForIndexedJob)))
	}
	if spec.Completions != nil && *spec.Completions > completionsSoftLimit && spec.BackoffLimitPerIndex != nil {
		if spec.MaxFailedIndexes == nil {
			errs = append(errs, requiredAt(fldPath.Child("maxFailedIndexes"), fmt.Sprintf("must be specified when completions is above %d", completionsSoftLimit)))
		}
		if spec.Parallelism != nil && *spec.Parallelism > parallelismLimitForHighCompletions {
			errs = append(errs, invalidAt(fldPath.Child("parallelism"), *spec.Parallelism, fmt.Sprintf("must be less than or equal to %d when completions are above %d and used with backoff limit per index", parallelismLimitForHighCompletions, completionsSoftLimit)))
		}
		if spec.MaxFailedIndexes != nil && *spec.MaxFailedIndexes > maxFailedIndexesLimitForHighCompletions {
			errs = append(errs, invalidAt(fldPath.Child("maxFailedIndexes"), *spec.MaxFailedIndexes, fmt.Sprintf("must be less than or equal to %d when completions are above %d and used with backoff limit per index", maxFailedIndexesLimitForHighCompletions, completionsSoftLimit)))
		}
	}
	return errs
}

// validatePodFailurePolicy mirrors validatePodFailurePolicy.
func validatePodFailurePolicy(spec *batchv1.JobSpec, fldPath lpath) field.ErrorList {
	var errs field.ErrorList
	rulesPath := fldPath.Child("rules")
	rules := spec.PodFailurePolicy.Rules
	if len(rules) > maxPodFailurePolicyRules {
		errs = append(errs, field.TooMany(rulesPath.P(), len(rules), maxPodFailurePolicyRules))
	}
	for i := range rules {
		errs = append(errs, validatePodFailurePolicyRule(spec, &rules[i], rulesPath.Index(i))...)
	}
	return errs
}

// isTemplateContainer reports whether name is the name of one of the template's
// containers or init containers.
func isTemplateContainer(spec *corev1.PodSpec, name string) bool {
	for i := range spec.Containers {
		if spec.Containers[i].Name == name {
			return true
		}
	}
	for i := range spec.InitContainers {
		if spec.InitContainers[i].Name == name {
			return true
		}
	}
	return false
}

// validatePodFailurePolicyRule mirrors validatePodFailurePolicyRule.
func validatePodFailurePolicyRule(spec *batchv1.JobSpec, rule *batchv1.PodFailurePolicyRule, rulePath lpath) field.ErrorList {
	var errs field.ErrorList
	actionPath := rulePath.Child("action")
	switch {
	case rule.Action == "":
		errs = append(errs, requiredAt(actionPath, fmt.Sprintf("valid values: %q", podFailurePolicyActions)))
	case rule.Action == batchv1.PodFailurePolicyActionFailIndex:
		if spec.BackoffLimitPerIndex == nil {
			errs = append(errs, invalidAt(actionPath, rule.Action, "requires the backoffLimitPerIndex to be set"))
		}
	case !contains(podFailurePolicyActions, rule.Action):
		errs = append(errs, notSupportedAt(actionPath, rule.Action, podFailurePolicyActions))
	}
	if rule.OnExitCodes != nil {
		errs = append(errs, validateOnExitCodes(rule.OnExitCodes, rulePath.Child("onExitCodes"), &spec.Template.Spec)...)
	}
	if len(rule.OnPodConditions) > 0 {
		errs = append(errs, validateOnPodConditions(rule.OnPodConditions, rulePath.Child("onPodConditions"))...)
	}
	if rule.OnExitCodes != nil && len(rule.OnPodConditions) > 0 {
		errs = append(errs, invalidAt(rulePath, field.OmitValueType{}, "specifying both OnExitCodes and OnPodConditions is not supported"))
	}
	if rule.OnExitCodes == nil && len(rule.OnPodConditions) == 0 {
		errs = append(errs, invalidAt(rulePath, field.OmitValueType{}, "specifying one of OnExitCodes and OnPodConditions is required"))
	}
	return errs
}

// validateOnPodConditions mirrors validatePodFailurePolicyRuleOnPodConditions.
func validateOnPodConditions(patterns []batchv1.PodFailurePolicyOnPodConditionsPattern, fldPath lpath) field.ErrorList {
	var errs field.ErrorList
	if len(patterns) > maxPodFailurePolicyOnPodConditions {
		errs = append(errs, field.TooMany(fldPath.P(), len(patterns), maxPodFailurePolicyOnPodConditions))
	}
	for j := range patterns {
		p := fldPath.Index(j)
		errs = append(errs, validateQualifiedName(string(patterns[j].Type), p.Child("type"))...)
		statusPath := p.Child("status")
		switch st := patterns[j].Status; {
		case st == "":
			errs = append(errs, requiredAt(statusPath, fmt.Sprintf("valid values: %q", onPodConditionsStatuses)))
		case !contains(onPodConditionsStatuses, st):
			errs = append(errs, notSupportedAt(statusPath, st, onPodConditionsStatuses))
		}
	}
	return errs
}

// validateOnExitCodes mirrors validatePodFailurePolicyRuleOnExitCodes.
func validateOnExitCodes(req *batchv1.PodFailurePolicyOnExitCodesRequirement, fldPath lpath, podSpec *corev1.PodSpec) field.ErrorList {
	var errs field.ErrorList
	opPath := fldPath.Child("operator")
	switch {
	case req.Operator == "":
		errs = append(errs, requiredAt(opPath, fmt.Sprintf("valid values: %q", onExitCodesOperators)))
	case !contains(onExitCodesOperators, req.Operator):
		errs = append(errs, notSupportedAt(opPath, req.Operator, onExitCodesOperators))
	}
	if req.ContainerName != nil && !isTemplateContainer(podSpec, *req.ContainerName) {
		errs = append(errs, invalidAt(fldPath.Child("containerName"), *req.ContainerName, "must be one of the container or initContainer names in the pod template"))
	}
	valuesPath := fldPath.Child("values")
	if len(req.Values) == 0 {
		errs = append(errs, invalidAt(valuesPath, req.Values, "at least one value is required"))
	} else if len(req.Values) > maxPodFailurePolicyOnExitCodesValues {
		errs = append(errs, field.TooMany(valuesPath.P(), len(req.Values), maxPodFailurePolicyOnExitCodesValues))
	}
	ordered := true
	var earlier map[int32]struct{} // the values before j, for a long list
	if len(req.Values) > indexAbove {
		earlier = make(map[int32]struct{}, len(req.Values))
	}
	for j, v := range req.Values {
		vPath := valuesPath.Index(j)
		if req.Operator == batchv1.PodFailurePolicyOnExitCodesOpIn && v == 0 {
			errs = append(errs, invalidAt(vPath, v, "must not be 0 for the In operator"))
		}
		dup := false
		if earlier != nil {
			_, dup = earlier[v]
			earlier[v] = struct{}{}
		} else {
			dup = contains(req.Values[:j], v)
		}
		if dup {
			errs = append(errs, duplicateAt(vPath, v))
		}
		if j > 0 && req.Values[j-1] > v {
			ordered = false
		}
	}
	if !ordered {
		errs = append(errs, invalidAt(valuesPath, req.Values, "must be ordered"))
	}
	return errs
}

// validateSuccessPolicy mirrors validateSuccessPolicy (an Indexed Job, so completions
// is set; a nil one reads as zero).
func validateSuccessPolicy(spec *batchv1.JobSpec, fldPath lpath) field.ErrorList {
	var errs field.ErrorList
	rulesPath := fldPath.Child("rules")
	rules := spec.SuccessPolicy.Rules
	if len(rules) == 0 {
		errs = append(errs, requiredAt(rulesPath, "at least one rules must be specified when the successPolicy is specified"))
	}
	if len(rules) > maxSuccessPolicyRules {
		errs = append(errs, field.TooMany(rulesPath.P(), len(rules), maxSuccessPolicyRules))
	}
	completions := derefInt32(spec.Completions)
	for i := range rules {
		rule := &rules[i]
		rulePath := rulesPath.Index(i)
		if rule.SucceededCount == nil && rule.SucceededIndexes == nil {
			errs = append(errs, requiredAt(rulePath, "at least one of succeededCount or succeededIndexes must be specified"))
		}
		var total int32
		if rule.SucceededIndexes != nil {
			idxPath := rulePath.Child("succeededIndexes")
			if len(*rule.SucceededIndexes) > maxSucceededIndexesLength {
				errs = append(errs, field.TooLong(idxPath.P(), "", maxSucceededIndexesLength))
			}
			var err error
			if total, err = indexesFormat(*rule.SucceededIndexes, completions); err != nil {
				errs = append(errs, invalidAt(idxPath, *rule.SucceededIndexes, "error parsing succeededIndexes: "+err.Error()))
			}
		}
		if rule.SucceededCount != nil {
			countPath := rulePath.Child("succeededCount")
			errs = append(errs, nonNeg(int64(*rule.SucceededCount), countPath)...)
			if *rule.SucceededCount > completions {
				errs = append(errs, invalidAt(countPath, *rule.SucceededCount, fmt.Sprintf("must be less than or equal to %d (the number of specified completions)", completions)))
			}
			if rule.SucceededIndexes != nil && *rule.SucceededCount > total {
				errs = append(errs, invalidAt(countPath, *rule.SucceededCount, fmt.Sprintf("must be less than or equal to %d (the number of indexes in the specified succeededIndexes field)", total)))
			}
		}
	}
	return errs
}

// indexesFormat mirrors validateIndexesFormat: the number of indexes in a
// comma-separated list of increasing indexes and ranges below completions.
func indexesFormat(s string, completions int32) (int32, error) {
	if len(s) == 0 {
		return 0, nil
	}
	var last int32
	haveLast := false
	var total int32
	for _, interval := range strings.Split(s, ",") {
		x, y, err := parseIndexInterval(interval, completions)
		if err != nil {
			return 0, err
		}
		if haveLast && last >= x {
			return 0, fmt.Errorf("non-increasing order, previous: %d, current: %d", last, x)
		}
		total += y - x + 1
		last, haveLast = y, true
	}
	return total, nil
}

// parseIndexInterval mirrors parseIndexInterval.
func parseIndexInterval(s string, completions int32) (int32, int32, error) {
	limits := strings.Split(s, "-")
	if len(limits) > 2 {
		return 0, 0, fmt.Errorf("the fragment %q violates the requirement that an index interval can have at most two parts separated by '-'", s)
	}
	x, err := strconv.Atoi(limits[0])
	if err != nil {
		return 0, 0, fmt.Errorf("cannot convert string to integer for index: %q", limits[0])
	}
	if x >= int(completions) {
		return 0, 0, fmt.Errorf("too large index: %q", limits[0])
	}
	if len(limits) == 1 {
		return int32(x), int32(x), nil
	}
	y, err := strconv.Atoi(limits[1])
	if err != nil {
		return 0, 0, fmt.Errorf("cannot convert string to integer for index: %q", limits[1])
	}
	if y >= int(completions) {
		return 0, 0, fmt.Errorf("too large index: %q", limits[1])
	}
	if x >= y {
		return 0, 0, fmt.Errorf("non-increasing order, previous: %d, current: %d", x, y)
	}
	return int32(x), int32(y), nil
}

// validatePodReplacementPolicy mirrors validatePodReplacementPolicy.
func validatePodReplacementPolicy(spec *batchv1.JobSpec, fldPath lpath) field.ErrorList {
	p := spec.PodReplacementPolicy
	if p == nil {
		return nil
	}
	if spec.PodFailurePolicy != nil {
		if *p != batchv1.Failed {
			return field.ErrorList{notSupportedAt(fldPath, *p, []batchv1.PodReplacementPolicy{batchv1.Failed})}
		}
		return nil
	}
	if !contains(podReplacementPolicies, *p) {
		return field.ErrorList{notSupportedAt(fldPath, *p, podReplacementPolicies)}
	}
	return nil
}

// validateGangMinCount mirrors validateGangMinCount: a gang's minCount may not exceed
// the parallelism (1 when unset).
func validateGangMinCount(spec *batchv1.JobSpec, fldPath lpath) field.ErrorList {
	s := spec.Scheduling
	if s == nil || s.SchedulingPolicy == nil || s.SchedulingPolicy.Gang == nil || s.SchedulingPolicy.Gang.MinCount == nil {
		return nil
	}
	parallelism := int32(1)
	if spec.Parallelism != nil {
		parallelism = *spec.Parallelism
	}
	if mc := *s.SchedulingPolicy.Gang.MinCount; mc > parallelism {
		return field.ErrorList{invalidAt(fldPath.Children("schedulingPolicy", "gang", "minCount"), mc, fmt.Sprintf("must not be greater than parallelism (%d)", parallelism))}
	}
	return nil
}

// validateJobSpecUpdate mirrors ValidateJobSpecUpdate.
func validateJobSpecUpdate(spec, old *batchv1.JobSpec, fldPath lpath, o jobOptions) field.ErrorList {
	errs := validateJobSpecWithSelector(spec, old, fldPath, o.pod)
	errs = append(errs, validateCompletionsUpdate(spec, old, fldPath.Child("completions"))...)
	errs = append(errs, immutable(spec.Selector, old.Selector, fldPath.Child("selector"))...)
	errs = append(errs, validateJobTemplateUpdate(spec, old, fldPath, o)...)
	errs = append(errs, immutable(spec.CompletionMode, old.CompletionMode, fldPath.Child("completionMode"))...)
	errs = append(errs, immutable(spec.PodFailurePolicy, old.PodFailurePolicy, fldPath.Child("podFailurePolicy"))...)
	errs = append(errs, immutable(spec.BackoffLimitPerIndex, old.BackoffLimitPerIndex, fldPath.Child("backoffLimitPerIndex"))...)
	errs = append(errs, immutable(spec.ManagedBy, old.ManagedBy, fldPath.Child("managedBy"))...)
	errs = append(errs, immutable(spec.SuccessPolicy, old.SuccessPolicy, fldPath.Child("successPolicy"))...)
	errs = append(errs, validateJobSchedulingUpdate(spec, old, fldPath.Child("scheduling"))...)
	return errs
}

// validateJobSchedulingUpdate mirrors validateJobSchedulingUpdate: the basic/gang
// variant of a scheduling policy may not change.
func validateJobSchedulingUpdate(spec, old *batchv1.JobSpec, fldPath lpath) field.ErrorList {
	if spec.Scheduling == nil || old.Scheduling == nil {
		return nil
	}
	np, op := spec.Scheduling.SchedulingPolicy, old.Scheduling.SchedulingPolicy
	if np == nil || op == nil || (op.Basic != nil) == (np.Basic != nil) {
		return nil
	}
	return field.ErrorList{invalidAt(fldPath.Child("schedulingPolicy"), nil,
		"the basic/gang policy variant is immutable after creation; only schedulingPolicy.gang.minCount may be updated")}
}

// validateCompletionsUpdate mirrors validateCompletions.
func validateCompletionsUpdate(spec, old *batchv1.JobSpec, fldPath lpath) field.ErrorList {
	if spec.CompletionMode == nil || *spec.CompletionMode != batchv1.IndexedCompletion {
		return immutable(spec.Completions, old.Completions, fldPath)
	}
	if apidiff.Equal(spec.Completions, old.Completions) || spec.Completions == nil {
		return nil
	}
	if *spec.Completions != derefInt32(spec.Parallelism) {
		return field.ErrorList{invalidAt(fldPath, spec.Completions, "can only be modified in tandem with spec.parallelism")}
	}
	return nil
}

// validateJobTemplateUpdate mirrors validatePodTemplateUpdate: the template is
// immutable, except for the scheduling directives of a suspended Job that has not
// started and the container resources of a suspended Job without active pods.
func validateJobTemplateUpdate(spec, old *batchv1.JobSpec, fldPath lpath, o jobOptions) field.ErrorList {
	t, oldT := &spec.Template, &old.Template
	if o.allowMutableSchedulingDirectives {
		cp := *oldT.DeepCopy()
		switch {
		case t.Spec.Affinity == nil && cp.Spec.Affinity != nil:
			cp.Spec.Affinity.NodeAffinity = nil
			if *cp.Spec.Affinity == (corev1.Affinity{}) {
				cp.Spec.Affinity = nil
			}
		case t.Spec.Affinity != nil && cp.Spec.Affinity == nil:
			cp.Spec.Affinity = &corev1.Affinity{NodeAffinity: t.Spec.Affinity.NodeAffinity}
		case t.Spec.Affinity != nil && cp.Spec.Affinity != nil:
			cp.Spec.Affinity.NodeAffinity = t.Spec.Affinity.NodeAffinity
		}
		cp.Spec.NodeSelector = t.Spec.NodeSelector
		cp.Spec.Tolerations = t.Spec.Tolerations
		cp.Annotations = t.Annotations
		cp.Labels = t.Labels
		cp.Spec.SchedulingGates = t.Spec.SchedulingGates
		oldT = &cp
	}
	suspended := old.Suspend != nil && *old.Suspend
	if !suspended || !o.allowMutablePodResources {
		return immutable(t, oldT, fldPath.Child("template"))
	}
	cp := *oldT.Spec.DeepCopy()
	if len(t.Spec.Containers) == len(cp.Containers) {
		for i := range t.Spec.Containers {
			if cp.Containers[i].Name == t.Spec.Containers[i].Name {
				cp.Containers[i].Resources = t.Spec.Containers[i].Resources
			}
		}
	}
	if len(t.Spec.InitContainers) == len(cp.InitContainers) {
		for i := range t.Spec.InitContainers {
			if cp.InitContainers[i].Name == t.Spec.InitContainers[i].Name {
				cp.InitContainers[i].Resources = t.Spec.InitContainers[i].Resources
			}
		}
	}
	return immutable(t.Spec, cp, fldPath.Child("template.spec"))
}

// ---- CronJob ----

func validateCronJobCreate(in *batchv1.CronJob, opts Options, w *warningRecorder) field.ErrorList {
	g := resolvedGates(opts)
	cj := defaulting.CopyCronJob(orEmpty(in), true)
	if errs := createSteps(&cj.ObjectMeta, opts, w,
		func() { defaulting.DefaultCronJob(cj, g) },
		func() { defaulting.PrepareCronJobForCreate(cj, g) }); errs != nil {
		return errs
	}
	if successPolicyPanics(&cj.Spec.JobTemplate.Spec) {
		return serverPanic()
	}
	o := templateOptions(opts, &cj.Spec.JobTemplate.Spec.Template, nil)
	errs := validateObjectMeta(&cj.ObjectMeta, true, nameIsDNSSubdomain, rootPath("metadata"))
	errs = append(errs, validateCronJobSpec(&cj.Spec, nil, rootPath("spec"), o)...)
	if len(cj.Name) > maxCronJobNameLength {
		errs = append(errs, field.Invalid(field.NewPath("metadata").Child("name"), cj.Name, fmt.Sprintf("must be no more than %d characters", maxCronJobNameLength)))
	}
	enforced := cronJobDeclarative(cj, nil, g)
	enforced = append(enforced, jobSpecDeclarative(&cj.Spec.JobTemplate.Spec, nil, rootPath("spec").Children("jobTemplate", "spec"), g.WorkloadWithJob)...)
	return acceptedWarnings(w, cj, finishCreate(errs, &cj.ObjectMeta, enforced))
}

func validateCronJobUpdate(newIn, oldIn *batchv1.CronJob, opts Options, w *warningRecorder) field.ErrorList {
	g := resolvedGates(opts)
	oldIn = orEmpty(oldIn)
	cj := defaulting.CopyCronJob(orEmpty(newIn), true)
	old := defaulting.CopyCronJob(oldIn, true)
	old.Status = *oldIn.Status.DeepCopy()
	if errs := updateSteps(&cj.ObjectMeta, &old.ObjectMeta, cronJobsResource, opts, w,
		func() { defaulting.DefaultCronJob(cj, g); defaulting.DefaultCronJob(old, g) },
		func() { defaulting.PrepareCronJobForUpdate(cj, old, g) },
		func() { cj.Status = old.Status }); errs != nil {
		return errs
	}
	if successPolicyPanics(&cj.Spec.JobTemplate.Spec) {
		return serverPanic()
	}
	o := templateOptions(opts, &cj.Spec.JobTemplate.Spec.Template, &old.Spec.JobTemplate.Spec.Template)
	errs := validateObjectMetaUpdate(&cj.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	errs = append(errs, validateCronJobSpec(&cj.Spec, &old.Spec, rootPath("spec"), o)...)
	enforced := cronJobDeclarative(cj, old, g)
	enforced = append(enforced, jobSpecDeclarative(&cj.Spec.JobTemplate.Spec, &old.Spec.JobTemplate.Spec, rootPath("spec").Children("jobTemplate", "spec"), g.WorkloadWithJob)...)
	return acceptedUpdateWarnings(w, cj, old, cj.Generation != old.Generation, finishUpdate(errs, &cj.ObjectMeta, &old.ObjectMeta, enforced))
}

// validateCronJobSpec mirrors validateCronJobSpec.
func validateCronJobSpec(spec, old *batchv1.CronJobSpec, fldPath lpath, o podValidationOptions) field.ErrorList {
	var errs field.ErrorList
	schedPath := fldPath.Child("schedule")
	if len(spec.Schedule) == 0 {
		errs = append(errs, requiredAt(schedPath, "").MarkCoveredByDeclarative())
	} else {
		allowTZ := old != nil && strings.Contains(old.Schedule, "TZ")
		errs = append(errs, validateScheduleFormat(spec.Schedule, allowTZ, spec.TimeZone, schedPath)...)
	}
	if spec.StartingDeadlineSeconds != nil {
		errs = append(errs, nonNegChild(*spec.StartingDeadlineSeconds, fldPath, "startingDeadlineSeconds")...)
	}
	if old == nil || !stringPtrEqual(old.TimeZone, spec.TimeZone) {
		errs = append(errs, validateTimeZone(spec.TimeZone, fldPath.Child("timeZone"))...)
	}
	errs = append(errs, validateConcurrencyPolicy(spec.ConcurrencyPolicy, fldPath.Child("concurrencyPolicy"))...)
	var oldJobSpec *batchv1.JobSpec
	if old != nil {
		oldJobSpec = &old.JobTemplate.Spec
	}
	errs = append(errs, validateJobTemplateSpec(&spec.JobTemplate, oldJobSpec, fldPath.Child("jobTemplate"), o)...)
	if spec.SuccessfulJobsHistoryLimit != nil {
		errs = append(errs, nonNegChild(int64(*spec.SuccessfulJobsHistoryLimit), fldPath, "successfulJobsHistoryLimit")...)
	}
	if spec.FailedJobsHistoryLimit != nil {
		errs = append(errs, nonNegChild(int64(*spec.FailedJobsHistoryLimit), fldPath, "failedJobsHistoryLimit")...)
	}
	return errs
}

func stringPtrEqual(a, b *string) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
}

// validateJobTemplateSpec mirrors ValidateJobTemplateSpec: a CronJob's Jobs get their
// selector from the Job registry, so the template may not set one.
func validateJobTemplateSpec(t *batchv1.JobTemplateSpec, old *batchv1.JobSpec, fldPath lpath, o podValidationOptions) field.ErrorList {
	specPath := fldPath.Child("spec")
	errs := validateJobSpec(&t.Spec, old, specPath, o)
	if t.Spec.Selector != nil {
		errs = append(errs, invalidAt(specPath.Child("selector"), t.Spec.Selector, "`selector` will be auto-generated"))
	}
	if t.Spec.ManualSelector != nil && *t.Spec.ManualSelector {
		errs = append(errs, notSupportedAt(specPath.Child("manualSelector"), t.Spec.ManualSelector, []string{"nil", "false"}))
	}
	return errs
}

// validateConcurrencyPolicy mirrors validateConcurrencyPolicy.
func validateConcurrencyPolicy(p batchv1.ConcurrencyPolicy, fldPath lpath) field.ErrorList {
	switch p {
	case batchv1.AllowConcurrent, batchv1.ForbidConcurrent, batchv1.ReplaceConcurrent:
		return nil
	case "":
		return field.ErrorList{requiredAt(fldPath, "")}
	}
	return field.ErrorList{notSupportedAt(fldPath, p, []batchv1.ConcurrencyPolicy{batchv1.AllowConcurrent, batchv1.ForbidConcurrent, batchv1.ReplaceConcurrent})}
}

// validateScheduleFormat mirrors validateScheduleFormat.
func validateScheduleFormat(schedule string, allowTZ bool, timeZone *string, fldPath lpath) field.ErrorList {
	var errs field.ErrorList
	if err := parseCronSchedule(schedule); err != nil {
		errs = append(errs, invalidAt(fldPath, schedule, err.Error()))
	}
	hasTZ := strings.Contains(schedule, "TZ")
	switch {
	case allowTZ && hasTZ && timeZone != nil:
		errs = append(errs, invalidAt(fldPath, schedule, "cannot use both timeZone field and TZ or CRON_TZ in schedule"))
	case !allowTZ && hasTZ:
		errs = append(errs, invalidAt(fldPath, schedule, "cannot use TZ or CRON_TZ in schedule, use timeZone field instead"))
	}
	return errs
}

// timeZonePart is upstream's validTimeZoneCharacters.
var timeZonePart = regexp.MustCompile(`^[A-Za-z\.\-_0-9+]{1,14}$`)

// validateTimeZone mirrors validateTimeZone, time zones loaded as zoneErr loads them.
func validateTimeZone(tz *string, fldPath lpath) field.ErrorList {
	if tz == nil {
		return nil
	}
	if len(*tz) == 0 {
		return field.ErrorList{invalidAt(fldPath, tz, "timeZone must be nil or non-empty string")}
	}
	for _, part := range strings.Split(*tz, "/") {
		if part == "." || part == ".." || strings.HasPrefix(part, "-") || !timeZonePart.MatchString(part) {
			return field.ErrorList{invalidAt(fldPath, tz, "unknown time zone "+*tz)}
		}
	}
	var errs field.ErrorList
	if strings.EqualFold(*tz, "Local") {
		errs = append(errs, invalidAt(fldPath, tz, "timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones"))
	}
	if err := zoneErr(*tz); err != nil {
		errs = append(errs, invalidAt(fldPath, tz, err.Error()))
	}
	return errs
}

// cronJobDeclarative returns the CronJob's beta declarative error the server enforces
// (none while DeclarativeValidationBeta is off): a schedule is required. On update an
// unchanged schedule is not checked again.
func cronJobDeclarative(cj, old *batchv1.CronJob, g *gates.Set) field.ErrorList {
	if !g.DeclarativeValidationBeta || cj.Spec.Schedule != "" {
		return nil
	}
	if old != nil && old.Spec.Schedule == "" {
		return nil
	}
	return field.ErrorList{field.Required(field.NewPath("spec", "schedule"), "").MarkBeta()}
}
