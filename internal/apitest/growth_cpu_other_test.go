//go:build !unix

package apitest

// cpuNanos is not measured on this system: the growth table shows 0 for CPU time.
func cpuNanos() int64 { return 0 }
