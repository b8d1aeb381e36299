package decoding

import (
	"hash/crc32"
	"os"
	"path/filepath"
	"testing"

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
// kubectl's errors, in order. Each input runs under one of manifestGateSets, the
// server started with it and ValidateStream given the same gates, chosen by the
// input's checksum so that a replay picks the same set.
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
	u := getUpstream(f)
	scheme := apischeme.New()
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > fuzzMaxFile {
			t.Skip("longer than fuzzMaxFile")
		}
		gs := manifestGateSets[crc32.ChecksumIEEE(data)%uint32(len(manifestGateSets))]
		gatesets.Apply(t, gs)
		opts := validation.StreamOptions{Scheme: scheme, Validation: validation.Options{Features: gs.Features()}}
		path := filepath.Join(t.TempDir(), "f.yaml")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		_, _, diff, _, err := endToEnd(t, u, path, opts)
		if err != nil {
			t.Fatalf("%s: ours: %v\n--- file ---\n%q", gs.Name, err, data)
		}
		if diff != "" {
			t.Fatalf("%s: disagrees: %s\n--- file ---\n%q", gs.Name, shorten(diff), data)
		}
	})
}

// seedFuzz is the generator seed of the fuzz target's generated files, apart from
// the default seed's.
const seedFuzz = 9 + 101
