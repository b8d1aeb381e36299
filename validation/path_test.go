package validation

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// TestLpathString checks lpath.String against the materialised path's String on
// fixed paths (nil and empty roots, empty names, keys, folded paths) and on random
// ones of up to 12 segments.
func TestLpathString(t *testing.T) {
	for _, tc := range []struct {
		p    lpath
		want string
	}{
		{lpath{}, "<nil>"},
		{newPath("spec"), "spec"},
		{rootPath("spec").Child("containers").Index(3).Child("name"), "spec.containers[3].name"},
		{newPath("metadata").Child("annotations").Key("a.b/c"), "metadata.annotations[a.b/c]"},
		{lpath{}.Index(2).Child("x"), "[2].x"},
		{lpath{}.Key("k"), "[k]"},
		{lpath{}.Child(""), "[]"},
		{newPath("").Child("a").Child("").Index(0), "[].a[][0]"},
		{newPath("spec").Child("volumes").Index(12).Child("projected").Child("sources").Index(1).Child("secret").Child("items").Index(0).Child("path"),
			"spec.volumes[12].projected.sources[1].secret.items[0].path"},
		{fromPath(field.NewPath("a", "b").Index(1)).Children("c", "d", "e"), "a.b[1].c.d.e"},
		{newPath("spec").elems("containers", 2).Index(1).Child("ports"), "spec.containers[1].ports"},
	} {
		assert.Equal(t, tc.want, tc.p.String())
		assert.Equal(t, tc.p.P().String(), tc.p.String())
	}
	r := rand.New(rand.NewSource(1))
	names := []string{"", "a", "spec", "x.y", "[0]", "k/v"}
	for range 2000 {
		var p lpath
		switch r.Intn(3) {
		case 1:
			p = newPath(names[r.Intn(len(names))])
		case 2:
			p = fromPath(field.NewPath("root").Key("k").Index(7))
		}
		for range r.Intn(13) {
			switch r.Intn(4) {
			case 0:
				p = p.Index(r.Intn(120))
			case 1:
				p = p.Key(names[r.Intn(len(names))])
			case 2:
				p = p.room(r.Intn(3))
			default:
				p = p.Child(names[r.Intn(len(names))])
			}
		}
		want := p.P().String()
		if !assert.Equal(t, want, p.String()) {
			return
		}
		assert.False(t, strings.Contains(want, "%!"))
	}
}

// TestErrorsAt checks the constructors on lazy paths against apimachinery's.
func TestErrorsAt(t *testing.T) {
	p := newPath("spec").Child("containers").Index(0).Child("volumeMounts").Index(4).Child("name")
	fp := p.P()
	assert.Equal(t, field.Invalid(fp, "v", "d"), invalidAt(p, "v", "d"))
	assert.Equal(t, field.NotFound(fp, "v"), notFoundAt(p, "v"))
	assert.Equal(t, field.Required(fp, "d"), requiredAt(p, "d"))
	assert.Equal(t, field.Forbidden(fp, "d"), forbiddenAt(p, "d"))
	assert.Equal(t, field.Duplicate(fp, 3), duplicateAt(p, 3))
}

type stringerValue string

func (s stringerValue) String() string { return "<" + string(s) + ">" }

// TestNotSupportedAt checks notSupportedAt against field.NotSupported, for plain
// and named string types, one with a String method, and no valid values.
func TestNotSupportedAt(t *testing.T) {
	p := newPath("spec").Child("restartPolicy")
	fp := p.P()
	assert.Equal(t, field.NotSupported(fp, "x", []string{"a", `q"uote`, "é\n"}), notSupportedAt(p, "x", []string{"a", `q"uote`, "é\n"}))
	assert.Equal(t, field.NotSupported(fp, "x", []stringerValue{"a", "b"}), notSupportedAt(p, "x", []stringerValue{"a", "b"}))
	assert.Equal(t, field.NotSupported[string](fp, 3, nil), notSupportedAt[string](p, 3, nil))
	type named string
	assert.Equal(t, field.NotSupported(fp, named("n"), []named{"Always", "Never"}), notSupportedAt(p, named("n"), []named{"Always", "Never"}))
}
