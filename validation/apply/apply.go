package apply

import (
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/podlife/podlife/validation"
)

// Patcher is kubectl apply's and the API server's strategic merge patch. The zero
// value is ready to use and holds no state, so one value can serve many streams
// at once.
type Patcher struct{}

var _ validation.StrategicPatcher = Patcher{}

// CreateThreeWayPatch returns the patch kubectl apply sends: the fields of modified
// that differ from current, and the deletion of those original had and modified
// lacks, with lists merged by the patch strategies of schema's Go type (kubectl
// without the server's OpenAPI; the built-in kinds' OpenAPI carries the same
// strategies).
func (Patcher) CreateThreeWayPatch(original, modified, current []byte, schema runtime.Object) ([]byte, error) {
	lookup, err := strategicpatch.NewPatchMetaFromStruct(schema)
	if err != nil {
		return nil, err
	}
	return strategicpatch.CreateThreeWayMergePatch(original, modified, current, lookup, true)
}

// ApplyPatch returns current with patch applied, as the API server applies a
// strategic merge patch to a stored object's fields. current, which must hold JSON
// values only (as encoding/json and runtime.DefaultUnstructuredConverter make them),
// is left as it is (the merge works on a copy); patch may be changed, as the server's merge changes it
// (its directives are consumed), which shows in the server's messages that quote the
// patch afterwards.
func (Patcher) ApplyPatch(current, patch map[string]any, schema runtime.Object) (map[string]any, error) {
	return strategicpatch.StrategicMergeMapPatch(runtime.DeepCopyJSON(current), patch, schema)
}
