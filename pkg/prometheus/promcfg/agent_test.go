package promcfg_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prometheus/prometheus/config"
)

// TestAgentGoldensLoadInAgentMode loads the agent goldens as Prometheus does in agent
// mode, which refuses rule_files, alerting and remote_read, and checks what an agent's
// configuration must and must not have.
func TestAgentGoldensLoadInAgentMode(t *testing.T) {
	files, err := filepath.Glob("testdata/agent_*.golden")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 2 {
		t.Fatalf("expected the agent goldens, found %v", files)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		text := strings.NewReplacer("$(SHARD)", "1", "$(POD_NAME)", "prom-agent-k8s-0", "$(NODE_NAME)", "node-a").Replace(string(data))
		for _, absent := range []string{"rule_files:", "evaluation_interval:", "retention:", "alerting:"} {
			if strings.Contains(text, absent) {
				t.Errorf("%s has %q, which an agent's configuration must not have", f, absent)
			}
		}
		if !strings.Contains(text, "remote_write:") || !strings.Contains(text, "scrape_configs:") {
			t.Errorf("%s lacks remote_write or scrape_configs", f)
		}
		path := filepath.Join(t.TempDir(), "prometheus.yaml")
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := config.LoadFile(path, true, nil); err != nil {
			t.Errorf("%s does not load in agent mode: %v", f, err)
		}
	}
}
