package workloads

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"net/http"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/cli-runtime/pkg/resource"
	kubectlutil "k8s.io/kubectl/pkg/util"
	"sigs.k8s.io/yaml"

	"github.com/podlife/podlife/conformance/internal/gatesets"
	"github.com/podlife/podlife/conformance/internal/runenv"
	"github.com/podlife/podlife/conformance/internal/upstreamcreate"
	"github.com/podlife/podlife/conformance/internal/warngen"
	"github.com/podlife/podlife/validation"
	"github.com/podlife/podlife/validation/apply"
)

// applySource is the file name the applied manifests are read as.
const applySource = "new.yaml"

// streamApply reads live as the cluster's objects and answers doc, one object, as
// kubectl apply -f sends it (StreamOptions.Apply).
func streamApply(t *testing.T, live, doc []byte, opts validation.Options, directive string) validation.ObjectResult {
	t.Helper()
	stored := new(validation.StoredObjects)
	for r := range validation.ValidateStream(bytes.NewReader(live), "live.yaml", validation.StreamOptions{DecodeOnly: true, Validation: opts}) {
		stored.Add(r)
	}
	var results []validation.ObjectResult
	for r := range validation.ValidateStream(bytes.NewReader(doc), applySource, validation.StreamOptions{
		Stored: stored.Get, Validation: opts, Apply: apply.Patcher{}, FieldValidation: directive}) {
		results = append(results, r)
	}
	if len(results) != 1 {
		t.Fatalf("%d results for one object:\n%s", len(results), doc)
	}
	return results[0]
}

// withUnknownField writes a manifest with a field no kind has added to its spec
// (or to its metadata when it has no spec), as YAML.
func withUnknownField(t *testing.T, doc []byte, r *rand.Rand) []byte {
	t.Helper()
	var m map[string]any
	if err := yaml.Unmarshal(doc, &m); err != nil {
		t.Fatal(err)
	}
	key := []string{"replica", "templates", "selectors"}[r.Intn(3)]
	if spec, ok := m["spec"].(map[string]any); ok {
		spec[key] = 2
	} else {
		m["metadata"].(map[string]any)[key] = "x"
	}
	out, err := yaml.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// asManifest is obj as a manifest that created it reads: no status, no
// resourceVersion, uid, generation or creation time.
func asManifest(obj runtime.Object) runtime.Object {
	c := obj.DeepCopyObject()
	m := metaOf(c)
	m.ResourceVersion, m.UID, m.Generation, m.CreationTimestamp = "", "", 0, metav1.Time{}
	return c
}

// TestStreamAppliesMatchUpstream checks ValidateStream with StreamOptions.Apply,
// the path of examples/validate --live --apply: a generated stored object with the
// last-applied-configuration annotation of its own manifest, of the changed
// object's, or none (and sometimes the changed object is the stored one's manifest),
// written as YAML and read as the cluster's objects; the changed object, sometimes
// with an unknown field, under each field validation, answered as kubectl apply
// sends it. Upstream: kubectl's own apply code (the modified configuration,
// Patcher.Patch with its conflict retries) over a client whose PATCH reaches the
// real patch handler over the kind's registry store holding the stored object.
// Compared: the patch, byte for byte; the verdict; a 422's field errors (or, for one
// the patch handler answers itself, its message); a refusal's code, reason and
// message; the server's warnings; kubectl's warning about a missing annotation; the
// errors kubectl reports without the server (a name client-go cannot put in the URL
// of its GET).
func TestStreamAppliesMatchUpstream(t *testing.T) {
	s := seed(t)
	k := scale(t)
	gi := 0
	var applied, unchanged, created, refused, warned, handler422, unknown, noAnnotation, clientRefused, deleting, fallbacks int
	directives := map[string]int{}
	gatesets.Run(t, gateSets, func(t *testing.T, gs gatesets.Set) {
		defer func() { gi++ }()
		_, updates := draws(gs)
		updates /= 4
		opts := validation.Options{Features: gs.Features()}
		for ki, kind := range kinds {
			g := newGen(s + int64(1000*gi+ki) + 2700)
			wg := warngen.New(s + int64(1000*gi+ki) + 2800)
			r := rand.New(rand.NewSource(s + int64(1000*gi+ki) + 2900))
			tl := newTally()
			for i := range updates * k {
				n, o := g.update(t, kind)
				if nt := templateOf(n); nt != nil && i%2 == 0 {
					wg.Pod(&nt.Spec, &nt.ObjectMeta)
				}
				if i%5 == 0 {
					metaOf(n).ResourceVersion = ""
				}
				if i%9 == 0 {
					n = asManifest(o)
				}
				if i%13 == 5 {
					// Being deleted, held by a finalizer.
					om := metaOf(o)
					ts := metav1.Unix(1_700_000_100, 0)
					om.DeletionTimestamp, om.Finalizers = &ts, append(om.Finalizers, "example.com/keep")
				}
				ns := metaOf(o).Namespace
				if ns == "" {
					ns = "default"
				}
				switch i % 3 {
				case 0:
					noAnnotation++
				case 1:
					setLastApplied(o, upstreamcreate.LastAppliedOf(t, upstreamcreate.YAMLDocument(t, asManifest(o)), ns))
				case 2:
					setLastApplied(o, upstreamcreate.LastAppliedOf(t, upstreamcreate.YAMLDocument(t, n), ns))
				}
				live, doc := upstreamcreate.YAMLDocument(t, o), upstreamcreate.YAMLDocument(t, n)
				if r.Intn(8) == 0 {
					doc = withUnknownField(t, doc, r)
					unknown++
				}
				directive := []string{"", metav1.FieldValidationWarn, metav1.FieldValidationIgnore}[r.Intn(3)]
				directives[directive]++
				got := streamApply(t, live, doc, opts, directive)
				kd := upstreamcreate.KindOf(t, n)
				if !got.Update {
					if err := upstreamcreate.ClientRefusal(t, got.Namespace, got.Name, kd.Resource); err != nil {
						clientRefused++
						gv := schema.GroupVersion{Group: kd.Group, Version: kd.Version}
						info := &resource.Info{Namespace: got.Namespace, Name: got.Name, Mapping: restMapping(gv, kd.Resource, kd.Name)}
						want := fmt.Sprintf("error when retrieving current configuration of:\n%s\nfrom server for: %q: %v", info.String(), applySource, err)
						if got.Message() != want {
							tl.record(func() string { return string(live) + "---\n" + string(doc) }, nil, nil, nil, fmt.Sprintf("client-go refuses the GET:\n   want: %s\n   got:  %s", want, got.Message()))
						}
						continue
					}
					created++ // renamed, moved or unreadable: a create, which other tests check
					continue
				}
				applied++
				stored, errs := kd.Decode(t, o)
				if errs != nil {
					t.Fatalf("the stored object does not decode upstream, but the stream read it: %v", errs)
				}
				_, modified := upstreamcreate.KubectlApplyConfig(t, doc, ns)
				sent := directive
				if sent == "" {
					sent = metav1.FieldValidationStrict // kubectl's default --validate=strict
				}
				ans := kd.Apply(t, modified, stored, sent, applySource)
				c := compareApply(got, ans, kd, metaOf(o).Annotations)
				if c.deleting {
					deleting++
				}
				if c.openAPIFallback {
					fallbacks++
				}
				switch c.outcome {
				case "unchanged":
					unchanged++
				case "handler 422":
					handler422++
				case "refused":
					refused++
				}
				if ans.Server.Code != 0 && len(ans.Server.Warnings) > 0 {
					warned++
				}
				ours, theirs, problems := c.ours, c.theirs, c.problems
				tl.record(func() string { return string(live) + "---\n" + string(doc) + fmt.Sprint(g.faults) }, g.faults, ours, theirs, problems...)
			}
			t.Logf("%s: %d applies compared, %d invalid upstream, %d errors compared, %d disagreeing", kind, tl.inputs, tl.invalid, tl.errorsCompared, tl.disagreeing)
			if tl.disagreeing > 0 {
				t.Errorf("%s: %d of %d applies disagree; first ones:\n%s", kind, tl.disagreeing, tl.inputs, strings.Join(tl.examples, "\n\n"))
			}
		}
	})
	t.Logf("%d objects applied as patches (%d unchanged, %d refused before validation, %d answered 422 by the patch handler, %d with warnings, %d of objects being deleted, %d where kubectl fell back from the OpenAPI documents to the Go types), %d without the annotation, %d with an unknown field, directives %v; %d refused by client-go, %d created",
		applied, unchanged, refused, handler422, warned, deleting, fallbacks, noAnnotation, unknown, directives, clientRefused, created)
	if runenv.SeedChosen() {
		// Another seed draws other shares; each outcome must still be reached.
		if applied == 0 || unchanged == 0 || handler422 == 0 || warned == 0 || refused == 0 || clientRefused == 0 || deleting == 0 {
			t.Errorf("an outcome was never reached")
		}
	} else if applied < 9*(created+1) || unchanged < 10 || handler422 < 10 || warned < 20 || refused < 5 || clientRefused == 0 || deleting < 10 {
		t.Errorf("want at least 90%% patches, 10 unchanged, 10 refusals of the patch handler, 20 with warnings, 5 refused, a client-go refusal, 10 objects being deleted")
	}
}

// setLastApplied sets an object's last-applied-configuration annotation.
func setLastApplied(obj runtime.Object, config string) {
	m := metaOf(obj)
	if m.Annotations == nil {
		m.Annotations = map[string]string{}
	}
	m.Annotations[corev1.LastAppliedConfigAnnotation] = config
}

// hasMissingWarning reports whether a result carries kubectl's warning about a
// stored object without the last-applied-configuration annotation.
func hasMissingWarning(r validation.ObjectResult) bool {
	for _, w := range r.Warnings {
		if !w.Server && strings.Contains(w.Message, "is missing the "+corev1.LastAppliedConfigAnnotation+" annotation") {
			return true
		}
	}
	return false
}

// deletingWarning is kubectl apply's warning about an object being deleted
// (WarnIfDeleting).
var deletingWarning = regexp.MustCompile(`Warning: Detected changes to resource [^\n]* which is currently being deleted\.`)

// restMapping is kubectl's mapping of a namespaced kind.
func restMapping(gv schema.GroupVersion, resource, kind string) *meta.RESTMapping {
	return &meta.RESTMapping{Resource: gv.WithResource(resource), GroupVersionKind: gv.WithKind(kind), Scope: meta.RESTScopeNamespace}
}

// applyComparison is compareApply's result.
type applyComparison struct {
	// outcome is "unchanged", "handler 422", "refused" or "".
	outcome string
	// openAPIFallback is true when kubectl could not compute the patch from the
	// OpenAPI documents (its warning is not modelled).
	openAPIFallback bool
	// deleting is true when kubectl warned about an object being deleted.
	deleting bool
	// ours and theirs are the field errors to compare as diff compares them (nil
	// when the comparison was made otherwise).
	ours, theirs field.ErrorList
	problems     []string
}

// compareApply compares the stream's answer got to an object it answered as a
// patch of a stored object (whose annotations are storedAnnotations) with kubectl's outcome
// ans: the patch, byte for byte; kubectl's warning about a missing annotation; and
// the answer (nothing sent, kubectl's error, the server's 200, a 422 of the
// strategy's or of the patch handler's own, a refusal) and the server's warnings.
func compareApply(got validation.ObjectResult, ans upstreamcreate.ApplyAnswer, kd *upstreamcreate.Kind, storedAnnotations map[string]string) (c applyComparison) {
	source := got.Source
	var problems []string
	// kubectl's own warnings: on a live object without the annotation (below), and
	// on an object being deleted. Those it prints when it cannot compute the patch
	// from the server's OpenAPI documents are not modelled (it then uses the Go
	// types, as podlife does).
	var kubectlWarnings, want []string
	for _, w := range got.Warnings {
		if !w.Server && !strings.Contains(w.Message, "is missing the "+corev1.LastAppliedConfigAnnotation+" annotation") {
			kubectlWarnings = append(kubectlWarnings, "Warning: "+w.Message)
		}
	}
	want = deletingWarning.FindAllString(ans.Stderr, -1)
	if rest := strings.TrimSpace(deletingWarning.ReplaceAllString(ans.Stderr, "")); rest != "" && !strings.HasPrefix(rest, "warning: error calculating patch from openapi") {
		problems = append(problems, "kubectl printed what the test does not know: "+rest)
	}
	if !slices.Equal(kubectlWarnings, want) {
		problems = append(problems, fmt.Sprintf("kubectl's warnings:\n   stream:  %q\n   kubectl: %q", kubectlWarnings, want))
	}
	if strings.Contains(ans.Stderr, "error calculating patch from openapi") {
		c.openAPIFallback = true
	}
	if !bytes.Equal(got.Patch, ans.Patch) {
		problems = append(problems, fmt.Sprintf("patch:\n   stream:  %s\n   kubectl: %s", got.Patch, ans.Patch))
	}
	_, present := storedAnnotations[corev1.LastAppliedConfigAnnotation]
	if hasMissingWarning(got) == present {
		problems = append(problems, fmt.Sprintf("kubectl's warning on a missing annotation: stream %v, annotation present %v", hasMissingWarning(got), present))
	}
	ours, theirs := got.Errors, ans.Server.Errs
	switch {
	case ans.Err == nil && string(ans.Patch) == "{}":
		c.outcome = "unchanged"
		if got.Verdict != validation.Valid || len(upstreamcreate.ServerWarnings(got)) > 0 {
			problems = append(problems, fmt.Sprintf("kubectl sends nothing, the stream answers %s: %s %v", got.Verdict, got.Message(), got.Warnings))
		}
	case ans.Server.Code == 0:
		gv := schema.GroupVersion{Group: kd.Group, Version: kd.Version}
		info := &resource.Info{Namespace: got.Namespace, Name: got.Name, Mapping: restMapping(gv, kd.Resource, kd.Name)}
		want := fmt.Sprintf("error when applying patch:\n%s\nto:\n%v\nfor: %q: %v", ans.Patch, info, source, ans.Err)
		if got.Message() != want {
			i := 0
			for i < len(want) && i < len(got.Message()) && want[i] == got.Message()[i] {
				i++
			}
			problems = append(problems, fmt.Sprintf("kubectl sends nothing, differing at byte %d of %d:\n   want: %s\n   got:  %s", i, len(want), want[max(0, i-200):], got.Message()[max(0, i-200):]))
		}
	case ans.Server.Code == http.StatusOK:
		if got.Verdict != validation.Valid {
			problems = append(problems, fmt.Sprintf("upstream accepts the patch, the stream answers %s: %s", got.Verdict, got.Message()))
		}
	case ans.Server.Code == http.StatusUnprocessableEntity && ans.Server.Status.Details != nil && ans.Server.Status.Details.Kind == "":
		c.outcome = "handler 422"
		ours, theirs = nil, nil
		if got.Verdict != validation.Invalid || got.Message() != ans.Server.Status.Message {
			problems = append(problems, fmt.Sprintf("the patch handler's 422:\n   want: %s\n   got:  %s %s", ans.Server.Status.Message, got.Verdict, got.Message()))
		}
	case ans.Server.Code == http.StatusUnprocessableEntity:
		if got.Verdict != validation.Invalid {
			problems = append(problems, fmt.Sprintf("upstream answers 422, the stream %s: %s", got.Verdict, got.Message()))
		}
	default:
		c.outcome = "refused"
		ours, theirs = nil, nil
		problems = append(problems, ans.Server.CompareRefusal(got, schema.GroupResource{Group: kd.Group, Resource: kd.Resource}, http.MethodPatch)...)
	}
	if ans.Server.Code != 0 {
		if g, w := upstreamcreate.ServerWarnings(got), warngen.SortNodeSelectorRuns(ans.Server.Warnings); !slices.Equal(g, w) {
			problems = append(problems, fmt.Sprintf("warnings:\n   stream:   %q\n   upstream: %q", g, w))
		}
	}
	c.deleting = strings.Contains(ans.Stderr, "currently being deleted")
	c.ours, c.theirs, c.problems = ours, theirs, problems
	return c
}

// TestLiveApplyExampleMatchesUpstream checks examples/validate's --live example
// under --apply against kubectl's own apply code and the real patch handler: each
// object the stream answers as a patch, read from its YAML by kubectl's code, is
// patched against the live object (decoded independently of podlife), and the
// answers must agree as TestStreamAppliesMatchUpstream compares them.
func TestLiveApplyExampleMatchesUpstream(t *testing.T) {
	ex := readLiveExample(t)
	changes, live, stored := ex.changes, ex.live, ex.stored
	docs := strings.Split(string(changes), "\n---\n")
	results, patched, invalid := 0, 0, 0
	for r := range validation.ValidateStream(bytes.NewReader(changes), "changes.yaml", validation.StreamOptions{Stored: stored.Get, Apply: apply.Patcher{}}) {
		doc := docs[results]
		results++
		if !r.Update {
			continue
		}
		patched++
		old := live[r.Kind+"/"+r.Namespace+"/"+r.Name]
		if old == nil {
			t.Fatalf("%s %s/%s: a patch, and not in cluster.yaml", r.Kind, r.Namespace, r.Name)
		}
		kd := upstreamcreate.KindOf(t, old)
		storedObj, errs := kd.Decode(t, old)
		if errs != nil {
			t.Fatal(errs)
		}
		_, modified := upstreamcreate.KubectlApplyConfig(t, []byte(doc), r.Namespace)
		ans := kd.Apply(t, modified, storedObj, metav1.FieldValidationStrict, "changes.yaml")
		if ans.Server.Code == http.StatusUnprocessableEntity {
			invalid++
		}
		if c := compareApply(r, ans, kd, accessor(t, old).GetAnnotations()); len(c.problems) > 0 || len(diff(c.ours, c.theirs)) > 0 {
			t.Errorf("changes.yaml:%d %s %q: %s %v", r.Line, r.Kind, r.Name, c.problems, diff(c.ours, c.theirs))
		}
	}
	if results != len(docs) || patched != 5 || invalid != 2 {
		t.Errorf("%d results for %d documents, %d patches, %d invalid upstream: want 5 patches, 2 invalid", results, len(docs), patched, invalid)
	}
}

// kubectlCreated is the object kubectl apply creates for a manifest (YAML) the
// cluster does not hold, decoded into a v1 object of like's type: the object with
// the last-applied-configuration annotation, its nulls pruned.
func kubectlCreated(t *testing.T, doc []byte, ns string, like runtime.Object) runtime.Object {
	t.Helper()
	u, _ := upstreamcreate.KubectlApplyConfig(t, doc, ns)
	if err := kubectlutil.CreateApplyAnnotation(u, unstructured.UnstructuredJSONScheme); err != nil {
		t.Fatal(err)
	}
	upstreamcreate.PruneNulls(u.Object)
	b, err := u.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	out := reflect.New(reflect.TypeOf(like).Elem()).Interface().(runtime.Object)
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestStreamApplyTwiceMatchesUpstream checks a stream that applies an object twice
// (a manifest pasted twice, or edited in place), then the first manifest a third
// time: kubectl apply creates the first with its annotation, patches the stored
// result with the second, and patches what the server stored then with the third
// (compared against the object the real handler answered the second patch with). The stream's
// answer to the second is compared, as TestStreamAppliesMatchUpstream compares,
// with kubectl's Patcher against the object the real create path stores for what
// kubectl created (the server's defaults, PrepareForCreate, GeneratedUID); the
// first's annotation with kubectl's, and its answer (validity, a 422's errors, the
// warnings) with the real create path's for the object kubectl sends.
func TestStreamApplyTwiceMatchesUpstream(t *testing.T) {
	s := seed(t)
	k := scale(t)
	gi := 0
	var twice, thrice, firstInvalid, unchanged, renamed int // renamed: also names kubectl cannot GET
	gatesets.Run(t, gateSets, func(t *testing.T, gs gatesets.Set) {
		defer func() { gi++ }()
		_, updates := draws(gs)
		updates /= 8
		opts := validation.Options{Features: gs.Features()}
		for ki, kind := range kinds {
			g := newGen(s + int64(1000*gi+ki) + 3700)
			tl := newTally()
			for i := range updates * k {
				n, o := g.update(t, kind)
				first := asManifest(o)
				second := asManifest(n)
				if i%4 == 0 {
					second = first.DeepCopyObject() // pasted twice
				}
				fm, sm := metaOf(first), metaOf(second)
				if fm.Name == "" || sm.Name != fm.Name || sm.Namespace != fm.Namespace {
					renamed++
					continue
				}
				ns := fm.Namespace
				if ns == "" {
					ns = "default"
				}
				doc1, doc2 := upstreamcreate.YAMLDocument(t, first), upstreamcreate.YAMLDocument(t, second)
				stream := append(append(append([]byte(nil), doc1...), "---\n"...), doc2...)
				// A third time, the first manifest again: patched against what the
				// second left.
				stream = append(append(stream, "---\n"...), doc1...)
				var results []validation.ObjectResult
				for r := range validation.ValidateStream(bytes.NewReader(stream), applySource, validation.StreamOptions{Validation: opts, Apply: apply.Patcher{}}) {
					results = append(results, r)
				}
				if len(results) != 3 {
					t.Fatalf("%d results for three objects", len(results))
				}
				kd := upstreamcreate.KindOf(t, first)
				if upstreamcreate.ClientRefusal(t, ns, fm.Name, kd.Resource) != nil {
					// kubectl cannot GET it: TestStreamAppliesMatchUpstream checks that.
					if results[0].Verdict != validation.Rejected || results[0].Status() != nil {
						t.Errorf("a name client-go puts in no URL, answered %s: %s", results[0].Verdict, results[0].Message())
					}
					renamed++
					continue
				}
				created := kubectlCreated(t, doc1, ns, first)
				// The first object is created as kubectl apply sends it.
				createErrs, createWarnings := upstreamcreate.ObjectCreateWarned(t, created, "")
				_, refused := validation.RefusalOf(createErrs)
				if r := results[0]; r.Update || (len(createErrs) == 0) != (r.Verdict == validation.Valid) {
					tl.record(func() string { return string(stream) }, nil, nil, nil, fmt.Sprintf("the first object: upstream's create gives %d errors, the stream %s: %s", len(createErrs), r.Verdict, r.Message()))
				} else if len(createErrs) > 0 && !refused && len(diff(r.Errors, createErrs)) > 0 {
					tl.record(func() string { return string(stream) }, nil, r.Errors, createErrs)
				} else if got, want := upstreamcreate.ServerWarnings(r), warngen.SortNodeSelectorRuns(createWarnings); len(createErrs) == 0 && !slices.Equal(got, want) {
					tl.record(func() string { return string(stream) }, nil, nil, nil, fmt.Sprintf("the first object's warnings:\n   stream:   %q\n   upstream: %q", got, want))
				}
				if r := results[0]; r.Verdict != validation.Valid {
					firstInvalid++
					if results[1].Update {
						t.Errorf("the first object was not created (%s), the second is answered as a patch", r.Message())
					}
					continue
				} else if got, want := accessor(t, r.Object).GetAnnotations(), accessor(t, created).GetAnnotations(); !reflect.DeepEqual(got, want) {
					t.Errorf("created annotations:\n   stream:  %q\n   kubectl: %q", got, want)
				}
				got := results[1]
				if !got.Update {
					tl.record(func() string { return string(stream) }, nil, nil, nil, "the second object was not answered as a patch: "+got.Message())
					continue
				}
				twice++
				storedV1 := upstreamcreate.Stored(t, created)
				storedObj, errs := kd.Decode(t, storedV1)
				if errs != nil {
					t.Fatal(errs)
				}
				_, modified := upstreamcreate.KubectlApplyConfig(t, doc2, ns)
				ans := kd.Apply(t, modified, storedObj, metav1.FieldValidationStrict, applySource)
				c := compareApply(got, ans, kd, accessor(t, storedV1).GetAnnotations())
				if c.outcome == "unchanged" {
					unchanged++
				}
				tl.record(func() string { return string(stream) }, nil, c.ours, c.theirs, c.problems...)
				// The third object, against what the server stored after the second.
				third := results[2]
				if !third.Update {
					tl.record(func() string { return string(stream) }, nil, nil, nil, "the third object was not answered as a patch: "+third.Message())
					continue
				}
				if ans.Err == nil && string(ans.Patch) != "{}" {
					b, err := json.Marshal(ans.Object)
					if err != nil {
						t.Fatal(err)
					}
					after := reflect.New(reflect.TypeOf(first).Elem()).Interface().(runtime.Object)
					if err := json.Unmarshal(b, after); err != nil {
						t.Fatal(err)
					}
					if storedObj, errs = kd.Decode(t, after); errs != nil {
						t.Fatal(errs)
					}
					storedV1 = after
					thrice++
				}
				_, modified3 := upstreamcreate.KubectlApplyConfig(t, doc1, ns)
				ans3 := kd.Apply(t, modified3, storedObj, metav1.FieldValidationStrict, applySource)
				c3 := compareApply(third, ans3, kd, accessor(t, storedV1).GetAnnotations())
				tl.record(func() string { return string(stream) }, nil, c3.ours, c3.theirs, c3.problems...)
			}
			t.Logf("%s: %d second applies compared, %d invalid upstream, %d disagreeing", kind, tl.inputs, tl.invalid, tl.disagreeing)
			if tl.disagreeing > 0 {
				t.Errorf("%s: %d of %d second applies disagree; first ones:\n%s", kind, tl.disagreeing, tl.inputs, strings.Join(tl.examples, "\n\n"))
			}
		}
	})
	t.Logf("%d objects applied twice (%d unchanged), then again as first (%d after a patch the server applied), %d first objects invalid, %d pairs renamed", twice, unchanged, thrice, firstInvalid, renamed)
	if least := runenv.Least(100); twice < least || unchanged == 0 || thrice < runenv.Least(50) {
		t.Errorf("want at least 100 objects applied twice, some unchanged, 50 applied a third time after a patch")
	}
}

// TestApplyCreatesMatchKubectl checks hand-written manifests that kubectl apply
// creates differently from kubectl create: what the stream creates (the annotation,
// the verdict, a 422's errors, the warnings) against the real create path given
// what kubectl apply's own code makes of the manifest (its annotation, its nulls
// pruned), and the create's answer against the stream without Apply where they
// differ.
func TestApplyCreatesMatchKubectl(t *testing.T) {
	deployment := func(meta, spec string) string {
		return "apiVersion: apps/v1\nkind: Deployment\nmetadata: " + meta + "\nspec:\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers: [{name: web, image: nginx}]\n" + spec
	}
	tests := []struct {
		name, doc    string
		createValid  bool // kubectl create's verdict
		appliedValid bool
	}{
		{"plain", deployment("{name: web}", ""), true, true},
		{"an unknown field set to null: pruned", deployment("{name: web}", "  replica: null\n"), false, true},
		{"a known field set to null", deployment("{name: web}", "  replicas: null\n"), true, true},
		{"annotations that are not all strings: kubectl cannot decode the object either way", deployment("{name: web, annotations: {replicas: 3}}", ""), false, false},
		{"a manifest with kubectl's annotation already", deployment(`{name: web, annotations: {kubectl.kubernetes.io/last-applied-configuration: '{"stale":true}'}}`, ""), true, true},
		{"a resourceVersion: cleared on create, kept in the annotation", deployment(`{name: web, resourceVersion: "12"}`, ""), true, true},
		{"an invalid object", deployment("{name: Web}", ""), false, false},
		{"a pod with a null list entry field", "apiVersion: v1\nkind: Pod\nmetadata: {name: p, labels: null}\nspec:\n  containers: [{name: c, image: x, args: null, env: [{name: A, value: null}]}]\n", true, true},
	}
	big := strings.Replace(deployment("{name: big}", ""), "image: nginx}", "image: nginx, env: [{name: CONFIG, value: "+strings.Repeat("x", 270_000)+"}]}", 1)
	tests = append(tests, struct {
		name, doc    string
		createValid  bool
		appliedValid bool
	}{"an object over 256 KiB: valid, but not as its own annotation", big, true, false})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			answer := func(opts validation.StreamOptions) validation.ObjectResult {
				var rs []validation.ObjectResult
				for r := range validation.ValidateStream(strings.NewReader(tt.doc), applySource, opts) {
					rs = append(rs, r)
				}
				if len(rs) != 1 {
					t.Fatalf("%d results", len(rs))
				}
				return rs[0]
			}
			created, applied := answer(validation.StreamOptions{}), answer(validation.StreamOptions{Apply: apply.Patcher{}})
			if (created.Verdict == validation.Valid) != tt.createValid || (applied.Verdict == validation.Valid) != tt.appliedValid {
				t.Fatalf("create %s (%s), apply %s (%s); want valid %v and %v", created.Verdict, created.Message(), applied.Verdict, applied.Message(), tt.createValid, tt.appliedValid)
			}
			if applied.Verdict == validation.Rejected && applied.Status() == nil {
				return // kubectl's own error, before apply: the decoding tests check it
			}
			var like runtime.Object
			switch {
			case strings.Contains(tt.doc, "kind: Pod"):
				like = &corev1.Pod{}
			default:
				like = &appsv1.Deployment{}
			}
			sent := kubectlCreated(t, []byte(tt.doc), "default", like)
			errs, warnings := upstreamcreate.ObjectCreateWarned(t, sent, "")
			if (len(errs) == 0) != (applied.Verdict == validation.Valid) {
				t.Fatalf("upstream's create of what kubectl apply sends gives %v; the stream %s: %s", errs, applied.Verdict, applied.Message())
			}
			if d := diff(applied.Errors, errs); len(errs) > 0 && len(d) > 0 {
				t.Errorf("errors: %v", d)
			}
			if got, want := upstreamcreate.ServerWarnings(applied), warngen.SortNodeSelectorRuns(warnings); !slices.Equal(got, want) {
				t.Errorf("warnings:\n   stream:   %q\n   upstream: %q", got, want)
			}
			if applied.Object != nil {
				if got, want := accessor(t, applied.Object).GetAnnotations(), accessor(t, sent).GetAnnotations(); !reflect.DeepEqual(got, want) {
					t.Errorf("annotations:\n   stream:  %q\n   kubectl: %q", got, want)
				}
			}
		})
	}
}

// TestServedOpenAPIPatchesEveryKind checks that kubectl computes the patches of the
// apply tests from the server's OpenAPI v3 document, as against a real server: each
// kind's PATCH takes a strategic merge patch there (kubectl's
// gvkSupportsPatchOpenAPIV3), and each kind's schema is found by its
// x-kubernetes-group-version-kind (buildStrategicMergePatchFromOpenAPIV3).
func TestServedOpenAPIPatchesEveryKind(t *testing.T) {
	root, err := upstreamcreate.ServedOpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range upstreamcreate.Kinds {
		gv := schema.GroupVersion{Group: k.Group, Version: k.Version}
		doc, err := root.GVSpec(gv)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"group": k.Group, "version": k.Version, "kind": k.Name}
		patches, schemas := false, false
		for _, p := range doc.Paths.Paths {
			var gvk map[string]string
			if p.Patch != nil && p.Patch.Extensions.GetObject("x-kubernetes-group-version-kind", &gvk) == nil && reflect.DeepEqual(gvk, want) &&
				p.Patch.RequestBody != nil && p.Patch.RequestBody.Content["application/strategic-merge-patch+json"] != nil {
				patches = true
			}
		}
		for _, c := range doc.Components.Schemas {
			var gvks []map[string]string
			if c.Extensions.GetObject("x-kubernetes-group-version-kind", &gvks) == nil && slices.ContainsFunc(gvks, func(m map[string]string) bool { return reflect.DeepEqual(m, want) }) {
				schemas = true
			}
		}
		if !patches || !schemas {
			t.Errorf("%s: strategic merge PATCH %v, schema %v in the OpenAPI v3 document", k.Name, patches, schemas)
		}
	}
}

// TestApplyTwiceHandWritten applies hand-written manifests twice in one stream (or
// a pair: one, then another of its name) and compares the second answer with kubectl's Patcher against what the real create
// path stored for the first, read back through protobuf as from etcd: empty lists of
// fields without omitempty (they read back as null, so kubectl patches them again),
// claim templates without apiVersion and kind (the served view has them), a
// DaemonSet's template generation, a Deployment's empty rollback annotation.
func TestApplyTwiceHandWritten(t *testing.T) {
	tpl := func(spec string) string {
		return "  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n" + spec
	}
	docs := []string{
		"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n" + tpl("      containers: [{name: web, image: nginx}]\n      volumes: [{name: p, projected: {sources: []}}]\n"),
		"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n" + tpl("      containers: [{name: web, image: nginx}]\n      affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: a, operator: Exists, values: []}]}]}}}\n"),
		"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, annotations: {deprecated.deployment.rollback.to: \"\"}}\nspec:\n" + tpl("      containers: [{name: web, image: nginx}]\n"),
		"apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent}\nspec:\n" + tpl("      containers: [{name: agent, image: agent}]\n"),
		"apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent, annotations: {deprecated.daemonset.template.generation: \"007\"}}\nspec:\n" + tpl("      containers: [{name: agent, image: agent}]\n"),
		"apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec:\n  serviceName: db\n" + tpl("      containers: [{name: db, image: postgres}]\n") +
			"  volumeClaimTemplates:\n  - metadata: {name: data}\n    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n",
		"apiVersion: v1\nkind: Pod\nmetadata: {name: p, labels: {}}\nspec:\n  containers: [{name: c, image: x, args: [], env: []}]\n  tolerations: []\n",
	}
	// Then pairs: the first created, the second applied over it. The claim
	// templates written without apiVersion and kind, then as kubectl get prints
	// them: the served view has them, so the second changes nothing.
	pairs := [][2]string{{
		"apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec:\n  serviceName: db\n" + tpl("      containers: [{name: db, image: postgres}]\n") +
			"  volumeClaimTemplates:\n  - metadata: {name: data}\n    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n",
		"apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec:\n  serviceName: db\n" + tpl("      containers: [{name: db, image: postgres}]\n") +
			"  volumeClaimTemplates:\n  - apiVersion: v1\n    kind: PersistentVolumeClaim\n    metadata: {name: data}\n    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}, volumeMode: Filesystem}\n    status: {phase: Pending}\n",
	}}
	for _, d := range docs {
		pairs = append(pairs, [2]string{d, d})
	}
	likes := map[string]runtime.Object{"Deployment": &appsv1.Deployment{}, "DaemonSet": &appsv1.DaemonSet{}, "StatefulSet": &appsv1.StatefulSet{}, "Pod": &corev1.Pod{}}
	patched := 0
	for _, pair := range pairs {
		doc, second := pair[0], pair[1]
		var results []validation.ObjectResult
		for r := range validation.ValidateStream(strings.NewReader(doc+"---\n"+second), applySource, validation.StreamOptions{Apply: apply.Patcher{}}) {
			results = append(results, r)
		}
		if len(results) != 2 || results[0].Verdict != validation.Valid || !results[1].Update {
			t.Fatalf("%s: %d results, the first %s (%s)", doc, len(results), results[0].Verdict, results[0].Message())
		}
		created := kubectlCreated(t, []byte(doc), "default", likes[results[0].Kind])
		kd := upstreamcreate.KindOf(t, created)
		storedV1 := upstreamcreate.Stored(t, created)
		storedObj, errs := kd.Decode(t, storedV1)
		if errs != nil {
			t.Fatal(errs)
		}
		_, modified := upstreamcreate.KubectlApplyConfig(t, []byte(second), "default")
		ans := kd.Apply(t, modified, storedObj, metav1.FieldValidationStrict, applySource)
		c := compareApply(results[1], ans, kd, accessor(t, storedV1).GetAnnotations())
		if len(c.problems) > 0 || len(diff(c.ours, c.theirs)) > 0 {
			t.Errorf("%s---\n%s: %s %v", doc, second, c.problems, diff(c.ours, c.theirs))
		}
		if string(ans.Patch) != "{}" {
			patched++
		}
	}
	if patched < 3 {
		t.Errorf("%d of %d second applies sent a patch; the empty lists and the Pod's should", patched, len(pairs))
	}
}
