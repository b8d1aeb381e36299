package decoding

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/podlife/podlife/conformance/internal/runenv"
	"github.com/podlife/podlife/conformance/internal/upstreamcreate"
	"github.com/podlife/podlife/validation"
)

// seed returns PODLIFE_SEED or a fixed default.
func seed(t *testing.T) int64 {
	if s := os.Getenv("PODLIFE_SEED"); s != "" {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t.Fatalf("PODLIFE_SEED: %v", err)
		}
		return v
	}
	return 9
}

// streams is how many generated files one run compares unless PODLIFE_N raises it.
const streams = 2000

// ours runs ValidateStream on a file, decoding only, and splits its results as
// kubectlOutcome does: the objects sent to the server with its answer, and kubectl's
// errors. Results after a document at which kubectl stops reading are left out.
func ours(path string) (kubectlOutcome, int, error) {
	return oursWith(path, validation.StreamOptions{DecodeOnly: true})
}

// oursWith is ours with the given options; with validation (DecodeOnly false) it also
// records the validation errors of each Invalid object, beside its answer.
func oursWith(path string, opts validation.StreamOptions) (kubectlOutcome, int, error) {
	f, err := os.Open(path)
	if err != nil {
		return kubectlOutcome{}, 0, err
	}
	defer f.Close()
	var out kubectlOutcome
	n := 0
results:
	for r := range validation.ValidateStream(f, path, opts) {
		n++
		var ke *validation.KubectlError
		switch {
		case r.Update && opts.Apply != nil:
			// A patch of what the file created before (see applyFileValidated).
			out.sent = append(out.sent, sentObject{kind: r.Kind, namespace: r.Namespace, name: r.Name, status: patchedStatus})
			out.causes = append(out.causes, nil)
			out.warnings = append(out.warnings, nil)
		case errors.As(r.Err, &ke):
			out.errors = append(out.errors, ke.Message)
			if ke.Stops {
				break results
			}
		case r.Status() != nil:
			st := r.Status().ErrStatus
			out.sent = append(out.sent, sentObject{kind: r.Kind, namespace: r.Namespace, name: r.Name, status: int(st.Code), message: st.Message})
			out.causes = append(out.causes, r.Errors)
			out.warnings = append(out.warnings, upstreamcreate.ServerWarnings(r))
		case r.Err != nil:
			return out, n, fmt.Errorf("unexpected error %v", r.Err)
		default:
			out.sent = append(out.sent, sentObject{kind: r.Kind, namespace: r.Namespace, name: r.Name, status: 201})
			out.causes = append(out.causes, nil)
			out.warnings = append(out.warnings, upstreamcreate.ServerWarnings(r))
		}
	}
	kubectlOrder(out.errors)
	return out, n, nil
}

// kubectlOrder puts kubectl's errors in the order it prints them, from the order
// ValidateStream reports them in (each at its object): its builder's decorating
// visitor refuses an object naming another namespace than --namespace while visiting,
// and a create that fails before any response is refused as it is visited, but the errors of reading the files (parsing, mapping, client-side validation) are
// collected by the visitor list beneath it and come after all of those
// (k8s.io/cli-runtime pkg/resource builder.go visitorResult, visitor.go
// EagerVisitorList, ContinueOnErrorVisitor).
func kubectlOrder(errs []string) {
	rank := func(msg string) int {
		if namespaceRefusal(msg) || strings.HasPrefix(msg, "error when creating ") {
			return 0
		}
		return 1
	}
	slices.SortStableFunc(errs, func(a, b string) int { return cmp.Compare(rank(a), rank(b)) })
}

// namespaceRefusal reports whether a kubectl error is its refusal of an object naming
// another namespace than --namespace.
func namespaceRefusal(msg string) bool {
	return strings.HasPrefix(msg, "the namespace from the provided object ")
}

// TestDecodingMatchesKubectlAndServer generates manifest files and compares, file by
// file, what ValidateStream answers with what kubectl create -f and the server's
// decoding answer: the same objects sent, in order, with the same namespace, name and
// server answer (status code and message), and the same kubectl errors, in order.
func TestDecodingMatchesKubectlAndServer(t *testing.T) {
	u := getUpstream(t)
	g := newGen(seed(t))
	dir := t.TempDir()
	outcomes := map[string]int{}
	var disagreements, objects int
	files := runenv.Count(t, streams, streams)
	for i := range files {
		data := g.stream()
		path := writeFile(t, dir, fmt.Sprintf("m%04d.yaml", i), data)
		want := u.createFile(path)
		got, n, err := ours(path)
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
		if diff := compare(want, got); diff != "" {
			disagreements++
			if disagreements <= 10 {
				t.Errorf("file %d disagrees: %s\n--- file ---\n%s", i, diff, data)
			}
		}
	}
	t.Logf("%d files, %d results, %d disagreements; generated: %s", files, objects, disagreements, g.report())
	t.Logf("upstream outcomes: %v", outcomes)
	checkCoverage(t, g.coverage, outcomes)
}

// compare describes the first difference between two outcomes, "" when they agree.
func compare(want, got kubectlOutcome) string {
	for i := 0; i < max(len(want.sent), len(got.sent)); i++ {
		switch {
		case i >= len(want.sent):
			return fmt.Sprintf("object %d: ours sends %+v, kubectl does not", i, got.sent[i])
		case i >= len(got.sent):
			return fmt.Sprintf("object %d: kubectl sends %+v, ours does not", i, want.sent[i])
		case want.sent[i] != got.sent[i]:
			return fmt.Sprintf("object %d:\n kubectl %+v\n ours    %+v", i, want.sent[i], got.sent[i])
		}
	}
	for i := 0; i < max(len(want.errors), len(got.errors)); i++ {
		switch {
		case i >= len(want.errors):
			return fmt.Sprintf("error %d: ours %q, kubectl none", i, got.errors[i])
		case i >= len(got.errors):
			return fmt.Sprintf("error %d: kubectl %q, ours none", i, want.errors[i])
		case want.errors[i] != got.errors[i]:
			return fmt.Sprintf("error %d:\n kubectl %q\n ours    %q", i, want.errors[i], got.errors[i])
		}
	}
	return ""
}

// kubectlErrorClass names the kind of a kubectl error by its wording.
func kubectlErrorClass(msg string) string {
	if strings.HasPrefix(msg, "error validating") && strings.Contains(msg, "ValidationError(") {
		return "error validating (OpenAPI)"
	}
	for _, prefix := range []string{"error parsing", "error validating", "unable to decode", "resource mapping not found", "unable to recognize", "unable to get type info", "error when creating"} {
		if strings.HasPrefix(msg, prefix) {
			return prefix
		}
	}
	return "other"
}

// checkCoverage fails when the generator missed a category or the upstream outcomes
// a class, so that a change to the generator cannot quietly shrink what is compared.
func checkCoverage(t *testing.T, generated, outcomes map[string]int) {
	t.Helper()
	wantGenerated := []string{
		"kind/Pod", "kind/Deployment", "kind/StatefulSet", "kind/DaemonSet", "kind/Job", "kind/CronJob",
		"kind/ReplicationController", "kind/PodTemplate", "kind/Service", "kind/ConfigMap",
		"kind/other served", "kind/ComponentStatus", "unknown field at depth 0", "unknown field at depth 1", "unknown field at depth 2", "unknown field at depth 3",
		"unknown field at depth 4", "unknown field at depth 5",
		"duplicate key", "wrong type", "metadata", "numbers", "status", "items on an object",
		"namespace not a path segment", "conversion annotation",
		"apiVersion missing", "kind missing", "apiVersion not a string", "kind not a string", "version not served",
		"another group", "kind spelling", "apiVersion malformed", "apiVersion without version", "kind empty", "key case",
		"list/List", "list/PodList", "list/DeploymentList", "list/apps List", "list/nested",
		"format/block", "format/flow", "format/JSON stream", "format/JSON document in YAML", "format/JSON tail", "format/broken or empty",
		"encoding/CRLF", "encoding/UTF-8 BOM", "encoding/UTF-16LE", "encoding/invalid UTF-8",
	}
	for _, c := range wantGenerated {
		if least := runenv.Least(5); generated[c] < least {
			t.Errorf("generator coverage: %q generated %d times, want at least %d", c, generated[c], least)
		}
	}
	for _, c := range []string{"server 201", "server 400", "server 404", "kubectl error parsing", "kubectl error validating",
		"kubectl error validating (OpenAPI)", "kubectl unable to decode",
		"kubectl resource mapping not found", "kubectl unable to recognize", "kubectl unable to get type info", "kubectl error when creating"} {
		if least := runenv.Least(3); outcomes[c] < least {
			t.Errorf("outcome coverage: %q seen %d times, want at least %d", c, outcomes[c], least)
		}
	}
}
