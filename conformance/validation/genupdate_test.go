package validation

import (
	"encoding/json"
	"strconv"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	core "k8s.io/kubernetes/pkg/apis/core"
	corev1conv "k8s.io/kubernetes/pkg/apis/core/v1"
)

// updatePair is an update input: the stored pod as upstream keeps it, the same pod as
// a client reads it, and the new object the client sends.
type updatePair struct {
	stored   *core.Pod
	storedV1 *v1.Pod
	newPod   *v1.Pod
	faults   []string
}

var createdAt = metav1.NewTime(time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC))

// updatePair creates a stored pod through the upstream create path and derives a new
// object from it (or from the manifest it was created from) with random changes.
// upstreamStoreAs is upstreamStore with what the create path gives every stored pod:
// a name (name when the pod has none), a namespace ("default" when it has none), a uid,
// a resourceVersion and a creation time. A PUT goes to that name and namespace.
func upstreamStoreAs(t testing.TB, pod *v1.Pod, name string) *core.Pod {
	stored := upstreamStore(t, pod)
	if stored.Name == "" {
		stored.Name = name
	}
	if stored.Namespace == "" {
		stored.Namespace = "default"
	}
	stored.ResourceVersion = "42"
	stored.UID = "3f1c2a8e-0000-4000-8000-000000000001"
	stored.CreationTimestamp = createdAt
	return stored
}

func (g *gen) updatePair(t testing.TB) updatePair {
	base, faults := g.podWith(0.2)
	if g.chance(0.3) {
		base.Spec.SchedulingGates = []v1.PodSchedulingGate{{Name: "example.com/gate"}, {Name: "example.com/other"}}
		if g.chance(0.5) {
			base.Spec.NodeSelector = map[string]string{"zone": "a"}
		}
	}
	if g.chance(0.2) {
		base.Spec.Affinity = &v1.Affinity{NodeAffinity: &v1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &v1.NodeSelector{
			NodeSelectorTerms: []v1.NodeSelectorTerm{{MatchExpressions: []v1.NodeSelectorRequirement{{Key: "zone", Operator: v1.NodeSelectorOpIn, Values: []string{"a"}}}}},
		}}}
	}
	stored := upstreamStoreAs(t, base, "stored-"+strconv.Itoa(g.n))
	if g.chance(0.05) {
		now := metav1.NewTime(createdAt.Add(time.Hour))
		stored.DeletionTimestamp = &now
		stored.DeletionGracePeriodSeconds = i64(30)
		stored.Finalizers = []string{"example.com/keep"}
	}
	storedV1 := toV1(t, stored)
	var n *v1.Pod
	if g.chance(0.7) {
		n = storedV1.DeepCopy()
	} else {
		n = base.DeepCopy()
		n.ResourceVersion = g.pick("42", "")
	}
	for i, k := 0, g.r.Intn(3); i < k && g.chance(0.75); i++ {
		f := updateFaults[g.r.Intn(len(updateFaults))]
		faults = append(faults, f.name)
		f.apply(g, n)
	}
	// Both objects reach the server as JSON (the stored one from etcd, the new one
	// from the client), which drops empty lists and maps; podlife gets them the same.
	storedV1, n = jsonRoundTrip(t, storedV1), jsonRoundTrip(t, n)
	stored = fromV1(t, storedV1)
	return updatePair{stored: stored, storedV1: storedV1, newPod: n, faults: faults}
}

// updateFaults are the changes applied to the new object of an update.
var updateFaults = []fault{
	{"update.image", func(g *gen, p *v1.Pod) {
		g.anyContainer(p).Image = g.pick("nginx:1.28", "", " nginx", "busybox")
	}},
	{"update.activeDeadlineSeconds", func(g *gen, p *v1.Pod) {
		if g.chance(0.3) {
			p.Spec.ActiveDeadlineSeconds = nil
		} else {
			p.Spec.ActiveDeadlineSeconds = i64(int64(g.pick2(-1, 0, 1, 500, 5000, 1<<31)))
		}
	}},
	{"update.tolerations.add", func(g *gen, p *v1.Pod) {
		p.Spec.Tolerations = append(p.Spec.Tolerations, v1.Toleration{Key: g.pick("example.com/new", "bad key!", ""), Operator: v1.TolerationOperator(g.pick("Exists", "Equal", "Bogus")), Effect: v1.TaintEffect(g.pick("NoSchedule", "NoExecute", ""))})
	}},
	{"update.tolerations.modify", func(g *gen, p *v1.Pod) {
		if len(p.Spec.Tolerations) == 0 {
			return
		}
		if g.chance(0.5) {
			p.Spec.Tolerations[0].TolerationSeconds = i64(60)
		} else {
			p.Spec.Tolerations[0].Key = "example.com/changed"
		}
	}},
	{"update.tolerations.remove", func(g *gen, p *v1.Pod) { p.Spec.Tolerations = nil }},
	{"update.terminationGracePeriodSeconds", func(g *gen, p *v1.Pod) {
		p.Spec.TerminationGracePeriodSeconds = i64(int64(g.pick2(1, 0, 45, -3)))
	}},
	{"update.containers.add", func(g *gen, p *v1.Pod) {
		p.Spec.Containers = append(p.Spec.Containers, v1.Container{Name: "added", Image: "nginx"})
	}},
	{"update.initContainers.remove", func(g *gen, p *v1.Pod) {
		if len(p.Spec.InitContainers) > 0 {
			p.Spec.InitContainers = p.Spec.InitContainers[1:]
		} else {
			p.Spec.InitContainers = []v1.Container{{Name: "added-init", Image: "busybox"}}
		}
	}},
	{"update.command", func(g *gen, p *v1.Pod) {
		g.anyContainer(p).Command = []string{"/bin/changed"}
	}},
	{"update.resources", func(g *gen, p *v1.Pod) {
		c := g.anyContainer(p)
		c.Resources.Requests = v1.ResourceList{v1.ResourceCPU: resource.MustParse("300m")}
	}},
	{"update.podResources.drop", func(g *gen, p *v1.Pod) { p.Spec.Resources = nil }},
	{"update.restartPolicy", func(g *gen, p *v1.Pod) {
		p.Spec.RestartPolicy = v1.RestartPolicy(g.pick("Always", "Never", "Bogus"))
	}},
	{"update.stopSignal", func(g *gen, p *v1.Pod) {
		c := g.anyContainer(p)
		if c.Lifecycle == nil {
			c.Lifecycle = &v1.Lifecycle{}
		}
		s := v1.Signal("SIGUSR1")
		c.Lifecycle.StopSignal = &s
	}},
	{"update.restartRules", func(g *gen, p *v1.Pod) {
		c := &p.Spec.Containers[0]
		c.RestartPolicy = ptrRP(v1.ContainerRestartPolicyNever)
		c.RestartPolicyRules = []v1.ContainerRestartRule{{Action: v1.ContainerRestartRuleAction(g.pick("Restart", "RestartAllContainers")),
			ExitCodes: &v1.ContainerRestartRuleOnExitCodes{Operator: v1.ContainerRestartRuleOnExitCodesOpIn, Values: []int32{3}}}}
	}},
	{"update.labels", func(g *gen, p *v1.Pod) {
		p.Labels = map[string]string{g.pick("app", "bad key!"): g.pick("other", "")}
	}},
	{"update.annotations", func(g *gen, p *v1.Pod) {
		if p.Annotations == nil {
			p.Annotations = map[string]string{}
		}
		k := g.pick("example.com/x", "kubernetes.io/config.mirror", "container.apparmor.security.beta.kubernetes.io/app-0", "controller.kubernetes.io/pod-deletion-cost")
		p.Annotations[k] = g.pick("v", "localhost/x", "12", "x")
	}},
	{"update.annotations.remove", func(g *gen, p *v1.Pod) { p.Annotations = nil }},
	{"update.resourceVersion", func(g *gen, p *v1.Pod) { p.ResourceVersion = g.pick("", "", "0", "41", "042", "x1") }},
	{"update.name", func(g *gen, p *v1.Pod) { p.Name = g.pick("renamed", "Bad_Name", "a/b", "x%y", ".", "") }},
	{"update.namespace", func(g *gen, p *v1.Pod) { p.Namespace = g.pick("elsewhere", "") }},
	{"update.uid", func(g *gen, p *v1.Pod) { p.UID = types.UID(g.pick("", "other-uid")) }},
	{"update.generation", func(g *gen, p *v1.Pod) { p.Generation = int64(g.pick2(-1, 0, 7)) }},
	{"update.finalizers", func(g *gen, p *v1.Pod) {
		p.Finalizers = append(p.Finalizers, g.pick("example.com/new", "kubernetes.io/bogus", "bad finalizer!"))
	}},
	{"update.schedulingGates.remove", func(g *gen, p *v1.Pod) {
		if len(p.Spec.SchedulingGates) > 0 {
			p.Spec.SchedulingGates = p.Spec.SchedulingGates[1:]
		}
	}},
	{"update.schedulingGates.add", func(g *gen, p *v1.Pod) {
		p.Spec.SchedulingGates = append(p.Spec.SchedulingGates, v1.PodSchedulingGate{Name: g.pick("example.com/new", "bad gate!")})
	}},
	{"update.nodeSelector", func(g *gen, p *v1.Pod) {
		if p.Spec.NodeSelector == nil || g.chance(0.3) {
			p.Spec.NodeSelector = map[string]string{}
		}
		p.Spec.NodeSelector[g.pick("zone", "disk")] = g.pick("a", "b")
	}},
	{"update.nodeAffinity", func(g *gen, p *v1.Pod) {
		term := v1.NodeSelectorTerm{MatchExpressions: []v1.NodeSelectorRequirement{{Key: "zone", Operator: v1.NodeSelectorOpIn, Values: []string{g.pick("a", "b")}}}}
		if p.Spec.Affinity == nil {
			p.Spec.Affinity = &v1.Affinity{}
		}
		p.Spec.Affinity.NodeAffinity = &v1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &v1.NodeSelector{NodeSelectorTerms: []v1.NodeSelectorTerm{term}}}
	}},
	{"update.nodeAffinity.extend", func(g *gen, p *v1.Pod) {
		a := p.Spec.Affinity
		if a == nil || a.NodeAffinity == nil || a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil {
			return
		}
		terms := a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms
		switch g.r.Intn(3) {
		case 0:
			terms[0].MatchExpressions = append(terms[0].MatchExpressions, v1.NodeSelectorRequirement{Key: "disk", Operator: v1.NodeSelectorOpExists})
		case 1:
			terms[0].MatchFields = append(terms[0].MatchFields, v1.NodeSelectorRequirement{Key: "metadata.name", Operator: v1.NodeSelectorOpIn, Values: []string{"n1"}})
		default:
			a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms = append(terms, v1.NodeSelectorTerm{})
		}
	}},
	{"update.nodeName", func(g *gen, p *v1.Pod) { p.Spec.NodeName = "node-1" }},
	{"update.probe", func(g *gen, p *v1.Pod) {
		c := g.anyContainer(p)
		c.ReadinessProbe = g.probe()
	}},
	{"update.pod.fault", func(g *gen, p *v1.Pod) {
		f := podFaults[g.r.Intn(len(podFaults))]
		f.apply(g, p)
	}},
}

// jsonRoundTrip returns p as a client or the store reads it back from JSON.
func jsonRoundTrip(t testing.TB, p *v1.Pod) *v1.Pod {
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	var out v1.Pod
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("unmarshal: %v", err)
	}
	return &out
}

// fromV1 converts a pod to the internal API without defaulting it.
func fromV1(t testing.TB, p *v1.Pod) *core.Pod {
	var in core.Pod
	if err := corev1conv.Convert_v1_Pod_To_core_Pod(p.DeepCopy(), &in, nil); err != nil {
		t.Fatalf("convert: %v", err)
	}
	return &in
}
