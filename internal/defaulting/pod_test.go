package defaulting

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"reflect"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podlife/podlife/internal/gates"
)

func rl(kv ...string) corev1.ResourceList {
	out := corev1.ResourceList{}
	for i := 0; i < len(kv); i += 2 {
		out[corev1.ResourceName(kv[i])] = resource.MustParse(kv[i+1])
	}
	return out
}

// rs renders a resource list as "name=quantity" pairs in name order, "<nil>" for nil.
func rs(l corev1.ResourceList) string {
	if l == nil {
		return "<nil>"
	}
	b, _ := json.Marshal(l)
	return string(b)
}

func js(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return err.Error()
	}
	return string(b)
}

func ctr(name string, mod ...func(*corev1.Container)) corev1.Container {
	c := corev1.Container{Name: name, Image: "busybox:1.36"}
	for _, m := range mod {
		m(&c)
	}
	return c
}

func limits(kv ...string) func(*corev1.Container) {
	return func(c *corev1.Container) { c.Resources.Limits = rl(kv...) }
}

func requests(kv ...string) func(*corev1.Container) {
	return func(c *corev1.Container) { c.Resources.Requests = rl(kv...) }
}

func sidecar(c *corev1.Container) {
	always := corev1.ContainerRestartPolicyAlways
	c.RestartPolicy = &always
}

func TestDefault(t *testing.T) {
	cases := []struct {
		name  string
		pod   *corev1.Pod
		opts  Options
		check func(*corev1.Pod) string
		want  string
	}{
		{
			name: "empty pod gets the PodSpec and Pod defaults",
			pod:  &corev1.Pod{},
			check: func(p *corev1.Pod) string {
				return js(p.Spec) + " " + js(p.Status) + fmt.Sprint(" generation=", p.Generation)
			},
			want: `{"containers":null,"restartPolicy":"Always","terminationGracePeriodSeconds":30,"dnsPolicy":"ClusterFirst","securityContext":{},"schedulerName":"default-scheduler","enableServiceLinks":true} {"phase":"Pending","qosClass":"BestEffort"} generation=1`,
		},
		{
			name: "limits-only container gets requests equal to its limits (regular and init)",
			pod: &corev1.Pod{Spec: corev1.PodSpec{
				InitContainers: []corev1.Container{ctr("init", limits("cpu", "100m", "memory", "1Gi"))},
				Containers:     []corev1.Container{ctr("app", limits("cpu", "100m", "memory", "1Gi"))},
			}},
			check: func(p *corev1.Pod) string {
				return rs(p.Spec.InitContainers[0].Resources.Requests) + " " + rs(p.Spec.Containers[0].Resources.Requests) + " " + string(p.Status.QOSClass)
			},
			want: `{"cpu":"100m","memory":"1Gi"} {"cpu":"100m","memory":"1Gi"} Guaranteed`,
		},
		{
			name: "explicit zero request is kept (upstream TestSetDefaultRequestsPod)",
			pod: &corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{
				ctr("app", requests("memory", "0"), limits("cpu", "100m", "memory", "1Gi")),
			}}},
			check: func(p *corev1.Pod) string { return rs(p.Spec.Containers[0].Resources.Requests) },
			want:  `{"cpu":"100m","memory":"0"}`,
		},
		{
			name: "empty limits map gives an empty requests map",
			pod: &corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{
				ctr("app", func(c *corev1.Container) { c.Resources.Limits = corev1.ResourceList{} }),
			}}},
			check: func(p *corev1.Pod) string {
				return fmt.Sprint(p.Spec.Containers[0].Resources.Requests != nil, len(p.Spec.Containers[0].Resources.Requests))
			},
			want: "true 0",
		},
		{
			name: "ephemeral containers do not get requests from limits",
			pod: &corev1.Pod{Spec: corev1.PodSpec{EphemeralContainers: []corev1.EphemeralContainer{{
				EphemeralContainerCommon: corev1.EphemeralContainerCommon{Name: "debug", Resources: corev1.ResourceRequirements{Limits: rl("cpu", "1")}},
			}}}},
			check: func(p *corev1.Pod) string { return rs(p.Spec.EphemeralContainers[0].Resources.Requests) },
			want:  "<nil>",
		},
		{
			name: "quantities are rounded up to milli precision (upstream TestSetMinimumScalePod)",
			pod: &corev1.Pod{Spec: corev1.PodSpec{
				Containers:     []corev1.Container{ctr("app", requests("memory", "1n"), limits("cpu", "2n"))},
				InitContainers: []corev1.Container{ctr("init", requests("memory", "1n", "cpu", "1.0001"))},
				Overhead:       rl("cpu", "0.1m"),
			}},
			check: func(p *corev1.Pod) string {
				return rs(p.Spec.Containers[0].Resources.Requests) + " " + rs(p.Spec.InitContainers[0].Resources.Requests) + " " + rs(p.Spec.Overhead)
			},
			want: `{"cpu":"1m","memory":"1m"} {"cpu":"1001m","memory":"1m"} {"cpu":"1m"}`,
		},
		{
			name: "negative grace period becomes 1",
			pod:  &corev1.Pod{Spec: corev1.PodSpec{TerminationGracePeriodSeconds: ptrTo(int64(-5))}},
			check: func(p *corev1.Pod) string {
				return fmt.Sprint(*p.Spec.TerminationGracePeriodSeconds)
			},
			want: "1",
		},
		{
			name: "deprecated service account is kept in sync, serviceAccountName wins",
			pod:  &corev1.Pod{Spec: corev1.PodSpec{DeprecatedServiceAccount: "old", ServiceAccountName: "new"}},
			check: func(p *corev1.Pod) string {
				return p.Spec.ServiceAccountName + "/" + p.Spec.DeprecatedServiceAccount
			},
			want: "new/new",
		},
		{
			name: "service account from the deprecated alias",
			pod:  &corev1.Pod{Spec: corev1.PodSpec{DeprecatedServiceAccount: "old"}},
			check: func(p *corev1.Pod) string {
				return p.Spec.ServiceAccountName + "/" + p.Spec.DeprecatedServiceAccount
			},
			want: "old/old",
		},
		{
			name: "host network copies container ports to host ports, for init containers too",
			pod: &corev1.Pod{Spec: corev1.PodSpec{
				HostNetwork: true,
				InitContainers: []corev1.Container{ctr("i", func(c *corev1.Container) {
					c.Ports = []corev1.ContainerPort{{ContainerPort: 53, Protocol: corev1.ProtocolUDP}}
				})},
				Containers: []corev1.Container{ctr("a", func(c *corev1.Container) {
					c.Ports = []corev1.ContainerPort{{ContainerPort: 8080}, {ContainerPort: 9090, HostPort: 9999}}
				})},
			}},
			check: func(p *corev1.Pod) string { return js(p.Spec.InitContainers[0].Ports) + js(p.Spec.Containers[0].Ports) },
			want:  `[{"hostPort":53,"containerPort":53,"protocol":"UDP"}][{"hostPort":8080,"containerPort":8080,"protocol":"TCP"},{"hostPort":9999,"containerPort":9090,"protocol":"TCP"}]`,
		},
		{
			name: "ports without host network keep hostPort 0",
			pod: &corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{
				ctr("a", func(c *corev1.Container) { c.Ports = []corev1.ContainerPort{{ContainerPort: 8080}} }),
			}}},
			check: func(p *corev1.Pod) string { return js(p.Spec.Containers[0].Ports) },
			want:  `[{"containerPort":8080,"protocol":"TCP"}]`,
		},
		{
			name: "probes and handlers",
			pod: &corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{ctr("a", func(c *corev1.Container) {
				c.LivenessProbe = &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{}}}
				c.ReadinessProbe = &corev1.Probe{ProbeHandler: corev1.ProbeHandler{GRPC: &corev1.GRPCAction{Port: 9000}}, PeriodSeconds: 3, InitialDelaySeconds: 4}
				c.StartupProbe = &corev1.Probe{ProbeHandler: corev1.ProbeHandler{TCPSocket: &corev1.TCPSocketAction{}}, FailureThreshold: 30}
				c.Lifecycle = &corev1.Lifecycle{PreStop: &corev1.LifecycleHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/quit"}}}
			})}}},
			check: func(p *corev1.Pod) string {
				c := p.Spec.Containers[0]
				return js(c.LivenessProbe) + js(c.ReadinessProbe) + js(c.StartupProbe) + js(c.Lifecycle)
			},
			want: `{"httpGet":{"path":"/","port":0,"scheme":"HTTP"},"timeoutSeconds":1,"periodSeconds":10,"successThreshold":1,"failureThreshold":3}` +
				`{"grpc":{"port":9000,"service":""},"initialDelaySeconds":4,"timeoutSeconds":1,"periodSeconds":3,"successThreshold":1,"failureThreshold":3}` +
				`{"tcpSocket":{"port":0},"timeoutSeconds":1,"periodSeconds":10,"successThreshold":1,"failureThreshold":30}` +
				`{"preStop":{"httpGet":{"path":"/quit","port":0,"scheme":"HTTP"}}}`,
		},
		{
			name: "http probe protocol is dropped while H2CContainerProbe is off",
			pod: &corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{ctr("a", func(c *corev1.Container) {
				h2c := corev1.HTTPProtocolHTTP2
				c.LivenessProbe = &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Protocol: &h2c}}}
			})}}},
			check: func(p *corev1.Pod) string { return js(p.Spec.Containers[0].LivenessProbe.HTTPGet) },
			want:  `{"path":"/","port":0,"scheme":"HTTP"}`,
		},
		{
			name: "H2CContainerProbe on defaults the protocol to HTTP1",
			opts: Options{Features: gates.FeatureGates{"H2CContainerProbe": true, "NodeDeclaredFeatures": true}},
			pod: &corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{ctr("a", func(c *corev1.Container) {
				c.LivenessProbe = &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{}}}
			})}}},
			check: func(p *corev1.Pod) string { return js(p.Spec.Containers[0].LivenessProbe.HTTPGet) },
			want:  `{"path":"/","port":0,"scheme":"HTTP","protocol":"HTTP1"}`,
		},
		{
			name: "env field refs and file key refs",
			pod: &corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{ctr("a", func(c *corev1.Container) {
				c.Env = []corev1.EnvVar{
					{Name: "A", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.name"}}},
					{Name: "B", ValueFrom: &corev1.EnvVarSource{FileKeyRef: &corev1.FileKeySelector{VolumeName: "v", Path: "p", Key: "k"}}},
					{Name: "C", Value: "x"},
				}
			})}}},
			check: func(p *corev1.Pod) string { return js(p.Spec.Containers[0].Env) },
			want:  `[{"name":"A","valueFrom":{"fieldRef":{"apiVersion":"v1","fieldPath":"metadata.name"}}},{"name":"B","valueFrom":{"fileKeyRef":{"volumeName":"v","path":"p","key":"k","optional":false}}},{"name":"C","value":"x"}]`,
		},
		{
			name: "container stop signal is dropped while ContainerStopSignals is off",
			pod: &corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{ctr("a", func(c *corev1.Container) {
				sig := corev1.SIGTERM
				c.Lifecycle = &corev1.Lifecycle{StopSignal: &sig}
			})}}},
			check: func(p *corev1.Pod) string { return js(p.Spec.Containers[0].Lifecycle) },
			want:  `null`,
		},
		{
			name: "volumes",
			pod: &corev1.Pod{Spec: corev1.PodSpec{Volumes: []corev1.Volume{
				{Name: "empty"},
				{Name: "secret", VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: "s"}}},
				{Name: "cm", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{DefaultMode: ptrTo(int32(0o400))}}},
				{Name: "host", VolumeSource: corev1.VolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: "/x"}}},
				{Name: "img", VolumeSource: corev1.VolumeSource{Image: &corev1.ImageVolumeSource{Reference: "registry.k8s.io/x:latest"}}},
				{Name: "proj", VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{Sources: []corev1.VolumeProjection{
					{ServiceAccountToken: &corev1.ServiceAccountTokenProjection{Path: "t"}},
					{DownwardAPI: &corev1.DownwardAPIProjection{Items: []corev1.DownwardAPIVolumeFile{{Path: "n", FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.name"}}}}},
				}}}},
				{Name: "rbd", VolumeSource: corev1.VolumeSource{RBD: &corev1.RBDVolumeSource{CephMonitors: []string{"m"}, RBDImage: "i"}}},
			}}},
			check: func(p *corev1.Pod) string { return js(p.Spec.Volumes) },
			want: `[{"name":"empty","emptyDir":{}},{"name":"secret","secret":{"secretName":"s","defaultMode":420}},{"name":"cm","configMap":{"defaultMode":256}},` +
				`{"name":"host","hostPath":{"path":"/x","type":""}},{"name":"img","image":{"reference":"registry.k8s.io/x:latest","pullPolicy":"Always"}},` +
				`{"name":"proj","projected":{"sources":[{"serviceAccountToken":{"expirationSeconds":3600,"path":"t"}},{"downwardAPI":{"items":[{"path":"n","fieldRef":{"apiVersion":"v1","fieldPath":"metadata.name"}}]}}],"defaultMode":420}},` +
				`{"name":"rbd","rbd":{"monitors":["m"],"image":"i","pool":"rbd","user":"admin","keyring":"/etc/ceph/keyring"}}]`,
		},
		{
			name: "more volume sources (upstream TestPodDefaults volume paths)",
			pod: &corev1.Pod{Spec: corev1.PodSpec{Volumes: []corev1.Volume{
				{Name: "iscsi", VolumeSource: corev1.VolumeSource{ISCSI: &corev1.ISCSIVolumeSource{TargetPortal: "t", IQN: "q"}}},
				{Name: "azure", VolumeSource: corev1.VolumeSource{AzureDisk: &corev1.AzureDiskVolumeSource{DiskName: "d", DataDiskURI: "u"}}},
				{Name: "scaleio", VolumeSource: corev1.VolumeSource{ScaleIO: &corev1.ScaleIOVolumeSource{Gateway: "g", System: "s"}}},
				{Name: "dapi", VolumeSource: corev1.VolumeSource{DownwardAPI: &corev1.DownwardAPIVolumeSource{}}},
				{Name: "eph", VolumeSource: corev1.VolumeSource{Ephemeral: &corev1.EphemeralVolumeSource{VolumeClaimTemplate: &corev1.PersistentVolumeClaimTemplate{
					Spec: corev1.PersistentVolumeClaimSpec{Resources: corev1.VolumeResourceRequirements{Requests: rl("storage", "1.0001Gi")}}}}}},
				{Name: "img", VolumeSource: corev1.VolumeSource{Image: &corev1.ImageVolumeSource{Reference: "registry.k8s.io/x:v1"}}},
			}}},
			check: func(p *corev1.Pod) string { return js(p.Spec.Volumes) },
			want: `[{"name":"iscsi","iscsi":{"targetPortal":"t","iqn":"q","lun":0,"iscsiInterface":"default"}},` +
				`{"name":"azure","azureDisk":{"diskName":"d","diskURI":"u","cachingMode":"ReadWrite","fsType":"ext4","readOnly":false,"kind":"Shared"}},` +
				`{"name":"scaleio","scaleIO":{"gateway":"g","system":"s","secretRef":null,"storageMode":"ThinProvisioned","fsType":"xfs"}},` +
				`{"name":"dapi","downwardAPI":{"defaultMode":420}},` +
				`{"name":"eph","ephemeral":{"volumeClaimTemplate":{"metadata":{},"spec":{"resources":{"requests":{"storage":"1073849198183m"}},"volumeMode":"Filesystem"}}}},` +
				`{"name":"img","image":{"reference":"registry.k8s.io/x:v1","pullPolicy":"IfNotPresent"}}]`,
		},
		{
			name: "ephemeral containers get container defaults",
			pod: &corev1.Pod{Spec: corev1.PodSpec{EphemeralContainers: []corev1.EphemeralContainer{{
				EphemeralContainerCommon: corev1.EphemeralContainerCommon{Name: "debug", Image: "busybox",
					Ports:          []corev1.ContainerPort{{ContainerPort: 1}},
					ReadinessProbe: &corev1.Probe{ProbeHandler: corev1.ProbeHandler{GRPC: &corev1.GRPCAction{Port: 1}}}},
				TargetContainerName: "app",
			}}}},
			check: func(p *corev1.Pod) string { return js(p.Spec.EphemeralContainers) },
			want: `[{"name":"debug","image":"busybox","ports":[{"containerPort":1,"protocol":"TCP"}],"resources":{},` +
				`"readinessProbe":{"grpc":{"port":1,"service":""},"timeoutSeconds":1,"periodSeconds":10,"successThreshold":1,"failureThreshold":3},` +
				`"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","imagePullPolicy":"Always","targetContainerName":"app"}]`,
		},
		{
			name: "restart rules are dropped when ContainerRestartRules is off, sidecars kept",
			opts: Options{Features: gates.FeatureGates{"ContainerRestartRules": false, "RestartAllContainersOnContainerExits": false}},
			pod: &corev1.Pod{Spec: corev1.PodSpec{
				InitContainers: []corev1.Container{ctr("side", sidecar), ctr("init", func(c *corev1.Container) {
					never := corev1.ContainerRestartPolicyNever
					c.RestartPolicy = &never
				})},
				Containers: []corev1.Container{ctr("app", sidecar)},
			}},
			check: func(p *corev1.Pod) string {
				return js(p.Spec.InitContainers[0].RestartPolicy) + js(p.Spec.InitContainers[1].RestartPolicy) + js(p.Spec.Containers[0].RestartPolicy)
			},
			want: `"Always"nullnull`,
		},
		{
			name: "status is reset and qosClass computed",
			pod: &corev1.Pod{
				Spec:   corev1.PodSpec{Containers: []corev1.Container{ctr("a", requests("cpu", "1"))}},
				Status: corev1.PodStatus{Phase: corev1.PodRunning, PodIP: "10.0.0.1", QOSClass: corev1.PodQOSGuaranteed},
			},
			check: func(p *corev1.Pod) string { return js(p.Status) },
			want:  `{"phase":"Pending","qosClass":"Burstable"}`,
		},
		{
			name:  "scheduling gates add the SchedulingGated condition at Now",
			opts:  Options{Now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)},
			pod:   &corev1.Pod{Spec: corev1.PodSpec{SchedulingGates: []corev1.PodSchedulingGate{{Name: "example.com/gate"}}}},
			check: func(p *corev1.Pod) string { return js(p.Status.Conditions) },
			want:  `[{"type":"PodScheduled","status":"False","lastProbeTime":null,"lastTransitionTime":"2026-01-02T03:04:05Z","reason":"SchedulingGated","message":"Scheduling is blocked due to non-empty scheduling gates"}]`,
		},
		{
			name: "legacy init-container annotations are removed",
			pod: &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{
				"pod.beta.kubernetes.io/init-containers": "[]", "keep": "me",
			}}},
			check: func(p *corev1.Pod) string { return js(p.Annotations) },
			want:  `{"keep":"me"}`,
		},
		{
			name: "AppArmor annotation is copied into the container field",
			pod: &corev1.Pod{
				ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{
					"container.apparmor.security.beta.kubernetes.io/a": "localhost/prof",
					"container.apparmor.security.beta.kubernetes.io/b": "runtime/default",
					"container.apparmor.security.beta.kubernetes.io/c": "localhost/ bad",
				}},
				Spec: corev1.PodSpec{
					SecurityContext: &corev1.PodSecurityContext{AppArmorProfile: &corev1.AppArmorProfile{Type: corev1.AppArmorProfileTypeRuntimeDefault}},
					Containers:      []corev1.Container{ctr("a"), ctr("b"), ctr("c")},
				},
			},
			check: func(p *corev1.Pod) string {
				return js(p.Spec.Containers[0].SecurityContext) + js(p.Spec.Containers[1].SecurityContext) + js(p.Spec.Containers[2].SecurityContext)
			},
			want: `{"appArmorProfile":{"type":"Localhost","localhostProfile":"prof"}}nullnull`,
		},
		{
			name: "matchLabelKeys become selector requirements",
			pod: &corev1.Pod{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web", "rev": "7"}},
				Spec: corev1.PodSpec{
					Affinity: &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{
						LabelSelector: &metav1.LabelSelector{}, TopologyKey: "zone", MatchLabelKeys: []string{"rev", "missing"}, MismatchLabelKeys: []string{"app"},
					}}}},
					TopologySpreadConstraints: []corev1.TopologySpreadConstraint{{
						MaxSkew: 1, TopologyKey: "zone", WhenUnsatisfiable: corev1.DoNotSchedule,
						LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}, MatchLabelKeys: []string{"rev"},
					}},
				},
			},
			check: func(p *corev1.Pod) string {
				return js(p.Spec.Affinity.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution[0].LabelSelector) +
					js(p.Spec.TopologySpreadConstraints[0].LabelSelector)
			},
			want: `{"matchExpressions":[{"key":"rev","operator":"In","values":["7"]},{"key":"app","operator":"NotIn","values":["web"]}]}` +
				`{"matchLabels":{"app":"web"},"matchExpressions":[{"key":"rev","operator":"In","values":["7"]}]}`,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := tc.pod.DeepCopy()
			got := Pod(tc.pod, tc.opts)
			if got == nil {
				t.Fatal("nil result")
			}
			if !reflect.DeepEqual(before, tc.pod) {
				t.Error("input modified")
			}
			if s := tc.check(got); s != tc.want {
				t.Errorf("got  %s\nwant %s", s, tc.want)
			}
		})
	}
}

func ptrTo[T any](v T) *T { return &v }

func TestDefaultNil(t *testing.T) {
	if defaultPod(nil) != nil || Pod(nil, Options{Features: gates.FeatureGates{"PodLevelResources": false}}) != nil {
		t.Error("nil pod must give nil")
	}
}

func TestImagePullPolicy(t *testing.T) {
	digest := "sha256:" + strings.Repeat("a", 64)
	cases := []struct {
		image string
		want  corev1.PullPolicy
	}{
		{"nginx", corev1.PullAlways},
		{"nginx:latest", corev1.PullAlways},
		{"nginx:1.27", corev1.PullIfNotPresent},
		{"nginx@" + digest, corev1.PullIfNotPresent},
		{"nginx:latest@" + digest, corev1.PullAlways},
		{"registry.k8s.io/pause", corev1.PullAlways},
		{"localhost:5000/x/y:v1", corev1.PullIfNotPresent},
		{"localhost/app", corev1.PullAlways},
		{"[::1]:5000/app", corev1.PullAlways},
		{"", corev1.PullIfNotPresent},
		{"NGINX", corev1.PullIfNotPresent},
		{"Registry.example/app", corev1.PullAlways},
		{"nginx@sha256:abc", corev1.PullIfNotPresent},
		{"nginx@sha256:" + strings.Repeat("A", 64), corev1.PullIfNotPresent},
		{"nginx@md5:" + strings.Repeat("a", 32), corev1.PullIfNotPresent},
		{strings.Repeat("a", 64), corev1.PullIfNotPresent},
		{strings.Repeat("a", 63), corev1.PullAlways},
		{"a/" + strings.Repeat("b", 250), corev1.PullAlways},
		{"a/" + strings.Repeat("b", 260), corev1.PullIfNotPresent},
		{"nginx:" + strings.Repeat("t", 129), corev1.PullIfNotPresent},
		{"nginx:-bad", corev1.PullIfNotPresent},
		{"index.docker.io/nginx", corev1.PullAlways},
		{"a__b/c--d", corev1.PullAlways},
		{"a___b", corev1.PullIfNotPresent},
	}
	for _, tc := range cases {
		t.Run(tc.image, func(t *testing.T) {
			if got := pullPolicyFor(tc.image); got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
}

// TestDefaultManyContainers runs the whole path on 10,000 containers of each kind,
// with pod-level resources (BenchmarkDefault shows the cost's growth).
func TestDefaultManyContainers(t *testing.T) {
	const n = 10000
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{"container.apparmor.security.beta.kubernetes.io/c9999": "runtime/default"}},
		Spec:       corev1.PodSpec{Resources: &corev1.ResourceRequirements{Requests: rl("cpu", "1")}},
	}
	for i := 0; i < n; i++ {
		pod.Spec.InitContainers = append(pod.Spec.InitContainers, ctr(fmt.Sprint("i", i), limits("cpu", "1m", "memory", "1Mi"), sidecar))
		pod.Spec.Containers = append(pod.Spec.Containers, ctr(fmt.Sprint("c", i), limits("cpu", "1m", "memory", "1Mi")))
	}
	out := defaultPod(pod)
	if got := js(out.Spec.Resources); got != `{"limits":{"cpu":"20","memory":"20000Mi"},"requests":{"cpu":"1","memory":"20000Mi"}}` {
		t.Errorf("spec.resources %s", got)
	}
	if out.Spec.Containers[n-1].SecurityContext == nil {
		t.Error("AppArmor annotation not synced")
	}
}
