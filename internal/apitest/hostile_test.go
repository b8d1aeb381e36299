package apitest

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podlife/podlife"
	"github.com/podlife/podlife/lifecycle"
)

// shapes are the hostile pods: each grows with n.
var shapes = []string{"containers", "volumes", "rules", "strings", "names", "quantities", "ports", "paths"}

// hostilePod returns a pod of the given shape and size, and the same pod with a
// status that names every container.
func hostilePod(shape string, n int) (pod, running *corev1.Pod) {
	always := corev1.ContainerRestartPolicyAlways
	never := corev1.ContainerRestartPolicyNever
	pod = &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "hostile", Namespace: "default", UID: "uid-h", CreationTimestamp: metav1.NewTime(t0)},
		Spec:       corev1.PodSpec{},
	}
	ctr := func(name string) corev1.Container {
		return corev1.Container{Name: name, Image: "busybox:1.28", Resources: corev1.ResourceRequirements{Requests: list(1, 1), Limits: list(2, 2)}}
	}
	switch shape {
	case "containers":
		// Names of one width ("c-00042"), longer than any name a call looks up
		// ("app", "init", "proxy", the baseline's "absent"): a lookup rejects every
		// name by its length, at any size. Names of growing width ("c0" … "c9999")
		// reach a looked-up name's length only past some size, and then need a byte
		// comparison each: StopTimeout's "proxy" grew 33× in instructions from 1,000
		// to 10,000 containers.
		for i := range n {
			pod.Spec.Containers = append(pod.Spec.Containers, ctr(fmt.Sprintf("c-%05d", i)))
			if i%2 == 0 {
				c := ctr(fmt.Sprintf("s-%05d", i))
				c.RestartPolicy = &always
				pod.Spec.InitContainers = append(pod.Spec.InitContainers, c)
			}
		}
	case "volumes":
		c := ctr("app")
		for i := range n {
			name := "v" + strconv.Itoa(i)
			pod.Spec.Volumes = append(pod.Spec.Volumes, corev1.Volume{Name: name, VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}})
			c.VolumeMounts = append(c.VolumeMounts, corev1.VolumeMount{Name: name, MountPath: "/m/" + name})
		}
		pod.Spec.Containers = []corev1.Container{c}
	case "rules":
		c := ctr("app")
		c.RestartPolicy = &never
		values := make([]int32, n)
		for i := range values {
			values[i] = int32(i)
		}
		c.RestartPolicyRules = []corev1.ContainerRestartRule{{Action: corev1.ContainerRestartRuleActionRestart,
			ExitCodes: &corev1.ContainerRestartRuleOnExitCodes{Operator: corev1.ContainerRestartRuleOnExitCodesOpNotIn, Values: values}}}
		pod.Spec.Containers = []corev1.Container{c}
	case "strings":
		long := strings.Repeat("x", 100*n)
		pod.Annotations = map[string]string{"example.com/big": long}
		pod.Labels = map[string]string{"app": long}
		c := ctr("app")
		c.Image = "registry.example.com/" + long + ":1"
		c.Env = []corev1.EnvVar{{Name: "BIG", Value: long}}
		c.Command = []string{long}
		pod.Spec.Containers = []corev1.Container{c}
	case "names":
		for range n {
			pod.Spec.Containers = append(pod.Spec.Containers, ctr("same"))
			pod.Spec.InitContainers = append(pod.Spec.InitContainers, ctr("same"))
		}
	case "ports":
		// One port number on distinct host bindings: upstream's create warnings
		// compare every pair of them.
		c := ctr("app")
		for i := range n {
			c.Ports = append(c.Ports, corev1.ContainerPort{ContainerPort: 80, HostPort: int32(1000 + i), HostIP: fmt.Sprintf("10.%d.%d.%d", i/62500, i/250%250, i%250+1)})
		}
		pod.Spec.Containers = []corev1.Container{c}
	case "paths":
		// Items of one volume under a few directories: upstream's create warnings
		// compare every pair of paths.
		c := ctr("app")
		cm := &corev1.ConfigMapVolumeSource{LocalObjectReference: corev1.LocalObjectReference{Name: "config"}}
		for i := range n {
			cm.Items = append(cm.Items, corev1.KeyToPath{Key: "k" + strconv.Itoa(i), Path: fmt.Sprintf("d%d/f%d", i%7, i)})
		}
		pod.Spec.Volumes = []corev1.Volume{{Name: "config", VolumeSource: corev1.VolumeSource{ConfigMap: cm}}}
		c.VolumeMounts = []corev1.VolumeMount{{Name: "config", MountPath: "/etc/config"}}
		pod.Spec.Containers = []corev1.Container{c}
	case "quantities":
		c := ctr("app")
		for i := range n {
			name := corev1.ResourceName("example.com/r" + strconv.Itoa(i))
			q := []string{"9e18", "123456789012345678901234567890", "1e-9", "9223372036854775807Ei", "0.000000001m"}[i%5]
			c.Resources.Requests[name] = resource.MustParse(q)
			c.Resources.Limits[name] = resource.MustParse(q)
		}
		pod.Spec.Containers = []corev1.Container{c}
	}
	running = pod.DeepCopy()
	running.Status.Phase = corev1.PodRunning
	for i, c := range pod.Spec.InitContainers {
		st := corev1.ContainerStatus{Name: c.Name, State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: metav1.NewTime(t0)}}}
		if i%3 == 0 {
			st.State = corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 1, FinishedAt: metav1.NewTime(t0)}}
		}
		running.Status.InitContainerStatuses = append(running.Status.InitContainerStatuses, st)
	}
	for i, c := range pod.Spec.Containers {
		st := corev1.ContainerStatus{Name: c.Name, RestartCount: int32(i % 7), State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: metav1.NewTime(t0)}}}
		if i%4 == 0 {
			st.State = corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "CrashLoopBackOff"}}
			st.LastTerminationState = corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 42, FinishedAt: metav1.NewTime(t0)}}
		}
		running.Status.ContainerStatuses = append(running.Status.ContainerStatuses, st)
	}
	return pod, running
}

// hostileFixtures are the shared inputs of the calls for one hostile pod.
func hostileFixtures(shape string, n int) *fixtures {
	pod, running := hostilePod(shape, n)
	old := podlife.Default(pod)
	old.ResourceVersion = "7"
	template := &corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}}, Spec: *pod.Spec.DeepCopy()}
	deployment := &appsv1.Deployment{
		TypeMeta:   metav1.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: appsv1.DeploymentSpec{Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: *template.DeepCopy()},
	}
	job := &batchv1.Job{
		TypeMeta:   metav1.TypeMeta{APIVersion: "batch/v1", Kind: "Job"},
		ObjectMeta: metav1.ObjectMeta{Name: "batch", Namespace: "default"},
		Spec:       batchv1.JobSpec{Template: *template.DeepCopy()},
	}
	job.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyNever
	doc, err := json.Marshal(pod)
	if err != nil {
		panic(err)
	}
	f := &fixtures{
		pod: pod, running: running, old: old, view: lifecycle.ViewFromStatus(running),
		template: template, deployment: deployment, stored: storedBefore(deployment), job: job,
		manifest: `{"apiVersion":"v1","kind":"Pod",` + string(doc[1:]),
	}
	f.live = liveOf(f.manifest)
	f.custom = customKinds()
	return f
}

// TestHostileInputs calls every exported function on every hostile shape: nothing
// panics (a panic fails the test with the call's name). The sizes are kept small
// enough for `go test`; BenchmarkHostile runs 1,000 and 10,000.
func TestHostileInputs(t *testing.T) {
	if testing.Short() {
		t.Skip("hostile pods of 2,000 elements")
	}
	for _, shape := range shapes {
		f := hostileFixtures(shape, 2000)
		for _, c := range calls {
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("%s on the %s shape panicked: %v", c.name, shape, r)
					}
				}()
				_ = c.fn(f)
			}()
		}
	}
}

// BenchmarkHostile runs every exported function on every hostile shape at 1,000 and
// 10,000 elements; the ratio of the two shows the growth (linear: about ten times).
// Run it as
//
//	go test -run '^$' -bench Hostile -benchtime 3x ./internal/apitest
//
// TestHostileGrowth computes the ratios (PODLIFE_GROWTH=1, see growth_test.go).
func BenchmarkHostile(b *testing.B) {
	for _, shape := range shapes {
		for _, n := range []int{1000, 10000} {
			f := hostileFixtures(shape, n)
			for _, c := range calls {
				b.Run(fmt.Sprintf("%s/%s/%d", c.name, shape, n), func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						_ = c.fn(f)
					}
				})
			}
		}
	}
}
