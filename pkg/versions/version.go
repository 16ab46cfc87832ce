package versions

import "fmt"

// Version is a release number MAJOR.MINOR.PATCH.
type Version struct {
	Major, Minor, Patch int
	// written is how ParseGeneric's input named the version when that is not
	// MAJOR.MINOR.PATCH ("2.50", "3.1.0.1"): String prints it as written, as the
	// Kubernetes generic versions the workload builders used to parse did.
	written string
}

// New returns the version major.minor.patch.
func New(major, minor, patch int) Version { return Version{Major: major, Minor: minor, Patch: patch} }

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

// Less reports whether v is an earlier release than o.
func (v Version) Less(o Version) bool { return !v.AtLeast(o) }

// IsZero reports whether v is the zero Version (0.0.0).
func (v Version) IsZero() bool { return v == Version{} }

// String formats the version as MAJOR.MINOR.PATCH (as written, for ParseGeneric).
func (v Version) String() string {
	if v.written != "" {
		return v.written
	}
	return fmt.Sprintf("%d.%d.%d", v.Major, v.Minor, v.Patch)
}

// Tag formats the version as a release tag, vMAJOR.MINOR.PATCH.
func (v Version) Tag() string { return fmt.Sprintf("v%d.%d.%d", v.Major, v.Minor, v.Patch) }

// Feature is a version gate: something (a configuration field, a flag, a behaviour) that
// appeared in a given release and, maybe, was removed in a later one.
type Feature struct {
	// Name names the feature in messages.
	Name string
	// Since is the first release that has it.
	Since Version
	// Until, when set, is the first release that no longer has it.
	Until *Version
}

// Supports reports whether the release v has the feature.
func (v Version) Supports(f Feature) bool {
	if !v.AtLeast(f.Since) {
		return false
	}
	return f.Until == nil || !v.AtLeast(*f.Until)
}

// since is a feature that appeared in major.minor.patch and was never removed.
func since(name string, major, minor, patch int) Feature {
	return Feature{Name: name, Since: New(major, minor, patch)}
}

// between is a feature that appeared in release since and was removed in until.
func between(name string, since, until Version) Feature {
	return Feature{Name: name, Since: since, Until: &until}
}
