package validation

import (
	"errors"
	"sort"
	"strings"
)

// zoneErr is the error time.LoadLocation returns for name on a kube-apiserver whose
// only time zone data is the database compiled into it (the binary imports
// time/tzdata; its images carry no zone files), or nil when the name loads:
// "", "UTC" and "Local" are built in, names with ".." or a leading slash are
// refused as invalid, and any other name must be in the embedded database
// (zoneNames, generated from the Go distribution's lib/time/zoneinfo.zip).
//
// A server with zone files of its own (/usr/share/zoneinfo) may also accept names
// that only those files have.
func zoneErr(name string) error {
	switch {
	case name == "" || name == "UTC" || name == "Local":
		return nil
	case strings.Contains(name, "..") || name[0] == '/' || name[0] == '\\':
		return errInvalidLocation
	}
	if i := sort.SearchStrings(zoneNames, name); i < len(zoneNames) && zoneNames[i] == name {
		return nil
	}
	return errors.New("unknown time zone " + name)
}

// errInvalidLocation is time.LoadLocation's error for a name no zone can have.
var errInvalidLocation = errors.New("time: invalid location name")
