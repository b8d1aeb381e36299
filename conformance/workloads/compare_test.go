package workloads

import (
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/podlife/podlife/validation"
)

// The comparison: both answers are lists of field.Error. They agree when, position by
// position, the type, the field, the detail and the bad value (normalised by canon)
// are equal, and so is the Error() text. Upstream validates the internal types and
// podlife the v1 types; where upstream's bad value is a struct of the internal API,
// podlife's is the v1 value in validation.InternalForm, which prints as the internal
// value does, so the texts are compared as they are.
//
// Upstream's order is deterministic except where it ranges over a Go map: label,
// annotation and selector keys, resource lists. Runs of consecutive errors whose
// fields differ only in map keys are therefore put in a fixed order on both sides
// before the positions are compared.

// errKey renders the comparable part of an error.
func errKey(e *field.Error) string {
	return fmt.Sprintf("%s | %s | %q | %s", e.Type, e.Field, e.Detail, canon(e.BadValue))
}

var (
	// keySegment matches a map-key segment of a field path ([cpu], [app.kubernetes.io/name]).
	keySegment = regexp.MustCompile(`\[[^\]]*[^0-9\]][^\]]*\]`)
	// indexSegment matches a list index.
	indexSegment = regexp.MustCompile(`\[[0-9]+\]`)
)

// runField is the field with map keys taken out: errors at the same runField in a row
// may come in any order upstream (a resource list's errors at requests[cpu] and at
// requests come key by key, in map order).
func runField(f string) string { return keySegment.ReplaceAllString(f, "") }

// fixMapRuns sorts each run of consecutive errors with the same runField by key.
func fixMapRuns(errs field.ErrorList) field.ErrorList {
	out := append(field.ErrorList(nil), errs...)
	for i := 0; i < len(out); {
		j := i + 1
		for j < len(out) && runField(out[j].Field) == runField(out[i].Field) {
			j++
		}
		run := out[i:j]
		sort.SliceStable(run, func(a, b int) bool { return errKey(run[a])+run[a].Error() < errKey(run[b])+run[b].Error() })
		i = j
	}
	return out
}

// family names the rule an error belongs to: its type and its field with indexes and
// map keys generalised.
func family(e *field.Error) string {
	return string(e.Type) + " " + indexSegment.ReplaceAllString(keySegment.ReplaceAllString(e.Field, "[*]"), "[*]")
}

// diff compares podlife's answer with upstream's and describes every difference.
func diff(ours, theirs field.ErrorList) (problems []string) {
	o, u := fixMapRuns(ours), fixMapRuns(theirs)
	n := max(len(o), len(u))
	for i := range n {
		switch {
		case i >= len(o):
			problems = append(problems, "upstream only: "+errKey(u[i]))
			continue
		case i >= len(u):
			problems = append(problems, "podlife only: "+errKey(o[i]))
			continue
		}
		if ko, ku := errKey(o[i]), errKey(u[i]); ko != ku {
			problems = append(problems, fmt.Sprintf("position %d:\n   podlife:  %s\n   upstream: %s", i, ko, ku))
			continue
		}
		if to, tu := o[i].Error(), u[i].Error(); to != tu {
			problems = append(problems, fmt.Sprintf("position %d text:\n   podlife:  %s\n   upstream: %s", i, to, tu))
		}
	}
	return problems
}

var (
	quantityType = reflect.TypeOf(resource.Quantity{})
	timeType     = reflect.TypeOf(metav1.Time{})
)

// canon renders a bad value so that an internal-API value and its v1 counterpart
// print the same: named types collapse to their kind, pointers are transparent (nil
// prints nil), structs print their fields that are not zero through pointers, sorted
// by Go name, maps print sorted, quantities and times canonically. A nil and an empty
// slice or map stay distinct at the top level. podlife's validation.InternalForm
// stands for its Value.
func canon(v any) string {
	if v == nil {
		return "nil"
	}
	if f, ok := v.(validation.InternalForm); ok {
		v = f.Value
	}
	var b strings.Builder
	canonValue(&b, reflect.ValueOf(v))
	return b.String()
}

func canonValue(b *strings.Builder, v reflect.Value) {
	if !v.IsValid() {
		b.WriteString("nil")
		return
	}
	switch v.Type() {
	case quantityType:
		q := v.Interface().(resource.Quantity)
		b.WriteString("Q(" + q.String() + ")")
		return
	case timeType:
		tm := v.Interface().(metav1.Time)
		b.WriteString("T(" + tm.UTC().String() + ")")
		return
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		canonValue(b, v.Elem())
	case reflect.String:
		b.WriteString(strconv.Quote(v.String()))
	case reflect.Bool:
		b.WriteString(strconv.FormatBool(v.Bool()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		b.WriteString(strconv.FormatInt(v.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		b.WriteString(strconv.FormatUint(v.Uint(), 10))
	case reflect.Float32, reflect.Float64:
		b.WriteString(strconv.FormatFloat(v.Float(), 'g', -1, 64))
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			b.WriteString("nil[]")
			return
		}
		b.WriteString("[")
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				b.WriteString(",")
			}
			canonValue(b, v.Index(i))
		}
		b.WriteString("]")
	case reflect.Map:
		if v.IsNil() {
			b.WriteString("nil{}")
			return
		}
		type kv struct{ k, v string }
		var items []kv
		it := v.MapRange()
		for it.Next() {
			var kb, vb strings.Builder
			canonValue(&kb, it.Key())
			canonValue(&vb, it.Value())
			items = append(items, kv{kb.String(), vb.String()})
		}
		sort.Slice(items, func(i, j int) bool { return items[i].k < items[j].k })
		b.WriteString("map{")
		for i, it := range items {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(it.k + ":" + it.v)
		}
		b.WriteString("}")
	case reflect.Struct:
		t := v.Type()
		var names []string
		vals := map[string]string{}
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() || zeroDeep(v.Field(i)) {
				continue
			}
			var fb strings.Builder
			canonValue(&fb, v.Field(i))
			names = append(names, f.Name)
			vals[f.Name] = fb.String()
		}
		sort.Strings(names)
		b.WriteString("{")
		for i, n := range names {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(n + ":" + vals[n])
		}
		b.WriteString("}")
	default:
		fmt.Fprintf(b, "%v", v.Interface())
	}
}

// zeroDeep reports whether a struct field holds nothing: zero through pointers, and
// empty collections (the internal types hold by value what v1 holds by pointer).
func zeroDeep(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		return v.IsNil() || zeroDeep(v.Elem())
	case reflect.Slice, reflect.Map:
		return v.Len() == 0
	case reflect.Struct:
		if v.Type() == quantityType {
			q := v.Interface().(resource.Quantity)
			return q.IsZero()
		}
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() && !zeroDeep(v.Field(i)) {
				return false
			}
		}
		return true
	}
	return v.IsZero()
}
