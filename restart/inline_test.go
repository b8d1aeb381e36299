package restart

import (
	"os/exec"
	"strings"
	"testing"
)

// TestShouldRestartInlines asserts that the compiler inlines ShouldRestart into its
// callers: a pod being deleted is answered at the call site only then (without it
// the answer costs a call and a copy of the Decision, about twice upstream's whole
// call). It asks the compiler through `go build -gcflags=-m`.
func TestShouldRestartInlines(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the package with the compiler's inlining report")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to read the compiler's inlining decisions: %v", err)
	}
	out, err := exec.Command(goTool, "build", "-gcflags=-m", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build -gcflags=-m: %v\n%s", err, out)
	}
	for _, want := range []string{"can inline ShouldRestart", "can inline unlessDeleted"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the compiler's report lacks %q: ShouldRestart (or the body it inlines) grew past the inlining budget", want)
		}
	}
}
