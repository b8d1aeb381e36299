package validation

import (
	"reflect"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// claimValidationOptions mirrors the part of PersistentVolumeClaimSpecValidationOptions
// (k8s.io/kubernetes pkg/apis/core/validation) the claim spec rules read.
type claimValidationOptions struct {
	// enableVolumeAttributesClass validates volumeAttributesClassName.
	enableVolumeAttributesClass bool
}

// claimOptions mirrors ValidationOptionsForPersistentVolumeClaimCreate, which a
// StatefulSet's claim templates are validated with.
func claimOptions(opts Options) claimValidationOptions {
	return claimValidationOptions{enableVolumeAttributesClass: opts.Features.Resolve().VolumeAttributesClass}
}

// supportedAccessModes is upstream's set of access modes, sorted as sets.List sorts it.
var supportedAccessModes = []corev1.PersistentVolumeAccessMode{
	corev1.ReadOnlyMany, corev1.ReadWriteMany, corev1.ReadWriteOnce, corev1.ReadWriteOncePod,
}

// supportedVolumeModes is upstream's set of volume modes, sorted.
var supportedVolumeModes = []corev1.PersistentVolumeMode{corev1.PersistentVolumeBlock, corev1.PersistentVolumeFilesystem}

// validateClaimSpec mirrors ValidatePersistentVolumeClaimSpec.
func validateClaimSpec(spec *corev1.PersistentVolumeClaimSpec, fldPath lpath, o claimValidationOptions) field.ErrorList {
	var errs field.ErrorList
	modesPath := fldPath.Child("accessModes")
	if len(spec.AccessModes) == 0 {
		errs = append(errs, field.Required(modesPath.P(), "at least 1 access mode is required"))
	}
	if spec.Selector != nil {
		errs = append(errs, validateLabelSelector(spec.Selector, false, fldPath.Child("selector"))...)
	}
	foundRWOP, foundOther := false, false
	for _, m := range spec.AccessModes {
		supported := false
		for _, s := range supportedAccessModes {
			if m == s {
				supported = true
			}
		}
		if !supported {
			errs = append(errs, field.NotSupported(modesPath.P(), m, supportedAccessModes))
		}
		if m == corev1.ReadWriteOncePod {
			foundRWOP = true
		} else if supported {
			foundOther = true
		}
	}
	if foundRWOP && foundOther {
		errs = append(errs, field.Forbidden(modesPath.P(), "may not use ReadWriteOncePod with other access modes"))
	}

	storagePath := fldPath.Child("resources").Key(string(corev1.ResourceStorage))
	if q, ok := spec.Resources.Requests[corev1.ResourceStorage]; !ok {
		errs = append(errs, field.Required(storagePath.P(), ""))
	} else if q.Cmp(resource.Quantity{}) <= 0 {
		errs = append(errs, field.Invalid(storagePath.P(), q.String(), "must be greater than zero"))
	} else {
		errs = append(errs, validateResourceQuantityValue(corev1.ResourceStorage, q, fldPath.Child("resources"))...)
	}

	if spec.StorageClassName != nil && len(*spec.StorageClassName) > 0 {
		for _, msg := range nameIsDNSSubdomain(*spec.StorageClassName, false) {
			errs = append(errs, field.Invalid(fldPath.Child("storageClassName").P(), *spec.StorageClassName, msg))
		}
	}
	if spec.VolumeMode != nil && *spec.VolumeMode != corev1.PersistentVolumeBlock && *spec.VolumeMode != corev1.PersistentVolumeFilesystem {
		errs = append(errs, field.NotSupported(fldPath.Child("volumeMode").P(), *spec.VolumeMode, supportedVolumeModes))
	}
	if ds := spec.DataSource; ds != nil {
		errs = append(errs, validateDataSource(ds.Name, ds.Kind, ds.APIGroup, fldPath.Child("dataSource"))...)
	}
	if ref := spec.DataSourceRef; ref != nil {
		refPath := fldPath.Child("dataSourceRef")
		errs = append(errs, validateDataSource(ref.Name, ref.Kind, ref.APIGroup, refPath)...)
		if ref.Namespace != nil && len(*ref.Namespace) > 0 {
			for _, msg := range nameIsDNSLabel(*ref.Namespace, false) {
				errs = append(errs, field.Invalid(refPath.Child("namespace").P(), *ref.Namespace, msg))
			}
		}
	}
	if ref := spec.DataSourceRef; ref != nil && ref.Namespace != nil && len(*ref.Namespace) > 0 {
		if spec.DataSource != nil {
			errs = append(errs, field.Invalid(fldPath.P(), fldPath.Child("dataSource"), "may not be specified when dataSourceRef.namespace is specified"))
		}
	} else if spec.DataSource != nil && spec.DataSourceRef != nil {
		ds := spec.DataSource
		if !reflect.DeepEqual(ds.APIGroup, ref.APIGroup) || ds.Kind != ref.Kind || ds.Name != ref.Name {
			errs = append(errs, field.Invalid(fldPath.P(), fldPath.Child("dataSource"), "must match dataSourceRef"))
		}
	}
	if c := spec.VolumeAttributesClassName; c != nil && len(*c) > 0 && o.enableVolumeAttributesClass {
		for _, msg := range nameIsDNSSubdomain(*c, false) {
			errs = append(errs, field.Invalid(fldPath.Child("volumeAttributesClassName").P(), *c, msg))
		}
	}
	return errs
}

// validateDataSource mirrors validateDataSource and the shared part of
// validateDataSourceRef (a claim is never validated with invalid API groups allowed
// on create).
func validateDataSource(name, kind string, apiGroup *string, fldPath lpath) field.ErrorList {
	var errs field.ErrorList
	if name == "" {
		errs = append(errs, field.Required(fldPath.Child("name").P(), ""))
	}
	if kind == "" {
		errs = append(errs, field.Required(fldPath.Child("kind").P(), ""))
	}
	group := ""
	if apiGroup != nil {
		group = *apiGroup
	}
	if group == "" && kind != "PersistentVolumeClaim" {
		errs = append(errs, field.Invalid(fldPath.P(), kind, "must be 'PersistentVolumeClaim' when referencing the default apiGroup"))
	}
	if group != "" {
		for _, msg := range dns1123SubdomainErrs(group) {
			errs = append(errs, field.Invalid(fldPath.Child("apiGroup").P(), group, msg))
		}
	}
	return errs
}
