package chartcompare

import (
	"regexp"
	"strings"
)

// allowed is the table of the differences the comparison lets through, each backed by an
// ADR or a line of Documentation/getting-started.md's migration differences ("Differences
// worth knowing"). They apply in this order: the configuration is loaded first, so that the
// others see Prometheus's form of it. Anything else that differs fails TestChartCompare.
var allowed = []allowance{
	{
		name:      "configuration as Prometheus loads it",
		key:       regexp.MustCompile(`^Secret/.*/prometheus-[^/]*$`),
		reason:    "ADR 11: Lookout's configuration is equivalent target for target, not byte for byte; compared after Prometheus's config.Load (defaults filled in, bearer_token_file folded into authorization)",
		normalize: asLoadedPrometheusConfig,
	},
	{
		name:      "rule-file packing",
		key:       regexp.MustCompile(`^(objects|StatefulSet/.*|Secret/.*/prometheus-[^/]*)$`),
		reason:    "Documentation/rules.md (Rule files and ConfigMaps): Lookout packs the files stably over 512 KiB ConfigMaps, each with a header, so it may use another number of rulefiles-<n> ConfigMaps; the files themselves are compared (rules/ entries)",
		normalize: anyRuleFilesConfigMap,
	},
	{
		name:      "rule files as Prometheus reads them",
		key:       regexp.MustCompile(`^rules/`),
		reason:    "Documentation/rules.md: Lookout writes rule files in Prometheus's rule file types (durations canonical, a zero `for` left out, a header comment); getting-started.md lists it",
		normalize: asParsedRuleFiles,
	},
	{
		name:      "no sharding rules for one shard",
		key:       regexp.MustCompile(`^Secret/.*/prometheus-[^/]*$`),
		reason:    "ADR 11 (sharding is among the equivalence cases); getting-started.md: with one shard Lookout writes no hashmod rules, which keep every target",
		normalize: withoutSingleShardRules,
	},
	{
		name:      "sharding rules' form",
		key:       regexp.MustCompile(`^Secret/.*/prometheus-[^/]*$`),
		reason:    "ADR 11 (sharding is among the equivalence cases) and ADR 12 (retained shards scrape nothing): Lookout writes no __tmp_current_shard rules and copies the address into __tmp_hash with its source labels the other way round; getting-started.md lists it",
		normalize: shardingRulesAsUpstream,
	},
	{
		name:      "pod phase drop position",
		key:       regexp.MustCompile(`^Secret/.*/prometheus-[^/]*$`),
		reason:    "ADR 11 (filterRunning is among the equivalence cases); getting-started.md: the rule dropping Failed and Succeeded pods stands earlier in Lookout's relabelings, with the same targets",
		normalize: podPhaseFirst,
	},
	{
		name:   "config-reloader arguments",
		key:    regexp.MustCompile(`^StatefulSet/`),
		reason: "Documentation/config-reloader.md and getting-started.md (the pod template differs in the reloader's arguments): Lookout passes --watch-interval and --reload-method explicitly, gives the init container no listener, and leaves the command to the image's entrypoint",
		normalize: func(_ string, v any) any {
			v = withoutArgs(v, []string{"config-reloader", "init-config-reloader"}, func(a string) bool {
				return hasAnyPrefix(a, "--watch-interval=3m", "--reload-method=http") ||
					a == "--listen-address=:8081"
			})
			return withoutField(v, []string{"config-reloader", "init-config-reloader"}, "command", func(s string) bool {
				return s == "" || strings.HasSuffix(s, "/prometheus-config-reloader")
			})
		},
	},
}
