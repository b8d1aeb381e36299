package validation

import (
	"strconv"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/podlife/podlife/internal/byname"
	"github.com/podlife/podlife/internal/podutil"
)

// podContext carries the pod-wide facts container validation reads.
type podContext struct {
	os            *corev1.PodOS
	volumes       map[string]*corev1.VolumeSource // valid volumes by name, as upstream's ValidateVolumes returns them
	claimNames    map[string]struct{}             // non-empty spec.resourceClaims names
	gracePeriod   *int64
	restartPolicy corev1.RestartPolicy
	hostUsers     bool
}

// validateContainers mirrors upstream validateContainers (regular containers).
func validateContainers(containers []corev1.Container, pc *podContext, fldPath lpath, o *podValidationOptions) field.ErrorList {
	if len(containers) == 0 {
		return field.ErrorList{requiredAt(fldPath, "")}
	}
	var allErrs field.ErrorList
	names := byname.Containers(containers)
	list := fldPath.folded()
	for i := range containers {
		ctr := &containers[i]
		// The container's index stays out of the segments: its checks then stay
		// within the inline segments of lpath.
		path := list.elem(i)
		allErrs = append(allErrs, validateContainerCommon(ctr, pc, path, o)...)
		if names.First(ctr.Name) < i {
			allErrs = append(allErrs, duplicateAt(path.Child("name"), ctr.Name))
		}
		if ctr.Lifecycle != nil {
			allErrs = append(allErrs, validateLifecycle(ctr.Lifecycle, pc.gracePeriod, path.Child("lifecycle"), pc.os)...)
		}
		if ctr.LivenessProbe != nil {
			allErrs = append(allErrs, validateLivenessProbe(ctr.LivenessProbe, pc.gracePeriod, path.Child("livenessProbe"))...)
		}
		if ctr.ReadinessProbe != nil {
			allErrs = append(allErrs, validateReadinessProbe(ctr.ReadinessProbe, pc.gracePeriod, path.Child("readinessProbe"))...)
		}
		if ctr.StartupProbe != nil {
			allErrs = append(allErrs, validateStartupProbe(ctr.StartupProbe, pc.gracePeriod, path.Child("startupProbe"))...)
		}
		if o.allowContainerRestartPolicyRules {
			allErrs = append(allErrs, validateContainerRestartPolicy(ctr.RestartPolicy, ctr.RestartPolicyRules, path, o)...)
		} else if ctr.RestartPolicy != nil {
			allErrs = append(allErrs, forbiddenAt(path.Child("restartPolicy"), "may not be set for non-init containers"))
		}
	}
	// Host ports must not collide across all regular containers.
	allErrs = append(allErrs, accumulateHostPorts(containers, fldPath)...)
	return allErrs
}

// validateInitContainers mirrors upstream validateInitContainers (init containers and
// sidecars, i.e. init containers with restartPolicy Always).
func validateInitContainers(containers, regular []corev1.Container, pc *podContext, fldPath lpath, o *podValidationOptions) field.ErrorList {
	var allErrs field.ErrorList
	regularNames, names := byname.Containers(regular), byname.Containers(containers)
	const initOnly = "may not be set for init containers without restartPolicy=Always"
	list := fldPath.folded()
	for i := range containers {
		ctr := &containers[i]
		// The container's index stays out of the segments: its checks then stay
		// within the inline segments of lpath.
		path := list.elem(i)
		allErrs = append(allErrs, validateContainerCommon(ctr, pc, path, o)...)
		allErrs = append(allErrs, validateInitContainerRestartPolicy(ctr.RestartPolicy, ctr.RestartPolicyRules, path, o)...)
		sidecar := podutil.IsSidecar(ctr)

		// Regular names all count; an earlier init container's only when not empty.
		if regularNames.First(ctr.Name) >= 0 || ctr.Name != "" && names.First(ctr.Name) < i {
			allErrs = append(allErrs, duplicateAt(path.Child("name"), ctr.Name))
		}

		// Init containers run one by one, so host ports only conflict inside one
		// container. Upstream checks a one-element list, hence the index is always 0.
		allErrs = append(allErrs, accumulateHostPorts(containers[i:i+1], fldPath)...)

		if sidecar {
			if ctr.Lifecycle != nil {
				allErrs = append(allErrs, validateLifecycle(ctr.Lifecycle, pc.gracePeriod, path.Child("lifecycle"), pc.os)...)
			}
			if ctr.LivenessProbe != nil {
				allErrs = append(allErrs, validateLivenessProbe(ctr.LivenessProbe, pc.gracePeriod, path.Child("livenessProbe"))...)
			}
			if ctr.ReadinessProbe != nil {
				allErrs = append(allErrs, validateReadinessProbe(ctr.ReadinessProbe, pc.gracePeriod, path.Child("readinessProbe"))...)
			}
			if ctr.StartupProbe != nil {
				allErrs = append(allErrs, validateStartupProbe(ctr.StartupProbe, pc.gracePeriod, path.Child("startupProbe"))...)
			}
		} else {
			if ctr.Lifecycle != nil {
				allErrs = append(allErrs, forbiddenAt(path.Child("lifecycle"), initOnly))
			}
			if ctr.LivenessProbe != nil {
				allErrs = append(allErrs, forbiddenAt(path.Child("livenessProbe"), initOnly))
			}
			if ctr.ReadinessProbe != nil {
				allErrs = append(allErrs, forbiddenAt(path.Child("readinessProbe"), initOnly))
			}
			if ctr.StartupProbe != nil {
				allErrs = append(allErrs, forbiddenAt(path.Child("startupProbe"), initOnly))
			}
		}

		if !o.allowSidecarResizePolicy && len(ctr.ResizePolicy) > 0 {
			allErrs = append(allErrs, invalidAt(path.Child("resizePolicy"), InternalForm{ctr.ResizePolicy}, "must not be set for init containers"))
		}
		if !sidecar && !o.allowExistingRestartContainerForNonSidecarInitContainer {
			for j, p := range ctr.ResizePolicy {
				if p.RestartPolicy == corev1.RestartContainer {
					allErrs = append(allErrs, invalidAt(path.Child("resizePolicy").Index(j).Child("restartPolicy"), p.RestartPolicy, "must not be set to 'RestartContainer' for non-sidecar initContainers"))
				}
			}
		}
	}
	return allErrs
}

// validateEphemeralContainers mirrors upstream validateEphemeralContainers.
func validateEphemeralContainers(ephemeral []corev1.EphemeralContainer, containers, initContainers []corev1.Container, pc *podContext, fldPath lpath, o *podValidationOptions) field.ErrorList {
	if len(ephemeral) == 0 {
		return nil
	}
	var allErrs field.ErrorList
	other := make(map[string]struct{}, len(containers)+len(initContainers))
	all := make(map[string]struct{}, len(containers)+len(initContainers)+len(ephemeral))
	for i := range containers {
		other[containers[i].Name] = struct{}{}
		all[containers[i].Name] = struct{}{}
	}
	for i := range initContainers {
		other[initContainers[i].Name] = struct{}{}
		all[initContainers[i].Name] = struct{}{}
	}
	const notForEphemeral = "cannot be set for an Ephemeral Container"
	list := fldPath.folded()
	for i := range ephemeral {
		ec := &ephemeral[i]
		// The container's index stays out of the segments: its checks then stay
		// within the inline segments of lpath.
		path := list.elem(i)
		c := (*corev1.Container)(&ec.EphemeralContainerCommon)
		allErrs = append(allErrs, validateContainerCommon(c, pc, path, o)...)
		allErrs = append(allErrs, validateImageWhitespace(c.Image, path)...)
		if _, dup := all[ec.Name]; dup {
			allErrs = append(allErrs, duplicateAt(path.Child("name"), ec.Name))
		} else {
			all[ec.Name] = struct{}{}
		}
		if ec.TargetContainerName != "" {
			if _, ok := other[ec.TargetContainerName]; !ok {
				allErrs = append(allErrs, notFoundAt(path.Child("targetContainerName"), ec.TargetContainerName))
			}
		}
		for _, name := range ephemeralForbiddenFields(&ec.EphemeralContainerCommon) {
			allErrs = append(allErrs, forbiddenAt(path.Child(name), notForEphemeral))
		}
		for j := range ec.VolumeMounts {
			if ec.VolumeMounts[j].SubPath != "" {
				allErrs = append(allErrs, forbiddenAt(path.Child("volumeMounts").Index(j).Child("subPath"), notForEphemeral))
			}
			if ec.VolumeMounts[j].SubPathExpr != "" {
				allErrs = append(allErrs, forbiddenAt(path.Child("volumeMounts").Index(j).Child("subPathExpr"), notForEphemeral))
			}
		}
	}
	return allErrs
}

// ephemeralForbiddenFields lists, in struct field order, the set fields of an
// ephemeral container outside upstream's allow-list (Name, Image, Command, Args,
// WorkingDir, EnvFrom, Env, VolumeMounts, VolumeDevices, TerminationMessagePath,
// TerminationMessagePolicy, ImagePullPolicy, SecurityContext, Stdin, StdinOnce, TTY).
// Upstream compares each field with its zero value by reflection, so an empty
// non-nil slice counts as set.
func ephemeralForbiddenFields(c *corev1.EphemeralContainerCommon) []string {
	var out []string
	if c.Ports != nil {
		out = append(out, "ports")
	}
	if c.Resources.Limits != nil || c.Resources.Requests != nil || c.Resources.Claims != nil {
		out = append(out, "resources")
	}
	if c.ResizePolicy != nil {
		out = append(out, "resizePolicy")
	}
	if c.RestartPolicy != nil {
		out = append(out, "restartPolicy")
	}
	if c.RestartPolicyRules != nil {
		out = append(out, "restartPolicyRules")
	}
	if c.LivenessProbe != nil {
		out = append(out, "livenessProbe")
	}
	if c.ReadinessProbe != nil {
		out = append(out, "readinessProbe")
	}
	if c.StartupProbe != nil {
		out = append(out, "startupProbe")
	}
	if c.Lifecycle != nil {
		out = append(out, "lifecycle")
	}
	return out
}

// validateContainerCommon mirrors upstream validateContainerCommon: the checks every
// container kind gets.
func validateContainerCommon(ctr *corev1.Container, pc *podContext, path lpath, o *podValidationOptions) field.ErrorList {
	var allErrs field.ErrorList
	if ctr.Name == "" {
		allErrs = append(allErrs, requiredAt(path.Child("name"), ""))
	} else if !validDNS1123Label(ctr.Name) {
		allErrs = append(allErrs, validateDNS1123Label(ctr.Name, path.Child("name"))...)
	}
	if ctr.Image == "" {
		allErrs = append(allErrs, requiredAt(path.Child("image"), ""))
	}
	switch ctr.TerminationMessagePolicy {
	case corev1.TerminationMessageReadFile, corev1.TerminationMessageFallbackToLogsOnError:
	case "":
		allErrs = append(allErrs, requiredAt(path.Child("terminationMessagePolicy"), ""))
	default:
		allErrs = append(allErrs, notSupportedAt(path.Child("terminationMessagePolicy"), ctr.TerminationMessagePolicy, supportedTerminationMessagePolicies))
	}
	// Each check only runs (and builds its path) when the field is set.
	if len(ctr.Ports) > 0 {
		allErrs = append(allErrs, validateContainerPorts(ctr.Ports, path.Child("ports"))...)
	}
	if len(ctr.Env) > 0 {
		allErrs = append(allErrs, validateEnv(ctr.Env, path.Child("env"), o)...)
	}
	if len(ctr.EnvFrom) > 0 {
		allErrs = append(allErrs, validateEnvFrom(ctr.EnvFrom, path.Child("envFrom"), o)...)
	}
	if len(ctr.VolumeMounts) > 0 {
		allErrs = append(allErrs, validateVolumeMounts(ctr, pc.volumes, path.Child("volumeMounts"))...)
	}
	if len(ctr.VolumeDevices) > 0 {
		allErrs = append(allErrs, validateVolumeDevices(ctr, pc.volumes, path.Child("volumeDevices"))...)
	}
	switch ctr.ImagePullPolicy {
	case corev1.PullAlways, corev1.PullIfNotPresent, corev1.PullNever:
	default:
		allErrs = append(allErrs, validatePullPolicy(ctr.ImagePullPolicy, path.Child("imagePullPolicy"))...)
	}
	if r := &ctr.Resources; len(r.Limits) > 0 || len(r.Requests) > 0 || len(r.Claims) > 0 {
		allErrs = append(allErrs, validateResourceRequirements(r, validateContainerResourceName, pc.claimNames, path.Child("resources"), o)...)
	}
	if len(ctr.ResizePolicy) > 0 {
		allErrs = append(allErrs, validateResizePolicy(ctr.ResizePolicy, path.Child("resizePolicy"), pc.restartPolicy)...)
	}
	if ctr.SecurityContext != nil {
		allErrs = append(allErrs, validateSecurityContext(ctr.SecurityContext, path.Child("securityContext"), pc.hostUsers, o)...)
	}
	return allErrs
}

var (
	supportedTerminationMessagePolicies = []corev1.TerminationMessagePolicy{corev1.TerminationMessageReadFile, corev1.TerminationMessageFallbackToLogsOnError}
	supportedPullPolicies               = []corev1.PullPolicy{corev1.PullAlways, corev1.PullIfNotPresent, corev1.PullNever}
	supportedPortProtocols              = []corev1.Protocol{corev1.ProtocolSCTP, corev1.ProtocolTCP, corev1.ProtocolUDP}
	supportedResizeResources            = []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory}
	supportedResizePolicies             = []corev1.ResourceResizeRestartPolicy{corev1.NotRequired, corev1.RestartContainer}
	supportedContainerRestartPolicies   = []corev1.ContainerRestartPolicy{corev1.ContainerRestartPolicyAlways, corev1.ContainerRestartPolicyNever, corev1.ContainerRestartPolicyOnFailure}
	supportedInitRestartPolicies        = []corev1.ContainerRestartPolicy{corev1.ContainerRestartPolicyAlways}
	supportedRestartRuleOperators       = []corev1.ContainerRestartRuleOnExitCodesOperator{corev1.ContainerRestartRuleOnExitCodesOpIn, corev1.ContainerRestartRuleOnExitCodesOpNotIn}
	supportedRestartRuleActions         = []corev1.ContainerRestartRuleAction{corev1.ContainerRestartRuleActionRestart}
	supportedRestartRuleActionsAll      = []corev1.ContainerRestartRuleAction{corev1.ContainerRestartRuleActionRestart, corev1.ContainerRestartRuleActionRestartAllContainers}
)

func validateDNS1123Label(value string, fldPath lpath) field.ErrorList {
	var allErrs field.ErrorList
	for _, msg := range dns1123LabelErrs(value) {
		allErrs = append(allErrs, invalidAt(fldPath, value, msg).WithOrigin("format=k8s-short-name"))
	}
	return allErrs
}

func validateQualifiedName(value string, fldPath lpath) field.ErrorList {
	var allErrs field.ErrorList
	for _, msg := range qualifiedNameErrs(value) {
		allErrs = append(allErrs, invalidAt(fldPath, value, msg).WithOrigin("format=qualified-name"))
	}
	return allErrs
}

func validatePullPolicy(policy corev1.PullPolicy, fldPath lpath) field.ErrorList {
	switch policy {
	case corev1.PullAlways, corev1.PullIfNotPresent, corev1.PullNever:
		return nil
	case "":
		return field.ErrorList{requiredAt(fldPath, "")}
	}
	return field.ErrorList{notSupportedAt(fldPath, policy, supportedPullPolicies)}
}

// validateContainerPorts mirrors upstream validateContainerPorts.
func validateContainerPorts(ports []corev1.ContainerPort, fldPath lpath) field.ErrorList {
	var allErrs field.ErrorList
	// Upstream records only valid names that were not duplicates, so a valid name is a
	// duplicate exactly when an earlier port has it.
	names := byname.New(ports, func(p *corev1.ContainerPort) string { return p.Name })
	for i := range ports {
		port := &ports[i]
		idxPath := fldPath.Index(i)
		if port.Name != "" {
			if msgs := portNameErrs(port.Name); len(msgs) != 0 {
				for _, msg := range msgs {
					allErrs = append(allErrs, invalidAt(idxPath.Child("name"), port.Name, msg))
				}
			} else if names.First(port.Name) < i {
				allErrs = append(allErrs, duplicateAt(idxPath.Child("name"), port.Name))
			}
		}
		if port.ContainerPort == 0 {
			allErrs = append(allErrs, requiredAt(idxPath.Child("containerPort"), ""))
		} else {
			for _, msg := range validation.IsValidPortNum(int(port.ContainerPort)) {
				allErrs = append(allErrs, invalidAt(idxPath.Child("containerPort"), port.ContainerPort, msg))
			}
		}
		if port.HostPort != 0 {
			for _, msg := range validation.IsValidPortNum(int(port.HostPort)) {
				allErrs = append(allErrs, invalidAt(idxPath.Child("hostPort"), port.HostPort, msg))
			}
		}
		switch port.Protocol {
		case corev1.ProtocolTCP, corev1.ProtocolUDP, corev1.ProtocolSCTP:
		case "":
			allErrs = append(allErrs, requiredAt(idxPath.Child("protocol"), ""))
		default:
			allErrs = append(allErrs, notSupportedAt(idxPath.Child("protocol"), port.Protocol, supportedPortProtocols))
		}
	}
	return allErrs
}

// accumulateHostPorts mirrors upstream AccumulateUniqueHostPorts: the key of a host
// port is "<protocol>/<hostIP>/<hostPort>", and a repeated key is a Duplicate.
func accumulateHostPorts(containers []corev1.Container, fldPath lpath) field.ErrorList {
	var allErrs field.ErrorList
	var seen map[string]struct{} // made at the first host port: most pods have none
	for ci := range containers {
		ports := containers[ci].Ports
		for pi := range ports {
			hp := ports[pi].HostPort
			if hp == 0 {
				continue
			}
			key := string(ports[pi].Protocol) + "/" + ports[pi].HostIP + "/" + strconv.FormatInt(int64(hp), 10)
			if seen == nil {
				seen = map[string]struct{}{}
			}
			if _, dup := seen[key]; dup {
				allErrs = append(allErrs, duplicateAt(fldPath.Index(ci).Child("ports").Index(pi).Child("hostPort"), key))
			} else {
				seen[key] = struct{}{}
			}
		}
	}
	return allErrs
}

// validateResizePolicy mirrors upstream validateResizePolicy.
func validateResizePolicy(policies []corev1.ContainerResizePolicy, fldPath lpath, podRestartPolicy corev1.RestartPolicy) field.ErrorList {
	var allErrs field.ErrorList
	for i, p := range policies {
		for j := 0; j < i; j++ {
			if policies[j].ResourceName == p.ResourceName {
				allErrs = append(allErrs, duplicateAt(fldPath.Index(i), p.ResourceName))
				break
			}
		}
		switch p.ResourceName {
		case corev1.ResourceCPU, corev1.ResourceMemory:
		case "":
			allErrs = append(allErrs, requiredAt(fldPath, ""))
		default:
			allErrs = append(allErrs, notSupportedAt(fldPath, p.ResourceName, supportedResizeResources))
		}
		switch p.RestartPolicy {
		case corev1.NotRequired, corev1.RestartContainer:
		case "":
			allErrs = append(allErrs, requiredAt(fldPath, ""))
		default:
			allErrs = append(allErrs, notSupportedAt(fldPath, p.RestartPolicy, supportedResizePolicies))
		}
		if podRestartPolicy == corev1.RestartPolicyNever && p.RestartPolicy != corev1.NotRequired {
			allErrs = append(allErrs, invalidAt(fldPath, p.RestartPolicy, "must be 'NotRequired' when pod `restartPolicy` is 'Never'"))
		}
	}
	return allErrs
}

// validateInitContainerRestartPolicy mirrors upstream validateInitContainerRestartPolicy.
func validateInitContainerRestartPolicy(policy *corev1.ContainerRestartPolicy, rules []corev1.ContainerRestartRule, fldPath lpath, o *podValidationOptions) field.ErrorList {
	if policy == nil {
		if len(rules) > 0 {
			return field.ErrorList{requiredAt(fldPath.Child("restartPolicy"), "must specify restartPolicy when restart rules are used")}
		}
		return nil
	}
	if o.allowContainerRestartPolicyRules {
		if *policy == corev1.ContainerRestartPolicyAlways && !o.allowRestartAllContainers {
			if len(rules) > 0 {
				return field.ErrorList{forbiddenAt(fldPath.Child("restartPolicyRules"), "restartPolicyRules are not allowed for init containers with restart policy Always")}
			}
			return nil
		}
		return validateContainerRestartPolicy(policy, rules, fldPath, o)
	}
	if *policy != corev1.ContainerRestartPolicyAlways {
		return field.ErrorList{notSupportedAt(fldPath.Child("restartPolicy"), *policy, supportedInitRestartPolicies)}
	}
	return nil
}

// validateContainerRestartPolicy mirrors upstream validateContainerRestartPolicy.
func validateContainerRestartPolicy(policy *corev1.ContainerRestartPolicy, rules []corev1.ContainerRestartRule, fldPath lpath, o *podValidationOptions) field.ErrorList {
	var allErrs field.ErrorList
	policyPath := fldPath.Child("restartPolicy")
	if policy == nil {
		if len(rules) == 0 {
			return nil
		}
		allErrs = append(allErrs, requiredAt(policyPath, "must specify restartPolicy when restart rules are used"))
	} else {
		switch *policy {
		case corev1.ContainerRestartPolicyAlways, corev1.ContainerRestartPolicyNever, corev1.ContainerRestartPolicyOnFailure:
		default:
			allErrs = append(allErrs, notSupportedAt(policyPath, *policy, supportedContainerRestartPolicies))
		}
	}
	rulesPath := fldPath.Child("restartPolicyRules")
	if len(rules) > 20 {
		allErrs = append(allErrs, field.TooMany(rulesPath.P(), len(rules), 20))
	}
	actions := supportedRestartRuleActions
	if o.allowRestartAllContainers {
		actions = supportedRestartRuleActionsAll
	}
	for i := range rules {
		rule := &rules[i]
		rulePath := rulesPath.Index(i)
		allowed := rule.Action == corev1.ContainerRestartRuleActionRestart ||
			(o.allowRestartAllContainers && rule.Action == corev1.ContainerRestartRuleActionRestartAllContainers)
		if !allowed {
			allErrs = append(allErrs, notSupportedAt(rulePath.Child("action"), rule.Action, actions))
		}
		if rule.ExitCodes == nil {
			allErrs = append(allErrs, requiredAt(rulePath.Child("exitCodes"), "must be specified"))
			continue
		}
		codesPath := rulePath.Child("exitCodes")
		switch rule.ExitCodes.Operator {
		case corev1.ContainerRestartRuleOnExitCodesOpIn, corev1.ContainerRestartRuleOnExitCodesOpNotIn:
		default:
			allErrs = append(allErrs, notSupportedAt(codesPath.Child("operator"), rule.ExitCodes.Operator, supportedRestartRuleOperators))
		}
		if len(rule.ExitCodes.Values) > 255 {
			allErrs = append(allErrs, field.TooMany(codesPath.Child("values").P(), len(rule.ExitCodes.Values), 255))
		}
	}
	return allErrs
}
