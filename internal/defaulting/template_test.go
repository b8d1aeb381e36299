package defaulting

import (
	"reflect"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podlife/podlife/internal/gates"
)

func TestDefaultTemplate(t *testing.T) {
	cases := []struct {
		name  string
		tmpl  *corev1.PodTemplateSpec
		opts  Options
		check func(*corev1.PodTemplateSpec) string
		want  string
	}{
		{
			name: "limits are not copied into requests, but are rounded",
			tmpl: &corev1.PodTemplateSpec{Spec: corev1.PodSpec{Containers: []corev1.Container{ctr("a", limits("cpu", "0.1m", "memory", "1Gi"))}}},
			check: func(p *corev1.PodTemplateSpec) string {
				return rs(p.Spec.Containers[0].Resources.Requests) + " " + rs(p.Spec.Containers[0].Resources.Limits)
			},
			want: `<nil> {"cpu":"1m","memory":"1Gi"}`,
		},
		{
			name: "PodSpec defaults without the Pod-only ones",
			tmpl: &corev1.PodTemplateSpec{Spec: corev1.PodSpec{
				HostNetwork:                   true,
				TerminationGracePeriodSeconds: ptrTo(int64(-1)),
				Containers:                    []corev1.Container{ctr("a", func(c *corev1.Container) { c.Ports = []corev1.ContainerPort{{ContainerPort: 80}} })},
			}},
			check: func(p *corev1.PodTemplateSpec) string { return js(p.Spec) },
			want: `{"containers":[{"name":"a","image":"busybox:1.36","ports":[{"containerPort":80,"protocol":"TCP"}],"resources":{},` +
				`"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","imagePullPolicy":"IfNotPresent"}],` +
				`"restartPolicy":"Always","terminationGracePeriodSeconds":-1,"dnsPolicy":"ClusterFirst","hostNetwork":true,"securityContext":{},"schedulerName":"default-scheduler"}`,
		},
		{
			name: "pod-level resources are not defaulted",
			tmpl: &corev1.PodTemplateSpec{Spec: corev1.PodSpec{
				Resources:  &corev1.ResourceRequirements{Limits: rl("cpu", "2")},
				Containers: []corev1.Container{ctr("a", requests("cpu", "500m"))},
			}},
			check: func(p *corev1.PodTemplateSpec) string { return js(p.Spec.Resources) },
			want:  `{"limits":{"cpu":"2"}}`,
		},
		{
			name: "disabled fields are dropped and legacy annotations removed",
			tmpl: &corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{"pod.alpha.kubernetes.io/init-containers": "[]"}},
				Spec: corev1.PodSpec{Containers: []corev1.Container{ctr("a", func(c *corev1.Container) {
					sig := corev1.SIGKILL
					c.Lifecycle = &corev1.Lifecycle{StopSignal: &sig, PreStop: &corev1.LifecycleHandler{Sleep: &corev1.SleepAction{Seconds: 1}}}
				})}},
			},
			check: func(p *corev1.PodTemplateSpec) string { return js(p.Annotations) + js(p.Spec.Containers[0].Lifecycle) },
			want:  `{}{"preStop":{"sleep":{"seconds":1}}}`,
		},
		{
			name: "ContainerStopSignals on keeps the stop signal",
			opts: Options{Features: gates.FeatureGates{"ContainerStopSignals": true}},
			tmpl: &corev1.PodTemplateSpec{Spec: corev1.PodSpec{Containers: []corev1.Container{ctr("a", func(c *corev1.Container) {
				sig := corev1.SIGKILL
				c.Lifecycle = &corev1.Lifecycle{StopSignal: &sig}
			})}}},
			check: func(p *corev1.PodTemplateSpec) string { return js(p.Spec.Containers[0].Lifecycle) },
			want:  `{"stopSignal":"SIGKILL"}`,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := tc.tmpl.DeepCopy()
			got := Template(tc.tmpl, tc.opts)
			if !reflect.DeepEqual(before, tc.tmpl) {
				t.Error("input modified")
			}
			if s := tc.check(got); s != tc.want {
				t.Errorf("got  %s\nwant %s", s, tc.want)
			}
		})
	}
	if defaultTemplate(nil) != nil {
		t.Error("nil template must give nil")
	}
}

func TestPodFromTemplate(t *testing.T) {
	tmpl := &corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{
			Name: "ignored", Labels: map[string]string{"app": "web"}, Annotations: map[string]string{"a": "b"},
			Finalizers: []string{"example.com/f"},
		},
		Spec: corev1.PodSpec{Containers: []corev1.Container{ctr("a", limits("cpu", "1", "memory", "1Gi"))}},
	}
	yes := true
	ref := &metav1.OwnerReference{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-7d9f", UID: "u", Controller: &yes, BlockOwnerDeletion: &yes}
	cases := []struct {
		name string
		opts PodFromTemplateOptions
		want string
	}{
		{"name prefix with dash", PodFromTemplateOptions{ControllerName: "web-7d9f", ControllerRef: ref, Namespace: "ns"},
			`{"generateName":"web-7d9f-","namespace":"ns","generation":1,"labels":{"app":"web"},"annotations":{"a":"b"},` +
				`"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web-7d9f","uid":"u","controller":true,"blockOwnerDeletion":true}],"finalizers":["example.com/f"]}`},
		{"invalid prefix keeps the bare name", PodFromTemplateOptions{ControllerName: "Web"},
			`{"generateName":"Web","generation":1,"labels":{"app":"web"},"annotations":{"a":"b"},"finalizers":["example.com/f"]}`},
		{"too long a prefix keeps the bare name (254 characters; 253 pass, the dash check masks two)", PodFromTemplateOptions{ControllerName: strings.Repeat("n", 254)},
			`{"generateName":"` + strings.Repeat("n", 254) + `","generation":1,"labels":{"app":"web"},"annotations":{"a":"b"},"finalizers":["example.com/f"]}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := tmpl.DeepCopy()
			pod := PodFromTemplate(tmpl, tc.opts)
			if !reflect.DeepEqual(before, tmpl) {
				t.Error("input modified")
			}
			if got := js(pod.ObjectMeta); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
			if got := rs(pod.Spec.Containers[0].Resources.Requests) + " " + string(pod.Status.QOSClass); got != `{"cpu":"1","memory":"1Gi"} Guaranteed` {
				t.Errorf("pod not defaulted: %s", got)
			}
		})
	}
	if PodFromTemplate(nil, PodFromTemplateOptions{}) != nil {
		t.Error("nil template must give nil")
	}
	// The pod shares nothing with the template.
	pod := PodFromTemplate(tmpl, PodFromTemplateOptions{})
	pod.Labels["app"] = "changed"
	pod.Spec.Containers[0].Name = "changed"
	if tmpl.Labels["app"] != "web" || tmpl.Spec.Containers[0].Name != "a" {
		t.Error("pod aliases the template")
	}
}

// FuzzTemplates checks DefaultTemplate, DefaultTemplateForUpdate and PodFromTemplate:
// no panic, input untouched, deterministic, DefaultTemplate idempotent, resending a
// stored template a no-op, and a pod from a stored template equal to the pod from the
// raw one.
func FuzzTemplates(f *testing.F) {
	f.Add([]byte{}, "web")
	f.Add([]byte{1, 1, 1, 3, 2, 1, 3, 2, 5, 1, 2, 1, 1, 1}, "Web-")
	f.Add([]byte("a template with sidecars"), strings.Repeat("x", 300))
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, data []byte, controller string) {
		s := &bytesrc{b: data}
		p := s.pod()
		tmpl := &corev1.PodTemplateSpec{ObjectMeta: p.ObjectMeta, Spec: p.Spec}
		opts := Options{Features: fuzzGates(s), Now: now}
		before := tmpl.DeepCopy()
		stored := Template(tmpl, opts)
		if !reflect.DeepEqual(before, tmpl) {
			t.Fatal("DefaultTemplate modified its input")
		}
		if a, b := mustJSON(t, stored), mustJSON(t, Template(tmpl, opts)); a != b {
			t.Fatal("DefaultTemplate not deterministic")
		}
		if a, b := mustJSON(t, stored), mustJSON(t, Template(stored, opts)); a != b {
			t.Fatalf("DefaultTemplate not idempotent:\n%s\n%s", a, b)
		}
		if a, b := mustJSON(t, stored), mustJSON(t, TemplateForUpdate(tmpl, nil, opts)); a != b {
			t.Fatal("DefaultTemplateForUpdate without a stored template differs from DefaultTemplate")
		}
		storedBefore := stored.DeepCopy()
		if a, b := mustJSON(t, stored), mustJSON(t, TemplateForUpdate(stored, stored, opts)); a != b {
			t.Fatalf("resending the stored template changed it:\n%s\n%s", a, b)
		}
		if !reflect.DeepEqual(storedBefore, stored) {
			t.Fatal("DefaultTemplateForUpdate modified its input")
		}
		popts := PodFromTemplateOptions{Options: opts, ControllerName: controller, Namespace: "ns"}
		fromRaw := PodFromTemplate(tmpl, popts)
		if !reflect.DeepEqual(before, tmpl) {
			t.Fatal("PodFromTemplate modified its input")
		}
		if a, b := mustJSON(t, fromRaw), mustJSON(t, PodFromTemplate(stored, popts)); a != b {
			t.Fatalf("pod from raw and from stored template differ:\n%s\n%s", a, b)
		}
		if fromRaw.Status.QOSClass == "" || fromRaw.GenerateName == "" && controller != "" {
			t.Fatalf("pod not created: %+v", fromRaw.ObjectMeta)
		}
	})
}

func TestDefaultTemplateForUpdate(t *testing.T) {
	withSignal := &corev1.PodTemplateSpec{Spec: corev1.PodSpec{Containers: []corev1.Container{ctr("a", func(c *corev1.Container) {
		sig := corev1.SIGKILL
		c.Lifecycle = &corev1.Lifecycle{StopSignal: &sig}
	})}}}
	without := &corev1.PodTemplateSpec{Spec: corev1.PodSpec{Containers: []corev1.Container{ctr("a")}}}
	cases := []struct {
		name     string
		new, old *corev1.PodTemplateSpec
		want     string
	}{
		{"kept when the stored template uses it", withSignal, withSignal, `{"stopSignal":"SIGKILL"}`},
		{"dropped when the stored template does not", withSignal, without, `null`},
		{"dropped without a stored template", withSignal, nil, `null`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := tc.new.DeepCopy()
			got := TemplateForUpdate(tc.new, tc.old, Options{})
			if !reflect.DeepEqual(before, tc.new) {
				t.Error("input modified")
			}
			if s := js(got.Spec.Containers[0].Lifecycle); s != tc.want {
				t.Errorf("got %s, want %s", s, tc.want)
			}
			if got.Spec.RestartPolicy != corev1.RestartPolicyAlways {
				t.Error("template not defaulted")
			}
		})
	}
	if TemplateForUpdate(nil, without, Options{}) != nil {
		t.Error("nil template must give nil")
	}
}

// TestPodFromTemplateWireTimes: the timestamps of an ephemeral volume claim template
// arrive over the wire in whole seconds, and a pointer to the zero time as nil (found by
// the conformance generator filling every PodSpec leaf: managedFields[].time set to the
// zero time gave "time": null where the server stores nothing).
func TestPodFromTemplateWireTimes(t *testing.T) {
	zero := metav1.Time{}
	frac := metav1.NewTime(time.Date(2026, 1, 2, 3, 4, 5, 600_000_000, time.UTC))
	tmpl := &corev1.PodTemplateSpec{Spec: corev1.PodSpec{Containers: []corev1.Container{ctr("a")}, Volumes: []corev1.Volume{{Name: "v",
		VolumeSource: corev1.VolumeSource{Ephemeral: &corev1.EphemeralVolumeSource{VolumeClaimTemplate: &corev1.PersistentVolumeClaimTemplate{
			ObjectMeta: metav1.ObjectMeta{CreationTimestamp: frac, DeletionTimestamp: &zero,
				ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "m", Time: &zero}, {Manager: "n", Time: &frac}}}}}}}}}}
	before := tmpl.DeepCopy()
	pod := PodFromTemplate(tmpl, PodFromTemplateOptions{})
	if !reflect.DeepEqual(before, tmpl) {
		t.Error("input modified")
	}
	m := pod.Spec.Volumes[0].Ephemeral.VolumeClaimTemplate.ObjectMeta
	want := `{"creationTimestamp":"2026-01-02T03:04:05Z","managedFields":[{"manager":"m"},{"manager":"n","time":"2026-01-02T03:04:05Z"}]}`
	if got := js(m); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if m.CreationTimestamp.Nanosecond() != 0 || m.DeletionTimestamp != nil || m.ManagedFields[0].Time != nil || m.ManagedFields[1].Time.Nanosecond() != 0 {
		t.Errorf("times not as the wire leaves them: %+v", m)
	}
}
