package main

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podlife/podlife"
)

// config is what the command line asks for.
type config struct {
	output          string
	features        podlife.FeatureGates
	allowPrivileged bool
	namespace       string
	fieldValidation string
	live            []string
	crds            []string
	apply           bool
	eachFile        bool
	paths           []string
}

const usageText = `Usage: validate [flags] [PATH ...]

Checks Kubernetes manifests as kubectl create -f (or apply -f: --apply) and a
Kubernetes v1.37.2 API server would: each object is valid, invalid, rejected,
or not checked (kinds that hold no pod, decoded but not validated), with the
warnings the server sends (deprecated labels and annotations, duplicate
environment variables and ports, ...) on the lines they are about. PATH is a file, a directory (read
recursively: *.json, *.yaml, *.yml) or - for standard input; without PATH an
embedded sample is checked.

Flags:
  -o, --output FORMAT        text (default), json (the server's Status per
                             object) or sarif (SARIF 2.1.0 for code scanning)
      --feature-gates LIST   gate overrides as kube-apiserver takes them, e.g.
                             TaintTolerationComparisonOperators=true,EnvFiles=false
      --allow-privileged     allow privileged containers, as kube-apiserver's
                             --allow-privileged (default true, as kubeadm, kind and
                             managed clusters run it); use --allow-privileged=false
                             for a server started without the flag
  -n, --namespace NAME       kubectl's --namespace: objects without a namespace
                             go there; objects naming another one are refused
      --validate=MODE        kubectl's --validate: strict (or true, the
                             default) refuses unknown and duplicate fields, warn
                             creates the object and warns about them, ignore (or
                             false) drops them silently
      --live PATH            the objects the cluster holds (kubectl get -o yaml's
                             output, or the manifests that created them; a
                             file, a directory or -; repeatable): an object with
                             the kind, namespace and name of a live one is
                             checked as kubectl replace -f sends it, as an
                             update of the live object (immutable fields, the
                             update's warnings); the others as creates. Fields
                             of live objects v1.37.2 does not know (a newer
                             cluster's) are dropped; -n applies to them too
      --apply                check as kubectl apply -f sends objects instead of
                             kubectl create -f: an object with the kind,
                             namespace and name of a live one (--live) is sent
                             as the strategic merge patch kubectl computes from
                             its last-applied-configuration annotation, and the
                             live object with the patch applied is checked as an
                             update (what the manifest leaves out is kept); the
                             others are created with that annotation; objects
                             named only by generateName are refused
      --crd PATH             CustomResourceDefinitions the cluster holds
                             (kubectl get crd -o yaml's output, or their
                             manifests; a file, a directory or -; repeatable):
                             objects of the kinds they serve are sent, not
                             refused as kinds the server lacks ("ensure CRDs
                             are installed first"), and not checked
      --each-file            check each file as a kubectl create -f (or apply
                             -f) of its own, against a cluster holding only the
                             --live objects: a name another file created is not
                             refused as "already exists" (the default reads all
                             files as one kubectl create -f, as kubectl -f a -f
                             b and -R do)
  -h, --help                 print this help

Exit status: 0 every object valid or not checked, 1 an object invalid or
rejected, or no object in any file (kubectl: no objects passed to create), 2 a
usage error or a file that cannot be read.
`

// parseFlags reads the command line. ok is false when the program must exit with code.
func parseFlags(args []string, stdout, stderr io.Writer) (cfg config, code int, ok bool) {
	fs := flag.NewFlagSet("validate", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&cfg.output, "o", "text", "")
	fs.StringVar(&cfg.output, "output", "text", "")
	gates := fs.String("feature-gates", "", "")
	fs.BoolVar(&cfg.allowPrivileged, "allow-privileged", true, "")
	fs.StringVar(&cfg.namespace, "n", "", "")
	fs.StringVar(&cfg.namespace, "namespace", "", "")
	validate := validateFlag("strict")
	fs.Var(&validate, "validate", "")
	fs.Func("live", "", func(path string) error {
		cfg.live = append(cfg.live, path)
		return nil
	})
	fs.BoolVar(&cfg.apply, "apply", false, "")
	fs.BoolVar(&cfg.eachFile, "each-file", false, "")
	fs.Func("crd", "", func(path string) error {
		cfg.crds = append(cfg.crds, path)
		return nil
	})
	help := fs.Bool("h", false, "")
	fs.BoolVar(help, "help", false, "")
	usageError := func(msg string) (config, int, bool) {
		fmt.Fprintf(stderr, "validate: %s\n\n%s", msg, usageText)
		return config{}, exitUsage, false
	}
	if err := fs.Parse(args); err != nil {
		return usageError(err.Error())
	}
	if *help {
		fmt.Fprint(stdout, usageText)
		return config{}, exitValid, false
	}
	switch cfg.output {
	case "text", "json", "sarif":
	default:
		return usageError(fmt.Sprintf("unknown output format %q (text, json or sarif)", cfg.output))
	}
	features, err := podlife.ParseFeatureGates(*gates)
	if err != nil {
		return usageError("--feature-gates: " + err.Error())
	}
	cfg.features = features
	if cfg.fieldValidation, err = fieldValidation(string(validate)); err != nil {
		return usageError(err.Error())
	}
	cfg.paths = fs.Args()
	stdinReads := 0
	for _, p := range slices.Concat(cfg.crds, cfg.live, cfg.paths) {
		if p == "-" {
			stdinReads++
		}
	}
	if stdinReads > 1 && (slices.Contains(cfg.live, "-") || slices.Contains(cfg.crds, "-")) {
		return usageError("standard input (-) can be read only once, by one --crd, one --live or one PATH")
	}
	return cfg, 0, true
}

// validateFlag is --validate: its value as written; like kubectl's, the flag alone
// means strict (--validate=warn takes another value).
type validateFlag string

func (v *validateFlag) String() string     { return string(*v) }
func (v *validateFlag) Set(s string) error { *v = validateFlag(s); return nil }
func (v *validateFlag) IsBoolFlag() bool   { return true }

// fieldValidation reads --validate as kubectl does (kubectl pkg/cmd/util
// GetValidationDirective): a boolean, or strict, warn or ignore.
func fieldValidation(value string) (string, error) {
	if b, err := strconv.ParseBool(value); err == nil {
		if b {
			return metav1.FieldValidationStrict, nil
		}
		return metav1.FieldValidationIgnore, nil
	}
	switch value {
	case "strict":
		return metav1.FieldValidationStrict, nil
	case "warn":
		return metav1.FieldValidationWarn, nil
	case "ignore":
		return metav1.FieldValidationIgnore, nil
	}
	return "", fmt.Errorf("invalid - validate option %q; must be one of: strict (or true), warn, ignore (or false)", value)
}
