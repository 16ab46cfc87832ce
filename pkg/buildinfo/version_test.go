package buildinfo

import (
	"runtime/debug"
	"testing"
)

func withBuild(t *testing.T, v, c, d string, settings ...debug.BuildSetting) {
	t.Helper()
	ov, oc, od, orb := Version, Commit, Date, readBuildInfo
	t.Cleanup(func() { Version, Commit, Date, readBuildInfo = ov, oc, od, orb })
	Version, Commit, Date = v, c, d
	readBuildInfo = func() (*debug.BuildInfo, bool) {
		return &debug.BuildInfo{Settings: settings}, settings != nil
	}
}

func TestLinkerValues(t *testing.T) {
	withBuild(t, "0.1.0", "abc123", "2026-12-01T10:00:00Z",
		debug.BuildSetting{Key: "vcs.revision", Value: "ignored"})
	if got, want := String(), "lookout-operator 0.1.0 (commit abc123, built 2026-12-01T10:00:00Z)"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if got, want := ReloaderImage(), "ghcr.io/lookout-operator/config-reloader:v0.1.0"; got != want {
		t.Errorf("ReloaderImage() = %q, want %q", got, want)
	}
}

func TestLeadingVIsDropped(t *testing.T) {
	withBuild(t, "v0.2.0-rc.1", "c", "d")
	if i := Get(); i.Version != "0.2.0-rc.1" || i.ImageTag() != "v0.2.0-rc.1" {
		t.Errorf("got %+v tag %q", i, i.ImageTag())
	}
}

func TestBuildInfoFallback(t *testing.T) {
	withBuild(t, "dev", "", "",
		debug.BuildSetting{Key: "vcs.revision", Value: "0123456789abcdef"},
		debug.BuildSetting{Key: "vcs.time", Value: "2026-11-30T09:00:00Z"},
		debug.BuildSetting{Key: "vcs.modified", Value: "true"})
	if got, want := String(), "lookout-operator dev (commit 0123456789abcdef-dirty, built 2026-11-30T09:00:00Z)"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if got, want := ReloaderImage(), "ghcr.io/lookout-operator/config-reloader:latest"; got != want {
		t.Errorf("dev build ReloaderImage() = %q, want %q", got, want)
	}
}

func TestNothingKnown(t *testing.T) {
	withBuild(t, "", "", "")
	if got := Get().Line("config-reloader"); got != "config-reloader dev" {
		t.Errorf("Line = %q", got)
	}
}

func TestIsRelease(t *testing.T) {
	for v, want := range map[string]bool{
		"0.1.0": true, "v1.2.3": true, "1.2.3-rc.4": true,
		"dev": false, "0.1.0-3-gabc1234": false, "0.1.0-dirty": false, "b91e5b6": false, "": false,
	} {
		if got := IsRelease(v); got != want {
			t.Errorf("IsRelease(%q) = %v, want %v", v, got, want)
		}
	}
}
