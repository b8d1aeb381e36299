package podlife_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/podlife/podlife"
)

// fuzzPodSeeds are pods as JSON: the fuzzer mutates the text, and inputs that do not
// decode into a pod are skipped (the engine's own fuzz targets in internal/defaulting
// build pods field by field; these reach the public entry points).
var fuzzPodSeeds = []string{
	`{}`,
	`{"metadata":{"name":"myapp-pod","labels":{"app.kubernetes.io/name":"MyApp"}},"spec":{"containers":[{"name":"myapp-container","image":"busybox:1.28","command":["sh","-c","echo The app is running! && sleep 3600"]}],"initContainers":[{"name":"init-myservice","image":"busybox:1.28"},{"name":"init-mydb","image":"busybox:1.28"}]}}`,
	`{"metadata":{"name":"side","namespace":"ns"},"spec":{"restartPolicy":"Never","initContainers":[{"name":"log","image":"fluent-bit","restartPolicy":"Always","resources":{"limits":{"cpu":"100m"}}}],"containers":[{"name":"main","image":"app:latest","resources":{"requests":{"memory":"64Mi"},"limits":{"memory":"128Mi","cpu":"1"}}}]}}`,
	`{"metadata":{"name":"gated"},"spec":{"schedulingGates":[{"name":"example.com/quota"}],"resources":{"limits":{"cpu":"2","memory":"1Gi"}},"containers":[{"name":"a","image":"nginx@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef","ports":[{"containerPort":80}]}],"overhead":{"cpu":"10m"}}}`,
	`{"spec":{"containers":[{"name":"x","image":"x","env":[{"name":"A","valueFrom":{"fieldRef":{"fieldPath":"metadata.name"}}}],"livenessProbe":{"httpGet":{"port":8080}}}],"volumes":[{"name":"v","configMap":{"name":"c"}},{"name":"s","secret":{}}],"topologySpreadConstraints":[{"maxSkew":1,"topologyKey":"zone","whenUnsatisfiable":"DoNotSchedule","matchLabelKeys":["app"]}]}}`,
}

// fuzzNow is the server clock of the fuzz targets.
var fuzzNow = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// FuzzPublicDefaulting drives every public defaulting entry point of the root package
// with the same decoded pod: none mutates its input, each is deterministic, the
// documented equivalences between them hold, and the results carry what the create
// path always sets.
func FuzzPublicDefaulting(f *testing.F) {
	for i, s := range fuzzPodSeeds {
		f.Add([]byte(s), []string{"", "ContainerRestartRules", "PodLevelResources", "AllBeta", "NoSuchGate"}[i%5], i%2 == 0, uint8(i))
	}
	f.Fuzz(func(t *testing.T, podJSON []byte, gate string, on bool, kind uint8) {
		var pod corev1.Pod
		if json.Unmarshal(podJSON, &pod) != nil {
			return
		}
		opts := podlife.DefaultOptions{Now: fuzzNow}
		if gate != "" {
			opts.Features = podlife.FeatureGates{gate: on}
			if opts.Features.Validate() != nil {
				opts.Features = nil
			}
		}
		before := pod.DeepCopy()
		stored := podlife.DefaultWithOptions(&pod, opts)
		mustEqual(t, "DefaultWithOptions mutated its input", before, &pod)
		mustEqual(t, "DefaultWithOptions is not deterministic", stored, podlife.DefaultWithOptions(&pod, opts))
		if stored == &pod {
			t.Fatal("DefaultWithOptions returned its input")
		}
		if stored.Status.Phase != corev1.PodPending || stored.Generation != 1 || stored.Status.QOSClass == "" {
			t.Fatalf("created pod: phase %q, generation %d, qosClass %q", stored.Status.Phase, stored.Generation, stored.Status.QOSClass)
		}
		if opts.Features == nil {
			zero := podlife.DefaultWithOptions(&pod, podlife.DefaultOptions{})
			mustEqual(t, "Default differs from DefaultWithOptions with zero options", zero, podlife.Default(&pod))
		}

		storedBefore := stored.DeepCopy()
		updated := podlife.DefaultForUpdate(&pod, stored, opts)
		mustEqual(t, "DefaultForUpdate mutated the new pod", before, &pod)
		mustEqual(t, "DefaultForUpdate mutated the old pod", storedBefore, stored)
		mustEqual(t, "DefaultForUpdate is not deterministic", updated, podlife.DefaultForUpdate(&pod, stored, opts))
		mustEqual(t, "DefaultForUpdate did not keep the stored status", &stored.Status, &updated.Status)

		tmpl := &corev1.PodTemplateSpec{ObjectMeta: pod.ObjectMeta, Spec: pod.Spec}
		tmplBefore := tmpl.DeepCopy()
		st := podlife.DefaultTemplateWithOptions(tmpl, opts)
		mustEqual(t, "DefaultTemplateWithOptions mutated its input", tmplBefore, tmpl)
		mustEqual(t, "DefaultTemplateWithOptions is not deterministic", st, podlife.DefaultTemplateWithOptions(tmpl, opts))
		mustEqual(t, "DefaultTemplateForUpdate with no old template differs from DefaultTemplateWithOptions", st, podlife.DefaultTemplateForUpdate(tmpl, nil, opts))
		mustEqual(t, "DefaultTemplate differs from DefaultTemplateWithOptions with zero options", podlife.DefaultTemplateWithOptions(tmpl, podlife.DefaultOptions{}), podlife.DefaultTemplate(tmpl))
		stBefore := st.DeepCopy()
		podlife.DefaultTemplateForUpdate(tmpl, st, opts)
		mustEqual(t, "DefaultTemplateForUpdate mutated the old template", stBefore, st)

		pfo := podlife.PodFromTemplateOptions{DefaultOptions: opts, ControllerName: "web", Namespace: "team-a"}
		fromTemplate := podlife.PodFromTemplate(tmpl, pfo)
		mustEqual(t, "PodFromTemplate mutated its input", tmplBefore, tmpl)
		if fromTemplate.Namespace != "team-a" || fromTemplate.GenerateName != "web-" || len(fromTemplate.Spec.Containers) != len(tmpl.Spec.Containers) {
			t.Fatalf("PodFromTemplate: namespace %q, generateName %q, %d containers of %d", fromTemplate.Namespace, fromTemplate.GenerateName, len(fromTemplate.Spec.Containers), len(tmpl.Spec.Containers))
		}

		obj := holder(kind, tmpl)
		objBefore := obj.DeepCopyObject()
		fromObject, err := podlife.PodFromObject(obj, pfo)
		mustEqual(t, "PodFromObject mutated its input", objBefore, obj)
		if err != nil {
			t.Fatalf("PodFromObject(%T): %v", obj, err)
		}
		again, _ := podlife.PodFromObject(obj, pfo)
		mustEqual(t, "PodFromObject is not deterministic", fromObject, again)
		if len(fromObject.Spec.Containers) != len(tmpl.Spec.Containers) || fromObject.Status.Phase != corev1.PodPending {
			t.Fatalf("PodFromObject(%T): %d containers of %d, phase %q", obj, len(fromObject.Spec.Containers), len(tmpl.Spec.Containers), fromObject.Status.Phase)
		}
	})
}

// holder wraps the template in one of the kinds that hold a pod.
func holder(kind uint8, tmpl *corev1.PodTemplateSpec) runtime.Object {
	t := *tmpl.DeepCopy()
	switch kind % 8 {
	case 0:
		return &corev1.PodTemplate{Template: t}
	case 1:
		return &corev1.ReplicationController{Spec: corev1.ReplicationControllerSpec{Template: &t}}
	case 2:
		return &appsv1.Deployment{Spec: appsv1.DeploymentSpec{Template: t}}
	case 3:
		return &appsv1.ReplicaSet{Spec: appsv1.ReplicaSetSpec{Template: t}}
	case 4:
		return &appsv1.StatefulSet{Spec: appsv1.StatefulSetSpec{Template: t}}
	case 5:
		return &appsv1.DaemonSet{Spec: appsv1.DaemonSetSpec{Template: t}}
	case 6:
		return &batchv1.Job{Spec: batchv1.JobSpec{Template: t}}
	default:
		return &batchv1.CronJob{Spec: batchv1.CronJobSpec{JobTemplate: batchv1.JobTemplateSpec{Spec: batchv1.JobSpec{Template: t}}}}
	}
}

func mustEqual(t *testing.T, what string, want, got any) {
	t.Helper()
	if !reflect.DeepEqual(want, got) {
		t.Fatal(what)
	}
}

// FuzzFeatureGateLookup checks the gate table's two views against each other:
// LookupFeatureGate knows a name exactly when KnownFeatureGates lists it, the list
// is sorted and a fresh copy, and setting a known gate to its own default is
// accepted unless upstream refuses it for a dependency.
func FuzzFeatureGateLookup(f *testing.F) {
	for _, s := range []string{"", "AllAlpha", "AllBeta", "ContainerRestartRules", "SidecarContainers", "containerrestartrules", "PodLevelResources ", "NoSuchGate"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		known := podlife.KnownFeatureGates()
		if !slices.IsSorted(known) {
			t.Fatal("KnownFeatureGates is not sorted")
		}
		_, listed := slices.BinarySearch(known, name)
		spec, ok := podlife.LookupFeatureGate(name)
		if name != "AllAlpha" && name != "AllBeta" && ok != listed {
			t.Fatalf("LookupFeatureGate(%q) = %t, KnownFeatureGates lists it: %t", name, ok, listed)
		}
		if !ok && (podlife.FeatureGates{name: true}).Validate() == nil {
			t.Fatalf("unknown gate %q accepted", name)
		}
		if ok && (podlife.FeatureGates{name: spec.Default}).Enabled(name) != spec.Default {
			t.Fatalf("gate %q set to its default %t resolves otherwise", name, spec.Default)
		}
		if len(known) > 0 {
			known[0] = "changed"
			if podlife.KnownFeatureGates()[0] == "changed" {
				t.Fatal("KnownFeatureGates shares its slice")
			}
		}
	})
}
