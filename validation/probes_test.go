package validation

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// Re-expresses upstream Test_validateProbe, TestValidateProbe, TestValidateHandler,
// TestValidateSleepAction, TestValidateStopSignal and the probe/lifecycle rows of
// TestValidateContainers / TestValidateInitContainers.
func init() {
	addFamily("probes",
		createCase{name: "valid probes on container and sidecar", mod: all(
			ctr(func(c *corev1.Container) {
				c.LivenessProbe = execProbe()
				c.ReadinessProbe = httpProbe(intstr.FromString("http"))
				c.ReadinessProbe.SuccessThreshold = 3
				c.StartupProbe = tcpProbe(intstr.FromInt32(80))
			}),
			sidecar(func(c *corev1.Container) {
				c.LivenessProbe = &corev1.Probe{ProbeHandler: corev1.ProbeHandler{GRPC: &corev1.GRPCAction{Port: 9090}}}
				c.ReadinessProbe = execProbe()
				c.StartupProbe = execProbe()
			}),
		)},
		createCase{name: "probe without handler", mod: ctr(func(c *corev1.Container) { c.LivenessProbe = &corev1.Probe{} }), want: []string{
			`spec.containers[0].livenessProbe: Required value: must specify a handler type`,
		}},
		createCase{name: "probe with two handlers", mod: ctr(func(c *corev1.Container) {
			c.ReadinessProbe = execProbe()
			c.ReadinessProbe.TCPSocket = &corev1.TCPSocketAction{Port: intstr.FromInt32(1)}
			c.ReadinessProbe.GRPC = &corev1.GRPCAction{Port: 1}
		}), want: []string{
			`spec.containers[0].readinessProbe.tcpSocket: Forbidden: may not specify more than 1 handler type`,
			`spec.containers[0].readinessProbe.grpc: Forbidden: may not specify more than 1 handler type`,
		}},
		createCase{name: "probe handler faults", mod: ctr(func(c *corev1.Container) {
			c.LivenessProbe = &corev1.Probe{ProbeHandler: corev1.ProbeHandler{Exec: &corev1.ExecAction{}}}
			c.ReadinessProbe = &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{
				Port: intstr.FromInt32(0), Scheme: "ftp", HTTPHeaders: []corev1.HTTPHeader{{Name: "bad header"}, {Name: "X-Ok", Value: "v"}},
			}}}
			c.StartupProbe = tcpProbe(intstr.FromString("a--b"))
		}), want: []string{
			`spec.containers[0].livenessProbe.exec.command: Required value`,
			`spec.containers[0].readinessProbe.httpGet.port: Invalid value: 0: must be between 1 and 65535, inclusive`,
			`spec.containers[0].readinessProbe.httpGet.scheme: Unsupported value: "ftp": supported values: "HTTP", "HTTPS"`,
			`spec.containers[0].readinessProbe.httpGet.httpHeaders: Invalid value: "bad header": a valid HTTP header must consist of alphanumeric characters or '-' (e.g. 'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')`,
			`spec.containers[0].startupProbe.tcpSocket.port: Invalid value: "a--b": must not contain consecutive hyphens`,
		}},
		createCase{name: "grpc port out of range", mod: ctr(func(c *corev1.Container) {
			c.LivenessProbe = &corev1.Probe{ProbeHandler: corev1.ProbeHandler{GRPC: &corev1.GRPCAction{Port: 65536}}}
		}), want: []string{
			`spec.containers[0].livenessProbe.grpc.port: Invalid value: 65536: must be between 1 and 65535, inclusive`,
		}},
		createCase{name: "negative probe fields", mod: ctr(func(c *corev1.Container) {
			for _, p := range []**corev1.Probe{&c.LivenessProbe, &c.ReadinessProbe, &c.StartupProbe} {
				*p = execProbe()
				(*p).InitialDelaySeconds = -1
				(*p).TimeoutSeconds = -1
				(*p).PeriodSeconds = -1
				(*p).SuccessThreshold = -1
				(*p).FailureThreshold = -1
				(*p).TerminationGracePeriodSeconds = ptr(int64(-1))
			}
		}), want: []string{
			`spec.containers[0].livenessProbe.initialDelaySeconds: Invalid value: -1: must be greater than or equal to 0`,
			`spec.containers[0].livenessProbe.timeoutSeconds: Invalid value: -1: must be greater than or equal to 0`,
			`spec.containers[0].livenessProbe.periodSeconds: Invalid value: -1: must be greater than or equal to 0`,
			`spec.containers[0].livenessProbe.successThreshold: Invalid value: -1: must be greater than or equal to 0`,
			`spec.containers[0].livenessProbe.failureThreshold: Invalid value: -1: must be greater than or equal to 0`,
			`spec.containers[0].livenessProbe.terminationGracePeriodSeconds: Invalid value: -1: must be greater than 0`,
			`spec.containers[0].livenessProbe.successThreshold: Invalid value: -1: must be 1`,
			`spec.containers[0].readinessProbe.initialDelaySeconds: Invalid value: -1: must be greater than or equal to 0`,
			`spec.containers[0].readinessProbe.timeoutSeconds: Invalid value: -1: must be greater than or equal to 0`,
			`spec.containers[0].readinessProbe.periodSeconds: Invalid value: -1: must be greater than or equal to 0`,
			`spec.containers[0].readinessProbe.successThreshold: Invalid value: -1: must be greater than or equal to 0`,
			`spec.containers[0].readinessProbe.failureThreshold: Invalid value: -1: must be greater than or equal to 0`,
			`spec.containers[0].readinessProbe.terminationGracePeriodSeconds: Invalid value: -1: must be greater than 0`,
			`spec.containers[0].readinessProbe.terminationGracePeriodSeconds: Invalid value: -1: must not be set for readinessProbes`,
			`spec.containers[0].startupProbe.initialDelaySeconds: Invalid value: -1: must be greater than or equal to 0`,
			`spec.containers[0].startupProbe.timeoutSeconds: Invalid value: -1: must be greater than or equal to 0`,
			`spec.containers[0].startupProbe.periodSeconds: Invalid value: -1: must be greater than or equal to 0`,
			`spec.containers[0].startupProbe.successThreshold: Invalid value: -1: must be greater than or equal to 0`,
			`spec.containers[0].startupProbe.failureThreshold: Invalid value: -1: must be greater than or equal to 0`,
			`spec.containers[0].startupProbe.terminationGracePeriodSeconds: Invalid value: -1: must be greater than 0`,
			`spec.containers[0].startupProbe.successThreshold: Invalid value: -1: must be 1`,
		}},
		createCase{name: "liveness and startup success threshold must be 1", mod: ctr(func(c *corev1.Container) {
			c.LivenessProbe = execProbe()
			c.LivenessProbe.SuccessThreshold = 2
			c.StartupProbe = execProbe()
			c.StartupProbe.SuccessThreshold = 2
		}), want: []string{
			`spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1`,
			`spec.containers[0].startupProbe.successThreshold: Invalid value: 2: must be 1`,
		}},
		createCase{name: "probe grace period zero", mod: ctr(func(c *corev1.Container) {
			c.LivenessProbe = execProbe()
			c.LivenessProbe.TerminationGracePeriodSeconds = ptr(int64(0))
			c.ReadinessProbe = execProbe()
			c.ReadinessProbe.TerminationGracePeriodSeconds = ptr(int64(5))
		}), want: []string{
			`spec.containers[0].livenessProbe.terminationGracePeriodSeconds: Invalid value: 0: must be greater than 0`,
			`spec.containers[0].readinessProbe.terminationGracePeriodSeconds: Invalid value: 5: must not be set for readinessProbes`,
		}},
		createCase{name: "init container probes and lifecycle forbidden", mod: initCtr(func(c *corev1.Container) {
			c.LivenessProbe = &corev1.Probe{}
			c.ReadinessProbe = execProbe()
			c.StartupProbe = execProbe()
			c.Lifecycle = &corev1.Lifecycle{}
		}), want: []string{
			`spec.initContainers[0].lifecycle: Forbidden: may not be set for init containers without restartPolicy=Always`,
			`spec.initContainers[0].livenessProbe: Forbidden: may not be set for init containers without restartPolicy=Always`,
			`spec.initContainers[0].readinessProbe: Forbidden: may not be set for init containers without restartPolicy=Always`,
			`spec.initContainers[0].startupProbe: Forbidden: may not be set for init containers without restartPolicy=Always`,
		}},
		createCase{name: "init container with invalid restart policy is not a sidecar", mod: initCtr(func(c *corev1.Container) {
			c.RestartPolicy = ptr(corev1.ContainerRestartPolicy("Bogus"))
			c.LivenessProbe = execProbe()
		}), want: []string{
			`spec.initContainers[0].restartPolicy: Unsupported value: "Bogus": supported values: "Always", "Never", "OnFailure"`,
			`spec.initContainers[0].livenessProbe: Forbidden: may not be set for init containers without restartPolicy=Always`,
		}},
		createCase{name: "sidecar probes validated", mod: sidecar(func(c *corev1.Container) {
			c.LivenessProbe = execProbe()
			c.LivenessProbe.SuccessThreshold = 2
			c.ReadinessProbe = execProbe()
			c.ReadinessProbe.TerminationGracePeriodSeconds = ptr(int64(10))
			c.StartupProbe = &corev1.Probe{}
		}), want: []string{
			`spec.initContainers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1`,
			`spec.initContainers[0].readinessProbe.terminationGracePeriodSeconds: Invalid value: 10: must not be set for readinessProbes`,
			`spec.initContainers[0].startupProbe: Required value: must specify a handler type`,
		}},
	)
	addFamily("lifecycle",
		createCase{name: "valid hooks", mod: ctr(func(c *corev1.Container) {
			c.Lifecycle = &corev1.Lifecycle{
				PostStart: &corev1.LifecycleHandler{HTTPGet: &corev1.HTTPGetAction{Port: intstr.FromInt32(8080)}},
				PreStop:   &corev1.LifecycleHandler{Sleep: &corev1.SleepAction{Seconds: 30}},
			}
		})},
		createCase{name: "empty handlers", mod: ctr(func(c *corev1.Container) {
			c.Lifecycle = &corev1.Lifecycle{PostStart: &corev1.LifecycleHandler{}, PreStop: &corev1.LifecycleHandler{}}
		}), want: []string{
			`spec.containers[0].lifecycle.postStart: Required value: must specify a handler type`,
			`spec.containers[0].lifecycle.preStop: Required value: must specify a handler type`,
		}},
		createCase{name: "handler faults", mod: ctr(func(c *corev1.Container) {
			c.Lifecycle = &corev1.Lifecycle{
				PostStart: &corev1.LifecycleHandler{Exec: &corev1.ExecAction{}, Sleep: &corev1.SleepAction{Seconds: 1}},
				PreStop:   &corev1.LifecycleHandler{TCPSocket: &corev1.TCPSocketAction{Port: intstr.FromInt32(70000)}, HTTPGet: &corev1.HTTPGetAction{Port: intstr.FromInt32(1)}},
			}
		}), want: []string{
			`spec.containers[0].lifecycle.postStart.exec.command: Required value`,
			`spec.containers[0].lifecycle.postStart.sleep: Forbidden: may not specify more than 1 handler type`,
			`spec.containers[0].lifecycle.preStop.tcpSocket: Forbidden: may not specify more than 1 handler type`,
		}},
		createCase{name: "sleep longer than grace period", mod: func(p *corev1.Pod) {
			p.Spec.TerminationGracePeriodSeconds = ptr(int64(5))
			p.Spec.Containers[0].Lifecycle = &corev1.Lifecycle{PreStop: &corev1.LifecycleHandler{Sleep: &corev1.SleepAction{Seconds: 6}}}
		}, want: []string{
			`spec.containers[0].lifecycle.preStop.sleep: Invalid value: 6: must be non-negative and less than terminationGracePeriodSeconds (5)`,
		}},
		createCase{name: "negative sleep", mod: ctr(func(c *corev1.Container) {
			c.Lifecycle = &corev1.Lifecycle{PreStop: &corev1.LifecycleHandler{Sleep: &corev1.SleepAction{Seconds: -1}}}
		}), want: []string{
			`spec.containers[0].lifecycle.preStop.sleep: Invalid value: -1: must be non-negative and less than terminationGracePeriodSeconds (30)`,
		}},
		createCase{name: "sleep equal to grace period", mod: func(p *corev1.Pod) {
			p.Spec.TerminationGracePeriodSeconds = ptr(int64(5))
			p.Spec.Containers[0].Lifecycle = &corev1.Lifecycle{PreStop: &corev1.LifecycleHandler{Sleep: &corev1.SleepAction{Seconds: 5}}}
		}},
		createCase{name: "sidecar lifecycle validated", mod: sidecar(func(c *corev1.Container) {
			c.Lifecycle = &corev1.Lifecycle{PreStop: &corev1.LifecycleHandler{}}
		}), want: []string{
			`spec.initContainers[0].lifecycle.preStop: Required value: must specify a handler type`,
		}},
		createCase{name: "stop signal dropped by default", mod: ctr(func(c *corev1.Container) {
			c.Lifecycle = &corev1.Lifecycle{StopSignal: ptr(corev1.Signal("SIGNOPE"))}
		})},
		createCase{name: "stop signal without os", features: map[string]bool{"ContainerStopSignals": true}, mod: ctr(func(c *corev1.Container) {
			c.Lifecycle = &corev1.Lifecycle{StopSignal: ptr(corev1.SIGTERM)}
		}), want: []string{
			"spec.containers[0].lifecycle.stopSignal: Forbidden: may not be set for containers with empty `spec.os.name`",
		}},
		createCase{name: "stop signal linux", features: map[string]bool{"ContainerStopSignals": true}, mod: func(p *corev1.Pod) {
			p.Spec.OS = &corev1.PodOS{Name: corev1.Linux}
			p.Spec.Containers[0].Lifecycle = &corev1.Lifecycle{StopSignal: ptr(corev1.Signal("SIGRTMIN+16"))}
			p.Spec.Containers = append(p.Spec.Containers, corev1.Container{Name: "d", Image: "img", Lifecycle: &corev1.Lifecycle{StopSignal: ptr(corev1.Signal("SIGRTMAX-14"))}})
		}, want: []string{
			`spec.containers[0].lifecycle.stopSignal: Unsupported value: "SIGRTMIN+16": supported values: "SIGABRT", "SIGALRM", "SIGBUS", "SIGCHLD", "SIGCLD", "SIGCONT", "SIGFPE", "SIGHUP", "SIGILL", "SIGINT", "SIGIO", "SIGIOT", "SIGKILL", "SIGPIPE", "SIGPOLL", "SIGPROF", "SIGPWR", "SIGQUIT", "SIGRTMAX", "SIGRTMAX-1", "SIGRTMAX-10", "SIGRTMAX-11", "SIGRTMAX-12", "SIGRTMAX-13", "SIGRTMAX-14", "SIGRTMAX-2", "SIGRTMAX-3", "SIGRTMAX-4", "SIGRTMAX-5", "SIGRTMAX-6", "SIGRTMAX-7", "SIGRTMAX-8", "SIGRTMAX-9", "SIGRTMIN", "SIGRTMIN+1", "SIGRTMIN+10", "SIGRTMIN+11", "SIGRTMIN+12", "SIGRTMIN+13", "SIGRTMIN+14", "SIGRTMIN+15", "SIGRTMIN+2", "SIGRTMIN+3", "SIGRTMIN+4", "SIGRTMIN+5", "SIGRTMIN+6", "SIGRTMIN+7", "SIGRTMIN+8", "SIGRTMIN+9", "SIGSEGV", "SIGSTKFLT", "SIGSTOP", "SIGSYS", "SIGTERM", "SIGTRAP", "SIGTSTP", "SIGTTIN", "SIGTTOU", "SIGURG", "SIGUSR1", "SIGUSR2", "SIGVTALRM", "SIGWINCH", "SIGXCPU", "SIGXFSZ"`,
		}},
		createCase{name: "stop signal windows", features: map[string]bool{"ContainerStopSignals": true}, mod: func(p *corev1.Pod) {
			p.Spec.OS = &corev1.PodOS{Name: corev1.Windows}
			p.Spec.Containers[0].Lifecycle = &corev1.Lifecycle{StopSignal: ptr(corev1.SIGHUP)}
		}, want: []string{
			`spec.containers[0].lifecycle.stopSignal: Unsupported value: "SIGHUP": supported values: "SIGKILL", "SIGTERM"`,
		}},
	)
}
