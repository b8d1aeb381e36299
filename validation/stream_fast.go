package validation

import (
	"bytes"
	"encoding/json"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"
)

// fastObject answers for the common document, an object of a kind that holds a pod
// converted from YAML, without the steps kubectl takes that cannot change the answer
// for it: its client-side parse and unstructured decoding cannot fail, and the body it
// would send is the document as converted (keys already sorted, no duplicates, numbers
// already in Go's formatting) plus the namespace. ok is false when the document needs
// the full path: anything unusual in its top-level keys, a metadata kubectl would
// refuse, a number the round trip would rewrite, a size near the server's limit.
// TestFastPath and FuzzFastPath check both paths agree.
func (s *streamRun) fastObject(r ObjectResult, c chunk) (ObjectResult, bool) {
	raw := c.raw
	if s.applying() || !c.fromYAML || len(raw) == 0 || raw[0] != '{' || len(raw) > maxRequestBodyBytes-4096 || rewrittenNumbers(raw) {
		return r, false
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(raw, &top) != nil {
		return r, false
	}
	for k := range top {
		for _, special := range []string{"apiVersion", "kind", "metadata", "items"} {
			if k != special && strings.EqualFold(k, special) || k == "items" {
				return r, false
			}
		}
	}
	var apiVersion, kind string
	if !jsonString(top["apiVersion"], &apiVersion) || !jsonString(top["kind"], &kind) {
		return r, false
	}
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return r, false
	}
	gvk := gv.WithKind(kind)
	k, ok := s.served.servedExactly(gvk)
	if !ok || !k.patch || !podKinds[gvk.GroupKind()] {
		return r, false
	}
	var om metav1.ObjectMeta
	if m, ok := top["metadata"]; ok && utiljson.Unmarshal(m, &om) != nil {
		return r, false
	}
	ns := om.Namespace
	switch want := s.opts.Namespace; {
	case ns == "" && want == "":
		ns = metav1.NamespaceDefault
	case ns == "":
		ns = want
	case want != "" && ns != want:
		return r, false
	}
	if _, err := requestPathError(ns, "", true, false); err != nil {
		return r, false // client-go refuses to build the request: the full path says so
	}
	if s.stored(gvk.GroupKind(), true, ns, om.Name) != nil {
		return r, false // an update: the full path sends the resourceVersion as kubectl replace does
	}
	r.APIVersion, r.Kind, r.Name, r.Namespace = apiVersion, kind, om.Name, ns
	typed, warnings, err := s.decode(s.server, raw, gvk)
	if err != nil {
		r.Verdict, r.Err = Rejected, err
		return r, true
	}
	asSent(typed, ns)
	if s.opts.DecodeOnly {
		setResourceVersion(typed, om.ResourceVersion)
	}
	r.Object = typed
	return s.create(r, warnings, gvk.GroupKind(), true, k), true
}

// jsonString decodes a JSON string value; false for anything else.
func jsonString(raw json.RawMessage, out *string) bool {
	return len(raw) > 0 && raw[0] == '"' && json.Unmarshal(raw, out) == nil
}

// rewrittenNumbers reports whether a JSON text may hold a number kubectl's unstructured
// round trip (decoding to int64 or float64, encoding again) would write differently:
// a run of 19 or more digits (beyond int64, or a large float written in full) or a
// negative zero. Digits inside strings count too, which only costs the fast path.
func rewrittenNumbers(raw []byte) bool {
	run := 0
	for i, c := range raw {
		if c >= '0' && c <= '9' {
			if run++; run >= 19 {
				return true
			}
			continue
		}
		run = 0
		if c == '-' && i+1 < len(raw) && raw[i+1] == '0' && (i+2 == len(raw) || !bytes.ContainsRune([]byte("0123456789.eE"), rune(raw[i+2]))) {
			return true
		}
	}
	return false
}
