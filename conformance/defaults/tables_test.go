package defaults

import (
	"encoding/json"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/kubernetes/pkg/api/legacyscheme"

	"github.com/podlife/podlife"
	"github.com/podlife/podlife/conformance/internal/gatesets"
)

// upstreamDefaultsCase is one case of upstream's defaulting tables
// (k8s.io/kubernetes pkg/apis/core/v1/defaults_test.go): a pod (or, for the
// ReplicationController cases, a template), the field the table checks, and the value
// the table expects, as JSON.
type upstreamDefaultsCase struct {
	table, name string
	pod         *corev1.Pod
	template    *corev1.PodTemplateSpec
	field       func(spec *corev1.PodSpec) any
	want        string
}

// tableGates are the overrides a table needs on the create path: upstream's tables
// default without PrepareForCreate, which drops the fields of disabled gates.
var tableGates = map[string]map[string]bool{"TestSetDefaultProbeGRPCMode": {"GRPCContainerProbeTLS": true}}

func vol(src corev1.VolumeSource) *corev1.Pod {
	return &corev1.Pod{Spec: corev1.PodSpec{Volumes: []corev1.Volume{{Name: "v", VolumeSource: src}}}}
}

func firstVolume(s *corev1.PodSpec) any { return s.Volumes[0].VolumeSource }

// upstreamDefaultsCases are the pod cases of the tables not re-expressed elsewhere:
// TestPodHostNetworkDefaults (2), TestSetDefaultSecretVolumeSource,
// …ConfigMapVolumeSource, …DownwardAPIVolumeSource, …ProjectedVolumeSource,
// …HostPathVolumeSource (1 each), TestSetDefaultEphemeral (3),
// TestSetDefaultPodSpecHostNetwork (1), TestSetDefaultProbe (1),
// TestSetDefaultProbeGRPCMode (3), TestSetDefaults_Volume (4),
// TestSetDefaultPodTerminationGracePeriodSeconds (3) and
// TestSetDefaultReplicationControllerInitContainers (6): 28 cases. (TestSetDefaultPodStatusPodIPs
// defaults a status that Default resets, as PrepareForCreate does: no podlife function
// returns it.)
func upstreamDefaultsCases() []upstreamDefaultsCase {
	fs, block := corev1.PersistentVolumeFilesystem, corev1.PersistentVolumeBlock
	tls, plain := corev1.GRPCProbeModeTLS, corev1.GRPCProbeModePlaintext
	port := func(host bool) *corev1.Pod {
		return &corev1.Pod{Spec: corev1.PodSpec{HostNetwork: host, Containers: []corev1.Container{{Ports: []corev1.ContainerPort{{ContainerPort: 12345, Protocol: corev1.ProtocolTCP}}}}}}
	}
	ephemeral := func(mode *corev1.PersistentVolumeMode) *corev1.Pod {
		return vol(corev1.VolumeSource{Ephemeral: &corev1.EphemeralVolumeSource{VolumeClaimTemplate: &corev1.PersistentVolumeClaimTemplate{
			Spec: corev1.PersistentVolumeClaimSpec{VolumeMode: mode}}}})
	}
	grpc := func(mode *corev1.GRPCProbeMode) *corev1.Pod {
		return &corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{{LivenessProbe: &corev1.Probe{
			ProbeHandler: corev1.ProbeHandler{GRPC: &corev1.GRPCAction{Port: 8443, Mode: mode}}}}}}}
	}
	grace := func(g int64) *corev1.Pod { return &corev1.Pod{Spec: corev1.PodSpec{TerminationGracePeriodSeconds: &g}} }
	rcInit := func(c corev1.Container) *corev1.PodTemplateSpec {
		c.Name, c.Image = "fun", "alpine"
		return &corev1.PodTemplateSpec{Spec: corev1.PodSpec{InitContainers: []corev1.Container{c}}}
	}
	hostPort := func(s *corev1.PodSpec) any { return s.Containers[0].Ports[0].HostPort }
	probe := &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Host: "localhost"}}}
	ports := []corev1.ContainerPort{{Name: "default"}}
	list := corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("100Mi")}
	return []upstreamDefaultsCase{
		{"TestPodHostNetworkDefaults", "hostNetwork=false", port(false), nil, hostPort, `0`},
		{"TestPodHostNetworkDefaults", "hostNetwork=true", port(true), nil, hostPort, `12345`},
		{"TestSetDefaultSecretVolumeSource", "", vol(corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{}}), nil, firstVolume, `{"secret":{"defaultMode":420}}`},
		{"TestSetDefaultConfigMapVolumeSource", "", vol(corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{}}), nil, firstVolume, `{"configMap":{"defaultMode":420}}`},
		{"TestSetDefaultDownwardAPIVolumeSource", "", vol(corev1.VolumeSource{DownwardAPI: &corev1.DownwardAPIVolumeSource{}}), nil, firstVolume, `{"downwardAPI":{"defaultMode":420}}`},
		{"TestSetDefaultProjectedVolumeSource", "", vol(corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{}}), nil, firstVolume, `{"projected":{"sources":null,"defaultMode":420}}`},
		{"TestSetDefaultHostPathVolumeSource", "", vol(corev1.VolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: "foo"}}), nil, firstVolume, `{"hostPath":{"path":"foo","type":""}}`},
		{"TestSetDefaultEphemeral", "volume mode nil", ephemeral(nil), nil, ephemeralMode, `"Filesystem"`},
		{"TestSetDefaultEphemeral", "volume mode filesystem", ephemeral(&fs), nil, ephemeralMode, `"Filesystem"`},
		{"TestSetDefaultEphemeral", "volume mode block", ephemeral(&block), nil, ephemeralMode, `"Block"`},
		{"TestSetDefaultPodSpecHostNetwork", "", &corev1.Pod{Spec: corev1.PodSpec{HostNetwork: true,
			Containers:     []corev1.Container{{Ports: []corev1.ContainerPort{{ContainerPort: 8080}}}},
			InitContainers: []corev1.Container{{Ports: []corev1.ContainerPort{{ContainerPort: 8080}}}}}}, nil,
			func(s *corev1.PodSpec) any {
				return []int32{s.Containers[0].Ports[0].HostPort, s.InitContainers[0].Ports[0].HostPort}
			}, `[8080,8080]`},
		{"TestSetDefaultProbe", "", &corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{{LivenessProbe: &corev1.Probe{}}}}}, nil,
			func(s *corev1.PodSpec) any { return s.Containers[0].LivenessProbe },
			`{"timeoutSeconds":1,"periodSeconds":10,"successThreshold":1,"failureThreshold":3}`},
		{"TestSetDefaultProbeGRPCMode", "mode TLS is preserved", grpc(&tls), nil, grpcMode, `"TLS"`},
		{"TestSetDefaultProbeGRPCMode", "mode Plaintext is preserved", grpc(&plain), nil, grpcMode, `"Plaintext"`},
		{"TestSetDefaultProbeGRPCMode", "nil mode stays nil", grpc(nil), nil, grpcMode, `null`},
		{"TestSetDefaults_Volume", "defaults to emptyDir", vol(corev1.VolumeSource{}), nil, firstVolume, `{"emptyDir":{}}`},
		{"TestSetDefaults_Volume", "default image volume source pull policy is IfNotPresent", vol(corev1.VolumeSource{Image: &corev1.ImageVolumeSource{Reference: "image:v1"}}), nil,
			firstVolume, `{"image":{"reference":"image:v1","pullPolicy":"IfNotPresent"}}`},
		{"TestSetDefaults_Volume", "default image volume source pull policy Always if 'latest' tag is used", vol(corev1.VolumeSource{Image: &corev1.ImageVolumeSource{Reference: "image:latest"}}), nil,
			firstVolume, `{"image":{"reference":"image:latest","pullPolicy":"Always"}}`},
		{"TestSetDefaults_Volume", "default image volume source pull policy Always if no tag is used", vol(corev1.VolumeSource{Image: &corev1.ImageVolumeSource{Reference: "image"}}), nil,
			firstVolume, `{"image":{"reference":"image","pullPolicy":"Always"}}`},
		{"TestSetDefaultPodTerminationGracePeriodSeconds", "negative clamped to 1", grace(-1), nil, terminationGrace, `1`},
		{"TestSetDefaultPodTerminationGracePeriodSeconds", "zero preserved", grace(0), nil, terminationGrace, `0`},
		{"TestSetDefaultPodTerminationGracePeriodSeconds", "positive preserved", grace(42), nil, terminationGrace, `42`},
		{"TestSetDefaultReplicationControllerInitContainers", "imagePullIPolicy", nil, rcInit(corev1.Container{}),
			func(s *corev1.PodSpec) any { return s.InitContainers[0].ImagePullPolicy }, `"Always"`},
		{"TestSetDefaultReplicationControllerInitContainers", "FieldRef", nil, rcInit(corev1.Container{Env: []corev1.EnvVar{{Name: "MY_POD_IP",
			ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "status.podIP"}}}}}),
			func(s *corev1.PodSpec) any { return s.InitContainers[0].Env }, `[{"name":"MY_POD_IP","valueFrom":{"fieldRef":{"apiVersion":"v1","fieldPath":"status.podIP"}}}]`},
		{"TestSetDefaultReplicationControllerInitContainers", "ContainerPort", nil, rcInit(corev1.Container{Ports: ports}),
			func(s *corev1.PodSpec) any { return s.InitContainers[0].Ports }, `[{"name":"default","containerPort":0,"protocol":"TCP"}]`},
		{"TestSetDefaultReplicationControllerInitContainers", "Resources", nil, rcInit(corev1.Container{Resources: corev1.ResourceRequirements{Limits: list, Requests: list.DeepCopy()}}),
			func(s *corev1.PodSpec) any { return s.InitContainers[0].Resources }, `{"limits":{"cpu":"100m","memory":"100Mi"},"requests":{"cpu":"100m","memory":"100Mi"}}`},
		{"TestSetDefaultReplicationControllerInitContainers", "Probe", nil, rcInit(corev1.Container{LivenessProbe: probe.DeepCopy(), ReadinessProbe: probe.DeepCopy()}),
			func(s *corev1.PodSpec) any {
				return []*corev1.Probe{s.InitContainers[0].LivenessProbe, s.InitContainers[0].ReadinessProbe}
			}, `[{"httpGet":{"path":"/","port":0,"host":"localhost","scheme":"HTTP"},"timeoutSeconds":1,"periodSeconds":10,"successThreshold":1,"failureThreshold":3},` +
				`{"httpGet":{"path":"/","port":0,"host":"localhost","scheme":"HTTP"},"timeoutSeconds":1,"periodSeconds":10,"successThreshold":1,"failureThreshold":3}]`},
		{"TestSetDefaultReplicationControllerInitContainers", "LifeCycle", nil, rcInit(corev1.Container{Ports: ports, Lifecycle: &corev1.Lifecycle{
			PostStart: &corev1.LifecycleHandler{HTTPGet: &corev1.HTTPGetAction{Host: "localhost"}},
			PreStop:   &corev1.LifecycleHandler{HTTPGet: &corev1.HTTPGetAction{Host: "localhost"}}}}),
			func(s *corev1.PodSpec) any { return s.InitContainers[0].Lifecycle },
			`{"postStart":{"httpGet":{"path":"/","port":0,"host":"localhost","scheme":"HTTP"}},"preStop":{"httpGet":{"path":"/","port":0,"host":"localhost","scheme":"HTTP"}}}`},
	}
}

func ephemeralMode(s *corev1.PodSpec) any {
	return s.Volumes[0].Ephemeral.VolumeClaimTemplate.Spec.VolumeMode
}

func grpcMode(s *corev1.PodSpec) any { return s.Containers[0].LivenessProbe.GRPC.Mode }

func terminationGrace(s *corev1.PodSpec) any { return s.TerminationGracePeriodSeconds }

// upstreamRCTemplate defaults a template inside a v1 ReplicationController, as
// upstream's table does.
func upstreamRCTemplate(t testing.TB, tmpl *corev1.PodTemplateSpec) *corev1.PodTemplateSpec {
	rc := &corev1.ReplicationController{ObjectMeta: metav1.ObjectMeta{Name: "rc"}, Spec: corev1.ReplicationControllerSpec{Template: tmpl.DeepCopy()}}
	legacyscheme.Scheme.Default(rc)
	return rc.Spec.Template
}

// TestUpstreamDefaultsTables checks every case twice: podlife's answer against the value
// upstream's table expects, and upstream's create path (or RC defaulting) against it,
// so that a mistake in the re-expression shows.
func TestUpstreamDefaultsTables(t *testing.T) {
	cases := upstreamDefaultsCases()
	for _, tc := range cases {
		t.Run(tc.table+"/"+tc.name, func(t *testing.T) {
			set := gatesets.Set{Name: tc.name, Overrides: tableGates[tc.table]}
			gatesets.Apply(t, set)
			opts := podlife.DefaultOptions{Features: set.Features()}
			var got, up *corev1.PodSpec
			if tc.template != nil {
				got = &podlife.DefaultTemplateWithOptions(tc.template, opts).Spec
				up = &upstreamRCTemplate(t, tc.template).Spec
			} else {
				got = &podlife.DefaultWithOptions(tc.pod, opts).Spec
				up = &upstreamDefault(t, tc.pod).Spec
			}
			for who, spec := range map[string]*corev1.PodSpec{"podlife": got, "upstream": up} {
				b, err := json.Marshal(tc.field(spec))
				if err != nil {
					t.Fatal(err)
				}
				if string(b) != tc.want {
					t.Errorf("%s: got  %s\nupstream's table expects %s", who, b, tc.want)
				}
			}
		})
	}
	if len(cases) != 28 {
		t.Errorf("%d cases, the note says 28", len(cases))
	}
}
