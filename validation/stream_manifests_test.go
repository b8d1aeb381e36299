package validation

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/podlife/podlife/internal/gates"
	"github.com/podlife/podlife/validation/apischeme"
)

var updateVerdicts = flag.Bool("update", false, "rewrite testdata/manifests/verdicts.golden from ValidateStream's answers")

// manifestsDir holds realistic manifests written by hand, modelled on the Kubernetes
// documentation's examples (docs/), on what open-source projects and their Helm charts
// ship (projects/), on the rarer PodSpec and workload fields as documentation and KEPs
// show them (specfields/), on what tools generate (tools/: kubectl's dry runs and get
// output, kompose, Helm, kustomize, jsonnet, cdk8s, ...), on what platform teams apply
// (platform/), on damaged pastes (messy/), on saved objects edited by hand (edits/)
// and on fields behind feature gates as their documentation and KEPs show them
// (gated/: each gated object says above it what the server does under the default
// gates, AllAlpha+AllBeta and AllBeta=false), mistakes users make included (each
// marked "# mistake:").
const manifestsDir = "testdata/manifests"

// verdictGateSets are the clusters verdictsText also asks about beside a default one,
// the configurations conformance/decoding compares the same files under: every alpha
// and beta gate on, every beta gate off, the kubelet gates flipped, pod-level
// resources off, restart rules off.
var verdictGateSets = []struct {
	name  string
	gates gates.FeatureGates
}{
	{"AllAlpha+AllBeta", gates.FeatureGates{"AllAlpha": true, "AllBeta": true}},
	{"AllBeta=false", gates.FeatureGates{"AllBeta": false}},
	{"lifecycle gates flipped", gates.FeatureGates{"ContainerRestartRules": false, "RestartAllContainersOnContainerExits": false, "KubeletCrashLoopBackOffMax": false, "ReduceDefaultCrashLoopBackOffDecay": true, "ChangeContainerStatusOnKubeletRestart": true}},
	{"PodLevelResources=false", gates.FeatureGates{"PodLevelResources": false, "PodLevelResourcesFixDefaulting": false, "InPlacePodLevelResourcesVerticalScaling": false, "PodLevelResourcesFixKubeletQOSClass": false, "PodLevelResourceManagers": false}},
	{"ContainerRestartRules=false", gates.FeatureGates{"ContainerRestartRules": false, "RestartAllContainersOnContainerExits": false}},
}

// verdictsText renders ValidateStream's answers, with apischeme's types, for every
// file of manifestsDir, one object a line (file, line, kind, name, namespace,
// verdict, the answer's message quoted), warnings below their object, and below
// those the answer under each of verdictGateSets that differs from the default
// cluster's. It also counts the default verdicts, and the objects some gate set
// answers otherwise.
func verdictsText(t *testing.T) (text string, counts map[Verdict]int, gated int) {
	t.Helper()
	var files []string
	for _, pattern := range []string{"*/*.yaml", "*/*.json"} {
		m, err := filepath.Glob(filepath.Join(manifestsDir, pattern))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	slices.Sort(files)
	var b strings.Builder
	counts = map[Verdict]int{}
	opts := StreamOptions{Scheme: apischeme.New()}
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.ToSlash(strings.TrimPrefix(path, manifestsDir+string(filepath.Separator)))
		// Each stream sends the same objects under every gate set: gates change
		// answers, not decoding.
		others := make([][]ObjectResult, len(verdictGateSets))
		for i, gs := range verdictGateSets {
			o := opts
			o.Validation.Features = gs.gates
			others[i] = slices.Collect(ValidateStream(bytes.NewReader(data), name, o))
		}
		n := 0
		for r := range ValidateStream(bytes.NewReader(data), name, opts) {
			counts[r.Verdict]++
			fmt.Fprintf(&b, "%s:%d %s/%s ns=%q %s", name, r.Line, r.Kind, r.Name, r.Namespace, r.Verdict)
			if msg := r.Message(); msg != "" {
				fmt.Fprintf(&b, " %q", msg)
			}
			b.WriteByte('\n')
			for _, w := range r.Warnings {
				fmt.Fprintf(&b, "\twarning %d: %q\n", w.Line, w.Message)
			}
			differs := false
			for i, gs := range verdictGateSets {
				if n >= len(others[i]) {
					t.Fatalf("%s: %d objects under %s, more by default", name, len(others[i]), gs.name)
				}
				o := others[i][n]
				if o.Verdict != r.Verdict || o.Message() != r.Message() {
					differs = true
					fmt.Fprintf(&b, "\tunder %s: %s", gs.name, o.Verdict)
					if msg := o.Message(); msg != "" {
						fmt.Fprintf(&b, " %q", msg)
					}
					b.WriteByte('\n')
				}
			}
			if differs {
				gated++
			}
			n++
		}
		for i, gs := range verdictGateSets {
			if len(others[i]) != n {
				t.Fatalf("%s: %d objects under %s, %d by default", name, len(others[i]), gs.name, n)
			}
		}
	}
	return b.String(), counts, gated
}

// TestManifestVerdicts holds ValidateStream's answers on the realistic manifests to
// verdicts.golden. The golden file is not podlife's opinion: conformance/decoding
// TestManifestsMatchKubectlAndServer compares the same answers with kubectl create -f
// against upstream's create path, so a change here that the conformance test accepts
// is a change upstream would make too. Rewrite it with go test -run
// TestManifestVerdicts -update.
func TestManifestVerdicts(t *testing.T) {
	got, counts, gated := verdictsText(t)
	golden := filepath.Join(manifestsDir, "verdicts.golden")
	if *updateVerdicts {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range max(len(gl), len(wl)) {
			var g, w string
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Fatalf("line %d of verdicts.golden:\n got  %s\n want %s", i+1, g, w)
			}
		}
	}
	// The corpus must keep reaching every verdict, refusals of both kinds included.
	for v, least := range map[Verdict]int{Valid: 300, Invalid: 130, Rejected: 130, NotChecked: 300} {
		if counts[v] < least {
			t.Errorf("%d objects %s, want at least %d", counts[v], v, least)
		}
	}
	// And some answers must depend on the gates, or the sets ask nothing.
	if least := 50; gated < least {
		t.Errorf("%d objects answered otherwise under some gate set, want at least %d", gated, least)
	}
}
