package validation

import (
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Volume sources: upstream validateVolumeSource for emptyDir, hostPath, secret,
// configMap, persistentVolumeClaim, downwardAPI, projected, csi and image; the
// in-tree and ephemeral sources are in volumesources.go.

const (
	fileModeErrorMsg     = "must be a number between 0 and 0777 (octal), both inclusive"
	emptyDirModeErrorMsg = "must be a number between 0 and 01777 (octal), both inclusive"
)

var (
	// Both sorted, as upstream's sets.List renders them ("" first).
	supportedHostPathTypes = []corev1.HostPathType{
		corev1.HostPathUnset, corev1.HostPathBlockDev, corev1.HostPathCharDev, corev1.HostPathDirectory,
		corev1.HostPathDirectoryOrCreate, corev1.HostPathFile, corev1.HostPathFileOrCreate, corev1.HostPathSocket,
	}
	validVolumeFieldPaths = []string{"metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace", "metadata.uid"}
)

// validateFirstVolumeSource validates the source upstream validates in full: the
// first one set, in upstream's order. name is its path name.
func validateFirstVolumeSource(s *corev1.VolumeSource, name, volName, podName string, fldPath lpath, o *podValidationOptions) field.ErrorList {
	if errs, ok := validateInTreeSource(s, name, fldPath); ok {
		return errs
	}
	p := fldPath.Child(name)
	switch name {
	case "ephemeral":
		return validateEphemeralSource(s.Ephemeral, volName, podName, fldPath)
	case "emptyDir":
		var allErrs field.ErrorList
		if s.EmptyDir.SizeLimit != nil && s.EmptyDir.SizeLimit.Sign() < 0 {
			allErrs = append(allErrs, forbiddenAt(p.Child("sizeLimit"), "SizeLimit field must be a valid resource quantity"))
		}
		if m := s.EmptyDir.Mode; m != nil && (*m > 01777 || *m < 0) {
			allErrs = append(allErrs, invalidAt(p.Child("mode"), *m, emptyDirModeErrorMsg))
		}
		return allErrs
	case "hostPath":
		hp := s.HostPath
		if hp.Path == "" {
			return field.ErrorList{requiredAt(p.Child("path"), "")}
		}
		allErrs := validatePathNoBacksteps(hp.Path, p.Child("path"))
		if hp.Type != nil && !contains(supportedHostPathTypes, *hp.Type) {
			// Upstream passes the pointer as the bad value.
			allErrs = append(allErrs, notSupportedAt(p.Child("type"), hp.Type, supportedHostPathTypes))
		}
		return allErrs
	case "secret":
		var allErrs field.ErrorList
		if s.Secret.SecretName == "" {
			allErrs = append(allErrs, requiredAt(p.Child("secretName"), ""))
		}
		allErrs = append(allErrs, validateFileMode(s.Secret.DefaultMode, p.Child("defaultMode"))...)
		allErrs = append(allErrs, validateUserField(s.Secret.DefaultUser, p.Child("defaultUser"))...)
		items := p.elems("items", len(s.Secret.Items))
		for i := range s.Secret.Items {
			allErrs = append(allErrs, validateKeyToPath(&s.Secret.Items[i], items.Index(i))...)
		}
		return allErrs
	case "configMap":
		var allErrs field.ErrorList
		if s.ConfigMap.Name == "" {
			allErrs = append(allErrs, requiredAt(p.Child("name"), ""))
		}
		allErrs = append(allErrs, validateFileMode(s.ConfigMap.DefaultMode, p.Child("defaultMode"))...)
		allErrs = append(allErrs, validateUserField(s.ConfigMap.DefaultUser, p.Child("defaultUser"))...)
		items := p.elems("items", len(s.ConfigMap.Items))
		for i := range s.ConfigMap.Items {
			allErrs = append(allErrs, validateKeyToPath(&s.ConfigMap.Items[i], items.Index(i))...)
		}
		return allErrs
	case "projected":
		return validateProjectedVolumeSource(s.Projected, p, o)
	case "csi":
		allErrs := validateCSIDriverName(s.CSI.Driver, p.Child("driver"))
		if ref := s.CSI.NodePublishSecretRef; ref != nil {
			if ref.Name == "" {
				allErrs = append(allErrs, requiredAt(p.Children("nodePublishSecretRef", "name"), ""))
			} else {
				// Upstream reports a bad secret name at csi.name.
				for _, msg := range nameIsDNSSubdomain(ref.Name, false) {
					allErrs = append(allErrs, invalidAt(p.Child("name"), ref.Name, msg))
				}
			}
		}
		return allErrs
	case "image":
		var allErrs field.ErrorList
		if !o.allowEmptyImageVolumeReference && s.Image.Reference == "" {
			allErrs = append(allErrs, requiredAt(p.Child("reference"), ""))
		}
		return append(allErrs, validatePullPolicy(s.Image.PullPolicy, p.Child("pullPolicy"))...)
	case "persistentVolumeClaim":
		if s.PersistentVolumeClaim.ClaimName == "" {
			return field.ErrorList{requiredAt(p.Child("claimName"), "")}
		}
		return nil
	case "downwarAPI":
		// Upstream's Forbidden uses this spelling; its checks use "downwardAPI".
		d := s.DownwardAPI
		p = fldPath.Child("downwardAPI")
		allErrs := validateFileMode(d.DefaultMode, p.Child("defaultMode"))
		allErrs = append(allErrs, validateUserField(d.DefaultUser, p.Child("defaultUser"))...)
		for i := range d.Items {
			// Upstream validates every item at the downwardAPI path itself (no index).
			allErrs = append(allErrs, validateDownwardAPIVolumeFile(&d.Items[i], p)...)
		}
		return allErrs
	}
	return nil
}

func validateFileMode(m *int32, p lpath) field.ErrorList {
	if m != nil && (*m > 0777 || *m < 0) {
		return field.ErrorList{invalidAt(p, *m, fileModeErrorMsg)}
	}
	return nil
}

func validateUserField(user *int64, p lpath) field.ErrorList {
	if user == nil {
		return nil
	}
	var allErrs field.ErrorList
	for _, msg := range validation.IsValidUserID(*user) {
		allErrs = append(allErrs, invalidAt(p, *user, msg))
	}
	return allErrs
}

func validateKeyToPath(kp *corev1.KeyToPath, p lpath) field.ErrorList {
	var allErrs field.ErrorList
	if kp.Key == "" {
		allErrs = append(allErrs, requiredAt(p.Child("key"), ""))
	}
	if kp.Path == "" {
		allErrs = append(allErrs, requiredAt(p.Child("path"), ""))
	}
	allErrs = append(allErrs, validateLocalNonReservedPath(kp.Path, p.Child("path"))...)
	allErrs = append(allErrs, validateFileMode(kp.Mode, p.Child("mode"))...)
	return append(allErrs, validateUserField(kp.User, p.Child("user"))...)
}

// validateLocalNonReservedPath mirrors upstream ValidateLocalNonReservedPath.
func validateLocalNonReservedPath(target string, p lpath) field.ErrorList {
	allErrs := validateLocalDescendingPath(target, p)
	if strings.HasPrefix(target, "..") && !strings.HasPrefix(target, "../") {
		allErrs = append(allErrs, invalidAt(p, target, "must not start with '..'"))
	}
	return allErrs
}

func validateDownwardAPIVolumeFile(file *corev1.DownwardAPIVolumeFile, p lpath) field.ErrorList {
	var allErrs field.ErrorList
	if file.Path == "" {
		allErrs = append(allErrs, requiredAt(p.Child("path"), ""))
	}
	allErrs = append(allErrs, validateLocalNonReservedPath(file.Path, p.Child("path"))...)
	switch {
	case file.FieldRef != nil:
		allErrs = append(allErrs, validateObjectFieldSelector(file.FieldRef, validVolumeFieldPaths, p.Child("fieldRef"))...)
		if file.ResourceFieldRef != nil {
			allErrs = append(allErrs, invalidAt(p, "resource", "fieldRef and resourceFieldRef can not be specified simultaneously"))
		}
	case file.ResourceFieldRef != nil:
		allErrs = append(allErrs, validateResourceFieldSelector(file.ResourceFieldRef, true, p.Child("resourceFieldRef"))...)
	default:
		allErrs = append(allErrs, requiredAt(p, "one of fieldRef and resourceFieldRef is required"))
	}
	allErrs = append(allErrs, validateFileMode(file.Mode, p.Child("mode"))...)
	return append(allErrs, validateUserField(file.User, p.Child("user"))...)
}

// validateProjectedVolumeSource mirrors upstream validateProjectedVolumeSource and
// validateProjectionSources: secret, configMap, downwardAPI, serviceAccountToken,
// clusterTrustBundle and podCertificate sources, and the paths they share.
func validateProjectedVolumeSource(proj *corev1.ProjectedVolumeSource, fldPath lpath, o *podValidationOptions) field.ErrorList {
	allErrs := validateFileMode(proj.DefaultMode, fldPath.Child("defaultMode"))
	allErrs = append(allErrs, validateUserField(proj.DefaultUser, fldPath.Child("defaultUser"))...)
	var paths []string // paths used so far across all sources
	var pathSet map[string]struct{}
	seen := func(p string) bool {
		if pathSet != nil {
			_, dup := pathSet[p]
			pathSet[p] = struct{}{}
			return dup
		}
		if contains(paths, p) {
			return true
		}
		paths = append(paths, p)
		if len(paths) > indexAbove {
			// Many paths: a set, so that the check stays linear.
			pathSet = make(map[string]struct{}, 2*len(paths))
			for _, q := range paths {
				pathSet[q] = struct{}{}
			}
		}
		return false
	}
	// The duplicate-path errors all name fldPath: its text is built once.
	var dupField string
	duplicatePath := func(value string) *field.Error {
		if dupField == "" {
			dupField = fldPath.String()
		}
		return &field.Error{Type: field.ErrorTypeInvalid, Field: dupField, BadValue: value, Detail: "conflicting duplicate paths"}
	}
	for i := range proj.Sources {
		src := &proj.Sources[i]
		srcPath := fldPath.Child("sources").Index(i)
		n := 0
		if s := src.Secret; s != nil {
			n++
			p := srcPath.Child("secret")
			if s.Name == "" {
				allErrs = append(allErrs, requiredAt(p.Child("name"), ""))
			}
			items := p.elems("items", len(s.Items))
			for j := range s.Items {
				allErrs = append(allErrs, validateKeyToPath(&s.Items[j], items.Index(j))...)
				if s.Items[j].Path != "" && seen(s.Items[j].Path) {
					allErrs = append(allErrs, duplicatePath(s.Name))
				}
			}
		}
		if c := src.ConfigMap; c != nil {
			n++
			p := srcPath.Child("configMap")
			if c.Name == "" {
				allErrs = append(allErrs, requiredAt(p.Child("name"), ""))
			}
			items := p.elems("items", len(c.Items))
			for j := range c.Items {
				allErrs = append(allErrs, validateKeyToPath(&c.Items[j], items.Index(j))...)
				if c.Items[j].Path != "" && seen(c.Items[j].Path) {
					allErrs = append(allErrs, duplicatePath(c.Name))
				}
			}
		}
		if d := src.DownwardAPI; d != nil {
			n++
			p := srcPath.Child("downwardAPI")
			for j := range d.Items {
				allErrs = append(allErrs, validateDownwardAPIVolumeFile(&d.Items[j], p)...)
				if d.Items[j].Path != "" && seen(d.Items[j].Path) {
					allErrs = append(allErrs, duplicatePath(d.Items[j].Path))
				}
			}
		}
		if t := src.ServiceAccountToken; t != nil {
			n++
			p := srcPath.Child("serviceAccountToken")
			if exp := t.ExpirationSeconds; exp == nil {
				allErrs = append(allErrs, requiredAt(p.Child("expirationSeconds"), ""))
			} else {
				if *exp < 10*60 {
					allErrs = append(allErrs, invalidAt(p.Child("expirationSeconds"), *exp, "may not specify a duration less than 10 minutes"))
				}
				if *exp > 1<<32 {
					allErrs = append(allErrs, invalidAt(p.Child("expirationSeconds"), *exp, "may not specify a duration larger than 2^32 seconds"))
				}
			}
			// Upstream reports the token path at the projected volume's path.
			if t.Path == "" {
				allErrs = append(allErrs, requiredAt(fldPath.Child("path"), ""))
			} else if !o.allowNonLocalProjectedTokenPath {
				allErrs = append(allErrs, validateLocalNonReservedPath(t.Path, fldPath.Child("path"))...)
			}
			allErrs = append(allErrs, validateUserField(t.User, p.Child("user"))...)
		}
		if c := src.ClusterTrustBundle; c != nil {
			n++
			allErrs = append(allErrs, validateClusterTrustBundleProjection(c, srcPath.Child("clusterTrustBundle"))...)
			// Upstream records this path even when it is empty.
			if seen(c.Path) {
				allErrs = append(allErrs, duplicatePath(c.Path))
			}
		}
		if c := src.PodCertificate; c != nil {
			n++
			p := srcPath.Child("podCertificate")
			allErrs = append(allErrs, validatePodCertificateProjection(c, p)...)
			paths := [...]struct{ name, value string }{
				{"credentialBundlePath", c.CredentialBundlePath}, {"keyPath", c.KeyPath}, {"certificateChainPath", c.CertificateChainPath},
			}
			given := 0
			for _, cp := range paths {
				if cp.value == "" {
					continue
				}
				given++
				allErrs = append(allErrs, validateLocalNonReservedPath(cp.value, p.Child(cp.name))...)
				if seen(cp.value) {
					allErrs = append(allErrs, duplicatePath(cp.value))
				}
			}
			if given == 0 {
				allErrs = append(allErrs, requiredAt(p, "specify at least one of credentialBundlePath, keyPath, and certificateChainPath"))
			}
		}
		if n > 1 {
			allErrs = append(allErrs, forbiddenAt(srcPath, "may not specify more than 1 volume type per source"))
		}
	}
	return allErrs
}

// validateCSIDriverName mirrors upstream ValidateCSIDriverName as volumes use it.
func validateCSIDriverName(name string, p lpath) field.ErrorList {
	if name == "" {
		return field.ErrorList{requiredAt(p, "")}
	}
	var allErrs field.ErrorList
	if len(name) > 63 {
		allErrs = append(allErrs, field.TooLong(p.P(), "", 63))
	}
	for _, msg := range dns1123SubdomainErrs(strings.ToLower(name)) {
		allErrs = append(allErrs, invalidAt(p, name, msg))
	}
	return allErrs
}
