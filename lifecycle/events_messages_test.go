package lifecycle

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// FuzzEventMessages checks the event message builders on any image, container,
// probe output, duration and size: each message quotes the image as Go (and so the
// kubelet's %q) does, keeps the other parts verbatim, and the pull duration is
// truncated to milliseconds and written twice.
func FuzzEventMessages(f *testing.F) {
	f.Add("busybox:1.28", "init-myservice", "Liveness", "HTTP probe failed with statuscode: 500", int64(1234567891), int64(4264954), true)
	f.Add("", "", "", "", int64(0), int64(-1), false)
	f.Add("registry.example.com/a\"b\n:1", "c", "Startup", "\x00", int64(-5), int64(1<<62), true)
	f.Fuzz(func(t *testing.T, image, container, probe, output string, nanos, size int64, ensure bool) {
		q := strconv.Quote(image)
		if got := MessagePulling(image); got != "Pulling image "+q {
			t.Fatalf("MessagePulling: %q", got)
		}
		d := time.Duration(nanos)
		pulled := MessagePulled(image, d, size)
		ms := d.Truncate(time.Millisecond).String()
		want := "Successfully pulled image " + q + " in " + ms + " (" + ms + " including waiting). Image size: " + strconv.FormatInt(size, 10) + " bytes."
		if pulled != want {
			t.Fatalf("MessagePulled: %q, want %q", pulled, want)
		}
		present := MessageImagePresent(image, ensure)
		if !strings.HasPrefix(present, "Container image "+q+" already present on machine") ||
			strings.HasSuffix(present, " and can be accessed by the pod") != ensure {
			t.Fatalf("MessageImagePresent(%t): %q", ensure, present)
		}
		if got := MessageStopping(container); got != "Stopping container "+container {
			t.Fatalf("MessageStopping: %q", got)
		}
		if got := MessageProbeFailed(probe, output); got != probe+" probe failed: "+output {
			t.Fatalf("MessageProbeFailed: %q", got)
		}
	})
}
