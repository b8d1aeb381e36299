package decoding

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/endpoints/handlers/responsewriters"
	"k8s.io/apiserver/pkg/storage"
	"k8s.io/apiserver/pkg/storage/names"
	"k8s.io/kubernetes/pkg/api/legacyscheme"

	"github.com/podlife/podlife/conformance/internal/gatesets"
	"github.com/podlife/podlife/conformance/internal/runenv"
	"github.com/podlife/podlife/conformance/internal/upstreamcreate"
	"github.com/podlife/podlife/validation"
	"github.com/podlife/podlife/validation/apischeme"
	"github.com/podlife/podlife/validation/apply"
)

// validate is the rest of kube-apiserver's create for an object of a kind that holds a
// pod, once its body decoded: the registry's create (upstreamcreate.ObjectCreateIn:
// defaults, the namespace check, the store's metadata and generated name,
// PrepareForCreate, validation), refused with the registry's 422 Invalid; a valid
// object carrying a resourceVersion is then refused by the storage
// (storage.ErrResourceVersionSetOnCreate), which the handler writes as
// responsewriters.ErrorToAPIStatus words an error that is not a status. kubectl
// create clears the resourceVersion before it sends an object, so the objects saved
// with kubectl get -o yaml in the corpus never reach that refusal.
func (u *upstream) validate(t testing.TB, req *http.Request, body []byte, kind schema.GroupVersionKind, strictErrs []error, out *kubectlOutcome) *http.Response {
	t.Helper()
	obj, err := legacyscheme.Scheme.New(kind)
	if err != nil {
		t.Fatalf("new %s: %v", kind, err)
	}
	if _, _, err := legacyscheme.Codecs.UniversalDeserializer().Decode(body, &kind, obj); err != nil {
		t.Fatalf("%s decoded once but not again: %v", kind, err)
	}
	// One response carries the warnings of decoding and of the create.
	var errs field.ErrorList
	out.pendingWarnings = upstreamcreate.Recorded(func(ctx context.Context) {
		addStrictDecodingWarnings(ctx, strictErrs)
		errs = upstreamcreate.ObjectCreateInContext(t, ctx, obj, namespaceOf(req.URL.Path))
	})
	if upstreamcreate.IsServerPanic(errs) {
		// The create panicked: the handler's finisher passes the panic on to the
		// server's panic filter, which answers in plain text (k8s.io/apiserver
		// pkg/server/filters/wrap.go).
		return panicked()
	}
	if len(errs) > 0 {
		out.pending = errs
		return status(apierrors.NewInvalid(kind.GroupKind(), storedName(obj), errs))
	}
	if v, err := (storage.APIObjectVersioner{}).ObjectResourceVersion(obj); err == nil && v != 0 {
		st := responsewriters.ErrorToAPIStatus(storage.ErrResourceVersionSetOnCreate)
		return status(&apierrors.StatusError{ErrStatus: *st})
	}
	gvr, err := resourceOf(req.URL.Path)
	if err != nil {
		t.Fatal(err)
	}
	return u.store(out, req.URL.Path, gvr, body, kind)
}

// store is the storage's create of an object the server accepted: an object of a
// name already created for the resource and namespace is refused as the generic
// registry refuses it (Store.Create: storeerr.InterpretCreateError's AlreadyExists);
// an object named only by generateName gets a name no other has, and the create-only
// resources (reviews, bindings) keep nothing.
func (u *upstream) store(out *kubectlOutcome, path string, gvr schema.GroupVersionResource, body []byte, kind schema.GroupVersionKind) *http.Response {
	var m struct {
		Metadata struct{ Name string } `json:"metadata"`
	}
	_ = json.Unmarshal(body, &m)
	if m.Metadata.Name == "" || !u.stores[gvr] {
		return created(kind)
	}
	key := gvr.GroupResource().String() + "/" + namespaceOf(path) + "/" + m.Metadata.Name
	if out.stored[key] {
		return status(apierrors.NewAlreadyExists(gvr.GroupResource(), m.Metadata.Name))
	}
	if out.stored == nil {
		out.stored = map[string]bool{}
	}
	out.stored[key] = true
	return created(kind)
}

// namespaceOf is the namespace of a create URL, "" for a cluster-scoped one.
func namespaceOf(path string) string {
	parts := strings.Split(strings.Trim(path, "/"), "/")
	for i := 0; i+1 < len(parts); i++ {
		if parts[i] == "namespaces" {
			return parts[i+1]
		}
	}
	return ""
}

// storedName is the name the registry names an object by in its 422: its own, or the
// one generated from generateName (ObjectCreateIn draws the generated suffix as
// validation.GeneratedNameSuffix).
func storedName(obj runtime.Object) string {
	m, err := meta.Accessor(obj)
	if err != nil || m.GetName() != "" || m.GetGenerateName() == "" {
		return m.GetName()
	}
	base := m.GetGenerateName()
	if len(base) > names.MaxGeneratedNameLength {
		base = base[:names.MaxGeneratedNameLength]
	}
	return base + validation.GeneratedNameSuffix
}

// sameCauses reports whether two 422 refusals list the same errors, those whose order
// upstream takes from a Go map compared as a multiset and the others in order.
func sameCauses(want, got field.ErrorList) bool {
	if !slices.Equal(upstreamcreate.Ordered(want), upstreamcreate.Ordered(got)) {
		return false
	}
	texts := func(l field.ErrorList) []string {
		var out []string
		for _, e := range l {
			out = append(out, e.Error())
		}
		slices.Sort(out)
		return out
	}
	return slices.Equal(texts(want), texts(got))
}

// compareValidated is compare for a validating server: a 422 whose message differs
// only by the order of errors upstream ranges a map for counts as agreeing (reorder
// says how many did).
func compareValidated(want, got kubectlOutcome) (diff string, reorder int) {
	for i := range min(len(want.warnings), len(got.warnings)) {
		if !slices.Equal(want.warnings[i], got.warnings[i]) {
			return fmt.Sprintf("object %d: warnings\n kubectl %q\n ours    %q", i, want.warnings[i], got.warnings[i]), 0
		}
	}
	for i := range min(len(want.sent), len(got.sent)) {
		w, g := want.sent[i], &got.sent[i]
		if w.status == http.StatusUnprocessableEntity && g.status == w.status && g.message != w.message &&
			i < len(want.causes) && i < len(got.causes) && sameCauses(want.causes[i], got.causes[i]) {
			g.message = w.message
			reorder++
		}
	}
	return compare(want, got), reorder
}

// endToEnd compares one file end to end: kubectl create -f against the validating
// server (want) with ValidateStream under opts; n is the number of results, diff the
// first difference ("" when they agree), reordered the 422s equal but for upstream's
// map order.
func endToEnd(t testing.TB, u *upstream, path string, opts validation.StreamOptions) (want kubectlOutcome, n int, diff string, reordered int, err error) {
	want = u.createFileValidated(t, path, opts.Namespace, directiveOf(opts))
	got, n, err := oursWith(path, opts)
	if err != nil {
		return want, n, "", 0, err
	}
	diff, reordered = compareValidated(want, got)
	return want, n, diff, reordered, nil
}

// manifestRoots are the directories of manifests written by hand that the repository
// keeps: the realistic corpus modelled on public documentation and projects, and the
// example programs' inputs. Paths are relative to this package.
var manifestRoots = []string{"../../validation/testdata/manifests", "../../examples"}

// manifestFiles lists the manifest files (.yaml, .yml, .json) under manifestRoots,
// leaving out fuzz corpora and the example programs' other files.
func manifestFiles(t testing.TB) []string {
	t.Helper()
	var files []string
	for _, root := range manifestRoots {
		files = append(files, manifestFilesUnder(t, root, true)...)
	}
	return files
}

// manifestFilesUnder lists the manifest files (.yaml, .yml, .json) under root, in
// lexical order, leaving out fuzz corpora and, with inTestdata, every file outside a
// testdata directory.
func manifestFilesUnder(t testing.TB, root string, inTestdata bool) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "fuzz" {
				return filepath.SkipDir
			}
			return nil
		}
		if inTestdata && !strings.Contains(path, string(filepath.Separator)+"testdata"+string(filepath.Separator)) {
			return nil
		}
		switch filepath.Ext(path) {
		case ".yaml", ".yml", ".json":
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestManifestsMatchKubectlAndServer runs `kubectl create -f` on every manifest file
// written by hand the repository keeps, against a server that decodes, defaults,
// validates and stores each object holding a pod as kube-apiserver does, and compares
// ValidateStream's full answers with it, file by file: the same objects sent, in
// order, with the same namespace, name, status code and message (a 422 listing the
// same errors in another order of a map counts as agreeing), and the same kubectl
// errors. It does so under each of manifestGateSets, the server started with that
// --feature-gates and ValidateStream given the same gates. It also reports each
// file's outcome, so that the realistic corpus's coverage of kinds and answers is
// checked, not only logged, and counts the answers a gate set changes, so that a set
// that no longer reaches the server is noticed.
func TestManifestsMatchKubectlAndServer(t *testing.T) {
	u := getUpstream(t)
	files := manifestFiles(t)
	scheme := apischeme.New()
	var defaults []kubectlOutcome
	for _, gs := range manifestGateSets {
		t.Run(gs.Name, func(t *testing.T) {
			gatesets.Apply(t, gs)
			opts := validation.StreamOptions{Scheme: scheme, Validation: validation.Options{Features: gs.Features()}}
			wants, summary := compareFiles(t, u, files, opts)
			outcomes := map[string]int{}
			changed := 0
			for i, want := range wants {
				if gs.Name == gatesets.Defaults.Name {
					defaults = append(defaults, want)
				} else if !sameOutcome(defaults[i], want) {
					changed++
				}
				for _, s := range want.sent {
					outcomes[fmt.Sprintf("server %d", s.status)]++
					outcomes[fmt.Sprintf("%s %d", s.kind, s.status)]++
				}
				for _, e := range want.errors {
					outcomes["kubectl "+kubectlErrorClass(e)]++
				}
				for _, w := range want.warnings {
					outcomes["server warnings"] += len(w)
				}
			}
			t.Logf("%s, %d files answered otherwise than under the defaults", summary, changed)
			t.Logf("upstream outcomes: %v", outcomes)
			if gs.Name == gatesets.Defaults.Name {
				checkManifestCoverage(t, len(files), outcomes)
			} else if least := manifestGateSetChanges[gs.Name]; changed < least {
				t.Errorf("%d files answered otherwise than under the defaults, want at least %d: the set no longer reaches the server", changed, least)
			}
		})
	}
}

// TestManifestsMatchKubectlFlags is TestManifestsMatchKubectlAndServer (default
// gates) with the kubectl flags a CI job passes: --namespace (objects without one go
// there; kubectl refuses those naming another before sending them), and --validate
// warn and ignore (the server creates objects with unknown or duplicate fields,
// warning about each, or silently; kubectl checks less or nothing itself). Each
// variant must reach what it changes: refusals for their namespace, warnings, objects
// created that strict validation refuses.
func TestManifestsMatchKubectlFlags(t *testing.T) {
	u := getUpstream(t)
	files := manifestFiles(t)
	scheme := apischeme.New()
	for _, v := range []struct {
		name  string
		opts  validation.StreamOptions
		least map[string]int
	}{
		{"namespace", validation.StreamOptions{Namespace: "shop"}, map[string]int{"namespace refused": 100, "sent to shop": 300}},
		// Strict creates 856 of the objects.
		{"validate=warn", validation.StreamOptions{FieldValidation: metav1.FieldValidationWarn}, map[string]int{"warnings": 100, "created": 870}},
		{"validate=ignore", validation.StreamOptions{FieldValidation: metav1.FieldValidationIgnore}, map[string]int{"created": 870}},
	} {
		t.Run(v.name, func(t *testing.T) {
			opts := v.opts
			opts.Scheme = scheme
			wants, summary := compareFiles(t, u, files, opts)
			seen := map[string]int{}
			for _, want := range wants {
				for _, e := range want.errors {
					if namespaceRefusal(e) {
						seen["namespace refused"]++
					}
				}
				for i, s := range want.sent {
					if s.namespace == "shop" {
						seen["sent to shop"]++
					}
					if s.status == http.StatusCreated {
						seen["created"]++
					}
					seen["warnings"] += len(want.warnings[i])
				}
			}
			t.Logf("%s; %v", summary, seen)
			for k, least := range v.least {
				if seen[k] < least {
					t.Errorf("%s: %d, want at least %d", k, seen[k], least)
				}
			}
		})
	}
}

// compareFiles compares every file end to end under opts (endToEnd), failing t on
// each disagreement, and returns kubectl's and the server's outcome for each file, in
// order, and a line summing the comparison up.
func compareFiles(t *testing.T, u *upstream, files []string, opts validation.StreamOptions) ([]kubectlOutcome, string) {
	t.Helper()
	wants := make([]kubectlOutcome, len(files))
	var disagreements, reordered, objects int
	for i, path := range files {
		want, n, diff, r, err := endToEnd(t, u, path, opts)
		wants[i], objects, reordered = want, objects+n, reordered+r
		switch {
		case err != nil:
			t.Errorf("%s: %v", path, err)
			disagreements++
		case diff != "":
			t.Errorf("%s disagrees: %s", path, diff)
			disagreements++
		}
	}
	return wants, fmt.Sprintf("%d files, %d results, %d disagreements, %d refusals equal but for upstream's map order",
		len(files), objects, disagreements, reordered)
}

// manifestGateSets are the configurations the hand-written manifests are compared
// under: the four every differential test runs under, and the gates whose
// non-default value changes what the server answers for fields realistic manifests
// use (pod-level resources, restart rules, env files).
var manifestGateSets = gatesets.Standard(
	gatesets.Set{Name: "PodLevelResources=false", Overrides: map[string]bool{"PodLevelResources": false, "PodLevelResourcesFixDefaulting": false, "InPlacePodLevelResourcesVerticalScaling": false, "PodLevelResourcesFixKubeletQOSClass": false, "PodLevelResourceManagers": false}},
	gatesets.Set{Name: "ContainerRestartRules=false", Overrides: map[string]bool{"ContainerRestartRules": false, "RestartAllContainersOnContainerExits": false}},
)

// manifestGateSetChanges is, for the sets other than the defaults, the fewest files
// whose upstream outcome the set changes on today's corpus.
var manifestGateSetChanges = map[string]int{
	gatesets.AllOn.Name: 15, gatesets.BetaOff.Name: 11, gatesets.LifecycleOff.Name: 2,
	"PodLevelResources=false": 3, "ContainerRestartRules=false": 2,
}

// sameOutcome reports whether two runs of kubectl on one file ended alike: the same
// objects answered with the same codes and messages, and the same kubectl errors.
func sameOutcome(a, b kubectlOutcome) bool {
	return slices.Equal(a.sent, b.sent) && slices.Equal(a.errors, b.errors)
}

// TestGeneratedStreamsMatchKubectlAndServer is TestManifestsMatchKubectlAndServer on
// the generated files of TestDecodingMatchesKubectlAndServer (another seed): decoding
// and validation composed, on files nobody wrote by hand.
func TestGeneratedStreamsMatchKubectlAndServer(t *testing.T) {
	u := getUpstream(t)
	g := newGen(seed(t) + 1).withWarnings(seed(t) + 2)
	dir := t.TempDir()
	opts := validation.StreamOptions{Scheme: apischeme.New()}
	outcomes := map[string]int{}
	var disagreements, reordered, objects int
	const files = 500
	for i := range files {
		data := g.stream()
		path := writeFile(t, dir, fmt.Sprintf("m%04d.yaml", i), data)
		want, n, diff, r, err := endToEnd(t, u, path, withFlags(opts, i))
		objects += n
		for _, ws := range want.warnings {
			for _, w := range ws {
				outcomes["server warning"]++
				if !strings.Contains(w, " field ") {
					outcomes["server warning on create"]++
				}
			}
		}
		for _, e := range want.errors {
			if namespaceRefusal(e) {
				outcomes["kubectl namespace refused"]++
			}
		}
		if err != nil {
			t.Errorf("file %d: %v\n%s", i, err, data)
			disagreements++
			continue
		}
		for _, s := range want.sent {
			outcomes[fmt.Sprintf("server %d", s.status)]++
			if !holdsPod(s.kind) {
				outcomes[fmt.Sprintf("no pod %d", s.status)]++
			}
		}
		reordered += r
		if diff != "" {
			disagreements++
			if disagreements <= 10 {
				t.Errorf("file %d disagrees: %s\n--- file ---\n%s", i, diff, data)
			}
		}
	}
	t.Logf("%d files, %d results, %d disagreements, %d refusals equal but for upstream's map order; upstream outcomes: %v",
		files, objects, disagreements, reordered, outcomes)
	for c, least := range map[string]int{"server 201": 50, "server 422": 50, "server 400": 50, "no pod 201": 50, "no pod 400": 20, "server 409": 10, "no pod 409": 1, "server 405": 3, "kubectl namespace refused": 10, "server warning": 10, "server warning on create": 20} {
		if least := runenv.Least(least); outcomes[c] < least {
			t.Errorf("outcome coverage: %q seen %d times, want at least %d", c, outcomes[c], least)
		}
	}
}

// checkManifestCoverage fails when the hand-written manifests stop reaching an
// outcome they reach today: every kind that holds a pod created and (but for the
// rarer PodTemplate and ReplicationController) refused with 422, the server's other
// refusals, and kubectl's own.
func checkManifestCoverage(t *testing.T, files int, outcomes map[string]int) {
	t.Helper()
	if files < 160 {
		t.Errorf("%d manifest files, want at least 160", files)
	}
	want := map[string]int{
		"server 201": 600, "server 422": 140, "server 400": 60,
		"Pod 201": 10, "Deployment 201": 10, "StatefulSet 201": 5, "DaemonSet 201": 5, "Job 201": 3,
		"CronJob 201": 3, "ReplicaSet 201": 1, "ReplicationController 201": 1, "PodTemplate 201": 1,
		"Pod 422": 3, "Deployment 422": 3, "StatefulSet 422": 1, "DaemonSet 422": 1, "Job 422": 1, "CronJob 422": 1,
		"ConfigMap 400": 1, "server 409": 2, "ComponentStatus 405": 3, "kubectl error parsing": 5, "kubectl resource mapping not found": 3, "kubectl error validating": 1,
		"server warnings": 80,
	}
	for k, n := range want {
		if outcomes[k] < n {
			t.Errorf("outcome coverage: %q seen %d times, want at least %d", k, outcomes[k], n)
		}
	}
}

// TestWarningsMatchServerRecorder: with --validate=warn, an object with many unknown
// fields, or long ones, gets the warnings the server's recorder writes (each at most
// once, cut to 256 runes and dropped past 4 Ki runes once they would pass it), on
// every kind the server decodes.
func TestWarningsMatchServerRecorder(t *testing.T) {
	u := getUpstream(t)
	opts := validation.StreamOptions{Scheme: apischeme.New(), FieldValidation: metav1.FieldValidationWarn}
	dir := t.TempDir()
	for _, tc := range []struct {
		name          string
		fields, width int
	}{
		{"a few", 3, 10},
		{"many short", 300, 20},
		{"a few long", 5, 300},
		{"many long", 40, 300},
	} {
		var extra strings.Builder
		for i := range tc.fields {
			fmt.Fprintf(&extra, "  x%04d%s: 1\n", i, strings.Repeat("y", tc.width))
		}
		data := "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n" + extra.String() +
			"  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: c, image: nginx}]}\n" +
			"---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\n" + strings.ReplaceAll(extra.String(), "  x", "x")
		path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml")
		if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		want, _, diff, _, err := endToEnd(t, u, path, opts)
		if err != nil || diff != "" {
			t.Errorf("%s: %v %s", tc.name, err, diff)
			continue
		}
		if len(want.warnings) != 2 || len(want.warnings[0]) == 0 || len(want.warnings[1]) == 0 {
			t.Errorf("%s: warnings %d objects, want 2 with warnings", tc.name, len(want.warnings))
			continue
		}
		// The recorder's limits are reached where the fields are long or many.
		ws := want.warnings[0]
		cut := slices.ContainsFunc(ws, func(w string) bool { return utf8.RuneCountInString(w) == 256 })
		if kept := len(ws); tc.fields*(tc.width+30) > 4096 && !cut && kept == tc.fields {
			t.Errorf("%s: %d of %d warnings kept, cut to 256 runes: %v; want the recorder's truncation", tc.name, kept, tc.fields, cut)
		}
	}
}

// TestManifestsApplyMatchKubectl is TestManifestsMatchKubectlAndServer (default
// gates) for kubectl apply -f against a cluster holding none of the objects
// (StreamOptions.Apply): what kubectl apply does with each object it reads
// (applyFileValidated) against the validating server, and ValidateStream with
// Apply. kubectl apply reads every file before it sends anything, so its errors are
// compared as a set. An object of a name the file created before is patched by
// kubectl: both sides must say so (the workloads tests compare patches). The
// corpus is also compared under --namespace shop and --validate warn and ignore.
func TestManifestsApplyMatchKubectl(t *testing.T) {
	u := getUpstream(t)
	files := manifestFiles(t)
	scheme := apischeme.New()
	for _, v := range []struct{ namespace, directive string }{{"shop", metav1.FieldValidationStrict}, {"", metav1.FieldValidationWarn}, {"", metav1.FieldValidationIgnore}} {
		opts := validation.StreamOptions{Scheme: scheme, Apply: apply.Patcher{}, Namespace: v.namespace, FieldValidation: v.directive}
		bad := 0
		for _, path := range files {
			_, _, diff, err := applyEndToEnd(t, u, path, opts)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			if diff != "" && bad < 5 {
				t.Errorf("--namespace=%q --validate=%s: %s disagrees: %s", v.namespace, v.directive, path, diff)
				bad++
			}
		}
	}
	opts := validation.StreamOptions{Scheme: scheme, Apply: apply.Patcher{}}
	var patched, generateNames, refusedGets int
	outcomes := map[string]int{}
	results, disagreements := applyFiles(t, u, files, opts, func(want kubectlOutcome) {
		for _, s := range want.sent {
			outcomes[fmt.Sprintf("server %d", s.status)]++
			if s.status == patchedStatus {
				patched++
			}
		}
		for _, e := range want.errors {
			switch {
			case strings.Contains(e, "cannot use generate name with apply"):
				generateNames++
			case strings.HasPrefix(e, "error when retrieving current configuration of:"):
				refusedGets++
			}
		}
	})
	t.Logf("%d files, %d results, %d disagreements; %d objects patched, %d generateName refusals, %d GETs client-go refuses; upstream outcomes %v",
		len(files), results, disagreements, patched, generateNames, refusedGets, outcomes)
	if outcomes["server 201"] < 500 || outcomes["server 422"] < 50 || patched == 0 || generateNames == 0 || refusedGets == 0 {
		t.Errorf("the corpus no longer reaches what apply changes: want 500 created, 50 invalid, a patch, a generateName refusal and a GET client-go refuses")
	}
}

// applyFiles compares every file end to end under opts (applyEndToEnd), failing t on
// each disagreement, hands kubectl's and the server's outcome of each file that ran
// to each, and returns the number of results and of disagreeing files.
func applyFiles(t *testing.T, u *upstream, files []string, opts validation.StreamOptions, each func(want kubectlOutcome)) (results, disagreements int) {
	t.Helper()
	for _, path := range files {
		want, n, diff, err := applyEndToEnd(t, u, path, opts)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		results += n
		if diff != "" {
			t.Errorf("%s disagrees: %s", path, diff)
			disagreements++
		}
		each(want)
	}
	return results, disagreements
}

// applyEndToEnd is endToEnd for kubectl apply (opts.Apply set): kubectl apply of
// path against the validating server, and ValidateStream's answer, compared with
// kubectl's errors as a set (kubectl apply reads every file before it sends
// anything).
func applyEndToEnd(t testing.TB, u *upstream, path string, opts validation.StreamOptions) (want kubectlOutcome, n int, diff string, err error) {
	want = u.applyFileValidated(t, path, opts.Namespace, directiveOf(opts))
	got, n, err := oursWith(path, opts)
	if err != nil {
		return want, n, "", err
	}
	slices.Sort(want.errors)
	slices.Sort(got.errors)
	diff, _ = compareValidated(want, got)
	return want, n, diff, nil
}

// TestGeneratedStreamsApplyMatchKubectl is TestManifestsApplyMatchKubectl on 300
// generated files (another seed than the create tests'), a quarter with --namespace
// shop, a fifth each with --validate warn and ignore: what kubectl apply does with
// each object of a cluster holding none of them, against the validating server, and
// ValidateStream with Apply; kubectl's errors compared as a set.
func TestGeneratedStreamsApplyMatchKubectl(t *testing.T) {
	u := getUpstream(t)
	g := newGen(seed(t) + 11).withWarnings(seed(t) + 12)
	dir := t.TempDir()
	scheme := apischeme.New()
	outcomes := map[string]int{}
	var disagreements, objects int
	const files = 300
	for i := range files {
		data := g.stream()
		path := writeFile(t, dir, fmt.Sprintf("a%04d.yaml", i), data)
		o := withFlags(validation.StreamOptions{Scheme: scheme, Apply: apply.Patcher{}}, i)
		want, n, diff, err := applyEndToEnd(t, u, path, o)
		objects += n
		if err != nil {
			t.Errorf("file %d: %v\n%s", i, err, data)
			disagreements++
			continue
		}
		for _, s := range want.sent {
			outcomes[fmt.Sprintf("server %d", s.status)]++
		}
		for _, e := range want.errors {
			outcomes["kubectl "+kubectlErrorClass(e)]++
		}
		if diff != "" {
			disagreements++
			if disagreements <= 10 {
				t.Errorf("file %d disagrees: %s\n--- file ---\n%s", i, diff, data)
			}
		}
	}
	t.Logf("%d files, %d results, %d disagreements; upstream outcomes: %v", files, objects, disagreements, outcomes)
	for c, least := range map[string]int{"server 201": 30, "server 422": 30, "server 400": 30, "server -1": 1} {
		if least := runenv.Least(least); outcomes[c] < least {
			t.Errorf("outcome coverage: %q seen %d times, want at least %d", c, outcomes[c], least)
		}
	}
}

// writeFile writes a generated file into dir under name and returns its path.
func writeFile(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// withFlags returns opts with the kubectl flags the generated file i is read with:
// one file in four with --namespace shop, one in five with --validate=warn and one
// in five with --validate=ignore.
func withFlags(opts validation.StreamOptions, i int) validation.StreamOptions {
	if i%4 == 3 {
		opts.Namespace = "shop"
	}
	switch i % 5 {
	case 3:
		opts.FieldValidation = metav1.FieldValidationWarn
	case 4:
		opts.FieldValidation = metav1.FieldValidationIgnore
	}
	return opts
}

// directiveOf is the fieldValidation kubectl sends for opts.FieldValidation.
func directiveOf(opts validation.StreamOptions) string {
	if opts.FieldValidation == "" {
		return metav1.FieldValidationStrict
	}
	return opts.FieldValidation
}
