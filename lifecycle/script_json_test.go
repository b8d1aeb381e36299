package lifecycle

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/podlife/podlife/restart"
)

func TestScriptJSON(t *testing.T) {
	in := `{
	  "init": {"runs": [{"duration": "20s"}]},
	  "app": {
	    "pullErrors": ["rpc error: code = NotFound"],
	    "pullTime": "1.5s", "imageSize": 1024,
	    "startErrors": [{"reason": "CreateContainerConfigError", "message": "secret \"db\" not found"}],
	    "stop": {"preStop": "2s", "exit": "3s"},
	    "runs": [
	      {"duration": "1m30s", "exitCode": 137, "reason": "OOMKilled",
	       "liveness": [{"at": "30s", "result": "Failure", "output": "timeout"}]},
	      {"forever": true, "startup": [{"at": "0s", "result": "Unknown"}, {"at": "5s", "result": "Success"}], "readiness": [{"at": "6s", "result": "Success"}]}
	    ]
	  }
	}`
	var s Script
	require.NoError(t, json.Unmarshal([]byte(in), &s))
	want := Script{
		"init": {Runs: []Run{{Duration: 20 * time.Second}}},
		"app": {
			PullErrors: []string{"rpc error: code = NotFound"}, PullTime: 1500 * time.Millisecond, ImageSize: 1024,
			StartErrors: []restart.StartFailure{{Reason: "CreateContainerConfigError", Message: `secret "db" not found`}},
			Stop:        StopBehavior{PreStop: 2 * time.Second, Exit: 3 * time.Second},
			Runs: []Run{
				{Duration: 90 * time.Second, ExitCode: 137, Reason: "OOMKilled", Liveness: []ProbeStep{{At: 30 * time.Second, Result: restart.ProbeFailure, Output: "timeout"}}},
				{Forever: true, Startup: []ProbeStep{{At: 0, Result: restart.ProbeUnknown}, {At: 5 * time.Second, Result: restart.ProbeSuccess}}, Readiness: []ProbeStep{{At: 6 * time.Second, Result: restart.ProbeSuccess}}},
			},
		},
	}
	assert.Equal(t, want, s)
	out, err := json.Marshal(s)
	require.NoError(t, err)
	var back Script
	require.NoError(t, json.Unmarshal(out, &back))
	assert.Equal(t, s, back, "round trip through %s", out)
	assert.JSONEq(t, `{"init":{"runs":[{"duration":"20s"}]}}`, mustJSON(t, Script{"init": s["init"]}))
}

func mustJSON(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

func TestScriptJSONErrors(t *testing.T) {
	for in, want := range map[string]string{
		`{"a": {"runz": []}}`:                                              `json: unknown field "runz"`,
		`{"a": {"runs": [{"durration": "1s"}]}}`:                           `json: unknown field "durration"`,
		`{"a": {"runs": [{"duration": 20}]}}`:                              `a duration must be a string such as "20s", not 20`,
		`{"a": {"runs": [{"duration": "20x"}]}}`:                           `time: unknown unit "x" in duration "20x"`,
		`{"a": {"runs": [{"duration": "-1s"}]}}`:                           `negative duration "-1s"`,
		`{"a": {"runs": [{"liveness": [{"at": "1s", "result": "Bad"}]}]}}`: `probe result "Bad": want Success, Failure or Unknown`,
		`{"a": {"startErrors": [{"message": "x"}]}}`:                       `a start error needs a reason, for example CreateContainerConfigError`,
		`{"a": {"stop": {"exit": "1s", "signal": "TERM"}}}`:                `json: unknown field "signal"`,
	} {
		var s Script
		err := json.Unmarshal([]byte(in), &s)
		if assert.Error(t, err, in) {
			assert.Contains(t, err.Error(), want, in)
		}
	}
}

func FuzzScriptJSON(f *testing.F) {
	f.Add([]byte(`{"a": {"runs": [{"duration": "20s", "exitCode": 1, "liveness": [{"at": "3s", "result": "Failure"}]}], "pullErrors": ["x"]}}`))
	f.Add([]byte(`{"b": {"stop": {"preStop": "1s"}, "startErrors": [{"reason": "R"}]}}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var s Script
		if json.Unmarshal(data, &s) != nil {
			return
		}
		out, err := json.Marshal(s)
		require.NoError(t, err)
		var back Script
		require.NoError(t, json.Unmarshal(out, &back), "%s", out)
		require.Equal(t, normScript(s), normScript(back))
	})
}

// normScript maps empty slices to nil, which JSON does not tell apart.
func normScript(s Script) Script {
	if len(s) == 0 {
		return nil
	}
	out := Script{}
	for k, c := range s {
		if len(c.Runs) == 0 {
			c.Runs = nil
		}
		for i := range c.Runs {
			r := &c.Runs[i]
			for _, l := range []*[]ProbeStep{&r.Startup, &r.Liveness, &r.Readiness} {
				if len(*l) == 0 {
					*l = nil
				}
			}
		}
		if len(c.PullErrors) == 0 {
			c.PullErrors = nil
		}
		if len(c.StartErrors) == 0 {
			c.StartErrors = nil
		}
		out[k] = c
	}
	return out
}
