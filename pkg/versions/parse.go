package versions

import (
	"fmt"
	"strconv"
	"strings"

	k8sversion "k8s.io/apimachinery/pkg/util/version"
)

// The consumers of a spec.version read it in two ways, both kept as they were so that the
// same versions are accepted and the same messages given:
//
//   - the configuration and rule generators (ParsePrometheus, ParseAlertmanager,
//     ParseThanos) accept MAJOR.MINOR or MAJOR.MINOR.PATCH after an optional "v", and
//     ignore a pre-release or build suffix ("v3.1.0-rc.0+build");
//   - the workload builders (ParseGeneric) read Kubernetes's generic versions: two or
//     more numeric components, anything after them ignored.

// ParsePrometheus reads a Prometheus version ("v3.16.0", "3.16", "2.45.0-rc.1"); the empty
// string means DefaultPrometheus.
func ParsePrometheus(s string) (Version, error) {
	if s == "" {
		s = DefaultPrometheus
	}
	v, ok := parseRelease(strings.TrimSpace(s))
	if !ok {
		return Version{}, fmt.Errorf("invalid Prometheus version %q: want MAJOR.MINOR.PATCH", s)
	}
	return v, nil
}

// ParseThanos reads a Thanos version ("v0.42.4", "0.38"). Unlike ParsePrometheus it has
// no default.
func ParseThanos(s string) (Version, error) {
	v, ok := parseRelease(strings.TrimSpace(s))
	if !ok {
		return Version{}, fmt.Errorf("invalid Thanos version %q: want MAJOR.MINOR.PATCH", s)
	}
	return v, nil
}

// ParseAlertmanager reads an Alertmanager version ("v0.33.1", "0.28"); the empty string
// means DefaultAlertmanager. Unlike ParsePrometheus it does not trim spaces.
func ParseAlertmanager(s string) (Version, error) {
	if s == "" {
		s = DefaultAlertmanager
	}
	v, ok := parseRelease(s)
	if !ok {
		return Version{}, fmt.Errorf("invalid Alertmanager version %q", s)
	}
	return v, nil
}

// MustParse is ParseAlertmanager for a version written in Lookout's own tables; it panics
// on an invalid one.
func MustParse(s string) Version {
	v, ok := parseRelease(s)
	if !ok {
		panic(fmt.Sprintf("invalid version %q", s))
	}
	return v
}

// parseRelease reads [v]MAJOR.MINOR[.PATCH][-pre][+build].
func parseRelease(s string) (Version, bool) {
	s = strings.TrimPrefix(s, "v")
	if i := strings.IndexAny(s, "-+"); i >= 0 {
		s = s[:i]
	}
	parts := strings.Split(s, ".")
	if len(parts) < 2 || len(parts) > 3 {
		return Version{}, false
	}
	var n [3]int
	for i, p := range parts {
		x, err := strconv.Atoi(p)
		if err != nil || x < 0 {
			return Version{}, false
		}
		n[i] = x
	}
	return New(n[0], n[1], n[2]), true
}

// ParseGeneric reads a version as the workload builders do, with Kubernetes's
// version.ParseGeneric ("v3.16.0", "2.50", " 3.1.0.1-anything"), and returns its error.
// Components after the third are kept only in String: they never decide a comparison
// with a three-component gate.
func ParseGeneric(s string) (Version, error) {
	g, err := k8sversion.ParseGeneric(s)
	if err != nil {
		return Version{}, err
	}
	v := New(int(g.Major()), int(g.Minor()), int(g.Patch()))
	if w := g.String(); w != v.String() {
		v.written = w
	}
	return v, nil
}
