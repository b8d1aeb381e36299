package lifecycleplan

import (
	"os"
	"testing"

	"github.com/go-logr/logr"
	"k8s.io/klog/v2"
)

func klogDiscard() klog.Logger { return logr.Discard() }

func TestMain(m *testing.M) {
	// Upstream logs every missing resize checkpoint; the fake manager has none.
	klog.SetLogger(logr.Discard())
	os.Exit(m.Run())
}
