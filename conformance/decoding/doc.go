// Package decoding compares podlife's manifest-stream reading (validation.ValidateStream)
// with what `kubectl create -f FILE` (k8s.io/cli-runtime and k8s.io/kubectl v0.37.2)
// and kube-apiserver v1.37.2's create handler do with the same file, on generated
// files: documents in block and flow YAML and JSON, Lists, unknown fields at every
// depth, duplicate keys, values of the wrong type, missing or damaged apiVersion and
// kind, versions no longer served, syntax errors, byte-order marks and UTF-16.
//
// The upstream side is kubectl's own builder (resource.NewFakeBuilder, Unstructured,
// the --validate=strict validator with its OpenAPI fallback, ContinueOnError, default
// namespace, Flatten) over client-go's discovery REST mapper, fed with upstream's
// discovery documents and OpenAPI v2 document cut to the versions a default server
// serves; its requests go to a fake server that decodes the kinds holding a pod as the
// create handler does (the negotiated StrictSerializer, DecoderToVersion, and
// transformDecodeError reached with go:linkname). The parameter verifier is kubectl's
// OpenAPI v2 one; kubectl tries the v3 one first, which decides the same way for the
// kinds a default server serves.
//
// PODLIFE_SEED varies the generated files; PODLIFE_N raises their number (2,000).
package decoding
