package validation

import (
	"slices"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// handler is upstream's commonHandler: the union of probe and lifecycle actions.
type handler struct {
	exec      *corev1.ExecAction
	httpGet   *corev1.HTTPGetAction
	tcpSocket *corev1.TCPSocketAction
	grpc      *corev1.GRPCAction
	sleep     *corev1.SleepAction
}

func validateLivenessProbe(p *corev1.Probe, grace *int64, fldPath lpath) field.ErrorList {
	if p == nil {
		return nil
	}
	allErrs := validateProbe(p, grace, fldPath)
	if p.SuccessThreshold != 1 {
		allErrs = append(allErrs, invalidAt(fldPath.Child("successThreshold"), p.SuccessThreshold, "must be 1"))
	}
	return allErrs
}

func validateReadinessProbe(p *corev1.Probe, grace *int64, fldPath lpath) field.ErrorList {
	if p == nil {
		return nil
	}
	allErrs := validateProbe(p, grace, fldPath)
	if p.TerminationGracePeriodSeconds != nil {
		allErrs = append(allErrs, invalidAt(fldPath.Child("terminationGracePeriodSeconds"), p.TerminationGracePeriodSeconds, "must not be set for readinessProbes"))
	}
	return allErrs
}

func validateStartupProbe(p *corev1.Probe, grace *int64, fldPath lpath) field.ErrorList {
	return validateLivenessProbe(p, grace, fldPath)
}

// validateProbe mirrors upstream validateProbe.
func validateProbe(p *corev1.Probe, grace *int64, fldPath lpath) field.ErrorList {
	h := handler{exec: p.Exec, httpGet: p.HTTPGet, tcpSocket: p.TCPSocket, grpc: p.GRPC}
	allErrs := validateHandler(h, grace, fldPath)
	allErrs = append(allErrs, nonNegativeChild(int64(p.InitialDelaySeconds), fldPath, "initialDelaySeconds")...)
	allErrs = append(allErrs, nonNegativeChild(int64(p.TimeoutSeconds), fldPath, "timeoutSeconds")...)
	allErrs = append(allErrs, nonNegativeChild(int64(p.PeriodSeconds), fldPath, "periodSeconds")...)
	allErrs = append(allErrs, nonNegativeChild(int64(p.SuccessThreshold), fldPath, "successThreshold")...)
	allErrs = append(allErrs, nonNegativeChild(int64(p.FailureThreshold), fldPath, "failureThreshold")...)
	if g := p.TerminationGracePeriodSeconds; g != nil && *g <= 0 {
		allErrs = append(allErrs, invalidAt(fldPath.Child("terminationGracePeriodSeconds"), *g, "must be greater than 0"))
	}
	return allErrs
}

// validateHandler mirrors upstream validateHandler: exactly one action, checked in
// the order exec, httpGet, tcpSocket, grpc, sleep.
func validateHandler(h handler, grace *int64, fldPath lpath) field.ErrorList {
	const tooMany = "may not specify more than 1 handler type"
	var allErrs field.ErrorList
	n := 0
	if h.exec != nil {
		n++
		if len(h.exec.Command) == 0 {
			allErrs = append(allErrs, requiredAt(fldPath.Children("exec", "command"), ""))
		}
	}
	if h.httpGet != nil {
		if n > 0 {
			allErrs = append(allErrs, forbiddenAt(fldPath.Child("httpGet"), tooMany))
		} else {
			n++
			allErrs = append(allErrs, validateHTTPGetAction(h.httpGet, fldPath.Child("httpGet"))...)
		}
	}
	if h.tcpSocket != nil {
		if n > 0 {
			allErrs = append(allErrs, forbiddenAt(fldPath.Child("tcpSocket"), tooMany))
		} else {
			n++
			allErrs = append(allErrs, validatePortNumOrName(h.tcpSocket.Port, fldPath.Children("tcpSocket", "port"))...)
		}
	}
	if h.grpc != nil {
		if n > 0 {
			allErrs = append(allErrs, forbiddenAt(fldPath.Child("grpc"), tooMany))
		} else {
			n++
			allErrs = append(allErrs, validateGRPCAction(h.grpc, fldPath.Child("grpc"))...)
		}
	}
	if h.sleep != nil {
		if n > 0 {
			allErrs = append(allErrs, forbiddenAt(fldPath.Child("sleep"), tooMany))
		} else {
			n++
			// A nil grace period is reported elsewhere; don't pile on.
			if grace != nil && (h.sleep.Seconds < 0 || h.sleep.Seconds > *grace) {
				allErrs = append(allErrs, invalidAt(fldPath.Child("sleep"), h.sleep.Seconds,
					"must be non-negative and less than terminationGracePeriodSeconds ("+strconv.FormatInt(*grace, 10)+")"))
			}
		}
	}
	if n == 0 {
		allErrs = append(allErrs, requiredAt(fldPath, "must specify a handler type"))
	}
	return allErrs
}

var (
	supportedHTTPSchemes   = []corev1.URIScheme{corev1.URISchemeHTTP, corev1.URISchemeHTTPS}
	supportedHTTPProtocols = []corev1.HTTPProtocol{corev1.HTTPProtocolHTTP1, corev1.HTTPProtocolHTTP2}
	supportedGRPCModes     = []corev1.GRPCProbeMode{corev1.GRPCProbeModePlaintext, corev1.GRPCProbeModeTLS}
)

func validateHTTPGetAction(h *corev1.HTTPGetAction, fldPath lpath) field.ErrorList {
	var allErrs field.ErrorList
	if h.Path == "" {
		allErrs = append(allErrs, requiredAt(fldPath.Child("path"), ""))
	}
	allErrs = append(allErrs, validatePortNumOrName(h.Port, fldPath.Child("port"))...)
	if h.Scheme != corev1.URISchemeHTTP && h.Scheme != corev1.URISchemeHTTPS {
		allErrs = append(allErrs, notSupportedAt(fldPath.Child("scheme"), h.Scheme, supportedHTTPSchemes))
	}
	for _, header := range h.HTTPHeaders {
		for _, msg := range validation.IsHTTPHeaderName(header.Name) {
			allErrs = append(allErrs, invalidAt(fldPath.Child("httpHeaders"), header.Name, msg))
		}
	}
	if h.Protocol != nil {
		switch {
		case *h.Protocol != corev1.HTTPProtocolHTTP1 && *h.Protocol != corev1.HTTPProtocolHTTP2:
			allErrs = append(allErrs, notSupportedAt(fldPath.Child("protocol"), *h.Protocol, supportedHTTPProtocols))
		case *h.Protocol == corev1.HTTPProtocolHTTP2 && h.Scheme != corev1.URISchemeHTTP:
			allErrs = append(allErrs, invalidAt(fldPath.Child("protocol"), *h.Protocol, "is only supported with HTTP (H2C)"))
		case *h.Protocol == corev1.HTTPProtocolHTTP2 && h.Host != "":
			allErrs = append(allErrs, invalidAt(fldPath.Child("host"), h.Host, "must be empty when `protocol` is \"HTTP2\""))
		}
	}
	return allErrs
}

// validatePortNumOrName mirrors upstream ValidatePortNumOrName.
func validatePortNumOrName(port intstr.IntOrString, fldPath lpath) field.ErrorList {
	var allErrs field.ErrorList
	switch port.Type {
	case intstr.Int:
		for _, msg := range validation.IsValidPortNum(port.IntValue()) {
			allErrs = append(allErrs, invalidAt(fldPath, port.IntValue(), msg))
		}
	case intstr.String:
		for _, msg := range portNameErrs(port.StrVal) {
			allErrs = append(allErrs, invalidAt(fldPath, port.StrVal, msg))
		}
	default:
		allErrs = append(allErrs, field.InternalError(fldPath.P(), unknownPortTypeError(port.Type)))
	}
	return allErrs
}

type unknownPortTypeError intstr.Type

func (t unknownPortTypeError) Error() string {
	return "unknown type: " + strconv.FormatInt(int64(t), 10)
}

func validateGRPCAction(g *corev1.GRPCAction, fldPath lpath) field.ErrorList {
	allErrs := validatePortNumOrName(intstr.FromInt32(g.Port), fldPath.Child("port"))
	if g.Mode != nil && *g.Mode != corev1.GRPCProbeModePlaintext && *g.Mode != corev1.GRPCProbeModeTLS {
		allErrs = append(allErrs, notSupportedAt(fldPath.Child("mode"), *g.Mode, supportedGRPCModes))
	}
	return allErrs
}

// validateLifecycle mirrors upstream validateLifecycle.
func validateLifecycle(l *corev1.Lifecycle, grace *int64, fldPath lpath, os *corev1.PodOS) field.ErrorList {
	var allErrs field.ErrorList
	if h := l.PostStart; h != nil {
		allErrs = append(allErrs, validateHandler(handler{exec: h.Exec, httpGet: h.HTTPGet, tcpSocket: h.TCPSocket, sleep: h.Sleep}, grace, fldPath.Child("postStart"))...)
	}
	if h := l.PreStop; h != nil {
		allErrs = append(allErrs, validateHandler(handler{exec: h.Exec, httpGet: h.HTTPGet, tcpSocket: h.TCPSocket, sleep: h.Sleep}, grace, fldPath.Child("preStop"))...)
	}
	if l.StopSignal != nil {
		allErrs = append(allErrs, validateStopSignal(l.StopSignal, fldPath.Child("stopSignal"), os)...)
	}
	return allErrs
}

// Upstream passes the *Signal pointer itself as the bad value.
func validateStopSignal(sig *corev1.Signal, fldPath lpath, os *corev1.PodOS) field.ErrorList {
	switch {
	case os == nil:
		return field.ErrorList{forbiddenAt(fldPath, "may not be set for containers with empty `spec.os.name`")}
	case os.Name == corev1.Windows:
		if *sig != corev1.SIGKILL && *sig != corev1.SIGTERM {
			return field.ErrorList{notSupportedAt(fldPath, sig, supportedStopSignalsWindows)}
		}
	case os.Name == corev1.Linux:
		if _, ok := linuxStopSignals[*sig]; !ok {
			return field.ErrorList{notSupportedAt(fldPath, sig, supportedStopSignalsLinux)}
		}
	}
	return nil
}

var (
	supportedStopSignalsWindows = []corev1.Signal{corev1.SIGKILL, corev1.SIGTERM}
	// supportedStopSignalsLinux is sorted, as upstream's sets.List renders it.
	supportedStopSignalsLinux = sortedSignals(
		corev1.SIGABRT, corev1.SIGALRM, corev1.SIGBUS, corev1.SIGCHLD,
		corev1.SIGCLD, corev1.SIGCONT, corev1.SIGFPE, corev1.SIGHUP,
		corev1.SIGILL, corev1.SIGINT, corev1.SIGIO, corev1.SIGIOT,
		corev1.SIGKILL, corev1.SIGPIPE, corev1.SIGPOLL, corev1.SIGPROF,
		corev1.SIGPWR, corev1.SIGQUIT, corev1.SIGSEGV, corev1.SIGSTKFLT,
		corev1.SIGSTOP, corev1.SIGSYS, corev1.SIGTERM, corev1.SIGTRAP,
		corev1.SIGTSTP, corev1.SIGTTIN, corev1.SIGTTOU, corev1.SIGURG,
		corev1.SIGUSR1, corev1.SIGUSR2, corev1.SIGVTALRM, corev1.SIGWINCH,
		corev1.SIGXCPU, corev1.SIGXFSZ, corev1.SIGRTMIN, corev1.SIGRTMINPLUS1,
		corev1.SIGRTMINPLUS2, corev1.SIGRTMINPLUS3, corev1.SIGRTMINPLUS4,
		corev1.SIGRTMINPLUS5, corev1.SIGRTMINPLUS6, corev1.SIGRTMINPLUS7,
		corev1.SIGRTMINPLUS8, corev1.SIGRTMINPLUS9, corev1.SIGRTMINPLUS10,
		corev1.SIGRTMINPLUS11, corev1.SIGRTMINPLUS12, corev1.SIGRTMINPLUS13,
		corev1.SIGRTMINPLUS14, corev1.SIGRTMINPLUS15, corev1.SIGRTMAXMINUS14,
		corev1.SIGRTMAXMINUS13, corev1.SIGRTMAXMINUS12, corev1.SIGRTMAXMINUS11,
		corev1.SIGRTMAXMINUS10, corev1.SIGRTMAXMINUS9, corev1.SIGRTMAXMINUS8,
		corev1.SIGRTMAXMINUS7, corev1.SIGRTMAXMINUS6, corev1.SIGRTMAXMINUS5,
		corev1.SIGRTMAXMINUS4, corev1.SIGRTMAXMINUS3, corev1.SIGRTMAXMINUS2,
		corev1.SIGRTMAXMINUS1, corev1.SIGRTMAX)
	linuxStopSignals = func() map[corev1.Signal]struct{} {
		m := make(map[corev1.Signal]struct{}, len(supportedStopSignalsLinux))
		for _, s := range supportedStopSignalsLinux {
			m[s] = struct{}{}
		}
		return m
	}()
)

func sortedSignals(s ...corev1.Signal) []corev1.Signal {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}
