package validation

import (
	"fmt"
	"strconv"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// lpath is a field path that is only turned into a *field.Path when an error needs
// it. Validating a valid pod then builds no paths at all, which is most of the
// allocation work upstream does (a *field.Path per visited field).
//
// It is a small value: a materialised root plus up to maxSegs segments. Longer paths
// fold the segments into the root (allocating) and keep going.
type lpath struct {
	root *field.Path
	segs [maxSegs]pseg
	n    int
}

const maxSegs = 4

// pseg is one segment: a child name (idx == childSeg), a map key (idx == keySeg,
// the key in name) or a list index (idx >= 0).
type pseg struct {
	name string
	idx  int
}

const (
	childSeg = -1
	keySeg   = -2
)

func newPath(name string) lpath { return lpath{root: field.NewPath(name)} }

// fromPath wraps an already built path.
func fromPath(p *field.Path) lpath { return lpath{root: p} }

func (p lpath) push(s pseg) lpath {
	if p.n == maxSegs {
		p = lpath{root: p.P()}
	}
	p.segs[p.n] = s
	p.n++
	return p
}

// Child appends field names, like (*field.Path).Child.
func (p lpath) Child(name string, more ...string) lpath {
	if p.n < maxSegs && len(more) == 0 {
		// The common case, kept small enough to inline.
		p.segs[p.n] = pseg{name: name, idx: childSeg}
		p.n++
		return p
	}
	return p.childSlow(name, more)
}

func (p lpath) childSlow(name string, more []string) lpath {
	p = p.push(pseg{name: name, idx: childSeg})
	for _, m := range more {
		p = p.push(pseg{name: m, idx: childSeg})
	}
	return p
}

// Index appends a list index, like (*field.Path).Index.
func (p lpath) Index(i int) lpath {
	if p.n < maxSegs {
		p.segs[p.n] = pseg{idx: i}
		p.n++
		return p
	}
	return p.push(pseg{idx: i})
}

// room returns p, folded into its root first when fewer than k more segments fit, so
// that a loop over a list calls it once and its elements share one folded prefix
// instead of each folding (allocating) its own.
func (p lpath) room(k int) lpath {
	if p.n+k > maxSegs {
		return lpath{root: p.P()}
	}
	return p
}

// elems is the path of the list field name under p whose n elements a loop visits
// with Index and one more Child: folded once for all of them when they would not fit
// (see room), not at all when the list is empty.
func (p lpath) elems(name string, n int) lpath {
	p = p.Child(name)
	if n > 0 {
		p = p.room(2)
	}
	return p
}

// Key appends a map key, like (*field.Path).Key.
func (p lpath) Key(k string) lpath { return p.push(pseg{name: k, idx: keySeg}) }

// P materialises the path.
func (p lpath) P() *field.Path {
	fp := p.root
	for i := 0; i < p.n; i++ {
		s := p.segs[i]
		switch {
		case s.idx >= 0:
			fp = fp.Index(s.idx)
		case s.idx == keySeg:
			fp = fp.Key(s.name)
		case fp == nil:
			fp = field.NewPath(s.name)
		default:
			fp = fp.Child(s.name)
		}
	}
	return fp
}

// nonNegative is apimachinery's ValidateNonnegativeField on a lazy path.
func nonNegative(v int64, p lpath) field.ErrorList {
	if v < 0 {
		return field.ErrorList{field.Invalid(p.P(), v, "must be greater than or equal to 0").WithOrigin("minimum")}
	}
	return nil
}

// nonNegativeChild is nonNegative(v, parent.Child(name)) without building the path
// unless v is negative.
func nonNegativeChild(v int64, parent lpath, name string) field.ErrorList {
	if v < 0 {
		return nonNegative(v, parent.Child(name))
	}
	return nil
}

// rootPath starts a lazy path at a top-level field; nothing is allocated until P.
func rootPath(name string) lpath { return lpath{}.Child(name) }

// String is p.P().String() built in one piece: the root's text, then each segment
// as field.Path prints it (".name", "[index]", "[key]", and "[]" for an empty name),
// without allocating the segments' path nodes.
func (p lpath) String() string {
	if p.root == nil && p.n == 0 {
		return "<nil>" // (*field.Path)(nil).String()
	}
	var buf [128]byte
	b := buf[:0]
	parent := p.root != nil
	if parent {
		b = append(b, p.root.String()...)
	}
	for i := 0; i < p.n; i++ {
		s := p.segs[i]
		switch {
		case s.idx >= 0:
			b = append(b, '[')
			b = strconv.AppendInt(b, int64(s.idx), 10)
			b = append(b, ']')
		case s.idx == keySeg:
			b = append(b, '[')
			b = append(b, s.name...)
			b = append(b, ']')
		case s.name == "":
			b = append(b, "[]"...)
		default:
			if parent {
				b = append(b, '.')
			}
			b = append(b, s.name...)
		}
		parent = true
	}
	return string(b)
}

// The error constructors of apimachinery's field package on a lazy path: the same
// errors as field.Invalid(p.P(), …) and its siblings, the path's text built by
// lpath.String.

func invalidAt(p lpath, value any, detail string) *field.Error {
	return &field.Error{Type: field.ErrorTypeInvalid, Field: p.String(), BadValue: value, Detail: detail}
}

func notFoundAt(p lpath, value any) *field.Error {
	return &field.Error{Type: field.ErrorTypeNotFound, Field: p.String(), BadValue: value}
}

func requiredAt(p lpath, detail string) *field.Error {
	return &field.Error{Type: field.ErrorTypeRequired, Field: p.String(), Detail: detail, BadValue: ""}
}

func forbiddenAt(p lpath, detail string) *field.Error {
	return &field.Error{Type: field.ErrorTypeForbidden, Field: p.String(), Detail: detail, BadValue: ""}
}

func duplicateAt(p lpath, value any) *field.Error {
	return &field.Error{Type: field.ErrorTypeDuplicate, Field: p.String(), BadValue: value}
}

// notSupportedAt is field.NotSupported(p.P(), value, validValues): the detail lists
// the valid values quoted, each as fmt.Sprint prints it (which, for a string type
// without methods fmt looks for, is the string itself).
func notSupportedAt[T ~string](p lpath, value any, validValues []T) *field.Error {
	detail := ""
	if len(validValues) > 0 {
		b := make([]byte, 0, 64)
		b = append(b, "supported values: "...)
		for i, v := range validValues {
			if i > 0 {
				b = append(b, ", "...)
			}
			s := string(v)
			switch any(v).(type) {
			case fmt.Formatter, error, fmt.Stringer:
				s = fmt.Sprint(v)
			}
			b = strconv.AppendQuote(b, s)
		}
		detail = string(b)
	}
	return &field.Error{Type: field.ErrorTypeNotSupported, Field: p.String(), BadValue: value, Detail: detail}
}
