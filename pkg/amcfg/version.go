package amcfg

import (
	"fmt"
	"strconv"
	"strings"
)

// DefaultVersion is the Alertmanager version assumed when spec.version is empty.
const DefaultVersion = "v0.33.1"

// version is a parsed major.minor.patch.
type version [3]int

func parseVersion(s string) (version, error) {
	if s == "" {
		s = DefaultVersion
	}
	t := strings.TrimPrefix(s, "v")
	if i := strings.IndexAny(t, "-+"); i >= 0 {
		t = t[:i]
	}
	parts := strings.Split(t, ".")
	if len(parts) < 2 || len(parts) > 3 {
		return version{}, fmt.Errorf("invalid Alertmanager version %q", s)
	}
	var v version
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return version{}, fmt.Errorf("invalid Alertmanager version %q", s)
		}
		v[i] = n
	}
	return v, nil
}

func mustVersion(s string) version {
	v, err := parseVersion(s)
	if err != nil {
		panic(err)
	}
	return v
}

func (v version) less(o version) bool {
	for i := range v {
		if v[i] != o[i] {
			return v[i] < o[i]
		}
	}
	return false
}

func (v version) String() string { return fmt.Sprintf("%d.%d.%d", v[0], v[1], v[2]) }

// gate returns a problem when the Alertmanager is older than min, which the named feature
// (a receiver kind or field) needs.
func (c *conv) gate(field, what, min string) *problem {
	m := mustVersion(min)
	if c.version.less(m) {
		return invalid(field, "%s requires Alertmanager >= %s, this Alertmanager runs %s", what, m, c.version)
	}
	return nil
}
