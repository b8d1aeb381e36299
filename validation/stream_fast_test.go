package validation

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
)

// bothPaths runs a stream with and without the fast path and returns the two series
// of results, rendered with their objects.
func bothPaths(in []byte, opts StreamOptions) (fast, slow []string) {
	run := func(slowOnly bool) []string {
		var out []string
		s := &streamRun{source: "f.yaml", opts: opts, server: newServerDecoder(), slowOnly: slowOnly, models: new(lazyModels),
			served: newServedSet(opts.Validation.Features, opts.CustomResources)}
		s.yield = func(r ObjectResult) bool {
			obj, _ := json.Marshal(r.Object)
			out = append(out, fmt.Sprintf("%s %s %v", render(r), obj, r.Errors))
			return true
		}
		d := newDocReader(bytes.NewReader(in), 0)
		for {
			c, ok := d.next()
			if !ok || !s.document(c) || c.final {
				return out
			}
		}
	}
	return run(false), run(true)
}

var fastPathSeeds = []string{
	validPod,
	"apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n  namespace: prod\nspec:\n  containers:\n  - name: c\n    image: i\n    x: 1\n",
	"apiVersion: v1\nkind: Pod\nmetadata:\n  name: 5\n",
	"apiVersion: v1\nkind: Pod\nmetadata: []\n",
	"apiVersion: v1\nkind: Pod\nmetadata: null\nspec: {containers: [{name: c, image: i}]}\n",
	"apiVersion: v1\nkind: Pod\nMetadata: {}\n",
	"apiVersion: v1\nkind: Pod\nitems: []\n",
	"apiVersion: v1\nkind: Pod\nspec:\n  activeDeadlineSeconds: 18446744073709551615\n",
	"apiVersion: v1\nkind: Pod\nspec:\n  activeDeadlineSeconds: -0.0\n",
	"apiVersion: v1\nkind: Pod\nspec:\n  activeDeadlineSeconds: 3.0\n  priority: 1e3\n",
	"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec: {replicas: \"3\"}\n",
	"apiVersion: \"\"\nkind: Pod\nmetadata: {name: e}\n",
	"apiVersion: apps/\nkind: Deployment\nmetadata: {name: e}\n",
	"apiVersion: v1\nkind: \"\"\n",
	"apiVersion: v1\nkind: Pod\nmetadata: {name: a, namespace: other}\n",
	"apiVersion: v1\nkind: Pod\nmetadata: {name: a, labels: {a: 1}}\n",
	"apiVersion: batch/v1\nkind: Job\nmetadata: {generateName: j-}\nspec: {template: {spec: {containers: [{name: c, image: i}], restartPolicy: Never}}}\n",
}

func TestFastPath(t *testing.T) {
	for _, in := range fastPathSeeds {
		for _, opts := range []StreamOptions{{}, {Namespace: "other"}, {DecodeOnly: true}} {
			fast, slow := bothPaths([]byte(in), opts)
			if !reflect.DeepEqual(fast, slow) {
				t.Errorf("input %q, options %+v:\n fast %q\n slow %q", in, opts, fast, slow)
			}
		}
	}
}

func FuzzFastPath(f *testing.F) {
	for _, s := range fastPathSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		fast, slow := bothPaths([]byte(in), StreamOptions{})
		if !reflect.DeepEqual(fast, slow) {
			t.Errorf("input %q:\n fast %q\n slow %q", in, fast, slow)
		}
	})
}
