// Command genserved writes the main module's generated tables of what a default
// Kubernetes v1.37.2 kube-apiserver serves: validation/zz_generated_served.go (the
// kinds, from upstream's discovery documents filtered by the versions enabled by
// default) and validation/zz_generated_openapi.go (the OpenAPI v2 models kubectl
// validates Lists with, from upstream's swagger.json cut to the served versions).
// Run it from the conformance directory: go run ./internal/genserved ../validation
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/podlife/podlife/conformance/internal/served"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: genserved DIRECTORY")
		os.Exit(2)
	}
	for name, gen := range map[string]func() ([]byte, error){
		"zz_generated_served.go":  served.Generate,
		"zz_generated_openapi.go": served.GenerateOpenAPI,
	} {
		src, err := gen()
		if err == nil {
			err = os.WriteFile(filepath.Join(os.Args[1], name), src, 0o644)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "genserved: %s: %v\n", name, err)
			os.Exit(1)
		}
	}
}
