package workloads

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"

	"github.com/podlife/podlife/conformance/internal/gatesets"
	"github.com/podlife/podlife/conformance/internal/upstreamcreate"
	"github.com/podlife/podlife/conformance/internal/warngen"
	"github.com/podlife/podlife/validation"
)

// TestStreamUpdatesMatchUpstream checks ValidateStream with StreamOptions.Stored, the
// path of examples/validate --live: the generated stored object written as YAML (as
// kubectl get -o yaml prints it) and read by a DecodeOnly stream into
// StoredObjects, the changed object written as YAML and answered as kubectl replace -f
// sends it (its resourceVersion, or the stored one when it has none), against the
// answer of upstream's real update handler to the same PUT: the verdict, the 422's
// field errors (compared as TestDifferential compares them), a refusal's code, reason,
// message and details, and the Warning headers.
func TestStreamUpdatesMatchUpstream(t *testing.T) {
	s := seed(t)
	k := scale(t)
	gi := 0
	var updated, created, refused, warned, panics, clientRefused int
	refusals := map[int]int{}
	gatesets.Run(t, gateSets, func(t *testing.T, gs gatesets.Set) {
		defer func() { gi++ }()
		_, updates := draws(gs)
		updates /= 3
		opts := validation.Options{Features: gs.Features()}
		for ki, kind := range kinds {
			g := newGen(s + int64(1000*gi+ki) + 1700)
			wg := warngen.New(s + int64(1000*gi+ki) + 1800)
			tl := newTally()
			for i := range updates * k {
				n, o := g.update(t, kind)
				if nt := templateOf(n); nt != nil && i%2 == 0 {
					wg.Pod(&nt.Spec, &nt.ObjectMeta)
				}
				if i%3 == 0 {
					// kubectl replace sends the stored resourceVersion in its place.
					metaOf(n).ResourceVersion = ""
				}
				live, doc := upstreamcreate.YAMLDocument(t, o), upstreamcreate.YAMLDocument(t, n)
				r := upstreamcreate.StreamUpdate(t, live, doc, opts)
				if !r.Update {
					// Renamed, moved or unreadable: a create, which the other tests check.
					created++
					continue
				}
				updated++
				kind := upstreamcreate.KindOf(t, n)
				if upstreamcreate.ClientRefusal(t, r.Namespace, r.Name, kind.Resource) != nil {
					clientRefused++ // a name client-go puts in no URL: kubectl sends nothing
				}
				ans := kind.Update(t, n, o)
				if ans.Code != http.StatusOK && ans.Code != http.StatusUnprocessableEntity {
					refused++
					refusals[ans.Code]++
					if ans.Panicked {
						panics++
					}
				}
				if len(ans.Warnings) > 0 {
					warned++
				}
				ours, problems := ans.CompareStream(t, r, n)
				tl.record(func() string { return string(live) + "---\n" + string(doc) + fmt.Sprint(g.faults) }, g.faults, ours, ans.AsErrorList(t, n), problems...)
			}
			t.Logf("%s: %d stream updates compared, %d invalid upstream, %d errors compared, %d disagreeing", kind, tl.inputs, tl.invalid, tl.errorsCompared, tl.disagreeing)
			if tl.disagreeing > 0 {
				t.Errorf("%s: %d of %d stream updates disagree; first ones:\n%s", kind, tl.disagreeing, tl.inputs, strings.Join(tl.examples, "\n\n"))
			}
			if tl.invalid == 0 || tl.invalid == tl.inputs {
				t.Errorf("%s: %d of %d stream updates invalid upstream; want some of each", kind, tl.invalid, tl.inputs)
			}
		}
	})
	t.Logf("%d objects answered as updates (%d refused by client-go, %d refused before validation: %v, %d of them panics; %d with warnings), %d as creates", updated, clientRefused, refused, refusals, panics, warned, created)
	if clientRefused == 0 {
		t.Error("no stream update refused by client-go: the generator names no object \"..\" any more")
	}
	for _, code := range []int{http.StatusBadRequest, http.StatusConflict, http.StatusInternalServerError} {
		if refusals[code] == 0 {
			t.Errorf("no stream update refused with %d", code)
		}
	}
	if updated < 9*(created+1) || refused < 20 || warned < 50 {
		t.Errorf("%d updates (%d refused, %d with warnings) and %d creates: want at least 90%% updates, 20 refusals and 50 updates with warnings", updated, refused, warned, created)
	}
}

// TestLiveExampleMatchesUpstream checks examples/validate's --live example (a
// cluster's objects as kubectl get -o yaml prints them, a pull request's manifests)
// against upstream's update handler: each object the stream answers as an update,
// decoded from its YAML independently of podlife (with the stored resourceVersion
// when it has none, as kubectl replace sends it), is PUT to the live object, decoded
// the same way, and the answers must agree.
func TestLiveExampleMatchesUpstream(t *testing.T) {
	ex := readLiveExample(t)
	changes, live, stored := ex.changes, ex.live, ex.stored
	docs := strings.Split(string(changes), "\n---\n")
	results := 0
	updates, invalid := 0, 0
	for r := range validation.ValidateStream(bytes.NewReader(changes), "changes.yaml", validation.StreamOptions{Stored: stored.Get}) {
		doc := docs[results]
		results++
		if !r.Update {
			continue
		}
		updates++
		j, err := yaml.YAMLToJSON([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		n := typedObject(t, j)
		m := accessor(t, n)
		old := live[r.Kind+"/"+r.Namespace+"/"+r.Name]
		if old == nil {
			t.Fatalf("%s %s/%s: an update, and not in cluster.yaml", r.Kind, r.Namespace, r.Name)
		}
		if m.GetResourceVersion() == "" {
			m.SetResourceVersion(accessor(t, old).GetResourceVersion())
		}
		ans := upstreamcreate.KindOf(t, n).Update(t, n, old)
		if ans.Code == http.StatusUnprocessableEntity {
			invalid++
		}
		if ours, problems := ans.CompareStream(t, r, n); len(problems) > 0 || len(diff(ours, ans.AsErrorList(t, n))) > 0 {
			t.Errorf("changes.yaml:%d %s %q: %s %v", r.Line, r.Kind, r.Name, problems, diff(ours, ans.AsErrorList(t, n)))
		}
	}
	if results != len(docs) || updates != 5 || invalid != 2 {
		t.Errorf("%d results for %d documents, %d updates, %d invalid upstream: want 5 updates, 2 invalid", results, len(docs), updates, invalid)
	}
}

// typedObject decodes a JSON object into the v1 Go type of its kind (nil for a kind
// that holds no pod), as a client decodes it.
func typedObject(t *testing.T, data []byte) runtime.Object {
	t.Helper()
	var tm metav1.TypeMeta
	if err := json.Unmarshal(data, &tm); err != nil {
		t.Fatal(err)
	}
	var obj runtime.Object
	switch tm.Kind {
	case "Deployment":
		obj = &appsv1.Deployment{}
	case "StatefulSet":
		obj = &appsv1.StatefulSet{}
	case "Job":
		obj = &batchv1.Job{}
	case "CronJob":
		obj = &batchv1.CronJob{}
	case "Pod":
		obj = &corev1.Pod{}
	default:
		return nil
	}
	if err := json.Unmarshal(data, obj); err != nil {
		t.Fatal(err)
	}
	return obj
}

// accessor returns an object's metadata.
func accessor(t *testing.T, obj runtime.Object) metav1.Object {
	t.Helper()
	m, err := meta.Accessor(obj)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestStreamUpdatePanicsMatchUpstream: Jobs changed to a success policy counting
// succeeded pods of an Indexed Job without completions, which panics the v1.37.2
// validation: the stream answers as client-go reads the panic filter's plain-text
// 500, and every answer agrees with upstream's.
func TestStreamUpdatePanicsMatchUpstream(t *testing.T) {
	g := newGen(seed(t) + 2600)
	panics := 0
	for i := range 40 {
		n, o := g.update(t, "Job")
		j := n.(*batchv1.Job)
		indexed := batchv1.IndexedCompletion
		j.Spec.CompletionMode, j.Spec.Completions = &indexed, nil
		j.Spec.SuccessPolicy = &batchv1.SuccessPolicy{Rules: []batchv1.SuccessPolicyRule{{SucceededCount: i32(1)}}}
		r := upstreamcreate.StreamUpdate(t, upstreamcreate.YAMLDocument(t, o), upstreamcreate.YAMLDocument(t, n), validation.Options{})
		if !r.Update {
			continue
		}
		ans := upstreamcreate.KindOf(t, n).Update(t, n, o)
		if ans.Panicked {
			panics++
		}
		ours, problems := ans.CompareStream(t, r, n)
		if d := diff(ours, ans.AsErrorList(t, n)); len(problems) > 0 || len(d) > 0 {
			t.Errorf("Job %d: %s %v\n%s", i, problems, d, dump(n, o))
		}
	}
	t.Logf("%d of 40 updates panicked upstream", panics)
	if panics < 10 {
		t.Errorf("%d of 40 updates panicked upstream, want at least 10", panics)
	}
}

// liveExample is examples/validate's --live example: the cluster's objects
// (cluster.yaml, as kubectl get -o yaml prints them) and a pull request's manifests
// (changes.yaml).
type liveExample struct {
	cluster, changes []byte
	// live are the cluster's objects that hold a pod, decoded independently of
	// podlife, by kind/namespace/name.
	live map[string]runtime.Object
	// stored are the same read by a DecodeOnly stream.
	stored *validation.StoredObjects
}

// readLiveExample reads the --live example.
func readLiveExample(t *testing.T) liveExample {
	t.Helper()
	dir := filepath.Join("..", "..", "examples", "validate", "testdata", "live")
	var ex liveExample
	var err error
	if ex.cluster, err = os.ReadFile(filepath.Join(dir, "cluster.yaml")); err != nil {
		t.Fatal(err)
	}
	if ex.changes, err = os.ReadFile(filepath.Join(dir, "changes.yaml")); err != nil {
		t.Fatal(err)
	}
	var list struct {
		Items []json.RawMessage `json:"items"`
	}
	if err := yaml.Unmarshal(ex.cluster, &list); err != nil {
		t.Fatal(err)
	}
	ex.live = map[string]runtime.Object{}
	for _, item := range list.Items {
		if obj := typedObject(t, item); obj != nil {
			m := accessor(t, obj)
			ex.live[obj.GetObjectKind().GroupVersionKind().Kind+"/"+m.GetNamespace()+"/"+m.GetName()] = obj
		}
	}
	ex.stored = new(validation.StoredObjects)
	for r := range validation.ValidateStream(bytes.NewReader(ex.cluster), "cluster.yaml", validation.StreamOptions{DecodeOnly: true}) {
		ex.stored.Add(r)
	}
	return ex
}
