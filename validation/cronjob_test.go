package validation

import (
	"testing"
)

// TestParseCronSchedule pins the schedule parser's answers, robfig/cron/v3's words
// included, for the forms upstream's tests and users write.
func TestParseCronSchedule(t *testing.T) {
	for _, c := range []struct{ schedule, want string }{
		{"* * * * ?", ""},
		{"*/5 0-23 1,15 JAN-DEC mon-fri", ""},
		{"@hourly", ""},
		{"@every 1h30m", ""},
		{"TZ=UTC 0 0 * * *", ""},
		{"CRON_TZ=America/New_York 0 0 * * *", ""},
		{"TZ= @daily", ""},
		{"TZ=Local 0 0 * * *", ""},
		{"error", "expected exactly 5 fields, found 1: [error]"},
		{"0 0 * * * *", "expected exactly 5 fields, found 6: [0 0 * * * *]"},
		{"61 * * * *", "end of range (61) above maximum (59): 61"},
		{"5-1 * * * *", "beginning of range (5) beyond end of range (1): 5-1"},
		{"*/0 * * * *", "step of range should be a positive number: */0"},
		{"1-2-3 * * * *", "too many hyphens: 1-2-3"},
		{"@fortnightly", "unrecognized descriptor: @fortnightly"},
		{"@every 1x", `failed to parse duration @every 1x: time: unknown unit "x" in duration "1x"`},
		{"TZ=0", "invalid schedule format: runtime error: slice bounds out of range [:-1]"},
		{"TZ=", "invalid schedule format: runtime error: slice bounds out of range [:-1]"},
		{"CRON_TZ=UTC", "invalid schedule format: runtime error: slice bounds out of range [:-1]"},
		{"TZ=Invalid/Timezone", "invalid schedule format: runtime error: slice bounds out of range [:-1]"},
		{"TZ=Mars/Olympus 0 0 * * *", "provided bad location Mars/Olympus: unknown time zone Mars/Olympus"},
		{"TZ=../etc 0 0 * * *", "provided bad location ../etc: time: invalid location name"},
		{"TZ=UTC ", "expected exactly 5 fields, found 0: []"},
		{"TZ=UTC TZ=UTC * * * * *", "expected exactly 5 fields, found 6: [TZ=UTC * * * * *]"},
	} {
		err := parseCronSchedule(c.schedule)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("%q: got %q, want %q", c.schedule, got, c.want)
		}
	}
}

// TestTimeZones re-expresses upstream's TestTimeZones: every time zone of the
// database Go embeds is a valid spec.timeZone, and names outside it are not.
func TestTimeZones(t *testing.T) {
	path := rootPath("spec").Child("timeZone")
	for _, name := range zoneNames {
		tz := name
		if errs := validateTimeZone(&tz, path); len(errs) != 0 {
			t.Errorf("%s: %v", name, errs)
		}
	}
	for tz, want := range map[string]string{
		"UTC":                "",
		"Europe/InvalidRome": `spec.timeZone: Invalid value: "Europe/InvalidRome": unknown time zone Europe/InvalidRome`,
		"Local":              `spec.timeZone: Invalid value: "Local": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones`,
		"Europe/Rome ":       `spec.timeZone: Invalid value: "Europe/Rome ": unknown time zone Europe/Rome `,
		"a/-b":               `spec.timeZone: Invalid value: "a/-b": unknown time zone a/-b`,
		"Abcdefghijklmno":    `spec.timeZone: Invalid value: "Abcdefghijklmno": unknown time zone Abcdefghijklmno`,
	} {
		errs := validateTimeZone(&tz, path)
		got := ""
		if len(errs) > 0 {
			got = errs[0].Error()
		}
		if got != want {
			t.Errorf("%q: got %q, want %q", tz, got, want)
		}
	}
}
