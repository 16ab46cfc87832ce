package chartcompare

import (
	"strings"
	"testing"
)

// promSecret is the snapshot value of a config Secret holding cfg.
func promSecret(cfg map[string]any) any {
	return map[string]any{"type": "Opaque", "data": map[string]any{"prometheus.yaml.gz": cfg}}
}

func job(relabel ...any) map[string]any {
	return map[string]any{"scrape_configs": []any{map[string]any{
		"job_name":              "serviceMonitor/ns/app/0",
		"kubernetes_sd_configs": []any{map[string]any{"role": "endpoints"}},
		"relabel_configs":       relabel,
	}}}
}

var (
	phaseDrop  = map[string]any{"action": "drop", "regex": "(Failed|Succeeded)", "source_labels": []any{"__meta_kubernetes_pod_phase"}}
	nsLabel    = map[string]any{"source_labels": []any{"__meta_kubernetes_namespace"}, "target_label": "namespace"}
	keepApp    = map[string]any{"action": "keep", "regex": "(app);true", "source_labels": []any{"__meta_kubernetes_service_label_app", "__meta_kubernetes_service_labelpresent_app"}}
	hashOne    = map[string]any{"action": "hashmod", "modulus": 1, "source_labels": []any{"__address__"}, "target_label": "__tmp_hash"}
	keepShard  = map[string]any{"action": "keep", "regex": "$(SHARD)", "source_labels": []any{"__tmp_hash"}}
	hashTwo    = map[string]any{"action": "hashmod", "modulus": 2, "source_labels": []any{"__address__"}, "target_label": "__tmp_hash"}
	curShard   = map[string]any{"replacement": "$(SHARD)", "target_label": "__tmp_current_shard"}
	keepCur    = map[string]any{"action": "keep", "regex": "0|1", "source_labels": []any{"__tmp_current_shard"}}
	hashAddrUp = map[string]any{"regex": "(.+);", "replacement": "$1", "source_labels": []any{"__address__", "__tmp_hash"}, "target_label": "__tmp_hash"}
	hashAddrLo = map[string]any{"regex": ";(.+)", "replacement": "$1", "source_labels": []any{"__tmp_hash", "__address__"}, "target_label": "__tmp_hash"}
	key        = "Secret/ns/prometheus-k8s"
	ruleSecret = "rules/ns/prometheus-k8s-rulefiles"
)

// The allowances make equal what is documented, and nothing else: a real change in a
// relabel rule, a rule, an argument or a missing object still fails.
func TestCompareAllowsOnlyWhatIsListed(t *testing.T) {
	for _, c := range []struct {
		name     string
		up, lo   snapshot
		wantDiff string // "" for equal
	}{
		{"same configuration", snapshot{key: promSecret(job(keepApp, nsLabel))}, snapshot{key: promSecret(job(keepApp, nsLabel))}, ""},
		{"defaults written out", snapshot{key: promSecret(job(nsLabel))},
			snapshot{key: promSecret(job(map[string]any{"action": "replace", "regex": "(.*)", "replacement": "$1", "separator": ";", "source_labels": []any{"__meta_kubernetes_namespace"}, "target_label": "namespace"}))}, ""},
		{"pod phase drop moved", snapshot{key: promSecret(job(keepApp, nsLabel, phaseDrop))}, snapshot{key: promSecret(job(phaseDrop, keepApp, nsLabel))}, ""},
		{"pod phase drop missing", snapshot{key: promSecret(job(keepApp, nsLabel, phaseDrop))}, snapshot{key: promSecret(job(keepApp, nsLabel))}, "differs"},
		{"one shard's rules", snapshot{key: promSecret(job(keepApp, hashOne, keepShard))}, snapshot{key: promSecret(job(keepApp))}, ""},
		{"two shards' rules missing", snapshot{key: promSecret(job(keepApp, hashTwo, keepShard))}, snapshot{key: promSecret(job(keepApp))}, "differs"},
		{"two shards in upstream's form", snapshot{key: promSecret(job(keepApp, curShard, keepCur, hashAddrUp, hashTwo, keepShard))}, snapshot{key: promSecret(job(keepApp, hashAddrLo, hashTwo, keepShard))}, ""},
		{"two shards, a shard left out", snapshot{key: promSecret(job(keepApp, curShard, map[string]any{"action": "keep", "regex": "0", "source_labels": []any{"__tmp_current_shard"}}, hashAddrUp, hashTwo, keepShard))}, snapshot{key: promSecret(job(keepApp, hashAddrLo, hashTwo, keepShard))}, "differs"},
		{"another keep regex", snapshot{key: promSecret(job(keepApp))}, snapshot{key: promSecret(job(map[string]any{"action": "keep", "regex": "(app.v1);true", "source_labels": []any{"__meta_kubernetes_service_label_app", "__meta_kubernetes_service_labelpresent_app"}}))}, "differs"},
		{"configuration Prometheus refuses", snapshot{key: promSecret(map[string]any{"nonsense": true})}, snapshot{key: promSecret(map[string]any{"nonsense": false})}, "not compared"},
		{"zero for", snapshot{ruleSecret: map[string]any{"f.yaml": map[string]any{"groups": []any{map[string]any{"name": "g", "rules": []any{map[string]any{"alert": "A", "expr": "up == 0", "for": "0s"}}}}}}},
			snapshot{ruleSecret: map[string]any{"f.yaml": map[string]any{"groups": []any{map[string]any{"name": "g", "rules": []any{map[string]any{"alert": "A", "expr": "up == 0"}}}}}}}, ""},
		{"another for", snapshot{ruleSecret: map[string]any{"f.yaml": map[string]any{"groups": []any{map[string]any{"name": "g", "rules": []any{map[string]any{"alert": "A", "expr": "up == 0", "for": "5m"}}}}}}},
			snapshot{ruleSecret: map[string]any{"f.yaml": map[string]any{"groups": []any{map[string]any{"name": "g", "rules": []any{map[string]any{"alert": "A", "expr": "up == 0"}}}}}}}, "differs"},
		{"rule files over more ConfigMaps", snapshot{"objects": []string{"ConfigMap/ns/prometheus-k8s-rulefiles-0"}}, snapshot{"objects": []string{"ConfigMap/ns/prometheus-k8s-rulefiles-0", "ConfigMap/ns/prometheus-k8s-rulefiles-1"}}, ""},
		{"another object", snapshot{"objects": []string{"Secret/ns/a"}}, snapshot{"objects": []string{"Secret/ns/a", "Secret/ns/b"}}, "differs"},
		{"object on one side", snapshot{"Secret/ns/a": "x"}, snapshot{}, "prometheus-operator only"},
		{"reloader defaults explicit", snapshot{"StatefulSet/ns/s": map[string]any{"containers": []any{map[string]any{"name": "config-reloader", "command": "/bin/prometheus-config-reloader", "args": []string{"--reload-url=http://127.0.0.1:9090/-/reload"}}}}},
			snapshot{"StatefulSet/ns/s": map[string]any{"containers": []any{map[string]any{"name": "config-reloader", "command": "", "args": []string{"--reload-method=http", "--reload-url=http://127.0.0.1:9090/-/reload", "--watch-interval=3m0s"}}}}}, ""},
		{"another Prometheus argument", snapshot{"StatefulSet/ns/s": map[string]any{"containers": []any{map[string]any{"name": "prometheus", "args": []string{"--web.enable-lifecycle"}}}}},
			snapshot{"StatefulSet/ns/s": map[string]any{"containers": []any{map[string]any{"name": "prometheus", "args": []string{"--web.enable-lifecycle", "--watch-interval=3m0s"}}}}}, "differs"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := compare(c.up, c.lo, allowed)
			got := strings.Join(r.diffs, "\n")
			if c.wantDiff == "" && got != "" {
				t.Fatalf("want equal, got:\n%s", got)
			}
			if c.wantDiff != "" && !strings.Contains(got, c.wantDiff) {
				t.Fatalf("want a difference containing %q, got %q", c.wantDiff, got)
			}
		})
	}
}
