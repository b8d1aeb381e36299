package validation

import (
	"os"
	"testing"

	"github.com/go-logr/logr"
	"k8s.io/klog/v2"
)

func TestMain(m *testing.M) {
	// The API server logs what it does not answer with: declarative-validation
	// mismatch reports, errors that are not API statuses. Neither is compared.
	klog.SetLogger(logr.Discard())
	os.Exit(m.Run())
}
