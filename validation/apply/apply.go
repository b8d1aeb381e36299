package apply

import (
	"net/http"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/mergepatch"
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
// strategic merge patch to a stored object's fields, or the server's error (see
// validation.StrategicPatcher). current, which must hold JSON values only (as
// encoding/json and runtime.DefaultUnstructuredConverter make them), is left as it
// is (the merge works on a copy); patch may be changed, as the server's merge
// changes it (its directives are consumed), which shows in the server's messages
// that quote the patch afterwards.
func (Patcher) ApplyPatch(current, patch map[string]any, schema runtime.Object) (map[string]any, error) {
	merged, err := strategicpatch.StrategicMergeMapPatch(runtime.DeepCopyJSON(current), patch, schema)
	return merged, refusal(err)
}

// refusal is the patch handler's answer to an error of the merge
// (k8s.io/apiserver pkg/endpoints/handlers/patch.go interpretStrategicMergePatchError):
// a malformed patch is a 400, a list of lists or a patch that does not match its
// retainKeys a 422 without causes; any other error is returned as it is (the
// server's 500).
func refusal(err error) error {
	switch err {
	case mergepatch.ErrBadJSONDoc, mergepatch.ErrBadPatchFormatForPrimitiveList, mergepatch.ErrBadPatchFormatForRetainKeys,
		mergepatch.ErrBadPatchFormatForSetElementOrderList, mergepatch.ErrUnsupportedStrategicMergePatchFormat:
		return apierrors.NewBadRequest(err.Error())
	case mergepatch.ErrNoListOfLists, mergepatch.ErrPatchContentNotMatchRetainKeys:
		return apierrors.NewGenericServerResponse(http.StatusUnprocessableEntity, "", schema.GroupResource{}, "", err.Error(), 0, false)
	}
	return err
}
