package main

import (
	"bytes"
	"io"
	"log/slog"
	"os"
	"runtime/debug"
	"testing"
)

// fakeFiles serves memoryLimit's reads from a map.
type fakeFiles struct {
	files map[string]string
	ram   uint64
}

func (f fakeFiles) ReadFile(path string) ([]byte, error) {
	if s, ok := f.files[path]; ok {
		return []byte(s), nil
	}
	return nil, os.ErrNotExist
}
func (f fakeFiles) TotalRAM() (uint64, error) { return f.ram, nil }

const (
	mountinfoV2 = "29 1 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate\n" +
		"30 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n"
	mountinfoV1 = "30 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n" +
		"35 25 0:30 / /sys/fs/cgroup/cpu,cpuacct rw,nosuid shared:10 - cgroup cgroup rw,cpu,cpuacct\n" +
		"36 25 0:31 /kubepods/pod1 /sys/fs/cgroup/memory rw,nosuid shared:11 - cgroup cgroup rw,memory\n"
)

func TestMemoryLimit(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		files  map[string]string
		want   uint64
		source string
	}{
		{"v2 limit on the container", map[string]string{
			"/proc/self/mountinfo":                       mountinfoV2,
			"/proc/self/cgroup":                          "0::/kubepods/pod1/c1\n",
			"/sys/fs/cgroup/kubepods/pod1/c1/memory.max": "52428800\n",
			"/sys/fs/cgroup/kubepods/pod1/memory.max":    "104857600\n",
			"/sys/fs/cgroup/kubepods/memory.max":         "max\n",
		}, 52428800, "cgroup"},
		{"v2 limit on the pod only", map[string]string{
			"/proc/self/mountinfo":                       mountinfoV2,
			"/proc/self/cgroup":                          "0::/kubepods/pod1/c1\n",
			"/sys/fs/cgroup/kubepods/pod1/c1/memory.max": "max\n",
			"/sys/fs/cgroup/kubepods/pod1/memory.max":    "104857600\n",
		}, 104857600, "cgroup"},
		{"v2 in a cgroup namespace", map[string]string{
			"/proc/self/mountinfo":      mountinfoV2,
			"/proc/self/cgroup":         "0::/\n",
			"/sys/fs/cgroup/memory.max": "67108864\n",
		}, 67108864, "cgroup"},
		{"v2 without a limit", map[string]string{
			"/proc/self/mountinfo":      mountinfoV2,
			"/proc/self/cgroup":         "0::/user.slice\n",
			"/sys/fs/cgroup/memory.max": "max\n",
		}, 8 << 30, "system"},
		{"v1", map[string]string{
			"/proc/self/mountinfo":                           mountinfoV1,
			"/proc/self/cgroup":                              "5:cpu,cpuacct:/kubepods/pod1/c1\n4:memory:/kubepods/pod1/c1\n",
			"/sys/fs/cgroup/memory/c1/memory.limit_in_bytes": "52428800\n",
			"/sys/fs/cgroup/memory/memory.limit_in_bytes":    "9223372036854771712\n",
		}, 52428800, "cgroup"},
		{"v1 unlimited", map[string]string{
			"/proc/self/mountinfo":                        mountinfoV1,
			"/proc/self/cgroup":                           "4:memory:/kubepods/pod1\n",
			"/sys/fs/cgroup/memory/memory.limit_in_bytes": "9223372036854771712\n",
		}, 8 << 30, "system"},
		{"no cgroup file system", map[string]string{
			"/proc/self/mountinfo": "30 1 8:1 / / rw - ext4 /dev/sda1 rw\n",
			"/proc/self/cgroup":    "0::/\n",
		}, 8 << 30, "system"},
	} {
		got, source, err := memoryLimit(fakeFiles{files: tc.files, ram: 8 << 30})
		if err != nil || got != tc.want || source != tc.source {
			t.Errorf("%s: %d from %s, %v; want %d from %s", tc.name, got, source, err, tc.want, tc.source)
		}
	}
}

func TestUnescapeMount(t *testing.T) {
	t.Parallel()
	if got := unescapeMount(`/mnt/a\040b\134c\`); got != `/mnt/a b\c\` {
		t.Fatalf("%q", got)
	}
}

// TestSetMemLimit sets the process's Go memory limit: not parallel, restored after.
func TestSetMemLimit(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(before) })
	total, _, err := memoryLimit(osFiles{})
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	setMemLimit(0.5, slog.New(slog.NewTextHandler(&log, nil)))
	if os.Getenv("GOMEMLIMIT") != "" {
		if debug.SetMemoryLimit(-1) != before {
			t.Fatal("GOMEMLIMIT in the environment overridden")
		}
		return
	}
	if got := debug.SetMemoryLimit(-1); got != int64(total/2) {
		t.Fatalf("limit %d, want half of %d; log: %s", got, total, log.String())
	}
	setMemLimit(0, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if got := debug.SetMemoryLimit(-1); got != int64(total/2) {
		t.Fatal("ratio 0 changed the limit")
	}
}
