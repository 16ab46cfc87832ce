package rules

import (
	"fmt"
	"strconv"
	"strings"
)

// DefaultVersion is the Prometheus version rules are validated for when the Prometheus
// object does not name one. It is the version of the Prometheus libraries Lookout is built
// with.
const DefaultVersion = "3.16.0"

// Version is a Prometheus release number.
type Version struct {
	Major, Minor, Patch int
}

// ParseVersion reads "v3.16.0", "2.45.0", "2.45" or "v3.1.0-rc.0+build"; pre-release and
// build suffixes are ignored. The empty string means DefaultVersion.
func ParseVersion(s string) (Version, error) {
	if s == "" {
		s = DefaultVersion
	}
	t := strings.TrimPrefix(strings.TrimSpace(s), "v")
	if i := strings.IndexAny(t, "-+"); i >= 0 {
		t = t[:i]
	}
	parts := strings.Split(t, ".")
	if len(parts) < 2 || len(parts) > 3 {
		return Version{}, fmt.Errorf("invalid Prometheus version %q: want MAJOR.MINOR.PATCH", s)
	}
	var n [3]int
	for i, p := range parts {
		v, err := strconv.Atoi(p)
		if err != nil || v < 0 {
			return Version{}, fmt.Errorf("invalid Prometheus version %q: want MAJOR.MINOR.PATCH", s)
		}
		n[i] = v
	}
	v := Version{n[0], n[1], n[2]}
	if v.Major < 2 {
		return Version{}, fmt.Errorf("unsupported Prometheus version %q: rule groups need Prometheus 2.0.0 or later", s)
	}
	return v, nil
}

// AtLeast reports whether v is the same release as o or a later one.
func (v Version) AtLeast(o Version) bool {
	if v.Major != o.Major {
		return v.Major > o.Major
	}
	if v.Minor != o.Minor {
		return v.Minor > o.Minor
	}
	return v.Patch >= o.Patch
}

// String formats the version as MAJOR.MINOR.PATCH.
func (v Version) String() string { return fmt.Sprintf("%d.%d.%d", v.Major, v.Minor, v.Patch) }

func ver(major, minor int) Version { return Version{Major: major, Minor: minor} }
