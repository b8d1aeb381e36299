// Package apitest holds no code: its tests exercise the whole public API of the module
// at once. concurrency_test.go calls every exported function from many goroutines on
// shared inputs (run it under -race) and checks that every answer equals the
// sequential one, whatever the number of goroutines and GOMAXPROCS, and that no input
// changes. hostile_test.go feeds every function pods an attacker or a careless
// generator could write (10,000 containers, volumes or restart-rule values, megabyte
// strings, huge quantities, repeated names): no panic, and benchmarks at 1,000 and
// 10,000 that show the cost growing linearly.
package apitest
