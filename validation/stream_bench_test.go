package validation

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// podStream is a YAML stream of n valid pods of about 210 bytes each, produced as it
// is read so that a large stream never sits in memory.
type podStream struct {
	n, next int
	buf     bytes.Buffer
}

func newPodStream(n int) *podStream { return &podStream{n: n} }

// Read implements io.Reader.
func (s *podStream) Read(p []byte) (int, error) {
	for s.buf.Len() < len(p) && s.next < s.n {
		fmt.Fprintf(&s.buf, "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: pod-%07d\n  labels:\n    app: web\nspec:\n"+
			"  containers:\n  - name: app\n    image: nginx:1.27\n    ports:\n    - containerPort: 80\n"+
			"    resources:\n      requests:\n        cpu: 100m\n", s.next)
		s.next++
	}
	if s.buf.Len() == 0 {
		return 0, io.EOF
	}
	return s.buf.Read(p)
}

// streamSize is the size in bytes of a stream of n pods.
func streamSize(n int) int64 {
	size, _ := io.Copy(io.Discard, newPodStream(n))
	return size
}

const benchPods = 2000

// BenchmarkValidateStream reads, decodes and validates a stream of pods.
func BenchmarkValidateStream(b *testing.B) {
	b.SetBytes(streamSize(benchPods))
	b.ReportAllocs()
	defer reportStreamCPU(b)()
	for b.Loop() {
		n := 0
		for r := range ValidateStream(newPodStream(benchPods), "pods.yaml", StreamOptions{}) {
			if r.Verdict != Valid {
				b.Fatalf("%s", render(r))
			}
			n++
		}
		if n != benchPods {
			b.Fatalf("%d results", n)
		}
	}
}

// BenchmarkDecodeStream is the baseline: decoding the same stream into typed pods as a
// program using apimachinery's YAMLOrJSONDecoder would, with no check at all.
func BenchmarkDecodeStream(b *testing.B) {
	b.SetBytes(streamSize(benchPods))
	b.ReportAllocs()
	defer reportStreamCPU(b)()
	for b.Loop() {
		if n := decodeAlone(benchPods); n != benchPods {
			b.Fatalf("%d pods", n)
		}
	}
}

// decodeAlone decodes a stream of pods into typed objects, as a program using
// apimachinery's YAMLOrJSONDecoder would, and returns how many it read.
func decodeAlone(pods int) int {
	d := utilyaml.NewYAMLOrJSONDecoder(newPodStream(pods), 4096)
	n := 0
	for {
		var pod corev1.Pod
		if err := d.Decode(&pod); err != nil {
			return n
		}
		n++
	}
}

// validateAll validates a stream of pods and returns how many were valid.
func validateAll(pods int) int {
	n := 0
	for r := range ValidateStream(newPodStream(pods), "pods.yaml", StreamOptions{}) {
		if r.Verdict == Valid {
			n++
		}
	}
	return n
}

// reportStreamCPU adds a cpu-ns/op metric, the process CPU time per op: on a shared
// machine wall time mostly measures the other processes.
func reportStreamCPU(b *testing.B) func() {
	start := processCPU()
	return func() {
		if b.N > 0 {
			b.ReportMetric(float64((processCPU()-start).Nanoseconds())/float64(b.N), "cpu-ns/op")
		}
	}
}

func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestStreamSpeedRatio compares ValidateStream with decoding alone (decodeAlone) on
// the same stream, in alternating rounds, by the fastest round of each in wall time
// and in process CPU time, and fails when validating takes more than twice as long.
// Timing depends on the machine, so it runs only with PODLIFE_SPEED=1.
func TestStreamSpeedRatio(t *testing.T) {
	if os.Getenv("PODLIFE_SPEED") == "" {
		t.Skip("set PODLIFE_SPEED=1 to compare timings")
	}
	const pods, rounds = 1000, 15
	best := func(f func(int) int) (wall, cpu time.Duration) {
		start, startCPU := time.Now(), processCPU()
		if n := f(pods); n != pods {
			t.Fatalf("%d of %d pods", n, pods)
		}
		return time.Since(start), processCPU() - startCPU
	}
	var ours, base [2]time.Duration
	for i := range rounds {
		w1, c1 := best(validateAll)
		w2, c2 := best(decodeAlone)
		if i == 0 || w1 < ours[0] {
			ours[0] = w1
		}
		if i == 0 || c1 < ours[1] {
			ours[1] = c1
		}
		if i == 0 || w2 < base[0] {
			base[0] = w2
		}
		if i == 0 || c2 < base[1] {
			base[1] = c2
		}
	}
	wall, cpu := float64(ours[0])/float64(base[0]), float64(ours[1])/float64(base[1])
	t.Logf("%d pods: ValidateStream %v (CPU %v), decoding alone %v (CPU %v): ratio %.2f wall, %.2f CPU",
		pods, ours[0], ours[1], base[0], base[1], wall, cpu)
	if wall > 2 && cpu > 2 {
		t.Errorf("ValidateStream takes %.2f× (wall) and %.2f× (CPU) the time of decoding alone, want at most 2×", wall, cpu)
	}
}

// TestStreamMemory validates a stream of 250,000 pods (about 52 MB) and checks that the
// heap stays far below the stream's size: ValidateStream holds one document at a
// time. PODLIFE_STREAM_PODS overrides the count.
func TestStreamMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 52 MB")
	}
	pods := 250000
	if v := os.Getenv("PODLIFE_STREAM_PODS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			t.Fatalf("PODLIFE_STREAM_PODS=%q: want a positive number of pods", v)
		}
		pods = n
	}
	const limit = 300 << 20
	runtime.GC()
	var ms runtime.MemStats
	var peak uint64
	n := 0
	for r := range ValidateStream(newPodStream(pods), "pods.yaml", StreamOptions{}) {
		if r.Verdict != Valid {
			t.Fatalf("%s", render(r))
		}
		if n++; n%5000 == 0 {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
		}
	}
	runtime.ReadMemStats(&ms)
	peak = max(peak, ms.HeapInuse)
	if n != pods {
		t.Fatalf("%d results, want %d", n, pods)
	}
	if peak > limit {
		t.Errorf("heap in use reached %d MB, want under %d MB", peak>>20, limit>>20)
	}
	t.Logf("%d pods, %d MB read, peak heap in use %.1f MB", pods, streamSize(pods)>>20, float64(peak)/(1<<20))
}
