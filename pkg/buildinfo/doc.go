// Package buildinfo holds what Lookout's binaries report about their build: the release
// version, the commit and the build date.
//
// Release builds set all three with the linker:
//
//	go build -ldflags "-X github.com/lookout-operator/lookout/pkg/buildinfo.Version=0.1.0 \
//	    -X github.com/lookout-operator/lookout/pkg/buildinfo.Commit=$(git rev-parse HEAD) \
//	    -X github.com/lookout-operator/lookout/pkg/buildinfo.Date=$(date -u +%FT%TZ)"
//
// (make build and the Dockerfile do). A plain go build leaves Version at "dev" and takes
// the commit and its time from the VCS information the Go toolchain embeds
// (runtime/debug.ReadBuildInfo: vcs.revision, vcs.time, vcs.modified).
//
// The operator's default config-reloader image follows the version: a release
// operator runs the reloader image of the same release (ReloaderImage); a dev build
// runs the "latest" tag.
package buildinfo
