package manifests

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWalk(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string]string{"b.yaml": "b", "a/c.yml": "c", "a/d.json": "d", "a/e.txt": "e", "z.YAML": "z"} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	empty := t.TempDir()
	var got []string
	read := func(name string, r io.Reader) {
		data, _ := io.ReadAll(r)
		got = append(got, strings.TrimPrefix(name, dir)+"="+string(data))
	}
	fail := func(name, msg string) {
		got = append(got, "fail "+strings.TrimPrefix(name, dir)+": "+strings.ReplaceAll(msg, dir, ""))
	}
	for _, p := range []string{dir, "-", filepath.Join(dir, "a/e.txt"), filepath.Join(dir, "none"), empty} {
		Walk(p, strings.NewReader("in"), read, fail)
	}
	want := []string{
		"/a/c.yml=c", "/a/d.json=d", "/b.yaml=b", // lexical order, manifests only (not e.txt, not z.YAML)
		"STDIN=in",
		"/a/e.txt=e", // a file named on its own is read whatever its name
		"fail /none: stat /none: no such file or directory",
		"fail " + empty + ": no .json, .yaml or .yml file in the directory",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestBinaryOffset(t *testing.T) {
	for in, want := range map[string]int{
		"apiVersion: v1\n":                  -1,
		"\x1f\x8b\x08\x00":                  3,
		"\xff\xfea\x00p\x00":                -1, // UTF-16LE text has NUL bytes
		"\xfe\xff\x00a":                     -1,
		strings.Repeat("x", 9<<10):          -1,
		strings.Repeat("x", 9<<10) + "\x00": -1, // past the first 8 KiB
	} {
		if got := BinaryOffset(bufio.NewReaderSize(strings.NewReader(in), 64<<10)); got != want {
			t.Errorf("BinaryOffset(%.20q) = %d, want %d", in, got, want)
		}
	}
}
