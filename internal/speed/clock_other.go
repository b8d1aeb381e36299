//go:build !linux

package speed

import "time"

var epoch = time.Now()

// cpuTime falls back to the wall clock where no thread CPU clock is read.
func cpuTime() time.Duration { return time.Since(epoch) }
