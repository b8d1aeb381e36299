package validation

import (
	"encoding/json"
	"errors"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// validateTolerationsAnnotation mirrors upstream ValidateTolerationsInPodAnnotations
// (k8s.io/kubernetes pkg/apis/core/validation/validation.go) for a non-empty legacy
// tolerations annotation: the value must decode as upstream's
// helper.GetTolerationsFromPodAnnotations decodes it (k8s.io/kubernetes
// pkg/apis/core/helper/helpers.go), and the decoded tolerations must pass the
// toleration rules under the path upstream builds, fldPath.Child(key) rather than
// fldPath.Key(key).
func validateTolerationsAnnotation(value string, fldPath lpath, o *podValidationOptions) field.ErrorList {
	tolerations, err := decodeTolerationsAnnotation(value)
	if err != nil {
		return field.ErrorList{invalidAt(fldPath, tolerationsAnnotationKey, err.Error())}
	}
	if len(tolerations) == 0 {
		return nil
	}
	errs := validateTolerationsL(tolerations, fldPath.Child(tolerationsAnnotationKey), o)
	// Upstream validates the annotation without the KeyFormatCovered option: its
	// key-format errors are not covered by declarative validation.
	for _, e := range errs {
		e.CoveredByDeclarative = false
	}
	return errs
}

// decodeTolerationsAnnotation decodes value as upstream does: encoding/json into a
// slice of the internal core.Toleration. That type has no JSON tags, so its fields
// match the Go field names case-insensitively and decoding errors name them
// ("Toleration.TolerationSeconds"); the types below have the same names, shape and
// tags (none) so that encoding/json behaves and words its errors identically, except
// for the package qualifier, which is rewritten to upstream's ("core.").
func decodeTolerationsAnnotation(value string) ([]corev1.Toleration, error) {
	// Local types: named as upstream's without becoming part of this package's API.
	type TolerationOperator string
	type TaintEffect string
	type Toleration struct {
		Key               string
		Operator          TolerationOperator
		Value             string
		Effect            TaintEffect
		TolerationSeconds *int64
	}
	var decoded []Toleration
	if err := json.Unmarshal([]byte(value), &decoded); err != nil {
		return nil, upstreamJSONError(err)
	}
	if len(decoded) == 0 {
		return nil, nil
	}
	out := make([]corev1.Toleration, len(decoded))
	for i, t := range decoded {
		out[i] = corev1.Toleration{
			Key:               t.Key,
			Operator:          corev1.TolerationOperator(t.Operator),
			Value:             t.Value,
			Effect:            corev1.TaintEffect(t.Effect),
			TolerationSeconds: t.TolerationSeconds,
		}
	}
	return out, nil
}

// upstreamJSONError rewrites the Go type named at the end of an encoding/json type
// error ("of type []validation.Toleration") to upstream's ("of type
// []core.Toleration"). Other errors (syntax errors) name no type and pass through.
func upstreamJSONError(err error) error {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) || te.Type == nil {
		return err
	}
	msg := err.Error()
	ours := te.Type.String()
	if !strings.HasSuffix(msg, ours) {
		return err
	}
	return errors.New(strings.TrimSuffix(msg, ours) + strings.ReplaceAll(ours, "validation.", "core."))
}
