// This file lets the package declare functions without bodies: upstream's unexported
// controller helpers, reached with go:linkname (see podfromobject_test.go).
