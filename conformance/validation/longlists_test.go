package validation

import (
	"math/rand"
	"strconv"
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/podlife/podlife/conformance/internal/upstreamcreate"
	"github.com/podlife/podlife/validation"
)

// longListsPod builds a pod whose lists are long enough for podlife to index them
// rather than scan them (more than 16 entries): volume mounts and devices whose names
// and paths repeat and overlap, ephemeral volumes and claims that reference their
// generated claims, and projected items whose paths repeat.
func longListsPod(r *rand.Rand) *v1.Pod {
	word := func(prefix string, k int) string { return prefix + strconv.Itoa(r.Intn(k)) }
	nVol := 17 + r.Intn(30)
	pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"}}
	for i := range nVol {
		name := "v" + strconv.Itoa(i)
		var src v1.VolumeSource
		switch r.Intn(4) {
		case 0:
			mode := v1.PersistentVolumeBlock
			src.Ephemeral = &v1.EphemeralVolumeSource{VolumeClaimTemplate: &v1.PersistentVolumeClaimTemplate{Spec: v1.PersistentVolumeClaimSpec{
				AccessModes: []v1.PersistentVolumeAccessMode{v1.ReadWriteOnce}, VolumeMode: &mode,
				Resources: v1.VolumeResourceRequirements{Requests: v1.ResourceList{v1.ResourceStorage: resource.MustParse("1Gi")}},
			}}}
		case 1:
			src.PersistentVolumeClaim = &v1.PersistentVolumeClaimVolumeSource{ClaimName: word("web-v", nVol+5)}
		case 2:
			var sources []v1.VolumeProjection
			for range 1 + r.Intn(4) {
				var items []v1.KeyToPath
				for range r.Intn(12) {
					items = append(items, v1.KeyToPath{Key: word("k", 5), Path: word("p", 40)})
				}
				if r.Intn(2) == 0 {
					sources = append(sources, v1.VolumeProjection{Secret: &v1.SecretProjection{LocalObjectReference: v1.LocalObjectReference{Name: "s"}, Items: items}})
				} else {
					sources = append(sources, v1.VolumeProjection{ConfigMap: &v1.ConfigMapProjection{LocalObjectReference: v1.LocalObjectReference{Name: "c"}, Items: items}})
				}
			}
			src.Projected = &v1.ProjectedVolumeSource{Sources: sources}
		default:
			src.EmptyDir = &v1.EmptyDirVolumeSource{}
		}
		pod.Spec.Volumes = append(pod.Spec.Volumes, v1.Volume{Name: name, VolumeSource: src})
	}
	c := v1.Container{Name: "app", Image: "nginx"}
	pool := nVol + 3 // some names match no volume
	for range r.Intn(50) {
		c.VolumeMounts = append(c.VolumeMounts, v1.VolumeMount{Name: word("v", pool), MountPath: word("/m/", 25)})
	}
	for range r.Intn(40) {
		c.VolumeDevices = append(c.VolumeDevices, v1.VolumeDevice{Name: word("v", pool), DevicePath: word("/m/", 25)})
	}
	pod.Spec.Containers = []v1.Container{c}
	return pod
}

// TestLongListsMatchUpstream compares ValidatePodCreate with the API server on pods
// whose mount, device, volume and projected-path lists are long, error for error and
// in order: podlife indexes such lists (upstream uses maps and sets), where it scans
// short ones.
func TestLongListsMatchUpstream(t *testing.T) {
	s := seed(t)
	r := rand.New(rand.NewSource(s + 11))
	n := count(t, 300)
	// The details of the checks that index long lists; each must be met.
	details := map[string]int{
		"must be unique": 0, "must not already exist in volumeDevices": 0,
		"must not already exist as a path in volumeDevices": 0, "must not already exist in volumeMounts": 0,
		"must not already exist as a path in volumeMounts": 0, "conflicting duplicate paths": 0,
		"must not reference a PVC that gets created for an ephemeral volume": 0,
	}
	for i := range n {
		pod := longListsPod(r)
		ours := validation.ValidatePodCreate(pod, validation.Options{})
		theirs := upstreamcreate.CreateIn(t, pod, "")
		for _, e := range theirs {
			if _, ok := details[e.Detail]; ok {
				details[e.Detail]++
			}
		}
		if got, want := texts(ours), texts(theirs); !equalStrings(got, want) {
			missing, extra := multisetDiff(ours, theirs)
			t.Fatalf("pod %d (seed %d): podlife answers\n%q\nupstream\n%q\nmissing %q\nextra %q", i, s, got, want, missing, extra)
		}
	}
	for d, k := range details {
		if k == 0 {
			t.Errorf("no error %q upstream", d)
		}
	}
	t.Logf("%d pods with long lists, all answers equal; errors by detail: %v", n, details)
}

func texts(l field.ErrorList) []string {
	out := make([]string, len(l))
	for i, e := range l {
		out[i] = e.Error()
	}
	return out
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
