package decoding

import (
	"fmt"
	"strings"
	"testing"

	"github.com/podlife/podlife/conformance/internal/gatesets"
	"github.com/podlife/podlife/conformance/internal/runenv"
	"github.com/podlife/podlife/validation"
	"github.com/podlife/podlife/validation/apischeme"
)

// gatedKindsFile holds, as a JSON stream (YAML keeps the last of two equal keys, so
// only JSON reaches the duplicate-key checks), one object of each kind whose registry a gate holds back
// (served.gatedResources): with the gate off the server does not serve it, and
// kubectl finds no mapping for it (nor a model: its client-side checks are then
// the duplicate keys of the last object's labels alone).
const gatedKindsFile = `{"apiVersion": "certificates.k8s.io/v1", "kind": "ClusterTrustBundle",
 "metadata": {"name": "example-ctb"}, "spec": {"trustBundle": ""}}
{"apiVersion": "certificates.k8s.io/v1", "kind": "PodCertificateRequest",
 "metadata": {"name": "example-pcr"}, "spec": {"signerName": "example.com/signer"}}
{"apiVersion": "storagemigration.k8s.io/v1", "kind": "StorageVersionMigration",
 "metadata": {"name": "example-svm"}, "spec": {"resource": {"group": "apps", "resource": "deployments"}}}
{"apiVersion": "certificates.k8s.io/v1", "kind": "ClusterTrustBundle",
 "metadata": {"name": "twice-labelled", "labels": {"team": "a", "team": "b"}}, "spec": {"trustBundle": ""}}
`

// TestRandomGateSetsStreamsMatchKubectl is TestGeneratedStreamsMatchKubectlAndServer
// under a cluster with the three registry gates off and random clusters
// (gatesets.RandomSets): for each, a server whose discovery
// leaves out the resources whose gate the set turns off, kubectl's REST mapper built
// from it, and generated files (every served kind among them, those behind a gate
// included) plus gatedKindsFile, each compared end to end with ValidateStream given
// the set's gates. It asserts that some gated kind was created under one set and
// refused for want of a mapping under another.
func TestRandomGateSetsStreamsMatchKubectl(t *testing.T) {
	// 40 files per set, scaled as PODLIFE_N scales TestDecodingMatchesKubectlAndServer's.
	const sets = 12
	files := runenv.Scale(runenv.Count(t, streams, streams), streams, 40, 40)
	g := newGen(seed(t) + 21).withWarnings(seed(t) + 22)
	dir := t.TempDir()
	scheme := apischeme.New()
	outcomes := map[string]int{}
	// The three registry gates off together first (and the projection of trust
	// bundles, which needs theirs), so that every seed reaches the outcomes asserted
	// below; then the random sets.
	off := gatesets.Set{Name: "registry gates off", Overrides: map[string]bool{"ClusterTrustBundle": false, "ClusterTrustBundleProjection": false, "PodCertificateRequest": false, "StorageVersionMigrator": false}}
	for _, gs := range append([]gatesets.Set{off}, gatesets.RandomSets(sets, uint64(seed(t))+23)...) {
		t.Run(gs.Name, func(t *testing.T) {
			gatesets.Apply(t, gs)
			u, err := newUpstreamWith(gs.Features().Enabled, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			opts := validation.StreamOptions{Scheme: scheme, Validation: validation.Options{Features: gs.Features()}}
			paths := []string{writeFile(t, dir, "gated.json", []byte(gatedKindsFile))}
			for i := range files {
				paths = append(paths, writeFile(t, dir, fmt.Sprintf("r%04d.yaml", i), g.stream()))
			}
			disagreements := 0
			for i, path := range paths {
				want, _, diff, _, err := endToEnd(t, u, path, withFlags(opts, i))
				if err != nil {
					t.Fatalf("%s: %v", path, err)
				}
				if diff != "" {
					disagreements++
					if disagreements <= 5 {
						t.Errorf("%s disagrees under %s: %s", path, gs.Flag(), diff)
					}
				}
				if i == 0 {
					for _, s := range want.sent {
						outcomes[fmt.Sprintf("gated %d", s.status)]++
					}
					for _, e := range want.errors {
						switch {
						case strings.HasPrefix(e, "resource mapping not found"):
							outcomes["gated mapping not found"]++
						case strings.HasPrefix(e, "error validating"):
							outcomes["gated error validating"]++
						}
					}
				}
			}
		})
	}
	t.Logf("%d random gate sets and one with the registry gates off × %d files; the gated kinds' outcomes: %v", sets, files+1, outcomes)
	if outcomes["gated 201"] == 0 || outcomes["gated mapping not found"] == 0 || outcomes["gated error validating"] == 0 {
		t.Errorf("no gated kind created under one set, unmapped and refused by kubectl's duplicate-key check under another: %v", outcomes)
	}
}
