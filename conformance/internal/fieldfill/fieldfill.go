// Package fieldfill enumerates every field of an API type down to its leaves, sets
// chosen leaves of a value to generated values, and records which leaves a set of
// generated values reached. A differential test uses it to make its generator produce
// every field of a type (the leaves a hand-written generator does not set are filled
// round-robin) and to assert that it did: a field added to the API shows up as a leaf
// no input reached.
//
// Leaves are the scalar fields (strings, booleans, numbers), byte slices, maps, and the
// types the API treats as values: resource.Quantity, metav1.Time, metav1.MicroTime,
// intstr.IntOrString. Paths name struct fields by their JSON names, slices by "[]" and
// pointers transparently: "volumes[].projected.sources[].secret.items[].mode".
// Embedded structs (inline JSON) add no name.
package fieldfill

import (
	"math/rand/v2"
	"reflect"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

var (
	quantityType  = reflect.TypeOf(resource.Quantity{})
	timeType      = reflect.TypeOf(metav1.Time{})
	microTimeType = reflect.TypeOf(metav1.MicroTime{})
	intOrStrType  = reflect.TypeOf(intstr.IntOrString{})
)

// isLeaf reports whether t is a leaf type.
func isLeaf(t reflect.Type) bool {
	switch t {
	case quantityType, timeType, microTimeType, intOrStrType:
		return true
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Pointer:
		return false
	case reflect.Slice:
		return t.Elem().Kind() == reflect.Uint8
	}
	return true
}

// step is one step of a path: a struct field (by index) or a slice element.
type step struct {
	field int // -1 for a slice element
	name  string
}

// Path is a leaf's path from the root type.
type Path struct {
	Name  string
	steps []step
	leaf  reflect.Type
}

// Paths returns every leaf path of t (a struct type), sorted by name.
func Paths(t reflect.Type) []Path {
	var out []Path
	var walk func(t reflect.Type, prefix string, steps []step, seen map[reflect.Type]bool)
	walk = func(t reflect.Type, prefix string, steps []step, seen map[reflect.Type]bool) {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if isLeaf(t) {
			out = append(out, Path{Name: prefix, steps: append([]step(nil), steps...), leaf: t})
			return
		}
		switch t.Kind() {
		case reflect.Slice:
			walk(t.Elem(), prefix+"[]", append(steps, step{field: -1}), seen)
		case reflect.Struct:
			if seen[t] {
				return // a recursive type: its fields are reached above
			}
			seen[t] = true
			defer delete(seen, t)
			for i := 0; i < t.NumField(); i++ {
				f := t.Field(i)
				if !f.IsExported() {
					continue
				}
				name, inline := jsonName(f)
				if name == "-" {
					continue
				}
				p := prefix
				if !inline {
					if p != "" {
						p += "."
					}
					p += name
				}
				walk(f.Type, p, append(steps, step{field: i, name: name}), seen)
			}
		}
	}
	walk(t, "", nil, map[reflect.Type]bool{})
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func jsonName(f reflect.StructField) (string, bool) {
	tag := f.Tag.Get("json")
	name, opts, _ := strings.Cut(tag, ",")
	if strings.Contains(","+opts+",", ",inline,") || (f.Anonymous && name == "") {
		return "", true
	}
	if name == "" {
		name = f.Name
	}
	return name, false
}

// Values makes the value a leaf is set to.
type Values interface {
	// Value returns a non-zero value of type t for the leaf at path.
	Value(r *rand.Rand, path string, t reflect.Type) reflect.Value
}

// Set sets the leaf at p of root (a pointer to the root struct) to a value from vals,
// creating what lies on the way: a nil pointer gets a new zero value, an empty slice
// one zero element; a non-empty slice has one of its elements chosen at random. A leaf
// behind a pointer is set to its zero value a quarter of the time (a set false, 0 or "").
func Set(r *rand.Rand, root any, p Path, vals Values) {
	v := reflect.ValueOf(root).Elem()
	for _, s := range p.steps {
		for v.Kind() == reflect.Pointer {
			if v.IsNil() {
				v.Set(reflect.New(v.Type().Elem()))
			}
			v = v.Elem()
		}
		if s.field < 0 {
			if v.Len() == 0 {
				v.Set(reflect.Append(v, reflect.New(v.Type().Elem()).Elem()))
			}
			v = v.Index(r.IntN(v.Len()))
			continue
		}
		v = v.Field(s.field)
	}
	viaPointer := false
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		v = v.Elem()
		viaPointer = true
	}
	if viaPointer && r.IntN(4) == 0 {
		v.Set(reflect.Zero(v.Type())) // a pointer to the zero value: set, but false, 0 or ""
		return
	}
	v.Set(vals.Value(r, p.Name, v.Type()))
}

// Coverage records which leaf paths values reached.
type Coverage struct {
	paths []Path
	hits  map[string]int
}

// NewCoverage returns a Coverage of the leaf paths of t.
func NewCoverage(t reflect.Type) *Coverage {
	return &Coverage{paths: Paths(t), hits: map[string]int{}}
}

// Paths returns the leaf paths covered.
func (c *Coverage) Paths() []Path { return c.paths }

// Record counts the leaves v (of the root type, or a pointer to it) sets: non-nil
// pointers, non-zero scalars and strings, non-empty maps and byte slices, any Quantity
// or IntOrString reached.
func (c *Coverage) Record(v any) {
	var walk func(v reflect.Value, prefix string)
	walk = func(v reflect.Value, prefix string) {
		set := false
		for v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return
			}
			v = v.Elem()
			set = true
		}
		t := v.Type()
		if isLeaf(t) {
			switch {
			case t.Kind() == reflect.Map || t.Kind() == reflect.Slice:
				if v.Len() > 0 {
					c.hits[prefix]++
				}
			case set || !v.IsZero() || t == quantityType || t == intOrStrType:
				c.hits[prefix]++
			}
			return
		}
		switch t.Kind() {
		case reflect.Slice:
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i), prefix+"[]")
			}
		case reflect.Struct:
			for i := 0; i < t.NumField(); i++ {
				f := t.Field(i)
				if !f.IsExported() {
					continue
				}
				name, inline := jsonName(f)
				if name == "-" {
					continue
				}
				p := prefix
				if !inline {
					if p != "" {
						p += "."
					}
					p += name
				}
				walk(v.Field(i), p)
			}
		}
	}
	walk(reflect.ValueOf(v), "")
}

// Hits returns how often the leaf at name was reached.
func (c *Coverage) Hits(name string) int { return c.hits[name] }

// Below returns the leaf paths reached fewer than n times, sorted.
func (c *Coverage) Below(n int) []string {
	var out []string
	for _, p := range c.paths {
		if c.hits[p.Name] < n {
			out = append(out, p.Name)
		}
	}
	return out
}

// RoundRobin hands out the leaf paths k at a time, in turn, so that every leaf is set
// once per len(paths)/k calls whatever the seed.
type RoundRobin struct {
	paths []Path
	next  int
}

// NewRoundRobin returns a RoundRobin over paths.
func NewRoundRobin(paths []Path) *RoundRobin { return &RoundRobin{paths: paths} }

// Take returns the next k paths.
func (rr *RoundRobin) Take(k int) []Path {
	out := make([]Path, 0, k)
	for range k {
		out = append(out, rr.paths[rr.next])
		rr.next = (rr.next + 1) % len(rr.paths)
	}
	return out
}

// Random makes leaf values from small pools: strings from Strings (by path, then by
// the leaf type's name) or a default pool of plain ASCII words, numbers from a pool of
// small and edge values, quantities, times in whole and half seconds, ports by number or name, maps of one
// entry and byte slices holding "{}" (valid JSON, as metav1.FieldsV1 needs).
type Random struct {
	// Strings returns the candidates for a string leaf, or nil for the default pool.
	Strings func(path string, t reflect.Type) []string
	// Quantities are the candidate quantities.
	Quantities []string
}

var defaultStrings = []string{"a", "x-1", "web", "Always", "TCP", "/p", "10.0.0.1", "example.com/x", "k=v", "v1"}

var defaultQuantities = []string{"1", "100m", "64Mi", "1Gi", "0", "2"}

// Value implements Values.
func (rv Random) Value(r *rand.Rand, path string, t reflect.Type) reflect.Value {
	v := reflect.New(t).Elem()
	switch t {
	case quantityType:
		qs := rv.Quantities
		if len(qs) == 0 {
			qs = defaultQuantities
		}
		v.Set(reflect.ValueOf(resource.MustParse(qs[r.IntN(len(qs))])))
		return v
	case timeType:
		v.Set(reflect.ValueOf(metav1.Unix(1767225600+r.Int64N(1000), r.Int64N(2)*500_000_000)))
		return v
	case microTimeType:
		v.Set(reflect.ValueOf(metav1.NewMicroTime(metav1.Unix(1767225600, 0).Time)))
		return v
	case intOrStrType:
		if r.IntN(2) == 0 {
			v.Set(reflect.ValueOf(intstr.FromInt32(8080)))
		} else {
			v.Set(reflect.ValueOf(intstr.FromString("http")))
		}
		return v
	}
	switch t.Kind() {
	case reflect.String:
		var pool []string
		if rv.Strings != nil {
			pool = rv.Strings(path, t)
		}
		if len(pool) == 0 {
			pool = defaultStrings
		}
		v.SetString(pool[r.IntN(len(pool))])
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt([]int64{1, 2, 5, 30, 3600, 0o644, -1, 65535}[r.IntN(8)])
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint([]uint64{1, 2, 1000}[r.IntN(3)])
	case reflect.Float32, reflect.Float64:
		v.SetFloat(1.5)
	case reflect.Slice: // bytes
		v.SetBytes([]byte("{}"))
	case reflect.Map:
		m := reflect.MakeMap(t)
		m.SetMapIndex(rv.Value(r, path+"{key}", t.Key()), rv.Value(r, path+"{}", t.Elem()))
		v.Set(m)
	}
	return v
}
