// Command genserved writes the main module's table of the kinds a default Kubernetes
// v1.37.2 kube-apiserver serves (validation/zz_generated_served.go), from upstream's
// discovery documents (api/discovery, generated with every API and gate on) filtered
// by the API groups and versions enabled by default (controlplane and apiextensions
// DefaultAPIResourceConfigSource; kube-aggregator serves apiregistration.k8s.io/v1).
// Run it from the conformance directory:
// go run ./internal/genserved > ../validation/zz_generated_served.go
package main

import (
	"fmt"
	"os"

	"github.com/podlife/podlife/conformance/internal/served"
)

func main() {
	src, err := served.Generate()
	if err != nil {
		fmt.Fprintln(os.Stderr, "genserved:", err)
		os.Exit(1)
	}
	os.Stdout.Write(src)
}
