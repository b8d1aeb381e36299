package lifecycle_test

import (
	"fmt"
	"time"

	"github.com/podlife/podlife/lifecycle"
)

// myapp-pod's start in virtual time: each init container runs a few seconds, then the
// app crashes twice and enters CrashLoopBackOff.
func ExampleSimulate() {
	pod := myappPod()
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	pod.CreationTimestamp.Time = start
	tl := lifecycle.Simulate(pod, lifecycle.Script{
		"init-myservice":  {Runs: []lifecycle.Run{{Duration: 3 * time.Second}}},
		"init-mydb":       {Runs: []lifecycle.Run{{Duration: 2 * time.Second}}},
		"myapp-container": {Runs: []lifecycle.Run{{Duration: 4 * time.Second, ExitCode: 1}}},
	}, lifecycle.SimulateOptions{Start: start, MaxDuration: 30 * time.Second})
	for _, s := range tl.Steps {
		fmt.Printf("%2.0fs %-8s %-17s %-4s %s\n", s.Time.Sub(start).Seconds(), s.Status.Phase, s.Row.Status, s.Row.Ready, s.Row.Restarts)
	}
	fmt.Println(tl.End)
	// Output:
	//  0s Pending  Init:0/2          0/1  0
	//  1s Pending  Init:0/2          0/1  0
	//  3s Pending  Init:1/2          0/1  0
	//  4s Pending  Init:1/2          0/1  0
	//  5s Pending  PodInitializing   0/1  0
	//  6s Running  Running           1/1  0
	//  9s Running  Error             0/1  0
	// 10s Running  Running           1/1  1 (1s ago)
	// 13s Running  Error             0/1  1 (4s ago)
	// 23s Running  CrashLoopBackOff  0/1  1 (10s ago)
	// 24s Running  Running           1/1  2 (11s ago)
	// 27s Running  Error             0/1  2 (14s ago)
	// max-duration
}
