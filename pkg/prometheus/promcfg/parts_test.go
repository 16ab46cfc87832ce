package promcfg_test

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"github.com/prometheus/prometheus/config"

	"github.com/lookout-operator/lookout/pkg/confighash"
	"github.com/lookout-operator/lookout/pkg/monitorkind"
	"github.com/lookout-operator/lookout/pkg/prometheus/promcfg"
)

// jobItems cuts a config at its scrape job list into the text before the jobs and the
// jobs, sorted.
func jobItems(t *testing.T, cfg []byte) (string, []string) {
	t.Helper()
	head, jobs, ok := strings.Cut(string(cfg), "scrape_configs:\n")
	if !ok {
		return string(cfg), nil
	}
	var items []string
	for _, item := range strings.SplitAfter(jobs, "\n") {
		if strings.HasPrefix(item, "- ") || len(items) == 0 {
			items = append(items, item)
		} else {
			items[len(items)-1] += item
		}
	}
	slices.Sort(items)
	return head, items
}

// Every golden configuration split into 1 to 5 parts concatenates back to the same
// configuration up to the order of its scrape jobs.
func TestSplitConfigIsAPermutationOfJobs(t *testing.T) {
	t.Parallel()
	for _, c := range goldenCases() {
		res, err := generateAll(c)
		if err != nil {
			continue // the rejected cases have no configuration
		}
		wantHead, wantJobs := jobItems(t, res.Config)
		for n := 1; n <= 5; n++ {
			parts, err := promcfg.SplitConfig(res.Config, n, nil)
			if err != nil {
				t.Fatalf("%s, %d parts: %v", c.name, n, err)
			}
			if len(wantJobs) > 0 && len(parts) != n {
				t.Fatalf("%s: %d parts, want %d", c.name, len(parts), n)
			}
			whole := bytes.Join(parts, nil)
			head, jobs := jobItems(t, whole)
			if head != wantHead || !slices.Equal(jobs, wantJobs) {
				t.Errorf("%s, %d parts: the concatenation is not the config with its jobs reordered:\n%s", c.name, n, whole)
			}
			for i, p := range parts[1:] {
				if len(p) > 0 && !bytes.HasPrefix(p, []byte("- job_name: ")) {
					t.Errorf("%s, part %d starts with %q", c.name, i+1, p[:min(len(p), 40)])
				}
			}
		}
	}
}

// Parts.Assign spreads a generation's pieces as SplitConfig spreads its bytes, for every
// golden case and number of parts, also when called again with another number of parts
// and again with the same pieces (whose parts it then takes from its last call).
func TestPartsAssignLikeSplitConfig(t *testing.T) {
	t.Parallel()
	for _, c := range goldenCases() {
		g := promcfg.NewGenerator()
		g.PodZoneLabels, g.Pieces = c.podZoneLabels, true
		res, err := g.Generate(promcfg.Input{
			Prometheus: serverOf(c.prom), Monitors: monitorkind.Set{ServiceMonitors: c.sms, PodMonitors: c.pms, Probes: c.probes, ScrapeConfigs: c.scs}, Assets: testAssets(),
			RuleFiles: []string{"/etc/prometheus/rules/prometheus-k8s-rulefiles-0/*.yaml"},
		})
		if err != nil {
			continue // the rejected cases have no configuration
		}
		hasJobs := bytes.Contains(res.Bytes(), []byte("\nscrape_configs:\n"))
		var assigner promcfg.Parts
		for _, n := range []int{1, 2, 3, 5, 3, 3} {
			want, err := promcfg.SplitConfig(res.Bytes(), n, nil)
			if err != nil {
				t.Fatalf("%s, %d parts: %v", c.name, n, err)
			}
			got, ok := assigner.Assign(res.Pieces, n)
			if !ok {
				if hasJobs {
					t.Fatalf("%s, %d parts: the pieces were not assigned", c.name, n)
				}
				continue
			}
			if len(got) != len(want) && hasJobs {
				t.Fatalf("%s: %d parts, want %d", c.name, len(got), len(want))
			}
			for i := range want {
				if joined := bytes.Join(got[i], nil); !bytes.Equal(joined, want[i]) {
					t.Fatalf("%s, %d parts: part %d is\n%s\nwant\n%s", c.name, n, i, joined, want[i])
				}
			}
		}
	}
}

// The parts concatenated load with Prometheus's loader into the same jobs.
func TestSplitConfigLoads(t *testing.T) {
	t.Parallel()
	res, err := promcfg.NewGenerator().Generate(promcfg.Input{Prometheus: serverOf(prom()), Monitors: monitorkind.Set{ServiceMonitors: benchMonitors(40)}, Assets: testAssets()})
	if err != nil {
		t.Fatal(err)
	}
	parts, err := promcfg.SplitConfig(res.Config, 4, nil)
	if err != nil {
		t.Fatal(err)
	}
	load := func(b []byte) []string {
		cfg, err := config.Load(strings.NewReplacer("$(SHARD)", "0", "$(POD_NAME)", "prometheus-k8s-0").Replace(string(b)), nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, j := range cfg.ScrapeConfigs {
			names = append(names, j.JobName)
		}
		slices.Sort(names)
		return names
	}
	if got, want := load(bytes.Join(parts, nil)), load(res.Config); !slices.Equal(got, want) || len(want) != 120 {
		t.Errorf("jobs of the parts %v, of the config %v", got, want)
	}
	for i, p := range parts {
		if len(p) == 0 {
			t.Errorf("part %d of 4 is empty with 40 monitors", i)
		}
	}
}

// A change to one monitor changes one part; the jobs of a monitor share a part.
func TestSplitConfigIsStable(t *testing.T) {
	t.Parallel()
	sms := benchMonitors(30)
	g := promcfg.NewGenerator()
	in := promcfg.Input{Prometheus: serverOf(prom()), Monitors: monitorkind.Set{ServiceMonitors: sms}, Assets: testAssets()}
	before, err := g.Generate(in)
	if err != nil {
		t.Fatal(err)
	}
	sms[7].Spec.Endpoints[0].Interval = "17s"
	sms[7].Spec.Endpoints[2].Interval = "19s"
	sms[7].Generation++
	after, err := g.Generate(in)
	if err != nil {
		t.Fatal(err)
	}
	const n = 4
	p1, _ := promcfg.SplitConfig(before.Config, n, nil)
	p2, _ := promcfg.SplitConfig(after.Config, n, nil)
	var changed []int
	for i := range n {
		if !bytes.Equal(p1[i], p2[i]) {
			changed = append(changed, i)
		}
	}
	if len(changed) != 1 {
		t.Fatalf("parts %v changed, want one", changed)
	}
	for _, j := range []string{"/0\n", "/1\n", "/2\n"} {
		if !bytes.Contains(p2[changed[0]], []byte(fmt.Sprintf("- job_name: serviceMonitor/%s/%s%s", sms[7].Namespace, sms[7].Name, j))) {
			t.Errorf("job %s of the changed monitor is not in the changed part", j)
		}
	}
}

func TestSplitConfigRefusesAKeyAfterTheJobs(t *testing.T) {
	t.Parallel()
	cfg := []byte("global: {}\nscrape_configs:\n- job_name: a\nremote_write: []\n")
	if _, err := promcfg.SplitConfig(cfg, 2, nil); err == nil {
		t.Error("a key after the job list was split")
	}
	if parts, err := promcfg.SplitConfig(cfg, 1, nil); err != nil || len(parts) != 1 {
		t.Errorf("one part: %v, %v", parts, err)
	}
}

// TestPieces: with Pieces, the configuration is handed out as pieces that join to
// byte for byte what a fresh generator writes, and the unchanged monitors' pieces are
// the cached bytes themselves, not copies.
func TestPieces(t *testing.T) {
	sms := []*monitoringv1.ServiceMonitor{sm("a"), sm("b")}
	in := promcfg.Input{Prometheus: serverOf(prom()), Monitors: monitorkind.Set{ServiceMonitors: sms}, Assets: testAssets()}
	g := promcfg.NewGenerator()
	g.Pieces = true
	first, err := g.Generate(in)
	if err != nil {
		t.Fatal(err)
	}
	if first.Config != nil || len(first.Pieces) < 3 || first.Size != len(first.Bytes()) {
		t.Fatalf("pieces: Config %d bytes, %d pieces, Size %d", len(first.Config), len(first.Pieces), first.Size)
	}
	sms[1].Generation++
	sms[1].Spec.Endpoints[0].Interval = "17s"
	second, want := generateBeside(t, g, in)
	if string(second.Bytes()) != string(want.Config) || second.ConfigHash() != want.Hash {
		t.Fatalf("pieces join to\n%s\nwant\n%s", second.Bytes(), want.Config)
	}
	if !strings.Contains(string(second.Bytes()), "scrape_interval: 17s") {
		t.Fatalf("the change is missing:\n%s", second.Bytes())
	}
	// Monitor a's jobs (the piece before b's) are the same bytes both times.
	n := len(second.Pieces)
	if &first.Pieces[n-2][0] != &second.Pieces[n-2][0] {
		t.Fatal("the unchanged monitor's piece was copied")
	}
}

// TestPiecesHashResumes: a series of changes to monitors at the start, middle and end
// (and an unchanged generation) always names the configuration as its joined text is
// named (confighash.Sum), as a fresh generator names it, also when some generations'
// hashes are never asked for and when an older generation's hash is asked for after a
// newer one's.
func TestPiecesHashResumes(t *testing.T) {
	var sms []*monitoringv1.ServiceMonitor
	for i := 0; i < 12; i++ {
		sms = append(sms, sm(fmt.Sprintf("m%02d", i)))
	}
	in := promcfg.Input{Prometheus: serverOf(prom()), Monitors: monitorkind.Set{ServiceMonitors: sms}, Assets: testAssets()}
	g := promcfg.NewGenerator()
	g.Pieces = true
	check := func(step int, got *promcfg.Result, want string) {
		t.Helper()
		if h := got.ConfigHash(); h != want || h != confighash.Sum(got.Bytes()) {
			t.Fatalf("step %d: hash %s, want %s", step, h, want)
		}
	}
	var held *promcfg.Result
	var heldWant string
	for step, c := range []struct {
		monitor int
		hash    string // "ask", "skip", or "hold" (asked after the next generation's)
	}{{-1, "ask"}, {0, "ask"}, {6, "skip"}, {11, "ask"}, {6, "hold"}, {-1, "ask"}, {3, "hold"}, {3, "skip"}, {5, "ask"}, {8, "ask"}} {
		if c.monitor >= 0 {
			sms[c.monitor].Generation++
			sms[c.monitor].Spec.Endpoints[0].Interval = monitoringv1.Duration(fmt.Sprintf("%ds", 10+step))
		}
		got, want := generateBeside(t, g, in)
		switch c.hash {
		case "ask":
			check(step, got, want.Hash)
		case "hold":
			held, heldWant = got, want.Hash
			continue
		}
		if held != nil {
			check(step, held, heldWant)
			held = nil
		}
	}
}
