// Package concurrency holds no code: its test calls every exported function of the
// module's public packages from many goroutines on shared inputs (run it under
// -race), and checks that every answer equals the sequential one, whatever the
// number of goroutines and GOMAXPROCS, and that no input changes.
package concurrency
