// This file lets the package declare functions without bodies: upstream's unexported
// handler helpers, reached with go:linkname (see warnings.go).
