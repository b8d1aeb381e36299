// Command validate checks Kubernetes manifests offline the way a default v1.37.2 API
// server validates them on create, and prints the server's message for each invalid
// object, for example:
//
//	Pod "x" is invalid: [spec.containers[0].image: Required value, ...]
//	Deployment.apps "web" is invalid: spec.template.spec.restartPolicy: Unsupported value: ...
//
// Usage:
//
//	go run ./examples/validate [FILE.yaml | DIRECTORY]
//
// FILE is a YAML or JSON stream of one or more documents; a DIRECTORY is read file by
// file (*.yaml, *.yml, *.json, in name order, not recursively). Without an argument an
// embedded sample (one valid pod, one invalid) is checked.
//
// Pods are validated as created (validation.ValidatePodCreate). For a Deployment,
// ReplicaSet, StatefulSet, DaemonSet, Job, CronJob or PodTemplate the pod template is
// validated (validation.ValidatePodTemplateSpec, with field paths under the template)
// together with the restartPolicy and activeDeadlineSeconds rules the workload puts on
// its template, and a PodTemplate's metadata is validated too; the other fields of a
// workload (selector, replicas, schedule, strategy, its own metadata) are not checked.
// Objects without a namespace are put in "default", as kubectl does. Other kinds are
// skipped with a note on standard error.
//
// The exit code is 0 when every object is valid, 1 when one is invalid, and 2 when the
// input cannot be read or decoded.
package main

import (
	_ "embed"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/podlife/podlife/examples/internal/manifest"
	"github.com/podlife/podlife/validation"
)

//go:embed testdata/sample.yaml
var sample []byte

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is the program; it returns the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) > 1 {
		fmt.Fprintln(stderr, "usage: validate [FILE.yaml | DIRECTORY]")
		return 2
	}
	var inputs []input
	if len(args) == 0 {
		inputs = []input{{name: "", data: sample}}
	} else {
		var err error
		if inputs, err = readInputs(args[0]); err != nil {
			fmt.Fprintf(stderr, "validate: %v\n", err)
			return 2
		}
	}
	invalid := false
	for _, in := range inputs {
		results, err := check(in.data)
		if err != nil {
			if in.name != "" {
				err = fmt.Errorf("%s: %w", in.name, err)
			}
			fmt.Fprintf(stderr, "validate: %v\n", err)
			return 2
		}
		for _, r := range results {
			line := r.message
			if in.name != "" {
				line = in.name + ": " + line
			}
			switch {
			case r.skipped:
				fmt.Fprintln(stderr, line)
			default:
				fmt.Fprintln(stdout, line)
				invalid = invalid || r.invalid
			}
		}
	}
	if invalid {
		return 1
	}
	return 0
}

// input is one file's content; name is empty for the embedded sample.
type input struct {
	name string
	data []byte
}

// readInputs reads a file, or the manifest files of a directory in name order.
func readInputs(path string) ([]input, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		return []input{{name: "", data: data}}, nil
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return nil, err
	}
	var inputs []input
	for _, e := range entries {
		ext := strings.ToLower(filepath.Ext(e.Name()))
		if e.IsDir() || (ext != ".yaml" && ext != ".yml" && ext != ".json") {
			continue
		}
		name := filepath.Join(path, e.Name())
		data, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		inputs = append(inputs, input{name: name, data: data})
	}
	if len(inputs) == 0 {
		return nil, fmt.Errorf("%s: no .yaml, .yml or .json file", path)
	}
	return inputs, nil
}

// result is the verdict on one object.
type result struct {
	message string
	invalid bool
	skipped bool
}

// check validates every object of a YAML or JSON stream.
func check(data []byte) ([]result, error) {
	objects, err := manifest.Decode(data)
	if err != nil {
		return nil, err
	}
	results := make([]result, 0, len(objects))
	for _, o := range objects {
		results = append(results, checkObject(o))
	}
	return results, nil
}

// checkObject validates one object.
func checkObject(o manifest.Object) result {
	opts := validation.Options{}
	switch {
	case o.Pod != nil:
		p := *o.Pod
		if p.Namespace == "" {
			p.Namespace = metav1.NamespaceDefault
		}
		return verdict(o.QualifiedKind(), p.Name, validation.ValidatePodCreate(&p, opts))
	case o.Template == nil:
		return result{message: fmt.Sprintf("skipping %s %q: not a Pod or a workload with a pod template", o.Kind, o.Meta.Name), skipped: true}
	}
	var errs field.ErrorList
	if o.Kind == "PodTemplate" {
		meta := *o.Meta
		if meta.Namespace == "" {
			meta.Namespace = metav1.NamespaceDefault
		}
		errs = apimachineryvalidation.ValidateObjectMeta(&meta, true, apimachineryvalidation.NameIsDNSSubdomain, field.NewPath("metadata"))
	}
	errs = append(errs, validation.ValidatePodTemplateSpec(o.Template, o.TemplatePath, opts)...)
	switch o.Group {
	case "apps":
		errs = append(errs, alwaysRestartRules(o.Template, o.TemplatePath, o.Kind)...)
	case "batch":
		errs = append(errs, jobRestartRules(o.Template, o.TemplatePath)...)
	}
	return verdict(o.QualifiedKind(), o.Meta.Name, errs)
}

// alwaysRestartRules are the template rules of k8s.io/kubernetes pkg/apis/apps/validation:
// apps workloads restart their pods' containers always and have no active deadline.
func alwaysRestartRules(t *corev1.PodTemplateSpec, path *field.Path, kind string) field.ErrorList {
	var errs field.ErrorList
	if rp := restartPolicy(t); rp != corev1.RestartPolicyAlways {
		errs = append(errs, field.NotSupported(path.Child("spec", "restartPolicy"), rp, []string{string(corev1.RestartPolicyAlways)}))
	}
	if t.Spec.ActiveDeadlineSeconds != nil {
		if kind == "Deployment" {
			kind = "ReplicaSet" // Deployments share the ReplicaSet check and its wording.
		}
		errs = append(errs, field.Forbidden(path.Child("spec", "activeDeadlineSeconds"), fmt.Sprintf("activeDeadlineSeconds in %s is not Supported", kind)))
	}
	return errs
}

// jobRestartRules is the template rule of k8s.io/kubernetes pkg/apis/batch/validation:
// a Job's pods restart on failure or never.
func jobRestartRules(t *corev1.PodTemplateSpec, path *field.Path) field.ErrorList {
	switch rp := restartPolicy(t); rp {
	case corev1.RestartPolicyOnFailure, corev1.RestartPolicyNever:
		return nil
	case corev1.RestartPolicyAlways:
		return field.ErrorList{field.Required(path.Child("spec", "restartPolicy"), fmt.Sprintf("valid values: %q, %q", corev1.RestartPolicyOnFailure, corev1.RestartPolicyNever))}
	default:
		return field.ErrorList{field.NotSupported(path.Child("spec", "restartPolicy"), rp, []corev1.RestartPolicy{corev1.RestartPolicyOnFailure, corev1.RestartPolicyNever})}
	}
}

// restartPolicy is the template's restart policy after defaulting ("" becomes Always).
func restartPolicy(t *corev1.PodTemplateSpec) corev1.RestartPolicy {
	if t.Spec.RestartPolicy == "" {
		return corev1.RestartPolicyAlways
	}
	return t.Spec.RestartPolicy
}

// verdict renders errs as k8s.io/apimachinery pkg/api/errors NewInvalid does: the
// qualified kind, the quoted name and the aggregate of the errors (one error bare,
// several in brackets, duplicates once).
func verdict(kind, name string, errs field.ErrorList) result {
	if len(errs) == 0 {
		return result{message: fmt.Sprintf("%s %q is valid", kind, name)}
	}
	return result{message: fmt.Sprintf("%s %q is invalid: %v", kind, name, errs.ToAggregate()), invalid: true}
}
