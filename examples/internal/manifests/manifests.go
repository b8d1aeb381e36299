// Package manifests finds the manifests the example programs read, as `kubectl create
// -f PATH` finds them (k8s.io/cli-runtime pkg/resource, v0.37.2): a file, a directory
// read recursively for the files kubectl reads there, or "-" for standard input.
package manifests

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/podlife/podlife/validation"
)

// Extensions are the files kubectl reads in a directory (cli-runtime's
// FileExtensions).
var Extensions = []string{".json", ".yaml", ".yml"}

// Walk calls read for each stream path names, in kubectl's order: path itself when it
// is a file, standard input (named "STDIN", as kubectl names it) for "-", and every
// file with one of the Extensions under a directory, in lexical order. It calls fail
// for a path that cannot be opened and for a directory holding no such file; the walk
// goes on after either.
func Walk(path string, stdin io.Reader, read func(name string, r io.Reader), fail func(name, msg string)) {
	if path == "-" {
		read("STDIN", stdin)
		return
	}
	info, err := os.Stat(path)
	if err != nil {
		fail(path, err.Error())
		return
	}
	if !info.IsDir() {
		readFile(path, read, fail)
		return
	}
	found := false
	err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			fail(p, err.Error())
			return nil
		}
		if d.IsDir() || !slices.Contains(Extensions, filepath.Ext(p)) {
			return nil
		}
		found = true
		readFile(p, read, fail)
		return nil
	})
	if err != nil {
		fail(path, err.Error())
	}
	if !found {
		fail(path, "no .json, .yaml or .yml file in the directory")
	}
}

// readFile opens a file and hands it to read.
func readFile(path string, read func(name string, r io.Reader), fail func(name, msg string)) {
	f, err := os.Open(path)
	if err != nil {
		fail(path, err.Error())
		return
	}
	defer f.Close()
	read(path, f)
}

// BinaryOffset returns the offset of a NUL byte in the first 8 KiB of a stream that
// has no UTF-16 byte-order mark (whose text has NUL bytes), or -1: a file kubectl
// cannot read as a manifest either.
func BinaryOffset(br *bufio.Reader) int {
	head, _ := br.Peek(8 << 10)
	if bytes.HasPrefix(head, []byte{0xFF, 0xFE}) || bytes.HasPrefix(head, []byte{0xFE, 0xFF}) {
		return -1
	}
	return bytes.IndexByte(head, 0)
}

// IndentLines indents the continuation lines of a message (kubectl's mapping error
// has a second line) so that they sit under the file:line the programs print first.
func IndentLines(msg string) string {
	return strings.ReplaceAll(msg, "\n", "\n    ")
}

// Refusal is the message of a result that was refused, with the line and field of
// the value it is about when the server's message does not place it
// (ObjectResult.TypeErrorField: a value of the wrong type, a quantity that does not
// parse or whose decoding outlasts the server's timeout), its continuation lines
// indented (IndentLines).
func Refusal(res *validation.ObjectResult) string {
	msg := IndentLines(res.Message())
	if path, ok := res.TypeErrorField(); ok {
		msg += fmt.Sprintf(" (line %d: %s)", res.FieldLine(path), path)
	}
	return msg
}
