package apply

import (
	"errors"
	"net/http"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/mergepatch"
)

// TestRefusal checks the patch handler's answers to the merge's errors
// (interpretStrategicMergePatchError): 400 for a malformed patch, a 422 without
// causes for a list of lists or retainKeys not matching, anything else as it is.
func TestRefusal(t *testing.T) {
	tests := []struct {
		err     error
		code    int32
		reason  string
		message string
	}{
		{mergepatch.ErrBadJSONDoc, http.StatusBadRequest, "BadRequest", "invalid JSON document"},
		{mergepatch.ErrBadPatchFormatForSetElementOrderList, http.StatusBadRequest, "BadRequest", "invalid patch format of setElementOrder list"},
		// apimachinery's generic 422 keeps none of the merge's words.
		{mergepatch.ErrNoListOfLists, http.StatusUnprocessableEntity, "Invalid", "the server rejected our request due to an error in our request"},
		{mergepatch.ErrPatchContentNotMatchRetainKeys, http.StatusUnprocessableEntity, "Invalid", "the server rejected our request due to an error in our request"},
	}
	for _, tt := range tests {
		var se *apierrors.StatusError
		if !errors.As(refusal(tt.err), &se) {
			t.Fatalf("%v: not a status", tt.err)
		}
		if st := se.ErrStatus; st.Code != tt.code || string(st.Reason) != tt.reason || st.Message != tt.message || (st.Details != nil && len(st.Details.Causes) > 0) {
			t.Errorf("%v: %d %s %q %+v", tt.err, st.Code, st.Reason, st.Message, st.Details)
		}
	}
	other := errors.New("the order in patch list")
	if got := refusal(other); got != other {
		t.Errorf("another error became %v", got)
	}
	if refusal(nil) != nil {
		t.Error("no error became one")
	}
}
