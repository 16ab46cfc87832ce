package explain

import (
	"testing"

	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/relabel"
)

// TestCause: the words for each rule shape the operator generates.
func TestCause(t *testing.T) {
	rule := func(action relabel.Action, re string, src ...string) *relabel.Config {
		c := &relabel.Config{Action: action, Regex: relabel.MustNewRegexp(re), Separator: ";"}
		for _, s := range src {
			c.SourceLabels = append(c.SourceLabels, model.LabelName(s))
		}
		return c
	}
	const lbl, present = "__meta_kubernetes_service_label_tier", "__meta_kubernetes_service_labelpresent_tier"
	for _, c := range []struct {
		rule *relabel.Config
		vals []string
		want string
	}{
		{rule(relabel.Keep, "web", metaSlicePort), []string{"grpc"}, `port name is "grpc"; the endpoint asks for "web"`},
		{rule(relabel.Keep, "web", metaEndpointsPort), []string{""}, `the port has no name; the endpoint asks for "web"`},
		{rule(relabel.Keep, "metrics", metaContainerPort), []string{"http"}, `container port name is "http"; the endpoint asks for "metrics"`},
		{rule(relabel.Keep, "(backend);true", lbl, present), []string{"", ""}, `the Service has no label tier; the selector wants tier=backend`},
		{rule(relabel.Keep, "(backend);true", lbl, present), []string{"front", "true"}, `the Service's label tier is "front"; the selector wants backend`},
		{rule(relabel.Keep, `(a|b\.c);true`, lbl, present), []string{"x", "true"}, `the Service's label tier is "x"; the selector wants one of a, b.c`},
		{rule(relabel.Drop, "(a|b);true", lbl, present), []string{"a", "true"}, `the Service's label tier is "a", which the selector excludes (one of a, b)`},
		{rule(relabel.Keep, "true", present), []string{""}, `the Service has no label tier; the selector wants it present`},
		{rule(relabel.Drop, "true", "__meta_kubernetes_pod_labelpresent_canary"), []string{"true"}, `the Pod has label canary; the selector wants it absent`},
		{rule(relabel.Drop, "(Failed|Succeeded)", metaPodPhase), []string{"Succeeded"}, `the pod's phase is "Succeeded"; the job drops pods that are Failed|Succeeded`},
		{rule(relabel.Keep, "true", metaSliceReady), []string{"false"}, `the address is not ready (__meta_kubernetes_endpointslice_endpoint_conditions_ready is "false")`},
		{rule(relabel.Keep, "0;|.+;.+", shardHash, "__tmp_disable_sharding"), []string{"1", ""}, `the target belongs to another shard: its hash __tmp_hash is "1" and this shard keeps 0;|.+;.+`},
		{rule(relabel.Keep, "0|1", shardCurrent), []string{"2"}, `shard "2" is a retained shard beyond spec.shards and scrapes nothing`},
		{rule(relabel.Keep, "x", "__meta_kubernetes_service_annotation_scrape"), []string{"no"}, `__meta_kubernetes_service_annotation_scrape = "no" does not match the regex "x" (action keep)`},
	} {
		if got := cause(c.rule, c.vals); got != c.want {
			t.Errorf("%v %v:\n got %q\nwant %q", c.rule.SourceLabels, c.vals, got, c.want)
		}
	}
}
