package restart

import (
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/podlife/podlife"
)

func cpol(p corev1.ContainerRestartPolicy) *corev1.ContainerRestartPolicy { return &p }

func rule(action corev1.ContainerRestartRuleAction, op corev1.ContainerRestartRuleOnExitCodesOperator, values ...int32) corev1.ContainerRestartRule {
	return corev1.ContainerRestartRule{Action: action, ExitCodes: &corev1.ContainerRestartRuleOnExitCodes{Operator: op, Values: values}}
}

const (
	actRestart    = corev1.ContainerRestartRuleActionRestart
	actRestartAll = corev1.ContainerRestartRuleActionRestartAllContainers
	opIn          = corev1.ContainerRestartRuleOnExitCodesOpIn
	opNotIn       = corev1.ContainerRestartRuleOnExitCodesOpNotIn
)

var racOff = Options{Features: podlife.FeatureGates{"RestartAllContainersOnContainerExits": false}}
var crrOff = Options{Features: podlife.FeatureGates{"ContainerRestartRules": false, "RestartAllContainersOnContainerExits": false}}

func TestIsRestartableInitContainer(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    *corev1.Container
		want bool
	}{
		{"nil", nil, false},
		{"no policy", &corev1.Container{}, false},
		{"Always", &corev1.Container{RestartPolicy: cpol(corev1.ContainerRestartPolicyAlways)}, true},
		{"OnFailure", &corev1.Container{RestartPolicy: cpol(corev1.ContainerRestartPolicyOnFailure)}, false},
		{"Never", &corev1.Container{RestartPolicy: cpol(corev1.ContainerRestartPolicyNever)}, false},
		{"unknown", &corev1.Container{RestartPolicy: cpol("always")}, false},
	} {
		if got := IsRestartableInitContainer(tc.c); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}

// Upstream TestFindMatchingContainerRestartRule (k8s.io/kubernetes
// pkg/api/v1/pod/util_test.go), plus the operator and exitCodes corner cases.
func TestMatchingRule(t *testing.T) {
	ruleIn := rule(actRestart, opIn, 42, 50, 60)
	ruleNotIn := rule(actRestart, opNotIn, 0, 1, 2)
	ruleIn42 := rule(actRestart, opIn, 42)
	for _, tc := range []struct {
		name      string
		c         *corev1.Container
		exitCode  int32
		wantRule  corev1.ContainerRestartRule
		wantIndex int
		wantOK    bool
	}{
		{"a rule with op In matches", &corev1.Container{RestartPolicyRules: []corev1.ContainerRestartRule{ruleIn}}, 42, ruleIn, 0, true},
		{"a rule with op NotIn matches", &corev1.Container{RestartPolicyRules: []corev1.ContainerRestartRule{ruleNotIn}}, 99, ruleNotIn, 0, true},
		{"matches the first rule if two rules both matched", &corev1.Container{RestartPolicyRules: []corev1.ContainerRestartRule{ruleIn, ruleIn42}}, 42, ruleIn, 0, true},
		{"no rules matched", &corev1.Container{RestartPolicyRules: []corev1.ContainerRestartRule{ruleIn}}, 100, corev1.ContainerRestartRule{}, -1, false},
		{"no rules defined", &corev1.Container{}, 0, corev1.ContainerRestartRule{}, -1, false},
		{"nil container", nil, 0, corev1.ContainerRestartRule{}, -1, false},
		{"nil exitCodes is skipped", &corev1.Container{RestartPolicyRules: []corev1.ContainerRestartRule{{Action: actRestart}, ruleNotIn}}, 7, ruleNotIn, 1, true},
		{"unknown operator is skipped", &corev1.Container{RestartPolicyRules: []corev1.ContainerRestartRule{rule(actRestart, "Equals", 7), ruleIn42}}, 42, ruleIn42, 1, true},
		{"In with no values never matches", &corev1.Container{RestartPolicyRules: []corev1.ContainerRestartRule{rule(actRestart, opIn)}}, 0, corev1.ContainerRestartRule{}, -1, false},
		{"NotIn with no values always matches", &corev1.Container{RestartPolicyRules: []corev1.ContainerRestartRule{rule(actRestartAll, opNotIn)}}, 0, rule(actRestartAll, opNotIn), 0, true},
		{"second rule matches", &corev1.Container{RestartPolicyRules: []corev1.ContainerRestartRule{ruleIn42, ruleNotIn}}, 3, ruleNotIn, 1, true},
		{"duplicate values", &corev1.Container{RestartPolicyRules: []corev1.ContainerRestartRule{rule(actRestart, opNotIn, 3, 3)}}, 3, corev1.ContainerRestartRule{}, -1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, i, ok := MatchingRule(tc.c, tc.exitCode)
			if ok != tc.wantOK || i != tc.wantIndex || !reflect.DeepEqual(r, tc.wantRule) {
				t.Errorf("MatchingRule = %+v, %d, %v; want %+v, %d, %v", r, i, ok, tc.wantRule, tc.wantIndex, tc.wantOK)
			}
		})
	}
}

// Upstream TestContainerHasRestartablePolicy (pkg/api/v1/pod/util_test.go), run with
// RestartAllContainersOnContainerExits on as upstream does, plus the gate-off and
// corner cases.
func TestContainerShouldRestart(t *testing.T) {
	never, onFailure, always := corev1.ContainerRestartPolicyNever, corev1.ContainerRestartPolicyOnFailure, corev1.ContainerRestartPolicyAlways
	for _, tc := range []struct {
		name     string
		c        *corev1.Container
		spec     *corev1.PodSpec
		exitCode int32
		opts     Options
		want     bool
	}{
		{"Rule: 'In' operator matches with 'Restart' action", &corev1.Container{RestartPolicy: &never, RestartPolicyRules: []corev1.ContainerRestartRule{rule(actRestart, opIn, 42, 50, 60)}}, &corev1.PodSpec{}, 42, Options{}, true},
		{"Rule: 'NotIn' operator matches with 'Restart' action", &corev1.Container{RestartPolicy: &never, RestartPolicyRules: []corev1.ContainerRestartRule{rule(actRestart, opNotIn, 0, 1, 2)}}, &corev1.PodSpec{}, 99, Options{}, true},
		{"Rule: 'In' operator matches with 'RestartAllContainers' action", &corev1.Container{RestartPolicy: &never, RestartPolicyRules: []corev1.ContainerRestartRule{rule(actRestartAll, opIn, 42, 50, 60)}}, &corev1.PodSpec{}, 42, Options{}, true},
		{"Rule: 'In' operator does not match, should fall back to container policy", &corev1.Container{RestartPolicy: &never, RestartPolicyRules: []corev1.ContainerRestartRule{rule(actRestart, opIn, 10, 20)}}, &corev1.PodSpec{}, 30, Options{}, false},
		{"Rule: 'NotIn' operator does not match, should fall back to container policy", &corev1.Container{RestartPolicy: &never, RestartPolicyRules: []corev1.ContainerRestartRule{rule(actRestart, opNotIn, 10, 20)}}, &corev1.PodSpec{}, 10, Options{}, false},
		{"Container Policy: 'Always'", &corev1.Container{RestartPolicy: &always}, &corev1.PodSpec{RestartPolicy: corev1.RestartPolicyNever}, 0, Options{}, true},
		{"Container Policy: 'OnFailure' with exit code 0", &corev1.Container{RestartPolicy: &onFailure}, &corev1.PodSpec{RestartPolicy: corev1.RestartPolicyNever}, 0, Options{}, false},
		{"Container Policy: 'OnFailure' with non-zero exit code", &corev1.Container{RestartPolicy: &onFailure}, &corev1.PodSpec{RestartPolicy: corev1.RestartPolicyNever}, 1, Options{}, true},
		{"Container Policy: 'Never' should return false", &corev1.Container{RestartPolicy: &never}, &corev1.PodSpec{RestartPolicy: corev1.RestartPolicyAlways}, 1, Options{}, false},
		{"Pod Policy: Fallback to pod 'Always'", &corev1.Container{}, &corev1.PodSpec{RestartPolicy: corev1.RestartPolicyAlways}, 0, Options{}, true},
		{"Pod Policy: Fallback to pod 'OnFailure' with non-zero exit code", &corev1.Container{}, &corev1.PodSpec{RestartPolicy: corev1.RestartPolicyOnFailure}, 1, Options{}, true},
		{"Pod Policy: Fallback to pod 'Never'", &corev1.Container{}, &corev1.PodSpec{RestartPolicy: corev1.RestartPolicyNever}, 1, Options{}, false},
		{"Pod Policy: Fallback with no policies specified should return true", &corev1.Container{}, &corev1.PodSpec{}, 0, Options{}, true},
		// Beyond upstream's table.
		{"RestartAllContainers rule with the gate off falls back to the container policy", &corev1.Container{RestartPolicy: &never, RestartPolicyRules: []corev1.ContainerRestartRule{rule(actRestartAll, opIn, 42)}}, &corev1.PodSpec{}, 42, racOff, false},
		{"RestartAllContainers rule with the gate off, container OnFailure", &corev1.Container{RestartPolicy: &onFailure, RestartPolicyRules: []corev1.ContainerRestartRule{rule(actRestartAll, opIn, 42)}}, &corev1.PodSpec{}, 42, racOff, true},
		{"rules are ignored without a container policy", &corev1.Container{RestartPolicyRules: []corev1.ContainerRestartRule{rule(actRestart, opIn, 3)}}, &corev1.PodSpec{RestartPolicy: corev1.RestartPolicyNever}, 3, Options{}, false},
		{"unknown action falls back to the container policy", &corev1.Container{RestartPolicy: &never, RestartPolicyRules: []corev1.ContainerRestartRule{rule("Ignore", opIn, 3), rule(actRestart, opIn, 3)}}, &corev1.PodSpec{}, 3, Options{}, false},
		{"unknown container policy falls back to the pod", &corev1.Container{RestartPolicy: cpol("Sometimes")}, &corev1.PodSpec{RestartPolicy: corev1.RestartPolicyOnFailure}, 0, Options{}, false},
		{"unknown pod policy is Always", &corev1.Container{}, &corev1.PodSpec{RestartPolicy: "Sometimes"}, 0, Options{}, true},
		{"NotIn [1] Restart, policy Never, exit 0", &corev1.Container{RestartPolicy: &never, RestartPolicyRules: []corev1.ContainerRestartRule{rule(actRestart, opNotIn, 1)}}, &corev1.PodSpec{}, 0, Options{}, true},
		{"NotIn [1] Restart, policy Never, exit 1", &corev1.Container{RestartPolicy: &never, RestartPolicyRules: []corev1.ContainerRestartRule{rule(actRestart, opNotIn, 1)}}, &corev1.PodSpec{}, 1, Options{}, false},
		{"nil exitCodes, policy Never", &corev1.Container{RestartPolicy: &never, RestartPolicyRules: []corev1.ContainerRestartRule{{Action: actRestart}}}, &corev1.PodSpec{}, 1, Options{}, false},
		{"nil container and spec", nil, nil, 0, Options{}, true},
		{"ContainerRestartRules off does not change the pure helper", &corev1.Container{RestartPolicy: &never}, &corev1.PodSpec{}, 0, crrOff, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ContainerShouldRestart(tc.c, tc.spec, tc.exitCode, tc.opts); got != tc.want {
				t.Errorf("ContainerShouldRestart = %v, want %v", got, tc.want)
			}
		})
	}
}

// Upstream TestIsContainerRestartable (pkg/api/v1/pod/util_test.go) plus corner cases.
func TestIsContainerRestartable(t *testing.T) {
	never, onFailure, always := corev1.ContainerRestartPolicyNever, corev1.ContainerRestartPolicyOnFailure, corev1.ContainerRestartPolicyAlways
	for _, tc := range []struct {
		name string
		spec *corev1.PodSpec
		c    *corev1.Container
		want bool
	}{
		{"Container: Rule action 'Restart' should always be true", &corev1.PodSpec{RestartPolicy: corev1.RestartPolicyNever}, &corev1.Container{RestartPolicy: &never, RestartPolicyRules: []corev1.ContainerRestartRule{{Action: actRestart}}}, true},
		{"Container: Policy 'Always' is restartable", &corev1.PodSpec{RestartPolicy: corev1.RestartPolicyNever}, &corev1.Container{RestartPolicy: &always}, true},
		{"Container: Policy 'OnFailure' is restartable", &corev1.PodSpec{RestartPolicy: corev1.RestartPolicyNever}, &corev1.Container{RestartPolicy: &onFailure}, true},
		{"Container: Policy 'Never' is not restartable", &corev1.PodSpec{RestartPolicy: corev1.RestartPolicyAlways}, &corev1.Container{RestartPolicy: &never}, false},
		{"Pod Fallback: Policy 'Always' is restartable", &corev1.PodSpec{RestartPolicy: corev1.RestartPolicyAlways}, &corev1.Container{}, true},
		{"Pod Fallback: Policy 'OnFailure' is restartable", &corev1.PodSpec{RestartPolicy: corev1.RestartPolicyOnFailure}, &corev1.Container{}, true},
		{"Pod Fallback: Policy 'Never' is not restartable", &corev1.PodSpec{RestartPolicy: corev1.RestartPolicyNever}, &corev1.Container{}, false},
		{"Pod Fallback: Default empty policy is restartable (since it's not 'Never')", &corev1.PodSpec{}, &corev1.Container{}, true},
		{"RestartAllContainers rules do not count", &corev1.PodSpec{}, &corev1.Container{RestartPolicy: &never, RestartPolicyRules: []corev1.ContainerRestartRule{rule(actRestartAll, opNotIn)}}, false},
		{"rules without a container policy are ignored", &corev1.PodSpec{RestartPolicy: corev1.RestartPolicyNever}, &corev1.Container{RestartPolicyRules: []corev1.ContainerRestartRule{{Action: actRestart}}}, false},
		{"unknown container policy is not Never", &corev1.PodSpec{RestartPolicy: corev1.RestartPolicyNever}, &corev1.Container{RestartPolicy: cpol("x")}, true},
		{"nil spec and container", nil, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := IsContainerRestartable(tc.spec, tc.c); got != tc.want {
				t.Errorf("IsContainerRestartable = %v, want %v", got, tc.want)
			}
		})
	}
}

// Upstream TestAllContainersCouldRestart (pkg/api/v1/pod/util_test.go) plus corner cases.
func TestAllContainersCouldRestart(t *testing.T) {
	always := corev1.ContainerRestartPolicyAlways
	all := []corev1.ContainerRestartRule{rule(actRestartAll, opIn, 1)}
	for _, tc := range []struct {
		name string
		spec *corev1.PodSpec
		want bool
	}{
		{"Pod with rules in init containers", &corev1.PodSpec{InitContainers: []corev1.Container{{RestartPolicyRules: all}}}, true},
		{"Pod with rules in sidecar containers", &corev1.PodSpec{InitContainers: []corev1.Container{{RestartPolicy: &always, RestartPolicyRules: all}}}, true},
		{"Pod with rules in regular containers", &corev1.PodSpec{Containers: []corev1.Container{{RestartPolicy: &always, RestartPolicyRules: all}}}, true},
		{"Pod without rules", &corev1.PodSpec{}, false},
		{"nil spec", nil, false},
		{"only Restart rules", &corev1.PodSpec{Containers: []corev1.Container{{RestartPolicy: &always, RestartPolicyRules: []corev1.ContainerRestartRule{rule(actRestart, opIn, 1)}}}}, false},
		{"ephemeral containers are not checked", &corev1.PodSpec{EphemeralContainers: []corev1.EphemeralContainer{{EphemeralContainerCommon: corev1.EphemeralContainerCommon{RestartPolicyRules: all}}}}, false},
		{"a rule without exitCodes still counts", &corev1.PodSpec{Containers: []corev1.Container{{}, {RestartPolicyRules: []corev1.ContainerRestartRule{{Action: actRestartAll}}}}}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := AllContainersCouldRestart(tc.spec); got != tc.want {
				t.Errorf("AllContainersCouldRestart = %v, want %v", got, tc.want)
			}
		})
	}
}
