package validation

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// upPod builds a pod shaped like upstream's podtest.MakePod (k8s.io/kubernetes
// pkg/api/pod/testing/make.go): every field defaulting would fill is already set, so
// the cases below also hold with SkipDefaulting.
func upPod(name string, tweaks ...func(*corev1.Pod)) *corev1.Pod {
	grace := int64(30)
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", ResourceVersion: "1"},
		Spec: corev1.PodSpec{
			Containers:                    []corev1.Container{upCtr("ctr", "image")},
			DNSPolicy:                     corev1.DNSClusterFirst,
			RestartPolicy:                 corev1.RestartPolicyAlways,
			TerminationGracePeriodSeconds: &grace,
		},
	}
	for _, t := range tweaks {
		t(p)
	}
	return p
}

func upCtr(name, image string) corev1.Container {
	return corev1.Container{
		Name: name, Image: image, ImagePullPolicy: corev1.PullIfNotPresent,
		TerminationMessagePolicy: corev1.TerminationMessageReadFile,
		TerminationMessagePath:   corev1.TerminationMessagePathDefault,
	}
}

func withContainers(cs ...corev1.Container) func(*corev1.Pod) {
	return func(p *corev1.Pod) { p.Spec.Containers = cs }
}

func withInit(cs ...corev1.Container) func(*corev1.Pod) {
	return func(p *corev1.Pod) { p.Spec.InitContainers = cs }
}

func withADS(v int64) func(*corev1.Pod) {
	return func(p *corev1.Pod) { p.Spec.ActiveDeadlineSeconds = &v }
}

func withGrace(v int64) func(*corev1.Pod) {
	return func(p *corev1.Pod) { p.Spec.TerminationGracePeriodSeconds = &v }
}

func withNode(n string) func(*corev1.Pod) { return func(p *corev1.Pod) { p.Spec.NodeName = n } }

func withTolerations(ts ...corev1.Toleration) func(*corev1.Pod) {
	return func(p *corev1.Pod) { p.Spec.Tolerations = ts }
}

func withGates(names ...string) func(*corev1.Pod) {
	return func(p *corev1.Pod) {
		for _, n := range names {
			p.Spec.SchedulingGates = append(p.Spec.SchedulingGates, corev1.PodSchedulingGate{Name: n})
		}
	}
}

func withSelector(m map[string]string) func(*corev1.Pod) {
	return func(p *corev1.Pod) { p.Spec.NodeSelector = m }
}

func withAnnotations(m map[string]string) func(*corev1.Pod) {
	return func(p *corev1.Pod) { p.Annotations = m }
}

func withMeta(f func(m *metav1.ObjectMeta)) func(*corev1.Pod) {
	return func(p *corev1.Pod) { f(&p.ObjectMeta) }
}

func withRequiredNodeAffinity(terms ...corev1.NodeSelectorTerm) func(*corev1.Pod) {
	return func(p *corev1.Pod) {
		p.Spec.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{NodeSelectorTerms: terms},
		}}
	}
}

func expr(key string, values ...string) corev1.NodeSelectorRequirement {
	return corev1.NodeSelectorRequirement{Key: key, Operator: corev1.NodeSelectorOpIn, Values: values}
}

func ctrWithLimits(cpu string) corev1.Container {
	c := upCtr("container", "image")
	c.Resources.Limits = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(cpu)}
	return c
}

func ctrWithPort(hostPort int32) corev1.Container {
	c := upCtr("container", "image")
	c.Ports = []corev1.ContainerPort{{HostPort: hostPort, ContainerPort: 80, Protocol: corev1.ProtocolTCP}}
	return c
}

func i64p(v int64) *int64 { return &v }

// firstLines renders errors as their Error() strings cut at the first newline (the
// generic spec Forbidden carries a diff after it, tested separately).
func firstLines(errs field.ErrorList) []string {
	out := make([]string, 0, len(errs))
	for _, e := range errs {
		s, _, _ := strings.Cut(e.Error(), "\n")
		out = append(out, s)
	}
	return out
}

const specForbidden = "spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)"

// TestValidatePodUpdateUpstreamCases re-expresses cases of upstream
// TestValidatePodUpdate (k8s.io/kubernetes pkg/apis/core/validation/validation_test.go)
// with the full expected error lists. Upstream calls ValidatePodUpdate directly; here
// the objects go through the server's update path (SkipDefaulting keeps them as
// written), so metadata rest.BeforeUpdate carries over (the deletion timestamp) is
// restored as the server restores it.
func TestValidatePodUpdateUpstreamCases(t *testing.T) {
	for _, tc := range updateCases() {
		t.Run(tc.name, func(t *testing.T) {
			// The objects are written defaulted, so the answer is the same with the
			// server's defaulting and without.
			for _, skip := range []bool{false, true} {
				got := firstLines(ValidatePodUpdate(tc.new, tc.old, Options{SkipDefaulting: skip}))
				if len(got) == 0 {
					got = nil
				}
				if !reflect.DeepEqual(got, tc.want) {
					t.Errorf("SkipDefaulting %t:\ngot  %q\nwant %q", skip, got, tc.want)
				}
			}
		})
	}
}

// updateCase is one ValidatePodUpdate case: the new object, the stored one, and the
// expected errors (Error() cut at the first newline). Every case is also written to
// testdata/update_cases.json, which the conformance module (package validationrules)
// replays through the API server's real update path.
type updateCase struct {
	name     string
	new, old *corev1.Pod
	want     []string
}

func updateCases() []updateCase {
	now := metav1.NewTime(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	tol := func(key, value, op, effect string, secs *int64) corev1.Toleration {
		return corev1.Toleration{Key: key, Value: value, Operator: corev1.TolerationOperator(op), Effect: corev1.TaintEffect(effect), TolerationSeconds: secs}
	}
	return []updateCase{
		{"nothing", upPod("name"), upPod("name"), nil},
		// Upstream's ValidatePodUpdate reports the rename as an immutable field; the server
		// refuses the PUT before (400 Bad Request: the URL names the stored pod).
		{"ids", upPod("foo"), upPod("bar"), []string{`metadata.name: Invalid value: "foo": the name of the object (foo) does not match the name on the URL (bar)`}},
		{"labels", upPod("foo", func(p *corev1.Pod) { p.Labels = map[string]string{"foo": "bar"} }),
			upPod("foo", func(p *corev1.Pod) { p.Labels = map[string]string{"bar": "foo"} }), nil},
		{"annotations", upPod("foo", withAnnotations(map[string]string{"foo": "bar"})),
			upPod("foo", withAnnotations(map[string]string{"bar": "foo"})), nil},
		{"less containers",
			upPod("foo", withContainers(upCtr("foo", "foo:V2"))),
			upPod("foo", withContainers(upCtr("foo", "foo:V1"), upCtr("bar", "bar:V1"))),
			[]string{"spec.containers: Forbidden: pod updates may not add or remove containers"}},
		{"more containers",
			upPod("foo", withContainers(upCtr("foo", "foo:V2"), upCtr("bar", "bar:V2"))),
			upPod("foo", withContainers(upCtr("foo", "foo:V1"))),
			[]string{"spec.containers: Forbidden: pod updates may not add or remove containers"}},
		{"more init containers",
			upPod("foo", withInit(upCtr("foo", "foo:V2"))),
			upPod("foo", withInit(upCtr("foo", "foo:V1"), upCtr("bar", "bar:V1"))),
			[]string{"spec.initContainers: Forbidden: pod updates may not add or remove containers"}},
		{"deletion timestamp removed (the server carries it over)",
			upPod("foo"), upPod("foo", withMeta(func(m *metav1.ObjectMeta) { m.DeletionTimestamp = &now })), nil},
		{"deletion timestamp added",
			upPod("foo", withMeta(func(m *metav1.ObjectMeta) { m.DeletionTimestamp = &now })), upPod("foo"),
			[]string{`metadata.deletionTimestamp: Invalid value: "2026-01-02T03:04:05Z": field is immutable`}},
		{"deletion grace period seconds changed",
			upPod("foo", withMeta(func(m *metav1.ObjectMeta) { m.DeletionTimestamp = &now; m.DeletionGracePeriodSeconds = i64p(30) })),
			upPod("foo", withMeta(func(m *metav1.ObjectMeta) { m.DeletionTimestamp = &now; m.DeletionGracePeriodSeconds = i64p(31) })),
			[]string{"metadata.deletionGracePeriodSeconds: Invalid value: 30: field is immutable"}},
		{"image change",
			upPod("foo", withContainers(upCtr("container", "foo:V1"))),
			upPod("foo", withContainers(upCtr("container", "foo:V2"))), nil},
		{"init container image change",
			upPod("foo", withInit(upCtr("container", "foo:V1"))),
			upPod("foo", withInit(upCtr("container", "foo:V2"))), nil},
		{"image change to empty",
			upPod("foo", withContainers(upCtr("container", ""))),
			upPod("foo", withContainers(upCtr("container", "foo:V2"))),
			// Twice from the strategy, once on the wire (one error per message).
			[]string{"spec.containers[0].image: Required value"}},
		{"init container image change to empty",
			upPod("foo", withInit(upCtr("container", ""))),
			upPod("foo", withInit(upCtr("container", "foo:V2"))),
			[]string{"spec.initContainers[0].image: Required value"}},
		{"image with surrounding whitespace is reported once (twice by the strategy)",
			upPod("foo", withContainers(upCtr("container", " foo:V1"))),
			upPod("foo", withContainers(upCtr("container", "foo:V2"))),
			[]string{
				`spec.containers[0].image: Invalid value: " foo:V1": must not have leading or trailing whitespace`,
			}},
		{"ephemeralContainer changes are not allowed via normal pod update",
			upPod("foo", func(p *corev1.Pod) {
				p.Spec.EphemeralContainers = []corev1.EphemeralContainer{{EphemeralContainerCommon: corev1.EphemeralContainerCommon{
					Name: "ephemeral", Image: "busybox", ImagePullPolicy: corev1.PullIfNotPresent,
					TerminationMessagePolicy: corev1.TerminationMessageReadFile, TerminationMessagePath: corev1.TerminationMessagePathDefault,
				}}}
			}),
			upPod("foo"), []string{specForbidden}},
		{"activeDeadlineSeconds no change, set", upPod("name", withADS(30)), upPod("name", withADS(30)), nil},
		{"activeDeadlineSeconds change to positive from nil", upPod("name", withADS(30)), upPod("name"), nil},
		{"activeDeadlineSeconds change to smaller positive", upPod("name", withADS(30)), upPod("name", withADS(31)), nil},
		{"activeDeadlineSeconds change to larger positive", upPod("name", withADS(31)), upPod("name", withADS(30)),
			[]string{"spec.activeDeadlineSeconds: Invalid value: 31: must be less than or equal to previous value"}},
		{"activeDeadlineSeconds change to negative from nil", upPod("name", withADS(-30)), upPod("name"),
			[]string{
				"spec.activeDeadlineSeconds: Invalid value: -30: must be between 1 and 2147483647, inclusive",
				"spec.activeDeadlineSeconds: Invalid value: -30: must be between 0 and 2147483647, inclusive",
			}},
		{"activeDeadlineSeconds change to zero from positive", upPod("name", withADS(0)), upPod("name", withADS(30)),
			[]string{"spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive"}},
		{"activeDeadlineSeconds change to nil from positive", upPod("name"), upPod("name", withADS(30)),
			[]string{"spec.activeDeadlineSeconds: Invalid value: null: must not update from a positive integer to nil value"}},
		{"cpu limit change", upPod("pod", withContainers(ctrWithLimits("200m"))), upPod("pod", withContainers(ctrWithLimits("100m"))),
			[]string{specForbidden}},
		{"port change", upPod("pod", withContainers(ctrWithPort(8080))), upPod("pod", withContainers(ctrWithPort(8000))),
			[]string{specForbidden}},
		{"existing toleration value modified in pod spec updates",
			upPod("foo", withNode("node1"), withTolerations(tol("key1", "value2", "", "", nil))),
			upPod("foo", withNode("node1"), withTolerations(tol("key1", "value1", "", "", nil))),
			[]string{"spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds"}},
		{"existing toleration value modified with modified tolerationSeconds",
			upPod("foo", withNode("node1"), withTolerations(tol("key1", "value2", "Equal", "NoExecute", nil))),
			upPod("foo", withNode("node1"), withTolerations(tol("key1", "value1", "Equal", "NoExecute", i64p(10)))),
			[]string{"spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds"}},
		{"modified tolerationSeconds in existing toleration",
			upPod("foo", withNode("node1"), withTolerations(tol("key1", "value1", "Equal", "NoExecute", i64p(10)))),
			upPod("foo", withNode("node1"), withTolerations(tol("key1", "value1", "Equal", "NoExecute", i64p(20)))), nil},
		{"added valid new toleration",
			upPod("foo", withNode("node1"), withTolerations(tol("key1", "value1", "Equal", "NoExecute", i64p(20)), tol("key2", "value2", "Equal", "NoExecute", i64p(30)))),
			upPod("foo", withNode("node1"), withTolerations(tol("key1", "value1", "Equal", "NoExecute", i64p(10)))), nil},
		{"added invalid new toleration (reported by the spec and by the update check, once on the wire)",
			upPod("foo", withNode("node1"), withTolerations(tol("key1", "value1", "Equal", "NoExecute", i64p(20)), tol("key2", "value2", "Equal", "NoSchedule", i64p(30)))),
			upPod("foo", withNode("node1"), withTolerations(tol("key1", "value1", "Equal", "NoExecute", i64p(10)))),
			[]string{
				`spec.tolerations[1].effect: Invalid value: "NoSchedule": effect must be 'NoExecute' when ` + "`tolerationSeconds`" + ` is set`,
			}},
		{"removed nodeName from pod spec", upPod("foo", withNode("foo")), upPod("foo"), []string{specForbidden}},
		{"added mirror pod annotation",
			upPod("foo", withNode("foo"), withAnnotations(map[string]string{"kubernetes.io/config.mirror": ""})), upPod("foo", withNode("foo")),
			[]string{"metadata.annotations[kubernetes.io/config.mirror]: Forbidden: may not add mirror pod annotation"}},
		{"removed mirror pod annotation",
			upPod("foo", withNode("foo")), upPod("foo", withNode("foo"), withAnnotations(map[string]string{"kubernetes.io/config.mirror": ""})),
			[]string{"metadata.annotations[kubernetes.io/config.mirror]: Forbidden: may not remove or update mirror pod annotation"}},
		{"changed mirror pod annotation",
			upPod("foo", withNode("foo"), withAnnotations(map[string]string{"kubernetes.io/config.mirror": "foo"})),
			upPod("foo", withNode("foo"), withAnnotations(map[string]string{"kubernetes.io/config.mirror": "bar"})),
			[]string{"metadata.annotations[kubernetes.io/config.mirror]: Forbidden: may not remove or update mirror pod annotation"}},
		{"changed priority class name",
			upPod("foo", withNode("node1"), func(p *corev1.Pod) { p.Spec.PriorityClassName = "bar-priority" }),
			upPod("foo", withNode("node1"), func(p *corev1.Pod) { p.Spec.PriorityClassName = "foo-priority" }),
			[]string{specForbidden}},
		{"update termination grace period seconds", upPod("foo", withGrace(1)), upPod("foo", withGrace(-1)), nil},
		{"update termination grace period seconds not 1", upPod("foo", withGrace(0)), upPod("foo", withGrace(-1)), []string{specForbidden}},
		{"schedulingGates: add new scheduling gate", upPod("foo", withGates("foo")), upPod("foo"),
			[]string{"spec.schedulingGates[0].name: Forbidden: only deletion is allowed, but found new scheduling gate 'foo'"}},
		{"schedulingGates: mutating an existing scheduling gate", upPod("foo", withGates("bar")), upPod("foo", withGates("foo")),
			[]string{"spec.schedulingGates[0].name: Forbidden: only deletion is allowed, but found new scheduling gate 'bar'"}},
		{"schedulingGates: mutation along with deletion", upPod("foo", withGates("bar")), upPod("foo", withGates("foo", "baz")),
			[]string{"spec.schedulingGates[0].name: Forbidden: only deletion is allowed, but found new scheduling gate 'bar'"}},
		{"schedulingGates: legal deletion", upPod("foo"), upPod("foo", withGates("foo")), nil},
		{"adding node selector is allowed for gated pods",
			upPod("foo", withGates("foo"), withSelector(map[string]string{"foo": "bar"})), upPod("foo", withGates("foo")), nil},
		{"adding node selector is not allowed for non-gated pods",
			upPod("foo", withSelector(map[string]string{"foo": "bar"})), upPod("foo"), []string{specForbidden}},
		{"removing node selector is not allowed for gated pods",
			upPod("foo", withGates("foo")), upPod("foo", withGates("foo"), withSelector(map[string]string{"foo": "bar"})),
			[]string{"spec.nodeSelector: Invalid value: null: only additions to spec.nodeSelector are allowed (no mutations or deletions)"}},
		{"modifying value of existing node selector is not allowed",
			upPod("foo", withGates("foo"), withSelector(map[string]string{"foo": "bar2"})),
			upPod("foo", withGates("foo"), withSelector(map[string]string{"foo": "bar"})),
			[]string{`spec.nodeSelector: Invalid value: {"foo":"bar2"}: only additions to spec.nodeSelector are allowed (no mutations or deletions)`}},
		{"old pod gated, new pod not, node selector added",
			upPod("foo", withSelector(map[string]string{"foo": "bar"})), upPod("foo", withGates("foo")), nil},
		{"addition to nodeAffinity is allowed for gated pods",
			upPod("foo", withGates("foo"), withRequiredNodeAffinity(corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{expr("expr", "foo"), expr("expr2", "foo2")}})),
			upPod("foo", withGates("foo"), withRequiredNodeAffinity(corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{expr("expr", "foo")}})), nil},
		{"addition to nodeAffinity is not allowed for non-gated pods",
			upPod("foo", withRequiredNodeAffinity(corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{expr("expr", "foo"), expr("expr2", "foo2")}})),
			upPod("foo", withRequiredNodeAffinity(corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{expr("expr", "foo")}})),
			[]string{specForbidden}},
		{"nodeAffinity deletion from MatchExpressions not allowed",
			upPod("foo", withGates("foo"), withRequiredNodeAffinity(corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{expr("expr", "foo")}})),
			upPod("foo", withGates("foo"), withRequiredNodeAffinity(corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{expr("expr", "foo"), expr("expr2", "foo2")}})),
			[]string{`spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]: Invalid value: {"MatchExpressions":[{"Key":"expr","Operator":"In","Values":["foo"]}],"MatchFields":null}: only additions are allowed (no mutations or deletions)`}},
		{"nodeSelectorTerms addition on gated pod should fail",
			upPod("foo", withGates("foo"), withRequiredNodeAffinity(
				corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{expr("expr", "foo")}},
				corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{expr("expr2", "foo2")}})),
			upPod("foo", withGates("foo"), withRequiredNodeAffinity(corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{expr("expr", "foo")}})),
			[]string{`spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: Invalid value: [{"MatchExpressions":[{"Key":"expr","Operator":"In","Values":["foo"]}],"MatchFields":null},{"MatchExpressions":[{"Key":"expr2","Operator":"In","Values":["foo2"]}],"MatchFields":null}]: no additions/deletions to non-empty NodeSelectorTerms list are allowed`}},
		{"new node affinity is nil on a gated pod",
			upPod("foo", withGates("foo")),
			upPod("foo", withGates("foo"), withRequiredNodeAffinity(corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{expr("expr", "foo")}})),
			[]string{`spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: Invalid value: null: no additions/deletions to non-empty NodeSelectorTerms list are allowed`}},
		// Only the registry's common check knows URL path segments.
		// A stored pod named so would be refused by the store's key function.
		{"name with a slash",
			upPod("a/b"), upPod("a/b"),
			[]string{`metadata.name: Invalid value: "a/b": Name parameter invalid: "a/b": may not contain '/'`}},
		// Pods allow unconditional updates: the store gives the new object the stored
		// resourceVersion before ValidateObjectMetaUpdate could miss it.
		{"missing resourceVersion", upPod("foo", withMeta(func(m *metav1.ObjectMeta) { m.ResourceVersion = "" })), upPod("foo"), nil},
		{"stale resourceVersion", upPod("foo", withMeta(func(m *metav1.ObjectMeta) { m.ResourceVersion = "1" })),
			upPod("foo", withMeta(func(m *metav1.ObjectMeta) { m.ResourceVersion = "2" })),
			[]string{`metadata.resourceVersion: Invalid value: "1": Operation cannot be fulfilled on pods "foo": the object has been modified; please apply your changes to the latest version and try again`}},
		{"malformed resourceVersion", upPod("foo", withMeta(func(m *metav1.ObjectMeta) { m.ResourceVersion = "x1" })), upPod("foo"),
			[]string{`metadata.resourceVersion: Internal error: strconv.ParseUint: parsing "x1": invalid syntax`}},
		{"other uid", upPod("foo", withMeta(func(m *metav1.ObjectMeta) { m.UID = "u2" })), upPod("foo", withMeta(func(m *metav1.ObjectMeta) { m.UID = "u1" })),
			[]string{`metadata.uid: Invalid value: "u2": Operation cannot be fulfilled on pods "foo": StorageError: invalid object, Code: 4, Key: /registry/pods/default/foo, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: u2, UID in object meta: u1`}},
		{"other namespace", upPod("foo", withMeta(func(m *metav1.ObjectMeta) { m.Namespace = "other" })), upPod("foo"),
			[]string{`metadata.namespace: Invalid value: "other": ` + NamespaceMismatchDetail}},
		{"no namespace takes the stored one", upPod("foo", withMeta(func(m *metav1.ObjectMeta) { m.Namespace = "" })), upPod("foo"), nil},
		{"no name", upPod(""), upPod("foo"),
			[]string{`metadata.name: Invalid value: "": the name of the object (foo based on URL) was undeterminable: name must be provided`}},
		{"updated restartPolicyRules",
			upPod("foo", func(p *corev1.Pod) {
				never := corev1.ContainerRestartPolicyNever
				p.Spec.Containers[0].RestartPolicy = &never
				p.Spec.Containers[0].RestartPolicyRules = []corev1.ContainerRestartRule{{Action: corev1.ContainerRestartRuleActionRestart,
					ExitCodes: &corev1.ContainerRestartRuleOnExitCodes{Operator: corev1.ContainerRestartRuleOnExitCodesOpIn, Values: []int32{42}}}}
			}),
			upPod("foo"), []string{specForbidden}},
	}
}

// goldenUpdateCase is the JSON form of an updateCase in testdata/update_cases.json.
type goldenUpdateCase struct {
	Name string      `json:"name"`
	New  *corev1.Pod `json:"new"`
	Old  *corev1.Pod `json:"old"`
	Want []string    `json:"want"`
}

// TestUpdateGoldenUpToDate keeps testdata/update_cases.json equal to updateCases (see
// checkGolden: a rewrite never passes).
func TestUpdateGoldenUpToDate(t *testing.T) {
	var all []goldenUpdateCase
	for _, c := range updateCases() {
		want := c.want
		if want == nil {
			want = []string{}
		}
		all = append(all, goldenUpdateCase{Name: c.name, New: c.new, Old: c.old, Want: want})
	}
	b, err := json.MarshalIndent(all, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "testdata/update_cases.json", append(b, '\n'))
}

// TestValidatePodUpdateDefaulting covers what the server's defaulting does to an
// update: an image change re-derives imagePullPolicy when the client does not send
// it, and pod-level resources a client drops are restored from the stored pod.
func TestValidatePodUpdateDefaulting(t *testing.T) {
	stored := func(image string) *corev1.Pod {
		return &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", ResourceVersion: "7"},
			Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: image}}},
		}
	}
	t.Run("image tag change re-derives imagePullPolicy", func(t *testing.T) {
		errs := ValidatePodUpdate(stored("nginx:1.2"), stored("nginx"), Options{})
		if got := firstLines(errs); !reflect.DeepEqual(got, []string{specForbidden}) {
			t.Fatalf("got %q", got)
		}
		// Upstream's text for this update (a unified diff of the internal PodSpec JSON).
		want := "@@ -27,7 +27,7 @@\n" +
			`    "Lifecycle": null,` + "\n" +
			`    "TerminationMessagePath": "/dev/termination-log",` + "\n" +
			`    "TerminationMessagePolicy": "File",` + "\n" +
			`-   "ImagePullPolicy": "Always",` + "\n" +
			`+   "ImagePullPolicy": "IfNotPresent",` + "\n" +
			`    "SecurityContext": null,` + "\n" +
			`    "Stdin": false,` + "\n" +
			`    "StdinOnce": false,` + "\n"
		_, diff, _ := strings.Cut(errs[0].Detail, "\n")
		if diff != want {
			t.Errorf("diff:\n%s\nwant:\n%s", diff, want)
		}
	})
	t.Run("image tag change with an explicit imagePullPolicy", func(t *testing.T) {
		n, o := stored("nginx:1.2"), stored("nginx")
		n.Spec.Containers[0].ImagePullPolicy = corev1.PullAlways
		if errs := ValidatePodUpdate(n, o, Options{}); len(errs) != 0 {
			t.Fatalf("got %q", firstLines(errs))
		}
	})
	t.Run("dropped pod-level resources are restored", func(t *testing.T) {
		o := stored("nginx")
		o.Spec.Resources = &corev1.ResourceRequirements{Limits: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1")}}
		n := stored("nginx")
		if errs := ValidatePodUpdate(n, o, Options{}); len(errs) != 0 {
			t.Fatalf("got %q", firstLines(errs))
		}
	})
	t.Run("stop signal added while ContainerStopSignals is off is dropped", func(t *testing.T) {
		n := stored("nginx")
		sig := corev1.SIGUSR1
		n.Spec.Containers[0].Lifecycle = &corev1.Lifecycle{StopSignal: &sig}
		if errs := ValidatePodUpdate(n, stored("nginx"), Options{}); len(errs) != 0 {
			t.Fatalf("got %q", firstLines(errs))
		}
	})
	t.Run("nil pods", func(t *testing.T) {
		got := firstLines(ValidatePodUpdate(nil, nil, Options{}))
		// The registry's common metadata checks come first (rest.ValidateUpdate).
		want := []string{
			"metadata.name: Required value: name or generateName is required",
			"metadata.namespace: Required value",
			`metadata.resourceVersion: Invalid value: "": must be specified for an update`,
			"spec.containers: Required value",
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("got  %q\nwant %q", got, want)
		}
	})
}

// fuzzPodSeeds are pod manifests the fuzzers start from.
var fuzzPodSeeds = []string{
	`{"metadata":{"name":"web","namespace":"default","resourceVersion":"1"},"spec":{"containers":[{"name":"app","image":"nginx"}]}}`,
	`{"metadata":{"name":"web","namespace":"default","resourceVersion":"2","labels":{"app":"web"}},"spec":{"activeDeadlineSeconds":30,"terminationGracePeriodSeconds":-1,` +
		`"tolerations":[{"key":"k","operator":"Exists","effect":"NoExecute","tolerationSeconds":5}],"schedulingGates":[{"name":"g"}],"nodeSelector":{"a":"b"},` +
		`"initContainers":[{"name":"side","image":"busybox","restartPolicy":"Always","resources":{"limits":{"cpu":"1"}}}],` +
		`"containers":[{"name":"app","image":"nginx:1.2","ports":[{"containerPort":80,"hostPort":8080}],"resources":{"requests":{"memory":"1Gi"}},` +
		`"lifecycle":{"stopSignal":"SIGUSR1","preStop":{"sleep":{"seconds":5}}},"livenessProbe":{"httpGet":{"port":80}}}],"resources":{"limits":{"cpu":"2"}}}}`,
	`{"metadata":{"name":"x","namespace":"y","annotations":{"kubernetes.io/config.mirror":"m"}},"spec":{"affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchExpressions":[{"key":"z","operator":"In","values":["a"]}]}]}}},"containers":[]}}`,
	`{}`,
}

// FuzzValidatePodUpdate checks that ValidatePodUpdate never panics, never modifies its
// inputs, and answers the same twice.
func FuzzValidatePodUpdate(f *testing.F) {
	for _, a := range fuzzPodSeeds {
		for _, b := range fuzzPodSeeds {
			f.Add([]byte(a), []byte(b), false)
		}
	}
	f.Fuzz(func(t *testing.T, newJSON, oldJSON []byte, skip bool) {
		var n, o corev1.Pod
		if json.Unmarshal(newJSON, &n) != nil || json.Unmarshal(oldJSON, &o) != nil {
			t.Skip()
		}
		nc, oc := n.DeepCopy(), o.DeepCopy()
		opts := Options{SkipDefaulting: skip}
		first := ValidatePodUpdate(&n, &o, opts)
		if !reflect.DeepEqual(nc, &n) || !reflect.DeepEqual(oc, &o) {
			t.Fatal("input modified")
		}
		second := ValidatePodUpdate(&n, &o, opts)
		if !reflect.DeepEqual(errorStrings(first), errorStrings(second)) {
			t.Fatalf("not deterministic:\n%q\n%q", errorStrings(first), errorStrings(second))
		}
		// An unchanged stored pod is never refused for changing the spec.
		for _, e := range ValidatePodUpdate(&o, &o, opts) {
			if e.Field == "spec" && e.Type == field.ErrorTypeForbidden {
				t.Fatalf("identical update refused: %v", e)
			}
		}
	})
}

func errorStrings(errs field.ErrorList) []string {
	out := make([]string, len(errs))
	for i, e := range errs {
		out[i] = e.Error()
	}
	return out
}

// A client changes the image of a stored pod (allowed) and lowers its active deadline
// (allowed), then tries to add a container (refused).
func ExampleValidatePodUpdate() {
	deadline := int64(600)
	stored := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", ResourceVersion: "41"},
		Spec: corev1.PodSpec{
			ActiveDeadlineSeconds: &deadline,
			Containers:            []corev1.Container{{Name: "app", Image: "nginx:1.27"}},
		},
	}

	next := stored.DeepCopy()
	next.Spec.Containers[0].Image = "nginx:1.28"
	shorter := int64(300)
	next.Spec.ActiveDeadlineSeconds = &shorter
	fmt.Println(len(ValidatePodUpdate(next, stored, Options{})), "errors")

	next.Spec.Containers = append(next.Spec.Containers, corev1.Container{Name: "sidecar", Image: "envoy:1.30"})
	for _, err := range ValidatePodUpdate(next, stored, Options{}) {
		fmt.Println(err)
	}
	// Output:
	// 0 errors
	// spec.containers: Forbidden: pod updates may not add or remove containers
}
