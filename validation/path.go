package validation

import (
	"fmt"
	"math"
	"strconv"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// lpath is a field path that is only turned into a *field.Path when an error needs
// it. Validating a valid pod then builds no paths at all, which is most of the
// allocation work upstream does (a *field.Path per visited field).
//
// It is a small value: a folded prefix, kept as the text field.Path.String prints
// for it (so that neither folding nor printing builds path nodes), optionally
// followed by a list index (at), then up to maxSegs segments. Longer paths fold the
// segments into the text (allocating the text) and keep going.
//
// A segment is a child name (idx 0, the name in names), a list index (idx i+1 for
// index i) or a map key (idx keySeg, the key in names). The slots past n are always
// zero (paths only grow from a zero or freshly folded value), so appending a child
// writes only its name and appending an index only its idx: Child and Index stay
// small enough to inline.
type lpath struct {
	text  string // the folded prefix as printed; "" when there is none
	names [maxSegs]string
	idxs  [maxSegs]int
	n     int32
	at    int32 // when > 0, the folded prefix ends in the list index at-1
}

const maxSegs = 4

// keySeg marks a map key segment.
const keySeg = -1

// newPath is the lazy field.NewPath(name): it allocates nothing.
func newPath(name string) lpath {
	if name == "" {
		return lpath{text: "[]"} // field.NewPath("").String()
	}
	return lpath{text: name}
}

// fromPath wraps an already built path, printing it once.
func fromPath(p *field.Path) lpath {
	if p == nil {
		return lpath{}
	}
	return lpath{text: p.String()}
}

// folded returns p with its segments folded into its text (allocating the text
// when p has any), for a loop whose elements each start from it (elem).
func (p lpath) folded() lpath {
	if p.n == 0 && p.at == 0 {
		return p
	}
	return lpath{text: p.String()}
}

// fold folds p's segments into its text in place; Child, Index and Key call it when
// every segment is taken.
//
//go:noinline
func (p *lpath) fold() { *p = lpath{text: p.String()} }

// elem is p.Index(i) on a path without segments (see folded), kept out of the
// segments: each element of a list then has every segment for its own fields.
func (p lpath) elem(i int) lpath {
	if p.n != 0 || p.at != 0 || i >= math.MaxInt32 {
		return p.folded().Index(i)
	}
	p.at = int32(i) + 1
	return p
}

// Child appends a field name, like (*field.Path).Child.
func (p lpath) Child(name string) lpath {
	if p.n >= maxSegs {
		p.fold()
	}
	p.names[p.n] = name
	p.n++
	return p
}

// Children appends field names, like (*field.Path).Child with several.
func (p lpath) Children(names ...string) lpath {
	for _, name := range names {
		p = p.Child(name)
	}
	return p
}

// Index appends a list index, like (*field.Path).Index.
func (p lpath) Index(i int) lpath {
	if p.n >= maxSegs {
		p.fold()
	}
	p.idxs[p.n] = i + 1
	p.n++
	return p
}

// room returns p, folded into its text first when fewer than k more segments fit,
// so that a loop over a list calls it once and its elements share one folded prefix
// instead of each folding (allocating) its own.
func (p lpath) room(k int) lpath {
	if int(p.n)+k > maxSegs {
		return p.folded()
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
func (p lpath) Key(k string) lpath {
	if p.n >= maxSegs {
		p.fold()
	}
	p.names[p.n], p.idxs[p.n] = k, keySeg
	p.n++
	return p
}

// P materialises the path. A folded prefix becomes one root node named by its text,
// which prints as the prefix did.
func (p lpath) P() *field.Path {
	var fp *field.Path
	if p.text != "" {
		fp = field.NewPath(p.text)
	}
	if p.at > 0 {
		fp = fp.Index(int(p.at) - 1)
	}
	for i := 0; i < int(p.n); i++ {
		name, idx := p.names[i], p.idxs[i]
		switch {
		case idx > 0:
			fp = fp.Index(idx - 1)
		case idx == keySeg:
			fp = fp.Key(name)
		case fp == nil:
			fp = field.NewPath(name)
		default:
			fp = fp.Child(name)
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

// rootPath starts a lazy path at a top-level field; nothing is allocated until an
// error prints it.
func rootPath(name string) lpath { return newPath(name) }

// String is p.P().String() built in one piece: the prefix's text, then each segment
// as field.Path prints it (".name", "[index]", "[key]", and "[]" for an empty name),
// without allocating the segments' path nodes. A path without segments is its text.
func (p lpath) String() string {
	if p.n == 0 && p.at == 0 {
		if p.text == "" {
			return "<nil>" // (*field.Path)(nil).String()
		}
		return p.text
	}
	var buf [128]byte
	b := append(buf[:0], p.text...)
	parent := p.text != ""
	if p.at > 0 {
		b = append(b, '[')
		b = strconv.AppendInt(b, int64(p.at)-1, 10)
		b = append(b, ']')
		parent = true
	}
	for i := 0; i < int(p.n); i++ {
		name, idx := p.names[i], p.idxs[i]
		switch {
		case idx > 0:
			b = append(b, '[')
			b = strconv.AppendInt(b, int64(idx)-1, 10)
			b = append(b, ']')
		case idx == keySeg:
			b = append(b, '[')
			b = append(b, name...)
			b = append(b, ']')
		case name == "":
			b = append(b, "[]"...)
		default:
			if parent {
				b = append(b, '.')
			}
			b = append(b, name...)
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
