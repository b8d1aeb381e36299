package validation

import (
	"reflect"
	"sort"
	"strconv"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/podlife/podlife/internal/byname"
)

// FuzzPlainLabelValue checks the hand-written matcher against apimachinery's.
func FuzzPlainLabelValue(f *testing.F) {
	for _, v := range []string{"", "a", "A-b_c.d", "-a", "a-", "a b", "ä", "0", "a..b",
		"123456789012345678901234567890123456789012345678901234567890123",
		"1234567890123456789012345678901234567890123456789012345678901234"} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v string) {
		if got, want := isPlainLabelValue(v), len(validation.IsValidLabelValue(v)) == 0; got != want {
			t.Fatalf("isPlainLabelValue(%q) = %v, apimachinery says valid = %v", v, got, want)
		}
	})
}

// TestDefaultCreateOptionsShortcut: the precomputed create options equal the full
// computation for any new pod.
func TestDefaultCreateOptionsShortcut(t *testing.T) {
	relaxed := &corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "a", Env: []corev1.EnvVar{{Name: "1=x"}}}}}}
	for _, pod := range []*corev1.Pod{nil, {}, relaxed} {
		for _, priv := range []bool{false, true} {
			opts := Options{AllowPrivileged: priv}
			if got, want := resolveOptions(opts, pod, nil), computeOptions(opts, pod, nil); got != want {
				t.Errorf("pod %v, privileged %v: shortcut %+v, computed %+v", pod, priv, got, want)
			}
		}
	}
}

// TestDuplicateNamesShortAndLong: the scan (short lists) and the index (long lists) find
// the same duplicates, with upstream's rule that an unnamed init container is never a
// duplicate of an earlier unnamed one.
func TestDuplicateNamesShortAndLong(t *testing.T) {
	for _, n := range []int{3, byname.Threshold + 4} {
		var spec corev1.PodSpec
		for i := range n {
			spec.Containers = append(spec.Containers, corev1.Container{Name: "c" + strconv.Itoa(i)})
		}
		spec.Containers = append(spec.Containers, corev1.Container{Name: "c1"})
		spec.InitContainers = []corev1.Container{{Name: ""}, {Name: ""}, {Name: "c2"}, {Name: "i"}, {Name: "i"}}
		var got []string
		for _, e := range validatePodSpec(&spec, nil, field.NewPath("spec"), podValidationOptions{}) {
			if e.Type == field.ErrorTypeDuplicate {
				got = append(got, e.Field)
			}
		}
		want := []string{"spec.initContainers[2].name", "spec.initContainers[4].name", "spec.containers[" + strconv.Itoa(n) + "].name"}
		sort.Strings(got)
		sort.Strings(want)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%d containers: duplicates %v, want %v", n, got, want)
		}
	}
}
