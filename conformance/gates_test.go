package conformance

import (
	"testing"

	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/component-base/featuregate"
	_ "k8s.io/kubernetes/pkg/features"

	"github.com/podlife/podlife"
)

// TestKnownGatesMatchUpstream checks the generated gate table against the gates a
// v1.37.2 server registers.
func TestKnownGatesMatchUpstream(t *testing.T) {
	all := utilfeature.DefaultFeatureGate.(featuregate.MutableVersionedFeatureGate).GetAll()
	for name, spec := range all {
		ours, ok := podlife.LookupFeatureGate(string(name))
		if !ok {
			t.Errorf("%s: missing from podlife's table", name)
			continue
		}
		if ours.Default != spec.Default || ours.LockToDefault != spec.LockToDefault || ours.PreRelease != string(spec.PreRelease) {
			t.Errorf("%s: podlife %+v, upstream %+v", name, ours, spec)
		}
	}
}
