package footprint

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// TestFootprint builds the three programs from an empty build cache each and reports
// the modules in their build graph, the cold build time and the binary size. Set
// PODLIFE_FOOTPRINT=1 to run it: the k8s.io/kubernetes program takes minutes to build
// cold. Module counts and sizes are exact; the build time depends on the machine.
func TestFootprint(t *testing.T) {
	if os.Getenv("PODLIFE_FOOTPRINT") == "" {
		t.Skip("set PODLIFE_FOOTPRINT=1 (cold builds take minutes)")
	}
	dir := t.TempDir()
	for _, prog := range []string{"podlife", "helpers", "kubernetes"} {
		pkg := "./" + prog
		out, err := exec.Command("go", "list", "-deps", "-f", "{{with .Module}}{{.Path}}{{end}}", pkg).Output()
		if err != nil {
			t.Fatalf("%s: go list: %v", prog, err)
		}
		mods := map[string]bool{}
		for _, m := range strings.Fields(string(out)) {
			if m != "github.com/podlife/podlife/conformance" { // the program's own module
				mods[m] = true
			}
		}
		names := make([]string, 0, len(mods))
		for m := range mods {
			names = append(names, m)
		}
		sort.Strings(names)

		bin := filepath.Join(dir, prog)
		cmd := exec.Command("go", "build", "-o", bin, pkg)
		cmd.Env = append(os.Environ(), "GOCACHE="+filepath.Join(dir, "cache-"+prog))
		start := time.Now()
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: go build: %v\n%s", prog, err, b)
		}
		took := time.Since(start)
		st, err := os.Stat(bin)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d modules, cold build %v, binary %.1f MB", prog, len(names), took.Round(time.Second), float64(st.Size())/(1<<20))
		t.Logf("%s modules: %s", prog, strings.Join(names, " "))
	}
}
