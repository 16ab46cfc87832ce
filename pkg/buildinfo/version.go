package buildinfo

import (
	"fmt"
	"regexp"
	"runtime/debug"
	"strings"
)

// Set with -ldflags "-X github.com/lookout-operator/lookout/pkg/buildinfo.NAME=VALUE".
var (
	// Version is the release version without a leading "v" ("0.1.0"); "dev" when not set.
	Version = "dev"
	// Commit is the full commit hash; when empty, vcs.revision of the build information.
	Commit = ""
	// Date is when the binary was built, RFC 3339; when empty, vcs.time (the commit's time).
	Date = ""
)

// ReloaderRepository is the config-reloader image without tag.
const ReloaderRepository = "ghcr.io/lookout-operator/config-reloader"

// DevImageTag is the image tag a dev build (no release Version) defaults to.
const DevImageTag = "latest"

// Info is what a binary reports about its build.
type Info struct {
	Version string
	Commit  string // "" when unknown; ends in "-dirty" for a modified work tree
	Date    string // "" when unknown
}

// readBuildInfo is debug.ReadBuildInfo; tests replace it.
var readBuildInfo = debug.ReadBuildInfo

// Get returns the build information: the linker-set values, the VCS settings of the
// build information for those not set.
func Get() Info {
	i := Info{Version: Version, Commit: Commit, Date: Date}
	if i.Version == "" {
		i.Version = "dev"
	}
	i.Version = strings.TrimPrefix(i.Version, "v")
	if i.Commit != "" && i.Date != "" {
		return i
	}
	bi, ok := readBuildInfo()
	if !ok {
		return i
	}
	var rev, at string
	var modified bool
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if i.Commit == "" && rev != "" {
		i.Commit = rev
		if modified {
			i.Commit += "-dirty"
		}
	}
	if i.Date == "" {
		i.Date = at
	}
	return i
}

// releaseRE matches the versions a release image is published for: 1.2.3 and 1.2.3-rc.1.
var releaseRE = regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+(-rc\.[0-9]+)?$`)

// IsRelease reports whether v is a released version (images are published for it).
func IsRelease(v string) bool { return releaseRE.MatchString(strings.TrimPrefix(v, "v")) }

// ImageTag is the tag of this release's images ("v0.1.0"), DevImageTag for a dev build.
func (i Info) ImageTag() string {
	if IsRelease(i.Version) {
		return "v" + strings.TrimPrefix(i.Version, "v")
	}
	return DevImageTag
}

// ReloaderImage is the config-reloader image the operator defaults to: the one of the
// operator's own release, ReloaderRepository:latest for a dev build.
func ReloaderImage() string { return ReloaderRepository + ":" + Get().ImageTag() }

// Line is the version line of program: "lookout-operator 0.1.0 (commit abc123, built
// 2026-12-01T10:00:00Z)"; the parenthesis leaves out what is unknown.
func (i Info) Line(program string) string {
	var extra []string
	if i.Commit != "" {
		extra = append(extra, "commit "+i.Commit)
	}
	if i.Date != "" {
		extra = append(extra, "built "+i.Date)
	}
	s := fmt.Sprintf("%s %s", program, i.Version)
	if len(extra) > 0 {
		s += " (" + strings.Join(extra, ", ") + ")"
	}
	return s
}

// String is the operator's version line, as "lookout-operator version" prints it.
func String() string { return Get().Line("lookout-operator") }
