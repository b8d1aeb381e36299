package main

import (
	"io"
	"os"
	"strings"
	"testing"
)

// TestRunDefault runs the program's logic on the embedded myapp-pod and checks the
// whole output, so the example cannot rot.
func TestRunDefault(t *testing.T) {
	var b strings.Builder
	if err := run(&b, io.Discard, defaultManifest); err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != wantDefault {
		t.Errorf("output:\n%s\nwant:\n%s", got, wantDefault)
	}
}

// TestRunWorkloads runs it on a file holding a Deployment and a CronJob.
func TestRunWorkloads(t *testing.T) {
	data, err := os.ReadFile("testdata/workloads.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := run(&b, io.Discard, data); err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != wantWorkloads {
		t.Errorf("output:\n%s\nwant:\n%s", got, wantWorkloads)
	}
}

func TestRunErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "no object found"},
		{"---\n---\n", "no object found"},
		{"kind: Service\napiVersion: v1\n", "no Pod or workload with a pod template found"},
		{"kind: Pod\nspec: [1\n", "document 1: "},
	} {
		var b strings.Builder
		err := run(&b, io.Discard, []byte(tc.in))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("run(%q) error = %v, want prefix %q", tc.in, err, tc.want)
		}
	}
}

const wantDefault = `Pod myapp-pod
  QoS class: Burstable
  requests:  cpu 1, memory 64Mi
  limits:    cpu 1, memory 128Mi

REQUESTS  RESULT  OP   TERM                 VALUE     DETAIL
  cpu     1       max  containers           250m      (myapp-container 250m)
                  max  init init-myservice  100m      (no sidecar running)
                  max  init init-mydb       1      *  (no sidecar running)
  memory  64Mi    max  containers           64Mi   *  (myapp-container 64Mi)
                  max  init init-myservice  32Mi      (no sidecar running)
                  max  init init-mydb       64Mi      (no sidecar running)
LIMITS    RESULT  OP   TERM                 VALUE     DETAIL
  cpu     1       max  containers           500m      (myapp-container 500m)
                  max  init init-myservice  100m      (no sidecar running)
                  max  init init-mydb       1      *  (no sidecar running)
  memory  128Mi   max  containers           128Mi  *  (myapp-container 128Mi)
                  max  init init-myservice  32Mi      (no sidecar running)
                  max  init init-mydb       64Mi      (no sidecar running)
`

const wantWorkloads = `Deployment web (a pod of its template)
  QoS class: Burstable
  requests:  cpu 1, memory 256Mi
  limits:    memory 320Mi

REQUESTS  RESULT  OP   TERM           VALUE     DETAIL
  cpu     1       max  containers     600m      (web 500m + proxy 100m)
                  max  init migrate   1      *  (no sidecar running)
                  max  sidecar proxy  100m      (first sidecar)
  memory  256Mi   max  containers     160Mi     (web 128Mi + proxy 32Mi)
                  max  init migrate   256Mi  *  (no sidecar running)
                  max  sidecar proxy  32Mi      (first sidecar)
LIMITS    RESULT  OP   TERM           VALUE     DETAIL
  memory  320Mi   max  containers     320Mi  *  (web 256Mi + proxy 64Mi)
                  max  sidecar proxy  64Mi      (first sidecar)

CronJob report (a pod of its template)
  QoS class: Guaranteed
  requests:  cpu 2, memory 1Gi
  limits:    cpu 2, memory 1Gi

REQUESTS  RESULT  OP   TERM        VALUE     DETAIL
  cpu     2       max  containers  2      *  (report 2)
  memory  1Gi     max  containers  1Gi    *  (report 1Gi)
LIMITS    RESULT  OP   TERM        VALUE     DETAIL
  cpu     2       max  containers  2      *  (report 2)
  memory  1Gi     max  containers  1Gi    *  (report 1Gi)
`

// TestRunSkipsOtherKinds: a Service next to a Pod is skipped with a note, as
// examples/validate skips it, and the Pod is reported.
func TestRunSkipsOtherKinds(t *testing.T) {
	var b, notes strings.Builder
	in := "apiVersion: v1\nkind: Service\nmetadata: {name: web}\n---\n" + string(defaultManifest)
	if err := run(&b, &notes, []byte(in)); err != nil {
		t.Fatal(err)
	}
	if b.String() != wantDefault {
		t.Errorf("output:\n%s", b.String())
	}
	if want := "document 1: skipping Service \"web\": not a Pod or a workload with a pod template\n"; notes.String() != want {
		t.Errorf("notes %q, want %q", notes.String(), want)
	}
}
