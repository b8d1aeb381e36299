package lifecycle

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

var updateDigests = flag.Bool("update-timeline-digests", false, "rewrite testdata/simulate_timelines.sha256")

// timelineDigestFile pins a digest of the complete Timeline (every step's time,
// actions, status, row and view, the events, the final pod and view, the end) of each
// simulation of digestCases.
const timelineDigestFile = "testdata/simulate_timelines.sha256"

// digestCase is one simulation whose timeline is pinned.
type digestCase struct {
	name   string
	pod    *corev1.Pod
	script Script
	opts   SimulateOptions
}

// digestCases are the benchmark corpus (with and without recorded views), the seeds
// of FuzzSimulate and FuzzSimulateScripts, and their stored seed corpora.
func digestCases(t *testing.T) []digestCase {
	var out []digestCase
	for _, c := range simCorpus() {
		out = append(out, digestCase{"corpus/" + c.name, c.pod, c.script, c.opts})
		o := c.opts
		o.RecordViews = true
		out = append(out, digestCase{"corpus/" + c.name + "/views", c.pod, c.script, o})
	}
	for i, s := range fuzzSeeds {
		for _, dc := range [][2]uint8{{2, 0}, {5, 1}, {1, 2}} {
			p, sc, o := fuzzSimulateInput(s, dc[0], dc[1])
			out = append(out, digestCase{fmt.Sprintf("FuzzSimulate/seed%d/%d,%d", i, dc[0], dc[1]), p, sc, o})
		}
		p, sc, o := fuzzScriptsInput(s, []byte{1, 2, 3, 4, 5, 6, 7, 8})
		out = append(out, digestCase{fmt.Sprintf("FuzzSimulateScripts/seed%d", i), p, sc, o})
	}
	for _, target := range []string{"FuzzSimulate", "FuzzSimulateScripts"} {
		files, err := filepath.Glob(filepath.Join("testdata", "fuzz", target, "*"))
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(files)
		for _, f := range files {
			args := readFuzzFile(t, f)
			name := target + "/" + filepath.Base(f)
			switch {
			case target == "FuzzSimulate" && len(args) == 3:
				p, sc, o := fuzzSimulateInput(args[0].([]byte), args[1].(uint8), args[2].(uint8))
				out = append(out, digestCase{name, p, sc, o})
			case target == "FuzzSimulateScripts" && len(args) == 2:
				p, sc, o := fuzzScriptsInput(args[0].([]byte), args[1].([]byte))
				out = append(out, digestCase{name, p, sc, o})
			default:
				t.Fatalf("%s: %d arguments", f, len(args))
			}
		}
	}
	return out
}

// readFuzzFile reads a "go test fuzz v1" file of []byte and uint8 arguments.
func readFuzzFile(t *testing.T, path string) []any {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var args []any
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		switch {
		case i == 0:
			if line != "go test fuzz v1" {
				t.Fatalf("%s: header %q", path, line)
			}
		case strings.HasPrefix(line, "[]byte(") && strings.HasSuffix(line, ")"):
			s, err := strconv.Unquote(line[len("[]byte(") : len(line)-1])
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			args = append(args, []byte(s))
		case strings.HasPrefix(line, "byte(") || strings.HasPrefix(line, "uint8("):
			v := line[strings.Index(line, "(")+1 : len(line)-1]
			if len(v) >= 3 && v[0] == '\'' && v[len(v)-1] == '\'' {
				r, _, tail, err := strconv.UnquoteChar(v[1:len(v)-1], '\'')
				if err != nil || tail != "" || r > 0xff {
					t.Fatalf("%s: byte %s", path, v)
				}
				args = append(args, uint8(r))
				continue
			}
			n, err := strconv.ParseUint(v, 0, 8)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			args = append(args, uint8(n))
		default:
			t.Fatalf("%s: line %q", path, line)
		}
	}
	return args
}

// dumpValue writes v completely and deterministically: every field (unexported ones
// included), pointers by what they point to, nil apart from empty, map entries sorted.
func dumpValue(b *bytes.Buffer, v reflect.Value) {
	switch v.Kind() {
	case reflect.Invalid:
		b.WriteString("<invalid>")
	case reflect.Pointer:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		b.WriteByte('&')
		dumpValue(b, v.Elem())
	case reflect.Interface:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		b.WriteString(v.Elem().Type().String())
		b.WriteByte(':')
		dumpValue(b, v.Elem())
	case reflect.Struct:
		b.WriteString(v.Type().String())
		b.WriteByte('{')
		for i := range v.NumField() {
			b.WriteString(v.Type().Field(i).Name)
			b.WriteByte(':')
			dumpValue(b, v.Field(i))
			b.WriteByte(' ')
		}
		b.WriteByte('}')
	case reflect.Slice:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		fallthrough
	case reflect.Array:
		b.WriteByte('[')
		for i := range v.Len() {
			dumpValue(b, v.Index(i))
			b.WriteByte(' ')
		}
		b.WriteByte(']')
	case reflect.Map:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		var entries []string
		it := v.MapRange()
		for it.Next() {
			var e bytes.Buffer
			dumpValue(&e, it.Key())
			e.WriteString(": ")
			dumpValue(&e, it.Value())
			entries = append(entries, e.String())
		}
		slices.Sort(entries)
		b.WriteString("map[")
		b.WriteString(strings.Join(entries, ", "))
		b.WriteByte(']')
	case reflect.String:
		b.WriteString(strconv.Quote(v.String()))
	case reflect.Bool:
		b.WriteString(strconv.FormatBool(v.Bool()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		b.WriteString(strconv.FormatInt(v.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		b.WriteString(strconv.FormatUint(v.Uint(), 10))
	case reflect.Float32, reflect.Float64:
		b.WriteString(strconv.FormatFloat(v.Float(), 'g', -1, 64))
	default:
		b.WriteString("<" + v.Kind().String() + ">")
	}
}

// timelineDigest is the SHA-256 of the complete dump of tl.
func timelineDigest(tl Timeline) string {
	var b bytes.Buffer
	dumpValue(&b, reflect.ValueOf(tl))
	sum := sha256.Sum256(b.Bytes())
	return hex.EncodeToString(sum[:])
}

// TestSimulateTimelineDigests pins the complete timelines of digestCases, so that a
// change made for speed shows whether any output moved (a step's status, actions, row
// or view, an event, the end). Rewrite the pins after an intended change of output
// with go test -run TestSimulateTimelineDigests -update-timeline-digests.
func TestSimulateTimelineDigests(t *testing.T) {
	var got strings.Builder
	for _, c := range digestCases(t) {
		fmt.Fprintf(&got, "%s %s\n", timelineDigest(Simulate(c.pod, c.script, c.opts)), c.name)
	}
	if *updateDigests {
		if err := os.WriteFile(timelineDigestFile, []byte(got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	f, err := os.Open(timelineDigestFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		sum, name, _ := strings.Cut(sc.Text(), " ")
		want[name] = sum
	}
	lines := strings.Split(strings.TrimSpace(got.String()), "\n")
	if len(lines) != len(want) {
		t.Errorf("%d timelines, %d pinned", len(lines), len(want))
	}
	for _, l := range lines {
		sum, name, _ := strings.Cut(l, " ")
		if want[name] != sum {
			t.Errorf("%s: timeline digest %s, pinned %s", name, sum, want[name])
		}
	}
}
