package lifecycle

import (
	"testing"
	"unsafe"

	corev1 "k8s.io/api/core/v1"
)

// TestClassesMessagePrev checks that message returns the previous condition's
// message itself when it is the message (no new string), and the message otherwise,
// for messages of each shape.
func TestClassesMessagePrev(t *testing.T) {
	init := []corev1.Container{{Name: "init-a"}, {Name: "init-b"}}
	regular := []corev1.Container{{Name: "app"}, {Name: "web"}}
	for _, tc := range []struct {
		name    string
		classes []uint8 // init, then regular
		want    string
	}{
		{"unknown only", []uint8{classUnknown, classNone, classUnknown, classNone}, "containers with unknown status: [init-a app]"},
		{"other only", []uint8{classNone, classOther, classNone, classOther}, "containers with unready status: [init-b web]"},
		{"both", []uint8{classUnknown, classOther, classOther, classUnknown}, "containers with unknown status: [init-a web], containers with unready status: [init-b app]"},
		{"none", []uint8{classNone, classNone, classNone, classNone}, ""},
	} {
		var c classes
		c.reset(len(tc.classes))
		for i, k := range tc.classes {
			c.set(i, k)
		}
		if got := c.message(init, regular, "unready", ""); got != tc.want {
			t.Errorf("%s: message = %q, want %q", tc.name, got, tc.want)
		}
		if tc.want == "" {
			continue
		}
		prev := string([]byte(tc.want))
		if got := c.message(init, regular, "unready", prev); got != tc.want || unsafe.StringData(got) != unsafe.StringData(prev) {
			t.Errorf("%s: the previous message is not returned itself", tc.name)
		}
		for _, other := range []string{tc.want[:len(tc.want)-1] + "}", "x" + tc.want[1:], tc.want[:len(tc.want)-1], tc.want + "]"} {
			if got := c.message(init, regular, "unready", other); got != tc.want {
				t.Errorf("%s: with previous %q, message = %q, want %q", tc.name, other, got, tc.want)
			}
		}
	}
}
