package reloader

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

func TestFindProcesses(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	proc := func(pid, comm, cmdline string) {
		dir := filepath.Join(root, pid)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if comm != "" {
			_ = os.WriteFile(filepath.Join(dir, "comm"), []byte(comm+"\n"), 0o644)
		}
		if cmdline != "" {
			_ = os.WriteFile(filepath.Join(dir, "cmdline"), []byte(cmdline), 0o644)
		}
	}
	proc("10", "prometheus", "/bin/prometheus\x00--config.file=x\x00")
	proc("11", "sh", "/bin/sh\x00-c\x00prometheus\x00")
	proc("12", "", "/usr/local/bin/prometheus\x00")                      // comm unreadable
	proc("13", "prometheus-conf", "/bin/prometheus-config-reloader\x00") // truncated comm of another name
	proc("14", "very-long-proce", "/opt/very-long-process-name\x00")     // truncated comm
	proc("self", "prometheus", "")                                       // not a pid
	proc(strconv.Itoa(os.Getpid()), "prometheus", "prometheus\x00")      // the caller itself
	proc("15", "prometheus-conf", "/bin/prometheus-conf\x00")            // exact 15-byte name
	proc("16", "prometheus", "")                                         // no command line
	proc("17", "very-long-proce", "")                                    // truncated, no command line

	for _, tc := range []struct {
		name string
		want []int
	}{
		{"prometheus", []int{10, 12, 16}},
		{"very-long-process-name", []int{14}},
		{"prometheus-conf", []int{15}},
		{"absent", nil},
	} {
		got, err := FindProcesses(root, tc.name)
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(got)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
	if _, err := FindProcesses(filepath.Join(root, "missing"), "x"); err == nil {
		t.Error("missing proc root accepted")
	}
}
