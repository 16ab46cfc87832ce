package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
)

// setMemLimit implements --auto-gomemlimit-ratio as prometheus-config-reloader does: the
// Go memory limit becomes ratio times the memory limit of the container's cgroup (v2 or
// v1, the smallest on the way up the hierarchy) or, without one, of the machine. The
// ratio is clamped to [0, 1] and 0 leaves the limit alone; so does a GOMEMLIMIT in the
// environment, which the Go runtime has already applied.
func setMemLimit(ratio float64, log *slog.Logger) {
	ratio = min(max(ratio, 0), 1)
	if ratio == 0 {
		return
	}
	if v, ok := os.LookupEnv("GOMEMLIMIT"); ok {
		log.Info("GOMEMLIMIT is set in the environment; --auto-gomemlimit-ratio ignored", "GOMEMLIMIT", v)
		return
	}
	total, source, err := memoryLimit(osFiles{})
	if err != nil {
		log.Warn("setting GOMEMLIMIT automatically failed", "err", err)
		return
	}
	limit := int64(min(float64(total)*ratio, math.MaxInt64))
	debug.SetMemoryLimit(limit)
	log.Info("GOMEMLIMIT set", "bytes", limit, "ratio", ratio, "of", source, "limit_bytes", total)
}

// files reads the files memoryLimit needs (an interface so tests can fake /proc and
// /sys).
type files interface {
	ReadFile(path string) ([]byte, error)
	// TotalRAM is the machine's memory in bytes.
	TotalRAM() (uint64, error)
}

// osFiles reads the real files.
type osFiles struct{}

func (osFiles) ReadFile(path string) ([]byte, error) { return os.ReadFile(path) }
func (osFiles) TotalRAM() (uint64, error) {
	var si syscall.Sysinfo_t
	if err := syscall.Sysinfo(&si); err != nil {
		return 0, err
	}
	return si.Totalram * uint64(si.Unit), nil
}

// errNoLimit: the cgroup sets no memory limit.
var errNoLimit = errors.New("no cgroup memory limit")

// memoryLimit returns the cgroup's memory limit, or the machine's memory without one.
func memoryLimit(f files) (bytes uint64, source string, err error) {
	limit, err := cgroupMemoryLimit(f)
	if err == nil {
		return limit, "cgroup", nil
	}
	if !errors.Is(err, errNoLimit) && !errors.Is(err, os.ErrNotExist) {
		return 0, "", err
	}
	total, err := f.TotalRAM()
	if err != nil {
		return 0, "", fmt.Errorf("reading the machine's memory: %w", err)
	}
	return total, "system", nil
}

// mount is one line of /proc/self/mountinfo, reduced to what the lookup needs.
type mount struct {
	root, point, fstype, superOptions string
}

// cgroupMemoryLimit reads the memory limit of the process's cgroup: cgroup v2's
// memory.max, or cgroup v1's memory.limit_in_bytes, the smallest from the process's
// cgroup up to the mount's root.
func cgroupMemoryLimit(f files) (uint64, error) {
	mi, err := f.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return 0, err
	}
	cg, err := f.ReadFile("/proc/self/cgroup")
	if err != nil {
		return 0, err
	}
	mounts := parseMountinfo(mi)
	for _, line := range strings.Split(strings.TrimSpace(string(cg)), "\n") {
		// hierarchy-ID:controllers:path
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		v2 := parts[0] == "0" && parts[1] == ""
		v1 := strings.Contains(","+parts[1]+",", ",memory,")
		if !v2 && !v1 {
			continue
		}
		for _, m := range mounts {
			switch {
			case v2 && m.fstype == "cgroup2":
				return walkLimits(f, m, parts[2], "memory.max")
			case v1 && m.fstype == "cgroup" && strings.Contains(","+m.superOptions+",", ",memory,"):
				return walkLimits(f, m, parts[2], "memory.limit_in_bytes")
			}
		}
	}
	return 0, errNoLimit
}

// walkLimits reads file in the cgroup directory of path and in each parent up to the
// mount point, and returns the smallest limit found.
func walkLimits(f files, m mount, path, file string) (uint64, error) {
	rel, err := filepath.Rel(m.root, path)
	if err != nil || strings.HasPrefix(rel, "..") {
		// The cgroup lies outside what is mounted (a cgroup namespace's view):
		// the mount point is the process's own cgroup.
		rel = "."
	}
	var best uint64
	for dir := filepath.Join(m.point, rel); ; dir = filepath.Dir(dir) {
		b, err := f.ReadFile(filepath.Join(dir, file))
		if err == nil {
			if v, ok := parseLimit(b); ok && (best == 0 || v < best) {
				best = v
			}
		} else if !errors.Is(err, os.ErrNotExist) {
			return 0, err
		}
		if dir == m.point || len(dir) <= len(m.point) {
			break
		}
	}
	if best == 0 {
		return 0, errNoLimit
	}
	return best, nil
}

// parseLimit reads a limit file: "max" (v2) or a value of 2^62 or more (v1's
// "unlimited", rounded down to the page size) mean none.
func parseLimit(b []byte) (uint64, bool) {
	s := string(bytes.TrimSpace(b))
	if s == "max" {
		return 0, false
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil || v == 0 || v >= 1<<62 {
		return 0, false
	}
	return v, true
}

// parseMountinfo parses /proc/self/mountinfo (proc(5)): fields 4 and 5 are the root and
// the mount point, and after the " - " separator come the file system type, the source
// and the super options.
func parseMountinfo(b []byte) []mount {
	var out []mount
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		pre, post, ok := strings.Cut(sc.Text(), " - ")
		if !ok {
			continue
		}
		f, g := strings.Fields(pre), strings.Fields(post)
		if len(f) < 5 || len(g) < 3 {
			continue
		}
		out = append(out, mount{root: unescapeMount(f[3]), point: unescapeMount(f[4]), fstype: g[0], superOptions: g[2]})
	}
	return out
}

// unescapeMount undoes mountinfo's octal escapes (\040 for a space).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if v, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(v))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
