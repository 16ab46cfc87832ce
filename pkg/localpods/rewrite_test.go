package localpods

import (
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

func TestExpand(t *testing.T) {
	vars := map[string]string{"POD_NAME": "prometheus-demo-0", "EMPTY": ""}
	for in, want := range map[string]string{
		"$(POD_NAME)":        "prometheus-demo-0",
		"x-$(POD_NAME)-y":    "x-prometheus-demo-0-y",
		"$(MISSING)":         "$(MISSING)",
		"$$(POD_NAME)":       "$(POD_NAME)",
		"$(EMPTY)a":          "a",
		"$(unterminated":     "$(unterminated",
		"cost $5":            "cost $5",
		"trailing $":         "trailing $",
		"--flag=$(POD_NAME)": "--flag=prometheus-demo-0",
	} {
		if got := Expand(in, vars); got != want {
			t.Errorf("Expand(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRewriteArgs(t *testing.T) {
	m := paths{"/etc/prometheus/config_out": "/pod/volumes/config-out", "/etc/prometheus": "/pod/volumes/other", "/prometheus": "/pod/volumes/db"}
	pt := ports{9090: 41000, 8080: 41001}
	for in, want := range map[string]string{
		"--config.file=/etc/prometheus/config_out/prometheus.env.yaml": "--config.file=/pod/volumes/config-out/prometheus.env.yaml",
		"--storage.tsdb.path=/prometheus":                              "--storage.tsdb.path=/pod/volumes/db",
		"--web.route-prefix=/":                                         "--web.route-prefix=/",
		"/etc/prometheus/x.yaml":                                       "/pod/volumes/other/x.yaml",
		"--x=/etc/prometheusfoo":                                       "--x=/etc/prometheusfoo",
		"--reload-url=http://127.0.0.1:9090/-/reload":                  "--reload-url=http://127.0.0.1:41000/-/reload",
		"--listen-address=:8080":                                       "--listen-address=127.0.0.1:41001",
		"--listen-address=0.0.0.0:8080":                                "--listen-address=127.0.0.1:41001",
		"--listen-address=:7777":                                       "--listen-address=:7777",
		"--url=http://example.com:9090/":                               "--url=http://example.com:9090/",
		"--web.listen-address=localhost:9090":                          "--web.listen-address=127.0.0.1:41000",
		"--watch-secret=ns/prometheus-x=/etc/prometheus/config":        "--watch-secret=ns/prometheus-x=/pod/volumes/other/config",
		"--label=a=b":                                                  "--label=a=b",
	} {
		if got := pt.rewriteArg(m.rewriteArg(in)); got != want {
			t.Errorf("rewrite(%q) = %q, want %q", in, got, want)
		}
	}
}

const sampleConfig = `global:
  scrape_interval: 30s
rule_files:
- /etc/prometheus/rules/r-0/*.yaml
scrape_configs:
- job_name: serviceMonitor/demo/app/0
  kubernetes_sd_configs:
  - role: endpoints
    namespaces:
      names: [demo]
  metrics_path: /metrics
  relabel_configs:
  - target_label: endpoint
    replacement: web
- job_name: static
  static_configs:
  - targets: [10.0.0.1:80]
  kubernetes_sd_configs:
  - role: pod
    api_server: https://example:6443
alerting:
  alertmanagers:
  - kubernetes_sd_configs:
    - role: endpoints
`

func TestRewriteConfig(t *testing.T) {
	r := configRewrite{
		paths:      paths{"/etc/prometheus/rules/r-0": "/pod/volumes/r-0"},
		kubeconfig: "/state/kubeconfig",
		addresses:  map[string]string{"10.10.0.11:8080": "127.0.0.1:41002"},
	}
	gz, err := r.rewriteFile("prometheus.yaml", []byte(sampleConfig))
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		RuleFiles     []string `yaml:"rule_files"`
		ScrapeConfigs []struct {
			SD []map[string]any `yaml:"kubernetes_sd_configs"`
			RC []struct {
				Source      []string `yaml:"source_labels"`
				Regex       string   `yaml:"regex"`
				Target      string   `yaml:"target_label"`
				Replacement string   `yaml:"replacement"`
			} `yaml:"relabel_configs"`
			MetricsPath string `yaml:"metrics_path"`
		} `yaml:"scrape_configs"`
		Alerting struct {
			AMs []struct {
				SD []map[string]any `yaml:"kubernetes_sd_configs"`
				RC []any            `yaml:"relabel_configs"`
			} `yaml:"alertmanagers"`
		} `yaml:"alerting"`
	}
	if err := yaml.Unmarshal(gz, &cfg); err != nil {
		t.Fatal(err)
	}
	if cfg.RuleFiles[0] != "/pod/volumes/r-0/*.yaml" {
		t.Errorf("rule_files = %v", cfg.RuleFiles)
	}
	job := cfg.ScrapeConfigs[0]
	if job.SD[0]["kubeconfig_file"] != "/state/kubeconfig" || job.MetricsPath != "/metrics" {
		t.Errorf("job 0: sd %v, metrics_path %s", job.SD, job.MetricsPath)
	}
	if _, ok := cfg.ScrapeConfigs[1].SD[0]["kubeconfig_file"]; ok {
		t.Error("kubeconfig_file added next to api_server")
	}
	if cfg.Alerting.AMs[0].SD[0]["kubeconfig_file"] != "/state/kubeconfig" || len(cfg.Alerting.AMs[0].RC) != 2 {
		t.Errorf("alertmanagers: %+v", cfg.Alerting.AMs[0])
	}
	if n := len(job.RC); n != 3 {
		t.Fatalf("job 0 has %d relabelings, want its own and two appended", n)
	}
	inst, addr := job.RC[1], job.RC[2]
	if strings.Join(inst.Source, ",") != "instance,__address__" || inst.Target != "instance" {
		t.Errorf("instance relabeling: %+v", inst)
	}
	if addr.Regex != `10\.10\.0\.11:8080` || addr.Replacement != "127.0.0.1:41002" || addr.Target != "__address__" {
		t.Errorf("address relabeling: %+v", addr)
	}
	// gzip round trip
	z, err := r.rewriteFile("prometheus.yaml.gz", gzipBytes(t, sampleConfig))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(gunzipString(t, z), "/pod/volumes/r-0/*.yaml") {
		t.Error("gzipped config not rewritten")
	}
}
