package validation

import (
	"math"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

var (
	supportedRestartPolicies = []corev1.RestartPolicy{corev1.RestartPolicyAlways, corev1.RestartPolicyOnFailure, corev1.RestartPolicyNever}
	supportedDNSPolicies     = []corev1.DNSPolicy{corev1.DNSClusterFirstWithHostNet, corev1.DNSClusterFirst, corev1.DNSDefault, corev1.DNSNone}
	supportedPreemption      = []corev1.PreemptionPolicy{corev1.PreemptLowerPriority, corev1.PreemptNever}
	supportedOSNames         = []corev1.OSName{corev1.Linux, corev1.Windows}
)

// validatePodSpec mirrors upstream ValidatePodSpec, in its order.
func validatePodSpec(spec *corev1.PodSpec, meta *metav1.ObjectMeta, fldPath *field.Path, o podValidationOptions) field.ErrorList {
	return validatePodSpecL(spec, meta, fromPath(fldPath), o)
}

func validatePodSpecL(spec *corev1.PodSpec, meta *metav1.ObjectMeta, fldPath lpath, o podValidationOptions) field.ErrorList {
	var allErrs field.ErrorList
	if spec.TerminationGracePeriodSeconds == nil {
		allErrs = append(allErrs, requiredAt(fldPath.Child("terminationGracePeriodSeconds"), ""))
	}
	pc := &podContext{
		os:            spec.OS,
		gracePeriod:   spec.TerminationGracePeriodSeconds,
		restartPolicy: spec.RestartPolicy,
		hostUsers:     spec.HostUsers == nil || *spec.HostUsers,
	}
	var volErrs field.ErrorList
	pc.volumes, volErrs = validateVolumes(spec.Volumes, meta, fldPath.Child("volumes"), &o)
	allErrs = append(allErrs, volErrs...)
	if len(spec.ResourceClaims) > 0 {
		allErrs = append(allErrs, validatePodResourceClaims(meta, spec.ResourceClaims, fldPath.Child("resourceClaims"))...)
	}
	// Only read (a nil map when the pod has no claims).
	if len(spec.ResourceClaims) > 0 {
		pc.claimNames = make(map[string]struct{}, len(spec.ResourceClaims))
	}
	for i := range spec.ResourceClaims {
		if n := spec.ResourceClaims[i].Name; n != "" {
			pc.claimNames[n] = struct{}{}
		}
	}

	allErrs = append(allErrs, validateContainers(spec.Containers, pc, fldPath.Child("containers"), &o)...)
	allErrs = append(allErrs, validateInitContainers(spec.InitContainers, spec.Containers, pc, fldPath.Child("initContainers"), &o)...)
	allErrs = append(allErrs, validateEphemeralContainers(spec.EphemeralContainers, spec.Containers, spec.InitContainers, pc, fldPath.Child("ephemeralContainers"), &o)...)
	if o.podLevelResourcesEnabled {
		allErrs = append(allErrs, validatePodResources(spec, pc.claimNames, fldPath, &o)...)
	}
	allErrs = append(allErrs, validatePodHostNetworkDeps(spec, fldPath, &o)...)
	allErrs = append(allErrs, validateRestartPolicy(spec.RestartPolicy, fldPath.Child("restartPolicy"))...)
	allErrs = append(allErrs, validateDNSPolicy(spec.DNSPolicy, fldPath.Child("dnsPolicy"))...)
	allErrs = append(allErrs, validateLabels(spec.NodeSelector, fldPath.Child("nodeSelector"))...)
	allErrs = append(allErrs, validatePodSpecSecurityContext(spec.SecurityContext, spec, fldPath.Child("securityContext"), &o)...)
	allErrs = append(allErrs, validateShareProcessNamespace(spec, fldPath)...)
	allErrs = append(allErrs, validateImagePullSecrets(spec.ImagePullSecrets, fldPath.Child("imagePullSecrets"))...)
	allErrs = append(allErrs, validateAffinity(spec.Affinity, &o, fldPath.Child("affinity"))...)
	allErrs = append(allErrs, validatePodDNSConfig(spec.DNSConfig, spec.DNSPolicy, fldPath.Child("dnsConfig"), &o)...)
	for i, g := range spec.ReadinessGates {
		allErrs = append(allErrs, validateQualifiedName(string(g.ConditionType), fldPath.Child("readinessGates").Index(i).Child("conditionType"))...)
	}
	allErrs = append(allErrs, validateSchedulingGates(spec.SchedulingGates, fldPath.Child("schedulingGates"))...)
	if len(spec.TopologySpreadConstraints) > 0 {
		allErrs = append(allErrs, validateTopologySpreadConstraints(spec.TopologySpreadConstraints, fldPath.Child("topologySpreadConstraints"), &o)...)
	}
	allErrs = append(allErrs, validateWindowsHostProcessPod(spec, fldPath, &o)...)
	allErrs = append(allErrs, validateHostUsers(spec, fldPath, &o)...)
	allErrs = append(allErrs, validatePodHostName(spec, fldPath)...)
	if spec.ServiceAccountName != "" {
		for _, msg := range nameIsDNSSubdomain(spec.ServiceAccountName, false) {
			allErrs = append(allErrs, invalidAt(fldPath.Child("serviceAccountName"), spec.ServiceAccountName, msg))
		}
	}
	if spec.DeprecatedServiceAccount != spec.ServiceAccountName { //nolint:staticcheck // upstream keeps the two in sync
		allErrs = append(allErrs, invalidAt(fldPath.Child("deprecatedServiceAccount"), spec.DeprecatedServiceAccount, "must be the same as serviceAccountName: "+quote(spec.ServiceAccountName))) //nolint:staticcheck
	}
	if spec.NodeName != "" {
		for _, msg := range nameIsDNSSubdomain(spec.NodeName, false) {
			allErrs = append(allErrs, invalidAt(fldPath.Child("nodeName"), spec.NodeName, msg))
		}
	}
	if spec.ActiveDeadlineSeconds != nil {
		v := *spec.ActiveDeadlineSeconds
		if v < 1 || v > math.MaxInt32 {
			allErrs = append(allErrs, invalidAt(fldPath.Child("activeDeadlineSeconds"), v, validation.InclusiveRangeError(1, math.MaxInt32)))
		}
	}
	if spec.Hostname != "" {
		allErrs = append(allErrs, validateDNS1123Label(spec.Hostname, fldPath.Child("hostname"))...)
	}
	if spec.Subdomain != "" {
		allErrs = append(allErrs, validateDNS1123Label(spec.Subdomain, fldPath.Child("subdomain"))...)
	}
	if len(spec.Tolerations) > 0 {
		allErrs = append(allErrs, validateTolerationsL(spec.Tolerations, fldPath.Child("tolerations"), &o)...)
	}
	if len(spec.HostAliases) > 0 {
		allErrs = append(allErrs, validateHostAliases(spec.HostAliases, fldPath.Child("hostAliases"), &o)...)
	}
	if spec.PriorityClassName != "" {
		for _, msg := range nameIsDNSSubdomain(spec.PriorityClassName, false) {
			allErrs = append(allErrs, invalidAt(fldPath.Child("priorityClassName"), spec.PriorityClassName, msg))
		}
	}
	if spec.RuntimeClassName != nil {
		for _, msg := range nameIsDNSSubdomain(*spec.RuntimeClassName, false) {
			allErrs = append(allErrs, invalidAt(fldPath.Child("runtimeClassName"), *spec.RuntimeClassName, msg))
		}
	}
	if p := spec.PreemptionPolicy; p != nil {
		switch *p {
		case corev1.PreemptLowerPriority, corev1.PreemptNever:
		case "":
			allErrs = append(allErrs, requiredAt(fldPath.Child("preemptionPolicy"), ""))
		default:
			// Upstream passes the pointer as the bad value.
			allErrs = append(allErrs, notSupportedAt(fldPath.Child("preemptionPolicy"), p, supportedPreemption))
		}
	}
	if spec.Overhead != nil {
		// Overhead is validated as if it were a container's limits.
		allErrs = append(allErrs, validateResourceRequirements(&corev1.ResourceRequirements{Limits: spec.Overhead}, validateContainerResourceName, nil, fldPath.Child("overhead"), &o)...)
	}
	if spec.OS != nil {
		switch {
		case spec.OS.Name == "":
			allErrs = append(allErrs, requiredAt(fldPath.Children("os", "name"), ""))
		case spec.OS.Name != corev1.Linux && spec.OS.Name != corev1.Windows:
			allErrs = append(allErrs, notSupportedAt(fldPath.Child("os"), spec.OS.Name, supportedOSNames))
		case spec.OS.Name == corev1.Linux:
			allErrs = append(allErrs, validateLinux(spec, fldPath)...)
		default:
			allErrs = append(allErrs, validateWindows(spec, fldPath)...)
		}
	}
	allErrs = append(allErrs, validateSchedulingGroup(spec, fldPath)...)
	allErrs = append(allErrs, validateFileKeyRefVolumes(spec, fldPath)...)
	return allErrs
}

// validateVolumes mirrors upstream ValidateVolumes: each volume's source (exactly
// one, validated in full), its name (required, DNS label, unique) and, for a pod with
// a name, claims that ephemeral volumes of the pod would create. It returns the
// volumes containers may reference, which — as upstream — are only the valid ones.
func validateVolumes(volumes []corev1.Volume, meta *metav1.ObjectMeta, fldPath lpath, o *podValidationOptions) (map[string]*corev1.VolumeSource, field.ErrorList) {
	var allErrs field.ErrorList
	podName := ""
	if meta != nil {
		podName = meta.Name
	}
	var vols map[string]*corev1.VolumeSource // only read: nil when there are no volumes
	if len(volumes) > 0 {
		vols = make(map[string]*corev1.VolumeSource, len(volumes))
	}
	var created []string // the claims ephemeral volumes create, "POD-VOLUME"
	if podName != "" {
		for i := range volumes {
			if volumes[i].Ephemeral != nil {
				created = append(created, podName+"-"+volumes[i].Name)
			}
		}
	}
	createdSet := newMemberSet(created)
	for i := range volumes {
		v := &volumes[i]
		idxPath := fldPath.Index(i)
		namePath := idxPath.Child("name")
		el := validateVolumeSource(&v.VolumeSource, v.Name, podName, idxPath, o)
		if v.Name == "" {
			el = append(el, requiredAt(namePath, ""))
		} else {
			el = append(el, validateDNS1123Label(v.Name, namePath)...)
		}
		if _, dup := vols[v.Name]; dup {
			el = append(el, duplicateAt(namePath, v.Name))
		}
		if len(el) == 0 {
			vols[v.Name] = &v.VolumeSource
		} else {
			allErrs = append(allErrs, el...)
		}
		if pvc := v.PersistentVolumeClaim; pvc != nil && len(created) != 0 && createdSet.has(created, pvc.ClaimName) {
			allErrs = append(allErrs, invalidAt(idxPath.Children("persistentVolumeClaim", "claimName"), pvc.ClaimName, "must not reference a PVC that gets created for an ephemeral volume"))
		}
	}
	return vols, allErrs
}

// validateVolumeSource mirrors upstream validateVolumeSource: every source after the
// first is Forbidden, in upstream's check order and with its path names (including
// the "downwarAPI" spelling); the first is validated in full; no source is Required.
// volName and podName serve the iscsi and ephemeral checks that involve names.
func validateVolumeSource(s *corev1.VolumeSource, volName, podName string, fldPath lpath, o *podValidationOptions) field.ErrorList {
	sources := [...]struct {
		name string
		set  bool
	}{
		{"emptyDir", s.EmptyDir != nil}, {"hostPath", s.HostPath != nil}, {"gitRepo", s.GitRepo != nil}, //nolint:staticcheck
		{"gcePersistentDisk", s.GCEPersistentDisk != nil}, {"awsElasticBlockStore", s.AWSElasticBlockStore != nil}, //nolint:staticcheck
		{"secret", s.Secret != nil}, {"nfs", s.NFS != nil}, {"iscsi", s.ISCSI != nil}, {"glusterfs", s.Glusterfs != nil}, //nolint:staticcheck
		{"flocker", s.Flocker != nil}, {"persistentVolumeClaim", s.PersistentVolumeClaim != nil}, {"rbd", s.RBD != nil}, //nolint:staticcheck
		{"cinder", s.Cinder != nil}, {"cephFS", s.CephFS != nil}, {"quobyte", s.Quobyte != nil}, //nolint:staticcheck
		{"downwarAPI", s.DownwardAPI != nil}, {"fc", s.FC != nil}, {"flexVolume", s.FlexVolume != nil},
		{"configMap", s.ConfigMap != nil}, {"azureFile", s.AzureFile != nil}, {"vsphereVolume", s.VsphereVolume != nil}, //nolint:staticcheck
		{"photonPersistentDisk", s.PhotonPersistentDisk != nil}, {"portworxVolume", s.PortworxVolume != nil}, //nolint:staticcheck
		{"azureDisk", s.AzureDisk != nil}, {"storageos", s.StorageOS != nil}, {"projected", s.Projected != nil}, //nolint:staticcheck
		{"scaleIO", s.ScaleIO != nil}, {"csi", s.CSI != nil}, {"ephemeral", s.Ephemeral != nil}, {"image", s.Image != nil}, //nolint:staticcheck
	}
	var allErrs field.ErrorList
	n := 0
	for _, src := range sources {
		if !src.set {
			continue
		}
		if n > 0 {
			allErrs = append(allErrs, forbiddenAt(fldPath.Child(src.name), "may not specify more than 1 volume type"))
		} else {
			n++
			allErrs = append(allErrs, validateFirstVolumeSource(s, src.name, volName, podName, fldPath, o)...)
		}
		if src.name == "iscsi" && s.ISCSI.InitiatorName != nil && len(volName)+1+len(s.ISCSI.TargetPortal) > 64 {
			allErrs = append(allErrs, invalidAt(fldPath.Child("name"), volName, iscsiNameLengthMsg))
		}
	}
	if n == 0 {
		allErrs = append(allErrs, requiredAt(fldPath, "must specify a volume type"))
	}
	return allErrs
}

func validatePodHostNetworkDeps(spec *corev1.PodSpec, fldPath lpath, o *podValidationOptions) field.ErrorList {
	if !spec.HostNetwork {
		return nil
	}
	var allErrs field.ErrorList
	cPath := fldPath.Child("containers")
	for i := range spec.Containers {
		for j, port := range spec.Containers[i].Ports {
			// Templates may leave hostPort 0: defaulting fills it in on the pod.
			if hp, cp := port.HostPort, port.ContainerPort; (o.resourceIsPod || hp != 0) && hp != cp {
				allErrs = append(allErrs, invalidAt(cPath.Index(i).Child("ports").Index(j).Child("hostPort"), port.HostPort, "must match `containerPort` when `hostNetwork` is true"))
			}
		}
	}
	return allErrs
}

func validateRestartPolicy(p corev1.RestartPolicy, fldPath lpath) field.ErrorList {
	switch p {
	case corev1.RestartPolicyAlways, corev1.RestartPolicyOnFailure, corev1.RestartPolicyNever:
		return nil
	case "":
		return field.ErrorList{requiredAt(fldPath, "")}
	}
	return field.ErrorList{notSupportedAt(fldPath, p, supportedRestartPolicies)}
}

func validateDNSPolicy(p corev1.DNSPolicy, fldPath lpath) field.ErrorList {
	switch p {
	case corev1.DNSClusterFirstWithHostNet, corev1.DNSClusterFirst, corev1.DNSDefault, corev1.DNSNone:
		return nil
	case "":
		return field.ErrorList{requiredAt(fldPath, "")}
	}
	// Upstream passes the *DNSPolicy pointer as the bad value.
	bad := p
	return field.ErrorList{notSupportedAt(fldPath, &bad, supportedDNSPolicies)}
}

func validateImagePullSecrets(secrets []corev1.LocalObjectReference, fldPath lpath) field.ErrorList {
	// LocalObjectReference has only Name in v1, so nothing else can be set.
	return nil
}

func validateSchedulingGates(gates []corev1.PodSchedulingGate, fldPath lpath) field.ErrorList {
	var allErrs field.ErrorList
	for i, g := range gates {
		allErrs = append(allErrs, validateQualifiedName(g.Name, fldPath.Index(i))...)
		for j := 0; j < i; j++ {
			if gates[j].Name == g.Name {
				allErrs = append(allErrs, duplicateAt(fldPath.Index(i), g.Name))
				break
			}
		}
	}
	return allErrs
}

// validateFileKeyRefVolumes mirrors upstream validateFileKeyRefVolumes: a fileKeyRef
// must name an emptyDir volume of the pod.
func validateFileKeyRefVolumes(spec *corev1.PodSpec, fldPath lpath) field.ErrorList {
	var allErrs field.ErrorList
	visitContainersWithPath(spec, fldPath, func(c *corev1.Container, p lpath) {
		for j := range c.Env {
			vf := c.Env[j].ValueFrom
			if vf == nil || vf.FileKeyRef == nil {
				continue
			}
			name := vf.FileKeyRef.VolumeName
			np := p.Child("env").Index(j).Children("valueFrom", "fileKeyRef", "volumeName")
			var src *corev1.VolumeSource
			// Upstream builds a name→source map, so the last volume of a name wins.
			for k := range spec.Volumes {
				if spec.Volumes[k].Name == name {
					src = &spec.Volumes[k].VolumeSource
				}
			}
			switch {
			case src == nil:
				allErrs = append(allErrs, notFoundAt(np, name))
			case src.EmptyDir == nil:
				allErrs = append(allErrs, invalidAt(np, name, "referenced volume must be of type emptyDir"))
			}
		}
	})
	return allErrs
}

func quote(s string) string { return strconv.Quote(s) }
