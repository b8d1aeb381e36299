package validation

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/podlife/podlife"
)

// naiveFeatureGateHints is FeatureGateHints's definition: one validation per
// candidate gate, nothing shared. The function must give its answer exactly.
func naiveFeatureGateHints(obj runtime.Object, opts Options) []GateHint {
	before := ValidateObjectCreate(obj, opts)
	if len(before) == 0 {
		return nil
	}
	var hints []GateHint
	eachCandidate(opts.Features, func(gate string, features podlife.FeatureGates, deps []string) {
		o := opts
		o.Features = features
		if fixed := naiveVanished(before, ValidateObjectCreate(obj, o)); len(fixed) > 0 {
			hints = append(hints, GateHint{Gate: gate, Dependencies: deps, Fixed: fixed})
		}
	})
	return hints
}

// naiveVanished returns the errors of before that after does not have (each error of
// after cancels one of before with the same text).
func naiveVanished(before, after field.ErrorList) field.ErrorList {
	left := make(map[string]int, len(after))
	for _, e := range after {
		left[e.Error()]++
	}
	var out field.ErrorList
	for _, e := range before {
		if left[e.Error()] > 0 {
			left[e.Error()]--
			continue
		}
		out = append(out, e)
	}
	return out
}

// hintsText renders hints with every error's text, for exact comparison.
func hintsText(hints []GateHint) string {
	var sb strings.Builder
	for _, h := range hints {
		fmt.Fprintf(&sb, "%s %q:", h.Gate, h.Dependencies)
		for _, e := range h.Fixed {
			fmt.Fprintf(&sb, " %q", e.Error())
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// hintObjects are objects whose errors gates can fix: pods and workloads with gated
// fields, under default and overriding options (AllAlpha, AllBeta, single gates).
func hintObjects() []struct {
	name string
	obj  runtime.Object
	opts Options
} {
	never := corev1.ContainerRestartPolicyNever
	gated := func(p *corev1.PodSpec) {
		p.Tolerations = []corev1.Toleration{{Key: "k", Operator: "Gt", Value: "5", Effect: corev1.TaintEffectNoSchedule}}
		p.Containers[0].RestartPolicy = &never
		p.Containers[0].RestartPolicyRules = []corev1.ContainerRestartRule{{Action: "RestartAllContainers",
			ExitCodes: &corev1.ContainerRestartRuleOnExitCodes{Operator: "In", Values: []int32{42}}}}
		p.Containers[0].Env = []corev1.EnvVar{{Name: "E", ValueFrom: &corev1.EnvVarSource{FileKeyRef: &corev1.FileKeySelector{VolumeName: "v", Path: "p", Key: "k"}}}}
		p.Resources = &corev1.ResourceRequirements{Limits: corev1.ResourceList{corev1.ResourceCPU: q("1")}}
		p.HostUsers = ptr(false)
		p.HostNetwork = true
	}
	spec := func() corev1.PodSpec {
		s := corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "img"}}, RestartPolicy: corev1.RestartPolicyAlways}
		gated(&s)
		return s
	}
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns"}, Spec: spec()}
	labels := map[string]string{"app": "w"}
	template := corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels}, Spec: spec()}
	deployment := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "d", Namespace: "ns"},
		Spec: appsv1.DeploymentSpec{Selector: &metav1.LabelSelector{MatchLabels: labels}, Template: template}}
	jobTemplate := *template.DeepCopy()
	jobTemplate.Spec.RestartPolicy = corev1.RestartPolicyNever
	job := &batchv1.Job{ObjectMeta: metav1.ObjectMeta{Name: "j", Namespace: "ns"}, Spec: batchv1.JobSpec{Template: jobTemplate}}
	cron := &batchv1.CronJob{ObjectMeta: metav1.ObjectMeta{Name: "cj", Namespace: "ns"},
		Spec: batchv1.CronJobSpec{Schedule: "*/5 * * * *", JobTemplate: batchv1.JobTemplateSpec{Spec: batchv1.JobSpec{Template: *jobTemplate.DeepCopy()}}}}
	sts := &appsv1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Name: "s", Namespace: "ns"},
		Spec: appsv1.StatefulSetSpec{Selector: &metav1.LabelSelector{MatchLabels: labels}, Template: *template.DeepCopy()}}
	ds := &appsv1.DaemonSet{ObjectMeta: metav1.ObjectMeta{Name: "ds", Namespace: "ns"},
		Spec: appsv1.DaemonSetSpec{Selector: &metav1.LabelSelector{MatchLabels: labels}, Template: *template.DeepCopy()}}
	rs := &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: "rs", Namespace: "ns"},
		Spec: appsv1.ReplicaSetSpec{Selector: &metav1.LabelSelector{MatchLabels: labels}, Template: *template.DeepCopy()}}
	rc := &corev1.ReplicationController{ObjectMeta: metav1.ObjectMeta{Name: "rc", Namespace: "ns"},
		Spec: corev1.ReplicationControllerSpec{Selector: labels, Template: template.DeepCopy()}}
	pt := &corev1.PodTemplate{ObjectMeta: metav1.ObjectMeta{Name: "pt", Namespace: "ns"}, Template: *template.DeepCopy()}
	invalidOnly := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p"}, Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "BAD"}}}}

	options := []struct {
		name string
		opts Options
	}{
		{"default", Options{}},
		{"AllAlpha+AllBeta", Options{Features: podlife.FeatureGates{"AllAlpha": true, "AllBeta": true}}},
		{"AllBeta off", Options{Features: podlife.FeatureGates{"AllBeta": false}}},
		{"AllAlpha off", Options{Features: podlife.FeatureGates{"AllAlpha": false}}},
		{"ContainerRestartRules on", Options{Features: podlife.FeatureGates{"ContainerRestartRules": true}}},
		{"PodLevelResources off", Options{Features: podlife.FeatureGates{"PodLevelResources": false}}},
		{"an unknown gate", Options{Features: podlife.FeatureGates{"NoSuchGate": true}}},
	}
	var out []struct {
		name string
		obj  runtime.Object
		opts Options
	}
	for _, o := range []struct {
		name string
		obj  runtime.Object
	}{
		{"pod", pod}, {"deployment", deployment}, {"job", job}, {"cronjob", cron}, {"statefulset", sts},
		{"daemonset", ds}, {"replicaset", rs}, {"replicationcontroller", rc}, {"podtemplate", pt},
		{"pod with ungated errors only", invalidOnly},
	} {
		for _, op := range options {
			out = append(out, struct {
				name string
				obj  runtime.Object
				opts Options
			}{o.name + "/" + op.name, o.obj, op.opts})
		}
	}
	// The create cases of the rule tables, each with its own gates.
	for _, f := range families {
		for _, c := range f.cases {
			if len(c.want) == 0 {
				continue
			}
			out = append(out, struct {
				name string
				obj  runtime.Object
				opts Options
			}{"case " + f.name + "/" + c.name, c.pod(), Options{Features: c.features, AllowPrivileged: c.privileged, Namespace: c.namespace}})
		}
	}
	return out
}

// TestFeatureGateHintsExact checks that FeatureGateHints, which validates once per
// distinct set of gate values, answers exactly as the one-validation-per-gate
// definition, on workloads and pods with gated fields under several options and on
// every create case of the rule tables, and that it validates far fewer times.
func TestFeatureGateHintsExact(t *testing.T) {
	objs := hintObjects()
	someHints := 0
	for _, o := range objs {
		before := o.obj.DeepCopyObject()
		validations := 0
		count := func(obj runtime.Object, opts Options) field.ErrorList {
			validations++
			return ValidateObjectCreate(obj, opts)
		}
		got := featureGateHints(o.obj, o.opts, count)
		want := naiveFeatureGateHints(o.obj, o.opts)
		if g, w := hintsText(got), hintsText(want); g != w {
			t.Errorf("%s: got\n%s\nwant\n%s", o.name, g, w)
		}
		if len(got) > 0 {
			someHints++
		}
		// One validation for the first answer and at most one per distinct key.
		if validations > 1+maxDistinctKeys {
			t.Errorf("%s: %d validations", o.name, validations)
		}
		if !reflect.DeepEqual(before, o.obj) {
			t.Errorf("%s: the object changed", o.name)
		}
		// The hints own their lists: changing one changes no other.
		for i := range got {
			for j := range i {
				if len(got[i].Fixed) > 0 && len(got[j].Fixed) > 0 && &got[i].Fixed[0] == &got[j].Fixed[0] {
					t.Errorf("%s: hints %s and %s share their Fixed list", o.name, got[i].Gate, got[j].Gate)
				}
			}
		}
	}
	if someHints < 20 {
		t.Errorf("only %d of %d objects have hints: the table does not exercise the sharing", someHints, len(objs))
	}
}

// maxDistinctKeys bounds the validations after the first answer: the candidate gates
// that change some gate validation reads, in the default gates and with AllAlpha and
// AllBeta.
const maxDistinctKeys = 40

// TestFeatureGateHintsValidations counts the validations of one call on an invalid pod
// under the default gates and under AllAlpha+AllBeta (deterministic, unlike its time):
// the first answer and one per distinct set of gate values, not one per candidate.
func TestFeatureGateHintsValidations(t *testing.T) {
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns"}, Spec: corev1.PodSpec{
		Containers:  []corev1.Container{{Name: "c", Image: "img"}},
		Tolerations: []corev1.Toleration{{Key: "k", Operator: "Gt", Value: "5", Effect: corev1.TaintEffectNoSchedule}},
	}}
	for _, tc := range []struct {
		name                    string
		features                podlife.FeatureGates
		candidates, validations int
	}{
		{"default gates", nil, 69, 18},
		{"AllAlpha+AllBeta off", podlife.FeatureGates{"AllAlpha": false, "AllBeta": false}, 166, 36},
	} {
		t.Run(tc.name, func(t *testing.T) {
			validations, candidates := 0, 0
			featureGateHints(pod, Options{Features: tc.features}, func(obj runtime.Object, opts Options) field.ErrorList {
				validations++
				return ValidateObjectCreate(obj, opts)
			})
			keys := map[gateKey]bool{keyOf(tc.features): true}
			eachCandidate(tc.features, func(_ string, f podlife.FeatureGates, _ []string) {
				candidates++
				keys[keyOf(f)] = true
			})
			t.Logf("%d candidate gates, %d validations (%d distinct keys beside the first answer's)", candidates, validations, len(keys)-1)
			if validations != len(keys) {
				t.Errorf("%d validations, want %d: the first answer and one per distinct key", validations, len(keys))
			}
			if candidates != tc.candidates || validations != tc.validations {
				t.Errorf("%d candidates and %d validations, want %d and %d", candidates, validations, tc.candidates, tc.validations)
			}
		})
	}
}

// TestServedGatesComplete checks that servedGates lists every gate of servedKinds.
func TestServedGatesComplete(t *testing.T) {
	var want []string
	for _, k := range servedKinds {
		if k.gate != "" && !slices.Contains(want, k.gate) {
			want = append(want, k.gate)
		}
	}
	slices.Sort(want)
	if got := servedGates[:]; !slices.Equal(got, want) {
		t.Errorf("servedGates = %q, servedKinds use %q", got, want)
	}
}
