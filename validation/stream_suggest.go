package validation

import (
	"maps"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// SuggestField returns the field the object's kind has where path names one it does
// not have, as the server's strict decoding errors name it (`unknown field
// "spec.template.spec.contianers"` gives "containers"): among the fields of the
// path's parent in the kind's schema (the OpenAPI models of a default v1.37.2
// server), the one whose name equals the last name of path but for case, or else the
// nearest within two edits (one for names of up to four characters; an edit is
// adding, removing or changing a character, or swapping two neighbours); of several
// as near, the first by name. ok is false when the kind is not in the models, the
// parent is not an object with named fields, path names a field that exists, or no
// field is near enough.
func (r *ObjectResult) SuggestField(path string) (field string, ok bool) {
	models, s, ok := r.kindSchema()
	if !ok {
		return "", false
	}
	segs := parseFieldPath(path)
	if len(segs) == 0 || segs[len(segs)-1].bracket {
		return "", false
	}
	for _, seg := range segs[:len(segs)-1] {
		if s = models.resolve(s); s == nil {
			return "", false
		}
		switch {
		case seg.bracket && (s.kind == '[' || s.kind == '{'):
			s = s.sub
		case !seg.bracket && s.kind == 'K':
			s = s.fields[seg.name]
		case !seg.bracket && s.kind == '{':
			s = s.sub // a map's key written as a field
		default:
			return "", false
		}
	}
	if s = models.resolve(s); s == nil || s.kind != 'K' {
		return "", false
	}
	return nearestField(s.fields, segs[len(segs)-1].name)
}

// kindSchema returns the stream's OpenAPI models and the model of the object's kind
// in them; ok is false when the kind is unknown or has none.
func (r *ObjectResult) kindSchema() (models *oaModels, kind *oaSchema, ok bool) {
	if r.models == nil || r.Kind == "" {
		return nil, nil, false
	}
	gv, err := schema.ParseGroupVersion(r.APIVersion)
	if err != nil {
		return nil, nil, false
	}
	models = r.models.get()
	name, ok := models.index[gv.WithKind(r.Kind)]
	if !ok {
		return nil, nil, false
	}
	return models, models.defs[name], true
}

// resolve follows references to the schema they name; nil stays nil.
func (m *oaModels) resolve(s *oaSchema) *oaSchema {
	for range 64 {
		if s == nil || s.kind != '@' {
			return s
		}
		s = m.defs[s.ref]
	}
	return nil
}

// nearestField picks SuggestField's answer among fields.
func nearestField(fields map[string]*oaSchema, name string) (string, bool) {
	if _, exists := fields[name]; exists {
		return "", false
	}
	limit := 2
	if len(name) <= 4 {
		limit = 1
	}
	best, bestDist := "", limit+1
	for _, f := range slices.Sorted(maps.Keys(fields)) {
		if strings.EqualFold(f, name) {
			return f, true
		}
		if d := editDistance(f, name, limit); d < bestDist {
			best, bestDist = f, d
		}
	}
	return best, best != ""
}

// editDistance is the optimal string alignment distance of a and b (insertions,
// deletions, substitutions and swaps of neighbours, in bytes), or limit+1 as soon as
// it certainly exceeds limit.
func editDistance(a, b string, limit int) int {
	if d := len(a) - len(b); d > limit || -d > limit {
		return limit + 1
	}
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range cur {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		if rowMin > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return min(prev[len(b)], limit+1)
}
