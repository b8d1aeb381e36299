package defaulting

import (
	"fmt"
	"math/rand"
	"reflect"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/podlife/podlife/internal/gates"
)

// prune zeroes each field reachable from v with probability 1/3 (a quantity is a
// leaf), so that a filled pod becomes one where some defaults apply and others do
// not.
func prune(v reflect.Value, r *rand.Rand) {
	if v.Type() == reflect.TypeFor[resource.Quantity]() {
		return
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Slice:
		if v.IsNil() {
			return
		}
		if r.Intn(3) == 0 {
			v.Set(reflect.Zero(v.Type()))
			return
		}
		if v.Kind() == reflect.Pointer {
			prune(v.Elem(), r)
			return
		}
		for i := 0; i < v.Len(); i++ {
			prune(v.Index(i), r)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				prune(v.Field(i), r)
			}
		}
	case reflect.Map:
		if !v.IsNil() && r.Intn(3) == 0 {
			v.Set(reflect.Zero(v.Type()))
		}
	case reflect.String, reflect.Bool, reflect.Int, reflect.Int32, reflect.Int64:
		if r.Intn(3) == 0 {
			v.Set(reflect.Zero(v.Type()))
		}
	}
}

// oneMember keeps one field of the struct v (a volume source, a projection), as a
// valid one holds, or none at one time in eight (an empty volume source is
// defaulted to emptyDir).
func oneMember(v reflect.Value, r *rand.Rand) {
	keep := r.Intn(v.NumField())
	if r.Intn(8) == 0 {
		keep = -1
	}
	for f := 0; f < v.NumField(); f++ {
		if f != keep {
			v.Field(f).Set(reflect.Zero(v.Field(f).Type()))
		}
	}
}

// readOnlyCorpus returns pods for the copy-on-write tests: pods with every field set,
// and pruned variants of them, half of those with one member per volume source and
// projection; some run on the host network, and some carry the
// AppArmor annotation of each container (the annotations path writes security
// contexts).
func readOnlyCorpus() []*corev1.Pod {
	var pods []*corev1.Pod
	r := rand.New(rand.NewSource(1))
	for i := range 120 {
		var pod corev1.Pod
		counter := 0
		fill(reflect.ValueOf(&pod).Elem(), 1+i%3, &counter, 0)
		if i > 0 {
			prune(reflect.ValueOf(&pod.Spec).Elem(), r)
		}
		if i%2 == 0 {
			for j := range pod.Spec.Volumes {
				oneMember(reflect.ValueOf(&pod.Spec.Volumes[j].VolumeSource).Elem(), r)
				if p := pod.Spec.Volumes[j].Projected; p != nil {
					for k := range p.Sources {
						oneMember(reflect.ValueOf(&p.Sources[k]).Elem(), r)
					}
				}
			}
		}
		pod.Spec.HostNetwork = i%4 == 1
		if i%3 == 2 {
			pod.Annotations = map[string]string{}
			for j, c := range pod.Spec.Containers {
				pod.Annotations[corev1.DeprecatedAppArmorBetaContainerAnnotationKeyPrefix+c.Name] =
					[]string{corev1.DeprecatedAppArmorBetaProfileRuntimeDefault, corev1.DeprecatedAppArmorBetaProfileNameUnconfined, "localhost/p"}[j%3]
			}
		}
		pods = append(pods, &pod)
	}
	return pods
}

// readOnlyGates are the gate sets the copy-on-write tests run under: the defaults,
// AllAlpha, AllBeta and every gate off (every drop runs).
func readOnlyGates() []gates.FeatureGates {
	off := gates.FeatureGates{}
	for _, n := range gates.Known() {
		off[n] = false
	}
	return []gates.FeatureGates{nil, {"AllAlpha": true}, {"AllBeta": true}, off,
		{"H2CContainerProbe": true}, {"PodLevelResourcesFixDefaulting": false}}
}

// TestReadOnlyCopyOnWrite checks the read-only pod path (share.go) on filled and
// pruned pods under several gate sets: the result equals the copying path's, the
// input is left as it was, and calls from several goroutines on one input run side
// by side (under -race this proves that no write, not even of an equal value,
// reaches the memory the results share with the input).
func TestReadOnlyCopyOnWrite(t *testing.T) {
	for i, pod := range readOnlyCorpus() {
		for _, g := range readOnlyGates() {
			name := fmt.Sprintf("pod %d gates %v", i, g)
			before := pod.DeepCopy()
			want := Pod(pod, Options{Features: g})
			var wg sync.WaitGroup
			got := make([]*corev1.Pod, 3)
			for k := range got {
				wg.Go(func() { got[k] = Pod(pod, Options{Features: g, ReadOnly: true}) })
			}
			wg.Wait()
			if !reflect.DeepEqual(before, pod) {
				t.Fatalf("%s: input modified", name)
			}
			for _, out := range got {
				if !reflect.DeepEqual(out, want) {
					t.Fatalf("%s: ReadOnly result differs:\n%s\n%s", name, mustJSON(t, out), mustJSON(t, want))
				}
			}
		}
	}
}

// TestReadOnlySharesUnwritten checks that the read-only path shares what the
// defaulting does not write into: a fully set container's probes, security context,
// mounts and env, and a persistent volume claim source.
func TestReadOnlySharesUnwritten(t *testing.T) {
	one := int32(1)
	pod := &corev1.Pod{Spec: corev1.PodSpec{
		Containers: []corev1.Container{{
			Name: "c", Image: "x", ImagePullPolicy: corev1.PullAlways,
			Ports:           []corev1.ContainerPort{{ContainerPort: 80, Protocol: corev1.ProtocolTCP}},
			Env:             []corev1.EnvVar{{Name: "A", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.name"}}}},
			VolumeMounts:    []corev1.VolumeMount{{Name: "v", MountPath: "/v"}},
			LivenessProbe:   &corev1.Probe{ProbeHandler: corev1.ProbeHandler{Exec: &corev1.ExecAction{Command: []string{"true"}}}, TimeoutSeconds: 1, PeriodSeconds: 1, SuccessThreshold: 1, FailureThreshold: 1},
			ReadinessProbe:  &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/"}}, TimeoutSeconds: 1, PeriodSeconds: 1, SuccessThreshold: 1, FailureThreshold: 1},
			SecurityContext: &corev1.SecurityContext{RunAsNonRoot: new(bool)},
		}},
		Volumes: []corev1.Volume{
			{Name: "v", VolumeSource: corev1.VolumeSource{PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{ClaimName: "c"}}},
			{Name: "s", VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: "s"}}},
			{Name: "p", VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{DefaultMode: &one, Sources: []corev1.VolumeProjection{
				{ConfigMap: &corev1.ConfigMapProjection{Items: []corev1.KeyToPath{{Key: "k", Path: "p"}}}}}}}},
		},
	}}
	out := Pod(pod, Options{ReadOnly: true})
	in, c := &pod.Spec.Containers[0], &out.Spec.Containers[0]
	for _, s := range []struct {
		name  string
		a, b  any
		share bool
	}{
		{"container list", &pod.Spec.Containers[0], &out.Spec.Containers[0], false},
		{"ports", &in.Ports[0], &c.Ports[0], true},
		{"env", &in.Env[0], &c.Env[0], true},
		{"mounts", &in.VolumeMounts[0], &c.VolumeMounts[0], true},
		{"exec probe", in.LivenessProbe, c.LivenessProbe, true},
		{"HTTP probe (its action is defaulted)", in.ReadinessProbe, c.ReadinessProbe, false},
		{"security context", in.SecurityContext, c.SecurityContext, true},
		{"volume list", &pod.Spec.Volumes[0], &out.Spec.Volumes[0], false},
		{"claim source", pod.Spec.Volumes[0].PersistentVolumeClaim, out.Spec.Volumes[0].PersistentVolumeClaim, true},
		{"secret source (its mode is defaulted)", pod.Spec.Volumes[1].Secret, out.Spec.Volumes[1].Secret, false},
		{"projected source", pod.Spec.Volumes[2].Projected, out.Spec.Volumes[2].Projected, true},
	} {
		if got := reflect.ValueOf(s.a).Pointer() == reflect.ValueOf(s.b).Pointer(); got != s.share {
			t.Errorf("%s: shared = %v, want %v", s.name, got, s.share)
		}
	}
	pvcOnly := &corev1.Pod{Spec: corev1.PodSpec{Volumes: pod.Spec.Volumes[:1]}}
	if got := Pod(pvcOnly, Options{ReadOnly: true}).Spec.Volumes; &got[0] != &pvcOnly.Spec.Volumes[0] {
		t.Error("a volume list the defaulting leaves alone is copied")
	}
	if got := *out.Spec.Volumes[1].Secret.DefaultMode; got != corev1.SecretVolumeSourceDefaultMode || pod.Spec.Volumes[1].Secret.DefaultMode != nil {
		t.Errorf("secret default mode: out %d, input %v", got, pod.Spec.Volumes[1].Secret.DefaultMode)
	}
}

// TestReadOnlySettledResources checks which containers the read-only path marks as
// settled (their resource lists left as they are, so the defaulting skips them) and
// that the result still equals the copying path's, with pod-level resources under
// the current and the legacy pod-level defaulting.
func TestReadOnlySettledResources(t *testing.T) {
	q := resource.MustParse
	list := func(kv ...string) corev1.ResourceList {
		l := corev1.ResourceList{}
		for i := 0; i < len(kv); i += 2 {
			l[corev1.ResourceName(kv[i])] = q(kv[i+1])
		}
		return l
	}
	res := []corev1.ResourceRequirements{
		{},                           // settled: nothing to do
		{Limits: list("cpu", "1")},   // requests built from the limits
		{Requests: list("cpu", "1")}, // settled
		{Limits: list("cpu", "1"), Requests: list("cpu", "500m")},               // settled
		{Limits: list("cpu", "1", "memory", "1Gi"), Requests: list("cpu", "1")}, // a limit without a request
		{Requests: list("cpu", "1500u")},                                        // rounded
		{Limits: list("memory", "1.5m"), Requests: list("memory", "1")},         // rounded
		{Limits: corev1.ResourceList{}, Requests: list("cpu", "1")},             // settled
	}
	var containers, inits []corev1.Container
	for i, r := range res {
		containers = append(containers, corev1.Container{Name: fmt.Sprintf("c%d", i), Image: "app", Resources: r})
		inits = append(inits, corev1.Container{Name: fmt.Sprintf("i%d", i), Image: "app", Resources: *r.DeepCopy()})
	}
	const want = 0b10001101
	for _, podLevel := range []*corev1.ResourceRequirements{nil, {Limits: list("cpu", "4")}} {
		pod := &corev1.Pod{Spec: corev1.PodSpec{InitContainers: inits, Containers: containers, Resources: podLevel}}
		var out corev1.PodSpec
		g := gates.FeatureGates(nil).Resolve()
		if got := sharePodSpec(&pod.Spec, &out, &g); got != (settledResources{init: want, regular: want}) {
			t.Errorf("settled: got %b/%b, want %b", got.init, got.regular, want)
		}
		for _, fg := range []gates.FeatureGates{nil, {"PodLevelResourcesFixDefaulting": false}} {
			before := pod.DeepCopy()
			got := Pod(pod, Options{Features: fg, ReadOnly: true})
			if !reflect.DeepEqual(before, pod) {
				t.Fatalf("gates %v: input modified", fg)
			}
			if w := Pod(pod, Options{Features: fg}); !reflect.DeepEqual(got, w) {
				t.Errorf("gates %v: ReadOnly result differs:\n%s\n%s", fg, mustJSON(t, got), mustJSON(t, w))
			}
		}
	}
}

// TestReadOnlyAnnotations checks that the read-only path shares the annotations
// unless the pod has an init-container annotation, which the result drops and the
// input keeps.
func TestReadOnlyAnnotations(t *testing.T) {
	plain := &corev1.Pod{}
	plain.Annotations = map[string]string{"a": "1"}
	if got := Pod(plain, Options{ReadOnly: true}); reflect.ValueOf(got.Annotations).UnsafePointer() != reflect.ValueOf(plain.Annotations).UnsafePointer() {
		t.Errorf("annotations without init-container keys: copied, want shared")
	}
	old := &corev1.Pod{}
	old.Annotations = map[string]string{"a": "1", "pod.beta.kubernetes.io/init-containers": "[]"}
	got := Pod(old, Options{ReadOnly: true})
	if want := map[string]string{"a": "1"}; !reflect.DeepEqual(got.Annotations, want) {
		t.Errorf("result annotations %v, want %v", got.Annotations, want)
	}
	if len(old.Annotations) != 2 {
		t.Errorf("input annotations modified: %v", old.Annotations)
	}
}
