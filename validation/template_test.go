package validation

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

func template(tweaks ...func(*corev1.PodTemplateSpec)) *corev1.PodTemplateSpec {
	t := &corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "nginx"}}},
	}
	for _, f := range tweaks {
		f(t)
	}
	return t
}

func TestValidatePodTemplateSpec(t *testing.T) {
	path := field.NewPath("spec", "template")
	tests := []struct {
		name string
		tmpl *corev1.PodTemplateSpec
		opts Options
		want []string
	}{
		{"valid", template(), Options{}, nil},
		{"nil template", nil, Options{}, []string{"spec.template.spec.containers: Required value"}},
		{"ephemeral containers are forbidden in templates", template(func(t *corev1.PodTemplateSpec) {
			t.Spec.EphemeralContainers = []corev1.EphemeralContainer{{EphemeralContainerCommon: corev1.EphemeralContainerCommon{Name: "debug", Image: "busybox"}}}
		}), Options{}, []string{"spec.template.spec.ephemeralContainers: Forbidden: ephemeral containers not allowed in pod template"}},
		{"invalid label value", template(func(t *corev1.PodTemplateSpec) { t.Labels["app"] = "bad value!" }), Options{},
			[]string{`spec.template.labels: Invalid value: "bad value!": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`}},
		{"empty image", template(func(t *corev1.PodTemplateSpec) { t.Spec.Containers[0].Image = "" }), Options{},
			[]string{"spec.template.spec.containers[0].image: Required value"}},
		// The whitespace and grace-period checks are Pod-only (validatePodMetadataAndSpec).
		{"image whitespace is a pod-only rule", template(func(t *corev1.PodTemplateSpec) { t.Spec.Containers[0].Image = " nginx" }), Options{}, nil},
		{"negative grace period is a pod-only rule", template(func(t *corev1.PodTemplateSpec) { g := int64(-5); t.Spec.TerminationGracePeriodSeconds = &g }), Options{}, nil},
		// Templates do not get requests copied from limits, so a request above the
		// limit is reported against the request the template really has.
		{"requests are not defaulted from limits", template(func(t *corev1.PodTemplateSpec) {
			t.Spec.Containers[0].Resources = corev1.ResourceRequirements{
				Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1")},
				Requests: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("1Gi")},
			}
		}), Options{}, nil},
		{"restartPolicy", template(func(t *corev1.PodTemplateSpec) { t.Spec.RestartPolicy = "Sometimes" }), Options{},
			[]string{`spec.template.spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"`}},
		{"stop signal dropped while ContainerStopSignals is off", template(func(t *corev1.PodTemplateSpec) {
			sig := corev1.SIGUSR1
			t.Spec.Containers[0].Lifecycle = &corev1.Lifecycle{StopSignal: &sig}
		}), Options{}, nil},
		{"stop signal needs spec.os when ContainerStopSignals is on", template(func(t *corev1.PodTemplateSpec) {
			sig := corev1.SIGUSR1
			t.Spec.Containers[0].Lifecycle = &corev1.Lifecycle{StopSignal: &sig}
		}), Options{Features: map[string]bool{"ContainerStopSignals": true}},
			[]string{"spec.template.spec.containers[0].lifecycle.stopSignal: Forbidden: may not be set for containers with empty `spec.os.name`"}},
		{"SkipDefaulting validates the template as given", template(), Options{SkipDefaulting: true}, []string{
			`spec.template.spec.terminationGracePeriodSeconds: Required value`,
			`spec.template.spec.containers[0].terminationMessagePolicy: Required value`,
			`spec.template.spec.containers[0].imagePullPolicy: Required value`,
			`spec.template.spec.restartPolicy: Required value`,
			`spec.template.spec.dnsPolicy: Required value`,
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var before *corev1.PodTemplateSpec
			if tc.tmpl != nil {
				before = tc.tmpl.DeepCopy()
			}
			got := firstLines(ValidatePodTemplateSpec(tc.tmpl, path, tc.opts))
			if len(got) == 0 {
				got = nil
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
			if tc.tmpl != nil && !reflect.DeepEqual(before, tc.tmpl) {
				t.Error("input modified")
			}
		})
	}
}

// FuzzValidatePodTemplateSpec checks that ValidatePodTemplateSpec never panics, never
// modifies its input, answers the same twice, and reports every error under fldPath.
func FuzzValidatePodTemplateSpec(f *testing.F) {
	for _, s := range fuzzPodSeeds {
		f.Add([]byte(s), false)
	}
	f.Fuzz(func(t *testing.T, data []byte, skip bool) {
		var p corev1.Pod
		if json.Unmarshal(data, &p) != nil {
			t.Skip()
		}
		tmpl := &corev1.PodTemplateSpec{ObjectMeta: p.ObjectMeta, Spec: p.Spec}
		before := tmpl.DeepCopy()
		opts := Options{SkipDefaulting: skip}
		path := field.NewPath("spec", "template")
		first := ValidatePodTemplateSpec(tmpl, path, opts)
		if !reflect.DeepEqual(before, tmpl) {
			t.Fatal("input modified")
		}
		second := ValidatePodTemplateSpec(tmpl, path, opts)
		if !reflect.DeepEqual(errorStrings(first), errorStrings(second)) {
			t.Fatalf("not deterministic:\n%q\n%q", errorStrings(first), errorStrings(second))
		}
		for _, e := range first {
			if !strings.HasPrefix(e.Field, "spec.template.") {
				t.Fatalf("error outside the template: %v", e)
			}
		}
	})
}

// A Deployment's template is validated where it sits in the Deployment. Templates
// skip the Pod-only checks, such as surrounding whitespace in images.
func ExampleValidatePodTemplateSpec() {
	tmpl := &corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{
			{Name: "web", Image: " nginx:1.27"},
			{Name: "web", Image: "envoy:1.30", Ports: []corev1.ContainerPort{{ContainerPort: 70000}}},
		}},
	}
	for _, err := range ValidatePodTemplateSpec(tmpl, field.NewPath("spec", "template"), Options{}) {
		fmt.Println(err)
	}
	// Output:
	// spec.template.spec.containers[1].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive
	// spec.template.spec.containers[1].name: Duplicate value: "web"
}
