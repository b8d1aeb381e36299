package validation

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/podlife/podlife/internal/gates"
)

// TestGatedServedKinds: a kind whose registry a gate holds back (ClusterTrustBundle,
// PodCertificateRequest, StorageVersionMigration) is served under the default gates;
// with its gate off the server neither serves it nor publishes its model, so kubectl
// finds no mapping for it and its client-side checks come down to duplicate keys
// (conformance/decoding TestRandomGateSetsStreamsMatchKubectl compares this with
// kubectl and the server under random gates).
func TestGatedServedKinds(t *testing.T) {
	pcr := "apiVersion: certificates.k8s.io/v1\nkind: PodCertificateRequest\nmetadata: {name: example-pcr}\nspec: {signerName: example.com/signer}\n"
	dup := `[1: duplicate key "team": kubectl keeps only the last value and the API server never sees the others]`
	twice := `{"apiVersion": "certificates.k8s.io/v1", "kind": "ClusterTrustBundle", "metadata": {"name": "ctb", "labels": {"team": "a", "team": "b"}}}`
	for _, tc := range []struct {
		name     string
		in       string
		features gates.FeatureGates
		want     []string
	}{
		{"served by default: the server checks it", pcr, nil, []string{"1.0@1 certificates.k8s.io/v1 PodCertificateRequest default/example-pcr not checked"}},
		{"gate off: no mapping, no model", pcr, gates.FeatureGates{"PodCertificateRequest": false}, []string{
			"1.0@1 certificates.k8s.io/v1 PodCertificateRequest /example-pcr rejected: resource mapping not found for name: \"example-pcr\" namespace: \"\" from \"f.yaml\": no matches for kind \"PodCertificateRequest\" in version \"certificates.k8s.io/v1\"\nensure CRDs are installed first"}},
		{"served: no client-side check", twice, nil, []string{
			"1.0@1 certificates.k8s.io/v1 ClusterTrustBundle /ctb not checked " + dup}},
		{"gate off: kubectl's duplicate-key check", twice, gates.FeatureGates{"ClusterTrustBundle": false}, []string{
			"1.0@1 certificates.k8s.io/v1 ClusterTrustBundle /ctb rejected: error validating \"f.yaml\": error validating data: duplicate key: team; if you choose to ignore these errors, turn validation off with --validate=false " + dup}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, renderAll(tc.in, StreamOptions{Validation: Options{Features: tc.features}}))
		})
	}
}
