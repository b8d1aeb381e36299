package speed

import (
	"syscall"
	"time"
	"unsafe"
)

// clockThreadCPUTime is CLOCK_THREAD_CPUTIME_ID.
const clockThreadCPUTime = 3

// cpuTime is the calling thread's CPU time, 0 if it cannot be read; the caller keeps
// its goroutine locked to the thread between two readings.
func cpuTime() time.Duration {
	var ts syscall.Timespec
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		return 0 // no reading: the round is dropped
	}
	return time.Duration(ts.Nano())
}
