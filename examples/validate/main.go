// Command validate checks Kubernetes manifests offline the way `kubectl create -f` (or,
// with --apply, `kubectl apply -f`) and a Kubernetes v1.37.2 API server check them,
// and reports, per object, the server's answer with the file and line it is about:
//
//	deploy.yaml:1: Deployment.apps "web" is invalid:
//	  deploy.yaml:14: spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"
//	pods.yaml:9: Pod "web" is rejected by the server: Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.contianers"
//
// Usage:
//
//	go run ./examples/validate [flags] [PATH ...]
//
// Run it with --help for the flags. A PATH is a file (any name), a directory (read
// recursively; its *.json, *.yaml and *.yml files, in name order, as kubectl -R
// reads them) or "-" for standard input. Without a PATH an embedded sample (one valid
// pod, one invalid) is checked.
//
// Each file is read as kubectl reads it (multi-document YAML, flow style, JSON
// streams, Lists expanded) and each object answered as a v1.37.2 server would
// answer its creation with strict field validation, kubectl's default (--validate=warn
// and --validate=ignore as kubectl takes them; podlife's validation.ValidateStream):
// valid, invalid (422, with each cause on its own line), rejected (by kubectl or by
// the server's decoding: unknown fields, wrong types, kinds or versions not served) or
// not checked (kinds that hold no pod, listed in the summary; those the server decodes
// from k8s.io/api types are decoded, so that a Service's unknown field is rejected
// too). When an error goes away with a feature gate that is off, a hint names the
// gate.
//
// The exit code is 0 when every object is valid or not checked, 1 when one is invalid
// or rejected, 2 on a usage error or a file that cannot be read (which is reported;
// the other files are still checked).
package main

import (
	_ "embed"
	"io"
	"os"

	"github.com/podlife/podlife/validation"
	"github.com/podlife/podlife/validation/apischeme"
)

//go:embed testdata/sample.yaml
var sample []byte

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// Exit codes.
const (
	exitValid   = 0
	exitInvalid = 1
	exitUsage   = 2
)

// run is the program; it returns the exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cfg, code, ok := parseFlags(args, stdout, stderr)
	if !ok {
		return code
	}
	c := &checker{cfg: cfg, stderr: stderr, scheme: apischeme.New(), created: new(validation.CreatedObjects), live: new(validation.StoredObjects)}
	for _, p := range cfg.crds {
		c.readCRDs(p, stdin)
	}
	for _, p := range cfg.live {
		c.readLive(p, stdin)
	}
	if len(cfg.paths) == 0 {
		c.checkData("sample.yaml", sample)
	}
	for _, p := range cfg.paths {
		c.checkPath(p, stdin)
	}
	switch cfg.output {
	case "json":
		writeJSON(stdout, c)
	case "sarif":
		writeSARIF(stdout, c)
	default:
		writeText(stdout, c)
	}
	switch {
	case c.ioErrors > 0:
		return exitUsage
	case c.failed():
		return exitInvalid
	}
	return exitValid
}
