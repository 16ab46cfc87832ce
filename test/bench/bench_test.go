package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

const sampleConfig = `global:
  scrape_interval: 30s
scrape_configs:
- job_name: serviceMonitor/bench-00/sm-00000/0
  honor_labels: false
  scrape_interval: 31s
  kubernetes_sd_configs:
  - role: endpointslice
- job_name: serviceMonitor/bench-01/sm-00001/0
  scrape_interval: 30s
- job_name: podMonitor/x/y/0
`

func TestJobs(t *testing.T) {
	cfg := []byte(sampleConfig)
	sc := scenario{items: 3, namespaces: 50}
	want := map[string]bool{sc.job(0): true, sc.job(1): true, sc.job(2): true}
	if got := countJobs(cfg, want); got != 2 {
		t.Errorf("countJobs = %d, want 2", got)
	}
	if !hasInterval(cfg, sc.job(0), "31s") || hasInterval(cfg, sc.job(1), "31s") || !hasInterval(cfg, sc.job(1), "30s") {
		t.Errorf("hasInterval does not stay within one job:\n%s", jobBlock(cfg, sc.job(1)))
	}
	if hasInterval(cfg, sc.job(2), "30s") {
		t.Error("hasInterval found a missing job")
	}
}

// The ServiceMonitor section's markers are what Documentation/benchmarks.md has always had.
var (
	beginMarker = serviceMonitorKind.beginMarker()
	endMarker   = serviceMonitorKind.endMarker()
)

func TestMarkers(t *testing.T) {
	if beginMarker != "<!-- scale-benchmark:begin (written by test/bench; do not edit by hand) -->" || endMarker != "<!-- scale-benchmark:end -->" {
		t.Errorf("ServiceMonitor markers changed: %q, %q", beginMarker, endMarker)
	}
	seen := map[string]bool{}
	for _, k := range kinds {
		for _, m := range []string{k.beginMarker(), k.endMarker()} {
			for other := range seen {
				if strings.Contains(m, other) || strings.Contains(other, m) {
					t.Errorf("marker %q overlaps %q", m, other)
				}
			}
			seen[m] = true
		}
		if got, err := kindByFlag(k.flag); err != nil || got != k {
			t.Errorf("kindByFlag(%q) = %v, %v", k.flag, got, err)
		}
	}
	if _, err := kindByFlag("podmonitors"); err == nil {
		t.Error("kindByFlag accepted an unknown kind")
	}
}

func TestPercentile(t *testing.T) {
	var d []time.Duration
	for i := 1; i <= 50; i++ {
		d = append(d, time.Duration(51-i)*time.Millisecond)
	}
	if p := percentile(d, 0.5); p != 25*time.Millisecond {
		t.Errorf("median = %s", p)
	}
	if p := percentile(d, 0.99); p != 50*time.Millisecond {
		t.Errorf("p99 of 50 = %s, want the worst", p)
	}
	if p := percentile(nil, 0.5); p != -1 {
		t.Errorf("empty = %s", p)
	}
}

func TestAuditTail(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.log")
	line := func(user, verb, res, sub string, code int) string {
		return `{"kind":"Event","stage":"ResponseComplete","verb":"` + verb + `","user":{"username":"` + user + `"},` +
			`"objectRef":{"resource":"` + res + `","subresource":"` + sub + `","namespace":"a","name":"b"},` +
			`"responseStatus":{"code":` + itoa(code) + `},"stageTimestamp":"2026-01-02T03:04:05.123456Z"}` + "\n"
	}
	all := line("op", "update", "secrets", "", 200) + line("admin", "create", "secrets", "", 201) +
		line("op", "update", "servicemonitors", "status", 409) + line("op", "create", "selfsubjectaccessreviews", "", 201) +
		line("op", "list", "secrets", "", 200)
	// The last line arrives in two pieces.
	if err := os.WriteFile(path, []byte(all[:len(all)-20]), 0o644); err != nil {
		t.Fatal(err)
	}
	a := &auditTail{path: path, user: "op"}
	var c requestCount
	evs, err := a.next()
	if err != nil {
		t.Fatal(err)
	}
	c.add(evs)
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(all[len(all)-20:])
	f.Close()
	evs, err = a.next()
	if err != nil {
		t.Fatal(err)
	}
	c.add(evs)
	// The permission check counts as a read: it stores nothing.
	if c.writes != 2 || c.reads != 2 {
		t.Errorf("writes %d, reads %d; want 2, 2", c.writes, c.reads)
	}
	if got, want := c.String(), "1 update secrets, 1 update servicemonitors/status (409)"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestWriteSection(t *testing.T) {
	path := filepath.Join(t.TempDir(), "b.md")
	md := beginMarker + "\nnew\n" + endMarker + "\n"
	if err := os.WriteFile(path, []byte("# B\n\nintro\n\n"+beginMarker+"\nold\n"+endMarker+"\n\ntail\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := writeSection(path, md, beginMarker, endMarker); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	if want := "# B\n\nintro\n\n" + beginMarker + "\nnew\n" + endMarker + "\n\ntail\n"; string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}

	// Another kind's section is appended the first time and replaced after, leaving the
	// ServiceMonitor section alone.
	k := alertmanagerConfigKind
	amMD := func(s string) string { return k.beginMarker() + "\n" + s + "\n" + k.endMarker() + "\n" }
	for _, s := range []string{"am1", "am2"} {
		if err := writeSection(path, amMD(s), k.beginMarker(), k.endMarker()); err != nil {
			t.Fatal(err)
		}
	}
	got, _ = os.ReadFile(path)
	if want := "# B\n\nintro\n\n" + beginMarker + "\nnew\n" + endMarker + "\n\ntail\n\n" + amMD("am2"); string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestReadProc(t *testing.T) {
	p, err := readProc(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if p.rss == 0 || p.hwm < p.rss {
		t.Errorf("rss %d, hwm %d", p.rss, p.hwm)
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{"/tmp/a.kubeconfig": "/tmp/a.kubeconfig", "a b": "'a b'", "it's": `'it'\''s'`} {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %q, want %q", in, got, want)
		}
	}
}

// The changes spread over the namespaces as well as over the objects.
func TestChangedObjectSpreadsOverNamespaces(t *testing.T) {
	const namespaces = 50
	for _, n := range []int{100, 1000, 5000} {
		seen := map[int]bool{}
		objects := map[int]bool{}
		for c := 0; c < 50; c++ {
			i := changedObject(c, n, 50)
			if i < 0 || i >= n {
				t.Fatalf("n=%d change %d: object %d out of range", n, c, i)
			}
			seen[i%namespaces] = true
			objects[i] = true
		}
		if len(seen) < 25 || len(objects) != 50 {
			t.Errorf("n=%d: 50 changes hit %d namespaces and %d objects", n, len(seen), len(objects))
		}
	}
}
