package lifecycle_test

import (
	"fmt"
	"time"

	"github.com/podlife/podlife/lifecycle"
)

// Why is myapp-pod still Pending, and when does its crashing init container start
// again? The pod is taken as `kubectl get pod -o yaml` would show it a few seconds after
// init-myservice failed for the third time.
func ExampleExplain() {
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	tl := lifecycle.Simulate(myappPod(), lifecycle.Script{
		"init-myservice": {Runs: []lifecycle.Run{{Duration: 2 * time.Second, ExitCode: 1}}},
	}, lifecycle.SimulateOptions{Start: start, MaxDuration: 40 * time.Second, PresentImages: []string{"busybox:1.28"}})
	live := tl.Pod.DeepCopy()
	last := tl.Steps[len(tl.Steps)-1]
	live.Status = last.Status

	e := lifecycle.Explain(live, last.Time.Add(5*time.Second), lifecycle.Options{})
	fmt.Print(e)
	// Output:
	// Pod default/myapp-pod at 2026-01-01T12:00:43Z
	// Phase: Pending: it is initializing: Initialized is False (ContainersNotInitialized: containers with incomplete status: [init-myservice init-mydb]); init container init-myservice: it exited with code 1 (Error) at 2026-01-01T12:00:38Z; restart decision: exit code 1; pod restartPolicy Always → Restart; the crash-loop back-off (40s) lets the kubelet start it again at 2026-01-01T12:01:18Z
	// Initialized: False (ContainersNotInitialized: containers with incomplete status: [init-myservice init-mydb])
	//   blocked by init container init-myservice: it exited with code 1 (Error) at 2026-01-01T12:00:38Z; restart decision: exit code 1; pod restartPolicy Always → Restart; the crash-loop back-off (40s) lets the kubelet start it again at 2026-01-01T12:01:18Z
	//   blocked by init container init-mydb: it is waiting (PodInitializing)
	// ContainersReady: False (ContainersNotReady: containers with unready status: [myapp-container])
	//   blocked by container myapp-container: it is waiting (PodInitializing)
	// Ready: False (ContainersNotReady: containers with unready status: [myapp-container])
	//   blocked by container myapp-container: it is waiting (PodInitializing)
	// Next: hold back init container init-myservice until 2026-01-01T12:01:18Z (back-off 40s restarting failed container=init-myservice pod=myapp-pod_default(8f1c))
	//   because: hold back init container init-myservice until 2026-01-01T12:01:18Z: CrashLoopBackOff, back-off 40s restarting failed container=init-myservice pod=myapp-pod_default(8f1c)
	// Next start of init-myservice: 2026-01-01T12:01:18Z (in 35s, back-off 40s)
}

// The Events table `kubectl describe pod myapp-pod` shows once the pod runs: the
// kubelet's events as its recorder sends them (RecordEvents), listed as kubectl lists
// them (DescribeEvents).
func ExampleDescribeEvents() {
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	tl := lifecycle.Simulate(myappPod(), lifecycle.Script{
		"init-myservice": {Runs: []lifecycle.Run{{Duration: 18 * time.Second}}, PullTime: 2 * time.Second, ImageSize: 1146369},
		"init-mydb":      {Runs: []lifecycle.Run{{Duration: 15 * time.Second}}},
	}, lifecycle.SimulateOptions{Start: start})
	end := tl.Steps[len(tl.Steps)-1].Time
	fmt.Print(lifecycle.FormatEventTable(lifecycle.DescribeEvents(lifecycle.RecordEvents(tl.Events), end)))
	// Output:
	// Events:
	//   Type    Reason   Age   From     Message
	//   ----    ------   ----  ----     -------
	//   Normal  Pulling  36s   kubelet  spec.initContainers{init-myservice}: Pulling image "busybox:1.28"
	//   Normal  Pulled   34s   kubelet  spec.initContainers{init-myservice}: Successfully pulled image "busybox:1.28" in 2s (2s including waiting). Image size: 1146369 bytes.
	//   Normal  Created  34s   kubelet  spec.initContainers{init-myservice}: Container created
	//   Normal  Started  34s   kubelet  spec.initContainers{init-myservice}: Container started
	//   Normal  Pulled   16s   kubelet  spec.initContainers{init-mydb}: Container image "busybox:1.28" already present on machine and can be accessed by the pod
	//   Normal  Created  16s   kubelet  spec.initContainers{init-mydb}: Container created
	//   Normal  Started  16s   kubelet  spec.initContainers{init-mydb}: Container started
	//   Normal  Pulled   1s    kubelet  spec.containers{myapp-container}: Container image "busybox:1.28" already present on machine and can be accessed by the pod
	//   Normal  Created  1s    kubelet  spec.containers{myapp-container}: Container created
	//   Normal  Started  1s    kubelet  spec.containers{myapp-container}: Container started
}
