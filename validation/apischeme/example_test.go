package apischeme_test

import (
	"fmt"
	"strings"

	"github.com/podlife/podlife/validation"
	"github.com/podlife/podlife/validation/apischeme"
)

// With apischeme's types, ValidateStream reads a Service as the server does: its
// misspelled targetPort is the server's 400, as in a pod.
func ExampleNew() {
	const manifest = `apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
  ports:
  - port: 80
    targetport: 8080
`
	opts := validation.StreamOptions{Scheme: apischeme.New()}
	for r := range validation.ValidateStream(strings.NewReader(manifest), "web.yaml", opts) {
		fmt.Println(r.Kind, r.Name, r.Verdict)
		fmt.Println(r.Message())
	}
	// Output:
	// Service web rejected
	// Service in version "v1" cannot be handled as a Service: strict decoding error: unknown field "spec.ports[0].targetport"
}
