package validation

import (
	"net"
	"path"
	"reflect"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The in-tree volume sources (deprecated, still accepted by the v1.37.2 API) and
// ephemeral volumes, as upstream validateVolumeSource checks the first source of a
// volume (k8s.io/kubernetes pkg/apis/core/validation/validation.go,
// validate*VolumeSource, validateEphemeralVolumeSource,
// ValidatePersistentVolumeClaimTemplate).

// pdPartitionMsg is upstream's message for a GCE or AWS partition outside 1-255 (the
// check itself lets 0 through).
var pdPartitionMsg = validation.InclusiveRangeError(1, 255)

// The iSCSI name formats (RFC 3720): an IQN, an EUI-64 or an NAA name. The IQN pattern
// is anchored at the end only, as upstream's.
var (
	iscsiIQN = regexp.MustCompile(`iqn\.\d{4}-\d{2}\.([[:alnum:]-.]+)(:[^,;*&$|\s]+)$`)
	iscsiEUI = regexp.MustCompile(`^eui.[[:alnum:]]{16}$`)
	iscsiNAA = regexp.MustCompile(`^naa.[[:alnum:]]{32}$`)
)

// iscsiFormatErr returns upstream's message for an IQN or initiator name that has one
// of the three prefixes but not the form that goes with it, "" otherwise.
func iscsiFormatErr(name string) string {
	switch {
	case strings.HasPrefix(name, "iqn"):
		if !iscsiIQN.MatchString(name) {
			return "must be valid format"
		}
	case strings.HasPrefix(name, "eui"):
		if !iscsiEUI.MatchString(name) {
			return "must be valid format"
		}
	case strings.HasPrefix(name, "naa"):
		if !iscsiNAA.MatchString(name) {
			return "must be valid format"
		}
	}
	return ""
}

func hasISCSIPrefix(name string) bool {
	return strings.HasPrefix(name, "iqn") || strings.HasPrefix(name, "eui") || strings.HasPrefix(name, "naa")
}

const iscsiPrefixMsg = "must be valid format starting with iqn, eui, or naa"

func validateISCSI(s *corev1.ISCSIVolumeSource, p lpath) field.ErrorList {
	var allErrs field.ErrorList
	if s.TargetPortal == "" {
		allErrs = append(allErrs, requiredAt(p.Child("targetPortal"), ""))
	}
	switch {
	case s.IQN == "":
		allErrs = append(allErrs, requiredAt(p.Child("iqn"), ""))
	case !hasISCSIPrefix(s.IQN):
		allErrs = append(allErrs, invalidAt(p.Child("iqn"), s.IQN, iscsiPrefixMsg))
	default:
		if msg := iscsiFormatErr(s.IQN); msg != "" {
			allErrs = append(allErrs, invalidAt(p.Child("iqn"), s.IQN, msg))
		}
	}
	if s.Lun < 0 || s.Lun > 255 {
		allErrs = append(allErrs, invalidAt(p.Child("lun"), s.Lun, validation.InclusiveRangeError(0, 255)))
	}
	if (s.DiscoveryCHAPAuth || s.SessionCHAPAuth) && s.SecretRef == nil {
		allErrs = append(allErrs, requiredAt(p.Child("secretRef"), ""))
	}
	if s.InitiatorName != nil {
		// Upstream checks the prefix and the form independently: a name without a
		// known prefix gets only the first message.
		name := *s.InitiatorName
		if !hasISCSIPrefix(name) {
			allErrs = append(allErrs, invalidAt(p.Child("initiatorname"), name, iscsiPrefixMsg))
		}
		if msg := iscsiFormatErr(name); msg != "" {
			allErrs = append(allErrs, invalidAt(p.Child("initiatorname"), name, msg))
		}
	}
	return allErrs
}

// iscsiNameLengthMsg is reported, at the volume's name, for any volume with an iscsi
// source and an initiator name whose "name:targetPortal" exceeds 64 bytes, whether or
// not iscsi is its first source.
const iscsiNameLengthMsg = "Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified."

func validateFC(s *corev1.FCVolumeSource, p lpath) field.ErrorList {
	var allErrs field.ErrorList
	if len(s.TargetWWNs) < 1 && len(s.WWIDs) < 1 {
		allErrs = append(allErrs, requiredAt(p.Child("targetWWNs"), "must specify either targetWWNs or wwids, but not both"))
	}
	if len(s.TargetWWNs) != 0 && len(s.WWIDs) != 0 {
		allErrs = append(allErrs, invalidAt(p.Child("targetWWNs"), s.TargetWWNs, "targetWWNs and wwids can not be specified simultaneously"))
	}
	if len(s.TargetWWNs) != 0 {
		switch {
		case s.Lun == nil:
			allErrs = append(allErrs, requiredAt(p.Child("lun"), "lun is required if targetWWNs is specified"))
		case *s.Lun < 0 || *s.Lun > 255:
			// Upstream passes the pointer.
			allErrs = append(allErrs, invalidAt(p.Child("lun"), s.Lun, validation.InclusiveRangeError(0, 255)))
		}
	}
	return allErrs
}

func validateGitRepo(s *corev1.GitRepoVolumeSource, p lpath) field.ErrorList {
	var allErrs field.ErrorList
	if s.Repository == "" {
		allErrs = append(allErrs, requiredAt(p.Child("repository"), ""))
	}
	return append(allErrs, validateLocalDescendingPath(s.Directory, p.Child("directory"))...)
}

// validatePD checks a GCE or AWS disk: its id and its partition.
func validatePD(id, idName string, partition int32, p lpath) field.ErrorList {
	var allErrs field.ErrorList
	if id == "" {
		allErrs = append(allErrs, requiredAt(p.Child(idName), ""))
	}
	if partition < 0 || partition > 255 {
		allErrs = append(allErrs, invalidAt(p.Child("partition"), partition, pdPartitionMsg))
	}
	return allErrs
}

func validateNFS(s *corev1.NFSVolumeSource, p lpath) field.ErrorList {
	var allErrs field.ErrorList
	if s.Server == "" {
		allErrs = append(allErrs, requiredAt(p.Child("server"), ""))
	}
	if s.Path == "" {
		allErrs = append(allErrs, requiredAt(p.Child("path"), ""))
	}
	if !path.IsAbs(s.Path) {
		allErrs = append(allErrs, invalidAt(p.Child("path"), s.Path, "must be an absolute path"))
	}
	return allErrs
}

const quobyteRegistryMsg = "must be a host:port pair or multiple pairs separated by commas"

func validateQuobyte(s *corev1.QuobyteVolumeSource, p lpath) field.ErrorList {
	var allErrs field.ErrorList
	switch {
	case s.Registry == "":
		allErrs = append(allErrs, requiredAt(p.Child("registry"), quobyteRegistryMsg))
	case len(s.Tenant) >= 65:
		allErrs = append(allErrs, requiredAt(p.Child("tenant"), "must be a UUID and may not exceed a length of 64 characters"))
	default:
		// One error per malformed pair, each with the whole registry.
		for _, pair := range strings.Split(s.Registry, ",") {
			if _, _, err := net.SplitHostPort(pair); err != nil {
				allErrs = append(allErrs, invalidAt(p.Child("registry"), s.Registry, quobyteRegistryMsg))
			}
		}
	}
	if s.Volume == "" {
		allErrs = append(allErrs, requiredAt(p.Child("volume"), ""))
	}
	return allErrs
}

func validateFlocker(s *corev1.FlockerVolumeSource, p lpath) field.ErrorList {
	var allErrs field.ErrorList
	if s.DatasetName == "" && s.DatasetUUID == "" {
		allErrs = append(allErrs, requiredAt(p, "one of datasetName and datasetUUID is required"))
	}
	if s.DatasetName != "" && s.DatasetUUID != "" {
		allErrs = append(allErrs, invalidAt(p, "resource", "datasetName and datasetUUID can not be specified simultaneously"))
	}
	if strings.Contains(s.DatasetName, "/") {
		allErrs = append(allErrs, invalidAt(p.Child("datasetName"), s.DatasetName, "must not contain '/'"))
	}
	return allErrs
}

func validateFlex(s *corev1.FlexVolumeSource, p lpath) field.ErrorList {
	var allErrs field.ErrorList
	if s.Driver == "" {
		allErrs = append(allErrs, requiredAt(p.Child("driver"), ""))
	}
	// Upstream ranges over the map; podlife reports the keys in sorted order.
	for _, k := range sortedKeys(s.Options) {
		ns := k
		if before, _, ok := strings.Cut(k, "/"); ok {
			ns = before
		}
		n := "." + strings.ToLower(ns)
		if strings.HasSuffix(n, ".kubernetes.io") || strings.HasSuffix(n, ".k8s.io") {
			allErrs = append(allErrs, invalidAt(p.Child("options").Key(k), k, "kubernetes.io and k8s.io namespaces are reserved"))
		}
	}
	return allErrs
}

var (
	// Sorted, as upstream's sets.List renders them.
	supportedAzureCachingModes = []corev1.AzureDataDiskCachingMode{corev1.AzureDataDiskCachingNone, corev1.AzureDataDiskCachingReadOnly, corev1.AzureDataDiskCachingReadWrite}
	supportedAzureDiskKinds    = []corev1.AzureDataDiskKind{corev1.AzureDedicatedBlobDisk, corev1.AzureManagedDisk, corev1.AzureSharedBlobDisk}
	azureManagedDiskURIForm    = []string{"/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}"}
	azureBlobDiskURIForm       = []string{"https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd"}
)

func validateAzureDisk(s *corev1.AzureDiskVolumeSource, p lpath) field.ErrorList {
	var allErrs field.ErrorList
	if s.DiskName == "" {
		allErrs = append(allErrs, requiredAt(p.Child("diskName"), ""))
	}
	if s.DataDiskURI == "" {
		allErrs = append(allErrs, requiredAt(p.Child("diskURI"), ""))
	}
	if s.CachingMode != nil && !contains(supportedAzureCachingModes, *s.CachingMode) {
		allErrs = append(allErrs, notSupportedAt(p.Child("cachingMode"), *s.CachingMode, supportedAzureCachingModes))
	}
	if s.Kind != nil && !contains(supportedAzureDiskKinds, *s.Kind) {
		allErrs = append(allErrs, notSupportedAt(p.Child("kind"), *s.Kind, supportedAzureDiskKinds))
	}
	if s.Kind != nil {
		if *s.Kind == corev1.AzureManagedDisk {
			if !strings.HasPrefix(s.DataDiskURI, "/subscriptions/") {
				allErrs = append(allErrs, notSupportedAt(p.Child("diskURI"), s.DataDiskURI, azureManagedDiskURIForm))
			}
		} else if !strings.HasPrefix(s.DataDiskURI, "https://") {
			allErrs = append(allErrs, notSupportedAt(p.Child("diskURI"), s.DataDiskURI, azureBlobDiskURIForm))
		}
	}
	return allErrs
}

func validateStorageOS(s *corev1.StorageOSVolumeSource, p lpath) field.ErrorList {
	var allErrs field.ErrorList
	if s.VolumeName == "" {
		allErrs = append(allErrs, requiredAt(p.Child("volumeName"), ""))
	} else {
		allErrs = append(allErrs, validateDNS1123Label(s.VolumeName, p.Child("volumeName"))...)
	}
	if s.VolumeNamespace != "" {
		allErrs = append(allErrs, validateDNS1123Label(s.VolumeNamespace, p.Child("volumeNamespace"))...)
	}
	if s.SecretRef != nil && s.SecretRef.Name == "" {
		allErrs = append(allErrs, requiredAt(p.Children("secretRef", "name"), ""))
	}
	return allErrs
}

// requiredStrings reports Required for each named value that is empty, in order;
// names and values alternate.
func requiredStrings(p lpath, nameValue ...string) field.ErrorList {
	var allErrs field.ErrorList
	for i := 0; i+1 < len(nameValue); i += 2 {
		if nameValue[i+1] == "" {
			allErrs = append(allErrs, requiredAt(p.Child(nameValue[i]), ""))
		}
	}
	return allErrs
}

// validateInTreeSource validates the in-tree source name (one of upstream's path
// names) when it is the first source of its volume; ok is false for other names.
func validateInTreeSource(s *corev1.VolumeSource, name string, fldPath lpath) (errs field.ErrorList, ok bool) {
	p := fldPath.Child(name)
	switch name {
	case "gitRepo":
		return validateGitRepo(s.GitRepo, p), true //nolint:staticcheck // deprecated, still validated
	case "gcePersistentDisk":
		// Upstream validates this source under the path "persistentDisk".
		return validatePD(s.GCEPersistentDisk.PDName, "pdName", s.GCEPersistentDisk.Partition, fldPath.Child("persistentDisk")), true //nolint:staticcheck
	case "awsElasticBlockStore":
		return validatePD(s.AWSElasticBlockStore.VolumeID, "volumeID", s.AWSElasticBlockStore.Partition, p), true //nolint:staticcheck
	case "nfs":
		return validateNFS(s.NFS, p), true
	case "iscsi":
		return validateISCSI(s.ISCSI, p), true
	case "glusterfs":
		return requiredStrings(p, "endpoints", s.Glusterfs.EndpointsName, "path", s.Glusterfs.Path), true //nolint:staticcheck
	case "flocker":
		return validateFlocker(s.Flocker, p), true //nolint:staticcheck
	case "rbd":
		var errs field.ErrorList
		if len(s.RBD.CephMonitors) == 0 { //nolint:staticcheck
			errs = append(errs, requiredAt(p.Child("monitors"), ""))
		}
		return append(errs, requiredStrings(p, "image", s.RBD.RBDImage)...), true //nolint:staticcheck
	case "cinder":
		errs := requiredStrings(p, "volumeID", s.Cinder.VolumeID)       //nolint:staticcheck
		if s.Cinder.SecretRef != nil && s.Cinder.SecretRef.Name == "" { //nolint:staticcheck
			errs = append(errs, requiredAt(p.Children("secretRef", "name"), ""))
		}
		return errs, true
	case "cephFS":
		// Counted as "cephFS", validated under "cephfs".
		if len(s.CephFS.Monitors) == 0 { //nolint:staticcheck
			return field.ErrorList{requiredAt(fldPath.Children("cephfs", "monitors"), "")}, true
		}
		return nil, true
	case "quobyte":
		return validateQuobyte(s.Quobyte, p), true //nolint:staticcheck
	case "fc":
		return validateFC(s.FC, p), true
	case "flexVolume":
		return validateFlex(s.FlexVolume, p), true
	case "azureFile":
		return requiredStrings(p, "secretName", s.AzureFile.SecretName, "shareName", s.AzureFile.ShareName), true //nolint:staticcheck
	case "vsphereVolume":
		return requiredStrings(p, "volumePath", s.VsphereVolume.VolumePath), true //nolint:staticcheck
	case "photonPersistentDisk":
		return requiredStrings(p, "pdID", s.PhotonPersistentDisk.PdID), true //nolint:staticcheck
	case "portworxVolume":
		return requiredStrings(p, "volumeID", s.PortworxVolume.VolumeID), true //nolint:staticcheck
	case "azureDisk":
		return validateAzureDisk(s.AzureDisk, p), true //nolint:staticcheck
	case "storageos":
		return validateStorageOS(s.StorageOS, p), true //nolint:staticcheck
	case "scaleIO":
		return requiredStrings(p, "gateway", s.ScaleIO.Gateway, "system", s.ScaleIO.System, "volumeName", s.ScaleIO.VolumeName), true //nolint:staticcheck
	}
	return nil, false
}

// validateEphemeralSource mirrors upstream validateEphemeralVolumeSource and the
// check of the name of the claim the volume creates ("POD-VOLUME"), which needs the
// pod's name and is skipped without it (templates, unnamed pods).
func validateEphemeralSource(e *corev1.EphemeralVolumeSource, volName, podName string, fldPath lpath) field.ErrorList {
	p := fldPath.Child("ephemeral")
	var allErrs field.ErrorList
	if e.VolumeClaimTemplate == nil {
		allErrs = append(allErrs, requiredAt(p.Child("volumeClaimTemplate"), ""))
	} else {
		tp := p.Child("volumeClaimTemplate")
		allErrs = append(allErrs, validateTemplateObjectMeta(&e.VolumeClaimTemplate.ObjectMeta, tp.Child("metadata"))...)
		allErrs = append(allErrs, validatePVCSpec(&e.VolumeClaimTemplate.Spec, tp.Child("spec"))...)
	}
	if podName != "" && volName != "" {
		claim := podName + "-" + volName
		for _, msg := range nameIsDNSSubdomain(claim, false) {
			allErrs = append(allErrs, invalidAt(fldPath.Child("name"), volName, "PVC name "+quote(claim)+": "+msg))
		}
	}
	return allErrs
}

// validateTemplateObjectMeta mirrors upstream ValidateTemplateObjectMeta: labels and
// annotations are validated, every other ObjectMeta field must be its zero value
// (compared as reflect.DeepEqual does, so an empty non-nil list counts as set).
func validateTemplateObjectMeta(m *metav1.ObjectMeta, fldPath lpath) field.ErrorList {
	allErrs := validateAnnotations(m.Annotations, fldPath.Child("annotations"))
	allErrs = append(allErrs, validateLabels(m.Labels, fldPath.Child("labels"))...)
	v := reflect.ValueOf(*m)
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Name == "Labels" || f.Name == "Annotations" {
			continue
		}
		// IsZero is DeepEqual with the zero value for every field type ObjectMeta
		// has (strings, integers, pointers, maps, slices, and Time, whose fields
		// are an integer pair and a pointer), without boxing the two values.
		if v.Field(i).IsZero() {
			continue
		}
		r, n := utf8.DecodeRuneInString(f.Name)
		allErrs = append(allErrs, forbiddenAt(fldPath.Child(string(unicode.ToLower(r))+f.Name[n:]), "cannot be set"))
	}
	return allErrs
}

var (
	// Sorted, as upstream's sets.List renders them.
	supportedAccessModes = []corev1.PersistentVolumeAccessMode{corev1.ReadOnlyMany, corev1.ReadWriteMany, corev1.ReadWriteOnce, corev1.ReadWriteOncePod}
	supportedVolumeModes = []corev1.PersistentVolumeMode{corev1.PersistentVolumeBlock, corev1.PersistentVolumeFilesystem}
)

// validatePVCSpec mirrors upstream ValidatePersistentVolumeClaimSpec with the options
// of a new claim (ValidationOptionsForPersistentVolumeClaimTemplate with no old
// template, for ephemeral volumes, and ValidationOptionsForPersistentVolumeClaimCreate,
// for a StatefulSet's volumeClaimTemplates, which agree on the spec: label selector
// values checked, VolumeAttributesClass on, as the gate is locked on in v1.37.2, API
// groups of data sources checked).
func validatePVCSpec(spec *corev1.PersistentVolumeClaimSpec, fldPath lpath) field.ErrorList {
	var allErrs field.ErrorList
	if len(spec.AccessModes) == 0 {
		allErrs = append(allErrs, requiredAt(fldPath.Child("accessModes"), "at least 1 access mode is required"))
	}
	if spec.Selector != nil {
		allErrs = append(allErrs, validateLabelSelector(spec.Selector, false, fldPath.Child("selector"))...)
	}
	rwop, other := false, false
	for _, mode := range spec.AccessModes {
		if !contains(supportedAccessModes, mode) {
			allErrs = append(allErrs, notSupportedAt(fldPath.Child("accessModes"), mode, supportedAccessModes))
			continue
		}
		if mode == corev1.ReadWriteOncePod {
			rwop = true
		} else {
			other = true
		}
	}
	if rwop && other {
		allErrs = append(allErrs, forbiddenAt(fldPath.Child("accessModes"), "may not use ReadWriteOncePod with other access modes"))
	}
	storagePath := fldPath.Child("resources").Key(string(corev1.ResourceStorage))
	if q, ok := spec.Resources.Requests[corev1.ResourceStorage]; !ok {
		allErrs = append(allErrs, requiredAt(storagePath, ""))
	} else if q.Cmp(resource.Quantity{}) <= 0 {
		allErrs = append(allErrs, invalidAt(storagePath, q.String(), "must be greater than zero"))
	}
	if sc := spec.StorageClassName; sc != nil && *sc != "" {
		for _, msg := range nameIsDNSSubdomain(*sc, false) {
			allErrs = append(allErrs, invalidAt(fldPath.Child("storageClassName"), *sc, msg))
		}
	}
	if vm := spec.VolumeMode; vm != nil && !contains(supportedVolumeModes, *vm) {
		allErrs = append(allErrs, notSupportedAt(fldPath.Child("volumeMode"), *vm, supportedVolumeModes))
	}
	if ds := spec.DataSource; ds != nil {
		allErrs = append(allErrs, validateDataSource(ds.Name, ds.Kind, ds.APIGroup, fldPath.Child("dataSource"))...)
	}
	if ref := spec.DataSourceRef; ref != nil {
		p := fldPath.Child("dataSourceRef")
		allErrs = append(allErrs, validateDataSource(ref.Name, ref.Kind, ref.APIGroup, p)...)
		if ref.Namespace != nil && *ref.Namespace != "" {
			for _, msg := range validation.IsDNS1123Label(*ref.Namespace) {
				allErrs = append(allErrs, invalidAt(p.Child("namespace"), *ref.Namespace, msg))
			}
		}
	}
	// Upstream reports the path of dataSource itself as the bad value.
	if ref := spec.DataSourceRef; ref != nil && ref.Namespace != nil && *ref.Namespace != "" {
		if spec.DataSource != nil {
			allErrs = append(allErrs, invalidAt(fldPath, fldPath.Child("dataSource").P(), "may not be specified when dataSourceRef.namespace is specified"))
		}
	} else if ds := spec.DataSource; ds != nil && ref != nil {
		if !reflect.DeepEqual(ds.APIGroup, ref.APIGroup) || ds.Kind != ref.Kind || ds.Name != ref.Name {
			allErrs = append(allErrs, invalidAt(fldPath, fldPath.Child("dataSource").P(), "must match dataSourceRef"))
		}
	}
	if vac := spec.VolumeAttributesClassName; vac != nil && *vac != "" {
		for _, msg := range nameIsDNSSubdomain(*vac, false) {
			allErrs = append(allErrs, invalidAt(fldPath.Child("volumeAttributesClassName"), *vac, msg))
		}
	}
	return allErrs
}

// validateDataSource mirrors upstream validateDataSource and the shared part of
// validateDataSourceRef.
func validateDataSource(name, kind string, apiGroup *string, fldPath lpath) field.ErrorList {
	var allErrs field.ErrorList
	if name == "" {
		allErrs = append(allErrs, requiredAt(fldPath.Child("name"), ""))
	}
	if kind == "" {
		allErrs = append(allErrs, requiredAt(fldPath.Child("kind"), ""))
	}
	group := ""
	if apiGroup != nil {
		group = *apiGroup
	}
	if group == "" && kind != "PersistentVolumeClaim" {
		allErrs = append(allErrs, invalidAt(fldPath, kind, "must be 'PersistentVolumeClaim' when referencing the default apiGroup"))
	}
	if group != "" {
		for _, msg := range validation.IsDNS1123Subdomain(group) {
			allErrs = append(allErrs, invalidAt(fldPath.Child("apiGroup"), group, msg))
		}
	}
	return allErrs
}
