package validation

import (
	"fmt"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"

	"github.com/stretchr/testify/require"
)

func warnPod(edit func(p *corev1.Pod)) *corev1.Pod {
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "nginx"}}},
	}
	edit(p)
	return p
}

// TestCreateWarnings checks the server's words for each kind of warning, as
// conformance compares them with upstream on generated objects.
func TestCreateWarnings(t *testing.T) {
	own := metav1.OwnerReference{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-1", UID: types.UID("u1")}
	for _, tc := range []struct {
		name string
		obj  runtime.Object
		want []string
	}{
		{"none", warnPod(func(*corev1.Pod) {}), nil},
		{"pod name", warnPod(func(p *corev1.Pod) { p.Name = "web.v2" }),
			[]string{`metadata.name: this is used in the Pod's hostname, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]`}},
		{"node selector, sorted", warnPod(func(p *corev1.Pod) {
			p.Spec.NodeSelector = map[string]string{"beta.kubernetes.io/os": "linux", "beta.kubernetes.io/arch": "amd64", "kubernetes.io/os": "linux"}
		}), []string{
			`spec.nodeSelector[beta.kubernetes.io/arch]: deprecated since v1.14; use "kubernetes.io/arch" instead`,
			`spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; use "kubernetes.io/os" instead`,
		}},
		{"env hides", warnPod(func(p *corev1.Pod) {
			p.Spec.Containers[0].Env = []corev1.EnvVar{{Name: "A", Value: "1"}, {Name: "A", Value: "$(A):2"}, {Name: "A", Value: "3"}}
		}), []string{`spec.containers[0].env[2]: hides previous definition of "A", which may be dropped when using apply`}},
		{"ports", warnPod(func(p *corev1.Pod) {
			p.Spec.Containers[0].Ports = []corev1.ContainerPort{{Name: "http", ContainerPort: 80}, {ContainerPort: 80, HostPort: 80, HostIP: "10.0.0.1"}}
			p.Spec.Containers = append(p.Spec.Containers, corev1.Container{Name: "sidecar", Image: "envoy",
				Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 80, HostPort: 80}}})
		}), []string{
			`spec.containers[0].ports[1]: overlapping port definition with spec.containers[0].ports[0]`,
			`spec.containers[1].ports[0]: overlapping port definition with spec.containers[0].ports[0]`,
			`spec.containers[1].ports[0]: dangerously ambiguous port definition with spec.containers[0].ports[1]`,
			`spec.containers[1].ports[0]: duplicate port name "http" with spec.containers[0].ports[0], services and probes that select ports by name will use spec.containers[0].ports[0]`,
		}},
		{"overlapping paths", warnPod(func(p *corev1.Pod) {
			p.Spec.Volumes = []corev1.Volume{{Name: "cfg", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
				LocalObjectReference: corev1.LocalObjectReference{Name: "app"},
				Items:                []corev1.KeyToPath{{Key: "a", Path: "conf"}, {Key: "b", Path: "conf/app.yaml"}, {Key: "c", Path: "conf/"}},
			}}}}
		}), []string{
			`volume "cfg" (ConfigMap "app"): overlapping paths: "conf/app.yaml" with "conf"`,
			`volume "cfg" (ConfigMap "app"): overlapping paths: "conf" with "conf"`,
			`volume "cfg" (ConfigMap "app"): overlapping paths: "conf" with "conf/app.yaml"`,
		}},
		{"fractional memory, defaulted request", warnPod(func(p *corev1.Pod) {
			p.Spec.Containers[0].Resources.Limits = corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("1.1Gi")}
		}), []string{
			`spec.containers[0].resources.limits[memory]: fractional byte value "1181116006400m" is invalid, must be an integer`,
			`spec.containers[0].resources.requests[memory]: fractional byte value "1181116006400m" is invalid, must be an integer`,
		}},
		{"refused: only the warnings before validation", warnPod(func(p *corev1.Pod) {
			p.Spec.Containers[0].Image = ""
			p.Spec.NodeSelector = map[string]string{"beta.kubernetes.io/os": "linux"}
			p.Annotations = map[string]string{"container.apparmor.security.beta.kubernetes.io/app": "runtime/default"}
			p.OwnerReferences = []metav1.OwnerReference{own, own}
		}), []string{
			`.metadata.ownerReferences contains duplicate entries; API server dedups owner references in 1.20+, and may reject such requests as early as 1.24; please fix your requests; duplicate UID(s) observed: u1`,
			`metadata.annotations[container.apparmor.security.beta.kubernetes.io/app]: deprecated since v1.30; use the "appArmorProfile" field instead`,
		}},
		{"deployment template", &appsv1.Deployment{
			ObjectMeta: metav1.ObjectMeta{Name: "api.v2"},
			Spec: appsv1.DeploymentSpec{
				Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "api"}},
				Template: corev1.PodTemplateSpec{
					ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "api"},
						Annotations: map[string]string{"seccomp.security.alpha.kubernetes.io/pod": "runtime/default"}},
					Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "api"}}, TerminationGracePeriodSeconds: ptrTo(int64(-1))},
				},
			},
		}, []string{
			`metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]`,
			`spec.template.metadata.annotations[seccomp.security.alpha.kubernetes.io/pod]: non-functional in v1.27+; use the "seccompProfile" field instead`,
			`spec.template.spec.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1`,
		}},
		{"not a kind that holds a pod", &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "a.b"}}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, CreateWarnings(tc.obj, Options{}))
		})
	}
}

// TestDuplicateOwnersValidated: the handler drops repeated owner references before
// validation, so two equal controller references are not two controllers.
func TestDuplicateOwnersValidated(t *testing.T) {
	yes := true
	ref := metav1.OwnerReference{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-1", UID: "u1", Controller: &yes}
	p := warnPod(func(p *corev1.Pod) { p.OwnerReferences = []metav1.OwnerReference{ref, ref} })
	require.Empty(t, ValidatePodCreate(p, Options{}))
	other := ref
	other.Name = "web-2"
	p.OwnerReferences = []metav1.OwnerReference{ref, other}
	require.Len(t, ValidatePodCreate(p, Options{}), 1)
	require.Len(t, p.OwnerReferences, 2, "input untouched")
}

// TestCreateWarningsGrowth counts the work of the comparisons upstream makes between
// every pair: 10,000 ports of one number on distinct host ports, and 10,000 volume
// paths under a few directories, cost about ten times 1,000 of them (pairs compared
// and allocations), not a hundred.
func TestCreateWarningsGrowth(t *testing.T) {
	ports := func(n int) *corev1.Pod {
		return warnPod(func(p *corev1.Pod) {
			for i := range n {
				p.Spec.Containers[0].Ports = append(p.Spec.Containers[0].Ports, corev1.ContainerPort{ContainerPort: 80, HostPort: int32(1000 + i), HostIP: fmt.Sprintf("10.0.%d.%d", i/250, i%250+1)})
			}
		})
	}
	paths := func(n int) *corev1.Pod {
		return warnPod(func(p *corev1.Pod) {
			cm := &corev1.ConfigMapVolumeSource{LocalObjectReference: corev1.LocalObjectReference{Name: "c"}}
			for i := range n {
				cm.Items = append(cm.Items, corev1.KeyToPath{Key: fmt.Sprint(i), Path: fmt.Sprintf("d%d/f%d", i%7, i)})
			}
			p.Spec.Volumes = []corev1.Volume{{Name: "v", VolumeSource: corev1.VolumeSource{ConfigMap: cm}}}
		})
	}
	for name, build := range map[string]func(int) *corev1.Pod{"ports": ports, "paths": paths} {
		small, large := build(1000), build(10000)
		sc, sa := warningsWork(small)
		lc, la := warningsWork(large)
		t.Logf("%s: pairs compared %d → %d, allocations %.0f → %.0f (×%.1f)", name, sc, lc, sa, la, la/sa)
		require.LessOrEqual(t, lc, 12*max(sc, 1), name)
		require.Less(t, la/sa, 12.0, name)
	}
}

// warningsWork is the pairs compared and the allocations of the pod warnings of p.
func warningsWork(p *corev1.Pod) (compared int, allocs float64) {
	var w warningRecorder
	podSpecWarnings(&w, lpath{}, false, &p.Spec, &p.ObjectMeta)
	allocs = testing.AllocsPerRun(3, func() {
		var w warningRecorder
		podSpecWarnings(&w, lpath{}, false, &p.Spec, &p.ObjectMeta)
	})
	return w.compared, allocs
}

// TestCreateWarningsQuiet: a pod with nothing to warn about costs few allocations
// (paths are built only for the warnings found), so that ValidateStream, which looks
// for warnings on every object it creates, stays near its cost without them.
func TestCreateWarningsQuiet(t *testing.T) {
	p := warnPod(func(p *corev1.Pod) {
		p.Spec.InitContainers = []corev1.Container{{Name: "init", Image: "busybox"}}
		p.Spec.Containers[0].Ports = []corev1.ContainerPort{{Name: "http", ContainerPort: 80, Protocol: corev1.ProtocolTCP}}
		p.Spec.Containers[0].Env = []corev1.EnvVar{{Name: "A", Value: "1"}, {Name: "B", Value: "2"}}
		p.Spec.Containers[0].Resources.Limits = corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("128Mi")}
		p.Spec.Volumes = []corev1.Volume{{Name: "v", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}}
	})
	var w warningRecorder
	objectWarnings(&w, p)
	require.Empty(t, w.out)
	allocs := testing.AllocsPerRun(100, func() {
		var w warningRecorder
		objectWarnings(&w, p)
	})
	require.LessOrEqual(t, allocs, 12.0, "allocations of the warnings of a quiet pod")
}
