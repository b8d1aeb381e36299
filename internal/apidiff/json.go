package apidiff

import (
	"bytes"
	"encoding/json"
	"reflect"
	"sort"
	"strconv"

	corev1 "k8s.io/api/core/v1"
)

// PodSpec renders the difference between two specs as k8s.io/apimachinery
// pkg/util/diff.Diff does for upstream's internal PodSpec: a unified diff (three lines of
// context, no file header) of their JSON indented by one space. The internal types
// carry no JSON tags, so every field is printed under its Go name; in v1.37.2 they
// have the v1 types' fields in the v1 order, which lets the v1 spec stand in for them.
func PodSpec(a, b *corev1.PodSpec) string {
	aj, errA := internalJSON(reflect.ValueOf(a).Elem())
	bj, errB := internalJSON(reflect.ValueOf(b).Elem())
	if errA != nil || errB != nil {
		return ""
	}
	return Unified(SplitLines(aj), SplitLines(bj), 3)
}

// InternalJSON returns v as encoding/json.Marshal writes the internal type v stands
// for: structs of packages core/v1, apps/v1 and batch/v1 with every field under its
// Go name, in the v1 order (which is the internal order in v1.37.2), and the few
// pointer fields whose internal field is a value (the rolling-update parameters of
// apps/v1) written as the value, zero when nil.
func InternalJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	if err := writeInternal(&buf, reflect.ValueOf(v)); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// standsForInternal reports whether t is a type of the packages whose types stand in
// for upstream's tagless internal types: core/v1, apps/v1 and batch/v1.
func standsForInternal(t reflect.Type) bool {
	switch t.PkgPath() {
	case "k8s.io/api/core/v1", "k8s.io/api/apps/v1", "k8s.io/api/batch/v1":
		return true
	}
	return false
}

// internalValueField reports whether field name of the v1 struct t is a pointer whose
// internal counterpart is a value (k8s.io/kubernetes pkg/apis/apps types.go).
func internalValueField(t reflect.Type, name string) bool {
	if t.PkgPath() != "k8s.io/api/apps/v1" {
		return false
	}
	switch t.Name() + "." + name {
	case "RollingUpdateDeployment.MaxUnavailable", "RollingUpdateDeployment.MaxSurge",
		"RollingUpdateDaemonSet.MaxUnavailable", "RollingUpdateDaemonSet.MaxSurge",
		"RollingUpdateStatefulSetStrategy.Partition":
		return true
	}
	return false
}

// internalJSON renders v as encoding/json.MarshalIndent(v, "", " ") renders the
// internal type v stands for.
func internalJSON(v reflect.Value) (string, error) {
	var compact bytes.Buffer
	if err := writeInternal(&compact, v); err != nil {
		return "", err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, compact.Bytes(), "", " "); err != nil {
		return "", err
	}
	return out.String(), nil
}

// writeInternal writes v as compact JSON: structs of package core/v1 with every field
// under its Go name (embedded structs promoted), everything else as encoding/json
// writes it.
func writeInternal(buf *bytes.Buffer, v reflect.Value) error {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			buf.WriteString("null")
			return nil
		}
		return writeInternal(buf, v.Elem())
	case reflect.Struct:
		if !standsForInternal(v.Type()) {
			return writeJSON(buf, v)
		}
		buf.WriteByte('{')
		first := true
		if err := writeFields(buf, v, &first); err != nil {
			return err
		}
		buf.WriteByte('}')
		return nil
	case reflect.Slice:
		if v.IsNil() {
			buf.WriteString("null")
			return nil
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return writeJSON(buf, v)
		}
		buf.WriteByte('[')
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := writeInternal(buf, v.Index(i)); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
		return nil
	case reflect.Map:
		if v.IsNil() {
			buf.WriteString("null")
			return nil
		}
		keys := v.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
		buf.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := writeJSON(buf, reflect.ValueOf(k.String())); err != nil {
				return err
			}
			buf.WriteByte(':')
			if err := writeInternal(buf, v.MapIndex(k)); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
		return nil
	}
	return writeJSON(buf, v)
}

// writeFields writes the fields of a struct standing for an internal type, promoting embedded structs as
// encoding/json does for untagged embedded fields.
func writeFields(buf *bytes.Buffer, v reflect.Value, first *bool) error {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		fv := v.Field(i)
		if f.Anonymous {
			if fv.Kind() == reflect.Pointer {
				if fv.IsNil() {
					continue
				}
				fv = fv.Elem()
			}
			if fv.Kind() == reflect.Struct && !standsForInternal(fv.Type()) {
				// A tagged type (metav1.ObjectMeta in a claim template): encoding/json
				// promotes its fields under their tags, omitting the empty ones.
				if err := writePromoted(buf, fv, first); err != nil {
					return err
				}
				continue
			}
			if fv.Kind() == reflect.Struct {
				if err := writeFields(buf, fv, first); err != nil {
					return err
				}
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if !*first {
			buf.WriteByte(',')
		}
		*first = false
		buf.WriteString(strconv.Quote(f.Name))
		buf.WriteByte(':')
		if fv.Kind() == reflect.Pointer && fv.IsNil() && internalValueField(t, f.Name) {
			fv = reflect.Zero(fv.Type().Elem())
		}
		if err := writeInternal(buf, fv); err != nil {
			return err
		}
	}
	return nil
}

// writePromoted writes the members encoding/json writes for v, an embedded struct of a
// tagged type, as members of the enclosing object.
func writePromoted(buf *bytes.Buffer, v reflect.Value, first *bool) error {
	b, err := json.Marshal(v.Interface())
	if err != nil {
		return err
	}
	members := bytes.TrimSpace(b)
	members = bytes.TrimSuffix(bytes.TrimPrefix(members, []byte("{")), []byte("}"))
	if len(members) == 0 {
		return nil
	}
	if !*first {
		buf.WriteByte(',')
	}
	*first = false
	buf.Write(members)
	return nil
}

func writeJSON(buf *bytes.Buffer, v reflect.Value) error {
	b, err := json.Marshal(v.Interface())
	if err != nil {
		return err
	}
	buf.Write(b)
	return nil
}

// HoldsInternal reports whether values of type t print differently as the internal
// type they stand for: t is, or points to, or is a list or map of, a struct of
// core/v1, apps/v1 or batch/v1.
func HoldsInternal(t reflect.Type) bool {
	for t != nil {
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
			t = t.Elem()
		case reflect.Struct:
			return standsForInternal(t)
		default:
			return false
		}
	}
	return false
}
