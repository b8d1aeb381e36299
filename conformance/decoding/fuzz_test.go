package decoding

import (
	"os"
	"path/filepath"
	"testing"
)

// fuzzMaxFile bounds the files the fuzzer's inputs become: kubectl reads each in
// full, and a longer one would only slow the search.
const fuzzMaxFile = 64 << 10

// FuzzDecodingMatchesKubectl is the differential test on manifest files no generator
// of this repository wrote: the fuzzer mutates the bytes of generated files and of
// the hand-written hostile ones (hostileFiles), and every result is compared as
// TestDecodingMatchesKubectlAndServer compares it: the objects kubectl create -f
// sends, in order, with the server's answer to each, and kubectl's errors, in order.
//
// CI replays the seeds and testdata/fuzz; `go test -fuzz FuzzDecodingMatchesKubectl
// ./decoding/` (in this module) searches.
func FuzzDecodingMatchesKubectl(f *testing.F) {
	for _, h := range hostileFiles() {
		if len(h.text) <= fuzzMaxFile {
			f.Add([]byte(h.text))
		}
	}
	g := newGen(seedFuzz)
	for range 40 {
		f.Add(g.stream())
	}
	u := getUpstream(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > fuzzMaxFile {
			t.Skip("longer than fuzzMaxFile")
		}
		path := filepath.Join(t.TempDir(), "f.yaml")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		want := u.createFile(path)
		got, _, err := ours(path)
		if err != nil {
			t.Fatalf("ours: %v\n--- file ---\n%q", err, data)
		}
		if diff := compare(want, got); diff != "" {
			t.Fatalf("disagrees: %s\n--- file ---\n%q", shorten(diff), data)
		}
	})
}

// seedFuzz is the generator seed of the fuzz target's generated files, apart from
// the default seed's.
const seedFuzz = 9 + 101
