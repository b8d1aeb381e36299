package validation

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// slowQuantityShift bounds the quantities whose decoding the server is taken to
// finish. resource.ParseQuantity rounds a quantity that does not fit an int64
// amount to nanounits by multiplying or dividing its digits by a power of ten it
// computes (roundingShift), so that a short text with a large exponent
// ("1e-900000000", 19 digits "e900000000", or an exponent that does not fit the 32
// bits it is narrowed to: "1e999999999999" is 1e-727379969, see
// kubernetes/kubernetes#131063 and #141203) costs time that grows faster than the
// shift: about 1.5 s at 10^7 and 18 s at 5·10^7 on a 2-core machine of this
// project, about 2.9× each time the shift doubles. At 2^29 that is about eleven
// minutes: past kube-apiserver's one-minute request timeout on any machine up to
// eleven times as fast, so the server's answer is its 504, and podlife gives it
// rather than spending the minutes (or hours) upstream would. Below the bound
// podlife decodes the quantity as the server does, taking as long.
const slowQuantityShift = 1 << 29

// decode is decoder.decode, but for a body the server does not finish decoding
// within its request timeout because of a quantity (slowQuantityShift): the 504
// kube-apiserver's timeout filter (WithTimeoutForNonLongRunningRequests) writes.
func (s *streamRun) decode(d serverDecoder, body []byte, gvk schema.GroupVersionKind) (runtime.Object, []string, error) {
	if len(body) <= maxRequestBodyBytes && mayHoldSlowQuantity(body) && d.scheme.Recognizes(gvk) {
		if s.firstSlowQuantity(body, gvk) {
			return nil, nil, apierrors.NewTimeoutError("request did not complete within the allotted timeout", 0)
		}
	}
	return d.decode(body, gvk, s.directive)
}

// mayHoldSlowQuantity reports whether a body holds an exponent of seven digits or
// more, as every quantity past slowQuantityShift has: a cheap test before the body
// is read as a document.
func mayHoldSlowQuantity(body []byte) bool {
	for i := 0; i < len(body); i++ {
		if body[i] != 'e' && body[i] != 'E' {
			continue
		}
		j := i + 1
		if j < len(body) && (body[j] == '+' || body[j] == '-') {
			j++
		}
		digits := 0
		for j < len(body) && body[j] >= '0' && body[j] <= '9' {
			j++
			digits++
		}
		if digits >= 7 {
			return true
		}
	}
	return false
}

// firstSlowQuantity reads body, an object of kind gvk, and reports whether the
// server's decoder stops at a quantity that outlasts its timeout (stopQuantity).
func (s *streamRun) firstSlowQuantity(body []byte, gvk schema.GroupVersionKind) bool {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var doc any
	if dec.Decode(&doc) != nil {
		return false
	}
	models := s.models.get()
	name, ok := models.index[gvk]
	if !ok {
		return false
	}
	_, slow, _ := models.stopQuantity(models.defs[name], doc)
	return slow
}

// stopQuantity reads doc, an object whose kind's model is kind, as the server's
// decoder does (fields in the order of the body kubectl sends, keys sorted; only
// those of the kind's schema) and returns the path of the first quantity it stops
// at: one that does not decode, or one whose rounding shifts it by
// slowQuantityShift digits or more (roundingShift; slow is true), where the server
// gives up. found is false when every quantity decodes in time.
func (m *oaModels) stopQuantity(kind *oaSchema, doc any) (path string, slow, found bool) {
	m.walkQuantities(kind, doc, nil, func(at *field.Path, v any) bool {
		switch shift, ok := roundingShift(v); {
		case ok && (shift >= slowQuantityShift || shift <= -slowQuantityShift):
			slow = true
		case ok && (shift > 1<<20 || shift < -1<<20):
			return true // it decodes, in the time it takes: not twice
		case quantityDecodes(v):
			return true
		}
		path, found = at.String(), true
		return false
	})
	return path, slow, found
}

// roundingShift reads a value the server's decoding reads as a quantity, when
// resource.ParseQuantity reads its text as digits, an optional point and digits,
// then an exponent ("e" or "E" and a 64-bit integer, narrowed to 32 bits), and
// rounds it to nanounits by its slow path (a nonzero number with more than 18
// digits, or a scale past nanounits): the decimal shift of that rounding, the power
// of ten it computes and multiplies or divides by, in the 32-bit arithmetic
// upstream computes it in ("1e-5" is fast; "1e999999999999" is 1e-727379969,
// shift -727379960). ok is false for every other text.
func roundingShift(v any) (shift int64, ok bool) {
	t, ok := quantityText(v)
	if !ok {
		return 0, false
	}
	i := 0
	if i < len(t) && (t[i] == '+' || t[i] == '-') {
		i++
	}
	digitsFrom := func(i int) int {
		for i < len(t) && t[i] >= '0' && t[i] <= '9' {
			i++
		}
		return i
	}
	end := digitsFrom(i)
	num, denom := strings.TrimLeft(t[i:end], "0"), ""
	if end < len(t) && t[end] == '.' {
		from := end + 1
		end = digitsFrom(from)
		denom = t[from:end]
	}
	if end >= len(t) || t[end] != 'e' && t[end] != 'E' {
		return 0, false
	}
	exponent, err := strconv.ParseInt(t[end+1:], 10, 64)
	if err != nil {
		return 0, false
	}
	if num == "" {
		num = "0"
	}
	e := int32(exponent)
	if int32(len(num)+len(denom)) <= maxInt64Digits && e-int32(len(denom)) >= -9 {
		return 0, false // an int64 amount, no rounding
	}
	if strings.Trim(num+denom, "0") == "" {
		return 0, false // zero is not rounded
	}
	scale := int32(len(denom)) + -e
	return int64(9 - scale), true
}

// maxInt64Digits is the number of digits resource.ParseQuantity keeps in an int64.
const maxInt64Digits = 18
