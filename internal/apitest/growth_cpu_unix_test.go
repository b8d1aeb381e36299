//go:build unix

package apitest

import "syscall"

// cpuNanos is the CPU time the process has used so far (user and system, every
// thread: the garbage collector's included), or 0 when it cannot be read. Unlike
// the wall clock, it does not count the time other processes of a busy machine hold
// the CPU.
func cpuNanos() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
