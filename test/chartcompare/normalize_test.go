package chartcompare

import (
	"fmt"
	"io"
	"log/slog"
	"regexp"
	"slices"
	"strings"

	promconfig "github.com/prometheus/prometheus/config"
	"github.com/prometheus/prometheus/model/rulefmt"
	yamlv3 "go.yaml.in/yaml/v3"
	"sigs.k8s.io/yaml"
)

// The normalizers of the allowances in allowed_test.go. Each takes one snapshot value
// and returns a new one; values it does not recognise are returned as they are.

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// asLoadedPrometheusConfig replaces every prometheus.yaml.gz in a Secret's data with the
// configuration as Prometheus loads it (config.Load, then marshalled back): defaults
// filled in (relabel action, separator, regex, replacement; alerting scheme), the
// deprecated bearer_token_file folded into authorization.credentials_file.
func asLoadedPrometheusConfig(_ string, v any) any {
	return mapData(v, "prometheus.yaml.gz", func(cfg any) any {
		b, err := yaml.Marshal(cfg)
		if err != nil {
			return unreadablePrefix + "unmarshalable: " + err.Error()
		}
		c, err := promconfig.Load(string(b), quiet)
		if err != nil {
			return unreadablePrefix + "Prometheus refuses it: " + err.Error()
		}
		out, err := yamlv3.Marshal(c)
		if err != nil {
			return unreadablePrefix + "unmarshalable: " + err.Error()
		}
		var data any
		if err := yaml.Unmarshal(out, &data); err != nil {
			return unreadablePrefix + "unreadable: " + err.Error()
		}
		dropDefaultRegex(data)
		return data
	})
}

// dropDefaultRegex removes regex "(.*)", the default, from every relabel rule in v:
// Prometheus marshals it when it was written and leaves it out when it was not.
func dropDefaultRegex(v any) {
	switch t := v.(type) {
	case []any:
		for _, e := range t {
			dropDefaultRegex(e)
		}
	case map[string]any:
		if _, isRule := t["action"]; isRule && t["regex"] == "(.*)" {
			delete(t, "regex")
		}
		for _, e := range t {
			dropDefaultRegex(e)
		}
	}
}

// asParsedRuleFiles replaces each rule file of a rules/ entry with the file read into
// Prometheus's rule file types and written back: durations in their canonical form, a
// zero `for` the same as none.
func asParsedRuleFiles(_ string, v any) any {
	files, ok := v.(map[string]any)
	if !ok {
		return v
	}
	out := map[string]any{}
	for name, f := range files {
		b, err := yaml.Marshal(f)
		if err != nil {
			out[name] = unreadablePrefix + "unmarshalable: " + err.Error()
			continue
		}
		var groups rulefmt.RuleGroups
		if err := yamlv3.Unmarshal(b, &groups); err != nil {
			out[name] = unreadablePrefix + "not a rule file: " + err.Error()
			continue
		}
		b, err = yamlv3.Marshal(groups)
		if err != nil {
			out[name] = unreadablePrefix + "unmarshalable: " + err.Error()
			continue
		}
		var data any
		_ = yaml.Unmarshal(b, &data)
		out[name] = data
	}
	return out
}

// mapData applies f to data[key] of a Secret or ConfigMap snapshot value.
func mapData(v any, key string, f func(any) any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	data, ok := m["data"].(map[string]any)
	if !ok || data[key] == nil {
		return v
	}
	nd := map[string]any{}
	for k, val := range data {
		nd[k] = val
	}
	nd[key] = f(data[key])
	nm := map[string]any{}
	for k, val := range m {
		nm[k] = val
	}
	nm["data"] = nd
	return nm
}

// mapRelabelLists applies f to every relabel_configs list of a loaded Prometheus
// configuration (in a Secret snapshot value).
func mapRelabelLists(v any, f func([]any) []any) any {
	return mapData(v, "prometheus.yaml.gz", func(cfg any) any {
		c, ok := cfg.(map[string]any)
		if !ok {
			return cfg
		}
		jobs, ok := c["scrape_configs"].([]any)
		if !ok {
			return cfg
		}
		nc := map[string]any{}
		for k, val := range c {
			nc[k] = val
		}
		var nj []any
		for _, j := range jobs {
			job, ok := j.(map[string]any)
			if !ok {
				nj = append(nj, j)
				continue
			}
			cp := map[string]any{}
			for k, val := range job {
				cp[k] = val
			}
			if rl, ok := job["relabel_configs"].([]any); ok {
				cp["relabel_configs"] = f(rl)
			}
			nj = append(nj, cp)
		}
		nc["scrape_configs"] = nj
		return nc
	})
}

func rule(r any) map[string]any {
	m, _ := r.(map[string]any)
	return m
}

func strs(v any) []string {
	l, _ := v.([]any)
	var out []string
	for _, s := range l {
		out = append(out, fmt.Sprint(s))
	}
	return out
}

// withoutSingleShardRules drops the sharding rules of a job that has one shard (a
// hashmod with modulus 1): they keep every target. prometheus-operator writes them for
// one shard too; Lookout writes them only for more.
func withoutSingleShardRules(_ string, v any) any {
	return mapRelabelLists(v, func(rl []any) []any {
		single := false
		for _, r := range rl {
			if m := rule(r); m["action"] == "hashmod" && fmt.Sprint(m["modulus"]) == "1" {
				single = true
			}
		}
		if !single {
			return rl
		}
		var out []any
		for _, r := range rl {
			m := rule(r)
			touches := m["target_label"] == "__tmp_hash" || m["target_label"] == "__tmp_current_shard"
			for _, s := range strs(m["source_labels"]) {
				touches = touches || s == "__tmp_hash" || s == "__tmp_current_shard"
			}
			if !touches {
				out = append(out, r)
			}
		}
		return out
	})
}

// podPhaseFirst moves the rule dropping Failed and Succeeded pods to the front of its
// list when no rule of the list writes __meta_kubernetes_pod_phase: a drop on a label
// nothing writes keeps the same targets wherever it stands. prometheus-operator places it
// after the namespace, service, pod and container labels; Lookout before them.
func podPhaseFirst(_ string, v any) any {
	return mapRelabelLists(v, func(rl []any) []any {
		at := -1
		for i, r := range rl {
			m := rule(r)
			if m["target_label"] == "__meta_kubernetes_pod_phase" {
				return rl
			}
			if m["action"] == "drop" && slices.Equal(strs(m["source_labels"]), []string{"__meta_kubernetes_pod_phase"}) {
				at = i
			}
		}
		if at < 0 {
			return rl
		}
		out := []any{rl[at]}
		out = append(out, rl[:at]...)
		return append(out, rl[at+1:]...)
	})
}

var rulefilesSuffix = regexp.MustCompile(`-rulefiles-[0-9]+`)

// anyRuleFilesConfigMap replaces the number of every rule ConfigMap name (in the object
// names, the StatefulSet arguments and the configuration's rule_files) with *, and drops
// the duplicates this makes: how many ConfigMaps the rule files take is not compared,
// the rule files themselves are (the rules/ entries).
func anyRuleFilesConfigMap(_ string, v any) any {
	return mapStrings(v)
}

func mapStrings(v any) any {
	switch t := v.(type) {
	case string:
		return rulefilesSuffix.ReplaceAllString(t, "-rulefiles-*")
	case []string:
		var out []string
		for _, s := range t {
			s = rulefilesSuffix.ReplaceAllString(s, "-rulefiles-*")
			if !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
		return out
	case []any:
		var out []any
		for _, e := range t {
			e = mapStrings(e)
			if s, ok := e.(string); ok && slices.ContainsFunc(out, func(o any) bool { return o == s }) {
				continue
			}
			out = append(out, e)
		}
		return out
	case map[string]any:
		out := map[string]any{}
		for k, e := range t {
			out[k] = mapStrings(e)
		}
		return out
	}
	return v
}

// withoutArgs returns a StatefulSet snapshot value without the arguments drop matches in
// the containers named in names.
func withoutArgs(v any, names []string, drop func(arg string) bool) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	out := map[string]any{}
	for k, val := range m {
		out[k] = val
	}
	for _, field := range []string{"containers", "initContainers"} {
		cs, _ := m[field].([]any)
		var ncs []any
		for _, c := range cs {
			cm, _ := c.(map[string]any)
			if cm == nil || !slices.Contains(names, fmt.Sprint(cm["name"])) {
				ncs = append(ncs, c)
				continue
			}
			nc := map[string]any{}
			for k, val := range cm {
				nc[k] = val
			}
			args, _ := cm["args"].([]string)
			nc["args"] = slices.DeleteFunc(slices.Clone(args), drop)
			ncs = append(ncs, nc)
		}
		out[field] = ncs
	}
	return out
}

func hasAnyPrefix(s string, prefixes ...string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// withoutField blanks field of the containers named in names when drop accepts its value.
func withoutField(v any, names []string, field string, drop func(string) bool) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	out := map[string]any{}
	for k, val := range m {
		out[k] = val
	}
	for _, list := range []string{"containers", "initContainers"} {
		cs, _ := m[list].([]any)
		var ncs []any
		for _, c := range cs {
			cm, _ := c.(map[string]any)
			if cm == nil || !slices.Contains(names, fmt.Sprint(cm["name"])) || !drop(fmt.Sprint(cm[field])) {
				ncs = append(ncs, c)
				continue
			}
			nc := map[string]any{}
			for k, val := range cm {
				nc[k] = val
			}
			delete(nc, field)
			ncs = append(ncs, nc)
		}
		out[list] = ncs
	}
	return out
}

// shardingRulesAsUpstream brings the sharding rules of a job with more than one shard to
// one form: prometheus-operator first keeps only targets whose $(SHARD) is among the
// shards 0..n-1 (__tmp_current_shard; always true in a running shard, and ADR 12 makes
// retained shards scrape nothing in Lookout), which is dropped here; and it copies
// __address__ into an empty __tmp_hash with source labels [__address__, __tmp_hash] and
// regex "(.+);", which Lookout writes as [__tmp_hash, __address__] and ";(.+)" (both
// match only an empty __tmp_hash and copy the address).
func shardingRulesAsUpstream(_ string, v any) any {
	return mapRelabelLists(v, func(rl []any) []any {
		modulus := ""
		for _, r := range rl {
			if m := rule(r); m["action"] == "hashmod" {
				modulus = fmt.Sprint(m["modulus"])
			}
		}
		if modulus == "" || modulus == "1" {
			return rl
		}
		var n int
		if _, err := fmt.Sscan(modulus, &n); err != nil {
			return rl
		}
		var all []string
		for i := 0; i < n; i++ {
			all = append(all, fmt.Sprint(i))
		}
		var out []any
		for _, r := range rl {
			m := rule(r)
			switch {
			case m["target_label"] == "__tmp_current_shard" && m["replacement"] == "$(SHARD)":
				continue
			case m["action"] == "keep" && slices.Equal(strs(m["source_labels"]), []string{"__tmp_current_shard"}) && m["regex"] == strings.Join(all, "|"):
				continue
			case m["target_label"] == "__tmp_hash" && slices.Equal(strs(m["source_labels"]), []string{"__tmp_hash", "__address__"}) && m["regex"] == ";(.+)":
				nm := map[string]any{}
				for k, val := range m {
					nm[k] = val
				}
				nm["source_labels"] = []any{"__address__", "__tmp_hash"}
				nm["regex"] = "(.+);"
				out = append(out, nm)
				continue
			}
			out = append(out, r)
		}
		return out
	})
}
