//lint:file-ignore SA1019 tests set deprecated API fields that Lookout still honours

package promcfg_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/lookout-operator/lookout/pkg/monitorkind"
	"github.com/lookout-operator/lookout/pkg/prometheus/promcfg"
)

// TestDeterminism: the same inputs give byte-identical output, with a fresh generator each
// time and with a warm cache, over 1,000 generations (map iteration order varies per run).
func TestDeterminism(t *testing.T) {
	var cs []goldenCase
	for _, c := range goldenCases() {
		if c.name == "full_v3_everything" || c.name == "sm_match_expressions" || c.name == "remote_write_name_timeout_headers" {
			cs = append(cs, c)
		}
	}
	if len(cs) != 3 {
		t.Fatalf("determinism cases missing")
	}
	for _, c := range cs {
		first, err := generate(c.prom, c.sms, c.pms)
		if err != nil {
			t.Fatal(err)
		}
		warm := promcfg.NewGenerator()
		for i := 0; i < 1000/len(cs); i++ {
			var got *promcfg.Result
			if i%2 == 0 {
				got, err = generate(c.prom, c.sms, c.pms)
			} else {
				got, err = warm.Generate(promcfg.Input{Prometheus: serverOf(c.prom), Monitors: monitorkind.Set{ServiceMonitors: c.sms, PodMonitors: c.pms}, Assets: testAssets(),
					RuleFiles: []string{"/etc/prometheus/rules/prometheus-k8s-rulefiles-0/*.yaml"}})
			}
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Config, first.Config) || got.ConfigHash() != first.ConfigHash() {
				t.Fatalf("%s: generation %d differs", c.name, i)
			}
			if fmt.Sprint(got.TLSAssets) != fmt.Sprint(first.TLSAssets) {
				t.Fatalf("%s: TLS assets differ", c.name)
			}
		}
	}
}

// TestCacheInvalidation: the cache returns the new rendering when a monitor's generation,
// a referenced Secret or the Prometheus changes, and drops monitors that went away.
func TestCacheInvalidation(t *testing.T) {
	g := promcfg.NewGenerator()
	p := prom()
	m := sm("app", ep(func(e *EP) { e.BearerTokenSecret = ptr(secretKey("auth", "token")) }))
	gen := func(a promcfg.Assets, sms ...*SM) string {
		res, err := g.Generate(promcfg.Input{Prometheus: serverOf(p), Monitors: monitorkind.Set{ServiceMonitors: sms}, Assets: a})
		if err != nil {
			t.Fatal(err)
		}
		return string(res.Config)
	}
	base := testAssets()
	out := gen(base, m)
	if !bytes.Contains([]byte(out), []byte("credentials: tok-default")) {
		t.Fatalf("token missing:\n%s", out)
	}
	// Same generation: the cached rendering is used even if the object changed in memory.
	m2 := m.DeepCopy()
	m2.Spec.Endpoints[0].Interval = "5s"
	if gen(base, m2) != out {
		t.Fatal("unchanged generation re-rendered")
	}
	// New generation: re-rendered.
	m2.Generation = 2
	if !bytes.Contains([]byte(gen(base, m2)), []byte("scrape_interval: 5s")) {
		t.Fatal("new generation not re-rendered")
	}
	// Referenced Secret changed (new resourceVersion): re-rendered with the new value.
	rotated := layered{base, staticSecret("default", "auth", "9", map[string][]byte{"token": []byte("rotated")})}
	if !bytes.Contains([]byte(gen(rotated, m2)), []byte("credentials: rotated")) {
		t.Fatal("secret rotation not picked up")
	}
	// Prometheus change re-renders every monitor.
	p.Spec.Shards = ptr(int32(2))
	if !bytes.Contains([]byte(gen(rotated, m2)), []byte("hashmod")) {
		t.Fatal("prometheus change not applied")
	}
	// Monitor removed: gone from the config.
	if bytes.Contains([]byte(gen(rotated)), []byte("serviceMonitor/default/app")) {
		t.Fatal("removed monitor still present")
	}
}

// TestScrapeConfigSDSecretsTracked: the Secrets the service discoveries of a ScrapeConfig
// read are among the configuration's dependencies (so the controller regenerates on their
// change), and a new version of one is picked up by the cached generator.
func TestScrapeConfigSDSecretsTracked(t *testing.T) {
	rotated := map[string][]byte{}
	for _, k := range []string{"user", "password", "token", "client-id", "client-secret", "access", "secret"} {
		rotated[k] = []byte("rotated-" + k)
	}
	rotated["scaleway-secret"] = []byte("a1a2a3a4-b5b6-4c70-8d9e-0f1a2b3c4d5e")
	n := 0
	for _, c := range goldenCases() {
		if !strings.HasPrefix(c.name, "scrapeconfig_sd_") {
			continue
		}
		n++
		t.Run(c.name, func(t *testing.T) {
			g := promcfg.NewGenerator()
			in := promcfg.Input{Prometheus: serverOf(c.prom), Monitors: monitorkind.Set{ScrapeConfigs: c.scs}, Assets: testAssets()}
			res, err := g.Generate(in)
			if err != nil {
				t.Fatal(err)
			}
			readsAuth := false
			for _, d := range res.Dependencies {
				if d.Kind == promcfg.SecretAsset && d.Namespace == "default" && d.Name == "auth" {
					readsAuth = true
				}
			}
			if c.name == "scrapeconfig_sd_gce" {
				if len(res.Dependencies) != 0 {
					t.Errorf("GCE reads no Secret, dependencies %v", res.Dependencies)
				}
				return
			}
			if !readsAuth {
				t.Fatalf("Secret default/auth not among the dependencies %v", res.Dependencies)
			}
			in.Assets = layered{testAssets(), staticSecret("default", "auth", "9", rotated)}
			again, err := g.Generate(in)
			if err != nil {
				t.Fatal(err)
			}
			if v := again.Verdicts[0]; !v.Used() {
				t.Fatalf("rejected after rotation: %s", v.Message)
			}
			if !bytes.Contains(again.Config, []byte("rotated-")) && !bytes.Contains(again.Config, rotated["scaleway-secret"]) {
				t.Errorf("the rotated Secret's values are not in the regenerated configuration:\n%s", again.Config)
			}
		})
	}
	if n != 18 {
		t.Errorf("%d service-discovery golden cases, want one per discovery (18)", n)
	}
}
