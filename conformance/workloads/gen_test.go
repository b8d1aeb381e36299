package workloads

import (
	"fmt"
	"math/rand"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	schedulingv1alpha3 "k8s.io/api/scheduling/v1alpha3"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// gen draws workloads from a seeded source. Each knob turns into a fault (a value the
// server should refuse, or an edge it accepts) with probability pFault; faults lists
// the knobs that did, for the failure report.
type gen struct {
	r      *rand.Rand
	pFault float64
	faults []string
}

func newGen(seed int64) *gen { return &gen{r: rand.New(rand.NewSource(seed)), pFault: 0.025} }

func (g *gen) chance(p float64) bool { return g.r.Float64() < p }

// fault reports whether to put a fault in the knob named what, and records it.
func (g *gen) fault(what string) bool {
	if g.r.Float64() < g.pFault {
		g.faults = append(g.faults, what)
		return true
	}
	return false
}

// inner is fault for a knob inside a structure that is itself a fault (a pod failure
// policy's rules): drawn more often, so that every such knob shows in a run.
func (g *gen) inner(what string) bool {
	if g.r.Float64() < 0.15 {
		g.faults = append(g.faults, what)
		return true
	}
	return false
}

func pick[T any](g *gen, items ...T) T { return items[g.r.Intn(len(items))] }

func i32(v int32) *int32 { return &v }
func i64(v int64) *int64 { return &v }
func str(v string) *string {
	return &v
}
func boolp(v bool) *bool { return &v }

// kinds are the kinds the generator draws, by name.
var kinds = []string{"Deployment", "ReplicaSet", "StatefulSet", "DaemonSet", "Job", "CronJob", "ReplicationController", "PodTemplate"}

// object draws a new object of the named kind.
func (g *gen) object(kind string) runtime.Object {
	g.faults = nil
	switch kind {
	case "Deployment":
		return g.deployment()
	case "ReplicaSet":
		return g.replicaSet()
	case "StatefulSet":
		return g.statefulSet()
	case "DaemonSet":
		return g.daemonSet()
	case "Job":
		return g.job()
	case "CronJob":
		return g.cronJob()
	case "ReplicationController":
		return g.replicationController()
	case "PodTemplate":
		return g.podTemplate()
	}
	panic(kind)
}

// ---- metadata ----

func (g *gen) meta(kind string) metav1.ObjectMeta {
	m := metav1.ObjectMeta{Name: pick(g, "web", "db-0", "worker", "app.example", "x")}
	if kind == "StatefulSet" && g.chance(0.2) {
		m.Name = "web"
	}
	switch {
	case g.fault("name: invalid"):
		m.Name = pick(g, "Web", "web_1", "-web", "a.b.", "web..x", strings.Repeat("n", 254))
	case g.fault("name: long"):
		m.Name = strings.Repeat("a", pick(g, 52, 53, 60, 63, 64))
	case g.fault("name: generateName"):
		m.GenerateName, m.Name = pick(g, "web-", "Web-", "x", strings.Repeat("g", 60)+"-"), ""
	case g.fault("name: empty"):
		m.Name = ""
	}
	if g.chance(0.7) {
		m.Namespace = "ns"
	}
	if g.fault("namespace: invalid") {
		m.Namespace = pick(g, "NS", "a_b", strings.Repeat("n", 64))
	}
	if g.chance(0.4) {
		m.Labels = map[string]string{"tier": "backend"}
		if g.fault("labels: invalid") {
			m.Labels[pick(g, "bad key", "a/b/c", "-x")] = pick(g, "v", "bad value", strings.Repeat("v", 64))
		}
	}
	if g.chance(0.3) {
		m.Annotations = map[string]string{"example.com/owner": "team"}
		if g.fault("annotations: invalid") {
			m.Annotations[pick(g, "bad key!", "a/b/c")] = "x"
		}
	}
	if g.fault("finalizers") {
		m.Finalizers = []string{pick(g, "example.com/f", "custom", "orphan", "foregroundDeletion")}
		if g.chance(0.3) {
			m.Finalizers = []string{"orphan", "foregroundDeletion"}
		}
	}
	if g.fault("generation: negative") {
		m.Generation = -1
	}
	return m
}

// ---- selectors ----

// appLabels are the labels a template gets by default.
func appLabels() map[string]string { return map[string]string{"app": "web"} }

// selector draws a selector for templates labelled with appLabels; forRC draws a plain
// map instead.
func (g *gen) selector() *metav1.LabelSelector {
	sel := &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	switch {
	case g.fault("selector: nil"):
		return nil
	case g.fault("selector: empty"):
		return &metav1.LabelSelector{}
	case g.fault("selector: mismatch"):
		sel.MatchLabels["app"] = "other"
	case g.fault("selector: invalid key"):
		sel.MatchLabels["bad key"] = "web"
	case g.fault("selector: invalid value"):
		sel.MatchLabels["app"] = "bad value"
	case g.chance(0.2):
		sel.MatchExpressions = []metav1.LabelSelectorRequirement{g.requirement()}
	}
	return sel
}

func (g *gen) requirement() metav1.LabelSelectorRequirement {
	r := metav1.LabelSelectorRequirement{Key: "app", Operator: metav1.LabelSelectorOpIn, Values: []string{"web", "api"}}
	switch {
	case g.fault("selector: NotIn"):
		r.Operator = metav1.LabelSelectorOpNotIn
	case g.fault("selector: Exists"):
		r.Operator, r.Values = metav1.LabelSelectorOpExists, nil
	case g.fault("selector: DoesNotExist"):
		r.Operator, r.Values = metav1.LabelSelectorOpDoesNotExist, nil
	case g.fault("selector: bad operator"):
		r.Operator = "Matches"
	case g.fault("selector: In without values"):
		r.Values = nil
	case g.fault("selector: Exists with values"):
		r.Operator = metav1.LabelSelectorOpExists
	case g.fault("selector: bad expression value"):
		r.Values = []string{"bad value"}
	}
	return r
}

// ---- pod template ----

// template draws a pod template labelled with appLabels; restart is the restart
// policy a valid one of its kind has ("" for the default).
func (g *gen) template(restart corev1.RestartPolicy) corev1.PodTemplateSpec {
	t := corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: appLabels()}}
	if g.fault("template: no labels") {
		t.Labels = nil
	}
	if g.fault("template: extra label") {
		if t.Labels == nil {
			t.Labels = map[string]string{}
		}
		t.Labels["version"] = pick(g, "v1", "bad value!")
	}
	if g.chance(0.2) {
		t.Annotations = map[string]string{"example.com/a": "b"}
		if g.fault("template: bad annotation") {
			t.Annotations = map[string]string{"bad key!": "x"}
		}
		if g.fault("template: seccomp annotation") {
			t.Annotations = map[string]string{"seccomp.security.alpha.kubernetes.io/pod": pick(g, "runtime/default", "bad")}
		}
	}
	s := &t.Spec
	s.RestartPolicy = restart
	switch {
	case g.fault("template: restartPolicy Always"):
		s.RestartPolicy = corev1.RestartPolicyAlways
	case g.fault("template: restartPolicy OnFailure"):
		s.RestartPolicy = corev1.RestartPolicyOnFailure
	case g.fault("template: restartPolicy Never"):
		s.RestartPolicy = corev1.RestartPolicyNever
	case g.fault("template: restartPolicy bogus"):
		s.RestartPolicy = "Sometimes"
	}
	if g.fault("template: activeDeadlineSeconds") {
		s.ActiveDeadlineSeconds = i64(pick[int64](g, 30, -1, 0))
	}
	n := 1 + g.r.Intn(2)
	for i := range n {
		s.Containers = append(s.Containers, g.container(fmt.Sprintf("c%d", i), false))
	}
	if g.chance(0.25) {
		s.InitContainers = []corev1.Container{g.container("init", true)}
	}
	if g.fault("template: no containers") {
		s.Containers = nil
	}
	if g.fault("template: duplicate container names") && len(s.Containers) > 0 {
		s.Containers = append(s.Containers, s.Containers[0])
	}
	if g.chance(0.4) {
		s.Volumes = append(s.Volumes, corev1.Volume{Name: "data", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}})
		if len(s.Containers) > 0 {
			s.Containers[0].VolumeMounts = append(s.Containers[0].VolumeMounts, corev1.VolumeMount{Name: "data", MountPath: "/data"})
		}
	}
	if g.fault("template: mount of a missing volume") && len(s.Containers) > 0 {
		s.Containers[0].VolumeMounts = append(s.Containers[0].VolumeMounts, corev1.VolumeMount{Name: "www", MountPath: "/www"})
	}
	if g.fault("template: bad volume") {
		s.Volumes = append(s.Volumes, corev1.Volume{Name: pick(g, "Bad_Name", "data", "cfg"), VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{}}})
	}
	if g.fault("template: hostname and subdomain") {
		s.Hostname, s.Subdomain = pick(g, "web", "Bad_Host"), pick(g, "svc", "Bad_Sub")
	}
	if g.fault("template: ephemeral container") {
		s.EphemeralContainers = []corev1.EphemeralContainer{{EphemeralContainerCommon: corev1.EphemeralContainerCommon{Name: "debug", Image: "busybox"}}}
	}
	if g.fault("template: terminationGracePeriodSeconds") {
		s.TerminationGracePeriodSeconds = i64(pick[int64](g, -5, 0, 10))
	}
	if g.fault("template: dnsPolicy") {
		s.DNSPolicy = pick(g, corev1.DNSNone, "Weird", corev1.DNSDefault)
	}
	if g.fault("template: nodeSelector") {
		s.NodeSelector = map[string]string{pick(g, "disk", "bad key!"): "ssd"}
	}
	if g.fault("template: toleration") {
		s.Tolerations = []corev1.Toleration{{Key: pick(g, "k", ""), Operator: pick(g, corev1.TolerationOpExists, corev1.TolerationOpEqual, "Lt"), Value: pick(g, "", "v"), Effect: pick(g, corev1.TaintEffectNoSchedule, "")}}
	}
	if g.fault("template: host network port") && len(s.Containers) > 0 {
		s.HostNetwork = true
		s.Containers[0].Ports = []corev1.ContainerPort{{ContainerPort: 8080, HostPort: pick[int32](g, 0, 8080, 9090)}}
	}
	if g.fault("template: privileged") && len(s.Containers) > 0 {
		s.Containers[0].SecurityContext = &corev1.SecurityContext{Privileged: boolp(true)}
	}
	if g.fault("template: scheduling gate") {
		s.SchedulingGates = []corev1.PodSchedulingGate{{Name: pick(g, "example.com/gate", "bad gate")}}
	}
	if g.fault("template: pod resources") {
		s.Resources = &corev1.ResourceRequirements{Limits: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(pick(g, "1", "-1", "500m"))}}
	}
	if g.fault("template: schedulingGroup") {
		s.SchedulingGroup = &corev1.PodSchedulingGroup{PodGroupName: pick(g, str("group-a"), str("Bad_Group"), nil)}
	}
	if g.fault("template: evictionResponders") || g.chance(0.1) {
		s.EvictionResponders = g.evictionResponders()
	}
	return t
}

// evictionResponders draws a template's eviction responders (gate EvictionRequestAPI):
// a valid one, reserved or invalid names and priorities, duplicates, too many.
func (g *gen) evictionResponders() []corev1.EvictionResponder {
	r := corev1.EvictionResponder{Name: "example.com/drain", Priority: i32(5000)}
	var out []corev1.EvictionResponder
	switch {
	case g.inner("evictionResponders: name"):
		r.Name = pick(g, "", "bad name!", "x.k8s.io/drain", "kubernetes.io/x")
	case g.inner("evictionResponders: priority"):
		r.Priority = pick(g, nil, i32(-1), i32(10), i32(100001))
	case g.inner("evictionResponders: duplicate"):
		out = append(out, r)
	case g.inner("evictionResponders: too many"):
		for i := range 10 {
			out = append(out, corev1.EvictionResponder{Name: fmt.Sprintf("example.com/r%d", i), Priority: i32(2000)})
		}
	}
	return append(out, r)
}

// jobScheduling draws a Job's spec.scheduling (gate WorkloadWithJob): the basic or
// gang policy, topology constraints, a disruption mode and resource claims, each
// present often and with faults of its own.
func (g *gen) jobScheduling() *batchv1.JobSchedulingConfiguration {
	c := &batchv1.JobSchedulingConfiguration{}
	basic := &schedulingv1alpha3.WorkloadPodGroupBasicSchedulingPolicy{}
	switch {
	case g.inner("scheduling: no policy"):
	case g.inner("scheduling: basic and gang"):
		c.SchedulingPolicy = &schedulingv1alpha3.WorkloadPodGroupSchedulingPolicy{Basic: basic, Gang: &schedulingv1alpha3.WorkloadPodGroupGangSchedulingPolicy{}}
	case g.inner("scheduling: empty policy"):
		c.SchedulingPolicy = &schedulingv1alpha3.WorkloadPodGroupSchedulingPolicy{}
	case g.chance(0.5):
		c.SchedulingPolicy = &schedulingv1alpha3.WorkloadPodGroupSchedulingPolicy{Gang: &schedulingv1alpha3.WorkloadPodGroupGangSchedulingPolicy{MinCount: pick(g, nil, i32(1), i32(2), i32(0), i32(50))}}
	default:
		c.SchedulingPolicy = &schedulingv1alpha3.WorkloadPodGroupSchedulingPolicy{Basic: basic}
	}
	if g.chance(0.4) {
		c.SchedulingConstraints = &schedulingv1alpha3.WorkloadPodGroupSchedulingConstraints{Topology: []schedulingv1alpha3.TopologyConstraint{{Key: "topology.kubernetes.io/zone"}}}
		switch {
		case g.inner("scheduling: topology key"):
			c.SchedulingConstraints.Topology[0].Key = pick(g, "", "bad key!")
		case g.inner("scheduling: two topologies"):
			c.SchedulingConstraints.Topology = append(c.SchedulingConstraints.Topology, schedulingv1alpha3.TopologyConstraint{Key: "rack"})
		case g.inner("scheduling: no topology"):
			c.SchedulingConstraints.Topology = nil
		}
	}
	if g.chance(0.4) {
		d := &schedulingv1alpha3.WorkloadPodGroupDisruptionMode{}
		single, all := &schedulingv1alpha3.WorkloadPodGroupSingleDisruptionMode{}, &schedulingv1alpha3.WorkloadPodGroupAllDisruptionMode{}
		switch {
		case g.inner("scheduling: no disruption mode"):
		case g.inner("scheduling: single and all"):
			d.Single, d.All = single, all
		case g.chance(0.5):
			d.All = all
		default:
			d.Single = single
		}
		c.DisruptionMode = d
	}
	if g.chance(0.4) {
		c.ResourceClaims = []schedulingv1alpha3.WorkloadPodGroupResourceClaim{{Name: "gpus", ResourceClaimTemplateName: str("gpu-template")}}
		rc := &c.ResourceClaims[0]
		switch {
		case g.inner("scheduling: claim name"):
			rc.Name = pick(g, "", "Bad_Name")
		case g.inner("scheduling: claim target"):
			rc.ResourceClaimName, rc.ResourceClaimTemplateName = pick(g, str("Bad..Name"), str("shared"), nil), pick(g, str("gpu-template"), nil)
		case g.inner("scheduling: duplicate claims"):
			c.ResourceClaims = append(c.ResourceClaims, c.ResourceClaims[0])
		case g.inner("scheduling: too many claims"):
			for i := range 4 {
				c.ResourceClaims = append(c.ResourceClaims, schedulingv1alpha3.WorkloadPodGroupResourceClaim{Name: fmt.Sprintf("c%d", i), ResourceClaimName: str("shared")})
			}
		}
	}
	return c
}

// container draws a container; init containers are sidecars half the time.
func (g *gen) container(name string, init bool) corev1.Container {
	c := corev1.Container{Name: name, Image: pick(g, "nginx", "nginx:latest", "registry.example.com/app:v1")}
	if g.fault("container: bad name") {
		c.Name = pick(g, "Bad_Name", "")
	}
	if g.fault("container: no image") {
		c.Image = ""
	}
	if g.fault("container: image whitespace") {
		c.Image = " nginx"
	}
	if g.chance(0.3) {
		c.Ports = []corev1.ContainerPort{{ContainerPort: 80, Name: "http"}}
		if g.fault("container: bad port") {
			c.Ports[0].ContainerPort = pick[int32](g, 0, 70000)
		}
	}
	if g.chance(0.3) {
		c.Resources = corev1.ResourceRequirements{
			Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("64Mi")},
		}
		if g.fault("container: requests above limits") {
			c.Resources.Limits = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("50m"), corev1.ResourceMemory: resource.MustParse("32Mi")}
		}
		if g.fault("container: bad resource name") {
			c.Resources.Requests["bad name!"] = resource.MustParse("1")
		}
	}
	if g.fault("container: env") {
		c.Env = []corev1.EnvVar{{Name: pick(g, "GOOD", "1BAD", "", "A=B"), Value: "v"}}
	}
	if g.fault("container: probe") {
		c.LivenessProbe = &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/", Port: intstr.FromInt32(pick[int32](g, 80, 0))}}, SuccessThreshold: pick[int32](g, 0, 1, 2)}
	}
	if init && g.chance(0.5) {
		c.RestartPolicy = new(corev1.ContainerRestartPolicyAlways)
	}
	if g.fault("container: restart rules") {
		c.RestartPolicy = new(pick(g, corev1.ContainerRestartPolicyNever, corev1.ContainerRestartPolicyOnFailure, corev1.ContainerRestartPolicyAlways))
		c.RestartPolicyRules = []corev1.ContainerRestartRule{{
			Action:    pick(g, corev1.ContainerRestartRuleActionRestart, corev1.ContainerRestartRuleAction("RestartAllContainers"), "Bogus"),
			ExitCodes: &corev1.ContainerRestartRuleOnExitCodes{Operator: corev1.ContainerRestartRuleOnExitCodesOpIn, Values: []int32{42}},
		}}
	}
	if g.fault("container: stop signal") {
		sig := corev1.SIGTERM
		c.Lifecycle = &corev1.Lifecycle{StopSignal: &sig}
	}
	return c
}

// ---- kinds ----

func (g *gen) intOrPercent(valid string) *intstr.IntOrString {
	var v intstr.IntOrString
	switch {
	case g.fault("rolling update: int"):
		v = intstr.FromInt32(pick[int32](g, 0, 1, 3, -1))
	case g.fault("rolling update: percent"):
		v = intstr.FromString(pick(g, "0%", "50%", "100%", "101%", "99999999999999999999%"))
	case g.fault("rolling update: invalid percent"):
		v = intstr.FromString(pick(g, "abc", "10", "%", "1.5%"))
	case g.fault("rolling update: nil"):
		return nil
	default:
		v = intstr.FromString(valid)
	}
	return &v
}

func (g *gen) deployment() *appsv1.Deployment {
	d := &appsv1.Deployment{ObjectMeta: g.meta("Deployment")}
	s := &d.Spec
	s.Selector = g.selector()
	s.Template = g.template("")
	if g.chance(0.5) {
		s.Replicas = i32(3)
	}
	if g.fault("replicas: negative") {
		s.Replicas = i32(-1)
	}
	switch {
	case g.fault("strategy: Recreate"):
		s.Strategy.Type = appsv1.RecreateDeploymentStrategyType
		if g.chance(0.4) {
			s.Strategy.RollingUpdate = &appsv1.RollingUpdateDeployment{}
		}
	case g.fault("strategy: bogus"):
		s.Strategy.Type = "Blue"
		if g.chance(0.4) {
			s.Strategy.RollingUpdate = &appsv1.RollingUpdateDeployment{MaxSurge: g.intOrPercent("1")}
		}
	case g.chance(0.3):
		s.Strategy.Type = appsv1.RollingUpdateDeploymentStrategyType
		s.Strategy.RollingUpdate = &appsv1.RollingUpdateDeployment{MaxUnavailable: g.intOrPercent("25%"), MaxSurge: g.intOrPercent("25%")}
	}
	if g.fault("minReadySeconds") {
		s.MinReadySeconds = pick[int32](g, -1, 600, 10)
	}
	if g.fault("revisionHistoryLimit") {
		s.RevisionHistoryLimit = i32(pick[int32](g, -1, 0))
	}
	if g.fault("progressDeadlineSeconds") {
		s.ProgressDeadlineSeconds = i32(pick[int32](g, -1, 0, 5, 600))
	}
	if g.fault("paused") {
		s.Paused = true
	}
	if g.fault("rollback annotation") {
		if d.Annotations == nil {
			d.Annotations = map[string]string{}
		}
		d.Annotations[appsv1.DeprecatedRollbackTo] = pick(g, "3", "-2", "abc", "", "0")
	}
	return d
}

func (g *gen) replicaSet() *appsv1.ReplicaSet {
	rs := &appsv1.ReplicaSet{ObjectMeta: g.meta("ReplicaSet")}
	rs.Spec.Selector = g.selector()
	rs.Spec.Template = g.template("")
	if g.fault("replicas: negative") {
		rs.Spec.Replicas = i32(-2)
	} else if g.chance(0.5) {
		rs.Spec.Replicas = i32(2)
	}
	if g.fault("minReadySeconds") {
		rs.Spec.MinReadySeconds = -3
	}
	return rs
}

func (g *gen) daemonSet() *appsv1.DaemonSet {
	ds := &appsv1.DaemonSet{ObjectMeta: g.meta("DaemonSet")}
	ds.Spec.Selector = g.selector()
	ds.Spec.Template = g.template("")
	us := &ds.Spec.UpdateStrategy
	switch {
	case g.fault("updateStrategy: OnDelete"):
		us.Type = appsv1.OnDeleteDaemonSetStrategyType
		if g.chance(0.3) {
			us.RollingUpdate = &appsv1.RollingUpdateDaemonSet{}
		}
	case g.fault("updateStrategy: bogus"):
		us.Type = "Sideways"
	case g.chance(0.4):
		us.Type = appsv1.RollingUpdateDaemonSetStrategyType
		us.RollingUpdate = &appsv1.RollingUpdateDaemonSet{MaxUnavailable: g.intOrPercent("10%")}
		if g.chance(0.5) {
			us.RollingUpdate.MaxSurge = g.intOrPercent("0%")
		}
	}
	if g.fault("minReadySeconds") {
		ds.Spec.MinReadySeconds = -1
	}
	if g.fault("revisionHistoryLimit") {
		ds.Spec.RevisionHistoryLimit = i32(-1)
	}
	if g.fault("templateGeneration annotation") {
		if ds.Annotations == nil {
			ds.Annotations = map[string]string{}
		}
		ds.Annotations[appsv1.DeprecatedTemplateGeneration] = pick(g, "3", "-4", "x", "0")
	}
	return ds
}

func (g *gen) claim(name string) corev1.PersistentVolumeClaim {
	c := corev1.PersistentVolumeClaim{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: corev1.PersistentVolumeClaimSpec{
		AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
		Resources:   corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("1Gi")}},
	}}
	if g.chance(0.2) {
		c.TypeMeta = metav1.TypeMeta{APIVersion: "v1", Kind: "PersistentVolumeClaim"}
	}
	cs := &c.Spec
	switch {
	case g.fault("claim: no access modes"):
		cs.AccessModes = nil
	case g.fault("claim: bad access mode"):
		cs.AccessModes = []corev1.PersistentVolumeAccessMode{"ReadSometimes"}
	case g.fault("claim: ReadWriteOncePod with others"):
		cs.AccessModes = []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOncePod, corev1.ReadOnlyMany}
	}
	switch {
	case g.fault("claim: no storage"):
		cs.Resources.Requests = nil
	case g.fault("claim: zero storage"):
		cs.Resources.Requests[corev1.ResourceStorage] = resource.MustParse(pick(g, "0", "-1Gi"))
	}
	if g.fault("claim: storageClassName") {
		cs.StorageClassName = str(pick(g, "fast", "Fast_SSD", ""))
	}
	if g.fault("claim: volumeMode") {
		m := pick(g, corev1.PersistentVolumeBlock, "Tape")
		cs.VolumeMode = &m
	}
	if g.fault("claim: selector") {
		cs.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{pick(g, "disk", "bad key!"): "ssd"}}
	}
	if g.fault("claim: dataSource") {
		cs.DataSource = &corev1.TypedLocalObjectReference{Name: pick(g, "snap", ""), Kind: pick(g, "VolumeSnapshot", "PersistentVolumeClaim", ""), APIGroup: pick(g, nil, str("snapshot.storage.k8s.io"), str("Bad_Group"))}
	}
	if g.fault("claim: dataSourceRef") {
		cs.DataSourceRef = &corev1.TypedObjectReference{Name: pick(g, "snap", ""), Kind: pick(g, "VolumeSnapshot", "PersistentVolumeClaim"), APIGroup: pick(g, nil, str("snapshot.storage.k8s.io")), Namespace: pick(g, nil, str("other"), str("Bad_NS"))}
	}
	if g.fault("claim: volumeAttributesClassName") {
		cs.VolumeAttributesClassName = str(pick(g, "gold", "Gold_Class"))
	}
	return c
}

func (g *gen) statefulSet() *appsv1.StatefulSet {
	ss := &appsv1.StatefulSet{ObjectMeta: g.meta("StatefulSet")}
	s := &ss.Spec
	s.Selector = g.selector()
	s.Template = g.template("")
	if g.chance(0.6) {
		s.ServiceName = "web"
	}
	if g.fault("serviceName: invalid") {
		s.ServiceName = pick(g, "Web", "web.svc", strings.Repeat("s", 64))
	}
	if g.chance(0.5) {
		s.VolumeClaimTemplates = []corev1.PersistentVolumeClaim{g.claim("www")}
		if len(s.Template.Spec.Containers) > 0 {
			s.Template.Spec.Containers[0].VolumeMounts = append(s.Template.Spec.Containers[0].VolumeMounts, corev1.VolumeMount{Name: "www", MountPath: "/usr/share/www"})
		}
		// Upstream adds the claims' volumes in random order, so an invalid claim
		// name is drawn only for a lone claim template (its volume's index is then
		// known).
		if g.fault("claims: invalid name") {
			s.VolumeClaimTemplates[0].Name = pick(g, "WWW", "w_w")
		} else if g.fault("claims: a second template") {
			s.VolumeClaimTemplates = append(s.VolumeClaimTemplates, g.claim("logs"))
		}
		if g.fault("claims: shadowed volume") {
			s.Template.Spec.Volumes = append(s.Template.Spec.Volumes, corev1.Volume{Name: "www", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}})
		}
	}
	if g.fault("replicas: negative") {
		s.Replicas = i32(-1)
	}
	if g.fault("minReadySeconds") {
		s.MinReadySeconds = -1
	}
	if g.fault("ordinals") {
		s.Ordinals = &appsv1.StatefulSetOrdinals{Start: pick[int32](g, -1, 0, 5)}
	}
	if g.fault("podManagementPolicy") {
		s.PodManagementPolicy = pick(g, appsv1.ParallelPodManagement, "Random")
	}
	us := &s.UpdateStrategy
	switch {
	case g.fault("updateStrategy: OnDelete"):
		us.Type = appsv1.OnDeleteStatefulSetStrategyType
		if g.chance(0.5) {
			us.RollingUpdate = &appsv1.RollingUpdateStatefulSetStrategy{}
		}
	case g.fault("updateStrategy: Recreate"):
		us.Type = "Recreate"
		if g.chance(0.4) {
			us.RollingUpdate = &appsv1.RollingUpdateStatefulSetStrategy{}
		}
	case g.fault("updateStrategy: bogus"):
		us.Type = "Sideways"
	case g.chance(0.4):
		us.Type = appsv1.RollingUpdateStatefulSetStrategyType
		us.RollingUpdate = &appsv1.RollingUpdateStatefulSetStrategy{}
		if g.fault("partition") {
			us.RollingUpdate.Partition = i32(pick[int32](g, -1, 2))
		}
		if g.chance(0.5) {
			us.RollingUpdate.MaxUnavailable = g.intOrPercent("50%")
		}
	}
	if g.fault("pvc retention policy") {
		s.PersistentVolumeClaimRetentionPolicy = &appsv1.StatefulSetPersistentVolumeClaimRetentionPolicy{
			WhenDeleted: pick(g, appsv1.DeletePersistentVolumeClaimRetentionPolicyType, "Keep", ""),
			WhenScaled:  pick(g, appsv1.RetainPersistentVolumeClaimRetentionPolicyType, "Shred"),
		}
	}
	return ss
}

func (g *gen) jobSpec(forCron bool) batchv1.JobSpec {
	s := batchv1.JobSpec{Template: g.template(pick(g, corev1.RestartPolicyNever, corev1.RestartPolicyOnFailure))}
	if g.chance(0.3) {
		s.Template.Labels = nil
	}
	if g.fault("job: parallelism") {
		s.Parallelism = i32(pick[int32](g, -1, 0, 5, 100001, 20000))
	}
	if g.fault("job: completions") {
		s.Completions = i32(pick[int32](g, -1, 0, 3, 10, 100001))
	}
	if g.fault("job: activeDeadlineSeconds") {
		s.ActiveDeadlineSeconds = i64(pick[int64](g, -1, 60))
	}
	if g.fault("job: backoffLimit") {
		s.BackoffLimit = i32(pick[int32](g, -1, 0, 3))
	}
	if g.fault("job: ttl") {
		s.TTLSecondsAfterFinished = i32(pick[int32](g, -1, 100))
	}
	indexed := g.fault("job: Indexed")
	if indexed {
		s.CompletionMode = new(batchv1.IndexedCompletion)
		if g.chance(0.8) {
			s.Completions = i32(pick[int32](g, 4, 10, 100001))
		}
	} else if g.fault("job: completionMode") {
		s.CompletionMode = new(pick(g, batchv1.NonIndexedCompletion, "Sometimes"))
	}
	if g.fault("job: backoffLimitPerIndex") {
		s.BackoffLimitPerIndex = i32(pick[int32](g, -1, 1))
	}
	if g.fault("job: maxFailedIndexes") {
		s.MaxFailedIndexes = i32(pick[int32](g, -1, 2, 20, 100001, 10001))
	}
	if g.fault("job: managedBy") {
		s.ManagedBy = str(pick(g, "kueue.x-k8s.io/multikueue", "kubernetes.io/job-controller", "bad", "", "example.com/"+strings.Repeat("m", 60)))
	}
	if g.fault("job: podFailurePolicy") {
		s.PodFailurePolicy = g.podFailurePolicy(&s)
	}
	if g.fault("job: successPolicy") {
		s.SuccessPolicy = g.successPolicy()
	}
	if g.fault("job: podReplacementPolicy") {
		s.PodReplacementPolicy = new(pick(g, batchv1.Failed, batchv1.TerminatingOrFailed, "Whenever"))
	}
	if g.fault("job: suspend") {
		s.Suspend = boolp(true)
	}
	if g.fault("job: scheduling") || g.chance(0.4) {
		s.Scheduling = g.jobScheduling()
	}
	if forCron {
		if g.fault("jobTemplate: selector") {
			s.Selector = &metav1.LabelSelector{MatchLabels: appLabels()}
		}
		if g.fault("jobTemplate: manualSelector") {
			s.ManualSelector = boolp(pick(g, true, false))
		}
	}
	return s
}

func (g *gen) podFailurePolicy(s *batchv1.JobSpec) *batchv1.PodFailurePolicy {
	p := &batchv1.PodFailurePolicy{}
	n := 1 + g.r.Intn(2)
	if g.inner("pfp: too many rules") {
		n = 21
	}
	for range n {
		rule := batchv1.PodFailurePolicyRule{Action: pick(g, batchv1.PodFailurePolicyActionFailJob, batchv1.PodFailurePolicyActionIgnore, batchv1.PodFailurePolicyActionCount)}
		switch {
		case g.inner("pfp: no action"):
			rule.Action = ""
		case g.inner("pfp: FailIndex"):
			rule.Action = batchv1.PodFailurePolicyActionFailIndex
		case g.inner("pfp: bogus action"):
			rule.Action = "Explode"
		}
		if g.chance(0.6) {
			req := &batchv1.PodFailurePolicyOnExitCodesRequirement{Operator: batchv1.PodFailurePolicyOnExitCodesOpIn, Values: []int32{1, 42}}
			switch {
			case g.inner("pfp: no operator"):
				req.Operator = ""
			case g.inner("pfp: bogus operator"):
				req.Operator = "Between"
			case g.inner("pfp: NotIn"):
				req.Operator = batchv1.PodFailurePolicyOnExitCodesOpNotIn
			}
			switch {
			case g.inner("pfp: no values"):
				req.Values = nil
			case g.inner("pfp: zero for In"):
				req.Values = []int32{0, 3}
			case g.inner("pfp: duplicate values"):
				req.Values = []int32{5, 5}
			case g.inner("pfp: unordered values"):
				req.Values = []int32{9, 2, -1}
			case g.inner("pfp: too many values"):
				for i := range int32(256) {
					req.Values = append(req.Values, i+1)
				}
			}
			if g.inner("pfp: containerName") {
				req.ContainerName = str(pick(g, "c0", "nope"))
			}
			rule.OnExitCodes = req
		}
		if rule.OnExitCodes == nil || g.inner("pfp: both") {
			rule.OnPodConditions = []batchv1.PodFailurePolicyOnPodConditionsPattern{{Type: corev1.DisruptionTarget}}
			switch {
			case g.inner("pfp: bad condition type"):
				rule.OnPodConditions[0].Type = "bad type!"
			case g.inner("pfp: condition status"):
				rule.OnPodConditions[0].Status = pick(g, corev1.ConditionFalse, corev1.ConditionUnknown, "Maybe")
			case g.inner("pfp: neither"):
				rule.OnPodConditions = nil
			case g.inner("pfp: too many patterns"):
				for range 20 {
					rule.OnPodConditions = append(rule.OnPodConditions, batchv1.PodFailurePolicyOnPodConditionsPattern{Type: corev1.PodReady})
				}
			}
		}
		p.Rules = append(p.Rules, rule)
	}
	return p
}

func (g *gen) successPolicy() *batchv1.SuccessPolicy {
	p := &batchv1.SuccessPolicy{}
	if g.inner("successPolicy: no rules") {
		return p
	}
	n := 1 + g.r.Intn(2)
	if g.inner("successPolicy: too many rules") {
		n = 21
	}
	for range n {
		r := batchv1.SuccessPolicyRule{}
		if g.chance(0.6) {
			r.SucceededIndexes = str(pick(g, "0,2-3", "1", "0-9", "3-1", "a", "1-2-3", "0,0", "99", "2,1", ""))
		}
		if g.chance(0.6) {
			r.SucceededCount = i32(pick[int32](g, 1, -1, 3, 20))
		}
		p.Rules = append(p.Rules, r)
	}
	return p
}

func (g *gen) job() *batchv1.Job {
	j := &batchv1.Job{ObjectMeta: g.meta("Job")}
	j.Spec = g.jobSpec(false)
	if g.fault("job: manual selector") {
		j.Spec.ManualSelector = boolp(true)
		j.Spec.Selector = g.selector()
		if j.Spec.Template.Labels == nil {
			j.Spec.Template.Labels = appLabels()
		}
	} else if g.fault("job: selector without manualSelector") {
		j.Spec.Selector = g.selector()
	}
	if g.fault("job: template labels clash") {
		if j.Spec.Template.Labels == nil {
			j.Spec.Template.Labels = map[string]string{}
		}
		j.Spec.Template.Labels[pick(g, "job-name", "controller-uid", "batch.kubernetes.io/job-name", "batch.kubernetes.io/controller-uid")] = pick(g, "other", "")
	}
	if g.fault("job: empty template labels") {
		j.Spec.Template.Labels = map[string]string{}
	}
	return j
}

func (g *gen) cronJob() *batchv1.CronJob {
	cj := &batchv1.CronJob{ObjectMeta: g.meta("CronJob")}
	s := &cj.Spec
	s.Schedule = pick(g, "*/5 * * * *", "0 0 * * *", "@hourly", "@every 1h30m")
	switch {
	case g.fault("schedule: empty"):
		s.Schedule = ""
	case g.fault("schedule: invalid"):
		s.Schedule = pick(g, "* * * *", "61 * * * *", "*/0 * * * *", "@fortnightly", "@every 1x", "1-2-3 * * * *", "* * * * * *", "a b c d e", "5-1 * * * *")
	case g.fault("schedule: TZ"):
		s.Schedule = pick(g, "TZ=UTC 0 0 * * *", "CRON_TZ=Europe/Paris */5 * * * *", "TZ=Mars/Base 0 * * * *", "TZ=0", "CRON_TZ=UTC", "TZ= @daily", "TZ=Local 1 * * * *", "TZ=../x 0 * * * *", "TZ=UTC TZ=UTC * * * * *", "TZ=UTC ")
	}
	if g.fault("timeZone") {
		s.TimeZone = str(pick(g, "Europe/Berlin", "America/Argentina/Buenos_Aires", "UTC", "", "Local", "local", "Mars/Olympus", "Etc/GMT+5", "../etc", "-x", "America/Nowhere_Land_X", "Europe/Berln", "Area/Sub.Zone"))
	}
	if g.fault("startingDeadlineSeconds") {
		s.StartingDeadlineSeconds = i64(pick[int64](g, -1, 100))
	}
	if g.fault("concurrencyPolicy") {
		s.ConcurrencyPolicy = pick(g, batchv1.ForbidConcurrent, batchv1.ReplaceConcurrent, "Sometimes")
	}
	if g.fault("history limits") {
		s.SuccessfulJobsHistoryLimit = i32(pick[int32](g, -1, 0, 5))
		s.FailedJobsHistoryLimit = i32(pick[int32](g, -1, 0, 5))
	}
	s.JobTemplate.Spec = g.jobSpec(true)
	if g.chance(0.2) {
		s.JobTemplate.Labels = map[string]string{"owner": pick(g, "team", "bad value!")}
	}
	return cj
}

func (g *gen) replicationController() *corev1.ReplicationController {
	rc := &corev1.ReplicationController{ObjectMeta: g.meta("ReplicationController")}
	t := g.template("")
	rc.Spec.Template = &t
	switch {
	case g.fault("rc: no template"):
		rc.Spec.Template = nil
	case g.fault("rc: template without labels"):
		rc.Spec.Template.Labels = nil
	}
	switch {
	case g.fault("rc: selector mismatch"):
		rc.Spec.Selector = map[string]string{"app": "other"}
	case g.chance(0.5):
		rc.Spec.Selector = appLabels()
	}
	if g.fault("replicas: negative") {
		rc.Spec.Replicas = i32(-1)
	} else if g.chance(0.4) {
		rc.Spec.Replicas = i32(2)
	}
	if g.fault("minReadySeconds") {
		rc.Spec.MinReadySeconds = -4
	}
	return rc
}

func (g *gen) podTemplate() *corev1.PodTemplate {
	return &corev1.PodTemplate{ObjectMeta: g.meta("PodTemplate"), Template: g.template("")}
}
