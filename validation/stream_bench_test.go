package validation

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"runtime"
	"testing"

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
	for b.Loop() {
		d := utilyaml.NewYAMLOrJSONDecoder(newPodStream(benchPods), 4096)
		n := 0
		for {
			var pod corev1.Pod
			if err := d.Decode(&pod); err == io.EOF {
				break
			} else if err != nil {
				b.Fatal(err)
			}
			n++
		}
		if n != benchPods {
			b.Fatalf("%d pods", n)
		}
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
		fmt.Sscan(v, &pods)
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
