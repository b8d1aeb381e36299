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
// the modules in their build graph, the cold build time (wall clock and the CPU time of
// the go command and the compilers it ran, which a loaded machine inflates less) and
// the binary size. It asserts that the podlife program's graph holds none of
// k8s.io/kubernetes, component-helpers and client-go, and that the podlife and
// kubernetes programs print the same answers. Set PODLIFE_FOOTPRINT=1 to run it: the
// k8s.io/kubernetes program takes minutes to build cold. Module counts and sizes are
// exact; the build times depend on the machine.
func TestFootprint(t *testing.T) {
	if os.Getenv("PODLIFE_FOOTPRINT") == "" {
		t.Skip("set PODLIFE_FOOTPRINT=1 (cold builds take minutes)")
	}
	dir := t.TempDir()
	outputs := map[string]string{}
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
		cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		st, err := os.Stat(bin)
		if err != nil {
			t.Fatal(err)
		}
		printed, err := exec.Command(bin).Output()
		if err != nil {
			t.Fatalf("%s: %v", prog, err)
		}
		outputs[prog] = string(printed)
		if prog == "podlife" {
			for _, m := range names {
				if m == "k8s.io/kubernetes" || m == "k8s.io/component-helpers" || m == "k8s.io/client-go" {
					t.Errorf("the podlife program's build graph holds %s", m)
				}
			}
		}
		t.Logf("%s: %d modules, cold build %v (CPU %v), binary %.1f MB", prog, len(names), took.Round(time.Second), cpu.Round(time.Second), float64(st.Size())/(1<<20))
		t.Logf("%s modules: %s", prog, strings.Join(names, " "))
	}
	if outputs["podlife"] != outputs["kubernetes"] {
		t.Errorf("the programs disagree:\npodlife:\n%skubernetes:\n%s", outputs["podlife"], outputs["kubernetes"])
	}
}
