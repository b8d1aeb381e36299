package decoding

import (
	"hash/crc32"
	"os"
	"path/filepath"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podlife/podlife/conformance/internal/gatesets"
	"github.com/podlife/podlife/validation"
	"github.com/podlife/podlife/validation/apischeme"
)

// fuzzMaxFile bounds the files the fuzzer's inputs become: kubectl reads each in
// full, and a longer one would only slow the search.
const fuzzMaxFile = 64 << 10

// FuzzDecodingMatchesKubectl is the differential test on manifest files no generator
// of this repository wrote: the fuzzer mutates the bytes of generated files, of the
// hand-written hostile ones (hostileFiles) and of the realistic ones (manifestFiles),
// and every result is compared end to end, as TestManifestsMatchKubectlAndServer
// compares it: the objects kubectl create -f sends, in order, with the answer of a
// server that decodes, defaults and validates them (status code and message), and
// kubectl's errors, in order. Each input runs under one of fuzzGateSets, the
// server started with it and ValidateStream given the same gates, and with one of
// kubectl's --validate directives, both chosen by the input's checksum so that a
// replay picks the same.
//
// CI replays the seeds and testdata/fuzz; `go test -fuzz FuzzDecodingMatchesKubectl
// ./decoding/` (in this module) searches.
func FuzzDecodingMatchesKubectl(f *testing.F) {
	for _, h := range hostileFiles() {
		if len(h.text) <= fuzzMaxFile {
			f.Add([]byte(h.text))
		}
	}
	for _, path := range manifestFiles(f) {
		if data, err := os.ReadFile(path); err != nil {
			f.Fatal(err)
		} else if len(data) <= fuzzMaxFile {
			f.Add(data)
		}
	}
	g := newGen(seedFuzz)
	for range 40 {
		f.Add(g.stream())
	}
	servers := serversBySet{}
	scheme := apischeme.New()
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > fuzzMaxFile {
			t.Skip("longer than fuzzMaxFile")
		}
		sum := crc32.ChecksumIEEE(data)
		gs := fuzzGateSets[sum%uint32(len(fuzzGateSets))]
		gatesets.Apply(t, gs)
		u := servers.get(t, gs)
		directive := fuzzDirectives[sum/uint32(len(fuzzGateSets))%uint32(len(fuzzDirectives))]
		opts := validation.StreamOptions{Scheme: scheme, Validation: validation.Options{Features: gs.Features()}, FieldValidation: directive}
		path := filepath.Join(t.TempDir(), "f.yaml")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		_, _, diff, _, err := endToEnd(t, u, path, opts)
		if err != nil {
			t.Fatalf("%s, --validate=%s: ours: %v\n--- file ---\n%q", gs.Name, directive, err, data)
		}
		if diff != "" {
			t.Fatalf("%s, --validate=%s: disagrees: %s\n--- file ---\n%q", gs.Name, directive, shorten(diff), data)
		}
	})
}

// fuzzGateSets are the clusters the fuzz target chooses from: manifestGateSets and
// random ones (gatesets.ForFuzzing), whose gates may also hold back a kind's registry.
var fuzzGateSets = gatesets.ForFuzzing(manifestGateSets)

// serversBySet holds, by gate set name, the kubectl and server harness of a cluster
// started with that set (newUpstreamWith: its discovery and OpenAPI document leave
// out the kinds its gates hold back), built when a set is first drawn.
type serversBySet map[string]*upstream

func (s serversBySet) get(t testing.TB, gs gatesets.Set) *upstream {
	t.Helper()
	if u, ok := s[gs.Name]; ok {
		return u
	}
	u, err := newUpstreamWith(gs.Features().Enabled, nil, nil)
	if err != nil {
		t.Fatalf("%s: %v", gs.Name, err)
	}
	s[gs.Name] = u
	return u
}

// fuzzDirectives are the --validate directives the fuzz target chooses from, strict
// (kubectl's default) twice as often.
var fuzzDirectives = []string{metav1.FieldValidationStrict, metav1.FieldValidationStrict, metav1.FieldValidationWarn, metav1.FieldValidationIgnore}

// seedFuzz is the generator seed of the fuzz target's generated files, apart from
// the default seed's.
const seedFuzz = 9 + 101
