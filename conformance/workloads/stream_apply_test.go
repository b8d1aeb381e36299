package workloads

import (
	"bytes"
	"fmt"
	"math/rand"
	"net/http"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/cli-runtime/pkg/resource"
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
	var applied, unchanged, created, refused, warned, handler422, unknown, noAnnotation, clientRefused int
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
				var problems []string
				if !bytes.Equal(got.Patch, ans.Patch) {
					problems = append(problems, fmt.Sprintf("patch:\n   stream:  %s\n   kubectl: %s", got.Patch, ans.Patch))
				}
				_, present := metaOf(o).Annotations[corev1.LastAppliedConfigAnnotation]
				if hasMissingWarning(got) == present {
					problems = append(problems, fmt.Sprintf("kubectl's warning on a missing annotation: stream %v, annotation present %v", hasMissingWarning(got), present))
				}
				var ours, theirs = got.Errors, ans.Server.Errs
				switch {
				case ans.Err == nil && string(ans.Patch) == "{}":
					unchanged++
					if got.Verdict != validation.Valid || len(upstreamcreate.ServerWarnings(got)) > 0 {
						problems = append(problems, fmt.Sprintf("kubectl sends nothing, the stream answers %s: %s %v", got.Verdict, got.Message(), got.Warnings))
					}
				case ans.Server.Code == 0:
					gv := schema.GroupVersion{Group: kd.Group, Version: kd.Version}
					info := &resource.Info{Namespace: got.Namespace, Name: got.Name, Mapping: restMapping(gv, kd.Resource, kd.Name)}
					want := fmt.Sprintf("error when applying patch:\n%s\nto:\n%v\nfor: %q: %v", ans.Patch, info, applySource, ans.Err)
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
					handler422++
					ours, theirs = nil, nil
					if got.Verdict != validation.Invalid || got.Message() != ans.Server.Status.Message {
						problems = append(problems, fmt.Sprintf("the patch handler's 422:\n   want: %s\n   got:  %s %s", ans.Server.Status.Message, got.Verdict, got.Message()))
					}
				case ans.Server.Code == http.StatusUnprocessableEntity:
					if got.Verdict != validation.Invalid {
						problems = append(problems, fmt.Sprintf("upstream answers 422, the stream %s: %s", got.Verdict, got.Message()))
					}
				default:
					refused++
					ours, theirs = nil, nil
					problems = append(problems, ans.Server.CompareRefusal(got, schema.GroupResource{Group: kd.Group, Resource: kd.Resource}, http.MethodPatch)...)
				}
				if ans.Server.Code != 0 {
					if len(ans.Server.Warnings) > 0 {
						warned++
					}
					if g, w := upstreamcreate.ServerWarnings(got), warngen.SortNodeSelectorRuns(ans.Server.Warnings); !slices.Equal(g, w) {
						problems = append(problems, fmt.Sprintf("warnings:\n   stream:   %q\n   upstream: %q", g, w))
					}
				}
				tl.record(func() string { return string(live) + "---\n" + string(doc) + fmt.Sprint(g.faults) }, g.faults, ours, theirs, problems...)
			}
			t.Logf("%s: %d applies compared, %d invalid upstream, %d errors compared, %d disagreeing", kind, tl.inputs, tl.invalid, tl.errorsCompared, tl.disagreeing)
			if tl.disagreeing > 0 {
				t.Errorf("%s: %d of %d applies disagree; first ones:\n%s", kind, tl.disagreeing, tl.inputs, strings.Join(tl.examples, "\n\n"))
			}
		}
	})
	t.Logf("%d objects applied as patches (%d unchanged, %d refused before validation, %d answered 422 by the patch handler, %d with warnings), %d without the annotation, %d with an unknown field, directives %v; %d refused by client-go, %d created",
		applied, unchanged, refused, handler422, warned, noAnnotation, unknown, directives, clientRefused, created)
	if runenv.SeedChosen() {
		// Another seed draws other shares; each outcome must still be reached.
		if applied == 0 || unchanged == 0 || handler422 == 0 || warned == 0 || refused == 0 || clientRefused == 0 {
			t.Errorf("an outcome was never reached")
		}
	} else if applied < 9*(created+1) || unchanged < 10 || handler422 < 10 || warned < 20 || refused < 5 || clientRefused == 0 {
		t.Errorf("want at least 90%% patches, 10 unchanged, 10 refusals of the patch handler, 20 with warnings, 5 refused, a client-go refusal")
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

// restMapping is kubectl's mapping of a namespaced kind.
func restMapping(gv schema.GroupVersion, resource, kind string) *meta.RESTMapping {
	return &meta.RESTMapping{Resource: gv.WithResource(resource), GroupVersionKind: gv.WithKind(kind), Scope: meta.RESTScopeNamespace}
}
