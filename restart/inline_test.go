package restart

import (
	"os/exec"
	"reflect"
	"strings"
	"testing"
	"unsafe"
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

// TestDecisionFitsInRegisters asserts that a Decision stays a value the compiler
// keeps in registers and drops field by field: at most four fields and four words
// (the limits of the compiler's SSA form for a struct). Past them, a caller that
// reads only Restart would zero and fill the whole Decision in memory, which cost a
// pod being deleted 0.94 of upstream's instructions against 0.52.
func TestDecisionFitsInRegisters(t *testing.T) {
	typ := reflect.TypeFor[Decision]()
	if n := typ.NumField(); n > 4 {
		t.Errorf("Decision has %d fields, want at most 4", n)
	}
	if size := unsafe.Sizeof(Decision{}); size > 4*unsafe.Sizeof(uintptr(0)) {
		t.Errorf("Decision is %d bytes, want at most four words", size)
	}
	if f, ok := typ.FieldByName("Restart"); !ok || f.Type.Kind() != reflect.Bool || f.Index[0] != 0 {
		t.Errorf("Decision.Restart is not its first field, a bool")
	}
}
