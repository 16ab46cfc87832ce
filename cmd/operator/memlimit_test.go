package main

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
)

func TestSetGoMemLimit(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(before) })
	t.Setenv("GOMEMLIMIT", "")
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	oldV2, oldV1, oldInfo := cgroupV2Max, cgroupV1Max, meminfo
	t.Cleanup(func() { cgroupV2Max, cgroupV1Max, meminfo = oldV2, oldV1, oldInfo })
	meminfo = write("meminfo", "MemTotal:        1000 kB\nMemFree: 1 kB\n")
	cases := []struct {
		name   string
		v2, v1 string // "" means absent
		ratio  float64
		want   int64
	}{
		{"off", "200000000", "", 0, 0},
		{"cgroup v2", "200000000", "", 0.5, 100000000},
		{"cgroup v2 without limit falls back to the machine", "max", "", 0.5, 512000},
		{"cgroup v1", "", "300000000", 0.9, 270000000},
		{"cgroup v1 without limit", "", "9223372036854771712", 1, 1024000},
		{"ratio above 1 counts as 1", "100", "", 3, 100},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cgroupV2Max, cgroupV1Max = filepath.Join(dir, "absent"), filepath.Join(dir, "absent")
			if c.v2 != "" {
				cgroupV2Max = write("v2", c.v2+"\n")
			}
			if c.v1 != "" {
				cgroupV1Max = write("v1", c.v1+"\n")
			}
			got, err := setGoMemLimit(c.ratio)
			if err != nil || got != c.want {
				t.Fatalf("got %d, %v; want %d", got, err, c.want)
			}
			if c.want > 0 && debug.SetMemoryLimit(-1) != c.want {
				t.Errorf("GOMEMLIMIT is %d, want %d", debug.SetMemoryLimit(-1), c.want)
			}
		})
	}
	t.Setenv("GOMEMLIMIT", "1GiB")
	if got, _ := setGoMemLimit(0.5); got != 0 {
		t.Errorf("an explicit GOMEMLIMIT was overridden with %d", got)
	}
}

// TestGCPercent: without $GOGC the operator collects at 1.5 times its live heap while it
// starts and at 1.4 times after; an explicit $GOGC wins both times.
func TestGCPercent(t *testing.T) {
	before := debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetGCPercent(before) })
	t.Setenv("GOGC", "")
	for _, want := range []int{defaultGCPercent, steadyGCPercent} {
		if got := setGCPercent(want); got != want {
			t.Fatalf("set %d, want %d", got, want)
		}
		if got := debug.SetGCPercent(100); got != want {
			t.Fatalf("GC percent %d, want %d", got, want)
		}
	}
	t.Setenv("GOGC", "200")
	for _, pct := range []int{defaultGCPercent, steadyGCPercent} {
		if got := setGCPercent(pct); got != 0 {
			t.Fatalf("set %d with $GOGC given", got)
		}
		if got := debug.SetGCPercent(100); got != 100 {
			t.Fatalf("GC percent %d changed despite $GOGC", got)
		}
	}
}
