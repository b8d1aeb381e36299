package validation

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// ctr changes the base pod's only container.
func ctr(f func(c *corev1.Container)) func(p *corev1.Pod) {
	return func(p *corev1.Pod) { f(&p.Spec.Containers[0]) }
}

// initCtr appends an init container "i" (image "img") changed by f.
func initCtr(f func(c *corev1.Container)) func(p *corev1.Pod) {
	return func(p *corev1.Pod) {
		c := corev1.Container{Name: "i", Image: "img"}
		f(&c)
		p.Spec.InitContainers = append(p.Spec.InitContainers, c)
	}
}

// sidecar appends a sidecar "s" (init container with restartPolicy Always).
func sidecar(f func(c *corev1.Container)) func(p *corev1.Pod) {
	return initCtr(func(c *corev1.Container) {
		c.Name = "s"
		c.RestartPolicy = ptr(corev1.ContainerRestartPolicyAlways)
		f(c)
	})
}

func all(fs ...func(p *corev1.Pod)) func(p *corev1.Pod) {
	return func(p *corev1.Pod) {
		for _, f := range fs {
			f(p)
		}
	}
}

func ptr[T any](v T) *T { return &v }

func q(s string) resource.Quantity { return resource.MustParse(s) }

func rl(kv ...string) corev1.ResourceList {
	l := corev1.ResourceList{}
	for i := 0; i+1 < len(kv); i += 2 {
		l[corev1.ResourceName(kv[i])] = q(kv[i+1])
	}
	return l
}

func execProbe() *corev1.Probe {
	return &corev1.Probe{ProbeHandler: corev1.ProbeHandler{Exec: &corev1.ExecAction{Command: []string{"true"}}}}
}

func tcpProbe(port intstr.IntOrString) *corev1.Probe {
	return &corev1.Probe{ProbeHandler: corev1.ProbeHandler{TCPSocket: &corev1.TCPSocketAction{Port: port}}}
}

func httpProbe(port intstr.IntOrString) *corev1.Probe {
	return &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Port: port}}}
}

func emptyDir(name string) corev1.Volume {
	return corev1.Volume{Name: name, VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}
}

func pvc(name string) corev1.Volume {
	return corev1.Volume{Name: name, VolumeSource: corev1.VolumeSource{PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{ClaimName: "claim"}}}
}

func vols(v ...corev1.Volume) func(p *corev1.Pod) {
	return func(p *corev1.Pod) { p.Spec.Volumes = append(p.Spec.Volumes, v...) }
}
