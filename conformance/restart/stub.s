// An assembly file lets the bodyless go:linkname declarations of this package compile.
