package validation

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"reflect"
	"testing"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"

	"github.com/podlife/podlife/validation"
)

// TestExampleSampleMatchesUpstream checks the pods of the validate example's embedded
// sample against upstream, and logs upstream's NewInvalid message for each.
func TestExampleSampleMatchesUpstream(t *testing.T) {
	data, err := os.ReadFile("../../examples/validate/testdata/sample.yaml")
	if err != nil {
		t.Fatal(err)
	}
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	for {
		doc, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		var pod v1.Pod
		if err := yaml.Unmarshal(doc, &pod); err != nil {
			t.Fatal(err)
		}
		pod.Namespace = "default"
		theirs := upstreamCreate(t, &pod)
		ours := validation.ValidatePodCreate(&pod, validation.Options{})
		if missing, extra := multisetDiff(ours, theirs); len(missing)+len(extra) > 0 {
			t.Errorf("%s: upstream only %q, podlife only %q", pod.Name, missing, extra)
		}
		if o, u := ordered(ours), ordered(theirs); !reflect.DeepEqual(o, u) {
			t.Errorf("%s: order or text differs:\npodlife  %q\nupstream %q", pod.Name, o, u)
		}
		if len(theirs) > 0 {
			t.Log(apierrors.NewInvalid(schema.GroupKind{Kind: "Pod"}, pod.Name, theirs).Error())
		}
	}
}
