package validation

import (
	"path"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// validateEnv mirrors upstream ValidateEnv.
func validateEnv(vars []corev1.EnvVar, fldPath lpath, o *podValidationOptions) field.ErrorList {
	var allErrs field.ErrorList
	for i := range vars {
		ev := &vars[i]
		idxPath := fldPath.Index(i)
		if ev.Name == "" {
			allErrs = append(allErrs, requiredAt(idxPath.Child("name"), ""))
		} else {
			for _, msg := range envVarNameErrors(ev.Name, o) {
				allErrs = append(allErrs, invalidAt(idxPath.Child("name"), ev.Name, msg))
			}
		}
		if ev.ValueFrom != nil {
			allErrs = append(allErrs, validateEnvVarValueFrom(ev, idxPath.Child("valueFrom"), o)...)
		}
	}
	return allErrs
}

func envVarNameErrors(name string, o *podValidationOptions) []string {
	if o.allowRelaxedEnvironmentVariableValidation {
		return isRelaxedEnvVarName(name)
	}
	return isEnvVarName(name)
}

func isEnvVarName(name string) []string        { return validation.IsEnvVarName(name) }
func isRelaxedEnvVarName(name string) []string { return validation.IsRelaxedEnvVarName(name) }

var (
	// Sorted, as upstream's sets.List renders them.
	validEnvFieldPaths = []string{
		"metadata.name", "metadata.namespace", "metadata.uid",
		"spec.nodeName", "spec.serviceAccountName",
		"status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs",
	}
	validEnvResourceFieldPaths = []string{
		"limits.cpu", "limits.ephemeral-storage", "limits.memory",
		"requests.cpu", "requests.ephemeral-storage", "requests.memory",
	}
)

const (
	hugepagesRequestsPrefixDownwardAPI = "requests.hugepages-"
	hugepagesLimitsPrefixDownwardAPI   = "limits.hugepages-"
)

func validateEnvVarValueFrom(ev *corev1.EnvVar, fldPath lpath, o *podValidationOptions) field.ErrorList {
	var allErrs field.ErrorList
	vf := ev.ValueFrom
	n := 0
	if vf.FieldRef != nil {
		n++
		allErrs = append(allErrs, validateObjectFieldSelector(vf.FieldRef, validEnvFieldPaths, fldPath.Child("fieldRef"))...)
	}
	if vf.ResourceFieldRef != nil {
		n++
		allErrs = append(allErrs, validateContainerResourceFieldSelector(vf.ResourceFieldRef, fldPath.Child("resourceFieldRef"))...)
	}
	if vf.ConfigMapKeyRef != nil {
		n++
		allErrs = append(allErrs, validateKeySelector(vf.ConfigMapKeyRef.Name, vf.ConfigMapKeyRef.Key, fldPath.Child("configMapKeyRef"))...)
	}
	if vf.SecretKeyRef != nil {
		n++
		allErrs = append(allErrs, validateKeySelector(vf.SecretKeyRef.Name, vf.SecretKeyRef.Key, fldPath.Child("secretKeyRef"))...)
	}
	if vf.FileKeyRef != nil {
		n++
		allErrs = append(allErrs, validateFileKeySelector(vf.FileKeyRef, fldPath.Child("fileKeyRef"))...)
	}
	switch {
	case n == 0 && o.allowEnvFilesValidation:
		allErrs = append(allErrs, invalidAt(fldPath, "", "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef`, `secretKeyRef` or `fileKeyRef`"))
	case n == 0:
		allErrs = append(allErrs, invalidAt(fldPath, "", "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`"))
	case ev.Value != "":
		allErrs = append(allErrs, invalidAt(fldPath, "", "may not be specified when `value` is not empty"))
	case n > 1:
		allErrs = append(allErrs, invalidAt(fldPath, "", "may not have more than one field specified at a time"))
	}
	return allErrs
}

// validateObjectFieldSelector mirrors upstream validateObjectFieldSelector, including
// the downward-API label conversion of k8s.io/kubernetes pkg/apis/core/pods.
func validateObjectFieldSelector(fs *corev1.ObjectFieldSelector, expressions []string, fldPath lpath) field.ErrorList {
	if fs.APIVersion == "" {
		return field.ErrorList{requiredAt(fldPath.Child("apiVersion"), "")}
	}
	if fs.FieldPath == "" {
		return field.ErrorList{requiredAt(fldPath.Child("fieldPath"), "")}
	}
	internal, errMsg := convertDownwardAPIFieldLabel(fs.APIVersion, fs.FieldPath)
	if errMsg != "" {
		return field.ErrorList{invalidAt(fldPath.Child("fieldPath"), fs.FieldPath, "error converting fieldPath: "+errMsg)}
	}
	if p, subscript, ok := splitMaybeSubscriptedPath(internal); ok {
		switch p {
		case "metadata.annotations":
			return validateQualifiedName(strings.ToLower(subscript), fldPath)
		case "metadata.labels":
			return validateQualifiedName(subscript, fldPath)
		default:
			return field.ErrorList{invalidAt(fldPath, p, "does not support subscript")}
		}
	}
	for _, e := range expressions {
		if e == internal {
			return nil
		}
	}
	return field.ErrorList{notSupportedAt(fldPath.Child("fieldPath"), internal, expressions)}
}

func convertDownwardAPIFieldLabel(version, label string) (string, string) {
	if version != "v1" {
		return "", "unsupported pod version: " + version
	}
	if p, _, ok := splitMaybeSubscriptedPath(label); ok {
		if p == "metadata.annotations" || p == "metadata.labels" {
			return label, ""
		}
		return "", "field label does not support subscript: " + label
	}
	switch label {
	case "metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace",
		"metadata.uid", "spec.nodeName", "spec.restartPolicy", "spec.serviceAccountName",
		"spec.schedulerName", "status.phase", "status.hostIP", "status.hostIPs",
		"status.podIP", "status.podIPs":
		return label, ""
	case "spec.host":
		// Old v1 clients send spec.host.
		return "spec.nodeName", ""
	}
	return "", "field label not supported: " + label
}

// splitMaybeSubscriptedPath mirrors k8s.io/kubernetes pkg/fieldpath
// SplitMaybeSubscriptedPath: "metadata.labels['a']" → ("metadata.labels", "a", true).
func splitMaybeSubscriptedPath(fieldPath string) (string, string, bool) {
	if !strings.HasSuffix(fieldPath, "']") {
		return fieldPath, "", false
	}
	s := strings.TrimSuffix(fieldPath, "']")
	before, after, found := strings.Cut(s, "['")
	if !found || before == "" {
		return fieldPath, "", false
	}
	return before, after, true
}

func validateContainerResourceFieldSelector(fs *corev1.ResourceFieldSelector, fldPath lpath) field.ErrorList {
	return validateResourceFieldSelector(fs, false, fldPath)
}

// validateResourceFieldSelector mirrors upstream validateContainerResourceFieldSelector;
// volume selectors must also name their container.
func validateResourceFieldSelector(fs *corev1.ResourceFieldSelector, volume bool, fldPath lpath) field.ErrorList {
	var allErrs field.ErrorList
	if volume && fs.ContainerName == "" {
		allErrs = append(allErrs, requiredAt(fldPath.Child("containerName"), ""))
	} else if fs.Resource == "" {
		allErrs = append(allErrs, requiredAt(fldPath.Child("resource"), ""))
	} else if !contains(validEnvResourceFieldPaths, fs.Resource) &&
		!strings.HasPrefix(fs.Resource, hugepagesLimitsPrefixDownwardAPI) &&
		!strings.HasPrefix(fs.Resource, hugepagesRequestsPrefixDownwardAPI) {
		allErrs = append(allErrs, notSupportedAt(fldPath.Child("resource"), fs.Resource, validEnvResourceFieldPaths))
	}
	return append(allErrs, validateContainerResourceDivisor(fs.Resource, fs.Divisor, fldPath)...)
}

func contains[T comparable](list []T, s T) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

// isByteDivisor reports whether d is one of the divisors upstream accepts for memory,
// ephemeral storage and hugepages: 1, 1k…1E, 1Ki…1Ei.
func isByteDivisor(d string) bool {
	switch d {
	case "1", "1k", "1M", "1G", "1T", "1P", "1E", "1Ki", "1Mi", "1Gi", "1Ti", "1Pi", "1Ei":
		return true
	}
	return false
}

func validateContainerResourceDivisor(rName string, divisor resource.Quantity, fldPath lpath) field.ErrorList {
	if divisor.IsZero() {
		return nil
	}
	var allErrs field.ErrorList
	d := divisor.String()
	divPath := fldPath.Child("divisor")
	switch rName {
	case "limits.cpu", "requests.cpu":
		if d != "1m" && d != "1" {
			allErrs = append(allErrs, invalidAt(divPath, rName, "only divisor's values 1m and 1 are supported with the cpu resource"))
		}
	case "limits.memory", "requests.memory":
		if !isByteDivisor(d) {
			allErrs = append(allErrs, invalidAt(divPath, rName, "only divisor's values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the memory resource"))
		}
	case "limits.ephemeral-storage", "requests.ephemeral-storage":
		if !isByteDivisor(d) {
			allErrs = append(allErrs, invalidAt(divPath, rName, "only divisor's values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the local ephemeral storage resource"))
		}
	}
	if strings.HasPrefix(rName, hugepagesRequestsPrefixDownwardAPI) || strings.HasPrefix(rName, hugepagesLimitsPrefixDownwardAPI) {
		if !isByteDivisor(d) {
			allErrs = append(allErrs, invalidAt(divPath, rName, "only divisor's values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the hugepages resource"))
		}
	}
	return allErrs
}

// validateKeySelector is upstream validateConfigMapKeySelector / validateSecretKeySelector
// (identical rules).
func validateKeySelector(name, key string, fldPath lpath) field.ErrorList {
	var allErrs field.ErrorList
	for _, msg := range nameIsDNSSubdomain(name, false) {
		allErrs = append(allErrs, invalidAt(fldPath.Child("name"), name, msg))
	}
	if key == "" {
		allErrs = append(allErrs, requiredAt(fldPath.Child("key"), ""))
	} else {
		for _, msg := range validation.IsConfigMapKey(key) {
			allErrs = append(allErrs, invalidAt(fldPath.Child("key"), key, msg))
		}
	}
	return allErrs
}

func validateFileKeySelector(s *corev1.FileKeySelector, fldPath lpath) field.ErrorList {
	var allErrs field.ErrorList
	if s.Key == "" {
		allErrs = append(allErrs, requiredAt(fldPath.Child("key"), ""))
	} else {
		for _, msg := range validation.IsRelaxedEnvVarName(s.Key) {
			allErrs = append(allErrs, invalidAt(fldPath.Child("key"), s.Key, msg))
		}
	}
	if s.VolumeName == "" {
		allErrs = append(allErrs, requiredAt(fldPath.Child("volumeName"), ""))
	} else {
		allErrs = append(allErrs, validateDNS1123Label(s.VolumeName, fldPath.Child("volumeName"))...)
	}
	if s.Path == "" {
		allErrs = append(allErrs, requiredAt(fldPath.Child("path"), ""))
	} else {
		allErrs = append(allErrs, validatePathNoBacksteps(s.Path, fldPath.Child("path"))...)
	}
	return allErrs
}

// validateEnvFrom mirrors upstream ValidateEnvFrom, including its unindexed path for
// the source-count errors.
func validateEnvFrom(vars []corev1.EnvFromSource, fldPath lpath, o *podValidationOptions) field.ErrorList {
	var allErrs field.ErrorList
	for i := range vars {
		ev := &vars[i]
		idxPath := fldPath.Index(i)
		if ev.Prefix != "" {
			for _, msg := range envVarNameErrors(ev.Prefix, o) {
				allErrs = append(allErrs, invalidAt(idxPath.Child("prefix"), ev.Prefix, msg))
			}
		}
		n := 0
		if ev.ConfigMapRef != nil {
			n++
			allErrs = append(allErrs, validateEnvSourceName(ev.ConfigMapRef.Name, idxPath.Child("configMapRef"))...)
		}
		if ev.SecretRef != nil {
			n++
			allErrs = append(allErrs, validateEnvSourceName(ev.SecretRef.Name, idxPath.Child("secretRef"))...)
		}
		switch {
		case n == 0:
			allErrs = append(allErrs, invalidAt(fldPath, "", "must specify one of: `configMapRef` or `secretRef`"))
		case n > 1:
			allErrs = append(allErrs, invalidAt(fldPath, "", "may not have more than one field specified at a time"))
		}
	}
	return allErrs
}

func validateEnvSourceName(name string, fldPath lpath) field.ErrorList {
	if name == "" {
		return field.ErrorList{requiredAt(fldPath.Child("name"), "")}
	}
	var allErrs field.ErrorList
	for _, msg := range nameIsDNSSubdomain(name, true) {
		allErrs = append(allErrs, invalidAt(fldPath.Child("name"), name, msg))
	}
	return allErrs
}

// indexAbove is the list length above which the lookups below index the list
// (once, in time linear in the list) instead of scanning it on each lookup, so that
// a container with 10,000 mounts costs 10,000 steps, not 10,000².
const indexAbove = 16

// namedPaths answers upstream's questions about a container's mounts or devices: is
// there an entry of a name, and is a path the path of the last entry of some name
// (upstream builds the name→path maps GetVolumeMountMap and GetVolumeDeviceMap, in
// which the last entry of a name wins, and searches their values). A short list is
// scanned; a long one is indexed.
type namedPaths[T any] struct {
	items        []T
	name, pathOf func(*T) string
	names, paths map[string]struct{}
}

func newNamedPaths[T any](items []T, name, pathOf func(*T) string) namedPaths[T] {
	x := namedPaths[T]{items: items, name: name, pathOf: pathOf}
	if len(items) > indexAbove {
		last := make(map[string]string, len(items))
		for i := range items {
			last[name(&items[i])] = pathOf(&items[i])
		}
		x.names, x.paths = make(map[string]struct{}, len(last)), make(map[string]struct{}, len(last))
		for n, p := range last {
			x.names[n], x.paths[p] = struct{}{}, struct{}{}
		}
	}
	return x
}

func (x *namedPaths[T]) hasName(n string) bool {
	if x.names != nil {
		_, ok := x.names[n]
		return ok
	}
	return hasName(x.items, x.name, n)
}

func (x *namedPaths[T]) hasLastPath(p string) bool {
	if x.paths != nil {
		_, ok := x.paths[p]
		return ok
	}
	return hasPathValue(x.items, x.name, x.pathOf, p)
}

// seenSet answers "does an earlier entry of the list have this key", for a loop that
// visits the list in order and asks once per entry: a short list is scanned, a long
// one remembers the keys visited.
type seenSet struct {
	keys map[string]struct{}
}

func newSeenSet(n int) seenSet {
	if n > indexAbove {
		return seenSet{keys: make(map[string]struct{}, n)}
	}
	return seenSet{}
}

// seen reports whether one of earlier (the entries before the current one) has key k,
// then records k as the current entry's key.
func seen[T any](s *seenSet, earlier []T, key func(*T) string, k string) bool {
	if s.keys == nil {
		return hasName(earlier, key, k)
	}
	_, ok := s.keys[k]
	s.keys[k] = struct{}{}
	return ok
}

// memberSet answers "is v in the list" for a list asked many times: a short list is
// scanned, a long one indexed once.
type memberSet[T comparable] struct {
	set map[T]struct{}
}

func newMemberSet[T comparable](list []T) memberSet[T] {
	if len(list) <= indexAbove {
		return memberSet[T]{}
	}
	set := make(map[T]struct{}, len(list))
	for _, v := range list {
		set[v] = struct{}{}
	}
	return memberSet[T]{set: set}
}

// has reports whether v is in list, the list the set was made from.
func (s memberSet[T]) has(list []T, v T) bool {
	if s.set == nil {
		return contains(list, v)
	}
	_, ok := s.set[v]
	return ok
}

// hasPathValue reports whether p is the path of the last entry of some name, as
// upstream's name→path maps (GetVolumeMountMap, GetVolumeDeviceMap) keep it.
func hasPathValue[T any](items []T, name func(*T) string, pathOf func(*T) string, p string) bool {
	for i := range items {
		if pathOf(&items[i]) != p {
			continue
		}
		n := name(&items[i])
		last := true
		for j := i + 1; j < len(items); j++ {
			if name(&items[j]) == n {
				last = false
				break
			}
		}
		if last {
			return true
		}
	}
	return false
}

func mountName(m *corev1.VolumeMount) string   { return m.Name }
func mountPath(m *corev1.VolumeMount) string   { return m.MountPath }
func deviceName(d *corev1.VolumeDevice) string { return d.Name }
func devicePath(d *corev1.VolumeDevice) string { return d.DevicePath }

func hasName[T any](items []T, name func(*T) string, n string) bool {
	for i := range items {
		if name(&items[i]) == n {
			return true
		}
	}
	return false
}

var supportedMountPropagations = []corev1.MountPropagationMode{corev1.MountPropagationBidirectional, corev1.MountPropagationHostToContainer, corev1.MountPropagationNone}
var supportedRecursiveReadOnly = []corev1.RecursiveReadOnlyMode{corev1.RecursiveReadOnlyDisabled, corev1.RecursiveReadOnlyEnabled, corev1.RecursiveReadOnlyIfPossible}
var supportedBindMountOptions = []string{"noexec", "nodev", "nosuid"}
var sortedBindMountOptions = []string{"nodev", "noexec", "nosuid"}

// validateVolumeMounts mirrors upstream ValidateVolumeMounts, including its unindexed
// paths for subPath, subPathExpr, mountPropagation and recursiveReadOnly.
func validateVolumeMounts(ctr *corev1.Container, volumes map[string]*corev1.VolumeSource, fldPath lpath) field.ErrorList {
	var allErrs field.ErrorList
	mounts, devices := ctr.VolumeMounts, ctr.VolumeDevices
	devs := newNamedPaths(devices, deviceName, devicePath)
	earlier := newSeenSet(len(mounts))
	for i := range mounts {
		mnt := &mounts[i]
		idxPath := fldPath.Index(i)
		if mnt.Name == "" {
			allErrs = append(allErrs, requiredAt(idxPath.Child("name"), ""))
		}
		if _, ok := volumes[mnt.Name]; !ok {
			allErrs = append(allErrs, notFoundAt(idxPath.Child("name"), mnt.Name))
		}
		if mnt.MountPath == "" {
			allErrs = append(allErrs, requiredAt(idxPath.Child("mountPath"), ""))
		}
		if seen(&earlier, mounts[:i], mountPath, mnt.MountPath) {
			allErrs = append(allErrs, invalidAt(idxPath.Child("mountPath"), mnt.MountPath, "must be unique"))
		}
		if devs.hasName(mnt.Name) {
			allErrs = append(allErrs, invalidAt(idxPath.Child("name"), mnt.Name, "must not already exist in volumeDevices"))
		}
		if devs.hasLastPath(mnt.MountPath) {
			allErrs = append(allErrs, invalidAt(idxPath.Child("mountPath"), mnt.MountPath, "must not already exist as a path in volumeDevices"))
		}
		if mnt.SubPath != "" {
			allErrs = append(allErrs, validateLocalDescendingPath(mnt.SubPath, fldPath.Child("subPath"))...)
		}
		if mnt.SubPathExpr != "" {
			if mnt.SubPath != "" {
				allErrs = append(allErrs, invalidAt(idxPath.Child("subPathExpr"), mnt.SubPathExpr, "subPathExpr and subPath are mutually exclusive"))
			}
			allErrs = append(allErrs, validateLocalDescendingPath(mnt.SubPathExpr, fldPath.Child("subPathExpr"))...)
		}
		if mp := mnt.MountPropagation; mp != nil {
			propPath := fldPath.Child("mountPropagation")
			switch *mp {
			case corev1.MountPropagationBidirectional, corev1.MountPropagationHostToContainer, corev1.MountPropagationNone:
			default:
				allErrs = append(allErrs, notSupportedAt(propPath, *mp, supportedMountPropagations))
			}
			sc := ctr.SecurityContext
			privileged := sc != nil && sc.Privileged != nil && *sc.Privileged
			if *mp == corev1.MountPropagationBidirectional && !privileged {
				allErrs = append(allErrs, forbiddenAt(propPath, "Bidirectional mount propagation is available only to privileged containers"))
			}
		}
		if rro := mnt.RecursiveReadOnly; rro != nil {
			rroPath := fldPath.Child("recursiveReadOnly")
			switch *rro {
			case corev1.RecursiveReadOnlyDisabled:
			case corev1.RecursiveReadOnlyEnabled, corev1.RecursiveReadOnlyIfPossible:
				if !mnt.ReadOnly {
					allErrs = append(allErrs, forbiddenAt(rroPath, "may only be specified when readOnly is true"))
				}
				if mnt.MountPropagation != nil && *mnt.MountPropagation != corev1.MountPropagationNone {
					allErrs = append(allErrs, forbiddenAt(rroPath, "may only be specified when mountPropagation is None or not specified"))
				}
			default:
				allErrs = append(allErrs, notSupportedAt(rroPath, *rro, supportedRecursiveReadOnly))
			}
		}
		if len(mnt.BindMountOptions) > 0 {
			optPath := idxPath.Child("bindMountOptions")
			for j, opt := range mnt.BindMountOptions {
				if !contains(supportedBindMountOptions, opt) {
					allErrs = append(allErrs, notSupportedAt(optPath.Index(j), opt, sortedBindMountOptions))
				}
				if contains(mnt.BindMountOptions[:j], opt) {
					allErrs = append(allErrs, duplicateAt(optPath.Index(j), opt))
				}
			}
			if vs, ok := volumes[mnt.Name]; ok && vs.Image != nil {
				allErrs = append(allErrs, invalidAt(optPath, mnt.BindMountOptions, "bindMountOptions may not be used with image volumes"))
			}
		}
	}
	return allErrs
}

// validateVolumeDevices mirrors upstream ValidateVolumeDevices.
func validateVolumeDevices(ctr *corev1.Container, volumes map[string]*corev1.VolumeSource, fldPath lpath) field.ErrorList {
	var allErrs field.ErrorList
	devices, mounts := ctr.VolumeDevices, ctr.VolumeMounts
	mnts := newNamedPaths(mounts, mountName, mountPath)
	earlier := newSeenSet(len(devices))
	var seenPaths map[string]struct{}
	for i := range devices {
		dev := &devices[i]
		idxPath := fldPath.Index(i)
		vs, matched := volumes[dev.Name]
		isPVC := matched && (vs.PersistentVolumeClaim != nil || vs.Ephemeral != nil)
		if dev.Name == "" {
			allErrs = append(allErrs, requiredAt(idxPath.Child("name"), ""))
		}
		// Upstream records only non-empty names as seen.
		if seen(&earlier, devices[:i], deviceName, dev.Name) && dev.Name != "" {
			allErrs = append(allErrs, invalidAt(idxPath.Child("name"), dev.Name, "must be unique"))
		}
		if matched && !isPVC {
			allErrs = append(allErrs, invalidAt(idxPath.Child("name"), dev.Name, "can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode"))
		}
		if !matched {
			allErrs = append(allErrs, notFoundAt(idxPath.Child("name"), dev.Name))
		}
		if dev.DevicePath == "" {
			allErrs = append(allErrs, requiredAt(idxPath.Child("devicePath"), ""))
		}
		if _, dup := seenPaths[dev.DevicePath]; dup {
			allErrs = append(allErrs, invalidAt(idxPath.Child("devicePath"), dev.DevicePath, "must be unique"))
		}
		if dev.DevicePath != "" && hasBackstep(dev.DevicePath) {
			allErrs = append(allErrs, invalidAt(idxPath.Child("devicePath"), dev.DevicePath, "can not contain backsteps ('..')"))
		} else {
			if seenPaths == nil {
				seenPaths = make(map[string]struct{}, len(devices))
			}
			seenPaths[dev.DevicePath] = struct{}{}
		}
		if mnts.hasName(dev.Name) {
			allErrs = append(allErrs, invalidAt(idxPath.Child("name"), dev.Name, "must not already exist in volumeMounts"))
		}
		if mnts.hasLastPath(dev.DevicePath) {
			allErrs = append(allErrs, invalidAt(idxPath.Child("devicePath"), dev.DevicePath, "must not already exist as a path in volumeMounts"))
		}
	}
	return allErrs
}

func validateLocalDescendingPath(target string, fldPath lpath) field.ErrorList {
	var allErrs field.ErrorList
	if path.IsAbs(target) {
		allErrs = append(allErrs, invalidAt(fldPath, target, "must be a relative path"))
	}
	return append(allErrs, validatePathNoBacksteps(target, fldPath)...)
}

func validatePathNoBacksteps(target string, fldPath lpath) field.ErrorList {
	if hasBackstep(target) {
		return field.ErrorList{invalidAt(fldPath, target, "must not contain '..'")}
	}
	return nil
}

// hasBackstep reports a ".." element in the slash-separated path (upstream splits
// filepath.ToSlash(p) on "/"; on Linux ToSlash is the identity).
func hasBackstep(p string) bool {
	for p != "" {
		var elem string
		elem, p, _ = strings.Cut(p, "/")
		if elem == ".." {
			return true
		}
	}
	return false
}
