package lifecycle

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/podlife/podlife/restart"
)

// A Script reads from and writes to JSON (and so YAML through a YAML-to-JSON step) with
// lower-camel-case field names and durations as Go duration strings, for example:
//
//	{"init-myservice": {"runs": [{"duration": "20s"}]},
//	 "app": {"pullErrors": ["rpc error: code = NotFound"],
//	         "runs": [{"forever": true, "liveness": [{"at": "30s", "result": "Failure"}]}]}}
//
// Decoding is strict: an unknown field, a malformed duration or an unknown probe result
// is an error.

// containerScriptJSON is ContainerScript's JSON form.
type containerScriptJSON struct {
	Runs        []Run          `json:"runs,omitempty"`
	PullErrors  []string       `json:"pullErrors,omitempty"`
	PullTime    jsonDuration   `json:"pullTime,omitempty"`
	ImageSize   int64          `json:"imageSize,omitempty"`
	StartErrors []startFailure `json:"startErrors,omitempty"`
	Stop        *stopJSON      `json:"stop,omitempty"`
}

type startFailure struct {
	Reason  string `json:"reason"`
	Message string `json:"message,omitempty"`
}

type stopJSON struct {
	PreStop jsonDuration `json:"preStop,omitempty"`
	Exit    jsonDuration `json:"exit,omitempty"`
}

type runJSON struct {
	Forever   bool         `json:"forever,omitempty"`
	Duration  jsonDuration `json:"duration,omitempty"`
	ExitCode  int32        `json:"exitCode,omitempty"`
	Reason    string       `json:"reason,omitempty"`
	Startup   []ProbeStep  `json:"startup,omitempty"`
	Liveness  []ProbeStep  `json:"liveness,omitempty"`
	Readiness []ProbeStep  `json:"readiness,omitempty"`
}

type probeStepJSON struct {
	At     jsonDuration        `json:"at"`
	Result restart.ProbeResult `json:"result"`
	Output string              `json:"output,omitempty"`
}

// jsonDuration is a time.Duration written as a Go duration string.
type jsonDuration time.Duration

// MarshalJSON writes the duration as a Go duration string, for example "1m30s".
func (d jsonDuration) MarshalJSON() ([]byte, error) {
	return json.Marshal(time.Duration(d).String())
}

// UnmarshalJSON reads a non-negative Go duration string.
func (d *jsonDuration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("a duration must be a string such as \"20s\", not %s", b)
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	if v < 0 {
		return fmt.Errorf("negative duration %q", s)
	}
	*d = jsonDuration(v)
	return nil
}

// strictUnmarshal decodes b into v, refusing unknown fields and trailing data.
func strictUnmarshal(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("unexpected data after the object")
	}
	return nil
}

// MarshalJSON writes the container script in its JSON form.
func (c ContainerScript) MarshalJSON() ([]byte, error) {
	j := containerScriptJSON{Runs: c.Runs, PullErrors: c.PullErrors, PullTime: jsonDuration(c.PullTime), ImageSize: c.ImageSize}
	for _, f := range c.StartErrors {
		j.StartErrors = append(j.StartErrors, startFailure(f))
	}
	if c.Stop != (StopBehavior{}) {
		j.Stop = &stopJSON{PreStop: jsonDuration(c.Stop.PreStop), Exit: jsonDuration(c.Stop.Exit)}
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads a container script from its JSON form, strictly.
func (c *ContainerScript) UnmarshalJSON(b []byte) error {
	var j containerScriptJSON
	if err := strictUnmarshal(b, &j); err != nil {
		return err
	}
	*c = ContainerScript{Runs: j.Runs, PullErrors: j.PullErrors, PullTime: time.Duration(j.PullTime), ImageSize: j.ImageSize}
	for _, f := range j.StartErrors {
		if f.Reason == "" {
			return errors.New("a start error needs a reason, for example CreateContainerConfigError")
		}
		c.StartErrors = append(c.StartErrors, restart.StartFailure(f))
	}
	if j.Stop != nil {
		c.Stop = StopBehavior{PreStop: time.Duration(j.Stop.PreStop), Exit: time.Duration(j.Stop.Exit)}
	}
	return nil
}

// MarshalJSON writes the run in its JSON form.
func (r Run) MarshalJSON() ([]byte, error) {
	return json.Marshal(runJSON{Forever: r.Forever, Duration: jsonDuration(r.Duration), ExitCode: r.ExitCode, Reason: r.Reason,
		Startup: r.Startup, Liveness: r.Liveness, Readiness: r.Readiness})
}

// UnmarshalJSON reads a run from its JSON form, strictly.
func (r *Run) UnmarshalJSON(b []byte) error {
	var j runJSON
	if err := strictUnmarshal(b, &j); err != nil {
		return err
	}
	*r = Run{Forever: j.Forever, Duration: time.Duration(j.Duration), ExitCode: j.ExitCode, Reason: j.Reason,
		Startup: j.Startup, Liveness: j.Liveness, Readiness: j.Readiness}
	return nil
}

// MarshalJSON writes the probe step in its JSON form.
func (p ProbeStep) MarshalJSON() ([]byte, error) {
	return json.Marshal(probeStepJSON{At: jsonDuration(p.At), Result: p.Result, Output: p.Output})
}

// UnmarshalJSON reads a probe step from its JSON form, strictly: the result must be
// Success, Failure or Unknown.
func (p *ProbeStep) UnmarshalJSON(b []byte) error {
	var j probeStepJSON
	if err := strictUnmarshal(b, &j); err != nil {
		return err
	}
	switch j.Result {
	case restart.ProbeSuccess, restart.ProbeFailure, restart.ProbeUnknown:
	default:
		return fmt.Errorf("probe result %q: want Success, Failure or Unknown", j.Result)
	}
	*p = ProbeStep{At: time.Duration(j.At), Result: j.Result, Output: j.Output}
	return nil
}
