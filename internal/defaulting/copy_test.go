package defaulting

import (
	"fmt"
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// fill sets every field reachable from v: pointers allocated, slices of n elements,
// maps of n entries, scalars from a counter. Quantities get a value that holds a big
// decimal on odd counts, to exercise both representations.
func fill(v reflect.Value, n int, counter *int, depth int) {
	*counter++
	if v.Type() == reflect.TypeFor[resource.Quantity]() {
		s := fmt.Sprintf("%dm", *counter)
		if *counter%2 == 1 {
			s = fmt.Sprintf("1.%d", *counter) + "00000000000000000001"
		}
		v.Set(reflect.ValueOf(resource.MustParse(s)))
		return
	}
	if depth > 12 {
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), n, counter, depth+1)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), n, counter, depth+1)
			}
		}
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), n, n))
		for i := range n {
			fill(v.Index(i), n, counter, depth+1)
		}
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		for range n {
			k := reflect.New(v.Type().Key()).Elem()
			fill(k, n, counter, depth+1)
			e := reflect.New(v.Type().Elem()).Elem()
			fill(e, n, counter, depth+1)
			v.SetMapIndex(k, e)
		}
	case reflect.String:
		v.SetString(fmt.Sprint("s", *counter))
	case reflect.Bool:
		v.SetBool(*counter%2 == 0)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(*counter % 100))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(*counter % 100))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(float64(*counter))
	}
}

// addresses records the address of every pointer target, slice element and map
// reachable from v.
func addresses(v reflect.Value, seen map[uintptr]string, path string) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		seen[v.Pointer()] = path
		addresses(v.Elem(), seen, path)
	case reflect.Struct:
		// Unexported fields too: a quantity's big decimal must not be shared.
		for i := 0; i < v.NumField(); i++ {
			addresses(v.Field(i), seen, path+"."+v.Type().Field(i).Name)
		}
	case reflect.Slice:
		if v.IsNil() || v.Len() == 0 {
			return
		}
		for i := 0; i < v.Len(); i++ {
			seen[v.Index(i).Addr().Pointer()] = fmt.Sprintf("%s[%d]", path, i)
			addresses(v.Index(i), seen, fmt.Sprintf("%s[%d]", path, i))
		}
	case reflect.Map:
		if v.IsNil() {
			return
		}
		seen[v.Pointer()] = path
		for it := v.MapRange(); it.Next(); {
			addresses(it.Value(), seen, path+"["+fmt.Sprint(it.Key())+"]")
		}
	}
}

// TestCopyPodSpec checks that copyPodSpec makes a deep copy equal to the generated
// one and sharing no memory with its input, on specs where every field (those
// added to k8s.io/api later included) is set.
func TestCopyPodSpec(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3} {
		t.Run(fmt.Sprint("n=", n), func(t *testing.T) {
			var in corev1.PodSpec
			counter := 0
			fill(reflect.ValueOf(&in).Elem(), n, &counter, 0)
			before := in.DeepCopy()

			var out corev1.PodSpec
			copyPodSpec(&in, &out, false, false)
			if !reflect.DeepEqual(&out, before) {
				t.Fatal("copy differs from the generated DeepCopy")
			}
			if !reflect.DeepEqual(&in, before) {
				t.Fatal("input modified")
			}
			inAddrs, outAddrs := map[uintptr]string{}, map[uintptr]string{}
			addresses(reflect.ValueOf(&in).Elem(), inAddrs, "in")
			addresses(reflect.ValueOf(&out).Elem(), outAddrs, "out")
			for a, p := range outAddrs {
				if q, ok := inAddrs[a]; ok {
					t.Errorf("%s shares memory with %s", p, q)
				}
			}
		})
	}
}

// TestCopyPodSpecEmptyLists checks that nil and empty lists keep their difference.
func TestCopyPodSpecEmptyLists(t *testing.T) {
	in := corev1.PodSpec{
		Containers: []corev1.Container{
			{Ports: []corev1.ContainerPort{}, Env: []corev1.EnvVar{}, VolumeMounts: []corev1.VolumeMount{},
				Resources: corev1.ResourceRequirements{Limits: corev1.ResourceList{}}},
			{},
		},
		InitContainers: []corev1.Container{},
	}
	var out corev1.PodSpec
	copyPodSpec(&in, &out, false, false)
	if !reflect.DeepEqual(&out, in.DeepCopy()) {
		t.Fatalf("got %#v", out)
	}
	c := out.Containers[0]
	if c.Ports == nil || c.Env == nil || c.VolumeMounts == nil || c.Resources.Limits == nil || c.Resources.Requests != nil {
		t.Fatalf("nil and empty mixed up: %#v", c)
	}
}

// TestCopyPodSpecAppend checks that appending to one copied list never writes into
// the list of another container (the lists share a backing array).
func TestCopyPodSpecAppend(t *testing.T) {
	in := corev1.PodSpec{Containers: []corev1.Container{
		{Env: []corev1.EnvVar{{Name: "A"}}},
		{Env: []corev1.EnvVar{{Name: "B"}}},
	}}
	var out corev1.PodSpec
	copyPodSpec(&in, &out, false, false)
	out.Containers[0].Env = append(out.Containers[0].Env, corev1.EnvVar{Name: "C"})
	if got := out.Containers[1].Env[0].Name; got != "B" {
		t.Fatalf("second container's env became %q", got)
	}
}

// TestDefaultSharesNothing checks that the defaulting functions' results share no
// memory with their input, on pods where every field is set (a quantity in two holds
// a big decimal, which the copy leaves to the rounding to replace).
func TestDefaultSharesNothing(t *testing.T) {
	for _, n := range []int{1, 2} {
		var pod corev1.Pod
		counter := 0
		fill(reflect.ValueOf(&pod).Elem(), n, &counter, 0)
		template := &corev1.PodTemplateSpec{ObjectMeta: pod.ObjectMeta, Spec: pod.Spec}
		for name, out := range map[string]any{
			"Default":         defaultPod(&pod),
			"DefaultTemplate": defaultTemplate(template),
			"PodFromTemplate": PodFromTemplate(template, PodFromTemplateOptions{}),
		} {
			inAddrs, outAddrs := map[uintptr]string{}, map[uintptr]string{}
			addresses(reflect.ValueOf(&pod).Elem(), inAddrs, "pod")
			addresses(reflect.ValueOf(template).Elem(), inAddrs, "template")
			addresses(reflect.ValueOf(out).Elem(), outAddrs, "out")
			for a, p := range outAddrs {
				if q, ok := inAddrs[a]; ok {
					t.Errorf("n=%d %s: %s shares memory with %s", n, name, p, q)
				}
			}
		}
	}
}

// TestCopyObjectMeta checks copyObjectMeta against the generated DeepCopy, nil and
// empty maps included.
func TestCopyObjectMeta(t *testing.T) {
	var full metav1.ObjectMeta
	counter := 0
	fill(reflect.ValueOf(&full).Elem(), 2, &counter, 0)
	for _, in := range []metav1.ObjectMeta{full, {}, {Labels: map[string]string{}, Annotations: map[string]string{}}} {
		var out metav1.ObjectMeta
		copyObjectMeta(&in, &out)
		if !reflect.DeepEqual(&out, in.DeepCopy()) {
			t.Fatalf("got %#v, want %#v", out, in)
		}
		inAddrs, outAddrs := map[uintptr]string{}, map[uintptr]string{}
		addresses(reflect.ValueOf(&in).Elem(), inAddrs, "in")
		addresses(reflect.ValueOf(&out).Elem(), outAddrs, "out")
		for a, p := range outAddrs {
			if q, ok := inAddrs[a]; ok {
				t.Errorf("%s shares memory with %s", p, q)
			}
		}
	}
}

// TestReadOnlySharesOnlyUnchangedLists: with Options.ReadOnly, a container whose
// resource lists the defaulting leaves alone shares them with the input; a container
// whose lists change (a limit without a request, a quantity finer than milli) gets its
// own, and the input keeps its values.
func TestReadOnlySharesOnlyUnchangedLists(t *testing.T) {
	q := resource.MustParse
	pod := &corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{
		{Name: "same", Image: "x", Resources: corev1.ResourceRequirements{
			Requests: corev1.ResourceList{"cpu": q("250m")}, Limits: corev1.ResourceList{"cpu": q("1")}}},
		{Name: "from-limits", Image: "x", Resources: corev1.ResourceRequirements{
			Requests: corev1.ResourceList{"cpu": q("250m")}, Limits: corev1.ResourceList{"cpu": q("1"), "memory": q("1Gi")}}},
		{Name: "rounded", Image: "x", Resources: corev1.ResourceRequirements{
			Requests: corev1.ResourceList{"cpu": q("0.1m")}}},
	}}}
	before := pod.DeepCopy()
	out := Pod(pod, Options{ReadOnly: true})
	if !reflect.DeepEqual(out, defaultPod(pod)) {
		t.Fatal("ReadOnly changed the result")
	}
	if !reflect.DeepEqual(before, pod) {
		t.Fatal("input modified")
	}
	same := func(a, b corev1.ResourceList) bool {
		return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
	}
	for i, want := range []bool{true, false, false} {
		in, got := pod.Spec.Containers[i].Resources, out.Spec.Containers[i].Resources
		if shared := same(in.Requests, got.Requests); shared != want {
			t.Errorf("container %s: requests shared = %v, want %v", pod.Spec.Containers[i].Name, shared, want)
		}
		if shared := same(in.Limits, got.Limits); in.Limits != nil && shared != want {
			t.Errorf("container %s: limits shared = %v, want %v", pod.Spec.Containers[i].Name, shared, want)
		}
	}
	if got := out.Spec.Containers[1].Resources.Requests.Memory().String(); got != "1Gi" {
		t.Errorf("memory request from the limit = %s, want 1Gi", got)
	}
	if got := out.Spec.Containers[2].Resources.Requests.Cpu().String(); got != "1m" {
		t.Errorf("rounded cpu request = %s, want 1m", got)
	}
}
