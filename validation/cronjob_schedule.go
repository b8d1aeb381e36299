package validation

import (
	"fmt"
	"strings"

	"github.com/robfig/cron/v3"
)

// parseCronSchedule answers as k8s.io/kubernetes pkg/util/parsers
// ParseCronScheduleWithPanicRecovery (robfig/cron/v3 ParseStandard) does, without its
// I/O: a schedule that starts with TZ= or CRON_TZ= names a location, which robfig
// loads with time.LoadLocation (the time zone files); podlife looks the name up in
// the time zone database embedded in Go (see zoneErr), as a kube-apiserver image
// without zone files does. The rest of the schedule is robfig's own parser.
func parseCronSchedule(schedule string) error {
	if strings.HasPrefix(schedule, "TZ=") || strings.HasPrefix(schedule, "CRON_TZ=") {
		i := strings.Index(schedule, " ")
		if i < 0 {
			// robfig slices schedule[eq+1:i] with i == -1; upstream recovers the
			// panic and reports it.
			return fmt.Errorf("invalid schedule format: runtime error: slice bounds out of range [:%d]", i)
		}
		eq := strings.Index(schedule, "=")
		name := schedule[eq+1 : i]
		if err := zoneErr(name); err != nil {
			return fmt.Errorf("provided bad location %s: %v", name, err)
		}
		rest := strings.TrimSpace(schedule[i:])
		if !strings.HasPrefix(rest, "@") {
			// A leading space keeps robfig from reading a second TZ= prefix (it
			// reads only one) and changes nothing else: the fields are split on
			// white space, and an empty rest gives the same error as " ".
			rest = " " + rest
		}
		return parseStandard(rest)
	}
	return parseStandard(schedule)
}

// parseStandard is robfig's ParseStandard with upstream's panic recovery.
func parseStandard(spec string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("invalid schedule format: %v", r)
		}
	}()
	_, err = cron.ParseStandard(spec)
	return err
}
