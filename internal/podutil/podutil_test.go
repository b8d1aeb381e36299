package podutil

import (
	"strconv"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

func TestPredicates(t *testing.T) {
	policy := func(p corev1.ContainerRestartPolicy) *corev1.ContainerRestartPolicy { return &p }
	rule := []corev1.ContainerRestartRule{{Action: corev1.ContainerRestartRuleActionRestart}}
	cases := []struct {
		name                  string
		spec                  *corev1.PodSpec
		sidecar, rulesInUse   bool
		firstInitIsSidecar    bool
		firstInitSidecarCheck bool
	}{
		{"nil spec", nil, false, false, false, false},
		{"empty", &corev1.PodSpec{}, false, false, false, false},
		{"sidecar", &corev1.PodSpec{InitContainers: []corev1.Container{{RestartPolicy: policy(corev1.ContainerRestartPolicyAlways)}}}, true, false, true, true},
		{"init Never", &corev1.PodSpec{InitContainers: []corev1.Container{{RestartPolicy: policy(corev1.ContainerRestartPolicyNever)}}}, false, true, false, true},
		{"init OnFailure", &corev1.PodSpec{InitContainers: []corev1.Container{{RestartPolicy: policy(corev1.ContainerRestartPolicyOnFailure)}}}, false, true, false, true},
		{"init rules", &corev1.PodSpec{InitContainers: []corev1.Container{{RestartPolicyRules: rule}}}, false, true, false, true},
		{"sidecar with rules", &corev1.PodSpec{InitContainers: []corev1.Container{{RestartPolicy: policy(corev1.ContainerRestartPolicyAlways), RestartPolicyRules: rule}}}, true, true, true, true},
		{"regular policy", &corev1.PodSpec{Containers: []corev1.Container{{RestartPolicy: policy(corev1.ContainerRestartPolicyAlways)}}}, false, true, false, false},
		{"regular rules alone do not count", &corev1.PodSpec{Containers: []corev1.Container{{RestartPolicyRules: rule}}}, false, false, false, false},
	}
	for _, tc := range cases {
		if tc.spec != nil {
			if got := HasSidecar(tc.spec); got != tc.sidecar {
				t.Errorf("%s: HasSidecar = %t", tc.name, got)
			}
			if tc.firstInitSidecarCheck {
				if got := IsSidecar(&tc.spec.InitContainers[0]); got != tc.firstInitIsSidecar {
					t.Errorf("%s: IsSidecar = %t", tc.name, got)
				}
			}
		}
		if got := RestartRulesInUse(tc.spec); got != tc.rulesInUse {
			t.Errorf("%s: RestartRulesInUse = %t", tc.name, got)
		}
	}
	if IsSidecar(nil) {
		t.Error("IsSidecar(nil)")
	}
}

func TestPlainQuoted(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want bool
	}{
		{"", true},
		{"nginx:1.25", true},
		{"registry.example/team/app@sha256:0123abcd", true},
		{" ~!#$%&'()*+,-./09:;<=>?@AZ[]^_`az{|}", true},
		{`say "hi"`, false},
		{`back\slash`, false},
		{"tab\there", false},
		{"del\x7f", false},
		{"nul\x00", false},
		{"émoji", false},
		{"\xff", false},
	} {
		got := PlainQuoted(tc.s)
		if got != tc.want {
			t.Errorf("PlainQuoted(%q) = %v, want %v", tc.s, got, tc.want)
		}
		if got && strconv.Quote(tc.s) != `"`+tc.s+`"` {
			t.Errorf("PlainQuoted(%q): strconv.Quote gives %s", tc.s, strconv.Quote(tc.s))
		}
	}
	// Every single byte: plain exactly when strconv.Quote leaves it as it is.
	for b := range 256 {
		s := string([]byte{byte(b)})
		if got, want := PlainQuoted(s), strconv.Quote(s) == `"`+s+`"`; got != want {
			t.Errorf("PlainQuoted(%q) = %v, strconv.Quote gives %s", s, got, strconv.Quote(s))
		}
	}
}
