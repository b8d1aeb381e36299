package decoding

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/podlife/podlife/conformance/internal/gatesets"
	"github.com/podlife/podlife/conformance/internal/runenv"
	"github.com/podlife/podlife/validation"
	"github.com/podlife/podlife/validation/apischeme"
	"github.com/podlife/podlife/validation/apply"
)

// externalManifestsEnv names the directories TestManifestDirsMatchKubectlAndServer
// compares, separated like PATH's entries.
const externalManifestsEnv = "PODLIFE_MANIFESTS"

// TestManifestDirsMatchKubectlAndServer is TestManifestsMatchKubectlAndServer and
// TestManifestsApplyMatchKubectl on manifests the repository does not keep: every
// .yaml, .yml and .json file under the directories PODLIFE_MANIFESTS names (a
// cluster's exported objects, a project's deploy folder, a rendered chart), sent
// with kubectl create under each of manifestGateSets (and the random sets
// PODLIFE_RANDOM_GATES asks for, each against a server serving what its gates leave)
// and with kubectl apply under the default gates, each compared with ValidateStream's
// answer. Without PODLIFE_MANIFESTS it is skipped; with it, a directory holding no
// manifest fails. go test runs in this package's directory, so a relative path
// starts there:
//
//	PODLIFE_MANIFESTS=$PWD/deploy go test -run TestManifestDirs ./decoding
func TestManifestDirsMatchKubectlAndServer(t *testing.T) {
	dirs := filepath.SplitList(os.Getenv(externalManifestsEnv))
	if len(dirs) == 0 {
		t.Skip(externalManifestsEnv + " names no directory of manifests to compare")
	}
	var files []string
	for _, dir := range dirs {
		found := manifestFilesUnder(t, dir, false)
		if len(found) == 0 {
			t.Fatalf("%s=%s: no .yaml, .yml or .json file under %s", externalManifestsEnv, os.Getenv(externalManifestsEnv), dir)
		}
		files = append(files, found...)
	}
	u := getUpstream(t)
	scheme := apischeme.New()
	sets := append(slices.Clone(manifestGateSets), gatesets.RandomSets(runenv.RandomGates(t), runenv.Seed(t, 0))...)
	for _, gs := range sets {
		t.Run("create/"+gs.Name, func(t *testing.T) {
			gatesets.Apply(t, gs)
			u := u
			if strings.HasPrefix(gs.Name, "random ") {
				// A random set may turn off a gate that holds a kind's registry back.
				var err error
				if u, err = newUpstreamWith(gs.Features().Enabled, nil, nil); err != nil {
					t.Fatal(err)
				}
			}
			opts := validation.StreamOptions{Scheme: scheme, Validation: validation.Options{Features: gs.Features()}}
			wants, summary := compareFiles(t, u, files, opts)
			outcomes := map[string]int{}
			for _, want := range wants {
				for _, s := range want.sent {
					outcomes[fmt.Sprintf("%s %d", s.kind, s.status)]++
				}
				for _, e := range want.errors {
					outcomes["kubectl "+kubectlErrorClass(e)]++
				}
			}
			t.Logf("%s; upstream outcomes: %v", summary, outcomes)
		})
	}
	t.Run("apply", func(t *testing.T) {
		opts := validation.StreamOptions{Scheme: scheme, Apply: apply.Patcher{}}
		results, disagreements := applyFiles(t, u, files, opts, func(kubectlOutcome) {})
		t.Logf("%d files, %d results, %d disagreements", len(files), results, disagreements)
	})
}
