package validation

import (
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podlife/podlife"
)

func TestFeatureGateHints(t *testing.T) {
	pod := func(op corev1.TolerationOperator, image string) *corev1.Pod {
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p"}, Spec: corev1.PodSpec{
			Containers:  []corev1.Container{{Name: "a", Image: image}},
			Tolerations: []corev1.Toleration{{Key: "k", Operator: op, Value: "5", Effect: corev1.TaintEffectNoSchedule}},
		}}
	}
	for _, tc := range []struct {
		name string
		pod  *corev1.Pod
		opts Options
		want string
	}{
		{
			name: "an operator of an alpha gate: only that error is claimed",
			pod:  pod("Gt", ""),
			want: `[TaintTolerationComparisonOperators [] [spec.tolerations[0].operator: Unsupported value: "Gt": supported values: "Equal", "Exists", "Lt", "Gt"]]`,
		},
		{
			name: "gate already on: nothing to suggest",
			pod:  pod("Gt", ""),
			opts: Options{Features: podlife.FeatureGates{"TaintTolerationComparisonOperators": true}},
			want: "[]",
		},
		{
			name: "valid pod",
			pod:  pod("Exists", "nginx"),
			want: "[]",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, h := range FeatureGateHints(tc.pod, tc.opts) {
				got = append(got, fmt.Sprint(h.Gate, " ", h.Dependencies, " ", h.Fixed))
			}
			if s := fmt.Sprint(got); s != tc.want {
				t.Errorf("got %s, want %s", s, tc.want)
			}
		})
	}
}
