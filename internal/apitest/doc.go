// Package apitest holds no code: its tests exercise the whole public API of the module
// at once. concurrency_test.go calls every exported function from many goroutines on
// shared inputs (run it under -race) and checks that every answer equals the
// sequential one, whatever the number of goroutines and GOMAXPROCS, and that no input
// changes. hostile_test.go feeds every function pods an attacker or a careless
// generator could write (10,000 containers, volumes or restart-rule values, megabyte
// strings, huge quantities, repeated names): no panic, and benchmarks at 1,000 and
// 10,000 that show the cost growing linearly. growth_test.go prints the growth table
// of every function on every shape (TestHostileGrowth, with PODLIFE_GROWTH=1);
// growth_bound_test.go checks, counting bytes and allocations rather than time, that
// the functions which once grew faster than the pod no longer do.
package apitest
