package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzRun runs the program on any standard input, in text and JSON, and in text with
// the input as the live objects too (--live): no panic and no hang (the hints read
// arbitrary lines), an exit code of 0, 1 or 2, the same output twice, and every hint
// line pointing at a line of the input.
func FuzzRun(f *testing.F) {
	for _, s := range []string{typingManifest, "apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n  annotations:\n    x: y\n\n    z: true\nspec:\n  containers: []\n",
		"apiVersion: v1\nkind: Pod\nmetadata: {name: b, labels: {a, b: 1.0}}\n", "apiVersion: v1\nkind: Pod\nmetadata: {name: c}\nspec: {contianers: [], Hostnetwork: true}\n",
		"", "---\n", ":\n", privilegedPod, comparisonPod} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		// The input read as the live objects too: each object it holds updates itself.
		live := filepath.Join(t.TempDir(), "live.yaml")
		if err := os.WriteFile(live, []byte(in), 0o600); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{{"-o", "text", "-"}, {"-o", "json", "-"}, {"--live", live, "-o", "text", "-"}} {
			format := args[len(args)-2]
			code, out, errOut := runWith(t, in, args...)
			code2, out2, errOut2 := runWith(t, in, args...)
			if code != code2 || out != out2 || errOut != errOut2 {
				t.Fatalf("two runs differ on %q", in)
			}
			if code < 0 || code > 2 {
				t.Fatalf("exit %d on %q", code, in)
			}
			if format != "text" {
				continue
			}
			lines := strings.Count(in, "\n") + 1
			for _, l := range strings.Split(out, "\n") {
				l = strings.TrimSpace(l)
				var n int
				if _, err := fmt.Sscanf(l, "STDIN:%d: hint:", &n); err == nil && (n < 1 || n > lines) {
					t.Fatalf("hint at line %d of %d: %q", n, lines, l)
				}
			}
		}
	})
}
